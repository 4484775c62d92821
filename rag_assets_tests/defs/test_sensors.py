"""The report sensor: partitions registered, one run per new or edited file, none otherwise."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
import pytest

from rag_assets.cli import main
from rag_assets.core.ingest.catalog import scan_reports
from rag_assets.core.ingest.documents import file_sha256
from rag_assets.definitions import defs
from rag_assets.defs.ingest import ingest_report
from rag_assets.defs.partitions import (
    DOCUMENT_TAG,
    YEAR_TAG,
    partition_key,
    register_partitions,
    report_partitions,
)
from rag_assets.defs.resources import RagSettings, default_resources
from rag_assets.defs.sensors import latest_materialization, report_sensor

REPO = Path(__file__).parents[2]


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
        assert request.partition_key == "acme-annual|2023"
        assert request.tags[DOCUMENT_TAG] == "acme-annual" and request.tags[YEAR_TAG] == "2023"
        assert instance.get_dynamic_partitions("report") == ["acme-annual|2023"]

        unchanged = tick(instance, tmp_path, result.cursor)
        assert unchanged.run_requests == []
        assert not unchanged.dynamic_partitions_requests

        path = write_report(tmp_path, "acme-annual", 2023, "Revenue rose [1]. Costs fell.\n")
        edited = tick(instance, tmp_path, unchanged.cursor)
        assert len(edited.run_requests) == 1
        assert edited.run_requests[0].run_key != request.run_key

        path.touch()  # same bytes: not an edit
        assert tick(instance, tmp_path, edited.cursor).run_requests == []


def test_only_filed_pairs_are_partitions(tmp_path: Path):
    """Three reports of two documents over two years: three partitions, no fourth cell for the
    pair nobody filed (it would show as "Missing" and be built by a backfill of all)."""
    with dg.DagsterInstance.ephemeral() as instance:
        for document, year in (("acme-annual", 2023), ("acme-annual", 2024),
                               ("northwind-note", 2024)):
            write_report(tmp_path, document, year, "Revenue rose.\n")
        result = tick(instance, tmp_path, None)
        [added] = result.dynamic_partitions_requests
        assert sorted(added.partition_keys) == [
            "acme-annual|2023", "acme-annual|2024", "northwind-note|2024"]
        assert report_partitions.name == added.partitions_def_name


def test_a_known_file_gets_its_partition_without_a_run(tmp_path: Path):
    """An instance that lacks the partition of a file the cursor has seen (one kept from before
    partitions were one per report) registers it on the next tick, and requests nothing."""
    write_report(tmp_path, "acme-annual", 2023, "Revenue rose.\n")
    with dg.DagsterInstance.ephemeral() as before:
        seen = tick(before, tmp_path, None).cursor
    with dg.DagsterInstance.ephemeral() as instance:
        result = tick(instance, tmp_path, seen)
        assert result.run_requests == []
        [added] = result.dynamic_partitions_requests
        assert list(added.partition_keys) == ["acme-annual|2023"]


def test_badly_named_folders_are_reported_not_ingested(tmp_path: Path):
    with dg.DagsterInstance.ephemeral() as instance:
        write_report(tmp_path, "Bad Name", 2023, "x")
        write_report(tmp_path, "good-name", 2023, "x")
        result = tick(instance, tmp_path, None)
        assert [r.partition_key for r in result.run_requests] == ["good-name|2023"]


def test_a_folder_with_two_reports_requests_nothing_and_logs_one_line(tmp_path: Path, capfd):
    with dg.DagsterInstance.ephemeral() as instance:
        folder = write_report(tmp_path, "acme-annual", 2023, "Revenue rose.\n").parent
        (folder / "report.pdf").write_bytes(b"%PDF-1.7\n")
        write_report(tmp_path, "acme-annual", 2024, "Revenue fell.\n")
        result = tick(instance, tmp_path, None)
        assert [r.partition_key for r in result.run_requests] == ["acme-annual|2024"]
        lines = [line for line in capfd.readouterr().err.splitlines() if "keep one" in line]
        assert len(lines) == 1
        assert lines[0].endswith(
            f"not ingested: {folder}: 2 report files for acme-annual|2023: report.pdf, "
            "report.txt; keep one"
        )

        (folder / "report.pdf").unlink()
        fixed = tick(instance, tmp_path, result.cursor)
        assert [r.partition_key for r in fixed.run_requests] == ["acme-annual|2023"]


def ingest(instance: dg.DagsterInstance, data_dir: Path, document: str, year: int) -> int:
    """A real ingest of the partition outside the sensor (as the CLI or the UI runs it); the
    storage id of the ``raw_pages`` materialization it wrote."""
    register_partitions(instance, [partition_key(document, str(year))])
    key = partition_key(document, year)
    result = dg.materialize([ingest_report], partition_key=key, instance=instance,
                            resources=default_resources(str(data_dir)))
    assert result.success
    record = latest_materialization(instance, "raw_pages", str(key))
    assert record is not None
    return record.storage_id


def test_a_report_ingested_at_its_version_by_any_path_is_not_requested(tmp_path: Path):
    with dg.DagsterInstance.ephemeral() as instance:
        path = write_report(tmp_path, "acme-annual", 2023, "Revenue rose [1].\n")
        ingested = ingest(instance, tmp_path, "acme-annual", 2023)
        # a sensor without a cursor (first start, or reset) sees a new file, already ingested
        first = tick(instance, tmp_path, None)
        assert first.run_requests == []

        write_report(tmp_path, "acme-annual", 2023, "Revenue rose [1]. Costs fell.\n")
        edited = tick(instance, tmp_path, first.cursor)
        assert [r.run_key for r in edited.run_requests] == [
            f"acme-annual|2023:{file_sha256(path)[:16]}:{ingested}"]

        # back to the version the partition holds before that run: nothing to do
        write_report(tmp_path, "acme-annual", 2023, "Revenue rose [1].\n")
        assert tick(instance, tmp_path, edited.cursor).run_requests == []


def test_a_report_reverted_to_a_version_ingested_before_is_requested_again(tmp_path: Path):
    """The run key names the materialization it replaces: the same content asked for again
    after another version was ingested is a new key, not a duplicate Dagster skips."""
    with dg.DagsterInstance.ephemeral() as instance:
        write_report(tmp_path, "acme-annual", 2023, "Revenue rose [1].\n")
        first = tick(instance, tmp_path, None)
        ingest(instance, tmp_path, "acme-annual", 2023)
        write_report(tmp_path, "acme-annual", 2023, "Revenue fell [1].\n")
        edited = tick(instance, tmp_path, first.cursor)
        second = ingest(instance, tmp_path, "acme-annual", 2023)
        write_report(tmp_path, "acme-annual", 2023, "Revenue rose [1].\n")
        reverted = tick(instance, tmp_path, edited.cursor)
        keys = [r.run_key for r in (*first.run_requests, *reverted.run_requests)]
        assert len(keys) == 2 and keys[0].rsplit(":", 1)[0] == keys[1].rsplit(":", 1)[0]
        assert keys[1].endswith(f":{second}") and keys[0] != keys[1]


# the demo of this test: a TEI paper of 2023 with its questions and a PDF report of 2024 with
# none, in a document x year grid with gaps (the quickest demo that has both kinds of file, both
# kinds of partition and the gaps: about 40 s where three years of a report took 75)
DEMO_DOCUMENTS = ("layout-matrix-fpdf2", "footnote-rag-paper")


@pytest.mark.slow
def test_after_the_demo_neither_sensor_requests_what_it_built(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch):
    """``make demo`` then ``make ui``: the demo's command (its ingest, evaluation, generation,
    reports and roll-ups) on the generated samples, in a fresh instance as ``make`` sets it
    up; then the report sensor's first tick (no cursor) and a tick of the automation sensor
    (its cursor from a tick before the demo: the UI was open once before) request no run of
    what the demo built. The sample reports the demo was told to leave out are requested."""
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copy(REPO / "deploy" / "dagster.yaml", home / "dagster.yaml")
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    data = tmp_path / "data"
    with dg.DagsterInstance.get() as instance:
        before = dg.evaluate_automation_conditions(defs=defs, instance=instance)
    assert main(["demo", "--data-dir", str(data), "--corpora", str(tmp_path / "no-corpora"),
                 "--only", *DEMO_DOCUMENTS]) == 0

    reports, _ = scan_reports(data / "reports")
    built = {r.partition for r in reports if r.document in DEMO_DOCUMENTS}
    assert len(built) == 2 and len(reports) == 10
    with dg.DagsterInstance.get() as instance:
        requested = {str(r.partition_key) for r in tick(instance, data, None).run_requests}
        assert len(requested & built) == 0  # before the change: every one
        assert requested == {r.partition for r in reports} - built
        automation = dg.evaluate_automation_conditions(defs=defs, instance=instance,
                                                       cursor=before.cursor)
        assert automation.total_requested == 0  # before the change: each one's audit_report
