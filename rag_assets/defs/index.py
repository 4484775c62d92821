"""Index assets (group ``index``): chunk tables -> LanceDB vectors with BM25, document profiles.

The vectors live in LanceDB, not in the warehouse: the assets write the store themselves and
report what they did. A partition's rows are replaced in one commit, so re-materializing never
duplicates and concurrent partitions never lose each other's rows.

Past a row count (``ANN_INDEX_ROWS``, ``RAG_ASSETS_ANN_INDEX_ROWS``) a chunk table gets a vector
index, built by the write that crosses it and extended by every later write (``ann.py``); the
vector assets report it (``ann_*`` metadata: the index type, whether the table is indexed, its
rows, what this write did to the index).

The vector steps are where a run spends its time (about 90% of a long report's run), so they get
the cores: torch's threads are the cores this process may use divided by the embedding steps the
run's executor may run at once (1 under the in-process executor of ``definitions.py``, where no
other step runs beside them), and each step reports the model's texts per second.
"""

from collections import Counter
from collections.abc import Iterator

import dagster as dg
import pandas as pd

from rag_assets.core.chunks.chunking import ChunkKind
from rag_assets.core.retrieval.ann import AnnState
from rag_assets.core.retrieval.embeddings import Embedder, available_cores, torch_threads_for
from rag_assets.core.retrieval.store import LanceFolder, VectorStore, index_partition
from rag_assets.core.warehouse.tables import (
    PROFILE_READ,
    StaleTable,
    frame_to_chunks,
    frame_to_footnotes,
    stored_profile,
)
from rag_assets.defs.partitions import partition_of, report_partitions
from rag_assets.defs.presentation import fail, partition_check, preview
from rag_assets.defs.resources import EmbeddingsResource, RagSettings, RuntimeResource

GROUP = "index"
VECTOR_ASSETS = ("naive_vectors", "enriched_vectors")
# the in-process executor, and the one execute_in_process/materialize put in any job's place
IN_PROCESS_EXECUTORS = {"in_process", "execute_in_process_executor"}


def embedding_concurrency(context: dg.AssetExecutionContext) -> int:
    """How many embedding steps of this run may execute at once: 1 under the in-process
    executor; under a multiprocess one, both vector steps, capped by its ``max_concurrent``
    (Dagster's default: the CPU count)."""
    executor = context.job_def.executor_def.name
    if executor in IN_PROCESS_EXECUTORS:
        return 1
    config = (context.run_config.get("execution") or {}).get("config") or {}
    if executor == "multi_or_in_process":
        if "in_process" in config:
            return 1
        config = config.get("multiprocess") or {}
    max_concurrent = int(config.get("max_concurrent") or available_cores())
    return max(1, min(max_concurrent, len(VECTOR_ASSETS)))  # both vector steps may run together


def _embedder(
    context: dg.AssetExecutionContext, settings: RagSettings, embeddings: EmbeddingsResource,
    runtime: RuntimeResource,
) -> tuple[Embedder, VectorStore]:
    """The model and its store; a model that cannot load fails the partition in one line."""
    try:
        return embeddings.embedder(settings, runtime)
    except RuntimeError as err:
        fail(context, str(err))


@dg.asset(group_name=GROUP, partitions_def=report_partitions, kinds={"lancedb"},
          ins={"raw_pages": dg.AssetIn(metadata={"columns": PROFILE_READ})},
          automation_condition=dg.AutomationCondition.eager())
def document_profile(
    context: dg.AssetExecutionContext,
    settings: RagSettings,
    raw_pages: pd.DataFrame,
) -> dg.MaterializeResult:
    """The names a question may use for this document (registrant, ticker, a regulation's short
    name and number, the document id): ``routed`` retrieval narrows the corpus with them. Read
    from the cover once, at ingest: the profile ``raw_pages`` stores (its two columns alone are
    read here)."""
    document, year = partition_of(context)
    if raw_pages.empty:
        fail(context, f"{document} {year}: raw_pages holds no page: ingest the report first")
    try:
        title, aliases = stored_profile(raw_pages)
    except StaleTable as err:
        fail(context, str(err))
    LanceFolder(settings.lancedb_dir).put_profile(document, year, title, aliases)
    context.log.info(f"{document} {year}: aliases {aliases}")
    return dg.MaterializeResult(
        metadata={"title": title or "-", "aliases": dg.MetadataValue.json(aliases)}
    )


def ann_metadata(state: AnnState) -> dict[str, object]:
    """The vector index of the partition's chunk table after its write, as asset metadata."""
    return {
        "ann_index": state.index_type or "none",
        "ann_indexed": state.indexed,
        "ann_table_rows": state.table_rows,
        "ann_min_rows": state.min_rows,
        "ann_indexed_rows": state.indexed_rows,
        "ann_unindexed_rows": state.unindexed_rows,
        "ann_segments": state.segments,
        "ann_action": state.action,
        "ann_seconds": state.seconds,
        **({"ann_problem": state.problem} if state.problem else {}),
    }


def _log_ann(context: dg.AssetExecutionContext, state: AnnState) -> None:
    if state.problem:
        context.log.warning(f"vector index not built this time: {state.problem}")
    elif state.action in ("built", "rebuilt"):
        context.log.info(
            f"vector index {state.index_type} {state.action} over {state.table_rows} rows "
            f"in {state.seconds:.1f}s"
        )
    elif state.action == "busy":
        context.log.info("vector index: another process is building it; rows added meanwhile "
                         "are searched by a flat scan")


def _vectors(
    context: dg.AssetExecutionContext,
    settings: RagSettings,
    embeddings: EmbeddingsResource,
    runtime: RuntimeResource,
    kind: ChunkKind,
    chunks_frame: pd.DataFrame,
    footnote_dictionary: pd.DataFrame,
) -> Iterator[dg.MaterializeResult | dg.AssetCheckResult]:
    document, year = partition_of(context)
    footnotes = frame_to_footnotes(footnote_dictionary)
    embedder, store = _embedder(context, settings, embeddings, runtime)
    chunks = frame_to_chunks(chunks_frame)
    concurrent = embedding_concurrency(context)
    # at most; fewer while cores are busy
    embedder.threads = torch_threads_for(concurrent, runtime.cores)
    embedder.adaptive_threads = True
    embedder.threads_used = []
    context.log.info(
        f"{document} {year}: {len(chunks)} {kind} chunks, model {embedder.model_name} "
        f"({embedder.dimension}-d, max {embedder.max_seq_length} tokens), "
        f"backend {embedder.backend}, {embedder.threads} threads "
        f"({available_cores(runtime.cores)} cores, "
        f"{concurrent} embedding step(s) at once)"
    )

    def progress(done: int, total: int) -> None:
        """A line per slice of a long embedding (the CLI's ticker shows it); none at the end,
        which the summary below says (every line is an event the instance writes)."""
        if done < total:
            context.log.info(f"embedded {done}/{total} new texts")

    indexed = index_partition(store, embedder, kind, document, year, chunks, footnotes,
                              progress=progress)
    stats, written = indexed.embedding, indexed.write
    if written.fts_problem:
        context.log.warning(f"BM25 index not folded forward this time: {written.fts_problem}")
    _log_ann(context, written.ann)
    context.log.info(
        f"embeddings: {stats.computed} computed, {stats.cached} from the cache "
        f"in {stats.seconds:.1f}s ({stats.texts_per_second} texts/s in the model"
        + (f", model loaded in {stats.load_seconds:.1f}s" if stats.load_seconds else "") + ")"
    )
    stored = store.partition_rows(kind, document, year)
    yield dg.MaterializeResult(
        metadata={
            "table": written.table,
            "lancedb": str(settings.lancedb_dir),
            "model": embedder.model_name,
            "dimension": embedder.dimension,
            "rows": written.rows,
            "inserted": written.inserted,
            "updated": written.updated,
            "deleted": written.deleted,
            "table_rows": written.table_rows,
            "fts_unindexed_rows": written.fts_unindexed_rows,
            **ann_metadata(written.ann),
            "embeddings_computed": stats.computed,
            "embeddings_cached": stats.cached,
            "embed_seconds": stats.seconds,
            "encode_seconds": stats.encode_seconds,
            "texts_per_second": stats.texts_per_second,
            "model_load_seconds": stats.load_seconds,
            "embedding_backend": embedder.backend,
            "torch_threads": embedder.threads,  # the backend's threads (name kept for old runs)
            "torch_threads_used": dg.MetadataValue.json(
                {str(k): n for k, n in sorted(Counter(embedder.threads_used).items())}),
            "write_seconds": written.seconds,
            "dagster/row_count": stored,
            "preview": preview(chunks_frame, ["chunk_id", "page_start", "page_end", "text"])
            if len(chunks_frame) else "no chunks",
        }
    )
    yield dg.AssetCheckResult(
        check_name=f"{kind}_vectors_complete",
        passed=stored == len(chunks),
        metadata={"chunks": len(chunks), "vectors": stored},
        description=f"{stored} vectors for {len(chunks)} chunks of {document} {year}",
    )


def _vectors_asset(kind: ChunkKind, description: str) -> dg.AssetsDefinition:
    """``<kind>_vectors``: the same asset for both chunk kinds, reading ``<kind>_chunks``."""

    @dg.asset(
        name=f"{kind}_vectors",
        group_name=GROUP,
        partitions_def=report_partitions,
        kinds={"lancedb", "sentence-transformers"},
        ins={"chunks": dg.AssetIn(f"{kind}_chunks"), "footnote_dictionary": dg.AssetIn()},
        check_specs=[partition_check(
            f"{kind}_vectors_complete", f"{kind}_vectors",
            f"The {kind} vector table holds one row for each {kind} chunk of the partition. "
            "Why: a chunk without a vector is one retrieval can never return, and an extra row "
            "is a chunk of an earlier version of the report. An error that blocks the "
            "evaluation and generation of the partition in the same run: materialize "
            f"`{kind}_vectors` of the partition again (metadata: chunks, vectors).",
            blocking=True)],
        description=description,
        automation_condition=dg.AutomationCondition.eager(),
    )
    def vectors(
        context: dg.AssetExecutionContext,
        settings: RagSettings,
        embeddings: EmbeddingsResource,
        runtime: RuntimeResource,
        chunks: pd.DataFrame,
        footnote_dictionary: pd.DataFrame,
    ) -> Iterator[dg.MaterializeResult | dg.AssetCheckResult]:
        yield from _vectors(context, settings, embeddings, runtime, kind, chunks,
                            footnote_dictionary)

    return vectors


naive_vectors = _vectors_asset(
    "naive", "The naive chunks with their vectors, searchable by cosine and BM25."
)
enriched_vectors = _vectors_asset(
    "enriched",
    "The footnote-enriched chunks with their vectors (each row's `pages` include the pages of "
    "the footnotes stitched into it); a chunk whose text equals a naive one reuses its vector "
    "from the cache.",
)


index_assets = [document_profile, naive_vectors, enriched_vectors]
