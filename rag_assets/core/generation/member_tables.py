"""Members printed a table each, read as one table whose rows are the members.

Netflix's 10-K prints its streaming results as a table per region (UCAN, EMEA, LATAM, APAC in
MD&A, and again in Note 2), each titled by the region and printing the same rows ("Revenues",
"Paid net membership additions", ...). "Which region grew streaming revenue the fastest?"
compares one row across those tables: the row of the measure asked, taken from each table its
member titles, becomes that member's row, so the superlative ranks the members as it ranks a
segment table's rows. Hand-written: no library reads a filing's layout of tables by member.

Only places are read as members this way (``places.names_a_place``): a title that names a
region is a member for certain, while a table titled by a segment's name is also how a filer
titles any other table (its products, its notes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import PageRows, Row, read_row
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.places import names_a_place
from rag_assets.core.text.periods import HEADER_AFTER_TITLE_RE

MIN_MEMBER_TABLES = 3  # fewer tables of places than this are no layout of members
MAX_MEMBERS = 20  # a run is read no further: no filer reports more regions a table each
RUNNING_HEAD_RE = re.compile(r"^\s*table\s+of\s+contents\s+", re.IGNORECASE)
# a rate per unit names the measure but is no amount of it: "Average monthly revenue per paying
# membership" beside "Revenues"
PER_UNIT_RE = re.compile(r"\bper\b", re.IGNORECASE)


def member_name(scope: str) -> str | None:
    """The place a row's table is titled by, from its scope's title (the words before the
    table's period header), or None when no part of the scope names one."""
    for part in scope.split(" | "):
        end = HEADER_AFTER_TITLE_RE.search(part)
        if end is None:
            continue
        name = RUNNING_HEAD_RE.sub("", part[:end.start()]).strip()
        if name and len(name.split()) <= 8 and names_a_place(name):
            return name
    return None


def _first_cells(row: Row) -> Row:
    """The row with each heading's first cell only: a header "Change 2020 vs. 2019" over two
    columns reads as a second "2020" and "2019" after the periods' own."""
    seen: set[str] = set()
    cells = []
    for cell in row.cells:
        if cell.heading not in seen:
            seen.add(cell.heading)
            cells.append(cell)
    return row.model_copy(update={"cells": cells})


def member_rows(selected: Sequence[EvidenceUnit], page_rows: PageRows,
                measured: Sequence[str]) -> list[Row]:
    """A row per member from the pages of ``selected``, each run read on to the page after
    (a run of tables goes on over a page break: Netflix's APAC after UCAN, EMEA and LATAM):
    each table titled by a place that prints exactly one row labelled by one of ``measured``
    (the measure's words; a rate per unit is none), that row labelled by its place and
    captioned by its own label. The first run of at least ``MIN_MEMBER_TABLES`` members whose
    rows print the same headings, in page order; none when no page prints one."""
    read: dict[tuple[str, int, int], list[Row]] = {}

    def members(key: tuple[str, int, int]) -> list[Row]:
        if key not in read:
            read[key] = _members_on(page_rows(*key), measured)
        return read[key]

    for key in sorted({(u.document, u.year, u.page) for u in selected}):
        for start in (key, (key[0], key[1], key[2] + 1)):
            run: list[Row] = []
            page = start
            while len(run) < MAX_MEMBERS and (found := members(page)):
                run += found  # the run goes on while each next page prints members
                page = (page[0], page[1], page[2] + 1)
            headings = {tuple(c.heading for c in r.cells) for r in run}
            names = [r.label for r in run]
            if len(run) >= MIN_MEMBER_TABLES and len(headings) == 1 and len(
                    set(names)) == len(names):
                return run
    return []


def _members_on(units: Sequence[EvidenceUnit], measured: Sequence[str]) -> list[Row]:
    """The member rows of one page (:func:`member_rows`)."""
    tables: dict[str, list[Row]] = {}
    for unit in units:
        row = read_row(unit)
        if row is not None and any(w in row.label.lower() for w in measured) and not (
                PER_UNIT_RE.search(row.label)):
            tables.setdefault(unit.chunk_id, []).append(row)
    found = []
    for rows in tables.values():
        name = member_name(rows[0].unit.scope) if len(rows) == 1 else None
        if name is not None:
            # the row's label is what its figures measure: its caption as a member's row
            unit = rows[0].unit.model_copy(update={"caption": rows[0].label})
            found.append(_first_cells(rows[0]).model_copy(update={"label": name, "unit": unit}))
    return found
