"""A one-line direct answer before the quoted evidence, when the evidence states it.

Three kinds of question get one (cues in ``direct_cues.json``, each with its source):

- a **superlative** ("Which segment had the lowest net revenue?"): the winner among a table's
  rows, the same column compared across them (parenthesized figures are negative), or the name a
  cited sentence gives it ("Pumps was the largest contributor ..."): "Corporate. Its net revenue
  was -$473 million.";
- a **list** ("What are three main companies acquired ..."): the names a cited sentence
  enumerates, as printed: "Trillium, Array and Therachon.";
- a **comparison of two periods** ("Did X increase or decrease ..."): the two figures of one
  cited row or sentence: "Decreased: 45 in Q2 2023 against 60 in Q2 2022."

Nothing is invented: every name and figure of the sentence is copied from the units it cites
(a superlative's share of the table's total is computed from two cited rows, and says so:
"48% of the $14,805 million total (7,108 / 14,805)"), and the claim goes through the citation
verifier like every other. When the question is none of
these, or the evidence does not settle it (a tie, a missing period, a list of another length
than asked), there is no direct answer and the quotes stand alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import words
from rag_assets.core.generation.records import Claim, SourceCitation
from rag_assets.core.ingest.statement_tables import TRAILING_MARKER_RE
from rag_assets.core.text.periods import quarters_named

CUES_PATH = Path(__file__).with_name("direct_cues.json")
DirectKind = Literal["superlative", "list", "comparison"]
# the table rows a page prints, by (document, year, page): a table read whole from its page
PageRows = Callable[[str, int, int], list[EvidenceUnit]]
_YEAR_RE = re.compile(r"\b(?:fy\s?|fiscal (?:year )?)?((?:19|20)\d{2})\b", re.IGNORECASE)
_CELL_RE = re.compile(r"^(?P<neg>[-−–]|\()?\s*(?P<cur>[$€£])?\s*(?P<neg2>\()?\s*"
                      r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<pct>\s?%)?\s*\)?$")
_CELL_MARKER_RE = re.compile(r"\s*(?:\[\w{1,3}\]|\*+|\([a-z]\))\s*$")
_SENTENCE_WINNER = (r"^(?P<name>(?:[A-Z][\w&'’./-]*)(?: (?:[A-Z][\w&'’./-]*|and|of|&))*?)"
                    r"(?: segment| business| division)? (?:was|were|is|are|remained|became) "
                    r"(?:again )?(?:the|our) {word}\b")
_FIGURE_IN_PERIOD = (r"(?P<fig>[$€£]?\s?\d[\d,]*(?:\.\d+)?%?(?: (?:million|billion|thousand))?)"
                     r" (?:in|for|during|at the end of|at) (?:fiscal |the )?(?:year )?{period}\b")


class Cue(BaseModel):
    pattern: str
    source: str
    direction: Literal["max", "min"] | None = None
    word: str | None = None
    also: list[str] = Field(default_factory=list, description="other words a table's title "
                            "uses for the category ('geographic area' for a region)")
    level: Literal["group"] | None = Field(
        default=None, description="a category that names groups of rows (a region over its "
        "countries): ranked by the totals that close each caption's block, when printed")


class HeadingTerm(BaseModel):
    question: list[str]
    heading: list[str]
    source: str


class Enumeration(BaseModel):
    pattern: str
    item: str
    source: str


class DirectCues(BaseModel):
    """``direct_cues.json``, validated."""

    model_config = ConfigDict(populate_by_name=True)

    doc: list[str] = Field(alias="_doc", min_length=1)
    superlative: list[Cue]
    comparative: list[Cue] = Field(default_factory=list)
    superlative_not: list[Cue]
    which_question: list[Cue]
    list_question: list[Cue]
    list_counts: dict[str, int]
    enumeration: Enumeration
    list_item_not: list[Cue]
    comparison: list[Cue]
    prior_period: list[Cue]
    row_not_a_member: list[Cue]
    total_row: list[Cue]
    categories: list[Cue]
    heading_terms: dict[str, HeadingTerm | str]
    scales: list[Cue]

    @property
    def terms(self) -> dict[str, HeadingTerm]:
        return {k: v for k, v in self.heading_terms.items() if isinstance(v, HeadingTerm)}


@cache
def load_cues(path: Path = CUES_PATH) -> DirectCues:
    return DirectCues.model_validate(json.loads(path.read_text(encoding="utf-8")))


class DirectAnswer(BaseModel):
    """The direct sentence and the units that print each of its names and figures."""

    kind: DirectKind
    text: str
    units: list[EvidenceUnit] = Field(min_length=1)
    supports: str = Field(default="", description="the part of the sentence its one unit "
                          "prints (empty: all of it); a direction is read from the figures")

    def claim(self) -> Claim:
        """The sentence as a claim, cited on every unit it is read from (each citation stands
        for the names and figures that unit prints, when there are several)."""
        several = len(self.units) > 1
        return Claim(text=self.text, citations=[
            SourceCitation(document=u.document, year=u.year, page=u.page, quote=u.quote,
                           supports=u.text if several else self.supports)
            for u in self.units])


class Cell(BaseModel):
    heading: str
    printed: str
    value: float
    shown: str = Field(description="the figure as written in the answer: '(473)' as '-473'")


class Row(BaseModel):
    unit: EvidenceUnit
    label: str
    cells: list[Cell]

    def cell(self, heading: str) -> Cell | None:
        """The cell under ``heading``; None when two columns print it (3M's "2018" under both
        Net Sales and Operating Income: which one it is the row does not say)."""
        found = [c for c in self.cells if c.heading == heading]
        return found[0] if len(found) == 1 else None


# -- reading units ----------------------------------------------------------------------------


def parse_cell(text: str) -> tuple[float, str] | None:
    """A table cell's figure and how an answer writes it, or None: "(473)" is -473, "$ 1,234"
    is 1234; a dash, a blank or a word is no figure."""
    match = _CELL_RE.match(_CELL_MARKER_RE.sub("", text).strip())
    if match is None:
        return None
    negative = bool(match["neg"] or match["neg2"])
    if match["neg"] == "(" or match["neg2"]:
        negative = text.strip().endswith(")")
        if not negative:
            return None
    value = float(match["num"].replace(",", ""))
    shown = f"{'-' if negative else ''}{match['cur'] or ''}{match['num']}{match['pct'] or ''}"
    return (-value if negative else value), shown


def read_row(unit: EvidenceUnit) -> Row | None:
    """A table row's label and figures, from its text ("label: heading: value; ...")."""
    if not unit.is_row:
        return None
    first, _, rest = unit.text.partition(": ")
    if not rest:
        return None
    cells = []
    for piece in rest.split("; "):
        heading, sep, printed = piece.rpartition(": ")
        parsed = parse_cell(printed)
        if parsed is not None:
            cells.append(Cell(heading=heading if sep else "", printed=printed,
                              value=parsed[0], shown=parsed[1]))
    label = TRAILING_MARKER_RE.sub("", first).strip()
    return Row(unit=unit, label=label, cells=cells) if label else None


def _matches(cues: Sequence[Cue], text: str) -> Cue | None:
    return next((c for c in cues if re.search(c.pattern, text)), None)


def _asked_periods(question: str) -> list[tuple[str | None, str]]:
    """The periods a question names, in order: (quarter or None, year)."""
    out: list[tuple[str | None, str]] = []
    quarters = {at: (f"Q{q}", str(y)) for q, y, at in quarters_named(question)}
    for m in _YEAR_RE.finditer(question):
        period = quarters.get(m.start(1), (None, m[1]))
        if period not in out:
            out.append(period)
    return out


def _heading_has(heading: str, period: tuple[str | None, str]) -> bool:
    quarter, year = period
    if not re.search(rf"(?<!\d){year}(?!\d)|(?<![\d/])(?:fy)?'?{year[2:]}(?!\d)",
                     heading, re.IGNORECASE):
        return False
    # a quarter's column is headed by its quarter or by its three months ("3 months 2021")
    return quarter is None or bool(re.search(rf"\b{quarter}\b|\b(?:3|three) months\b",
                                             heading, re.IGNORECASE))


def _scale(unit: EvidenceUnit, cues: DirectCues) -> str:
    scope = f"{unit.scope} {unit.text}".lower()
    cue = _matches(cues.scales, scope)
    return f" {cue.word}" if cue and cue.word else ""


def _money(cell: Cell, unit: EvidenceUnit, cues: DirectCues) -> str:
    """The cell's figure with the currency and scale its table prints, never more."""
    shown = cell.shown
    if shown.endswith("%"):
        return shown
    scale = _scale(unit, cues)
    if "$" not in shown and scale and ("$" in unit.scope
                                       or re.search(r"dollar|\busd\b", unit.scope.lower())):
        sign = "-" if shown.startswith("-") else ""
        shown = f"{sign}${shown.lstrip('-')}"
    return f"{shown}{scale}"


# -- superlatives -----------------------------------------------------------------------------


def _terms_asked(question: str, cues: DirectCues) -> list[HeadingTerm]:
    q = question.lower()
    return [t for t in cues.terms.values()
            if any(re.search(rf"\b{re.escape(w)}\b", q) for w in t.question)]


def _column(rows: Sequence[Row], question: str, unit: EvidenceUnit,
            cues: DirectCues) -> str | None:
    """The column a superlative compares: the measure and the period the question names, or
    None when the table does not print them (or two columns fit equally)."""
    headings = list(dict.fromkeys(c.heading for r in rows for c in r.cells))
    if not headings:
        return None
    terms = _terms_asked(question, cues)
    # what the rows measure: the table's title and header, or the caption they are under
    scope = " ".join([unit.scope, *{r.unit.caption for r in rows}]).lower()
    if terms:
        words = [w for t in terms for w in t.heading]
        fit = [h for h in headings if any(w in h.lower() for w in words)]
        if not fit and not any(w in scope for w in words):
            return None
        headings = fit or headings
    periods = _asked_periods(question)
    if periods:
        fit = [h for h in headings if any(_heading_has(h, p) for p in periods)]
        if not fit and (any(_YEAR_RE.search(h) for h in headings)
                        or not any(_heading_has(unit.scope, p) for p in periods)):
            return None  # the columns are other periods, or the table is another year's
        headings = fit or headings
    elif len({re.sub(r"\d", "", h) for h in headings}) > 1 and len(headings) > 1:
        # several measures, none named: unsure which one ranks the rows
        return None if not terms else headings[0]
    return headings[0]


def _measure(question: str, column: str, cues: DirectCues) -> str:
    """How the answer names the compared figure: the column's heading when it names a measure
    ("Op. inc. 2023"), else the question's measure in the column's period ("net revenue in Q2
    2023")."""
    named = re.match(r"^(?P<what>.*?[a-z].*?)\s+(?P<when>(?:Q[1-4]\s*)?(?:FY\s?|Fiscal )?"
                     r"(?:19|20)\d{2})$", column)
    if named:  # "Revenue 2024": "revenue in 2024"
        what = named["what"]
        what = what[0].lower() + what[1:] if what[1:2].islower() else what
        return f"{what} in {named['when']}"
    if re.sub(r"\b(?:q[1-4]|fy|fiscal|year|\d+)\b", "", column.lower()).strip(" .,'-"):
        return column
    q = question.lower()
    for term in _terms_asked(question, cues):
        for word in term.question:
            found = re.search(rf"\b(?:net |total |gross )?{re.escape(word)}\b", q)
            if found:
                return f"{found.group(0)} in {column}"
    return f"figure in {column}"


def _categories(question: str, cues: DirectCues) -> list[Cue]:
    """What the question ranks ("segment", "product", "region"), as the cues list them."""
    q = question.lower()
    return [c for c in cues.categories
            if c.word and re.search(c.pattern or rf"\b{re.escape(c.word)}(?:s|es)?\b", q)]


def _group_totals(rows: Sequence[Row]) -> list[Row]:
    """The rows that close a caption's block ("Total Asia Pacific" under "Asia Pacific:"),
    named by their caption; none unless two blocks or more print one."""
    totals = [r.model_copy(update={"label": r.unit.caption}) for r in rows
              if r.unit.caption and re.fullmatch(rf"total\s+{re.escape(r.unit.caption)}",
                                                 r.label, re.IGNORECASE)]
    return totals if len(totals) >= 2 else []


def _measured(rows: list[Row], question: str, cues: DirectCues) -> list[Row]:
    """The rows whose caption is the measure the question names ("Net sales" over the
    segments, not "Operating profit" over the same segments again). Captions that name no
    measure (regions) keep every row; measure captions of which none fits: no row."""
    measures = [w for t in _terms_asked(question, cues) for w in t.heading]
    every = [w for t in cues.terms.values() for w in t.heading]
    if not any(any(w in r.unit.caption.lower() for w in every) for r in rows):
        return rows
    return [r for r in rows if any(w in r.unit.caption.lower() for w in measures)]


def _table_winner(question: str, direction: str, selected: Sequence[EvidenceUnit],
                  pool: Sequence[EvidenceUnit], cues: DirectCues) -> DirectAnswer | None:
    """The winner among the rows of a selected row's table, or of a table of the part's other
    evidence whose title names what the question ranks ("Segment results" for "Which segment
    ..."). The table must print what is ranked, the measure and the period asked. A question
    that ranks groups ("Which region ...") ranks the totals of the captions' blocks where the
    table prints them (its regions' totals over their countries); rows under a caption that
    names another measure are not compared."""
    categories = _categories(question, cues)
    ranks = [w for c in categories if c.word for w in (c.word, *c.also)]
    groups_asked = any(c.level == "group" for c in categories)
    # a table split over two chunks is one table: its rows share the title and header
    tables: dict[tuple[str, int, str], bool] = {}
    for unit in [*selected, *pool]:
        if unit.is_row:
            tables.setdefault((unit.document, unit.year, unit.scope), unit in selected)
    measures = [w for t in _terms_asked(question, cues) for w in t.heading]

    def named_by(scope: str) -> int:
        """2 when the table's own title or header names what is ranked ("Our operating
        segment results"), 1 when only its section does ("Note 17. Business segment ..." over
        a table of a segment's product lines), else 0."""
        own = " | ".join(scope.split(" | ")[-2:]).lower()
        return 2 if any(r in own for r in ranks) else int(any(r in scope.lower() for r in ranks))

    ordered = sorted(tables.items(), key=lambda t: -named_by(t[0][2]))  # stable: else as found
    for (document, year, scope), quoted in ordered:
        if (ranks or not quoted) and not named_by(scope):
            continue  # a customers table does not rank products
        table = {u.quote: u for u in [*selected, *pool]
                 if u.is_row and (u.document, u.year, u.scope) == (document, year, scope)}
        printed = [r for u in table.values() if (r := read_row(u)) is not None and r.cells]
        rows = _group_totals(printed) if groups_asked else []
        grouped = bool(rows)
        if not grouped:
            rows = [r for r in printed
                    if _matches(cues.row_not_a_member, r.label.lower()) is None
                    and not any(w in r.label.lower() for w in measures)]  # the measure's total
            rows = _measured(rows, question, cues)
        if len({(r.unit.caption, r.label) for r in rows}) < len(rows):
            continue  # one label twice: the rows are measures under captions, not members
        if not rows:
            continue
        column = _column(rows, question, rows[0].unit, cues)
        if column is None:
            continue
        ranked = [(c, r) for r in rows if (c := r.cell(column)) is not None]
        if len(ranked) < 2 or (_terms_asked(question, cues)
                               and any(c.shown.endswith("%") for c, _ in ranked)):
            continue  # one row, or shares where the question asks for an amount
        ranked.sort(key=lambda x: x[0].value, reverse=direction == "max")
        if ranked[0][0].value == ranked[1][0].value:
            continue  # a tie names no single winner
        cell, winner = ranked[0]
        text = (f"{winner.label}. Its {(m := _measure(question, column, cues))} "
                f"{'were' if m.split(' in ')[0].endswith('s') else 'was'} "
                f"{_money(cell, winner.unit, cues)}")
        total = _total_of(printed, ranked, column, "" if grouped else winner.unit.caption, cues)
        if total is None or direction != "max":
            return DirectAnswer(kind="superlative", units=[winner.unit], text=f"{text}.")
        total_cell, total_row = total
        share = 100 * cell.value / total_cell.value
        return DirectAnswer(
            kind="superlative", units=[winner.unit, total_row.unit],
            text=f"{text}, {share:.0f}% of the {_money(total_cell, total_row.unit, cues)} total "
                 f"({cell.shown.lstrip('$')} / {total_cell.shown.lstrip('$')}).")
    return None


def _total_of(printed: Sequence[Row], ranked: Sequence[tuple[Cell, Row]], column: str,
              caption: str, cues: DirectCues) -> tuple[Cell, Row] | None:
    """The table's total of the ranked rows in ``column`` (the "Total" row under the same
    caption, or under none for the blocks' totals): the smallest total row that is at least
    their sum (rounding aside), so that a share of it is a share of the whole; else None."""
    summed = sum(c.value for c, _ in ranked)
    if summed <= 0:
        return None
    totals = [(c, r) for r in printed
              if r.unit.caption == caption and _matches(cues.total_row, r.label.lower())
              and (c := r.cell(column)) is not None and c.value >= summed * 0.995
              and not c.shown.endswith("%")]
    return min(totals, key=lambda t: t[0].value) if totals else None


MAX_PAGES_READ = 4  # pages a column ranking reads whole, at most
_MONTHS = {"3": "three", "6": "six", "9": "nine"}
_NAME_PERIOD_RE = re.compile(r"^(?P<name>.*?[^\W\d_].*?) (?P<period>(?:[369] months )?"
                             r"(?:19|20)\d{2})$")


def _column_winner(question: str, direction: str, units: Sequence[EvidenceUnit],
                   page_rows: PageRows | None, cues: DirectCues) -> DirectAnswer | None:
    """The winner among a table's columns, when its columns are what is ranked and its rows the
    measures (JPMorgan's segment results: "Total net revenue" over a column per segment and
    period, headed "Corporate 3 months 2021"): the cells of the row that prints the measure
    asked, under the period asked, compared across the names heading them. A table printed as
    two blocks side by side on a page (four segments, then Corporate, the reconciling items
    and the total) is compared whole: the rows of one label on one page. Only a whole table
    names a winner: its total column must be printed and equal the sum of the other columns
    (rounding aside), so a block missing from the evidence never crowns a runner-up."""
    if not _categories(question, cues):
        return None
    q = question.lower()
    measures = [w for t in _terms_asked(question, cues) for w in t.heading]
    periods = _asked_periods(question)
    if not measures or not periods:
        return None
    rows = [u for u in units if u.is_row]
    if page_rows is not None:  # the pages of the rows that print the measure, read whole
        pages = {(u.document, u.year, u.page) for u in rows
                 if any(w in u.text.partition(": ")[0].lower() for w in measures)}
        rows += [u for key in sorted(pages)[:MAX_PAGES_READ] for u in page_rows(*key)]
    found: dict[tuple[str, int, int, str], dict[str, list[tuple[Cell, Row]]]] = {}
    for unit in {(u.document, u.year, u.page, u.quote): u for u in rows}.values():
        row = read_row(unit)
        if row is None or not any(w in row.label.lower() for w in measures):
            continue
        for cell in row.cells:
            named = _NAME_PERIOD_RE.match(cell.heading)
            if (named is None or cell.shown.endswith("%")
                    or not any(_heading_has(named["period"], p) for p in periods)):
                continue
            key = (unit.document, unit.year, unit.page, row.label.lower())
            found.setdefault(key, {}).setdefault(named["name"], []).append((cell, row))
    for by_name in found.values():
        if any(len(cells) != 1 for cells in by_name.values()):
            continue  # a name under two columns of the period: which one is asked is unsure
        totals = [n for n in by_name if _matches(cues.total_row, n.lower())]
        members = [n for n in by_name if _matches(cues.row_not_a_member, n.lower()) is None]
        if len(totals) != 1 or len(members) < 2:
            continue
        total = by_name[totals[0]][0][0].value
        parts = sum(cells[0][0].value for n, cells in by_name.items() if n != totals[0])
        if abs(parts - total) > max(abs(total) * 0.005, 1.0):
            continue  # not every column of the whole is in the evidence
        ranked = sorted(((by_name[n][0], n) for n in members),
                        key=lambda x: x[0][0].value, reverse=direction == "max")
        if ranked[0][0][0].value == ranked[1][0][0].value:
            continue
        (cell, row), name = ranked[0]
        # "three months 2021": a digit the page prints only in words is no figure to verify
        period = re.sub(r"\b([369]) months\b", lambda m: f"{_MONTHS[m[1]]} months",
                        cell.heading[len(name):].strip())
        asked = _matches([c for c in cues.superlative if c.direction == direction], q)
        word = re.search(asked.pattern, q) if asked else None
        return DirectAnswer(kind="superlative", units=[row.unit], text=(
            f"{name} had the {word.group(0) if word else direction} {row.label[0].lower()}"
            f"{row.label[1:]} ({period}): {_money(cell, row.unit, cues)}."))
    return None


def _sentence_winner(question: str, direction: str, selected: Sequence[EvidenceUnit],
                     cues: DirectCues) -> DirectAnswer | None:
    words = [c.pattern for c in cues.superlative if c.direction == direction]
    periods = _asked_periods(question)
    for unit in selected:
        if unit.is_row:
            continue
        for word in words:
            match = re.search(_SENTENCE_WINNER.format(word=word), unit.text)
            if match is None:
                continue
            if periods and not any(p[1] in unit.text for p in periods):
                continue
            figure = re.search(r"\bwith (?P<fig>[$€£]\s?\d[\d,.]*(?: (?:million|billion))? of "
                               r"[a-z]+(?: [a-z]+)?)\b", unit.text[match.end():])
            shown = f", with {figure['fig']}" if figure else ""
            return DirectAnswer(kind="superlative", units=[unit],
                                text=f"{match['name']}{shown}.")
    return None


def _superlative(question: str, selected: Sequence[EvidenceUnit],
                 pool: Sequence[EvidenceUnit], page_rows: PageRows | None, cues: DirectCues
                 ) -> DirectAnswer | None:
    q = question.lower()
    if _matches(cues.which_question, q) is None or _matches(cues.superlative_not, q):
        return None
    cue = _matches(cues.superlative, q)
    if cue is None or cue.direction is None:
        return None
    return (_table_winner(question, cue.direction, selected, pool, cues)
            or _column_winner(question, cue.direction, [*selected, *pool], page_rows, cues)
            or _sentence_winner(question, cue.direction, selected, cues))


# -- lists ------------------------------------------------------------------------------------


def _asked_count(question: str, cues: DirectCues) -> int | None:
    for word in re.findall(r"[a-z0-9]+", question.lower()):
        if word in cues.list_counts:
            return cues.list_counts[word]
    return None


def _roots(text: str) -> set[str]:
    """Content words cut to five letters: "acquired" and "acquisitions" share "acqui"."""
    return {w[:5] for w in words(text) if len(w) >= 5 and w.isalpha()}


def _list(question: str, selected: Sequence[EvidenceUnit], cues: DirectCues
          ) -> DirectAnswer | None:
    q = question.lower()
    if _matches(cues.list_question, q) is None or _matches(cues.superlative, q):
        return None
    count = _asked_count(question, cues)
    item = cues.enumeration.item
    pattern = re.compile(cues.enumeration.pattern.replace("{item}", item))
    asked = _roots(question)
    for unit in selected:
        if unit.is_row:
            continue
        # a list that answers shares a word with the question ("acquired", "acquisitions")
        if not asked & _roots(unit.text):
            continue
        for match in pattern.finditer(unit.text):
            items = [i.strip() for i in re.split(r",? and |, ", match["items"]) if i.strip()]
            if any(_matches(cues.list_item_not, i.split()[0]) for i in items):
                items = [i for i in items if not _matches(cues.list_item_not, i.split()[0])]
                if len(items) < 3 or not match["items"].endswith(items[-1]):
                    continue
            if len(items) < 2 or (count is not None and len(items) != count):
                continue
            shown = ", ".join(items[:-1]) + f" and {items[-1]}"
            return DirectAnswer(kind="list", units=[unit], text=f"{shown}.")
    return None


# -- comparisons ------------------------------------------------------------------------------


def _periods_compared(question: str, cues: DirectCues) -> list[tuple[str | None, str]] | None:
    periods = _asked_periods(question)
    if len(periods) == 1 and _matches(cues.prior_period, question.lower()):
        quarter, year = periods[0]
        periods.append((quarter, str(int(year) - 1)))
    if len(periods) != 2:
        return None
    return sorted(periods, key=lambda p: (p[1], p[0] or ""), reverse=True)  # later first


def _direction(later: float, earlier: float) -> str:
    return "Increased" if later > earlier else "Decreased" if later < earlier else "Unchanged"


def _comparison(question: str, selected: Sequence[EvidenceUnit], cues: DirectCues
                ) -> DirectAnswer | None:
    if _matches(cues.comparison, question.lower()) is None:
        return None
    periods = _periods_compared(question, cues)
    if periods is None:
        return None
    later, earlier = periods
    for unit in selected:
        row = read_row(unit)
        if row is not None:
            now = [c for c in row.cells if _heading_has(c.heading, later)]
            then = [c for c in row.cells if _heading_has(c.heading, earlier)
                    and not _heading_has(c.heading, later)]
            if len(now) != 1 or len(then) != 1:
                continue  # one figure per period, or the row is not read
            a, b = now[0], then[0]
            figures = (f"{row.label} {_money(a, unit, cues)} in {a.heading} against "
                       f"{_money(b, unit, cues)} in {b.heading}")
            return DirectAnswer(kind="comparison", units=[unit], supports=figures,
                                text=f"{_direction(a.value, b.value)}: {figures}.")
        if unit.is_row:
            continue
        found = []
        for period in (later, earlier):
            label = f"{period[0]} {period[1]}" if period[0] else period[1]
            hits = re.findall(_FIGURE_IN_PERIOD.format(period=re.escape(label)), unit.text,
                              re.IGNORECASE)
            if len(set(hits)) != 1:
                break
            found.append((hits[0], label))
        if len(found) != 2:
            continue
        values = [parse_cell(re.sub(r" (?:million|billion|thousand)$", "", f)) for f, _ in found]
        if any(v is None for v in values) or found[0][0].endswith("%") != found[1][0].endswith("%"):
            continue
        (a, a_label), (b, b_label) = found
        figures = f"{a} in {a_label} against {b} in {b_label}"
        return DirectAnswer(kind="comparison", units=[unit], supports=figures, text=(
            f"{_direction(values[0][0], values[1][0])}: {figures}."))  # type: ignore[index]
    return None


# -- the entry point --------------------------------------------------------------------------


def direct_answer(question: str, selected: Sequence[EvidenceUnit],
                  pool: Sequence[EvidenceUnit] = (), page_rows: PageRows | None = None,
                  cues: DirectCues | None = None) -> DirectAnswer | None:
    """The direct first sentence for ``question`` from the units the engine selected (best
    first), a table completed from ``pool`` (the part's other evidence units: a superlative
    compares every row of the table, not only the quoted ones) and from ``page_rows`` (every
    table row of a page, for a table whose blocks retrieval did not all return), or None."""
    cues = cues or load_cues()
    if not selected:
        return None
    return (_superlative(question, selected, pool, page_rows, cues)
            or _comparison(question, selected, cues)
            or _list(question, selected, cues))
