"""The cash flow statement's supplemental disclosures, read where a note prints them.

ASC 230-10-50-2 requires the interest and the income taxes paid in cash to be disclosed; many
filers print them in a note's table, not under the statement: General Mills' fiscal 2022 10-K,
Note 18 ("Certain Consolidated Statements of Cash Flows amounts are as follows: ... Cash
interest payments $ 357.8 $ 412.5 $ 418.5"), Corning's 2022 10-K ("supplemental disclosures of
cash flow information ... Cash paid for interest and income taxes: Interest (1) $ 275"). Such a
table is read with the statements' own table reader, as a cash flow table, and only its rows of
the supplemental line items are kept: a note page's other rows (a quarterly data table, a lease
note's "Cash paid for amounts included in the measurement of lease liabilities") are not
statement lines. A line item the statements print already keeps the statements' figure.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag_assets.core.ingest.facts import (
    StatementFact,
    concept_rules,
    facts_of_table,
    normalize_label,
)
from rag_assets.core.ingest.pages import Page
from rag_assets.core.ingest.statement_tables import read_tables
from rag_assets.core.ingest.statements import StatementKind

# the line items ASC 230-10-50-2 has disclosed apart from the statement's own lines
SUPPLEMENTAL_CONCEPTS = frozenset({"interest_paid", "income_taxes_paid"})


def _printing(page: Page) -> bool:
    """Whether a page prints one of the supplemental line items: a label of the concept map's
    for one of them, searched in the page's prose and its tables' cells (a ruled table is
    held apart from the prose) as the map reads labels (lower case, single spaces: Corning's
    10-Ks print no-break spaces), so the map stays the one list of the items' names."""
    cells = (cell for table in page.tables for row in table.rows for cell in row)
    flat = normalize_label(" ".join([page.text, *cells]))
    return any(pattern.search(flat) for rule, patterns in concept_rules()
               if rule.concept in SUPPLEMENTAL_CONCEPTS for pattern in patterns)


def supplemental_facts(document: str, year: int, pages: Sequence[Page],
                       kinds: Sequence[StatementKind | None],
                       facts: Sequence[StatementFact]) -> list[StatementFact]:
    """The interest and income taxes paid that notes print, as cash flow facts, for the periods
    (year and length) the statements give none of. A filing discloses each once, in its own
    notes: a line item is read from the first page that prints it, never again from a later
    one (an equity investee's statements that a 10-K attaches, Rule 3-09, or the parent-only
    schedule that follows the notes)."""
    given: set[tuple[str | None, int | None, int | None]] = {
        (f.concept, f.fiscal_year, f.months) for f in facts
        if f.concept in SUPPLEMENTAL_CONCEPTS}
    read: set[str] = set()  # the line items a page gave already
    added: list[StatementFact] = []
    for page, kind in zip(pages, kinds, strict=True):
        if kind is not None or not _printing(page):
            continue
        found = [fact for table in read_tables(page, "cash_flow")
                 for fact in facts_of_table(document, year, table)
                 if fact.concept in SUPPLEMENTAL_CONCEPTS - read and fact.months is not None]
        for fact in found:
            key = (fact.concept, fact.fiscal_year, fact.months)
            if key not in given:
                given.add(key)
                added.append(fact)
        read |= {fact.concept for fact in found if fact.concept}
    return added
