"""The probe: an analyst's usual questions asked of filings no question set asks about, and the
first lines a person has read (issue 38's reading work, made repeatable).

``bench/probes/probes.json`` holds the batteries (per form of filing: 10-K, 10-Q, 8-K,
earnings release) and the filings probed; its ``_doc`` says how both were written and what each
verdict means. Every filing goes through the project's own path (``process_report``, one shared
store, routing, the statement facts for the metric engine: what ``real_bench.py`` runs), and
every question of its form's battery is asked as written, with no scope: routing must find the
filing. Per question: the first line (``answer_lead``), the method, whether the answer cites
the filing probed and whether it cites any other.

``bench/probes/readings.jsonl`` holds what a person read: a verdict per (filing, question)
for the first line read. A verdict counts only while the first line is the same; any other
first line is ``unread`` and is written to ``bench/out/probe_unread.jsonl`` in the readings'
form (verdict empty) for a person to read and add. Printed: the verdicts per form, the unread
lines, the wrong ones; ``BENCH_JSON {...}``; everything to ``bench/out/probe.json``.

Run: ``make bench-probe`` or ``.venv/bin/python bench/probe_bench.py [--only DOC_NAME ...]``
(about 3 minutes on 2 cores for the twenty-five filings once their vectors are in the cache). A
filing no ``documents.jsonl`` lists (3M's 10-K, Intel's 8-K) is named in ``probes.json`` with its
``company`` and the ``folder`` of the corpora it is in.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabulate import tabulate

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import real_bench  # noqa: E402 - the bench folder is not a package
import retrieval_bench as rb  # noqa: E402

PROBES = rb.REPO / "bench" / "probes" / "probes.json"
READINGS = rb.REPO / "bench" / "probes" / "readings.jsonl"
OUT_JSON = rb.REPO / "bench" / "out" / "probe.json"
UNREAD = rb.REPO / "bench" / "out" / "probe_unread.jsonl"
FOLDERS = (real_bench.DEV_DIR, real_bench.WIDE_DIR, real_bench.BULK_DIR)
VERDICTS = ("right", "partly", "quoted", "wrong", "abstains", "unread")


def filings(probes: dict[str, Any], only: Sequence[str]) -> list[tuple[Any, dict[str, Any]]]:
    """Each probed filing (``financebench.Filing``) with its entry of ``probes.json``."""
    from rag_assets.core.evaluation.financebench import (
        filing_from_doc_name,
        filing_of,
        read_documents,
    )

    listed = {d.doc_name: (d, folder / "pdfs") for folder in FOLDERS
              for d in read_documents(folder / "documents.jsonl")}
    chosen = [e for e in probes["filings"] if not only or e["doc_name"] in only]
    missing = [e["doc_name"] for e in chosen
               if e["doc_name"] not in listed and "folder" not in e]
    if missing:
        raise SystemExit(f"not in any documents.jsonl of {rb.CORPORA}: {missing}")
    return [(filing_of(*listed[e["doc_name"]]) if e["doc_name"] in listed else
             filing_from_doc_name(e["doc_name"], e["company"], rb.CORPORA / e["folder"]), e)
            for e in chosen]


def questions_of(filing: Any, entry: dict[str, Any], probes: dict[str, Any]) -> list[str]:
    """The form's battery, its placeholders filled for ``filing``."""
    fill = {"company": filing.company, "year": filing.year, **entry["fill"]}
    fill["prior"] = int(fill["year"]) - 1
    return [q["question"].format(**fill) for q in probes["batteries"][entry["form"]]]


def read_verdicts(path: Path = READINGS) -> dict[tuple[str, str], dict[str, Any]]:
    """The readings by (doc_name, question); the last line of a pair wins."""
    if not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return {(r["doc_name"], r["question"]): r for r in rows}


def ask_all(pairs: Sequence[tuple[Any, dict[str, Any]]], probes: dict[str, Any],
            workers: int, tmp: Path, cache: Path = rb.CACHE_DIR) -> list[dict[str, Any]]:
    """Every battery question of every filing, asked of one store of all of them."""
    from rag_assets.core.evaluation.answer_correctness import answer_lead
    from rag_assets.core.generation.page_texts import PageTexts
    from rag_assets.core.retrieval.embeddings import Embedder
    from rag_assets.core.retrieval.retriever import Retriever
    from rag_assets.core.retrieval.store import VectorStore
    from rag_assets.core.settings import Settings

    embedder = Embedder(batch_size=rb.BATCH_SIZE, backend=Settings().embeddings.backend)
    VectorStore.of(embedder, cache)  # the embedder gets the persistent cache
    docs = []
    for number, (filing, _) in enumerate(pairs, start=1):
        docs.append(rb.processed_doc(filing.pdf, filing.document, filing.year, [], workers))
        rb.log(f"  [{number}/{len(pairs)}] {filing.doc_name}: {len(docs[-1].pages)} pages, "
               f"{docs[-1].load_s:.1f} s")
    store, _ = rb.index_ours(docs, embedder, tmp / "probe")
    pages = PageTexts()
    for doc in docs:
        pages.add(doc.document, doc.year, doc.pages)
    engine = real_bench.make_answerer(Retriever(store, embedder), pages,
                                      real_bench.facts_provider(docs))
    rows = []
    for filing, entry in pairs:
        for question in questions_of(filing, entry, probes):
            started = time.perf_counter()
            result = engine.ask(question)
            cited = {(c.document, c.year) for claim in result.claims for c in claim.citations}
            rows.append({"doc_name": filing.doc_name, "form": entry["form"],
                         "question": question, "first_line": answer_lead(result.answer),
                         "method": result.method,
                         "cites_filing": (filing.document, filing.year) in cited,
                         "cites_other": bool(cited - {(filing.document, filing.year)}),
                         "seconds": round(time.perf_counter() - started, 3)})
    return rows


def judged(rows: list[dict[str, Any]], readings: dict[tuple[str, str], dict[str, Any]]
           ) -> list[dict[str, Any]]:
    """Each row with its verdict: the reading's, when its first line is the row's; else
    ``unread`` (with the verdict it had, ``was``)."""
    for row in rows:
        read = readings.get((row["doc_name"], row["question"]))
        same = read is not None and read["first_line"] == row["first_line"]
        row["verdict"] = read["verdict"] if same and read else "unread"
        row["was"] = read["verdict"] if read and not same else None
        row["note"] = read.get("note", "") if same and read else ""
    return rows


def totals(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Verdicts per form and in all."""
    out: dict[str, dict[str, int]] = {}
    for key in ("all", *dict.fromkeys(r["form"] for r in rows)):
        counted = Counter(r["verdict"] for r in rows if key in ("all", r["form"]))
        out[key] = {v: counted.get(v, 0) for v in VERDICTS} | {"questions": sum(
            counted.values())}
    return out


def report(rows: Sequence[dict[str, Any]], table: dict[str, dict[str, int]]) -> None:
    print(tabulate([[form, *(t[v] for v in VERDICTS), t["questions"]]
                    for form, t in table.items()], headers=["form", *VERDICTS, "questions"]))
    for title, wanted in (("wrong", "wrong"), ("unread", "unread")):
        chosen = [r for r in rows if r["verdict"] == wanted]
        if chosen:
            print(f"\n{title} ({len(chosen)}):")
            for r in chosen:
                was = f" (was {r['was']})" if r.get("was") else ""
                print(f"- {r['doc_name']} | {r['question']}{was}\n  [{r['method']}] "
                      f"{r['first_line'][:300]}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=[], help="doc_names to probe")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT_JSON)
    parser.add_argument("--cache-dir", type=Path, default=rb.CACHE_DIR,
                        help="the persistent embedding cache (real_bench.py's)")
    args = parser.parse_args(argv)
    os.environ.setdefault("LANCEDB_LOG", "error")
    probes = json.loads(PROBES.read_text(encoding="utf-8"))
    pairs = filings(probes, args.only)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="probe_bench_") as tmp:
        rows = judged(ask_all(pairs, probes, args.workers, Path(tmp), args.cache_dir),
                      read_verdicts())
    table = totals(rows)
    report(rows, table)
    unread = [{k: r[k] for k in ("doc_name", "question", "first_line")} | {
        "verdict": "", "note": "", "read_at": real_bench.code_state()["commit"]}
        for r in rows if r["verdict"] == "unread"]
    UNREAD.parent.mkdir(parents=True, exist_ok=True)
    UNREAD.write_text("".join(json.dumps(u, ensure_ascii=False) + "\n" for u in unread),
                      encoding="utf-8")
    figures = {"code": real_bench.code_state(), "filings": [f.doc_name for f, _ in pairs],
               "totals": table, "cites_other": sum(r["cites_other"] for r in rows),
               "cites_filing": sum(r["cites_filing"] for r in rows),
               "seconds": round(time.perf_counter() - started, 1), "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, indent=1, ensure_ascii=False), encoding="utf-8")
    print("BENCH_JSON " + json.dumps({k: v for k, v in figures.items() if k != "rows"}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
