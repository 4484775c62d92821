"""Stored pages and statement facts read one partition at a time: a DuckDB warehouse holding 3M's
2018 statements (real pages and the facts the reader finds in them) and the generated earnings
release; each read is one partition's rows, on first use, never the whole table."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.ingest.facts import extract_facts
from rag_assets.core.ingest.pages import raw_page_text
from rag_assets.core.warehouse import stored
from rag_assets.core.warehouse.connection import read_partition_rows, read_partitions
from rag_assets.core.warehouse.stored import StoredPages, stored_facts
from rag_assets.core.warehouse.tables import facts_to_frame, pages_to_frame
from rag_assets_tests.core.conftest import Processed, write_warehouse

THREE_M, EARNINGS = ("3m-10k", 2018), ("exemplar-corp-earnings", 2024)
STATEMENT_PAGES = range(50, 63)


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory, three_m: Processed,
              earnings: Processed) -> Path:
    """``raw_pages`` of both partitions and ``financial_statements`` of 3M, as the assets
    write them."""
    pages = [p for p in three_m.pages if p.page_index in STATEMENT_PAGES]
    facts = extract_facts(*THREE_M, pages, three_m.context.statements(pages))
    assert facts
    frames = {"raw_pages": [pages_to_frame(pages, *THREE_M, "3M_2018_10K.pdf", "0" * 64,
                                           three_m.context),
                            pages_to_frame(earnings.pages, *EARNINGS, "e.pdf", "1" * 64,
                                           earnings.context)],
              "financial_statements": [facts_to_frame(facts, set())]}
    path = tmp_path_factory.mktemp("stored") / "warehouse.duckdb"
    return write_warehouse(path, frames)


def test_a_partition_is_read_on_first_use_and_nothing_else(warehouse: Path,
                                                          three_m: Processed) -> None:
    pages = PageTexts.from_warehouse(warehouse)
    assert pages.partitions() == [THREE_M, EARNINGS]  # a DISTINCT: no page read
    assert pages.reads == [] and len(pages) == 0
    in_memory = PageTexts.from_pages(*THREE_M, [p for p in three_m.pages
                                                if p.page_index in STATEMENT_PAGES])
    assert pages.get(*THREE_M, 55) == raw_page_text(three_m.pages[55])
    assert "| Net sales | $ 32,765 |" in (pages.get(*THREE_M, 55) or "")
    assert pages.pages_of(*THREE_M) == list(STATEMENT_PAGES)
    for page in STATEMENT_PAGES:
        key = (*THREE_M, page)
        assert key in pages
        assert pages.normalized(*key) == in_memory.normalized(*key)
        assert pages.page_labels(key) == in_memory.page_labels(key)
        assert pages.page_mentions(key) == in_memory.page_mentions(key)
    assert pages.reads == [THREE_M] and pages.held == [THREE_M]
    assert len(pages) == len(STATEMENT_PAGES)
    # each page's Item as ingest stored it (raw_pages.item), from the same read
    stored = {p.page_index: p.item for p in three_m.context.pages
              if p.page_index in STATEMENT_PAGES}
    assert pages.page_items(*THREE_M) == stored and any(stored.values())
    # and what ingest classified each page as (raw_pages.statement), never classified again
    kinds = {p.page_index: p.statement for p in three_m.context.pages
             if p.page_index in STATEMENT_PAGES}
    assert pages.page_statements(*THREE_M) == kinds and "income_statement" in kinds.values()
    assert pages.reads == [THREE_M]
    # a partition the warehouse does not hold is asked once, and holds nothing
    assert pages.get("tesla-10k", 2023, 0) is None and pages.pages_of("tesla-10k", 2023) == []
    assert ("tesla-10k", 2023, 0) not in pages
    assert pages.reads == [THREE_M, ("tesla-10k", 2023)] and pages.held == [THREE_M]


def test_read_partitions_past_the_bound_are_dropped_and_read_again(
        warehouse: Path, three_m: Processed) -> None:
    pages = PageTexts(source=StoredPages(warehouse), keep_partitions=1)
    pages.add("added", 2020, three_m.pages[:2])  # given, not read: never dropped
    assert pages.get(*THREE_M, 55) and pages.get(*EARNINGS, 0)
    assert pages.held == [("added", 2020), EARNINGS]
    assert pages.get(*THREE_M, 55) == raw_page_text(three_m.pages[55])
    assert pages.reads == [THREE_M, EARNINGS, THREE_M]
    assert pages.held == [THREE_M, ("added", 2020)]
    assert pages.get("added", 2020, 1) == raw_page_text(three_m.pages[1])


def test_statement_facts_are_read_for_the_partition_asked(warehouse: Path, monkeypatch) -> None:
    reads: list[tuple[str, str, int]] = []

    def counted(database, table, document, year, *rest):  # noqa: ANN001, ANN202
        reads.append((table, document, year))
        return read_partition_rows(database, table, document, year, *rest)

    monkeypatch.setattr(stored, "read_partition_rows", counted)
    facts = stored_facts(warehouse)
    found = facts(*THREE_M)
    assert found and {(f.document, f.year) for f in found} == {THREE_M}
    assert any(f.concept == "revenue" and f.printed == "$32,765" for f in found)  # p.56
    assert facts(*THREE_M) is found and facts(*EARNINGS) == []
    assert reads == [("financial_statements", *THREE_M), ("financial_statements", *EARNINGS)]


def test_a_missing_warehouse_or_table_reads_as_nothing(warehouse: Path, tmp_path: Path) -> None:
    missing = tmp_path / "none.duckdb"
    assert read_partitions(missing, "raw_pages") is None
    assert read_partition_rows(missing, "raw_pages", *THREE_M).empty
    assert not missing.exists()  # a reader creates no warehouse
    assert read_partitions(warehouse, "summaries") is None
    assert read_partition_rows(warehouse, "summaries", *THREE_M, ["text"]).columns.tolist() \
        == ["text"]
    assert PageTexts.from_warehouse(missing).partitions() == []
    assert StoredPages(missing).pages(*THREE_M) == []
