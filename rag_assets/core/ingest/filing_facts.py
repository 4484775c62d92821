"""A filing's facts, read once for every caller: the values its statements print
(:mod:`facts`) and the parts its notes print of a statement's line (:mod:`breakdowns`).

The ingest stage (``ProcessedReport.facts``, which the ``financial_statements`` asset stores and
the answer engine reads), the benches and the tests all read a filing's facts here, so that a
line item found in a note is found on every path.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag_assets.core.ingest.breakdowns import breakdown_facts
from rag_assets.core.ingest.context import DocumentContext, document_context
from rag_assets.core.ingest.facts import StatementFact, extract_facts
from rag_assets.core.ingest.pages import Page
from rag_assets.core.ingest.statements import StatementKind
from rag_assets.core.ingest.supplemental import supplemental_facts


def filing_facts(document: str, year: int, pages: Sequence[Page],
                 kinds: Sequence[StatementKind | None]) -> list[StatementFact]:
    """The statement facts of the pages ``kinds`` classifies, then the notes' parts and the
    supplemental disclosures the notes print (interest and income taxes paid)."""
    facts = extract_facts(document, year, pages, kinds)
    facts += supplemental_facts(document, year, pages, kinds, facts)
    return facts + breakdown_facts(pages, facts)


def read_facts(document: str, year: int, pages: Sequence[Page],
               context: DocumentContext | None = None) -> list[StatementFact]:
    """Every fact of a filing's pages, on the statement pages its context names (``context``:
    the one ``raw_pages`` stores; worked out from the pages when not given)."""
    context = context or document_context(document, year, pages)
    return filing_facts(document, year, pages, context.statements(pages))
