"""A measure that a sentence introduces a table of, answered by the table's total row.

A filing states a measure no statement prints in a note's table, introduced by a sentence that
names it: "Presented in the table below are annualized incremental revenues ... resulting from
general rate case authorizations that became effective during 2023:" heads American Water's
rate cases by state and their "Total general rate case authorizations $ 273". The table's total
is the measure's amount (each row is a part of it, as the sentence says), and where the question
also asks which part is the largest, that row follows. Of a table of several columns, only the
column headed by the year asked is read; when that is not clear, nothing is. The rows are the
page's own table, read whole, never a guess at which rows belong: a row belongs to the table its
page prints under the introducing sentence (the row's scope opens with that text).
Hand-written: no library links a sentence to the table it introduces.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import (
    Cell,
    DirectAnswer,
    DirectCues,
    PageRows,
    Row,
    money,
    read_row,
)
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import names_measure
from rag_assets.core.question.question import Question
from rag_assets.core.text.years import years_in

# a sentence that introduces the table after it: "Presented in the table below are ...",
# "The following table shows ...", "... were as follows:"
INTRODUCES_RE = re.compile(r"\b(?:in the table below|the table below|the following table|"
                           r"as follows)\b", re.IGNORECASE)
TOTAL_LABEL_RE = re.compile(r"^total\b", re.IGNORECASE)
_INTRO_LETTERS = 80  # enough of the sentence to know it again at the start of a row's scope


def _collapsed(text: str) -> str:
    return " ".join(text.split()).lower()


def _introduced_by(row: EvidenceUnit, intro: EvidenceUnit) -> bool:
    """Whether a row is printed under the sentence: its scope (the text above its table)
    holds the sentence's opening."""
    return _collapsed(intro.text)[:_INTRO_LETTERS] in _collapsed(row.scope)


def _table_under(intro: EvidenceUnit, page_rows: PageRows) -> list[Row]:
    rows = (read_row(u) for u in page_rows(intro.document, intro.year, intro.page)
            if _introduced_by(u, intro))
    return [row for row in rows if row is not None and row.cells]


def _cell_asked(row: Row, question: Question) -> Cell | None:
    """The row's one figure, or, of several columns, the one headed by the year asked (a table
    of two years prints the prior year's total beside it); None when that is not clear."""
    if len(row.cells) == 1:
        return row.cells[0]
    headed = [c for c in row.cells if set(years_in(c.heading)) & set(question.years)]
    return headed[0] if len(headed) == 1 else None


def introduced_total(question: Question, selected: Sequence[EvidenceUnit],
                     page_rows: PageRows | None, cues: DirectCues) -> DirectAnswer | None:
    """The total row of the table a selected sentence introduces, when the sentence names the
    qualified measure the question asks as a figure ("annualized incremental revenue"), with
    the largest of its parts when that is asked too; None otherwise."""
    if question.expects != "figure" or not question.qualified or page_rows is None:
        return None
    for intro in selected:
        if intro.is_row or not INTRODUCES_RE.search(intro.text) or not any(
                names_measure(m, intro.text) for m in question.qualified):
            continue
        rows = _table_under(intro, page_rows)
        total = next((r for r in rows if TOTAL_LABEL_RE.match(r.label)), None)
        if total is None or (amount := _cell_asked(total, question)) is None:
            continue
        whole = money(amount, total.unit, cues)
        text = f"{total.label}: {whole}"
        units = [intro, total.unit]
        parts = [(r, cell) for r in rows if r is not total and not TOTAL_LABEL_RE.match(r.label)
                 and (cell := _cell_asked(r, question)) is not None]
        if question.phrased("largest") and parts:
            top, most = max(parts, key=lambda part: part[1].value)
            part = money(most, top.unit, cues)
            # a table prints its currency on its first and total rows only: the parts are in it
            if whole.startswith("$") and not part.lstrip("-").startswith("$"):
                part = f"${part}"
            text += f"; the largest, {top.label}, {part}"
            units.append(top.unit)
        return DirectAnswer(kind="stated", units=units, text=f"{text}.")
    return None
