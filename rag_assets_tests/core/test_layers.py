"""The core's stages import only from the stages before them, and nothing in it imports
Dagster (imports under ``TYPE_CHECKING`` are types, not dependencies)."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "rag_assets" / "core"
STAGES = ["text", "llm", "ingest", "question", "footnotes", "chunks", "warehouse", "retrieval",
          "generation", "evaluation"]


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only |= {id(n) for child in node.body for n in ast.walk(child)}
    names = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return names


def test_every_core_package_is_a_known_stage() -> None:
    packages = {p.name for p in CORE.iterdir() if (p / "__init__.py").exists()}
    assert packages == set(STAGES)


def test_stages_import_only_earlier_stages_and_never_dagster() -> None:
    offences = []
    for path in sorted(CORE.rglob("*.py")):
        stage = path.relative_to(CORE).parts[0]
        if stage not in STAGES:
            continue
        for name in _imports(path):
            if name.split(".")[0] == "dagster":
                offences.append(f"{path.relative_to(CORE)} imports {name}")
            if name.startswith("rag_assets.core."):
                target = name.split(".")[2]
                if STAGES.index(target) > STAGES.index(stage):
                    offences.append(f"{path.relative_to(CORE)} ({stage}) imports {name}")
    assert not offences, offences
