"""Store faults fail fast and clearly (issue 12 item 5).

A warehouse or LanceDB folder that cannot be written used to fail after ~105 s of
dagster-duckdb's connection retries, the cause deep in the log. The stores are now probed before
any step does work (the IO manager's creation, ``LanceFolder``'s constructor) and the run fails in
one line naming the path and the cause.

How the faults are made (the tests run as root on ext4, where ``os.access`` says yes to
everything, so a real fault is needed):

- an immutable file or folder: ``chattr +i`` (root's writes then fail with EPERM); skipped where
  ``chattr`` is missing or refused (not root, a file system without the attribute);
- a read-only file system: a tmpfs mounted in ``tmp_path`` and remounted read-only (EROFS);
  skipped where ``mount`` is refused (not root, no CAP_SYS_ADMIN);
- a lock: a second process holding DuckDB's write lock, which must not count as a fault.

Every immutable flag is removed and every mount unmounted in a ``finally``.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from rag_assets.cli.runs import first_error
from rag_assets.core.retrieval.store import LanceFolder
from rag_assets.core.warehouse.writable import (
    StoreNotWritable,
    check_database_file,
    check_folder,
    is_local_database,
)
from rag_assets.definitions import all_assets
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import default_resources
from rag_assets.defs.warehouse import WarehouseIOManager
from rag_assets_tests.defs.conftest import NOTE_TEXT, row_counts

DOCUMENT, YEAR = "northwind-note", 2023
IMMUTABLE_FILE = "[Errno 1] Operation not permitted (immutable file?)"
IMMUTABLE_FOLDER = "[Errno 1] Operation not permitted (immutable folder?)"
READ_ONLY = "[Errno 30] Read-only file system"
FAST = 30.0  # seconds; dagster-duckdb's retries took ~105 s


@contextlib.contextmanager
def immutable(path: Path) -> Iterator[None]:
    """``chattr +i path`` for the block (skips the test where that is not possible)."""
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"chattr +i refused here: {done.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


@contextlib.contextmanager
def read_only_tmpfs(mount_point: Path, prepare) -> Iterator[None]:
    """A tmpfs at ``mount_point``, filled by ``prepare(mount_point)``, then read-only."""
    mount_point.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount_point)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        prepare(mount_point)
        subprocess.run(["mount", "-o", "remount,ro", str(mount_point)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(mount_point)], check=True)


def write_report(data: Path) -> None:
    report = data / "reports" / DOCUMENT / str(YEAR) / "note.txt"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(NOTE_TEXT, encoding="utf-8")


def make_warehouse(data: Path) -> Path:
    """An existing warehouse file (as after earlier runs) holding one table."""
    path = data / "warehouse.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("create schema rag; create table rag.marker as select 1 as x")
    return path


@pytest.fixture
def instance() -> Iterator[dg.DagsterInstance]:
    with dg.DagsterInstance.ephemeral() as inst:
        register_partitions(inst, [partition_key(DOCUMENT, str(YEAR))])
        yield inst


def run(data: Path, instance: dg.DagsterInstance, selection: dg.AssetSelection):
    started = time.monotonic()
    result = dg.materialize(
        all_assets,
        selection=selection,
        partition_key=partition_key(DOCUMENT, YEAR),
        instance=instance,
        resources=default_resources(str(data)),
        raise_on_error=False,
    )
    return result, time.monotonic() - started


def assert_failed_before_any_step(result, line: str, seconds: float) -> None:
    """The run failed while its resources were created: no step started, and the one line is
    what the run's failure carries and what the CLI prints."""
    assert not result.success
    assert seconds < FAST, f"took {seconds:.1f} s: the connection was retried"
    types = [e.event_type_value for e in result.all_events]
    assert "STEP_START" not in types and "RESOURCE_INIT_FAILURE" in types
    assert result.get_step_failure_events() == []  # no step ran, so none failed
    init = next(e for e in result.all_events if e.event_type_value == "RESOURCE_INIT_FAILURE")
    assert line in init.event_specific_data.error.message
    assert first_error(result) == line
    assert "\n" not in first_error(result)


# -- the warehouse ---------------------------------------------------------------------------
def test_an_immutable_warehouse_fails_the_run_in_one_line_before_any_step(tmp_path, instance):
    data = tmp_path / "data"
    write_report(data)
    warehouse = make_warehouse(data)
    before = warehouse.read_bytes()
    with immutable(warehouse):
        result, seconds = run(data, instance, dg.AssetSelection.assets("raw_pages"))
    assert_failed_before_any_step(
        result, f"warehouse {warehouse} cannot be written: {IMMUTABLE_FILE}", seconds
    )
    assert warehouse.read_bytes() == before
    assert not warehouse.with_name("warehouse.duckdb.wal").exists()
    # the flag removed, the same run goes through
    result, _ = run(data, instance, dg.AssetSelection.assets("raw_pages"))
    assert result.success
    assert row_counts(data, DOCUMENT, YEAR)["raw_pages"] == 1


def test_an_immutable_warehouse_folder_fails_in_one_line(tmp_path, instance):
    """DuckDB writes ``warehouse.duckdb.wal`` beside the file: its folder must take new files."""
    data = tmp_path / "data"
    write_report(data)
    warehouse = make_warehouse(data)
    with immutable(data):
        result, seconds = run(data, instance, dg.AssetSelection.assets("raw_pages"))
    assert_failed_before_any_step(
        result,
        f"warehouse folder {data} cannot be written (it holds warehouse.duckdb.wal): "
        f"{IMMUTABLE_FOLDER}",
        seconds,
    )
    assert warehouse.exists()


def test_a_warehouse_on_a_read_only_file_system_fails_in_one_line(tmp_path, instance):
    data = tmp_path / "data"
    write_report(data)
    store = tmp_path / "ro"
    with read_only_tmpfs(store, make_warehouse):
        warehouse = store / "warehouse.duckdb"
        resources = default_resources(str(data))
        resources["io_manager"] = WarehouseIOManager(database=str(warehouse), schema="rag")
        started = time.monotonic()
        result = dg.materialize(
            all_assets, selection=dg.AssetSelection.assets("raw_pages"),
            partition_key=partition_key(DOCUMENT, YEAR), instance=instance,
            resources=resources, raise_on_error=False,
        )
        seconds = time.monotonic() - started
    assert_failed_before_any_step(
        result, f"warehouse {warehouse} cannot be written: {READ_ONLY}", seconds
    )


# -- the LanceDB folder ----------------------------------------------------------------------
def test_an_unwritable_lancedb_folder_fails_each_index_step_in_one_line(tmp_path, instance):
    data = tmp_path / "data"
    write_report(data)
    ingest, _ = run(data, instance, dg.AssetSelection.groups("ingest"))
    assert ingest.success, first_error(ingest)
    lancedb = data / "lancedb"
    lancedb.mkdir()
    expected = f"LanceDB folder {lancedb} cannot be written: {IMMUTABLE_FOLDER}"
    with immutable(lancedb):
        result, seconds = run(data, instance, dg.AssetSelection.groups("index"))
    assert not result.success
    assert seconds < FAST
    failures = {e.step_key: e.step_failure_data for e in result.get_step_failure_events()}
    assert set(failures) == {"document_profile", "naive_vectors", "enriched_vectors"}
    for step in ("naive_vectors", "enriched_vectors"):  # dg.Failure: the line is the description
        assert failures[step].user_failure_data.description == expected
    # document_profile opens the folder itself: its root cause is the exception, whose text
    # is the line
    cause = failures["document_profile"].error.cause
    assert cause.cls_name == "StoreNotWritable" and cause.cause is None
    assert cause.message.strip().endswith(expected)
    line = first_error(result)
    assert line.endswith(expected) and "\n" not in line
    assert list(lancedb.iterdir()) == []  # nothing was written, no probe file left behind


def test_lance_folder_reports_an_unwritable_folder_when_opened(tmp_path):
    folder = tmp_path / "lancedb"
    folder.mkdir()
    with immutable(folder), pytest.raises(StoreNotWritable) as raised:
        LanceFolder(folder)
    assert str(raised.value) == f"LanceDB folder {folder} cannot be written: {IMMUTABLE_FOLDER}"
    assert raised.value.path == folder


# -- what is not a fault ---------------------------------------------------------------------
def test_writable_stores_are_unaffected_and_leave_no_probe_files(tmp_path, instance):
    data = tmp_path / "data"
    write_report(data)
    result, _ = run(data, instance, dg.AssetSelection.assets("raw_pages"))  # no warehouse yet
    assert result.success, first_error(result)
    check_folder(data / "lancedb", "LanceDB folder")  # creates the folder
    check_database_file(data / "warehouse.duckdb")
    assert sorted(p.name for p in data.iterdir()) == ["lancedb", "reports", "warehouse.duckdb"]
    assert list((data / "lancedb").iterdir()) == []


def test_a_connection_open_in_this_process_is_not_a_fault(tmp_path, instance):
    """The same process shares DuckDB's instance (and its lock): the run goes through."""
    data = tmp_path / "data"
    write_report(data)
    warehouse = make_warehouse(data)
    con = duckdb.connect(str(warehouse), config={"custom_user_agent": "dagster"})
    try:
        result, _ = run(data, instance, dg.AssetSelection.assets("raw_pages"))
        assert result.success, first_error(result)
        rows = con.execute("select count(*) from rag.raw_pages").fetchone()[0]
        assert rows == 1
    finally:
        con.close()


HOLD_LOCK = """
import sys, duckdb
con = duckdb.connect(sys.argv[1])
con.execute("create table if not exists held as select 1 as x")
print("locked", flush=True)
sys.stdin.read()
"""


def test_a_lock_held_by_another_process_is_left_to_duckdbs_retries(tmp_path):
    """Another process's write lock is the normal concurrent case, not "cannot be written":
    the probe passes and the IO manager is created at once; only DuckDB's own connection (which
    dagster-duckdb retries with backoff) meets the lock."""
    warehouse = make_warehouse(tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(warehouse)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(duckdb.IOException, match="lock"):  # the lock is real
            duckdb.connect(str(warehouse)).close()
        check_database_file(warehouse)  # no StoreNotWritable
        manager = WarehouseIOManager(database=str(warehouse), schema="rag")
        started = time.monotonic()
        created = manager.create_io_manager(dg.build_init_resource_context())
        assert created is not None and time.monotonic() - started < 5
    finally:
        holder.communicate("")  # closes its stdin: it ends and releases the lock
    assert holder.returncode == 0


def test_a_directory_where_the_warehouse_should_be_is_a_fault(tmp_path):
    path = tmp_path / "warehouse.duckdb"
    path.mkdir()
    with pytest.raises(StoreNotWritable) as raised:
        check_database_file(path)
    assert str(raised.value) == f"warehouse {path} cannot be written: [Errno 21] Is a directory"


def test_a_missing_folder_is_created(tmp_path):
    path = tmp_path / "new" / "deeper" / "warehouse.duckdb"
    check_database_file(path)
    assert path.parent.is_dir() and not path.exists()
    assert list(path.parent.iterdir()) == []


def test_only_local_database_files_are_probed():
    assert is_local_database("data/warehouse.duckdb") and is_local_database("/abs/w.duckdb")
    assert not any(is_local_database(db) for db in (":memory:", "md:my_db", "s3://b/w.duckdb"))
    manager = WarehouseIOManager(database=":memory:", schema="rag")
    assert manager.create_io_manager(dg.build_init_resource_context()) is not None
