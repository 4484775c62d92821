"""Embedding backends side by side (issue 20): speed, agreement with torch fp32, and retrieval.

Every backend of :data:`rag_assets.core.retrieval.embeddings.BACKENDS` (``torch`` fp32, ``onnx``
fp32, ``onnx-int8``) in ONE process:

1. **Speed.** The same texts (default: the first 512 enriched chunks of a real 10-K of
   financebench-dev, through the project's own loader and chunker: the texts ``index_partition``
   embeds) encoded by each backend with no cache, the same batch size and threads, after a
   warm-up; ``--rounds`` rounds, the backends interleaved within each round, so that the other
   work on the machine weighs on all of them alike. Reported: texts/s per round and, per round,
   the ratio to torch fp32 measured in that same round; the median ratio is the figure.
2. **Agreement.** The cosine of each backend's vector of every text to torch fp32's: mean, min.
3. **Retrieval.** Page MRR@10 (``real_bench``'s machinery: ``load_filings``, ``run_ours``, judged
   by ``evaluation.judge``) on financebench-dev and on the golden set of the sample corpus, per
   backend, for ``routed`` over enriched chunks, pages ranked (the default system of
   ``real_bench``) and ``dense`` (the embedding alone). Each backend's vectors go through the
   persistent cache under ``bench/out/lancedb_cache/`` in the table of its own slug, so the
   first run of a backend embeds every chunk of the sets (about 20k texts for dev).
4. **Choice.** The fastest backend whose routed MRR is within ``--tolerance`` (0.01) of torch
   fp32's on every MRR set; printed beside ``DEFAULT_BACKEND``.

Run: ``make bench``, or ``.venv/bin/python bench/embed_bench.py [--texts 512] [--rounds 3]
[--backends torch,onnx,onnx-int8] [--sets dev,golden] [--docs N]`` (``--sets ""``: speed and
agreement only, a few minutes).
Prints tables, then one ``BENCH_JSON {...}`` line; the figures go to ``bench/out/embed.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from tabulate import tabulate

sys.path.insert(0, str(Path(__file__).resolve().parent))
import real_bench  # noqa: E402 - the bench folder is not a package
import retrieval_bench as rb  # noqa: E402

OUT_JSON = rb.REPO / "bench" / "out" / "embed.json"
SPEED_PDF = real_bench.DEV_DIR / "pdfs" / "COCACOLA_2017_10K.pdf"
MRR_STRATEGIES = ("routed", "dense")
CHOSEN_ON = "routed/enriched/pages"  # what the choice reads (real_bench's default system)
log = rb.log


def speed_texts(pdf: Path, count: int, workers: int) -> list[str]:
    """The first ``count`` enriched chunks' search texts of ``pdf`` (then naive ones if it has
    fewer): what ``index_partition`` embeds."""
    doc = real_bench.load_partition(pdf, "speed", 2000, [], workers)
    texts = [c.search_text for c in doc.enriched] + [c.search_text for c in doc.naive]
    return texts[:count]


def cpu_features() -> list[str]:
    """The vector instructions int8 and fp32 speed depend on (int8 GEMMs need VNNI to pay)."""
    try:
        flags = set(Path("/proc/cpuinfo").read_text().split("flags", 2)[1].split("\n")[0].split())
    except (OSError, IndexError):
        return []
    return [f for f in ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8") if f in flags]


def embedders(backends: Sequence[str], cache_dir: Path | None) -> dict[str, Any]:
    """One Embedder per backend (the export happens here, once per machine); a backend that
    fell back to torch is left out, with its reason."""
    from rag_assets.core.retrieval.embeddings import Embedder
    from rag_assets.core.retrieval.store import VectorStore

    out = {}
    for backend in backends:
        embedder = Embedder(batch_size=rb.BATCH_SIZE, backend=backend)
        if embedder.backend != backend:
            log(f"  {backend}: unavailable ({embedder.fallback_reason}); left out")
            continue
        if cache_dir is not None:
            VectorStore.of(embedder, cache_dir)  # the embedder gets the store's cache
        out[backend] = embedder
    return out


def measure_speed(backends: dict[str, Any], texts: list[str], rounds: int,
                  threads: int) -> dict[str, Any]:
    """Texts/s of every backend on ``texts``, interleaved rounds; ratios to torch per round;
    cosines to torch's vectors."""
    for embedder in backends.values():
        embedder.threads = threads
        embedder.encode(texts[:32])  # load and warm up, untimed
    seconds: dict[str, list[float]] = {name: [] for name in backends}
    vectors: dict[str, np.ndarray] = {}
    for number in range(rounds):
        order = list(backends) if number % 2 == 0 else list(reversed(backends))
        for name in order:
            started = time.perf_counter()
            vectors[name] = backends[name].encode(texts)
            seconds[name].append(time.perf_counter() - started)
        log(f"  round {number + 1}/{rounds}: " + ", ".join(
            f"{name} {len(texts) / seconds[name][-1]:.1f} texts/s" for name in backends))
    out: dict[str, Any] = {}
    reference = vectors.get("torch")
    for name, times in seconds.items():
        row: dict[str, Any] = {
            "slug": backends[name].slug,
            "texts_per_s": [round(len(texts) / t, 2) for t in times],
            "texts_per_s_median": round(len(texts) / statistics.median(times), 2),
        }
        if "torch" in seconds:
            per_round = [t / s for t, s in zip(seconds["torch"], times, strict=True)]
            row["ratio_per_round"] = [round(r, 3) for r in per_round]
            row["ratio_median"] = round(statistics.median(per_round), 3)
        if reference is not None:
            cosines = (vectors[name] * reference).sum(axis=1)
            row["cosine_mean"] = round(float(cosines.mean()), 6)
            row["cosine_min"] = round(float(cosines.min()), 6)
        out[name] = row
    return out


def load_set(name: str, args: argparse.Namespace, tmp: Path) -> list[Any]:
    """The set's filings (or the sample corpus) loaded, stitched and chunked once, for every
    backend."""
    if name == "golden":
        return real_bench.load_golden(tmp / "data", args.workers)
    from rag_assets.core.evaluation.financebench import load_financebench, select

    data = load_financebench(args.dev_dir)
    filings, questions = select(data, args.docs, args.questions)
    return real_bench.load_filings(filings, questions, args.workers)


def measure_mrr(backends: dict[str, Any], docs: list[Any], name: str,
                tmp: Path) -> dict[str, Any]:
    """Page MRR@10 (and hit@5) of every backend on one set, each in a store of its own."""
    out: dict[str, Any] = {}
    for backend, embedder in backends.items():
        embedder.threads = None
        started = time.perf_counter()
        records, stats, _, _ = real_bench.run_ours(docs, embedder, tmp / f"{name}_{backend}",
                                                   MRR_STRATEGIES)
        table = real_bench.summary(records)
        out[backend] = {
            "questions": table[CHOSEN_ON]["questions"],
            **{system: {"mrr": round(table[system]["mrr"], 4),
                        "hit_at_5": round(table[system]["hit_at_5"], 4)}
               for system in (CHOSEN_ON, "dense/enriched/pages", "dense/naive/pages")},
            "embedded": stats["computed"], "cached": stats["cached"],
            "seconds": round(time.perf_counter() - started, 1),
        }
        log(f"  {name} {backend}: MRR {out[backend][CHOSEN_ON]['mrr']:.4f} ({CHOSEN_ON}), "
            f"{stats['computed']} texts embedded, {stats['cached']} from the cache, "
            f"{out[backend]['seconds']:.0f} s")
    return out


def choose(speed: dict[str, Any], mrr: dict[str, dict[str, Any]],
           tolerance: float) -> dict[str, Any]:
    """The fastest backend (median ratio to torch) whose routed MRR is within ``tolerance`` of
    torch fp32's on every set measured."""
    eligible, reasons = [], {}
    if not mrr:
        return {"chosen": None, "reasons": {b: "MRR not measured" for b in speed},
                "tolerance": tolerance}
    for backend in speed:
        gaps = {name: round(rows[backend][CHOSEN_ON]["mrr"] - rows["torch"][CHOSEN_ON]["mrr"], 4)
                for name, rows in mrr.items() if backend in rows and "torch" in rows}
        if len(gaps) < len(mrr):
            reasons[backend] = "MRR not measured on every set"
        elif any(abs(g) > tolerance for g in gaps.values()):
            reasons[backend] = f"MRR gaps {gaps} exceed {tolerance}"
        else:
            eligible.append(backend)
            reasons[backend] = f"MRR gaps {gaps} within {tolerance}"
    best = max(eligible, key=lambda b: speed[b].get("ratio_median", 0.0), default="torch")
    return {"chosen": best, "reasons": reasons, "tolerance": tolerance}


def report(figures: dict[str, Any]) -> None:
    speed = figures["speed"]
    machine = figures["machine"]
    code = figures["code"]
    print(f"\nCode: commit {code['commit']}"
          + (f", working tree changed: {' '.join(code['changed'])}" if code["changed"] else ""))
    print(f"\nSpeed: {figures['speed_texts']} texts of {figures['speed_source']}, batch "
          f"{rb.BATCH_SIZE}, {figures['threads']} threads, {figures['rounds']} interleaved "
          f"rounds; {machine['cpus']} cores ({' '.join(machine['cpu_features'])}), load average "
          f"{machine['load_average'][0]:.1f} at the start")
    print(tabulate(
        [[name, row["slug"], " ".join(f"{t:.1f}" for t in row["texts_per_s"]),
          row["texts_per_s_median"],
          " ".join(f"{r:.2f}" for r in row.get("ratio_per_round", [])),
          f"{row.get('ratio_median', 0):.2f}x", f"{row.get('cosine_mean', 0):.5f}",
          f"{row.get('cosine_min', 0):.5f}"] for name, row in speed.items()],
        headers=["backend", "slug", "texts/s per round", "texts/s (median)",
                 "ratio to torch per round", "ratio (median)", "cos mean", "cos min"],
        disable_numparse=True))
    for name, rows in figures["mrr"].items():
        print(f"\nPage MRR@10 on {name} ({next(iter(rows.values()))['questions']} questions):")
        print(tabulate(
            [[backend, f"{r[CHOSEN_ON]['mrr']:.4f}",
              f"{r[CHOSEN_ON]['mrr'] - rows['torch'][CHOSEN_ON]['mrr']:+.4f}"
              if "torch" in rows else "-",
              f"{r['dense/enriched/pages']['mrr']:.4f}", f"{r['dense/naive/pages']['mrr']:.4f}",
              r["embedded"], r["cached"]] for backend, r in rows.items()],
            headers=["backend", "routed/enriched", "vs torch", "dense/enriched",
                     "dense/naive", "embedded", "cached"], disable_numparse=True))
    choice = figures["choice"]
    if choice["chosen"] is None:
        print(f"\nNo MRR set measured: no backend chosen (DEFAULT_BACKEND is "
              f"{figures['default_backend']})")
    else:
        print(f"\nFastest backend within {choice['tolerance']} MRR of torch fp32 on "
              f"{', '.join(figures['mrr'])}: {choice['chosen']} "
              f"(DEFAULT_BACKEND is {figures['default_backend']})")
    for backend, reason in choice["reasons"].items():
        print(f"  {backend}: {reason}")


def main(argv: Sequence[str] | None = None) -> int:
    from rag_assets.core.retrieval.embeddings import BACKENDS, DEFAULT_BACKEND, available_cores
    from rag_assets.core.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--texts", type=int, default=512, help="texts of the speed test")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None,
                        help="threads of every backend (default: the cores available)")
    parser.add_argument("--speed-pdf", type=Path, default=SPEED_PDF)
    parser.add_argument("--sets", default="dev,golden",
                        help="MRR sets: dev, golden, both or none ('')")
    parser.add_argument("--docs", type=int, default=None, help="dev: the first N filings")
    parser.add_argument("--questions", type=int, default=None)
    parser.add_argument("--tolerance", type=float, default=0.01)
    parser.add_argument("--workers", type=int, default=2, help="pdf_workers of the loader")
    parser.add_argument("--cache-dir", type=Path, default=rb.CACHE_DIR)
    parser.add_argument("--dev-dir", type=Path, default=real_bench.DEV_DIR)
    parser.add_argument("--out", type=Path, default=OUT_JSON)
    args = parser.parse_args(argv)
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    if set(backends) - set(BACKENDS):
        parser.error(f"unknown backends {sorted(set(backends) - set(BACKENDS))}")
    if "torch" not in backends:
        backends.insert(0, "torch")  # the reference of every ratio and cosine
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    if set(sets) - {"dev", "golden"}:
        parser.error("--sets: dev, golden")
    if not args.speed_pdf.is_file():
        print(f"embed_bench: {args.speed_pdf} not found", file=sys.stderr)
        return 2
    os.environ.setdefault("LANCEDB_LOG", "error")
    started = time.perf_counter()
    threads = args.threads or available_cores(Settings().runtime.cores)
    log(f"backends {', '.join(backends)}: loading them (an ONNX backend is exported once per "
        "machine) ...")
    chosen = embedders(backends, args.cache_dir)
    log(f"speed: chunking {args.speed_pdf.name}, then {args.rounds} rounds ...")
    texts = speed_texts(args.speed_pdf, args.texts, args.workers)
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "code": real_bench.code_state(),
        "machine": {"python": platform.python_version(), "cpus": rb._cpus(),
                    "cpu_features": cpu_features(), "load_average": os.getloadavg()},
        "default_backend": DEFAULT_BACKEND, "threads": threads, "rounds": args.rounds,
        "speed_source": args.speed_pdf.name, "speed_texts": len(texts),
        "speed_chars_mean": round(sum(map(len, texts)) / max(1, len(texts))),
        "fallbacks": {b: "unavailable" for b in backends if b not in chosen},
        "speed": measure_speed(chosen, texts, args.rounds, threads),
        "mrr": {},
    }
    with tempfile.TemporaryDirectory(prefix="embed_bench_") as tmp_name:
        tmp = Path(tmp_name)
        for name in sets:
            log(f"{name}: loading and chunking once for every backend ...")
            docs = load_set(name, args, tmp)
            log(f"{name}: {len(docs)} partitions; indexing and searching per backend ...")
            figures["mrr"][name] = measure_mrr(chosen, docs, name, tmp)
    figures["choice"] = choose(figures["speed"], figures["mrr"], args.tolerance)
    figures["machine"]["load_average_end"] = os.getloadavg()
    figures["seconds"] = round(time.perf_counter() - started, 1)
    report(figures)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    print("BENCH_JSON " + json.dumps(figures, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
