"""How SQLAlchemy's pool speaks once a stop signal cuts a connection's close short: the stop is
reported by the command in one line, so the pool's traceback of it is dropped; any other close
failure still prints."""

from __future__ import annotations

import logging

import pytest
import sqlalchemy

from rag_assets.runtime.processes import POOL_LOGGER, quiet_interrupted_pool_closes


def quiet(handler: logging.Handler) -> bool:
    return any(type(f).__name__ == "_NotAnInterrupt" for f in handler.filters)


@pytest.fixture
def pool_logger(monkeypatch):
    """The pool's logger as the CLI leaves it, restored after the test. The root logger has no
    handler, as in the CLI (pytest's own would otherwise take what Python's last resort prints)."""
    monkeypatch.setattr(logging.root, "handlers", [])
    logger = logging.getLogger(POOL_LOGGER)
    saved = (list(logger.handlers), logger.propagate)
    logger.handlers[:] = [h for h in logger.handlers if not quiet(h)]
    quiet_interrupted_pool_closes()
    quiet_interrupted_pool_closes()  # installed twice: one handler
    yield logger
    logger.handlers[:] = saved[0]
    logger.propagate = saved[1]


def close_raising(error: BaseException, monkeypatch: pytest.MonkeyPatch) -> sqlalchemy.Engine:
    """A real engine over SQLite whose connection close raises ``error``."""
    engine = sqlalchemy.create_engine("sqlite://", poolclass=sqlalchemy.pool.QueuePool)
    with engine.connect() as connection:
        connection.execute(sqlalchemy.text("select 1"))

    def do_close(dbapi_connection):
        dbapi_connection.close()
        raise error

    monkeypatch.setattr(engine.dialect, "do_close", do_close)
    return engine


def test_a_close_cut_short_by_a_stop_prints_no_traceback(pool_logger, monkeypatch, capsys):
    assert sum(map(quiet, pool_logger.handlers)) == 1
    engine = close_raising(KeyboardInterrupt("SIGINT"), monkeypatch)
    with pytest.raises(KeyboardInterrupt):  # SQLAlchemy re-raises the interrupt itself
        engine.dispose()
    assert capsys.readouterr().err == ""


def test_any_other_close_failure_still_prints_with_its_traceback(pool_logger, monkeypatch,
                                                                 capsys):
    engine = close_raising(OSError("disk gone"), monkeypatch)
    engine.dispose()  # SQLAlchemy logs an Exception and goes on
    err = capsys.readouterr().err
    assert err.startswith("Exception closing connection")
    assert "Traceback" in err and "OSError: disk gone" in err
