"""Warehouse tables: the records of each stage as DataFrames, and back.

Every table carries ``document`` and ``year`` (the partition) so that one partition's rows can be
replaced alone. List-valued fields are stored as JSON text: readable in the UI preview, queryable
with DuckDB's ``json`` functions, and stable when a partition has no value at all.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, cast

import pandas as pd

from rag_assets.core.chunks.chunking import Chunk
from rag_assets.core.footnotes.stitching import Citation, Footnote, FootnoteIndex, StitchedPage
from rag_assets.core.ingest.context import DocumentContext
from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.ingest.pages import Page, PageFault, TableBlock, TextSource
from rag_assets.core.ingest.statements import StatementKind

# the document context beside each page's Item and statement, and the routing profile of its
# cover (document_profile reads those two columns alone)
CONTEXT_COLUMNS = ["company", "doc_type", "topics", "other_items"]
PROFILE_COLUMNS = ["profile_title", "profile_aliases"]
RAW_PAGE_COLUMNS = [
    "document", "year", "page_index", "page_label", "section", "item", "statement", "text",
    "note_lines", "line_sizes", "bold_lines", "body_size", "tables_json", "tables_markdown",
    "n_tables", "n_chars", "n_table_chars", "source_file", "sha256", "text_source", "text_note",
    "faults", *CONTEXT_COLUMNS, *PROFILE_COLUMNS, "schema_version",
]
# The layout of raw_pages (its columns and what they hold; the other tables of a partition are
# written with it, by the same step): raised with every change to it. A partition written with
# an older layout is stale: the nightly reingest_schedule ingests it again, and no reader
# guesses at it meanwhile (``StaleTable``).
RAW_PAGES_SCHEMA = 5  # 5: the segment note's untitled table pages, Item headings run on
FOOTNOTE_COLUMNS = [
    "document", "year", "footnote_id", "marker", "style", "status", "text", "page_index", "line",
    "also_defined_on", "spans", "cited_pages", "citing_sentences", "cites", "source_sha256",
]
REGISTRY_COLUMNS = [
    "document", "year", "marker", "style", "page_index", "line", "end_offset", "context",
    "table_index", "in_footnote", "sentence", "footnote_id", "resolution", "how",
    "source_sha256",
]
STITCHED_COLUMNS = [
    "document", "year", "page_index", "page_label", "section", "text", "n_chars", "source_sha256",
]
CHUNK_COLUMNS = [
    "chunk_id", "document", "year", "kind", "seq", "page_start", "page_end", "section",
    "context", "statement", "text", "n_chars", "n_tokens", "markers_cited", "markers_defined",
]


FACT_COLUMNS = [
    "document", "year", "statement", "label", "concept", "rank", "group", "period",
    "fiscal_year", "months", "value", "unit", "scale", "printed", "page", "quote", "column",
    "row", "total", "identity_failed",
]

FLOAT_COLUMNS = {"body_size", "value", "scale"}
EMPTY_FACTS = pd.DataFrame(columns=FACT_COLUMNS)
INTEGER_COLUMNS = {
    "year", "page_index", "n_tables", "n_chars", "n_table_chars", "line", "end_offset",
    "table_index", "seq", "page_start", "page_end", "n_tokens", "rank", "fiscal_year",
    "months", "page", "column", "row", "schema_version",
}
BOOLEAN_COLUMNS = {"total", "identity_failed"}


def _frame(rows: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    """Explicit column types: the first partition written creates the DuckDB table, and a column
    that happens to be all-null there must not become a NULL-typed column."""
    frame = pd.DataFrame(rows, columns=columns)
    return frame.astype(
        {
            c: "Int64" if c in INTEGER_COLUMNS else "Float64" if c in FLOAT_COLUMNS
            else "boolean" if c in BOOLEAN_COLUMNS else "string"
            for c in columns
        }
    )


def facts_to_frame(facts: Sequence[StatementFact], failed: set[tuple[int, int]]
                   ) -> pd.DataFrame:
    """One row per statement value; ``identity_failed`` flags the facts in a (page, column)
    where an accounting identity did not hold (a warning, never a block)."""
    rows = [{**f.model_dump(), "identity_failed": (f.page, f.column) in failed}
            for f in facts]
    return _frame(rows, FACT_COLUMNS)


def facts_provider(frame: pd.DataFrame) -> Callable[[str, int], list[StatementFact]]:
    """The statement facts of one partition, read from a ``financial_statements`` frame on
    first use (what ``Answerer`` asks for: the filing routing picked)."""
    groups = {key: part for key, part in frame.groupby(["document", "year"])} if len(frame) \
        else {}
    cache: dict[tuple[str, int], list[StatementFact]] = {}

    def facts(document: str, year: int) -> list[StatementFact]:
        key = (document, int(year))
        if key not in cache:
            part = groups.get(key)
            cache[key] = frame_to_facts(part) if part is not None else []
        return cache[key]

    return facts


def frame_to_facts(frame: pd.DataFrame) -> list[StatementFact]:
    records = frame.drop(columns=["identity_failed"], errors="ignore").to_dict("records")
    return [StatementFact.model_validate({k: (None if pd.isna(v) else v) for k, v in r.items()})
            for r in records]


def pages_to_frame(
    pages: Sequence[Page], document: str, year: int, source_file: str, sha256: str,
    context: DocumentContext | None = None,
) -> pd.DataFrame:
    """One row per page, with what ``context`` says of it (the 10-K Item and the statement it
    is, its note topics and the other Items it heads; the company, form and cover profile on
    every row) and where its text came from (``text_source``: "text", "ocr" or "none";
    ``text_note``: how OCR read it or why it has no text), in layout ``RAW_PAGES_SCHEMA``."""
    rows = []
    for p in pages:
        page_context = context.page(p.page_index) if context else None
        markdown = "\n\n".join(
            (f"{t.title}\n" if t.title else "") + t.markdown() for t in p.tables
        )
        rows.append(
            {
                "document": document, "year": year, "page_index": p.page_index,
                "page_label": p.page_label, "section": p.section,
                "item": page_context.item if page_context else None,
                "statement": page_context.statement if page_context else None,
                "text": p.text, "note_lines": json.dumps(p.note_lines),
                "line_sizes": json.dumps(p.line_sizes), "bold_lines": json.dumps(p.bold_lines),
                "body_size": p.body_size,
                "tables_json": json.dumps([t.model_dump() for t in p.tables]),
                "tables_markdown": markdown, "n_tables": len(p.tables),
                "n_chars": len(p.text), "n_table_chars": sum(len(c) for t in p.tables
                                                             for r in t.rows for c in r),
                "source_file": source_file, "sha256": sha256,
                "text_source": p.text_source, "text_note": p.text_note,
                "faults": json.dumps([f.model_dump() for f in p.faults]),
                "company": context.company if context else None,
                "doc_type": context.doc_type if context else None,
                "topics": json.dumps(page_context.topics) if page_context else None,
                "other_items": json.dumps(page_context.other_items) if page_context else None,
                "profile_title": context.title if context else None,
                "profile_aliases": json.dumps(context.aliases) if context else None,
                "schema_version": RAW_PAGES_SCHEMA,
            }
        )
    return _frame(rows, RAW_PAGE_COLUMNS)


# what document_profile reads of raw_pages
PROFILE_READ = ["document", "year", "schema_version", *PROFILE_COLUMNS]


def stored_profile(frame: pd.DataFrame) -> tuple[str | None, list[str]]:
    """The cover's routing profile (title, aliases) that ``raw_pages`` rows of one partition
    store (each row holds the same); ``StaleTable`` for rows of an older layout."""
    check_schema(frame)
    row = frame.iloc[0]
    return _none(row.profile_title), list(json.loads(row.profile_aliases))


class StaleTable(ValueError):
    """Rows written with an older layout than this version reads: re-ingest the partition."""


def check_schema(frame: pd.DataFrame) -> None:
    """Raises ``StaleTable`` naming the partitions of ``frame`` (``raw_pages`` rows) written
    with another layout than ``RAW_PAGES_SCHEMA``."""
    versions = frame["schema_version"] if "schema_version" in frame.columns \
        else pd.Series(pd.NA, index=frame.index)
    stale = frame[versions.isna() | (versions != RAW_PAGES_SCHEMA)]
    if len(stale):
        names = sorted({f"{d} {y}" for d, y in zip(stale.document, stale.year, strict=True)})
        raise StaleTable(
            f"raw_pages of {', '.join(names[:5])}{' ...' if len(names) > 5 else ''} written "
            f"with an older layout (this version reads layout {RAW_PAGES_SCHEMA}): ingest it "
            "again (`rag-assets ingest`, or the nightly reingest_schedule does)")


def frame_to_items(frame: pd.DataFrame) -> dict[int, str | None]:
    """The Item ingest read for each page of ``raw_pages`` rows, by page index."""
    return {int(row.page_index): _none(row.item) for row in frame.itertuples()}


def frame_to_statements(frame: pd.DataFrame) -> dict[int, StatementKind | None]:
    """The statement ingest classified each page of ``raw_pages`` rows as, by page index."""
    return {int(row.page_index): cast("StatementKind | None", _none(row.statement))
            for row in frame.itertuples()}


def frame_to_pages(frame: pd.DataFrame) -> list[Page]:
    """The pages of ``raw_pages`` rows (``StaleTable`` for rows of an older layout)."""
    check_schema(frame)
    return [
        Page(
            page_index=int(row.page_index),
            page_label=_none(row.page_label),
            section=_none(row.section),
            text=row.text,
            note_lines=json.loads(row.note_lines),
            line_sizes=json.loads(row.line_sizes),
            bold_lines=json.loads(row.bold_lines),
            body_size=float(row.body_size),
            tables=[TableBlock.model_validate(t) for t in json.loads(row.tables_json)],
            text_source=cast(TextSource, row.text_source),  # a stored value, checked by Page
            text_note=_none(row.text_note),
            faults=[PageFault.model_validate(f) for f in json.loads(row.faults)],
        )
        for row in frame.sort_values("page_index").itertuples(index=False)
    ]


def index_to_frames(
    index: FootnoteIndex, document: str, year: int, source_sha256: str | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The footnote dictionary (one row per footnote, plus one per dangling marker) and the
    citation registry (one row per marker occurrence, with its resolution); each row names the
    report version (``source_sha256``) it was built from."""
    rows = [
        {
            "document": document, "year": year, "footnote_id": f.footnote_id,
            "marker": f.marker, "style": f.style, "status": f.status, "text": f.text,
            "page_index": f.page_index, "line": f.line,
            "also_defined_on": json.dumps(f.also_defined_on),
            "spans": json.dumps({str(k): v for k, v in f.spans.items()}),
            "cited_pages": json.dumps(f.cited_pages),
            "citing_sentences": json.dumps(f.citing_sentences),
            "cites": json.dumps(f.cites), "source_sha256": source_sha256,
        }
        for f in index.footnotes
    ]
    dangling: dict[str, list[Citation]] = {}
    for c in index.unresolved:
        dangling.setdefault(c.marker, []).append(c)
    for marker, cits in dangling.items():
        rows.append(
            {
                "document": document, "year": year, "footnote_id": None, "marker": marker,
                "style": cits[0].style, "status": "dangling", "text": None, "page_index": None,
                "line": None,
                "also_defined_on": "[]", "spans": "{}",
                "cited_pages": json.dumps(sorted({c.page_index for c in cits})),
                "citing_sentences": json.dumps([c.sentence for c in cits if c.sentence]),
                "cites": "[]", "source_sha256": source_sha256,
            }
        )
    registry = [
        {
            "document": document, "year": year, "marker": c.marker, "style": c.style,
            "page_index": c.page_index, "line": c.line, "end_offset": c.end,
            "context": c.context, "table_index": c.table_index, "in_footnote": c.in_footnote,
            "sentence": c.sentence, "footnote_id": c.footnote_id,
            "resolution": c.resolution, "how": c.how, "source_sha256": source_sha256,
        }
        for c in index.citations
    ]
    return _frame(rows, FOOTNOTE_COLUMNS), _frame(registry, REGISTRY_COLUMNS)


def frames_to_index(dictionary: pd.DataFrame, registry: pd.DataFrame) -> FootnoteIndex:
    citations = [
        Citation(
            marker=r.marker, style=r.style, page_index=int(r.page_index), line=int(r.line),
            end=int(r.end_offset), context=r.context,
            table_index=None if pd.isna(r.table_index) else int(r.table_index),
            in_footnote=_none(r.in_footnote), sentence=_none(r.sentence) or "",
            footnote_id=_none(r.footnote_id), how=_none(r.how) or "",
        )
        for r in registry.itertuples(index=False)
    ]
    return FootnoteIndex(footnotes=frame_to_footnotes(dictionary), citations=citations)


def frame_to_footnotes(dictionary: pd.DataFrame) -> list[Footnote]:
    """The footnote definitions of a dictionary table (dangling markers have none)."""
    return [
        Footnote(
            footnote_id=r.footnote_id, marker=r.marker, style=r.style, text=r.text,
            page_index=int(r.page_index), line=int(r.line),
            also_defined_on=json.loads(r.also_defined_on),
            spans={int(k): v for k, v in json.loads(r.spans).items()},
            cited_pages=json.loads(r.cited_pages),
            citing_sentences=json.loads(r.citing_sentences), cites=json.loads(r.cites),
        )
        for r in dictionary.itertuples(index=False)
        if r.status != "dangling"
    ]


def stitched_to_frame(
    pages: Sequence[StitchedPage], document: str, year: int, source_sha256: str | None = None
) -> pd.DataFrame:
    rows = [
        {
            "document": document, "year": year, "page_index": p.page_index,
            "page_label": p.page_label, "section": p.section, "text": p.text,
            "n_chars": len(p.text), "source_sha256": source_sha256,
        }
        for p in pages
    ]
    return _frame(rows, STITCHED_COLUMNS)


def frame_to_stitched(frame: pd.DataFrame) -> list[StitchedPage]:
    return [
        StitchedPage(
            page_index=int(r.page_index), page_label=_none(r.page_label),
            section=_none(r.section), text=r.text,
        )
        for r in frame.sort_values("page_index").itertuples(index=False)
    ]


def chunks_to_frame(chunks: Sequence[Chunk]) -> pd.DataFrame:
    rows = []
    for c in chunks:
        row = c.model_dump()
        row["markers_cited"] = json.dumps(c.markers_cited)
        row["markers_defined"] = json.dumps(c.markers_defined)
        rows.append(row)
    return _frame(rows, CHUNK_COLUMNS)


def frame_to_chunks(frame: pd.DataFrame) -> list[Chunk]:
    out = []
    for r in frame.sort_values("seq").to_dict("records"):
        r["markers_cited"] = json.loads(r["markers_cited"])
        r["markers_defined"] = json.loads(r["markers_defined"])
        r["section"] = _none(r["section"])
        r["statement"] = _none(r.get("statement"))
        r["context"] = _none(r.get("context")) or ""
        out.append(Chunk.model_validate(r))
    return out


def _none(value: object) -> str | None:
    return None if value is None or pd.isna(value) else str(value)

