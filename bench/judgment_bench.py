"""Gross and operating margin asked of every real 10-K's statement facts: a metric is said "not
meaningful" only for a filer whose kind (a bank, an insurer, a REIT: ``filer_kinds.json``) has no
such line, never for one that prints it (issue 36 item 6).

Every 10-K of financebench-dev, -wide, -bulk (``doc_type`` 10k in ``documents.jsonl``) and the two
of sec-10k. For each: the filer's kind read from its own statements or cover, and for each
margin its status (answered / missing / not_meaningful / unavailable) and headline, and whether
the filing prints the metric's lines (a cost of revenue or gross profit row, or a row whose label
says "cost of ..."; an operating income row). A violation is a ``not_meaningful`` on a filing
that prints the lines, or on one of no kind.

Run: ``.venv/bin/python bench/judgment_bench.py [--pages-dir DIR] [--only NAME]`` (``--pages-dir``
as in ``statement_bench.py``: loaded filings pickled there and read back). Prints a line per
filing, then ``BENCH_JSON {...}``; the figures also go to ``bench/out/judgments.json``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
OUT_JSON = REPO / "bench" / "out" / "judgments.json"
METRICS = {"gross_margin": "gross margin", "operating_margin": "operating margin"}
COST_LINE_RE = re.compile(r"\bcosts? of\b|\bgross (?:profit|margin)\b", re.IGNORECASE)


def ten_ks() -> list[tuple[str, Path, int | None]]:
    """(set, pdf, fiscal year) of every 10-K (not the glossy annual reports)."""
    from statement_bench import CORPORA, filings

    out = []
    for name, pdf, kind, year in filings():
        if kind != "10k" or name == "damaged":
            continue
        documents = CORPORA / name / "documents.jsonl"
        if documents.is_file() and not any(
                json.loads(line).get("doc_type", "").lower() == "10k"
                and json.loads(line)["doc_name"] == pdf.stem
                for line in documents.read_text(encoding="utf-8").splitlines() if line.strip()):
            continue
        out.append((name, pdf, year))
    return out


def prints_lines(facts: list[Any], metric: str) -> bool:
    """Whether the filing's income statement prints the metric's lines, read by concept or by
    the label's own words."""
    income = [f for f in facts if f.statement == "income_statement"]
    if metric == "gross_margin":
        return any(f.concept in ("cost_of_revenue", "gross_profit")
                   or COST_LINE_RE.search(f"{f.group} {f.label}") for f in income)
    return any(f.concept == "operating_income" for f in income)


def measure(pdf: Path, year: int | None, pages_dir: Path | None) -> dict[str, Any]:
    from statement_bench import load_pages

    from rag_assets.core.generation.filer_kinds import filer_kind
    from rag_assets.core.generation.metric_engine import answer_metric
    from rag_assets.core.generation.metric_questions import parse_question
    from rag_assets.core.ingest.filing_facts import read_facts
    from rag_assets.core.question.question import read_question

    started = time.perf_counter()
    pages = load_pages(pdf, pages_dir)
    facts = read_facts(pdf.stem.lower(), year or 0, pages)
    cover = "\n".join(p.text for p in pages[:2])
    kind = filer_kind(facts, cover)
    row: dict[str, Any] = {"kind": kind.kind if kind else None, "facts": len(facts)}
    for metric, title in METRICS.items():
        asked = f"What is the company's FY{year} {title}?" if year else f"What is its {title}?"
        parsed = parse_question(read_question(asked))
        assert parsed is not None and parsed.target == metric, asked
        answer = answer_metric(parsed, facts, "The company", cover)
        printed = prints_lines(facts, metric)
        row[metric] = {"status": answer.status, "prints_lines": printed,
                       "headline": answer.headline[:240],
                       "violation": answer.status == "not_meaningful" and (
                           printed or kind is None)}
    row["seconds"] = round(time.perf_counter() - started, 1)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages-dir", type=Path, default=None)
    parser.add_argument("--only", default=None, help="filings whose name holds this")
    args = parser.parse_args()
    rows: dict[str, dict[str, Any]] = {}
    for name, pdf, year in ten_ks():
        if args.only and args.only.lower() not in pdf.stem.lower():
            continue
        try:
            row = measure(pdf, year, args.pages_dir)
        except Exception as error:  # a bench reports a filing it cannot read, and goes on
            row = {"error": f"{type(error).__name__}: {error}"[:200]}
        rows[f"{name}/{pdf.stem}"] = row
        shown = " ".join(f"{m}={row[m]['status']}{'!' if row[m]['violation'] else ''}"
                         for m in METRICS if m in row)
        print(f"{pdf.stem:36} kind={row.get('kind')} {shown} {row.get('error', '')}", flush=True)
    summary: dict[str, Any] = {"filings": len(rows)}
    for metric in METRICS:
        done = [r[metric] for r in rows.values() if metric in r]
        summary[metric] = dict(Counter(d["status"] for d in done))
        summary[f"{metric}_violations"] = [k for k, r in rows.items()
                                           if metric in r and r[metric]["violation"]]
        summary[f"{metric}_missing_though_printed"] = [
            k for k, r in rows.items() if metric in r and r[metric]["status"] == "missing"
            and r[metric]["prints_lines"]]
    summary["kinds"] = {k: r["kind"] for k, r in rows.items() if r.get("kind")}
    summary["errors"] = {k: r["error"] for k, r in rows.items() if "error" in r}
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1),
                        encoding="utf-8")
    print("BENCH_JSON " + json.dumps(summary))
    return 1 if any(summary[f"{m}_violations"] for m in METRICS) else 0


if __name__ == "__main__":
    raise SystemExit(main())
