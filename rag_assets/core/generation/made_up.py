"""What a total is made of: the lines a table adds up to the total a question asks about.

"What items made up Foot Locker's $20 million of impairment and other charges in the quarter?"
is answered by the note's table that prints "Total impairment and other charges $ 20" under its
lines: the lines that add up to it in the column asked, the largest first, each with its
figure. The table's own arithmetic is the structure (a note's table sums its lines into the
total it prints), so nothing is guessed: the column is the one whose total is the amount the
question states, else the one of the period and length it asks; the lines are those above the
total, from the table's start or the total before, and only when they add up to it.
Hand-written: no library reads which rows of a printed table sum to which.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from rag_assets.core.generation.direct_rows import (
    Cell,
    DirectAnswer,
    DirectCues,
    PageRows,
    first_match,
    heading_has,
    money,
    parse_cell,
)
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import roots
from rag_assets.core.ingest.statement_tables import duration_words
from rag_assets.core.question.question import Question
from rag_assets.core.text.figures import NIL_TOKENS
from rag_assets.core.text.periods import DURATIONS

# "$20 million", "$ 1,234": an amount the question states, as its table would print it
_STATED_AMOUNT_RE = re.compile(r"\$\s?(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)")
MAX_LINES_SAID = 8  # a longer list is cut, the total still given


class Line(NamedTuple):
    """One printed row: its label, unit, and its figures by position (a dash is nil)."""

    label: str
    unit: EvidenceUnit
    values: list[float | None]
    shown: list[str]


def _line(unit: EvidenceUnit) -> Line | None:
    """A row's figures in print order, a dash read as nil (0) and a blank cell as None, so the
    columns of rows that print dashes stay aligned (:func:`read_row` drops what is no
    figure)."""
    label, _, rest = unit.text.partition(": ")
    if not unit.is_row or not rest:
        return None
    values: list[float | None] = []
    shown: list[str] = []
    for piece in rest.split("; "):
        printed = piece.rpartition(": ")[2].strip().lstrip("$ ").strip()
        parsed = parse_cell(printed)
        nil = printed in NIL_TOKENS
        values.append(0.0 if nil else parsed[0] if parsed else None)
        shown.append("—" if nil else parsed[1] if parsed else "")
    return Line(label.strip(), unit, values, shown)


def _column_months(unit: EvidenceUnit, width: int) -> list[int | None]:
    """Each column's length as its table's header prints the durations over the columns, in
    print order and splitting them evenly ("Thirteen weeks ended Thirty-nine weeks ended" over
    four columns: 3, 3, 9, 9); None where the header names none or they do not split."""
    found = sorted((m.start(), months) for p, months in DURATIONS for m in p.finditer(unit.scope))
    if not found or width % len(found):
        return [None] * width
    return [found[i * len(found) // width][1] for i in range(width)]


def _column(question: Question, total: Line) -> int | None:
    """The column asked: the one whose total is the amount the question states, else the one
    of the period and length it asks; None when that is not one column."""
    stated = {float(m["n"].replace(",", "")) for m in _STATED_AMOUNT_RE.finditer(question.text)}
    by_amount = [i for i, v in enumerate(total.values) if v is not None and v in stated]
    if len(by_amount) == 1:
        return by_amount[0]
    months = _column_months(total.unit, len(total.values))
    headings = [piece.rpartition(": ")[0] for piece in total.unit.text.partition(": ")[2]
                .split("; ")]
    period = question.periods[0] if question.periods else None
    asked = [i for i, h in enumerate(headings)
             if (period is None or heading_has(h, period) or (
                 months[i] == question.months and heading_has(h, (None, period[1]))))
             and months[i] in (None, question.months) and total.values[i] is not None]
    candidates = [i for i in asked if i in by_amount] or asked
    return candidates[0] if len(candidates) == 1 or (candidates and months[0] is not None) \
        else None


def _adds_up(lines: Sequence[Line], total: Line, column: int) -> bool:
    summed = sum(line.values[column] or 0.0 for line in lines)
    figure = total.values[column]
    return figure is not None and abs(summed - figure) <= max(abs(figure) * 0.005, 1.0)


def _table_lines(rows: Sequence[EvidenceUnit], question: Question, cues: DirectCues
                 ) -> tuple[list[Line], Line] | None:
    """The lines above the total row the question names ("Total impairment and other charges":
    every word of it but "total" asked), from the table's start or the total before."""
    asked = roots(question.ranking_text)
    lines = [line for u in rows if (line := _line(u)) is not None]
    start = 0
    for at, line in enumerate(lines):
        total = first_match(cues.total_row, line.label.lower()) is not None
        named = roots(line.label) - roots("total")
        if total and named and named <= asked and at - start >= 2:
            block = lines[start:at]
            if all(len(b.values) == len(line.values) for b in block):
                return block, line
        if total:
            start = at + 1
    return None


def made_up(question: Question, selected: Sequence[EvidenceUnit], page_rows: PageRows | None,
            cues: DirectCues) -> DirectAnswer | None:
    """The lines that make up the total asked, the largest first, or None (no such question,
    no table whose total the question names, or lines that do not add up to it)."""
    if not question.phrased("made_up") or page_rows is None:
        return None
    seen: set[tuple[str, int, int]] = set()
    for unit in selected:
        key = (unit.document, unit.year, unit.page)
        if key in seen:
            continue
        seen.add(key)
        rows = page_rows(*key)
        for scope in dict.fromkeys(r.scope for r in rows):
            found = _table_lines([r for r in rows if r.scope == scope], question, cues)
            if found is None:
                continue
            lines, total = found
            column = _column(question, total)
            if column is not None and _adds_up(lines, total, column):
                return _answer(lines, total, column, cues)
    return None


def _period_said(total: Line, column: int) -> str:
    """The column's period as the answer says it: its heading, with the duration its header
    prints over it ("three months 2022")."""
    heading = total.unit.text.partition(": ")[2].split("; ")[column].rpartition(": ")[0]
    months = _column_months(total.unit, len(total.values))[column]
    named = any(p.search(heading) for p, _ in DURATIONS)
    return f"{'' if named else duration_words(months)}{heading}".strip()


def _answer(lines: Sequence[Line], total: Line, column: int, cues: DirectCues) -> DirectAnswer:
    parts = sorted((line for line in lines if line.values[column]),
                   key=lambda line: -abs(line.values[column] or 0.0))

    def amount(line: Line) -> str:
        value = line.values[column] or 0.0
        return money(Cell(heading="", printed=line.shown[column], value=value,
                          shown=line.shown[column]), line.unit, cues)

    said = [f"{line.label} {amount(line)}" for line in parts[:MAX_LINES_SAID]]
    more = f" and {len(parts) - MAX_LINES_SAID} more lines" if len(parts) > MAX_LINES_SAID \
        else ""
    listed = ", ".join(said[:-1]) + f" and {said[-1]}" if len(said) > 1 else said[0]
    period = _period_said(total, column)
    text = (f"{total.label} of {amount(total)}{f' in {period}' if period else ''} were made up "
            f"of {listed}{more}: the table's lines add up to its total.")
    return DirectAnswer(kind="list", units=[*(line.unit for line in parts), total.unit],
                        text=text)
