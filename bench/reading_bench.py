"""Reading robustness: every PDF of ``../shared/corpora`` through the core ingest chain, counting
what fails (issue 36).

Each filing goes through the same core functions the ingest assets call
(``rag_assets/defs/ingest.py``, ``defs/statements.py``): load (PDFium, repaired by qpdf when
PDFium cannot open it), footnote index, stitching, document context, naive and enriched chunks,
statement facts. Per filing: pages, pages flagged (a step of a page's reading that failed, the
page keeping its text: ``Page.faults``), repaired or not, seconds, and the exception of the
first stage that raised (caught, one line; its last traceback lines in the JSON). A filing the
loader refuses with a one-line ``DocumentError`` counts as refused, not as an exception.
Totals: filings, exceptions (the target is 0), refused, pages flagged, files repaired.

Run: ``.venv/bin/python bench/reading_bench.py [--sets damaged sec-10k] [--limit N]`` (the
whole corpus, about 90 PDFs, takes several minutes on 2 cores). Prints a table, then
``BENCH_JSON {...}``; the figures also go to ``bench/out/reading.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the chunkers' tokenizer: read from the cache
CORPORA = REPO.parent / "shared" / "corpora"
OUT_JSON = REPO / "bench" / "out" / "reading.json"
SETS = ("financebench-dev", "financebench-wide", "financebench-bulk", "sec-10k", "damaged")


def filings(sets: list[str], limit: int | None) -> list[tuple[str, Path, int]]:
    """(set, pdf, fiscal year from documents.jsonl, else the first year in the name, else 0)."""
    out: list[tuple[str, Path, int]] = []
    for name in sets:
        root = CORPORA / name
        years: dict[str, int] = {}
        documents = root / "documents.jsonl"
        if documents.is_file():
            for line in documents.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    years[row["doc_name"]] = int(row["doc_period"])
        pdfs = root / "pdfs" if (root / "pdfs").is_dir() else root
        for pdf in sorted(pdfs.glob("*.pdf"))[:limit]:
            named = [int(p) for p in pdf.stem.split("_") if p.isdigit() and len(p) == 4]
            out.append((name, pdf, years.get(pdf.stem, named[0] if named else 0)))
    return out


# the stages of the ingest chain in the order the ingest step asks for them: (name, attribute)
STAGES = (("footnote index", "index"), ("stitch", "stitched"),
          ("document context", "context"), ("naive chunks", "naive_chunks"),
          ("enriched chunks", "enriched_chunks"), ("statement facts", "facts"))


def read_one(pdf: Path, year: int) -> dict[str, Any]:
    """The filing through every core stage (``process_report``'s, each asked for in turn); the
    first stage that raises ends it, recorded."""
    from rag_assets.core.chunks.report import process_report
    from rag_assets.core.ingest.catalog import sanitize_document_name
    from rag_assets.core.ingest.pages import DocumentError

    document = sanitize_document_name(pdf.stem)
    row: dict[str, Any] = {"pages": 0, "flagged": 0, "repaired": False, "faults": [],
                           "refused": None, "exception": None, "stage": None}
    started = time.perf_counter()
    stage = "load"
    try:
        report = process_report(pdf, document, year)
        loaded = report.loaded
        row.update(pages=len(loaded.pages), repaired=loaded.repaired,
                   flagged=len({f.page_index for f in loaded.page_faults}),
                   faults=[f.line() for f in loaded.page_faults])
        for name, attribute in STAGES:
            stage = name  # what an exception is recorded against
            getattr(report, attribute)
        row.update(chunks=len(report.naive_chunks) + len(report.enriched_chunks),
                   facts=len(report.facts))
    except DocumentError as err:
        row["refused"] = str(err)
    except Exception as exc:
        row.update(stage=stage, exception=f"{stage}: {type(exc).__name__}: {exc}".split("\n")[0],
                   traceback=traceback.format_exc().splitlines()[-6:])
    row["seconds"] = round(time.perf_counter() - started, 2)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--limit", type=int, default=None, help="PDFs per set (a quick run)")
    args = parser.parse_args()
    if not CORPORA.is_dir():
        print(f"reading_bench: {CORPORA} not found", file=sys.stderr)
        return 2
    rows: dict[str, dict[str, Any]] = {}
    print(f"{'filing':52} {'pages':>5} {'flagged':>7} {'repaired':>8} {'s':>6}  problem")
    for name, pdf, year in filings(args.sets, args.limit):
        row = read_one(pdf, year)
        rows[f"{name}/{pdf.stem}"] = row
        problem = row["exception"] or (f"refused: {row['refused']}" if row["refused"] else "")
        print(f"{name[:17] + '/' + pdf.stem:52.52} {row['pages']:5} {row['flagged']:7} "
              f"{'yes' if row['repaired'] else '-':>8} {row['seconds']:6.1f}  {problem[:110]}",
              flush=True)
    summary = {
        "filings": len(rows),
        "exceptions": sum(1 for r in rows.values() if r["exception"]),
        "refused": sum(1 for r in rows.values() if r["refused"]),
        "pages": sum(r["pages"] for r in rows.values()),
        "pages_flagged": sum(r["flagged"] for r in rows.values()),
        "files_repaired": sum(1 for r in rows.values() if r["repaired"]),
        "seconds": round(sum(r["seconds"] for r in rows.values()), 1),
    }
    print(f"\n{summary['filings']} filings, {summary['pages']} pages: {summary['exceptions']} "
          f"exceptions, {summary['refused']} refused, {summary['pages_flagged']} pages flagged, "
          f"{summary['files_repaired']} files repaired, {summary['seconds']} s")
    for key, row in rows.items():
        if row["exception"]:
            print(f"  {key}: {row['exception']}\n    " + "\n    ".join(row["traceback"]))
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps({"summary": summary, "filings": rows}, indent=1))
    print("BENCH_JSON " + json.dumps(summary, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
