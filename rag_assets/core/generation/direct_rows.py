"""How the direct answers read their evidence: the cues of ``direct_cues.json``, a table row's
cells (parenthesized figures negative), the periods a question names, and a figure written with
the currency and scale its table prints. Shared by :mod:`direct` (lists, comparisons) and
:mod:`superlatives`; plain Python, no Dagster.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.records import Claim, SourceCitation
from rag_assets.core.ingest.statement_tables import TRAILING_MARKER_RE
from rag_assets.core.text.periods import quarter_or_three_months_re
from rag_assets.core.text.years import year_heading_re

CUES_PATH = Path(__file__).with_name("direct_cues.json")
DirectKind = Literal["superlative", "list", "comparison", "cause", "arithmetic", "yes_no",
                     "securities", "dividend", "customers", "business", "risks", "count",
                     "stated", "cover", "terms", "none"]
# the table rows a page prints, by (document, year, page): a table read whole from its page
PageRows = Callable[[str, int, int], list[EvidenceUnit]]
# the filing's sentences one of the patterns matches, as units: what retrieval did not return
Scan = Callable[[Sequence[re.Pattern[str]]], Iterable[EvidenceUnit]]
_CELL_RE = re.compile(r"^(?P<neg>[-−–]|\()?\s*(?P<cur>[$€£])?\s*(?P<neg2>\()?\s*"
                      r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<pct>\s?%)?\s*\)?$")
_CELL_MARKER_RE = re.compile(r"\s*(?:\[\w{1,3}\]|\*+|\([a-z]\))\s*$")


class Cue(BaseModel):
    pattern: str
    source: str
    direction: Literal["max", "min"] | None = None
    moved: Literal["up", "down"] | None = Field(
        default=None, description="which way the change a cue names went: the winner of "
        "'the largest decline' must have fallen")
    word: str | None = None
    singular: str | None = Field(default=None, description="how an answer names one member "
                                 "ranked, where the word is a stem ('geograph')")
    plural: str | None = Field(default=None, description="how an answer names the members "
                               "ranked, where the word's plural is no word")
    also: list[str] = Field(default_factory=list, description="other words a table's title "
                            "uses for the category ('geographic area' for a region)")
    by: Literal["percent", "amount"] = Field(
        default="percent", description="a change is ranked as a percentage of the prior "
        "period's figure, or by its amount: what drove a total's growth is the largest amount")
    lists: bool = Field(
        default=False, description="the question asks every member that moved the cue's way "
        "('Which segments saw operating income decline?'), not the one that moved most")
    level: Literal["group"] | None = Field(
        default=None, description="a category that names groups of rows (a region over its "
        "countries): ranked by the totals that close each caption's block, when printed")
    kind: Literal["place", "unit", "offering", "customer"] | None = Field(
        default=None, description="what the category's members are: places (regions, "
        "countries), units of the company (segments), offerings (products, brands), customers; "
        "a table titled by another kind's members ranks no place or unit asked")
    stated: str | None = Field(
        default=None, description="the sentence of the filing that states what the cue asks, "
        "read where retrieval did not look (a list of segments)")
    single: str | None = Field(
        default=None, description="the sentence that says there is only one of what a list "
        "asks ('We operate as one operating segment'): the answer, where no list is printed")


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
    change_rank: list[Cue] = Field(default_factory=list)
    superlative_not: list[Cue]
    moved_list_not: list[Cue] = Field(default_factory=list, description="what makes a "
                                      "question no list of the members that moved "
                                      "(a ranking, a comparison, a threshold, both ways)")
    which_question: list[Cue]
    list_question: list[Cue]
    list_counts: dict[str, int]
    enumeration: Enumeration
    list_item_not: list[Cue]
    comparison: list[Cue]
    prior_period: list[Cue]
    row_not_a_member: list[Cue]
    roll_forward_row: list[Cue] = Field(default_factory=list)
    places_as_segments: list[Cue] = Field(default_factory=list)
    reconciling_caption: list[Cue] = Field(default_factory=list)
    whole_entity: list[Cue] = Field(default_factory=list)
    segment_tables: list[Cue] = Field(default_factory=list)
    total_row: list[Cue]
    categories: list[Cue]
    heading_terms: dict[str, HeadingTerm | str]
    scales: list[Cue]
    list_stated: list[Cue] = Field(default_factory=list)
    concentration: list[Cue] = Field(default_factory=list)
    disaggregation_tables: list[Cue] = Field(default_factory=list)
    eliminated_tables: list[Cue] = Field(default_factory=list)
    party_roles: list[Cue] = Field(default_factory=list, description="the roles an agreement's "
                                   "parties clause names each party in ('documentation agents')")

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
    changed: str = Field(default="", description="for a cause: the change it explains, as "
                         "printed (which way it went is read from it)")
    causes: str = Field(default="", description="for a cause: the causes alone, as printed "
                        "(from the connective on, with the sentences that go on giving them)")
    named: str = Field(default="", description="for a superlative: the member it names")
    share: float | None = Field(default=None, description="for a superlative: the winner's "
                                "share of the total it is read against, where one is printed")
    computed: list[SourceCitation] = Field(default_factory=list, description=(
        "the rows of the statements a figure computed beside the units' is read from (an "
        "outlook's range against the year's actual): cited after the units"))

    def claim(self) -> Claim:
        """The sentence as a claim, cited on every unit it is read from (each citation stands
        for the names and figures that unit prints, when there are several: a row's as
        printed: the headings the chunker names its columns with, "Corporate three months
        2021", are not the page's words)."""
        several = len(self.units) > 1
        return Claim(text=self.text, citations=[
            SourceCitation(document=u.document, year=u.year, page=u.page, quote=u.quote,
                           supports=(u.quote if u.is_row else u.text) if several
                           else self.supports)
            for u in self.units] + self.computed)


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
    """A table row's label and figures, from its text ("label: heading: value; ..."; an
    unlabelled row's text starts with its first cell)."""
    if not unit.is_row:
        return None
    first, _, rest = unit.text.partition(": ")
    # a row printed without a label ("$ 957,307 $ 3,497,254" under a rule): its text opens
    # with a column heading, not with what the quote opens with (a year label "2024" does)
    quote, label = " ".join(unit.quote.split()), " ".join(first.split())
    if not (quote.startswith(label) or quote.startswith(f"{unit.caption}: {label}")):
        first, rest = "", unit.text
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
    # a row without a label is read too: a total printed under a rule alone (MGM)
    return Row(unit=unit, label=label, cells=cells) if label or cells else None


def sums_to(summed: float, figure: float) -> bool:
    """Whether a sum of printed figures is the figure a total row prints, rounding aside: each
    figure rounded to its unit, within half a percent or one unit."""
    return abs(figure - summed) <= max(abs(summed) * 0.005, 1.0)


def direction_of(later: float, earlier: float) -> str:
    return "Increased" if later > earlier else "Decreased" if later < earlier else "Unchanged"


def row_moved(later: Cell, earlier: Cell, unit: EvidenceUnit, cues: DirectCues) -> str:
    """"Increased by $236 million (75.4%)": the direction, then by how much the two printed
    figures differ, in the table's currency and scale at their precision, and relatively (a
    percentage moves in percentage points)."""
    way, change = direction_of(later.value, earlier.value), later.value - earlier.value
    if not change:
        return way
    if later.shown.endswith("%"):
        decimals = max(decimals_of(later.printed), decimals_of(earlier.printed))
        return f"{way} by {abs(change):,.{decimals}f} percentage points"
    relative = f" ({abs(change) / abs(earlier.value):.1%})" if earlier.value else ""
    return f"{way} by {difference(later, earlier, unit, cues)}{relative}"


def difference(now: Cell, then: Cell, unit: EvidenceUnit, cues: DirectCues) -> str:
    """By how much two printed figures differ, written as the row's figures are: at their
    precision, in the table's scale and currency (the sign "$" where they print one: "$ 2,012",
    "$ 1,474")."""
    value = abs(now.value - then.value)
    decimals = max(decimals_of(now.shown), decimals_of(then.shown))
    shown = ("$" if "$" in now.shown + then.shown else "") + f"{value:,.{decimals}f}"
    return money(Cell(heading=now.heading, printed=shown, value=value, shown=shown), unit, cues)


def decimals_of(printed: str) -> int:
    found = re.search(r"\.(\d+)", printed)
    return len(found.group(1)) if found else 0


def member_word(cue: Cue) -> str:
    """What an answer calls one member a category ranks: "segment", "geographic area"."""
    return cue.singular or cue.word or "member"


def members_word(cue: Cue) -> str:
    """What an answer calls the members a category ranks: "segments", "geographic areas"."""
    return cue.plural or f"{member_word(cue)}s"


def first_match(cues: Sequence[Cue], text: str) -> Cue | None:
    return next((c for c in cues if re.search(c.pattern, text)), None)


def heading_has(heading: str, period: tuple[str | None, str]) -> bool:
    quarter, year = period
    if not year_heading_re(year).search(heading):
        return False
    # a quarter's column is headed by its quarter or by its three months ("three months 2021")
    return quarter is None or bool(quarter_or_three_months_re(quarter).search(heading))


def scale_of(unit: EvidenceUnit, cues: DirectCues) -> str:
    """" million" where the unit's table prints its figures in millions (its unit line)."""
    return scale_in(f"{unit.scope} {unit.text}", cues)


def scale_in(text: str, cues: DirectCues) -> str:
    """" million" where ``text`` (a unit line, a column's heading) says millions."""
    cue = first_match(cues.scales, " ".join(text.lower().split()))  # no-break spaces too
    return f" {cue.word}" if cue and cue.word else ""


def share_of(part: float, whole: float, decimals: int | None) -> str:
    """A part's share of its whole as an analyst writes it: to one decimal unless the question
    asks another precision ("52.7%", never a rounded "53%" that hides a point)."""
    return f"{100 * part / whole:.{1 if decimals is None else decimals}f}%"


def money(cell: Cell, unit: EvidenceUnit, cues: DirectCues) -> str:
    """The cell's figure with the currency and scale its table prints, never more."""
    shown = cell.shown
    if shown.endswith("%"):
        return shown
    scale = scale_of(unit, cues)
    if "$" not in shown and scale and ("$" in unit.scope
                                       or re.search(r"dollar|\busd\b", unit.scope.lower())):
        sign = "-" if shown.startswith("-") else ""
        shown = f"{sign}${shown.lstrip('-')}"
    return f"{shown}{scale}"
