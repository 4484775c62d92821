"""The sentence a real filing states a statement figure in: Costco's bullet that gives its
FY2021 dividends with the special dividend per share, Walmart's sentence of three years'
dividends, and no sentence where none prints the amount of the year asked."""

from __future__ import annotations

from functools import cache

import pytest

from rag_assets.core.generation.metric_engine import Operand
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.stated_figures import stated_sentence, with_statements
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")

COSTCO = "financebench-wide/pdfs/COSTCO_2021_10K.pdf"
WALMART = "financebench-bulk/pdfs/WALMART_2022_10K.pdf"


@cache
def _pages(path: str) -> list[tuple[int, str]]:
    pages = PageTexts.from_pages("d", 1, real_filing(path).pages)
    return [(p, pages.get("d", 1, p) or "") for p in pages.pages_of("d", 1)]


def _operand(title: str, year: int, millions: float, printed: str) -> Operand:
    return Operand(concept="c", title=title, fiscal_year=year, months=12, value=millions * 1e6,
                   document="d", year=1, statement="cash_flow", label=title, printed=printed,
                   page=0, quote=printed)


def test_a_bullet_that_states_the_total_with_its_per_share_amounts() -> None:
    page, sentence = stated_sentence(_operand("cash dividends paid", 2021, 5748, "(5,748)"),
                                     _pages(COSTCO)) or (0, "")
    assert sentence.startswith("We paid a special cash dividend of $10.00 per share")
    assert sentence.endswith("totaling $5,748.") and page == 23


def test_an_amount_in_billions_to_the_precision_printed() -> None:
    found = stated_sentence(_operand("dividends paid", 2022, 6152, "(6,152)"), _pages(WALMART))
    assert found is not None and "$6.2 billion" in found[1] and "fiscal 2022" in found[1]
    # $6.1 billion is 2021's: more than half a unit of its last digit from 6,152
    assert stated_sentence(_operand("dividends paid", 2021, 6152, "(6,152)"),
                           _pages(WALMART)) is None


def test_no_sentence_when_none_prints_the_amount() -> None:
    assert stated_sentence(_operand("repurchases of common stock", 2021, 496, "(496)"),
                           _pages(COSTCO)) is None


def test_the_sentences_go_beside_the_headline_in_one_sentence() -> None:
    assert with_statements("Yes. Its FY2018 repurchases is $2,227 million.", [
        (47, "During 2018, it repurchased 74.8 million shares for $2.2 billion.")]) == (
        'Yes. Its FY2018 repurchases is $2,227 million (page 48: "During 2018, it repurchased '
        '74.8 million shares for $2.2 billion").')
    assert with_statements("No. None.", []) == "No. None."


def test_a_precise_amount_is_the_figure_whatever_its_words() -> None:
    """Netflix's long-term debt ($6,499,432 thousand) is stated as "outstanding long-term notes
    of $6,499.4 million": five significant digits, no word of the line item's."""
    operand = _operand("long-term debt", 2017, 6499.432, "6,499,432").model_copy(
        update={"label": "Long-term debt"})
    found = stated_sentence(operand, _pages("financebench-wide/pdfs/NETFLIX_2017_10K.pdf"))
    assert found is not None and "outstanding long-term notes of $6,499.4 million" in found[1]
    # 2016's figure is another year's: the sentence names 2017 only
    assert stated_sentence(operand.model_copy(update={"fiscal_year": 2016}), _pages(
        "financebench-wide/pdfs/NETFLIX_2017_10K.pdf")) is None


def test_an_amount_said_to_be_another_figure_is_not_the_line_items() -> None:
    """Walmart's "authorization for $5.7 billion of share repurchases remained" is what is
    left of a program, not the $5,717 million its cash flow statement spent on buybacks."""
    found = stated_sentence(_operand("purchase of company stock", 2020, 5717, "(5,717)"),
                            _pages("financebench-wide/pdfs/WALMART_2020_10K.pdf"))
    assert found is None, found


def test_a_total_computed_from_its_parts_is_stated_as_the_total() -> None:
    """Netflix's total debt, computed from its debt rows, is the sentence's $6,499.4 million;
    the total has no printed digits of its own, so only its amount in words can match."""
    from rag_assets.core.generation.stated_figures import computed_total

    total = computed_total("total_debt", "total debt", 2017, 6_499_432_000, "d", 1)
    found = stated_sentence(total, _pages("financebench-wide/pdfs/NETFLIX_2017_10K.pdf"))
    assert found is not None and "$6,499.4 million" in found[1]
