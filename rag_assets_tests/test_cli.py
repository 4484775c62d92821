"""The ``rag-assets`` command line: ``ingest`` (argument errors, a real run), the demo table and
its progress lines, and the quiet console logger that still records everything in the instance."""

from __future__ import annotations

import io
import logging
import time
from pathlib import Path
from types import SimpleNamespace

import dagster as dg
import pytest

from rag_assets.cli import main
from rag_assets.cli.ingest import IngestError, check_ingest
from rag_assets.cli.output import (
    SAMPLE_QUESTION,
    command_name,
    demo_table,
    partition_line,
    partition_row,
)
from rag_assets.cli.progress import Progress
from rag_assets.cli.runs import error_line, materialize
from rag_assets.defs.partitions import partition_key, register_partitions

NOTE = (
    "Acme quarterly note\n"
    "Revenue grew 12% to $40 million [1]. Costs were flat.\n"
    "__________\n"
    "[1] Includes $6 million from the Harbor acquisition.\n"
)


@pytest.fixture
def report(tmp_path: Path) -> Path:
    path = tmp_path / "inbox" / "note.txt"
    path.parent.mkdir()
    path.write_text(NOTE, encoding="utf-8")
    return path


@pytest.fixture
def dagster_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "dagster_home"
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    return home


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def ingest(path: Path, data_dir: Path, document: str = "acme-note", year: str = "2023") -> int:
    return main(["ingest", str(path), "--document", document, "--year", year,
                 "--data-dir", str(data_dir)])


@pytest.mark.parametrize(
    ("document", "year", "name", "expected"),
    [
        ("Acme Note", "2023", "note.txt", "try --document acme-note"),
        ("acme_note", "2023", "note.txt", "try --document acme-note"),
        ("___", "2023", "note.txt", "must be lowercase letters, digits and dashes, starting"),
        ("acme-note", "23", "note.txt", "year '23' must be a four-digit year"),
        ("acme-note", "3023", "note.txt", "year '3023'"),
        ("acme-note", "2023", "missing.txt", "missing.txt: no such file"),
        ("acme-note", "2023", "note.docx", "note.docx: unsupported file type"),
    ],
)
def test_ingest_argument_errors_exit_2_with_one_line_and_copy_nothing(
    tmp_path, report, dagster_home, capsys, document, year, name, expected
):
    source = report.with_name(name)
    if name.endswith(".docx"):
        source.write_text(NOTE, encoding="utf-8")
    data_dir = tmp_path / "data"
    assert ingest(source, data_dir, document, year) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("rag-assets ingest: error: ")
    assert expected in err
    assert not data_dir.exists()
    assert not dagster_home.exists()  # no instance touched, no partition registered


def test_ingest_refuses_a_second_report_in_the_partition_folder(tmp_path, report, capsys):
    folder = tmp_path / "data" / "reports" / "acme-note" / "2023"
    folder.mkdir(parents=True)
    (folder / "other.pdf").write_bytes(b"%PDF-1.7")
    assert ingest(report, tmp_path / "data") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "already holds other.pdf" in err and "note.txt" in err
    assert files_under(tmp_path / "data") == ["reports/acme-note/2023/other.pdf"]


def test_a_file_of_the_same_name_is_replaced_and_non_reports_do_not_count(tmp_path, report):
    reports = tmp_path / "data" / "reports"
    folder = reports / "acme-note" / "2023"
    folder.mkdir(parents=True)
    (folder / "note.txt").write_text("an older version", encoding="utf-8")
    (folder / "README.md").write_text("not a report", encoding="utf-8")
    (folder / ".note.txt.partial").write_text("hidden", encoding="utf-8")
    assert check_ingest(report, "acme-note", "2023", reports) == folder / "note.txt"
    with pytest.raises(IngestError, match="no such file"):
        check_ingest(report.with_name("gone.pdf"), "acme-note", "2023", reports)


def test_quiet_console_still_records_info_events_in_the_instance(tmp_path, report, capfd):
    data_dir = tmp_path / "data"
    filed = data_dir / "reports" / "acme-note" / "2023" / "note.txt"
    filed.parent.mkdir(parents=True)
    filed.write_text(NOTE, encoding="utf-8")
    with dg.DagsterInstance.ephemeral() as instance:
        register_partitions(instance, [partition_key("acme-note", "2023")])
        progress = Progress("acme-note|2023", stream=io.StringIO())
        result = materialize(dg.AssetSelection.assets("raw_pages"), data_dir, instance,
                             ("acme-note", 2023), on_event=progress.on_event)
        assert result.success
        logs = instance.all_logs(result.run_id)
    out, err = capfd.readouterr()
    assert " - dagster - " not in out + err  # nothing of Dagster's log on the terminal
    messages = [e.user_message for e in logs if e.level == logging.INFO and not e.is_dagster_event]
    assert any(m.startswith("note.txt: 1 pages") for m in messages)  # but all of it in the run
    assert progress.step == "ingest_report"  # the listener saw the run's events as they came
    assert progress.detail.startswith("note.txt: 1 pages")


def test_a_failed_ingest_run_exits_1_with_its_one_line_reason(tmp_path, dagster_home, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert ingest(empty, tmp_path / "data") == 1
    out, err = capsys.readouterr()
    failed = [line for line in out.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 1
    assert failed[0].startswith("FAILED acme-note|2023: ingest_report: cannot ingest empty.txt")
    assert " - dagster - " not in out + err
    assert (tmp_path / "data" / "reports" / "acme-note" / "2023" / "empty.txt").exists()


@pytest.mark.slow
def test_ingest_files_the_report_runs_its_partition_and_prints_its_row(
    tmp_path, report, dagster_home, capfd
):
    data_dir = tmp_path / "data"
    assert ingest(report, data_dir) == 0
    out, err = capfd.readouterr()
    lines = out.splitlines()
    assert lines[0] == f"filed {data_dir}/reports/acme-note/2023/note.txt (138 bytes)"
    row = next(line for line in lines if line.startswith("acme-note|2023")).split()
    header = next(line for line in lines if line.startswith("partition"))
    assert "complete" in header and "lost" in header
    # pages tables footnotes stitched unresolved complete lost-words naive enriched ...
    assert row[1:6] == ["1", "0", "1", "1", "0"]
    assert row[6:8] == ["-", "0"]  # no ground truth for this report; no word lost in stitching
    assert row[8:12] == ["1", "1", "100%", "100%"]
    assert " - dagster - " not in out + err
    assert files_under(data_dir / "reports") == ["acme-note/2023/note.txt"]
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
        assert instance.get_dynamic_partitions("report") == ["acme-note|2023"]
        runs = instance.get_runs()
        assert len(runs) == 1 and runs[0].tags["rag-assets/source"] == "cli-ingest"
        logs = instance.all_logs(runs[0].run_id)
    infos = [e.user_message for e in logs if e.level == logging.INFO and not e.is_dagster_event]
    assert any(m.startswith("embeddings: ") and " computed" in m for m in infos)


@pytest.mark.slow
def test_demo_prints_a_progress_line_per_partition_then_the_table(tmp_path, dagster_home,
                                                                  capfd):
    code = main(["demo", "--data-dir", str(tmp_path / "data"), "--corpora",
                 str(tmp_path / "no-corpora"), "--only", "footnote-rag-paper", "--no-eval"])
    assert code == 0
    out, err = capfd.readouterr()
    progress = [line for line in out.splitlines() if line.startswith("[")]
    assert len(progress) == 1
    assert progress[0].startswith("[1/1] footnote-rag-paper|2023  ")
    assert " pages " in progress[0] and " footnotes " in progress[0]
    # a generated report: its definitions are measured against the ground truth written with it
    assert "% complete  0 words lost  " in progress[0]
    assert progress[0].endswith(" s")
    assert " - dagster - " not in out + err
    lines = out.splitlines()
    table_end = next(i for i, line in enumerate(lines) if line.startswith("footnote-rag-paper|"))
    assert lines[table_end + 1].startswith("  complete: definitions found whole; ")
    # the last lines: a question to ask, as make and the script run it, then the UI
    assert f'  make ask Q="{SAMPLE_QUESTION}"' in lines[-4:]
    assert any(line.startswith(f'  {command_name()} ask "{SAMPLE_QUESTION}"')
               for line in lines[-4:])
    assert lines[-1].startswith("Open the UI with `make ui` (http://")


ROW_META = {
    "raw_pages": {"pages": 8, "tables": 3},
    "footnote_dictionary": {"footnotes": 46, "definitions_complete": 0.9783},
    "footnote_registry": {"stitched": 50, "unresolved": 1},
    "naive_chunks": {"chunks": 30},
    "enriched_chunks": {"chunks": 28},
    "naive_vectors": {"embeddings_computed": 30},
    "enriched_vectors": {"embeddings_computed": 20},
}
ROW_CHECKS = {
    "footnote_colocation": {"naive_colocation": 0.41, "enriched_colocation": 1.0},
    "text_conservation": {"words_lost": 3},
}


def test_demo_table_shows_completeness_and_lost_words_or_a_dash():
    full = partition_row("earnings", 2024, ROW_META, ROW_CHECKS, 12.34)
    assert full["complete"] == "97%" and full["lost_words"] == 3
    assert full["embedded"] == 50 and full["seconds"] == 12.3
    bare = partition_row("gdpr", 2016, {k: v for k, v in ROW_META.items()
                                        if k != "footnote_dictionary"},
                         {"footnote_colocation": ROW_CHECKS["footnote_colocation"]}, 1.0)
    assert bare["complete"] == "-" and bare["lost_words"] == "-"
    # 0.999 is not complete: shares are rounded down
    almost = dict(ROW_META, footnote_dictionary={"footnotes": 1, "definitions_complete": 0.999})
    assert partition_row("x", 2024, almost, {}, 0)["complete"] == "99%"
    table = demo_table([full, bare]).splitlines()
    assert "complete" in table[0] and "lost" in table[0] and "words" in table[1]
    assert table[3].split()[6:8] == ["97%", "3"]
    assert table[4].split()[6:8] == ["-", "-"]
    assert len({len(table[i]) for i in (0, 2, 3, 4)}) == 1  # one aligned table


def test_partition_line_says_what_the_run_did_or_why_it_failed():
    row = partition_row("earnings", 2024, ROW_META, ROW_CHECKS, 12.34)
    assert partition_line(row, 3, 14, 12) == (
        "[ 3/14] earnings|2024  8 pages  3 tables  46 footnotes  50 stitched  1 unresolved  "
        "97% complete  3 words lost  30/28 naive/enriched chunks  50 embedded  12.3 s"
    )
    scanned = partition_row("scan", 2024, {**ROW_META, "raw_pages": {
        "pages": 3, "tables": 0, "ocr_pages": 0, "pages_without_text": 1}}, ROW_CHECKS, 1.0)
    assert partition_line(scanned, 1, 1).startswith(
        "[1/1] scan|2024  3 pages  1 page without text (scanned?)  0 tables")
    read = partition_row("scan", 2024, {**ROW_META, "raw_pages": {
        "pages": 3, "tables": 0, "ocr_pages": 2, "pages_without_text": 0}}, ROW_CHECKS, 1.0)
    assert "  3 pages  2 pages read by OCR  0 tables" in partition_line(read, 1, 1)
    failed = partition_row("broken", 2024, {}, {}, 0.42, "raw_pages: cannot ingest x.pdf")
    assert partition_line(failed, 1, 2) == (
        "[1/2] broken|2024  FAILED raw_pages: cannot ingest x.pdf  0.4 s"
    )


def test_a_wrapped_error_is_reported_by_its_root_cause():
    cause = SimpleNamespace(cls_name="BinderException", cause=None, message=(
        '_duckdb.BinderException: Binder Error: Table "raw_pages" does not have a column with '
        'name "line_sizes"\n\nDid you mean: "note_lines"\n'))
    wrapper = SimpleNamespace(cls_name="DagsterExecutionHandleOutputError", cause=cause, message=(
        'dagster._core.errors.DagsterExecutionHandleOutputError: Error occurred while handling '
        'output "result" of step "raw_pages":\n'))
    assert error_line(wrapper) == (
        'BinderException: Binder Error: Table "raw_pages" does not have a column with name '
        '"line_sizes"'
    )
    assert error_line(SimpleNamespace(cls_name="OSError", cause=None, message="")) == "OSError"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def step_start(step: str) -> SimpleNamespace:
    event = SimpleNamespace(event_type_value="STEP_START", step_key=step)
    return SimpleNamespace(dagster_event=event, level=logging.DEBUG, user_message="")


def message(text: str, level: int = logging.INFO) -> SimpleNamespace:
    return SimpleNamespace(dagster_event=None, level=level, user_message=text)


def wait_for(predicate, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_progress_ticks_on_one_line_on_a_terminal_and_clears_it():
    stream = Terminal()
    with Progress("[2/3] acme|2023", stream=stream, interval=0.01) as progress:
        progress.on_event(step_start("naive_vectors"))
        progress.on_event(message("debug noise", logging.DEBUG))
        progress.on_event(message("embedded 1024/2100 new texts\nsecond line"))
        wait_for(lambda: "embedded" in stream.getvalue())
    text = stream.getvalue()
    assert "\n" not in text  # one line, rewritten
    assert "\r[2/3] acme|2023  0 s  naive_vectors 0 s: embedded 1024/2100 new texts" in text
    assert "debug noise" not in text and "second line" not in text
    assert text.endswith("\r") and text.rsplit("\r", 2)[-2].strip() == ""  # cleared


def test_progress_writes_a_heartbeat_line_when_not_a_terminal():
    stream = io.StringIO()
    with Progress("acme|2023", stream=stream, interval=0.01) as progress:
        progress.on_event(step_start("raw_pages"))
        wait_for(lambda: stream.getvalue().count("\n") >= 2)
    lines = stream.getvalue().splitlines()
    assert lines and all(line.startswith("  ... acme|2023  ") for line in lines)
    assert "\r" not in stream.getvalue()
    assert Progress("x", stream=io.StringIO()).interval == 60.0  # a line a minute by default
