"""Ingest benchmark: our PDF path against plain pdfplumber on one long filing (3M 2018 10-K).

Measures, in one process run:

1. our path (PDFium text + pdfplumber's table finder over PDFium's rules, footnote index,
   stitching, naive and enriched chunking), per stage and end to end, in pages/s;
2. the plain path, pdfplumber ``extract_text()`` + ``extract_tables()`` on every page;
3. the speed-up (ours / plain, pages/s);
4. completeness against the plain path: table counts, table cell-text recall, word recall,
   footnotes (the plain path has none);
5. the wall time of one partition through all ingest assets with the in-process executor.

Run: ``.venv/bin/python bench/ingest_bench.py [--pdf PATH] [--plain-pages N] [--no-dagster]``.
Prints tables, then one ``BENCH_JSON {...}`` line; the JSON also goes to ``bench/out/ingest.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from tabulate import tabulate

REPO = Path(__file__).resolve().parents[1]
DEFAULT_PDF = REPO.parent / "shared/corpora/sec-10k/3M_2018_10K.pdf"
OUT_JSON = REPO / "bench" / "out" / "ingest.json"
DOCUMENT = "3m-10k"
YEAR = 2018
QUIET_RUN = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
WORD_RE = re.compile(r"[a-z0-9]+")

T = TypeVar("T")


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    """Call ``fn`` and return its result with the wall seconds it took."""
    started = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - started


def norm_cell(text: str | None) -> str:
    """Cell text with whitespace collapsed (the form both paths are compared in)."""
    return " ".join((text or "").split())


def words(text: str) -> Counter[str]:
    """Lowercased alphanumeric tokens of a text, with their counts."""
    return Counter(WORD_RE.findall(text.lower()))


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean (0 for no values)."""
    return sum(values) / len(values) if values else 0.0


def rate(pages: int, seconds: float) -> float:
    """Pages per second (0 when nothing was timed)."""
    return pages / seconds if seconds > 0 else 0.0


# --- our path -----------------------------------------------------------------------------------


def run_ours(pdf: Path, workers: int) -> dict[str, Any]:
    """Load, index footnotes, stitch and chunk with the project's core (``process_report``, the
    chain the ingest step runs); time every stage as it is first asked for."""
    from rag_assets.core.chunks.report import process_report
    from rag_assets.core.settings import IngestSettings

    stages: dict[str, float] = {}
    started = time.perf_counter()
    report, stages["load (text + tables)"] = timed(
        lambda: process_report(pdf, DOCUMENT, YEAR, IngestSettings(pdf_workers=workers)))
    pages = report.pages
    index, stages["footnote index"] = timed(lambda: report.index)
    _, stages["stitch"] = timed(lambda: report.stitched)
    _, stages["context (items, statements)"] = timed(lambda: report.context)
    naive, stages["naive chunks"] = timed(lambda: report.naive_chunks)
    enriched, stages["enriched chunks"] = timed(lambda: report.enriched_chunks)
    total = time.perf_counter() - started
    unresolved = len(index.unresolved)
    return {
        "pages": pages,
        "n_pages": len(pages),
        "stages": stages,
        "total_s": total,
        "pages_per_s": rate(len(pages), total),
        "tables": sum(len(p.tables) for p in pages),
        "footnotes": len(index.footnotes),
        "citations": len(index.citations),
        "resolved_citations": len(index.citations) - unresolved,
        "unresolved_citations": unresolved,
        "naive_chunks": len(naive),
        "enriched_chunks": len(enriched),
    }


# --- plain path ---------------------------------------------------------------------------------


def run_plain(pdf: Path, limit: int | None) -> dict[str, Any]:
    """pdfplumber ``extract_text()`` + ``extract_tables()`` on the first ``limit`` pages (all)."""
    import pdfplumber

    texts: list[str] = []
    tables: list[list[list[list[str | None]]]] = []
    started = time.perf_counter()
    with pdfplumber.open(pdf) as doc:
        n_total = len(doc.pages)
        for page in doc.pages[: limit or n_total]:
            texts.append(page.extract_text() or "")
            tables.append(page.extract_tables())
            page.close()  # drop the page's cached objects, as a long run must
    seconds = time.perf_counter() - started
    return {
        "texts": texts,
        "tables": tables,
        "n_pages": len(texts),
        "n_pages_document": n_total,
        "total_s": seconds,
        "pages_per_s": rate(len(texts), seconds),
    }


# --- completeness -------------------------------------------------------------------------------


def completeness(ours: dict[str, Any], plain: dict[str, Any]) -> dict[str, Any]:
    """Tables, cell-text recall and word recall of our pages against the plain path's."""
    from rag_assets.core.ingest.pdf import clean_table_rows

    n = plain["n_pages"]
    our_pages = ours["pages"][:n]
    plain_tables = sum(len(t) for t in plain["tables"])
    passing = 0
    table_recalls: list[float] = []
    cells_found = cells_total = 0
    word_recalls: list[tuple[float, int]] = []
    word_set_recalls: list[float] = []
    words_found = words_total = 0
    for page, text, found_tables in zip(our_pages, plain["texts"], plain["tables"], strict=True):
        our_cells = {norm_cell(c) for t in page.tables for row in t.rows for c in row}
        for raw in found_tables:
            rows = clean_table_rows(raw)
            if rows is None:
                continue
            passing += 1
            cells = [norm_cell(c) for row in rows for c in row if norm_cell(c)]
            if not cells:
                continue
            hits = sum(c in our_cells for c in cells)
            table_recalls.append(hits / len(cells))
            cells_found += hits
            cells_total += len(cells)
        plain_words = words(text)
        if not plain_words:
            continue
        cell_text = "\n".join(c for t in page.tables for row in t.rows for c in row)
        our_words = words(page.text + "\n" + cell_text)
        total = sum(plain_words.values())
        found = sum(min(k, our_words[w]) for w, k in plain_words.items())
        words_found += found
        words_total += total
        recall = found / total
        word_recalls.append((recall, page.page_index))
        word_set_recalls.append(sum(k for w, k in plain_words.items() if w in our_words) / total)
    return {
        "pages_compared": n,
        "plain_tables": plain_tables,
        "plain_tables_2x2": passing,
        "our_tables_same_pages": sum(len(p.tables) for p in our_pages),
        "cell_recall_mean_per_table": mean(table_recalls),
        "cell_recall_all_cells": cells_found / cells_total if cells_total else 0.0,
        "cells_compared": cells_total,
        "tables_fully_recalled": sum(r == 1.0 for r in table_recalls),
        "word_recall_mean_per_page": mean([r for r, _ in word_recalls]),
        "word_recall_presence_mean_per_page": mean(word_set_recalls),
        "word_recall_all_words": words_found / words_total if words_total else 0.0,
        "pages_with_words": len(word_recalls),
        "pages_word_recall_below_0_9": sum(r < 0.9 for r, _ in word_recalls),
        "worst_pages_word_recall": [(round(r, 3), i) for r, i in sorted(word_recalls)[:5]],
    }


# --- Dagster ------------------------------------------------------------------------------------


def run_dagster(pdf: Path) -> dict[str, Any]:
    """Wall time of one partition through every ingest asset, in-process, ephemeral instance."""
    try:
        import dagster as dg

        from rag_assets.definitions import defs
        from rag_assets.defs.partitions import partition_key, register_partitions
        from rag_assets.defs.resources import default_resources
    except Exception as exc:  # noqa: BLE001 - others may be mid-change: report, move on
        return {"ok": False, "error": f"import: {type(exc).__name__}: {exc}", "wall_s": None}
    with tempfile.TemporaryDirectory(prefix="ingest_bench_") as tmp:
        folder = Path(tmp) / "reports" / DOCUMENT / str(YEAR)
        folder.mkdir(parents=True)
        shutil.copy2(pdf, folder / pdf.name)
        instance = dg.DagsterInstance.ephemeral()
        register_partitions(instance, [partition_key(DOCUMENT, str(YEAR))])
        key = partition_key(DOCUMENT, YEAR)
        started = time.perf_counter()
        try:
            job = defs.resolve_job_def("ingest_job")
            result = job.execute_in_process(
                partition_key=key, instance=instance, resources=default_resources(tmp),
                run_config=QUIET_RUN, raise_on_error=False,
            )
            how = "resolve_job_def('ingest_job').execute_in_process"
        except Exception as exc:  # noqa: BLE001
            return {
                "ok": False,
                "error": f"{type(exc).__name__}: {exc}",
                "trace": traceback.format_exc(limit=3),
                "wall_s": time.perf_counter() - started,
            }
        wall = time.perf_counter() - started
        failures = [
            f"{e.step_key}: {e.message}"
            for e in result.all_events
            if e.event_type_value == "STEP_FAILURE"
        ]
        checks = [
            (e.asset_check_evaluation_data.check_name, e.asset_check_evaluation_data.passed)
            for e in result.all_events
            if e.event_type_value == "ASSET_CHECK_EVALUATION"
        ]
        steps = {
            e.step_key: round(e.event_specific_data.duration_ms / 1000, 2)
            for e in result.all_events
            if e.event_type_value == "STEP_SUCCESS"
        }
        materialized = sorted(
            {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()}
        )
        return {
            "ok": result.success,
            "how": how,
            "wall_s": wall,
            "materialized": materialized,
            "checks": dict(checks),
            "steps_s": steps,
            "error": "; ".join(failures) or None,
        }


# --- output -------------------------------------------------------------------------------------


def report(
    ours: dict[str, Any],
    plain: dict[str, Any],
    comp: dict[str, Any],
    dagster: dict[str, Any] | None,
    pdf: Path,
) -> dict[str, Any]:
    """Print the readable tables and return the key figures."""
    n = ours["n_pages"]
    stage_rows = [
        [name, f"{s:.2f}", f"{100 * s / ours['total_s']:.0f}%", f"{rate(n, s):.1f}"]
        for name, s in ours["stages"].items()
    ]
    stage_rows.append(["total", f"{ours['total_s']:.2f}", "100%", f"{ours['pages_per_s']:.1f}"])
    print(f"\nOur path on {pdf.name} ({n} pages)")
    print(tabulate(stage_rows, headers=["stage", "seconds", "share", "pages/s"]))

    speedup = ours["pages_per_s"] / plain["pages_per_s"] if plain["pages_per_s"] else 0.0
    print("\nSpeed")
    print(
        tabulate(
            [
                ["ours (load + footnotes + chunking)", n, f"{ours['total_s']:.2f}",
                 f"{ours['pages_per_s']:.2f}"],
                ["plain pdfplumber (text + tables)", plain["n_pages"], f"{plain['total_s']:.2f}",
                 f"{plain['pages_per_s']:.2f}"],
            ],
            headers=["path", "pages", "seconds", "pages/s"],
        )
    )
    print(f"speed-up: {speedup:.1f}x")

    print(f"\nCompleteness against the plain path ({comp['pages_compared']} pages)")
    print(
        tabulate(
            [
                ["tables: plain extract_tables()", comp["plain_tables"]],
                ["tables: plain, passing the 2x2 filter", comp["plain_tables_2x2"]],
                ["tables: ours (same pages)", comp["our_tables_same_pages"]],
                ["cell recall, mean per plain table",
                 f"{comp['cell_recall_mean_per_table']:.3f}"],
                ["cell recall, all cells", f"{comp['cell_recall_all_cells']:.3f} "
                 f"({comp['cells_compared']} cells)"],
                ["plain tables fully recalled",
                 f"{comp['tables_fully_recalled']}/{comp['plain_tables_2x2']}"],
                ["word recall (counts), mean per page",
                 f"{comp['word_recall_mean_per_page']:.4f}"],
                ["word recall (presence), mean per page",
                 f"{comp['word_recall_presence_mean_per_page']:.4f}"],
                ["word recall (counts), all words", f"{comp['word_recall_all_words']:.4f}"],
                ["pages with word recall < 0.9",
                 f"{comp['pages_word_recall_below_0_9']}/{comp['pages_with_words']}"],
                ["worst pages (recall, 0-based index)", comp["worst_pages_word_recall"]],
                ["footnotes: ours", ours["footnotes"]],
                ["citations resolved: ours", f"{ours['resolved_citations']}/{ours['citations']}"],
                ["footnotes / citations: plain", "none (no footnote handling)"],
                ["chunks: naive / enriched", f"{ours['naive_chunks']} / {ours['enriched_chunks']}"],
            ],
            headers=["measure", "value"],
        )
    )

    if dagster is not None:
        print("\nOne partition through all ingest assets (in-process executor)")
        rows = [
            ["succeeded", dagster["ok"]],
            ["wall seconds", f"{dagster['wall_s']:.2f}" if dagster["wall_s"] else "-"],
        ]
        if dagster.get("materialized"):
            rows.append(["materialized", ", ".join(dagster["materialized"])])
        if dagster.get("steps_s"):
            steps = ", ".join(f"{k} {v}" for k, v in dagster["steps_s"].items())
            rows.append(["step seconds", steps])
        if dagster.get("checks"):
            checks = ", ".join(f"{k}={v}" for k, v in dagster["checks"].items())
            rows.append(["checks (passed?)", checks])
        if dagster.get("error"):
            rows.append(["error", dagster["error"][:500]])
        print(tabulate(rows, headers=["dagster", "value"]))

    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "machine": {"python": platform.python_version(), "cpus": _cpus()},
        "pdf": pdf.name,
        "pages": n,
        "ours": {
            "stages_s": {k: round(v, 3) for k, v in ours["stages"].items()},
            "total_s": round(ours["total_s"], 3),
            "pages_per_s": round(ours["pages_per_s"], 2),
            "tables": ours["tables"],
            "footnotes": ours["footnotes"],
            "citations": ours["citations"],
            "resolved_citations": ours["resolved_citations"],
            "naive_chunks": ours["naive_chunks"],
            "enriched_chunks": ours["enriched_chunks"],
        },
        "plain": {
            "pages": plain["n_pages"],
            "total_s": round(plain["total_s"], 3),
            "pages_per_s": round(plain["pages_per_s"], 3),
        },
        "speedup": round(speedup, 2),
        "completeness": {
            k: round(v, 4) if isinstance(v, float) else v for k, v in comp.items()
        },
        "dagster": None
        if dagster is None
        else {
            "ok": dagster["ok"],
            "wall_s": round(dagster["wall_s"], 2) if dagster["wall_s"] else None,
            "checks": dagster.get("checks"),
            "steps_s": dagster.get("steps_s"),
            "error": dagster.get("error"),
        },
    }


def _cpus() -> int | None:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def main(argv: Sequence[str] | None = None) -> int:
    """Run every part of the benchmark; 0 on success, 2 when the PDF is missing."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF, help="the PDF to measure")
    parser.add_argument(
        "--plain-pages", type=int, default=None, help="plain path on the first N pages only"
    )
    parser.add_argument("--workers", type=int, default=2, help="pdf_workers for our loader")
    parser.add_argument("--no-dagster", action="store_true", help="skip the Dagster run")
    args = parser.parse_args(argv)
    pdf: Path = args.pdf.resolve()
    if not pdf.is_file():
        print(f"ingest_bench: PDF not found: {pdf} (pass --pdf PATH)", file=sys.stderr)
        return 2

    print(f"our path on {pdf.name} ...", flush=True)
    ours = run_ours(pdf, args.workers)
    print(f"plain pdfplumber path ({args.plain_pages or 'all'} pages) ...", flush=True)
    plain = run_plain(pdf, args.plain_pages)
    comp = completeness(ours, plain)
    dagster = None
    if not args.no_dagster:
        print("dagster ingest_job, one partition ...", flush=True)
        dagster = run_dagster(pdf)
    figures = report(ours, plain, comp, dagster, pdf)
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nwritten {OUT_JSON.relative_to(REPO)}")
    print("BENCH_JSON " + json.dumps(figures, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
