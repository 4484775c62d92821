"""The ``{FOOTNOTE m: ...}`` block: how the stitched text carries a definition, and the bound
on how many full blocks of one note a page holds.

Written by the stitcher, read by coverage, the model stitcher, the chunker and the generation
stages, so the format lives here, apart from the stitching itself.
"""

from __future__ import annotations

import re

from rag_assets.core.footnotes.records import Footnote
from rag_assets.core.text.sentences import sentence_ends

_BLOCK_END_RE = re.compile(r"(?<=\x00)\s+(?=[^\sa-z])")
# markup's end ("<br>", "</div>", '<a href="x">'), not a comparison ("grew > 5%")
_TAG_BREAK_RE = re.compile(r"(?<=[\w\"'/]>)\s+(?=\S)|\n(?=\s*<)")
_PLACEHOLDER = "\x00{}\x00"
_PLACEHOLDER_RE = re.compile(r"\x00(\d+)\x00")


def footnote_block(footnote: Footnote, marker: str | None = None) -> str:
    """A definition as the stitched text carries it, right after the sentence that cites it."""
    return f"{{FOOTNOTE {marker or footnote.marker}: {footnote.text}}}"


# a block as ``footnote_block`` writes it, for the stages that read the stitched text
FOOTNOTE_BLOCK_RE = re.compile(r"\{FOOTNOTE (?P<marker>[^:{}]{1,8}): (?P<text>[^{}]*)\}")

# The bound on stitching (issue 19): a page inlines a footnote's full text at its first
# ``FULL_BLOCKS_PER_PAGE`` citing places; every later one gets the short reference
# ``{FOOTNOTE m: as stitched above}``, which stands for the nearest full block of marker ``m``
# above it on the page (the stitcher writes one only where that block is this footnote's). A
# page of 170,000 sentences citing one note is then its text, 256 definitions and 169,744
# references, not 170,000 definitions; no text is dropped: every citing page still holds the
# full definition (``stitching_coverage``), and the enriched chunker puts it back into every
# chunk that cites the note (``chunks.enriched.resolve_blocks``). 256 is over ten times the most any
# real filing cites one note on one page (24, in 43 SEC filings), so real documents stitch
# as before.
FULL_BLOCKS_PER_PAGE = 256
REFERENCE_TEXT = "as stitched above"


def footnote_reference(marker: str) -> str:
    """The short reference written instead of a definition already stitched
    ``FULL_BLOCKS_PER_PAGE`` times on the page (a block the stages reading blocks read)."""
    return f"{{FOOTNOTE {marker}: {REFERENCE_TEXT}}}"


def is_reference(block: re.Match[str]) -> bool:
    """A ``FOOTNOTE_BLOCK_RE`` match that is a short reference, not a definition."""
    return block.group("text") == REFERENCE_TEXT


def sentences_with_blocks(text: str) -> list[str]:
    """The sentences of stitched text (``core/text/sentences``), each carrying the blocks
    stitched right after it, in order; every character kept. A block also ends a sentence
    when what follows it does not go on in lower case (a table's caption line after a
    heading's note), and so does a tag break (``>`` then text, a line opening with ``<``), so
    markup stays apart from prose. The one splitter of the chunker's units and the answers'
    evidence units."""
    blocks: list[str] = []

    def park(match: re.Match[str]) -> str:
        blocks.append(match.group(0))
        return _PLACEHOLDER.format(len(blocks) - 1)

    parked = FOOTNOTE_BLOCK_RE.sub(park, text)
    sentences = []
    for part in _TAG_BREAK_RE.split(parked):
        start = 0
        ends = sorted({*sentence_ends(part), *(m.start() for m in _BLOCK_END_RE.finditer(part))})
        for end in [*ends, len(part)]:
            sentences.append(part[start:end].strip())
            start = end
    # a footnote block that opens a piece belongs to the sentence before it
    merged: list[str] = []
    for piece in sentences:
        # a NUL the text itself holds (not a parked block) leaves the piece a sentence of its own
        if merged and (lead := re.match(r"(?:\x00\d+\x00\s*)+", piece)):
            merged[-1] = f"{merged[-1]} {lead.group(0).strip()}"
            piece = piece[lead.end():].strip()
        if piece:
            merged.append(piece)
    return [_PLACEHOLDER_RE.sub(lambda m: _parked(blocks, m), s) for s in merged]


def _parked(blocks: list[str], match: re.Match[str]) -> str:
    """The block a placeholder stands for; a NUL-wrapped number the text itself printed stays."""
    at = int(match.group(1))
    return blocks[at] if at < len(blocks) else match.group(0)
