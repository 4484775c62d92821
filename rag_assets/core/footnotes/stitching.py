"""Footnotes: find markers and definitions, build the dictionary, stitch definitions into the text.

A claim and the footnote that qualifies it are usually far apart on the page (or pages apart);
chunking then separates them. The stitcher puts every definition right after the sentence that
cites it, deterministically: no language model, nothing invented. Every inlined definition is text
of the document, markers that have no definition are reported ``unresolved``, definitions that
nobody cites are kept where they were and reported ``orphan``. The work is bounded: each stage is
linear in the text (give or take a log), and past ``FULL_BLOCKS_PER_PAGE`` citing places of one
note on a page a short reference stands for the definition stitched above it.

This module is the public face: the other stages import from here, the work is done in the
modules below, each importing only those above it in this list:

- ``core/text``: the marker grammar (``[N]``, ``(N)``, ``(a)``, ``*``, superscripts) and where a
  sentence ends, shared with chunking, evidence and the statement reader;
- ``records``: ``Footnote``, ``Citation``, ``FootnoteIndex``, ``StitchedPage``;
- ``sentences``: where a citing sentence ends, and its text;
- ``zones``: per page, the lines where definitions may stand (``page_views``);
- ``citations``: the markers a page cites; ``definitions``: the notes it defines, merged;
- ``resolve``: which footnote each citation refers to; ``index``: ``build_footnote_index``;
- ``blocks``: the ``{FOOTNOTE m: ...}`` format and its bound; ``render``: ``stitch_document``;
- ``coverage``: ``stitching_coverage``.
"""

from __future__ import annotations

from rag_assets.core.footnotes.blocks import (
    FOOTNOTE_BLOCK_RE,
    FULL_BLOCKS_PER_PAGE,
    REFERENCE_TEXT,
    footnote_block,
    footnote_reference,
    is_reference,
)
from rag_assets.core.footnotes.citations import (
    ACT_NUMBER_RE,
    BRACKET_MARKER_RE,
    REFERENCE_WORDS,
    TOKEN_CHARS,
    citations_in_block,
)
from rag_assets.core.footnotes.coverage import Coverage, stitching_coverage
from rag_assets.core.footnotes.definitions import join_wrapped
from rag_assets.core.footnotes.index import build_footnote_index
from rag_assets.core.footnotes.records import Citation, Footnote, FootnoteIndex, StitchedPage
from rag_assets.core.footnotes.render import _PageBlocks as _PageBlocks  # for the bound's tests
from rag_assets.core.footnotes.render import stitch_document
from rag_assets.core.footnotes.sentences import (
    MAX_SENTENCE_LINES,
    SENTENCE_CHARS,
    SentenceEnds,
    find_sentence_end,
    sentence_around,
)
from rag_assets.core.footnotes.zones import MAX_OVERLEAF_LINES, PageView, page_views
from rag_assets.core.text.markers import (
    CITATION_RE,
    DEFINITION_RE,
    SCOPED_STYLES,
    SUPERSCRIPT_DIGITS,
    TO_SUPERSCRIPT,
    WRAPPED_MARKER_RE,
    MarkerStyle,
    marker_of,
)

__all__ = [
    "ACT_NUMBER_RE",
    "BRACKET_MARKER_RE",
    "CITATION_RE",
    "DEFINITION_RE",
    "FOOTNOTE_BLOCK_RE",
    "FULL_BLOCKS_PER_PAGE",
    "MAX_OVERLEAF_LINES",
    "MAX_SENTENCE_LINES",
    "REFERENCE_TEXT",
    "REFERENCE_WORDS",
    "SCOPED_STYLES",
    "SENTENCE_CHARS",
    "SUPERSCRIPT_DIGITS",
    "TOKEN_CHARS",
    "TO_SUPERSCRIPT",
    "WRAPPED_MARKER_RE",
    "Citation",
    "Coverage",
    "Footnote",
    "FootnoteIndex",
    "MarkerStyle",
    "PageView",
    "SentenceEnds",
    "StitchedPage",
    "build_footnote_index",
    "citations_in_block",
    "find_sentence_end",
    "footnote_block",
    "footnote_reference",
    "is_reference",
    "join_wrapped",
    "marker_of",
    "page_views",
    "sentence_around",
    "stitch_document",
    "stitching_coverage",
]
