"""``read_rows``: the rows a page shows, read with a WHERE, an ORDER BY and a LIMIT."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from rag_assets.core.warehouse.connection import read_rows


@pytest.fixture
def audit(tmp_path: Path) -> Path:
    """A warehouse whose ``answer_audit`` holds five answers, asked a minute apart."""
    path = tmp_path / "warehouse.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("create schema rag")
        con.execute("create table rag.answer_audit (answered_at timestamp, answer_id varchar, "
                    "question varchar, result_json varchar)")
        for n in range(5):
            con.execute("insert into rag.answer_audit values "
                        "(timestamp '2026-11-29 10:00:00' + to_minutes(?), ?, ?, ?)",
                        [n, f"a{n}", f"question {n}", None if n == 3 else "{}"])
    return path


def test_the_newest_rows_first_and_no_more(audit: Path) -> None:
    frame = read_rows(audit, "answer_audit", newest_by="answered_at", limit=2)
    assert frame is not None
    assert list(frame["answer_id"]) == ["a4", "a3"]
    assert list(frame.columns) == ["answered_at", "answer_id", "question", "result_json"]


def test_one_answer_by_its_id(audit: Path) -> None:
    frame = read_rows(audit, "answer_audit", where={"answer_id": "a2"})
    assert frame is not None
    assert frame.to_dict("records")[0]["question"] == "question 2"
    assert len(frame) == 1
    empty = read_rows(audit, "answer_audit", where={"answer_id": "nobody"})
    assert empty is not None and empty.empty


def test_a_column_the_table_lacks_matches_no_row(audit: Path) -> None:
    """A table written before a column was added: no row has it, nothing fails."""
    frame = read_rows(audit, "answer_audit", where={"view_path": "x.html"})
    assert frame is not None and frame.empty
    assert "question" in frame.columns


def test_no_warehouse_or_no_table_is_none(audit: Path, tmp_path: Path) -> None:
    assert read_rows(tmp_path / "none.duckdb", "answer_audit") is None
    assert read_rows(audit, "summaries") is None
    assert not (tmp_path / "none.duckdb").exists()  # a reader creates no warehouse
