"""The warehouse engines side by side: writing and reading the biggest table of a real 10-K's
ingest (its enriched chunks) in the embedded DuckDB file and in Postgres, in one process.

The chunks come from the project's core on one PDF (default ``../shared/corpora/sec-10k/
3M_2018_10K.pdf``: load, footnote index, stitch, enriched chunks, ``chunks_to_frame``), and are
written as ``--partitions`` partitions (the same rows under documents ``bench-01``, ...), so the
last writes land in a table that already holds thousands of rows, as in a corpus. Each engine
runs what its IO manager runs for one output, minus Dagster's run around it: the ``DbClient``'s
connection, schema, partition delete, then the type handler's write (DuckDB: register + insert;
Postgres: ``COPY``, one transaction). Then the reads: one partition through the type handler's
``load_input`` (what a downstream step gets), the whole table through ``read_whole_table`` (what
the roll-ups read). Each figure is the median of ``--rounds`` rounds on a fresh database.

Postgres is a throwaway server on 127.0.0.1 (``harness.servers``), run as the tests run
it (``fsync=off``: commits do not wait for the disk) or with ``--durable`` as a real server runs
(``fsync``, ``synchronous_commit``, ``full_page_writes`` on: one WAL flush per partition
written), or the one ``--url`` names. DuckDB writes its file as it always does (its WAL synced
at each commit). Run: ``.venv/bin/python bench/warehouse_bench.py [--pdf PATH]
[--partitions 12] [--rounds 3] [--durable] [--url postgresql://...]``. Prints a table, then
``BENCH_JSON {...}``; the figures also go to ``bench/out/warehouse.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
OUT_JSON = REPO / "bench" / "out" / "warehouse.json"
DEFAULT_PDF = REPO.parent / "shared" / "corpora" / "sec-10k" / "3M_2018_10K.pdf"
YEAR = 2018


class _Context:
    """What the IO manager's client and type handler read of Dagster's contexts."""

    has_partition_key = True
    asset_partition_keys = ["one"]

    def __init__(self, database: str) -> None:
        self.resource_config = {"database": database, "connection_config": {}}

    def add_output_metadata(self, metadata: dict[str, Any]) -> None:
        pass


def chunk_frame(pdf: Path) -> Any:
    """The enriched chunks of ``pdf`` as the ingest step writes them."""
    from rag_assets.core.chunks.report import process_report
    from rag_assets.core.warehouse.tables import chunks_to_frame

    return chunks_to_frame(process_report(pdf, "bench", YEAR).enriched_chunks)


def engine(database: str) -> tuple[Any, Any]:
    """(DbClient, type handler) of the IO manager the database string picks."""
    from rag_assets.defs.warehouse import warehouse_io_manager

    manager = warehouse_io_manager(database, "rag")
    handler = manager.type_handlers()[0]
    if type(manager).__name__ == "PostgresWarehouseIOManager":
        from rag_assets.defs.warehouse import PostgresClient
        return PostgresClient(), handler
    from dagster_duckdb.io_manager import DuckDbClient
    return DuckDbClient(), handler


def one_round(database: str, frame: Any, partitions: int) -> dict[str, float]:
    from dagster._core.storage.db_io_manager import TablePartitionDimension, TableSlice

    from rag_assets.core.warehouse.connection import read_whole_table

    client, handler = engine(database)
    context = _Context(database)
    documents = [f"bench-{i:02d}" for i in range(1, partitions + 1)]

    def table_slice(document: str) -> TableSlice:
        return TableSlice(table="enriched_chunks", schema="rag", database=database,
                          partition_dimensions=[
                              TablePartitionDimension("document", [document]),
                              TablePartitionDimension("year", [str(YEAR)])])

    def write(document: str) -> None:
        part = frame.assign(document=document).astype({"document": "string"})
        slice_ = table_slice(document)
        with client.connect(context, slice_) as con:
            client.ensure_schema_exists(context, slice_, con)
            client.delete_table_slice(context, slice_, con)
            handler.handle_output(context, slice_, part, con)

    def read_partition() -> int:
        slice_ = table_slice(documents[-1])
        with client.connect(context, slice_) as con:
            return len(handler.load_input(context, slice_, con))

    figures: dict[str, float] = {}
    figures["write_s"] = timed(lambda: [write(d) for d in documents])[1]
    figures["rewrite_last_s"] = timed(lambda: write(documents[-1]))[1]
    rows, figures["read_partition_s"] = timed(read_partition)
    assert rows == len(frame), (rows, len(frame))
    whole, figures["read_table_s"] = timed(
        lambda: read_whole_table(database, "enriched_chunks", frame.head(0)))
    assert len(whole) == len(frame) * partitions, (len(whole), len(frame) * partitions)
    figures["total_s"] = (figures["write_s"] + figures["rewrite_last_s"]
                          + figures["read_partition_s"] + figures["read_table_s"])
    return figures


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    value = work()
    return value, time.perf_counter() - started


def median_rounds(make_database: Callable[[int], str], frame: Any, partitions: int,
                  rounds: int) -> dict[str, float]:
    runs = [one_round(make_database(r), frame, partitions) for r in range(rounds)]
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF)
    parser.add_argument("--partitions", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--url", help="a Postgres server of your own (else a throwaway one)")
    parser.add_argument("--durable", action="store_true",
                        help="the throwaway server with fsync and synchronous commits on")
    args = parser.parse_args()

    from tabulate import tabulate

    from harness.servers import start_postgres

    started = time.perf_counter()
    frame = chunk_frame(args.pdf)
    print(f"{args.pdf.name}: {len(frame)} enriched chunks, "
          f"{int(frame.text.str.len().sum()):,} characters of text "
          f"({time.perf_counter() - started:.1f} s to build); {args.partitions} partitions: "
          f"{len(frame) * args.partitions:,} rows", flush=True)
    with tempfile.TemporaryDirectory(prefix="warehouse-bench-") as tmp:
        folder = Path(tmp)
        duck = median_rounds(lambda r: str(folder / f"round{r}.duckdb"), frame,
                             args.partitions, args.rounds)
        server = None if args.url else start_postgres(folder / "postgres",
                                                      durable=args.durable)
        try:
            if server is not None:
                def database(r: int) -> str:
                    return server.create_database(f"bench_{r}_{uuid.uuid4().hex[:6]}")
            else:
                import psycopg

                def database(r: int) -> str:
                    with psycopg.connect(args.url, autocommit=True) as con:
                        con.execute("drop schema if exists rag cascade")
                    return str(args.url)
            pg = median_rounds(database, frame, args.partitions, args.rounds)
        finally:
            if server is not None:
                server.stop()
    rows = [[name, f"{duck[key]:.3f}", f"{pg[key]:.3f}", f"{pg[key] / duck[key]:.2f}"]
            for name, key in (("write every partition", "write_s"),
                              ("write the last partition again", "rewrite_last_s"),
                              ("read one partition (IO manager)", "read_partition_s"),
                              ("read the whole table (roll-ups)", "read_table_s"),
                              ("total", "total_s"))]
    print(tabulate(rows, headers=["seconds (median)", "DuckDB", "Postgres", "Postgres/DuckDB"]))
    result = {"pdf": args.pdf.name, "chunks": len(frame), "partitions": args.partitions,
              "postgres_server": "--url" if args.url else "durable" if args.durable
              else "fsync=off",
              "rows": len(frame) * args.partitions, "rounds": args.rounds,
              "duckdb": duck, "postgres": pg,
              "ratio_total": pg["total_s"] / duck["total_s"]}
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps(result, indent=2))
    print("BENCH_JSON " + json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
