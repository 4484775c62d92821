"""The stores are chosen through resources and config only (docs/DEPLOY.md): no asset hard-codes
a path of the data folder, the warehouse or LanceDB, so a deployment moves them by settings."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from rag_assets.definitions import all_assets
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import RagSettings, default_resources
from rag_assets.samples.earnings import build_earnings_release

REPO = Path(__file__).resolve().parents[2]
DEFS = REPO / "rag_assets" / "defs"
# a path of a store or of the default data folder, written as a literal
STORE_PATH = re.compile(r"^(\./)?data(/\S*)?$|\.duckdb$|/lancedb(/|$)|^lancedb/")
PATH_CALLS = {"Path", "open", "connect", "LanceFolder", "VectorStore", "check_folder",
              "check_database_file"}


def _hard_coded_paths(source: str) -> list[str]:
    """String literals that name a store's path, or that build a path (``Path("x")``,
    ``folder / "x"``, ``duckdb.connect("x")``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        literals: list[ast.AST] = []
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            literals = [node.left, node.right]
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in PATH_CALLS:
                literals = [*node.args, *(k.value for k in node.keywords)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and STORE_PATH.search(node.value):
            found.append(node.value)
        found += [lit.value for lit in literals
                  if isinstance(lit, ast.Constant) and isinstance(lit.value, str)]
    return found


def test_no_asset_module_hard_codes_a_store_path() -> None:
    modules = sorted(p for p in DEFS.glob("*.py") if p.name != "resources.py")
    assert len(modules) >= 8
    offenders = {p.name: paths for p in modules
                 if (paths := _hard_coded_paths(p.read_text(encoding="utf-8")))}
    assert offenders == {}, f"paths outside resources.py: {offenders}"
    # the scan would see one: the settings model is where the defaults live
    settings = REPO / "rag_assets" / "core" / "settings.py"
    assert "warehouse.duckdb" in _hard_coded_paths(settings.read_text("utf-8"))


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    if not folder.exists():
        return {}
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file()}


def test_settings_alone_move_the_data_folder_the_warehouse_and_lancedb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    build_earnings_release(data / "reports", data / "questions")
    lance = tmp_path / "object-store" / "lancedb"  # a URI of its own, as s3://bucket/prefix
    # not rag.duckdb: a catalog named like the tables' schema ("rag") makes DuckDB refuse
    # "rag.<table>" as ambiguous
    warehouse = tmp_path / "warehouse" / "shared.duckdb"
    cwd = tmp_path / "cwd"  # the relative defaults (data/...) would land here
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    repo_data = _snapshot(REPO / "data")
    resources = default_resources(str(data), lancedb_uri=str(lance), warehouse=str(warehouse))
    assert resources["io_manager"].database == str(warehouse)
    with dg.DagsterInstance.ephemeral() as instance:
        register_partitions(instance, [partition_key("exemplar-corp-earnings", "2024")])
        result = dg.materialize(
            all_assets, selection=dg.AssetSelection.assets("raw_pages", "document_profile"),
            partition_key=partition_key("exemplar-corp-earnings", 2024), instance=instance,
            resources=resources, raise_on_error=False)
    assert result.success
    with duckdb.connect(str(warehouse), read_only=True) as con:
        assert con.execute("select count(*) from rag.raw_pages").fetchone()[0] > 0
    assert any(p.suffix == ".lance" for p in lance.rglob("*"))  # the profile table
    assert not (data / "lancedb").exists() and not (data / "warehouse.duckdb").exists()
    assert os.listdir(cwd) == []
    assert _snapshot(REPO / "data") == repo_data  # nothing written under the repo's data/


def test_lancedb_uri_defaults_to_the_data_folder_and_keeps_an_object_store_uri() -> None:
    assert RagSettings(data_dir="/srv/rag").lancedb_dir == Path("/srv/rag/lancedb")
    assert RagSettings(data_dir="/srv/rag", lancedb_uri="s3://bucket/rag/lancedb").lancedb_dir \
        == "s3://bucket/rag/lancedb"
    assert str(RagSettings(warehouse_database="md:rag").warehouse_path) == "md:rag"


def test_the_executor_is_chosen_by_a_setting() -> None:
    """``RAG_ASSETS_EXECUTOR=multiprocess`` (docs/DEPLOY.md); in-process without it."""
    import subprocess
    import sys

    code = ("import warnings; warnings.simplefilter('ignore'); from rag_assets.definitions "
            "import defs; print(defs.resolve_job_def('ingest_job').executor_def.name)")
    names = []
    for value in ("multiprocess", ""):
        env = {**os.environ, "RAG_ASSETS_EXECUTOR": value} if value else \
            {k: v for k, v in os.environ.items() if k != "RAG_ASSETS_EXECUTOR"}
        names.append(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                    capture_output=True, text=True).stdout.strip())
    assert names == ["multiprocess", "in_process"]
