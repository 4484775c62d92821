"""The ``answer_audit`` table: every answer given, by the assets or ``rag-assets ask``, appended.

An audit log is the one table that is appended to, not replaced by partition: it records what was
answered when. Written straight to DuckDB (the IO manager replaces partitions), created with its
schema on first use, and retried while another process holds the warehouse's lock.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import duckdb
import pandas as pd

from rag_assets.core.generation.records import AuditRecord

AUDIT_TABLE = "answer_audit"
AUDIT_DDL = """
create table if not exists {table} (
    answered_at timestamptz, question varchar, document varchar, year integer,
    provider varchar, k integer, sources integer, guardrail_triggered varchar,
    retry_k integer, final_sources integer, answer_chars integer, abstained boolean,
    seconds double
)"""


def append_audit(database: str | Path, schema: str, records: Sequence[AuditRecord],
                 wait_seconds: float = 60.0) -> int:
    """Append ``records``; returns how many rows were written."""
    table = f"{schema}.{AUDIT_TABLE}"
    frame = pd.DataFrame([r.model_dump() for r in records], columns=list(AuditRecord.model_fields))
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            con = duckdb.connect(str(database))
            break
        except duckdb.IOException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    try:
        con.execute(f"create schema if not exists {schema}")
        con.execute(AUDIT_DDL.format(table=table))
        if len(frame):
            con.register("_audit_rows", frame)
            con.execute(f"insert into {table} by name select * from _audit_rows")
            con.unregister("_audit_rows")
    finally:
        con.close()
    return len(frame)


def read_audit(database: str | Path, schema: str) -> pd.DataFrame:
    with duckdb.connect(str(database), read_only=True) as con:
        return con.execute(f"select * from {schema}.{AUDIT_TABLE} order by answered_at").df()
