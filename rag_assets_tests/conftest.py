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
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag_assets_tests.llm_server import LlamaServer, LlamaServerError, start_llama_server
from rag_assets_tests.real_filings import CODE_VERSION_ENV, code_version, stop_warming

pytest_plugins = (
    "rag_assets_tests.browser",  # the headless Chromium fixtures
    "rag_assets_tests.services",  # throwaway PostgreSQL and Redis servers
    "rag_assets_tests.encoder_memo",  # a text the ONNX encoder read is not read again
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


# Modules that run on one worker, one after the other:
# - "corpus-and-model" share a costly session fixture, built once: the generation store of the
#   sample reports, GDPR and 3M (``corpus``, ~30 s) and the llama.cpp server (``llama_server``);
# - "harnesses" each start a Dagster deployment of many processes (the daemon backfill, the
#   Celery scale profile) and spend much of their time waiting on its timers: run at the same
#   time on the two workers they took 161 and 134 s (86 and 99 s alone), each slowing the other;
#   one after the other, each shares the cores with the other worker's single-process tests.
# Every other module is a unit of its own.
SHARED_GROUPS = {
    **{f"rag_assets_tests/{module}": "corpus-and-model" for module in (
        "core/generation/test_answers.py", "core/generation/test_model_path.py",
        "core/generation/test_summaries.py", "core/generation/test_injection.py",
        "core/llm/test_client.py", "core/footnotes/test_model_stitcher.py")},
    **{f"rag_assets_tests/{module}": "harnesses" for module in (
        "test_backfill_check.py", "test_scale_check.py")},
}


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


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """``--dist loadfile`` with the modules of :data:`SHARED_GROUPS` as one unit of work (one
    worker). pytest-xdist's own ``loadgroup`` cannot do it under pytest 9: it renames a test by
    setting ``item._nodeid``, which pytest 9's ``nodeid`` no longer reads, so every test became
    a unit and modules were split over both workers (their fixtures built twice)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedFixtureScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = super()._split_scope(nodeid)
            return SHARED_GROUPS.get(module, module)

    return SharedFixtureScheduling(config, log)


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


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C and SIGTERM at their defaults in every test process (the controller and each
    pytest-xdist worker).

    A shell starts a background job (``make test &``, ``nohup``, a CI runner's job) with SIGINT
    ignored, and Dagster gives SIGTERM whatever SIGINT has each time an in-process run ends
    (``dagster._utils.interrupts.setup_interrupt_handlers``: "Map SIGTERM to SIGINT"). So after
    the first ``materialize`` the test process ignored SIGTERM, every process it started
    inherited that, and Dagster's compute-log ``tail -F`` processes, which it stops with SIGTERM
    and waits 30 s for, outlived their runs: an in-process run took a minute to end (a fresh
    clone's suite, 2026-11-27: ``test_sigterm_stops_a_command_waiting_for_a_pool_slot``'s pool
    holder still STARTED after its 60 s join). The commands set their own handlers
    (``rag_assets.runtime.processes``); the test process gets Python's own. The code version
    the cache of real filings is kept under is fixed here, before the workers start
    (``real_filings.code_version``), and ``make test``'s warmer of that cache is stopped: from
    here the test workers keep both cores."""
    if not hasattr(config, "workerinput"):
        stop_warming()
    # one code version for the session's cache of real filings, fixed before workers start
    os.environ.setdefault(CODE_VERSION_ENV, code_version())
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_IGN:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


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
