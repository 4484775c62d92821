"""The parts MD&A explains a change by, kept only when their stated changes add up to the
whole's: sentences of American Water's Q2 2023 10-Q (p.41 and p.42), as the drivers read them."""

from __future__ import annotations

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.part_causes import parts_summing


def _cause(changed: str, causes: str, page: int) -> DirectAnswer:
    sentence = f"{changed}, {causes}."
    unit = EvidenceUnit(chunk_id=f"awk|2023|p{page}", document="american-water-works-10q-q2",
                        year=2023, chunk_rank=0, page=page, located=True, quote=sentence,
                        text=sentence)
    return DirectAnswer(kind="cause", text=sentence, units=[unit], changed=changed,
                        causes=causes)


REGULATED = _cause(
    "For the three months ended June 30, 2023, operating revenues increased $140 million",
    "primarily due to a $110 million increase from authorized rate increases", 40)
SIX_MONTHS = _cause(
    "For the six months ended June 30, 2023, operating revenues increased $222 million",
    "primarily due to a $181 million increase from authorized rate increases", 40)
OTHER = _cause(
    "For the three and six months ended June 30, 2023, operating revenues increased $20 "
    "million and $34 million, respectively", "due primarily to the increase in capital "
    "projects in MSG", 41)


def test_the_parts_of_the_period_asked_that_add_up_lead() -> None:
    found = parts_summing(160e6, 3, [SIX_MONTHS, OTHER, REGULATED])
    assert found is not None and found.text.startswith(
        "By its parts, as MD&A explains each: For the three months ended June 30, 2023, "
        "operating revenues increased $140 million (primarily due to"), found
    assert found.text.endswith("($140 million + $20 million)."), found.text
    six = parts_summing(256e6, 6, [REGULATED, OTHER, SIX_MONTHS])
    assert six is not None and six.text.endswith("($222 million + $34 million)."), six


def test_parts_that_do_not_add_up_explain_nothing() -> None:
    assert parts_summing(162e6, 3, [REGULATED, OTHER, SIX_MONTHS]) is None  # past rounding
    assert parts_summing(140e6, 3, [REGULATED]) is None  # one part alone is the whole's own
    assert parts_summing(-160e6, 3, [REGULATED, OTHER]) is None  # the other way
