"""Provenance: a queued ingest run reads whatever file is there when it starts, so each run
records the version it actually read, and a run whose file changed after its request says so."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import duckdb

from rag_assets.core.ingest.documents import file_sha256
from rag_assets.defs.ingest import FILE_TAG, READ_SHA256_TAG, SHA256_TAG, ingest_report
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import default_resources

V1 = "Northwind note\nRevenue grew 12% [1].\n__________\n[1] Includes an acquisition.\n"
V2 = V1 + "Costs fell 3% in the second half.\n"


def ingest(instance: dg.DagsterInstance, data: Path, tags: dict[str, str]):
    result = dg.materialize([ingest_report], partition_key=partition_key("northwind-note", 2023),
                            instance=instance, resources=default_resources(str(data)), tags=tags,
                            selection=["raw_pages"])
    assert result.success
    [materialization] = [m for m in result.asset_materializations_for_node("ingest_report")
                         if m.asset_key == dg.AssetKey("raw_pages")]
    metadata = {k: getattr(v, "value", v) for k, v in materialization.metadata.items()}
    run = instance.get_run_by_id(result.run_id)
    return metadata, run.tags


def stored_versions(data: Path) -> set[str]:
    con = duckdb.connect(str(data / "warehouse.duckdb"), read_only=True)
    try:
        return {r[0] for r in con.execute(
            "select distinct sha256 from rag.raw_pages where document = 'northwind-note'"
        ).fetchall()}
    finally:
        con.close()


def test_a_run_records_the_version_it_read_and_says_when_it_was_not_the_requested_one(
    tmp_path: Path,
):
    data = tmp_path / "data"
    report = data / "reports" / "northwind-note" / "2023" / "note.txt"
    report.parent.mkdir(parents=True)
    report.write_text(V1, encoding="utf-8")
    requested = file_sha256(report)  # what the sensor saw when it requested the run
    report.write_text(V2, encoding="utf-8")  # edited while the run waited in the queue
    read = file_sha256(report)

    with dg.instance_for_test() as instance:
        register_partitions(instance, [partition_key("northwind-note", "2023")])
        metadata, tags = ingest(instance, data, {FILE_TAG: str(report), SHA256_TAG: requested})
        assert metadata["source_sha256"] == read
        assert metadata["requested_sha256"] == requested
        assert metadata["provenance"].startswith("file changed after the request")
        assert requested[:12] in metadata["provenance"] and read[:12] in metadata["provenance"]
        assert tags[READ_SHA256_TAG] == read and tags[SHA256_TAG] == requested
        assert stored_versions(data) == {read}  # the rows say which version they came from

        # the newer request (the sensor saw the edit) reads what it asked for
        metadata, tags = ingest(instance, data, {FILE_TAG: str(report), SHA256_TAG: read})
        assert metadata["provenance"] == "as requested"
        assert tags[READ_SHA256_TAG] == read
        # a manual run (no requested version) records what it read too
        metadata, tags = ingest(instance, data, {})
        assert metadata["requested_sha256"] == "none"
        assert metadata["source_sha256"] == read == tags[READ_SHA256_TAG]
        assert stored_versions(data) == {read}
