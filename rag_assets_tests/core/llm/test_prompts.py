"""The prompts ship inside the package: the loader's default folder is the package's own, and
pyproject.toml's package data takes every prompt file in it, so an installed wheel can answer."""

import fnmatch
import tomllib
from pathlib import Path

import rag_assets
from rag_assets.core.llm.prompts import PACKAGED_PROMPTS, load_prompt, prompts_dir

REPO = Path(__file__).resolve().parents[3]


def test_the_default_prompts_are_the_packages_own(monkeypatch) -> None:
    monkeypatch.delenv("RAG_ASSETS_PROMPTS_DIR", raising=False)  # the folder's setting unset
    package = Path(rag_assets.__file__).parent
    assert prompts_dir() == PACKAGED_PROMPTS == package / "prompts"
    assert load_prompt("system").filename == str(package / "prompts" / "system.txt")


def test_the_package_data_takes_every_prompt() -> None:
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    patterns = setuptools["setuptools"]["package-data"]["rag_assets"]
    files = [p.relative_to(PACKAGED_PROMPTS.parent).as_posix()
             for p in sorted(PACKAGED_PROMPTS.iterdir()) if p.suffix == ".txt"]
    assert "prompts/system.txt" in files
    assert [f for f in files if not any(fnmatch.fnmatch(f, pat) for pat in patterns)] == []


def test_a_folder_given_replaces_the_packages(tmp_path: Path) -> None:
    """What the prompt folder's setting hands the loader: other wording, same names."""
    (tmp_path / "system.txt").write_text("Other wording.", encoding="utf-8")
    assert load_prompt("system", tmp_path).render() == "Other wording."
    assert load_prompt("system").render() != "Other wording."
