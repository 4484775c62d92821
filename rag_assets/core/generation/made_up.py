"""What a total is made of: the lines a table adds up to the total a question asks about.

"What items made up Foot Locker's $20 million of impairment and other charges in the quarter?"
is answered by the note's table that prints "Total impairment and other charges $ 20" under its
lines: the lines that add up to it in the column asked, the largest first, each with its
figure. The table's own arithmetic is the structure (a note's table sums its lines into the
total it prints), so nothing is guessed: the column is the one whose total is the amount the
question states, else the one of the period and length it asks; the lines are those above the
total, from the table's start or the total before, and only when they add up to it. The same
lines rank "Which type of debt received the largest investment among the short-term
investments?" (:func:`largest_line`): MGM Resorts' "Short-term investments" sums its U.S.
government and agency securities, commercial paper and corporate bonds, and the largest is
given with its share of it.
Hand-written: no library reads which rows of a printed table sum to which.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
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
    share_of,
    sums_to,
)
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import QUESTION_WORDS
from rag_assets.core.generation.member_shares import PagesPrinting
from rag_assets.core.generation.superlatives import categories_named
from rag_assets.core.ingest.statement_tables import TRAILING_MARKER_RE, duration_words
from rag_assets.core.question.question import Question
from rag_assets.core.retrieval.references import STOP_WORDS
from rag_assets.core.text.figures import MONEY_RE, NIL_TOKENS
from rag_assets.core.text.periods import DURATIONS, durations_over

MAX_LINES_SAID = 8  # a longer list is cut, the total still given
MIN_PARTS = 2  # a total of one line that is not nil is made of nothing to list or rank
MAX_PHRASES = 6  # the question's phrases looked for as a row's label in the filing
MAX_PAGES = 4  # of each phrase's pages, those read


class Line(NamedTuple):
    """One printed row: its label, unit, and its figures by position (a dash is nil), each
    under its column's heading."""

    label: str
    unit: EvidenceUnit
    values: list[float | None]
    shown: list[str]
    headings: list[str]


def _line(unit: EvidenceUnit) -> Line | None:
    """A row's figures in print order, a dash read as nil (0) and a cell of words ("Level 2")
    as None, so the columns of rows that print dashes stay aligned (:func:`read_row` drops
    what is no figure)."""
    label, _, rest = unit.text.partition(": ")
    if not unit.is_row or not rest:
        return None
    values: list[float | None] = []
    shown: list[str] = []
    headings: list[str] = []
    for piece in rest.split("; "):
        heading, _, printed = piece.rpartition(": ")
        printed = printed.strip().lstrip("$ ").strip()
        parsed = parse_cell(printed)
        nil = printed in NIL_TOKENS
        values.append(0.0 if nil else parsed[0] if parsed else None)
        shown.append("—" if nil else parsed[1] if parsed else "")
        headings.append(heading)
    return Line(label.strip(), unit, values, shown, headings)


def _aligned(block: Sequence[Line], total: Line) -> list[Line] | None:
    """The block's lines with their figures under the total's columns: by heading where the
    total's headings name each column once (a line may print a cell of words the total does
    not, "Level 2"), else by position, when every line prints as many cells; None otherwise."""
    if len(set(total.headings)) == len(total.headings) and all(total.headings):
        out = []
        for line in block:
            at = {h: i for i, h in enumerate(line.headings) if h}
            if not set(total.headings) <= set(at):
                return None
            out.append(line._replace(values=[line.values[at[h]] for h in total.headings],
                                     shown=[line.shown[at[h]] for h in total.headings],
                                     headings=list(total.headings)))
        return out
    return list(block) if all(len(b.values) == len(total.values) for b in block) else None


def _column(question: Question, total: Line) -> int | None:
    """The column asked: the one whose total is the amount the question states, else the one
    of the period and length it asks; None when that is not one column, or the question names
    two periods (a change, which its parts do not answer)."""
    stated = {float(m["n"].replace(",", "")) for m in MONEY_RE.finditer(question.text)}
    by_amount = [i for i, v in enumerate(total.values) if v is not None and v in stated]
    if len(by_amount) == 1:
        return by_amount[0]
    if len(set(question.periods)) > 1:
        return None
    months = durations_over(total.unit.scope, len(total.values))
    period = question.periods[0] if question.periods else None
    asked = [i for i, h in enumerate(total.headings)
             if (period is None or heading_has(h, period) or (
                 months[i] == question.months and heading_has(h, (None, period[1]))))
             and months[i] in (None, question.months) and total.values[i] is not None]
    candidates = [i for i in asked if i in by_amount] or asked
    return candidates[0] if len(candidates) == 1 else None


def _adds_up(lines: Sequence[Line], total: Line, column: int) -> bool:
    summed = sum(line.values[column] or 0.0 for line in lines)
    figure = total.values[column]
    return figure is not None and sums_to(summed, figure)


def _sums_exactly(block: Sequence[Line], line: Line) -> bool:
    """Whether ``line`` is the sum of the block's lines in every column it prints a figure in,
    to the cent, and in one at least is not nil: a subtotal, where a block ends (no rounding
    allowed, so no row that merely comes close to a sum of the rows above it ends one)."""
    printed = [c for c, v in enumerate(line.values) if v is not None]
    return any(line.values[c] for c in printed) and all(
        abs(sum(b.values[c] or 0.0 for b in block) - (line.values[c] or 0.0)) < 0.005
        for c in printed)


_TOTAL_WORD_RE = re.compile(r"^\s*total\s+", re.IGNORECASE)


def _plain(text: str) -> str:
    """Words in lower case, one space apart, a hyphen a space and a possessive's "'s" gone:
    "MGM's short-term investments" as "mgm short term investments"."""
    return " ".join(re.findall(r"[a-z0-9&]+", re.sub(r"['’]s\b", "", text.lower())))


def _table_lines(rows: Sequence[EvidenceUnit], question: Question, cues: DirectCues
                 ) -> tuple[list[Line], Line] | None:
    """The lines above the row that sums them which the question names ("Total impairment and
    other charges", "Short-term investments": its label but "Total" written in the question as
    one phrase, so "Short-term investments" is no "total debt investments"), from the
    table's start or the sum before (a "Total" row, or a row its lines add up to: MGM's
    "Cash and cash equivalents" over its money market funds)."""
    asked = f" {_plain(question.ranking_text)} "
    lines = [line for u in rows if (line := _line(u)) is not None]
    start = 0
    for at, line in enumerate(lines):
        block = _aligned(lines[start:at], line) if at - start >= 2 else None
        sums = block is not None and _sums_exactly(block, line)
        total = first_match(cues.total_row, line.label.lower()) is not None
        named = _plain(_TOTAL_WORD_RE.sub("", TRAILING_MARKER_RE.sub("", line.label)))
        if block is not None and (total or sums) and named and f" {named} " in asked:
            return block, line
        if total or sums:
            start = at + 1
    return None


def _phrases(question: Question) -> list[str]:
    """The runs of two words or more the question writes without a function word between
    them, and their endings ("largest investment", "short term investments", "term
    investments"), longest first: the labels a row that sums its lines may print."""
    runs: list[list[str]] = [[]]
    # the company's words and the asking words are no label's ("made up mgm", "h1 fy2023")
    asking = set(_plain(" ".join([*question.companies, question.phrased("made_up") or ""]))
                 .split())
    for token in re.findall(r"[A-Za-z][\w'’-]*|\S", question.ranking_text):
        low = re.sub(r"['’]s$", "", token.lower())
        if (not token[0].isalpha() or low in STOP_WORDS or low in QUESTION_WORDS
                or low in asking or any(ch.isdigit() for ch in low)):
            runs.append([])
        else:
            runs[-1].extend(low.split("-"))
    endings = {" ".join(run[i:]) for run in runs for i in range(len(run) - 1)}
    return sorted(endings, key=lambda phrase: -len(phrase.split()))


def _pages(question: Question, selected: Sequence[EvidenceUnit],
           printing: PagesPrinting | None) -> list[tuple[str, int, int]]:
    """The selected units' pages, then those of their filing that print a row labelled by a
    phrase of the question (:func:`_phrases`; where retrieval did not return the table)."""
    pages = list(dict.fromkeys((u.document, u.year, u.page) for u in selected))
    if printing is not None and selected:
        document, year = selected[0].document, selected[0].year
        for phrase in _phrases(question)[:MAX_PHRASES]:
            pages += [(document, year, p) for p in printing(document, year, phrase)[:MAX_PAGES]]
    return list(dict.fromkeys(pages))


def _summed_tables(question: Question, selected: Sequence[EvidenceUnit], page_rows: PageRows,
                   cues: DirectCues, printing: PagesPrinting | None = None
                   ) -> Iterator[tuple[list[Line], Line, int]]:
    """Each table on the pages read (:func:`_pages`) whose lines add up, in the column asked,
    to the row that sums them which the question names: (its lines, that row, the column)."""
    for key in _pages(question, selected, printing):
        rows = page_rows(*key)
        for scope in dict.fromkeys(r.scope for r in rows):
            found = _table_lines([r for r in rows if r.scope == scope], question, cues)
            if found is None:
                continue
            lines, total = found
            column = _column(question, total)
            if column is not None and _adds_up(lines, total, column) and sum(
                    1 for line in lines if line.values[column]) >= MIN_PARTS:
                yield lines, total, column


def made_up(question: Question, selected: Sequence[EvidenceUnit], page_rows: PageRows | None,
            cues: DirectCues, printing: PagesPrinting | None = None) -> DirectAnswer | None:
    """The lines that make up the total asked, the largest first, or None (no such question,
    no table whose total the question names, or lines that do not add up to it)."""
    if not question.phrased("made_up") or page_rows is None:
        return None
    for lines, total, column in _summed_tables(question, selected, page_rows, cues, printing):
        return _answer(lines, total, column, cues)
    return None


def largest_part(question: Question, selected: Sequence[EvidenceUnit],
                 page_rows: PageRows | None, cues: DirectCues,
                 printing: PagesPrinting | None = None) -> DirectAnswer | None:
    """"Which type of debt received the largest investment among the short-term
    investments?": the largest (or smallest) of the lines that add up to the total the
    question names, with its share of it; None when no such total is printed or two lines
    tie. After the superlatives' categories, which rank members by name."""
    q = question.text.lower()
    cue = first_match(cues.superlative, q)
    if (page_rows is None or cue is None or cue.direction is None
            or first_match(cues.which_question, q) is None
            or first_match(cues.superlative_not, q) is not None
            or categories_named(question, cues)):
        return None  # a segment, region or product asked is the superlatives' to rank or
        # refuse: a line of a total is no member of that kind
    for lines, total, column in _summed_tables(question, selected, page_rows, cues, printing):
        ranked = sorted((line for line in lines if line.values[column] is not None),
                        key=lambda line: line.values[column] or 0.0,
                        reverse=cue.direction == "max")
        whole = total.values[column] or 0.0
        if ranked[0].values[column] == ranked[1].values[column] or any(
                (line.values[column] or 0.0) * whole < 0 for line in lines):
            return None  # a tie, or a line against the total's sign (a reconciliation's
            # adjustments): no share of it is the line's
        return _ranked(ranked[0], total, column, cue.direction, cues, question.decimals)
    return None


def _ranked(winner: Line, total: Line, column: int, direction: str, cues: DirectCues,
            decimals: int | None) -> DirectAnswer:
    value, whole = winner.values[column] or 0.0, total.values[column] or 0.0
    period = _period_said(total, column)
    word = "largest" if direction == "max" else "smallest"
    share = f", {share_of(value, whole, decimals)} of the {_money(total, column, cues)} " \
        f"total ({winner.shown[column]} / {total.shown[column]})" if whole else ""
    return DirectAnswer(kind="superlative", units=[winner.unit, total.unit], named=winner.label,
                        text=f"{winner.label} is the {word} line of {total.label}"
                             f"{f' in {period}' if period else ''}: "
                             f"{_money(winner, column, cues)}{share}.")


def _money(line: Line, column: int, cues: DirectCues) -> str:
    """A line's figure in a column with the currency and scale its table prints."""
    value = line.values[column] or 0.0
    return money(Cell(heading="", printed=line.shown[column], value=value,
                      shown=line.shown[column]), line.unit, cues)


def _period_said(total: Line, column: int) -> str:
    """The column's period as the answer says it: its heading, with the duration its header
    prints over it ("three months 2022")."""
    heading = total.headings[column]
    months = durations_over(total.unit.scope, len(total.values))[column]
    named = any(p.search(heading) for p, _ in DURATIONS)
    return f"{'' if named else duration_words(months)}{heading}".strip()


def _answer(lines: Sequence[Line], total: Line, column: int, cues: DirectCues) -> DirectAnswer:
    parts = sorted((line for line in lines if line.values[column]),
                   key=lambda line: -abs(line.values[column] or 0.0))
    said = [f"{line.label} {_money(line, column, cues)}" for line in parts[:MAX_LINES_SAID]]
    more = f" and {len(parts) - MAX_LINES_SAID} more lines" if len(parts) > MAX_LINES_SAID \
        else ""
    listed = ", ".join(said[:-1]) + f" and {said[-1]}" if len(said) > 1 else said[0]
    period = _period_said(total, column)
    text = (f"{total.label} of {_money(total, column, cues)}"
            f"{f' in {period}' if period else ''} were made up of {listed}{more}: the table's "
            f"lines add up to its total.")
    return DirectAnswer(kind="list", units=[*(line.unit for line in parts), total.unit],
                        text=text)
