"""A question or its definition that names a line item by a label a real filing prints reads
that row: a label copied from the page (its other sign in parentheses, its note reference, its
period), never the period's opening balance for its closing one, never a working capital change
for the balance it moves, never the vocabulary's preferred row for the one named."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.generation.metric_engine import answer_metric
from rag_assets.core.generation.metric_questions import parse_change, parse_question
from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import real_filing

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"
pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")

CORNING_2020 = "financebench-wide/pdfs/CORNING_2020_10K.pdf"


@cache
def _facts(path: str, year: int) -> list[StatementFact]:
    return read_facts(Path(path).stem.lower(), year, real_filing(path).pages)


def _term_read(path: str, year: int, term: str) -> tuple[str, float]:
    """The label and value of the row a test ratio's definition reads for ``term``."""
    question = (f"What is the company's FY{year} test ratio? The test ratio is defined as {term} "
                "divided by total assets.")
    parsed = parse_question(read_question(question))
    assert parsed is not None, term
    answer = answer_metric(parsed, _facts(path, year), "The company")
    assert answer.status == "answered", answer.missing
    operand = next(o for o in answer.operands if o.concept != "total_assets")
    return " ".join(operand.label.split()), operand.value


@pytest.mark.parametrize(("term", "label", "value"), [
    # Corning 2020, p.73: the year's closing cash, not its opening one printed a row above
    ("Cash and cash equivalents at end of year", "Cash and cash equivalents at end of year",
     2_672e6),
    ("Cash and cash equivalents at beginning of year",
     "Cash and cash equivalents at beginning of year", 2_434e6),
    # ASC 718's other name: a dollar amount, not a count of shares
    ("Share-based compensation expense", "Share-based compensation expense", 207e6),
    # p.72's balance, not p.73's change under "Changes in certain working capital items"
    ("Other current assets (Note 11 and 15)", "Other current assets (Note 11 and 15)", 761e6),
])
def test_a_corning_label_copied_into_a_definition_reads_its_own_row(term: str, label: str,
                                                                     value: float) -> None:
    assert _term_read(CORNING_2020, 2020, term) == (label, value)


def test_a_label_with_its_other_sign_in_parentheses_is_read() -> None:
    # Coca-Cola 2017, p.77: "Net cash provided by operating activities" 6,995
    _, value = _term_read("financebench-dev/pdfs/COCACOLA_2017_10K.pdf", 2017,
                          "Net cash provided by (used in) operating activities")
    assert value == 6_995e6
    # American Water 2021, p.86: "Gain or (loss) on sale of businesses" 747
    label, value = _term_read("financebench-dev/pdfs/AMERICANWATERWORKS_2021_10K.pdf", 2021,
                              "Gain or (loss) on sale of businesses")
    assert (label, abs(value)) == ("Gain or (loss) on sale of businesses", 747e6)


def test_a_label_the_vocabulary_splits_in_two_is_read_as_one_row() -> None:
    # Costco 2021, p.40: "Cash dividend payments" (5,748): not "cash" beside "dividends paid"
    label, value = _term_read("financebench-wide/pdfs/COSTCO_2021_10K.pdf", 2021,
                              "Cash dividend payments")
    assert (label, abs(value)) == ("Cash dividend payments", 5_748e6)


@pytest.mark.parametrize(("path", "year", "term", "label", "value"), [
    # Walmart 2018, p.57: "Net sales" 495,761 above "Total revenues" 500,343
    ("financebench-wide/pdfs/WALMART_2018_10K.pdf", 2018, "net sales", "Net sales", 495_761e6),
    ("financebench-wide/pdfs/WALMART_2018_10K.pdf", 2018, "total revenues", "Total revenues",
     500_343e6),
    # General Mills 2019: the stockholders' equity above the total with noncontrolling interests
    ("financebench-wide/pdfs/GENERALMILLS_2019_10K.pdf", 2019, "total stockholders' equity",
     "Total stockholders’ equity", 7_054.5e6),
    # Coca-Cola 2017: its marketable securities, printed apart from short-term investments
    ("financebench-dev/pdfs/COCACOLA_2017_10K.pdf", 2017, "marketable securities",
     "Marketable securities", 5_317e6),
])
def test_a_line_item_named_by_a_label_the_filing_prints_reads_that_row(
        path: str, year: int, term: str, label: str, value: float) -> None:
    assert _term_read(path, year, term) == (label, value)


@pytest.mark.parametrize(("question", "label", "value"), [
    ("What were Walmart's FY2018 net sales?", "Net sales", 495_761e6),
    ("What was Walmart's FY2018 total revenue?", "Total revenues", 500_343e6),
])
def test_a_line_item_asked_by_a_label_the_filing_prints_reads_that_row(
        question: str, label: str, value: float) -> None:
    path = "financebench-wide/pdfs/WALMART_2018_10K.pdf"
    parsed = parse_question(read_question(question))
    assert parsed is not None
    answer = answer_metric(parsed, _facts(path, 2018), "Walmart")
    assert [(o.label, o.value) for o in answer.operands] == [(label, value)]


def test_a_change_asked_of_a_printed_row_is_named_as_that_row() -> None:
    # Costco's Q3 2023 release, p.3: net sales 52,604 against 51,612, apart from total revenue
    path = "financebench-bulk/pdfs/COSTCO_2023Q3_EARNINGS.pdf"
    question = read_question("What drove the change in Costco's net sales in the third quarter "
                             "of fiscal 2023?")
    parsed = parse_change(question)
    assert parsed is not None
    answer = answer_metric(parsed, _facts(path, 2023), "Costco Wholesale")
    assert answer.headline.startswith(
        "Costco Wholesale's net sales increased from $51,612 million in the three months ended "
        "in 2022 to $52,604 million"), answer.headline
