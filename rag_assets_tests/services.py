"""Throwaway PostgreSQL and Redis servers for the tests (a pytest plugin: ``pytest_plugins`` in
the root conftest): one of each per session, on 127.0.0.1, started by
``harness.servers`` in the session's temporary folder and stopped at its end.

Where PostgreSQL or Redis is not installed (``make test`` installs them as root: its
``services`` target), the fixture skips its tests and the reason is printed after pytest's
summary, as for the browser tests. A server that is installed but does not start fails them.
``serve`` is the body of every server fixture (the llama.cpp one of the root conftest too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol, TypeVar

import pytest

from harness.servers import (
    PostgresServer,
    RedisServer,
    ServerError,
    ServerMissing,
    start_postgres,
    start_redis,
)

_skipped: set[str] = set()  # why server tests were skipped, printed after the summary


class _Stoppable(Protocol):
    def stop(self) -> None: ...


Server = TypeVar("Server", bound=_Stoppable)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for reason in sorted(_skipped):  # printed even without -rs
        terminalreporter.write_line(reason)


def serve(start: Callable[[Path], Server], name: str, folder: Path,
          fails: tuple[type[Exception], ...] = (ServerError,)) -> Iterator[Server]:
    """A fixture's body: the server ``start(folder)`` gives, stopped afterwards. Not installed
    (``ServerMissing``): the test is skipped, the reason printed after the summary; any of
    ``fails``: the test fails with the reason alone (and the server log's tail)."""
    failure = None
    try:
        server = start(folder)
    except ServerMissing as err:
        reason = f"server test skipped: {err}"
        _skipped.add(reason)
        pytest.skip(reason)
    except fails as err:
        failure = f"{name}: {err}"
    if failure:  # outside the except block: the reason alone, without a chained traceback
        pytest.fail(failure, pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    """A PostgreSQL cluster for the session (``.url`` = ``postgresql://rag@127.0.0.1:<port>/rag``;
    ``.create_database(name)`` gives a fresh database's URL, so tests do not share tables)."""
    yield from serve(start_postgres, "postgres_server", tmp_path_factory.mktemp("postgres"))


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A Redis server for the session (``.url`` = ``redis://127.0.0.1:<port>/0``)."""
    yield from serve(start_redis, "redis_server", tmp_path_factory.mktemp("redis"))
