"""Statement facts: every value of the primary statements as one row, named by concept.

The table reader (:mod:`statement_tables`) gives each statement row its label, its columns'
periods and the units line; here each value becomes a :class:`StatementFact` and its label is
mapped to a canonical concept through ``concept_map.json`` (kept as data beside this module,
named after the US-GAAP line items edgartools standardizes, so PDF facts could later be joined
with XBRL facts). The same rows feed the metric engine and the ``financial_statements`` asset.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from rag_assets.core.ingest.pages import Page
from rag_assets.core.ingest.statement_tables import (
    CHANGE_HEADING,
    StatementRow,
    StatementTable,
    read_statement_tables,
)
from rag_assets.core.ingest.statements import StatementKind
from rag_assets.core.text.figures import in_cents
from rag_assets.core.text.markers import SUPERSCRIPT_DIGITS

CONCEPT_MAP_FILE = Path(__file__).with_name("concept_map.json")
DEMOTE = 100  # rank added to a part ("... from discontinued operations") of a line item
EPS_CONCEPTS = frozenset({"eps", "eps_basic"})
SHARE_COUNT_CONCEPTS = frozenset({"diluted_shares"})  # read with a share count's caption
PER_SHARE_GROUP_RE = re.compile(r"per\s+(?:common\s+)?share|shares", re.IGNORECASE)
OWN_PER_SHARE_RE = re.compile(r"\bper\s+(?:common\s+)?share\b", re.IGNORECASE)
# the supplemental caption of ASC 230-10-50-2's cash paid, its rows one word each under it
# (Kraft Heinz 2021: "CASH PAID DURING THE PERIOD FOR:" over "Interest" and "Income taxes, net
# of refunds"): a row under it is read as "cash paid for" its label
CASH_PAID_GROUP_RE = re.compile(r"^\s*(?:supplemental\b[^:]*?)?cash\s+paid\s+(?:during\s+the\s+"
                                r"(?:period|year)\s+)?for\b", re.IGNORECASE)


class StatementFact(BaseModel):
    """One value printed in a statement: where, what, for which period, in which units."""

    document: str
    year: int = Field(description="the partition's fiscal year")
    statement: StatementKind
    label: str = Field(description="the row's label as printed")
    concept: str | None = Field(default=None, description="canonical concept, or None")
    rank: int = Field(default=0, description="which of the concept's labels it printed: 0 is "
                      "the preferred one (concept_map.json orders them best first)")
    group: str = Field(default="", description="the caption row above it (\"Basic\" under "
                       "\"Earnings per share:\")")
    period: str = Field(description="the column's headings as printed, joined")
    fiscal_year: int | None = Field(default=None, description="the year the column names")
    months: int | None = Field(
        default=None, description="length of a duration column (3, 6, 9, 12); None for a date")
    value: float = Field(description="the value in units (scale applied, sign from parentheses)")
    unit: str = Field(default="USD", description="USD, USD/share, shares or %")
    scale: float = Field(default=1.0, description="1e6 for 'in millions'")
    printed: str = Field(description="the cell as printed")
    page: int = Field(ge=0, description="zero-based page index")
    quote: str = Field(description="the row as printed on the page")
    column: int = Field(ge=0)
    row: int = Field(ge=0, description="the row's position in its page's statement")
    total: bool = Field(default=False, description="the row is a subtotal or total")


class ConceptRule(BaseModel):
    concept: str
    statements: list[StatementKind]
    patterns: list[str]
    source: str = ""


@lru_cache(maxsize=1)
def _concept_map() -> dict[str, Any]:
    """``concept_map.json``, read once."""
    data: dict[str, Any] = json.loads(CONCEPT_MAP_FILE.read_text(encoding="utf-8"))
    return data


@lru_cache(maxsize=1)
def concept_rules() -> tuple[tuple[ConceptRule, tuple[re.Pattern[str], ...]], ...]:
    rules = [ConceptRule.model_validate(r) for r in _concept_map()["concepts"]]
    return tuple(
        (rule, tuple(re.compile(p, re.IGNORECASE) for p in rule.patterns)) for rule in rules
    )


@lru_cache(maxsize=1)
def demote_patterns() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in _concept_map()["demote"]["patterns"])


# a label's pointers to the notes, not its words: "(Note 7)", "(see Notes 3 and 9)"
NOTES_CITED_RE = re.compile(r"\((?:see )?notes? \d+[a-z]?(?:(?:,| and) \d+)*\)", re.IGNORECASE)
_NOTE_MARKER_RE = re.compile(rf"\((?:[a-z]|\d{{1,2}})\)|[{SUPERSCRIPT_DIGITS}*]+")  # "(a)", "¹"


def normalize_label(label: str) -> str:
    """A label as the concept map reads it: lower case, no notes markers, single spaces."""
    text = " ".join(label.replace("’", "'").replace("—", "-").replace("–", "-").split())
    text = NOTES_CITED_RE.sub(" ", _NOTE_MARKER_RE.sub(" ", text))
    text = re.sub(r"\s*\.{3,}\s*", " ", text)  # dot leaders ("Total cost of sales ......")
    text = re.sub(r"\s*:\s*$", "", text)
    return " ".join(text.lower().split())


# captions whose rows are not the line item itself: a deduction ("Less: current maturities"),
# a supplemental or non-cash disclosure, discontinued operations, noncontrolling interests
_NOT_A_SECTION_RE = re.compile(
    r"^(?:less|add|plus|deduct)\b|^(?:[^:]*\b(?:non-?cash|supplemental|discontinued|"
    r"noncontrolling|non-controlling)\b[^:]*):")
# a section's caption the reader joined to its first row's label ("Cash Flows - Investing
# Activities Purchases of land, buildings, and equipment", "Adjustments to reconcile net
# earnings to net cash provided by operating activities: Depreciation and amortization")
_CAPTION_RE = re.compile(
    r"^(?:[^:]+:\s+|cash flows?\s*(?:-\s*)?(?:from|used in|provided by|\(used in\))?\s*"
    r"(?:operating|investing|financing) activities:?\s+)(?P<row>.+)$")


def concept_of(label: str, statement: StatementKind) -> tuple[str | None, int]:
    """The first concept whose statement and pattern fit the label (the map's order), and the
    position of the pattern it matched (0: the concept's preferred label). A label that opens
    with a section's caption is the row after it when that row fits a concept ("Cash flows
    from investing activities Capital expenditures" is capital expenditure)."""
    text = normalize_label(label)
    not_a_section = bool(_NOT_A_SECTION_RE.match(text))
    demoted = DEMOTE if not_a_section or any(p.search(text) for p in demote_patterns()) else 0
    if (not not_a_section and (caption := _CAPTION_RE.match(text))
            and (row := concept_of(caption["row"], statement))[0]):
        # the row under the caption, not the caption's own total; a part stays a part
        return row[0], row[1] + demoted
    for rule, patterns in concept_rules():
        if statement not in rule.statements:
            continue
        for rank, pattern in enumerate(patterns):
            if pattern.fullmatch(text):
                return rule.concept, rank + demoted
    return None, 0


def facts_of_table(document: str, year: int, table: StatementTable) -> list[StatementFact]:
    """Every value of one statement table, the line items printed only as parts completed."""
    return with_wholes(list(_table_facts(document, year, table)))


class WholeOfParts(BaseModel):
    """A line item some filers print only as its parts (``concept_map.json``'s "wholes")."""

    whole: str
    part: str
    alone: list[int]  # the part patterns that may stand for the whole; empty: any part
    source: str = ""

    def stands_alone(self, fact: StatementFact) -> bool:
        return not self.alone or fact.rank % DEMOTE in self.alone


@lru_cache(maxsize=1)
def whole_rules() -> tuple[WholeOfParts, ...]:
    return tuple(WholeOfParts.model_validate(r) for r in _concept_map()["wholes"]["rules"])


def with_wholes(facts: list[StatementFact]) -> list[StatementFact]:
    """A line item where a column prints only its parts ("Cost of products" and "Cost of
    services"; "Depreciation" and "Amortization of purchased intangibles"): a lone part that
    may stand for it is the line item itself; two or more, one of them such a part, with no
    whole row add up to it, as one more fact quoting every part's row. A printed whole ("Total
    cost of sales", "Depreciation and amortization") always wins."""
    columns: dict[int, list[StatementFact]] = {}
    for fact in facts:
        columns.setdefault(fact.column, []).append(fact)
    out = list(facts)
    for rule, column in ((r, c) for r in whole_rules() for c in columns.values()):
        parts = [f for f in column if f.concept == rule.part and f.unit == "USD"]
        if (not any(rule.stands_alone(f) for f in parts)
                or any(f.concept == rule.whole for f in column)):
            continue
        if len(parts) == 1:
            parts[0].concept = rule.whole
            continue
        last = max(parts, key=lambda f: f.row)
        out.append(last.model_copy(update={
            "label": " + ".join(f.label for f in parts), "concept": rule.whole,
            "rank": max(f.rank for f in parts), "value": sum(f.value for f in parts),
            "printed": " + ".join(f.printed for f in parts),
            "quote": " | ".join(f.quote for f in parts), "total": True,
        }))
    return out


def _row_concept(row: StatementRow, statement: StatementKind, bare_eps: bool
                 ) -> tuple[str | None, int, bool]:
    """A row's concept and rank, and whether its values are per share. "Basic" / "Diluted"
    under a per-share caption is EPS read with its caption (under a share count's caption, no
    line item); a bare "Basic" / "Diluted" of an income statement whose caption the reader
    lost is EPS when ``bare_eps`` (:func:`_bare_eps_rows`); "Diluted" under a share count's
    caption the diluted share count."""
    if row.group and PER_SHARE_GROUP_RE.search(row.group):
        concept, rank = concept_of(f"{row.group} - {row.label}", statement)
        if concept in SHARE_COUNT_CONCEPTS:
            return concept, rank, False
        if concept not in EPS_CONCEPTS:
            # a row that names its own per-share item is that item, not a part of the
            # caption's (Corning 2015: "Dividends declared per common share" under "Earnings
            # per common share attributable to Corning Incorporated:")
            own = concept_of(row.label, statement) if OWN_PER_SHARE_RE.search(row.label) \
                else (None, 0)
            return own[0], own[1], False
        # "Continuing operations" under "Diluted earnings per share:" is a part of it
        return concept, rank + (DEMOTE if _CONTINUING_RE.search(row.label) else 0), True
    if (statement == "income_statement" and bare_eps
            and (bare := _BARE_EPS_RE.fullmatch(normalize_label(row.label)))):
        return ("eps" if bare["kind"] == "diluted" else "eps_basic"), 0, True
    if statement == "cash_flow" and row.group and CASH_PAID_GROUP_RE.search(row.group) \
            and not re.match(r"\s*cash\s+paid\b", row.label, re.IGNORECASE):
        concept, rank = concept_of(f"cash paid for {row.label}", statement)
        if concept is not None:
            return concept, rank, False
    concept, rank = concept_of(row.label, statement)
    return concept, rank, False


_BARE_EPS_RE = re.compile(r"(?P<kind>basic|diluted)(?: \(note \d+\))?")
_CONTINUING_RE = re.compile(r"\bcontinuing operations\b", re.IGNORECASE)


def _bare_eps_rows(table: StatementTable) -> bool:
    """Whether the table's bare "Basic" / "Diluted" rows are its EPS: one of each at most
    (several pairs, continuing and discontinued operations, are not told apart without their
    captions), every figure in dollars and cents (a share count is not)."""
    bare = [r for r in table.rows if _BARE_EPS_RE.fullmatch(normalize_label(r.label))
            and not (r.group and PER_SHARE_GROUP_RE.search(r.group))]
    kinds = [normalize_label(r.label).split()[0] for r in bare]
    return bool(bare) and len(kinds) == len(set(kinds)) and all(
        in_cents(c) for r in bare for c in r.cells if c.strip())


def _table_facts(document: str, year: int, table: StatementTable) -> Iterable[StatementFact]:
    bare_eps = _bare_eps_rows(table)
    for r, row in enumerate(table.rows):
        concept, rank, per_share = _row_concept(row, table.statement, bare_eps)
        for c, (value, printed) in enumerate(zip(row.values, row.cells, strict=True)):
            if value is None or c >= len(table.columns):
                continue
            column = table.columns[c]
            unit = "%" if column.heading == CHANGE_HEADING else "USD/share" if per_share else \
                table.unit_of(row.label, row.group)
            scale = table.scale if unit == "USD" else table.share_scale(
                row.label, row.group) if unit == "shares" else 1.0
            yield StatementFact(
                document=document, year=year, statement=table.statement, label=row.label,
                concept=concept, rank=rank, group=row.group, period=column.heading,
                fiscal_year=column.year, months=column.months, value=value * scale,
                unit=unit, scale=scale, printed=printed,
                page=table.page, quote=row.quote, column=c, row=table.first_row + r,
                total=row.total,
            )


def extract_facts(
    document: str, year: int, pages: Sequence[Page], kinds: Sequence[StatementKind | None]
) -> list[StatementFact]:
    """Every value of every statement page (``kinds``: what each page is, as classified at
    ingest: ``DocumentContext.statements``)."""
    out: list[StatementFact] = []
    for table in read_statement_tables(pages, kinds):
        out.extend(facts_of_table(document, year, table))
    return out


KEY_CONCEPTS = ("revenue", "net_income", "total_assets", "operating_cash_flow",
                "investing_cash_flow", "financing_cash_flow")


def missing_key_concepts(facts: Sequence[StatementFact], fiscal_year: int) -> list[str]:
    """The key line items of the filing's own fiscal year that no fact gives."""
    found = {f.concept for f in facts if f.fiscal_year == fiscal_year}
    return [c for c in KEY_CONCEPTS if c not in found]
