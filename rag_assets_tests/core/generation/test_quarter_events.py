"""Yes to a debt event of a 10-Q's quarter from the sentence that dates it (Corning's Q2 2023
10-Q: its cover and its debt note's sentence, as units built here)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.quarter_events import quarter_debt_event
from rag_assets.core.question.question import read_question

COVER = "QUARTERLY REPORT PURSUANT TO SECTION 13 For the quarterly period ended June 30, 2023"
ISSUED = ("On May 15, 2023, the Company issued €300 million 3.875% Notes due 2026 (“2026 "
          "Notes”) and €550 million 4.125% Notes due 2031 (“2031 Notes”).")
EARLIER = "On February 10, 2023, the Company repaid $250 million of 3.70% Notes due 2023."


def _scan(*texts: str):  # type: ignore[no-untyped-def]
    units = [EvidenceUnit(chunk_id="c", document="corning-10q-q2", year=2023, chunk_rank=0,
                          page=i, located=True, quote=t, text=t) for i, t in enumerate(texts)]

    def scan(patterns: Sequence[re.Pattern[str]]) -> Iterator[EvidenceUnit]:
        return (u for u in units if any(p.search(u.text) for p in patterns))
    return scan


def test_an_event_dated_in_the_reports_quarter_answers_yes() -> None:
    question = read_question("Did Corning issue or repay any debt in Q2 2023?")
    found = quarter_debt_event(question, _scan(COVER, EARLIER, ISSUED))
    assert found is not None and found.text == f"Yes. {ISSUED}"


def test_no_yes_from_another_quarter_nor_for_a_quarter_the_report_does_not_cover() -> None:
    q2 = read_question("Did Corning issue or repay any debt in Q2 2023?")
    assert quarter_debt_event(q2, _scan(COVER, EARLIER)) is None  # February is Q1's
    q1 = read_question("Did Corning repay any debt in Q1 2023?")
    assert quarter_debt_event(q1, _scan(COVER, EARLIER, ISSUED)) is None  # a Q2 report
    year = read_question("Did Corning issue any debt in 2023?")
    assert quarter_debt_event(year, _scan(COVER, ISSUED)) is None  # not a quarter's question
