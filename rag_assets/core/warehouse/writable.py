"""Can a store be written? A probe that really tries, run before any step does work.

``os.access`` is no answer: for root it says yes to every file, and it knows nothing of
immutable files (``chattr +i``) or of a file system mounted read-only. So the probe does what the
store will do, without changing anything the store keeps:

- a file that exists is opened for appending (nothing is written: its bytes and times stay);
- its folder gets a temporary file (one byte written, then removed): DuckDB writes its ``.wal``
  beside the database, LanceDB its versions and lock file inside its folder;
- a missing folder is created, as the stores would need it anyway.

A lock held by another process is not a failure here: DuckDB's and LanceDB's locks are advisory
(``fcntl``), so opening the file still succeeds and the store's own retries wait for the lock.
Only the errors that no waiting cures (permission, read-only file system, immutable file, a
directory where the file should be, a full disk) are reported, in one line naming the path and
the cause.
"""

from __future__ import annotations

import contextlib
import errno
import os
import uuid
from pathlib import Path

# errors a retry may cure: never reported as "cannot be written"
TRANSIENT = {errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY, errno.ETXTBSY, errno.EINTR}


class StoreNotWritable(RuntimeError):
    """A store's file or folder cannot be written; ``str()`` is the one-line reason."""

    def __init__(self, message: str, path: Path, error: OSError) -> None:
        super().__init__(message)
        self.path = path
        self.errno = error.errno


def _cause(error: OSError, kind: str) -> str:
    """``[Errno 1] Operation not permitted (immutable file?)``, without the path Python adds."""
    text = f"[Errno {error.errno}] {error.strerror or error}"
    if error.errno == errno.EPERM:  # what root gets from an immutable or append-only inode
        text += f" (immutable {kind}?)"
    return text


def _fails(error: OSError) -> bool:
    return error.errno not in TRANSIENT


def probe_file(path: Path) -> OSError | None:
    """The error opening an existing ``path`` for appending gives, else None (also when it
    does not exist: then its folder is what matters)."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_APPEND)
    except FileNotFoundError:
        return None
    except OSError as error:
        return error if _fails(error) else None
    os.close(handle)
    return None


def probe_folder(folder: Path) -> OSError | None:
    """The error creating ``folder`` (if missing) and a temporary file in it gives, else None."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".rag-assets-probe-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        handle = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as error:
        return error if _fails(error) else None
    try:
        os.write(handle, b"\0")  # a full disk refuses the byte, not always the empty file
    except OSError as error:
        return error if _fails(error) else None
    finally:
        os.close(handle)
        with contextlib.suppress(OSError):  # created but not removable: the creation succeeded
            probe.unlink()
    return None


def check_database_file(path: str | Path, what: str = "warehouse") -> None:
    """Raise ``StoreNotWritable`` if the database file ``path`` or its folder (where the
    database writes its journal, ``<file>.wal``) cannot be written."""
    path = Path(path)
    error = probe_file(path)
    if error is not None:
        raise StoreNotWritable(
            f"{what} {path} cannot be written: {_cause(error, 'file')}", path, error
        )
    folder = path.parent
    error = probe_folder(folder)
    if error is not None:
        raise StoreNotWritable(
            f"{what} folder {folder} cannot be written (it holds {path.name}.wal): "
            f"{_cause(error, 'folder')}",
            folder, error,
        )


def check_folder(folder: str | Path, what: str) -> None:
    """Raise ``StoreNotWritable`` if no file can be created in ``folder``."""
    folder = Path(folder)
    error = probe_folder(folder)
    if error is not None:
        raise StoreNotWritable(
            f"{what} {folder} cannot be written: {_cause(error, 'folder')}", folder, error
        )


def is_local_database(database: str) -> bool:
    """A DuckDB database that is a file here (not ``:memory:``, ``md:...``, ``s3://...``)."""
    if not database or database.startswith(":memory:"):
        return False
    head = database.split("/", 1)[0]
    return not (":" in head and len(head) > 2)  # ``md:db``, ``s3://``; not ``C:`` or ``./x``
