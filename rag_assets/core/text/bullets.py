"""Bulleted lists as a filing prints them: "•" items, "◦" sub-items under them.

An 8-K Item lists a bylaw's amendments, an annual report its next year's targets, one bullet
each; an answer gives them numbered in one sentence, each as printed without the punctuation
that joined it to the next ("; and"), its sub-items after it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

TOP_BULLET_RE = re.compile(r"^\s*[•●■\-–]\s+")
SUB_BULLET_RE = re.compile(r"^\s*[◦○▪▫]\s+")
_JOINING_END_RE = re.compile(r"(?:[;,.]|\s+and|\s+or)+\s*$")


def is_bullet(line: str) -> bool:
    return bool(TOP_BULLET_RE.match(line) or SUB_BULLET_RE.match(line))


INLINE_GLYPHS = "•●■◦○▪▫"  # the bullets that may run inside a line (a dash there is punctuation)
_INLINE_BULLET_RE = re.compile(rf"\s+[{INLINE_GLYPHS}]\s+")
# where a bullet printed inside a line opens ("... 4 to 5 percent. ● Adjusted operating profit
# ..."): the line is read as two, the bullet kept
_INLINE_OPENING_RE = re.compile(rf"(?<=\S)\s+(?=[{INLINE_GLYPHS}]\s+)")


def bullet_items(text: str) -> list[str]:
    """A text whose bullets ran into one line ("Highlights included: • We opened ...; • We
    paid ..."), as its parts: the opening, then each bullet's text (dashes are not split on:
    inline they are punctuation)."""
    return [part.strip() for part in _INLINE_BULLET_RE.split(text) if part.strip()]


def at_bullets(text: str, keep: Sequence[tuple[int, int]] = ()) -> list[str]:
    """The text cut where each bullet glyph printed in it opens an item ("... RESULTS • Record
    Adjusted Property EBITDAR ... • Share buybacks of $2.8 billion ..."), each item with its
    glyph; every character kept but the spaces cut at (a dash is no glyph: it is
    punctuation). Never inside the spans ``keep`` (a footnote's text), and not at all where a
    lead introduces the list ("..., reflecting: • Net interest income ..."): its items are
    what the lead says."""
    cuts = [m for m in _INLINE_OPENING_RE.finditer(text)
            if not any(a <= m.start() < b for a, b in keep)]
    if not cuts or text[:cuts[0].start()].rstrip().endswith(":"):
        return [text] if text.strip() else []
    bounds = [0, *(m.end() for m in cuts)]
    ends = [*(m.start() for m in cuts), len(text)]
    return [text[a:b] for a, b in zip(bounds, ends, strict=True) if text[a:b].strip()]


def bullet_groups(lines: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """The lines before the first bullet, and each top bullet with its sub-bullets (a line
    that is no bullet continues the one before it: the page wrapped it; a bullet printed inside
    a line opens an item of its own)."""
    opening: list[str] = []
    bullets: list[list[str]] = []
    for line in (piece for whole in lines for piece in _INLINE_OPENING_RE.split(whole)):
        if TOP_BULLET_RE.match(line) or (SUB_BULLET_RE.match(line) and not bullets):
            bullets.append([_clause(line)])
        elif SUB_BULLET_RE.match(line):
            bullets[-1].append(_clause(line))
        elif bullets:
            bullets[-1][-1] = f"{bullets[-1][-1]} {line.strip()}"
        else:
            opening.append(line.strip())
    return opening, bullets


def numbered(bullets: Sequence[Sequence[str]]) -> str:
    """"(1) first; sub-item; (2) second" in one sentence, without a closing period."""
    return "; ".join(f"({n}) " + "; ".join(_trimmed(c) for c in group).replace(":;", ":")
                     for n, group in enumerate(bullets, start=1))


def listed_text(line: str) -> str:
    """A listed item's own words: its bullet and the "; and" that joins it to the next left
    off."""
    return _trimmed(_clause(line))


def _clause(line: str) -> str:
    return SUB_BULLET_RE.sub("", TOP_BULLET_RE.sub("", line)).strip()


def _trimmed(clause: str) -> str:
    return _JOINING_END_RE.sub("", clause.strip())
