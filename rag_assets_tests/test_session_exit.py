"""The test session's quiet exit (``rag_assets_tests/conftest.py``) keeps pytest's exit status
and summary: a failure still fails the run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parent / "conftest.py"
TESTS = '''
import duckdb


def test_fails():
    assert duckdb.connect().execute("select 1").fetchall() == [(2,)]


def test_passes():
    assert True
'''


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=folder, capture_output=True, text=True, timeout=120,
        env={k: v for k, v in os.environ.items() if k != "RAG_ASSETS_TEARDOWN"},
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "test_tiny.py").write_text(TESTS, encoding="utf-8")
    return tmp_path


def test_a_failing_test_still_exits_1_with_its_summary(folder: Path):
    result = run_pytest(folder)
    assert result.returncode == 1
    assert "FAILED test_tiny.py::test_fails" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("1 failed, 1 passed in ")


def test_passing_and_empty_runs_keep_their_codes(folder: Path):
    assert run_pytest(folder, "-k", "passes").returncode == 0
    assert run_pytest(folder, "-k", "no_such_test").returncode == 5
