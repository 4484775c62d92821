"""Superlatives: "Which segment had the lowest net revenue?" answered with the winner.

The winner among a table's rows (the same column compared across them), among its columns when
the columns are what is ranked (JPMorgan's segment results: a column per segment), by the
change between two periods when the question asks for the best or worst performance or the
biggest drop, or the name a cited sentence gives it ("Pumps was the largest contributor ...").
Cues in ``direct_cues.json``; every name and figure of the answer is copied from the rows it
cites, and a share of the total is computed from two cited rows and says so. A change ranking
whose every member moved the other way ("the largest decline" when each segment grew) is
answered "None", with the change nearest to the one asked and every row compared cited, when
the rows are the whole table (they sum to its total).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from rag_assets.core.generation.direct_rows import (
    Cell,
    Cue,
    DirectAnswer,
    DirectCues,
    HeadingTerm,
    PageRows,
    Row,
    difference,
    first_match,
    heading_has,
    member_word,
    members_word,
    money,
    parse_cell,
    read_row,
    share_of,
    sums_to,
)
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.member_tables import member_rows
from rag_assets.core.generation.places import names_a_place
from rag_assets.core.ingest.statement_tables import TRAILING_MARKER_RE
from rag_assets.core.question.question import Question
from rag_assets.core.text.figures import FIGURES_RUN_RE
from rag_assets.core.text.periods import (
    DURATION_ENDED_RE,
    MONTHS_PER_YEAR,
    NAME_THEN_DURATION_RE,
    NAME_THEN_PERIOD_RE,
    PART_OF_YEAR_RE,
    PERIOD_CAPTION_RE,
    PERIOD_TITLE_LEAD_RE,
    PERIOD_WORD_RE,
    column_of_months,
)
from rag_assets.core.text.prose import UNITS_NOTE_RE
from rag_assets.core.text.years import FISCAL_YEAR_RE, years_in

TOTAL_HEADING_RE = re.compile(r"\btotal\b", re.IGNORECASE)
# a column that prints a change itself: "Total sales change", "% Change", "Growth"
CHANGE_COLUMN_RE = re.compile(r"\b(?:change|growth)\b", re.IGNORECASE)
VERB_PHRASE_RE = re.compile(r"(?:grew|rose|fell|declined|dropped)\b", re.IGNORECASE)
# a ratio of the measure named just before: "Adjusted Property EBITDAR margin"
RATIO_AFTER_RE = re.compile(r"\s+(margins?|ratios?)\b")
UNNAMED_MEASURE = "revenue"  # what a member's size or growth is, when the question names none
MAX_PAGES_READ = 4  # pages a ranking reads whole, at most
MAX_PAGES_TITLED = 8  # pages of tables titled by what is ranked, read when the evidence has none
# the filing's pages that print a table titled by one of the words: (document, year, words)
PagesTitling = Callable[[str, int, Sequence[str]], list[int]]
_SENTENCE_WINNER = (r"^(?P<name>(?:[A-Z][\w&'’./-]*)(?: (?:[A-Z][\w&'’./-]*|and|of|&))*?)"
                    r"(?: segment| business| division)? (?:was|were|is|are|remained|became) "
                    r"(?:again )?(?:the|our) {word}\b")


def measures_asked(question: Question, cues: DirectCues) -> list[str]:
    """The headings that print the measure the question asks ("net sales", "revenues")."""
    return [w for t in _terms_asked(question, cues) for w in t.heading]


def _terms_asked(question: Question, cues: DirectCues) -> list[HeadingTerm]:
    """The heading terms the question names; a term named only inside a longer one's words
    is not asked ("long-lived assets" asks no "assets"). A term named before "margin" or
    "ratio" is that ratio, another measure: "EBITDAR margin" is ranked only where a heading
    prints "EBITDAR margin", never by the EBITDAR amounts."""
    q = question.text.lower()
    spans = {key: [m.span() for w in t.question for m in re.finditer(rf"\b{re.escape(w)}\b", q)]
             for key, t in cues.terms.items()}
    asked = []
    for key, found in spans.items():
        own = [(start, end) for start, end in found if not any(
            a <= start and end <= b and (a, b) != (start, end)
            for other, elsewhere in spans.items() if other != key for a, b in elsewhere)]
        if own:
            term = cues.terms[key]
            ratio = next((m[1] for _, end in own if (m := RATIO_AFTER_RE.match(q, end))), None)
            asked.append(term if ratio is None else term.model_copy(
                update={"heading": [f"{h} {ratio}" for h in term.heading]}))
    return asked


def _is_figure(heading: str) -> bool:
    """A column heading printed as a figure ("$ 3,384", "(17)", "24.4%"), not a year: the
    table's first row of figures read as its header (American Water's segment note), so which
    column holds which measure or member is unknown."""
    text = heading.strip()
    return parse_cell(text) is not None and not FISCAL_YEAR_RE.fullmatch(text)


def _kinds(headings: Sequence[str]) -> int:
    """How many kinds of column the headings name, their years aside ("2022" and "2021" are
    one kind; "Net sales 2022" and "Long-lived assets 2022" two)."""
    return len({re.sub(r"\d", "", h) for h in headings})


def column_asked(rows: Sequence[Row], question: Question, unit: EvidenceUnit,
                 cues: DirectCues, totals_said: str = "") -> str | None:
    """The column a superlative compares: the measure and the period the question names, or
    None when the table does not print them (or two columns fit equally). Columns of several
    kinds of which none names the measure or the period asked (segments across, "Regulated |
    Market-Based | Consolidated") are not guessed at, nor columns headed by figures.
    ``totals_said``: the labels of the rows that total the members, which name what they
    measure where no title or caption does (:func:`summed_by_measure`)."""
    headings = list(dict.fromkeys(c.heading for r in rows for c in r.cells))
    if not headings or any(_is_figure(h) for h in headings):
        return None
    terms = _terms_asked(question, cues)
    named = False  # a heading names the measure or the period asked
    # what the rows measure: the table's title and header, or the caption they are under
    scope = " ".join([unit.scope, *{r.unit.caption for r in rows}, totals_said]).lower()
    if terms:
        words = [w for t in terms for w in t.heading]
        fit = [h for h in headings if any(w in h.lower() for w in words)]
        if not fit and not any(w in scope for w in words):
            return None
        named, headings = bool(fit), fit or headings
    periods = question.periods
    if periods:
        fit = [h for h in headings if any(heading_has(h, p) for p in periods)]
        if not fit and (any(FISCAL_YEAR_RE.search(h) for h in headings)
                        or not any(heading_has(unit.scope, p) for p in periods)):
            return None  # the columns are other periods, or the table is another year's
        named, headings = named or bool(fit), fit or headings
        if not any(q for q, _ in periods):  # a year asked: its full year before its part;
            # "the three months ended December 31, 2022": its quarter's, never another length's
            fit = [h for h in headings if column_of_months(h, question.months)]
            if not fit and question.months < MONTHS_PER_YEAR:
                return None  # no column of the months asked
            headings = fit or headings
    # several kinds of column, none named by the question: unsure which one ranks the rows
    if _kinds(headings) > 1 and not named:
        return None
    # of the measure's columns, its total over the parts ("Operating Revenues Total" beside
    # "... Water" and "... Wastewater"), not a share of it
    totals = [h for h in headings if TOTAL_HEADING_RE.search(h) and "%" not in h]
    return totals[0] if len(headings) > 1 and totals else headings[0]


def _measure(question: Question, column: str, cues: DirectCues, printed_as: str = "") -> str:
    """How the answer names the compared figure: the column's heading when it names a measure
    ("Op. inc. 2023"), else the measure the table's total row prints (``printed_as``:
    "revenues" of "Total revenues"), else the question's measure in the column's period ("net
    revenue in Q2 2023")."""
    named = NAME_THEN_PERIOD_RE.match(column)
    a_period = bool(PERIOD_CAPTION_RE.match(column))  # "Year ended December 31, 2021"
    if named and not PART_OF_YEAR_RE.fullmatch(named["what"].strip()) and not a_period:
        # "Revenue 2024": "revenue in 2024" ("three months 2024" names a period, not a measure)
        what = named["what"]
        while (bare := TRAILING_MARKER_RE.sub("", what)) != what:  # "Net sales (1)(3)"
            what = bare
        # "Net Sales" reads "net sales"; an acronym ("EBITDAR", "U.S.") keeps its capitals
        what = " ".join(w.lower() if w[1:].islower() else w for w in what.split())
        return f"{what} in {named['when']}"
    if not a_period and PERIOD_WORD_RE.sub(
            "", PART_OF_YEAR_RE.sub("", column.lower())).strip(" .,'-"):
        # a heading's units ("Operating Revenues (in millions)"): the amount says them
        return " ".join(UNITS_NOTE_RE.sub(" ", column).split())
    if printed_as:
        return f"{as_read(printed_as, first_only=False)} in {column}"
    # as the asking sentence writes it ("EBITDAR"), not its instructions after the "?"
    q = question.text.lower().split("?")[0]
    for term in _terms_asked(question, cues):
        for word in term.question:
            found = re.search(rf"\b(?:net |total |gross )?{re.escape(word)}\b", q)
            if found:
                return f"{question.text[found.start():found.end()]} in {column}"
    return f"figure in {column}"


def as_read(printed: str, first_only: bool = True) -> str:
    """A measure's name as a sentence reads it: a heading set in capitals in lower case
    ("REVENUES", "NIKE, INC. REVENUES": Nike's segment note), else its first letter lowered
    ("Net sales": "net sales"), or, with ``first_only`` False, as printed ("EBITDAR margin")."""
    if printed.isupper():
        return printed.lower()
    return printed[:1].lower() + printed[1:] if first_only else printed


def _titled_measure(scope: str, cues: DirectCues) -> str | None:
    """The measure a table's title says it presents by what is ranked, as it prints it
    (Corning 2015 p.29: "The following table presents net sales by reportable segment": "net
    sales"), of the measures a heading may print (``heading_terms``); never a cost of one
    ("cost of sales by segment"); None when its title names none."""
    parts = scope.split(" | ")
    title = " ".join(parts[-2 if len(parts) > 1 else 0].split()).lower()
    found = [(m.start(), -len(m.group(1)), m.group(1)) for term in cues.terms.values()
             for word in term.heading
             if (m := re.search(rf"(?<!cost of )(?<!costs of )\b((?:net |total |gross )?"
                                rf"{re.escape(word)})\s+by\b", title))]
    return min(found)[2] if found else None


def _ranks(question: Question, cues: DirectCues) -> list[str]:
    """The words that name what is ranked ("segment", "region", "geograph", ...)."""
    return [w for c in categories_named(question, cues) if c.word for w in (c.word, *c.also)]


def categories_named(question: Question, cues: DirectCues) -> list[Cue]:
    """What the question ranks ("segment", "product", "region"), as the cues list them."""
    q = question.text.lower()
    return [c for c in cues.categories
            if c.word and re.search(c.pattern or rf"\b{re.escape(c.word)}(?:s|es)?\b", q)]


def _group_totals(rows: Sequence[Row]) -> list[Row]:
    """The rows that close a caption's block ("Total Asia Pacific" under "Asia Pacific:"),
    named by their caption, or by the place they total where the caption was printed on the
    block's first row ("Europe Germany 326 ..." over "Total Europe": Corning 2015); none unless
    two blocks or more print one. Where the blocks print the same members
    (:func:`_blocks_repeat_members`), only a place's block is a group (regions each over their
    products); others are measures (Nike's segments under "REVENUES", then "DEPRECIATION")."""
    repeated = _blocks_repeat_members(rows)
    totals = []
    for row in rows:
        group = re.fullmatch(r"total\s+(?P<name>.+)", " ".join(row.label.split()), re.IGNORECASE)
        if group is None or (repeated and not names_a_place(group["name"])):
            continue
        if row.unit.caption and group["name"].lower() == " ".join(row.unit.caption.split()
                                                                   ).lower():
            totals.append(row.model_copy(update={"label": row.unit.caption}))
        elif names_a_place(group["name"]):
            totals.append(row.model_copy(update={"label": group["name"]}))
    return totals if len(totals) >= 2 else []


def _blocks_repeat_members(rows: Sequence[Row]) -> bool:
    """Whether two captions' blocks print mostly the same members (two or more, and more
    than half of the smaller block): the captions are measures of one set of members
    (Nike's regions under "REVENUES" and under "DEPRECIATION"), where groups print members
    of their own (Corning's countries under "Asia Pacific", an "Other" under each region)."""
    blocks: dict[str, set[str]] = {}
    for row in rows:
        label = " ".join(row.label.lower().split())
        if row.unit.caption and not label.startswith("total"):
            blocks.setdefault(row.unit.caption, set()).add(label)
    members = list(blocks.values())
    return any(len(a & b) >= 2 and 2 * len(a & b) > min(len(a), len(b))
               for i, a in enumerate(members) for b in members[i + 1:])


def _measured(rows: list[Row], question: Question, cues: DirectCues) -> list[Row]:
    """The rows whose caption is the measure the question names ("Net sales" over the
    segments, not "Operating profit" over the same segments again), or sales when it names
    none ("Which segment grew the fastest?": every segment note prints each segment's revenue,
    ASC 280-10-50-22). Captions that name no measure (regions) keep every row; measure captions
    of which none fits: no row."""
    asked = _terms_asked(question, cues) or [cues.terms[UNNAMED_MEASURE]]
    measures = [w for t in asked for w in t.heading]
    every = [w for t in cues.terms.values() for w in t.heading]
    if not any(any(w in r.unit.caption.lower() for w in every) for r in rows):
        return rows
    return [r for r in rows if any(w in r.unit.caption.lower() for w in measures)]


def _table_winner(question: Question, direction: str, selected: Sequence[EvidenceUnit],
                  pool: Sequence[EvidenceUnit], page_rows: PageRows | None, cues: DirectCues,
                  change: Cue | None = None, titled: bool | None = None,
                  also_ranks: Sequence[str] = ()) -> DirectAnswer | None:
    """The winner among the rows of a selected row's table, or of a table of the part's other
    evidence whose title names what the question ranks ("Segment results" for "Which segment
    ..."), or else the measure asked (MGM's "ADJUSTED PROPERTY EBITDAR" table for "Which
    region had the highest EBITDAR", whose rows are its regions). The table must print what is
    ranked, the measure and the period asked; the page of a quoted row is read whole first, so
    a table split over chunks is compared whole. A question that ranks groups ("Which region ...")
    ranks the totals of the captions' blocks where the table prints them (its regions' totals
    over their countries); rows under a caption that names another measure are not compared.
    With ``change`` (a cue of ``change_rank``: "worst topline performance", "biggest drop"),
    the rows are ranked by their change from the prior period's column instead. ``titled``:
    True for only the tables whose own title or header names what is ranked or the measure
    asked, False for only the others (named by their section alone), None for all;
    ``also_ranks``: more words that name what is ranked (a filer's segments as its regions)."""
    categories = categories_named(question, cues)
    ranks = [*_ranks(question, cues), *also_ranks]
    groups_asked = any(c.level == "group" for c in categories)
    read, tables = tables_in(selected, pool, page_rows)
    measures = measures_asked(question, cues)
    units = [*read, *selected, *pool]
    ordered = sorted(tables.items(), key=lambda t: -_named_by(t[0][2], ranks))  # stable
    for table, quoted in ordered:
        scope = table[2]
        if (ranks or not quoted) and not _named_by(scope, ranks) and not _of_measure(scope,
                                                                                      measures):
            continue  # a customers table does not rank products
        own = _named_by(scope, ranks) == 2 or _of_measure(scope, measures)
        if titled is not None and own != titled:
            continue  # under a "Segments" note: its own title may name other members
        if _of_other_members(scope, categories, ranks, cues) or _eliminated(scope, question, cues):
            continue  # General Mills' "net sales by class of similar products" ranks no region
        if (not also_ranks and disaggregates(scope, categories, ranks, cues)
                or _of_one_member(scope, ranks)):  # "for the Display Technologies segment"
            continue  # Walmart's "net sales by merchandise category" ranks no segment
        rows, printed, grouped = _members(units, table, groups_asked, measures, question, cues)
        if (not rows or len({(r.unit.caption, r.label) for r in rows}) < len(rows)
                or _repeated_on_page(rows, page_rows)  # measures under captions, not members
                or not _places_if_asked(categories, [r.label for r in rows])
                or (_named_by(scope, ranks) < 2  # Coca-Cola's United States is no segment
                    and first_match(cues.segment_tables, scope.lower()) is None
                    and _places_only(categories, rows, measures, cues))):
            continue  # 3M's product lines under "Disaggregated revenue" are no regions
        if change is not None and change.by == "percent" and not change.lists and (
                printed_change := _printed_change_winner(question, direction, rows, change, cues)):
            return printed_change
        totals_said = _summing_label(printed, measures, cues)
        column = column_asked(rows, question, rows[0].unit, cues, totals_said)
        if column is None or (change is not None and not _names_measure(
                rows, printed, column, measures, cues, totals_said)):
            continue
        found = (_change_winner(question, direction, rows, _latest(column, question, rows),
                                change, categories, cues, printed) if change is not None
                 else _ranked_winner(question, direction, rows, printed, grouped, column,
                                     measures, cues, totals_said))
        if found is not None:
            return found
    return None


def _repeated_on_page(rows: Sequence[Row], page_rows: PageRows | None) -> bool:
    """Whether the rows are one block of a table their page prints whole, which prints a
    label twice under the same caption (none read): a chunk that holds MGM Resorts' "Casino,
    Rooms, Food and beverage" of Las Vegas Strip Resorts alone, the segment note printing them
    again for each segment under a heading its reader does not take as a caption (items of a
    member, not members)."""
    if page_rows is None or not rows:
        return False
    unit = rows[0].unit
    texts = {r.unit.text for r in rows}
    tables: dict[str, list[EvidenceUnit]] = {}
    for printed in page_rows(unit.document, unit.year, unit.page):
        if printed.is_row:
            tables.setdefault(printed.scope, []).append(printed)
    for units in tables.values():
        if texts <= {u.text for u in units}:
            labels = [(u.caption, r.label) for u in units
                      if (r := read_row(u)) is not None and r.label]
            if len(set(labels)) < len(labels):
                return True
        elif len({r.label for r in rows} & _unheaded_labels(units)) >= 2:
            return True  # the next segment's block, read as a table of its own (below)
    return False


def _unheaded_labels(units: Sequence[EvidenceUnit]) -> set[str]:
    """The labels of a page's table whose figures stand under no heading: the blocks after a
    subtotal printed without a label, which the page's reader takes for a new table headed by
    that subtotal's figures (MGM Resorts' "Regional Operations" and "MGM China" blocks of
    "Casino, Rooms, ..." under Las Vegas Strip Resorts' $2,146,650 thousand)."""
    if not units or not FIGURES_RUN_RE.search(units[0].scope):
        return set()
    read = [r for u in units if (r := read_row(u)) is not None and r.label and r.cells]
    if not read or any(c.heading for r in read for c in r.cells):
        return set()
    return {r.label for r in read}


TableKey = tuple[str, int, str]  # (document, year, the table's scope: title and header)


def tables_in(selected: Sequence[EvidenceUnit], pool: Sequence[EvidenceUnit],
               page_rows: PageRows | None) -> tuple[list[EvidenceUnit], dict[TableKey, bool]]:
    """The rows read from the quoted units' pages, and every table of the evidence, each with
    whether it is quoted (a selected row's table; a table read from a page when it prints a row
    the part selected: the rest of its page stands as the pool does)."""
    read: list[EvidenceUnit] = []
    if page_rows is not None:
        # the pages of the quoted units, best first: a table split over chunks, or one
        # printed without rules whose rows were indexed as prose
        pages = list(dict.fromkeys((u.document, u.year, u.page) for u in selected))
        read = [u for key in pages[:MAX_PAGES_READ] for u in page_rows(*key)]
    # a table split over two chunks is one table: its rows share the title and header
    quotes = {(u.document, u.year, u.quote) for u in selected if u.is_row}
    quoted_tables = {(u.document, u.year, u.scope) for u in [*selected, *read]
                     if u.is_row and (u.document, u.year, u.quote) in quotes}
    tables: dict[TableKey, bool] = {}
    for unit in [*read, *selected, *pool]:
        if unit.is_row:
            key = (unit.document, unit.year, unit.scope)
            tables.setdefault(key, key in quoted_tables)
    return read, tables


def _named_by(scope: str, ranks: Sequence[str]) -> int:
    """2 when the table's own title or header names what is ranked ("Our operating segment
    results"), 1 when only its section does ("Note 17. Business segment ..." over a table of a
    segment's product lines), else 0."""
    own = " | ".join(scope.split(" | ")[-2:]).lower()
    return 2 if any(r in own for r in ranks) else int(any(r in scope.lower() for r in ranks))


def _of_other_members(scope: str, categories: Sequence[Cue], ranks: Sequence[str],
                      cues: DirectCues) -> bool:
    """Whether a table's own title names members of another kind (``direct_cues.json``'s
    categories' ``kind``) than the places or units asked: products, categories, brands,
    customers, or, for a segment, places (ASC 280-10-50-40 and -41 disclose revenue by product
    and by geography apart); of a title that names two kinds, the first is its members'
    (Corning's "geographic areas for reportable segments" ranks no segment). A unit is never
    another kind: a company's segments may be its regions."""
    asked = {c.kind for c in categories if c.kind}
    if not asked & {"place", "unit"}:
        return False
    others = [w for c in cues.categories if c.kind and c.kind not in asked and c.kind != "unit"
              for w in (c.word, *c.also) if w]
    # its titles, nearest first: the header names the columns, measures ("Number of
    # Customers"), not members; the nearest title that names a kind decides (3M's Note 2,
    # "Revenue by Product and Geography", prints its product lines under "Year ended")
    parts = scope.split(" | ")
    for title in reversed(parts[:-1] or parts):
        own = " ".join(title.lower().split())
        other_at = min((m.start() for w in others if (m := re.search(rf"\b{w}\w*", own))),
                       default=None)
        asked_at = min((at for r in ranks if (at := own.find(r)) >= 0), default=None)
        if other_at is not None or asked_at is not None:
            # the kind a title names first is its members': "geographic areas for reportable
            # segments"
            return other_at is not None and (asked_at is None or other_at < asked_at)
    return False


# a name that is no member's: "for the reportable segment", "for each operating segment"
_NO_MEMBER_NAMES = frozenset({"reportable", "operating", "business", "each", "total", "other",
                              "respective", "applicable", "company's", "company"})


def _of_one_member(scope: str, ranks: Sequence[str]) -> bool:
    """Whether a table's own title says it is of one member of what is ranked: "for the",
    the member's name, then the rank's word in the singular, and no second member after it
    (Corning 2015 p.45: "net sales and net income for the Display Technologies segment"):
    its rows are that member's measures and reconciling items, never members."""
    own = " | ".join(scope.split(" | ")[-2:])
    words = "|".join(re.escape(r) for r in ranks if r.isalpha())  # "segment", "division"
    if not words:
        return False
    for found in re.finditer(rf"\b(?i:for\s+(?:the|our|its))\s+(?P<name>[A-Z][\w&'’.-]*\s+"
                             rf"(?:(?:[A-Z][\w&'’.-]*|and)\s+){{0,4}}?)(?i:(?:{words}))\b(?!\s*(?:,|and)\s+(?:the\s+)?"
                             rf"(?:[A-Z][\w&'’.-]*\s+){{1,4}}(?i:(?:{words}))\b)", own):
        if not set(found["name"].lower().split()) <= _NO_MEMBER_NAMES:
            return True
    return False


def disaggregates(scope: str, categories: Sequence[Cue], ranks: Sequence[str],
                  cues: DirectCues) -> bool:
    """Whether a unit is asked (a segment, a division) of a table whose own title or header
    disaggregates revenue by product, category, market or place (``disaggregation_tables``:
    ASC 606-10-50-5, printed beside the segment note, whose rows are no segments) and does
    not name what is ranked before that ("Net sales of reportable segments by geographic
    area" ranks segments). Its section's heading does not count: Walmart's "Segments and
    Disaggregated Revenue" heads both tables."""
    if "unit" not in {c.kind for c in categories}:
        return False
    own = " ".join(scope.split(" | ")[-2:]).lower()
    split = min((m.start() for c in cues.disaggregation_tables
                 if (m := re.search(c.pattern, own, re.IGNORECASE))), default=None)
    return split is not None and not any(0 <= own.find(r) < split for r in ranks)


def _places_if_asked(categories: Sequence[Cue], members: Sequence[str]) -> bool:
    """Whether members ranked for a place ("Which region ...") name one among them (a
    region's rows, "MGM China", "Non-U.S."): rows or columns that name none are products or
    segments, whatever the table's title says; True when no place is asked."""
    return "place" not in {c.kind for c in categories} or any(map(names_a_place, members))


def _places_only(categories: Sequence[Cue], rows: Sequence[Row], measures: Sequence[str],
                 cues: DirectCues) -> bool:
    """Whether units are asked ("Which segment ...") of rows that all name places: the
    entity-wide split by geography of ASC 280-10-50-41 (Coca-Cola's "United States" and
    "International" in its segment note), which is no segment unless the table's own title
    says so (Kraft Heinz's "Net sales by segment": United States, International, Canada)."""
    members = [r.label for r in rows if not _names(r.label, _asked_or_sales(measures, cues))]
    return ("unit" in {c.kind for c in categories} and bool(members)
            and all(map(names_a_place, members)))


def _eliminated(scope: str, question: Question, cues: DirectCues) -> bool:
    """A table whose own title or header is of what consolidation eliminates
    (``eliminated_tables``: intersegment sales), when the question does not ask for it."""
    own = " ".join(scope.split(" | ")[-2:])
    return any(re.search(c.pattern, own, re.IGNORECASE)
               and not re.search(c.pattern, question.text, re.IGNORECASE)
               for c in cues.eliminated_tables)


def _of_measure(scope: str, measures: Sequence[str]) -> bool:
    """The table's own title or header names the measure asked ("EBITDAR")."""
    own = " | ".join(scope.split(" | ")[-2:]).lower()
    return any(w in own for w in measures)


def _members(units: Sequence[EvidenceUnit], table: TableKey, groups_asked: bool,
             measures: Sequence[str], question: Question, cues: DirectCues
             ) -> tuple[list[Row], list[Row], bool]:
    """The rows a table ranks (its groups' totals when groups are asked and printed, else its
    members of the measure asked), every row it prints, and whether groups were ranked."""
    rows_of = {u.quote: u for u in units if u.is_row and (u.document, u.year, u.scope) == table}
    printed = [r for u in rows_of.values() if (r := read_row(u)) is not None and r.cells]
    if any(first_match(cues.roll_forward_row, r.label.lower()) for r in printed):
        return [], printed, False  # a balance's movements: no members
    printed = (measure_block(printed, measures, cues) or summed_by_measure(printed, measures, cues)
               or printed)
    rows = _group_totals(printed) if groups_asked else []
    if rows:
        return rows, printed, True
    members = [r for r in printed
               if r.label and first_match(cues.row_not_a_member, r.label.lower()) is None
               and first_match(cues.reconciling_caption, r.unit.caption.lower()) is None
               and not any(w in r.label.lower() for w in measures)]  # the measure's total
    measured = _measured(members, question, cues)
    return ([] if _line_items(measured, measures, cues) else measured), printed, False


def _names_measure(rows: Sequence[Row], printed: Sequence[Row], column: str,
                   measures: Sequence[str], cues: DirectCues, totals_said: str = "") -> bool:
    """Whether the table names the measure asked, or sales when none is, in its section, title
    or header, the column compared, the rows' caption or a total row: a growth is a change of
    a measure the table prints. Coca-Cola 2019's segment note closes with "property, plant and
    equipment - net" of the United States and International: a rise in either is no growth.
    A total row under the rows' caption that names a measure decides it: Walmart's "Total
    long-lived assets" closes a block whose caption row the chunker left in the chunk before,
    under a note titled "Segments and Disaggregated Revenue". ``totals_said``: the label of the
    row that sums the members (:func:`summed_by_measure`)."""
    asked = _asked_or_sales(measures, cues)
    captions = {r.unit.caption for r in rows}
    named = [n for r in printed if r.unit.caption in captions
             and (n := _total_names(r.label, cues))]
    if named:
        return any(_names(n, asked) for n in named)
    totals = [r.label for r in printed if first_match(cues.total_row, r.label.lower())]
    said = " | ".join([rows[0].unit.scope, column, *{r.unit.caption for r in rows}, *totals,
                       totals_said])
    return _names(said, asked)


def _names(text: str, words: Sequence[str]) -> bool:
    """Whether ``text`` names one of ``words`` as whole words, in any case."""
    lowered = text.lower()
    return any(re.search(rf"\b{re.escape(w)}\b", lowered) for w in words)


def _asked_or_sales(measures: Sequence[str], cues: DirectCues) -> Sequence[str]:
    """The heading words of the measure asked, or of sales when the question names none."""
    return measures or cues.terms[UNNAMED_MEASURE].heading


def measure_block(printed: Sequence[Row], measures: Sequence[str], cues: DirectCues
                   ) -> list[Row] | None:
    """The block of the measure asked, where a table prints the same members once per measure
    under an uncaptioned heading row, each block closed by its total (Walmart's entity-wide
    disclosure, ASC 280-10-50-41: "U.S. operations" and "Non-U.S. operations" over "Total
    revenues", then again over "Total long-lived assets"): the rows up to and including the
    total that names the measure (sales when the question names none). None when no member is
    printed twice, or no single block's total names the measure. Members printed again
    under captions that name each block (Nike's segment note: "REVENUES", then "EARNINGS
    BEFORE INTEREST AND TAXES" over the same regions, "Total NIKE Brand" closing a part of a
    block) are told apart by their captions: no block is read by its totals."""
    labels = [(r.unit.caption, r.label) for r in printed if r.label]
    if len(set(labels)) == len(labels):
        return None
    blocks: list[list[Row]] = [[]]
    for row in printed:
        blocks[-1].append(row)
        if first_match(cues.total_row, row.label.lower()):
            blocks.append([])  # a block closed by its total
    named = [b for b in blocks[:-1] if _names(b[-1].label, _asked_or_sales(measures, cues))]
    return named[0] if len(named) == 1 else None


def summed_by_measure(printed: Sequence[Row], measures: Sequence[str], cues: DirectCues
                      ) -> list[Row] | None:
    """The members a row named by the measure asked sums, with that row: the rows above it,
    from the table's start or its last total, when in some column their figures add up to its
    figure (MGM Resorts' segment note: "Las Vegas Strip Resorts", "Regional Operations" and
    "MGM China" over "Reportable segment Adjusted Property EBITDAR", then the reconciliation's
    line items down to net income; its "Adjusted Property EBITDAR" caption is no measure the
    vocabulary knows, so no caption tells the blocks apart). The subtotal's own sum is the
    table's structure (ASC 280-10-50-30: the reportable segments' measure totalled before its
    reconciliation). None when the question names no measure or no such row sums the rows above
    it."""
    if not measures:
        return None
    # the row totals members: "Total ...", or it names the members' kind ("Reportable segment
    # ..."); a reconciliation's sum ("Adjusted EBITDA" under net income, taxes, interest) does not
    kinds = [w for c in cues.categories for w in (c.word, c.plural, *c.also) if w]
    start = 0
    for at, row in enumerate(printed):
        if at - start >= 2 and row.label and _names(row.label, measures) and (
                first_match(cues.total_row, row.label.lower()) or _names(row.label, kinds)):
            block = printed[start:at]
            if any(_sums_to_total([row], [(c, r) for r in block if (c := r.cell(cell.heading))
                                          is not None], cell.heading, row.unit.caption)
                   for cell in row.cells if not cell.shown.endswith("%")):
                return [*block, row]
        if first_match(cues.total_row, row.label.lower()):
            start = at + 1
    return None


def _summing_label(printed: Sequence[Row], measures: Sequence[str], cues: DirectCues) -> str:
    """The label of the row that sums the members under the measure's name ("Reportable
    segment Adjusted Property EBITDAR": :func:`summed_by_measure`), or ""."""
    summed = summed_by_measure(printed, measures, cues)
    return summed[-1].label if summed else ""


def _line_items(rows: Sequence[Row], measures: Sequence[str], cues: DirectCues) -> bool:
    """A row is named for a measure other than the one asked ("Net income attributable to
    common shareholders" beside "Cash paid for capital expenditures"): the rows are a
    statement's line items, over members printed as columns, not members to rank."""
    asked = _asked_or_sales(measures, cues)
    others = [w for t in cues.terms.values() for w in t.heading if w not in asked]
    return any(_names(r.label, others) for r in rows)


def _ranked_winner(question: Question, direction: str, rows: Sequence[Row],
                   printed: Sequence[Row], grouped: bool, column: str,
                   measures: Sequence[str], cues: DirectCues, totals_said: str = ""
                   ) -> DirectAnswer | None:
    """The row with the highest (or lowest) value in ``column``, with its share of the table's
    total when one is printed (``totals_said``: the row that sums the members under the
    measure's name); None for one row, a tie, shares where an amount is asked, or a total of
    another measure than ``measures`` (the heading words of the one asked)."""
    ranked = [(c, r) for r in rows if (c := r.cell(column)) is not None]
    if len(ranked) < 2 or (_terms_asked(question, cues)
                           and any(c.shown.endswith("%") for c, _ in ranked)):
        return None
    ranked.sort(key=lambda x: x[0].value, reverse=direction == "max")
    if ranked[0][0].value == ranked[1][0].value:
        return None  # a tie names no single winner
    cell, winner = ranked[0]
    others = [] if grouped else _not_ranked(printed, winner.unit.caption, column, cues)
    total = _total_of(printed, [*ranked, *others], column,
                      "" if grouped else winner.unit.caption, cues, totals_said)
    printed_as = _total_names(total[1].label, cues) if total is not None else ""
    if printed_as and not _names(printed_as, _asked_or_sales(measures, cues)):
        return None  # the rows' total is of another measure ("Total long-lived assets")
    measure = _measure(question, column, cues, printed_as)
    text = (f"{winner.label} had the {_asked_word(question, direction, cues)} {measure}: "
            f"{money(cell, winner.unit, cues)}")
    if total is None or direction != "max":
        return DirectAnswer(kind="superlative", units=[winner.unit], text=f"{text}.",
                            named=winner.label)
    total_cell, total_row = total
    share = share_of(cell.value, total_cell.value, question.decimals)
    return DirectAnswer(
        kind="superlative", units=[winner.unit, total_row.unit], named=winner.label,
        share=cell.value / total_cell.value if total_cell.value > 0 else None,
        text=f"{text}, {share} of the {money(total_cell, total_row.unit, cues)} total "
             f"({cell.shown.lstrip('$')} / {total_cell.shown.lstrip('$')}).")


def _not_ranked(printed: Sequence[Row], caption: str, column: str, cues: DirectCues
                ) -> list[tuple[Cell, Row]]:
    """The rows under ``caption`` that are no member (``row_not_a_member``: "Other (c)",
    American Water's other states; eliminations) but which the table's total still sums: a
    share is of the whole, not of a subtotal ("Total—Top Five States") the members reach."""
    return [(c, r) for r in printed
            if r.unit.caption == caption and r.label and (c := r.cell(column)) is not None
            and not c.shown.endswith("%") and first_match(cues.total_row, r.label.lower()) is None
            and first_match(cues.row_not_a_member, r.label.lower()) is not None]


def _total_names(label: str, cues: DirectCues) -> str:
    """The measure a total row names ("revenues" of "Total revenues"), or "" when it names
    none ("Total", "Total Asia Pacific")."""
    named = re.fullmatch(r"\s*total\s+(?P<what>.+?)\s*", label, re.IGNORECASE)
    if named is None or not _names(named["what"], [w for t in cues.terms.values()
                                                   for w in t.heading]):
        return ""
    what = named["what"]
    return what[0].lower() + what[1:] if what[1:2].islower() else what


def _asked_word(question: Question, direction: str, cues: DirectCues) -> str:
    """The superlative as the question writes it ("lowest", "most"), else "highest"/"lowest"."""
    q = question.text.lower()
    cue = first_match([c for c in cues.superlative if c.direction == direction], q)
    found = re.search(cue.pattern, q) if cue else None
    return found.group(0) if found else "highest" if direction == "max" else "lowest"


def _in_year(column: str, year: int) -> str | None:
    """``column`` of the same duration in ``year`` ("three months 2021" for "three months
    2022" and 2021), or None when it names no one year."""
    years = list(FISCAL_YEAR_RE.finditer(column))
    if len(years) != 1:
        return None
    return f"{column[:years[0].start(1)]}{year}{column[years[0].end(1):]}"


def _latest(column: str, question: Question, rows: Sequence[Row]) -> str:
    """The column a change is measured to: the latest year the question names, in
    ``column``'s duration ("from 2021 to 2022" over 2020 | 2021 | 2022 ends in 2022)."""
    years = sorted({int(y) for _, y in question.periods})
    later = _in_year(column, years[-1]) if years else None
    return later if later and any(r.cell(later) is not None for r in rows) else column


def _prior_period(period: str, question: Question) -> str | None:
    """The period a change is measured from, written as ``period`` is (a column's heading, a
    block's caption): the earlier year the question names, else the year before, of the same
    duration; None when ``period`` names no one year."""
    years = list(FISCAL_YEAR_RE.finditer(period))
    if len(years) != 1:
        return None
    now = int(years[0][1])
    asked = sorted({int(y) for _, y in question.periods} - {now})
    return _in_year(period, asked[0] if asked and asked[0] < now else now - 1)


def _prior_column(column: str, question: Question, rows: Sequence[Row]) -> str | None:
    """The column a change is measured from (:func:`_prior_period`), when the rows print it."""
    prior = _prior_period(column, question)
    return prior if prior and any(r.cell(prior) is not None for r in rows) else None


class Change(NamedTuple):
    """A member's figure in the period asked and in the one before, each with its row (one row
    for both when a table prints the periods as columns)."""

    name: str
    now: Cell
    then: Cell
    now_row: Row
    then_row: Row

    @property
    def amount(self) -> float:
        return self.now.value - self.then.value


def _ranked(changes: Sequence[Change], direction: str, change: Cue) -> Change | None:
    """The member whose figure changed most (direction "max") or least, as a percentage of its
    prior figure, or by its amount (what drove a total's change: ``change.by``); None for fewer
    than two, a tie, a change of 0%, or one the question's words rule out (the largest rise
    drove no decline, was no drop)."""
    by_amount = change.by == "amount"

    def size(c: Change) -> float:
        return c.amount if by_amount else round(c.amount / c.then.value, 3)

    ranked = sorted(changes, key=size, reverse=direction == "max")
    if len(ranked) < 2 or size(ranked[0]) == size(ranked[1]):
        return None
    top = ranked[0]
    pct = 100 * top.amount / top.then.value
    if round(pct) == 0 or (by_amount and (top.amount > 0) != (direction == "max")) or (
            change.moved is not None and (top.amount > 0) != (change.moved == "up")):
        return None
    return top


def _way_asked(change: Cue) -> str | None:
    """Which way the winner must have moved: the cue's own ("the largest decline": down), or
    a total's growth or decline driven by amount ("drove the decline": down)."""
    if change.moved is not None or change.by != "amount":
        return change.moved
    return "up" if change.direction == "max" else "down"


def _none_moved(changes: Sequence[Change], change: Cue, category: str, measure: str,
                periods: tuple[str, str], cues: DirectCues) -> DirectAnswer | None:
    """"Which segment had the largest decline in net sales?" when every member's figure rose
    (or, asked of growth, fell): no member is the answer, and the first sentence says so with
    the change nearest to the one asked, cited on every row compared (Walmart's Q1 fiscal 2024
    segments all grew). None when a member moved the way asked, or fewer than two compare."""
    way = _way_asked(change)
    if way is None or len(changes) < 2 or any(
            c.amount == 0 or (c.amount > 0) == (way == "up") for c in changes):
        return None
    # nearest to the way asked, measured as the ranking measures (a rate, or an amount)
    nearest = min(changes, key=lambda c: abs(c.amount if change.by == "amount"
                                             else c.amount / c.then.value))
    pct = 100 * nearest.amount / nearest.then.value
    moved, other = ("declined", "rose") if way == "down" else ("grew", "fell")
    units = list({id(u): u for c in changes for u in (c.now_row.unit, c.then_row.unit)}.values())
    unit = nearest.now_row.unit
    when = f"{_period_words(periods[0])} against {_period_words(periods[1]).removeprefix('in ')}"
    return DirectAnswer(
        kind="superlative", units=units, text=(
            f"None: no {category}'s {measure} {moved} ({when}); each {other}, {nearest.name}'s "
            f"the least, by {abs(pct):.0f}% ({difference(nearest.now, nearest.then, unit, cues)}"
            f"; {money(nearest.now, unit, cues)} against {money(nearest.then, unit, cues)})."))


def _change_answer(question: Question, top: Change, change: Cue, among: str, measure: str,
                   periods: tuple[str, str], cues: DirectCues) -> DirectAnswer:
    """The winner's sentence: how its figure moved, both figures with their periods, and the
    arithmetic as computed ("(673,593 / 1,210,761 - 1)"); cited on the row (or the two rows)
    that print the two figures."""
    what, verb = _change_asked(question, change)
    pct = 100 * top.amount / top.then.value
    moved = "rose" if pct > 0 else "fell"
    now, then = top.now.shown.lstrip("$"), top.then.shown.lstrip("$")
    # both figures in the scale of the table they are read from (a block printed apart may
    # not repeat its "in millions")
    figures = (f"{money(top.now, top.now_row.unit, cues)} {_period_words(periods[0])} against "
               f"{money(top.then, top.now_row.unit, cues)} {_period_words(periods[1])}")
    amount = difference(top.now, top.then, top.now_row.unit, cues)
    if change.by == "amount":  # "drove the largest share of ... growth"
        size = f"{amount} ({abs(pct):.0f}%)"
        verb, computed = "", f"{now} - {then}"
    else:  # the rate ranks; its amount is said beside it
        size = f"{abs(pct):.0f}% ({amount})"
        computed = f"{now} / {then} - 1"
    one_row = top.now_row is top.then_row
    return DirectAnswer(
        kind="superlative", named=top.name,
        units=[top.now_row.unit] if one_row else [top.now_row.unit, top.then_row.unit],
        supports=f"{top.name}: {figures}" if one_row else "",
        text=f"{top.name} {verb}{what}{among}: its {measure} {moved} {size}, {figures} "
             f"({computed}).")


def _change_asked(question: Question, change: Cue) -> tuple[str, str]:
    """The ranking as the question words it ("grew the fastest", "largest decline") and the
    verb a winner's sentence takes before it ("had the ", none after "grew")."""
    if change.lists:  # "saw net sales decline": the list asked; the largest of it follows
        return ("largest decline" if change.moved == "down" else "largest growth"), "had the "
    phrase = re.search(change.pattern, question.text, re.IGNORECASE)
    what = phrase.group(0) if phrase else "largest change"
    return what, "" if VERB_PHRASE_RE.match(what) else "had the "


def _printed_change_winner(question: Question, direction: str, rows: Sequence[Row],
                           change: Cue, cues: DirectCues) -> DirectAnswer | None:
    """The row whose change the table prints itself is largest (or smallest): 3M's "Worldwide
    Sales Change By Business Segment" prints each segment's "Total sales change" beside its
    parts (organic, acquisitions, translation), so "Which segment grew the fastest?" is read
    from that column, not computed. One column headed as a change (else the one headed as the
    total change), in percent, of the measure asked, or of sales when none is (its heading or
    the table's title names it: an operating income's change is no growth of the segment), and
    of the year asked: a table captioned by three months is a quarter's."""
    headings = list(dict.fromkeys(c.heading for r in rows for c in r.cells))
    changes = [h for h in headings if CHANGE_COLUMN_RE.search(h)]
    if len(changes) > 1:
        changes = [h for h in changes if TOTAL_HEADING_RE.search(h)]
    if len(changes) != 1:
        return None
    column = changes[0]
    cells = [(c, r) for r in rows if (c := r.cell(column)) is not None]
    when = " ".join({f"{r.unit.scope} {r.unit.caption}" for _, r in cells})
    measured = f"{column} {rows[0].unit.scope}"
    if (len(cells) < 2 or not _names(measured, _asked_or_sales(measures_asked(question, cues),
                                                                cues))
            or not any(c.printed.rstrip().endswith("%") for c, _ in cells)
            or (question.periods and not any(heading_has(when, p) for p in question.periods))
            or (not any(q for q, _ in question.periods) and PART_OF_YEAR_RE.search(when))):
        return None
    ranked = sorted(cells, key=lambda x: x[0].value, reverse=direction == "max")
    (cell, winner), runner_up = ranked[0], ranked[1][0]
    if cell.value == runner_up.value or (
            change.moved is not None and (change.moved == "up") != (cell.value > 0)):
        return None  # "grew the fastest" with no member that grew
    what, verb = _change_asked(question, change)
    when_said = winner.unit.caption
    caption = f" ({when_said[0].lower()}{when_said[1:]})" if when_said else ""
    shown = cell.shown if cell.shown.endswith("%") else f"{cell.shown}%"
    return DirectAnswer(kind="superlative", units=[winner.unit], named=winner.label,
                        text=f"{winner.label} {verb}{what}: its {column[0].lower()}"
                             f"{column[1:]} was {shown}{caption}.")


def _change_winner(question: Question, direction: str, rows: Sequence[Row], column: str,
                   change: Cue, categories: Sequence[Cue], cues: DirectCues,
                   printed: Sequence[Row] = ()) -> DirectAnswer | None:
    """The row whose figure changed most (direction "max") or least from the prior period's
    column to ``column`` (:func:`_ranked`); its citation stands for the two figures the row
    prints. Rows whose prior figure is not positive have no percentage and are not ranked.
    "None" (:func:`_none_moved`) only when the rows are the whole table: their figures sum to
    the total it prints (``printed``) in both columns, so no member left out moved the way
    asked."""
    prior = _prior_column(column, question, rows)
    if prior is None or any(c.shown.endswith("%") for r in rows for c in r.cells
                            if c.heading in (column, prior)):
        # shares: a column that prints "%" on one row prints percentages on every row (Coca-
        # Cola's segments "as a percentage of Company net operating revenues": 17.3%, 11.0,
        # ...); a share that rose is no growth of the member
        return None
    if change.lists:
        return _those_moved(question, rows, (column, prior), change, categories, printed, cues)
    changes = [Change(r.label, now, then, r, r) for r in rows
               if (now := r.cell(column)) is not None and (then := r.cell(prior)) is not None
               and then.value > 0]
    slight = _too_small_to_rank(changes, change)
    top = _ranked([c for c in changes if c not in slight], direction, change)
    caption = rows[0].unit.caption if top is None else top.now_row.unit.caption
    measure = _changed_measure(question, column, caption, rows[0].unit.scope, cues)
    whole = len(changes) == len(rows) and _whole_in(printed, rows, (column, prior), caption)
    if top is None:
        return _none_moved(changes, change, member_word(categories[0]), measure,
                           (column, prior), cues) if categories and whole else None
    among = f" of the {members_word(categories[0])}" if categories else ""
    answer = _with_others(_change_answer(question, top, change, among, measure,
                                         (column, prior), cues), top,
                          [c for c in changes if c not in slight], direction, change,
                          categories, cues)
    if slight:
        answer = answer.model_copy(update={"text": f"{answer.text} " + _not_ranked_note(
            slight, changes, measure, _period_words(prior))})
    return _with_those_moved(question, answer, changes, categories, measure, cues, whole)


MAX_OTHERS_SAID = 3  # members said beside the winner, nearest to it first


def _with_others(answer: DirectAnswer, top: Change, changes: Sequence[Change], direction: str,
                 change: Cue, categories: Sequence[Cue], cues: DirectCues) -> DirectAnswer:
    """The winner's sentence with how the other members moved, in the order ranked: an analyst
    says what the winner is measured against ("Cash App grew faster: ..., against 2% growth to
    $3.53 billion for Seller"); ``MAX_OTHERS_SAID`` at most, each cited on its row."""
    by_amount = change.by == "amount"
    others = sorted((c for c in changes if c is not top),
                    key=lambda c: c.amount if by_amount else c.amount / c.then.value,
                    reverse=direction == "max")[:MAX_OTHERS_SAID]
    if not others:
        return answer
    said = "; ".join(_moved_from(c, cues, named_way=True, rated=True) for c in others)
    plural = members_word(categories[0]) if categories else "members"
    return answer.model_copy(update={
        "text": f"{answer.text.rstrip('.')}; of the other {plural}, {said}.",
        "units": [*answer.units, *(c.now_row.unit for c in others
                                   if all(c.now_row.unit is not u for u in answer.units))]})


def _changed_measure(question: Question, column: str, caption: str, scope: str,
                     cues: DirectCues) -> str:
    """What a change is of, as an answer names it: the measure asked, else the caption the rows
    are under ("Net sales"), else what the table's title says it presents ("net sales by
    segment")."""
    measure = _measure(question, column, cues).rsplit(" in ", 1)[0]
    if measure == "figure" and caption:
        measure = as_read(caption)
    if measure == "figure":
        measure = _titled_measure(scope, cues) or measure
    return measure


def _whole_in(printed: Sequence[Row], rows: Sequence[Row], columns: tuple[str, str],
              caption: str) -> bool:
    """Whether the rows are the table's whole: in each column their figures sum to a figure
    another of its rows prints."""
    return all(_sums_to_total(printed, [(c, r) for r in rows if (c := r.cell(col)) is not None],
                              col, caption) for col in columns)


def _those_moved(question: Question, rows: Sequence[Row], columns: tuple[str, str],
                 change: Cue, categories: Sequence[Cue], printed: Sequence[Row],
                 cues: DirectCues) -> DirectAnswer | None:
    """"Which segments saw operating income decline?": every member whose figure moved the way
    asked, each with its change from the prior period's figure (a loss's member too: it has
    a direction, if no rate), then how the others went; "Only" when the rows are the whole table
    (they sum to the total it prints in both columns). "None" (:func:`_none_moved`) when no
    member moved that way and the rows are whole; None for fewer than two members, or a
    category the question does not name."""
    column, prior = columns
    every = [Change(r.label, now, then, r, r) for r in rows
             if (now := r.cell(column)) is not None and (then := r.cell(prior)) is not None]
    if len(every) < 2 or not categories:
        return None
    caption = rows[0].unit.caption
    measure = _changed_measure(question, column, caption, rows[0].unit.scope, cues)
    whole = len(every) == len(rows) and _whole_in(printed, rows, columns, caption)
    moved = [c for c in every if c.amount and (c.amount > 0) == (change.moved == "up")]
    if not moved:  # "None": its rates are of positive prior figures only
        return _none_moved([c for c in every if c.then.value > 0], change,
                           member_word(categories[0]), measure, columns,
                           cues) if whole else None
    others = [c for c in every if c not in moved]
    names = [_moved_from(c, cues) for c in moved]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    when = f"{_period_words(column)} against {_period_words(prior).removeprefix('in ')}"
    among = "the table prints" if whole else "compared"
    text = (f"{'Only ' if whole and others else ''}{listed} saw {measure} "
            f"{'grow' if change.moved == 'up' else 'decline'} ({when}), of the {len(every)} "
            f"{members_word(categories[0])} {among}")
    if others:
        text += "; " + "; ".join(_moved_from(c, cues, named_way=True) for c in others)
    return DirectAnswer(kind="superlative", units=[c.now_row.unit for c in every],
                        text=f"{text}.", named=moved[0].name if len(moved) == 1 else "")


def _moved_from(c: Change, cues: DirectCues, named_way: bool = False, rated: bool = False
                ) -> str:
    """"Regional Operations (down $46,083 thousand, or 14%, from $339,850 thousand to $293,767
    thousand)"; with ``named_way``, "MGM China rose (from -$52,091 thousand to $209,389
    thousand)", and with ``rated`` too, "Seller rose 2% (from ... to ...)". A rate only from a
    positive prior figure."""
    unit = c.now_row.unit
    figures = f"from {money(c.then, unit, cues)} to {money(c.now, unit, cues)}"
    if named_way:
        way = "rose" if c.amount > 0 else "fell" if c.amount < 0 else "was unchanged"
        rate = (f" {abs(100 * c.amount / c.then.value):.0f}%" if rated and c.amount
                and c.then.value > 0 else "")
        return f"{c.name} {way}{rate} ({figures})"
    rate = f", or {abs(100 * c.amount / c.then.value):.0f}%" if c.then.value > 0 else ""
    return (f"{c.name} ({'up' if c.amount > 0 else 'down'} "
            f"{difference(c.now, c.then, unit, cues)}{rate}, {figures})")


MIN_RANKED_SHARE = 0.01  # of the members' prior total: a smaller member's rate ranks nothing


def _too_small_to_rank(changes: Sequence[Change], change: Cue) -> list[Change]:
    """Members too small for their growth rate to rank (under ``MIN_RANKED_SHARE`` of the
    members' prior total: Nike's Global Brand Divisions, licensing revenues of $25 million
    beside $44.5 billion, "grew" 308%): a rate on so small a base says nothing of the
    business. Ranked by amount, every member counts."""
    if change.by == "amount" or len(changes) < 3:
        return []
    whole = sum(c.then.value for c in changes)
    return [c for c in changes if c.then.value < MIN_RANKED_SHARE * whole]


def _not_ranked_note(slight: Sequence[Change], changes: Sequence[Change], measure: str,
                     prior: str) -> str:
    """The sentence that names the members left out of a rate's ranking, and why."""
    whole = sum(c.then.value for c in changes)
    named = "; ".join(f"{c.name}, {100 * c.then.value / whole:.1f}%" for c in slight)
    return (f"Not ranked by its rate, as under {MIN_RANKED_SHARE:.0%} of the members' "
            f"{measure} {prior}: {named}.")


# "Which of its segments grew net sales ...?": every member that moved the way asked is named
# before the one ranked (a plural asks for all of them)
_MOVED_VERBS = {"up": r"grew|increased|rose|expanded|gained", "down":
                r"declined|decreased|fell|shrank|dropped"}
_SUPERLATIVE_WORD_RE = re.compile(r"\b(?:fastest|slowest|highest|lowest|greatest|largest|"
                                  r"biggest|smallest|strongest|weakest|most|least)\b",
                                  re.IGNORECASE)


def _with_those_moved(question: Question, answer: DirectAnswer, changes: Sequence[Change],
                      categories: Sequence[Cue], measure: str, cues: DirectCues,
                      whole: bool, asked_way: str | None = None) -> DirectAnswer:
    """The winner's answer led by the members that moved the way a plural "which" asks
    ("Which segments grew net sales?": each with its change and its figure), of the rows the
    table prints; "Only" when they are its whole (their figures sum to its total). The answer
    unchanged when the question asks no such list. ``asked_way``: the way a listing cue names
    ("saw net sales decline"), else read from the question's verb."""
    if not categories:
        return answer
    plural = members_word(categories[0])
    # the verb's own clause asks no superlative: "Which of its segments grew the fastest?"
    # asks one member, "Which segments grew ..., and which grew the most?" all that grew first
    way = asked_way or next((w for w, verbs in _MOVED_VERBS.items() if (found := re.search(
        rf"\bwhich\b[^?]*?\b{re.escape(plural)}\b[^?]*?\b(?:{verbs})\b(?P<rest>[^,;?]*)",
        question.text, re.IGNORECASE)) and not _SUPERLATIVE_WORD_RE.search(
            found["rest"].split(" and ")[0])), None)
    moved = [c for c in changes if c.amount and (c.amount > 0) == (way == "up")]
    if way is None or not moved:
        return answer
    said = [_moved_from(c, cues) for c in moved]
    names = said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"
    verb = "grew" if way == "up" else "declined"
    among = "the table prints" if whole else "compared"
    lead = (f"{'Only ' if whole and len(moved) < len(changes) else ''}{names} {verb} "
            f"{measure}, of the {len(changes)} {plural} {among}")
    units = list({id(u): u for c in moved for u in (c.now_row.unit, c.then_row.unit)}.values())
    return answer.model_copy(update={"text": f"{lead}; {answer.text}",
                                     "units": [*units, *(u for u in answer.units
                                                        if all(u is not v for v in units))]})


def _total_of(printed: Sequence[Row], ranked: Sequence[tuple[Cell, Row]], column: str,
              caption: str, cues: DirectCues, totals_said: str = "") -> tuple[Cell, Row] | None:
    """The table's total of the ranked rows in ``column`` (the "Total" row under the same
    caption, or under none for the blocks' totals; or a row printed without a label under a
    rule, MGM's, or the row named ``totals_said`` that sums the members under the measure's
    name (:func:`summed_by_measure`), that equals their sum): the smallest total row that is
    at least their sum (rounding aside), so that a share of it is a share of the whole; else
    None."""
    summed = sum(c.value for c, _ in ranked)
    if summed <= 0:
        return None
    totals = [(c, r) for r in printed
              if r.unit.caption == caption and (c := r.cell(column)) is not None
              and not c.shown.endswith("%") and c.value >= summed * 0.995
              and (first_match(cues.total_row, r.label.lower())  # a total printed unlabelled
                   or ((not r.label or (totals_said and r.label == totals_said))
                       and c.value <= summed * 1.005))]
    return min(totals, key=lambda t: t[0].value) if totals else None


def _sums_to_total(printed: Sequence[Row], cells: Sequence[tuple[Cell, Row]], column: str,
                   caption: str) -> bool:
    """Whether ``cells`` sum to a figure another row of the table prints in ``column`` under the
    same caption, rounding aside ("Total", or the measure's own row: Walmart's "Net sales"
    under its segments): every member is there."""
    summed, members = sum(c.value for c, _ in cells), {id(r.unit) for _, r in cells}
    return any(id(r.unit) not in members and r.unit.caption == caption
               and (c := r.cell(column)) is not None and not c.shown.endswith("%")
               and sums_to(summed, c.value) for r in printed)


ColumnKey = tuple[str, int, int, str]  # (document, year, page, the label of the measure's row)
Members = dict[str, tuple[Cell, Row]]  # a member's name -> its cell and the row printing it


class Whole(NamedTuple):
    """One period of a table whose columns are its members: each member's cell and the
    total's (the column that sums them)."""

    members: Members
    total: tuple[Cell, Row]


def _member_and_period(cell: Cell, unit: EvidenceUnit) -> tuple[str, str] | None:
    """The member a cell is of and its period: both in its heading ("Corporate three months
    2021", JPMorgan's segment results), or the member in its heading and the period in the
    caption its row's block is printed under (Walmart's, Corning's and Coca-Cola's segment
    notes: a column per segment, a block of rows per year captioned "Fiscal Year Ended
    January 31, 2018" or "2019") or in the table's title (American Water's, a table per
    period)."""
    named = NAME_THEN_DURATION_RE.match(cell.heading)
    if named is not None:
        return named["name"], named["period"]
    name = TRAILING_MARKER_RE.sub("", cell.heading).strip()  # "Businesses (1)": its note
    if name and unit.period:
        return name, unit.period
    titles = (PERIOD_TITLE_LEAD_RE.sub("", part.strip()) for part in unit.scope.split(" | "))
    titled = next((title for title in titles if PERIOD_CAPTION_RE.match(title)), None)
    return (name, titled) if name and titled else None



def _whole(by_name: dict[str, list[tuple[Cell, Row]]], cues: DirectCues) -> Whole | None:
    """The members' cells of one period, when the table prints them whole: one column per
    name and a total column equal to the sum of the others (rounding aside), so a block missing
    from the evidence never crowns a runner-up; else None."""
    if any(len(cells) != 1 for cells in by_name.values()):
        return None  # a name under two columns of the period: which one is asked is unsure
    totals = [n for n in by_name if first_match(cues.total_row, n.lower())]
    members = {n: cells[0] for n, cells in by_name.items()
               if first_match(cues.row_not_a_member, n.lower()) is None}
    if len(totals) != 1 or not members:
        return None
    total = by_name[totals[0]][0][0].value
    parts = sum(cells[0][0].value for n, cells in by_name.items() if n != totals[0])
    if abs(parts - total) > max(abs(total) * 0.005, 1.0):
        return None
    return Whole(members, by_name[totals[0]][0])


def column_tables(units: Sequence[EvidenceUnit], page_rows: PageRows | None,
                  measures: Sequence[str], cues: DirectCues) -> dict[ColumnKey, dict[str, Whole]]:
    """Every table whose columns are its members and whose rows its measures: the cells of
    each row that prints a measure asked, by period, kept where a period is printed whole. A
    table printed as two blocks side by side on a page (four segments, then Corporate, the
    reconciling items and the total) is read whole: the rows of one label on one page."""
    rows = [u for u in units if u.is_row]
    if page_rows is not None:  # the pages of the rows that print the measure, read whole
        pages = {(u.document, u.year, u.page) for u in rows
                 if any(w in u.text.partition(": ")[0].lower() for w in measures)}
        rows += [u for key in sorted(pages)[:MAX_PAGES_READ] for u in page_rows(*key)]
    found: dict[ColumnKey, dict[str, dict[str, list[tuple[Cell, Row]]]]] = {}
    for unit in {(u.document, u.year, u.page, u.quote): u for u in rows}.values():
        row = read_row(unit)
        if row is None or not any(w in row.label.lower() for w in measures):
            continue
        for cell in row.cells:
            named = _member_and_period(cell, unit)
            if named is None or cell.shown.endswith("%"):
                continue
            key = (unit.document, unit.year, unit.page, row.label.lower())
            by_period = found.setdefault(key, {}).setdefault(named[1], {})
            by_period.setdefault(named[0], []).append((cell, row))
    whole: dict[ColumnKey, dict[str, Whole]] = {}
    # the rows that print the measure unqualified first: "Total net revenue" before
    # "Noninterest revenue", one of its parts (JPMorgan's segment results)
    for key, periods in sorted(found.items(), key=lambda kv: _qualified_label(kv[0][3],
                                                                             measures)):
        for period, by_name in periods.items():
            if (read := _whole(by_name, cues)) is not None:
                whole.setdefault(key, {})[period] = read
    return whole


def _qualified_label(label: str, measures: Sequence[str]) -> bool:
    """Whether a row's label names the measure after a word that qualifies it as a part
    ("noninterest revenue"), not a total's ("total net revenue", "net sales")."""
    at = min((m.start() for w in measures
              if (m := re.search(rf"\b{re.escape(w)}\b", label)) is not None), default=None)
    return at is not None and any(w not in TOTAL_WORDS for w in re.findall(r"[a-z]+",
                                                                             label[:at]))


# the words a total's label may print before its measure: "Total net revenue", "Net sales"
TOTAL_WORDS = frozenset({"total", "net", "consolidated", "reported", "gross", "segment"})


def period_asked(periods: dict[str, Whole], question: Question) -> list[tuple[str, Whole]]:
    """The one period of a table the question asks (:func:`periods_ranked` first, then every
    period named), or none when it names no period printed or several ("2022" over both the
    three and the six months' columns: no guess). A question that names no period reads the
    latest the table prints, when one period alone is of its latest year (a 10-K's segment
    table: "Fiscal Year Ended January 31, 2022" over 2021's and 2020's), as a ranking of rows
    reads the latest column."""
    if not question.periods:
        latest = {period: max(years_in(period), default=0) for period in periods}
        top = max(latest.values(), default=0)
        asked = [(p, w) for p, w in periods.items() if top and latest[p] == top]
        return asked if len(asked) == 1 else []
    for meant in (periods_ranked(question), question.periods):
        asked = [(period, members) for period, members in periods.items()
                 if any(heading_has(period, p) for p in meant)]
        if asked:
            return asked if len(asked) == 1 else []
    return []


def periods_ranked(question: Question) -> list[tuple[str | None, str]]:
    """The periods a ranking reads its figures in, first: of the years named (a filing's own
    year aside, "according to its FY2022 10-K"), the latest (an earlier one is a change's base:
    "in the second quarter of 2023 versus the second quarter of 2022"), and of it the quarters
    named, when any are (a year beside a quarter restates its date: "the second quarter of
    2023 (three months ended June 30, 2023)"); a table that prints none of them is read in
    every period named (:func:`period_asked`)."""
    named = [p for p in question.periods if int(p[1]) not in question.filing_years]
    if not named:
        return list(question.periods)
    latest = max(int(year) for _, year in named)
    of_latest = [p for p in named if int(p[1]) == latest]
    return [p for p in of_latest if p[0]] or of_latest


def _period_words(period: str) -> str:
    """A period as a sentence writes it: "for the year ended December 31, 2022", "in 2022", "in
    the fiscal year ended January 31, 2018" (a caption's "Fiscal Year Ended January 31,
    2018"; Netflix's "As of/Year ended December 31, 2015" read as its year's)."""
    period = re.sub(r"^as\s+of\s*/\s*", "", period, flags=re.IGNORECASE)
    if period.lower().startswith("for "):
        return period[0].lower() + period[1:]
    if (ended := DURATION_ENDED_RE.match(period)) is not None:
        return f"in the {ended[0].lower()}{period[ended.end():]}"
    return f"in {period}"


def _column_winner(question: Question, direction: str, units: Sequence[EvidenceUnit],
                   page_rows: PageRows | None, cues: DirectCues) -> DirectAnswer | None:
    """The winner among a table's columns, when its columns are what is ranked and its rows the
    measures (:func:`column_tables`): the cells of the row that prints the measure asked, under the
    period asked, compared across the names heading them."""
    measures = measures_asked(question, cues)
    categories = categories_named(question, cues)
    if not categories or not measures:
        return None
    for periods in column_tables(units, page_rows, measures, cues).values():
        for period, whole in period_asked(periods, question):
            if not _places_if_asked(categories, list(whole.members)):
                continue
            ranked = sorted(whole.members.items(), key=lambda x: x[1][0].value,
                            reverse=direction == "max")
            if len(ranked) == 1:
                if direction == "max" and (only := _only_member(whole, period, categories,
                                                                 cues)) is not None:
                    return only
                continue
            if ranked[0][1][0].value == ranked[1][1][0].value:
                continue
            name, (cell, row) = ranked[0]
            text = (f"{name} had the {_asked_word(question, direction, cues)} "
                    f"{row.label[0].lower()}{row.label[1:]} "
                    f"({_period_words(period).removeprefix('in ')}): {money(cell, row.unit, cues)}")
            share_text = _share_of_whole(cell, whole, direction, cues)
            return DirectAnswer(kind="superlative", units=[row.unit], named=name,
                                supports=row.unit.quote, text=f"{text}{share_text}.",
                                share=cell.value / whole.total[0].value if share_text else None)
    return None


def _share_of_whole(cell: Cell, whole: Whole, direction: str, cues: DirectCues) -> str:
    """", 32.9% of the $3,243 million total (1,066 / 3,243)": the largest member's share of the
    column that sums the members, in the same row; nothing for a smallest (a share of it says
    little) or a total that is not positive."""
    total, total_row = whole.total
    if direction != "max" or total.value <= 0:
        return ""
    return (f", {share_of(cell.value, total.value, None)} of the "
            f"{money(total, total_row.unit, cues)} total ({cell.shown.lstrip('$')} / "
            f"{total.shown.lstrip('$')})")


def _only_member(whole: Whole, period: str, categories: Sequence[Cue], cues: DirectCues
                 ) -> DirectAnswer | None:
    """The one member a table prints beside what is no member ("Other", eliminations): the
    largest by construction, said with its share of the total it is read against; None when it
    is not most of the total (the columns left out would then outweigh it)."""
    name, (cell, row) = next(iter(whole.members.items()))
    total, _ = whole.total
    if total.value <= 0 or cell.value <= total.value / 2:
        return None
    word = member_word(categories[0])
    # the citation stands for the row's figures; the share is computed from two of them
    return DirectAnswer(kind="superlative", units=[row.unit], named=name,
                        supports=row.unit.quote, share=cell.value / total.value, text=(
        f"{name}, the only {word} the table ranks beside what is not one, had "
        f"{row.label[0].lower()}{row.label[1:]} of {money(cell, row.unit, cues)} "
        f"{_period_words(period)}{_share_of_whole(cell, whole, 'max', cues)}."))


def _column_change_winner(question: Question, direction: str, units: Sequence[EvidenceUnit],
                          page_rows: PageRows | None, change: Cue, cues: DirectCues
                          ) -> DirectAnswer | None:
    """The column whose figure changed most (or least) from the prior period to the period
    asked, in a table whose columns are its members (:func:`column_tables`), ranked as
    :func:`_change_winner` ranks rows; cited on the two rows that print the two figures."""
    categories = categories_named(question, cues)
    measures = (measures_asked(question, cues)
                or cues.terms[UNNAMED_MEASURE].heading)
    if not categories or not question.periods:
        return None
    tables = column_tables(units, page_rows, measures, cues)
    for key, periods in tables.items():
        for period, whole in period_asked(periods, question):
            prior = _prior_period(period, question)
            then_whole = None if prior is None else _in_period(tables, key, periods, prior)
            if then_whole is None or not _places_if_asked(categories, list(whole.members)):
                continue
            assert prior is not None
            now, then = whole.members, then_whole.members
            changes = [Change(n, now[n][0], then[n][0], now[n][1], then[n][1])
                       for n in now if n in then and then[n][0].value > 0]
            top = _ranked(changes, direction, change)
            label = (top or changes[0]).now_row.label if changes else ""
            measure = label[0].lower() + label[1:] if label else ""
            if top is not None:
                among = f" of the {members_word(categories[0])}"
                # the winner's margins beside its own change, then the other members'
                found = _with_others(_with_margins(
                    _change_answer(question, top, change, among, measure, (period, prior), cues),
                    top, (period, prior), units, page_rows, measures, cues),
                    top, changes, direction, change, categories, cues)
                return _with_those_moved(question, found, changes, categories, measure, cues,
                                         whole=False,
                                         asked_way=change.moved if change.lists else None)
            if (none := _none_moved(changes, change, member_word(categories[0]), measure,
                                    (period, prior), cues)) is not None:
                return none
    return None


def _in_period(tables: dict[ColumnKey, dict[str, Whole]], key: ColumnKey,
               periods: dict[str, Whole], period: str) -> Whole | None:
    """A table's period, or the same row's in the filing's table of that period printed on
    another page (American Water's 10-Q: a segment table per period, the prior year's on the
    next page)."""
    if period in periods:
        return periods[period]
    return next((other[period] for (document, year, _, label), other in tables.items()
                 if (document, year, label) == (key[0], key[1], key[3]) and period in other),
                None)


def _with_margins(found: DirectAnswer, top: Change, periods: tuple[str, str],
                  units: Sequence[EvidenceUnit], page_rows: PageRows | None,
                  measures: Sequence[str], cues: DirectCues) -> DirectAnswer:
    """A member's profit change with its margins beside it, as a segment's discussion states
    them: its operating income over its own revenue in each period, read from the rows of the
    same table that print its revenue ("(its operating income as a % of net sales: 2.8% against
    4.0%)"), each row cited. The answer as it was when the measure is revenue itself, or the
    table prints no revenue of the member in both periods."""
    if not any(w in cues.terms["operating income"].heading for w in measures):
        return found
    revenue = cues.terms[UNNAMED_MEASURE].heading
    own = top.now_row.unit  # the page of the profit's row prints the revenue rows beside it
    read = [*units, *(page_rows(own.document, own.year, own.page) if page_rows else [])]
    for periods_of in column_tables(read, page_rows, revenue, cues).values():
        now, then = (periods_of.get(p) for p in periods)
        if now is None or then is None or top.name not in now.members or \
                top.name not in then.members:
            continue
        (sales_now, row_now), (sales_then, row_then) = now.members[top.name], \
            then.members[top.name]
        if sales_now.value <= 0 or sales_then.value <= 0:
            continue
        label = row_now.label[0].lower() + row_now.label[1:]
        margins = (f" (its {top.now_row.label[0].lower()}{top.now_row.label[1:]} as a % of "
                   f"{label}: {100 * top.now.value / sales_now.value:.1f}% against "
                   f"{100 * top.then.value / sales_then.value:.1f}%)")
        cited = list({id(u): u for u in [*found.units, row_now.unit, row_then.unit]}.values())
        return found.model_copy(update={"text": f"{found.text[:-1]}{margins}.",
                                        "units": cited, "supports": ""})
    return found


def _sentence_winner(question: Question, direction: str, selected: Sequence[EvidenceUnit],
                     cues: DirectCues) -> DirectAnswer | None:
    words = [c.pattern for c in cues.superlative if c.direction == direction]
    periods = question.periods
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
            return DirectAnswer(kind="superlative", units=[unit], named=match["name"],
                                text=f"{match['name']}{shown}.")
    return None


def superlative(question: Question, selected: Sequence[EvidenceUnit],
                pool: Sequence[EvidenceUnit], page_rows: PageRows | None, cues: DirectCues,
                titling: PagesTitling | None = None) -> DirectAnswer | None:
    """The winner a superlative question asks for, or None (:mod:`superlatives`): from the
    evidence's tables, else from the tables the filing titles by what is ranked (``titling``:
    the segment net sales table retrieval did not return)."""
    q = question.text.lower()
    if first_match(cues.which_question, q) is None or first_match(cues.superlative_not, q):
        return None
    change = first_match(cues.change_rank, q)
    if change is not None and change.lists and not _lists_moved(question, cues):
        change = None  # a movers' list not asked: read as if no change were named
    cue = change if change is not None and change.direction is not None else first_match(
        cues.superlative, q)
    if cue is None or cue.direction is None:
        return None
    found = _winner(question, cue, cue is change, selected, pool, page_rows, cues)
    if found is not None or page_rows is None or not selected:
        return found
    return (_titled_winner(question, cue, cue is change, selected, page_rows, cues, titling)
            or _member_winner(question, cue, cue is change, [*selected, *pool], page_rows,
                              cues))


def _titled_winner(question: Question, cue: Cue, by_change: bool,
                   selected: Sequence[EvidenceUnit], page_rows: PageRows, cues: DirectCues,
                   titling: PagesTitling | None) -> DirectAnswer | None:
    """The winner of the tables the filing titles by what is ranked (``titling``)."""
    if titling is None:
        return None
    document, year = selected[0].document, selected[0].year
    for words in (_ranks(question, cues), _segments_if_places(question, selected, cues)):
        pages = titling(document, year, words)[:MAX_PAGES_TITLED] if words else []
        # the tables so titled, not the page's others (Corning's 2015 page that titles a table
        # by "non-U.S." also prints a deferred revenue roll-forward, whose balances are no
        # regions)
        rows = [u for page in pages for u in page_rows(document, year, page)
                if _named_by(u.scope, words)]
        if rows and (found := _winner(question, cue, by_change, rows, rows, None, cues,
                                      words)):
            return found
    return None


def _member_winner(question: Question, cue: Cue, by_change: bool,
                   units: Sequence[EvidenceUnit], page_rows: PageRows, cues: DirectCues
                   ) -> DirectAnswer | None:
    """The winner among members printed a table each (:mod:`member_tables`: Netflix's table
    per region), when the question ranks places."""
    assert cue.direction is not None
    categories = categories_named(question, cues)
    if "place" not in {c.kind for c in categories}:
        return None
    measures = measures_asked(question, cues)
    rows = member_rows(units, page_rows, _asked_or_sales(measures, cues))
    column = column_asked(rows, question, rows[0].unit, cues) if rows else None
    if column is None:
        return None
    if by_change:
        return _change_winner(question, cue.direction, rows, _latest(column, question, rows),
                              cue, categories, cues)
    return _ranked_winner(question, cue.direction, rows, [], False, column, measures, cues)


def _lists_moved(question: Question, cues: DirectCues) -> bool:
    """Whether "which ... declined" asks for every member that moved: a category named in the
    plural ("Which segments ...", "Which of its segments ..."), and no ranking, comparison,
    threshold or second way (``moved_list_not``: "declined the most", "had higher revenue",
    "declines of more than 10%", "rose while the others fell")."""
    categories = categories_named(question, cues)
    q = question.text.lower()
    plural = categories and (re.search(rf"\b{re.escape(members_word(categories[0]))}\b", q)
                             or re.search(r"\bwhich of\b", q))
    return bool(plural) and first_match(cues.moved_list_not, q) is None


def _segments_if_places(question: Question, selected: Sequence[EvidenceUnit],
                        cues: DirectCues) -> list[str]:
    """The words that title segment tables, when a place is asked of a filer whose evidence
    says its segments are defined by geography (``places_as_segments``: Kraft Heinz's "United
    States, International, and Canada"); else none."""
    if "place" not in {c.kind for c in categories_named(question, cues)}:
        return []
    return next(([c.word] for c in cues.places_as_segments if c.word and any(
        re.search(c.pattern, u.text, re.IGNORECASE) for u in selected)), [])


def _winner(question: Question, cue: Cue, by_change: bool, selected: Sequence[EvidenceUnit],
            pool: Sequence[EvidenceUnit], page_rows: PageRows | None, cues: DirectCues,
            also_ranks: Sequence[str] = ()) -> DirectAnswer | None:
    """The winner of the tables, then of the columns, then of a sentence, ranked by level or
    (``by_change``) by the change from the prior period; ``also_ranks`` as for
    :func:`_table_winner`."""
    assert cue.direction is not None
    change = cue if by_change else None
    # a table titled by what is ranked, then one whose columns are the members whole (a
    # segment note), then one named only by its section (the geographic table of a
    # "Segments" note ranks no segment while the segment table is there)
    found = _table_winner(question, cue.direction, selected, pool, page_rows, cues, change,
                          titled=True, also_ranks=also_ranks)
    if found is None:
        units = [*selected, *pool]
        found = (_column_change_winner(question, cue.direction, units, page_rows, cue, cues)
                 if by_change else _column_winner(question, cue.direction, units, page_rows,
                                                  cues))
    return (found or _table_winner(question, cue.direction, selected, pool, page_rows, cues,
                                   change, titled=False, also_ranks=also_ranks)
            or (None if by_change else _sentence_winner(question, cue.direction, selected,
                                                         cues)))
