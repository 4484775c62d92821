"""The throwaway servers of ``harness.servers``: real PostgreSQL and Redis on 127.0.0.1."""

from __future__ import annotations

import socket
from pathlib import Path

import psycopg
import pytest

from harness import servers
from harness.servers import ServerMissing, start_redis


def test_postgres_answers_and_makes_databases(postgres_server):
    assert postgres_server.url.startswith("postgresql://rag@127.0.0.1:")
    url = postgres_server.create_database("servers_test")
    assert url == postgres_server.url.rsplit("/", 1)[0] + "/servers_test"
    assert postgres_server.create_database("servers_test") == url  # a second call: no error
    with psycopg.connect(url) as con:
        assert con.execute("select current_database(), current_user").fetchone() == (
            "servers_test", "rag")
        assert con.execute("show fsync").fetchone() == ("off",)  # throwaway: fast over durable
        assert con.execute("show listen_addresses").fetchone() == ("127.0.0.1",)


def test_redis_answers_and_stops(tmp_path: Path):
    try:
        server = start_redis(tmp_path)
    except ServerMissing as err:
        pytest.skip(str(err))
    with server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            sock.sendall(b"PING\r\n")
            assert sock.recv(16) == b"+PONG\r\n"
        assert server.url == f"redis://127.0.0.1:{server.port}/0"
    assert server.process.poll() is not None
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=2)


def test_missing_programs_say_so_in_one_line(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(servers.Path, "glob", lambda self, pattern: iter(()))
    with pytest.raises(ServerMissing) as missing:
        servers.start_postgres(tmp_path)
    assert "\n" not in str(missing.value) and "make services" in str(missing.value)
    monkeypatch.setattr(servers.Path, "is_file", lambda self: False)
    with pytest.raises(ServerMissing, match="redis-server"):
        servers.start_redis(tmp_path)
