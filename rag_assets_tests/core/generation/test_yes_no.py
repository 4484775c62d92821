"""A yes or no read from the sentence that discloses it, and only of the period asked (no
store: units built here; the same rule on real filings is ``test_answer_forms_real.py``)."""

from __future__ import annotations

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.yes_no import prose_yes_no
from rag_assets.core.question.question import read_question


def unit(text: str) -> EvidenceUnit:
    return EvidenceUnit(chunk_id="c1", document="acme-10q", year=2022, chunk_rank=0, page=47,
                        located=True, quote=text, text=text)


NINE_MONTHS = unit("During the nine months ended September 30, 2022, the Firm repurchased "
                   "23.1 million shares of common stock for $3.1 billion.")
SUSPENDED = unit("On July 14, 2022, the Firm announced that it has temporarily suspended "
                 "share repurchases.")


def test_a_longer_period_does_not_answer_the_quarter_asked() -> None:
    question = read_question("Did the Firm buy back shares in the third quarter of 2022?")
    assert prose_yes_no(question, [NINE_MONTHS]) is None  # not "Yes" from nine months
    found = prose_yes_no(question, [NINE_MONTHS, SUSPENDED])
    assert found is not None and found.text.startswith("No. On July 14, 2022")


def test_the_year_asked_is_answered_by_its_own_sentence() -> None:
    question = read_question("Did the Firm buy back shares in 2021?")
    assert prose_yes_no(question, [NINE_MONTHS, SUSPENDED]) is None  # both speak of 2022
    question = read_question("Did the Firm buy back shares in 2022?")
    found = prose_yes_no(question, [NINE_MONTHS])
    assert found is None  # nine months is not the year either
