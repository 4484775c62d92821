"""Whose statements a page prints: the registrant's, or another company's.

A 10-K may print, besides the registrant's statements, a full set of another company's: an
equity investee's under Regulation S-X Rule 3-09 (Corning's 2015 10-K carries Dow Corning's and
Samsung Corning Precision Materials' after its own), an acquired business's, a guarantor's.
They are titled and laid out like the registrant's ("DOW CORNING CORPORATION AND SUBSIDIARIES
CONSOLIDATED STATEMENTS OF CASH FLOWS"), so the page classifier calls them statement pages and
their rows became the registrant's facts (Dow Corning's capital expenditures as Corning's).

What tells them apart is the company a heading names: a statement's title, or a heading of a
set of financial statements (its index, its notes), names whose statements follow. Another
company named there holds the pages from that heading on, until a heading names the registrant
again or another Item (or exhibit) begins: its statements are no statement pages of the
registrant. The registrant is the company the cover names; when no heading names it in any form
(a cover read wrong), the first company a heading names is: a filing prints its own
statements before any other company's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.ingest.statements import TITLE_WORDS, TOP_LINES, StatementKind

HEAD_CHARS = 300  # characters of a line read for a heading (a run-on page is one long line)
# link text and furniture before a heading: "Table of Contents", "Index", "Corning Index",
# "DowCorningIndex" (the filing's own running head for the investee's statements)
FURNITURE_RE = re.compile(r"^(?:[A-Z]\w*\s+)?(?:table\s+of\s+contents|\w*index)\s+", re.I)
# the words that open a heading of statements
HEADING_RE = re.compile(
    r"\b(?:(?:index|notes)\s+to\s+(?:the\s+)?)?(?:(?:consolidated|condensed|combined)\s+)*"
    r"(?:financial\s+statements|statements?\s+of|balance\s+sheets?|income\s+statements?"
    r"|cash\s+flows?\s+statements?)\b",
    re.I,
)
_SUFFIX = (r"(?i:inc|incorporated|corp|corporation|company|co|llc|plc|ltd|limited|lp|l\.p|"
           r"n\.v|s\.a|ag|international|holdings|group)\b\.?")
_WORD = r"[A-Z0-9][\w.'’&-]*,?"
# a company as a heading names it: capitalized words up to a legal form ("Dow Corning
# Corporation", "Samsung Corning Precision Materials Co., Ltd.", "JPMorgan Chase & Co."),
# then maybe "and Subsidiaries" / "and Subsidiary Companies"
NAME_RE = re.compile(
    rf"(?:(?i:the)\s+)?(?:{_WORD}\s+(?:(?:of|&)\s+)?){{1,6}}?{_SUFFIX}(?:,?\s+{_SUFFIX})?"
    r"(?:\s+(?i:and)\s+(?i:subsidiar(?:y|ies))(?:\s+(?i:compan(?:y|ies)))?)?"
)
# a title's own words after its opening ("... of Changes in Shareholders' Equity"), skipped to
# reach a company named after it
_TITLE_TAIL_WORDS = TITLE_WORDS | {
    "of", "and", "in", "the", "total", "loss", "losses", "deficit", "retained", "other",
    "redeemable", "noncontrolling", "interest", "interests", "shareowners", "members",
    "partners", "capital", "investment",
}
_TITLE_TOKEN_RE = re.compile(r"\s*(?:\([^()]*\)|[A-Za-z’']+,?)")
# words of a company's name that say its legal form or its group, not which company it is
_FORM_WORDS = frozenset({
    "the", "and", "inc", "incorporated", "corp", "corporation", "company", "companies", "co",
    "llc", "plc", "ltd", "limited", "lp", "nv", "sa", "ag", "subsidiary", "subsidiaries",
})


def entity_key(name: str) -> tuple[str, ...]:
    """A company's name as compared: lower case, no punctuation, no legal form at its ends
    ("THE COCA-COLA COMPANY AND SUBSIDIARIES" and "Coca Cola Co" are both ``("coca",
    "cola")``; a split "CO STCO" keeps its "co")."""
    text = name.lower().replace(".", "").replace("'", "").replace("’", "")
    words = re.sub(r"[^0-9a-z]+", " ", text).split()
    while words and words[-1] in _FORM_WORDS:
        words.pop()
    return tuple(words[1:] if words[:1] == ["the"] else words)


def same_entity(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two keys name one company: the same words, or one the other's first words ("Wal-Mart"
    and "Wal-Mart Stores"); "Dow Corning" is not "Corning", nor "Samsung Corning ..."."""
    if not a or not b:
        return False
    short, long = sorted((a, b), key=len)
    return long[: len(short)] == short or "".join(a) == "".join(b)


def _bare_name(line: str) -> str | None:
    """The company a line names and nothing else ("3M Company and Subsidiaries")."""
    text = FURNITURE_RE.sub("", " ".join(line.replace("|", " ").split()))
    return text if NAME_RE.fullmatch(text.strip(" ,")) else None


def _after_title(text: str) -> str:
    """What follows a title's own words and parentheses ("Income (Loss) Corning ..." gives
    "Corning ...")."""
    at = 0
    while match := _TITLE_TOKEN_RE.match(text, at):
        token = match.group(0).strip(" ,").lower().rstrip("’'")
        if not token.startswith("(") and token.removesuffix("’s") not in _TITLE_TAIL_WORDS:
            break
        at = match.end()
    return text[at:].strip()


def heading_of(line: str) -> tuple[bool, str | None]:
    """Whether a line is a heading of statements (it opens with a title's words, or with a
    company then those words), and the company it names before or right after them."""
    text = FURNITURE_RE.sub("", " ".join(line.replace("|", " ").split())[:HEAD_CHARS])
    match = HEADING_RE.search(text)
    if match is None:
        return False, None
    before = text[: match.start()].strip(" ,—–-")
    if before and not NAME_RE.fullmatch(before):
        return False, None  # prose that names a statement ("In our opinion, the ...")
    if before:
        return True, before
    after = NAME_RE.match(_after_title(text[match.end():]))
    return True, after.group(0) if after else None


def page_entity(lines: Sequence[str]) -> str | None:
    """The company the headings at a page's top name: in a heading's own line, else on the line
    just above or below a heading (a name printed on a line of its own)."""
    top = [line for line in lines if line.strip()][:TOP_LINES]
    for at, line in enumerate(top):
        heading, name = heading_of(line)
        if not heading:
            continue
        if name is not None:
            return name
        for near in (at - 1, at + 1):
            if 0 <= near < len(top) and (bare := _bare_name(top[near])) is not None:
                return bare
    return None


def registrant_keys(registrant: Sequence[str | None], named: Sequence[str]
                    ) -> list[tuple[str, ...]]:
    """The registrant's names as keys: the cover's, when a heading names it in one of its
    forms; else the first company a heading names (the filing's own statements come first)."""
    keys = [key for name in registrant if name and (key := entity_key(name))]
    if any(same_entity(entity_key(n), k) for n in named for k in keys):
        return keys
    return [entity_key(named[0])] if named else keys


def other_entity_pages(pages_lines: Sequence[Sequence[str]], items: Sequence[str | None],
                       registrant: Sequence[str | None]) -> list[bool]:
    """For each page, whether it belongs to another company's statements: from a heading that
    names a company other than the registrant up to a heading naming the registrant or the
    next Item (or exhibit) in force (``items``)."""
    named = [page_entity(lines) for lines in pages_lines]
    keys = registrant_keys(registrant, [n for n in named if n])
    out: list[bool] = []
    other, previous = False, None
    for name, item in zip(named, items, strict=True):
        if item != previous:
            other = False
        previous = item
        if name is not None:
            other = not any(same_entity(entity_key(name), k) for k in keys)
        out.append(other)
    return out


def registrant_statements(kinds: Sequence[StatementKind | None], others: Sequence[bool]
                          ) -> list[StatementKind | None]:
    """The classification with another company's statements and notes no statement page: its
    figures are not the registrant's (an MD&A page stays MD&A)."""
    return [None if other and kind != "mdna" else kind
            for kind, other in zip(kinds, others, strict=True)]
