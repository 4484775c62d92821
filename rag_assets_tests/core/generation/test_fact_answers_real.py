"""Metric, trend and judgment answers from the statement facts of real filings, each figure
computed by hand from the page that prints it, every operand cited and verified."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.generation.answers import missing_kind, quotes_name_none
from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.facts_route import FactsRoute
from rag_assets.core.generation.fiscal_names import fiscal_name_shift
from rag_assets.core.generation.metric_engine import answer_metric
from rag_assets.core.generation.metric_questions import (
    MetricQuestion,
    parse_change,
    parse_question,
)
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.records import Claim, QAResult
from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets.core.ingest.pages import Page
from rag_assets.core.question.question import read_question
from rag_assets.core.retrieval.retriever import Scope
from rag_assets_tests.real_filings import real_filing


def parse_text(text: str) -> MetricQuestion | None:
    """The metric question ``text`` asks, read as every caller reads it (a :class:`Question`)."""
    return parse_question(read_question(text))

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"
pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


@cache
def _filing(path: str, document: str, year: int) -> tuple[list[Page], list[StatementFact]]:
    pages = real_filing(path).pages
    return pages, read_facts(document, year, pages)


def _ask(path: str, document: str, year: int, company: str, question: str):  # noqa: ANN202
    pages, facts = _filing(path, document, year)
    parsed = parse_text(question)
    assert parsed is not None, question
    answer = answer_metric(parsed, facts, company)
    checked = verify_claims(answer.claims(), PageTexts.from_pages(document, year, pages))
    marks = [c.mark for claim in checked for c in claim.citations]
    return answer, marks


def _answered(path: str, document: str, year: int, company: str, question: str):  # noqa: ANN202
    """The computed answer, asserted answered with every citation valid."""
    answer, marks = _ask(path, document, year, company, question)
    assert answer.status == "answered", answer.headline
    assert marks and set(marks) == {"valid"}
    return answer


def test_a_metric_opens_with_the_result_and_cites_every_operand() -> None:
    # Nike FY2019: cost of sales 21,643 (p.52), inventories 5,622 and 5,261 (p.54)
    answer, marks = _ask("financebench-wide/pdfs/NIKE_2019_10K.pdf", "nike-10k", 2019, "Nike",
                         "What is Nike's FY2019 inventory turnover?")
    assert answer.status == "answered"
    assert answer.headline == ("Nike's FY2019 inventory turnover is 3.98 (cost of revenue of "
                               "$21,643 million / average inventory of $5,441.5 million).")
    assert answer.value == pytest.approx(21_643 / ((5_622 + 5_261) / 2))
    assert {o.printed for o in answer.operands} == {"21,643", "5,622", "5,261"}
    assert marks and set(marks) == {"valid"}


def test_total_debt_adds_every_debt_line_the_balance_sheet_prints_apart() -> None:
    # General Mills FY2019 (p.54): notes payable 1,468.7, current portion of long-term debt
    # 1,396.5, long-term debt 11,624.8 = 14,490.0; FY2018: 1,549.8 + 1,600.1 + 12,668.7
    answer, marks = _ask("financebench-wide/pdfs/GENERALMILLS_2019_10K.pdf", "general-mills-10k",
                         2019, "General Mills",
                         "How did General Mills' debt change in fiscal 2019, and why?")
    # "and why?": the long-term debt issued and repaid that year, financing activities (p.56)
    assert answer.headline == (
        "General Mills' total debt decreased from $15,818.6 million in FY2018 to $14,490 million "
        "in FY2019, by $1,328.6 million (8.4%); its FY2019 cash flow statement prints proceeds "
        "from issuance of long-term debt of $339.1 million and repayments of long-term debt of "
        "$1,493.8 million.")
    assert {o.printed for o in answer.operands} == {
        "1,468.7", "1,396.5", "11,624.8", "1,549.8", "1,600.1", "12,668.7", "339.1", "(1,493.8)"}
    assert set(marks) == {"valid"}


def test_long_term_debt_includes_its_current_portion_both_cited() -> None:
    # Kraft Heinz FY2021 (p.55): current portion of long-term debt 740 + long-term debt 21,061
    # = 21,801 (us-gaap:LongTermDebt); FY2020: 230 + 28,070 = 28,300
    answer, marks = _ask("financebench-bulk/pdfs/KRAFTHEINZ_2021_10K.pdf", "kraft-heinz-10k", 2021,
                         "Kraft Heinz", "How did Kraft Heinz's long-term debt change in FY2021?")
    # "how did it change": its manner too, the debt repaid that year (financing activities)
    assert answer.headline == (
        "Kraft Heinz's long-term debt (including the current portion) decreased from $28,300 "
        "million in FY2020 to $21,801 million in FY2021, by $6,499 million (23.0%); its FY2021 "
        "cash flow statement prints repayments of long-term debt of $6,202 million (no proceeds "
        "from issuance of long-term debt).")
    printed = {o.printed for o in answer.operands}
    assert printed - {"740", "21,061", "230", "28,070"} == {"(6,202)"}  # the repayment's row
    assert set(marks) == {"valid"}


def test_a_margins_move_the_rounding_bends_is_given_unrounded_too() -> None:
    # Walmart Q1 fiscal 2024 (p.4): 33,441 / 140,288 = 23.84% and 35,720 / 151,004 = 23.65%:
    # 0.1 points between the values as shown, 18 basis points as its MD&A says (p.21), not 10
    answer = _answered("financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1", 2024,
                       "Walmart", "Did Walmart's gross margin improve in Q1 fiscal 2024 (three "
                       "months ended April 30, 2023)?")
    assert "from 23.8% in the three months ended in 2022" in answer.headline
    assert ("by 0.1 percentage points (10 basis points) as shown, or 18 basis points "
            "unrounded") in answer.headline


def test_a_quarter_is_named_by_the_months_it_ends_and_no_percentage_of_a_negative_base() -> None:
    # Walmart Q1 fiscal 2024 (p.6): operating cash flow 4,633 for the three months ended April
    # 30, 2023, (3,758) a year earlier; the quarter is not "FY2023"
    answer, marks = _ask("financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1", 2024,
                         "Walmart", "By how much did Walmart's net cash provided by operating "
                         "activities change in Q1 fiscal 2024 (three months ended April 30, "
                         "2023), and why?")
    assert answer.headline == (
        "Walmart's cash flow from operating activities increased from -$3,758 million in the "
        "three months ended in 2022 to $4,633 million in the three months ended in 2023, by "
        "$8,391 million.")
    assert set(marks) == {"valid"}


def test_a_margin_asked_steady_within_a_band_is_computed_each_year() -> None:
    # Walmart 2022 (p.54): operating income 20,568, 22,548, 25,942 over total revenues 523,964,
    # 559,151, 572,754: 3.9%, 4.0%, 4.5%, a spread of 0.6 points
    answer = _answered(*WALMART_FY2022, "Have Walmart's operating margins been consistent "
                       "(within 2% each year) over FY2020-FY2022?")
    assert answer.headline == (
        "Yes. Walmart's operating margin stayed within 2 percentage points over FY2020-FY2022: "
        "3.9% in FY2020, 4.0% in FY2021, 4.5% in FY2022 (from its lowest to its highest, 0.6 "
        "percentage points).")
    narrower = _answered(*WALMART_FY2022, "Has Walmart kept its operating margin stable "
                         "(within 0.5 percentage points) over the last three years as of FY2022?")
    assert narrower.headline.startswith("No. Walmart's operating margin moved by more than 0.5 "
                                        "percentage points over FY2020-FY2022"), narrower.headline


def test_a_10q_balance_changes_from_the_preceding_fiscal_year_end() -> None:
    # Corning Q2 2023 (p.5): the balance sheet is as of June 30, 2023 and December 31, 2022
    # (Regulation S-X Rule 10-01(c)(1)), not of June 30, 2022: current portion 187 and 224,
    # long-term debt 7,437 and 6,687; no three months end on a balance
    answer = _answered("financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2", 2023,
                       "Corning", "How did Corning's total debt change in Q2 2023?")
    assert answer.headline == (
        "Corning's total debt increased from $6,911 million at the end of its preceding fiscal "
        "year to $7,624 million at the end of the three months ended in 2023, by $713 million "
        "(10.3%).")
    # Walmart Q1 fiscal 2024 (p.5) prints April 30, 2023, January 31, 2023 and April 30, 2022:
    # a change in the quarter runs from the fiscal year's end (January 31, 2023: inventories
    # 56,576; debt 372 + 4,191 + 34,649), the quarter a year before only when it is asked
    answer = _answered("financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1", 2024,
                       "Walmart", "How did Walmart's inventories change in Q1 fiscal 2024 (three "
                       "months ended April 30, 2023)?")
    assert answer.headline.startswith(
        "Walmart's inventory increased from $56,576 million at the end of its preceding fiscal "
        "year to $56,932 million at the end of the three months ended in 2023")
    answer = _answered("financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1", 2024,
                       "Walmart", "How much did Walmart's total debt change during the first "
                       "quarter of fiscal 2024 (three months ended April 30, 2023)?")
    assert answer.headline.startswith("Walmart's total debt increased from $39,212 million")
    answer = _answered("financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1", 2024,
                       "Walmart", "How did Walmart's inventories change in the three months "
                       "ended April 30, 2023 compared with a year ago?")
    assert answer.headline.startswith(
        "Walmart's inventory decreased from $61,229 million on its 2022 balance sheet date to "
        "$56,932 million")


@pytest.mark.parametrize(("path", "document", "year", "shift"), [
    ("financebench-wide/pdfs/ULTABEAUTY_2023Q4_EARNINGS.pdf", "ulta-beauty-earnings-q4", 2023, 1),
    ("financebench-bulk/pdfs/ULTABEAUTY_2023Q2_EARNINGS.pdf", "ulta-beauty-earnings-q2", 2023, 0),
    ("financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1", 2024, 0),
    ("financebench-wide/pdfs/COSTCO_2021_10K.pdf", "costco-10k", 2021, 0),
])
def test_a_filer_s_fiscal_names_are_read_from_its_own_prose(path: str, document: str,
                                                            year: int, shift: int) -> None:
    """Ulta's Q4 release gives "$8.6 billion in fiscal 2021" for the year its columns print as
    ended January 29, 2022: its fiscal years are named a year before they end. Its Q2, Walmart
    (fiscal 2024 ends January 31, 2024) and Costco name them by the year they end."""
    pages, facts = _filing(path, document, year)
    text = " ".join(PageTexts.from_pages(document, year, pages).get(document, year, p) or ""
                    for p in range(len(pages)))
    assert fiscal_name_shift(facts, text) == shift


@pytest.mark.parametrize(("question", "opening", "printed"), [
    # Ulta's Q4 fiscal 2022 release (p.6, "52 Weeks Ended January 28, 2023 / January 29,
    # 2022"): operating income 1,638,610 of net sales 10,208,580 (16.1%) against 1,297,492 of
    # 8,630,889 (15.0%); fiscal 2022 is the year ended January 28, 2023
    ("Does Ulta Beauty have an improving operating margin profile as of fiscal 2022?",
     "Yes. Ulta Beauty's operating margin increased from 15.0% in FY2021 (operating income of "
     "$1,297.492 million / revenue of $8,630.889 million) to 16.1% in FY2022 (operating "
     "income of $1,638.61 million / revenue of $10,208.58 million), by 1.1 percentage points",
     {"1,638,610", "$10,208,580", "1,297,492", "$8,630,889"}),  # the shown figures' move
    # a question that dates its period names the column itself (p.8: operating cash flow
    # 1,481,915 less capital expenditures 312,126 = 1,169,789), whatever else it defines
    ("What was Ulta Beauty's free cash flow in fiscal 2022 (52 weeks ended January 28, 2023), "
     "in USD millions? Define free cash flow as net cash provided by operating activities "
     "minus capital expenditures, from the cash flow statement.",
     "Ulta Beauty's FY2023 free cash flow is $1,169.789 million", {"1,481,915"}),
])
def test_a_retailer_is_asked_in_its_own_fiscal_names(question: str, opening: str,
                                                     printed: set[str]) -> None:
    path, document, year = ("financebench-wide/pdfs/ULTABEAUTY_2023Q4_EARNINGS.pdf",
                            "ulta-beauty-earnings-q4", 2023)
    pages, facts = _filing(path, document, year)
    route = FactsRoute(facts=lambda d, y: facts, pages=PageTexts.from_pages(document, year, pages),
                       held_years=lambda d: [year], company=lambda d: "Ulta Beauty")
    found = route.answer(read_question(question), Scope.partition(document, year))
    assert found is not None and found[0] is not None
    computed = found[1]
    assert computed.headline.startswith(opening), computed.headline
    assert printed <= {o.printed for o in computed.operands}


def test_a_quarter_is_asked_in_the_fiscal_names_the_filing_defines() -> None:
    """Walmart's 10-Q defines 'the fiscal year ending January 31, 2024 ("fiscal 2024")': its
    first quarter ends in April 2023, the year its columns print (p.3: operating income 6,240
    of total revenues 152,301, three months ended April 30, 2023), and no amount is named "in
    fiscal 2024" for the prose votes to read."""
    path, document, year = ("financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1",
                            2024)
    pages, facts = _filing(path, document, year)
    route = FactsRoute(facts=lambda d, y: facts, pages=PageTexts.from_pages(document, year, pages),
                       held_years=lambda d: [year], company=lambda d: "Walmart")
    found = route.answer(read_question("What was Walmart's operating margin in Q1 fiscal 2024?"),
                         Scope.partition(document, year))
    assert found is not None and found[0] is not None
    computed = found[1]
    assert computed.headline == ("Walmart's Q1 (three months ended in 2023) operating margin is "
                                 "4.1% (operating income of $6,240 million / revenue of "
                                 "$152,301 million)."), computed.headline
    assert {o.printed for o in computed.operands} == {"6,240", "152,301"}


@pytest.mark.parametrize(("filing", "question", "opening", "printed"), [
    # Lockheed Martin: operating profit 9,123 / net sales 67,044 (2021) against 8,644 / 65,398
    (("financebench-dev/pdfs/LOCKHEEDMARTIN_2021_10K.pdf", "lockheed-martin-10k", 2021,
      "Lockheed Martin"),
     "Did Lockheed Martin's operating margin improve between FY2020 and FY2021?",
     "Yes. Lockheed Martin's operating margin increased from 13.2% in FY2020 (operating income "
     "of $8,644 million / revenue of $65,398 million) to 13.6% in FY2021",
     {"9,123", "8,644"}),
    # Costco's Q3 fiscal 2023 release: p.3 prints the income statement ("12 Weeks Ended / 36
    # Weeks Ended"), then the top of the balance sheet (cash 12,493); p.4 carries it on
    # (short-term investments 1,215, receivables 2,502, current liabilities 31,708):
    # (12,493 + 1,215 + 2,502) / 31,708 = 0.51; the balance sheet opened under the income
    # statement is read as one
    (("financebench-bulk/pdfs/COSTCO_2023Q3_EARNINGS.pdf", "costco-earnings-q3", 2023,
      "Costco"),
     "Does Costco have a reasonably healthy liquidity profile based on its quick ratio at the "
     "end of Q3 FY2023 (May 7, 2023)?",
     "No. Costco's quick ratio at the end of Q3 (three months ended in 2023) is 0.51",
     {"$12,493", "1,215", "2,502", "31,708"}),
])
def test_a_trend_or_a_judgment_opens_with_its_answer(filing: tuple[str, str, int, str],
                                                     question: str, opening: str,
                                                     printed: set[str]) -> None:
    answer = _answered(*filing, question)
    assert answer.headline.startswith(opening), answer.headline
    assert printed <= {o.printed for o in answer.operands}


def test_a_judgment_states_its_rule() -> None:
    # 3M 2018: total current assets 13,709, total current liabilities 7,244
    answer, marks = _ask("sec-10k/3M_2018_10K.pdf", "3m-10k", 2018, "3M",
                         "Does 3M have positive working capital based on FY2018 data?")
    assert answer.headline.startswith("Yes"), answer.headline
    assert "$6,465 million" in answer.headline
    assert "Rule:" in answer.text
    assert set(marks) == {"valid"}


def test_a_bank_has_no_gross_margin_from_its_own_facts() -> None:
    answer, _ = _ask("financebench-wide/pdfs/JPMORGAN_2022Q2_10Q.pdf", "jpmorgan-10q-q2", 2022,
                     "JPMorgan Chase", "What is JPMorgan's gross margin for Q2 2022?")
    assert answer.status == "not_meaningful"
    assert "not a meaningful metric" in answer.headline
    # from what JPMorgan is (its statements print a bank's lines), not from a line it lacks
    assert "it is a bank (its statements print" in answer.headline, answer.headline
    # the same filing's quarter is read as a quarter, not as a year
    answer, marks = _ask("financebench-wide/pdfs/JPMORGAN_2022Q2_10Q.pdf", "jpmorgan-10q-q2",
                         2022, "JPMorgan Chase", "What was JPMorgan's total net revenue in Q2 "
                         "2022?")
    assert answer.headline == ("JPMorgan Chase's Q2 (three months ended in 2022) revenue is "
                               "$30,715 million.")
    assert set(marks) == {"valid"}


def test_the_change_of_a_row_the_vocabulary_lacks_is_read_from_the_row() -> None:
    """"By how much did X's <line item> change" names a statement row by its printed label:
    JPMorgan's provision for credit losses, a $2,285 million benefit in Q2 2021 and a $1,101
    million expense in Q2 2022 (income statement, p.88), moved by $3,386 million."""
    answer, marks = _ask("financebench-wide/pdfs/JPMORGAN_2022Q2_10Q.pdf", "jpmorgan-10q-q2",
                         2022, "JPMorgan Chase", "By how much did JPMorgan Chase's provision for "
                         "credit losses change in the second quarter of 2022 versus the second "
                         "quarter of 2021?")
    assert answer.headline == (
        "JPMorgan Chase's provision for credit losses increased from -$2,285 million in the "
        "three months ended in 2021 to $1,101 million in the three months ended in 2022, by "
        "$3,386 million.")
    assert "Formula:" not in answer.text  # a row read, no formula of the question's
    assert set(marks) == {"valid"}
    # one word names no row: the measure is no line item of a statement
    assert parse_text("By how much did JPMorgan Chase's backlog change in 2022?") is None
    # asked as a yes or no, the same row's change says which way it went
    rose, marks = _ask("financebench-wide/pdfs/JPMORGAN_2022Q2_10Q.pdf", "jpmorgan-10q-q2",
                       2022, "JPMorgan Chase", "Did JPMorgan Chase's provision for credit "
                       "losses increase in Q2 2022 versus Q2 2021?")
    assert rose.headline.startswith("Yes. JPMorgan Chase's provision for credit losses "
                                    "increased from -$2,285 million") and set(marks) == {"valid"}


@pytest.mark.parametrize(("path", "document", "year"), [
    ("financebench-dev/pdfs/LOCKHEEDMARTIN_2021_10K.pdf", "lockheed-martin-10k", 2021),
    ("sec-10k/3M_2018_10K.pdf", "3m-10k", 2018),
])
def test_margins_are_never_not_meaningful_for_a_filer_of_no_such_kind(
        path: str, document: str, year: int) -> None:
    # issue 36 item 6: a resorts company prints no cost of revenue line; what the reader did
    # not find is said with the statement's pages, the filer is not blamed
    for metric in ("gross margin", "operating margin"):
        answer, _ = _ask(path, document, year, "The company",
                         f"What is the company's FY{year} {metric}?")
        assert answer.status in ("answered", "missing"), answer.headline
        if answer.status == "missing":
            assert "the reader did not find" in answer.headline
            assert " in the income statement on page" in answer.headline


def test_a_casino_resort_has_no_gross_margin_from_what_its_statements_print() -> None:
    # MGM Resorts 2020 presents its revenues and expenses by department (the AICPA's gaming
    # guide): "Casino", "Rooms", "Food and beverage", no cost of revenue; what makes it so is
    # what it prints, said in the answer, and its operating margin is computed
    path, document = "financebench-dev/pdfs/MGMRESORTS_2020_10K.pdf", "mgm-resorts-10k"
    answer, _ = _ask(path, document, 2020, "MGM Resorts", "What is MGM Resorts' FY2020 gross "
                     "margin?")
    assert answer.status == "not_meaningful"
    assert 'it is a hotel or casino resort operator (its statements print "Casino", "Rooms"' \
        in answer.headline, answer.headline
    _answered(path, document, 2020, "MGM Resorts", "What is MGM Resorts' FY2020 operating "
              "margin?")


def test_a_regulated_utility_has_no_gross_margin_from_what_its_statements_print() -> None:
    # American Water 2021 presents its expenses by function (ASC 980; NARUC's accounts): its
    # statements print "Operation and maintenance" and "Regulatory assets", no cost of revenue
    path, document = "financebench-dev/pdfs/AMERICANWATERWORKS_2021_10K.pdf", \
        "american-water-works-10k"
    answer, _ = _ask(path, document, 2021, "American Water Works",
                     "What is American Water Works' FY2021 gross margin?")
    assert answer.status == "not_meaningful"
    assert "it is a regulated utility (its statements print \"Operation and maintenance\"" \
        in answer.headline, answer.headline
    # its operating margin is computed: a utility prints operating income
    answer = _answered(path, document, 2021, "American Water Works",
                       "What is American Water Works' FY2021 operating margin?")
    assert answer.value == pytest.approx(1_196 / 3_930)


@pytest.mark.parametrize(("path", "document", "year", "company", "value"), [
    # Nike FY2019 prints "Gross profit 17,474" (revenues 39,117 less cost of sales 21,643)
    ("financebench-wide/pdfs/NIKE_2019_10K.pdf", "nike-10k", 2019, "Nike", 17_474e6),
    # 3M 2018 prints no gross profit line: net sales 32,765 less cost of sales 16,682
    ("sec-10k/3M_2018_10K.pdf", "3m-10k", 2018, "3M", 32_765e6 - 16_682e6),
])
def test_gross_profit_is_answered_in_dollars_not_as_a_margin(
        path: str, document: str, year: int, company: str, value: float) -> None:
    answer, marks = _ask(path, document, year, company,
                         f"What was {company}'s gross profit in FY{year}?")
    assert answer.status == "answered", answer.headline
    assert answer.value == pytest.approx(value)
    assert "$" in answer.headline and "%" not in answer.headline, answer.headline
    assert set(marks) == {"valid"}


def test_a_share_of_a_total_is_the_part_over_the_total() -> None:
    # JPMorgan Q2 2023 (p.96): net interest income 21,779 of total net revenue 41,307; the
    # statement also prints "Interest income" 41,644, which is not the part asked
    answer, marks = _ask("financebench-wide/pdfs/JPMORGAN_2023Q2_10Q.pdf", "jpmorgan-10q-q2",
                         2023, "JPMorgan", "What share of JPMorgan's total net revenue in Q2 "
                         "2023 came from net interest income? Round to one decimal place.")
    assert answer.status == "answered"
    assert "52.7%" in answer.headline
    assert {o.printed for o in answer.operands} == {"21,779", "41,307"}
    assert marks and set(marks) == {"valid"}


@pytest.mark.parametrize(("path", "document", "year", "company", "question", "headline_has",
                          "printed"), [
    # "Define it as ..." names what the question asks; the instruction after ";" is no term
    ("financebench-bulk/pdfs/JPMORGAN_2022Q3_10Q.pdf", "jpmorgan-10q-q3", 2022, "JPMorgan",
     "What was JPMorgan's efficiency ratio in Q3 2022? Define it as total noninterest expense "
     "divided by total net revenue; round to one decimal place.", "58.6%",
     {"19,178", "32,716"}),
    # a definition after a comma in the asking sentence, its source notes left out
    ("financebench-bulk/pdfs/WALMART_2022_10K.pdf", "walmart-10k", 2022, "Walmart",
     "What is Walmart's fiscal 2022 dividend payout ratio, defined as dividends paid (cash flow "
     "statement) divided by consolidated net income attributable to Walmart (income statement)?",
     "0.45", {"(6,152)", "$13,673"}),
    # Q1 fiscal 2024 is the three months ended April 30, 2023: the column prints 2023
    ("financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1", 2024, "Walmart",
     "What was Walmart's operating margin for the first quarter of fiscal 2024 (three months "
     "ended April 30, 2023)?", "4.1%", {"6,240", "152,301"}),
    # Costco's cash flow statement prints "Cash dividend payments" (us-gaap:PaymentsOfDividends)
    ("financebench-wide/pdfs/COSTCO_2021_10K.pdf", "costco-10k", 2021, "Costco",
     "How much did Costco pay in cash dividends in FY2021?", "$5,748 million", {"(5,748)"}),
    # an earnings release whose "12 Weeks Ended" heading the reader lost: S-X 10-01 order
    ("financebench-bulk/pdfs/COSTCO_2023Q3_EARNINGS.pdf", "costco-earnings-q3", 2023, "Costco",
     "What was Costco's operating margin in the third quarter of fiscal 2023?", "3.1%",
     {"1,679", "53,648"}),
])
def test_metrics_read_as_the_question_and_the_filing_write_them(
        path: str, document: str, year: int, company: str, question: str, headline_has: str,
        printed: set[str]) -> None:
    answer, marks = _ask(path, document, year, company, question)
    assert answer.status == "answered", answer.headline
    assert headline_has in answer.headline
    assert {o.printed for o in answer.operands} == printed
    assert marks and set(marks) == {"valid"}


def test_a_profile_gives_every_year_the_statements_print() -> None:
    # General Mills FY2019 (p.53 printed, index 52): operating profit / net sales
    # 2,515.9 / 16,865.2 = 14.9%, 2,419.9 / 15,740.4 = 15.4%, 2,492.1 / 15,619.8 = 16.0%
    path, document = "financebench-wide/pdfs/GENERALMILLS_2019_10K.pdf", "general-mills-10k"
    profile = _answered(path, document, 2019, "General Mills",
                        "Does General Mills have an improving operating margin profile as of "
                        "fiscal 2019?")
    assert profile.headline == (
        "No. General Mills' operating margin decreased from 15.4% in FY2018 (operating income "
        "of $2,419.9 million / revenue of $15,740.4 million) to 14.9% in FY2019 (operating "
        "income of $2,515.9 million / revenue of $16,865.2 million), by 0.5 percentage points, "
        "or 50 basis points (a deterioration: higher is better for operating margin), after "
        "16.0% in FY2017; against FY2018, operating income rose $96 million (4.0%) to $2,515.9 "
        "million and revenue rose $1,124.8 million (7.1%) to $16,865.2 million.")
    assert {o.printed for o in profile.operands} >= {"2,492.1", "$15,619.8"}
    # a metric's move asked as a yes or no gives the record too; a change asked plainly, the
    # two years alone
    improved = _answered(path, document, 2019, "General Mills",
                         "Did General Mills' operating margin improve in fiscal 2019?")
    assert improved.headline.startswith("No.") and "after 16.0% in FY2017" in improved.headline
    change = _answered(path, document, 2019, "General Mills",
                       "How did General Mills' operating margin change in fiscal 2019?")
    assert "FY2017" not in change.headline and "2,492.1" not in {
        o.printed for o in change.operands}
    # "over the last three years" asks the record
    record = _answered(path, document, 2019, "General Mills",
                       "Has General Mills' net sales grown over the last three years?")
    assert "after $15,619.8 million in FY2017" in record.headline, record.headline


@pytest.mark.parametrize(("path", "document", "year", "company", "question", "headline"), [
    # Kraft Heinz FY2021 (p.54): operating income 3,460 / interest expense 2,047 = 1.69
    ("financebench-bulk/pdfs/KRAFTHEINZ_2021_10K.pdf", "kraft-heinz-10k", 2021, "Kraft Heinz",
     "How many times did Kraft Heinz's FY2021 operating income cover its interest expense?",
     "Kraft Heinz's FY2021 operating income coverage of interest expense is 1.69 (operating "
     "income of $3,460 million / interest expense of $2,047 million)."),
    # Coca-Cola FY2019 (p.68): gross profit 22,647 / net operating revenues 37,266 = 60.8%
    ("financebench-bulk/pdfs/COCACOLA_2019_10K.pdf", "coca-cola-10k", 2019, "Coca-Cola",
     "What percentage of its FY2019 net operating revenues did Coca-Cola keep as gross profit?",
     "Coca-Cola's FY2019 percent of net operating revenues from gross profit is 60.8% (gross "
     "profit of $22,647 million / revenue of $37,266 million)."),
    ("financebench-bulk/pdfs/COCACOLA_2019_10K.pdf", "coca-cola-10k", 2019, "Coca-Cola",
     "What percentage of Coca-Cola's FY2019 net operating revenues was gross profit?",
     "Coca-Cola's FY2019 percent of net operating revenues from gross profit is 60.8% (gross "
     "profit of $22,647 million / revenue of $37,266 million)."),
    # General Mills FY2019 (p.53): (16,865.2 - 11,108.4) / 16,865.2 = 34.1%
    ("financebench-wide/pdfs/GENERALMILLS_2019_10K.pdf", "general-mills-10k", 2019,
     "General Mills", "What percentage of fiscal 2019 net sales did General Mills keep after "
     "cost of sales (12 months)?",
     "General Mills' FY2019 percent of net sales left after cost of sales is 34.1% ((revenue "
     "of $16,865.2 million - cost of revenue of $11,108.4 million) / revenue of $16,865.2 "
     "million)."),
    # Walmart's Q1 fiscal 2024 10-Q (p.3): "Operating, selling, general and administrative
    # expenses 30,777 29,404", its SG&A caption (Regulation S-X Rule 5-03.4)
    ("financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1", 2024, "Walmart",
     "What was the year-over-year change in Walmart's selling, general and administrative "
     "expenses in Q1 fiscal 2024 (three months ended April 30, 2023)?",
     "Walmart's selling, general and administrative expenses increased from $29,404 million in "
     "the three months ended in 2022 to $30,777 million in the three months ended in 2023, by "
     "$1,373 million (4.7%)."),
    # Corning's Q2 2023 10-Q (p.3): SG&A 440 of net sales 3,243 in the quarter, 6,421 in the
    # six months; "the year to date through Q2" is the second column
    ("financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2", 2023, "Corning",
     "What was Corning's SG&A as a percentage of revenue in Q2 2023?",
     "Corning's Q2 (three months ended in 2023) SG&A as a % of revenue is 13.6% (selling, "
     "general and administrative expenses of $440 million / revenue of $3,243 million)."),
    ("financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2", 2023, "Corning",
     "What were Corning's revenues for the year to date through Q2 2023?",
     "Corning's year-to-date Q2 (six months ended in 2023) revenue is $6,421 million."),
])
def test_a_measure_asked_in_words_is_computed_in_the_column_asked(
        path: str, document: str, year: int, company: str, question: str, headline: str) -> None:
    assert _answered(path, document, year, company, question).headline == headline


def test_rise_or_fall_asks_which_way_and_describe_as_asks_the_judgment() -> None:
    for asked in ("What was the change in Walmart's operating cash flow in fiscal 2024, and "
                  "what explains it?",
                  "How large was the rise in Coca-Cola's operating cash flow in FY2019?",
                  "Coca-Cola's operating cash flow grew in FY2019: by how much?"):
        read = parse_text(asked)
        assert read is not None and read.aggregate == "trend", asked
    asked = parse_text("Did General Mills' total debt rise or fall in fiscal 2019, and for what "
                       "reason?")
    assert asked is not None and (asked.target, asked.aggregate, asked.direction) == (
        "total_debt", "trend", "change")
    assert read_question("Did its debt rise or fall in 2019, and for what reason?"
                         ).expects == "cause"
    judged = parse_text("Would you describe Corning as capital intensive, based on FY2021?")
    assert judged is not None and (judged.judgment, judged.yes_no) == ("capital_intensity", True)
    heavy = parse_text("Does Corning need heavy capital spending relative to its revenue in "
                       "FY2021?")
    assert heavy is not None and heavy.judgment == "capital_intensity"
    assert parse_text("Who are Activision Blizzard's largest customers, and how much of 2019 "
                      "net revenues did each account for?") is None  # the members: prose


def test_line_items_asked_together_are_each_given() -> None:
    # Costco FY2021 cash flows (p.40): dividends (5,748), repurchases of common stock (496)
    path = "financebench-wide/pdfs/COSTCO_2021_10K.pdf"
    answer = _answered(path, "costco-10k", 2021, "Costco",
                       "Did Costco pay dividends or buy back shares in FY2021, and how much?")
    assert answer.headline == ("Yes. Costco's FY2021: cash dividends paid of $5,748 million and "
                               "repurchases of common stock of $496 million.")
    assert {o.printed for o in answer.operands} == {"(5,748)", "(496)"}
    # a metric named with its inputs is that metric, not its inputs each
    retention = parse_text("What is General Mills' FY2022 retention ratio (using total cash "
                           "dividends paid and net income attributable to shareholders)?")
    assert retention is not None and (retention.target, retention.aggregate) == (
        "retention_ratio", "value")
    # a choice between them stays a choice
    chosen = _answered(path, "costco-10k", 2021, "Costco",
                       "Which was larger for Costco in FY2021, dividends or share repurchases?")
    assert chosen.headline.startswith("Costco's cash dividends paid was the higher of the two")


@pytest.mark.parametrize(("path", "document", "company", "question", "headline", "labels"), [
    # Coca-Cola prints no total liabilities row (p.70): total liabilities and equity $86,381
    # less total equity 21,098
    ("financebench-bulk/pdfs/COCACOLA_2019_10K.pdf", "coca-cola-10k", "Coca-Cola",
     "What are Coca-Cola's total liabilities at the end of FY2019?", "$65,283 million",
     {"Total Liabilities and Equity", "Total Equity"}),
    # General Mills' cash flows (p.57) join the investing caption to its first row
    ("financebench-wide/pdfs/GENERALMILLS_2019_10K.pdf", "general-mills-10k", "General Mills",
     "What is General Mills' FY2019 capital expenditure?", "$537.6 million",
     {"Cash Flows - Investing Activities Purchases of land, buildings, and equipment"}),
])
def test_a_line_item_the_statement_prints_in_its_own_shape(
        path: str, document: str, company: str, question: str, headline: str,
        labels: set[str]) -> None:
    answer = _answered(path, document, 2019, company, question)
    assert headline in answer.headline, answer.headline
    assert {o.label for o in answer.operands} == labels


@pytest.mark.parametrize(("path", "document", "year", "question", "headline", "label"), [
    # Walmart's income statement (p.54) prints both, each under its own label
    ("financebench-bulk/pdfs/WALMART_2022_10K.pdf", "walmart-10k", 2022,
     "What was Walmart's diluted EPS in fiscal 2022?", "is $4.87.",
     "Diluted net income per common share attributable to Walmart"),
    ("financebench-bulk/pdfs/WALMART_2022_10K.pdf", "walmart-10k", 2022,
     "What was Walmart's basic earnings per share in fiscal 2022?", "is $4.90.",
     "Basic net income per common share attributable to Walmart"),
    # Costco (p.37): "Diluted" whose per-share caption the reader lost; the share count's
    # "Diluted" row (441,834) is not EPS
    ("financebench-bulk/pdfs/COSTCO_2018_10K.pdf", "costco-10k", 2018,
     "What is Costco's FY2018 EPS?", "is $7.09.", "Diluted"),
    # Coca-Cola (p.74) prints note 3 after the 2017 figure: "$ 0.29 3 $ 1.51 $ 1.69"
    ("financebench-dev/pdfs/COCACOLA_2017_10K.pdf", "coca-cola-10k", 2017,
     "What was Coca-Cola's basic EPS for FY2017?", "is $0.29.", "BASIC NET INCOME PER SHARE"),
])
def test_earnings_per_share_as_the_income_statement_prints_it(
        path: str, document: str, year: int, question: str, headline: str, label: str) -> None:
    answer = _answered(path, document, year, document.split("-")[0].title(), question)
    assert answer.headline.endswith(headline), answer.headline
    assert [o.label for o in answer.operands] == [label]


@pytest.mark.parametrize(("question", "value", "labels"), [
    # Walmart's income statement (p.51): "Operating, selling, general and administrative
    # expenses 108,791", "Total revenues 523,964"; "SG&A" spelled out, "expenses" in both
    ("What is Walmart's FY2020 SG&A ratio? Define it as SG&A expenses divided by total "
     "revenues.", 108_791 / 523_964,
     {"Operating, selling, general and administrative expenses", "Total revenues"}),
    # a definition's "of" is the line item's own word: cost of goods sold is cost of sales
    ("What is Walmart's FY2020 cost of goods sold to total assets, defined as cost of goods "
     "sold divided by total assets?", 394_605 / 236_495, {"Cost of sales", "Total assets"}),
])
def test_a_definitions_terms_are_found_as_the_statement_prints_them(
        question: str, value: float, labels: set[str]) -> None:
    answer = _answered("financebench-wide/pdfs/WALMART_2020_10K.pdf", "walmart-10k", 2020,
                       "Walmart", question)
    assert answer.value == pytest.approx(value)
    assert {o.label for o in answer.operands} == labels


def test_a_definitions_term_in_the_other_name_a_standard_gives_it() -> None:
    """ASC 718 calls it share-based or stock-based: Corning's cash flows (p.68) print
    "Share-based compensation expense 190"; Corning's 2021 net income is $1,906 million."""
    answer = _answered("financebench-wide/pdfs/CORNING_2021_10K.pdf", "corning-10k", 2021,
                       "Corning", "What is Corning's FY2021 stock-based compensation to net "
                       "income, defined as stock-based compensation divided by net income?")
    assert {o.label for o in answer.operands} >= {"Share-based compensation expense"}
    assert answer.value == pytest.approx(190 / 1906, rel=1e-3)


@pytest.mark.parametrize(("path", "document", "year", "company", "value", "shares"), [
    # Walmart (p.51, "Amounts in millions, except per share data"): net income attributable
    # to Walmart 14,881 / 2,868 million, the diluted EPS it prints ($5.19)
    ("financebench-wide/pdfs/WALMART_2020_10K.pdf", "walmart-10k", 2020, "Walmart",
     14_881 / 2_868, "Diluted"),
    # 3M (p.56): 5,349 / 602.0 million, the diluted EPS it prints ($8.89)
    ("sec-10k/3M_2018_10K.pdf", "3m-10k", 2018, "3M", 5_349 / 602.0,
     "Weighted average 3M common shares outstanding — diluted"),
])
def test_a_share_count_is_read_in_the_scale_its_statement_prints(
        path: str, document: str, year: int, company: str, value: float, shares: str) -> None:
    answer = _answered(path, document, year, company,
                       f"What is {company}'s FY{year} earnings per diluted share, defined as "
                       "net income divided by diluted weighted average shares outstanding?")
    assert answer.value == pytest.approx(value, rel=1e-4)
    assert shares in {o.label for o in answer.operands}


@pytest.mark.parametrize(("question", "opens", "verdict"), [
    # General Mills fiscal 2022 (wide): total debt 11,620.4 over equity 10,788.0
    ("Is General Mills highly leveraged based on its FY2022 debt-to-equity ratio?", "No.",
     "debt to equity is 1.08 (total debt of $11,620.4 million and shareholders' equity of "
     "$10,788 million): moderately leveraged"),
    # a debt level asked healthy is a leverage below twice equity; relied on, leverage itself
    ("Does General Mills have a healthy debt level based on its FY2022 debt-to-equity ratio?",
     "Yes.", "debt to equity is 1.08"),
    ("Does General Mills rely heavily on debt financing as of FY2022?", "No.",
     "moderately leveraged"),
    ("Does General Mills have a healthy quick ratio as of FY2022?", "No.",
     "quick ratio is 0.28 (cash and cash equivalents of $569.4 million, accounts receivable of "
     "$1,692.1 million and total current liabilities of $8,019.9 million): weak liquidity"),
    # operating profit 3,475.8 over interest, net 379.6
    ("Can General Mills comfortably cover its interest expense in FY2022?", "Yes.",
     "interest coverage is 9.16 (operating income of $3,475.8 million and interest expense of "
     "$379.6 million): comfortable coverage"),
    ("Is General Mills profitable as of FY2022?", "Yes.", "net profit margin is 14.3% (net "
     "income of $2,707.3 million and revenue of $18,992.8 million): profitable"),
    ("Is General Mills' return on equity healthy in FY2022?", "Yes.", "strong: 15% or more"),
])
def test_leverage_quick_liquidity_coverage_and_profit_are_judged_by_their_rules(
        question: str, opens: str, verdict: str) -> None:
    """judgment_rules.json: each verdict from its own metric and rule, the rule stated (a quick
    ratio's bands are not the current ratio's), the figures it rests on in its first sentence
    (a total computed from its rows as the total)."""
    answer = _answered("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "general-mills-10k",
                       2022, "General Mills", question)
    assert answer.headline.startswith(opens) and verdict in answer.headline, answer.headline
    assert "Rule:" in answer.text


def test_sga_as_a_share_of_net_sales_is_its_caption_over_revenue() -> None:
    """"SG&A as a percentage of net sales": the vocabulary's SG&A over revenue. General Mills
    fiscal 2022: selling, general and administrative expenses 3,147.0 over net sales 18,992.8 =
    16.57 %."""
    answer = _answered("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "general-mills-10k",
                       2022, "General Mills", "What was General Mills' SG&A as a percentage of "
                       "net sales in fiscal 2022?")
    assert round(answer.value, 4) == round(3147.0 / 18992.8, 4)
    assert "16.6%" in answer.headline, answer.headline


def test_depreciation_and_amortization_printed_as_two_rows_are_summed() -> None:
    """Corning 2022's cash flows (p.60) print "Depreciation" 1,329 and "Amortization of
    purchased intangibles" 123 and no total: EBITDA adds both to operating income 1,438;
    net sales 14,189."""
    answer = _answered("financebench-dev/pdfs/CORNING_2022_10K.pdf", "corning-10k", 2022,
                       "Corning", "What is Corning's FY2022 unadjusted EBITDA margin? Define "
                       "unadjusted EBITDA as operating income plus depreciation and "
                       "amortization from the cash flow statement, divided by revenue.")
    assert round(answer.value, 4) == round((1438 + 1329 + 123) / 14189, 4), answer.headline
    assert "20.4%" in answer.headline


@pytest.mark.parametrize(("path", "document", "year", "company", "question", "headline"), [
    # General Mills fiscal 2022 (p.48): "Issuance of long-term debt 2,203.7", "Payment of
    # long-term debt (3,140.9)"
    ("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "general-mills-10k", 2022,
     "General Mills", "Did General Mills issue or repay any debt in fiscal 2022?",
     "Yes. General Mills' FY2022: proceeds from issuance of long-term debt of $2,203.7 million "
     "and repayments of long-term debt of $3,140.9 million."),
    ("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "general-mills-10k", 2022,
     "General Mills", "How much long-term debt did General Mills repay in FY2022?",
     "General Mills' FY2022 repayments of long-term debt is $3,140.9 million."),
    # JPMorgan Q1 2021 (p.82): "Proceeds from long-term borrowings 24,162", "Payments of
    # long-term borrowings (14,983)"
    ("financebench-wide/pdfs/JPMORGAN_2021Q1_10Q.pdf", "jpmorgan-10q-q1", 2021, "JPMorgan",
     "Did JPMorgan issue or repay any debt in Q1 2021?",
     "Yes. JPMorgan's Q1 (three months ended in 2021): proceeds from issuance of long-term debt "
     "of $24,162 million and repayments of long-term debt of $14,983 million."),
    # Netflix Q2 2023 (p.5): "Repayments of debt — — — (700,000)" (three months 2023 and
    # 2022, six months 2023 and 2022) and no row of debt issued: the quarter had neither
    ("financebench-bulk/pdfs/NETFLIX_2023Q2_10Q.pdf", "netflix-10q-q2", 2023, "Netflix",
     "Did Netflix issue or repay any debt in Q2 2023?",
     "No. Netflix's Q2 (three months ended in 2023): repayments of long-term debt of $0 (the "
     "statements print no proceeds from issuance of long-term debt)."),
])
def test_debt_issued_or_repaid_is_read_from_financing_activities(
        path: str, document: str, year: int, company: str, question: str, headline: str
        ) -> None:
    """An issuance or a repayment is a flow of the period (the cash flow statement's financing
    activities), never the balance at its end; "No" when the period's column prints one of
    them as nil and no row of debt flows has a figure."""
    answer = _answered(path, document, year, company, question)
    assert answer.headline == headline


def test_no_is_not_said_while_another_row_of_debt_moved() -> None:
    """"No" needs every row of debt flows nil in the period: a row the vocabulary does not know
    ("Proceeds from borrowings under the credit facility 250") keeps the answer from it."""
    from rag_assets.core.generation.metric_engine import _DEBT_ROW_RE
    assert _DEBT_ROW_RE.search("Proceeds from borrowings under the credit facility")
    assert _DEBT_ROW_RE.search("Short-term borrowings, net")
    assert not _DEBT_ROW_RE.search("Foreign currency remeasurement loss (gain) on debt")
    assert not _DEBT_ROW_RE.search("Amortization of debt issuance costs")


def test_debt_issued_rows_of_a_column_are_added() -> None:
    """Corning's six months to July 2, 2023 (p.5): "Proceeds from issuance of euro bonds 918"
    and "Proceeds from issuance of other long-term debt 20": 938 of long-term debt issued."""
    _, facts = _filing("financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2", 2023)
    issued = [f for f in facts if f.concept == "debt_issued" and f.fiscal_year == 2023]
    assert [(f.months, f.value) for f in issued] == [(6, 938e6)]


def test_a_ratio_shown_with_its_percentage_states_its_operands_in_one_aside() -> None:
    """American Water 2020 (p.83): cash 547 and receivables 321 over current liabilities
    2,881 = 0.30, written "0.30 (30.1%)" to two decimals; its operands join that aside."""
    answer = _answered("financebench-dev/pdfs/AMERICANWATERWORKS_2020_10K.pdf",
                       "american-water-works-10k", 2020, "American Water Works",
                       "Does American Water Works have a healthy quick ratio as of FY2020?")
    assert "quick ratio is 0.30 (30.1%; cash and cash equivalents of $547 million, accounts " \
        "receivable of $321 million and total current liabilities of $2,881 million): weak " \
        "liquidity" in answer.headline, answer.headline


def test_a_years_dividends_per_share_is_read_from_the_statements() -> None:
    """General Mills prints "Dividends per share $ 2.04 $ 2.02 $ 1.96" under its income
    statement (p.45): a year's dividends per share is that row, not the dividends paid in
    dollars; a quarterly dividend declared is left to the filing's sentences."""
    path, document = "financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "general-mills-10k"
    answer = _answered(path, document, 2022, "General Mills",
                       "How much did General Mills pay in dividends per share in FY2022?")
    assert answer.headline == "General Mills' FY2022 dividends per share is $2.04."
    assert parse_text("What quarterly dividend per share did General Mills declare in fiscal "
                      "2022?") is None


def test_a_label_wrapped_over_two_lines_is_read_whole() -> None:
    """Corning 2020 (p.72) prints "Property, plant and equipment, net of accumulated
    depreciation -" over "$13,663 and $12,995 (Note 9) 15,742 15,337": one row, its dash and
    the accumulated depreciation its label's, the net PP&E its figures."""
    path, document = "financebench-wide/pdfs/CORNING_2020_10K.pdf", "corning-10k"
    _, facts = _filing(path, document, 2020)
    ppe = {f.fiscal_year: f.value for f in facts if f.concept == "ppe_net"}
    assert ppe == {2020: 15_742e6, 2019: 15_337e6}
    answer = _answered(path, document, 2020, "Corning",
                       "What is Corning's FY2020 fixed asset turnover?")
    assert answer.headline == ("Corning's FY2020 fixed asset turnover is 0.73 (revenue of "
                               "$11,303 million / average PP&E (net) of $15,539.5 million).")


def test_capital_intensity_states_every_measure_an_analyst_reads_it_on() -> None:
    """Corning 2020: capex 1,377 of net sales 11,303 (12.2%), depreciation 1,399 printed apart
    from the amortization of purchased intangibles 121 (12.4%, not D&A's 1,520), net PP&E
    15,742 of total assets 30,775 (51.2%), and the turnovers, in the first sentence."""
    answer = _answered("financebench-wide/pdfs/CORNING_2020_10K.pdf", "corning-10k", 2020,
                       "Corning", "Is Corning a capital-intensive business?")
    assert answer.headline.startswith(
        "Yes. Corning's FY2020 capex as a % of revenue is 12.2% (capital expenditure of $1,377 "
        "million and revenue of $11,303 million): capital-intensive; its depreciation as a % "
        "of revenue is 12.4% (depreciation of $1,399 million / revenue), its net PP&E as a % of "
        "total assets is 51.2% (PP&E (net) of $15,742 million / total assets of $30,775 "
        "million), its fixed asset turnover is 0.73 (revenue / average PP&E (net) of "
        "$15,539.5 million)"), answer.headline
    assert {"1,399", "$30,775"} <= {o.printed for o in answer.operands}


def test_a_margins_move_is_also_said_in_the_basis_points_of_the_points_shown() -> None:
    """General Mills 2022: gross margin 35.6% to 33.7% (6,402.2 / 18,992.8 against 6,448.3 /
    18,127.3), 1.9 points as shown, so 190 basis points (187 unrounded would disagree)."""
    answer = _answered("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf",
                       "general-mills-10k", 2022, "General Mills",
                       "Does General Mills have an improving gross margin profile as of FY2022?")
    assert "from 35.6% in FY2021 (gross profit of $6,448.3 million / net sales of $18,127 " \
           "million) to 33.7% in FY2022 (gross profit of $6,402.2 million / net sales of " \
           "$18,992.8 million), by 1.9 percentage points, or 190 basis points (a deterioration" \
           in answer.headline, answer.headline


def test_note_marks_in_parentheses_take_no_column() -> None:
    """Corning 2015 (bulk, p.87) prints "Dividends declared per common share (1) $ 0.36
    $ 0.52 $ 0.39 (1)": its note (the first quarter's dividend declared the December before)
    marks the label and the row, and takes no column from the figures."""
    _, facts = _filing("financebench-bulk/pdfs/CORNING_2015_10K.pdf", "corning-10k", 2015)
    declared = {f.fiscal_year: f.value for f in facts if f.concept == "dividends_per_share"}
    assert declared == {2015: 0.36, 2014: 0.52, 2013: 0.39}


def test_debt_due_within_the_next_year_is_the_short_term_debt() -> None:
    """"Debt due within the next year" is the debt the balance sheet lists as current: General
    Mills' notes payable 811.4 and current portion of long-term debt 1,674.2 (p.47), not its
    total debt."""
    answer = _answered("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "general-mills-10k",
                       2022, "General Mills",
                       "Does General Mills have any debt due within the next year?")
    assert answer.headline == "Yes. General Mills' FY2022 short-term debt is $2,485.6 million."


def test_goodwill_is_the_balance_sheets_line() -> None:
    """Goodwill is a line of its own (ASC 350-20-45-1): Corning 2022's "Goodwill, net (Note 9)
    2,394" (p.60), never a note's gross balance."""
    answer = _answered("financebench-dev/pdfs/CORNING_2022_10K.pdf", "corning-10k", 2022,
                       "Corning", "How much goodwill did Corning report at the end of FY2022?")
    assert answer.headline == "Corning's FY2022 goodwill is $2,394 million."


@pytest.mark.parametrize(("path", "document", "company", "sales", "cost"), [
    # Costco FY2018, p.37: net sales 138,434 above membership fees, merchandise costs 123,152
    ("financebench-bulk/pdfs/COSTCO_2018_10K.pdf", "costco-10k", "Costco", 138_434, 123_152),
    # Walmart FY2018, p.57: net sales 495,761 above membership and other income, cost of
    # sales 373,396 (its MD&A's "gross profit rate" is over net sales too)
    ("financebench-wide/pdfs/WALMART_2018_10K.pdf", "walmart-10k", "Walmart", 495_761, 373_396),
])
def test_a_retailers_gross_margin_is_over_the_net_sales_its_costs_are_of(
        path: str, document: str, company: str, sales: int, cost: int) -> None:
    answer = _answered(path, document, 2018, company,
                       f"What is {company}'s FY2018 gross margin?")
    assert answer.value == pytest.approx((sales - cost) / sales)
    assert any(o.label == "Net sales" for o in answer.operands)


ULTA_FY2022 = ("financebench-wide/pdfs/ULTABEAUTY_2023Q4_EARNINGS.pdf", "ulta-beauty-earnings-q4",
               2023, "Ulta Beauty")
WALMART_FY2022 = ("financebench-bulk/pdfs/WALMART_2022_10K.pdf", "walmart-10k", 2022, "Walmart")


def test_whether_one_amount_covers_another_is_said_with_both_and_the_gap() -> None:
    """"Was its free cash flow enough to cover its share repurchases?" is the coverage A / B,
    yes at 1 or more, said with both amounts (a computed one with its computation in words),
    the gap and the share of A that B took. Ulta Beauty's release for fiscal
    2022 (p.9): operating cash flow 1,481,915, capital expenditures (312,126), repurchase of
    common shares (900,033), in thousands: a cash flow statement's "shares" row is cash."""
    free = _answered(*ULTA_FY2022, "Was Ulta Beauty's free cash flow in the year ended January "
                                   "28, 2023 enough to cover its share repurchases?")
    assert free.headline == (
        "Yes. Ulta Beauty's FY2023 free cash flow of $1,169.789 million (cash flow from "
        "operating activities of $1,481.915 million - capital expenditure of $312.126 million) "
        "covered its share repurchases of $900.033 million: $269.756 million to spare (1.30 "
        "times: its share repurchases took 76.9% of it).")
    # a balance's date after the term ends it: "short-term debt at the end of FY2022" is
    # short-term debt (Walmart 2022, p.55: cash 14,760; borrowings 410 + due within a year
    # 2,803)
    dated = _answered(*WALMART_FY2022, "Does Walmart have sufficient cash to cover its "
                      "short-term debt at the end of FY2022?")
    assert dated.headline.startswith("Yes. Walmart's FY2022 cash of $14,760 million covered its "
                                     "short term debt of $3,213 million"), dated.headline
    # the measure after "enough", its subject the company
    generated = _answered(*ULTA_FY2022, "Did Ulta Beauty generate enough operating cash flow "
                                        "in the year ended January 28, 2023 to cover its "
                                        "capital expenditures?")
    assert generated.headline.startswith(
        "Yes. Ulta Beauty's FY2023 operating cash flow of $1,481.915 million covered its capital "
        "expenditures of $312.126 million"), generated.headline
    both = _answered(*ULTA_FY2022, "Was Ulta Beauty's operating cash flow in the year ended "
                                   "January 28, 2023 sufficient to fund its capital "
                                   "expenditures and share repurchases?")
    assert both.value == pytest.approx(1_481_915 / (312_126 + 900_033))
    assert both.headline.startswith("Yes. Ulta Beauty's FY2023 operating cash flow of "
                                    "$1,481.915 million covered its capital expenditures and "
                                    "share repurchases of $1,212.159 million")
    # an item of the list no row prints: not computed, never the others read as all of it
    listed, _ = _ask(*ULTA_FY2022, "Was Ulta Beauty's operating cash flow in the year ended "
                                   "January 28, 2023 sufficient to fund its capital "
                                   "expenditures, share repurchases and store openings?")
    assert listed.status == "missing" and 'a row "store openings"' in listed.headline
    # the outflow named by what the cash was spent doing, and "did ... cover" without "enough"
    spent = _answered(*ULTA_FY2022, "Was Ulta Beauty's free cash flow in the year ended January "
                                    "28, 2023 enough to cover the cash it spent repurchasing its "
                                    "shares?")
    assert spent.headline == (
        "Yes. Ulta Beauty's FY2023 free cash flow of $1,169.789 million (cash flow from "
        "operating activities of $1,481.915 million - capital expenditure of $312.126 million) "
        "covered its repurchases of common stock of $900.033 million: $269.756 million to "
        "spare (1.30 times: its repurchases of common stock took 76.9% of it).")
    plain = _answered(*ULTA_FY2022, "Did Ulta Beauty's operating cash flow in the year ended "
                                    "January 28, 2023 cover its capital expenditures?")
    assert plain.headline.startswith("Yes. Ulta Beauty's FY2023 operating cash flow of "
                                     "$1,481.915 million covered its capital expenditures of "
                                     "$312.126 million"), plain.headline


@pytest.mark.parametrize("question", [
    "What share of Walmart's total fiscal 2020 capital expenditures went to eCommerce, "
    "technology, supply chain and other?",
    "By how much did Walmart's capital spending on new stores and clubs (including expansions "
    "and relocations) change from fiscal 2019?",
    "What was Walmart's interest expense on its finance lease obligations in fiscal 2020?",
    "What was the operating income of Walmart's Sam's Club segment in fiscal 2020?",
    "What was Walmart's operating income for Sam's Club in fiscal 2020?",
    "What was Walmart's revenue in fiscal 2020 on a constant currency basis?",
])
def test_a_part_of_a_measure_is_never_answered_with_its_total(question: str) -> None:
    """Walmart's fiscal 2020 10-K prints capital expenditures of 10,705 in total (p.56),
    interest, net 2,410 (p.51) and operating income 20,568, of which Sam's Club 1,642: what
    went to eCommerce, new stores, finance leases or one segment is a part, read from MD&A or a
    note, never the consolidated line."""
    path, document, year = "financebench-wide/pdfs/WALMART_2020_10K.pdf", "walmart-10k", 2020
    pages, facts = _filing(path, document, year)
    route = FactsRoute(facts=lambda d, y: facts, pages=PageTexts.from_pages(document, year, pages),
                       held_years=lambda d: [year], company=lambda d: "Walmart")
    found = route.answer(read_question(question), Scope.partition(document, year))
    assert found is None or found[0] is None
    total = route.answer(read_question("What were Walmart's capital expenditures in fiscal "
                                       "2020?"), Scope.partition(document, year))
    assert total is not None and total[0] is not None and "10,705" in total[1].headline


def test_spending_on_an_activity_is_the_expense_its_statement_prints() -> None:
    """Corning 2020 (p.70): "Research, development and engineering expenses 1,154" of net sales
    11,303: "R&D spending as a share of sales" is 10.2%, read from that row."""
    answer = _answered("financebench-wide/pdfs/CORNING_2020_10K.pdf", "corning-10k", 2020,
                       "Corning", "What was Corning's research and development spending as a "
                       "share of sales in 2020?")
    assert answer.headline.endswith(
        "is 10.2% (research and development expenses of $1,154 million / revenue "
        "of $11,303 million)."), answer.headline
    assert {o.printed for o in answer.operands} == {"1,154", "$11,303"}


def test_a_quarter_of_cash_flows_is_the_year_to_date_the_10q_prints_said_as_such() -> None:
    """Corning's Q2 2023 10-Q (p.6) prints its cash flow statement for the six months only
    (Regulation S-X Rule 10-01(c)(4)): operating activities 570, capital expenditures (770).
    A quarter's free cash flow is given for the six months, said so, never "not found"; a
    quarter of the income statement stays the quarter."""
    path, document = "financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2"
    flows = _answered(path, document, 2023, "Corning",
                      "What was Corning's free cash flow in Q2 2023?")
    assert flows.headline.startswith("Corning's six months ended in 2023 free cash flow is "
                                     "-$200 million"), flows.headline
    assert "it prints no three-month figure" in flows.details[0]
    margin = _answered(path, document, 2023, "Corning",
                       "What was Corning's operating margin in Q2 2023?")
    assert margin.headline.startswith("Corning's Q2 (three months ended in 2023) operating "
                                      "margin is 8.6%"), margin.headline


def test_net_income_is_the_parents_share_where_the_statement_prints_both() -> None:
    """Walmart FY2020 (p.51): "Consolidated net income 15,201", of which the noncontrolling
    interest's (320), "Consolidated net income attributable to Walmart 14,881": a company's
    net income is its own share (ASC 810-10-50-1A), as its EPS is."""
    answer = _answered("financebench-wide/pdfs/WALMART_2020_10K.pdf", "walmart-10k", 2020,
                       "Walmart", "What was Walmart's FY2020 net income?")
    assert answer.headline == "Walmart's FY2020 net income is $14,881 million.", answer.headline
    assert [o.label for o in answer.operands] == ["Consolidated net income attributable to Walmart"]
    # Kraft Heinz FY2021 (p.54): "Net income/(loss) 1,024", "... attributable to common
    # shareholders 1,012": the shareholders', however the row that includes the others is named
    kraft = _answered("financebench-bulk/pdfs/KRAFTHEINZ_2021_10K.pdf", "kraft-heinz-10k", 2021,
                      "Kraft Heinz", "What was Kraft Heinz's FY2021 net income?")
    assert kraft.headline == "Kraft Heinz's FY2021 net income is $1,012 million.", kraft.headline


def test_a_yes_or_no_about_a_quarter_is_not_answered_from_the_year_to_date() -> None:
    """"Did Corning issue or repay any debt in Q2 2023?": its 10-Q's cash flow statement
    prints the six months only; what it issued in the half says nothing of the quarter."""
    answer, _ = _ask("financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2", 2023,
                     "Corning", "Did Corning issue or repay any debt in Q2 2023?")
    assert answer.status != "answered" or "six months" not in answer.headline, answer.headline


def test_a_ratio_read_on_the_amounts_the_question_names() -> None:
    """"Financial leverage ... based on its long-term debt and stockholders' equity" is debt to
    equity with the debt the question names: Netflix's long-term debt 885.849 and 2,371.362
    over equity 1,857.708 and 2,223.426 (p.43), 0.48 to 1.07, each year's operands given."""
    path, document = "financebench-wide/pdfs/NETFLIX_2015_10K.pdf", "netflix-10k"
    asked = ("Did Netflix's financial leverage increase in 2015, based on its long-term debt and "
             "stockholders' equity at year-end 2015 versus 2014?")
    parsed = parse_text(asked)
    assert parsed is not None and parsed.stated == "long_term_debt / equity"
    answer = _answered(path, document, 2015, "Netflix", asked)
    assert answer.headline.startswith(
        "Yes. Netflix's debt to equity increased from 0.48 in FY2014 (long-term debt (including "
        "the current portion) of $885.849 million / shareholders' equity of $1,857.708 million) "
        "to 1.07 in FY2015"), answer.headline
    # the ratio asked by its name alone keeps its own operands
    plain = parse_text("What is Netflix's FY2015 debt to equity ratio, based on its total debt "
                       "and shareholders' equity?")
    assert plain is not None and plain.stated is None


GM_FY2022 = ("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "general-mills-10k", 2022,
             "General Mills")


@pytest.mark.parametrize(("question", "headline"), [
    # whether it returns cash: the capital-return judgment on the amount, its rule stated
    ("Did General Mills return cash to shareholders in fiscal 2022, and how much?",
     "Yes. General Mills' FY2022 cash returned to shareholders is $2,121.3 million (cash "
     "dividends paid of $1,244.5 million and repurchases of common stock of $876.8 million): "
     "returning cash to its shareholders; its dividend payout ratio is 0.46"),
    # "its dividend" is the rate declared per share (p.45: $2.04 against $2.02), not the
    # total paid, which fell with the share count ($1,244.5 million against $1,246.4 million)
    ("Did General Mills increase its dividend in fiscal 2022?",
     "Yes. General Mills' dividends per share increased from $2.02 in FY2021 to $2.04 in "
     "FY2022"),
    # a quality asked of the debt is the leverage judgment, never "Yes" from its size
    ("Is General Mills' debt load manageable relative to its earnings?",
     "Yes. General Mills' FY2022 debt to equity is 1.08 (total debt of $11,620.4 million and "
     "shareholders' equity of $10,788 million): moderately leveraged; its interest coverage "
     "is 9.16"),
    # a comparison with another year is the move between them (p.47: cash and cash equivalents
    # 569.4 against 1,505.2), never a yes because there is cash
    ("Did General Mills have more cash at the end of fiscal 2022 than at the end of fiscal 2021?",
     "No. General Mills' cash and cash equivalents decreased from $1,505.2 million in FY2021 to "
     "$569.4 million in FY2022"),
    # "less ... than the prior year" asks down (p.49: 568.7 against 530.8)
    ("Did General Mills spend less on capital expenditures in fiscal 2022 than the prior year?",
     "No. General Mills' capital expenditure increased from $530.8 million in FY2021 to "
     "$568.7 million in FY2022"),
    # a level is no other period: "more than 21%" stays a threshold
    ("Was General Mills' effective tax rate in fiscal 2022 more than 21%?",
     "No. General Mills' FY2022 effective tax rate is 18.3%"),
    # an act asked in the present ("is it buying back") is whether there is any (p.49: 876.8)
    ("Is General Mills buying back its shares?",
     "Yes. General Mills' FY2022 repurchases of common stock is $876.8 million"),
])
def test_a_yes_or_no_is_what_the_question_asks_of_the_amount(question: str,
                                                             headline: str) -> None:
    answer = _answered(*GM_FY2022, question)
    assert answer.headline.startswith(headline), answer.headline


def test_return_on_equity_is_over_the_parents_equity_and_its_move_over_year_ends() -> None:
    """Coca-Cola 2019 (p.64): net income attributable to shareowners 8,920 and 6,434 over the
    equity attributable to them, 18,981 and 16,981, not the total equity with noncontrolling
    interests (21,098); the balance sheet prints two year-ends, so ROE's move is over year-end
    equity, said so: 37.9% to 47.0%."""
    path, document = "financebench-bulk/pdfs/COCACOLA_2019_10K.pdf", "coca-cola-10k"
    level = _answered(path, document, 2019, "Coca-Cola",
                      "What was Coca-Cola's return on equity in 2019?")
    assert level.headline == (
        "Coca-Cola's FY2019 return on equity (ROE) is 49.6% (net income of $8,920 million / "
        "average shareholders' equity attributable to the company of $17,981 million)."), \
        level.headline
    moved = _answered(path, document, 2019, "Coca-Cola",
                      "Did Coca-Cola's return on equity improve in 2019?")
    assert moved.headline.startswith("Yes. Coca-Cola's return on equity (ROE) increased from "
                                     "37.9% in FY2018"), moved.headline
    assert "computed on year-end balances" in moved.details[0]
    leverage = _answered(path, document, 2019, "Coca-Cola",
                         "What is Coca-Cola's FY2019 debt to equity ratio?")
    assert "shareholders' equity of $21,098 million" in leverage.headline  # the total's


def test_the_instruments_and_their_terms_are_asked_of_the_prose() -> None:
    """"What debt did Corning issue ..., and on what terms?" asks for the notes, their rates
    and maturities (the 10-Q's debt note: "€300 million 3.875% Notes due 2026 ..."), not the
    cash flow statement's proceeds; an amount asked beside them keeps its computation."""
    assert parse_text("What debt did Corning issue in the second quarter of 2023, and on what "
                      "terms?") is None
    assert parse_text("On what terms did Corning borrow in 2023?") is None
    both = parse_text("What debt did Corning issue in the second quarter of 2023, on what "
                      "terms, and how much did its total debt change between December 31, 2022 "
                      "and June 30, 2023?")
    assert both is not None and both.target == "total_debt"
    assert parse_text("How much debt did Corning issue in 2023?") is not None


def test_a_value_asked_with_how_it_compares_with_the_prior_year_is_its_change() -> None:
    """Costco's Q3 fiscal 2023 release (p.3): net income 1,302 against 1,353 a year before;
    "..., and how did it compare with the prior year?" asks the move, both amounts given."""
    answer = _answered("financebench-bulk/pdfs/COSTCO_2023Q3_EARNINGS.pdf",
                       "costco-earnings-q3", 2023, "Costco",
                       "What was Costco's net income for the third quarter of fiscal 2023, and "
                       "how did it compare with the prior year?")
    assert answer.headline.startswith(
        "Costco's net income decreased from $1,353 million in the three months ended in 2022 "
        "to $1,302 million in the three months ended in 2023, by $51 million (3.8%)"), \
        answer.headline


@pytest.mark.parametrize(("question", "headline"), [
    # a judgment's measure asked how it moved is the move of its metric, not the verdict
    ("Did Coca-Cola's leverage increase in 2019?",
     "No. Coca-Cola's debt to equity decreased from 2.32 in FY2018 (total debt of $44,214 "
     "million / shareholders' equity of $19,058 million) to 2.03 in FY2019"),
    ("Did Coca-Cola's liquidity improve in 2019?",
     "No. Coca-Cola's current ratio decreased from 0.87 in FY2018"),
    # and asked as a level, the verdict
    ("Is Coca-Cola's leverage high?",
     "Yes. Coca-Cola's FY2019 debt to equity is 2.03"),
])
def test_a_judgments_measure_asked_how_it_moved_is_its_metrics_move(question: str,
                                                                   headline: str) -> None:
    answer = _answered("financebench-bulk/pdfs/COCACOLA_2019_10K.pdf", "coca-cola-10k", 2019,
                       "Coca-Cola", question)
    assert answer.headline.startswith(headline), answer.headline


@pytest.mark.parametrize(("question", "headline"), [
    # "strengthen" and "weaken" ask a move as "improve" does; "Works'" is a possessive too
    ("Did American Water Works' liquidity position strengthen during the first half of 2023?",
     "Yes. American Water Works' current ratio increased from 0.44 at the end of its preceding "
     "fiscal year"),
    ("Is American Water Works' liquidity weakening in the first half of 2023?",
     "No. American Water Works' current ratio increased from 0.44"),
    ("Has American Water Works' leverage increased during the first half of 2023?",
     "No. American Water Works' debt to equity decreased from 1.57"),
    # "is ... weakening" with a degree after it asks the move too
    ("Is American Water Works' liquidity weakening further in the first half of 2023?",
     "No. American Water Works' current ratio increased from 0.44"),
    # a verdict asked beside a move of something else asks the verdict: "healthy with
    # inventories rising", "adequate despite a weakening economy"
    ("Is American Water Works' liquidity position healthy with inventories rising?",
     "Yes. American Water Works' FY2023 current ratio is 1.13"),
    ("Has American Water Works' liquidity remained adequate despite a weakening economy?",
     "Yes. American Water Works' FY2023 current ratio is 1.13"),
])
def test_a_judgments_measure_asked_whether_it_strengthened_is_its_move_over_the_half(
        question: str, headline: str) -> None:
    """American Water's Q2 2023 10-Q (pp.6-7): current assets 1,989 and 1,250, current
    liabilities 1,764 and 2,811 at June 30, 2023 and December 31, 2022."""
    answer = _answered("financebench-bulk/pdfs/AMERICANWATERWORKS_2023Q2_10Q.pdf",
                       "american-water-works-10q-q2", 2023, "American Water Works", question)
    assert answer.headline.startswith(headline), answer.headline


@pytest.mark.parametrize(("question", "opening"), [
    ("Did Netflix's revenue growth accelerate in 2017?", "Yes."),
    ("Did Netflix's revenue growth slow in 2017?", "No."),
])
def test_a_growth_rate_asked_whether_it_sped_up_is_its_move(question: str, opening: str) -> None:
    """Netflix 2017 (p.20): revenues 11,692.713, 8,830.669 and 6,779.511: growth 30.3% in 2016
    and 32.4% in 2017, so it accelerated; never the 2017 rate alone."""
    answer = _answered("financebench-wide/pdfs/NETFLIX_2017_10K.pdf", "netflix-10k", 2017,
                       "Netflix", question)
    assert answer.headline.startswith(f"{opening} Netflix's revenue growth increased from 30.3% "
                                      f"in FY2016"), answer.headline


def _change_of(path: str, document: str, year: int, question: str,
                    company: str = "Walmart") -> str:
    """The change a cause question asks of one filing (Walmart's unless ``company`` says),
    its citations all valid."""
    pages, facts = _filing(path, document, year)
    texts = PageTexts.from_pages(document, year, pages)
    route = FactsRoute(facts=lambda d, y: facts, pages=texts, held_years=lambda d: [year],
                       company=lambda d: company)
    change = route.change(read_question(question), document, year)
    assert change is not None
    marks = [c.mark for c in verify_claims([change.claim], texts)[0].citations]
    assert marks and set(marks) == {"valid"}, marks
    return change.claim.text


def test_net_incomes_change_is_shown_with_the_lines_the_statement_makes_it_of() -> None:
    """Walmart's fiscal 2020 10-K (wide, p.52): net income attributable to Walmart rose from
    6,670 to 14,881 while operating income fell from 21,957 to 20,568; pretax income rose from
    11,460 to 20,116, so the items between them added 10,045, the most on the row printed
    between them that moved most ("Other (gains) and losses", 8,368 to (1,958)); income taxes
    rose from 4,281 to 4,915. The largest leads; what is left below taxes (189) is too small to
    name."""
    text = _change_of("financebench-wide/pdfs/WALMART_2020_10K.pdf", "walmart-10k", 2020,
                           "What drove the change in Walmart's net income in fiscal 2020?")
    assert text == (
        "Walmart's net income increased from $6,670 million in FY2019 to $14,881 million in "
        "FY2020, by $8,211 million (123.1%): the items between operating income and pretax "
        "income added $10,045 million (pretax income's change less operating income's; the "
        "most, \"Other (gains) and losses\", from 8,368 to (1,958)); "
        "operating income decreased from $21,957 million to $20,568 million; income tax "
        "expense increased from $4,281 million to $4,915 million."), text


def test_a_change_led_by_income_taxes_says_how_the_effective_rate_moved() -> None:
    """Coca-Cola's 2017 10-K (dev): net income fell from 6,527 to 1,248 as income taxes rose
    from 1,586 to 5,560 (p.74), the largest part; the rate is each year's taxes over pretax
    income (1,586 / 8,136 and 5,560 / 6,742), and its reconciliation (p.60) moved most on the
    Tax Reform Act's line, none in 2016 and 53.5% in 2017. Walmart's fiscal 2020 change, led
    by the items above taxes, says no rate (above)."""
    text = _change_of("financebench-dev/pdfs/COCACOLA_2017_10K.pdf", "coca-cola-10k", 2017,
                           "Why did Coca-Cola's net income fall in 2017?", "Coca-Cola")
    assert ("income tax expense increased from $1,586 million to $5,560 million (effective tax "
            "rate increased 63.0 percentage points from 19.5% to 82.5%, its rate reconciliation "
            "(p.60) moved most on Tax Reform Act, 0% to 53.5%); operating income decreased") in \
        text, text


def test_an_operating_margins_expense_ratio_names_the_row_that_moved_it_most() -> None:
    """General Mills' fiscal 2015 10-K (bulk): operating margin fell from 16.5% to 11.8%, its
    expense ratio up from 19.1% to 22.0%; of the rows between cost of sales and operating
    profit, restructuring, impairment and other exit costs rose most as a share of net sales
    (3.6 of 17,909.6 to 543.9 of 17,630.3), more than selling, general and administrative
    expenses fell; its own move, $540.3 million, is said without a percentage (it was next to
    nothing the year before)."""
    text = _change_of("financebench-bulk/pdfs/GENERALMILLS_2015_10K.pdf", "general-mills-10k",
                      2015, "What drove the change in General Mills' operating margin in fiscal "
                      "2015?", "General Mills")
    assert ("gross margin decreased 190 basis points as shown (182 unrounded) from 35.6% to "
            "33.7% and operating expense ratio increased 290 basis points from 19.1% to 22.0% "
            "(the most, \"Restructuring, "
            "impairment, and other exit costs\", from 0.0% to 3.1% of net sales, as it rose "
            "$540.3 million).") in text, text


def test_a_row_that_moved_against_the_expense_ratio_is_not_named() -> None:
    """General Mills' fiscal 2023 annual report (bulk, p.42): the expense ratio rose 15.4% to
    15.5%. The divestitures gain moved most (-194.1 to -444.6: -1.0% to -2.2% of net sales,
    1.2 points), but against the ratio: it did not raise it. Selling, general and
    administrative expenses, 16.6% to 17.4% (3,147.0 / 18,992.8 to 3,500.4 / 20,094.2), moved
    most of the rows that raised it, and rose $353.4 million (11.2%) itself."""
    text = _change_of("financebench-bulk/pdfs/GENERALMILLS_2023_annualreport.pdf",
                      "general-mills-10k-annualreport", 2023, "What drove the change in "
                      "General Mills' operating margin in fiscal 2023?", "General Mills")
    assert ("operating expense ratio increased 10 basis points from 15.4% to 15.5% (the most, "
            "\"Selling, general, and administrative expenses\", from 16.6% to 17.4% of net sales, "
            "as it rose $353.4 million (11.2%))") in text
    assert "Divestitures" not in text


def test_a_margin_without_a_gross_margin_names_the_expense_row_that_moved_it() -> None:
    """American Water's 2021 10-K (dev): a utility's income statement prints operating
    revenues, then its operating expenses, and no gross profit, so no gross margin bridges the
    operating margin (33.0% to 30.4%). Of the rows between, operation and maintenance moved
    most against it: 1,622 / 3,777 = 42.9% to 1,777 / 3,930 = 45.2% of operating revenues, as it
    rose $155 million (9.6%)."""
    text = _change_of("financebench-dev/pdfs/AMERICANWATERWORKS_2021_10K.pdf",
                      "american-water-works-10k", 2021, "What drove the change in American "
                      "Water Works' operating margin in FY2021?", "American Water Works")
    assert text.endswith(": its expenses rose as a share of revenue, the most on \"Operation "
                         "and maintenance\", from 42.9% to 45.2% of operating revenues, as it "
                         "rose $155 million (9.6%)."), text


def test_a_quarters_net_income_is_bridged_in_the_quarters_columns() -> None:
    """Walmart's 10-Q for Q1 fiscal 2024 (bulk, p.3): net income 2,054 to 1,673 as operating
    income rose 5,318 to 6,240; the row between that moved most is "Other (gains) and losses",
    1,998 to 2,995 in the three months' columns."""
    text = _change_of("financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1",
                           2024, "What drove the change in Walmart's net income in Q1 fiscal "
                           "2024?")
    assert ("the items between operating income and pretax income subtracted $1,135 million "
            "(pretax income's change less operating income's; the most, \"Other (gains) and "
            "losses\", from 1,998 to 2,995)") in text, text
    assert "operating income increased from $5,318 million to $6,240 million" in text


def test_what_the_statements_lack_leads_when_no_quote_names_the_measure() -> None:
    """Netflix's Q2 2023 10-Q prints no goodwill on its balance sheet: a quote of paid
    memberships answers another question, so the line saying what the reader did not find
    leads; a quote that names the measure (restructuring charges of another period) still
    leads, the line after it."""
    answer, _ = _ask("financebench-bulk/pdfs/NETFLIX_2023Q2_10Q.pdf", "netflix-10q-q2", 2023,
                     "Netflix", "What was Netflix's goodwill balance at the end of Q2 2023?")
    assert answer.status == "missing"
    memberships = QAResult(question="q", answer="a", claims=[Claim(
        text="Paid memberships at end of period: 2023: 42,466; 2022: 39,624")])
    assert quotes_name_none(memberships, answer)
    named = QAResult(question="q", answer="a", claims=[Claim(
        text="Goodwill was unchanged in the quarter.")])
    assert not quotes_name_none(named, answer)


def test_two_line_items_compared_are_the_ratio_the_vocabulary_defines_on_them() -> None:
    """"How did its operating cash flow compare with its net income?" is cash conversion (CFO /
    net income), both figures stated; "sell its inventory" is inventory turnover."""
    path, document, year = ("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf",
                            "general-mills-10k", 2022)
    compared = _answered(path, document, year, "General Mills", "How did General Mills' "
                         "operating cash flow compare with its net income in FY2022?")
    assert compared.question.target == "cash_conversion"
    assert "net income of $2,707.3 million" in compared.headline, compared.headline
    turned = _answered(path, document, year, "General Mills", "How many times did General "
                       "Mills sell its inventory in FY2022?")
    assert turned.question.target == "inventory_turnover"


def test_a_row_printed_blank_in_the_year_asked_is_a_nil_of_that_line() -> None:
    """Corning's 2018 income statement (p.80) prints "Restructuring, impairment and other
    charges" with 77 for 2016 and no amount for 2018 or 2017: $0 on that line, cited with its
    row, and no "No" (its core adjustments hold $130 million of such charges in other lines);
    2016's 77 is still read as printed."""
    path = "financebench-bulk/pdfs/CORNING_2018_10K.pdf"
    answer = _answered(path, "corning-10k", 2018, "Corning",
                       "Did Corning record restructuring charges in FY2018? How much?")
    assert answer.value == 0 and not answer.headline.startswith(("No", "Yes"))
    assert 'prints its row "Restructuring, impairment and other charges" with no amount for ' \
           'FY2018' in answer.headline
    earlier = _answered(path, "corning-10k", 2018, "Corning",
                        "What were Corning's restructuring costs in FY2016?")
    assert earlier.value == 77_000_000


def test_a_row_netted_of_the_item_asked_is_not_that_item() -> None:
    """JPMorgan's Q2 2023 10-Q prints "Investment securities, net of allowance for credit
    losses" (612,203): a row of securities, never the allowance asked for; its own row, when
    the statements read print none, is missing rather than another row."""
    answer, _ = _ask("financebench-wide/pdfs/JPMORGAN_2023Q2_10Q.pdf", "jpmorgan-10q-q2", 2023,
                     "JPMorgan Chase", "How much did JPMorgan's allowance for credit losses "
                     "change in Q2 2023?")
    assert "612,203" not in answer.headline and "612,203" not in {
        o.printed for o in answer.operands}


def test_line_items_asked_as_a_total_are_given_with_their_sum() -> None:
    """Kraft Heinz 2019's income statement (p.50) prints goodwill impairment losses (1,197) and
    intangible asset impairment losses (702) on two lines: asked as a total, each with its sum;
    "total revenues and net income" asks no sum."""
    path = "financebench-wide/pdfs/KRAFTHEINZ_2019_10K.pdf"
    answer = _answered(path, "kraft-heinz-10k", 2019, "Kraft Heinz",
                       "What was Kraft Heinz's total goodwill and intangible asset impairment in "
                       "FY2019?")
    assert answer.headline.startswith("Kraft Heinz's FY2019: goodwill impairment of $1,197 "
                                      "million and intangible asset impairment of $702 million, "
                                      "$1,899 million in total")


def test_a_margins_move_ends_with_how_its_two_line_items_moved() -> None:
    # Corning Q2 2023 (p.3): gross margin 1,013 of net sales 3,243, against 1,246 of 3,615 in
    # Q2 2022: gross profit fell 233 (18.7%), net sales 372 (10.3%)
    answer = _answered("financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2", 2023,
                       "Corning", "Is Corning's gross margin improving in Q2 2023?")
    assert answer.headline.startswith("No. Corning's gross margin decreased from 34.5%")
    assert answer.headline.endswith(
        "; gross profit fell $233 million (18.7%) to $1,013 million and net sales fell $372 "
        "million (10.3%) to $3,243 million.")
    # Walmart fiscal 2022 (p.55): free cash flow is operating cash flow less capital
    # expenditures, 36,074 - 10,264 against 24,181 - 13,106; "weaken" asks of its better way
    answer = _answered("financebench-bulk/pdfs/WALMART_2022_10K.pdf", "walmart-10k", 2022,
                       "Walmart", "Did Walmart's free cash flow weaken in fiscal 2022?")
    assert answer.headline.startswith("Yes. Walmart's free cash flow decreased from $25,810 "
                                      "million in FY2021")
    assert answer.headline.endswith(
        "; against FY2021, cash flow from operating activities fell $11,893 million (33.0%) to "
        "$24,181 million "
        "and capital expenditure rose $2,842 million (27.7%) to $13,106 million.")


def test_returning_capital_is_judged_on_the_dividends_and_buybacks_the_cash_flows_print() -> None:
    # Corning Q2 2023 (p.6, six months ended June 30, 2023): "Dividends paid (495) (462)";
    # "Purchases of common stock for treasury (201)" prints only 2022's amount (no shares
    # bought on the open market in 2023, p.16); net income attributable 457 (p.3)
    answer = _answered("financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2", 2023,
                       "Corning", "Despite lower earnings, is Corning still returning capital to "
                       "shareholders as of Q2 2023?")
    assert answer.headline.startswith(
        "Yes. Corning's six months ended in 2023 cash returned to shareholders is $495 million "
        "(cash dividends paid of $495 million and repurchases of common stock of $0)")
    assert "returning cash to its shareholders" in answer.headline
    # as of the quarter: the year to date a 10-Q's cash flows cover; in the quarter alone, a
    # yes or no the year to date does not settle
    assert any("covers the year to date" in d for d in answer.details)
    quarter, _ = _ask("financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2", 2023,
                      "Corning", "Did Corning return cash to shareholders in Q2 2023?")
    assert quarter.status != "answered"
    # American Water Q2 2023 (p.10): "Dividends paid (257) (228)" and no repurchase row: the
    # cash returned is its dividends, the repurchases taken as none and said so
    answer = _answered("financebench-bulk/pdfs/AMERICANWATERWORKS_2023Q2_10Q.pdf",
                       "awk-10q-q2", 2023, "American Water Works",
                       "Is American Water Works returning cash to its shareholders as of Q2 "
                       "2023?")
    assert answer.headline.startswith(
        "Yes. American Water Works' six months ended in 2023 cash returned to shareholders is "
        "$257 million (cash dividends paid of $257 million)")
    assert any(d.startswith("Taken as 0: the reader did not find repurchases of common stock")
               for d in answer.details)
    assert any("(cash dividends paid + repurchases of common stock, else repurchases of common "
               "stock)" in d for d in answer.details)


def test_a_size_asked_is_no_yes_from_there_being_any() -> None:
    # "a lot of goodwill relative to its assets" asks a size no rule here judges: the amount
    # (p.47: 14,378.5) without a yes; "any goodwill" is a yes
    answer = _answered(*GM_FY2022, "Does General Mills have a lot of goodwill relative to its "
                                   "assets?")
    assert not answer.headline.startswith(("Yes", "No")), answer.headline
    answer = _answered(*GM_FY2022, "Does General Mills have any goodwill?")
    assert answer.headline.startswith("Yes. General Mills' FY2022 goodwill is $14,378.5 million")
    # "higher than its depreciation" sets two line items side by side, not two years: capex
    # rose (530.8 to 568.7) but stayed under depreciation and amortization (570.3, p.49), so
    # the year's move is no answer to it; "exceed" asks the same of operating cash flow
    # (3,316.1) and net income (2,707.3)
    answer = _answered(*GM_FY2022, "Is General Mills' capital expenditure higher than its "
                                   "depreciation in fiscal 2022?")
    assert answer.headline == (
        "No. General Mills' FY2022 capital expenditure of $568.7 million did not exceed its "
        "depreciation of $570.3 million: $1.6 million less (1.00 times).")
    answer = _answered(*GM_FY2022, "Did General Mills' operating cash flow exceed its net income "
                                   "in fiscal 2022?")
    assert answer.headline == (
        "Yes. General Mills' FY2022 operating cash flow of $3,316.1 million exceeded its net "
        "income of $2,707.3 million by $608.8 million (1.22 times).")
    # a level in dollars is no second amount: the value is compared with it
    answer = _answered(*GM_FY2022, "Did General Mills' revenue exceed $20 billion in fiscal "
                                   "2022?")
    assert answer.headline == ("No. General Mills' FY2022 revenue is $18,992.8 million, below "
                               "the $20 billion asked.")


NETFLIX_2015 = ("financebench-wide/pdfs/NETFLIX_2015_10K.pdf", "netflix-10k", 2015, "Netflix")
AWK_Q2_2023 = ("financebench-bulk/pdfs/AMERICANWATERWORKS_2023Q2_10Q.pdf", "awk-10q-q2", 2023,
               "American Water Works")
GLW_Q2_2023 = ("financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2", 2023, "Corning")


@pytest.mark.parametrize(("filing", "question", "headline"), [
    # Corning Q2 2023 (p.5): cash 1,538 at June 30, 2023 against 1,671 at December 31, 2022;
    # total debt 187 + 7,437 against 224 + 6,687. "Weakened" asks which way is worse, which
    # no line item says: the move, no yes or no; a date compared is a move
    (GLW_Q2_2023, "Has Corning's cash position weakened during the first half of 2023?",
     "Corning's cash and cash equivalents decreased from $1,671 million"),
    (GLW_Q2_2023, "Did Corning have more debt at June 30, 2023 than at December 31, 2022?",
     "Yes. Corning's total debt increased from $6,911 million"),
    # Netflix 2015 (p.42): "Net cash used in operating activities (749,439)": operations used
    # cash, so none was generated; "any debt" is a yes from the amount, as before
    (NETFLIX_2015, "Did Netflix generate cash from operations in 2015?",
     "No. Netflix's FY2015 cash flow from operating activities is -$749.439 million"),
    (NETFLIX_2015, "Did Netflix have any debt in 2015?",
     "Yes. Netflix's FY2015 total debt is $2,371.362 million"),
    # the measure named again with the other period is that period, not a second amount
    (GM_FY2022, "Is General Mills' fiscal 2022 revenue higher than its fiscal 2021 revenue?",
     "Yes. General Mills' revenue increased from $18,127 million in FY2021 to $18,992.8 million"),
    (GM_FY2022, "Was General Mills' revenue higher than the year before?",
     "Yes. General Mills' revenue increased from $18,127 million in FY2021"),
    # the one year named after "than" is the base: FY2021 to FY2022 (p.49: 1,547.8 and 2,121.3)
    (GM_FY2022, "Is General Mills returning capital to shareholders at a higher rate than in "
                "fiscal 2021?",
     "Yes. General Mills' cash returned to shareholders increased from $1,547.8 million in FY2021"),
    # an outflow asked is no cash brought in (Netflix 2015, p.42: investing (179,192))
    (NETFLIX_2015, "Did Netflix generate cash outflows from investing activities in 2015?",
     "Yes. Netflix's FY2015 cash flow from investing activities is -$179.192 million"),
    # a channel named is that line item, not the whole return (American Water prints no
    # repurchase row: not computed, never its dividends as buybacks)
    (AWK_Q2_2023, "Did American Water Works return capital to shareholders through share "
                  "buybacks as of Q2 2023?", "American Water Works' six months ended in 2023 "
                                             "repurchases of common stock cannot be computed"),
])
def test_what_a_comparison_or_a_channel_names_is_what_is_answered(
        filing: tuple[str, str, int, str], question: str, headline: str) -> None:
    answer, marks = _ask(*filing, question)
    assert answer.headline.startswith(headline), answer.headline
    assert answer.status != "answered" or (marks and set(marks) == {"valid"})


@pytest.mark.parametrize(("filing", "question"), [
    # a balance says nothing of what is being paid down or issued
    (GM_FY2022, "Is General Mills paying down debt?"),
    (AWK_Q2_2023, "Is American Water Works issuing equity in 2023?"),
    (NETFLIX_2015, "Is Netflix paying its debt with free cash flow?"),
    # a balance at the year's end funded nothing the year spent: no coverage of the two
    (GM_FY2022, "Is General Mills' capital expenditure funded by debt in fiscal 2022?"),
    # two growth rates compared, which no amount's move answers (net sales 4.8%, cost of sales
    # 7.8%)
    (GM_FY2022, "Did General Mills' net sales grow faster than its cost of sales in fiscal 2022?"),
])
def test_no_yes_or_no_where_the_amount_does_not_say(filing: tuple[str, str, int, str],
                                                    question: str) -> None:
    parsed = parse_text(question)
    if parsed is None:
        return  # the quotes answer it
    answer, _ = _ask(*filing, question)
    assert not answer.headline.startswith(("Yes", "No")), answer.headline


@pytest.mark.parametrize(("filing", "question", "headline"), [
    # earnings quality on accruals, net income - operating cash flow (General Mills p.49:
    # 2,707.3 - 3,316.1 = -608.8; Netflix 2015 p.42: 122.641 - (-749.439) = 872.08), whose
    # sign holds where a ratio's would not (a loss, an operating outflow)
    (GM_FY2022, "Are General Mills' earnings in fiscal 2022 backed by operating cash flow?",
     "Yes. General Mills' FY2022 accruals (net income - operating cash flow) is -$608.8 million"),
    (NETFLIX_2015, "Are Netflix's earnings backed by cash in 2015?",
     "No. Netflix's FY2015 accruals (net income - operating cash flow) is $872.08 million"),
    # reinvestment on capital expenditures against depreciation: General Mills 568.7 / 570.3
    # (p.49), a maintenance level; Netflix 91.248 / 62.283 (p.42), growing its asset base
    (GM_FY2022, "Is General Mills reinvesting in its business in fiscal 2022?",
     "Yes. General Mills' FY2022 capital expenditures to depreciation is 1.00"),
    (NETFLIX_2015, "Is Netflix growing its asset base in 2015?",
     "Yes. Netflix's FY2015 capital expenditures to depreciation is 1.47"),
    (GM_FY2022, "Is General Mills growing its asset base in fiscal 2022?",
     "No. General Mills' FY2022 capital expenditures to depreciation is 1.00"),
])
def test_earnings_quality_and_reinvestment_are_judged_on_the_cash_flows(
        filing: tuple[str, str, int, str], question: str, headline: str) -> None:
    answer = _answered(*filing, question)
    assert answer.headline.startswith(headline), answer.headline


NETFLIX_Q2_2023 = ("financebench-bulk/pdfs/NETFLIX_2023Q2_10Q.pdf", "netflix-10q-q2", 2023,
                   "Netflix")


@pytest.mark.parametrize("question", [
    "Why did Netflix's interest and other income fall in Q2 2023?",
    "What caused Netflix's interest and other income to drop in the second quarter of 2023?",
    "What factors were behind Netflix's interest and other income in Q2 2023?",
])
def test_a_cause_asked_of_a_row_no_term_names_is_the_rows_change(question: str) -> None:
    # Netflix Q2 2023 10-Q (p.4, in thousands): "Interest and other income (expense)" 26,961
    # for the three months ended June 30, 2023 and 220,226 a year earlier: 193,265 less
    parsed = parse_change(read_question(question))
    assert parsed is not None and parsed.formulas == {
        "q_interest_and_other_income": "row('interest and other income')"}
    pages, facts = _filing(*NETFLIX_Q2_2023[:3])
    answer = answer_metric(parsed, facts, "Netflix")
    assert answer.status == "answered", answer.headline
    assert ("decreased from $220.226 million in the three months ended in 2022 to $26.961 "
            "million in the three months ended in 2023, by $193.265 million") in answer.headline
    checked = verify_claims(answer.claims(), PageTexts.from_pages(*NETFLIX_Q2_2023[1:3], pages))
    assert {c.mark for claim in checked for c in claim.citations} == {"valid"}


def test_a_period_named_by_its_fiscal_name_and_its_end_date_is_one_change() -> None:
    # "Q1 fiscal 2024 (three months ended April 30, 2023)" names one quarter twice: its
    # change is asked, not two years' (Walmart's fiscal year ends on January 31)
    parsed = parse_change(read_question(
        "Why did Walmart's net cash provided by operating activities change in Q1 fiscal 2024 "
        "(three months ended April 30, 2023)?"))
    assert parsed is not None and parsed.target == "operating_cash_flow"
    assert parse_change(read_question(
        "Why did Walmart's net cash provided by operating activities change in fiscal 2023 and "
        "fiscal 2024?")) is None  # two changes asked


def test_a_row_named_by_few_words_is_read_under_those_words_only() -> None:
    # JPMorgan Q3 2022 10-Q: "net credit losses" is matched as "credit losses"; the provision
    # for credit losses (1,537 and (1,527), p.6) is another row, and the answer says it is
    # not printed rather than give the provision's change under the question's words
    path = ("financebench-bulk/pdfs/JPMORGAN_2022Q3_10Q.pdf", "jpmorgan-10q-q3", 2022)
    parsed = parse_change(read_question("Why did JPMorgan's net credit losses increase in Q3 "
                                        "2022?"))
    assert parsed is not None and parsed.named_row
    _, facts = _filing(*path)
    assert answer_metric(parsed, facts, "JPMorgan").status == "missing"
    provision = parse_change(read_question("What drove JPMorgan's provision for credit losses "
                                           "in Q3 2022?"))
    assert provision is not None
    assert "by $3,064 million" in answer_metric(provision, facts, "JPMorgan").headline


def test_a_row_printed_negative_in_both_years_says_no_way() -> None:
    # Walmart fiscal 2020 10-K: "Consolidated net income attributable to noncontrolling
    # interest" printed (320) and (509): a deduction that shrank, which its printed values
    # would call an increase; no concept says its way, so no change is stated
    parsed = parse_change(read_question(
        "Why did Walmart's net income attributable to noncontrolling interest fall in fiscal "
        "2020?"))
    assert parsed is not None and parsed.named_row
    _, facts = _filing("financebench-wide/pdfs/WALMART_2020_10K.pdf", "walmart-10k", 2020)
    answer = answer_metric(parsed, facts, "Walmart")
    assert answer.status == "unavailable" and "printed negative" in answer.headline, (
        answer.headline)


def test_a_year_after_the_filings_is_a_plan_no_reader_missed() -> None:
    """American Water's 2022 10-K prints 2022, 2021 and 2020: "How much capital investment
    does it plan for 2023?" asks what MD&A states of a year to come, which no statement prints
    and no reader can miss: said as a period after the statements', never as an operand the
    reader did not find; the year it covers is still computed."""
    path, document, year = ("financebench-dev/pdfs/AMERICANWATERWORKS_2022_10K.pdf",
                            "american-water-works-10k", 2022)
    pages, facts = _filing(path, document, year)
    route = FactsRoute(facts=lambda d, y: facts, pages=PageTexts.from_pages(document, year, pages),
                       held_years=lambda d: [year], company=lambda d: "American Water Works")
    plan = route.answer(read_question("How much capital expenditure does American Water Works "
                                      "plan for FY2023?"), Scope.partition(document, year))
    assert plan is not None and plan[0] is None
    assert plan[1].headline.endswith("cannot be computed from the statements: the statements "
                                     "print no period after FY2022, and FY2023 is after it."), \
        plan[1].headline
    assert missing_kind(plan[1]) == ", a later period"
    spent = route.answer(read_question("What were American Water Works' capital expenditures "
                                       "in FY2022?"), Scope.partition(document, year))
    assert spent is not None and spent[0] is not None
