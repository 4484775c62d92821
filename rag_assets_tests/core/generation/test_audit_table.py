"""``answer_audit`` keeps each answer (``result_json``) under its own key (``answer_id``) and the
file ``ask --html`` wrote (``view_path``); a table written before these columns gains them on the
next append, its old rows without them."""

from __future__ import annotations

from pathlib import Path

import duckdb

from rag_assets.core.generation.records import AuditRecord
from rag_assets.core.generation.storage import append_audit, read_audit

OLD_DDL = """create table rag.answer_audit (
    answered_at timestamptz, question varchar, document varchar, year integer,
    provider varchar, k integer, sources integer, guardrail_triggered varchar,
    retry_k integer, final_sources integer, answer_chars integer, abstained boolean,
    seconds double precision)"""


VIEW = "views/answer.html"  # where ``ask --html`` wrote the view, as given (relative here)


def record(question: str, result_json: str | None = None) -> AuditRecord:
    return AuditRecord(question=question, provider="extractive", k=5, sources=1,
                       final_sources=1, answer_chars=3, abstained=False, seconds=0.1,
                       result_json=result_json, view_path=VIEW)


def test_an_audit_table_written_before_answers_were_kept_gains_their_columns(
        tmp_path: Path) -> None:
    database = tmp_path / "warehouse.duckdb"
    with duckdb.connect(str(database)) as con:
        con.execute("create schema rag")
        con.execute(OLD_DDL)
        con.execute("insert into rag.answer_audit (answered_at, question, provider, k, sources, "
                    "final_sources, answer_chars, abstained, seconds) values "
                    "('2020-01-01 00:00:00+00', 'old', 'extractive', 5, 1, 1, 3, false, 0.1)")
    new = record("new", '{"question": "new"}')
    assert append_audit(database, "rag", [new]) == 1
    assert append_audit(database, "rag", [record("newer")]) == 1  # the columns are there now
    audit = read_audit(database, "rag")
    assert list(audit.question) == ["old", "new", "newer"]
    assert audit.answer_id.isna().tolist() == [True, False, False]
    assert audit.answer_id.iloc[1] == new.answer_id != audit.answer_id.iloc[2]
    assert audit.result_json.iloc[1] == '{"question": "new"}'
    assert audit.view_path.tolist()[1:] == [VIEW] * 2
