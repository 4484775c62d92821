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
Past ``ANN_INDEX_ROWS`` rows a chunk table also gets a vector index, built and extended by the
writes (:mod:`ann`: the policy and the building).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pyarrow as pa
from pydantic import BaseModel, Field

from rag_assets.core.chunks.chunking import Chunk, ChunkKind, evidence_pages
from rag_assets.core.footnotes.stitching import Footnote
from rag_assets.core.retrieval.ann import (
    AnnConfig,
    AnnState,
    ann_state,
    maintain_ann_index,
)
from rag_assets.core.retrieval.embeddings import Embedder, EmbeddingStats, content_key
from rag_assets.core.warehouse.writable import check_folder, is_local_database

if TYPE_CHECKING:
    # lancedb is imported where a store is opened or searched, not with this module: its import
    # (its REST namespace client's pydantic models) takes 2-3 s on 2 cores, which every Dagster
    # process (webserver, daemon, code servers) and every CLI command paid without using it. The
    # run launcher preloads it (deploy/dagster.yaml), so runs still pay it once per daemon.
    import lancedb
    from lancedb.query import LanceVectorQueryBuilder

PROFILE_TABLE = "document_profiles"
ROW_LAYOUT = "v2"  # the chunk tables' row layout (see the module docstring)
FTS_COLUMN = "search_text"
CACHE_INDEX_ROWS = 10_000
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
        import lancedb

        self.db = lancedb.connect(self.uri, read_consistency_interval=timedelta(0))

    @property
    def lock_folder(self) -> Path | None:
        """Where the store's lock files go; None on an object store (no folder to lock: one
        writer per table there, the run queue)."""
        return Path(self.uri) if self.local else None

    @contextlib.contextmanager
    def _creation_lock(self) -> Iterator[None]:
        """An exclusive lock on the store folder while tables and indexes are created (LanceDB
        commits such first versions optimistically, and a loser raises instead of retrying).
        An object store has no folder to lock (``lock_folder``)."""
        if self.lock_folder is None:
            yield
            return
        with open(self.lock_folder / ".create.lock", "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def table_names(self) -> list[str]:
        return list(self.db.list_tables(limit=10_000).tables)

    # -- document profiles (routing aliases) ----------------------------------------------
    def put_profile(self, document: str, year: int, title: str | None, aliases: list[str]) -> None:
        """Write a partition's profile, then compact the table: each write adds a file, and
        every question's process reads them all (a thousand filings' profiles took 0.5 s in a
        thousand files, 5 ms in one). A compaction that conflicts with another writer is left
        to the next write."""
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
        with contextlib.suppress(Exception):  # noqa: BLE001 - a later write compacts it
            table.optimize()

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
        self.ann = ann or AnnConfig()
        self._tables: dict[str, lancedb.table.Table] = {}  # handles re-read the latest version
        self._searchable: dict[str, lancedb.table.Table] = {}
        self._partitions: dict[str, tuple[int, list[tuple[str, int]]]] = {}  # by table version

    @classmethod
    def of(cls, embedder: Embedder, uri: str | Path, ann: AnnConfig | None = None
           ) -> VectorStore:
        """The store of ``embedder``'s model at ``uri``, its content-hash cache given to the
        embedder: a text the store indexed is never encoded again (the answerer re-reads the
        vectors of the chunks it retrieved, the evaluation its questions')."""
        store = cls(uri, embedder.slug, embedder.dimension, ann)
        embedder.cache = store.embedding_cache()
        embedder.query_cache = store.query_cache()
        return store

    # -- tables ---------------------------------------------------------------------------
    def table_name(self, kind: ChunkKind) -> str:
        return f"{kind}_chunks_{ROW_LAYOUT}__{self.model_slug}"

    def table(self, kind: ChunkKind) -> lancedb.table.Table:
        """The chunk table of a kind, created empty with its full-text index if missing. The
        first call takes the store's lock: another process may be creating the table right now
        (its folder can exist before its first version does)."""
        if kind not in self._tables:
            from lancedb.index import FTS

            with self._creation_lock():
                table = self.db.create_table(
                    self.table_name(kind), schema=chunk_schema(self.dimension), exist_ok=True
                )
                if not any(i.index_type == "FTS" for i in table.list_indices()):
                    table.create_index(FTS_COLUMN, config=FTS(
                        stem=True, remove_stop_words=True, ascii_folding=True, lower_case=True,
                    ), replace=False)
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

    def query_cache(self) -> LanceEmbeddingCache:
        """The model's question vectors, in a table of their own, compacted here: each new
        question adds a row, and in the texts' cache that row made the next open fold it in
        by rewriting the whole table (1,000 filings: 480k rows, 750 MB, 1-4 s and 300 MB in
        the next ``ask``); here it rewrites the questions alone."""
        with self._creation_lock():
            cache = LanceEmbeddingCache(self.db, f"query_cache__{self.model_slug}",
                                        self.dimension)
            table = cache.table
            if not table.list_indices() and table.count_rows() >= CACHE_INDEX_ROWS:
                table.create_scalar_index("key", replace=False)
            with contextlib.suppress(Exception):  # noqa: BLE001 - the next open compacts it
                table.optimize()
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
        ann = maintain_ann_index(table, self.ann, self.lock_folder)
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

    def ann_status(self, kind: ChunkKind) -> AnnState:
        """The chunk table's vector index (an empty state when the table does not exist)."""
        if self.table_name(kind) not in self.table_names():
            return AnnState(min_rows=self.ann.min_rows)
        return ann_state(self.db.open_table(self.table_name(kind)), self.ann)

    def partition_rows(self, kind: ChunkKind, document: str, year: int) -> int:
        if self.table_name(kind) not in self.table_names():
            return 0
        return self.db.open_table(self.table_name(kind)).count_rows(
            partition_filter(document, year)
        )

    def partitions(self, kind: ChunkKind) -> list[tuple[str, int]]:
        """(document, year) pairs that have rows: read once per version of the table (two
        columns of every row; a question asks for them several times)."""
        if self.table_name(kind) not in self.table_names():
            return []
        table = self._searchable.get(kind) or self.db.open_table(self.table_name(kind))
        version = table.version
        if kind not in self._partitions or self._partitions[kind][0] != version:
            arrow = table.search().select(["document", "year"]).limit(None).to_arrow()
            self._partitions[kind] = (version, sorted(set(zip(
                arrow.column("document").to_pylist(), arrow.column("year").to_pylist(),
                strict=True))))
        return list(self._partitions[kind][1])

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
        """Nearest chunks by cosine similarity (``score`` = cosine): :meth:`dense_query` run."""
        rows = self.dense_query(kind, vector, k, where, exact).to_list()
        for row in rows:
            row["score"] = 1.0 - float(row.pop("_distance"))
        return rows

    def dense_query(
        self, kind: ChunkKind, vector: np.ndarray, k: int, where: str | None = None,
        exact: bool = False,
    ) -> LanceVectorQueryBuilder:
        """The nearest-chunks query: through the vector index when the table has one
        (``exact``: a flat scan of every row, the ground truth), unless ``where`` keeps fewer
        than ``AnnConfig.exact_rows`` rows (counted through the bitmap indexes): those are
        compared exactly, so a routed search costs its own filings, not the whole index."""
        table = self.searchable(kind)
        exact = exact or (where is not None and table.count_rows(where) < self.ann.exact_rows)
        # lancedb's Table.search is typed as the base builder: a vector gives the vector one
        search = cast("LanceVectorQueryBuilder", table.search(vector))
        query = search.distance_type("cosine").select([*HIT_COLUMNS, "_distance"])
        if exact:
            query = query.bypass_vector_index()
        else:
            query = query.ef(self.ann.query_ef(k)).refine_factor(self.ann.refine_factor)
        if where:
            query = query.where(where, prefilter=True)
        return query.limit(k)

    def bm25(self, kind: ChunkKind, text: str, k: int, where: str | None = None
             ) -> list[dict[str, Any]]:
        """Best chunks by BM25 over the native full-text index (``score`` = BM25)."""
        if not text.strip():
            return []
        from lancedb.query import MatchQuery

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
        from lancedb.query import LanceHybridQueryBuilder
        from lancedb.rerankers import RRFReranker

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
