"""A cited passage marked in a page's stored text: for text and TEI reports (no page to draw)
and for a PDF whose file is no longer where it was ingested from.

The text is cut into runs, each with the citation numbers whose quote covers it, so that the
template can put each marked run in a ``<mark>`` (escaped like any other text) and two quotes
that overlap are both shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rag_assets.core.evaluation.quote_match import find_parts, keyed, quote_parts


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of the page's text and the citations whose quote covers it (none: plain text)."""

    text: str
    numbers: tuple[int, ...] = ()


def quote_span(text: str, quote: str) -> list[tuple[int, int]]:
    """The character ranges of ``text`` that print ``quote`` (one per elided part), from the
    first letter of each part to its last; empty when it is not there."""
    parts = quote_parts(quote)
    page = keyed(text)
    spans = find_parts(page.key, parts) if parts else None
    return [(page.where[a], page.where[b - 1] + 1) for a, b in spans or []]


def marked_segments(text: str, quotes: Sequence[tuple[int, str]]) -> tuple[list[Segment],
                                                                            set[int]]:
    """``text`` in runs marked by the quotes (citation number, quote) it prints, and the
    numbers whose quote was found."""
    covering: list[set[int]] = [set() for _ in text]
    found: set[int] = set()
    for number, quote in quotes:
        for start, end in quote_span(text, quote):
            found.add(number)
            for index in range(start, end):
                covering[index].add(number)
    segments: list[Segment] = []
    for index, char in enumerate(text):
        numbers = tuple(sorted(covering[index]))
        if segments and segments[-1].numbers == numbers:
            segments[-1] = Segment(segments[-1].text + char, numbers)
        else:
            segments.append(Segment(char, numbers))
    return segments, found
