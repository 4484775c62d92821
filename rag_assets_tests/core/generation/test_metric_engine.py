"""The metric engine: questions as analysts write them, metrics computed from statement facts
with exact numbers, a missing operand said plainly, a metric that does not apply to a bank, and
the answer on a real filing's facts with every operand's citation verified."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.filer_kinds import load_kinds
from rag_assets.core.generation.metric_engine import (
    _label_distance,
    _label_words,
    answer_metric,
    format_value,
)
from rag_assets.core.generation.metric_questions import (
    MetricQuestion,
    definition_formula,
    load_rules,
    parse_change,
    parse_question,
)
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.question.question import read_question
from rag_assets.core.question.vocabulary import load_vocabulary

from ..conftest import TEN_K


def parse_text(text: str) -> MetricQuestion | None:
    """The metric question ``text`` asks, read as every caller reads it (a :class:`Question`)."""
    return parse_question(read_question(text))

THREE_M = TEN_K["3m"]


def fact(concept: str | None, fiscal_year: int, value: float, label: str, *,
         months: int | None = 12, statement: str = "income_statement", page: int = 3,
         total: bool = False
         ) -> StatementFact:
    """A fact as the reader writes it, in USD millions printed."""
    printed = f"({abs(value):,.0f})" if value < 0 else f"{value:,.0f}"
    return StatementFact(
        document="acme-10k", year=2019, statement=statement, label=label, concept=concept,
        period=str(fiscal_year), fiscal_year=fiscal_year, months=months, value=value * 1e6,
        scale=1e6, printed=printed, page=page, quote=f"{label} {printed}", column=0, row=0,
        total=total)


def balance(concept: str | None, fiscal_year: int, value: float, label: str) -> StatementFact:
    return fact(concept, fiscal_year, value, label, months=None, statement="balance_sheet",
                page=4)


def cash(concept: str, fiscal_year: int, value: float, label: str) -> StatementFact:
    return fact(concept, fiscal_year, value, label, statement="cash_flow", page=5)


ACME = [
    fact("revenue", 2019, 6489, "Total net revenues", total=True),
    fact("revenue", 2018, 7500, "Total net revenues", total=True),
    fact("revenue", 2017, 7017, "Total net revenues", total=True),
    fact("cost_of_revenue", 2019, 2000, "Cost of revenues"),
    fact("cost_of_revenue", 2018, 2400, "Cost of revenues"),
    fact("operating_income", 2019, 1607, "Operating income"),
    fact("operating_income", 2018, 1988, "Operating income"),
    fact("pretax_income", 2019, 1633, "Income before income tax expense"),
    fact("income_tax", 2019, -130, "Income tax expense"),
    fact("net_income", 2019, 1503, "Net income"),
    balance("ppe_net", 2019, 253, "Property and equipment, net"),
    balance("ppe_net", 2018, 282, "Property and equipment, net"),
    balance("current_assets", 2019, 7292, "Total current assets"),
    balance("current_assets", 2018, 6000, "Total current assets"),
    balance("current_liabilities", 2019, 3000, "Total current liabilities"),
    balance("current_liabilities", 2018, 3100, "Total current liabilities"),
    balance("total_assets", 2019, 19845, "Total assets"),
    balance("total_assets", 2018, 17890, "Total assets"),
    balance("long_term_debt_noncurrent", 2019, 2675, "Long-term debt, net"),
    balance("long_term_debt_noncurrent", 2018, 2671, "Long-term debt, net"),
    cash("capital_expenditure", 2019, -116, "Capital expenditures"),
    cash("capital_expenditure", 2018, -131, "Capital expenditures"),
    cash("capital_expenditure", 2017, -155, "Capital expenditures"),
    cash("operating_cash_flow", 2019, 1831, "Net cash provided by operating activities"),
    cash("depreciation_amortization", 2019, 328, "Depreciation and amortization"),
    cash("dividends_paid", 2019, -285, "Dividends paid"),
]


# --- parsing: FinanceBench phrasings --------------------------------------------------------


def test_a_stated_definition_is_parsed_and_overrides_the_stored_one() -> None:
    q = parse_text(
        "What is the FY2019 fixed asset turnover ratio for Activision Blizzard? Fixed asset "
        "turnover ratio is defined as: FY2019 revenue / (average PP&E between FY2018 and "
        "FY2019). Round your answer to two decimal places. Base your judgments on the "
        "information provided primarily in the statement of income and the statement of "
        "financial position.")
    assert q is not None
    assert (q.target, q.years, q.aggregate, q.decimals) == ("fixed_asset_turnover", [2019],
                                                           "value", 2)
    assert q.stated == "revenue / (avg(ppe_net))"


@pytest.mark.parametrize(("body", "year", "formula"), [
    ("365 * (average accounts payable between FY2019 and FY2020) / (FY2020 COGS + change in "
     "inventory between FY2019 and FY2020)", 2020,
     "365 * (avg(accounts_payable)) / (cost_of_revenue + change(inventory))"),
    ("DIO + DSO - DPO", 2019, "dio + dso - dpo"),
    ("total current assets divided by total current liabilities", 2020,
     "current_assets / current_liabilities"),
    ("total current assets less total current liabilities", 2021,
     "current_assets - current_liabilities"),
    ("(cash from operations - capex)", 2020, "(operating_cash_flow - capital_expenditure)"),
    ("FY2018 revenue / FY2019 revenue", 2019, "revenue[-1] / revenue"),
    # abbreviations a formula writes: an operand, never the chief financial officer
    ("CFO / net income", 2019, "operating_cash_flow / net_income"),
    ("payments for repurchases of common stock / net income", 2019,
     "share_repurchases / net_income"),
    # cash paid is not the provision (a line item of its own, ASC 230-10-50-2), a payment on
    # debt not the debt (a row of its own)
    ("income taxes paid divided by pretax income", 2019, "income_taxes_paid / pretax_income"),
    ("payments on long-term debt / revenue", 2019, "row('payments on long term debt') / revenue"),
    # the vocabulary's own convention: a filer without short-term investments holds none
    ("(cash and cash equivalents + short-term investments + accounts receivable) / total "
     "current liabilities", 2020,
     "(cash + opt(short_term_investments) + receivables) / current_liabilities"),
    ("cost of goods sold divided by total revenue", 2019, "cost_of_revenue / revenue"),
    # a term the vocabulary lacks is a statement row named by its printed label's words
    ("the number of stores times the mood of the board", 2019,
     "row('number of stores') * row('mood of board')"),
    ("payments for acquisition of property, plant and equipment / FY2019 revenue", 2019,
     "row('payments for acquisition of property, plant and equipment') / revenue"),
    ("FY2019 revenue / (average accounts and notes receivable between FY2018 and FY2019)", 2019,
     "revenue / (avg(row('accounts and notes receivable')))"),
    ("365 / 12", 2019, None),  # no term at all: the stored definition is used
    # a year written in words on a term or a range is the year, not a part of the line item
    ("365 * (average accounts payable between fiscal year-end 2021 and fiscal year-end 2022) "
     "/ (fiscal 2022 cost of sales)", 2022, "365 * (avg(accounts_payable)) / (cost_of_revenue)"),
    ("365 * (average accounts payable between the ends of fiscal 2019 and fiscal 2020) / "
     "fiscal 2020 cost of sales", 2020, "365 * (avg(accounts_payable)) / cost_of_revenue"),
    # a whole added with one of its parts is its other part: long-term debt holds the current
    # portion, so beside it the noncurrent line is meant (Coca-Cola 2019: $42,763 million, not
    # the current portion's $4,253 million twice)
    ("long-term debt plus the current portion of long-term debt plus short-term borrowings",
     2019, "long_term_debt_noncurrent + opt(current_portion_long_term_debt) + "
     "opt(short_term_borrowings)"),
    ("long-term debt plus short-term borrowings", 2019,
     "long_term_debt + opt(short_term_borrowings)"),
])
def test_definitions_as_questions_write_them(body: str, year: int, formula: str | None) -> None:
    assert definition_formula(body, year) == formula


def test_a_definition_that_says_what_it_uses_keeps_its_terms() -> None:
    """"using operating cash flow minus capital expenditures" is the definition itself, not
    where its figures come from: only "using" the figures, data or a statement ends it."""
    from rag_assets.core.generation.metric_questions import _split_definitions
    _, kept = _split_definitions("Free cash flow is defined as cash, using operating cash flow "
                                 "minus capital expenditures.")
    _, cut = _split_definitions("Free cash flow is defined as operating cash flow minus "
                                "capital expenditures, using figures from the cash flow "
                                "statement.")
    assert kept == [("Free cash flow", "cash, using operating cash flow minus capital "
                                       "expenditures")]
    assert cut == [("Free cash flow", "operating cash flow minus capital expenditures")]


@pytest.mark.parametrize(("question", "formula"), [
    ("What is Acme's FY2020 interest coverage ratio? Interest coverage ratio is defined as: "
     "FY2020 operating income / FY2020 interest expense, using figures from the consolidated "
     "statement of income. Round your answer to two decimal places.",
     "operating_income / interest_expense"),
    ("What is Acme's interest coverage ratio for the second quarter of 2023? Interest coverage "
     "ratio is defined as: operating income / interest expense, both for the three months ended "
     "June 30, 2023, from the consolidated statement of income.",
     "operating_income / interest_expense"),
    ("What is the FY2014 - FY2015 change in Acme's operating margin? Operating margin is "
     "defined as operating income / revenues, using the consolidated statements of operations. "
     "Answer in units of percents.", "operating_income / revenue"),
    # the period asked, written after a term or for all of them, is no part of a term
    ("What was Acme's FY2020 free cash flow margin, calculated as (cash from operating "
     "activities - capital expenditures) / revenue, all for FY2020?",
     "(operating_cash_flow - capital_expenditure) / revenue"),
    ("What is Acme's Q2 2023 gross margin? Gross margin is defined as gross profit divided by "
     "net sales for the three months ended June 30, 2023.", "gross_profit / revenue"),
    ("What is Acme's FY2021 interest coverage ratio? Interest coverage is defined as EBIT / "
     "interest expense, where EBIT is operating income, for FY2021.",
     "(operating_income) / interest_expense"),
    # a term followed by the sum it is: the sum; "including the current portion" is the
    # vocabulary's long-term debt
    ("What is Acme's FY2022 debt-to-equity ratio? Debt-to-equity is defined as total debt "
     "(short-term borrowings plus long-term debt, including the current portion) divided by "
     "total shareholders' equity at the end of FY2022.",
     "(opt(short_term_borrowings) + long_term_debt) / equity"),
])
def test_where_a_definitions_figures_come_from_is_no_part_of_its_terms(question: str,
                                                                      formula: str) -> None:
    """A clause after the formula saying which statement or period its figures are read from
    ends the definition: "interest expense, using figures" is no row of any statement."""
    parsed = parse_text(question)
    assert parsed is not None and parsed.stated == formula


@pytest.mark.parametrize(("question", "target", "years", "aggregate", "extra"), [
    ("What is the FY2017 - FY2019 3 year average of capex as a % of revenue for Activision "
     "Blizzard? Answer in units of percents and round to one decimal place.",
     "capex_to_revenue", [2017, 2018, 2019], "average", {"percent": True, "decimals": 1}),
    ("How much (in USD billions) did American Water Works pay out in cash dividends for "
     "FY2020?", "dividends_paid", [2020], "value", {"scale": "billions"}),
    ("What is Lockheed Martin's 2 year total revenue CAGR from FY2020 to FY2022 (in units of "
     "percents and round to one decimal place)?", "revenue", [2020, 2022], "cagr", {}),
    ("What is the FY2019 - FY2020 total revenue growth rate for Block?", "revenue_growth",
     [2020], "value", {}),
    ("How much has the effective tax rate of Corning changed between FY2021 and FY2022?",
     "effective_tax_rate", [2021, 2022], "trend", {"direction": "change"}),
    ("Does American Water Works have positive working capital based on FY2022 data? If "
     "working capital is not a useful or relevant metric for this company, then please state "
     "that and explain why.",
     "working_capital", [2022], "value",
     {"yes_no": True, "judgment": "positive_working_capital"}),
    ("Has Microsoft increased its debt on balance sheet between FY2023 and the FY2022 period?",
     "total_debt", [2022, 2023], "trend", {"yes_no": True, "direction": "up"}),
    ("Did Pfizer grow its PPNE between FY20 and FY21?", "ppe_net", [2020, 2021], "trend",
     {"direction": "up"}),
    # a trend's way asked by its direction: a yes or no on the way, not any change
    ("As of FY2017, is Coca-Cola's gross margin trending upward?", "gross_margin",
     [2017], "trend", {"yes_no": True, "direction": "up"}),
    ("Is Coca-Cola's operating margin trending downward as of FY2017?", "operating_margin",
     [2017], "trend", {"yes_no": True, "direction": "down"}),
    ("What is the FY2016 COGS for Microsoft? Please state answer in USD millions.",
     "cost_of_revenue", [2016], "value", {"scale": "millions"}),
    ("What was JPM's net income in the second fiscal quarter of 2022?", "net_income",
     [2022], "value", {"months": 3, "quarter": 2}),
    ("What was Pfizer's total revenue in Q2'2023?", "revenue", [2023], "value",
     {"months": 3, "quarter": 2}),
    ("What is the FY2015 depreciation and amortization (D&A from cash flow statement) % "
     "margin for AMD?", "da_margin", [2015], "value", {}),
    # the change itself asked of one year: against the year before
    ("By how much did Acme's net cash provided by operating activities increase in FY2019, "
     "and what drove the increase?", "operating_cash_flow", [2018, 2019], "trend",
     {"direction": "up"}),
    ("How much did Acme's revenue decline in FY2020?", "revenue", [2019, 2020], "trend",
     {"direction": "down"}),
    # Walmart's cash flow label asked in its words: capex, never the PP&E balance
    ("What were Acme's payments for property and equipment in FY2019?", "capital_expenditure",
     [2019], "value", {}),
    # a verb that moves its object down (directions.json's "reduced"): "cut its dividend"
    ("Did Acme cut its capital expenditures in FY2020?", "capital_expenditure", [2020],
     "trend", {"yes_no": True, "direction": "down"}),
    ("How much revenue did Acme report in FY2020?", "revenue", [2020], "value", {}),
    # a year written as the change's base runs to the year after it
    ("How much did Acme's capital expenditures change from fiscal 2019?", "capital_expenditure",
     [2019, 2020], "trend", {}),
    # the cash returned to shareholders is dividends and buybacks, not the cash on hand
    ("How much cash did Acme return to shareholders in fiscal 2018?", "shareholder_payout",
     [2018], "value", {}),
])
def test_financebench_phrasings(question: str, target: str, years: list[int], aggregate: str,
                                extra: dict) -> None:
    q = parse_text(question)
    assert q is not None
    assert (q.target, q.years, q.aggregate) == (target, years, aggregate)
    for key, value in extra.items():
        assert getattr(q, key) == value, key


@pytest.mark.parametrize("question", [
    "What are three main companies acquired by Pfizer mentioned in this 10K report?",
    "Which of JPM's business segments had the lowest net revenue in 2021 Q1?",
    "What drove the reduction in SG&A expense as a percent of net sales in FY2023?",
])
def test_prose_questions_are_left_to_retrieval(question: str) -> None:
    assert parse_text(question) is None


# --- computation on hand-made facts ---------------------------------------------------------


def ask(question: str, facts: list[StatementFact] = ACME):
    q = parse_text(question)
    assert q is not None
    return answer_metric(q, facts, company="Acme")


def test_fixed_asset_turnover_opens_with_the_result_then_cites_every_operand() -> None:
    a = ask("What is the FY2019 fixed asset turnover ratio for Acme? Fixed asset turnover "
            "ratio is defined as: FY2019 revenue / (average PP&E between FY2018 and FY2019). "
            "Round your answer to two decimal places.")
    assert a.status == "answered"
    assert a.value == pytest.approx(6489 / ((253 + 282) / 2))
    # the result first, then how it was reached, each operand by its title and amount
    assert a.headline == ("Acme's FY2019 fixed asset turnover is 24.26 (revenue of $6,489 "
                          "million / average PP&E (net) of $267.5 million).")
    assert {(o.concept, o.fiscal_year) for o in a.operands} == {
        ("revenue", 2019), ("ppe_net", 2019), ("ppe_net", 2018)}
    assert "6,489 / ((282 + 253) / 2) = 24.26" in a.text
    claims = a.claims()
    assert claims[0].text == a.headline and len(claims[0].citations) == 3
    assert all(c.quote and c.supports for claim in claims for c in claim.citations)


@pytest.mark.parametrize(("question", "expected"), [
    ("What is the FY2017 - FY2019 3 year average of capex as a % of revenue for Acme? Answer "
     "in units of percents and round to one decimal place.",
     f"{(155 / 7017 + 131 / 7500 + 116 / 6489) / 3 * 100:.1f}%"),
    ("What is Acme's FY2019 free cash flow? Answer in USD millions.", "$1,715 million"),
    ("What is Acme's FY2019 unadjusted EBITDA % margin?",
     f"{(1607 + 328) / 6489 * 100:.1f}%"),
    ("What is Acme's FY2019 working capital ratio? Round to two decimal places.", "2.43"),
    ("What is the FY2018 - FY2019 revenue growth rate for Acme?",
     f"{(6489 / 7500 - 1) * 100:.1f}%"),
    ("What is Acme's 2 year revenue CAGR from FY2017 to FY2019?",
     f"{((6489 / 7017) ** 0.5 - 1) * 100:.1f}%"),
    ("How much (in USD billions) did Acme pay out in cash dividends for FY2019?",
     "$0.28 billion"),
    ("What is the FY2019 effective tax rate for Acme?", f"{130 / 1633 * 100:.1f}%"),
])
def test_metrics_computed_exactly(question: str, expected: str) -> None:
    a = ask(question)
    assert a.status == "answered", a.headline
    assert re.search(rf" {re.escape(expected)}(?:[.:]| \()", a.headline), a.headline


def test_net_interest_expense_nets_interest_income_only_when_printed_apart() -> None:
    # Coca-Cola 2019 prints "Interest income 563" above "Interest expense 946": net is 383,
    # never the gross 946; General Mills prints one row "Interest, net": that row is the net
    apart = [*ACME, fact("nonoperating_interest_income", 2019, 563, "Interest income"),
             fact("interest_expense", 2019, 946, "Interest expense")]
    a = ask("What is Acme's FY2019 net interest expense?", apart)
    assert a.status == "answered" and a.value == pytest.approx(383e6), a.headline
    assert {o.concept for o in a.operands} == {"interest_expense", "nonoperating_interest_income"}
    assert ask("What was Acme's interest expense in FY2019?", apart).value == pytest.approx(946e6)
    netted = [*ACME, fact("interest_expense_net", 2019, 379.6, "Interest, net")]
    b = ask("What was Acme's interest expense, net in FY2019?", netted)
    assert b.status == "answered" and b.value == pytest.approx(379.6e6), b.headline
    # the net row stands for interest expense where no gross row is printed (coverage)
    assert ask("What was Acme's interest expense in FY2019?", netted).value == pytest.approx(
        379.6e6)
    # Walmart prints "Interest income (158)" inside its block closed by "Interest, net 1,836":
    # the printed net is never netted again
    walmart = [*netted, fact("nonoperating_interest_income", 2019, -158, "Interest income")]
    c = ask("What is Acme's FY2019 net interest expense?", walmart)
    assert c.value == pytest.approx(379.6e6), c.text
    # American Water prints "Interest, net (395)" among other income and expense: paid
    printed_negative = [*ACME, fact("interest_expense_net", 2019, -395, "Interest, net")]
    coverage = ask("What is Acme's FY2019 interest coverage ratio?", printed_negative)
    assert coverage.value == pytest.approx(1607 / 395), coverage.text


def test_comfortably_asks_for_the_comfortable_band_not_coverage_alone() -> None:
    # Kraft Heinz 2021 covers its interest 1.69 times: it covers it, not comfortably
    thin = [*ACME, fact("interest_expense", 2019, 950, "Interest expense")]
    comfortably = ask("Can Acme comfortably cover its interest expense in FY2019?", thin)
    assert comfortably.headline.startswith("No."), comfortably.headline
    assert "adequate coverage, not comfortable" in comfortably.text
    assert ask("Can Acme cover its interest expense in FY2019?", thin).headline.startswith("Yes.")
    ample = [*ACME, fact("interest_expense", 2019, 200, "Interest expense")]
    assert ask("Can Acme comfortably cover its interest expense in FY2019?",
               ample).headline.startswith("Yes.")


def test_a_goodwill_impairment_is_never_answered_with_the_goodwill_balance() -> None:
    # Kraft Heinz 2021 prints "Goodwill impairment losses 318" on its income statement and a
    # goodwill balance of $31,296 million: "did it record any goodwill impairment?" is the first
    balance_only = [*ACME, balance("goodwill", 2019, 31296, "Goodwill")]
    asked = "Did Acme record any goodwill impairment in FY2019?"
    assert parse_text(asked).target == "goodwill_impairment"
    assert ask(asked, balance_only).status != "answered"
    impaired = [*balance_only, fact("goodwill_impairment", 2019, 318, "Goodwill impairment losses")]
    found = ask(asked, impaired)
    assert found.status == "answered" and found.value == pytest.approx(318e6)
    assert found.headline.startswith("Yes."), found.headline


def test_a_missing_operand_is_said_plainly_never_guessed() -> None:
    a = ask("What is Acme's FY2019 inventory turnover ratio? Inventory turnover ratio is "
            "defined as: (FY2019 COGS) / (average inventory between FY2018 and FY2019).")
    # Acme is no bank, insurer or REIT: an inventory the reader did not find is said as such,
    # with the statement and pages it read, never "not meaningful for Acme"
    assert a.status == "missing" and a.value is None
    assert a.headline == (
        "Acme's FY2019 inventory turnover cannot be computed from the statements: the reader "
        "did not find inventory for the end of FY2019 in the balance sheet on page 5.")
    dropped = [f for f in ACME if not (f.concept == "ppe_net" and f.fiscal_year == 2018)]
    b = ask("What is Acme's FY2019 fixed asset turnover?", dropped)
    assert b.status == "missing" and b.value is None
    assert ("the reader did not find PP&E (net) for the end of FY2018 in the balance sheet on "
            "page 5") in b.headline


def test_gross_margin_is_not_meaningful_for_a_bank_decided_from_what_it_is() -> None:
    lines = [
        fact("revenue", 2021, 33185, "Total net revenue", total=True, months=3),
        fact("net_income", 2021, 14300, "Net income", months=3),
        balance("total_assets", 2021, 3689336, "Total assets"),
    ]
    bank = [*lines, fact(None, 2021, 13296, "Net interest income", months=3),
            fact(None, 2021, -4156, "Provision for credit losses", months=3),
            balance(None, 2021, 2278096, "Deposits")]
    a = ask("What is the gross margin of JPM in 2021 Q1?", bank)
    assert a.status == "not_meaningful"
    assert a.headline.startswith(
        'Gross margin is not a meaningful metric for Acme: it is a bank (its statements print '
        '"Net interest income", "Provision for credit losses", "Deposits")')
    assert "no cost of revenue or gross profit line" in a.headline
    assert any("Regulation S-X Article 9" in d for d in a.details)
    # the same lines without a bank's: a missing cost of revenue is the reader's, not the filer's
    plain = ask("What is the gross margin of JPM in 2021 Q1?", lines)
    assert plain.status == "missing" and "not a meaningful" not in plain.headline
    assert "the reader did not find cost of revenue for the 3 months of FY2021 in the income " \
           "statement on page 4" in plain.headline
    # a SIC code on the cover says what the filer is as well as its rows do
    parsed = parse_text("What is the gross margin of JPM in 2021 Q1?")
    assert parsed is not None
    cover = "Standard Industrial Classification Code Number: 6021"
    assert answer_metric(parsed, lines, "Acme", cover).status == "not_meaningful"
    # the same question on a filer that prints cost of revenue is computed
    b = ask("What is Acme's FY2019 gross margin?")
    assert b.status == "answered" and b.value == pytest.approx((6489 - 2000) / 6489)


def test_gross_margin_is_not_meaningful_for_a_casino_resort_by_its_departments() -> None:
    """MGM Resorts' income statement prints its revenues and expenses by department
    ("Casino", "Rooms", "Food and beverage"), no cost of revenue: a gross margin asked of it is
    not meaningful, said with the lines that make it a casino resort operator."""
    lines = [fact("revenue", 2018, 11763, "Revenues", total=True),
             fact(None, 2018, 6477, "Casino"), fact(None, 2018, 2212, "Rooms"),
             fact(None, 2018, 1977, "Food and beverage"),
             fact("operating_income", 2018, 1469, "Operating income")]
    a = ask("Does MGM Resorts have an improving gross margin profile as of FY2018?", lines)
    assert a.status == "not_meaningful"
    assert 'it is a hotel or casino resort operator (its statements print "Casino", "Rooms", ' \
           '"Food and beverage")' in a.headline
    # no SIC code makes one: 7011 holds hotel companies that print no department
    plain = lines[:1] + lines[4:]
    assert answer_metric(parse_text("What is the FY2018 gross margin?"), plain, "Acme",
                         "Standard Industrial Classification: 7011").status == "missing"
    # one department alone makes no casino resort: the reader's miss is said as its own
    assert ask("What is the FY2018 gross margin?", lines[:2] + lines[4:]).status == "missing"
    assert "casino_resort" in load_kinds()


def test_trends_and_judgments_state_the_rule() -> None:
    wc = ask("Does Acme have positive working capital based on FY2019 data?",
             [f if f.concept != "current_assets" else f.model_copy(update={"value": 1e9})
              for f in ACME])
    assert wc.headline.startswith("No. Acme's FY2019 working capital is -$2,000 million")
    assert any(d.startswith("Rule: ") for d in wc.details)
    debt = ask("Has Acme increased its debt between FY2018 and FY2019?")
    assert debt.headline == ("Yes. Acme's total debt increased slightly from $2,671 million "
                             "in FY2018 to $2,675 million in FY2019, by $4 million (0.1%).")
    margin = ask("Did Acme's operating margin improve between FY2018 and FY2019?")
    assert margin.headline.startswith("No. Acme's operating margin decreased")
    assert "a deterioration" in margin.headline
    capital = ask("Is Acme a capital-intensive business based on FY2019 data?")
    assert capital.headline.startswith("No.") and "capital-light" in capital.headline
    rule = load_rules().rules["capital_intensity"]
    assert rule.source and any(d.startswith(f"Rule: {rule.rule}") for d in capital.details)


CASH_FLOWS = [*ACME,
              cash("investing_cash_flow", 2019, 564, "Cash provided by investing activities"),
              cash("financing_cash_flow", 2019, -7447, "Cash used by financing activities")]


def test_a_choice_among_the_three_cash_flow_activities_is_computed_from_the_facts() -> None:
    q = parse_text("Among operations, investing, and financing activities, which brought "
                       "in the most (or lost the least) cash flow for Acme in FY2019?")
    assert q is not None and q.aggregate == "choice" and q.pick == "max"
    assert q.choices == ["operating_cash_flow", "investing_cash_flow", "financing_cash_flow"]
    a = answer_metric(q, CASH_FLOWS, company="Acme")
    assert a.status == "answered" and a.value == pytest.approx(1831e6)
    assert a.headline == (
        "Acme's cash flow from operating activities was the highest of the three in FY2019: "
        "$1,831 million, against $564 million for cash flow from investing activities and "
        "-$7,447 million for cash flow from financing activities.")
    assert [o.concept for o in a.operands] == q.choices  # every member cited, in its order
    used = ask("Which of operating, investing and financing activities used the most cash in "
               "FY2019?", CASH_FLOWS)
    assert used.headline.startswith("Acme's cash flow from financing activities was the lowest")
    gone = [f for f in CASH_FLOWS if f.concept != "investing_cash_flow"]
    missing = ask("Among operating, investing and financing activities, which generated the "
                  "most cash for Acme in FY2019?", gone)
    assert missing.status == "missing" and "investing activities" in missing.headline


def test_two_line_items_joined_by_or_are_compared_and_other_which_questions_are_not() -> None:
    a = ask("Which was larger for Acme in FY2019, operating income or net income?")
    assert a.headline.startswith("Acme's operating income was the higher of the two in "
                                 "FY2019: $1,607 million, against $1,503 million")
    assert parse_text("Which segment had the highest revenue and operating income in "
                          "FY2019?") is None  # a category superlative: the prose path's


def test_every_metric_and_rule_is_documented_and_evaluates() -> None:
    defs = load_vocabulary()
    kinds = load_kinds()
    for name, metric in defs.metrics.items():
        assert metric.source, name
        assert set(metric.not_meaningful_for) <= set(kinds), name
    for kind in kinds.values():
        assert kind.source and kind.presents_without and all(x.source for x in kind.lines)
    for rule in load_rules().rules.values():
        assert rule.metric in defs.metrics and rule.source
    for concept_set in defs.sets.values():
        assert set(concept_set.concepts) <= set(defs.concepts) and concept_set.source


@pytest.mark.parametrize(("value", "unit", "decimals", "scale", "shown"), [
    (0.0196, "percent", 1, None, "2.0%"), (-1561e6, "USD", None, None, "-$1,561 million"),
    (389e6, "USD", None, "billions", "$0.39 billion"), (45.104, "days", None, None,
                                                        "45.10 days"),
    # a ratio its rounding leaves one digit of is written as a percentage too
    (0.678, "ratio", 1, None, "0.7 (67.8%)"), (0.51, "ratio", 2, None, "0.51"),
    (2.26, "ratio", 2, None, "2.26"),
])
def test_formatting(value: float, unit: str, decimals: int | None, scale: str | None,
                    shown: str) -> None:
    assert format_value(value, unit, decimals, scale) == shown


# --- a real filing ---------------------------------------------------------------------------


@pytest.mark.slow
def test_3m_metrics_from_its_real_facts_cite_rows_the_verifier_accepts() -> None:
    if not THREE_M.exists():
        pytest.skip(f"{THREE_M} is absent (../shared is not mounted)")
    from rag_assets.core.ingest.facts import extract_facts
    from rag_assets.core.ingest.statements import classify_pages, page_lines
    from rag_assets_tests.real_filings import real_filing

    doc = real_filing(THREE_M)
    facts = extract_facts("3m-10k", 2018, doc.pages, classify_pages(
        [page_lines(p) for p in doc.pages]))
    pages = PageTexts.from_pages("3m-10k", 2018, doc.pages)
    revenue = ask("What is 3M's FY2018 net sales in USD millions?", facts)
    # named as asked and as printed ("Net sales"), not by the vocabulary's title
    assert revenue.headline == "Acme's FY2018 net sales is $32,765 million."
    ratio = ask("What is 3M's FY2018 working capital ratio?", facts)
    current = next(o for o in ratio.operands if o.concept == "current_liabilities")
    assert current.value == 7244e6
    assets = ask("What is the FY2018 total asset turnover for 3M?", facts)
    assert any(o.concept == "total_assets" and o.value == 36500e6 for o in assets.operands)
    for answer in (revenue, ratio, assets):
        checked = verify_claims(answer.claims(), pages)
        marks = [c.mark for claim in checked for c in claim.citations]
        assert marks and set(marks) == {"valid"}, [
            c.reason for claim in checked for c in claim.citations]


# --- definitions that reuse a name, or name printed labels the vocabulary lacks --------------


def test_a_definition_reusing_a_line_items_name_is_the_questions_own_metric() -> None:
    # issue 36: "circular definition of operating_cash_flow" was raised out of ``ask``
    for question in (
            "What is the FY2019 operating cash flow ratio for Acme? Operating cash flow ratio is "
            "defined as: cash from operations / total current liabilities.",
            "What is the FY2019 operating cash flow ratio for Acme (cash from operations "
            "divided by total current liabilities)?",
            "What is the FY2019 operating cash flow for Acme? Operating cash flow = cash from "
            "operations / total current liabilities."):
        a = ask(question)
        assert a.status == "answered", (question, a.headline)
        assert a.value == pytest.approx(1831 / 3000)
        assert a.headline.endswith(" is 0.61 (cash flow from operating activities of $1,831 "
                                   "million / total current liabilities of $3,000 million)."), \
            a.headline
        assert {o.concept for o in a.operands} == {"operating_cash_flow", "current_liabilities"}
    # a stored metric defined with a word that is also one of its aliases: the line item
    margin = ask("What is Acme's FY2019 gross margin? Gross margin = gross profit / revenue.")
    assert margin.question.stated == "gross_profit / revenue"
    assert margin.value == pytest.approx((6489 - 2000) / 6489)


@pytest.mark.parametrize(("question", "concepts", "formula"), [
    ("What is Acme's FY2019 cash ratio?", {"cash", "current_liabilities"},
     lambda v: v["cash"] / v["current_liabilities"]),
    ("What is Acme's FY2019 operating cash flow ratio?",
     {"operating_cash_flow", "current_liabilities"},
     lambda v: v["operating_cash_flow"] / v["current_liabilities"]),
    # the debt is read from its parts the balance sheet prints (here its noncurrent part)
    ("What is Acme's FY2019 debt to capital ratio?", {"long_term_debt_noncurrent", "equity"},
     lambda v: v["long_term_debt_noncurrent"] / (v["long_term_debt_noncurrent"] + v["equity"])),
    ("What is Acme's FY2019 long-term debt to total capital ratio?",
     {"long_term_debt_noncurrent", "equity"},
     lambda v: v["long_term_debt_noncurrent"] / (v["long_term_debt_noncurrent"] + v["equity"])),
    ("What is Acme's FY2019 debt to assets ratio?", {"long_term_debt_noncurrent", "total_assets"},
     lambda v: v["long_term_debt_noncurrent"] / v["total_assets"]),
    ("What is Acme's FY2019 pretax margin?", {"pretax_income", "revenue"},
     lambda v: v["pretax_income"] / v["revenue"]),
    ("What is Acme's FY2019 unadjusted EBITDA less capital expenditures?",
     {"operating_income", "depreciation_amortization", "capital_expenditure"},
     lambda v: v["operating_income"] + v["depreciation_amortization"]
     - abs(v["capital_expenditure"])),
    ("What is Acme's FY2019 capital expenditure to operating cash flow ratio?",
     {"capital_expenditure", "operating_cash_flow"},
     lambda v: abs(v["capital_expenditure"]) / v["operating_cash_flow"]),
    ("What is Acme's FY2019 liabilities to equity ratio?", {"total_liabilities", "equity"},
     lambda v: v["total_liabilities"] / v["equity"]),
    ("What is Acme's FY2019 return on capital employed?",
     {"operating_income", "total_assets", "current_liabilities"},
     lambda v: v["operating_income"] / (v["total_assets"] - v["current_liabilities"])),
    ("What is Acme's FY2019 payout ratio including buybacks?",
     {"dividends_paid", "share_repurchases", "net_income"},
     lambda v: (abs(v["dividends_paid"]) + abs(v["share_repurchases"])) / v["net_income"]),
])
def test_a_liquidity_or_capital_ratio_is_computed_by_its_own_definition(
        question: str, concepts: set[str], formula: Any) -> None:
    """The cash ratio and the operating cash flow ratio are ratios over current liabilities,
    not the cash or the cash flow alone; debt to capital is over debt and equity (CFA L1 FSA)."""
    a = ask(question, [*ACME, balance("cash", 2019, 4750, "Cash and cash equivalents"),
                       balance("equity", 2019, 11500, "Total shareholders' equity"),
                       cash("share_repurchases", 2019, -400, "Repurchases of common stock"),
                       balance("total_liabilities", 2019, 8345, "Total liabilities")])
    assert a.status == "answered", a.headline
    values = {o.concept: o.value for o in a.operands}
    assert set(values) >= concepts, values
    assert a.value == pytest.approx(formula(values))


def test_restructuring_costs_are_the_income_statements_own_line() -> None:
    """"What is the quantity of restructuring costs directly outlined in its income
    statement?" is the line's figure; with no such line, nothing is made up."""
    facts = [*ACME, fact("restructuring_costs", 2019, 170.4, "Restructuring charges")]
    asked = ("What is the quantity of restructuring costs directly outlined in Acme's income "
             "statement for FY2019?")
    a = ask(asked, facts)
    assert a.question.target == "restructuring_costs" and a.value == pytest.approx(170.4e6)
    assert ask(asked).status != "answered"


@pytest.mark.parametrize(("question", "opens"), [
    ("Is Acme's dividend sustainable based on its FY2019 payout ratio?", "Yes."),
    ("Is Acme's dividend at risk in FY2019?", "No."),
])
def test_a_dividends_sustainability_is_judged_on_its_payout_ratio(question: str,
                                                                   opens: str) -> None:
    """judgment_rules.json's dividend_coverage: Acme pays 285 of 1,503 (19%): comfortably
    covered, so sustainable and not at risk; the rule is stated."""
    a = ask(question)
    assert a.headline.startswith(opens), a.headline
    assert "comfortably covered by earnings" in a.headline


@pytest.mark.parametrize(("question", "opens", "ends"), [
    ("Is Acme's gross margin above 50% in FY2019?", "Yes.", "above the 50% asked."),
    ("Is Acme's current ratio below 2 at the end of FY2019?", "No.", "above the 2 asked."),
    ("Is Acme's gross margin at least 69.2% in FY2019?", "Yes.", "at the 69.2% asked."),
    # an amount against an amount written in dollars: net income 1,503 (millions)
    ("Did Acme's net income exceed $1 billion in FY2019?", "Yes.",
     "above the $1 billion asked."),
    ("Was Acme's FY2019 net income less than $1.5 billion?", "No.",
     "above the $1.5 billion asked."),
    ("Did Acme earn net income of at least $1,503 million in FY2019?", "Yes.",
     "at the $1,503 million asked."),
])
def test_a_level_asked_is_compared_with_the_value(question: str, opens: str,
                                                   ends: str) -> None:
    """"Is its effective tax rate above the 21% statutory rate?": the value against the level
    written, a percent metric's level read as the fraction it is (gross margin 69.2%, current
    ratio 2.43)."""
    a = ask(question)
    assert a.headline.startswith(opens) and a.headline.endswith(ends), a.headline


@pytest.mark.parametrize(("question", "opens", "said"), [
    # revenue 7,500 to 6,489: down 1,011 (13.5%)
    ("Did Acme's revenue fall by more than $1 billion in FY2019?", "Yes.",
     "by $1,011 million (13.5%), more than the $1 billion asked."),
    ("Did Acme's revenue decrease by more than 15% in FY2019?", "No.",
     "(13.5%), less than the 15% asked."),
    ("Did Acme's revenue fall to less than $7 billion in FY2019?", "Yes.",
     "less than the $7 billion asked."),  # the level it fell to
    # gross margin 68.0% to 69.2%: up 1.2 points, 120 basis points
    ("Did Acme's gross margin expand by more than 100 basis points in FY2019?", "Yes.",
     "more than the 100 basis points asked"),
    ("Did Acme's gross margin rise by at least 2 percentage points in FY2019?", "No.",
     "less than the 2 percentage points asked"),
])
def test_a_move_asked_beyond_a_level_is_compared_with_it(question: str, opens: str,
                                                          said: str) -> None:
    """"Did its net income increase by more than $500 million?": the direction alone is no
    yes; the move (or the level it reached, "to less than") is compared with the level."""
    a = ask(question)
    assert a.headline.startswith(opens) and said in a.headline, a.headline


def test_a_percentage_asked_of_a_percentages_move_gives_no_yes_or_no() -> None:
    """Gross margin 68.0% to 69.2%: "by more than 1%" may be points or a relative change."""
    a = ask("Did Acme's gross margin increase by more than 1% in FY2019?")
    assert not a.headline.startswith(("Yes.", "No.")), a.headline


@pytest.mark.parametrize("question", [
    # a streaming company's content amortization (ASC 920-350) is no D&A of the statements
    "What was Acme's content amortization in FY2019?",
    # cash paid for something is an outflow, never the cash balance
    "How did Acme's content amortization compare with its cash payments for content assets "
    "in FY2019?",
])
def test_a_kind_or_a_payment_of_a_line_item_is_no_line_item(question: str) -> None:
    assert parse_text(question) is None


@pytest.mark.parametrize("question", [
    "Is Acme's current ratio above $2 billion at the end of FY2019?",  # a ratio is no amount
    "Was Acme's FY2019 net income above 1,000?",  # an amount's level written without dollars
])
def test_a_level_of_another_kind_than_the_value_is_not_compared(question: str) -> None:
    a = ask(question)
    assert not a.headline.startswith(("Yes.", "No.")), a.headline


def test_a_net_cash_position_and_a_net_loss_are_judged_not_read_as_amounts() -> None:
    """"Did it have a net cash position?" is net debt below zero, never "Yes" because it holds
    cash; "Did it report a net loss?" is the profitability judgment's, never a quote."""
    facts = [*ACME, balance("cash", 2019, 4750, "Cash and cash equivalents")]
    cash = ask("Did Acme have a net cash position at the end of FY2019?", facts)
    assert cash.headline.startswith("Yes. Acme's FY2019 net debt is -$2,075 million"), \
        cash.headline
    owing = [*ACME, balance("cash", 2019, 500, "Cash and cash equivalents")]
    assert ask("Does Acme have more cash than debt at the end of FY2019?", owing) \
        .headline.startswith("No.")
    loss = ask("Did Acme report a net loss in FY2019?")
    assert loss.headline.startswith("No.") and "profitable" in loss.headline


def test_how_many_times_it_sold_its_inventory_is_its_inventory_turnover() -> None:
    """Issue 38's "sold its inventory how many times": a turnover, not the inventory's level."""
    facts = [*ACME, balance("inventory", 2019, 500, "Inventories"),
             balance("inventory", 2018, 300, "Inventories")]
    a = ask("Roughly how many times has Acme sold its inventory in FY2019?", facts)
    assert a.question.target == "inventory_turnover" and a.value == pytest.approx(2000 / 400)


def test_a_change_named_as_a_noun_is_the_years_change_not_its_level() -> None:
    """"What is its FY2019 net income growth?", "... FY2019 change in revenue?": the move from
    the year before, never the year's level answered as if it were the change."""
    for question in ("What is Acme's FY2019 operating income growth?",
                     "What is Acme's FY2019 change in operating income?"):
        a = ask(question)
        assert a.question.aggregate == "trend" and a.question.years == [2018, 2019], question
        assert a.headline.startswith("Acme's operating income decreased from $1,988 million in "
                                     "FY2018 to $1,607 million in FY2019, by $381 million"), \
            a.headline


def test_a_definition_naming_printed_labels_is_matched_to_the_rows_by_their_words() -> None:
    facts = [*ACME,
             cash(None, 2019, -116, "Payments for acquisition of property, plant and equipment"),
             balance(None, 2019, 1200, "Accounts and notes receivable, less allowances"),
             balance(None, 2018, 1000, "Accounts and notes receivable, less allowances")]
    a = ask("What is Acme's FY2019 receivable days? Receivable days is defined as: 365 * "
            "(average accounts and notes receivable between FY2018 and FY2019) / FY2019 "
            "revenue.", facts)
    assert a.status == "answered", a.headline
    assert a.value == pytest.approx(365 * 1100 / 6489)
    assert {o.label for o in a.operands} >= {"Accounts and notes receivable, less allowances"}
    b = ask("What is Acme's FY2019 capex ratio? Capex ratio is defined as: payments for "
            "acquisition of property, plant and equipment / revenue.", facts)
    assert b.value == pytest.approx(-116 / 6489)  # as printed: no concept says it is a magnitude
    # a label no statement prints: what the reader did not find, never a dump of a statement
    c = ask("What is Acme's FY2019 store ratio? Store ratio is defined as: number of stores / "
            "revenue.")
    assert c.status == "missing"
    assert 'the reader did not find a row "number of stores" for FY2019' in c.headline


@pytest.mark.parametrize(("question", "opening", "verdict"), [
    # the yes/no is the verdict's: moderately capital-intensive is a yes to "capital-intensive?"
    ("Is Acme a capital-intensive business based on FY2019 data?", "Yes.",
     "moderately capital-intensive"),
    ("Is Acme an asset-light business based on FY2019 data?", "No.",
     "moderately capital-intensive"),
    ("Does Acme have negative working capital based on FY2019 data?", "No.",
     "positive working capital"),
])
def test_a_judgments_first_word_agrees_with_its_verdict(question: str, opening: str,
                                                        verdict: str) -> None:
    capex = [f if f.concept != "capital_expenditure" else f.model_copy(
        update={"value": f.value * 3}) for f in ACME]  # 348 / 6,489: 5.4% of revenue
    a = ask(question, capex)
    # the verdict closes the rule's own sentence; the metrics stated beside it follow
    assert a.headline.startswith(opening) and f": {verdict}; its " in a.headline, a.headline


def test_a_judgment_states_the_metrics_an_analyst_reads_beside_its_own() -> None:
    """Capital intensity is read on capex, on what the plant's use costs, on how much of the
    assets is plant and on how slowly the assets turn over (judgment_rules.json's ``also``),
    each with its computation in words and cited, an operand the sentence already gave named
    by its title alone; a metric the facts cannot compute is left out, never making the
    judgment missing."""
    a = ask("Is Acme a capital-intensive business based on FY2019 data?")
    assert a.status == "answered"
    assert ": capital-light; its depreciation as a % of revenue is " in a.headline, a.headline
    assert ", its fixed asset turnover is 24.26 (revenue / average PP&E (net) of $267.5 " \
           "million) and its total asset turnover is 0.34 (revenue / average total assets of " \
           "$18,867.5 million)." in a.headline, a.headline
    assert a.headline.count("revenue of $6,489 million") == 1
    assert "Total assets" in {o.label for o in a.operands}
    bare = [f for f in ACME if f.concept != "total_assets"]
    b = ask("Is Acme a capital-intensive business based on FY2019 data?", bare)
    assert b.status == "answered" and "total asset turnover" not in b.headline


def test_a_term_defined_after_where_is_written_out_in_its_definition() -> None:
    parsed = parse_question(read_question(
        "What is Acme's FY2020 interest coverage ratio? Define it as EBIT divided by interest "
        "expense, where EBIT is operating income."))
    assert parsed is not None
    assert parsed.formulas[parsed.target] == "(operating_income) / interest_expense"


def test_a_definition_in_parentheses_with_over_and_its_sources_said() -> None:
    """"(X over Y)" divides; "per the cash flow statement" says where a term is printed, and a
    name outside the vocabulary after "Calculate" is the metric the parentheses define."""
    a = ask("Calculate Acme's FY2019 current ratio (total current assets over total current "
            "liabilities per the balance sheet), to one decimal place.")
    assert a.question.stated == "current_assets / current_liabilities"
    assert a.question.decimals == 1
    b = parse_text("Calculate Acme's efficiency ratio (total noninterest expense over total "
                   "net revenue) for FY2019.")
    assert b is not None and b.titles[b.target] == "efficiency ratio"
    assert b.formulas[b.target] == "row('total noninterest expense') / revenue"
    # "average X" is the average of two year-ends; "A minus B over C" divides the difference
    d = parse_text("What is Acme's FY2019 asset turnover (revenue over average total assets)?")
    assert d is not None and d.stated == "revenue / avg(total_assets)"
    e = parse_text("What is Acme's FY2019 test ratio? It is defined as revenue minus cost of "
                   "goods sold divided by revenue.")
    assert e is not None and e.stated == "(revenue - cost_of_revenue) / (revenue)"
    # a ratio named "A to B" is the question's own, not its second term redefined
    f = parse_text("What is Acme's FY2019 net debt to EBITDA (total debt minus cash over "
                   "EBITDA)?")
    assert f is not None and f.target == "q_net_debt_to_ebitda"
    assert f.formulas[f.target] == "(total_debt - cash) / (ebitda)"
    ratio_of = parse_text("What is Acme's FY2019 ratio of net debt to EBITDA (total debt minus "
                          "cash over EBITDA)?")
    assert ratio_of is not None and ratio_of.target == "q_net_debt_to_ebitda"
    # the known term may come first: "free cash flow to sales" is not free cash flow redefined
    g = parse_text("What is Acme's FY2019 free cash flow to sales (operating cash flow minus "
                   "capital expenditures over revenue)?")
    assert g is not None and g.target == "q_free_cash_flow_to_sales", g.target
    h = parse_text("What is Acme's FY2019 debt to equity (total debt over shareholders' "
                   "equity)?")
    assert h is not None and h.target == "debt_to_equity"


@pytest.mark.parametrize("text", [
    "What is Acme's revenue growth (over the prior year) in FY2019?",
    "What is Acme's FY2019 revenue growth (growth over fiscal 2018)?",
    "What was Acme's revenue growth (quarter over quarter) in Q2 2019?",
    "What was Acme's FY2019 revenue (an increase over fiscal 2018)?",
    "What was Acme's FY2019 revenue growth (percent change over FY2018)?",
    "What is Acme's FY2019 revenue growth (up 5% over the prior year)?",
])
def test_an_over_that_is_no_division_defines_nothing(text: str) -> None:
    parsed = parse_text(text)
    assert parsed is None or parsed.stated is None, parsed.stated


def test_a_line_item_defined_as_itself_is_no_optional_zero() -> None:
    """opt() is a sum's convention: a question asking the line item itself must find it."""
    parsed = parse_question(read_question(
        "What were Acme's short-term investments in FY2022, defined as short-term investments "
        "on the balance sheet?"))
    assert parsed is not None and parsed.target == "short_term_investments"
    assert not any("opt(" in f for f in parsed.formulas.values())


@pytest.mark.parametrize(("phrase", "label", "distance"), [
    ("SG&A expenses", "Selling, general and administrative expense", 0),
    ("diluted weighted average shares outstanding",
     "Weighted-average shares outstanding: Diluted", 0),  # the same words in another order
    ("R&D expenses", "Research and development", 3),  # "expenses" left implied
    ("cost of services", "Services", None),  # a revenue line is no cost
    ("cash dividends", "Cash", None),
])
def test_a_definitions_phrase_against_printed_labels(phrase: str, label: str,
                                                      distance: int | None) -> None:
    assert _label_distance(_label_words(phrase), label) == distance


def test_an_issuance_or_repayment_asked_is_no_balance() -> None:
    """A balance at the period's end says nothing of the period's events: "Did Corning issue
    or repay any debt in Q2 2023?" was once answered "Yes. ... total debt is $7,624 million".
    It asks the flows that move the balance (finance_terms.json's ``flows``); an event no flow
    names is no metric question."""
    both = parse_question(read_question("Did Corning issue or repay any debt in Q2 2023?"))
    assert both is not None and both.aggregate == "each" and both.yes_no
    assert both.choices == ["debt_issued", "debt_repaid"]
    repaid = parse_question(read_question("How much long-term debt did Acme repay in 2022?"))
    assert repaid is not None and repaid.target == "debt_repaid" and not repaid.yes_no
    assert parse_question(read_question(
        "Did Walmart borrow under its credit facility in fiscal 2024?")) is None
    why = parse_question(read_question("How did Acme's total debt change in 2022, and why?"))
    assert why is not None and why.aggregate == "trend"
    assert why.explained_by == ["debt_issued", "debt_repaid"]
    how = parse_question(read_question("How did Netflix's debt change in FY2017?"))
    assert how is not None and how.explained_by == ["debt_issued", "debt_repaid"]  # its manner
    size = parse_question(read_question("By how much did Netflix's debt change in FY2017?"))
    assert size is not None and size.aggregate == "trend" and size.explained_by == []
    held = parse_question(read_question("Does Corning have any debt as of 2023?"))
    assert held is not None and held.target == "total_debt" and held.yes_no
    paid = parse_question(read_question("Did Costco pay dividends in fiscal 2021?"))
    assert paid is not None and paid.yes_no  # a flow's amount answers whether it was paid


def test_a_balances_own_change_asked_beside_an_issuance_is_its_trend() -> None:
    """"Did Netflix's long-term debt increase in 2017 after it issued new senior notes?" asks
    the balance's change: a trend, whatever event the question names beside it."""
    found = parse_question(read_question("Did Netflix's long-term debt increase in 2017 after "
                                         "it issued new senior notes?"))
    assert found is not None and found.aggregate == "trend" and found.yes_no
    cash = parse_question(read_question("Did Walmart's cash balance decline after it repaid debt "
                                        "in fiscal 2022?"))
    assert cash is not None and cash.target == "cash" and cash.aggregate == "trend"


def test_an_amounts_definition_that_divides_defines_the_margin_asked() -> None:
    # "unadjusted EBITDA ... divided by revenue" defines the margin, not the amount: EBITDA is
    # not divided by revenue twice
    text = ("What is Acme's FY2019 unadjusted EBITDA margin? Define unadjusted EBITDA as "
            "operating income plus depreciation and amortization, divided by revenue.")
    parsed = parse_text(text)
    assert parsed is not None and parsed.target == "ebitda_margin"
    assert list(parsed.formulas) == ["ebitda_margin"]
    a = ask(text)
    assert a.status == "answered"
    assert round(a.value, 4) == round((1607 + 328) / 6489, 4)  # 29.8%
    assert "29.8%" in a.headline and a.headline.count("%") == 1
    # the amount defined alone stays the amount
    amount = parse_text("What is Acme's FY2019 unadjusted EBITDA? Define unadjusted EBITDA as "
                        "operating income plus depreciation and amortization.")
    assert amount is not None and list(amount.formulas) == ["ebitda"]


def test_a_ratio_written_as_a_percentage_says_it_once() -> None:
    a = ask("What is Acme's FY2019 return on assets? Define ROA as net income divided by "
            "average total assets between FY2018 and FY2019.")
    # 1,503 / ((17,890 + 19,845) / 2) = 0.0797: "0.08 (8.0%)", the percentage written once
    assert a.headline.count("8.0%") == 1 and "(8.0%; net income of $1,503 million" in \
        a.headline, a.headline


def test_a_ratio_of_a_percent_metric_gives_its_percentage_then_its_computation() -> None:
    a = ask("What is Acme's FY2019 unadjusted EBITDA margin? Define unadjusted EBITDA as "
            "operating income plus depreciation and amortization, divided by revenue.")
    assert a.headline == (
        "Acme's FY2019 EBITDA margin is 0.30 (29.8%; (operating income of $1,607 million + "
        "depreciation and amortization of $328 million) / revenue of $6,489 million).")


def test_a_change_a_definition_names_is_worded_with_both_years() -> None:
    a = ask("What is Acme's FY2019 revenue change ratio? Define it as the change in revenue "
            "between FY2018 and FY2019 divided by FY2019 revenue.")
    assert a.headline == (
        "Acme's FY2019 revenue change ratio is -0.16 ((revenue of $6,489 million - revenue "
        "(FY2018) of $7,500 million) / revenue of $6,489 million).")


def test_a_quotient_named_after_an_amount_is_a_ratio_of_the_questions_own() -> None:
    # "free cash flow conversion" defined as a quotient is no free cash flow (an amount)
    a = ask("What is Acme's FY2019 free cash flow conversion? Define it as (cash from "
            "operations minus capital expenditures) divided by net income.")
    assert a.status == "answered"
    assert round(a.value, 4) == round((1831 - 116) / 1503, 4)  # 1.14
    assert "free cash flow conversion is 1.14 ((cash flow from operating activities of $1,831" \
        " million - capital expenditure of $116 million) / net income of $1,503 million)." \
        in a.headline
    # the amount defined as an amount stays free cash flow
    b = ask("What is Acme's FY2019 free cash flow? Define it as cash from operations minus "
            "capital expenditures.")
    assert "free cash flow is $1,715" in b.headline, b.headline


def test_a_total_of_a_line_item_is_that_line_item() -> None:
    a = ask("What is Acme's FY2019 retention ratio? Define it as (net income minus total cash "
            "dividends) divided by net income.")
    assert a.status == "answered"
    assert round(a.value, 4) == round((1503 - 285) / 1503, 4)  # 0.81


def test_a_ratio_of_a_defined_term_is_asked_not_the_term() -> None:
    # net debt defined, then EBITDA in the same sentence: the question asks net debt to EBITDA
    text = ("What is Acme's FY2019 net debt to EBITDA? Define net debt as total debt minus "
            "cash and cash equivalents, and EBITDA as operating income plus depreciation and "
            "amortization from the cash flow statement.")
    parsed = parse_text(text)
    assert parsed is not None and parsed.target == "q_net_debt_to_ebitda"
    assert parsed.formulas["net_debt"] == "total_debt - cash"  # the vocabulary's net debt
    assert parsed.formulas["ebitda"] == "operating_income + depreciation_amortization"
    a = ask(text, [*ACME, balance("cash", 2019, 1000, "Cash and cash equivalents")])
    assert a.status == "answered", a.missing
    # (2,675 of long-term debt - 1,000 of cash) / (1,607 + 328) = 0.87
    assert round(a.value, 4) == round((2675 - 1000) / (1607 + 328), 4)
    assert "net debt to ebitda is 0.87" in a.headline.lower(), a.headline


@pytest.mark.parametrize(("question", "target", "formula"), [
    # asked without definitions: the vocabulary's net debt over its EBITDA, never one alone
    ("What is Acme's FY2019 net debt to EBITDA ratio?", "q_net_debt_to_ebitda",
     "(net_debt) / (ebitda)"),
    ("What is Acme's FY2019 cash to current liabilities?", "q_cash_to_current_liabilities",
     "(cash) / (current_liabilities)"),
    ("What is Acme's FY2019 total current assets / total assets ratio?",
     "q_total_current_assets_total_assets", "(current_assets) / (total_assets)"),
    ("What is Acme's FY2019 net debt?", "net_debt", None),
    # a ratio of an amount the vocabulary does not name: neither amount alone, the quotes
    ("What is Acme's FY2019 long-term debt to total capitalization?", None, None),
    ("What was Acme's net income attributable to shareholders in FY2019?", "net_income", None),
    # a ratio metric written out ("as gross profit over ...") stays that metric; a line item's
    # own "to" ("additions to property and equipment") joins no ratio
    ("Calculate Acme's gross margin for FY2019 as gross profit over net revenues, to one "
     "decimal place.", "gross_margin", None),
    ("How much free cash flow did Acme generate in FY2019, measured as net cash provided by "
     "operating activities less additions to property and equipment?", "free_cash_flow", None),
])
def test_two_amounts_asked_as_a_ratio_are_their_ratio(question: str, target: str | None,
                                                       formula: str | None) -> None:
    parsed = parse_text(question)
    if target is None:
        assert parsed is None
        return
    assert parsed is not None and parsed.target == target
    assert parsed.formulas.get(target) == formula


@pytest.mark.parametrize(("text", "target", "formula"), [
    # a share no metric names: its part divided by its whole, neither of them alone
    ("What is Acme's FY2019 advertising expense as a percentage of revenue?",
     "q_advertising_expense_as_a_percent_of_revenue", "row('advertising expense') / revenue"),
    ("What is Acme's FY2019 operating income as a percent of net sales?",
     "q_operating_income_as_a_percent_of_net_sales", "operating_income / revenue"),
    ("What was Acme's net income as a percentage of total revenue in FY2019?",
     "q_net_income_as_a_percent_of_total_revenue", "net_income / revenue"),
    # a share the vocabulary names as a metric
    ("What is Acme's FY2019 capex as a percentage of revenue?", "capex_to_revenue", None),
    ("What is Acme's FY2019 SG&A as a percentage of revenue?", "sga_to_revenue", None),
    ("What is Acme's FY2019 cost of goods sold as a % of revenue?", "cogs_to_revenue", None),
    # a percentage metric said as a percentage of its base is itself
    ("Calculate Acme's gross margin as a percentage of net sales for FY2019.", "gross_margin",
     None),
])
def test_a_share_is_never_answered_with_its_part_or_its_whole(
        text: str, target: str, formula: str | None) -> None:
    parsed = parse_text(text)
    assert parsed is not None and parsed.target == target
    assert parsed.formulas.get(target) == formula
    if formula:
        assert parsed.percent


@pytest.mark.parametrize(("text", "target"), [
    ("What drove the change in Acme's operating margin in FY2022?", "operating_margin"),
    ("Why did Acme's net sales increase in fiscal 2021?", "revenue"),
    ("What caused Acme's effective tax rate to change in FY2018?", "effective_tax_rate"),
    ("What drove operating margin change as of FY2022 for Acme?", "operating_margin"),
    # growth is a change already: its causes are those of the line item's change
    ("What drove Acme's revenue growth in fiscal 2019?", "revenue"),
    # the year before named as what the change is measured from: one change, the later year's
    ("What drove the change in Acme's net sales in Q1 2021 compared with Q1 2020?", "revenue"),
    # a value asked with why it changed: the year named, one change
    ("What was Acme's effective tax rate in FY2018, and why did it change?",
     "effective_tax_rate"),
])
def test_a_cause_question_names_the_measure_whose_change_it_explains(text: str,
                                                                     target: str) -> None:
    """The causes are of a change: the measure a cause question names, as its change from
    the period before, is what the statements compute beside them; no metric question."""
    question = read_question(text)
    assert question.expects == "cause" and parse_question(question) is None
    change = parse_change(question)
    assert change is not None and change.target == target
    assert change.aggregate == "trend" and not change.yes_no and len(change.years) == 1
    assert change.years[0] == max(question.years)


def test_no_change_is_parsed_from_a_question_that_asks_no_cause() -> None:
    for text in ("What is Acme's FY2022 operating margin?", "Who is Acme's largest customer?",
                 "What drove Acme's growth in 2021 and 2022?",
                 "What drove the change in Acme's net sales in 2021 and 2022?"):
        assert parse_change(read_question(text)) is None, text


def test_a_yes_or_no_on_a_values_sign_says_which() -> None:
    """"Does it have positive free cash flow?" is answered by the sign of the value computed:
    Acme's FY2019 free cash flow is positive."""
    positive = ask("Does Acme have positive free cash flow in FY2019?")
    negative = ask("Did Acme have negative free cash flow in FY2019?")
    assert positive.status == negative.status == "answered"
    assert positive.headline.startswith("Yes. Acme's FY2019 free cash flow is $")
    assert negative.headline.startswith("No. Acme's FY2019 free cash flow is $")


@pytest.mark.parametrize(("question", "opening"), [
    ("Did Acme pay dividends in FY2019?", "Yes. "),
    ("Does Acme have any capital expenditure in FY2019?", "Yes. "),
    # a quality of the amount is not its size: no yes or no from a value that is not zero
    ("Is Acme's FY2019 capital expenditure sustainable?", "Acme's FY2019 "),
    ("Was Acme's FY2019 revenue impressive?", "Acme's FY2019 "),
    # "more than 10% of revenue" is a share of revenue: revenue alone settles nothing
    ("Does any account for more than 10% of Acme's FY2019 revenue?", "Acme's FY2019 "),
])
def test_a_values_size_answers_only_whether_it_is_there(question: str, opening: str) -> None:
    answer = ask(question)
    assert answer.status == "answered" and answer.headline.startswith(opening), answer.headline


def test_a_share_asked_as_percent_of_without_an_article_is_a_share() -> None:
    """"SG&A as % of total revenue" (no "a") is SG&A over revenue, never revenue's amount."""
    share = parse_text("What is Acme's FY2019 SG&A as % of total revenue?")
    assert share is not None and share.percent and share.target != "revenue"


def test_a_change_too_small_to_show_is_worded_unchanged() -> None:
    """General Mills' effective tax rate was 33.3% in fiscal 2014 and 2015: no "increased
    slightly ... by 0.0 percentage points"."""
    facts = [fact("revenue", 2019, 1000, "Net sales", total=True),
             fact("revenue", 2018, 1000, "Net sales", total=True),
             fact("cost_of_revenue", 2019, 600.4, "Cost of sales"),
             fact("cost_of_revenue", 2018, 600.0, "Cost of sales")]
    improved = ask("Did Acme's gross margin improve between FY2018 and FY2019?", facts)
    assert improved.headline == ("No. Acme's gross margin was unchanged at 40.0% in FY2018 and "
                                 "in FY2019.")
    moved = ask("How did Acme's gross margin change between FY2018 and FY2019?",
                [*facts[:3], fact("cost_of_revenue", 2018, 590.0, "Cost of sales")])
    assert moved.headline.startswith(
        "Acme's gross margin decreased from 41.0% in FY2018 (gross profit of $410 million / "
        "net sales of $1,000 million) to 40.0% in FY2019"), moved.headline
    assert "in FY2019 (gross profit of $399.6 million / net sales of $1,000 million), by 1.0 " \
           "percentage points, or 100 basis points (a deterioration" in moved.headline


def test_a_change_asked_of_no_year_is_the_latest_against_its_prior() -> None:
    """Ulta Beauty's release: "How much did its merchandise inventories change compared with
    the prior year?" names no year: the latest balance against the one before."""
    facts = [fact("inventory", 2019, 1603.451, "Merchandise inventories, net", months=None,
                  statement="balance_sheet"),
             fact("inventory", 2018, 1499.218, "Merchandise inventories, net", months=None,
                  statement="balance_sheet")]
    answer = ask("How much did Acme's merchandise inventories change compared with the prior "
                 "year?", facts)
    assert answer.status == "answered" and "increased from $1,499.218 million in FY2018 to " \
        "$1,603.451 million in FY2019, by $104.233 million" in answer.headline, answer.headline


@pytest.mark.parametrize("question", [
    "Did Acme repurchase any shares in Q1 fiscal 2024?",
    "Did Acme repurchase any of its shares in FY2018?",
    "Did Acme buy back any shares in fiscal 2022, and how much did it spend?",
])
def test_a_buyback_asked_with_any_is_the_repurchases(question: str) -> None:
    parsed = parse_text(question)
    assert parsed is not None and parsed.target == "share_repurchases", parsed


@pytest.mark.parametrize(("question", "formula", "yes_no"), [
    ("Was Acme's free cash flow in fiscal 2022 enough to cover its share repurchases?",
     "free_cash_flow / share_repurchases", True),
    ("Was Acme's operating cash flow sufficient to fund its capital expenditures and dividends "
     "in fiscal 2022?", "operating_cash_flow / (capital_expenditure + dividends_paid)", True),
    # "share repurchases" names no share of anything
    ("How many times did Acme's free cash flow cover its share repurchases in fiscal 2022?",
     "free_cash_flow / share_repurchases", False),
    # a term the question defines is read in the coverage, not taken for what is asked
    ("Was Acme's free cash flow in fiscal 2022 enough to cover its share repurchases? Define "
     "free cash flow as net cash provided by operating activities minus capital expenditures.",
     "free_cash_flow / share_repurchases", True),
])
def test_a_coverage_is_one_amount_over_another(question: str, formula: str,
                                               yes_no: bool) -> None:
    q = parse_text(question)
    assert q is not None and q.covers and q.yes_no is yes_no
    assert q.stated == formula and q.years == [2022]
    if "Define" in question:
        assert q.formulas["free_cash_flow"] == "operating_cash_flow - capital_expenditure"


def test_the_shares_of_members_named_by_a_pronoun_are_no_metric() -> None:
    """"How much of 2019 net revenues did each account for?" asks the customers' shares a
    sentence lists, never the total revenue; a member named is a share of it."""
    assert parse_text("How much of Acme's 2019 net revenues did each account for?") is None
    named = parse_text("How much of Acme's 2019 net revenues did Apple account for?")
    assert named is not None and named.stated == "row('apple') / revenue"


def test_two_balance_dates_of_one_year_are_not_read_as_two_fiscal_years() -> None:
    """Foot Locker's 10-Q prints inventories at October 29, 2022, October 30, 2021 and January
    29, 2022: a change from January 29, 2022 to October 29, 2022 is no change between fiscal
    years, which the facts' years key (it was answered with the October 30, 2021 column)."""
    assert parse_text("By how much did Foot Locker's merchandise inventories change from "
                      "January 29, 2022 to October 29, 2022?") is None
    between = parse_text("By how much did Foot Locker's merchandise inventories increase "
                         "between October 30, 2021 and October 29, 2022?")
    assert between is not None and between.years == [2021, 2022]


@pytest.mark.parametrize("verb", ["improve", "worsen", "deteriorate", "weaken", "strengthen"])
def test_how_much_a_measure_improved_asks_its_change_against_the_year_before(verb: str) -> None:
    """"How much did Netflix's operating cash flow improve in 2020?" asks the change from 2019
    to 2020 (an outflow of $2,887 million to an inflow of $2,427 million), never 2020's level:
    a better or worse way is a change as a rise or a fall is."""
    parsed = parse_text(f"How much did Acme's operating cash flow {verb} in 2020?")
    assert parsed is not None and parsed.aggregate == "trend" and parsed.years == [2019, 2020]
    level = parse_text("How much operating cash flow did Acme generate in 2020?")
    assert level is not None and level.aggregate == "value" and level.years == [2020]


@pytest.mark.parametrize("question", [
    "How much did Acme spend on capital expenditures in 2018, including warehouse improvements?",
    "How much did Acme spend on capital expenditures in 2017 to improve its supply chain?",
])
def test_an_improvement_named_or_a_purpose_asks_no_change(question: str) -> None:
    """"improvements" is a noun of what was spent on, "to improve" a purpose: the year's
    capital expenditures are asked, never their change."""
    parsed = parse_text(question)
    assert parsed is not None and parsed.aggregate == "value", parsed
