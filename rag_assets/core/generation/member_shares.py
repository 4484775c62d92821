"""A member's share of a total, from the table that prints both: "What share of Walmart's net
sales came from Walmart International?", "How much of Coca-Cola's net operating revenues came
from the United States?".

ASC 280 has a filing print each segment's revenue and each geographic area's beside the total
they sum to, in the segment note or MD&A's tables. The member the question names is a row of
such a table (its label is the name, as printed); the total is the row that prints the table's
sum (a "Total" row, or the row named for the measure: "Net sales" under the segments) in the
same column. The answer gives the share first, computed and shown with its two cited figures:
"Walmart International: 23% of net sales ($120,130 million of $519,926 million in 2020;
120,130 / 519,926)." None when no table of the evidence prints the member and its total.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from rag_assets.core.generation.direct_rows import (
    Cell,
    DirectAnswer,
    DirectCues,
    PageRows,
    Row,
    first_match,
    money,
    read_row,
    share_of,
)
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.places import place_forms, place_name
from rag_assets.core.generation.superlatives import (
    column_asked,
    column_tables,
    measure_block,
    measures_asked,
    period_asked,
    tables_in,
)
from rag_assets.core.question.question import Question
from rag_assets.core.question.vocabulary import terms_in
from rag_assets.core.text.years import years_in

# what is said of a member but is not its name: "the Asia Pacific region", "its U.S. business"
EDGE_WORDS_RE = re.compile(r"^(?:the|its|in|for|of)\s+|\s+(?:segment|region|market|business|"
                           r"(?:customer\s+)?group|division)$")  # Pfizer's "customer group"
# "came from outside the United States": the whole less the place's row
OUTSIDE_RE = re.compile(r"^(?:outside|out of)\s+(?:of\s+)?", re.IGNORECASE)
# "United States Operations" is the row of the United States
ROW_TAIL_RE = re.compile(r"\s+(?:operations|segment)$", re.IGNORECASE)
MAX_PAGES_SCANNED = 24  # a name printed in many tables ("Walmart U.S."): read in page order
PAGES_PER_READ = 4
# the pages of a filing that print a name at a line's start: (document, year, name) -> pages
PagesPrinting = Callable[[str, int, str], list[int]]


def _member_asked(question: Question) -> tuple[str, str, bool] | None:
    """(the member named, the total's words, whether the share asked is of what lies outside
    it), or None when the question asks no share (:attr:`Question.share`, read as asked: a
    retry's words, "net sales 2020", ask none; a member's name may hold commas)."""
    if question.share is None:
        return None
    found = question.share.listed_part, question.share.listed_total
    member = OUTSIDE_RE.sub("", found[0])
    outside = member != found[0]
    while (trimmed := EDGE_WORDS_RE.sub("", member)) != member:
        member = trimmed
    return (member, found[1], outside) if member else None


def _named(label: str, member: str) -> bool:
    """The row's label is the member's name ("Walmart International", "United States"), as
    printed, case aside, a footnote marker or a colon after it, "Total" before it."""
    name = " ".join(re.sub(r"[\s:(0-9)*]+$", "", label).lower().split())
    return place_name(ROW_TAIL_RE.sub("", name.removeprefix("total "))) == place_name(member)


def _total(printed: Sequence[Row], row: Row, column: str, total_words: str,
           cues: DirectCues) -> tuple[Cell, Row] | None:
    """The row that prints the table's whole in ``column``: of the "Total ..." rows and those
    named for the measure asked ("Net sales" under the segments), the largest, larger than the
    member's own figure (a region's subtotal is not the whole its share is of)."""
    own = row.cell(column)
    if own is None:
        return None
    words = set(re.findall(r"[a-z]+", total_words.lower()))
    # a total named for the entity is the whole only where the column prints one: a table of
    # a block per measure, each closed by "Total Company", names no measure of its own
    entity_totals = sum(1 for r in printed if r.cell(column) is not None and _names_entity(
        r.label, cues))
    found = [(c, r) for r in printed if r is not row and (c := r.cell(column)) is not None
             and not c.shown.endswith("%") and c.value > own.value
             and ((first_match(cues.total_row, r.label.lower())
                   and not _totals_another(r.label, total_words, cues,
                                           entity_whole=entity_totals == 1))
                  or set(re.findall(r"[a-z]+", r.label.lower())) <= words
                  or _names_measure(r.label, total_words))]
    return max(found, key=lambda t: t[0].value) if found else None


def _total_rest(label: str) -> str:
    """A total row's label without its "Total" ("Company" of "Total Company")."""
    return re.sub(r"^\s*(?:total|sub-?total|consolidated|combined)\b|\btotal\s*$", "",
                  label.lower()).strip(" :")


def _names_entity(label: str, cues: DirectCues) -> bool:
    """Whether a total row is named for the entity ("Total Company", ``whole_entity``)."""
    rest = _total_rest(label)
    return rest != label.lower().strip(" :") and first_match(cues.whole_entity, rest) is not None


def _totals_another(label: str, total_words: str, cues: DirectCues,
                    entity_whole: bool = False) -> bool:
    """Whether a "Total ..." row totals another measure than the one asked: Walmart's
    "Total long-lived assets" below its "U.S. operations" and "Non-U.S. operations", where
    revenue is asked (the same table's first block closes with "Total revenues"); a total
    named for the entity ("Total Company") is the table's whole when the column prints only
    one (``entity_whole``)."""
    rest = _total_rest(label)
    if not re.search(r"[a-z]", rest) or (entity_whole and _names_entity(label, cues)):
        return False  # "Total", "Consolidated", "Total Company": the table's whole
    asked = {t.name for t in terms_in(total_words)}
    named = {t.name for t in terms_in(rest)}
    return not (named & asked) and not set(re.findall(r"[a-z]+", rest)) <= set(
        re.findall(r"[a-z]+", total_words.lower()))


def _names_measure(label: str, total_words: str) -> bool:
    """The row's whole label is a name of the measure asked: Coca-Cola's "Net operating
    revenues" under its geographic areas is the revenue a share of revenue is of."""
    asked = {t.name for t in terms_in(total_words)}
    named = terms_in(label)
    return len(named) == 1 and named[0].name in asked and named[0].start == 0 and (
        named[0].end >= len(label.rstrip(" :")))


def member_share(question: Question, selected: Sequence[EvidenceUnit],
                 pool: Sequence[EvidenceUnit], page_rows: PageRows | None, cues: DirectCues,
                 printing: PagesPrinting | None = None) -> DirectAnswer | None:
    """The named member's share of the total the question asks, or None. The tables of the
    evidence are read first, then those of the filing's pages that print the member's name at
    a line's start (``printing``; at most ``MAX_PAGES_SCANNED``): the segment note retrieval
    did not return."""
    asked = _member_asked(question)
    if asked is None:
        return None
    member, total_words, outside = asked

    def share(units: Sequence[EvidenceUnit], tables: Iterable[tuple[str, int, str]]
              ) -> DirectAnswer | None:  # a member's row in a table, else its column
        return (_share_in(question, member, total_words, units, tables, cues, outside)
                or _column_share(question, member, total_words, units, cues, outside))

    read, tables = tables_in(selected, pool, page_rows)
    found = share([*read, *selected, *pool], tables)
    if found is not None or printing is None or page_rows is None or not selected:
        return found
    document, year = selected[0].document, selected[0].year
    # the place as the filer prints it too: Walmart's "U.S. operations" for the United States
    pages = sorted({p for form in place_forms(member) for p in printing(document, year, form)}
                   )[:MAX_PAGES_SCANNED]
    for start in range(0, len(pages), PAGES_PER_READ):  # the first table that holds both
        more = [u for page in pages[start:start + PAGES_PER_READ]
                for u in page_rows(document, year, page)]
        if found := share(more, {(u.document, u.year, u.scope): False for u in more
                                 if u.is_row}):
            return found
    return None


def _column_share(question: Question, member: str, total_words: str,
                  units: Sequence[EvidenceUnit], cues: DirectCues, outside: bool = False
                  ) -> DirectAnswer | None:
    """The share from a table whose columns are the members and the total (Walmart's segment
    note: a column per segment and "Consolidated", a block of rows per fiscal year), in the
    row that prints the measure asked, under the period asked."""
    measures = measures_asked(question, cues)
    for periods in column_tables(units, None, measures, cues).values():
        for period, whole in period_asked(periods, question):
            name = next((n for n in whole.members if _named(n, member)), None)
            if name is None:
                continue
            (cell, row), (total, total_row) = whole.members[name], whole.total
            if total.value <= 0:
                continue
            return _share_answer(question, (name, cell, row), (total, total_row), total_words,
                                 f" in {years_in(period)[-1]}" if years_in(period) else "", cues,
                                 outside)
    return None


def _share_answer(question: Question, part: tuple[str, Cell, Row], whole: tuple[Cell, Row],
                  total_words: str, period: str, cues: DirectCues, outside: bool = False
                  ) -> DirectAnswer:
    """The share first, with its two cited figures and the division shown; ``outside``: the
    share of the whole less the member's."""
    name, cell, row = part
    total_cell, total_row = whole
    if outside:
        rest = share_of(total_cell.value - cell.value, total_cell.value, question.decimals)
        place = ROW_TAIL_RE.sub("", name.rstrip(": "))  # "United States Operations"'s place
        decimals = len(total_cell.shown.partition(".")[2].rstrip("%"))
        left = total_cell.value - cell.value
        printed = f"{'$' if total_cell.shown.startswith('$') else ''}{left:,.{decimals}f}"
        amount = money(Cell(heading=total_cell.heading, printed=printed, value=left,
                            shown=printed), total_row.unit, cues)
        # the place as the question names it ("the United States" for a row's "U.S.")
        said: re.Match[str] | None = None
        for form in place_forms(place):
            if said := re.search(rf"\b(?:the\s+)?{re.escape(form)}(?!\w)", question.text,
                                 re.IGNORECASE):
                place = said.group(0).removeprefix("the ").removeprefix("The ")
                break
        the = "the " if said and said.group(0).lower().startswith("the ") else ""
        return DirectAnswer(kind="arithmetic", units=[row.unit, total_row.unit], text=(
            f"Outside {the}{place}: {amount}, {rest} of {total_words.strip()} "
            f"({money(total_cell, total_row.unit, cues)} in all, "
            f"{money(cell, row.unit, cues)} of it {name.rstrip(': ')}{period}; "
            f"({total_cell.shown.lstrip('$')} - {cell.shown.lstrip('$')}) / "
            f"{total_cell.shown.lstrip('$')})."))
    share = share_of(cell.value, total_cell.value, question.decimals)
    return DirectAnswer(
        kind="arithmetic", units=[row.unit, total_row.unit],
        text=(f"{name.rstrip(': ')}: {share} of {total_words.strip()} "
              f"({money(cell, row.unit, cues)} of "
              f"{money(total_cell, total_row.unit, cues)}"
              f"{period}; {cell.shown.lstrip('$')} / {total_cell.shown.lstrip('$')})."))


def _share_in(question: Question, member: str, total_words: str, units: Sequence[EvidenceUnit],
              tables: Iterable[tuple[str, int, str]], cues: DirectCues, outside: bool = False
              ) -> DirectAnswer | None:
    """The share from the first of ``tables`` that prints the member and its total."""
    for table in tables:
        rows_of = {u.quote: u for u in units if u.is_row and (u.document, u.year, u.scope) == table}
        printed = [r for u in rows_of.values() if (r := read_row(u)) is not None and r.cells]
        # the block the measure's whole closes, where the members print once per measure
        # (Walmart's "U.S. operations" over revenues, then over long-lived assets)
        printed = measure_block(printed, measures_asked(question, cues), cues) or printed
        for row in (r for r in printed if r.label and _named(r.label, member)):
            column = column_asked(printed, question, row.unit, cues)
            if column is None or (cell := row.cell(column)) is None:
                continue
            found = _total(printed, row, column, total_words, cues)
            if found is None or cell.shown.endswith("%") or not found[0].value:
                continue
            period = f" in {years_in(column)[-1]}" if years_in(column) else f" ({column})"
            return _share_answer(question, (row.label, cell, row), found, total_words, period,
                                 cues, outside)
    return None
