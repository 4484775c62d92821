"""The boxes of a cited quote on its PDF page, from the boxes of the characters it is printed in.

pdfplumber gives every printed character with its box and groups them into lines; a quote is
found in the lines' letters and digits (``quote_match``), and each line it touches gives one
rectangle, the union of its matched characters' boxes: a sentence over three lines is three
rectangles, from its first word to its last. A table row is highlighted whole: a match that
begins its line and leaves only figures after it on its last line (a statement row quoted
without a column, ``$`` signs apart) covers its lines from edge to edge.

A quote the cited page does not hold whole may run over a page break: it is looked for across
the cited page and the next one (then the previous one and the cited one), and a match that
reaches the cited page is highlighted on both. Coordinates are PDF points from the page's
top-left corner, as pdfplumber gives them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_assets.core.evaluation.quote_match import find_parts, keyed, quote_parts
from rag_assets.core.footnotes.blocks import FOOTNOTE_BLOCK_RE

_FIGURES_ONLY_RE = re.compile(r"[\s$€£%().,\-–—0-9]*")
# a quote over a page break: at least this many letters and digits of it on the first page,
# ending within EDGE_CHARS of its end (a page number, a footer after it), and the rest within
# EDGE_CHARS of the top of the next (after its running head)
MIN_SIDE = 8
ATTACHED_GAP = 1.0  # points between two characters of one word (a space is 2 or more)
EDGE_CHARS = 400


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle on a page, in PDF points from its top-left corner."""

    x0: float
    top: float
    x1: float
    bottom: float

    def holds(self, other: Box, slack: float = 0.5) -> bool:
        return (self.x0 - slack <= other.x0 and other.x1 <= self.x1 + slack
                and self.top - slack <= other.top and other.bottom <= self.bottom + slack)


@dataclass(frozen=True, slots=True)
class PageBoxes:
    """Where a quote is printed on one page: the page's size and the rectangles."""

    page: int
    width: float
    height: float
    boxes: tuple[Box, ...]


@dataclass(slots=True)
class PageChars:
    """A page's characters line by line, and the key they spell (``quote_match.keyed``) with,
    for each key character, its line, its place in the line's text and its box."""

    page: int
    width: float
    height: float
    lines: list[tuple[str, Box]] = field(default_factory=list)
    line_chars: list[list[Box]] = field(default_factory=list)
    key: str = ""
    line_of: list[int] = field(default_factory=list)
    pos_of: list[int] = field(default_factory=list)
    box_of: list[Box] = field(default_factory=list)


def page_chars(pdf: Any, page: int) -> PageChars:
    """The characters of page ``page`` (zero-based) of an open ``pdfplumber.PDF``."""
    printed = pdf.pages[page]
    chars = PageChars(page, float(printed.width), float(printed.height))
    key: list[str] = []
    for number, line in enumerate(printed.extract_text_lines(return_chars=True, strip=False)):
        text = "".join(c["text"] for c in line["chars"])
        chars.lines.append((text, _box(line)))
        chars.line_chars.append([_box(c) for c in line["chars"]])
        found = keyed(text)
        key.append(found.key)
        chars.line_of.extend([number] * len(found.key))
        chars.pos_of.extend(found.where)
        chars.box_of.extend(_box(line["chars"][i]) for i in found.where)
    chars.key = "".join(key)
    return chars


def _box(obj: dict[str, Any]) -> Box:
    return Box(float(obj["x0"]), float(obj["top"]), float(obj["x1"]), float(obj["bottom"]))


def quote_boxes(pages: Sequence[PageChars], cited: int, quote: str) -> list[PageBoxes]:
    """The rectangles of ``quote`` on the page at ``cited`` in ``pages`` (consecutive pages),
    or over that page and a neighbour; empty when it is not found."""
    parts = quote_parts(quote)
    if not parts:
        return []
    spans = find_parts(pages[cited].key, parts)
    if spans is not None:
        return [_page_boxes(pages[cited], [i for a, b in spans for i in range(a, b)])]
    for first in (cited, cited - 1):
        if first >= 0 and first + 1 < len(pages):
            found = _over_break(pages[first], pages[first + 1], quote)
            if found:
                return found
    return []


def _over_break(before: PageChars, after: PageChars, quote: str) -> list[PageBoxes]:
    """A quote that begins at the foot of ``before`` and goes on at the head of ``after``: of
    the ways to cut it in two, printed there, the one that leaves the least between its two
    halves (a page number, a footer, a running head: within ``EDGE_CHARS`` each), a cut
    between two words before one inside a word."""
    printed = keyed(FOOTNOTE_BLOCK_RE.sub(" ", quote))
    whole = printed.key
    best: tuple[int, bool, int, int] | None = None  # (gap, inside a word, split, rest)
    for split in range(MIN_SIDE, len(whole)):
        start = before.key.rfind(whole[:split])
        if start < 0:
            break  # a longer beginning is not printed either
        rest = after.key.find(whole[split:])
        tail = len(before.key) - (start + split)
        inside = printed.where[split] == printed.where[split - 1] + 1
        if 0 <= rest <= EDGE_CHARS and tail <= EDGE_CHARS and (
                best is None or (tail + rest, inside) <= best[:2]):
            best = (tail + rest, inside, split, rest)
    if best is None:
        return []
    _, _, split, rest = best
    start = before.key.rfind(whole[:split])
    return [_page_boxes(before, list(range(start, start + split))),
            _page_boxes(after, list(range(rest, rest + len(whole) - split)))]


def _page_boxes(chars: PageChars, matched: list[int]) -> PageBoxes:
    return PageBoxes(chars.page, chars.width, chars.height, tuple(_line_boxes(chars, matched)))


def _line_boxes(chars: PageChars, matched: list[int]) -> list[Box]:
    """One rectangle per line the matched key characters are on, over the punctuation set
    against its ends ("results.", "(14.8)", "infor-"); a table row's lines whole."""
    by_line: dict[int, list[int]] = {}
    for i in matched:
        by_line.setdefault(chars.line_of[i], []).append(chars.pos_of[i])
    if _is_row(chars, matched):
        return [chars.lines[line][1] for line in by_line]
    out = []
    for line, positions in by_line.items():
        boxes = chars.line_chars[line]
        first, last = _attached(chars.lines[line][0], boxes, min(positions), max(positions))
        span = boxes[first:last + 1]
        out.append(Box(min(b.x0 for b in span), min(b.top for b in span),
                       max(b.x1 for b in span), max(b.bottom for b in span)))
    return out


def _attached(text: str, boxes: list[Box], first: int, last: int) -> tuple[int, int]:
    """``first`` and ``last`` moved over the punctuation printed against them (no gap)."""
    while first > 0 and not text[first - 1].isalnum() and not text[first - 1].isspace() \
            and boxes[first].x0 - boxes[first - 1].x1 < ATTACHED_GAP:
        first -= 1
    while last + 1 < len(text) and not text[last + 1].isalnum() \
            and not text[last + 1].isspace() and boxes[last + 1].x0 - boxes[last].x1 < ATTACHED_GAP:
        last += 1
    return first, last


def _is_row(chars: PageChars, matched: list[int]) -> bool:
    """The match begins its line and its last line goes on with figures only: a table row."""
    first, last = matched[0], matched[-1]
    if first > 0 and chars.line_of[first - 1] == chars.line_of[first]:
        return False
    text = chars.lines[chars.line_of[last]][0]
    return bool(_FIGURES_ONLY_RE.fullmatch(text[chars.pos_of[last] + 1:]))
