"""Ingest assets (group ``ingest``): report file -> pages -> footnotes -> stitched text -> chunks.

Each asset reads its partition's rows, calls the core, writes its partition's rows (replacing the
previous ones) and attaches what a user wants to see in the UI: counts, a preview, the problems.
"""


import time
from collections.abc import Iterator

import dagster as dg
import pandas as pd

from rag_assets.core.chunks import chunking
from rag_assets.core.chunks.chunking import Chunk, colocation
from rag_assets.core.chunks.quality import validate_chunk_table
from rag_assets.core.footnotes.checks import (
    citation_counts,
    definition_completeness,
    multi_line,
    stray_note_lines,
    text_conservation,
)
from rag_assets.core.footnotes.groundtruth import load_truth
from rag_assets.core.footnotes.model_stitcher import ModelStitchResult, model_stitch
from rag_assets.core.footnotes.stitching import (
    FootnoteIndex,
    StitchedPage,
    build_footnote_index,
    stitch_document,
    stitching_coverage,
)
from rag_assets.core.ingest import ocr
from rag_assets.core.ingest.catalog import report_for
from rag_assets.core.ingest.context import document_context
from rag_assets.core.ingest.documents import DocumentError, load_document
from rag_assets.core.ingest.pages import Page
from rag_assets.core.llm.client import LLMConfigError
from rag_assets.core.warehouse.tables import (
    chunks_to_frame,
    frame_to_chunks,
    frame_to_context,
    frame_to_pages,
    frame_to_stitched,
    frames_to_index,
    index_to_frames,
    mixed_versions,
    pages_to_frame,
    source_of,
    stitched_to_frame,
)
from rag_assets.defs.partitions import partition_of, report_partitions
from rag_assets.defs.presentation import (
    BY_PARTITION,
    WRITER_POOL,
    fail,
    partition_table,
    preview,
    recorded_source,
)
from rag_assets.defs.resources import LLMResource, RagSettings, RuntimeResource

GROUP = "ingest"
# run tags of a sensor's or schedule's ingest request: the file and the version it saw
FILE_TAG = "rag-assets/file"
SHA256_TAG = "rag-assets/sha256"
# set by the run itself: the version it actually read (a queued run reads whatever is there)
READ_SHA256_TAG = "rag-assets/read-sha256"


def provenance(requested: str | None, read: str) -> str:
    """One line on how the version read relates to the one the run was requested for."""
    if requested is None:
        return "no version requested (a manual run): ingested the file as found"
    if requested == read:
        return "as requested"
    return (f"file changed after the request: requested {requested[:12]}, read {read[:12]}; "
            "this run ingested the version it read (a run requested for that version ingests "
            "the same content again)")


@partition_table(GROUP, {"duckdb", "pdf"}, output_required=False)
def raw_pages(
    context: dg.AssetExecutionContext, settings: RagSettings, runtime: RuntimeResource
) -> Iterator[dg.Output[pd.DataFrame]]:
    """One row per page: printed label, prose, type size per line, lines under a separator rule,
    tables as markdown, the 10-K Item and financial statement the page belongs to, and where its
    text came from (``text_source``: the text layer, OCR, or none). A damaged PDF is read from
    its repair (``repaired``); a page whose tables could not be read keeps its text and is
    flagged (``pages_flagged``, ``page_faults``)."""
    document, year = partition_of(context)
    try:
        path = report_for(settings.reports_dir, document, year)
    except ValueError as err:
        fail(context, str(err))
    if path is None:
        context.log.info(
            f"no report filed for {document} {year} under {settings.reports_dir}: "
            "nothing to ingest (a gap in the document x year grid)"
        )
        return
    started = time.perf_counter()
    try:
        loaded = load_document(path, pdf_workers=settings.pdf_workers, use_ocr=runtime.ocr)
    except DocumentError as err:
        fail(context, f"cannot ingest {err}", file=str(path), cause=err.cause)
    for warning in loaded.warnings:
        context.log.warning(warning)
    requested = context.run.tags.get(SHA256_TAG)
    origin = provenance(requested, loaded.sha256)
    if requested not in (None, loaded.sha256):
        context.log.warning(f"{path.name}: {origin}")
    context.instance.add_run_tags(context.run.run_id, {READ_SHA256_TAG: loaded.sha256})
    where = document_context(document, year, loaded.pages)
    frame = pages_to_frame(loaded.pages, document, year, str(path), loaded.sha256, where)
    seconds = time.perf_counter() - started
    statements = frame.dropna(subset=["statement"]).groupby("statement")["page_index"]
    # where each page's text came from: a page read by OCR, or left without text, is counted
    # here and named in the warnings (logged above) and the audit report, never silently empty
    by_source = {source: [int(i) for i in frame.page_index[frame.text_source == source]]
                 for source in ("ocr", "none")}
    read_by_ocr = (f", {len(by_source['ocr'])} read by OCR, {len(by_source['none'])} without "
                   "text" if any(by_source.values()) else "")
    # a page a reading step failed on (its tables, superscripts, OCR): each is named in the
    # warnings logged above (``PageFault.line``: whether it kept its text), counted here
    flagged = sorted({f.page_index for f in loaded.page_faults})
    context.log.info(
        f"{path.name}: {len(frame)} pages, {int(frame.n_tables.sum())} tables{read_by_ocr}"
        f"{f', {len(flagged)} flagged' if flagged else ''}"
        f"{', repaired by qpdf' if loaded.repaired else ''} "
        f"in {seconds:.1f}s ({len(frame) / max(seconds, 1e-9):.1f} pages/s)"
    )
    yield dg.Output(
        frame,
        metadata={
            "file": str(path),
            "sha256": loaded.sha256,
            "source_sha256": loaded.sha256,
            "requested_sha256": requested or "none",
            "provenance": origin,
            "kind": loaded.kind,
            "pages": len(frame),
            "tables": int(frame.n_tables.sum()),
            "characters": int(frame.n_chars.sum()),
            "pages_with_label": int(frame.page_label.notna().sum()),
            "ocr_pages": len(by_source["ocr"]),
            "pages_without_text": len(by_source["none"]),
            "text_source_pages": dg.MetadataValue.json(by_source),
            "ocr": ocr.summary(loaded.pages),
            "repaired": loaded.repaired,
            "repair_cause": loaded.repair_cause or "none",
            "pages_flagged": len(flagged),
            "faults": len(loaded.page_faults),
            "page_faults": dg.MetadataValue.json([
                {"page": f.page_index + 1, "reader": f.reader, "cause": f.cause, "line": f.line()}
                for f in loaded.page_faults[:30]
            ]),
            "company": where.company or "-",
            "doc_type": where.doc_type,
            "statement_pages": dg.MetadataValue.json(
                {kind: [int(i) for i in pages] for kind, pages in statements}
            ),
            "warnings": "\n".join(loaded.warnings) or "none",
            "seconds": round(seconds, 2),
            "dagster/row_count": len(frame),
            "preview": preview(frame, ["page_index", "page_label", "section", "text"]),
        },
    )


@dg.multi_asset(
    group_name=GROUP,
    partitions_def=report_partitions,
    ins={"raw_pages": dg.AssetIn()},
    outs={
        "footnote_dictionary": dg.AssetOut(
            metadata=BY_PARTITION, kinds={"duckdb"},
            description="One row per footnote of the report: marker, style, definition text, "
            "the page and line it is defined on, the pages and sentences that cite it and the "
            "footnotes it cites in turn; a marker cited but never defined is a `dangling` row.",
        ),
        "footnote_registry": dg.AssetOut(
            metadata=BY_PARTITION, kinds={"duckdb"},
            description="One row per marker occurrence in the text (page, line, sentence, "
            "table cell or footnote it sits in), the footnote it points to, and its resolution "
            "(`stitched` or `unresolved`); the `citation_counts` check fails when too many "
            "citations have no definition.",
        ),
    },
    pool=WRITER_POOL,
    check_specs=[dg.AssetCheckSpec("citation_counts", asset="footnote_registry")],
)
def footnotes(
    context: dg.AssetExecutionContext, settings: RagSettings, raw_pages: pd.DataFrame
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """Every footnote definition (marker, text, where defined and cited, what it cites), and a
    registry row per marker occurrence with its resolution (``stitched`` or ``unresolved``).
    Where the report was generated here, its definitions are compared with the ground truth."""
    document, year = partition_of(context)
    pages = frame_to_pages(raw_pages)
    index = build_footnote_index(pages)
    source = source_of("raw_pages", raw_pages)
    dictionary, registry = index_to_frames(index, document, year, source)
    stray = stray_note_lines(pages, index)
    truth = load_truth(settings.truth_dir, document, year)
    completeness = definition_completeness(index, truth) if truth else None
    truth_metadata = (
        {
            "definitions_complete": round(completeness.ratio, 4),
            "incomplete_definitions": dg.MetadataValue.json(completeness.incomplete[:50]),
            "footnote_references_recorded": f"{completeness.cites_recorded}/"
            f"{completeness.cites_expected}",
            "citing_pages_found": f"{completeness.citing_pages_found}/"
            f"{completeness.citing_pages_expected}",
        }
        if completeness
        else {"ground_truth": "none (a report not generated here)"}
    )
    if completeness and completeness.incomplete:
        context.log.warning(
            f"{document} {year}: {len(completeness.incomplete)} definition(s) differ from the "
            f"ground truth, e.g. {completeness.incomplete[0]}"
        )
    unresolved = sorted({f"{c.marker} (page {c.page_index})" for c in index.unresolved})
    if unresolved:
        context.log.warning(
            f"{document} {year}: {len(unresolved)} marker(s) cited but never defined: "
            + ", ".join(unresolved[:20])
        )
    orphans = [f"{f.footnote_id}" for f in index.orphans]
    yield dg.Output(
        dictionary,
        output_name="footnote_dictionary",
        metadata={
            "footnotes": len(index.footnotes),
            "cross_page": sum(1 for f in index.footnotes if set(f.cited_pages) - {f.page_index}),
            "citing_other_footnotes": sum(1 for f in index.footnotes if f.cites),
            "multi_line_definitions": sum(1 for f in index.footnotes if multi_line(f)),
            "source_sha256": source or "unknown",
            "dangling_markers": dg.MetadataValue.json(unresolved),
            "orphan_definitions": dg.MetadataValue.json(orphans),
            "stray_note_lines": dg.MetadataValue.json(
                [f"page {s.page_index} line {s.line}: {s.text}" for s in stray[:100]]
            ),
            **truth_metadata,
            "dagster/row_count": len(dictionary),
            "preview": preview(dictionary, ["footnote_id", "status", "cited_pages", "text"]),
        },
    )
    yield dg.Output(
        registry,
        output_name="footnote_registry",
        metadata={
            "citations": len(registry),
            "stitched": int((registry.resolution == "stitched").sum()),
            "unresolved": int((registry.resolution == "unresolved").sum()),
            "source_sha256": source or "unknown",
            "dagster/row_count": len(registry),
        },
    )
    counts = citation_counts(index)
    too_many = counts.unresolved_share > settings.max_unresolved_share
    yield dg.AssetCheckResult(
        check_name="citation_counts",
        asset_key="footnote_registry",
        passed=not counts.orphans and not too_many,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "citations": counts.citations,
            "orphans": dg.MetadataValue.json(counts.orphans[:50]),
            "unresolved": dg.MetadataValue.json(counts.unresolved[:50]),
            "unresolved_share": round(counts.unresolved_share, 4),
            "max_unresolved_share": settings.max_unresolved_share,
            "most_cited": dg.MetadataValue.json(dict(counts.most_cited())),
        },
        description=(
            f"{len(counts.counts)} footnotes, {counts.citations} citations; "
            f"{len(counts.orphans)} never cited; {len(counts.unresolved)} unresolved "
            f"({counts.unresolved_share:.1%}, limit {settings.max_unresolved_share:.0%})"
        ),
    )


@partition_table(GROUP, check_specs=[
    dg.AssetCheckSpec("footnote_coverage", asset="stitched_text", blocking=True),
    dg.AssetCheckSpec("text_conservation", asset="stitched_text", blocking=True),
])
def stitched_text(
    context: dg.AssetExecutionContext,
    settings: RagSettings,
    llm: LLMResource,
    runtime: RuntimeResource,
    raw_pages: pd.DataFrame,
    footnote_dictionary: pd.DataFrame,
    footnote_registry: pd.DataFrame,
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """The document with each footnote definition inlined after the sentence that cites it as
    ``{FOOTNOTE [N]: text}``, definitions blocks and page furniture removed. Both checks refuse
    inputs built from two versions of the report (a run stopped half-way).

    ``stitch_mode=llm``: the librarian model of the ``llm`` resource inlines them, each page
    validated against the deterministic stitcher (a wrong definition backfilled, an invented one
    removed, a page whose body the model changed taken from the deterministic stitcher); the
    checks below judge its output as they judge the deterministic one."""
    document, year = partition_of(context)
    index = frames_to_index(footnote_dictionary, footnote_registry)
    raw = frame_to_pages(raw_pages)
    pages = stitch_document(raw, index)
    mode_metadata: dict[str, object] = {"stitch_mode": settings.stitch_mode}
    if settings.stitch_mode == "llm":
        result = _model_stitched(context, llm, runtime, raw, index, pages)
        pages = result.pages
        mode_metadata.update(_model_metadata(result))
    source = source_of("raw_pages", raw_pages)
    frame = stitched_to_frame(pages, document, year, source)
    coverage = stitching_coverage(index, pages)
    conservation = text_conservation(raw, index, pages)
    inputs = {"raw_pages": raw_pages, "footnote_dictionary": footnote_dictionary,
              "footnote_registry": footnote_registry}
    mixed = mixed_versions(inputs, {
        name: recorded_source(context, name) for name, frame in inputs.items() if not len(frame)
    })
    if mixed:
        context.log.error(f"{document} {year}: {mixed}")
    yield dg.Output(
        frame,
        metadata={
            "source_sha256": source or "unknown",
            "stale": bool(mixed),
            "pages": len(frame),
            "characters": int(frame.n_chars.sum()),
            "footnote_blocks": int(frame.text.str.count(r"\{FOOTNOTE ").sum()),
            **mode_metadata,
            "dagster/row_count": len(frame),
            "preview": preview(frame, ["page_index", "text"], width=400),
        },
    )
    yield _check_refusing_mixed(
        mixed, "footnote_coverage", passed=not coverage.missing,
        metadata={
            "cited_with_definition": coverage.cited_with_definition,
            "stitched": coverage.stitched,
            "coverage": round(coverage.ratio, 4),
            "not_stitched": dg.MetadataValue.json(coverage.missing[:50]),
            "unresolved": dg.MetadataValue.json(coverage.unresolved[:50]),
        },
        description=(
            f"{coverage.stitched}/{coverage.cited_with_definition} cited footnotes stitched; "
            f"{len(coverage.unresolved)} marker(s) have no definition"
        ),
    )
    yield _check_refusing_mixed(
        mixed, "text_conservation", passed=not conservation.lost,
        metadata={
            "words_checked": conservation.words_checked,
            "words_lost": conservation.words_lost,
            "lost": dg.MetadataValue.json(
                [lost.model_dump() for lost in conservation.lost[:30]]
            ),
        },
        description=(
            f"{conservation.words_lost} of {conservation.words_checked} words lost"
            + "".join(
                f"; page {lost.page_index} ({lost.where}): {' '.join(lost.words[:6])}"
                for lost in conservation.lost[:3]
            )
        ),
    )


def _check_refusing_mixed(
    mixed: str | None, check_name: str, *, passed: bool, metadata: dict[str, object],
    description: str,
) -> dg.AssetCheckResult:
    """A check of the stitched text that inputs of two versions of the report (``mixed`` says
    which) fail whatever it measured; its description says so first."""
    return dg.AssetCheckResult(
        check_name=check_name, passed=passed and not mixed, metadata=metadata,
        description=f"{mixed}; {description}" if mixed else description,
    )


def _model_stitched(
    context: dg.AssetExecutionContext, llm: LLMResource, runtime: RuntimeResource,
    raw: list[Page], index: FootnoteIndex, deterministic: list[StitchedPage],
) -> ModelStitchResult:
    """The model stitcher's pages; a partition without a usable provider fails in one line."""
    try:
        chat = llm.chat(runtime)
    except LLMConfigError as err:
        fail(context, f"stitch_mode=llm: {err}")
    if chat is None:
        fail(context, "stitch_mode=llm needs an llm provider (openai or azure)")
    result = model_stitch(raw, index, chat, deterministic=deterministic,
                          log=context.log.warning)
    context.log.info(f"model stitcher: {result.summary()}")
    return result


def _model_metadata(result: ModelStitchResult) -> dict[str, object]:
    return {
        "model_calls": result.model_calls,
        "model_seconds": round(result.model_seconds, 2),
        "stitch_seconds": round(result.seconds, 2),
        "footnotes_by_model": result.recovered,
        "footnotes_backfilled": result.backfilled,
        "fallback_pages": result.fallback_pages,
        "fallbacks": dg.MetadataValue.json(
            [f"page {f.page_index}: {f.reason}" for f in result.fallbacks[:50]]),
        "backfilled": dg.MetadataValue.json(
            [f"{o.footnote_id} on page {o.page_index}: {o.reason}" for o in result.outcomes
             if o.status == "backfilled"][:50]),
        "removed_blocks": dg.MetadataValue.json(
            [f"{r.marker} on page {r.page_index}: {r.reason}" for r in result.removed[:50]]),
        "model_errors": dg.MetadataValue.json(result.errors[:20]),
    }


def _chunk_outputs(
    chunks: list[Chunk], max_tokens: int, name: str, source: str | None
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """The chunk table with its metadata (the report version it was built from), and its GX
    quality check (every chunk within the model's window)."""
    frame = chunks_to_frame(chunks)
    report = validate_chunk_table(frame, max_tokens=max_tokens)
    pairs, colocated = colocation(chunks)
    yield dg.Output(
        frame,
        metadata={
            "chunks": len(frame),
            "source_sha256": source or "unknown",
            "mean_chars": round(float(frame.n_chars.mean()), 1) if len(frame) else 0.0,
            "mean_tokens": round(float(frame.n_tokens.mean()), 1) if len(frame) else 0.0,
            "cited_pairs": pairs,
            "colocation": round(colocated / pairs, 4) if pairs else 1.0,
            "dagster/row_count": len(frame),
            "max_tokens": int(frame.n_tokens.max()) if len(frame) else 0,
            "statement_chunks": int(frame.statement.notna().sum()),
            "preview": preview(frame, ["chunk_id", "page_start", "page_end", "context", "text"]),
        },
    )
    yield dg.AssetCheckResult(
        check_name=f"{name}_quality",
        passed=report.success,
        metadata={"expectations": report.evaluated, "failures": report.summary()},
        description=report.summary(),
    )


@partition_table(GROUP, check_specs=[
    dg.AssetCheckSpec("naive_chunks_quality", asset="naive_chunks", blocking=True)])
def naive_chunks(
    context: dg.AssetExecutionContext,
    settings: RagSettings,
    raw_pages: pd.DataFrame,
    footnote_dictionary: pd.DataFrame,
    footnote_registry: pd.DataFrame,
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """The baseline: a sliding window over the raw text (the model's window in tokens, header
    included, 24 tokens of overlap), each chunk with its contextual header."""
    document, year = partition_of(context)
    chunk_settings = settings.chunk_settings
    index = frames_to_index(footnote_dictionary, footnote_registry)
    pages = frame_to_pages(raw_pages)
    where = frame_to_context(raw_pages, document, year, pages)
    chunks = chunking.naive_chunks(pages, document, year, index, chunk_settings, where)
    yield from _chunk_outputs(chunks, chunk_settings.max_tokens, "naive_chunks",
                              source_of("raw_pages", raw_pages))


@partition_table(GROUP, check_specs=[
    dg.AssetCheckSpec("enriched_chunks_quality", asset="enriched_chunks", blocking=True),
    dg.AssetCheckSpec("footnote_colocation", asset="enriched_chunks"),
])
def enriched_chunks(
    context: dg.AssetExecutionContext,
    settings: RagSettings,
    raw_pages: pd.DataFrame,
    stitched_text: pd.DataFrame,
    footnote_dictionary: pd.DataFrame,
    footnote_registry: pd.DataFrame,
    naive_chunks: pd.DataFrame,
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """Chunks of whole units: a sentence with its stitched footnotes, a table with its title,
    header rows and notes (and the caption or colon line printed above it); never across a
    section heading or from one statement's pages into another's; each with its contextual
    header (read from ``raw_pages``). Reads ``naive_chunks`` only to report the baseline's
    co-location beside its own."""
    document, year = partition_of(context)
    index = frames_to_index(footnote_dictionary, footnote_registry)
    chunk_settings = settings.chunk_settings
    where = frame_to_context(raw_pages, document, year)
    chunks = chunking.enriched_chunks(
        frame_to_stitched(stitched_text), document, year, index, chunk_settings, where
    )
    yield from _chunk_outputs(chunks, chunk_settings.max_tokens, "enriched_chunks",
                              source_of("stitched_text", stitched_text))
    pairs, colocated = colocation(chunks)
    naive_pairs, naive_colocated = colocation(frame_to_chunks(naive_chunks))
    enriched_ratio = colocated / pairs if pairs else 1.0
    naive_ratio = naive_colocated / naive_pairs if naive_pairs else 1.0
    yield dg.AssetCheckResult(
        check_name="footnote_colocation",
        passed=colocated == pairs,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "enriched_colocation": round(enriched_ratio, 4),
            "naive_colocation": round(naive_ratio, 4),
            "enriched_pairs": pairs,
            "naive_pairs": naive_pairs,
        },
        description=(
            f"chunks citing a footnote that also hold its definition: enriched "
            f"{enriched_ratio:.1%} ({colocated}/{pairs}), naive {naive_ratio:.1%} "
            f"({naive_colocated}/{naive_pairs})"
        ),
    )


ingest_assets = [raw_pages, footnotes, stitched_text, naive_chunks, enriched_chunks]
ingest_job = dg.define_asset_job(
    "ingest_job",
    selection=dg.AssetSelection.groups(GROUP, "index"),
    description="One document x year partition from its file to searchable vectors.",
)
