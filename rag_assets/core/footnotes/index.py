"""The footnote index of a document: zones, citations and definitions found, merged, resolved.

``build_footnote_index`` runs the finding stages in order; the result (``FootnoteIndex``) is the
dictionary the stitcher, the chunker and the warehouse read.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from rag_assets.core.footnotes.citations import citations_in_page, citations_in_text
from rag_assets.core.footnotes.definitions import find_definitions, merge_definitions
from rag_assets.core.footnotes.records import Citation, FootnoteIndex
from rag_assets.core.footnotes.resolve import Resolver
from rag_assets.core.footnotes.zones import page_views
from rag_assets.core.ingest.layout import SEPARATOR_RE
from rag_assets.core.ingest.pages import Page
from rag_assets.core.text.markers import SCOPED_STYLES


def build_footnote_index(pages: Sequence[Page]) -> FootnoteIndex:
    """Find all definitions and citations of a document and resolve each citation."""
    views = page_views(pages)
    # a text or TEI file that marks its notes with a "_____" rule marks all of them so; in a PDF
    # such a line is as often a signature or fill-in line (Coca-Cola's 10-K)
    strict_zones = not any(p.line_sizes for p in pages) and any(
        any(SEPARATOR_RE.match(line) for line in v.lines) for v in views
    )
    raw_citations = [c for v in views for c in citations_in_page(v)]
    definitions = find_definitions(views, raw_citations, strict_zones)
    # citations standing on definition lines belong to the definition (footnote-to-footnote)
    view_of = {v.page.page_index: v for v in views}
    for d in definitions:
        for page_index, lines in d.spans.items():
            view_of[page_index].definition_lines.update(lines)
    defined_styles = {d.style for d in definitions}
    citations: list[Citation] = []
    for c in raw_citations:
        if c.line in view_of[c.page_index].definition_lines:
            continue
        if c.style in SCOPED_STYLES and c.style not in defined_styles:
            continue  # "(a)" in a document that defines no "(a)" notes is a list item
        citations.append(c)
    footnotes = merge_definitions(definitions)
    window = None if strict_zones else 1
    resolve = Resolver(footnotes, window)
    citations = [c for c in citations if resolve(c)]
    for f in footnotes:
        cites = set(f.cites)
        for c in citations_in_text(f.text, f.page_index, f.line, "footnote"):
            if not resolve(c):
                continue
            c.in_footnote = f.footnote_id
            citations.append(c)
            if c.footnote_id and c.footnote_id != f.footnote_id and c.footnote_id not in cites:
                f.cites.append(c.footnote_id)
                cites.add(c.footnote_id)
    by_id = {f.footnote_id: f for f in footnotes}
    # sets beside the lists: a note cited 170,000 times is looked up, not searched, each time
    pages_of: dict[str, set[int]] = defaultdict(set)
    sentences_of: dict[str, set[str]] = defaultdict(set)
    for c in citations:
        if c.footnote_id and c.context != "footnote":
            f = by_id[c.footnote_id]
            if c.page_index not in pages_of[f.footnote_id]:
                pages_of[f.footnote_id].add(c.page_index)
                f.cited_pages.append(c.page_index)
            if c.sentence and c.sentence not in sentences_of[f.footnote_id]:
                sentences_of[f.footnote_id].add(c.sentence)
                f.citing_sentences.append(c.sentence)
    for f in footnotes:
        f.cited_pages.sort()
    return FootnoteIndex(footnotes=footnotes, citations=citations)
