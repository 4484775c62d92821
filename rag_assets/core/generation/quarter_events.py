"""Yes to "Did X issue or repay any debt in Q2 2023?" from a 10-Q's dated sentence of the event.

A 10-Q's cash flow statement covers the year to date, so its flows do not say what happened in
the quarter (the metric engine never answers a quarter's yes or no from them). The debt note
and MD&A date each issuance or repayment ("On May 15, 2023, the Company issued €300 million
3.875% Notes due 2026 ..."), and the cover names the quarter the report covers ("For the
quarterly period ended June 30, 2023", Form 10-Q's cover page): a sentence that states such an
event on a date within the three months ending then answers "Yes", with the sentence. Only a
calendar quarter the question names as the report's is read (a fiscal quarter's name would need
the filer's fiscal calendar), and no sentence is no "No": a reader that finds none says nothing.
"""

from __future__ import annotations

import re

from rag_assets.core.generation.direct_rows import DirectAnswer, Scan
from rag_assets.core.question.question import Question
from rag_assets.core.text.periods import (
    EVENT_DATE_RE,
    QUARTERLY_PERIOD_END_RE,
    in_quarter,
    month_number,
    quarter_end,
)

# a sentence that states one ("3.875% Notes": a rate's point is no sentence's end), and the
# date it opens with or names
STATES_DEBT_EVENT_RE = re.compile(
    r"\b(?:issued|completed (?:an|the) (?:offering|issuance)|redeemed|repaid|retired|"
    r"borrowed|prepaid)\b(?:[^.;]|\.(?=\d)){0,160}?\b(?:notes|bonds|debentures|term loans?|debt|"
    r"borrowings)\b", re.IGNORECASE)


def asks_reported_quarter(question: Question, end: tuple[int, int]) -> bool:
    """Whether the quarter asked is the report's calendar quarter ("Q2 2023" of June 30); a
    fiscal quarter asked ("fiscal Q1 2023") is not read: its months are the filer's."""
    if end[1] % 3 or len(question.periods) != 1 or question.fiscal:
        return False
    quarter, year = question.periods[0]
    return quarter == f"Q{end[1] // 3}" and int(year) == end[0]


def quarter_debt_event(question: Question, scan: Scan | None) -> DirectAnswer | None:
    """"Yes." and the sentence dating a debt event in the quarter asked, or None."""
    if (scan is None or question.expects != "yes_no" or question.months != 3
            or not question.phrased("debt_event")):
        return None
    end = quarter_end(u.text for u in scan([QUARTERLY_PERIOD_END_RE]))
    if end is None or not asks_reported_quarter(question, end):
        return None
    for unit in scan([STATES_DEBT_EVENT_RE]):
        text = " ".join(unit.text.split())
        dated = EVENT_DATE_RE.search(text)
        if unit.is_row or dated is None or not STATES_DEBT_EVENT_RE.search(text):
            continue
        if in_quarter((int(dated[2]), month_number(dated[1])), end):
            return DirectAnswer(kind="yes_no", units=[unit], supports=unit.text,
                                text=f"Yes. {unit.text}")
    return None
