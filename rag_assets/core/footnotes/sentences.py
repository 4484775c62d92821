"""Where a citing sentence ends (a definition is stitched there) and what it says (the index
keeps it beside each citation).

A sentence ends where the one grammar says (``core/text/sentences``: ``.``/``!``/``?`` before white
space, not after an abbreviation, not before a lower-case word) or where its paragraph ends.
``SentenceEnds`` reads each line of a page once, so a page printed as one huge line with many
citations is not scanned again per citation.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from rag_assets.core.ingest.pages import TABLE_PLACEHOLDER_RE
from rag_assets.core.text.markers import DEFINITION_RE
from rag_assets.core.text.sentences import SENTENCE_END_RE, ends_sentence

# a citing sentence runs over at most this many lines: a longer run without a full stop is a
# row of a table laid out as text, and its note goes right after the row
MAX_SENTENCE_LINES = 3
SENTENCE_CHARS = 400  # a citing sentence as the dictionary and the registry keep it
_NON_SPACE_RE = re.compile(r"\S")


class SentenceEnds:
    """Where the sentences of one page's lines end, each line read once.

    ``find_sentence_end`` and ``sentence_around`` run for every citation. Read from the line's
    start each time, a page printed as one 5 MB line with 170,000 citations took minutes (each
    citation scanned the line up to itself); here each line's sentence ends are found once and
    a citation's are a binary search away, and a sentence running on over lines without a full
    stop is followed once per line, not once per citation on it.
    """

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self._all: dict[int, list[int]] = {}  # line -> end of every SENTENCE_END_RE match
        self._true: dict[int, tuple[list[int], list[int]]] = {}  # line -> (starts, ends)
        self._onward: dict[int, tuple[int, int]] = {}  # line -> end of a sentence carried in

    def all_ends(self, n: int) -> list[int]:
        """Every sentence end of line ``n``, abbreviations included (``sentence_around``)."""
        if n not in self._all:
            self._all[n] = [m.end() for m in SENTENCE_END_RE.finditer(self.lines[n])]
        return self._all[n]

    def first_end(self, n: int, offset: int) -> int | None:
        """The end of the first true sentence end (``ends_sentence``) at or after ``offset`` in
        line ``n``."""
        if n not in self._true:
            text = self.lines[n]
            starts: list[int] = []
            ends: list[int] = []
            for match in SENTENCE_END_RE.finditer(text):
                if not ends_sentence(text, match.start()):
                    continue
                starts.append(match.start())
                ends.append(match.end())
            self._true[n] = (starts, ends)
        starts, ends = self._true[n]
        i = bisect_left(starts, offset)
        return ends[i] if i < len(ends) else None

    def _paragraph_ends_after(self, n: int, *, definitions: bool) -> bool:
        lines = self.lines
        nxt = n + 1
        return (
            nxt >= len(lines)
            or not lines[nxt].strip()
            or bool(TABLE_PLACEHOLDER_RE.match(lines[nxt].strip()))
            or lines[nxt].lstrip().startswith("## ")
            or (definitions and bool(DEFINITION_RE.match(lines[nxt])))
        )

    def find(self, line: int, offset: int) -> tuple[int, int]:
        """``find_sentence_end`` for this page's lines."""
        if line >= len(self.lines):
            return len(self.lines) - 1, len(self.lines[-1])
        end = self.first_end(line, offset)
        if end is not None:
            return line, end
        if self._paragraph_ends_after(line, definitions=False):
            return line, len(self.lines[line])
        return self._carried(line + 1)

    def _carried(self, n: int) -> tuple[int, int]:
        """The end of a sentence that runs on into line ``n`` from a line above (there a line
        opening with a definition marker ends the paragraph too); memoized per line."""
        passed: list[int] = []
        while True:
            if n in self._onward:
                found = self._onward[n]
                break
            end = self.first_end(n, 0)
            if end is not None:
                found = (n, end)
                break
            if self._paragraph_ends_after(n, definitions=True):
                found = (n, len(self.lines[n]))
                break
            passed.append(n)
            n += 1
        for m in [*passed, n]:
            self._onward[m] = found
        return found

    def around(self, line: int, offset: int) -> str:
        """``sentence_around`` for this page's lines."""
        lines = self.lines
        start_line, start = line, 0
        ends = self.all_ends(line)
        before = bisect_right(ends, offset)  # ends within lines[line][:offset]
        if before:
            start = ends[before - 1]
        elif line > 0 and lines[line - 1].strip():
            start_line = line - 1
            prev_ends = self.all_ends(start_line)
            start = prev_ends[-1] if prev_ends else 0
        end_line, end = self.find(line, offset)
        parts: list[str] = []
        joined = -1  # the length of " ".join(parts)
        for n in range(start_line, end_line + 1):
            if joined >= SENTENCE_CHARS:
                break  # the rest would be cut off anyway
            text = lines[n]
            lo = start if n == start_line else 0
            hi = end if n == end_line else len(text)
            part = _clipped(text, lo, hi, max(1, SENTENCE_CHARS - joined - 1))
            if part:
                parts.append(part)
                joined += len(part) + 1
        return " ".join(parts)[:SENTENCE_CHARS]


def _clipped(text: str, lo: int, hi: int, room: int) -> str:
    """The first ``room`` characters of ``text[lo:hi].strip()`` (all of them when it is
    shorter): a long line is not copied whole for the few hundred characters a sentence keeps."""
    first = _NON_SPACE_RE.search(text, lo, hi)
    if first is None:
        return ""
    start = first.start()
    if hi - start <= room:
        return text[start:hi].rstrip()
    if _NON_SPACE_RE.search(text, start + room, hi):
        return text[start:start + room]
    return text[start:start + room].rstrip()


def sentence_around(lines: Sequence[str], line: int, offset: int) -> str:
    """The sentence that holds position (line, offset), for the dictionary and reports (its
    first ``SENTENCE_CHARS`` characters). For many positions on one page, ``SentenceEnds``."""
    return SentenceEnds(lines).around(line, offset)


def find_sentence_end(lines: Sequence[str], line: int, offset: int) -> tuple[int, int]:
    """(line, offset) just after the end of the sentence running at (line, offset).

    A sentence ends at ``.``/``!``/``?`` before white space (not after a known abbreviation),
    or where its paragraph ends: a blank line, a table, a heading, or the page end (or, on a
    line after the first, a line that opens with a definition marker). For many positions on
    one page, ``SentenceEnds``.
    """
    return SentenceEnds(lines).find(line, offset)
