"""The marker grammar and the superscript map: what a footnote marker looks like, opening a
definition or cited in text, and how a raised note number is written.

Styles: ``[N]`` (numbered document-wide); ``(N)``, ``(a)``, ``*``/``†``/``‡`` (10-K style, restarted
under every table or page: meaningful only in a document that defines them, since ``(a)`` is also
a list item); Unicode superscript digits (the PDF loader writes them where type sizes reveal
them); a bare number opening a note line (``1 Includes``) is read as a superscript where the
document cites superscripts. Nothing here reads context: whether a match is a citation or a
definition is decided in ``citations`` and ``definitions``.
"""

from __future__ import annotations

import re
from typing import Literal

SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"  # how loaders write a raised note number, by value
TO_SUPERSCRIPT = str.maketrans("0123456789", SUPERSCRIPT_DIGITS)
FROM_SUPERSCRIPT = str.maketrans(SUPERSCRIPT_DIGITS, "0123456789")

MarkerStyle = Literal["bracket", "paren-number", "paren-letter", "symbol", "superscript"]
SCOPED_STYLES = {"paren-number", "paren-letter", "symbol", "superscript"}  # reused per table / page

DEFINITION_RE = re.compile(
    r"^(?P<indent>\s*)(?:"
    r"\[(?P<bracket>\d{1,4})\]"
    r"|\((?P<pnum>\d{1,2})\)"
    r"|\((?P<plet>[a-hj-uwyz])\)"
    r"|(?P<sym>\*{1,3}|†|‡)"
    rf"|(?P<sup>[{SUPERSCRIPT_DIGITS}]{{1,2}})"
    r"|(?P<bare>\d{1,2})(?=\s+[A-Z])"
    r")\s*(?P<text>\S.*)$"
)
CITATION_RE = re.compile(
    r"\[(?P<bracket>\d{1,4})\]"
    r"|\((?P<pnum>\d{1,2})\)(?![\w(])"
    r"|\((?P<plet>[a-hj-uwyz])\)(?![\w(])"
    r"|(?<=[\w%)\].,])(?P<sym>\*{1,3}|†|‡)"
    rf"|(?P<sup>[{SUPERSCRIPT_DIGITS}]{{1,2}})"
)
# a marker opening a body line with what follows it: a citation that wrapped (``zones``)
WRAPPED_MARKER_RE = re.compile(
    r"^\s*(?:\[\d{1,4}\]|\(\d{1,2}\)|\([a-z]\)|[" + SUPERSCRIPT_DIGITS + r"]{1,2})"
    r"(?P<punct>[.,;:)])?(?P<rest>\s*\S?)"
)

# what the PDF reader reads by type size and raise: digits that may be a superscript note number
# glued to what precedes it ("sales3", "202811") or opening a line; a 10-K style marker token,
# and a line of nothing but such markers (set apart from the row that cites them)
GLUED_DIGITS_RE = re.compile(r"(?<=[\w%).,;:”’\"])(\d{1,2})(?=[\s,.;:)]|$)")
LEADING_DIGITS_RE = re.compile(r"^(\d{1,2})(?=\s*[A-Z(\"“$])")
MARKER_TOKEN_RE = re.compile(r"\(\d{1,2}\)|\([a-z]\)|\*{1,3}|[†‡]")
DISPLACED_LINE_RE = re.compile(r"^\s*(?:(?:\(\d{1,2}\)|\([a-z]\)|\*{1,3}|[†‡])[\s,]*)+$")


def marker_of(match: re.Match[str]) -> tuple[str, MarkerStyle] | None:
    """The canonical printed marker and style of a definition or citation match."""
    groups = match.groupdict()
    if groups.get("bracket"):
        return f"[{groups['bracket']}]", "bracket"
    if groups.get("pnum"):
        return f"({groups['pnum']})", "paren-number"
    if groups.get("plet"):
        return f"({groups['plet']})", "paren-letter"
    if groups.get("sym"):
        return groups["sym"], "symbol"
    if groups.get("sup"):
        return groups["sup"], "superscript"
    if groups.get("bare"):
        return groups["bare"].translate(TO_SUPERSCRIPT), "superscript"
    return None
