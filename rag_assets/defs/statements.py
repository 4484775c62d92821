"""``financial_statements`` (group ``ingest``): every value of the primary statements, one row
each, with the accounting identities the filing prints checked beside it.

A failed identity flags its rows and warns; it never blocks ingest (the rows are still the
best reading of the page, and the answers cite them with their page and quote). It is the
ingest step's slice of the report (``defs/ingest.py``): the facts are read on the pages the
report's context classifies as statements, the classification ``raw_pages`` stores.
"""

from collections import Counter
from collections.abc import Iterator

import dagster as dg
import pandas as pd

from rag_assets.core.chunks.report import ProcessedReport
from rag_assets.core.ingest.facts import missing_key_concepts
from rag_assets.core.ingest.identities import check_identities, share_holding
from rag_assets.core.warehouse.tables import facts_to_frame
from rag_assets.defs.presentation import BY_PARTITION, partition_check, preview

# the asset, for the assets downstream that wait on it (``deps``): the ingest step writes it
financial_statements = dg.AssetKey("financial_statements")
STATEMENTS_OUT = dg.AssetOut(
    metadata=BY_PARTITION, kinds={"duckdb"}, is_required=False,
    description="Statement facts: statement, label as printed, concept, the column's period, "
    "the value in units (scale and sign applied), page and the row as printed (what a citation "
    "quotes); `identity_failed` flags the rows of a column whose printed identity does not "
    "hold.")
STATEMENT_CHECKS = [partition_check(
    "statement_identities", "financial_statements",
    "The accounting identities the filing prints hold over the facts read from its "
    "statements: assets = liabilities + equity, gross profit = revenue - cost of revenue, "
    "operating + investing + financing (+ FX) = change in cash, current assets and liabilities "
    "= the rows above them. Why: a broken identity means a value was misread, or the filing "
    "prints a row the reader does not model. Warns, never blocks: the rows of the broken "
    "column are flagged (`identity_failed`) and answers still cite them with their page; the "
    "description names each broken identity with its period and page: read that page before "
    "relying on those figures.")]


def statement_outputs(
    context: dg.AssetExecutionContext, report: ProcessedReport
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """The facts of the report's statement pages and the identities they print."""
    document, year, facts = report.document, report.year, report.facts
    checks = check_identities(facts)
    failed_pages = {c.page for c in checks if not c.holds}
    failed = {(f.page, f.column) for f in facts if f.page in failed_pages and f.concept}
    frame = facts_to_frame(facts, failed)
    per_statement = Counter(f.statement for f in facts)
    share = share_holding(checks)
    missing = missing_key_concepts(facts, year)
    if missing and facts:
        context.log.warning(f"{document} {year}: no {', '.join(missing)} for fiscal {year}")
    yield dg.Output(frame, output_name="financial_statements", metadata={
        "rows": len(frame),
        **{f"rows_{k}": v for k, v in sorted(per_statement.items())},
        "concepts": len({f.concept for f in facts if f.concept}),
        "missing_key_concepts": ", ".join(missing) or "none",
        "identities_checked": len(checks),
        "identities_share_holding": round(share, 4) if share is not None else "n/a",
        "source_sha256": report.loaded.sha256,
        "seconds": report.seconds.get("facts", 0.0),
        "preview": preview(frame[frame["concept"].notna()],
                           ["statement", "concept", "label", "period", "value", "page"],
                           width=60, rows=12),
    })
    broken = [c for c in checks if not c.holds]
    yield dg.AssetCheckResult(
        check_name="statement_identities",
        asset_key=financial_statements,
        passed=not broken,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={"checked": len(checks), "holding": len(checks) - len(broken),
                  "share_holding": round(share, 4) if share is not None else "n/a"},
        description=(
            "no statement identity to check" if not checks else
            f"{len(checks) - len(broken)} of {len(checks)} identities hold"
            + ("" if not broken else "; broken: " + "; ".join(
                f"{c.identity} ({c.period}, p.{c.page + 1}: {c.left:,.0f} vs {c.right:,.0f})"
                for c in broken[:3]))
        ),
    )
