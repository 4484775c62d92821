"""Which filing's structure answers a question (the cover's securities table, Item 1, Item
1A): the best unit's, or, for a question that names no period, the latest filing held of that
document (units built here; the routing that names the documents is read_question's)."""

from __future__ import annotations

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.quote_route import filing_asked
from rag_assets.core.question.question import Question, read_question

HELD = [("general-mills-10k", 2015), ("general-mills-10k", 2022), ("general-mills-10k", 2017),
        ("walmart-10k", 2023)]


def _unit(document: str, year: int) -> EvidenceUnit:
    return EvidenceUnit(chunk_id="c", document=document, year=year, chunk_rank=0, page=0,
                        located=True, quote="Securities registered pursuant to Section 12(b)",
                        text="Securities registered pursuant to Section 12(b)")


def _question(text: str) -> Question:
    """The question as read, routed to General Mills' 10-Ks."""
    return read_question(text).model_copy(update={"documents": ["general-mills-10k"]})


def test_a_question_without_a_period_reads_the_latest_filing_of_its_document() -> None:
    best = [_unit("general-mills-10k", 2015), _unit("general-mills-10k", 2017)]
    asked = _question("Which securities does General Mills have registered?")
    assert filing_asked(asked, best, HELD) == ("general-mills-10k", 2022)


def test_a_period_named_or_a_document_not_named_keeps_the_best_units_filing() -> None:
    best = [_unit("general-mills-10k", 2015)]
    dated = _question("Which securities did General Mills register in FY2015?")
    assert filing_asked(dated, best, HELD) == ("general-mills-10k", 2015)
    other = [_unit("walmart-10k", 2023)]
    assert filing_asked(_question("Which securities are registered?"), other, HELD) == (
        "walmart-10k", 2023)
