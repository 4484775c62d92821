"""Who audits a filer: the firm that signs the report of its independent registered public
accounting firm.

Item 8 of Form 10-K holds the auditor's report, which the firm signs ("/s/ Ernst & Young LLP")
and, since PCAOB AS 3101 (2017), follows with the year it became the auditor ("We have served as
the Company's auditor since 1921."). Retrieval ranks the report's other sentences first for "Who
is X's auditor?" (a critical audit matter, a heading), so the firm is read from its signatures:
one firm signs every report and consent the filing holds, and that firm is the answer, with the
year it began where the report prints it. Two firms (a predecessor auditor's report beside the
current one's) and nothing is said here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import printed_unit
from rag_assets.core.question.question import Question

SIGNED_FIRM_RE = re.compile(r"/s/\s*(?P<firm>[A-Z][\w&.,'’ -]{1,60}?\b(?:LLP|L\.L\.P\.|LLC))",
                            re.IGNORECASE)
SINCE_RE = re.compile(r"We have served as the Company[’']s auditors? since (?P<year>\d{4})\.?",
                      re.IGNORECASE)


def auditor(question: Question, document: str, year: int, pages: Sequence[tuple[int, str]]
            ) -> DirectAnswer | None:
    """The one firm that signs the filing's auditor's reports, and since when it has audited
    the company; None for another question, or none or two firms signing."""
    if not question.phrased("auditor") or question.phrased("audit_other"):
        return None
    signed = [(page, m) for page, text in pages for m in SIGNED_FIRM_RE.finditer(text)]
    firms = {" ".join(m["firm"].split()) for _, m in signed}
    if len(firms) != 1:
        return None
    firm = firms.pop()
    page, match = signed[0]
    units = [printed_unit(document, year, page, " ".join(match.group(0).split()))]
    since = next(((p, m) for p, text in pages for m in SINCE_RE.finditer(text)), None)
    said = f"{firm}, which signs the report of the independent registered public accounting firm"
    if since is not None:
        units.append(printed_unit(document, year, since[0], " ".join(since[1].group(0).split())))
        said += f" and has served as the company's auditor since {since[1]['year']}"
    return DirectAnswer(kind="list", text=f"{said}.", units=units, supports=units[0].text)
