"""Where a cited quote sits in a run of printed text, compared on letters and digits only.

The page a reader sees (PDF characters, or a stored text page) and the quote an answer cites
agree on their letters and digits but not on what lies between: line breaks, a hyphen at a line
end, table pipes, ``$`` signs apart from their figures, typographic quotes. So both are reduced
to a *key*, their case-folded NFKC letters and digits, each key character remembering the
source character it came from; a quote is found in a page's key, and its span mapped back.

An elided quote (``... ``) is found part by part, in order; a stitched footnote block
(``{FOOTNOTE [N]: definition}``) is printed elsewhere, so it is left out of what is looked for.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from rag_assets.core.footnotes.blocks import FOOTNOTE_BLOCK_RE

_ELLIPSIS_RE = re.compile(r"\[?\s*(?:\.{3,}|…)\s*\]?")


@dataclass(frozen=True, slots=True)
class Keyed:
    """Text reduced to its letters and digits; ``where[i]`` is the source index of ``key[i]``."""

    key: str
    where: tuple[int, ...]


def keyed(text: str) -> Keyed:
    """The key of ``text``: its case-folded NFKC letters and digits, with where each came from
    (a ligature ``ﬁ`` gives two key characters from one source character)."""
    chars: list[str] = []
    where: list[int] = []
    for index, char in enumerate(text):
        for folded in unicodedata.normalize("NFKC", char).casefold():
            if folded.isalnum():
                chars.append(folded)
                where.append(index)
    return Keyed("".join(chars), tuple(where))


def quote_parts(quote: str) -> list[str]:
    """The keys of what to look for: the quote without its footnote blocks, split at each
    ellipsis; empty when nothing printable is left."""
    printed = FOOTNOTE_BLOCK_RE.sub(" ", quote)
    return [k for part in _ELLIPSIS_RE.split(printed) if (k := keyed(part).key)]


def find_parts(key: str, parts: Sequence[str], start: int = 0) -> list[tuple[int, int]] | None:
    """The spans of ``parts`` found one after another in ``key`` from ``start`` (each at its
    first place after the previous one), or None when one is not there."""
    spans: list[tuple[int, int]] = []
    position = start
    for part in parts:
        found = key.find(part, position)
        if found < 0:
            return None
        spans.append((found, found + len(part)))
        position = found + len(part)
    return spans
