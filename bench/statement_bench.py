"""Statement facts on every real filing of ``../shared/corpora``: what the reader extracts and
how many of the accounting identities the filings print hold over it (issue 18 item 2).

For each filing of financebench-dev (14), financebench-wide (28) and sec-10k (2): pages, facts,
facts mapped to a concept, the six key line items of its fiscal year found (revenue, net income,
total assets and the three cash-flow totals; "none printed" where the filing prints no primary
statement, as an 8-K's press release or a proxy vote), identities checked and holding, and the
seconds the reader took beside the loader's (one process, same pages). The share that holds is
measured without ground truth: an identity compares values the filing prints, read by us.

Run: ``make bench-statements`` or ``.venv/bin/python bench/statement_bench.py``. Prints a table,
then ``BENCH_JSON {...}``; the figures also go to ``bench/out/statements.json``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CORPORA = REPO.parent / "shared" / "corpora"
OUT_JSON = REPO / "bench" / "out" / "statements.json"
SETS = ("financebench-dev", "financebench-wide", "sec-10k")


def filings() -> list[tuple[str, Path, int | None]]:
    """(set, pdf, fiscal year from documents.jsonl where known)."""
    out: list[tuple[str, Path, int | None]] = []
    for name in SETS:
        root = CORPORA / name
        years: dict[str, int] = {}
        documents = root / "documents.jsonl"
        if documents.is_file():
            for line in documents.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    years[row["doc_name"]] = int(row["doc_period"])
        pdfs = root / "pdfs" if (root / "pdfs").is_dir() else root
        out += [(name, pdf, years.get(pdf.stem)) for pdf in sorted(pdfs.glob("*.pdf"))]
    return out


def measure(pdf: Path, fiscal: int | None) -> dict[str, Any]:
    from rag_assets.core.ingest.documents import load_document
    from rag_assets.core.ingest.facts import missing_key_concepts, read_facts
    from rag_assets.core.ingest.identities import check_identities

    started = time.perf_counter()
    pages = load_document(pdf).pages
    loaded = time.perf_counter()
    facts = read_facts(pdf.stem, fiscal or 0, pages)
    read = time.perf_counter()
    checks = check_identities(facts)
    if fiscal is None:
        fiscal = max((f.fiscal_year for f in facts if f.fiscal_year), default=0)
    return {
        "pages": len(pages), "facts": len(facts),
        "mapped": sum(1 for f in facts if f.concept),
        "missing": missing_key_concepts(facts, fiscal) if facts else "none printed",
        "checked": len(checks), "holding": sum(c.holds for c in checks),
        "broken": [f"{c.identity} ({c.period}, p.{c.page + 1})" for c in checks if not c.holds],
        "load_seconds": round(loaded - started, 2), "read_seconds": round(read - loaded, 3),
    }


def main() -> int:
    if not CORPORA.is_dir():
        print(f"statement_bench: {CORPORA} not found", file=sys.stderr)
        return 2
    rows: dict[str, dict[str, Any]] = {}
    print(f"{'filing':48} {'pages':>5} {'facts':>5} {'mapped':>6} {'ident.':>7}  missing key items")
    for name, pdf, fiscal in filings():
        row = measure(pdf, fiscal)
        rows[f"{name}/{pdf.stem}"] = row
        missing = row["missing"] if isinstance(row["missing"], str) else (
            ", ".join(row["missing"]) or "-")
        print(f"{name[:17] + '/' + pdf.stem:48.48} {row['pages']:5} {row['facts']:5} "
              f"{row['mapped']:6} {row['holding']:3}/{row['checked']:<3}  {missing}")
    checked = sum(r["checked"] for r in rows.values())
    holding = sum(r["holding"] for r in rows.values())
    complete = sum(1 for r in rows.values() if r["missing"] == [])
    load = sum(r["load_seconds"] for r in rows.values())
    read = sum(r["read_seconds"] for r in rows.values())
    summary = {
        "filings": len(rows), "identities_checked": checked, "identities_holding": holding,
        "share_holding": round(holding / checked, 4) if checked else None,
        "filings_with_every_key_item": complete,
        "filings_without_statements": sum(1 for r in rows.values() if r["facts"] == 0),
        "load_seconds": round(load, 1), "read_seconds": round(read, 2),
        "read_over_load": round(read / load, 3) if load else None,
    }
    print(f"\nidentities holding: {holding}/{checked} ({summary['share_holding']:.1%}); "
          f"every key item found in {complete} of {len(rows)} filings; reader {read:.2f} s "
          f"beside {load:.1f} s of loading ({summary['read_over_load']}x)")
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps({"summary": summary, "filings": rows}, indent=1))
    print("BENCH_JSON " + json.dumps(summary, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
