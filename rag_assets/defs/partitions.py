"""Partitions: one per filed report, keyed ``<document>|<year>`` (``costco-10k|2021``).

Only pairs that have a report are partitions: in a document × year cross product every pair
without a filing (``gdpr|2024``) would be a partition the UI counts as "Missing", like a report
not built yet, and a backfill of all would run it (docs/ARCHITECTURE.md, "Partitions", says
why). The key keeps both values (``partition_of``); runs carry them as tags (``run_tags``) so
the Runs page filters by document or by year. The key is the string a document × year
``MultiPartitionKey`` prints.
"""

from __future__ import annotations

from collections.abc import Iterable

import dagster as dg

from rag_assets.core.ingest.catalog import partition_key, split_partition_key

report_partitions = dg.DynamicPartitionsDefinition(name="report")

# the SQL expression of a table row's partition, over the ``document`` and ``year`` columns every
# table carries: the IO managers replace exactly the rows it matches
PARTITION_EXPR = "document || '|' || CAST(year AS VARCHAR)"
DOCUMENT_TAG = "rag-assets/document"
YEAR_TAG = "rag-assets/year"
__all__ = ["PARTITION_EXPR", "partition_key", "partition_of", "register_partitions",
           "report_partitions", "run_tags", "split_partition_key"]


def partition_of(context: dg.AssetExecutionContext) -> tuple[str, int]:
    """(document, year) of the partition being materialized."""
    return split_partition_key(context.partition_key)


def run_tags(document: str, year: int | str) -> dict[str, str]:
    """Tags naming the run's document and year, by which the Runs page filters."""
    return {DOCUMENT_TAG: document, YEAR_TAG: str(year)}


def register_partitions(instance: dg.DagsterInstance, keys: Iterable[str]) -> None:
    """Add the reports' partitions the instance does not know yet (idempotent)."""
    known = set(instance.get_dynamic_partitions(report_partitions.name))
    new = sorted(set(keys) - known)
    if new:
        instance.add_dynamic_partitions(report_partitions.name, new)
