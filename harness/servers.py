"""Throwaway PostgreSQL and Redis servers on 127.0.0.1, for the tests, ``make scale-check`` and
anyone trying the Postgres warehouse without a database server of their own.

``start_postgres(folder)`` runs ``initdb`` (trust authentication, superuser ``rag``) into
``folder/postgres`` and starts ``postgres`` on a free loopback port, with a database ``rag``
(``.url`` = ``postgresql://rag@127.0.0.1:<port>/rag``; ``.create_database(name)`` adds one and
gives its URL). ``start_redis(folder)`` starts ``redis-server`` on a free loopback port with no
persistence (``.url`` = ``redis://127.0.0.1:<port>/0``). Both are context managers; ``.stop()``
ends the process (Postgres: fast shutdown) and keeps the folder's files.

Throwaway means fast over durable: the cluster runs with ``fsync=off``,
``synchronous_commit=off`` and ``full_page_writes=off`` (a machine crash may lose or corrupt it;
a process crash does not), listens on 127.0.0.1 only, trusts every local connection and has no
Unix socket. Never point it at data you keep.

PostgreSQL refuses to run as root: as root, ``initdb`` and ``postgres`` run as the ``postgres``
user (``subprocess``'s ``user=``, no ``preexec_fn``), which owns the cluster's folder; when that
user cannot reach ``folder`` (pytest's temporary folders are ``0700 root``) the cluster goes to
a fresh folder under the system's temporary folder instead, removed by ``stop()``.

Binaries are looked up on PATH, then in ``/usr/lib/postgresql/<version>/bin`` (Debian's
``postgresql`` package puts them there, not on PATH); when absent, ``ServerMissing`` says so in
one line (the tests skip with it; ``make services`` installs them as root). A server that does
not come up raises ``ServerError`` with its log's tail.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from rag_assets.runtime.processes import free_port, log_tail

POSTGRES_USER = "rag"
POSTGRES_DATABASE = "rag"
POSTGRES_OS_USER = "postgres"  # who runs the server when we are root
START_TIMEOUT = 30.0
INSTALL_HINT = "make services installs postgresql and redis-server as root with apt"


class ServerError(RuntimeError):
    """A server could not be started or stopped; ``str()`` says why (with its log's tail)."""


class ServerMissing(ServerError):
    """The server's programs are not installed here; ``str()`` is the one-line reason."""


class _Server:
    process: subprocess.Popen[bytes]

    def stop(self, timeout: float = 15.0) -> None:
        """End the server (SIGINT: Postgres' fast shutdown, Redis' clean exit); SIGKILL when
        it has not ended after ``timeout`` seconds."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)

    def __enter__(self) -> _Server:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()


@dataclass
class PostgresServer(_Server):
    """A running ``postgres``: ``url`` of its database ``rag``, ``port``, ``data_dir`` (the
    cluster), ``log_path``."""

    url: str
    port: int
    data_dir: Path
    log_path: Path
    process: subprocess.Popen[bytes] = field(repr=False)
    remove_on_stop: bool = field(default=False, repr=False)

    def url_of(self, database: str) -> str:
        return f"postgresql://{POSTGRES_USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create database ``name`` (when absent) and return its URL."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.url_of("postgres"), autocommit=True) as con:
            if not con.execute("select 1 from pg_database where datname = %s",
                               [name]).fetchone():
                con.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
        return self.url_of(name)

    def stop(self, timeout: float = 15.0) -> None:
        super().stop(timeout)
        if self.remove_on_stop:
            shutil.rmtree(self.data_dir.parent, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self


@dataclass
class RedisServer(_Server):
    """A running ``redis-server``: ``url`` (database 0), ``port``, ``log_path``."""

    url: str
    port: int
    log_path: Path
    process: subprocess.Popen[bytes] = field(repr=False)

    def __enter__(self) -> RedisServer:
        return self


def postgres_bin() -> Path:
    """The folder holding ``initdb`` and ``postgres``: PATH first, then Debian's
    ``/usr/lib/postgresql/<newest version>/bin``; ``ServerMissing`` when neither has them."""
    initdb = shutil.which("initdb")
    if initdb and (Path(initdb).resolve().parent / "postgres").is_file():
        return Path(initdb).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                      key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit()
                      else 0)
    for candidate in reversed(versions):
        if (candidate.parent / "postgres").is_file():
            return candidate.parent
    raise ServerMissing("PostgreSQL is not installed (no initdb and postgres on PATH or in "
                        f"/usr/lib/postgresql/*/bin; {INSTALL_HINT})")


def redis_bin() -> Path:
    """``redis-server`` on PATH or Debian's ``/usr/bin/redis-server``; ``ServerMissing``
    otherwise."""
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").is_file() else None)
    if not found:
        raise ServerMissing(f"Redis is not installed (no redis-server; {INSTALL_HINT})")
    return Path(found)


def _run_as() -> dict[str, object]:
    """``subprocess`` keywords that drop root to the ``postgres`` user; none when not root."""
    if os.geteuid() != 0:
        return {}
    try:
        entry = pwd.getpwnam(POSTGRES_OS_USER)
    except KeyError:
        raise ServerMissing(f"PostgreSQL refuses to run as root and there is no "
                            f"{POSTGRES_OS_USER!r} user to run it as ({INSTALL_HINT})") from None
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}


def _cluster_home(folder: Path, run_as: dict[str, object]) -> tuple[Path, bool]:
    """Where the cluster's folder goes, and whether ``stop()`` removes it: ``folder/postgres``,
    or (root, and the ``postgres`` user cannot reach ``folder``) a fresh temporary folder."""
    home = folder / "postgres"
    home.mkdir(parents=True, exist_ok=True)
    if not run_as:
        return home, False
    uid, gid = int(str(run_as["user"])), int(str(run_as["group"]))
    os.chown(home, uid, gid)
    reachable = subprocess.run(["test", "-w", str(home)], check=False,
                               **run_as).returncode == 0  # type: ignore[call-overload]
    if reachable:
        return home, False
    home.rmdir()
    spare = Path(tempfile.mkdtemp(prefix="rag-assets-postgres-"))
    os.chown(spare, uid, gid)
    return spare, True


def _wait_for(process: subprocess.Popen[bytes], ready: object, log_path: Path, what: str,
              timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServerError(f"{what} exited with code {process.returncode} at start; its log "
                              f"{log_path} ends:\n{log_tail(log_path)}")
        if callable(ready) and ready():
            return
        time.sleep(0.1)
    process.kill()
    process.wait()
    raise ServerError(f"{what} did not answer within {timeout:.0f} s; its log {log_path} "
                      f"ends:\n{log_tail(log_path)}")


def _postgres_ready(port: int) -> bool:
    import psycopg

    try:
        psycopg.connect(f"postgresql://{POSTGRES_USER}@127.0.0.1:{port}/postgres",
                        connect_timeout=2).close()
    except psycopg.OperationalError:
        return False
    return True


def start_postgres(folder: str | Path, timeout: float = START_TIMEOUT,
                   durable: bool = False) -> PostgresServer:
    """A fresh cluster in ``folder/postgres`` served on a free port of 127.0.0.1, with the
    database ``rag`` created (under a second on 2 cores). ``durable`` keeps Postgres's own
    ``fsync``, ``synchronous_commit`` and ``full_page_writes`` (on): what a benchmark against
    a real server should pay."""
    binaries = postgres_bin()
    run_as = _run_as()
    folder = Path(folder).resolve()
    home, remove = _cluster_home(folder, run_as)
    data_dir, log_path = home / "data", folder / "postgres.log"
    initdb = subprocess.run(
        [str(binaries / "initdb"), "-D", str(data_dir), "-U", POSTGRES_USER, "--auth=trust",
         "-E", "UTF8", "--locale=C", "--no-sync"],  # no-sync: a throwaway cluster
        capture_output=True, text=True, check=False, **run_as,  # type: ignore[call-overload]
    )
    if initdb.returncode != 0:
        raise ServerError(f"initdb failed ({initdb.returncode}): "
                          f"{(initdb.stderr or initdb.stdout).strip().splitlines()[-1:]}")
    for attempt in range(3):  # a free port may be taken between the probe and the bind
        port = free_port()
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                [str(binaries / "postgres"), "-D", str(data_dir), "-p", str(port),
                 "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
                 *(() if durable else ("-c", "fsync=off", "-c", "synchronous_commit=off",
                                       "-c", "full_page_writes=off")),
                 "-c", "max_connections=100"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True, **run_as,  # type: ignore[call-overload]
            )
        try:
            _wait_for(process, lambda p=port: _postgres_ready(p), log_path, "postgres",
                      timeout)
        except ServerError:
            if attempt < 2 and "could not bind" in log_tail(log_path, 5):
                continue
            raise
        break
    server = PostgresServer(url="", port=port, data_dir=data_dir, log_path=log_path,
                            process=process, remove_on_stop=remove)
    try:
        server.url = server.create_database(POSTGRES_DATABASE)
    except BaseException:
        server.stop()
        raise
    return server


def _redis_ready(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def start_redis(folder: str | Path, timeout: float = START_TIMEOUT) -> RedisServer:
    """``redis-server`` on a free port of 127.0.0.1, no persistence, working in ``folder``."""
    program = redis_bin()
    folder = Path(folder).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    log_path = folder / "redis.log"
    for attempt in range(3):
        port = free_port()
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                [str(program), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(folder), "--daemonize", "no"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            _wait_for(process, lambda p=port: _redis_ready(p), log_path, "redis-server", timeout)
        except ServerError:
            if attempt < 2 and "Address already in use" in log_tail(log_path, 5):
                continue
            raise
        break
    return RedisServer(url=f"redis://127.0.0.1:{port}/0", port=port, log_path=log_path,
                       process=process)


def main(argv: list[str] | None = None) -> int:
    """``python -m harness.servers postgres|redis FOLDER``: start one, print its URL, and
    stop it at Ctrl-C or SIGTERM (to try the Postgres warehouse without a server of your own)."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m harness.servers",
                                     description=main.__doc__)
    parser.add_argument("kind", choices=["postgres", "redis"])
    parser.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    try:
        server: PostgresServer | RedisServer = (
            start_postgres(args.folder) if args.kind == "postgres" else start_redis(args.folder))
    except ServerError as err:
        print(f"{args.kind}: {err}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    print(server.url, flush=True)
    try:
        server.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
