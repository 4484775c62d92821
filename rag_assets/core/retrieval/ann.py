"""The chunk tables' vector index: when a table gets one, how it is built and searched.

Past ``ANN_INDEX_ROWS`` rows (30,000) a chunk table gets a vector index (``IVF_HNSW_SQ``, cosine;
``AnnConfig``) and bitmap indexes on ``document`` and ``year``, the partition filter's columns,
built by the write that crosses the threshold. Every later write's ``optimize()`` (the one that
folds the BM25 index) adds its rows to the vector index as a delta segment; past
``max_segments`` deltas the write that finds them rebuilds the index from every row. Queries
re-rank the graph's candidates on the full vectors, and a ``where`` filter is a prefilter (the
rows it keeps are found first, through the bitmaps, and only they can be returned), so a filter
that keeps one document among hundreds still gets that document's nearest rows: recall@10 1.0
at a million rows. A filter that keeps fewer than ``exact_rows`` rows (a question routed to one
company) skips the index: those rows are compared exactly, so its cost is its filings'.
``bench/ann_bench.py`` measured every choice (docs/ARCHITECTURE.md, Capacity).
Apart from the store (:mod:`store`) so the policy reads on its own; the store calls
``maintain_ann_index`` after every write and passes ``AnnConfig`` to its searches.
"""

from __future__ import annotations

import contextlib
import fcntl
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

if TYPE_CHECKING:  # lancedb is imported where it is used (see store.py: 2-3 s of import)
    import lancedb
    from lancedb.index import IndexConfig

VECTOR_COLUMN = "vector"
ANN_INDEX_NAME = "vector_idx"
ANN_FILTER_COLUMNS = ("document", "year")  # the partition prefilter's columns (bitmap indexes)
# a chunk table gets its vector index past this many rows (Capacity); the settings'
# runtime.ann_index_rows (RAG_ASSETS_ANN_INDEX_ROWS) sets it for every store of a deployment
ANN_INDEX_ROWS = 30_000


class AnnConfig(BaseModel):
    """The vector index of the chunk tables and how it is searched (``bench/ann_bench.py``;
    figures in docs/ARCHITECTURE.md, Capacity).

    HNSW graphs over 8-bit scalar-quantized vectors rather than IVF-PQ: at 100k rows it built
    in 41 s against IVF-PQ's 136 s (24 partitions, 48 sub-vectors) and found the exact top 10
    (recall 0.999), where IVF-PQ found 0.62 of it without re-ranking and 0.90 re-ranking 2x; and
    with a filter keeping one partition of 1,200 rows, IVF-PQ's probed clusters held too few of
    its rows (recall 0.24-0.57, fewer than 10 rows for 7 queries in 100) where HNSW found them
    all."""

    min_rows: int = Field(default=ANN_INDEX_ROWS, ge=1,
                          description="rows from which a chunk table is indexed")
    rows_per_partition: int = Field(
        default=1_048_576, ge=1,
        description="IVF partitions = rows // this (at least 1); each is one HNSW graph")
    m: int = Field(default=20, ge=4, description="HNSW neighbours per node")
    ef_construction: int = Field(default=300, ge=10, description="HNSW candidates while building")
    ef: int = Field(
        default=800, ge=1, description="HNSW candidates per query (at least 4 x the rows asked "
        "for); at a million rows 200 found 0.90 of the top 10 (none of it for 9 queries in "
        "100), 800 found 0.99-1.0 for 1 ms more")
    refine_factor: int = Field(
        default=2, ge=1, description="candidates re-ranked on the full vectors, x the rows asked "
        "for (recovers what the 8-bit codes lose)")
    max_segments: int = Field(
        default=32, ge=1, description="delta segments (one per write after the build) past "
        "which the index is rebuilt; each costs a query about 0.5 ms (dense p50 23-26 ms at 32 "
        "segments, 6-8 ms after the rebuild)")
    exact_rows: int = Field(
        default=10_000, ge=0, description="a where filter that keeps fewer rows is searched "
        "exactly over them, not through the index: a question routed to one company reads its "
        "filings' vectors (1,000 filings: 23 ms and no memory more, where the index's first "
        "query loaded it for 410 ms and 320 MB; the same nearest rows)")

    def query_ef(self, k: int) -> int:
        return max(self.ef, 4 * k)

    def num_partitions(self, rows: int) -> int:
        return max(1, rows // self.rows_per_partition)


class AnnState(BaseModel):
    """A chunk table's vector index after a write."""

    index_type: str | None = None  # "IVF_HNSW_SQ", or None while the table is below threshold
    table_rows: int = 0
    min_rows: int = ANN_INDEX_ROWS
    indexed_rows: int = 0
    unindexed_rows: int = 0  # searched by a flat scan beside the index
    segments: int = 0
    # none (below the threshold) | folded (the write's rows added to the index) | pending (not
    # added this time: searched by a flat scan until a write folds them) | built | rebuilt |
    # busy (another process is building it)
    action: str = "none"
    seconds: float = 0.0  # building or rebuilding (folding is part of the write's optimize)
    problem: str | None = None  # why the index could not be built this time

    @property
    def indexed(self) -> bool:
        return self.index_type is not None


def vector_index(table: lancedb.table.Table) -> IndexConfig | None:
    return next((i for i in table.list_indices() if i.columns == [VECTOR_COLUMN]), None)


def ann_state(table: lancedb.table.Table, config: AnnConfig, action: str = "none",
              seconds: float = 0.0, problem: str | None = None) -> AnnState:
    """The table's vector index as it stands."""
    index = vector_index(table)
    rows = table.count_rows()
    if index is None:
        return AnnState(table_rows=rows, min_rows=config.min_rows, unindexed_rows=rows,
                        action=action, seconds=seconds, problem=problem)
    stats = table.index_stats(index.name)
    return AnnState(
        index_type=stats.index_type if stats else index.index_type, table_rows=rows,
        min_rows=config.min_rows, indexed_rows=int(stats.num_indexed_rows if stats else 0),
        unindexed_rows=int(stats.num_unindexed_rows if stats else 0),
        segments=int(index.num_segments or 1), action=action, seconds=seconds,
        problem=problem,
    )


def maintain_ann_index(table: lancedb.table.Table, config: AnnConfig,
                       lock_folder: Path | None) -> AnnState:
    """After a write: build the vector index once the table reaches ``config.min_rows``; rebuild
    it past ``config.max_segments`` delta segments. The write's own ``optimize()`` has already
    added its rows to an existing index. A table below the threshold costs one count."""
    index = vector_index(table)
    if index is None and table.count_rows() < config.min_rows:
        return ann_state(table, config)
    if index is not None and (index.num_segments or 1) <= config.max_segments:
        state = ann_state(table, config, "folded")
        if state.unindexed_rows:  # the write's optimize() failed: the next write folds them
            state.action = "pending"
        return state
    return build_ann_index(table, config, lock_folder, rebuild=index is not None)


def build_ann_index(table: lancedb.table.Table, config: AnnConfig, lock_folder: Path | None,
                    rebuild: bool = False) -> AnnState:
    """(Re)build the vector index from every row, and the prefilter's bitmap indexes. One
    process builds, the others go on (``busy``: the rows stay searchable, by the old index
    and a flat scan of the rest); a failure is reported, not raised. ``lock_folder``: the store
    folder (None on an object store: one writer per table there)."""
    from lancedb.index import Bitmap, HnswSq

    started = time.perf_counter()
    with _build_lock(lock_folder, table.name) as held:
        if not held:
            return ann_state(table, config, "busy")
        table.checkout_latest()  # type: ignore[no-untyped-call]  # lancedb: unannotated
        index = vector_index(table)
        if index is not None and (index.num_segments or 1) <= config.max_segments:
            return ann_state(table, config, "folded")  # another process just (re)built it
        try:
            existing = {tuple(i.columns) for i in table.list_indices()}
            for column in ANN_FILTER_COLUMNS:
                if (column,) not in existing:
                    table.create_index(column, config=Bitmap(), replace=False)
            rows = table.count_rows()
            table.create_index(
                VECTOR_COLUMN, name=ANN_INDEX_NAME, replace=True,
                config=HnswSq(
                    distance_type="cosine", num_partitions=config.num_partitions(rows),
                    m=config.m, ef_construction=config.ef_construction,
                ),
            )
        except Exception as err:  # noqa: BLE001 - reported in the write result, not fatal
            first = next((line for line in str(err).splitlines() if line.strip()), "")
            return ann_state(
                table, config, "none", round(time.perf_counter() - started, 3),
                f"{type(err).__name__}: {first.strip()}",
            )
    return ann_state(
        table, config, "rebuilt" if rebuild else "built", round(time.perf_counter() - started, 3)
    )


@contextlib.contextmanager
def _build_lock(lock_folder: Path | None, table_name: str) -> Iterator[bool]:
    """Whether this process may build the table's vector index now: a lock of its own, not
    the store's creation lock (a build takes minutes at a million rows), taken without
    waiting."""
    if lock_folder is None:
        yield True
        return
    with open(lock_folder / f".ann-{table_name}.lock", "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
