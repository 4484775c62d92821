"""The ``rag-assets`` parser as a person meets it: ``--version`` and a misspelt command."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import pytest

from rag_assets.cli import main
from rag_assets.cli.app import build_parser, check_command


def test_version_prints_the_installed_version() -> None:
    done = subprocess.run([sys.executable, "-m", "rag_assets.cli", "--version"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"rag-assets {version('rag-assets')}"


@pytest.mark.parametrize(("typed", "meant"), [
    ("ak", "ask"), ("aks", "ask"), ("demoo", "demo"), ("bakfill", "backfill"),
    ("ingets", "ingest"), ("setting", "settings")])
def test_a_misspelt_command_exits_2_naming_the_closest(capsys, typed: str, meant: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main([typed, "What was revenue?"])
    assert exited.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error == f"rag-assets: error: unknown command {typed!r}; did you mean {meant!r}?"


def test_a_word_like_no_command_lists_the_commands(capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["zzzz"])
    assert exited.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("rag-assets: error: unknown command 'zzzz'; the commands: sample, ")
    assert "did you mean" not in error


def test_only_the_command_word_is_checked() -> None:
    """A question, a path or an option's value that looks like a misspelt command is not one."""
    parser = build_parser()
    for argv in (["ask", "demoo"], ["--version"], [], ["ingest", "bakfill", "--document", "a"]):
        check_command(parser, argv)  # returns: argparse parses the rest
