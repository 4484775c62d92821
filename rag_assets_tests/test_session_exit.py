"""The test session's setup and quiet exit (``rag_assets_tests/conftest.py``): a suite started
as a background job keeps SIGTERM for the processes its tests start, and the quiet exit keeps
pytest's exit status and summary (a failure still fails the run)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parent / "conftest.py"
REPO = CONFTEST.parent.parent
TESTS = '''
import duckdb


def test_fails():
    assert duckdb.connect().execute("select 1").fetchall() == [(2,)]


def test_passes():
    assert True
'''


def child_env() -> dict[str, str]:
    """The conftest imports ``rag_assets_tests``, which the wheel does not ship: the copied
    suite finds it on the repository's path, as the real suite does from its root."""
    env = {k: v for k, v in os.environ.items() if k != "RAG_ASSETS_TEARDOWN"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=folder, capture_output=True, text=True, timeout=120, env=child_env(),
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "test_tiny.py").write_text(TESTS, encoding="utf-8")
    return tmp_path


BACKGROUND_TESTS = '''
import signal
import subprocess

import dagster as dg


@dg.asset
def one() -> int:
    return 1


def test_a_child_started_after_a_run_stops_at_sigterm():
    assert dg.materialize([one]).success
    child = subprocess.Popen(["sleep", "30"])
    child.terminate()
    assert child.wait(10) == -signal.SIGTERM
'''


def test_a_suite_started_in_the_background_keeps_sigterm_for_its_children(tmp_path: Path):
    """A shell starts a background job with SIGINT ignored, and Dagster hands SIGINT's
    disposition to SIGTERM after an in-process run: without the conftest's ``pytest_configure``
    the child above ignores SIGTERM and the test fails after 10 s."""
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "test_background.py").write_text(BACKGROUND_TESTS, encoding="utf-8")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    result = subprocess.run(  # `trap "" INT`: what a shell's background job starts with
        ["sh", "-c", 'trap "" INT; exec "$@"', "sh", *command], cwd=tmp_path,
        capture_output=True, text=True, timeout=120, env=child_env())
    assert result.returncode == 0, result.stdout[-2000:]
    assert result.stdout.rstrip().splitlines()[-1].startswith("1 passed in ")


def test_a_failing_test_still_exits_1_with_its_summary(folder: Path):
    result = run_pytest(folder)
    assert result.returncode == 1
    assert "FAILED test_tiny.py::test_fails" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("1 failed, 1 passed in ")


def test_passing_and_empty_runs_keep_their_codes(folder: Path):
    assert run_pytest(folder, "-k", "passes").returncode == 0
    assert run_pytest(folder, "-k", "no_such_test").returncode == 5
