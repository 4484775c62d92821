"""A real small store for ``rag-assets serve``'s tests: the earnings release ingested and indexed
once for the module (its warehouse, vectors and PDF), and each test's own copy of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
import pytest

from rag_assets_tests.defs.conftest import materialize, register_test_partitions, write_data_dir
from rag_assets_tests.defs.test_generation import run

EARNINGS = ("exemplar-corp-earnings", 2024)
QUESTION = "What was Exemplar's organic revenue growth in fiscal 2024?"


def build_store(data: Path, *partitions: tuple[str, int]) -> Path:
    """``data`` (written by ``write_data_dir``, perhaps edited since) with each partition
    ingested and indexed."""
    with dg.DagsterInstance.ephemeral() as instance:
        register_test_partitions(instance)
        for partition in partitions:
            assert materialize(data, instance, *partition).success
            assert run(data, instance, dg.AssetSelection.groups("index"), partition).success
    return data


@pytest.fixture(scope="module")
def indexed_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(write_data_dir(tmp_path_factory.mktemp("served") / "data"), EARNINGS)


@pytest.fixture
def indexed(indexed_once: Path, tmp_path: Path) -> Path:
    """This test's own copy: its questions go to its own ``answer_audit``."""
    return Path(shutil.copytree(indexed_once, tmp_path / "indexed"))
