"""Reading a question: the finance vocabulary, metric and statement detection, instruction
boilerplate, and the FinanceBench dev questions beside hand-written bare forms of them."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from rag_assets.core.generation.metric_questions import parse_question
from rag_assets.core.ingest.statements import STATEMENT_KINDS, classify_pages, page_lines
from rag_assets.core.question.instructions import statements_named, strip_instructions
from rag_assets.core.question.members import member_after, narrowed_by_name
from rag_assets.core.question.question import asks_cause, read_question
from rag_assets.core.question.vocabulary import (
    TERMS_FILE,
    Vocabulary,
    load_vocabulary,
    normalize,
    phrases_of,
    terms_in,
)
from rag_assets_tests.real_filings import CORPORA, real_filing

DEV = CORPORA / "financebench-dev"
STOP_WORDS = {
    "a", "an", "and", "as", "at", "by", "for", "from", "in", "is", "of", "on", "over", "the",
    "to", "what", "with",
}


def content_words(text: str) -> set[str]:
    """The words that carry content, lower case, punctuation and function words left out."""
    words = re.findall(r"[a-z0-9&']+", text.lower().replace("’", "'"))
    return {w.removesuffix("'s") for w in words} - STOP_WORDS


# --- the vocabulary ------------------------------------------------------------------------------


def metrics_in(text: str) -> list[str]:
    return list(dict.fromkeys(t.name for t in terms_in(text)))


def test_the_vocabulary_loads_and_documents_itself() -> None:
    raw = json.loads(TERMS_FILE.read_text(encoding="utf-8"))
    assert "_doc" in raw and " ".join(raw["_doc"]).count("line_items") >= 1
    vocabulary = load_vocabulary()
    assert isinstance(vocabulary, Vocabulary) and len(vocabulary.names) >= 60


def test_every_term_names_statements_and_line_items() -> None:
    vocabulary = load_vocabulary()
    for key, entry in vocabulary.entries():
        assert set(entry.statements) <= set(STATEMENT_KINDS), key
        for text in [*entry.aliases, *entry.line_items]:
            assert text == text.lower().strip() and text, (key, text)
    for key in vocabulary.metrics:  # retrieval has a statement and words for every metric
        assert vocabulary.statements_of(key), key
        assert vocabulary.line_items_of(key), key


def test_no_alias_names_two_keys() -> None:
    vocabulary = load_vocabulary()
    counts = Counter(p for name, entry in vocabulary.entries() for p in phrases_of(name, entry))
    assert [a for a, n in counts.items() if n > 1] == []
    for key, entry in vocabulary.entries():
        for alias in entry.aliases:
            assert metrics_in(alias) == [key], alias


def test_a_file_where_an_alias_names_two_keys_is_refused() -> None:
    raw = json.loads(TERMS_FILE.read_text(encoding="utf-8"))
    raw["metrics"]["gross_margin"]["aliases"].append("gross profit")
    with pytest.raises(ValueError, match="'gross profit' names both"):
        Vocabulary.model_validate(raw)


def test_gross_profit_is_dollars_and_gross_margin_a_ratio() -> None:
    vocabulary = load_vocabulary()
    assert metrics_in("What was Acme's gross profit in FY2022?") == ["gross_profit"]
    assert vocabulary.concepts["gross_profit"].unit == "USD"
    assert metrics_in("What was Acme's gross margin in FY2022?") == ["gross_margin"]
    assert vocabulary.metrics["gross_margin"].unit == "percent"


def test_required_terms_are_in_the_vocabulary() -> None:
    names = load_vocabulary().names
    for key in (
        "revenue", "revenue_growth", "revenue_cagr", "net_income", "operating_income",
        "operating_margin", "ebitda", "gross_margin", "capital_expenditure", "capex_to_revenue",
        "free_cash_flow", "operating_cash_flow", "investing_cash_flow", "financing_cash_flow",
        "dividends_paid", "dividends_per_share", "working_capital", "current_ratio",
        "quick_ratio", "dpo", "dso", "inventory_turnover", "fixed_asset_turnover",
        "asset_turnover", "roa", "roe", "debt_to_equity", "effective_tax_rate",
        "interest_coverage", "eps", "share_repurchases", "accounts_payable",
    ):
        assert key in names, key


def test_formulas_that_form_a_cycle_are_refused() -> None:
    raw = json.loads(TERMS_FILE.read_text(encoding="utf-8"))
    raw["metrics"]["roa"]["formula"] = "roe * 1"
    raw["metrics"]["roe"]["formula"] = "roa * 1"
    with pytest.raises(ValueError, match="cycle"):
        Vocabulary.model_validate(raw)
    raw = json.loads(TERMS_FILE.read_text(encoding="utf-8"))
    raw["concepts"]["revenue"]["statements"] = ["cash_flows"]
    with pytest.raises(ValueError, match="StatementKind|literal"):
        Vocabulary.model_validate(raw)


# --- metrics and statements ----------------------------------------------------------------------


def test_capex_as_a_share_of_revenue_expands_to_its_line_items() -> None:
    plan = read_question("What is the FY2019 capex as a % of revenue?")
    assert plan.metrics == ["capex_to_revenue"]  # one metric, not capex and revenue
    assert plan.years == [2019]
    assert {"cash_flow", "income_statement"} <= set(plan.statements)
    for term in ("purchases of property, plant and equipment", "capital expenditures",
                 "purchases of land, buildings, and equipment", "net sales"):
        assert term in plan.expansion
    assert "purchases of property, plant and equipment" in plan.bm25_text


def test_dpo_expands_to_accounts_payable_and_cost_of_sales() -> None:
    plan = read_question("What is the FY2022 days payable outstanding (DPO) for Corning?")
    assert plan.metrics == ["dpo"]
    assert {"accounts payable", "cost of sales", "cost of goods sold"} <= set(plan.expansion)
    assert plan.statements == ["balance_sheet", "income_statement"]
    assert read_question("Corning DPO in 2022?").metrics == ["dpo"]


@pytest.mark.parametrize(("question", "metrics"), [
    ("What is the fixed asset turnover ratio?", ["fixed_asset_turnover"]),
    ("What is the asset turnover ratio?", ["asset_turnover"]),
    # EBITDA's definition is one of its aliases: one metric, as the engine reads it
    ("operating income + depreciation and amortization (unadjusted EBITDA)", ["ebitda"]),
    ("What was the working capital ratio?", ["current_ratio"]),
    ("Did net working capital turn positive?", ["net_working_capital"]),
    ("How large were share buybacks and dividends paid in 2021?",
     ["share_repurchases", "dividends_paid"]),
    ("What is the ROE and the debt-to-equity ratio?", ["roe", "debt_to_equity"]),
    ("Interest coverage and the effective tax rate of Pfizer", ["interest_coverage",
                                                                "effective_tax_rate"]),
    ("Capital expenditures as a percentage of revenue", ["capex_to_revenue"]),
    ("What is the 3 year EPS CAGR?", ["eps"]),  # a bare CAGR is no revenue CAGR
    # a release's wording of diluted EPS, never net income
    ("What was Costco's net income per diluted share in Q3 fiscal 2023?", ["eps"]),
    # what an offering raised, never the debt outstanding
    ("How much did Pfizer raise in its debt offering in Q2 2023?", ["debt_issued"]),
    ("Who is the CFO of 3M?", []),
])
def test_metrics_in_questions(question: str, metrics: list[str]) -> None:
    assert metrics_in(question) == metrics


@pytest.mark.parametrize(("question", "measure"), [
    ("What is Acme's FY2021 deferred revenue?", "revenue"),
    ("What is Acme's FY2021 subscription revenue?", "revenue"),
    ("What is Acme's FY2021 deferred income taxes?", "income_tax"),
])
def test_a_kind_of_a_measure_is_another_measure(question: str, measure: str) -> None:
    """ASC 606-10-55-91 and 606-10-45-2, ASC 740-10-45-4: subscription revenue is a part of
    revenue, deferred revenue a liability, deferred income taxes a balance: never the total
    revenue or the provision the statements print."""
    asked = read_question(question)
    assert measure in metrics_in(question) and asked.metrics == []
    assert asked.qualified and parse_question(asked) is None


@pytest.mark.parametrize(("question", "target"), [
    ("What is Acme's FY2021 income taxes paid?", "income_taxes_paid"),
    ("What is Acme's FY2021 income tax expense?", "income_tax"),
    ("What is Acme's FY2021 interest paid?", "interest_paid"),
    ("What is Acme's FY2021 interest expense?", "interest_expense"),
])
def test_the_cash_paid_is_not_the_expense(question: str, target: str) -> None:
    """ASC 230-10-50-2: income taxes and interest paid in cash are disclosed apart from the
    provision and the expense the income statement prints."""
    parsed = parse_question(read_question(question))
    assert parsed is not None and parsed.target == target


@pytest.mark.parametrize(("question", "target"), [
    ("How much cash did Corning pay for acquisitions, net of cash acquired, in FY2018?",
     "business_acquisitions"),
    ("How much did Walmart spend on acquisitions in FY2022?", "business_acquisitions"),
    ("How much cash did Walmart have at the end of FY2022?", "cash"),
    ("How much did Walmart pay in dividends in FY2022?", "dividends_paid"),
])
def test_what_was_paid_is_a_flow_not_the_balance(question: str, target: str) -> None:
    """ASC 230-10-45-13: the cash paid for acquisitions is an investing outflow; a cash balance
    asked as what was paid out of it is never the balance sheet's cash."""
    parsed = parse_question(read_question(question))
    assert parsed is not None and parsed.target == target


@pytest.mark.parametrize(("question", "target"), [
    ("How much long-term debt does Walmart have due within one year at the end of Q1 fiscal "
     "2024?", "current_portion_long_term_debt"),
    ("How much long-term debt did Corning have due within one year at the end of 2022?",
     "current_portion_long_term_debt"),
    # 3M 2018's whole long-term debt, $13,411 million, once answered it
    ("How much long-term debt does 3M have maturing in the next year?",
     "current_portion_long_term_debt"),
    ("What is 3M's long-term debt due in the next 12 months?", "current_portion_long_term_debt"),
    ("What long-term debt does Corning have?", "long_term_debt"),
    ("How much cash does Corning have on hand?", "cash"),
    # what a board declares is a rate per share: American Water Works' six months' $257
    # million of dividends paid once answered it
    ("What dividend did American Water Works declare during Q2 2023?", "dividends_per_share"),
    ("What quarterly dividend did Pfizer declare in Q2 2023?", "dividends_per_share"),
    ("How much did Pfizer declare in dividends in 2023?", "dividends_paid"),
    # a head noun shared by a coordinated conjunct: Kraft Heinz 2021's goodwill balance, $31.3
    # billion, once answered "Did it record goodwill or intangible asset impairments?"
    ("Did Kraft Heinz record goodwill or intangible asset impairments in FY2021? How much?",
     "goodwill_impairment"),
])
def test_an_alias_the_questions_verb_splits_is_still_its_entry(question: str,
                                                               target: str) -> None:
    """"long-term debt ... due within one year" is the vocabulary's current portion (ASC
    210-10-45: the obligations due within a year are current liabilities), whatever verb the
    question puts between the term and the rest of the alias; a term coordinated with a
    conjunct takes the head noun they share ("goodwill or intangible asset impairments")."""
    parsed = parse_question(read_question(question))
    assert parsed is not None and parsed.target == target


@pytest.mark.parametrize("question", [
    "What debt instruments does Walmart have outstanding?",
    "What types of revenue does Walmart report?",
    "What are the components of Walmart's total debt?",
    "What are Walmart's main revenue streams?",
])
def test_the_kinds_or_parts_of_a_measure_are_names_not_its_amount(question: str) -> None:
    """A question of a measure's kinds or parts asks names: the total the statements print
    (total debt, revenue) is no answer to "what instruments" or "what types"."""
    asked = read_question(question)
    assert asked.expects == "names" and parse_question(asked) is None


@pytest.mark.parametrize("question", [
    "How much remained available under Corning's share repurchase authorization at the end of "
    "FY2018?",
    "What is Walmart's remaining share repurchase authorization?",
    "How much did Costco have remaining under its stock repurchase program at the end of "
    "fiscal 2018?",
    "How much is available under the share repurchase program of Corning at the end of 2018?",
    # a name between (Walmart's Q1 fiscal 2024 10-Q: its $686 million spent was once the answer)
    "What is the remaining amount authorized under Walmart's share repurchase program as of Q1 "
    "fiscal 2024?",
    "How much of Corning's long-term debt matures within the next year?",
    "How much of Walmart's total debt is maturing in fiscal 2023?",
])
def test_a_maturity_or_an_authorization_is_no_balance_or_flow(question: str) -> None:
    """ASC 470-10-50-1 (the maturities of the debt note) and Item 703 of Regulation S-K (the
    amount that may yet be purchased): neither is the balance or the cash spent the statements
    print, so no metric is computed for them, and no outlook is read for "the next year"."""
    asked = read_question(question)
    assert parse_question(asked) is None and asked.expects == "figure"
    assert "outlook" not in asked.intents


@pytest.mark.parametrize(("question", "measure"), [
    ("What was Ulta Beauty's comparable sales growth in the second quarter?", "revenue_growth"),
    ("What were Walmart's comparable store sales in fiscal 2020?", "revenue"),
    ("What was Costco's same-store sales growth in 2021?", "revenue_growth"),
    ("What was Kraft Heinz's adjusted EPS in 2021?", "eps"),
    ("What was Coca-Cola's organic revenue growth in 2019?", "revenue_growth"),
    ("What was Walmart's non-GAAP operating income?", "operating_income"),
    # Costco 2018's $689 million of dividends paid once said "Yes" to it
    ("How much did Costco pay in special dividends in FY2018?", "dividends_paid"),
])
def test_a_qualified_measure_is_no_metric_the_statements_print(question: str,
                                                                measure: str) -> None:
    """Regulation G: "comparable sales growth" is no revenue growth, "adjusted EPS" no EPS: no
    metric for the engine to compute, still a figure to answer with what the filing states."""
    asked = read_question(question)
    assert measure in metrics_in(question)  # the term is there, qualified
    assert asked.metrics == [] and asked.expects == "figure"
    unqualified = question.replace("comparable store ", "").replace("comparable ", "").replace(
        "same-store ", "").replace("adjusted ", "").replace("organic ", "").replace(
        "non-GAAP ", "").replace("special ", "")
    assert measure in read_question(unqualified).metrics


@pytest.mark.parametrize(("question", "statements"), [
    ("Using the cash flow statement, what is capex?", ["cash_flow"]),
    ("from the statement of income and the statement of financial position",
     ["income_statement", "balance_sheet"]),
    ("relying on the balance sheet and the P&L statement", ["balance_sheet", "income_statement"]),
    ("in the statement of comprehensive income", ["comprehensive_income"]),
    ("the Consolidated Statements of Cash Flows", ["cash_flow"]),
    ("the statement of shareholders' equity", ["equity"]),
    ("Which segment grew fastest? See the MD&A.", ["segment_note", "mdna"]),
    ("What did Pfizer earn in 2021?", []),
])
def test_statements_named(question: str, statements: list[str]) -> None:
    assert statements_named(question) == statements


def test_named_statements_come_first_and_survive_the_instruction_that_names_them() -> None:
    plan = read_question(
        "What is the FY2019 - FY2020 total revenue growth rate for Block? Approach the question "
        "asked by assuming the standpoint of an investment banking analyst who only has access "
        "to the statement of income."
    )
    assert "statement of income" not in plan.ranking_text
    assert plan.named_statements == ["income_statement"] == plan.statements
    plan = read_question("Using the balance sheet, what is the FY2020 capex of 3M?")
    assert plan.statements == ["balance_sheet", "cash_flow"]
    assert plan.ranking_text == "What is the FY2020 capex of 3M?"


# --- instruction boilerplate ---------------------------------------------------------------------


@pytest.mark.parametrize(("question", "ranking"), [
    ("What was Apple's FY2021 revenue? Please round the result to the nearest whole number.",
     "What was Apple's FY2021 revenue?"),
    ("What were 3M's 2018 dividends? Answer in USD thousands. Show your work.",
     "What were 3M's 2018 dividends?"),
    ("Assume the role of a credit analyst with only the balance sheet. What is Pfizer's 2021 "
     "current ratio?", "What is Pfizer's 2021 current ratio?"),
    ("Relying on the cash flow statement only, how much did Corning spend on capex in 2022?",
     "How much did Corning spend on capex in 2022?"),
    ("What is Nike's FY2023 inventory turnover (in units of times, rounded to two decimals)?",
     "What is Nike's FY2023 inventory turnover?"),
    ("If EBITDA is not a meaningful measure for a bank, explain why. What is JPMorgan's 2022 "
     "EBITDA?", "What is JPMorgan's 2022 EBITDA?"),
    ("Based on FY2022 data, does Corning have positive working capital?",
     "Based on FY2022 data, does Corning have positive working capital?"),  # no instruction
    ("Using the FY2020 cash flow statement, what is the capex of 3M?",
     "What is the capex of 3M? FY2020"),  # a year is never dropped
    ("Explain the role of derivatives in 3M's hedging. Summarize the data reported by segment.",
     "Explain the role of derivatives in 3M's hedging. Summarize the data reported by segment."),
    # where to look is no instruction of what is asked, and no word to rank by
    ("According to Corning's 2020 10-K, how was the redemption of DuPont's interest funded?",
     "How was the redemption of DuPont's interest funded? 2020"),
    ("Based on the warehouse count in the press release attached to Costco's 8-K dated August 9, "
     "2023, is Costco's warehouse base concentrated in the United States?",
     "Based on the warehouse count, is Costco's warehouse base concentrated in the United "
     "States? 2023"),
    # the release named by what it is attached to, the filing by its date
    ("Besides the United States, in which countries did Costco run e-commerce sites, according "
     "to the press release attached to its August 9, 2023 8-K?",
     "Besides the United States, in which countries did Costco run e-commerce sites? 2023"),
    ("What changes to Costco's bylaws are described in its 8-K filed that day?",
     "What changes to Costco's bylaws are described?"),  # the verb asked stays
    ("Was a shareholder vote reported in the 8-K?", "Was a shareholder vote reported?"),
    ("What was the gain from the release?", "What was the gain from the release?"),
    ("Does it report its segments differently in the 2022 10-K than in the 2021 10-K?",
     "Does it report its segments differently in the 2022 10-K than in the 2021 10-K?"),
    ("What did 3M disclose about PFAS in 3M's 2018 10-K?", "What did 3M disclose about PFAS? "
     "2018"),
    ("What fiscal 2023 outlook did Ulta Beauty give in its first quarter fiscal 2023 earnings "
     "release?", "What fiscal 2023 outlook did Ulta Beauty give?"),
    ("What legal proceedings does Lockheed Martin describe in the Legal Proceedings section of "
     "its 2018 10-K?",
     "What legal proceedings does Lockheed Martin describe in the Legal Proceedings section of "
     "its 2018 10-K?"),
    # a reference that is the question's substance, or a release that is no filing, stays
    ("What concentration risk does it highlight in its 2019 10-K risk factors?",
     "What concentration risk does it highlight in its 2019 10-K risk factors?"),
    ("Did the release of the valuation allowance in 2022 lift net income?",
     "Did the release of the valuation allowance in 2022 lift net income?"),
    ("What is in its 10-K?", "What is in its 10-K?"),
    # a reference holds the filing's period and kind, never what is asked (a place here)
    ("What share of Costco's warehouses were in the United States as of the 8-K dated August 9, "
     "2023?", "What share of Costco's warehouses were in the United States as of the 8-K dated "
     "August 9, 2023?"),
    ("What is the key agenda of Intel's 8-K dated August 16, 2023?",
     "What is the key agenda of Intel's 8-K dated August 16, 2023?"),
])
def test_instructions_are_stripped_in_any_wording(question: str, ranking: str) -> None:
    assert strip_instructions(question) == ranking


def test_a_definition_keeps_its_words_and_loses_its_arithmetic() -> None:
    ranking = strip_instructions(
        "What is 3M's FY2018 ROE? ROE is defined as: FY2018 net income / (average total "
        "shareholders' equity between FY2017 and FY2018)."
    )
    assert ranking == ("What is 3M's FY2018 ROE? ROE FY2018 net income average total "
                       "shareholders' equity FY2017 and FY2018.")
    assert strip_instructions("Define quick ratio as (cash + receivables) divided by current "
                              "liabilities.") == "quick ratio cash receivables current liabilities."


# The dev set's questions (FinanceBench, verbatim) beside bare forms written by hand: the same
# question as a user would type it, with a definition's content in plain words.
PAIRS = [
    ("What is the FY2019 fixed asset turnover ratio for Activision Blizzard? Fixed asset turnover "
     "ratio is defined as: FY2019 revenue / (average PP&E between FY2018 and FY2019). Round your "
     "answer to two decimal places. Base your judgments on the information provided primarily in "
     "the statement of income and the statement of financial position.",
     "What is the FY2019 fixed asset turnover ratio for Activision Blizzard, from FY2019 revenue "
     "and average PP&E in FY2018 and FY2019?"),
    ("What is the FY2017 - FY2019 3 year average of capex as a % of revenue for Activision "
     "Blizzard? Answer in units of percents and round to one decimal place. Calculate (or "
     "extract) the answer from the statement of income and the cash flow statement.",
     "What is the FY2017 - FY2019 3 year average of capex as a % of revenue for Activision "
     "Blizzard?"),
    ("How much (in USD billions) did American Water Works pay out in cash dividends for FY2020? "
     "Compute or extract the answer by primarily using the details outlined in the statement of "
     "cash flows.",
     "How much did American Water Works pay out in cash dividends for FY2020?"),
    ("Basing your judgments off of the cash flow statement and the income statement, what is "
     "American Water Works's FY2021 unadjusted operating income + depreciation and amortization "
     "from the cash flow statement (unadjusted EBITDA) in USD millions?",
     "What is American Water Works's FY2021 unadjusted operating income and depreciation and "
     "amortization from the cash flow statement (unadjusted EBITDA)?"),
    ("Does American Water Works have positive working capital based on FY2022 data? If working "
     "capital is not a useful or relevant metric for this company, then please state that and "
     "explain why.",
     "Does American Water Works have positive working capital based on FY2022 data?"),
    ("What is the FY2019 - FY2020 total revenue growth rate for Block (formerly known as "
     "Square)? Answer in units of percents and round to one decimal place. Approach the question "
     "asked by assuming the standpoint of an investment banking analyst who only has access to "
     "the statement of income.",
     "What is the FY2019 - FY2020 total revenue growth rate for Block (formerly known as "
     "Square)?"),
    ("Using the cash flow statement, answer the following question to the best of your "
     "abilities: how much did Block (formerly known as Square) generate in cash flow from "
     "operating activities in FY2020? Answer in USD millions.",
     "How much did Block (formerly known as Square) generate in cash flow from operating "
     "activities in FY2020?"),
    ("What is the FY2017 return on assets (ROA) for Coca Cola? ROA is defined as: FY2017 net "
     "income / (average total assets between FY2016 and FY2017). Round your answer to two "
     "decimal places. Give a response to the question by relying on the details shown in the "
     "balance sheet and the P&L statement.",
     "What is the FY2017 return on assets (ROA) for Coca Cola, from FY2017 net income and "
     "average total assets in FY2016 and FY2017?"),
    ("By drawing conclusions from the information stated only in the statement of financial "
     "position, what is General Mills's FY2020 working capital ratio? Define working capital "
     "ratio as total current assets divided by total current liabilities. Round your answer to "
     "two decimal places.",
     "What is General Mills's FY2020 working capital ratio, total current assets over total "
     "current liabilities?"),
    ("According to the information provided in the statement of cash flows, what is the FY2020 "
     "free cash flow (FCF) for General Mills? FCF here is defined as: (cash from operations - "
     "capex). Answer in USD millions.",
     "What is the FY2020 free cash flow (FCF) for General Mills, from cash from operations and "
     "capex?"),
    ("We need to calculate a reasonable approximation (or exact number if possible) of a "
     "financial metric. Basing your judgment by information plainly provided in the balance "
     "sheet and the P&L statement, what is Lockheed Martin's FY2020 asset turnover ratio? Asset "
     "turnover ratio is defined as: FY2020 revenue / (average total assets between FY2019 and "
     "FY2020). Round your answer to two decimal places.",
     "What is Lockheed Martin's FY2020 asset turnover ratio, from FY2020 revenue and average "
     "total assets in FY2019 and FY2020?"),
    ("What is Lockheed Martin's FY2021 net working capital? Define net working capital as total "
     "current assets less total current liabilities. Answer in USD millions. Respond to the "
     "question by assuming the perspective of an investment analyst who can only use the "
     "details shown within the balance sheet.",
     "What is Lockheed Martin's FY2021 net working capital, from total current assets and total "
     "current liabilities?"),
    ("What is Lockheed Martin's 2 year total revenue CAGR from FY2020 to FY2022 (in units of "
     "percents and round to one decimal place)? Provide a response to the question by primarily "
     "using the statement of income.",
     "What is Lockheed Martin's 2 year total revenue CAGR from FY2020 to FY2022?"),
    ("Basing your judgments off of the balance sheet, what is the year end FY2018 amount of "
     "accounts payable for MGM Resorts? Answer in USD millions.",
     "What is the year end FY2018 amount of accounts payable for MGM Resorts?"),
    ("What is the FY2018 - FY2020 3 year average of capex as a % of revenue for MGM Resorts? "
     "Answer in units of percents and round to one decimal place. Please utilize information "
     "provided primarily within the statement of cash flows and the statement of income.",
     "What is the FY2018 - FY2020 3 year average of capex as a % of revenue for MGM Resorts?"),
]


@pytest.mark.parametrize(("laden", "bare"), PAIRS, ids=[f"q{i}" for i in range(len(PAIRS))])
def test_an_instruction_laden_question_ranks_like_its_bare_form(laden: str, bare: str) -> None:
    full, plain = read_question(laden), read_question(bare)
    assert content_words(full.ranking_text) == content_words(plain.ranking_text)
    assert full.metrics == plain.metrics
    assert set(full.statements) == set(plain.statements)
    assert full.years == plain.years or set(full.years) == set(plain.years)
    assert full.text == laden
    assert full.statements[: len(full.named_statements)] == full.named_statements


def test_the_dev_questions_lose_every_instruction_and_keep_their_substance() -> None:
    if not (DEV / "questions.jsonl").is_file():
        pytest.skip(f"FinanceBench dev set not at {DEV}")
    rows = [json.loads(line) for line in (DEV / "questions.jsonl").open(encoding="utf-8")]
    assert len(rows) == 18
    instruction_words = re.compile(
        r"round|answer|judg|standpoint|perspective|usd|units of|primarily|best of your|"
        r"approximation|explain why|statement of income|statement of financial", re.IGNORECASE)
    for row in rows:
        plan = read_question(row["question"])
        assert not instruction_words.search(plan.ranking_text), plan.ranking_text
        assert plan.metrics, row["question"]
        company = row["company"].split()[0].replace("-", " ")
        assert company.lower() in plan.ranking_text.lower(), (company, plan.ranking_text)
        assert plan.years and set(plan.years) <= set(
            int(y) for y in re.findall(r"(?:19|20)\d\d", plan.ranking_text)
        )


# --- the line items, as real filings print them --------------------------------------------------

FILINGS = ["ACTIVISIONBLIZZARD_2019_10K", "AMERICANWATERWORKS_2022_10K", "GENERALMILLS_2020_10K",
           "MGMRESORTS_2018_10K", "CORNING_2022_10K"]


@pytest.mark.slow
def test_every_metric_finds_a_line_item_on_its_statements_in_real_filings() -> None:
    """Each metric's line items (its inputs' included) are printed, in at least one of five real
    10-Ks, on a page of one of the statements the vocabulary names for it."""
    paths = [DEV / "pdfs" / f"{name}.pdf" for name in FILINGS]
    if not all(p.is_file() for p in paths):
        pytest.skip(f"FinanceBench PDFs not under {DEV}")
    texts: dict[str, list[str]] = {}
    for path in paths:
        pages = [page_lines(p) for p in real_filing(path).pages]
        for lines, kind in zip(pages, classify_pages(pages), strict=True):
            if kind:
                texts.setdefault(kind, []).append(normalize("\n".join(lines).replace("|", " ")))
    vocabulary = load_vocabulary()
    for key in vocabulary.metrics:
        items = [normalize(i) for i in vocabulary.line_items_of(key)]
        pages = [t for s in vocabulary.statements_of(key) for t in texts.get(s, [])]
        assert any(i in t for i in items for t in pages), key


@pytest.mark.parametrize(("text", "decimals"), [
    ("What is Acme's FY2019 quick ratio? Round your answer to two decimal places.", 2),
    ("Calculate Acme's payout ratio for FY2019, to one decimal place.", 1),
    ("What is Acme's FY2019 revenue in USD millions, rounded to the nearest whole number?", 0),
    ("What is Acme's FY2019 revenue in USD millions?", None),
    ("How many stores did Acme open in 2019, and what share of them were in Canada?", None),
    ("What is Acme's FY2019 gross margin, to the nearest tenth of a percent?", 1),
    ("What is Acme's FY2019 current ratio (2 dp)?", 2),
])
def test_the_decimals_a_question_asks_are_read_once(text: str, decimals: int | None) -> None:
    assert read_question(text).decimals == decimals


def test_the_dates_a_question_names_are_read_once() -> None:
    asked = read_question("How much was the dividend declared on August 9,  2023, and is it "
                          "payable on September 8, 2023?")
    assert asked.dates == ["August 9, 2023", "September 8, 2023"]
    assert read_question("What was Acme's revenue in May 2023?").dates == []


@pytest.mark.parametrize(("text", "counts"), [
    ("How many warehouses did Costco operate, and how many were outside the U.S.?", "warehouses"),
    ("How many retail stores did Acme operate at the end of Q3 2023?", "stores"),
    ("What was the number of employees at the end of fiscal 2022?", "employees"),
    ("How many times did operating income cover interest expense in 2022?", None),
    ("How much did Acme's revenue grow in 2022?", None),
])
def test_what_a_count_counts_is_read_once(text: str, counts: str | None) -> None:
    assert read_question(text).counts == counts


@pytest.mark.parametrize(("question", "metrics", "qualified"), [
    # "non-adjusted" is the GAAP figure; "GAAP and adjusted" asks the GAAP one too
    ("What was Coca-Cola's non-adjusted operating income in 2019?", ["operating_income"], []),
    ("What were Coca-Cola's GAAP and adjusted EPS in 2019?", ["eps"], []),
    # a qualifier after the term, a change word maybe between
    ("Did Kraft Heinz's net sales grow on an organic basis in 2021?", [],
     ["net sales grow on an organic basis"]),
    ("What was Netflix's revenue growth in constant currency in Q2 2023?", [],
     ["revenue growth in constant currency"]),
    ("What was Kraft Heinz's Adjusted EBITDA in 2021?", [], ["adjusted ebitda"]),
    # the year asked between the term and its qualifier
    ("What was Walmart's revenue in fiscal 2020 on a constant currency basis?", [],
     ["revenue on a constant currency basis"]),
    ("What were Netflix's revenues for Q2 2023 excluding currency effects?", [],
     ["revenues excluding currency"]),
    ("What was Kraft Heinz's EBITDA in 2021?", ["ebitda"], []),
])
def test_a_qualifier_read_where_it_is_printed(question: str, metrics: list[str],
                                              qualified: list[str]) -> None:
    asked = read_question(question)
    assert asked.metrics == metrics and asked.qualified == qualified


@pytest.mark.parametrize(("question", "measure"), [
    ("What share of Walmart's total fiscal 2020 capital expenditures went to eCommerce, "
     "technology, supply chain and other?", "capital_expenditure"),
    ("By how much did Walmart's capital spending on new stores and clubs change from fiscal "
     "2019 to fiscal 2020?", "capital_expenditure"),
    ("What was Walmart's interest expense on its finance lease obligations in fiscal 2020?",
     "interest_expense"),
    ("What was the operating income of Walmart's Sam's Club segment in fiscal 2020?",
     "operating_income"),
    ("What were Corning's net sales by segment in 2022?", "revenue"),
    # coordinated: both are the segment's
    ("What were the net sales and operating income of 3M's Industrial business segment in "
     "2018?", "revenue"),
    ("What drove the increase in operating revenues of its Regulated Businesses in Q2 2023?",
     "revenue"),
    # a measure per unit of operation is MD&A's, not the statements' total
    ("What was Netflix's average monthly revenue per paying membership in Q2 2023?", "revenue"),
    ("What were Costco's net sales per square foot in 2022?", "revenue"),
    # ASC 810: the noncontrolling interest's share is no net income of the parent
    ("What was Coca-Cola's net income attributable to noncontrolling interests in 2019?",
     "net_income"),
    # a measure of the term opened before it
    ("What was JPMorgan's return on tangible common equity in Q2 2022?", "equity"),
    # cash paid for something is a flow, not the balance sheet's cash
    ("What was Netflix's cash paid for content assets in 2015?", "cash"),
    # ASC 323: the equity method's earnings are no equity of the balance sheet
    ("What was Corning's equity in earnings of affiliated companies in 2020?", "equity"),
])
def test_a_measure_narrowed_to_a_part_is_no_metric_the_statements_print(question: str,
                                                                         measure: str) -> None:
    """ASC 280 and 810: a segment's, a purpose's or an owner's part of a measure is not the
    consolidated line: no total for the engine to answer it with; the quotes answer."""
    asked = read_question(question)
    assert measure in metrics_in(question) and measure not in asked.metrics
    assert asked.expects == "figure" or "drove" in question


@pytest.mark.parametrize(("question", "narrowed"), [
    ("What was Walmart's operating income for Sam's Club in fiscal 2020?",
     {"operating_income": "operating income for Sam's Club"}),
    ("What were Nike's revenues in Greater China in FY2022?",
     {"revenue": "revenues in Greater China"}),
    ("What was Walmart's revenue in the U.S. in 2020?", {"revenue": "revenue in the U.S."}),
    # the owner, a statement, a period: no member
    ("What is the FY2018 capital expenditure amount (in USD millions) for 3M?", {}),
    ("What's the revenue for Walmart in 2020?", {}),
    ("What was Walmart's revenue in the Consolidated Statements of Income for FY2020?", {}),
    ("What was 3M's revenue for FY2018?", {}),
    # a member printed before the measure: capitalized, or a word that names a part
    ("What were Walmart's eCommerce sales in fiscal 2020?", {"revenue": "eCommerce sales"}),
    ("What were Microsoft's Azure revenues?", {"revenue": "Azure revenues"}),
    ("What was Walmart's international revenue in 2020?",
     {"revenue": "international revenue"}),
    ("What was Netflix's domestic streaming revenue in 2015?",
     {"revenue": "domestic streaming revenue"}),
    # where revenue comes from: any word but a plain modifier
    ("What was JPMorgan's investment banking fees revenue in Q2 2022?",
     {"revenue": "investment banking fees revenue"}),
    ("Which of Corning's reportable segments grew net sales the fastest in Q2 2023?", {}),
    ("What was Walmart's full-year revenue in 2020?", {}),
    ("What was Walmart's annual revenue in 2020?", {}),
    ("What was Walmart's Total Revenue in 2020?", {}),
    ("What is Walmart's FY2020 Operating Income?", {}),
    ("What is 3M Company revenue in 2018?", {}),
])
def test_a_member_named_beside_a_measure_narrows_it(question: str,
                                                    narrowed: dict[str, str]) -> None:
    """ASC 280: a segment's or a geography's figure named by its proper name ("for Sam's
    Club") is the member's own; the owner named before the measure, or a filing's company, is
    no member."""
    asked = read_question(question)
    assert asked.narrowed == list(narrowed)
    assert all(term not in asked.metrics for term in narrowed)
    assert all(phrase in asked.qualified for phrase in narrowed.values())


def test_a_company_named_by_its_other_name_is_its_own() -> None:
    """Block's 10-K routes by the aliases of its cover and the alias table: "for Block
    (formerly known as Square)" names the filing's company, no member of it."""
    from rag_assets.core.ingest.routing import DocumentProfile
    block = DocumentProfile(document="block-10k", year=2020, title="Square, Inc.",
                            aliases=["Square", "Square, Inc.", "Block", "SQ"])
    asked = read_question("What is the FY2019 - FY2020 total revenue growth rate for Block "
                          "(formerly known as Square)?", [block])
    assert asked.documents == ["block-10k"] and asked.metrics == ["revenue_growth"]
    assert asked.narrowed == []


def test_a_report_dated_before_the_period_asked_ends_is_not_read() -> None:
    """Foot Locker's two 8-Ks (May 20 and August 19, 2022) and its 10-Q: the quarter ended
    October 29, 2022 is the 10-Q's to state; an 8-K filed before that day states nothing of
    it (it had answered "What items made up ... charges in the quarter ended October 29,
    2022?" with the August 8-K's Items). A date of an event, not a period's end, still
    reaches an 8-K; the day an 8-K is dated names it."""
    from rag_assets.core.ingest.routing import DocumentProfile
    profiles = [DocumentProfile(document=d, year=y, title="Foot Locker, Inc.",
                                aliases=["Foot Locker"])
                for d, y in [("foot-locker-8k-2022-05-20", 2022),
                             ("foot-locker-8k-2022-08-19", 2022), ("foot-locker-10q-q3", 2023)]]
    asked = read_question("What items made up Foot Locker's $20 million of impairment and other "
                          "charges in the quarter ended October 29, 2022?", profiles)
    assert asked.documents == ["foot-locker-10q-q3"]
    assert read_question("What did Foot Locker announce on September 1, 2022?",
                         profiles).documents == sorted(p.document for p in profiles)
    assert read_question("What did Foot Locker report in its 8-K dated May 20, 2022?",
                         profiles).documents == ["foot-locker-8k-2022-05-20"]


def test_a_filing_s_company_is_no_member_and_its_segment_is() -> None:
    """With the filings' companies known (as the answerer reads every question), the company's
    full name is its own and a segment named after it ("Walmart U.S.") is a member."""
    assert narrowed_by_name("What was Costco's net income for Costco Wholesale Corporation in "
                            "2021?", ["Costco Wholesale"]) == {}
    assert narrowed_by_name("What were Walmart U.S. net sales in fiscal 2020?", ["Walmart"]) == {
        "revenue": "U.S. net sales"}
    # a segment's possessive, with or without the word "segment": its own figure is asked (it
    # had read "Walmart's FY2020 operating income is $20,568 million", the consolidated line)
    for question, phrase in [
            ("What was Walmart International's operating income in fiscal 2020?",
             "International's operating income"),
            ("What drove the Walmart U.S. segment's operating income in fiscal 2020?",
             "U.S. segment's operating income")]:
        assert narrowed_by_name(question, ["Walmart"]) == {"operating_income": phrase}
    # the member as the subject beside its company, the measure elsewhere in the question
    assert narrowed_by_name("How much operating income did Walmart International generate in "
                            "fiscal 2020?", ["Walmart"]) == {
        "operating_income": "operating income of Walmart International"}
    for own in ("What was Walmart's operating income in fiscal 2020?",
                "What was Walmart Inc.'s operating income in fiscal 2020?",
                "Did Walmart Inc. grow its net sales in fiscal 2020?",
                "Does Walmart Q1 revenue exceed $150 billion?",
                "What was Walmart's operating income according to the Walmart Annual Report?"):
        assert narrowed_by_name(own, ["Walmart"]) == {}, own
    assert narrowed_by_name("What was Corning Incorporated's net income in 2020?",
                            ["Corning"]) == {}


@pytest.mark.parametrize("question", [
    "How much did Walmart spend on capital expenditures in fiscal 2020?",
    "What were 3M's capital expenditures on property, plant and equipment in FY2018?",
    "What was Netflix's interest expense on the income statement for FY2021?",
    "What were Costco's dividends on common stock in 2022?",
    "What was Corning's capex on a cash basis in 2021?",
    "What is the FY2019 operating income for Walmart in the consolidated income statement?",
])
def test_what_a_measure_is_of_by_definition_narrows_nothing(question: str) -> None:
    """Capital spending on property and equipment is the total; "on the income statement" and
    "on a cash basis" say where and how it is read, not which part."""
    asked = read_question(question)
    assert asked.metrics and all(m in asked.metrics for m in metrics_in(question)[:1])


def test_a_retry_searches_with_other_words_and_keeps_the_question_as_asked() -> None:
    asked = read_question("Which segment of Walmart grew the fastest in FY2018 (net sales)?")
    retry = asked.searched_as("segment net sales 2018")
    # what ranks the chunks: the retry's words alone
    assert (retry.ranking_text, retry.bm25_text) == ("segment net sales 2018",) * 2
    # what the answer reads: the question as asked
    assert retry.text == asked.text and retry.years == asked.years == [2018]
    assert retry.metrics == asked.metrics and retry.intents == asked.intents
    assert retry.expects == asked.expects


@pytest.mark.parametrize(("text", "wholes"), [
    ("What are the main risks Walmart faces according to its FY2018 10-K?", ["risk"]),
    ("What risks does Netflix highlight in its 2015 10-K?", ["risk"]),
    ("How does MGM Resorts describe the impact of the COVID-19 pandemic on its properties in its "
     "2020 10-K risk factors?", []),
    ("What franchise concentration risk does Activision Blizzard highlight?", []),
    ("What was Costco's gross margin in FY2021?", []),
])
def test_a_section_asked_for_whole_is_read_once(text: str, wholes: list[str]) -> None:
    assert read_question(text).wholes == wholes


@pytest.mark.parametrize(("text", "expects"), [
    # what to base the answer on, said first, its own commas aside: still a yes or no
    ("Based on the warehouse count in the press release attached to Costco's 8-K dated August "
     "9, 2023, is Costco's warehouse base concentrated in the United States?", "yes_no"),
    ("Based on its quick ratio, does Acme have a healthy liquidity position?", "yes_no"),
    # a question asked inside the opening clause is the one asked
    ("Based on the 10-K, what is Acme's revenue, is it growing?", "figure"),
    ("According to the 8-K dated May 1, 2023, what did Acme announce?", "text"),
    # an opening phrase of a preposition, longer than a short clause, a date's comma in it
    ("Under his August 2022 letter agreement with Foot Locker, will Richard Johnson be "
     "eligible for an annual bonus for the 2023 fiscal year?", "yes_no"),
    ("As of MGM Resorts' September 12, 2023 statement, had the company completed its "
     "investigation of the cybersecurity issue?", "yes_no"),
    ("Under the merger agreement signed on January 18, 2022, how much would Microsoft pay per "
     "share?", "figure"),
])
def test_a_yes_or_no_after_what_it_is_based_on(text: str, expects: str) -> None:
    assert read_question(text).expects == expects


@pytest.mark.parametrize(("text", "cause"), [
    ("Which of Walmart's three segments drove the decline in its consolidated operating income "
     "in fiscal 2020, and what caused that segment's decline?", True),
    ("How did Corning's total debt change in FY2015, and why?", True),
    ("Did its gross margin improve in fiscal 2022, and what drove the change?", True),
    # a yes or no's cause asked only if it is so
    ("Did its operating margin narrow in Q3 2023, and if so, why?", True),
    ("Did its operating margin narrow in Q3 2023, and, if so, by how much?", False),
    ("Which segment grew the fastest in 2022, and what drove its growth?", True),
    ("Which segment grew the fastest in 2022, and what was its revenue?", False),
    # the grounds of an officer's termination, not a cause asked
    ("What severance would the new CEO receive if terminated without cause?", False),
    ("What would Ms. Dillon receive if the company ended her employment other than for cause?",
     False),
    ("What severance would Ms. Dillon receive if terminated other than for cause or if she "
     "resigned for good reason?", False),
    ("What would the CEO receive if dismissed without good cause?", False),
    ("What caused the decline in gross margin?", True),
    ("What were the reasons for the decline in gross margin?", True),
])
def test_a_cause_asked_after_what_a_question_asks_first(text: str, cause: bool) -> None:
    assert asks_cause(read_question(text)) is cause


@pytest.mark.parametrize(("question", "sections"), [
    # a cause is MD&A's to give (Item 303(b)), before the tax note's reconciliation
    ("What drove the change in Netflix's effective tax rate in FY2015?",
     ["mdna", "income_taxes"]),
    # a figure asked of the same measure reads the tax note first, as the lexicon orders it
    ("What was Netflix's effective tax rate in FY2015?", ["income_taxes", "mdna"]),
    # the securities registered are named on the cover (Item 12(b)), before the debt note
    ("Which debt securities are registered to trade on a national securities exchange under "
     "Walmart's name as of fiscal 2022?", ["cover", "debt"]),
])
def test_the_section_that_gives_the_form_asked_is_read_first(question: str,
                                                             sections: list[str]) -> None:
    found = read_question(question).sections
    assert found[:len(sections)] == sections, found


def test_an_intent_named_in_a_reference_to_the_filing_is_still_asked() -> None:
    """"in its most recent earnings release" says where to look, and that results are asked:
    the reference leaves the ranked words, its intent stays."""
    question = read_question("What did Nike announce in its most recent earnings release?")
    assert question.ranking_text == "What did Nike announce?"
    assert question.intents == ["results"]


@pytest.mark.parametrize(("question", "metrics"), [
    # Coca-Cola 2017's whole income tax expense, $5,560 million, once answered it
    ("What was the impact of the Tax Cuts and Jobs Act on Coca-Cola's FY2017 income tax "
     "expense?", []),
    ("What was the effect of foreign currency on revenue in 2022?", []),
    ("What was Coca-Cola's income tax expense in 2017?", ["income_tax"]),
])
def test_what_a_thing_did_to_a_measure_is_no_measure_the_statements_print(
        question: str, metrics: list[str]) -> None:
    assert read_question(question).metrics == metrics


@pytest.mark.parametrize("question", [
    "What was Kraft Heinz's total goodwill and intangible asset impairment in FY2019?",
    "Did Kraft Heinz record goodwill or intangible asset impairments in FY2021? How much?",
    "How much were Kraft Heinz's goodwill and intangible asset impairment losses in 2019?",
])
def test_a_shared_head_names_both_line_items(question: str) -> None:
    """ASC 350-20-45-2 and 350-30-45-3: goodwill's and other intangibles' impairment losses are
    two lines of Kraft Heinz's income statement; the coordinated head names both, never the
    goodwill balance."""
    parsed = parse_question(read_question(question))
    assert parsed is not None
    assert parsed.choices == ["goodwill_impairment", "intangible_asset_impairment"]


@pytest.mark.parametrize(("question", "expects"), [
    # "what" and a names intent's own phrase asks its items, whatever the verb after it
    ("What legal proceedings does Netflix describe in its 2020 10-K?", "names"),
    ("What lawsuits is Walmart facing as of fiscal 2020?", "names"),
    ("What segments does Netflix report?", "names"),
    # what the filing says of the intent asks text
    ("What does Netflix say about litigation in its 2020 10-K?", "text"),
    ("Describe Netflix's legal proceedings.", "text"),
    # an intent of another form named beside it keeps its form: the risk factors' text
    ("What legal risks does Walmart describe in its risk factors?", "text"),
])
def test_what_and_an_intents_items_asks_them_named(question: str, expects: str) -> None:
    assert read_question(question).expects == expects


@pytest.mark.parametrize(("question", "expects"), [
    # a company's total, amount or number asked through its possessive is a figure ...
    ("What was Lockheed Martin's total backlog at June 25, 2023?", "figure"),
    ("What was Foot Locker's total store count at the end of fiscal 2022?", "figure"),
    # ... never its "value proposition", which is what the filing says
    ("What is Walmart's value proposition?", "text")])
def test_a_total_asked_of_a_company_by_name_is_a_figure(question: str, expects: str) -> None:
    assert read_question(question).expects == expects


@pytest.mark.parametrize(("question", "expects"), [
    # what a filer paid or spent is an amount, whatever its object names (a division)
    ("What did Corning pay for 3M's Communication Markets Division (CMD) in 2018, and how was "
     "the purchase price allocated?", "figure"),
    ("In 2019, what did Coca-Cola pay for Costa?", "figure"),
    ("What did Kraft Heinz receive for its cheese business in 2021?", "figure"),
    # what it received of someone, or got done, is what the filing says
    ("What did Pfizer receive from the FDA in 2021?", "text"),
    ("What did the company get approved?", "text"),
    # the verb's own object, "for" with none, or a names clause beside it: no price (a review's)
    ("What did Gilead receive approval for in 2022?", "text"),
    ("What did Amazon spend the most on in 2022?", "text"),
    ("What did Pfizer pay for Seagen and which businesses did it divest?", "names")])
def test_a_price_asked_by_its_verb_is_a_figure(question: str, expects: str) -> None:
    assert read_question(question).expects == expects


def test_a_year_written_only_to_name_the_filing_is_no_year_asked() -> None:
    """Asked of fiscal 2019 in the 10-K for the year ended January 31, 2018: the metric reads
    2019 (which that 10-K's statements do not print, so no trend of 2017 to 2018 answers);
    a question that asks no other year asks the filing's."""
    dividend = read_question("Did Walmart raise its annual dividend for fiscal 2019, according "
                             "to its 10-K for the fiscal year ended January 31, 2018?")
    assert (dividend.years, dividend.filing_years) == ([2019], [2018])
    parsed = parse_question(dividend)
    assert parsed is None or parsed.years == [2019]
    revenue = read_question("What was Walmart's revenue, according to its 10-K for the fiscal "
                            "year ended January 31, 2018?")
    assert revenue.years == [2018]


@pytest.mark.parametrize("text", [
    "Did General Mills undertake any new restructuring actions in fiscal 2020?",
    "Did Acme announce any new restructuring plans in 2021?",
    # a month's event, a new round's cash: MD&A's sentence, never a year's balance or equity
    "How much fixed-rate debt did General Mills issue in April 2020 as COVID-19 clouded the "
    "commercial paper market, per its fiscal 2020 10-K?",
    "How much cash did Walmart receive from new equity funding rounds at PhonePe in Q1 fiscal "
    "2024 (three months ended April 30, 2023)?",
])
def test_an_action_taken_is_asked_of_prose_not_of_its_cost(text: str) -> None:
    """"We did not undertake any new restructuring actions" (General Mills' fiscal 2020 MD&A)
    answers it; the year's $24 million of restructuring costs, of earlier actions, does not."""
    assert parse_question(read_question(text)) is None
    assert parse_question(read_question("What were General Mills' restructuring costs in "
                                        "fiscal 2020?")) is not None
    # whether buybacks stopped, or a dividend was raised (its rate per share), is prose's
    for prose in ("Did Walmart stop buying back shares in fiscal 2022?",
                  "Did Walmart suspend its share repurchases in fiscal 2022?",
                  "Did Kraft Heinz raise its common dividend in 2021?"):
        assert parse_question(read_question(prose)) is None, prose
    for amount in ("Did Kraft Heinz increase its dividends paid in 2021?",
                   "Did Walmart buy back stock in fiscal 2022?",
                   # the rate asked by its name, a ratio, a buyback before a stop (the review's)
                   "Did Acme raise its annual dividend per share in fiscal 2022?",
                   "Did Acme keep its dividend payout ratio below 60%?",
                   "How much did Acme spend on share repurchases in 2020 before suspending the "
                   "program?"):
        assert parse_question(read_question(amount)) is not None, amount
    # a fiscal year named by the month it ends in is no month's event (the review's case)
    assert parse_question(read_question("What were Costco's total revenues for the fiscal year "
                                        "ending in August 2021?")) is not None


def test_a_quarter_asked_beside_the_10q_named_by_its_quarter_is_one_period() -> None:
    """JPMorgan's Q1 2021 10-Q: the quarter asked once (Item 703's first-quarter row answers a
    yes or no of one quarter), and "buying back" asks of buybacks."""
    asked = read_question("Was JPMorgan Chase able to resume buying back its common stock in the "
                          "first quarter of 2021, according to its 10-Q for the quarter ended "
                          "March 31, 2021?")
    assert asked.periods == [("Q1", "2021")]
    assert asked.intents == ["buybacks"] and asked.expects == "yes_no"


@pytest.mark.parametrize(("text", "expects"), [
    # a limit or a threshold is a figure (a bylaw's "the greater of (A) two and (B) 20%"), never
    # the Item's text
    ("Under the proxy-access provision in the bylaws Costco filed with its August 9, 2023 8-K, "
     "what is the maximum number of shareholder nominees Costco must include in its proxy "
     "statement?", "figure"),
    ("Under Costco's bylaws, how large a voting stake do shareholders need to call a special "
     "meeting?", "figure"),
    ("How large is Costco's warehouse base in Canada relative to the U.S.?", "text"),
])
def test_a_limit_asked_is_a_figure(text: str, expects: str) -> None:
    assert read_question(text).expects == expects


@pytest.mark.parametrize(("rest", "member"), [
    (" in CCB in Q3 2022?", "CCB"),  # a business line's, never the firm's row
    (" for Sam's Club rise in fiscal 2022?", "Sam's Club"),
    (" in Q3 2022?", None), (" in the Second Quarter of 2023?", None),  # periods
    (" in Fiscal 2023?", None), (" in January 2023?", None), (" in 2023?", None),
])
def test_a_member_named_after_a_measure_no_term_names(rest: str, member: str | None) -> None:
    assert member_after(rest, ["JPMorgan", "Walmart"]) == member


@pytest.mark.parametrize(("text", "names"), [
    ("What did Corning pay for 3M's Communication Markets Division (CMD) in 2018?", ["CMD"]),
    ("What happened to the stock held by Samsung Display (“SDC”) in 2021?", ["SDC"]),
    # a period in parentheses, a ticker or a capitals word merely printed defines no name
    ("What was AMD's R&D expense (FY2022)?", []),
    ("How much did IBM pay for Red Hat in 2019?", []),
])
def test_a_question_defines_short_names_in_parentheses(text: str, names: list[str]) -> None:
    assert read_question(text).short_names == names
