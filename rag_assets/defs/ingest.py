"""Ingest assets (group ``ingest``): report file -> pages -> footnotes -> stitched text -> chunks,
and the statement facts, written by one step.

The step reads the report once and takes every table of its partition from one
:func:`~rag_assets.core.chunks.report.process_report`: each thing is worked out once (the pages
decoded, the footnote index built, the cover read, the statements classified), nothing is read
back from the warehouse, and every table of a partition comes from the same version of the file.
Each asset is its slice of the report (the ``*_outputs`` functions), written as its own table
(replacing the partition's previous rows) with what a user wants to see in the UI: counts, a
preview, the problems, and its checks.
"""


import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import dagster as dg
import pandas as pd

from rag_assets.core.chunks.chunking import Chunk, colocation
from rag_assets.core.chunks.quality import validate_chunk_table
from rag_assets.core.chunks.report import ProcessedReport, Stitcher, process_report
from rag_assets.core.footnotes.checks import (
    citation_counts,
    definition_completeness,
    multi_line,
    stray_note_lines,
    text_conservation,
)
from rag_assets.core.footnotes.groundtruth import load_truth
from rag_assets.core.footnotes.model_stitcher import ModelStitchResult, model_stitch
from rag_assets.core.footnotes.stitching import FootnoteIndex, StitchedPage, stitching_coverage
from rag_assets.core.ingest import ocr
from rag_assets.core.ingest.catalog import report_for
from rag_assets.core.ingest.pages import DocumentError
from rag_assets.core.llm.client import LLMConfigError
from rag_assets.core.warehouse.tables import (
    RAW_PAGES_SCHEMA,
    chunks_to_frame,
    index_to_frames,
    pages_to_frame,
    stitched_to_frame,
)
from rag_assets.defs.partitions import partition_of, report_partitions
from rag_assets.defs.presentation import (
    BY_PARTITION,
    WRITER_POOL,
    fail,
    partition_check,
    preview,
)
from rag_assets.defs.resources import LLMResource, RagSettings, RuntimeResource
from rag_assets.defs.statements import STATEMENT_CHECKS, STATEMENTS_OUT, statement_outputs

GROUP = "ingest"
# run tags of a sensor's or schedule's ingest request: the file and the version it saw
FILE_TAG = "rag-assets/file"
SHA256_TAG = "rag-assets/sha256"
# set by the run itself: the version it actually read (a queued run reads whatever is there)
READ_SHA256_TAG = "rag-assets/read-sha256"
RAW_PAGES = dg.AssetKey("raw_pages")
Events = Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]


def provenance(requested: str | None, read: str) -> str:
    """One line on how the version read relates to the one the run was requested for."""
    if requested is None:
        return "no version requested (a manual run): ingested the file as found"
    if requested == read:
        return "as requested"
    return (f"file changed after the request: requested {requested[:12]}, read {read[:12]}; "
            "this run ingested the version it read (a run requested for that version ingests "
            "the same content again)")


def _table(description: str, kinds: frozenset[str] = frozenset({"duckdb"})) -> dg.AssetOut:
    """A warehouse table of one document x year partition (its rows replaced when the
    partition is written again); none is written for a combination without a report."""
    return dg.AssetOut(metadata=BY_PARTITION, kinds=set(kinds), is_required=False,
                       description=description)


OUTS = {
    "raw_pages": _table(
        "One row per page: printed label, prose, type size per line, lines under a separator "
        "rule, tables as markdown, the 10-K Item and the statement the page is (the one "
        "classification: chunk headers, retrieval and the facts read it), the routing profile "
        "of the cover, and where its text came from (`text_source`: the text layer, OCR, or "
        "none). A damaged PDF is read from its repair (`repaired`); a page whose tables could "
        "not be read keeps its text and is flagged (`pages_flagged`, `page_faults`); "
        "`schema_version` says which layout of this table wrote the rows.",
        frozenset({"duckdb", "pdf"})),
    "footnote_dictionary": _table(
        "One row per footnote of the report: marker, style, definition text, the page and line "
        "it is defined on, the pages and sentences that cite it and the footnotes it cites in "
        "turn; a marker cited but never defined is a `dangling` row."),
    "footnote_registry": _table(
        "One row per marker occurrence in the text (page, line, sentence, table cell or "
        "footnote it sits in), the footnote it points to, and its resolution (`stitched` or "
        "`unresolved`); the `citation_counts` check fails when too many citations have no "
        "definition."),
    "stitched_text": _table(
        "The document with each footnote definition inlined after the sentence that cites it "
        "as `{FOOTNOTE [N]: text}`, definitions blocks and page furniture removed "
        "(`stitch_mode=llm`: inlined by the librarian model, validated against the "
        "deterministic stitcher)."),
    "naive_chunks": _table(
        "The baseline: a sliding window over the raw text (the model's window in tokens, "
        "header included, 24 tokens of overlap), each chunk with its contextual header."),
    "enriched_chunks": _table(
        "Chunks of whole units: a sentence with its stitched footnotes, a table with its "
        "title, header rows and notes (and the caption or colon line printed above it); never "
        "across a section heading or from one statement's pages into another's; each with its "
        "contextual header."),
    "financial_statements": STATEMENTS_OUT,
}
_FOOTNOTES = {RAW_PAGES}
_STITCHED = {dg.AssetKey("footnote_dictionary"), dg.AssetKey("footnote_registry"), RAW_PAGES}
INTERNAL_DEPS: dict[str, set[dg.AssetKey]] = {
    "raw_pages": set(),
    "footnote_dictionary": _FOOTNOTES,
    "footnote_registry": _FOOTNOTES,
    "stitched_text": _STITCHED,
    "naive_chunks": _STITCHED,
    "enriched_chunks": {dg.AssetKey("stitched_text"), *_STITCHED},
    "financial_statements": {RAW_PAGES},
}
CHECKS = [
    partition_check(
        "citation_counts", "footnote_registry",
        "How often each footnote is cited, and the citations whose marker has no definition. "
        "Why: a sentence whose note is not found reaches the index without the qualification "
        "the note prints. Warns (never blocks) when more than `ingest.max_unresolved_share` of "
        "the citations (RAG_ASSETS_INGEST__MAX_UNRESOLVED_SHARE, default 5%) have no "
        "definition, or when the report defines footnotes but not one is cited (its markers "
        "were not read). Then open `unresolved` (marker, page, sentence) and look at how that "
        "page prints its notes. A footnote never cited passes and is counted (`never_cited`): "
        "a 10-K defines notes its text does not cite."),
    partition_check(
        "footnote_coverage", "stitched_text",
        "Every cited footnote that has a definition is inlined after the sentence citing it, on "
        "every page citing it. Why: a figure read without its footnote loses its "
        "qualification (restated, excludes an acquisition) in the answers. An error that "
        "blocks: the partition's vectors are not rebuilt from this reading. Open `not_stitched` "
        "(footnote and page) and report the page with the file: the stitcher missed it.",
        blocking=True),
    partition_check(
        "text_conservation", "stitched_text",
        "No word is lost in stitching: every word of a page's body is in the stitched page, in "
        "order, outside the footnote blocks, and every word of a definition's lines is in the "
        "text the dictionary keeps for it. Why: a lost word is a figure or a qualification "
        "that no answer can cite. An error that blocks: the partition's vectors are not "
        "rebuilt from this reading. `lost` names the page, where (body or footnote) and the "
        "words: report the page with the file.",
        blocking=True),
    *(partition_check(
        f"{kind}_chunks_quality", f"{kind}_chunks",
        f"Great Expectations over the {kind} chunks: ids present and unique, text not empty, "
        "every chunk within the embedding model's window (`ingest.chunk_max_tokens`), page "
        "ranges in order. Why: a chunk past the window is cut when embedded (its end cannot "
        "be found) and a duplicate id overwrites another chunk's vector. An error that "
        "blocks: the vectors are not rebuilt. `failures` names each expectation that failed "
        "with examples; a window smaller than the model's needs a smaller "
        "`chunk_max_tokens`.",
        blocking=True) for kind in ("naive", "enriched")),
    partition_check(
        "footnote_colocation", "enriched_chunks",
        "The share of chunk x cited-marker pairs whose chunk also holds the definition, for "
        "the enriched chunks beside the naive baseline. Why: retrieval returns a chunk, and a "
        "chunk without its note loses the qualification. Real filings stay below 100% (a long "
        "table split over several chunks cites its note in each piece and holds it once), so "
        "it warns only when the enriched chunks co-locate a smaller share than the naive "
        "ones: the enrichment went backwards; compare the two figures and read the "
        "partition's `stitched_text`."),
    *STATEMENT_CHECKS,
]


@dg.multi_asset(name="ingest_report", group_name=GROUP, partitions_def=report_partitions,
                outs=OUTS, internal_asset_deps=INTERNAL_DEPS, check_specs=CHECKS,
                pool=WRITER_POOL, can_subset=True)
def ingest_report(
    context: dg.AssetExecutionContext, settings: RagSettings, llm: LLMResource,
    runtime: RuntimeResource,
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """Reads the partition's report and writes each selected table from that one reading (a
    partition whose file is gone writes none). A subset (one table re-materialized in the UI)
    reads the file again and works out only what its tables need."""
    document, year = partition_of(context)
    path = _report_path(context, settings, document, year)
    if path is None:
        return
    model_results: list[ModelStitchResult] = []
    stitcher = (_model_stitcher(context, llm, runtime, model_results)
                if settings.stitch_mode == "llm" else None)
    started = time.perf_counter()
    try:
        report = process_report(path, document, year, settings, stitcher, use_ocr=runtime.ocr)
    except DocumentError as err:
        fail(context, f"cannot ingest {err}", asset_key=RAW_PAGES, file=str(path),
             cause=err.cause)
    report.context  # noqa: B018 - the read's time includes what the pages say of the document
    seconds = time.perf_counter() - started
    wanted = {key.to_user_string() for key in context.selected_asset_keys}
    slices: tuple[tuple[set[str], Callable[[], Events]], ...] = (
        ({"raw_pages"}, lambda: raw_pages_outputs(context, report, path, seconds)),
        ({"footnote_dictionary", "footnote_registry"},
         lambda: footnote_outputs(context, settings, report)),
        ({"stitched_text"}, lambda: stitched_outputs(settings, report, model_results)),
        ({"naive_chunks", "enriched_chunks"},
         lambda: chunk_outputs(report, settings.chunk_settings.max_tokens)),
        ({"financial_statements"}, lambda: statement_outputs(context, report)),
    )
    checks = {(key.asset_key, key.name) for key in context.selected_asset_check_keys}
    for assets, outputs in slices:
        if assets & wanted:
            yield from _selected(outputs(), wanted, checks)


def _selected(events: Events, assets: set[str],
              checks: set[tuple[dg.AssetKey, str]]) -> Events:
    """The events of a slice that the run selected (a subset may leave out one of a slice's
    tables, or a check): each output is named after its asset."""
    for event in events:
        if isinstance(event, dg.Output):
            if event.output_name in assets:
                yield event
        elif (event.asset_key, event.check_name) in checks:
            yield event


def _report_path(context: dg.AssetExecutionContext, settings: RagSettings, document: str,
                 year: int) -> Path | None:
    """The partition's file; None (logged) for a combination without one."""
    try:
        path = report_for(settings.reports_dir, document, year)
    except ValueError as err:
        fail(context, str(err), asset_key=RAW_PAGES)
    if path is None:
        context.log.info(
            f"no report filed for {document} {year} under {settings.reports_dir}: "
            "nothing to ingest (its file was moved or removed)"
        )
    return path


def raw_pages_outputs(context: dg.AssetExecutionContext, report: ProcessedReport, path: Path,
                      seconds: float) -> Iterator[dg.Output[pd.DataFrame]]:
    """``raw_pages``: the pages with what the context says of each, and how the file was read
    (the version, OCR, repairs, the pages a reading step failed on)."""
    loaded, where = report.loaded, report.context
    for warning in loaded.warnings:
        context.log.warning(warning)
    requested = context.run.tags.get(SHA256_TAG)
    origin = provenance(requested, loaded.sha256)
    if requested not in (None, loaded.sha256):
        context.log.warning(f"{path.name}: {origin}")
    context.instance.add_run_tags(context.run.run_id, {READ_SHA256_TAG: loaded.sha256})
    frame = pages_to_frame(loaded.pages, report.document, report.year, str(path), loaded.sha256,
                           where)
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
    yield dg.Output(frame, output_name="raw_pages", metadata={
        "file": str(path),
        "sha256": loaded.sha256,
        "source_sha256": loaded.sha256,
        "requested_sha256": requested or "none",
        "provenance": origin,
        "schema_version": RAW_PAGES_SCHEMA,
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
    })


def footnote_outputs(
    context: dg.AssetExecutionContext, settings: RagSettings, report: ProcessedReport
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """Every footnote definition (marker, text, where defined and cited, what it cites), and a
    registry row per marker occurrence with its resolution (``stitched`` or ``unresolved``).
    Where the report was generated here, its definitions are compared with the ground truth."""
    document, year, index = report.document, report.year, report.index
    source = report.loaded.sha256
    dictionary, registry = index_to_frames(index, document, year, source)
    stray = stray_note_lines(report.pages, index)
    unresolved = sorted({f"{c.marker} (page {c.page_index})" for c in index.unresolved})
    if unresolved:
        context.log.warning(
            f"{document} {year}: {len(unresolved)} marker(s) cited but never defined: "
            + ", ".join(unresolved[:20])
        )
    yield dg.Output(dictionary, output_name="footnote_dictionary", metadata={
        "footnotes": len(index.footnotes),
        "cross_page": sum(1 for f in index.footnotes if set(f.cited_pages) - {f.page_index}),
        "citing_other_footnotes": sum(1 for f in index.footnotes if f.cites),
        "multi_line_definitions": sum(1 for f in index.footnotes if multi_line(f)),
        "source_sha256": source,
        "dangling_markers": dg.MetadataValue.json(unresolved),
        "orphan_definitions": dg.MetadataValue.json([f.footnote_id for f in index.orphans]),
        "stray_note_lines": dg.MetadataValue.json(
            [f"page {s.page_index} line {s.line}: {s.text}" for s in stray[:100]]
        ),
        **_truth_metadata(context, settings, report),
        "seconds": report.seconds.get("index", 0.0),
        "dagster/row_count": len(dictionary),
        "preview": preview(dictionary, ["footnote_id", "status", "cited_pages", "text"]),
    })
    yield dg.Output(registry, output_name="footnote_registry", metadata={
        "citations": len(registry),
        "stitched": int((registry.resolution == "stitched").sum()),
        "unresolved": int((registry.resolution == "unresolved").sum()),
        "source_sha256": source,
        "dagster/row_count": len(registry),
    })
    yield citation_check(index, settings.max_unresolved_share)


def _truth_metadata(context: dg.AssetExecutionContext, settings: RagSettings,
                    report: ProcessedReport) -> dict[str, Any]:
    """How the definitions compare with the ground truth of a report generated here."""
    truth = load_truth(settings.truth_dir, report.document, report.year)
    if not truth:
        return {"ground_truth": "none (a report not generated here)"}
    completeness = definition_completeness(report.index, truth)
    if completeness.incomplete:
        context.log.warning(
            f"{report.document} {report.year}: {len(completeness.incomplete)} definition(s) "
            f"differ from the ground truth, e.g. {completeness.incomplete[0]}"
        )
    return {
        "definitions_complete": round(completeness.ratio, 4),
        "incomplete_definitions": dg.MetadataValue.json(completeness.incomplete[:50]),
        "footnote_references_recorded": f"{completeness.cites_recorded}/"
        f"{completeness.cites_expected}",
        "citing_pages_found": f"{completeness.citing_pages_found}/"
        f"{completeness.citing_pages_expected}",
    }


def citation_check(index: FootnoteIndex, max_share: float) -> dg.AssetCheckResult:
    """``citation_counts``: a warning when too many citations have no definition, or when no
    footnote is cited at all; footnotes never cited are counted, and pass."""
    counts = citation_counts(index)
    problems = counts.problems(max_share)
    summary = (f"{len(counts.counts)} footnotes, {counts.citations} citations, "
               f"{len(counts.unresolved)} without a definition "
               f"({counts.unresolved_share:.1%}, limit {max_share:.0%}), "
               f"{len(counts.orphans)} footnote(s) never cited")
    return dg.AssetCheckResult(
        check_name="citation_counts",
        asset_key="footnote_registry",
        passed=not problems,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "footnotes": len(counts.counts),
            "citations": counts.citations,
            "unresolved_citations": len(counts.unresolved),
            "unresolved_share": round(counts.unresolved_share, 4),
            "max_unresolved_share": max_share,
            "unresolved": dg.MetadataValue.json(counts.unresolved[:50]),
            "never_cited": len(counts.orphans),
            "never_cited_footnotes": dg.MetadataValue.json(counts.orphans[:50]),
            "most_cited": dg.MetadataValue.json(dict(counts.most_cited())),
        },
        description="; ".join([*problems, summary]),
    )


def stitched_outputs(
    settings: RagSettings, report: ProcessedReport, model_results: list[ModelStitchResult]
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """``stitched_text`` and its two blocking checks: every cited footnote stitched, no word of
    the report lost. ``stitch_mode=llm``: the librarian model's pages (``model_results``), each
    validated against the deterministic stitcher, judged by the same checks."""
    pages = report.stitched
    frame = stitched_to_frame(pages, report.document, report.year, report.loaded.sha256)
    mode_metadata: dict[str, Any] = {"stitch_mode": settings.stitch_mode}
    for result in model_results:
        mode_metadata.update(_model_metadata(result))
    yield dg.Output(frame, output_name="stitched_text", metadata={
        "source_sha256": report.loaded.sha256,
        "pages": len(frame),
        "characters": int(frame.n_chars.sum()),
        "footnote_blocks": int(frame.text.str.count(r"\{FOOTNOTE ").sum()),
        "seconds": round(sum(report.seconds.get(stage, 0.0)
                             for stage in ("deterministic_stitched", "stitched")), 3),
        **mode_metadata,
        "dagster/row_count": len(frame),
        "preview": preview(frame, ["page_index", "text"], width=400),
    })
    yield from _stitching_checks(report, pages)


def _stitching_checks(report: ProcessedReport,
                      pages: list[StitchedPage]) -> Iterator[dg.AssetCheckResult]:
    coverage = stitching_coverage(report.index, pages)
    yield dg.AssetCheckResult(
        check_name="footnote_coverage", asset_key="stitched_text",
        passed=not coverage.missing,
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
    conservation = text_conservation(report.pages, report.index, pages)
    yield dg.AssetCheckResult(
        check_name="text_conservation", asset_key="stitched_text",
        passed=not conservation.lost,
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


def _model_stitcher(context: dg.AssetExecutionContext, llm: LLMResource,
                    runtime: RuntimeResource, results: list[ModelStitchResult]) -> Stitcher:
    """The model stitcher of ``stitch_mode=llm`` (its result kept in ``results`` for the
    metadata); a partition without a usable provider fails in one line before any reading."""
    try:
        chat = llm.chat(runtime)
    except LLMConfigError as err:
        fail(context, f"stitch_mode=llm: {err}", asset_key=RAW_PAGES)
    if chat is None:
        fail(context, "stitch_mode=llm needs an llm provider (openai or azure)",
             asset_key=RAW_PAGES)

    def stitch(report: ProcessedReport) -> list[StitchedPage]:
        result = model_stitch(report.pages, report.index, chat,
                              deterministic=report.deterministic_stitched,
                              log=context.log.warning)
        context.log.info(f"model stitcher: {result.summary()}")
        results.append(result)
        return result.pages

    return stitch


def _model_metadata(result: ModelStitchResult) -> dict[str, Any]:
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


def chunk_outputs(report: ProcessedReport,
                  max_tokens: int) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """Both chunk tables with their quality checks, then the footnote co-location of the
    enriched chunks beside the baseline's (both in hand: no table is read back for it)."""
    source = report.loaded.sha256
    for name in ("naive_chunks", "enriched_chunks"):
        chunks = getattr(report, name)
        yield from _chunk_table(chunks, max_tokens, name, source, report.seconds[name])
    pairs, colocated = colocation(report.enriched_chunks)
    naive_pairs, naive_colocated = colocation(report.naive_chunks)
    enriched_ratio = colocated / pairs if pairs else 1.0
    naive_ratio = naive_colocated / naive_pairs if naive_pairs else 1.0
    yield dg.AssetCheckResult(
        check_name="footnote_colocation",
        asset_key="enriched_chunks",
        passed=enriched_ratio >= naive_ratio,  # below 100% is a real filing, not a fault
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "enriched_colocation": round(enriched_ratio, 4),
            "naive_colocation": round(naive_ratio, 4),
            "enriched_pairs": pairs,
            "enriched_colocated": colocated,
            "naive_pairs": naive_pairs,
            "naive_colocated": naive_colocated,
        },
        description=(
            f"chunks citing a footnote that also hold its definition: enriched "
            f"{enriched_ratio:.1%} ({colocated}/{pairs}), naive {naive_ratio:.1%} "
            f"({naive_colocated}/{naive_pairs})"
        ),
    )


def _chunk_table(
    chunks: list[Chunk], max_tokens: int, name: str, source: str, seconds: float
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """A chunk table with its metadata (the report version it was built from, the seconds the
    chunker took), and its GX quality check (every chunk within the model's window)."""
    frame = chunks_to_frame(chunks)
    started = time.perf_counter()
    report = validate_chunk_table(frame, max_tokens=max_tokens)
    quality_seconds = time.perf_counter() - started
    pairs, colocated = colocation(chunks)
    yield dg.Output(frame, output_name=name, metadata={
        "chunks": len(frame),
        "source_sha256": source,
        "mean_chars": round(float(frame.n_chars.mean()), 1) if len(frame) else 0.0,
        "mean_tokens": round(float(frame.n_tokens.mean()), 1) if len(frame) else 0.0,
        "cited_pairs": pairs,
        "colocation": round(colocated / pairs, 4) if pairs else 1.0,
        "dagster/row_count": len(frame),
        "max_tokens": int(frame.n_tokens.max()) if len(frame) else 0,
        "statement_chunks": int(frame.statement.notna().sum()),
        "seconds": seconds,
        "quality_seconds": round(quality_seconds, 3),
        "preview": preview(frame, ["chunk_id", "page_start", "page_end", "context", "text"]),
    })
    yield dg.AssetCheckResult(
        check_name=f"{name}_quality",
        asset_key=name,
        passed=report.success,
        metadata={"expectations": report.evaluated, "failures": report.summary()},
        description=report.summary(),
    )


ingest_assets = [ingest_report]
ingest_job = dg.define_asset_job(
    "ingest_job",
    selection=dg.AssetSelection.groups(GROUP, "index"),
    description="One document x year partition from its file to searchable vectors.",
)
