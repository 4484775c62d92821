"""Stored pages and statement facts read one partition at a time, on first use.

A question reads the pages it cites and the facts of the filing it is routed to: one
``WHERE document = ? AND year = ?`` per partition (:func:`connection.read_partition_rows`),
never the whole ``raw_pages`` or ``financial_statements`` table, so what an answer costs does
not grow with what else is indexed. Each read opens the warehouse read-only and closes it (a
run may write the file between two questions).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.ingest.pages import Page
from rag_assets.core.ingest.statements import StatementKind
from rag_assets.core.warehouse.connection import read_partition_rows, read_partitions
from rag_assets.core.warehouse.tables import (
    frame_to_facts,
    frame_to_items,
    frame_to_pages,
    frame_to_statements,
)

PAGES_TABLE = "raw_pages"
FACTS_TABLE = "financial_statements"


class StoredPages:
    """The ``raw_pages`` of a warehouse, one partition per read."""

    def __init__(self, database: str | Path) -> None:
        self.database = database
        self._items: dict[tuple[str, int], dict[int, str | None]] = {}
        self._statements: dict[tuple[str, int], dict[int, StatementKind | None]] = {}

    def pages(self, document: str, year: int) -> list[Page]:
        """The partition's pages in page order; none when it is not stored. The Item ingest
        read for each page and its statement are kept from the same read (:meth:`items`,
        :meth:`statements`)."""
        frame = read_partition_rows(self.database, PAGES_TABLE, document, year)
        self._items[(document, int(year))] = frame_to_items(frame) if len(frame) else {}
        self._statements[(document, int(year))] = (frame_to_statements(frame) if len(frame)
                                                   else {})
        return frame_to_pages(frame) if len(frame) else []

    def items(self, document: str, year: int) -> dict[int, str | None]:
        """The Item of each page of the partition, as ingest stored it (``raw_pages.item``),
        from the last :meth:`pages` read of it (read again when there was none)."""
        key = (document, int(year))
        if key not in self._items:
            self.pages(document, year)
        return self._items.pop(key, {})

    def statements(self, document: str, year: int) -> dict[int, StatementKind | None]:
        """The statement ingest classified each page of the partition as
        (``raw_pages.statement``), from the last :meth:`pages` read of it."""
        key = (document, int(year))
        if key not in self._statements:
            self.pages(document, year)
        return self._statements.pop(key, {})

    def partitions(self) -> list[tuple[str, int]]:
        """The (document, year) partitions stored, sorted (a ``DISTINCT``, not the pages)."""
        return read_partitions(self.database, PAGES_TABLE) or []


def stored_facts(database: str | Path) -> Callable[[str, int], list[StatementFact]]:
    """The statement facts of one partition (what ``Answerer`` asks for: the filing routing
    picked), read from ``financial_statements`` on first use and kept."""
    cache: dict[tuple[str, int], list[StatementFact]] = {}

    def facts(document: str, year: int) -> list[StatementFact]:
        key = (document, int(year))
        if key not in cache:
            frame = read_partition_rows(database, FACTS_TABLE, document, int(year))
            cache[key] = frame_to_facts(frame) if len(frame) else []
        return cache[key]

    return facts
