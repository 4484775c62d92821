"""The answer engine reads as a few dozen small functions: none over a screen."""

from __future__ import annotations

import ast
from pathlib import Path

GENERATION = Path(__file__).resolve().parents[3] / "rag_assets" / "core" / "generation"
MAX_LINES = 60


def test_no_function_of_the_answer_engine_is_over_sixty_lines() -> None:
    long = []
    for path in sorted(GENERATION.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    long.append(f"{path.name}:{node.name} {lines} lines")
    assert long == []
