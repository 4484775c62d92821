"""Who signed a current report: the signature block Form 8-K closes with.

General Instruction E and the form's SIGNATURES section have an 8-K signed on the registrant's
behalf by an officer, printed as "By: /s/ April Miller Boise" over the name and title (Intel's
8-K of August 16, 2023: "Executive Vice President and Chief Legal Officer"). A question that asks
who signed an 8-K is answered with that name and title, quoted from the block; a report whose
block prints no "/s/" signature, or several (a 10-K's directors), gets nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import printed_unit
from rag_assets.core.question.question import Question
from rag_assets.core.text.filing_kinds import form_of

SIGNED_RE = re.compile(r"/s/\s*(?P<name>[A-Z][\w.'’-]*(?:[ \t]+[A-Z][\w.'’-]*){1,4})[ \t]*$",
                       re.MULTILINE)
TITLE_WORDS_RE = re.compile(r"\b(?:officer|president|secretary|treasurer|counsel|controller|"
                            r"director|chair\w*|vice|chief)\b", re.IGNORECASE)


def signer(question: Question, document: str, year: int, pages: Sequence[tuple[int, str]]
           ) -> DirectAnswer | None:
    """The officer who signed the 8-K, with the title printed under the name, or None."""
    if not pages or not question.phrased("signer"):
        return None
    if form_of(document, pages[0][1]) != "8-K":
        return None
    found = [(page, m) for page, text in pages for m in SIGNED_RE.finditer(text)]
    if len({" ".join(m["name"].split()) for _, m in found}) != 1:
        return None
    page, match = found[0]
    name = " ".join(match["name"].split())
    text = dict(pages)[page]
    after = [line.strip() for line in text[match.end():].splitlines() if line.strip()][:3]
    title = next((line for line in after if line != name and TITLE_WORDS_RE.search(line)), "")
    quote = "\n".join([match.group(0).strip(), *after[:after.index(title) + 1]]
                      if title else [match.group(0).strip()])
    unit = printed_unit(document, year, page, quote)
    said = f"{name}, {title}" if title else name
    return DirectAnswer(kind="list", units=[unit], text=f"Signed by {said}.")

