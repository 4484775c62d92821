"""A cause's change sized from the table MD&A prints it in.

MD&A often prints a measure's table and then explains each line of it without repeating the
amounts ("The increase in net revenues from digital online channels for the three months ended
June 30, 2023 ... was primarily due to higher revenues from: • Call of Duty ...", under the
table of net revenues by distribution channel, Activision Blizzard's Q2 2023 10-Q): the cause
answer then says why, but not by how much. Item 303(b) asks MD&A to discuss the changes of the
line items its tables print, so the row of that table which the explained sentence and the
question both name gives the change's two figures: the answer states them after the causes.
"""

from __future__ import annotations

import re

from rag_assets.core.generation.direct_rows import (
    Cell,
    DirectAnswer,
    DirectCues,
    PageRows,
    Row,
    heading_has,
    money,
    read_row,
    row_moved,
)
from rag_assets.core.generation.drivers import measure_roots, root, stated_direction
from rag_assets.core.ingest.statements import STATEMENT_TITLES
from rag_assets.core.question.question import Period, Question
from rag_assets.core.text.figures import AMOUNT_STATED_RE
from rag_assets.core.text.periods import DURATIONS, SEQUENTIAL_RE, column_of_months

# a primary statement's rows open their scope with its title (MD&A's and the segment note's
# tables are the ones that size a change)
_STATEMENTS = tuple(title for kind, title in STATEMENT_TITLES.items()
                    if kind not in ("segment_note", "mdna"))
PAGES_BEFORE = 2  # MD&A prints a table, then explains its lines: on its page or the next two
_WORD_RE = re.compile(r"[^\W\d_]{3,}")


def sized_cause(question: Question, found: DirectAnswer | None, page_rows: PageRows | None,
                cues: DirectCues) -> DirectAnswer | None:
    """``found`` with its change's two figures and their difference after the causes, read from
    the one table row that the explained sentence and the question both name, in the columns
    of the period asked and the same period a year before; ``found`` unchanged when its change
    prints an amount already, or no single row fits."""
    if found is None or found.kind != "cause" or page_rows is None or not found.changed or (
            AMOUNT_STATED_RE.search(found.changed)):
        return found
    periods = _periods(question)
    stated = {months for pattern, months in DURATIONS if pattern.search(found.changed)}
    if periods is None or (stated and question.months not in stated) or SEQUENTIAL_RE.search(
            found.changed):
        return found  # another length's change (six months, asked Q2), or the quarter before's
    sized = _rows_sized(question, found, page_rows, periods)
    if len(sized) != 1:
        return found  # none, or two rows the sentence names alike: not guessed at
    row, now, then = sized[0]
    said = stated_direction(found.changed)
    if said is not None and said != ("up" if now.value > then.value else "down"):
        return found  # "the net income increase" beside a row that fell: another change's
    moved = row_moved(now, then, row.unit, cues)
    figures = (f"{row.label}: {money(now, row.unit, cues)} in {now.heading} against "
               f"{money(then, row.unit, cues)} in {then.heading}, {moved[0].lower()}{moved[1:]}")
    text = f"{found.text.rstrip(' .')} ({figures})."
    return found.model_copy(update={"text": text, "units": [*found.units, row.unit]})


def _periods(question: Question) -> tuple[Period, Period] | None:
    """The period asked and the one it is compared with: the two the question names, else the
    one it names and the same period a year before (MD&A compares a quarter with the year
    before's)."""
    periods = sorted(question.periods, key=lambda p: (p[1], p[0] or ""), reverse=True)
    if len(periods) == 2:
        return periods[0], periods[1]
    if len(periods) == 1:
        quarter, year = periods[0]
        return periods[0], (quarter, str(int(year) - 1))
    return None


def _rows_sized(question: Question, found: DirectAnswer, page_rows: PageRows,
                periods: tuple[Period, Period]) -> list[tuple[Row, Cell, Cell]]:
    """The rows of the explained sentence's page and the pages before it that print a figure in
    each period's column, whose label's words the sentence's change and the question both name,
    and whose caption or table names the rest of the question's measure."""
    unit = found.units[0]
    changed = {root(w) for w in _WORD_RE.findall(found.changed)}
    asked = {root(w) for w in _WORD_RE.findall(question.text)}
    measure = measure_roots(question)
    sized: dict[str, tuple[Row, Cell, Cell]] = {}
    for page in range(unit.page, max(unit.page - PAGES_BEFORE, 0) - 1, -1):
        for printed in page_rows(unit.document, unit.year, page):
            if printed.scope.startswith(_STATEMENTS):
                continue  # a statement's line: the facts route computes its change
            row = read_row(printed)
            own = {root(w) for w in _WORD_RE.findall(row.label)} if row is not None else set()
            if row is None or not own or not own <= changed & asked:
                continue
            # the measure the question names beyond the row's own words ("net revenues" of
            # "digital online channel net revenues") is the caption's or the table's
            table = {root(w) for w in _WORD_RE.findall(f"{printed.caption} {printed.scope}")}
            cells = _cells(row, periods, question.months)
            if cells is not None and (measure - own) & table:
                sized.setdefault(printed.quote, (row, *cells))
    return list(sized.values())


def _cells(row: Row, periods: tuple[Period, Period], months: int) -> tuple[Cell, Cell] | None:
    """The row's one figure in each period's column of the months asked (a quarter's three, a
    half year's six; a percentage's or a share's neither)."""
    later, earlier = periods
    cells = [c for c in row.cells if column_of_months(c.heading, months)]
    now = [c for c in cells if heading_has(c.heading, later)]
    then = [c for c in cells if heading_has(c.heading, earlier)
            and not heading_has(c.heading, later)]
    if len(now) != 1 or len(then) != 1 or now[0].shown.endswith("%"):
        return None
    return now[0], then[0]
