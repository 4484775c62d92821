"""Line items a statement prints only inside one line, read from the note that breaks it down.

A statement may print one line for several items (3M's 2018 income statement: "Other expense
(income), net" of $207 million) while a note prints the parts under a title that names that
line ("Other expense (income), net consists of the following:" interest expense $350, interest
income $(70), pension and postretirement benefit $(73), total $207). Such a table's rows are
parts of the statement's line: they are taken as facts of that statement when the table's
title names the line and its total equals the line's figure in every year both print (the
parts of those years alone), so the statement's own figure checks the table. Only lines of the
income and cash flow statements (a balance is broken down by place or segment, not into
items). A part is added only for a concept the statements give no fact of in that year: a
statement's own row always wins.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.ingest.facts import StatementFact, concept_of, normalize_label
from rag_assets.core.ingest.pages import Page, TableBlock
from rag_assets.core.ingest.statements import StatementKind
from rag_assets.core.text.figures import parse_figure
from rag_assets.core.text.years import WHOLE_YEAR_RE

# the statements of a period's flows: a balance's breakdown is by place or segment, not by item
BROKEN_DOWN: tuple[StatementKind, ...] = ("income_statement", "cash_flow")
MIN_LABEL_WORDS = 2  # "Other expense (income), net"; a one-word line ("Revenue") names too much
TOTAL_RE = re.compile(r"^\s*total\b", re.IGNORECASE)


def breakdown_facts(pages: Sequence[Page], facts: Sequence[StatementFact]) -> list[StatementFact]:
    """The parts, as facts of the statement, of every note table that breaks down a line."""
    lines: dict[str, list[StatementFact]] = {}  # each line's facts by its label, read once
    for fact in facts:
        label = normalize_label(fact.label)
        if fact.statement in BROKEN_DOWN and len(label.split()) >= MIN_LABEL_WORDS:
            lines.setdefault(label, []).append(fact)
    if not lines:
        return []
    given: set[tuple[str | None, int | None]] = {(f.concept, f.fiscal_year) for f in facts
                                                 if f.concept}
    added: list[StatementFact] = []
    for page in pages:
        for table in page.tables:
            title = normalize_label(table.title or "")
            named = {label: of_line for label, of_line in lines.items() if label in title}
            years = _years(table)
            if not named or not years:
                continue
            line, checked = _checked_line(table, years, named)
            for fact in _parts(page.page_index, table, checked, line):
                if (fact.concept, fact.fiscal_year) not in given:
                    given.add((fact.concept, fact.fiscal_year))
                    added.append(fact)
    return added


def _years(table: TableBlock) -> dict[int, int]:
    """Column -> the year its heading (the table's first row) names."""
    if not table.rows:
        return {}
    return {column: int(cell.strip()) for column, cell in enumerate(table.rows[0])
            if column and WHOLE_YEAR_RE.match(cell.strip())}


def _checked_line(table: TableBlock, years: dict[int, int],
                  named: dict[str, list[StatementFact]]
                  ) -> tuple[list[StatementFact], dict[int, int]]:
    """The statement line's facts whose figure the table's total row prints in every year both
    have, and those years' columns (none: no line checks)."""
    total = next((row for row in reversed(table.rows[1:]) if row and TOTAL_RE.match(row[0])),
                 None)
    if total is None:
        return [], {}
    for of_line in named.values():
        checked: dict[int, int] = {}
        for column, year in years.items():
            fact = next((f for f in of_line if f.fiscal_year == year), None)
            value = parse_figure(total[column]) if column < len(total) else None
            if fact is None or value is None:
                continue
            if abs(abs(value) * fact.scale - abs(fact.value)) > fact.scale / 2:
                checked = {}
                break
            checked[column] = year
        if checked:
            return of_line, checked
    return [], {}


def _parts(page: int, table: TableBlock, years: dict[int, int], line: Sequence[StatementFact]
           ) -> list[StatementFact]:
    """The table's rows but its heading and total, as facts of the line's statement, in the
    line's units, in the years checked."""
    if not line or not years:
        return []
    fact = line[0]
    out: list[StatementFact] = []
    for at, row in enumerate(table.rows[1:], start=1):
        if not row or TOTAL_RE.match(row[0]):
            continue
        concept, rank = concept_of(row[0], fact.statement)
        if concept is None:
            continue
        for column, year in years.items():
            value = parse_figure(row[column]) if column < len(row) else None
            if value is None:
                continue
            out.append(StatementFact(
                document=fact.document, year=fact.year, statement=fact.statement,
                label=row[0], concept=concept, rank=rank, period=table.rows[0][column],
                fiscal_year=year, months=fact.months, value=value * fact.scale, unit=fact.unit,
                scale=fact.scale, printed=row[column], page=page,
                quote=" ".join(c for c in row if c), column=column, row=at))
    return out
