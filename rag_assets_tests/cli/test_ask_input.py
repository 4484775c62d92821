"""``rag-assets ask`` on hostile input and broken stores (issue 36 item 4): every case exits 2
with one line naming the cause (and the store and what to run), never a traceback.

The stores are small and real: the first pages of 3M's 2018 10-K (``real_filings``, parsed once
per test process) in a DuckDB warehouse's ``raw_pages``, as the ``raw_pages`` asset writes
them; the damaged ones are copies of it or folders next to it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from rag_assets.cli import main
from rag_assets.cli.ask import _record
from rag_assets.core.generation.records import QAResult
from rag_assets.core.warehouse.connection import connect_warehouse, is_lock_conflict
from rag_assets.core.warehouse.tables import pages_to_frame
from rag_assets_tests.real_filings import CORPORA, real_filing

THREE_M = CORPORA / "sec-10k" / "3M_2018_10K.pdf"
CLI = Path(sys.executable).with_name("rag-assets")
REBUILD = "rag-assets ingest"


@pytest.fixture(scope="module")
def warehouse_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder whose warehouse holds 3M's first pages (partition 3m-10k|2018), no
    vectors."""
    if not THREE_M.is_file():
        pytest.skip(f"{THREE_M} not found")
    pages = real_filing(THREE_M).pages[:4]
    frame = pages_to_frame(pages, "3m-10k", 2018, THREE_M.name, "0" * 64)
    data = tmp_path_factory.mktemp("ask") / "data"
    data.mkdir()
    with duckdb.connect(str(data / "warehouse.duckdb")) as con:
        con.execute("create schema rag")
        con.register("pages", frame)
        con.execute("create table rag.raw_pages as select * from pages")
    return data


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one line ``rag-assets ask`` prints when it refuses ``argv`` with exit 2."""
    assert main(["ask", *argv]) == 2
    out, err = capsys.readouterr()
    assert not out and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(("question", "cause"), [
    ("", "the question is empty"), (" \t ", "the question is blank"),
    ("\x07\x1b", "the question is only control or invisible characters")])
def test_an_empty_question_exits_2_with_the_usage_and_the_cause(capsys, question, cause) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["ask", question, "--data-dir", "/nonexistent"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: rag-assets ask") and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith(f"rag-assets ask: error: {cause}")


def test_an_overlong_question_is_refused_before_any_store_is_opened(capsys) -> None:
    line = refused(capsys, ["What was 3M's revenue? " * 200, "--data-dir", "/nonexistent"])
    assert "4,599 characters long" in line and "max_question_chars" in line


def test_a_100_kb_command_line_is_one_line_not_a_segfault() -> None:
    """onnxruntime's import overflows its stack past a 32 KiB command line (SIGSEGV)."""
    done = subprocess.run([str(CLI), "ask", "What was 3M's revenue? " * 4400],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and not done.stdout
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "command line is 101,2" in done.stderr and "16,384" in done.stderr


def test_control_characters_are_asked_as_spaces(warehouse_only, capsys, monkeypatch) -> None:
    """The question reaches the engine normalized: control characters spaced, a soft hyphen
    removed, white space collapsed."""
    import rag_assets.cli.ask as ask

    asked: list[str] = []

    def stop(args):  # the engine is not built: the question it would be asked is enough
        asked.append(args.question)
        raise ask.StoreFault("stopped by the test")

    monkeypatch.setattr(ask, "_answerer", stop)
    line = refused(capsys, ["What\x1b[31m was\x07 3M's re\u00advenue?",
                            "--data-dir", str(warehouse_only)])
    assert line == "cannot answer: stopped by the test"
    assert asked == ["What [31m was 3M's revenue?"]


def test_a_stale_partition_is_one_line_that_says_to_ingest_it_again(warehouse_only, capsys,
                                                                    monkeypatch) -> None:
    import rag_assets.cli.ask as ask
    from rag_assets.core.warehouse.tables import StaleTable

    class Stale:
        def ask(self, *args):
            raise StaleTable("raw_pages of 3m-10k 2018 written with an older layout (this "
                             "version reads layout 3): ingest it again")

    monkeypatch.setattr(ask, "_answerer", lambda args: Stale())
    line = refused(capsys, ["What was 3M's revenue?", "--data-dir", str(warehouse_only)])
    assert line.startswith("cannot answer: raw_pages of 3m-10k 2018 written with an older")
    assert line.endswith("ingest it again")


def test_an_unknown_year_names_the_documents_years(warehouse_only, capsys) -> None:
    line = refused(capsys, ["What was 3M's revenue?", "--document", "3m-10k", "--year", "99999",
                            "--data-dir", str(warehouse_only)])
    assert line.endswith("--year 99999 is not indexed for 3m-10k; its indexed years: 2018")
    line = refused(capsys, ["What was 3M's revenue?", "--year", "2031",
                            "--data-dir", str(warehouse_only)])
    assert line.endswith("--year 2031 is not indexed; indexed years: 2018")


def test_a_missing_lancedb_folder_is_named_with_what_to_run(warehouse_only, capsys) -> None:
    line = refused(capsys, ["What was 3M's revenue?", "--data-dir", str(warehouse_only)])
    assert f"no LanceDB store {warehouse_only / 'lancedb'}" in line and REBUILD in line
    assert not (warehouse_only / "lancedb").exists()  # a reader creates no store


def test_a_damaged_lancedb_folder_is_one_line(warehouse_only, tmp_path, capsys) -> None:
    import shutil

    from rag_assets.core.retrieval.embeddings import Embedder
    from rag_assets.core.retrieval.store import VectorStore

    data = Path(shutil.copytree(warehouse_only, tmp_path / "data"))
    embedder = Embedder()
    store = VectorStore(data / "lancedb", embedder.slug, embedder.dimension)
    for kind in ("naive", "enriched"):
        store.table(kind)
        shutil.rmtree(data / "lancedb" / f"{store.table_name(kind)}.lance" / "_versions")
    line = refused(capsys, ["What was 3M's revenue?", "--data-dir", str(data)])
    assert f"the LanceDB store {data / 'lancedb'} cannot be read" in line and REBUILD in line


def damaged(data: Path, how: str) -> None:
    path = data / "warehouse.duckdb"
    if how == "random bytes":
        path.write_bytes(bytes(range(256)) * 4096)
    elif how == "truncated":
        with path.open("r+b") as handle:
            handle.truncate(12_288)
    else:  # a valid DuckDB file of another program
        path.unlink()
        with duckdb.connect(str(path)) as con:
            con.execute("create table customers as select 1 as id")


@pytest.mark.parametrize(("how", "cause"), [
    ("random bytes", "not a valid DuckDB database file"),
    ("truncated", "Could not read enough bytes"), ("foreign", "no table raw_pages in")])
def test_a_damaged_or_foreign_warehouse_is_one_line_at_once(warehouse_only, tmp_path, capsys,
                                                           how, cause) -> None:
    import shutil

    data = Path(shutil.copytree(warehouse_only, tmp_path / "data"))
    damaged(data, how)
    line = refused(capsys, ["What was 3M's revenue?", "--data-dir", str(data)])
    assert str(data / "warehouse.duckdb") in line and cause in line and REBUILD in line


def test_an_empty_or_missing_data_folder_says_what_to_run(tmp_path, capsys) -> None:
    line = refused(capsys, ["What was 3M's revenue?", "--data-dir", str(tmp_path)])
    assert line.startswith(f"cannot answer: nothing indexed under {tmp_path}") and REBUILD in line
    line = refused(capsys, ["What?", "--data-dir", str(tmp_path / "nowhere")])
    assert line.startswith(f"cannot answer: no data folder {tmp_path / 'nowhere'}")


HOLD_LOCK = ("import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', flush=True);"
             " time.sleep(30)")


def test_only_a_lock_conflict_is_waited_for_and_an_audit_row_that_waits_too_long_is_a_note(
        warehouse_only, tmp_path, capsys, monkeypatch) -> None:
    path = warehouse_only / "warehouse.duckdb"
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(duckdb.IOException) as held:
            connect_warehouse(path, read_only=True, wait_seconds=0)
        assert is_lock_conflict(held.value)
        monkeypatch.setattr("rag_assets.cli.ask.AUDIT_WAIT_SECONDS", 0.5)
        args = type("Args", (), {"data_dir": warehouse_only, "document": None, "year": None})
        _record(args, QAResult(question="What was 3M's revenue?", answer="$32,765 million"))
    finally:
        holder.kill()
        holder.wait()
    err = capsys.readouterr().err.strip()
    assert err.startswith("note: the answer was not added to answer_audit in ")
    assert "Conflicting lock" in err and len(err.splitlines()) == 1
    random = tmp_path / "random.duckdb"
    random.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(duckdb.IOException) as foreign:
        connect_warehouse(random, read_only=True)
    assert not is_lock_conflict(foreign.value)
