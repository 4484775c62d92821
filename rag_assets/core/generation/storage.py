"""Generation's warehouse records: summary and answer rows, and the ``answer_audit`` log.

Summaries and answers are partition tables (a partition's rows are replaced, by the IO manager).
The audit log is the one table that is appended to: it records what was answered when, by the
assets and by ``rag-assets ask``, so it is written straight to the warehouse (DuckDB or Postgres,
through ``connect_warehouse``), created with its schema on first use, and retried while another
process holds a DuckDB file's lock.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from rag_assets.core.generation.records import AuditRecord, QAResult, SummaryResult
from rag_assets.core.warehouse.connection import (
    connect_warehouse,
    create_table_once,
    insert_frame,
)

if TYPE_CHECKING:  # golden questions belong to evaluation, a later stage: only their fields
    from rag_assets.core.evaluation.questions import GoldenQuestion

SUMMARY_COLUMNS = [
    "document", "year", "variant", "position", "text", "citations", "chunk_ids", "provider",
    "model", "seconds",
]
ANSWER_COLUMNS = [
    "document", "year", "question_id", "question", "category", "answer", "abstained",
    "n_claims", "sources", "guardrails", "result_json", "provider", "seconds",
]


def summaries_to_frame(results: Sequence[SummaryResult]) -> pd.DataFrame:
    """One row per cited sentence of each summary."""
    rows = [
        {"document": r.document, "year": r.year, "variant": r.variant, "position": position,
         "text": claim.text,
         "citations": json.dumps([c.model_dump() for c in claim.citations]),
         "chunk_ids": json.dumps(r.chunk_ids), "provider": r.provider, "model": r.model,
         "seconds": r.seconds}
        for r in results for position, claim in enumerate(r.claims, start=1)
    ]
    types = {c: "string" for c in SUMMARY_COLUMNS} | {
        "year": "Int64", "position": "Int64", "seconds": "Float64"}
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS).astype(types)


def answers_to_frame(questions: Sequence[GoldenQuestion], results: Sequence[QAResult],
                     document: str, year: int) -> pd.DataFrame:
    """One row per question: the answer text, its sources and guardrails, and the whole
    ``QAResult`` as JSON (what the metrics and the reports read back)."""
    rows = [
        {"document": document, "year": year, "question_id": q.id, "question": q.question,
         "category": q.category, "answer": r.answer, "abstained": r.abstained,
         "n_claims": len(r.claims),
         "sources": json.dumps([s.label for s in r.sources_used]),
         "guardrails": json.dumps([e.model_dump() for e in r.guardrail_events]),
         "result_json": r.model_dump_json(), "provider": r.provider, "seconds": r.seconds}
        for q, r in zip(questions, results, strict=True)
    ]
    types = {c: "string" for c in ANSWER_COLUMNS} | {
        "year": "Int64", "abstained": "boolean", "n_claims": "Int64", "seconds": "Float64"}
    return pd.DataFrame(rows, columns=ANSWER_COLUMNS).astype(types)


AUDIT_TABLE = "answer_audit"
AUDIT_DDL = """
create table if not exists {table} (
    answered_at timestamptz, question varchar, document varchar, year integer,
    provider varchar, k integer, sources integer, guardrail_triggered varchar,
    retry_k integer, final_sources integer, answer_chars integer, abstained boolean,
    seconds double precision, answer_id varchar, result_json varchar, view_path varchar
)"""
# columns added after the table's first release: a table written before them gains them
AUDIT_ADDED = {"answer_id": "varchar", "result_json": "varchar", "view_path": "varchar"}


def append_audit(database: str | Path, schema: str, records: Sequence[AuditRecord],
                 wait_seconds: float = 60.0) -> int:
    """Append ``records``; returns how many rows were written."""
    table = f"{schema}.{AUDIT_TABLE}"
    frame = pd.DataFrame([r.model_dump() for r in records], columns=list(AuditRecord.model_fields))
    con = connect_warehouse(database, wait_seconds=wait_seconds)
    try:
        create_table_once(con, schema, AUDIT_TABLE, AUDIT_DDL.format(table=table))
        present = set(con.execute(f"select * from {table} limit 0").df().columns)
        for column, kind in AUDIT_ADDED.items():
            if column not in present:
                con.execute(f"alter table {table} add column if not exists {column} {kind}")
        return insert_frame(con, schema, AUDIT_TABLE, frame)
    finally:
        con.close()


def read_audit(database: str | Path, schema: str) -> pd.DataFrame:
    con = connect_warehouse(database, read_only=True)
    try:
        frame: pd.DataFrame = con.execute(
            f"select * from {schema}.{AUDIT_TABLE} order by answered_at").df()
        return frame
    finally:
        con.close()
