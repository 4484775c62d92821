"""Every patch on Dagster's internals (a module of ``rag_assets.runtime`` importing a private
``dagster._`` module) names the Dagster it was read against, and that is the Dagster installed
and the one pyproject.toml pins: moving the pin fails here until someone reads the patch again
and updates its ``PATCHED_DAGSTER_VERSION``."""

import importlib
import pkgutil
import tomllib
from pathlib import Path
from types import ModuleType

import dagster
from packaging.requirements import Requirement

import rag_assets.runtime

REPO = Path(__file__).resolve().parents[2]


def patch_modules() -> list[ModuleType]:
    """The runtime's modules whose source imports a private Dagster module."""
    modules = []
    for info in pkgutil.iter_modules(rag_assets.runtime.__path__, "rag_assets.runtime."):
        module = importlib.import_module(info.name)
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        if "from dagster._" in source or "import dagster._" in source:
            modules.append(module)
    return modules


def pinned_dagster() -> str:
    """The version of ``dagster==X`` in pyproject.toml's dependencies."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for line in project["dependencies"]:
        requirement = Requirement(line)
        if requirement.name == "dagster":
            (specifier,) = requirement.specifier
            assert specifier.operator == "==", f"dagster is not pinned: {line}"
            return specifier.version
    raise AssertionError("pyproject.toml has no dagster dependency")


def test_the_patches_are_found() -> None:
    names = {m.__name__ for m in patch_modules()}
    assert {"rag_assets.runtime.run_safety", "rag_assets.runtime.launcher"} <= names
    assert "rag_assets.runtime.processes" not in names  # standard library only


def test_each_patch_names_the_installed_and_pinned_dagster() -> None:
    pinned = pinned_dagster()
    for module in patch_modules():
        patched = getattr(module, "PATCHED_DAGSTER_VERSION", None)
        assert patched == dagster.__version__ == pinned, (
            f"{module.__name__} was read against Dagster {patched}; installed "
            f"{dagster.__version__}, pinned {pinned}: read the patch against the new Dagster, "
            "then set its PATCHED_DAGSTER_VERSION")
