"""``rag-assets serve`` against ``rag-assets ask``: seconds per answer over the golden questions
of the sample reports, both paths in one run, as a ratio.

1. The sample earnings release (``exemplar-corp-earnings`` 2024) and the six annual reports
   (Northwind and Bluefin, 2022-2024) are written as ``rag-assets sample`` writes them, with
   their golden questions, and ingested once each by ``rag-assets ingest`` into one data folder
   under ``<cache>/store`` (reused; ``--rebuild`` ingests anew).
2. **ask** (the baseline): ``python -m rag_assets.cli ask QUESTION --data-dir STORE`` as a new
   process per question, wall seconds (``ask_scale_bench.spawn``).
3. **serve**: ``POST /ask`` (the form's fields, no filters) to the app of
   ``rag_assets/web/app.py`` built once in this process, through Starlette's ``TestClient``,
   wall seconds per request (the rendered view included). Its engine is built before the first
   question and that build is reported on its own (``build_s``), not in the per-answer figures.

Both ask over everything indexed, without filters, and append to the store's ``answer_audit``
as a user's question does. Every question is new to the store each time
(``ask_scale_bench.fresh``: a lower-case tag), so both pay for encoding it; which path goes
first alternates from question to question. ``--questions N`` takes the first N of each
report's questions (a subset, the same for both). Prints p50/p95 of both and the ratio ask /
serve, then one ``BENCH_JSON {...}`` line; the figures also go to ``bench/out/serve.json``.

Run: ``PYTHONPATH=. .venv/bin/python bench/serve_bench.py [--questions N] [--cache DIR]
[--rebuild]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ask_scale_bench as asb  # noqa: E402 - the bench folder is not a package
from retrieval_bench import percentile  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT_JSON = ROOT / "bench" / "out" / "serve.json"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rag-assets-bench" \
    / "serve"


def golden(folder: Path) -> list[tuple[str, int, Path, list[str]]]:
    """The sample reports written under ``folder`` (``reports``, ``questions``): per report its
    partition, its file and its golden questions."""
    from rag_assets.core.evaluation.questions import read_questions
    from rag_assets.samples.annual_reports import build_annual_reports
    from rag_assets.samples.earnings import build_earnings_release

    reports, questions = folder / "reports", folder / "questions"
    files = [*build_earnings_release(reports, questions), *build_annual_reports(reports, questions)]
    return [(f.document, f.year, f.path,
             [q.question for q in read_questions(f.questions_path)] if f.questions_path else [])
            for f in files]


def ingest(store: Path, samples: list[tuple[str, int, Path, list[str]]], rebuild: bool) -> None:
    """Each sample report ingested once by ``rag-assets ingest`` (reused when done)."""
    from rag_assets.core.warehouse.tables import RAW_PAGES_SCHEMA

    done = store / "ingested.json"
    if done.is_file() and not rebuild and asb._built_with(done) == RAW_PAGES_SCHEMA:
        return
    shutil.rmtree(store, ignore_errors=True)
    store.mkdir(parents=True)
    for document, year, path, _ in samples:
        asb.log(f"ingesting {document}|{year}")
        subprocess.run([sys.executable, "-m", "rag_assets.cli", "ingest", str(path),
                        "--document", document, "--year", str(year), "--data-dir", str(store)],
                       env=asb.child_env(), check=True, stdout=subprocess.DEVNULL)
    done.write_text(json.dumps({"documents": [f"{d}|{y}" for d, y, _, _ in samples],
                                "schema": RAW_PAGES_SCHEMA}))


def distribution(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50": round(percentile(values, 50), 3),
            "p95": round(percentile(values, 95), 3)}


def measure(store: Path, questions: list[str]) -> dict[str, Any]:
    """Both paths over ``questions``, alternating which goes first."""
    from starlette.testclient import TestClient

    from rag_assets.web.app import Engine, create_app

    os.environ["HF_HUB_OFFLINE"] = "1"
    engine = Engine(store)
    started = time.perf_counter()
    engine.warm()
    build_s = time.perf_counter() - started
    client = TestClient(create_app(store, engine=engine))
    times: dict[str, list[float]] = {"ask": [], "serve": []}
    failures: list[str] = []

    def by_ask(question: str) -> None:
        seconds, _, code, _ = asb.spawn([sys.executable, "-m", "rag_assets.cli", "ask",
                                         asb.fresh(question), "--data-dir", str(store)])
        times["ask"].append(seconds)
        if code != 0:
            failures.append(f"ask exit {code}: {question}")

    def by_serve(question: str) -> None:
        started = time.perf_counter()
        response = client.post("/ask", data={"question": asb.fresh(question), "document": "",
                                             "year": ""})
        times["serve"].append(time.perf_counter() - started)
        if response.status_code != 200:
            failures.append(f"serve {response.status_code}: {question}")

    for i, question in enumerate(questions):
        order = (by_ask, by_serve) if i % 2 == 0 else (by_serve, by_ask)
        for path in order:
            path(question)
        asb.log(f"  {i + 1}/{len(questions)} ask {times['ask'][-1]:.2f} s, "
                f"serve {times['serve'][-1]:.3f} s")
    ask, serve = distribution(times["ask"]), distribution(times["serve"])
    return {"build_s": round(build_s, 3), "ask_s": ask, "serve_s": serve,
            "ratio_p50": round(ask["p50"] / serve["p50"], 1) if serve["p50"] else None,
            "ratio_p95": round(ask["p95"] / serve["p95"], 1) if serve["p95"] else None,
            "failures": failures}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=0,
                        help="the first N golden questions of each report (0: all)")
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    samples = golden(args.cache / "sample")
    ingest(args.cache / "store", samples, args.rebuild)
    questions = [q for *_, asked in samples for q in (asked[:args.questions] if args.questions
                                                       else asked)]
    asb.log(f"{len(questions)} questions over {len(samples)} reports")
    figures = measure(args.cache / "store", questions)
    print(f"{'path':<8}{'n':>5}{'p50 s':>10}{'p95 s':>10}")
    for name in ("ask", "serve"):
        d = figures[f"{name}_s"]
        print(f"{name:<8}{d['n']:>5}{d['p50']:>10.3f}{d['p95']:>10.3f}")
    print(f"ask / serve: p50 {figures['ratio_p50']}x, p95 {figures['ratio_p95']}x; "
          f"serve's engine built once in {figures['build_s']:.2f} s")
    for failure in figures["failures"]:
        print(f"FAILED {failure}")
    result = {"when": time.strftime("%Y-%m-%d %H:%M"), **asb.code_state(),
              "reports": [f"{d}|{y}" for d, y, _, _ in samples],
              "questions_per_report": args.questions or "all", **figures}
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps(result, indent=2))
    print("BENCH_JSON " + json.dumps({k: result[k] for k in
                                      ("commit", "build_s", "ask_s", "serve_s", "ratio_p50",
                                       "ratio_p95")}))


if __name__ == "__main__":
    main()
