"""The LanceDB store: chunk vectors per chunk kind, the embedding cache, document profiles.

One folder (``data/lancedb``) holds one table per chunk kind, embedding model and row layout
(``naive_chunks_v2__all_minilm_l6_v2_256``): vectors of two models never share a table, and
swapping the model builds new tables beside the old ones. ``v2`` rows embed a chunk's contextual
header with its body (``search_text``) and keep the header, the statement and the body apart;
tables of the older layout are left as they are (their vectors embed the body alone). Every
partition is written by one atomic ``merge_insert`` that also deletes the partition's rows that
are no longer produced, so a write is safe to repeat, and two partitions written at the same
time (two processes) both end complete.
Full-text search is LanceDB's native BM25 index on ``search_text`` (header and body), created with
the table and folded forward after every write (rows not yet indexed are still searched, by a
flat scan).
Past ``ANN_INDEX_ROWS`` rows (30,000) a chunk table gets a vector index (``IVF_HNSW_SQ``, cosine;
``AnnConfig``) and bitmap indexes on ``document`` and ``year``, the partition filter's columns,
built by the write that crosses the threshold. Every later write's ``optimize()`` (the one that
folds the BM25 index) adds its rows to the vector index as a delta segment; past
``max_segments`` deltas the write that finds them rebuilds the index from every row. Queries
re-rank the graph's candidates on the full vectors, and a ``where`` filter is a prefilter (the
rows it keeps are found first, through the bitmaps, and only they can be returned), so a filter
that keeps one document among hundreds still gets that document's nearest rows: recall@10 1.0
at a million rows. ``bench/ann_bench.py`` measured every choice (docs/ARCHITECTURE.md, Capacity).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.index import FTS, Bitmap, HnswSq, IndexConfig
from lancedb.query import LanceHybridQueryBuilder, LanceVectorQueryBuilder, MatchQuery
from lancedb.rerankers import RRFReranker
from pydantic import BaseModel, Field

from rag_assets.core.chunks.chunking import Chunk, ChunkKind, evidence_pages
from rag_assets.core.footnotes.stitching import Footnote
from rag_assets.core.retrieval.embeddings import Embedder, EmbeddingStats, content_key
from rag_assets.core.warehouse.writable import check_folder, is_local_database

FTS_CONFIG = FTS(stem=True, remove_stop_words=True, ascii_folding=True, lower_case=True)
PROFILE_TABLE = "document_profiles"
ROW_LAYOUT = "v2"  # the chunk tables' row layout (see the module docstring)
FTS_COLUMN = "search_text"
CACHE_INDEX_ROWS = 10_000
VECTOR_COLUMN = "vector"
ANN_INDEX_NAME = "vector_idx"
ANN_FILTER_COLUMNS = ("document", "year")  # the partition prefilter's columns (bitmap indexes)
ANN_INDEX_ROWS = 30_000  # a chunk table gets its vector index past this many rows (Capacity)
ANN_ROWS_ENV = "RAG_ASSETS_ANN_INDEX_ROWS"  # overrides ANN_INDEX_ROWS for every store
# columns a search returns (never the vector: it is 1.5 KB a row and nobody reads it)
HIT_COLUMNS = [
    "chunk_id", "document", "year", "kind", "seq", "page_start", "page_end", "pages", "section",
    "context", "statement", "text", "markers_cited", "markers_defined",
]


def sql_text(value: str) -> str:
    """A string literal for a LanceDB filter."""
    return "'" + value.replace("'", "''") + "'"


def partition_filter(document: str, year: int) -> str:
    return f"document = {sql_text(document)} AND year = {int(year)}"


def chunk_schema(dimension: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("chunk_id", pa.string(), nullable=False),
            pa.field("document", pa.string(), nullable=False),
            pa.field("year", pa.int32(), nullable=False),
            pa.field("kind", pa.string()),
            pa.field("seq", pa.int32()),
            pa.field("page_start", pa.int32()),
            pa.field("page_end", pa.int32()),
            pa.field("pages", pa.list_(pa.int32())),
            pa.field("section", pa.string()),
            pa.field("context", pa.string()),
            pa.field("statement", pa.string()),
            pa.field("text", pa.string()),
            pa.field("search_text", pa.string()),
            pa.field("n_tokens", pa.int32()),
            pa.field("markers_cited", pa.list_(pa.string())),
            pa.field("markers_defined", pa.list_(pa.string())),
            pa.field("text_sha256", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dimension)),
        ]
    )


CACHE_SCHEMA_FIELDS = ("key", "vector")
PROFILE_SCHEMA = pa.schema(
    [
        pa.field("document", pa.string(), nullable=False),
        pa.field("year", pa.int32(), nullable=False),
        pa.field("title", pa.string()),
        pa.field("aliases", pa.string()),  # JSON list
    ]
)


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

    def query_ef(self, k: int) -> int:
        return max(self.ef, 4 * k)

    def num_partitions(self, rows: int) -> int:
        return max(1, rows // self.rows_per_partition)


def default_ann_config() -> AnnConfig:
    """``AnnConfig()`` with the threshold from ``RAG_ASSETS_ANN_INDEX_ROWS`` when it is set."""
    value = os.environ.get(ANN_ROWS_ENV, "").strip()
    return AnnConfig(min_rows=int(value)) if value else AnnConfig()


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


class WriteResult(BaseModel):
    """What replacing one partition did."""

    table: str
    rows: int
    inserted: int
    updated: int
    deleted: int
    table_rows: int
    version: int
    seconds: float
    fts_unindexed_rows: int | None = None
    fts_problem: str | None = None  # why the index could not be folded forward this time
    ann: AnnState = Field(default_factory=AnnState)


class LanceEmbeddingCache:
    """Vectors by content hash in a LanceDB table of their own, one table per model.

    Lookups go through a BTREE index on ``key`` once the table is large enough to want one.
    Concurrent writers only ever append; a key written twice by a race is harmless.
    """

    def __init__(self, db: lancedb.DBConnection, table_name: str, dimension: int) -> None:
        schema = pa.schema(
            [
                pa.field("key", pa.string(), nullable=False),
                pa.field("vector", pa.list_(pa.float32(), dimension)),
            ]
        )
        self.table = db.create_table(table_name, schema=schema, exist_ok=True)
        self.dimension = dimension

    def get_many(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        if not keys or self.table.count_rows() == 0:
            return {}
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(keys), 2000):  # keep the IN list of one scan bounded
            batch = keys[start : start + 2000]
            in_list = ", ".join(sql_text(k) for k in batch)
            arrow = (
                self.table.search()
                .where(f"key IN ({in_list})")
                .select(["key", "vector"])
                .limit(None)  # a key written twice by a race is found twice: keep every row
                .to_arrow()
            )
            vectors = arrow.column("vector").combine_chunks().flatten().to_numpy()
            matrix = vectors.reshape(-1, self.dimension).astype(np.float32)
            for key, vector in zip(arrow.column("key").to_pylist(), matrix, strict=True):
                found[key] = vector
        return found

    def put_many(self, vectors: dict[str, np.ndarray]) -> None:
        if not vectors:
            return
        self.table.add(
            pa.table(
                {
                    "key": list(vectors),
                    "vector": pa.FixedSizeListArray.from_arrays(
                        pa.array(np.concatenate(list(vectors.values())).astype(np.float32)),
                        self.dimension,
                    ),
                },
                schema=self.table.schema,
            )
        )


class LanceFolder:
    """The LanceDB folder: the connection, the lock for creating tables, document profiles
    (which need no embedding model)."""

    def __init__(self, uri: str | Path) -> None:
        self.uri = str(uri)
        self.local = is_local_database(self.uri)  # not s3://, gs://, az://, db://
        if self.local:
            # creates the folder; one line (StoreNotWritable) if nothing can be written in it
            check_folder(self.uri, "LanceDB folder")
        # see other processes' commits at once (the default never re-reads a table's version)
        self.db = lancedb.connect(self.uri, read_consistency_interval=timedelta(0))

    @contextlib.contextmanager
    def _creation_lock(self) -> Iterator[None]:
        """An exclusive lock on the store folder while tables and indexes are created (LanceDB
        commits such first versions optimistically, and a loser raises instead of retrying).
        An object store has no folder to lock: one writer per table there (the run queue)."""
        if not self.local:
            yield
            return
        with open(Path(self.uri) / ".create.lock", "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def table_names(self) -> list[str]:
        return list(self.db.list_tables(limit=10_000).tables)

    # -- document profiles (routing aliases) ----------------------------------------------
    def put_profile(self, document: str, year: int, title: str | None, aliases: list[str]) -> None:
        with self._creation_lock():
            table = self.db.create_table(PROFILE_TABLE, schema=PROFILE_SCHEMA, exist_ok=True)
        row = pa.table(
            {"document": [document], "year": [year], "title": [title],
             "aliases": [json.dumps(aliases)]},
            schema=PROFILE_SCHEMA,
        )
        (
            table.merge_insert(["document", "year"])
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .execute(row)
        )

    def profiles(self) -> list[dict[str, Any]]:
        if PROFILE_TABLE not in self.table_names():
            return []
        rows = self.db.open_table(PROFILE_TABLE).to_arrow().to_pylist()
        return [{**r, "aliases": json.loads(r["aliases"])} for r in rows]


class VectorStore(LanceFolder):
    """The LanceDB folder of one embedding model: its chunk tables and embedding cache."""

    def __init__(self, uri: str | Path, model_slug: str, dimension: int,
                 ann: AnnConfig | None = None) -> None:
        super().__init__(uri)
        self.model_slug = model_slug
        self.dimension = dimension
        self.ann = ann or default_ann_config()
        self._tables: dict[str, lancedb.table.Table] = {}  # handles re-read the latest version
        self._searchable: dict[str, lancedb.table.Table] = {}

    # -- tables ---------------------------------------------------------------------------
    def table_name(self, kind: ChunkKind) -> str:
        return f"{kind}_chunks_{ROW_LAYOUT}__{self.model_slug}"

    def table(self, kind: ChunkKind) -> lancedb.table.Table:
        """The chunk table of a kind, created empty with its full-text index if missing. The
        first call takes the store's lock: another process may be creating the table right now
        (its folder can exist before its first version does)."""
        if kind not in self._tables:
            with self._creation_lock():
                table = self.db.create_table(
                    self.table_name(kind), schema=chunk_schema(self.dimension), exist_ok=True
                )
                if not any(i.index_type == "FTS" for i in table.list_indices()):
                    table.create_index(FTS_COLUMN, config=FTS_CONFIG, replace=False)
            self._tables[kind] = table
        return self._tables[kind]

    def embedding_cache(self) -> LanceEmbeddingCache:
        """The model's cache; past 10k vectors its keys get a BTREE index, folded forward here
        (keys not yet indexed are still found, by a scan)."""
        with self._creation_lock():
            cache = LanceEmbeddingCache(
                self.db, f"embedding_cache__{self.model_slug}", self.dimension
            )
            table = cache.table
            if table.list_indices():
                table.optimize()
            elif table.count_rows() >= CACHE_INDEX_ROWS:
                table.create_scalar_index("key", replace=False)
        return cache

    # -- writes ---------------------------------------------------------------------------
    def replace_partition(
        self, kind: ChunkKind, document: str, year: int, chunks: Sequence[Chunk],
        vectors: np.ndarray, text_keys: Sequence[str],
        pages: Sequence[list[int]] | None = None,
    ) -> WriteResult:
        """Make the partition's rows exactly ``chunks``, in one commit. ``pages`` are the pages
        each chunk's text comes from (its page range when not given)."""
        started = time.perf_counter()
        table = self.table(kind)
        data = pa.table(
            {
                "chunk_id": [c.chunk_id for c in chunks],
                "document": [document] * len(chunks),
                "year": [year] * len(chunks),
                "kind": [c.kind for c in chunks],
                "seq": [c.seq for c in chunks],
                "page_start": [c.page_start for c in chunks],
                "page_end": [c.page_end for c in chunks],
                "pages": list(pages) if pages is not None
                else [list(range(c.page_start, c.page_end + 1)) for c in chunks],
                "section": [c.section for c in chunks],
                "context": [c.context for c in chunks],
                "statement": [c.statement for c in chunks],
                "text": [c.text for c in chunks],
                "search_text": [c.search_text for c in chunks],
                "n_tokens": [c.n_tokens for c in chunks],
                "markers_cited": [c.markers_cited for c in chunks],
                "markers_defined": [c.markers_defined for c in chunks],
                "text_sha256": list(text_keys),
                "vector": pa.FixedSizeListArray.from_arrays(
                    pa.array(np.asarray(vectors, dtype=np.float32).reshape(-1)), self.dimension
                ),
            },
            schema=table.schema,
        )
        result = (
            table.merge_insert("chunk_id")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .when_not_matched_by_source_delete(partition_filter(document, year))
            .execute(data)
        )
        unindexed, fts_problem = self._fold_fts_forward(table)
        ann = self.maintain_ann_index(table)
        return WriteResult(
            table=self.table_name(kind),
            rows=len(chunks),
            inserted=result.num_inserted_rows,
            updated=result.num_updated_rows,
            deleted=result.num_deleted_rows,
            table_rows=table.count_rows(),
            version=result.version,
            seconds=round(time.perf_counter() - started, 3),
            fts_unindexed_rows=unindexed,
            fts_problem=fts_problem,
            ann=ann,
        )

    @staticmethod
    def _fold_fts_forward(table: lancedb.table.Table) -> tuple[int | None, str | None]:
        """Add new rows to the BM25 index: (rows still unindexed, why folding failed). A
        conflict with a concurrent writer only delays it (unindexed rows are still found, by a
        flat scan, and the next write folds them in)."""
        problem = None
        try:
            table.optimize()
        except Exception as err:  # noqa: BLE001 - reported in the write result, not fatal
            first = next((line for line in str(err).splitlines() if line.strip()), "")
            problem = f"{type(err).__name__}: {first.strip()}"
        for index in table.list_indices():
            if index.index_type == "FTS":
                stats = table.index_stats(index.name)  # None: the index is gone since listed
                return (int(stats.num_unindexed_rows) if stats else None), problem
        return None, problem

    # -- the vector index -------------------------------------------------------------------
    @staticmethod
    def vector_index(table: lancedb.table.Table) -> IndexConfig | None:
        return next((i for i in table.list_indices() if i.columns == [VECTOR_COLUMN]), None)

    def ann_state(self, table: lancedb.table.Table, action: str = "none",
                  seconds: float = 0.0, problem: str | None = None) -> AnnState:
        """The table's vector index as it stands."""
        index = self.vector_index(table)
        rows = table.count_rows()
        if index is None:
            return AnnState(table_rows=rows, min_rows=self.ann.min_rows, unindexed_rows=rows,
                            action=action, seconds=seconds, problem=problem)
        stats = table.index_stats(index.name)
        return AnnState(
            index_type=stats.index_type if stats else index.index_type, table_rows=rows,
            min_rows=self.ann.min_rows, indexed_rows=int(stats.num_indexed_rows if stats else 0),
            unindexed_rows=int(stats.num_unindexed_rows if stats else 0),
            segments=int(index.num_segments or 1), action=action, seconds=seconds,
            problem=problem,
        )

    def maintain_ann_index(self, table: lancedb.table.Table) -> AnnState:
        """After a write: build the vector index once the table reaches ``ann.min_rows``; rebuild
        it past ``ann.max_segments`` delta segments. The write's own ``optimize()`` has already
        added its rows to an existing index. A table below the threshold costs one count."""
        index = self.vector_index(table)
        if index is None and table.count_rows() < self.ann.min_rows:
            return self.ann_state(table)
        if index is not None and (index.num_segments or 1) <= self.ann.max_segments:
            state = self.ann_state(table, "folded")
            if state.unindexed_rows:  # the write's optimize() failed: the next write folds them
                state.action = "pending"
            return state
        return self.build_ann_index(table, rebuild=index is not None)

    def build_ann_index(self, table: lancedb.table.Table, rebuild: bool = False) -> AnnState:
        """(Re)build the vector index from every row, and the prefilter's bitmap indexes. One
        process builds, the others go on (``busy``: the rows stay searchable, by the old index
        and a flat scan of the rest); a failure is reported, not raised."""
        started = time.perf_counter()
        with self._ann_lock(table.name) as held:
            if not held:
                return self.ann_state(table, "busy")
            table.checkout_latest()  # type: ignore[no-untyped-call]  # lancedb: unannotated
            index = self.vector_index(table)
            if index is not None and (index.num_segments or 1) <= self.ann.max_segments:
                return self.ann_state(table, "folded")  # another process just (re)built it
            try:
                existing = {tuple(i.columns) for i in table.list_indices()}
                for column in ANN_FILTER_COLUMNS:
                    if (column,) not in existing:
                        table.create_index(column, config=Bitmap(), replace=False)
                rows = table.count_rows()
                table.create_index(
                    VECTOR_COLUMN, name=ANN_INDEX_NAME, replace=True,
                    config=HnswSq(
                        distance_type="cosine", num_partitions=self.ann.num_partitions(rows),
                        m=self.ann.m, ef_construction=self.ann.ef_construction,
                    ),
                )
            except Exception as err:  # noqa: BLE001 - reported in the write result, not fatal
                first = next((line for line in str(err).splitlines() if line.strip()), "")
                return self.ann_state(
                    table, "none", round(time.perf_counter() - started, 3),
                    f"{type(err).__name__}: {first.strip()}",
                )
        return self.ann_state(
            table, "rebuilt" if rebuild else "built", round(time.perf_counter() - started, 3)
        )

    @contextlib.contextmanager
    def _ann_lock(self, table_name: str) -> Iterator[bool]:
        """Whether this process may build the table's vector index now: a lock of its own, not
        the creation lock (a build takes minutes at a million rows), taken without waiting."""
        if not self.local:
            yield True
            return
        with open(Path(self.uri) / f".ann-{table_name}.lock", "a+") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def ann_status(self, kind: ChunkKind) -> AnnState:
        """The chunk table's vector index (an empty state when the table does not exist)."""
        if self.table_name(kind) not in self.table_names():
            return AnnState(min_rows=self.ann.min_rows)
        return self.ann_state(self.db.open_table(self.table_name(kind)))

    def partition_rows(self, kind: ChunkKind, document: str, year: int) -> int:
        if self.table_name(kind) not in self.table_names():
            return 0
        return self.db.open_table(self.table_name(kind)).count_rows(
            partition_filter(document, year)
        )

    def partitions(self, kind: ChunkKind) -> list[tuple[str, int]]:
        """(document, year) pairs that have rows."""
        if self.table_name(kind) not in self.table_names():
            return []
        arrow = self.db.open_table(self.table_name(kind)).search().select(
            ["document", "year"]).limit(None).to_arrow()
        return sorted(set(zip(arrow.column("document").to_pylist(),
                              arrow.column("year").to_pylist(), strict=True)))

    # -- searches -------------------------------------------------------------------------
    def searchable(self, kind: ChunkKind) -> lancedb.table.Table:
        """The chunk table to search; a missing one is an error, not an empty result."""
        if kind in self._searchable:
            return self._searchable[kind]
        name = self.table_name(kind)
        if name not in self.table_names():
            raise LookupError(
                f"no {kind} vectors for model {self.model_slug} in {self.uri}: materialize "
                f"{kind}_vectors first"
            )
        self._searchable[kind] = self.db.open_table(name)  # re-reads the latest version
        return self._searchable[kind]

    def dense(
        self, kind: ChunkKind, vector: np.ndarray, k: int, where: str | None = None,
        exact: bool = False,
    ) -> list[dict[str, Any]]:
        """Nearest chunks by cosine similarity (``score`` = cosine). Through the vector index
        when the table has one (``exact``: a flat scan of every row, the ground truth)."""
        # lancedb's Table.search is typed as the base builder: a vector gives the vector one
        search = cast(LanceVectorQueryBuilder, self.searchable(kind).search(vector))
        query = search.distance_type("cosine").select([*HIT_COLUMNS, "_distance"])
        if exact:
            query = query.bypass_vector_index()
        else:
            query = query.ef(self.ann.query_ef(k)).refine_factor(self.ann.refine_factor)
        if where:
            query = query.where(where, prefilter=True)
        rows = query.limit(k).to_list()
        for row in rows:
            row["score"] = 1.0 - float(row.pop("_distance"))
        return rows

    def bm25(self, kind: ChunkKind, text: str, k: int, where: str | None = None
             ) -> list[dict[str, Any]]:
        """Best chunks by BM25 over the native full-text index (``score`` = BM25)."""
        if not text.strip():
            return []
        query = (
            self.searchable(kind)
            # lancedb's pydantic dataclass: mypy does not see its fields' defaults
            .search(MatchQuery(text, FTS_COLUMN), query_type="fts")  # type: ignore[call-arg]
            .select([*HIT_COLUMNS, "_score"])
        )
        if where:
            query = query.where(where, prefilter=True)
        rows = query.limit(k).to_list()
        for row in rows:
            row["score"] = float(row.pop("_score"))
        return rows

    def hybrid_rrf(
        self, kind: ChunkKind, vector: np.ndarray, text: str, k: int, where: str | None = None,
        rrf_k: int = 60,
    ) -> list[dict[str, Any]]:
        """LanceDB's own hybrid query fused by reciprocal rank (``score`` = RRF score)."""
        if not text.strip():
            return self.dense(kind, vector, k, where)
        # lancedb's Table.search is typed as the base builder: "hybrid" gives the hybrid one
        search = cast(LanceHybridQueryBuilder,
                      self.searchable(kind).search(query_type="hybrid", fts_columns=FTS_COLUMN))
        query = (
            search
            .vector(vector)
            .text(text)
            .distance_type("cosine")
            .ef(self.ann.query_ef(k))
            .refine_factor(self.ann.refine_factor)
            .select(HIT_COLUMNS)
            .rerank(RRFReranker(K=rrf_k))
        )
        if where:
            query = query.where(where, prefilter=True)
        rows = query.limit(k).to_list()
        for row in rows:
            row["score"] = float(row.pop("_relevance_score"))
            row.pop("_distance", None)
            row.pop("_score", None)
        return rows


class IndexResult(BaseModel):
    embedding: EmbeddingStats
    write: WriteResult


def index_partition(
    store: VectorStore,
    embedder: Embedder,
    kind: ChunkKind,
    document: str,
    year: int,
    chunks: Sequence[Chunk],
    footnotes: Sequence[Footnote] = (),
    progress: Callable[[int, int], None] | None = None,
) -> IndexResult:
    """Embed a partition's chunks, header and body (new texts only), and make them its rows in
    the store, each with the pages its text comes from (stitched footnotes' pages included)."""
    texts = [c.search_text for c in chunks]
    vectors, stats = embedder.embed(texts, progress=progress)
    written = store.replace_partition(
        kind, document, year, chunks, vectors, [content_key(t) for t in texts],
        pages=[evidence_pages(c, footnotes) for c in chunks],
    )
    return IndexResult(embedding=stats, write=written)
