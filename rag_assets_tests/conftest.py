"""Session-wide test setup: end a test process without DuckDB's teardown noise.

DuckDB 2.0's bindings (nanobind) print pages of "nanobind: leaked instance ... of type
_duckdb..." at interpreter finalization after a Dagster run that used both DuckDB and LanceDB
(the objects are only "leaked" because they are still alive when the module is torn down). The
reports come after pytest's summary and bury it. As ``rag_assets.cli.run`` does for the CLI, the
process ends with ``os._exit`` once pytest is completely done, with pytest's own exit status:

- the hook wraps ``pytest_cmdline_main``, so the session, ``pytest_unconfigure`` (pytest's
  last unraisable-exception and warning checks included) and the config cleanups have all run
  and the summary is printed; a failing run still exits 1, no tests collected still exits 5;
- Python's ``atexit`` handlers still run (logging flushed, multiprocessing children joined,
  ``weakref.finalize`` clean-ups such as temporary directories): only the interpreter's own
  finalization, where the reports are printed, is skipped;
- only when pytest is the program (``python -m pytest``, the ``pytest`` script), never when
  ``pytest.main()`` is called from other code; ``RAG_ASSETS_TEARDOWN=1`` keeps the normal exit
  (to look at the reports).
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag_assets_tests.llm_server import LlamaServer, LlamaServerError, start_llama_server

pytest_plugins = (
    "rag_assets_tests.browser",  # the headless Chromium fixtures
    "rag_assets_tests.services",  # throwaway PostgreSQL and Redis servers
)


def _pytest_is_the_program() -> bool:
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name in ("pytest", "pytest.__main__"):
        return True  # python -m pytest
    return Path(sys.argv[0]).name in ("pytest", "py.test")  # the console script


def _module_rank(items: list[pytest.Item]) -> int:
    """0: a slow module directly under ``rag_assets_tests/`` (the harnesses that start Dagster's
    daemon, Celery workers or the CLI in other processes: the longest modules, mostly waiting
    on those processes); 1: another module with a slow test; 2: the rest."""
    if not any(item.get_closest_marker("slow") for item in items):
        return 2
    return 0 if items[0].path.parent == Path(__file__).parent else 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest modules first, so that ``make test``'s two workers (pytest-xdist,
    ``--dist loadfile --no-loadscope-reorder``: whole modules, in this order) start with them
    and share the short ones at the end, instead of one worker running a three-minute harness
    alone after the other is done. A module's tests stay together and in their order (its
    fixtures are built once), and modules of one rank keep the collection's order."""
    modules: dict[Path, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    ranked = sorted(modules.values(), key=_module_rank)  # stable: collection order within a rank
    items[:] = [item for module in ranked for item in module]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_cmdline_main(config: pytest.Config):
    status = yield
    if (
        status is None
        or hasattr(config, "workerinput")  # a pytest-xdist worker: its controller exits
        or os.environ.get("RAG_ASSETS_TEARDOWN") == "1"
        or not _pytest_is_the_program()
    ):
        return status
    sys.stdout.flush()
    sys.stderr.flush()
    atexit._run_exitfuncs()  # what a normal exit runs before the interpreter's finalization
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(int(status))


def _sigterm_ignored() -> bool:
    """Whether this process ignores SIGTERM, as the kernel says (``SigIgn`` in
    ``/proc/self/status``): set natively, it is invisible to ``signal.getsignal``."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            mask = next(int(line.split()[1], 16) for line in status if line.startswith("SigIgn"))
    except (OSError, StopIteration):
        return False
    return bool(mask >> (signal.SIGTERM - 1) & 1)


@pytest.fixture(autouse=True)
def terminable_children(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test starts in a process whose children can be stopped with SIGTERM.

    An ignored signal is inherited by every child: a test process that ignores SIGTERM (left so
    by an earlier test's native library, or inherited from a shell's background job) starts
    Dagster's compute-log ``tail -F`` processes ignoring it, and Dagster stops them with SIGTERM
    and waits 30 s for each, so an in-process run (``test_crash_safety``'s pool holder) takes a
    minute to end (CI of 2026-11-27: the holder still STARTED after its 60 s join). The
    disposition is put back to the default, and the test that left it ignored is named in a
    warning, so the leak is found rather than hidden."""
    if _sigterm_ignored():
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        warnings.warn(f"SIGTERM was ignored before {request.node.nodeid} (inherited, or left "
                      "so by the test before it in this process): reset to the default",
                      RuntimeWarning, stacklevel=1)
    yield
    if _sigterm_ignored():
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        warnings.warn(f"{request.node.nodeid} left SIGTERM ignored in the test process: reset "
                      "to the default", RuntimeWarning, stacklevel=1)


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """A real OpenAI-compatible server for the session: llama.cpp serving SmolLM2-135M-Instruct
    on 127.0.0.1 (``.base_url`` = ``http://127.0.0.1:<port>/v1``, ``.model``, ``.log_path``).

    Its packages are the ``test`` extra, a declared dependency: when they are missing, or the
    server does not answer within 60 s, every test using it fails with the reason (and the
    server log's tail); it never skips.
    """
    from rag_assets_tests.services import serve  # a plugin: imported after pytest registers it

    yield from serve(start_llama_server, "llama_server", tmp_path_factory.mktemp("llama_server"),
                     fails=(LlamaServerError,))
