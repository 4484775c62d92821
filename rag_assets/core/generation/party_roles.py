"""Who acts in a role an agreement names: the parties a credit agreement or an indenture lists.

A credit agreement is described by its parties, each named before the role it plays: "among the
Company, as borrower, the lenders listed therein, JPMorgan Chase Bank, N.A., as syndication
agent, Citibank, N.A., ... and Wells Fargo Bank, National Association, as documentation agents,
and Bank of America, N.A., as administrative agent" (Lockheed Martin's 8-K of August 24, 2023).
"Which banks act as documentation agents ...?" is answered by the names printed before ", as
documentation agents", back to the role before them, as the filing prints them (a bank's name
holds commas: "Citibank, N.A."), so nothing is split that could be cut wrong. The roles are
``direct_cues.json``'s ``party_roles``, each with its source.
Hand-written: no library reads the parties clause of an agreement.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer, DirectCues, Scan, first_match
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.question.question import Question

# where a parties clause opens, or what comes before the names of this role: "among",
# "between", "with", ", as borrower," or a party's defined name closing ("(the “Lenders”),")
_OPENING = r"(?:\bamong|\bbetween|\bwith|,\s+as\s+(?:the\s+)?[a-z][\w\s-]{2,40}?,|\),)"


_ASKS_WHO_RE = re.compile(r"\s*(?:who|which)\b", re.IGNORECASE)  # names asked
# "between the Company and The Bank of New York Mellon Trust Company, N.A., as trustee": the
# filer named first is no party of the role
_FILER_FIRST_RE = re.compile(r"^(?:the\s+)?(?:company|registrant|issuer|borrower)\s+and\s+",
                             re.IGNORECASE)


def _parties_re(role: str) -> re.Pattern[str]:
    """The names printed before ", as <role>": from the opening or the role before them, no
    other role between (``(?!,\\s+as\\s)``), a leading "and" left out."""
    return re.compile(rf"{_OPENING}\s+(?:and\s+)?(?P<names>(?:(?!,\s+as\s)[^;(])+?),?\s+as\s+"
                      rf"(?:the\s+)?(?P<role>{role})\b", re.IGNORECASE)


def party_roles(question: Question, selected: Sequence[EvidenceUnit], scan: Scan | None,
                cues: DirectCues) -> DirectAnswer | None:
    """The names an agreement prints in the role a "who" or "which" question asks
    ("documentation agents"), or None: no role of ``party_roles`` asked, no names asked, or no
    sentence of the filing names it."""
    if _ASKS_WHO_RE.match(question.text) is None:
        return None  # "What did the administrative agent approve?" asks no names
    cue = first_match(cues.party_roles, question.text.lower())
    if cue is None:
        return None
    pattern = _parties_re(cue.pattern)
    units = [*selected, *(scan([pattern]) if scan is not None else [])]
    for unit in units:
        if unit.is_row or (found := pattern.search(unit.text)) is None:
            continue
        names = _FILER_FIRST_RE.sub("", " ".join(found["names"].split()).strip(" ,"))
        if not names or names.lower().startswith(("the company", "the lenders")):
            continue  # the filer's own role, or the lenders as a class
        return DirectAnswer(kind="list", units=[unit], supports=names,
                            text=f"{names}, as {found['role'].lower()}.")
    return None
