"""The test harness's llama.cpp server: how many threads it reads and writes with."""

from __future__ import annotations

import pytest

from rag_assets_tests import llm_server
from rag_assets_tests.llm_server import server_threads


@pytest.mark.parametrize(("cores", "busy", "workers", "threads"), [
    (2, 0.0, 1, 2),  # an idle machine that stays idle: both cores
    (2, 0.04, 2, 1),  # the suite's other worker will take its core, idle as it looks now
    (2, 1.2, 1, 1),  # other work runs now
    (2, None, 1, 1),  # the load unknown
    (4, 0.0, 2, 2),  # two cores left beside the other worker
    (1, 0.0, 1, 1),
])
def test_threads_follow_the_cores_left_free(monkeypatch: pytest.MonkeyPatch, cores: int,
                                            busy: float | None, workers: int,
                                            threads: int) -> None:
    monkeypatch.setattr(llm_server.os, "cpu_count", lambda: cores)
    assert server_threads(busy, workers) == threads
