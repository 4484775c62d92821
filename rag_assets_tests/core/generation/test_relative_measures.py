"""Two measures compared for a yes or no (General Mills 2022, Coca-Cola 2019 and Walmart 2022
10-Ks of the corpora): each side computed from the statements and cited, the answer from the
comparison; one side alone never answers."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.metric_engine import MetricAnswer, answer_metric
from rag_assets.core.generation.metric_format import when_asked
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.relative_measures import compared, sides
from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets.core.ingest.pages import Page
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import real_filing

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"


@pytest.mark.parametrize(("text", "first", "second", "by", "more"), [
    ("Did General Mills' inventories grow faster than its net sales in fiscal 2022?",
     "inventory", "revenue", "growth", True),
    ("Did Kraft Heinz's SG&A grow more slowly than net sales in 2021?",
     "sga", "revenue", "growth", False),
    ("Did Coca-Cola's dividends paid exceed its free cash flow in 2019?",
     "dividends_paid", "free_cash_flow", "level", True),
    ("Has Walmart's revenue outpaced its operating income in fiscal 2022?",
     "revenue", "operating_income", "growth", True),
    # the measure after the verb: "grow X faster than Y"
    ("Did General Mills grow its net sales faster than its inventories in fiscal 2022?",
     "revenue", "inventory", "growth", True),
])
def test_the_two_sides_and_the_way_asked(text: str, first: str, second: str, by: str,
                                         more: bool) -> None:
    relative = read_question(text).compares
    assert relative is not None
    assert (relative.first, relative.second, relative.by, relative.more) == (
        first, second, by, more)


@pytest.mark.parametrize("text", [
    "Did Costco's net sales grow more than 5% in fiscal 2021?",  # a threshold, not a measure
    "Is Coca-Cola's effective tax rate higher than 21% in FY2019?",
    "What drove General Mills' net sales growth in fiscal 2022?",  # no yes or no
    "Did inventories grow in fiscal 2022?",  # one measure
    # a level reached, or a count of raises, is no growth compared (the review's cases)
    "Did Acme increase its dividend more than once in 2022?",
])
def test_no_comparison_of_two_measures_is_read_where_none_is_asked(text: str) -> None:
    compares = read_question(text).compares
    assert compares is None or compares.measures is None


def test_a_growth_against_another_is_known_even_when_a_side_is_no_line_item() -> None:
    """Netflix's content obligations are no line of its statements: the question still asks a
    comparison, so revenue's growth alone must not answer it."""
    question = read_question("Did Netflix's total content obligations grow faster than revenues "
                             "in 2020?")
    assert question.compares is not None and question.compares.measures is None
    assert question.compares_growth
    # asked with the measure after its verb, a side no line item ("noninterest expense")
    jpm = read_question("Did JPMorgan grow revenue faster than noninterest expense in Q2 2023?")
    assert jpm.compares_growth and jpm.compares is not None and jpm.compares.measures is None
    level = read_question("Did General Mills' capital expenditures rise to more than its "
                          "depreciation and amortization in fiscal 2022?")
    assert level.compares is not None and level.compares.by == "level"


@cache
def _filing(path: str, document: str, year: int) -> tuple[list[Page], list[StatementFact]]:
    pages = real_filing(path).pages
    return pages, read_facts(document, year, pages)


def _answer(path: str, document: str, year: int, company: str, text: str) -> MetricAnswer:
    pages, facts = _filing(path, document, year)
    question = read_question(text)
    relative = question.compares
    assert relative is not None
    computed = [answer_metric(side, facts, company) for side in sides(relative, question)]
    answer = compared(relative, computed, f"{company}'s",
                      lambda q: when_asked(q, q.years[-1:]))
    assert answer.status == "answered", answer.headline
    checked = verify_claims(answer.claims(), PageTexts.from_pages(document, year, pages))
    assert {c.mark for claim in checked for c in claim.citations} == {"valid"}
    return answer


@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
@pytest.mark.parametrize(("path", "document", "year", "company", "text", "headline"), [
    # General Mills' balance sheet (p.47): inventories 1,867.3 against 1,820.5; net sales
    # 18,992.8 against 18,127.0 (p.45): 2.6% against 4.8%
    ("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "general-mills-10k", 2022,
     "General Mills", "Did General Mills' inventories grow faster than its net sales in fiscal "
     "2022?", "No. General Mills's inventory grew 2.6% (from $1,820.5 million to $1,867.3 "
     "million) in FY2022; its revenue grew 4.8%"),
    # Coca-Cola's cash flow statement (p.71): dividends (6,845); 10,471 - 2,054 = 8,417
    ("financebench-bulk/pdfs/COCACOLA_2019_10K.pdf", "coca-cola-10k", 2019, "Coca-Cola",
     "Did Coca-Cola's dividends paid exceed its free cash flow in 2019?",
     "No. Coca-Cola's FY2019 cash dividends paid of $6,845 million did not exceed its free "
     "cash flow of $8,417 million."),
])
def test_a_comparison_is_answered_from_both_sides(path: str, document: str, year: int,
                                                  company: str, text: str,
                                                  headline: str) -> None:
    answer = _answer(path, document, year, company, text)
    assert answer.headline.startswith(headline)
    assert len({o.concept for o in answer.operands}) >= 2


def test_is_it_rising_asks_a_trend() -> None:
    """"Is Netflix's debt rising?" asks which way it moved, not its level."""
    from rag_assets.core.generation.metric_questions import parse_question

    parsed = parse_question(read_question("Is Netflix's debt rising in FY2020?"))
    assert parsed is not None and (parsed.aggregate, parsed.direction) == ("trend", "up")


def test_one_side_with_one_year_is_never_the_comparisons_answer() -> None:
    """A side whose earlier year the statements do not give leaves no growth to compare: the
    answer is no answer (unavailable), never the other side's figure as a yes or no."""
    question = read_question("Did General Mills' inventories grow faster than its net sales in "
                             "fiscal 2022?")
    relative = question.compares
    assert relative is not None
    first, second = sides(relative, question)
    both = MetricAnswer(question=first, status="answered", values={2021: 1820.5, 2022: 1867.3},
                        headline="inventory")
    one = MetricAnswer(question=second, status="answered", values={2022: 18992.8},
                       headline="revenue")
    answer = compared(relative, [both, one], "General Mills'", lambda q: "FY2022")
    assert answer.status == "unavailable"
