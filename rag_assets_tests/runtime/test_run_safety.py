"""Crash safety of the CLI's runs (issue 19), with real ``rag-assets`` processes on a real
instance (``deploy/dagster.yaml``: pool ``duckdb_writer``, limit 1) and real small PDFs:

- a SIGKILLed ``ingest`` (holding the pool's only slot) does not wedge the next one: it fails
  the dead run in one line, frees its slot, and the warehouse holds the partition once;
- SIGTERM stops a command whose step waits for a slot held by another live run (which it names
  within 10 s, without spinning a core), and SIGINT one in the middle of a step: the run ends
  CANCELED, nothing of it stays claimed; a command deaf to the signal is ended by the watchdog;
- two commands started at once on a new DAGSTER_HOME both succeed (no schema race).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import dagster as dg
import duckdb
import lancedb
import pytest

from rag_assets.samples.pdf_layout import Page, Paragraph, Title, render_pdf

pytestmark = pytest.mark.slow  # real CLI processes, killed and run again (~40 s)

REPO = Path(__file__).resolve().parents[2]
# a sitecustomize that holds the ingest step in its middle (its docstring says how)
STEP_GATE = Path(__file__).resolve().parent / "step_gate"
POOL = "duckdb_writer"
PARTITION = ("acme-annual", 2023)
# the report below: 3 pages, 4 footnote definitions, each cited once
PAGES, DEFINITIONS, CITATIONS = 3, 4, 4
PAGE_NOTES = ((1, 2), (3,), (4,))


def write_report(path: Path) -> Path:
    pages = []
    for number, notes in enumerate(PAGE_NOTES, 1):
        cited = " ".join(f"Item {n} changed by {n + 3}% [{n}]." for n in notes)
        pages.append(Page(
            blocks=[*([Title("Acme Corp annual report 2023")] if number == 1 else []),
                    Paragraph(f"Section {number}. Revenue grew {10 + number}% to "
                              f"${40 + number} million. {cited} Costs were flat.")],
            footnotes=[f"[{n}] Includes ${n} million from the Harbor acquisition." for n in notes],
        ))
    return render_pdf(path, "Acme Corp | Annual report 2023", pages)


@pytest.fixture
def report(tmp_path: Path) -> Path:
    return write_report(tmp_path / "inbox" / "acme-2023.pdf")


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("RAG_ASSETS_WAREHOUSE", "RAG_ASSETS_LANCEDB_URI", "RAG_ASSETS_DATA_DIR")}
    return {**env, "DAGSTER_HOME": str(home), "HF_HUB_OFFLINE": "1",
            "GX_ANALYTICS_ENABLED": "false", "DAGSTER_DISABLE_TELEMETRY": "1"}


def new_home(tmp_path: Path, name: str = "home") -> Path:
    home = tmp_path / name
    home.mkdir()
    shutil.copyfile(REPO / "deploy" / "dagster.yaml", home / "dagster.yaml")
    return home


class Command:
    """``rag-assets ARGS`` in a process group of its own, output to files."""

    def __init__(self, tmp_path: Path, home: Path, name: str, *args: str,
                 env: dict[str, str] | None = None) -> None:
        self.out, self.err = tmp_path / f"{name}.out", tmp_path / f"{name}.err"
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(  # noqa: S603 - our own CLI
                [sys.executable, "-m", "rag_assets.cli", *args], cwd=REPO,
                env={**environment(home), **(env or {})}, stdout=out, stderr=err,
                start_new_session=True)

    @property
    def pid(self) -> int:
        return self.process.pid

    def stdout(self) -> str:
        return self.out.read_text(errors="replace")

    def stderr(self) -> str:
        return self.err.read_text(errors="replace")

    def wait(self, timeout: float) -> int:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"still running after {timeout} s:\n{self.stdout()}\n"
                                 f"{self.stderr()}") from None

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.pid, signal.SIGKILL)
            self.process.wait(10)


def ingest(tmp_path: Path, home: Path, report: Path, name: str,
           document: str = PARTITION[0], env: dict[str, str] | None = None) -> Command:
    return Command(tmp_path, home, name, "ingest", str(report), "--document", document,
                   "--year", str(PARTITION[1]), "--data-dir", str(tmp_path / "data"), env=env)


def wait_until(predicate: Callable[[], object], timeout: float, what: str,
               command: Command | None = None) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if command is not None and command.process.poll() is not None:
            raise AssertionError(f"the command ended ({command.process.returncode}) before "
                                 f"{what}:\n{command.stdout()}\n{command.stderr()}")
        time.sleep(0.05)
    raise AssertionError(f"not {what} within {timeout} s")


@pytest.fixture
def instance_of() -> Iterator[Callable[[Path], dg.DagsterInstance]]:
    opened: list[dg.DagsterInstance] = []

    def open_(home: Path) -> dg.DagsterInstance:
        instance = dg.DagsterInstance.from_config(str(home))
        opened.append(instance)
        return instance

    yield open_
    for instance in opened:
        instance.dispose()


def cli_run(instance: dg.DagsterInstance) -> dg.DagsterRun | None:
    runs = instance.get_runs(filters=dg.RunsFilter(tags={"rag-assets/source": "cli-ingest"}))
    return runs[0] if runs else None


def step_started(instance: dg.DagsterInstance, run_id: str, step: str) -> bool:
    return any(e.step_key == step for e in
               instance.all_logs(run_id, of_type=dg.DagsterEventType.STEP_START))


def claims(instance: dg.DagsterInstance) -> dict[str, set[str]]:
    """Run id -> pools it holds a slot of or waits for, over every pool of the instance."""
    storage = instance.event_log_storage
    out: dict[str, set[str]] = {}
    for pool, info in storage.get_concurrency_infos(list(storage.get_concurrency_keys())).items():
        for run_id in ([s.run_id for s in info.claimed_slots]
                       + [p.run_id for p in info.pending_steps]):
            out.setdefault(run_id, set()).add(pool)
    return out


def assert_canceled_by_the_run(instance: dg.DagsterInstance, run_id: str, name: str) -> None:
    """The run ended itself: marked CANCELING on the signal, then CANCELED by Dagster's end of
    the run (not from outside by the watchdog)."""
    events = [e.dagster_event for e in instance.all_logs(run_id) if e.is_dagster_event]
    ends = [(e.event_type_value, e.message) for e in events
            if e.event_type_value in ("PIPELINE_CANCELING", "PIPELINE_CANCELED",
                                      "PIPELINE_FAILURE", "PIPELINE_SUCCESS")]
    assert ends == [("PIPELINE_CANCELING", f"rag-assets: stopping on {name}"),
                    ("PIPELINE_CANCELED", 'Execution of run for "__ephemeral_asset_job__" '
                                          "canceled.")]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def partition_rows(data_dir: Path) -> dict[str, tuple[int, int]]:
    """Warehouse table -> (rows of the partition, rows in all)."""
    document, year = PARTITION
    out = {}
    with duckdb.connect(str(data_dir / "warehouse.duckdb"), read_only=True) as con:
        tables = [row[0] for row in con.execute(
            "select table_name from information_schema.tables where table_schema = 'rag'"
        ).fetchall()]
        for table in tables:
            mine = con.execute(f"select count(*) from rag.{table} where document = ? and year = ?",
                               [document, year]).fetchone()[0]
            out[table] = (mine, con.execute(f"select count(*) from rag.{table}").fetchone()[0])
    return out


def test_a_killed_ingest_does_not_wedge_the_next_one(tmp_path, report, instance_of):
    home = new_home(tmp_path)
    instance = instance_of(home)  # the schema exists before the commands start
    first = ingest(tmp_path, home, report, "killed")
    try:
        run = wait_until(lambda: cli_run(instance), 60, "a run recorded", first)
        # the ingest step holds the slot of pool duckdb_writer while it writes its tables
        wait_until(lambda: step_started(instance, run.run_id, "ingest_report"), 60,
                   "ingest_report started", first)
        os.killpg(first.pid, signal.SIGKILL)
        first.process.wait(10)
    finally:
        first.kill()
    dead = instance.get_run_by_id(run.run_id)
    assert dead.status == dg.DagsterRunStatus.STARTED  # what the kill leaves
    assert claims(instance).get(run.run_id) == {POOL}  # ... holding the pool's only slot

    second = ingest(tmp_path, home, report, "again")
    assert second.wait(120) == 0, second.stdout() + second.stderr()
    out = second.stdout()
    said = [line for line in out.splitlines() if run.run_id[:8] in line]
    assert len(said) == 1, out
    assert said[0] == (f"failed run {run.run_id[:8]} (cli-ingest acme-annual|2023, started): "
                       f"its process {first.pid} on {socket.gethostname()} is gone; freed its 1 "
                       f"slot of pool {POOL}")
    assert "Traceback" not in second.stderr()
    dead = instance.get_run_by_id(run.run_id)
    assert dead.status == dg.DagsterRunStatus.FAILURE
    failure = instance.all_logs(run.run_id, of_type=dg.DagsterEventType.RUN_FAILURE)
    assert len(failure) == 1 and f"its process {first.pid}" in failure[0].dagster_event.message
    assert claims(instance) == {}  # nothing claimed or waiting any more
    runs = instance.get_runs()
    assert [r.status for r in runs] == [dg.DagsterRunStatus.SUCCESS,
                                       dg.DagsterRunStatus.FAILURE]

    # the partition once, whole: counts the report fixes, and the rerun's own chunk counts
    chunks = {}
    for event in instance.get_records_for_run(
            runs[0].run_id, of_type=dg.DagsterEventType.ASSET_MATERIALIZATION).records:
        materialization = event.event_log_entry.asset_materialization
        if materialization.asset_key.path[-1] in ("naive_chunks", "enriched_chunks"):
            chunks[materialization.asset_key.path[-1]] = materialization.metadata["chunks"].value
    assert set(chunks) == {"naive_chunks", "enriched_chunks"} and all(chunks.values())
    # the CLI's executor counts as in-process: an embedding step gets every core of the run
    logs = [e.user_message for e in instance.all_logs(runs[0].run_id) if not e.is_dagster_event]
    assert sum("1 embedding step(s) at once" in m for m in logs) == 2
    rows = partition_rows(tmp_path / "data")
    expected = {"raw_pages": PAGES, "stitched_text": PAGES, "footnote_dictionary": DEFINITIONS,
                "footnote_registry": CITATIONS, **chunks}
    assert {table: rows[table] for table in expected} == {
        table: (count, count) for table, count in expected.items()}
    assert all(mine == every for mine, every in rows.values())  # no other partition anywhere
    store = lancedb.connect(str(tmp_path / "data" / "lancedb"))
    document, year = PARTITION
    for kind in ("naive", "enriched"):
        [name] = [t for t in store.list_tables().tables if t.startswith(f"{kind}_chunks_v2__")]
        table = store.open_table(name)
        assert table.count_rows(f"document = '{document}' AND year = {year}") == \
            table.count_rows() == chunks[f"{kind}_chunks"]


def test_sigterm_stops_a_command_waiting_for_a_pool_slot(tmp_path, report, instance_of):
    home = new_home(tmp_path)
    instance = instance_of(home)
    released = threading.Event()

    @dg.op(pool=POOL)
    def hold() -> None:
        released.wait(120)

    @dg.job
    def holder() -> None:
        hold()

    holding = threading.Thread(target=lambda: holder.execute_in_process(
        instance=instance, raise_on_error=False))
    holding.start()
    waiter = None
    try:
        holder_run = wait_until(lambda: next(iter(
            r for r in instance.get_runs() if claims(instance).get(r.run_id) == {POOL}), None),
            30, "the holder's slot claimed")
        waiter = ingest(tmp_path, home, report, "waiter")
        notice = wait_until(
            lambda: next((line for line in waiter.stdout().splitlines() if "waits for" in line),
                         None), 60, "a line saying what the step waits for", waiter)
        assert notice == (
            f"  {PARTITION[0]}|{PARTITION[1]}  ingest_report waits for a slot of pool {POOL} "
            f"(limit 1): held by run {holder_run.run_id[:8]} (step hold of holder, started, "
            "launched outside rag-assets)")
        run = cli_run(instance)
        engine = instance.all_logs(run.run_id, of_type=dg.DagsterEventType.ENGINE_EVENT)
        blocked = next(e.timestamp for e in engine
                       if e.dagster_event.message.startswith("Step blocked by limit for pool"))
        said = next(e.timestamp for e in engine if "waits for a slot" in e.dagster_event.message)
        assert said - blocked <= 10.0
        # waiting does not spin: Dagster 1.13.27's in-process loop polled the claim at 100% CPU
        used = cpu_seconds(waiter.pid)
        time.sleep(2.0)  # a rate: CPU seconds over two seconds of waiting
        assert cpu_seconds(waiter.pid) - used < 0.25

        signalled = time.monotonic()
        os.kill(waiter.pid, signal.SIGTERM)
        code = waiter.wait(10.0)
        # the run itself stopped, well before the watchdog's grace (6 s) would have ended it
        assert time.monotonic() - signalled < 5.0
        assert code == 128 + signal.SIGTERM
        assert_canceled_by_the_run(instance, run.run_id, "SIGTERM")
        assert waiter.stdout().splitlines()[-1] == (
            f"stopped by SIGTERM: run {run.run_id[:8]} (cli-ingest acme-annual|2023) canceled, "
            "its pool slots freed")
        assert "Traceback" not in waiter.stderr()
        assert instance.get_run_by_id(run.run_id).status == dg.DagsterRunStatus.CANCELED
        assert claims(instance) == {holder_run.run_id: {POOL}}  # the waiter's claim is gone
    finally:
        released.set()
        holding.join(60)
        if waiter is not None:
            waiter.kill()
    assert instance.get_run_by_id(holder_run.run_id).status == dg.DagsterRunStatus.SUCCESS
    assert claims(instance) == {}


def test_sigint_stops_a_command_in_the_middle_of_a_step(tmp_path, report, instance_of):
    """The run ends itself on Ctrl-C, canceled by the step's own interruption: the step is held
    in its middle by ``step_gate`` (the report is read in under a second, and a signal sent on
    the step's start had found the run over), and the watchdog is given more time than a loaded
    machine takes (on two busy cores the step took over 6 s to stop), so neither which of the
    two ended the run nor whether the step was still running depends on the machine's speed."""
    home = new_home(tmp_path)
    instance = instance_of(home)
    gate = tmp_path / "gate"
    gate.mkdir()
    command = ingest(tmp_path, home, report, "interrupted", env={
        "RAG_ASSETS_STOP_GRACE_SECONDS": "120", "RAG_ASSETS_TEST_STEP_GATE": str(gate),
        "PYTHONPATH": os.pathsep.join([str(STEP_GATE), str(REPO)])})
    try:
        run = wait_until(lambda: cli_run(instance), 60, "a run recorded", command)
        # the ingest step, holding the duckdb_writer slot, held by the gate before its reading
        wait_until(lambda: (gate / "entered").exists(), 60, "the ingest step's reading", command)
        assert step_started(instance, run.run_id, "ingest_report")
        os.kill(command.pid, signal.SIGINT)
        assert command.wait(150.0) == 128 + signal.SIGINT
    finally:
        command.kill()
    assert_canceled_by_the_run(instance, run.run_id, "SIGINT")  # not from outside
    assert "still running" not in command.stdout()  # the watchdog said nothing
    assert command.stdout().splitlines()[-1].startswith(
        f"stopped by SIGINT: run {run.run_id[:8]} ")
    assert "Traceback" not in command.stderr()
    assert instance.get_run_by_id(run.run_id).status == dg.DagsterRunStatus.CANCELED
    assert claims(instance) == {}


DEAF = """
import signal, sys, time
from rag_assets.runtime.processes import STOP
STOP.install(grace=1.0, on_deadline=lambda n: print("deadline", n, flush=True))
signal.signal(signal.SIGTERM, lambda *a: None)  # a handler that only sets a flag nobody reads
print("ready", flush=True)
while True:
    time.sleep(0.1)
"""


def test_a_command_deaf_to_sigterm_is_ended_by_the_watchdog(tmp_path):
    process = subprocess.Popen([sys.executable, "-c", DEAF], cwd=REPO,  # noqa: S603
                               stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline() == "ready\n"
        signalled = time.monotonic()
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 128 + signal.SIGTERM
        assert 1.0 <= time.monotonic() - signalled < 5.0
        assert process.stdout.read() == f"deadline {int(signal.SIGTERM)}\n"
    finally:
        if process.poll() is None:
            process.kill()


def test_two_commands_at_once_on_a_new_instance_both_succeed(tmp_path, instance_of):
    """Both commands meet a new DAGSTER_HOME whose instance lock a third party (this test)
    holds: each says so in one line and creates nothing; released, they contend in lock-step
    (unlocked, two commands created the schema twice: ``table secondary_indexes already
    exists``), and both succeed."""
    home = new_home(tmp_path)  # its dagster.yaml only: the commands create the instance
    data = tmp_path / "data"
    data.mkdir()
    duckdb.connect(str(data / "warehouse.duckdb")).close()  # an empty warehouse to report on
    documents = ("acme", "beta")
    with (home / ".rag-assets-instance.lock").open("a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        lock.write(str(os.getpid()))
        lock.flush()
        commands = [Command(tmp_path, home, document, "report", "--partition",
                            f"{document}|2023", "--data-dir", str(data))
                    for document in documents]
        for command in commands:
            wait_until(lambda c=command: "waiting for" in c.stdout(), 60,
                       "the command waiting for the instance lock", command)
        assert sorted(p.name for p in home.iterdir()) == [".rag-assets-instance.lock",
                                                           "dagster.yaml"]
        fcntl.flock(lock, fcntl.LOCK_UN)
    codes = [command.wait(120) for command in commands]
    for command in commands:
        assert "Traceback" not in command.stderr(), command.stderr()
    assert codes == [0, 0], [c.stdout() + c.stderr() for c in commands]
    for command, document in zip(commands, documents, strict=True):
        lines = command.stdout().splitlines()
        assert [line for line in lines if "waiting for" in line] == [
            f"waiting for {home}/.rag-assets-instance.lock: another rag-assets command "
            f"(pid {os.getpid()}) is opening the instance"]
        assert any(line.startswith(f"audit report of {document}|2023") for line in lines)
    instance = instance_of(home)
    assert sorted(instance.get_dynamic_partitions("report")) == [f"{d}|2023" for d in documents]
    assert [r.status for r in instance.get_runs()] == [dg.DagsterRunStatus.SUCCESS] * 2
