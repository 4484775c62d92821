"""Statement facts on every real filing of ``../shared/corpora``: the key items of each filing's
own periods found, or why it prints none, and how many of the accounting identities it prints
hold over what the reader extracts (issue 18 item 2, issue 36 item 8).

Every filing of financebench-dev, -wide, -bulk, sec-10k and damaged (a filing the loader
rejects is listed with its one-line cause). Key items, by the kind of filing
(``documents.jsonl``'s ``doc_type``, else the file name):

- a 10-K (or a glossy annual report): revenue, net income, total assets and the three cash-flow
  totals of its fiscal year (``doc_period``);
- a 10-Q: revenue and net income of its quarter (a three-month column), total assets and the
  three cash-flow totals (year to date) of its latest year;
- an earnings release or an 8-K: the key items of each primary statement it prints, latest year.

A filing without a statement page says why from its own structure: a statement title heads a
page that is no page of figures, or no statement title heads any page. Also counted: cost of
revenue and operating income of the fiscal year on 10-Ks (the margin questions need them; a
bank or a resorts company prints neither, so they are reported, not expected). The share of
identities that hold is measured without ground truth: an identity compares values the filing
prints, read by us.

Run: ``make bench-statements`` or ``.venv/bin/python bench/statement_bench.py [--pages-dir DIR]
[--only NAME]``. ``--pages-dir`` keeps each loaded filing pickled in DIR (``<name>.pkl``) and
reads it from there on the next run: a change to the statement reader then re-runs in seconds
over the same pages (empty DIR after a change to the PDF reader). Prints a table, then
``BENCH_JSON {...}``; the figures also go to ``bench/out/statements.json``.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CORPORA = REPO.parent / "shared" / "corpora"
OUT_JSON = REPO / "bench" / "out" / "statements.json"
SETS = ("financebench-dev", "financebench-wide", "sec-10k", "financebench-bulk", "damaged")
STATEMENT_ITEMS = {
    "income_statement": ("revenue", "net_income"),
    "balance_sheet": ("total_assets",),
    "cash_flow": ("operating_cash_flow", "investing_cash_flow", "financing_cash_flow"),
}
MARGIN_ITEMS = ("cost_of_revenue", "operating_income")


def filings() -> list[tuple[str, Path, str, int | None]]:
    """(set, pdf, kind: 10k/10q/8k/earnings, fiscal year from documents.jsonl where known)."""
    out: list[tuple[str, Path, str, int | None]] = []
    for name in SETS:
        root = CORPORA / name
        known: dict[str, tuple[str, int]] = {}
        documents = root / "documents.jsonl"
        if documents.is_file():
            for line in documents.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    known[row["doc_name"]] = (row["doc_type"].lower(), int(row["doc_period"]))
        pdfs = root / "pdfs" if (root / "pdfs").is_dir() else root
        for pdf in sorted(pdfs.glob("*.pdf")):
            kind, year = known.get(pdf.stem, (_kind_of_name(pdf.stem), None))
            out.append((name, pdf, "10k" if kind.startswith("10k") else kind, year))
    return out


def _kind_of_name(stem: str) -> str:
    upper = stem.upper()
    for kind in ("10K", "10Q", "8K", "EARNINGS"):
        if kind in upper:
            return kind.lower()
    return "other"


def load_pages(pdf: Path, pages_dir: Path | None) -> list[Any]:
    """The filing's pages, from ``pages_dir`` when it holds them (stored there once read)."""
    kept = pages_dir / f"{pdf.stem}.pkl" if pages_dir else None
    if kept is not None and kept.is_file():
        return list(pickle.loads(kept.read_bytes()))
    from rag_assets.core.ingest.documents import load_document

    pages = list(load_document(pdf).pages)
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_bytes(pickle.dumps(pages, protocol=pickle.HIGHEST_PROTOCOL))
    return pages


def expected_items(kind: str, printed: set[str]) -> list[str]:
    """The key items a filing of this kind owes: every one for a 10-K or a 10-Q, those of the
    statements it prints for an earnings release or an 8-K."""
    if kind in ("10k", "10q"):
        return [c for items in STATEMENT_ITEMS.values() for c in items]
    return [c for s, items in STATEMENT_ITEMS.items() if s in printed for c in items]


def found_items(facts: list[Any], kind: str) -> tuple[set[str], int | None]:
    """The key items read for the filing's own periods: each statement's latest year (a
    balance sheet's latest date is the fiscal year's end: Foot Locker's fiscal 2022 ends on
    January 28, 2023), a 10-Q's income items from a three-month column; and the latest year
    of the income statement (the filing's fiscal year)."""
    keyed = [f for f in facts if f.concept and f.fiscal_year]
    latest: dict[str, int] = {}
    for fact in keyed:
        latest[fact.statement] = max(latest.get(fact.statement, 0), fact.fiscal_year)
    found: set[str] = set()
    for fact in keyed:
        if fact.fiscal_year != latest[fact.statement]:
            continue
        if kind == "10q" and fact.statement == "income_statement" and fact.months != 3:
            continue  # a 10-Q's income items are its quarter's
        found.add(fact.concept)
    return found, latest.get("income_statement")


def why_no_statements(lines: list[list[str]]) -> str:
    """Why no page is a statement page, from the filing's structure."""
    from rag_assets.core.ingest.statements import (
        TOP_LINES,
        figure_share,
        statement_title,
    )

    for index, page in enumerate(lines):
        top = [line for line in page if line.strip()][:TOP_LINES]
        if any(statement_title(line) for line in top):
            figures, share = figure_share(page)
            return (f"a statement title heads p.{index + 1} but it is no page of figures "
                    f"({figures} figures, {share:.0%})")
    return "no statement page: no statement title heads any page"


def measure(pdf: Path, kind: str, fiscal: int | None, pages_dir: Path | None) -> dict[str, Any]:
    from rag_assets.core.ingest.context import document_context
    from rag_assets.core.ingest.filing_facts import filing_facts
    from rag_assets.core.ingest.identities import check_identities
    from rag_assets.core.ingest.pages import DocumentError
    from rag_assets.core.ingest.statements import PRIMARY_STATEMENTS, page_lines

    started = time.perf_counter()
    try:
        pages = load_pages(pdf, pages_dir)
    except DocumentError as error:
        return {"kind": kind, "error": str(error), "pages": 0, "facts": 0, "expected": [],
                "found": [], "missing": [], "checked": 0, "holding": 0}
    loaded = time.perf_counter()
    # the statement pages as ingest classifies them: the one classification raw_pages stores
    kinds = document_context(pdf.stem, fiscal or 0, pages).statements(pages)
    facts = filing_facts(pdf.stem, fiscal or 0, pages, kinds)
    read = time.perf_counter()
    printed = {k for k in kinds if k in PRIMARY_STATEMENTS}
    expected = expected_items(kind, printed)
    found, year = found_items(facts, kind)
    checks = check_identities(facts)
    margin = [c for c in MARGIN_ITEMS if c in found] if kind == "10k" else []
    return {
        "kind": kind, "year": year, "pages": len(pages), "facts": len(facts),
        "mapped": sum(1 for f in facts if f.concept),
        "statement_pages": sum(1 for k in kinds if k in PRIMARY_STATEMENTS),
        "printed": sorted(printed), "expected": expected,
        "found": [c for c in expected if c in found],
        "missing": [c for c in expected if c not in found],
        "margin_items": margin,
        "why_none": None if printed else why_no_statements([page_lines(p) for p in pages]),
        "checked": len(checks), "holding": sum(c.holds for c in checks),
        "broken": [f"{c.identity} ({c.period}, p.{c.page + 1})" for c in checks if not c.holds],
        "load_seconds": round(loaded - started, 2), "read_seconds": round(read - loaded, 3),
    }


def _line(key: str, row: dict[str, Any]) -> str:
    if "error" in row:
        return f"{key[:52]:52.52} does not load: {row['error']}"
    missing = ", ".join(row["missing"]) or "-"
    if not row["printed"]:
        missing = row["why_none"]
    return (f"{key[:52]:52.52} {row['kind']:>8} {row['pages']:5} {row['facts']:5} "
            f"{len(row['found'])}/{len(row['expected'])} {row['holding']:3}/{row['checked']:<3} "
            f"{missing}")


def summarize(rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    checked = sum(r["checked"] for r in rows.values())
    holding = sum(r["holding"] for r in rows.values())
    tenks = [r for r in rows.values() if r["kind"] == "10k" and r["facts"]]
    return {
        "filings": len(rows),
        "not_loading": sum(1 for r in rows.values() if "error" in r),
        "printing_statements": sum(1 for r in rows.values() if r.get("printed")),
        "with_facts": sum(1 for r in rows.values() if r["facts"]),
        "key_found": sum(len(r["found"]) for r in rows.values()),
        "key_expected": sum(len(r["expected"]) for r in rows.values()),
        "every_key_item": sum(1 for r in rows.values() if r["expected"] and not r["missing"]),
        "identities_checked": checked, "identities_holding": holding,
        "share_holding": round(holding / checked, 4) if checked else None,
        "tenk_cost_of_revenue": sum("cost_of_revenue" in r["margin_items"] for r in tenks),
        "tenk_operating_income": sum("operating_income" in r["margin_items"] for r in tenks),
        "tenks": len(tenks),
        "read_seconds": round(sum(r.get("read_seconds", 0.0) for r in rows.values()), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages-dir", type=Path, default=None,
                        help="keep loaded filings pickled here and read them from here")
    parser.add_argument("--only", default="", help="only filings whose name contains this")
    args = parser.parse_args()
    if not CORPORA.is_dir():
        print(f"statement_bench: {CORPORA} not found", file=sys.stderr)
        return 2
    rows: dict[str, dict[str, Any]] = {}
    print(f"{'filing':52} {'kind':>8} {'pages':>5} {'facts':>5} key {'ident.':>7}  missing")
    for name, pdf, kind, fiscal in filings():
        if args.only.lower() not in pdf.stem.lower():
            continue
        key = f"{name}/{pdf.stem}"
        rows[key] = measure(pdf, kind, fiscal, args.pages_dir)
        print(_line(key, rows[key]), flush=True)
    summary = summarize(rows)
    by_set = {s: summarize({k: r for k, r in rows.items() if k.startswith(f"{s}/")})
              for s in SETS if any(k.startswith(f"{s}/") for k in rows)}
    print(f"\nfilings {summary['filings']} ({summary['not_loading']} not loading), printing "
          f"statements {summary['printing_statements']}, with facts {summary['with_facts']}; "
          f"key items found {summary['key_found']}/{summary['key_expected']} (every one in "
          f"{summary['every_key_item']}); identities holding {summary['identities_holding']}/"
          f"{summary['identities_checked']} ({summary['share_holding']}); 10-Ks with cost of "
          f"revenue {summary['tenk_cost_of_revenue']}, operating income "
          f"{summary['tenk_operating_income']} of {summary['tenks']}")
    for name, figures in by_set.items():
        print(f"  {name}: key items {figures['key_found']}/{figures['key_expected']}, "
              f"identities {figures['identities_holding']}/{figures['identities_checked']}")
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps({"summary": summary, "sets": by_set, "filings": rows},
                                   indent=1))
    print("BENCH_JSON " + json.dumps(summary, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
