"""ANN index benchmark (issue 20, item 3): query latency and recall of the chunk tables' vector
index at 15k, 50k, 100k and 1M chunks.

For each size, in one process, on a synthetic chunk table in the store's own schema
(``VectorStore``, 384-d, LanceDB's BM25 index on ``search_text``):

1. **data**: unit vectors with cluster structure (a shared direction, 300 topics, one centre per
   1,200-chunk partition and per 30-chunk section, noise: the 10th nearest neighbour at cosine
   0.80 and random pairs at 0.25, against 0.83 and 0.28 for all-MiniLM-L6-v2 on the real
   filings), texts of about 170 words drawn from a Zipf vocabulary, one (document, year)
   partition per 1,200 chunks (a 10-K's worth). Built with numpy and pyarrow, added in 100k-row
   batches, then the BM25 index folded over them (``optimize()``, timed);
2. **without the index**: p50/p95 of ``VectorStore.dense``, ``bm25`` and ``hybrid_rrf`` at k=50
   (the retriever's first stage), over the whole table and with the partition filter of one
   partition among all, the modes interleaved query by query (a query vector is a stored row
   plus noise, cosine about 0.78 to it); one partition's ``replace_partition`` (timed, then
   deleted); the exact top 10 of every recall query (``dense(exact=True)``): over the whole
   table, within the query's own partition, and within another partition (the pitfall: an index
   whose candidates hold few of that partition's rows returns too few, or the wrong ones);
3. at ``--ivf-pq-size`` (100k) **IVF_PQ** beside it: LanceDB's suggested sizes (rows // 4096
   partitions, dim / 8 sub-vectors), its probes left to LanceDB, re-ranking 1x, 2x and 5x: build
   seconds, recall@10 in the three settings, dense p50; then dropped;
4. **the index**: ``ann.build_ann_index`` (``AnnConfig``: IVF_HNSW_SQ, and bitmap
   indexes on ``document`` and ``year``), timed; the same latencies again, and recall@10 of the
   indexed search against the exact top 10 in the three settings, counting filtered hits outside
   the filtered partition (must be 0) and short results;
5. **incremental writes**: ``replace_partition`` of new 1,200-chunk partitions into the indexed
   table (merge, then ``optimize()`` folding them into the BM25 and vector indexes), seconds and
   delta segments per write, and recall@10 within each new partition; up to
   ``--segments-max-rows`` (100k), writes on until the index passes ``max_segments`` and is
   rebuilt: dense p50 at the limit and after the rebuild, the rebuild's seconds.

Also (``--real``, on by default when ``bench/out/lancedb_cache`` exists) recall@10 on real
all-MiniLM-L6-v2 vectors: the embedding cache's vectors (about 80k, filings of both FinanceBench
sets) in a table of their own, queried with 100 held-out vectors, over the whole table and
within one 1,200-row block.

Run: ``.venv/bin/python bench/ann_bench.py [--sizes 15000,50000,100000,1000000] [--queries 100]
[--recall-queries 100] [--writes 3] [--ivf-pq-size N] [--segments-max-rows N] [--no-real]
[--keep]``. The tables go to ``bench/out/ann/`` (deleted at the end unless ``--keep``; with
``--keep`` a kept table is reused, its index dropped). Prints tables, then one ``BENCH_JSON
{...}`` line; the figures also go to ``bench/out/ann.json``. About 45 minutes on 2 cores: 20 for
the sizes up to 100k (IVF_PQ's build, the rebuild writes), 20-25 for 1M (generation 35-65 s, BM25
fold 40-70 s, 30 flat queries per mode at 0.5-0.8 s, 300 exact searches, the index build 5-6
minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.index import IvfPq
from tabulate import tabulate

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from rag_assets.core.chunks.chunking import Chunk, chunk_id  # noqa: E402
from rag_assets.core.retrieval.ann import (  # noqa: E402
    AnnConfig,
    ann_state,
    build_ann_index,
    vector_index,
)
from rag_assets.core.retrieval.store import (  # noqa: E402
    VectorStore,
    WriteResult,
    partition_filter,
)

OUT_DIR = REPO / "bench" / "out"
CACHE_DIR = OUT_DIR / "lancedb_cache"
KIND = "naive"
DIM = 384
MODEL_SLUG = "synthetic_384"
PER_PARTITION = 1_200  # chunks per (document, year) partition: a 10-K's naive chunks
PER_SECTION = 30
YEARS = 10
BATCH = 100_000
K_LATENCY = 50  # the retriever's first stage (first_stage_k)
K_RECALL = 10
QUERY_NOISE = 0.8  # a query is a stored vector plus this much noise: cosine ~0.78 to it
NO_INDEX = 10**12  # a threshold no bench table reaches: the bench builds the index itself
# its filtered searches go through the index (exact_rows=0): the store compares a filter that
# keeps fewer than AnnConfig.exact_rows rows exactly, which would leave the index unmeasured


def unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype(np.float32)


# -- synthetic data ---------------------------------------------------------------------------
class Corpus:
    """Deterministic synthetic chunks: vectors with cluster structure, Zipf texts."""

    def __init__(self, seed: int = 0, n_topics: int = 300, vocabulary: int = 30_000,
                 sentences: int = 200_000) -> None:
        self.rng = np.random.default_rng(seed)
        rng = self.rng
        self.shared = unit(rng.standard_normal(DIM))
        self.topics = unit(rng.standard_normal((n_topics, DIM)))
        self.n_topics = n_topics
        syllables = [c + v for c in "bcdfghjklmnprstvwz" for v in "aeiou"]
        words = set()
        while len(words) < vocabulary:
            n = int(rng.integers(1, 4))
            words.add("".join(syllables[i] for i in rng.integers(0, len(syllables), n)))
        self.words = np.array(sorted(words, key=lambda w: (len(w), w)))  # short words frequent
        ranks = np.arange(1, vocabulary + 1, dtype=np.float64)
        self.zipf = (1 / ranks**1.1) / (1 / ranks**1.1).sum()
        lengths = rng.integers(8, 21, sentences)
        ids = rng.choice(vocabulary, size=int(lengths.sum()), p=self.zipf)
        bounds = np.concatenate([[0], np.cumsum(lengths)])
        self.sentences = np.array([
            " ".join(self.words[ids[a:b]]).capitalize() + "."
            for a, b in zip(bounds[:-1], bounds[1:], strict=True)
        ])

    def partition_centres(self, first: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(10_000 + first)
        topic = rng.integers(0, self.n_topics, count)
        return unit(rng.standard_normal((count, DIM))), topic

    def vectors(self, start: int, n: int) -> np.ndarray:
        """Rows ``start .. start+n``: the same rows for the same indices, whatever the batch."""
        rng = np.random.default_rng(start)
        rows = np.arange(start, start + n)
        part, sec = rows // PER_PARTITION, rows // PER_SECTION
        p0, s0 = part[0], sec[0]
        pcentre, ptopic = self.partition_centres(int(p0), int(part[-1] - p0 + 1))
        srng = np.random.default_rng(20_000_000 + int(s0))
        scount = int(sec[-1] - s0 + 1)
        scentre = unit(srng.standard_normal((scount, DIM)))
        stopic = srng.integers(0, self.n_topics, scount)
        x = (0.6 * self.shared + 0.5 * self.topics[ptopic[part - p0]] + 0.5 * pcentre[part - p0]
             + 0.45 * 0.7 * self.topics[stopic[sec - s0]] + 0.45 * scentre[sec - s0]
             + 0.55 * unit(rng.standard_normal((n, DIM))))
        return unit(x)

    def texts(self, start: int, n: int) -> list[str]:
        rng = np.random.default_rng(1_000_000_007 + start)
        picks = self.sentences[rng.integers(0, len(self.sentences), (n, 12))]
        return [" ".join(row) for row in picks]

    def query_words(self, n: int) -> list[str]:
        """Question-like texts: 3-5 mid-frequency words (ranks 30-3,000)."""
        rng = np.random.default_rng(7)
        return [" ".join(self.words[rng.integers(30, 3_000, int(rng.integers(3, 6)))])
                for _ in range(n)]


def partition_of_row(row: int) -> tuple[str, int]:
    p = row // PER_PARTITION
    return f"co-{p // YEARS:05d}", 2015 + p % YEARS


def arrow_batch(corpus: Corpus, start: int, n: int, schema: pa.Schema) -> pa.Table:
    rows = np.arange(start, start + n)
    parts = rows // PER_PARTITION
    seq = (rows % PER_PARTITION).astype(np.int32)
    documents = [f"co-{p // YEARS:05d}" for p in parts]
    years = (2015 + parts % YEARS).astype(np.int32)
    texts = pa.array(corpus.texts(start, n), pa.string())
    page = (seq // 8 + 1).astype(np.int32)
    empty = pa.ListArray.from_arrays(pa.array(np.zeros(n + 1, np.int32)),
                                     pa.array([], pa.string()))
    return pa.table({
        "chunk_id": [chunk_id(d, int(y), KIND, int(s))
                     for d, y, s in zip(documents, years, seq, strict=True)],
        "document": documents,
        "year": years,
        "kind": pa.array([KIND] * n),
        "seq": seq,
        "page_start": page,
        "page_end": page,
        "pages": pa.ListArray.from_arrays(pa.array(np.arange(n + 1, dtype=np.int32)),
                                          pa.array(page)),
        "section": pa.array([f"Section {s // PER_SECTION}" for s in seq]),
        "context": pa.array([f"{d} 10-K {y}" for d, y in zip(documents, years, strict=True)]),
        "statement": pa.nulls(n, pa.string()),
        "text": texts,
        "search_text": texts,
        "n_tokens": pa.array(np.full(n, 256, np.int32)),
        "markers_cited": empty,
        "markers_defined": empty,
        "text_sha256": pa.array([f"{r:064x}" for r in rows]),
        "vector": pa.FixedSizeListArray.from_arrays(
            pa.array(corpus.vectors(start, n).reshape(-1)), DIM),
    }, schema=schema)


def write_partition(store: VectorStore, batch: pa.Table, start: int) -> WriteResult:
    """``replace_partition`` of a generated partition, as an asset writes one."""
    chunks = chunks_of(start, batch.num_rows, batch.column("text").to_pylist())
    vectors = batch.column("vector").combine_chunks().flatten().to_numpy().reshape(-1, DIM)
    document, year = partition_of_row(start)
    return store.replace_partition(KIND, document, year, chunks, vectors,
                                   batch.column("text_sha256").to_pylist())


def chunks_of(start: int, n: int, texts: Sequence[str]) -> list[Chunk]:
    document, year = partition_of_row(start)
    return [
        Chunk(chunk_id=chunk_id(document, year, KIND, s), document=document, year=year,
              kind=KIND, seq=s, page_start=s // 8 + 1, page_end=s // 8 + 1,
              section=f"Section {s // PER_SECTION}", text=t, n_chars=len(t), n_tokens=256,
              markers_cited=[], markers_defined=[])
        for s, t in zip(range(n), texts, strict=True)
    ]


# -- measuring --------------------------------------------------------------------------------
def pct(values: Sequence[float], q: float) -> float:
    return round(float(np.percentile(np.asarray(values) * 1000, q)), 2) if values else 0.0


def load() -> float:
    return round(os.getloadavg()[0], 2)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - started


def latencies(store: VectorStore, queries: np.ndarray, texts: Sequence[str],
              filters: Sequence[str]) -> dict[str, dict[str, float]]:
    """p50/p95 (ms) per mode at k=50, the modes interleaved query by query."""
    modes: dict[str, Callable[[int], Any]] = {
        "dense": lambda i: store.dense(KIND, queries[i], K_LATENCY),
        "dense_filtered": lambda i: store.dense(KIND, queries[i], K_LATENCY, filters[i]),
        "bm25": lambda i: store.bm25(KIND, texts[i], K_LATENCY),
        "bm25_filtered": lambda i: store.bm25(KIND, texts[i], K_LATENCY, filters[i]),
        "hybrid": lambda i: store.hybrid_rrf(KIND, queries[i], texts[i], K_LATENCY),
        "hybrid_filtered": lambda i: store.hybrid_rrf(KIND, queries[i], texts[i], K_LATENCY,
                                                      filters[i]),
    }
    for i in range(min(3, len(queries))):  # warm the caches (index, file metadata)
        for run in modes.values():
            run(i)
    seconds: dict[str, list[float]] = {m: [] for m in modes}
    for i in range(len(queries)):
        for mode, run in modes.items():
            seconds[mode].append(timed(lambda run=run, i=i: run(i))[1])
    return {m: {"p50_ms": pct(s, 50), "p95_ms": pct(s, 95), "n": len(s)}
            for m, s in seconds.items()}


def top_ids(rows: list[dict]) -> list[str]:
    return [r["chunk_id"] for r in rows]


def recall_at(store: VectorStore, queries: np.ndarray, settings: dict[str, Sequence[str | None]],
              truth: dict[str, list[list[str]]]) -> dict[str, Any]:
    """recall@10 of the indexed search against the exact top 10, per filter setting; and the
    filtered hits that are not of the filtered partition (must be 0)."""
    out: dict[str, Any] = {}
    for name, filters in settings.items():
        recalls, outside, short = [], 0, 0
        for i, where in enumerate(filters):
            rows = store.dense(KIND, queries[i], K_RECALL, where)
            expected = truth[name][i]
            recalls.append(len(set(top_ids(rows)) & set(expected)) / max(1, len(expected)))
            short += len(rows) < len(expected)
            if where:
                want = where_partition(where)
                outside += sum((r["document"], r["year"]) != want for r in rows)
        out[name] = {"recall_at_10": round(float(np.mean(recalls)), 4),
                     "min": round(float(np.min(recalls)), 2), "queries": len(recalls),
                     "hits_outside_filter": outside, "short_results": short}
    return out


def source_vectors(table: lancedb.table.Table, rows: np.ndarray) -> np.ndarray:
    """The stored vectors of these row numbers (a query is a perturbed copy of one)."""
    ids = [chunk_id(*partition_of_row(int(r)), KIND, int(r) % PER_PARTITION) for r in rows]
    in_list = ", ".join(f"'{i}'" for i in ids)
    arrow = table.search().where(f"chunk_id IN ({in_list})").select(
        ["chunk_id", "vector"]).limit(None).to_arrow()
    by_id = dict(zip(arrow.column("chunk_id").to_pylist(),
                     arrow.column("vector").to_numpy(zero_copy_only=False), strict=True))
    return np.stack([np.asarray(by_id[i], np.float32) for i in ids])


def where_partition(where: str) -> tuple[str, int]:
    document = where.split("'")[1]
    return document, int(where.rsplit("=", 1)[1])


def exact_truth(store: VectorStore, queries: np.ndarray,
                settings: dict[str, Sequence[str | None]]) -> dict[str, list[list[str]]]:
    return {name: [top_ids(store.dense(KIND, queries[i], K_RECALL, w, exact=True))
                   for i, w in enumerate(filters)] for name, filters in settings.items()}


def run_size(n: int, corpus: Corpus, args: argparse.Namespace) -> dict[str, Any]:
    print(f"\n== {n:,} chunks", flush=True)
    folder = args.dir / f"n{n}"
    store = VectorStore(folder, MODEL_SLUG, DIM, AnnConfig(min_rows=NO_INDEX, exact_rows=0))
    result: dict[str, Any] = {"rows": n, "partitions": -(-n // PER_PARTITION),
                              "load_start": load()}
    table = store.table(KIND)
    partitions = -(-n // PER_PARTITION)
    if args.keep and table.count_rows() > n:  # a kept table: back to its n generated rows
        extra = range(partitions, partitions + 64)
        table.delete(" OR ".join(
            f"({partition_filter(*partition_of_row(p * PER_PARTITION))})" for p in extra))
    if args.keep and table.count_rows() == n:
        for index in table.list_indices():
            if index.index_type != "FTS":
                table.drop_index(index.name)
        table.optimize()
    if table.count_rows() != n or vector_index(table) is not None:
        shutil.rmtree(folder, ignore_errors=True)
        store = VectorStore(folder, MODEL_SLUG, DIM, AnnConfig(min_rows=NO_INDEX, exact_rows=0))
        table = store.table(KIND)
        started = time.perf_counter()
        for start in range(0, n, BATCH):
            table.add(arrow_batch(corpus, start, min(BATCH, n - start), table.schema))
        result["generate_and_add_seconds"] = round(time.perf_counter() - started, 1)
        _, fts = timed(table.optimize)
        result["bm25_fold_seconds"] = round(fts, 1)
        print(f"  data: {result['generate_and_add_seconds']} s, BM25 index folded over "
              f"{n:,} rows in {result['bm25_fold_seconds']} s", flush=True)
    else:
        print("  data: reused", flush=True)

    rng = np.random.default_rng(n)
    nq = max(args.queries, args.recall_queries)
    source = rng.choice(n, nq, replace=False)
    queries = unit(source_vectors(table, source)
                   + QUERY_NOISE * unit(rng.standard_normal((nq, DIM))))
    texts = corpus.query_words(nq)
    own = [partition_filter(*partition_of_row(int(r))) for r in source]
    other_part = (source // PER_PARTITION + rng.integers(1, max(2, partitions), nq)) % partitions
    other = [partition_filter(*partition_of_row(int(p) * PER_PARTITION)) for p in other_part]
    lat_q = queries[: args.queries]
    settings = {"whole_table": [None] * args.recall_queries,
                "own_partition": own[: args.recall_queries],
                "other_partition": other[: args.recall_queries]}
    recall_q = queries[: args.recall_queries]

    flat_queries = args.queries if n <= 200_000 else min(args.queries, args.flat_queries_large)
    print(f"  flat search, {flat_queries} queries x 6 modes ...", flush=True)
    result["flat"] = latencies(store, lat_q[:flat_queries], texts, other)
    result["flat"]["load"] = load()
    print("  exact top 10 for the recall queries ...", flush=True)
    truth, seconds = timed(lambda: exact_truth(store, recall_q, settings))
    result["exact_seconds"] = round(seconds, 1)

    # one partition's write without the index (merge and BM25 fold), then taken out again
    first_new = partitions * PER_PARTITION
    batch = arrow_batch(corpus, first_new, PER_PARTITION, table.schema)
    written = write_partition(store, batch, first_new)
    result["write_seconds_without_index"] = written.seconds
    table.delete(partition_filter(*partition_of_row(first_new)))

    if n == args.ivf_pq_size:
        result["ivf_pq"] = compare_ivf_pq(store, table, recall_q, settings, truth)
    state = build_ann_index(table, store.ann, store.lock_folder)
    result["index"] = {"type": state.index_type, "build_seconds": state.seconds,
                       "config": store.ann.model_dump(exclude={"min_rows"}),
                       "problem": state.problem, "load": load()}
    print(f"  index: {state.index_type} built in {state.seconds} s", flush=True)
    result["indexed"] = latencies(store, lat_q, texts, other)
    result["indexed"]["load"] = load()
    result["recall"] = recall_at(store, recall_q, settings, truth)

    writes = []
    store.ann = AnnConfig()  # the store's own policy from here on (the table is indexed)
    for w in range(args.writes):
        start = partitions * PER_PARTITION + w * PER_PARTITION
        batch = arrow_batch(corpus, start, PER_PARTITION, table.schema)
        written = write_partition(store, batch, start)
        vectors = batch.column("vector").combine_chunks().flatten().to_numpy().reshape(-1, DIM)
        document, year = partition_of_row(start)
        writes.append({"seconds": written.seconds, "action": written.ann.action,
                       "segments": written.ann.segments,
                       "unindexed_rows": written.ann.unindexed_rows,
                       "fts_unindexed_rows": written.fts_unindexed_rows})
        # a query of the new partition finds its rows through the index
        new_q = unit(vectors[5] + QUERY_NOISE * unit(rng.standard_normal(DIM)))
        where = partition_filter(document, year)
        got = top_ids(store.dense(KIND, new_q, K_RECALL, where))
        want = top_ids(store.dense(KIND, new_q, K_RECALL, where, exact=True))
        writes[-1]["new_partition_recall_at_10"] = len(set(got) & set(want)) / len(want)
    result["incremental_writes"] = writes
    if n <= args.segments_max_rows:  # on to the rebuild: latency at the segment limit, after
        result["segments"] = until_rebuild(store, table, corpus, lat_q[:30],
                                           partitions + args.writes)
    result["load_end"] = load()
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return result


def dense_p50(store: VectorStore, queries: np.ndarray) -> float:
    return pct([timed(lambda q=q: store.dense(KIND, q, K_LATENCY))[1] for q in queries], 50)


def until_rebuild(store: VectorStore, table: lancedb.table.Table, corpus: Corpus,
                  queries: np.ndarray, first: int) -> dict[str, Any]:
    """Partition writes until the index passes ``max_segments`` and is rebuilt: dense p50 at
    the limit and after the rebuild, the write that rebuilt."""
    out: dict[str, Any] = {"max_segments": store.ann.max_segments}
    p = first
    while True:
        start = p * PER_PARTITION
        state = ann_state(table, store.ann)
        if state.segments == store.ann.max_segments:
            out["dense_p50_ms_at_limit"] = dense_p50(store, queries)
        written = write_partition(store, arrow_batch(corpus, start, PER_PARTITION, table.schema),
                                  start)
        p += 1
        if written.ann.action == "rebuilt" or p - first > 4 * store.ann.max_segments:
            break
    out.update({"writes": p - first, "rebuild_write_seconds": written.seconds,
                "rebuild_seconds": written.ann.seconds, "segments_after": written.ann.segments,
                "dense_p50_ms_after": dense_p50(store, queries)})
    print(f"  {out['writes']} more writes: dense p50 {out.get('dense_p50_ms_at_limit')} ms at "
          f"{store.ann.max_segments} segments, rebuilt in {out['rebuild_seconds']} s, "
          f"{out['dense_p50_ms_after']} ms after", flush=True)
    return out


def compare_ivf_pq(store: VectorStore, table: lancedb.table.Table, queries: np.ndarray,
                   settings: dict[str, Sequence[str | None]],
                   truth: dict[str, list[list[str]]]) -> dict[str, Any]:
    """IVF_PQ on the same table (LanceDB's suggested sizes: rows // 4096 partitions, dim / 8
    sub-vectors; nprobes left to LanceDB): build seconds, recall@10 and dense p50 without and
    with refining; then dropped."""
    rows = table.count_rows()
    config = IvfPq(distance_type="cosine", num_partitions=max(1, rows // 4096),
                   num_sub_vectors=DIM // 8)
    _, seconds = timed(lambda: table.create_index("vector", config=config, name="vector_idx",
                                                  replace=True))
    out: dict[str, Any] = {"num_partitions": config.num_partitions,
                           "num_sub_vectors": config.num_sub_vectors,
                           "build_seconds": round(seconds, 1)}
    kept = store.ann
    for refine in (1, 2, 5):
        store.ann = AnnConfig(refine_factor=refine, exact_rows=0)
        out[f"refine_{refine}"] = {"recall": recall_at(store, queries, settings, truth),
                                   "dense_p50_ms": dense_p50(store, queries[:30])}
    store.ann = kept
    table.drop_index("vector_idx")
    print(f"  IVF_PQ: built in {out['build_seconds']} s, recall@10 whole table "
          + ", ".join(f"refine {r}: {out[f'refine_{r}']['recall']['whole_table']['recall_at_10']}"
                      for r in (1, 2, 5)), flush=True)
    return out


def run_real(args: argparse.Namespace) -> dict[str, Any] | None:
    """recall@10 on the real all-MiniLM-L6-v2 vectors of the embedding cache."""
    if not CACHE_DIR.exists():
        return None
    db = lancedb.connect(str(CACHE_DIR))
    names = [t for t in db.list_tables(limit=1000).tables if t.startswith("embedding_cache__")]
    if not names:
        return None
    arrow = db.open_table(names[0]).search().select(["vector"]).limit(None).to_arrow()
    vectors = arrow.column("vector").combine_chunks().flatten().to_numpy().reshape(-1, DIM)
    rng = np.random.default_rng(0)
    held = rng.choice(len(vectors), args.recall_queries, replace=False)
    keep = np.setdiff1d(np.arange(len(vectors)), held)
    queries, stored = vectors[held].astype(np.float32), vectors[keep].astype(np.float32)
    n = len(stored)
    print(f"\n== real vectors: {n:,} from {names[0]}", flush=True)
    folder = args.dir / "real"
    shutil.rmtree(folder, ignore_errors=True)
    store = VectorStore(folder, MODEL_SLUG, DIM, AnnConfig(min_rows=NO_INDEX, exact_rows=0))
    table = store.table(KIND)
    corpus = Corpus(seed=1, sentences=20_000)
    for start in range(0, n, BATCH):
        batch = arrow_batch(corpus, start, min(BATCH, n - start), table.schema)
        batch = batch.set_column(
            batch.schema.get_field_index("vector"), "vector",
            pa.FixedSizeListArray.from_arrays(pa.array(stored[start:start + BATCH].reshape(-1)),
                                              DIM))
        table.add(batch)
    table.optimize()
    partitions = -(-n // PER_PARTITION)
    other = [partition_filter(*partition_of_row(int(p) * PER_PARTITION))
             for p in rng.integers(0, partitions, len(queries))]
    settings = {"whole_table": [None] * len(queries), "other_partition": other}
    truth = exact_truth(store, queries, settings)
    state = build_ann_index(table, store.ann, store.lock_folder)
    out = {"rows": n, "source": names[0], "build_seconds": state.seconds,
           "recall": recall_at(store, queries, settings, truth)}
    shutil.rmtree(folder, ignore_errors=True)
    return out


def commit() -> dict[str, Any]:
    def git(*a: str) -> str:
        return subprocess.run(["git", *a], cwd=REPO, capture_output=True, text=True).stdout.strip()
    changed = [line[3:] for line in git("status", "--porcelain").splitlines()
               if line[3:].startswith(("rag_assets/core/retrieval/", "bench/ann_bench.py"))]
    return {"commit": git("rev-parse", "--short", "HEAD"), "changed": changed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="15000,50000,100000,1000000")
    parser.add_argument("--ivf-pq-size", type=int, default=100_000,
                        help="the size at which IVF_PQ is measured beside (0: nowhere)")
    parser.add_argument("--segments-max-rows", type=int, default=100_000,
                        help="sizes up to this one also write on until the index is rebuilt")
    parser.add_argument("--queries", type=int, default=100, help="latency queries per mode")
    parser.add_argument("--flat-queries-large", type=int, default=30,
                        help="latency queries without the index above 200k rows (each ~1 s)")
    parser.add_argument("--recall-queries", type=int, default=100)
    parser.add_argument("--writes", type=int, default=3, help="incremental partition writes")
    parser.add_argument("--dir", type=Path, default=OUT_DIR / "ann")
    parser.add_argument("--out", type=Path, default=OUT_DIR / "ann.json")
    parser.add_argument("--keep", action="store_true", help="keep (and reuse) the tables")
    parser.add_argument("--no-real", dest="real", action="store_false")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    figures: dict[str, Any] = {
        "bench": "ann", "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "lancedb": lancedb.__version__, "load_start": os.getloadavg()},
        **commit(), "k_latency": K_LATENCY, "k_recall": K_RECALL, "sizes": {},
    }
    corpus = Corpus()
    for n in (int(s) for s in args.sizes.split(",") if s):
        figures["sizes"][str(n)] = run_size(n, corpus, args)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(figures, indent=1))
    if args.real:
        figures["real"] = run_real(args)
    figures["machine"]["load_end"] = os.getloadavg()
    args.out.write_text(json.dumps(figures, indent=1))
    report(figures)
    print("BENCH_JSON " + json.dumps(figures, separators=(",", ":")))


def report(figures: dict[str, Any]) -> None:
    rows = []
    for n, size in figures["sizes"].items():
        for state in ("flat", "indexed"):
            lat = size[state]
            rows.append([f"{int(n):,}", state, *(
                f"{lat[m]['p50_ms']} / {lat[m]['p95_ms']}"
                for m in ("dense", "dense_filtered", "bm25", "bm25_filtered", "hybrid",
                          "hybrid_filtered")), lat["load"]])
    print("\nquery latency at k=50, p50 / p95 ms (filtered: one partition of 1,200 chunks)")
    print(tabulate(rows, headers=["chunks", "index", "dense", "dense filt.", "bm25", "bm25 filt.",
                                  "hybrid", "hybrid filt.", "load"]))
    rows = []
    for n, size in figures["sizes"].items():
        r = size["recall"]
        writes = size["incremental_writes"]
        rows.append([f"{int(n):,}", size["index"]["type"], size["index"]["build_seconds"],
                     *(f"{r[s]['recall_at_10']} (min {r[s]['min']}, outside "
                       f"{r[s]['hits_outside_filter']})"
                       for s in ("whole_table", "own_partition", "other_partition")),
                     size.get("write_seconds_without_index", "-"),
                     " ".join(f"{w['seconds']}s/{w['segments']}seg" for w in writes)])
    print("\nrecall@10 of the index against exact search; incremental partition writes")
    print(tabulate(rows, headers=["chunks", "index", "build s", "whole table", "own partition",
                                  "other partition", "write s, no index",
                                  "writes with the index (s / segments)"]))
    real = figures.get("real")
    if real:
        print(f"\nreal vectors ({real['rows']:,}): recall@10 whole table "
              f"{real['recall']['whole_table']['recall_at_10']}, other partition "
              f"{real['recall']['other_partition']['recall_at_10']}, "
              f"build {real['build_seconds']} s")


if __name__ == "__main__":
    main()
