"""The README's commands run as printed: every ``rag-assets`` command of its fenced blocks is
written as the checkout runs it (``.venv/bin/rag-assets``: a bare ``rag-assets`` is "command not
found" without an activated venv) and names a command whose ``--help`` runs; every ``make``
target it names exists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
FENCED = re.findall(r"^```[a-z]*\n(.*?)^```", README, re.M | re.S)
ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")


def script_commands() -> list[tuple[str, str]]:
    """(the script as written, its first argument) of every fenced line that runs rag-assets:
    the line's first word after ``$ `` and any ``NAME=value`` is the script."""
    found = []
    for block in FENCED:
        for line in block.splitlines():
            words = [w for w in line.removeprefix("$ ").split() if not ASSIGNMENT.match(w)]
            if len(words) > 1 and words[0].endswith("rag-assets"):
                found.append((words[0], words[1]))
    return found


def test_the_readme_shows_rag_assets_commands_as_the_checkout_runs_them() -> None:
    commands = script_commands()
    assert {command for _, command in commands} >= {"ask", "ingest", "backfill"}
    assert {script for script, _ in commands} == {".venv/bin/rag-assets"}
    inline = re.findall(r"`([^`\n]*rag-assets [a-z][^`\n]*)`", README)
    assert inline and all(text.startswith(".venv/bin/rag-assets ") for text in inline), inline


@pytest.mark.parametrize("command", sorted({command for _, command in script_commands()}))
def test_each_readme_command_runs(command: str) -> None:
    done = subprocess.run([sys.executable, "-m", "rag_assets.cli", command, "--help"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: rag-assets {command} ")


def test_every_make_target_the_readme_names_exists() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, re.M))
    named = set(re.findall(r"(?:`|^)make ([a-z][a-z-]*)", README, re.M))
    assert {"demo", "ask", "ui", "test"} <= named
    assert named <= targets, named - targets
