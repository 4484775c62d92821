"""The real filings of ``../shared/corpora``, each loaded once per test session and kept on disk
for the other test processes.

A 10-K takes about 4 s through the PDF engine, several test modules read the same ones, and
``make test``'s two workers are two processes: each used to parse the same 30-odd filings again
(about 70 s of the suite). A loaded filing is pickled under ``.pytest_cache/real_filings/<code>/``,
where ``<code>`` is a hash of every source and data file of ``rag_assets`` (any change to the
reader, or to anything it imports, is a fresh folder: a cache never answers for other code), and
the file's name carries the PDF's path, size and modification time. A worker parses a filing
holding a lock on its name (``fcntl.flock``): a second worker asking for it meanwhile waits and
reads the pickle instead of parsing it a second time on the same two cores. Written to a
temporary name, then renamed: no reader sees half a file. Folders of other code versions are
removed on first use once they are six hours old (a younger one may be another session's, in
use), and the workers take the controller's code version (a file saved during the run is
never a second version). A filing is parsed in the test's own process (``pdf_workers=1``): the
two test workers keep both cores busy already, and a pool's two spawned parsers would add ~1.3
CPU-seconds of imports per filing (about 90 s over the suite's cold run) for the same pages.
``RAG_ASSETS_TEST_CACHE=0`` turns the disk cache off.

``make test`` starts ``python -m rag_assets_tests.real_filings`` in the background before it
installs the browser and the services and type-checks (minutes of waiting on the network and
one core on a fresh machine): at a lower priority than those steps, it loads, two at a time,
the corpora's filings whose names the test sources print, into the same cache, until the test
session starts and stops it (``stop_warming``). A filing it had not reached is parsed by the
test that needs it, as before; one it was parsing is waited for on its lock. It never changes
what a test reads."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import pickle
import re
import shutil
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from functools import cache
from pathlib import Path

import pytest

import rag_assets
from rag_assets.core.ingest.documents import LoadedDocument, load_document
from rag_assets.runtime.processes import process_alive

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"
CACHE_ROOT = REPO / ".pytest_cache" / "real_filings"
PACKAGE = Path(rag_assets.__file__).parent


CODE_VERSION_ENV = "RAG_ASSETS_TEST_CODE_VERSION"
# another session's folder in use (a second checkout's suite, a file saved during a run) is
# younger than this: only older folders of other versions are removed
STALE_SECONDS = 6 * 3600


@cache
def code_version() -> str:
    """A hash of every file of the ``rag_assets`` package but bytecode: the code that loads;
    the session's, once computed by its controller (``CODE_VERSION_ENV``), in every worker:
    a file saved while the suite runs never splits it into two versions."""
    if given := os.environ.get(CODE_VERSION_ENV):
        return given
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(PACKAGE)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def cache_folder() -> Path | None:
    """This code's folder of loaded filings (created; other versions' removed), or None when
    the disk cache is off."""
    if os.environ.get("RAG_ASSETS_TEST_CACHE") == "0":
        return None
    folder = CACHE_ROOT / code_version()
    folder.mkdir(parents=True, exist_ok=True)
    now = time.time()
    for other in CACHE_ROOT.iterdir():
        try:  # the other worker may be removing it as well
            stale = other != folder and now - other.stat().st_mtime > STALE_SECONDS
        except FileNotFoundError:
            continue
        if stale:
            shutil.rmtree(other, ignore_errors=True)
    return folder


@cache
def _load(path: Path) -> LoadedDocument:
    folder = cache_folder()
    if folder is None:
        return load_document(path, pdf_workers=1)
    stat = path.stat()
    name = hashlib.sha256(f"{path}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    kept = folder / f"{path.stem}-{name}.pickle"
    with kept.with_suffix(".lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        try:
            return pickle.loads(kept.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError):
            pass
        doc = load_document(path, pdf_workers=1)
        partial = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")
        partial.write_bytes(pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(partial, kept)
        return doc


def real_filing(path: str | Path) -> LoadedDocument:
    """The loaded filing at ``path`` (relative to the corpora folder, or absolute); the test
    skips, saying where it looked, when the corpora are not beside the repository."""
    full = Path(path) if Path(path).is_absolute() else CORPORA / path
    if not full.is_file():
        pytest.skip(f"real filing not found at {full} (../shared/corpora)")
    return _load(full.resolve())


WARMER_PID = CACHE_ROOT / "warmer.pid"
PDF_NAME_RE = re.compile(r"[A-Za-z0-9_.-]+\.pdf")


def named_filings(tests: Path = Path(__file__).parent) -> list[Path]:
    """The corpora's PDFs whose file names the test sources print, in the order of the sources
    (a name built at run time is missed: that filing is parsed by its test, as without the
    warmer)."""
    by_name = {path.name: path for path in sorted(CORPORA.rglob("*.pdf"))}
    named = dict.fromkeys(match for source in sorted(tests.rglob("*.py"))
                          for match in PDF_NAME_RE.findall(source.read_text(encoding="utf-8")))
    return [by_name[name].resolve() for name in named if name in by_name]


def warm(paths: list[Path], processes: int = 2, while_alive: int | None = None) -> int:
    """Load ``paths`` into the disk cache, ``processes`` at a time, while the process
    ``while_alive`` lives (make, which stops before the tests when a step fails); how many were
    loaded."""
    if cache_folder() is None:
        return 0
    loaded, queue = 0, list(paths)
    with ProcessPoolExecutor(processes) as pool:
        running: set[Future[None]] = set()
        while queue or running:
            while queue and len(running) < processes and (
                    while_alive is None or process_alive(while_alive)):
                running.add(pool.submit(_warm_one, queue.pop(0)))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            loaded += sum(1 for future in done if future.exception() is None)
    return loaded



def _warm_one(path: Path) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool's processes end with the warmer
    _load(path)


def stop_warming() -> None:
    """End the background warmer, if one runs: from here the test workers keep both cores.
    ``make test`` writes its pid as it starts it (no test session can look before), and the
    warmer leads a process group with its pool once it has imported; a pid file left by a
    warmer that ended names no warmer any more and is only removed."""
    try:
        pid = int(WARMER_PID.read_text(encoding="utf-8"))
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        command = b""
    if b"rag_assets_tests.real_filings" in command:
        try:
            os.killpg(pid, signal.SIGTERM)  # the warmer and its pool
        except ProcessLookupError:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)  # still importing: no group of its own yet
    WARMER_PID.unlink(missing_ok=True)


def main(argv: list[str]) -> int:
    """``python -m rag_assets_tests.real_filings [--while PID]``: warm the cache."""
    os.setpgrp()  # the warmer and its pool are one group, stopped together
    os.nice(10)  # make's own steps (mypy) keep their core; the warmer takes what is left
    os.environ.setdefault(CODE_VERSION_ENV, code_version())
    while_alive = int(argv[argv.index("--while") + 1]) if "--while" in argv else None
    loaded = warm(named_filings(), while_alive=while_alive)
    print(f"real filings: {loaded} loaded into {cache_folder()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
