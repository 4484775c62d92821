"""``rag-assets ask`` at 10, 100 and 1,000 indexed filings (issue 37, item 4): what a question
costs must not grow with what else is indexed.

1. Four real filings of ``../shared/corpora`` (3M's 2018 10-K, Netflix's 2017 10-K, Ulta Beauty's
   2023 Q4 earnings release, Foot Locker's 8-K of 2022-05-20) are ingested once with
   ``rag-assets ingest`` into ``<cache>/base`` (a data folder: warehouse, LanceDB, reports).
2. A store of N filings (``<cache>/filings-N``) is the base folder plus N - 4 copies of its
   partitions under new names, round robin: every warehouse table's rows of the partition
   (``raw_pages``, ``financial_statements``, the chunk and footnote tables) inserted under the
   new document name, and the LanceDB chunk rows (naive and enriched, their vectors as they are:
   nothing is embedded again) added under it with new chunk ids; then each chunk table is
   optimized (the BM25 index folded forward) and given the vector index and the bitmap indexes
   of ``document`` and ``year`` when it is past ``ANN_INDEX_ROWS``, as the store's own writes
   do (``ann.maintain_ann_index``). Each copy is a company of its own: a made-up name, its
   profile written by ``VectorStore.put_profile`` (one write per filing, as ingest does), and
   as many embedding-cache rows as its source has chunks (new keys), the cache indexed by
   ``VectorStore.embedding_cache`` as a store of that size would be. A built store is reused
   (``--rebuild`` builds it anew).
3. Cold: ``python -m rag_assets.cli ask QUESTION --data-dir STORE`` as a new process (the
   question made new to the store each time by a lower-case tag: its vector encoded and
   cached as a user's question's is), its wall
   time and peak RSS (GNU ``/usr/bin/time``'s ``%M`` of that child), ``--repeats`` times, the
   sizes taken in turn so that load on the machine falls on all of them; the median.
   Before them, one ask per store, not measured: the first ask after a store's last write
   folds the embedding cache's new keys into its index (``VectorStore.embedding_cache``), once.
4. Warm: one process per size and kind of question builds the answerer once
   (``cli.ask._answerer``, as ``ask`` does), asks each of the kind's questions once, then
   ``--repeats`` more times, each timed; per question the median of those, per kind the median
   over its questions; and that process's peak RSS.

Two kinds of question: routed (each names 3M, one filing at every size: the answer is read
from that partition, the search prefiltered to it) and unrouted (names no company: the
search runs over every filing, so its cost grows with the corpus by its nature; reported
apart). The ratio of each figure at the largest size to the smallest is printed against the
target of 1.5x.

Run: ``make bench-ask-scale`` or ``.venv/bin/python bench/ask_scale_bench.py [--sizes 10,100,1000]
[--repeats 3] [--cache DIR] [--corpora DIR] [--rebuild]``. The first run ingests the four
filings (about 6 minutes on 2 cores) and builds the stores (about 15 minutes for 1,000
filings, 5 GB); later runs only measure (about 15 minutes). Prints tables, then one
``BENCH_JSON {...}`` line; the figures also go to ``bench/out/ask_scale.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT_JSON = ROOT / "bench" / "out" / "ask_scale.json"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rag-assets-bench" \
    / "ask-scale"
CORPORA = ROOT.parent / "shared" / "corpora"
# (file under the corpora, document, year, what a copy's name keeps after its company)
SOURCES = [
    ("sec-10k/3M_2018_10K.pdf", "3m-10k", 2018, "10k"),
    ("financebench-wide/pdfs/NETFLIX_2017_10K.pdf", "netflix-10k", 2017, "10k"),
    ("financebench-wide/pdfs/ULTABEAUTY_2023Q4_EARNINGS.pdf", "ulta-beauty-earnings-q4", 2023,
     "earnings-q4"),
    ("financebench-wide/pdfs/FOOTLOCKER_2022_8K_dated-2022-05-20.pdf",
     "foot-locker-8k-2022-05-20", 2022, "8k-2022-05-20"),
]
ROUTED = [
    "How many positions did 3M's 2018 restructuring actions affect?",
    "What was 3M's total net sales in 2018?",
    "What does 3M say about its respirator mask and asbestos litigation?",
]
UNROUTED = [
    "What are the streaming content obligations?",
    "Which company reported the highest revenue growth?",
    "What were the restructuring charges?",
]
KINDS = {"routed": ROUTED, "unrouted": UNROUTED}
TARGET = 1.5
BUILD_VERSION = 2  # a store built by another version of the copying is built anew
COPY_BATCH = 100  # copies added to a LanceDB table per write
TIMEOUT = 900.0
TIME = "/usr/bin/time"  # GNU time (Debian's ``time`` package): the peak RSS of its child


@dataclass(frozen=True)
class Copy:
    document: str
    source: str
    year: int
    title: str
    aliases: tuple[str, ...]


def child_env() -> dict[str, str]:
    """The environment of an ``ask`` or ``ingest`` child: this checkout's code, no model hub,
    no data folder or Dagster home of the caller's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAG_ASSETS_")}
    env.pop("DAGSTER_HOME", None)
    return env | {"HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- the stores -------------------------------------------------------------------------------


def _built_with(marker: Path) -> object:
    """The ``raw_pages`` layout a marker file says its data was written with (None: unsaid)."""
    if not marker.is_file():
        return None
    written = json.loads(marker.read_text() or "{}")
    return written.get("schema") if isinstance(written, dict) else None


def ingest_base(base: Path, corpora: Path, rebuild: bool) -> None:
    """The four filings ingested once by ``rag-assets ingest`` (reused when done)."""
    from rag_assets.core.warehouse.tables import RAW_PAGES_SCHEMA

    done = base / "ingested.json"
    if done.is_file() and not rebuild and \
            _built_with(done) == RAW_PAGES_SCHEMA:
        return
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True)
    for path, document, year, _ in SOURCES:
        log(f"ingesting {path} as {document}|{year}")
        subprocess.run([sys.executable, "-m", "rag_assets.cli", "ingest", str(corpora / path),
                        "--document", document, "--year", str(year), "--data-dir", str(base)],
                       env=child_env(), check=True, stdout=subprocess.DEVNULL)
    done.write_text(json.dumps({"documents": [s[1] for s in SOURCES],
                                "schema": RAW_PAGES_SCHEMA}))


def company_name(i: int) -> str:
    """A made-up company name of three syllables, one per ``i`` (no real word, no alias)."""
    consonants, vowels = "bdfgklmnprstvz", "aeiou"
    syllables = [c + v for c in consonants for v in vowels]  # 70
    n = len(syllables)
    code = (i * 7919 + 12345) % (n ** 3)
    parts = [syllables[code // n ** 2], syllables[(code // n) % n], syllables[code % n]]
    return "".join(parts).capitalize() + "x"


def ticker(i: int) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return "Q" + letters[i // 676 % 26] + letters[i // 26 % 26] + letters[i % 26]


def copies_for(size: int) -> list[Copy]:
    """The copies that make a store of ``size`` filings, round robin over the sources."""
    out = []
    for i in range(size - len(SOURCES)):
        _, source, year, suffix = SOURCES[i % len(SOURCES)]
        name = company_name(i)
        out.append(Copy(document=f"{name.lower()}-{suffix}", source=source, year=year,
                        title=f"{name} Holdings, Inc.",
                        aliases=(f"{name} Holdings, Inc", f"{name} Holdings", name, ticker(i))))
    assert len({c.document for c in out}) == len(out), "copy names collide"
    return out


def copy_warehouse(database: Path, copies: list[Copy]) -> None:
    """Every partition table's rows of each copy's source, inserted under the copy's name
    (one ``INSERT ... SELECT`` per table, ordered by partition as per-partition writes lay
    them out)."""
    import duckdb
    import pandas as pd

    mapping = pd.DataFrame({"document": [c.document for c in copies],
                            "source": [c.source for c in copies],
                            "year": [c.year for c in copies]})
    with duckdb.connect(str(database)) as con:
        con.register("copies", mapping)
        tables = [r[0] for r in con.execute(
            "select table_name from information_schema.tables where table_schema = 'rag'"
            " and table_name <> 'answer_audit'").fetchall()]
        for table in tables:
            columns = [r[0] for r in con.execute(
                "select column_name from information_schema.columns where table_schema = 'rag'"
                " and table_name = ? order by ordinal_position", [table]).fetchall()]
            if "document" not in columns or "year" not in columns:
                continue
            selected = ", ".join("c.document" if col == "document" else f't."{col}"'
                                 for col in columns)
            con.execute(f"insert into rag.{table} select {selected} from rag.{table} t "
                        "join copies c on t.document = c.source and t.year = c.year "
                        "order by c.document")
        con.unregister("copies")


def copy_lance(folder: Path, copies: list[Copy]) -> None:
    """The chunk rows of each copy's source added under its name (new chunk ids, the same
    vectors), the tables optimized and indexed as the store's writes do; a profile per copy;
    embedding-cache rows as many as its source's chunks."""
    import lancedb
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    from rag_assets.core.retrieval.ann import maintain_ann_index
    from rag_assets.core.retrieval.store import VectorStore

    db = lancedb.connect(str(folder))
    names = list(db.list_tables(limit=10_000).tables)
    chunk_tables = [n for n in names if "_chunks_" in n]
    slug = chunk_tables[0].split("__", 1)[1]
    vector_type = db.open_table(chunk_tables[0]).schema.field("vector").type
    store = VectorStore(folder, slug, vector_type.list_size)
    source_rows: dict[str, int] = {}
    cache_vectors: dict[str, Any] = {}
    for name in chunk_tables:
        table = db.open_table(name)
        rows = table.to_arrow()
        by_source = {}
        for _, source, year, _ in SOURCES:
            keep = pc.and_(pc.equal(rows["document"], source), pc.equal(rows["year"], year))
            by_source[source] = rows.filter(keep)
            source_rows[source] = source_rows.get(source, 0) + by_source[source].num_rows
            cache_vectors.setdefault(source, []).append(by_source[source]["vector"])
        for start in range(0, len(copies), COPY_BATCH):
            batch = []
            for copy in copies[start:start + COPY_BATCH]:
                part = by_source[copy.source]
                ids = [copy.document + cid[len(copy.source):]
                       for cid in part["chunk_id"].to_pylist()]
                part = part.set_column(part.schema.get_field_index("chunk_id"), "chunk_id",
                                       pa.array(ids, pa.string()))
                part = part.set_column(part.schema.get_field_index("document"), "document",
                                       pa.array([copy.document] * part.num_rows, pa.string()))
                batch.append(part)
            table.add(pa.concat_tables(batch))
        log(f"  {name}: {table.count_rows()} rows; optimizing and indexing")
        table.optimize()
        maintain_ann_index(table, store.ann, store.lock_folder)
    for copy in copies:
        store.put_profile(copy.document, copy.year, copy.title, list(copy.aliases))
    cache = store.embedding_cache()
    for start in range(0, len(copies), COPY_BATCH):
        keys, vectors = [], []
        for copy in copies[start:start + COPY_BATCH]:
            source_vectors = pa.concat_arrays(
                [c.combine_chunks() for c in cache_vectors[copy.source]])
            keys += [hashlib.sha256(f"{copy.document}|{i}".encode()).hexdigest()
                     for i in range(len(source_vectors))]
            vectors.append(source_vectors.flatten().to_numpy(zero_copy_only=False))
        cache.put_many(dict(zip(keys, np.concatenate(vectors).reshape(len(keys), -1),
                                strict=True)))
    store.embedding_cache()  # its key index, built past CACHE_INDEX_ROWS
    store.embedding_cache()  # the rows folded into it, as every later open of the store does


def build_store(base: Path, cache: Path, size: int, rebuild: bool) -> Path:
    """The data folder of ``size`` filings (built once; reused while its build version and the
    layout of ``raw_pages`` hold)."""
    from rag_assets.core.warehouse.tables import RAW_PAGES_SCHEMA

    store = cache / f"filings-{size}"
    marker = store / "built.json"
    if marker.is_file() and not rebuild and \
            json.loads(marker.read_text()).get("version") == BUILD_VERSION and \
            _built_with(marker) == RAW_PAGES_SCHEMA:
        return store
    log(f"building {store} ({size} filings)")
    started = time.perf_counter()
    shutil.rmtree(store, ignore_errors=True)
    shutil.copytree(base, store, ignore=shutil.ignore_patterns("ingested.json"))
    copies = copies_for(size)
    if copies:
        copy_warehouse(store / "warehouse.duckdb", copies)
        copy_lance(store / "lancedb", copies)
    marker.write_text(json.dumps({"version": BUILD_VERSION, "schema": RAW_PAGES_SCHEMA,
                                  "filings": size,
                                  "seconds": round(time.perf_counter() - started, 1)}))
    return store


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


# --- the measurements -------------------------------------------------------------------------


def spawn(argv: list[str]) -> tuple[float, float, int, str]:
    """A child process's wall seconds, peak RSS (MB, by ``/usr/bin/time``: the child is forked
    from it, not from this process, whose size a forked child's peak would start from), exit
    code and stdout."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        peak = Path(folder) / "peak"
        started = time.perf_counter()
        done = subprocess.run([TIME, "-f", "%M", "-o", str(peak), *argv], env=child_env(),
                              capture_output=True, text=True, timeout=TIMEOUT, check=False)
        seconds = time.perf_counter() - started
        kilobytes = int(peak.read_text().split()[-1])
    if done.returncode != 0:
        log(f"exit {done.returncode}: {done.stderr.strip()[-2000:]}")
    return seconds, kilobytes / 1024, done.returncode, done.stdout


def fresh(question: str) -> str:
    """The question made new to every store (a lower-case tag no rule reads): a new question's
    vector is encoded and cached, as a user's question is, not found from an earlier run."""
    tag = "".join(chr(ord("a") + b % 26) for b in os.urandom(8))
    return f"{question} (ref {tag})"


def cold(stores: dict[int, Path], questions: dict[str, str], repeats: int
         ) -> dict[int, dict[str, dict[str, Any]]]:
    """Per size and kind: the median wall seconds and peak RSS of ``ask`` as a new process."""
    runs: dict[int, dict[str, list[tuple[float, float]]]] = {s: {} for s in stores}
    answers: dict[int, dict[str, str]] = {s: {} for s in stores}
    for store in stores.values():  # once, not measured: what a store's first ask does once
        spawn([sys.executable, "-m", "rag_assets.cli", "ask", ROUTED[0], "--data-dir", str(store)])
    for repeat in range(repeats):
        for kind, question in questions.items():
            for size, store in stores.items():
                seconds, rss, code, out = spawn([sys.executable, "-m", "rag_assets.cli", "ask",
                                                 fresh(question), "--data-dir", str(store)])
                if code != 0:
                    raise SystemExit(f"ask failed at {size} filings (exit {code})")
                runs[size].setdefault(kind, []).append((seconds, rss))
                answers[size][kind] = out.strip().splitlines()[0] if out.strip() else ""
                log(f"cold {size:>5} {kind:<9} #{repeat + 1}: {seconds:.2f} s {rss:.0f} MB")
    return {size: {kind: {"seconds": statistics.median(s for s, _ in r),
                          "rss_mb": statistics.median(m for _, m in r),
                          "runs": [[round(s, 3), round(m, 1)] for s, m in r],
                          "first_line": answers[size][kind]}
                   for kind, r in kinds.items()}
            for size, kinds in runs.items()}


def warm(stores: dict[int, Path], repeats: int) -> dict[int, dict[str, Any]]:
    """Per size and kind of question: one process (the answerer built once, each question
    asked once first, then ``repeats`` times), each question's median seconds, the median over
    the kind's questions, and the process's peak RSS."""
    out: dict[int, dict[str, Any]] = {}
    for size, store in stores.items():
        out[size] = {}
        for kind in KINDS:
            seconds, rss, code, stdout = spawn([sys.executable, __file__, "--warm-child",
                                                str(store), "--kind", kind,
                                                "--repeats", str(repeats)])
            if code != 0:
                raise SystemExit(f"the warm process failed at {size} filings (exit {code})")
            result = json.loads(stdout.strip().splitlines()[-1])
            result["rss_mb"] = round(rss, 1)
            result["process_seconds"] = round(seconds, 1)
            result["seconds"] = statistics.median(
                statistics.median(found["seconds"]) for found in result["questions"].values())
            out[size][kind] = result
            log(f"warm {size:>5} {kind:<9}: {result['seconds']:.3f} s, {rss:.0f} MB")
    return out


def warm_child(store: Path, kind: str, repeats: int) -> None:
    """In this process: the answerer built once, each question of ``kind`` asked
    ``1 + repeats`` times; one JSON line of the timings, the scope each question was routed
    to, the partitions whose pages were read."""
    from rag_assets.cli.ask import _answerer

    args = argparse.Namespace(data_dir=store, document=None, year=None, provider=None)
    started = time.perf_counter()
    answerer = _answerer(args)
    built = time.perf_counter() - started
    questions: dict[str, dict[str, Any]] = {}
    for question in KINDS[kind]:
        scope = answerer.retriever.resolve_scope(answerer.read(question), answerer.config.kind)
        result = answerer.ask(question)
        questions[question] = {"scope": scope.documents, "seconds": [],
                               "first_line": result.answer.splitlines()[0]}
    for _ in range(repeats):
        for question in KINDS[kind]:
            started = time.perf_counter()
            answerer.ask(question)
            questions[question]["seconds"].append(round(time.perf_counter() - started, 4))
    print(json.dumps({"build_seconds": round(built, 2), "questions": questions,
                      "partitions_read": len(set(answerer.pages.reads)),
                      "partitions_held": len(answerer.pages.held)}))


# --- the report -------------------------------------------------------------------------------


def ratio(figures: dict[int, float]) -> float:
    sizes = sorted(figures)
    return figures[sizes[-1]] / figures[sizes[0]]


def report(sizes: list[int], colds: dict, warms: dict, stores: dict[int, Path]) -> dict:
    from tabulate import tabulate

    rows = []
    figures: dict[str, dict[int, float]] = {}
    for kind in KINDS:
        figures[f"{kind} cold s"] = {s: colds[s][kind]["seconds"] for s in sizes}
        figures[f"{kind} cold peak MB"] = {s: colds[s][kind]["rss_mb"] for s in sizes}
        figures[f"{kind} warm s"] = {s: warms[s][kind]["seconds"] for s in sizes}
        figures[f"{kind} warm peak MB"] = {s: warms[s][kind]["rss_mb"] for s in sizes}
    for name, by_size in figures.items():
        r = ratio(by_size)
        rows.append([name, *(f"{by_size[s]:.3f}" if by_size[s] < 100 else f"{by_size[s]:.0f}"
                             for s in sizes), f"{r:.2f}x",
                     "yes" if r <= TARGET else "no"])
    print(tabulate(rows, headers=["figure", *(f"{s} filings" for s in sizes),
                                  f"{sizes[-1]}/{sizes[0]}", f"<= {TARGET}x"]))
    print()
    print(tabulate([[s, f"{folder_bytes(stores[s]) / 2**30:.2f}",
                     *(warms[s][k]["partitions_read"] for k in KINDS),
                     warms[s]["routed"]["build_seconds"]] for s in sizes],
                   headers=["filings", "store GB", "partitions read (warm, routed)",
                            "(unrouted)", "answerer built, s"]))
    print()
    for kind in KINDS:
        for question, found in warms[sizes[-1]][kind]["questions"].items():
            print(f"{question}\n  scope {found['scope']}; {found['first_line'][:110]}")
    return {"figures": {k: {str(s): v for s, v in d.items()} for k, d in figures.items()},
            "ratios": {k: round(ratio(d), 3) for k, d in figures.items()}}


def code_state() -> dict[str, Any]:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                              check=False).stdout.strip()

    return {"commit": git("rev-parse", "--short", "HEAD"),
            "changed": git("status", "--porcelain", "--", "rag_assets", "bench").splitlines()}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--warm-child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--kind", choices=list(KINDS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.warm_child:
        sys.path.insert(0, str(ROOT))
        warm_child(args.warm_child, args.kind, args.repeats)
        return
    sizes = sorted(int(s) for s in args.sizes.split(","))
    base = args.cache / "base"
    ingest_base(base, args.corpora, args.rebuild)
    stores = {size: build_store(base, args.cache, size, args.rebuild) for size in sizes}
    colds = cold(stores, {kind: questions[0] for kind, questions in KINDS.items()},
                 args.repeats)
    warms = warm(stores, args.repeats)
    summary = report(sizes, colds, warms, stores)
    result = {"when": time.strftime("%Y-%m-%d %H:%M"), **code_state(), "sizes": sizes,
              "repeats": args.repeats, "cold": colds, "warm": warms, **summary}
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps(result, indent=2, default=str))
    print("BENCH_JSON " + json.dumps({"commit": result["commit"], **summary}))


if __name__ == "__main__":
    main()
