"""The report sensor: partitions registered, one run per new or edited file, none otherwise."""

from __future__ import annotations

from pathlib import Path

import dagster as dg

from rag_assets.defs.resources import RagSettings
from rag_assets.defs.sensors import report_sensor


def tick(instance: dg.DagsterInstance, data_dir: Path, cursor: str | None) -> dg.SensorResult:
    settings = RagSettings(data_dir=str(data_dir))
    context = dg.build_sensor_context(
        instance=instance, cursor=cursor, resources={"settings": settings}
    )
    result = report_sensor(context)
    # calling the sensor directly does not apply its partition requests: do it as the daemon would
    for request in result.dynamic_partitions_requests or []:
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))
    return result


def write_report(data_dir: Path, document: str, year: int, text: str) -> Path:
    path = data_dir / "reports" / document / str(year) / "report.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_new_file_registers_partitions_and_requests_one_run(tmp_path: Path):
    with dg.DagsterInstance.ephemeral() as instance:
        first = tick(instance, tmp_path, None)
        assert first.run_requests == []
        write_report(tmp_path, "acme-annual", 2023, "Revenue rose [1].\n")
        result = tick(instance, tmp_path, first.cursor)
        assert len(result.run_requests) == 1
        request = result.run_requests[0]
        assert request.partition_key == dg.MultiPartitionKey(
            {"document": "acme-annual", "year": "2023"}
        )
        assert instance.get_dynamic_partitions("document") == ["acme-annual"]
        assert instance.get_dynamic_partitions("year") == ["2023"]

        unchanged = tick(instance, tmp_path, result.cursor)
        assert unchanged.run_requests == []
        assert not unchanged.dynamic_partitions_requests

        path = write_report(tmp_path, "acme-annual", 2023, "Revenue rose [1]. Costs fell.\n")
        edited = tick(instance, tmp_path, unchanged.cursor)
        assert len(edited.run_requests) == 1
        assert edited.run_requests[0].run_key != request.run_key

        path.touch()  # same bytes: not an edit
        assert tick(instance, tmp_path, edited.cursor).run_requests == []


def test_badly_named_folders_are_reported_not_ingested(tmp_path: Path):
    with dg.DagsterInstance.ephemeral() as instance:
        write_report(tmp_path, "Bad Name", 2023, "x")
        write_report(tmp_path, "good-name", 2023, "x")
        result = tick(instance, tmp_path, None)
        assert [r.partition_key.keys_by_dimension["document"] for r in result.run_requests] == [
            "good-name"
        ]


def test_a_folder_with_two_reports_requests_nothing_and_logs_one_line(tmp_path: Path, capfd):
    with dg.DagsterInstance.ephemeral() as instance:
        folder = write_report(tmp_path, "acme-annual", 2023, "Revenue rose.\n").parent
        (folder / "report.pdf").write_bytes(b"%PDF-1.7\n")
        write_report(tmp_path, "acme-annual", 2024, "Revenue fell.\n")
        result = tick(instance, tmp_path, None)
        assert [r.partition_key.keys_by_dimension["year"] for r in result.run_requests] == [
            "2024"
        ]
        lines = [line for line in capfd.readouterr().err.splitlines() if "keep one" in line]
        assert len(lines) == 1
        assert lines[0].endswith(
            f"not ingested: {folder}: 2 report files for acme-annual|2023: report.pdf, "
            "report.txt; keep one"
        )

        (folder / "report.pdf").unlink()
        fixed = tick(instance, tmp_path, result.cursor)
        assert [r.partition_key.keys_by_dimension["year"] for r in fixed.run_requests] == ["2023"]
