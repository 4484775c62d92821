"""The chunk tables' vector index (issue 20): built by the write that crosses the row threshold
(lowered here to a few thousand rows) and not before, extended by later writes, rebuilt past its
segment limit, built by one process at a time; filtered searches through it return only the
filtered partition, and its top 10 matches the exact search's; a filter that keeps few rows is
searched exactly, without it."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from rag_assets.core.chunks.chunking import Chunk, chunk_id
from rag_assets.core.retrieval.ann import ANN_INDEX_ROWS, AnnConfig, vector_index
from rag_assets.core.retrieval.embeddings import content_key
from rag_assets.core.retrieval.store import VectorStore, partition_filter
from rag_assets.core.settings import Settings
from rag_assets.defs.index import ann_metadata

KIND = "naive"
DIM = 64
ROWS = 600  # per partition
THRESHOLD = 2_000  # the fourth partition crosses it


def make_chunks(document: str, year: int, n: int = ROWS) -> list[Chunk]:
    out = []
    for seq in range(n):
        text = f"{document} {year} note {seq % 40} revenue segment {seq}"
        out.append(Chunk(
            chunk_id=chunk_id(document, year, KIND, seq), document=document, year=year,
            kind=KIND, seq=seq, page_start=seq // 10, page_end=seq // 10, section=f"s{seq // 30}",
            text=text, n_chars=len(text), n_tokens=len(text.split()), markers_cited=[],
            markers_defined=[],
        ))
    return out


def unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


def partition_vectors(index: int, n: int = ROWS) -> np.ndarray:
    """Clustered like real chunks: a shared direction, the partition's centre, its section's,
    noise (so a partition's rows are near each other and near other partitions' too)."""
    rng = np.random.default_rng(index)
    shared = unit(np.random.default_rng(999).normal(size=DIM))
    centre = unit(rng.normal(size=DIM))
    sections = unit(rng.normal(size=(n // 30 + 1, DIM)))
    return unit(0.6 * shared + 0.5 * centre + 0.45 * sections[np.arange(n) // 30]
                + 0.55 * unit(rng.normal(size=(n, DIM))))


def document_of(i: int) -> str:
    return f"co-{i:02d}"


def write(store: VectorStore, i: int):  # type: ignore[no-untyped-def]
    chunks = make_chunks(document_of(i), 2020)
    return store.replace_partition(KIND, document_of(i), 2020, chunks, partition_vectors(i),
                                   [content_key(c.text) for c in chunks])


@pytest.fixture
def store(tmp_path: Path) -> VectorStore:
    """Filtered searches through the index (``exact_rows=0``: none is compared exactly)."""
    return VectorStore(tmp_path / "lancedb", "test_model", DIM,
                       AnnConfig(min_rows=THRESHOLD, exact_rows=0))


@pytest.fixture
def indexed(store: VectorStore) -> Iterator[VectorStore]:
    for i in range(8):  # 4,800 rows, indexed since the fourth write
        write(store, i)
    yield store


def queries(n: int = 20) -> np.ndarray:
    """Near stored rows of every partition, not equal to any."""
    rng = np.random.default_rng(7)
    rows = np.concatenate([partition_vectors(i % 8)[rng.integers(0, ROWS, 1)] for i in range(n)])
    return unit(rows + 0.8 * unit(rng.normal(size=(n, DIM))))


def ids(rows: list[dict]) -> list[str]:
    return [r["chunk_id"] for r in rows]


def test_the_index_is_built_by_the_write_that_crosses_the_threshold(store: VectorStore) -> None:
    states = [write(store, i).ann for i in range(3)]  # 600, 1,200, 1,800 rows
    assert [s.action for s in states] == ["none"] * 3
    assert not any(s.indexed for s in states)
    table = store.table(KIND)
    assert vector_index(table) is None
    assert [i.index_type for i in table.list_indices()] == ["FTS"]

    crossing = write(store, 3).ann  # 2,400 rows
    assert crossing.action == "built" and crossing.indexed
    assert crossing.index_type == "IVF_HNSW_SQ"
    assert crossing.table_rows == crossing.indexed_rows == 4 * ROWS
    assert crossing.unindexed_rows == 0 and crossing.segments == 1
    types = {tuple(i.columns): i.index_type for i in table.list_indices()}
    assert types[("document",)] == types[("year",)] == "Bitmap"  # the prefilter's columns

    after = write(store, 4).ann  # the next partition goes into the index, not a new build
    assert after.action == "folded"
    assert after.indexed_rows == 5 * ROWS and after.unindexed_rows == 0
    assert after.segments == 2
    assert store.ann_status(KIND) == after.model_copy(update={"action": "none"})


def test_rewriting_a_partition_below_the_threshold_builds_nothing(store: VectorStore) -> None:
    for _ in range(4):  # the same 600 rows four times: never 2,000 rows
        assert write(store, 0).ann.action == "none"
    assert vector_index(store.table(KIND)) is None


def test_filtered_search_returns_only_the_filtered_partition(indexed: VectorStore) -> None:
    assert indexed.ann_status(KIND).indexed
    for i, q in enumerate(queries(16)):
        target = document_of((i + 3) % 8)  # mostly not the partition the query came from
        where = partition_filter(target, 2020)
        for rows in (indexed.dense(KIND, q, 10, where),
                     indexed.hybrid_rrf(KIND, q, "revenue note 7", 10, where)):
            assert len(rows) == 10
            assert {(r["document"], r["year"]) for r in rows} == {(target, 2020)}


def test_recall_at_10_against_exact_search(indexed: VectorStore) -> None:
    whole, filtered = [], []
    for i, q in enumerate(queries()):
        exact = ids(indexed.dense(KIND, q, 10, exact=True))
        whole.append(len(set(ids(indexed.dense(KIND, q, 10))) & set(exact)) / 10)
        where = partition_filter(document_of((i + 5) % 8), 2020)
        exact = ids(indexed.dense(KIND, q, 10, where, exact=True))
        filtered.append(len(set(ids(indexed.dense(KIND, q, 10, where))) & set(exact)) / 10)
    assert np.mean(whole) >= 0.95
    assert np.mean(filtered) >= 0.95
    # the scores stay cosines: the best hit's score is its vector's cosine with the query
    q = queries(1)[0]
    best = indexed.dense(KIND, q, 1)[0]
    assert best["score"] == pytest.approx(indexed.dense(KIND, q, 1, exact=True)[0]["score"],
                                          abs=1e-4)


def test_a_filter_keeping_few_rows_is_searched_exactly_without_the_index(
        indexed: VectorStore) -> None:
    """A routed search costs its own partitions: below ``exact_rows`` the rows the filter keeps
    (found through the bitmap index) are compared exactly, not looked up in the graph."""
    where = partition_filter(document_of(3), 2020)
    q = queries(1)[0]
    assert "ANNSubIndex" in indexed.dense_query(KIND, q, 10, where).explain_plan()
    indexed.ann = indexed.ann.model_copy(update={"exact_rows": ROWS + 1})  # 600 rows kept
    plan = indexed.dense_query(KIND, q, 10, where).explain_plan()
    assert "KNNVectorDistance" in plan and "ANNSubIndex" not in plan
    assert "ScalarIndexQuery" in plan  # the partition's rows found through its bitmap
    assert indexed.dense(KIND, q, 10, where) == indexed.dense(KIND, q, 10, where, exact=True)
    # a filter that keeps more rows goes through the index
    assert "ANNSubIndex" in indexed.dense_query(KIND, q, 10, "year = 2020").explain_plan()


def test_the_index_is_rebuilt_past_its_segment_limit(store: VectorStore) -> None:
    store.ann = AnnConfig(min_rows=THRESHOLD, max_segments=2)
    actions = [write(store, i).ann for i in range(6)]
    assert [a.action for a in actions] == ["none", "none", "none", "built", "folded", "rebuilt"]
    assert actions[-1].segments == 1 and actions[-1].indexed_rows == 6 * ROWS


def test_one_process_builds_at_a_time(store: VectorStore) -> None:
    for i in range(3):
        write(store, i)
    table = store.table(KIND)
    lock = Path(store.uri) / f".ann-{table.name}.lock"
    with open(lock, "a+") as held:  # another process is building
        fcntl.flock(held, fcntl.LOCK_EX)
        state = write(store, 3).ann
        fcntl.flock(held, fcntl.LOCK_UN)
    assert state.action == "busy" and not state.indexed
    assert len(store.dense(KIND, partition_vectors(3)[0], 5)) == 5  # still searched, flat
    assert write(store, 4).ann.action == "built"  # the next write builds it


def test_the_threshold_comes_from_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAG_ASSETS_ANN_INDEX_ROWS", raising=False)
    assert Settings().runtime.ann_index_rows == AnnConfig().min_rows == ANN_INDEX_ROWS == 30_000
    monkeypatch.setenv("RAG_ASSETS_ANN_INDEX_ROWS", "2500")
    assert Settings().runtime.ann_index_rows == 2_500


def test_asset_metadata_names_the_index(store: VectorStore) -> None:
    """What the vector assets report, from real writes: below the threshold, then the write
    that builds the index."""
    below = ann_metadata(write(store, 0).ann)
    assert below["ann_index"] == "none" and below["ann_indexed"] is False
    assert below["ann_table_rows"] == ROWS and below["ann_min_rows"] == THRESHOLD
    for i in range(1, 3):
        write(store, i)
    built = ann_metadata(write(store, 3).ann)
    assert built["ann_index"] == "IVF_HNSW_SQ" and built["ann_indexed"] is True
    assert built["ann_action"] == "built" and built["ann_indexed_rows"] == 4 * ROWS
    assert built["ann_seconds"] > 0 and "ann_problem" not in built
