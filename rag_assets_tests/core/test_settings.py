"""The one settings model reads the environment: every field by its nested variable, the fields
a deployment names most by their short one, an unknown field refused wherever it comes from; no
other module of the core reads the environment; the README's table is the model's own."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from rag_assets.cli.app import main
from rag_assets.core.settings import SHORT_NAMES, Settings
from rag_assets.core.settings_table import (
    END,
    START,
    sections_table,
    setting_rows,
    settings_table,
    table_region,
)

REPO = Path(__file__).resolve().parents[2]
# the test suite's own switches (rag_assets_tests/): they tune the tests, not the platform
TEST_SWITCHES = {"RAG_ASSETS_TEST_CACHE", "RAG_ASSETS_SCREENSHOTS", "RAG_ASSETS_TEARDOWN"}
# a value of each short variable that is not its field's default, and what the field then holds
SHORT_VALUES: dict[str, tuple[str, object]] = {
    "RAG_ASSETS_DATA_DIR": ("/srv/rag", "/srv/rag"),
    "RAG_ASSETS_LANCEDB_URI": ("s3://bucket/rag/lancedb", "s3://bucket/rag/lancedb"),
    "RAG_ASSETS_WAREHOUSE": ("postgresql://rag@db:5432/w", "postgresql://rag@db:5432/w"),
    "RAG_ASSETS_EMBED_BACKEND": ("torch", "torch"),
    "RAG_ASSETS_EXECUTOR": ("celery", "celery"),
    "RAG_ASSETS_CELERY_BROKER": ("redis://redis:6379/0", "redis://redis:6379/0"),
    "RAG_ASSETS_CELERY_BACKEND": ("redis://redis:6379/1", "redis://redis:6379/1"),
    "RAG_ASSETS_PRELOADED_LAUNCHER": ("0", False),
    "RAG_ASSETS_REINGEST_CRON": ("30 3 * * *", "30 3 * * *"),
    "RAG_ASSETS_SCHEDULE_TIMEZONE": ("Europe/Paris", "Europe/Paris"),
    "RAG_ASSETS_CORES": ("3", 3),
    "RAG_ASSETS_OCR": ("off", False),
    "RAG_ASSETS_ANN_INDEX_ROWS": ("2500", 2500),
    "RAG_ASSETS_PROMPTS_DIR": ("/srv/prompts", "/srv/prompts"),
    "RAG_ASSETS_ONNX_DIR": ("/srv/onnx", "/srv/onnx"),
    "RAG_ASSETS_UI_HOST": ("0.0.0.0", "0.0.0.0"),
    "RAG_ASSETS_UI_PORT": ("3300", 3300),
    "RAG_ASSETS_STOP_GRACE_SECONDS": ("30", 30.0),
}


@pytest.fixture(autouse=True)
def no_settings_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("RAG_ASSETS_"):
            monkeypatch.delenv(name)


def test_every_short_variable_sets_its_field(monkeypatch: pytest.MonkeyPatch) -> None:
    assert SHORT_VALUES.keys() == SHORT_NAMES.keys()
    defaults = Settings()
    for name, (value, expected) in SHORT_VALUES.items():
        section, field = SHORT_NAMES[name]
        assert getattr(getattr(defaults, section), field) != expected, name
        monkeypatch.setenv(name, value)
    settings = Settings()
    for name, (_, expected) in SHORT_VALUES.items():
        section, field = SHORT_NAMES[name]
        assert getattr(getattr(settings, section), field) == expected, name


def test_nested_variables_set_any_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_ASSETS_RETRIEVAL__K", "7")
    monkeypatch.setenv("RAG_ASSETS_ANSWER__EXTRACTIVE__MAX_CLAIMS", "2")
    monkeypatch.setenv("RAG_ASSETS_LLM__PROVIDER", "openai")
    monkeypatch.setenv("RAG_ASSETS_INGEST__PDF_WORKERS", "4")
    settings = Settings()
    assert (settings.retrieval.k, settings.answer.extractive.max_claims) == (7, 2)
    assert (settings.llm.provider, settings.ingest.pdf_workers) == ("openai", 4)
    assert settings.retrieval.w_bm25 == Settings().retrieval.w_bm25 == 2.0  # the rest default


def test_arguments_then_nested_then_short_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_ASSETS_DATA_DIR", "/short")
    assert Settings().ingest.data_dir == "/short"
    monkeypatch.setenv("RAG_ASSETS_INGEST__DATA_DIR", "/nested")
    assert Settings().ingest.data_dir == "/nested"
    monkeypatch.setenv("RAG_ASSETS_WAREHOUSE", "md:rag")
    given = Settings(ingest={"data_dir": "/given"})  # a field given: the section's others stay
    assert (given.ingest.data_dir, given.ingest.warehouse_database) == ("/given", "md:rag")
    monkeypatch.setenv("RAG_ASSETS_CORES", "")  # empty is unset
    assert Settings().runtime.cores is None


def test_an_unknown_or_invalid_setting_fails_wherever_it_comes_from(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValidationError, match="w_bm52"):
        Settings(retrieval={"w_bm52": 1.0})
    monkeypatch.setenv("RAG_ASSETS_ANSWER__EXTRACTIVE__W_DENS", "0.5")
    with pytest.raises(ValidationError, match="answer.extractive.w_dens"):
        Settings()
    monkeypatch.delenv("RAG_ASSETS_ANSWER__EXTRACTIVE__W_DENS")
    monkeypatch.setenv("RAG_ASSETS_EXECUTOR", "threads")
    with pytest.raises(ValidationError, match="runtime.executor"):
        Settings()


def test_every_variable_the_project_names_is_a_setting() -> None:
    """A ``RAG_ASSETS_*`` name in the package, the deployment, the docs, the benches or the
    Makefile is read by :class:`Settings` (the test suite's own switches aside)."""
    known = {name for row in setting_rows() for name in row.variables}
    known |= {f"RAG_ASSETS_{section.upper()}" for section in Settings.model_fields}  # a prefix
    places = [REPO / "rag_assets", REPO / "deploy", REPO / "docs", REPO / "bench"]
    files = [p for place in places for p in place.rglob("*") if p.suffix in
             {".py", ".md", ".yaml", ".yml", ".toml", ".txt"}]
    named = {name for path in [*files, REPO / "Makefile", REPO / "README.md"]
             for name in re.findall(r"RAG_ASSETS_[A-Z0-9_]*[A-Z0-9]",
                                    path.read_text(encoding="utf-8", errors="replace"))}
    assert named - TEST_SWITCHES - known == set()
    assert len(named) > 15


def test_only_the_settings_read_the_environment_in_the_core() -> None:
    core = REPO / "rag_assets" / "core"
    readers = sorted(str(p.relative_to(core)) for p in core.rglob("*.py")
                     if re.search(r"os\.environ|getenv", p.read_text(encoding="utf-8")))
    assert readers == ["settings.py"]


def test_the_configuration_tables_are_rendered_from_the_settings() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert START in readme and END in readme, "README.md has no settings-table markers"
    assert table_region(readme) == sections_table(), "run `make settings-table`"
    reference = (REPO / "docs" / "CONFIGURATION.md").read_text(encoding="utf-8")
    assert table_region(reference) == settings_table(), "run `make settings-table`"
    assert settings_table().count("\n") - 1 == sum(  # one row per field of every section
        int(row.split("|")[3]) for row in sections_table().splitlines()[2:])


def test_the_settings_command_writes_the_table_between_the_markers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# Title\n\nBefore.\n\n{START}\nstale\n{END}\n\nAfter.\n")
    assert main(["settings", "--reference", str(readme)]) == 0
    written = readme.read_text()
    assert table_region(written) == settings_table()
    assert written.startswith("# Title\n\nBefore.\n\n") and written.endswith(f"{END}\n\nAfter.\n")
    assert main(["settings", "--reference", str(readme)]) == 0
    assert readme.read_text() == written  # written again: the same text
    rows = settings_table().splitlines()[2:]
    assert len(rows) == len(list(setting_rows())) and "`RAG_ASSETS_RETRIEVAL__K` | `10` |" in \
        next(r for r in rows if r.startswith("| `retrieval.k` |"))
    readme.write_text("# No markers\n")
    assert main(["settings", "--readme", str(readme)]) == 2
    assert "settings-table:start" in capsys.readouterr().err
    assert readme.read_text() == "# No markers\n"
