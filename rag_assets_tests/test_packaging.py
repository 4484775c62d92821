"""What a wheel holds: pyproject.toml's package discovery takes the product (``rag_assets`` and
its subpackages, the runtime included), never the tests or the make targets' harnesses."""

import tomllib
from pathlib import Path

from setuptools import find_namespace_packages, find_packages

REPO = Path(__file__).resolve().parents[1]


def test_the_wheel_takes_the_product_and_nothing_else() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    found = pyproject["tool"]["setuptools"]["packages"]["find"]
    # pyproject's find takes namespace packages (folders without __init__.py) unless told not to
    find = find_namespace_packages if found.get("namespaces", True) else find_packages
    packages = set(find(str(REPO), include=found["include"], exclude=found.get("exclude", ())))
    assert {p.split(".")[0] for p in packages} == {"rag_assets"}
    assert {"rag_assets.runtime", "rag_assets.cli", "rag_assets.defs"} <= packages
    assert (REPO / "harness" / "__init__.py").is_file()  # a package, left out all the same
    assert (REPO / "rag_assets_tests" / "conftest.py").is_file()
