"""Partitions: document × year, both dimensions dynamic (the sensor registers new values)."""

from __future__ import annotations

import dagster as dg

document_partitions = dg.DynamicPartitionsDefinition(name="document")
year_partitions = dg.DynamicPartitionsDefinition(name="year")
report_partitions = dg.MultiPartitionsDefinition(
    {"document": document_partitions, "year": year_partitions}
)


def partition_of(context: dg.AssetExecutionContext) -> tuple[str, int]:
    """(document, year) of the partition being materialized."""
    key = context.partition_key
    assert isinstance(key, dg.MultiPartitionKey)
    dims = key.keys_by_dimension
    return dims["document"], int(dims["year"])


def partition_key(document: str, year: int | str) -> dg.MultiPartitionKey:
    return dg.MultiPartitionKey({"document": document, "year": str(year)})


def register_partitions(instance: dg.DagsterInstance, documents: set[str], years: set[str]) -> None:
    """Add partition values the instance does not know yet (idempotent)."""
    for definition, values in ((document_partitions, documents), (year_partitions, years)):
        known = set(instance.get_dynamic_partitions(definition.name))
        new = sorted(set(values) - known)
        if new:
            instance.add_dynamic_partitions(definition.name, new)
