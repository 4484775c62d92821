"""The cache of real filings' warmer (``make test`` starts it; the session stops it)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rag_assets_tests import real_filings
from rag_assets_tests.real_filings import CORPORA, named_filings, stop_warming


def test_the_warmer_loads_the_filings_the_tests_name() -> None:
    if not CORPORA.is_dir():
        pytest.skip(f"corpora not found at {CORPORA}")
    names = [path.name for path in named_filings()]
    assert "3M_2018_10K.pdf" in names  # named as CORPORA / "sec-10k" / "3M_2018_10K.pdf"
    assert "GENERALMILLS_2022_10K.pdf" in names  # named as "financebench-wide/pdfs/..."
    assert len(names) == len(set(names)) >= 40
    assert all(path.is_file() and CORPORA in path.parents for path in named_filings())


def test_a_pid_file_naming_another_process_kills_nothing(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A warmer that was killed leaves its pid file; that pid may be another process's by now."""
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"],
                                 start_new_session=True)
    pid_file = tmp_path / "warmer.pid"
    pid_file.write_text(str(bystander.pid), encoding="utf-8")
    monkeypatch.setattr(real_filings, "WARMER_PID", pid_file)
    try:
        stop_warming()
        time.sleep(0.2)
        assert bystander.poll() is None
        assert not pid_file.exists()
    finally:
        bystander.kill()
        bystander.wait()


def test_stopping_the_warmer_ends_its_process_group(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A process running the warmer's module, leading its group with a child, ends with it."""
    script = ("import os, subprocess, sys, time; os.setpgrp(); "
              "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)']); "
              "time.sleep(30)")
    warmer = subprocess.Popen([sys.executable, "-c", script, "rag_assets_tests.real_filings"])
    pid_file = tmp_path / "warmer.pid"
    pid_file.write_text(str(warmer.pid), encoding="utf-8")
    monkeypatch.setattr(real_filings, "WARMER_PID", pid_file)
    deadline = time.monotonic() + 10
    while os.getpgid(warmer.pid) != warmer.pid and time.monotonic() < deadline:
        time.sleep(0.05)
    group = warmer.pid
    stop_warming()
    assert warmer.wait(timeout=10) != 0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.killpg(group, 9)
        pytest.fail("the warmer's child outlived it")
    assert not pid_file.exists()


def test_the_warmer_loads_nothing_once_make_has_ended() -> None:
    """``make test`` stopped at a failing step: the warmer's ``--while`` process is gone, and
    no filing is parsed for a session that will not come."""
    if not CORPORA.is_dir():
        pytest.skip(f"corpora not found at {CORPORA}")
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    assert real_filings.warm(named_filings()[:2], while_alive=ended.pid) == 0
