"""Statement facts on real filings of six companies, checked against the page that prints them,
and the statement table reader on rows of the three shapes statements come in."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.ingest.facts import (
    StatementFact,
    concept_of,
    extract_facts,
    missing_key_concepts,
)
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets.core.ingest.identities import check_identities, share_holding
from rag_assets.core.ingest.pages import Page, TableBlock, raw_page_text
from rag_assets.core.ingest.statement_tables import (
    StatementTable,
    headed_markdown,
    parse_figure,
    read_columns,
    read_statement_tables,
    split_run_on_line,
)
from rag_assets.core.ingest.statements import StatementKind
from rag_assets_tests.real_filings import real_filing

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"
needs_corpora = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


@cache
def _filing(path: str) -> tuple[list[Page], list[StatementFact]]:
    pages = real_filing(path).pages
    return pages, read_facts("doc", 0, pages)


def _value(facts: list[StatementFact], concept: str, year: int, months: int | None = None
           ) -> StatementFact:
    found = [f for f in facts if f.concept == concept and f.fiscal_year == year
             and (months is None or f.months == months)]
    assert found, f"no {concept} for {year}"
    return min(found, key=lambda f: (f.rank, f.page, f.row))


# (filing, concept, fiscal year, months, value in USD) as the statement page prints them
SPOT_CHECKS = [
    ("sec-10k/3M_2018_10K.pdf", "revenue", 2018, 12, 32_765e6),
    ("sec-10k/3M_2018_10K.pdf", "revenue", 2016, 12, 30_109e6),
    ("sec-10k/3M_2018_10K.pdf", "total_assets", 2017, None, 37_987e6),
    ("sec-10k/3M_2018_10K.pdf", "current_liabilities", 2018, None, 7_244e6),
    ("sec-10k/3M_2018_10K.pdf", "debt_issued", 2018, 12, 2_251e6),  # "Proceeds from debt
    ("sec-10k/3M_2018_10K.pdf", "debt_repaid", 2018, 12, -1_034e6),  # (maturities > 90 days)"
    ("financebench-wide/pdfs/AMD_2015_10K.pdf", "revenue", 2015, 12, 3_991e6),
    ("financebench-wide/pdfs/AMD_2015_10K.pdf", "net_income", 2013, 12, -83e6),
    ("financebench-wide/pdfs/NIKE_2021_10K.pdf", "cost_of_revenue", 2020, 12, 21_162e6),
    ("financebench-wide/pdfs/NIKE_2021_10K.pdf", "operating_cash_flow", 2021, 12, 6_657e6),
    ("financebench-dev/pdfs/BLOCK_2020_10K.pdf", "operating_cash_flow", 2020, 12, 381_603e3),
    ("financebench-dev/pdfs/MGMRESORTS_2020_10K.pdf", "revenue", 2020, 12, 5_162_082e3),
    ("financebench-dev/pdfs/MGMRESORTS_2020_10K.pdf", "total_assets", 2019, None, 33_876_356e3),
    ("financebench-wide/pdfs/JPMORGAN_2021Q1_10Q.pdf", "revenue", 2021, 3, 32_266e6),
    ("financebench-wide/pdfs/JPMORGAN_2021Q1_10Q.pdf", "total_assets", 2020, None, 3_384_757e6),
    ("financebench-dev/pdfs/LOCKHEEDMARTIN_2021_10K.pdf", "gross_profit", 2019, 12, 8_367e6),
]


@needs_corpora
@pytest.mark.parametrize(("path", "concept", "year", "months", "expected"), SPOT_CHECKS)
def test_facts_read_what_the_statement_page_prints(
    path: str, concept: str, year: int, months: int | None, expected: float
) -> None:
    pages, facts = _filing(path)
    fact = _value(facts, concept, year, months)
    assert fact.value == pytest.approx(expected)
    # the citation holds: the quote is on its page, and prints the figure
    page_text = " ".join(raw_page_text(pages[fact.page]).replace("|", " ").split())
    assert all(word in page_text for word in fact.quote.split())
    assert fact.printed.strip("$() ").replace(" ", "") in fact.quote.replace(" ", "")


@needs_corpora
@pytest.mark.parametrize("path", sorted({p for p, *_ in SPOT_CHECKS}))
def test_key_facts_and_identities_on_real_filings(path: str) -> None:
    _, facts = _filing(path)
    fiscal = max(f.fiscal_year for f in facts if f.fiscal_year)
    assert missing_key_concepts(facts, fiscal) == []
    checks = check_identities(facts)
    assert checks and share_holding(checks) >= 0.95, [c for c in checks if not c.holds]


@needs_corpora
def test_a_page_of_stacked_blocks_reads_each_under_its_own_duration() -> None:
    """Ulta's Q4 release (p.6) prints the quarter under "13 Weeks Ended" and the year under
    "52 Weeks Ended", each cell an amount with its share of net sales ("$ 3,226,773 100.0%"):
    each block's columns are its own, and the share is no column."""
    _, facts = _filing("financebench-wide/pdfs/ULTABEAUTY_2023Q4_EARNINGS.pdf")
    expected = {(2023, 3): 3_226_773e3, (2022, 3): 2_729_388e3,
                (2023, 12): 10_208_580e3, (2022, 12): 8_630_889e3}
    for (year, months), value in expected.items():
        assert _value(facts, "revenue", year, months).value == pytest.approx(value)
    assert _value(facts, "operating_income", 2023, 12).value == pytest.approx(1_638_610e3)
    income = [f for f in facts if f.statement == "income_statement" and f.page == 5]
    assert len({(f.row, f.column) for f in income}) == len(income)  # one fact per cell


def test_labels_map_to_concepts_by_statement() -> None:
    assert concept_of("Total net revenue", "income_statement")[0] == "revenue"
    assert concept_of("Cost of products sold", "income_statement")[0] == "cost_of_revenue"


def test_depreciation_and_amortization_of_intangibles_add_up_but_amortization_alone_does_not(
        ) -> None:
    """Corning's cash flows print "Depreciation" and "Amortization of purchased intangibles"
    and no total (us-gaap's Depreciation + AmortizationOfIntangibleAssets): D&A is their sum;
    depreciation alone stands for D&A; amortization alone is not D&A; a printed total wins."""
    head = [["(In millions)", "2022", "2021"], ["Net income", "1,316", "1,906"]]
    depreciation, amortization = (["Depreciation", "1,329", "1,352"],
                                  ["Amortization of purchased intangibles", "123", "129"])

    def dna(*rows: list[str]) -> list[float]:
        page = Page(page_index=60, text="CONSOLIDATED STATEMENTS OF CASH FLOWS\n[[TABLE 1]]",
                    tables=[TableBlock(index=1, rows=[*head, *rows])])
        return [f.value for f in extract_facts("glass", 2022, [page], ["cash_flow"])
                if f.concept == "depreciation_amortization"]

    assert dna(depreciation, amortization) == [1_452e6, 1_481e6]
    assert dna(depreciation) == [1_329e6, 1_352e6]
    assert dna(amortization) == []
    assert dna(["Depreciation and amortization", "1,460", "1,490"], amortization) == [
        1_460e6, 1_490e6]
    assert concept_of("Property, plant and equipment — net", "balance_sheet")[0] == "ppe_net"
    assert concept_of("Net cash provided by (used in) operating activities",
                      "cash_flow")[0] == "operating_cash_flow"
    assert concept_of("Additions to property, plant and equipment", "cash_flow")[0] == \
        "capital_expenditure"
    # JPMorgan's 10-Q (Q1 2021) cash flow statement: a bank buys back its stock as treasury stock
    assert concept_of("Treasury stock repurchased", "cash_flow")[0] == "share_repurchases"
    # a part of a line item ranks below the line item itself
    plain = concept_of("Net cash provided by operating activities", "cash_flow")
    part = concept_of("Net cash provided by operating activities from continuing operations",
                      "cash_flow")
    assert plain[0] == part[0] == "operating_cash_flow" and part[1] > plain[1]
    assert concept_of("Total assets", "income_statement")[0] is None  # wrong statement
    assert concept_of("Goodwill", "balance_sheet")[0] == "goodwill"
    assert concept_of("Goodwill", "income_statement")[0] is None  # wrong statement
    assert concept_of("Other intangible assets, net", "balance_sheet")[0] is None


@pytest.mark.parametrize(("label", "statement", "concept"), [
    # Ulta Beauty's release: "Merchandise inventories, net" (us-gaap:InventoryNet)
    ("Merchandise inventories, net", "balance_sheet", "inventory"),
    # General Mills 2019 cash flows (p.57): a section's caption joined to its first row
    ("Cash Flows - Investing Activities Purchases of land, buildings, and equipment",
     "cash_flow", "capital_expenditure"),
    ("Adjustments to reconcile net earnings to net cash provided by operating activities: "
     "Depreciation and amortization", "cash_flow", "depreciation_amortization"),
    # Corning 2015 (p.154): the caption's total is not the row under it
    ("Cash Flows from Investing Activities Capital expenditures", "cash_flow",
     "capital_expenditure"),
    ("Land, buildings, and equipment", "balance_sheet", "ppe_net"),  # General Mills
    # Corning prints non-breaking spaces: the note reference is still dropped
    ("(Provision)\xa0benefit\xa0for\xa0income\xa0taxes\xa0(Note\xa04)", "income_statement",
     "income_tax"),
    ("Provision for/(benefit from) income taxes", "income_statement", "income_tax"),  # Kraft
    ("Income taxes from continuing operations", "income_statement", "income_tax"),  # Coca-Cola
    ("Inventories, net of inventory reserves - $182 and $169 (Note 3)", "balance_sheet",
     "inventory"),  # Corning 2018
    # Netflix: the total of both sides is not the equity
    ("Total liabilities and stockholders’ equity", "balance_sheet", "liabilities_and_equity"),
    # the parent's equity, apart from noncontrolling interests; "Total equity" is equity
    ("Total Walmart shareholders’ equity", "balance_sheet", "parent_equity"),
    ("Equity Attributable to Shareowners of The Coca-Cola Company", "balance_sheet",
     "parent_equity"),
    ("Equity attributable to noncontrolling interests", "balance_sheet", None),
    ("Total stockholders' equity", "balance_sheet", "equity"),
    # a caption whose rows are not the line item: a non-cash disclosure, a deduction
    ("Noncash investing and financing activities: Capital expenditures included in accounts "
     "payable", "cash_flow", None),
    ("Less: current maturities of long-term debt", "balance_sheet", None),
    ("Amounts attributable to noncontrolling interests: Net income", "income_statement", None),
    # Kraft Heinz 2021: impairment losses apart from the balance; interest income beside
    # interest expense (Coca-Cola 2019)
    ("Goodwill impairment losses", "income_statement", "goodwill_impairment"),
    # Costco: a warehouse club's membership fees, a line of total revenue
    ("Membership fees", "income_statement", "membership_fees"),
    ("Intangible asset impairment losses", "income_statement", "intangible_asset_impairment"),
    ("Interest income", "income_statement", "nonoperating_interest_income"),
    ("Interest, net", "income_statement", "interest_expense_net"),  # General Mills, Walmart
    ("Interest expense", "income_statement", "interest_expense"),
    ("Interest expense, net of amounts capitalized", "income_statement", "interest_expense"),
    # General Mills 2022: restructuring on a line of its own (ASC 420-10-45-3), recoveries too;
    # the cash flow statement's restructuring payments are no income statement cost
    ("Restructuring, impairment, and other exit (recoveries) costs", "income_statement",
     "restructuring_costs"),
    ("Restructuring charges", "income_statement", "restructuring_costs"),
    ("Restructuring and other charges, net", "income_statement", "restructuring_costs"),
    ("Restructuring charges", "cash_flow", None),
    # the cash paid for taxes and interest (ASC 230-10-50-2), apart from the expenses
    ("Income taxes paid", "cash_flow", "income_taxes_paid"),
    ("Cash paid for income taxes, net of refunds", "cash_flow", "income_taxes_paid"),
    ("Interest paid, net of amounts capitalized", "cash_flow", "interest_paid"),
])
def test_printed_label_variants(label: str, statement: StatementKind, concept: str | None
                                ) -> None:
    assert concept_of(label, statement)[0] == concept


def test_figures_columns_and_run_on_rows() -> None:
    assert parse_figure("$ (1,234.5)") == -1234.5
    assert parse_figure("—") == 0.0
    assert parse_figure("n/a") is None
    columns = read_columns("Three Months Ended June 30, Six Months Ended June 30,\n"
                           "2023 2022 2023 2022", 4)
    assert [(c.year, c.months) for c in columns] == [(2023, 3), (2022, 3), (2023, 6), (2022, 6)]
    assert [c.year for c in read_columns("December 31, 2018 December 31, 2017", 2)] == \
        [2018, 2017]
    rows = split_run_on_line("Net sales $ 18,992.8 $ 18,127.0 $ 17,626.6 Cost of sales "
                             "12,590.6 11,678.7 11,496.7", 3)
    assert rows == [("Net sales", ["$18,992.8", "$18,127.0", "$17,626.6"]),
                    ("Cost of sales", ["12,590.6", "11,678.7", "11,496.7"])]


def test_reader_takes_units_years_and_unlabelled_totals_from_a_table() -> None:
    table = TableBlock(index=1, rows=[
        ["", "Year Ended December 31,", "", ""],
        ["(In thousands)", "2020", "2019", "2018"],
        ["Revenues", "", "", ""],
        ["Casino", "$ 2,871,720", "$ 6,517,759", "$ 5,753,150"],
        ["Rooms", "830,382", "2,322,579", "2,212,573"],
        ["", "3,702,102", "8,840,338", "7,965,723"],
        ["Net income (loss)", "(1,319,907)", "2,214,092", "583,894"],
    ])
    page = Page(page_index=4, text="CONSOLIDATED STATEMENTS OF OPERATIONS\n[[TABLE 1]]",
                tables=[table])
    [read] = read_statement_tables([page], ["income_statement"])
    assert read.scale == 1e3 and [c.year for c in read.columns] == [2020, 2019, 2018]
    assert [c.months for c in read.columns] == [12, 12, 12]
    labels = [r.label for r in read.rows]
    assert labels == ["Casino", "Rooms", "Total Revenues", "Net income (loss)"]
    # the chunks' form of the same reading: a header row naming each column's year and the units
    lines = table.markdown().split("\n")
    headed = headed_markdown(lines, ["CONSOLIDATED STATEMENTS OF OPERATIONS"])
    assert headed[0] == "| (USD thousands) | Year Ended December 31, |  |  |"
    assert headed[1:] == lines[1:]  # every printed row kept, in order
    data_first = ["| Net sales |  |  |", "|---|---|---|", "| Products | $ 56,435 | $ 54,928 |"]
    assert headed_markdown(data_first, ["(in millions)", "Years Ended December 31,",
                                        "2021 2020"]) == [
        "| USD millions | 2021 | 2020 |", "|---|---|---|", *[data_first[0], data_first[2]]]
    facts = extract_facts("mgm", 2020, [page], ["income_statement"])
    revenue = [f for f in facts if f.concept == "revenue"]
    assert [(f.fiscal_year, f.value) for f in revenue] == [
        (2020, 3_702_102e3), (2019, 8_840_338e3), (2018, 7_965_723e3)]
    assert revenue[0].quote == "3,702,102 8,840,338 7,965,723" and revenue[0].page == 4


def test_a_header_on_two_rows_names_each_column_by_measure_and_year() -> None:
    """Years that each span two columns over a measure per column (a geographic table: net
    sales and long-lived assets per year) give every column its own name, measure first; the
    printed header rows stay as rows; a row of years alone, or measures that do not fill every
    column, give no such names."""
    lines = ["|  | 2022 |  | 2021 |  |", "|---|---|---|---|---|",
             "|  | Net sales (1) | Long-lived assets (2) | Net sales (1) | Long-lived assets (2) |",
             "| North America: |  |  |  |  |",
             "| United States | $ 5,149 | $ 8,937 | $ 4,539 | $ 8,600 |",
             "| Canada | 503 | 99 | 472 | 114 |"]
    headed = headed_markdown(lines, ["Operations by geographic area (in millions):"])
    assert headed[0] == ("| USD millions | Net sales 2022 | Long-lived assets 2022 | "
                         "Net sales 2021 | Long-lived assets 2021 |")
    assert headed[2:] == [lines[0], *lines[2:]]  # every printed row kept, in order
    gaps = [lines[0], lines[1], "|  | Net sales | Long-lived assets |  |  |", *lines[3:]]
    assert headed_markdown(gaps, ["(in millions)"]) == gaps


def test_a_header_of_durations_without_a_year_keeps_its_names() -> None:
    """Costco's comparable sales columns are named "12 Weeks" ... "36 Weeks Adjusted*" and the
    lead-in above says "fiscal 2023": the year names no column (every column would read
    "2023"), the durations do."""
    lines = ["|  | 12 Weeks | 12 Weeks Adjusted* | 36 Weeks | 36 Weeks Adjusted* |",
             "|---|---|---|---|---|",
             "| U.S. | -0.1% | 1.8% | 4.9% | 4.7% |",
             "| Total Company | 0.3% | 3.5% | 4.0% | 5.8% |"]
    above = ["and Year-to-Date Operating Results for Fiscal 2023", "5/25/2023",
             "(Nasdaq: COST) today announced its operating results for the third quarter "
             "(twelve weeks) and the first 36 weeks of", "fiscal 2023, ended May 7, 2023.",
             "Comparable sales for the third quarter and first 36 weeks of fiscal 2023 were as "
             "follows:"]
    assert headed_markdown(lines, above) == lines


@needs_corpora
def test_corning_geographic_table_chunks_name_their_columns() -> None:
    from rag_assets.core.chunks.chunking import enriched_chunks
    from rag_assets.core.footnotes.stitching import build_footnote_index, stitch_document

    pages = real_filing("financebench-dev/pdfs/CORNING_2022_10K.pdf").pages
    index = build_footnote_index(pages)
    stitched = stitch_document(pages, index)[104:106]
    chunks = enriched_chunks(stitched, "corning-10k", 2022, index)
    geographic = [c for c in chunks if "Total Asia Pacific" in c.text or "| China |" in c.text]
    assert geographic
    for chunk in geographic:
        assert "| USD millions | Net sales 2022 | Long-lived assets 2022 | Net sales 2021 |" \
            in chunk.text


def test_cost_of_revenue_of_products_and_services_is_their_sum() -> None:
    """A filer that prints "Cost of products" and "Cost of services" and no total (the way
    us-gaap splits CostOfGoodsAndServicesSold): cost of revenue is their sum, so gross margin
    can be computed; a printed total wins over the parts, and a lone part is the total."""
    rows = [["(In millions)", "2022", "2021"], ["Net sales", "$ 9,000", "$ 8,000"],
            ["Cost of products", "(5,100)", "(4,700)"], ["Cost of services", "(900)", "(800)"],
            ["Operating income", "1,200", "1,100"]]
    page = Page(page_index=3, text="CONSOLIDATED STATEMENTS OF EARNINGS\n[[TABLE 1]]",
                tables=[TableBlock(index=1, rows=rows)])
    facts = extract_facts("aero", 2022, [page], ["income_statement"])
    cost = [f for f in facts if f.concept == "cost_of_revenue"]
    assert [(f.fiscal_year, f.value) for f in cost] == [(2022, -6_000e6), (2021, -5_500e6)]
    assert cost[0].label == "Cost of products + Cost of services"
    assert cost[0].quote == "Cost of products (5,100) (4,700) | Cost of services (900) (800)"
    total = TableBlock(index=1, rows=[*rows[:4], ["Total cost of sales", "(6,010)", "(5,500)"]])
    facts = extract_facts("aero", 2022, [page.model_copy(update={"tables": [total]})],
                          ["income_statement"])
    assert [f.value for f in facts if f.concept == "cost_of_revenue"] == [-6_010e6, -5_500e6]
    lone = TableBlock(index=1, rows=[rows[0], rows[1], rows[2]])
    facts = extract_facts("aero", 2022, [page.model_copy(update={"tables": [lone]})],
                          ["income_statement"])
    assert [f.value for f in facts if f.concept == "cost_of_revenue"] == [-5_100e6, -4_700e6]
    assert concept_of("Cost of sales—services", "income_statement")[0] == "cost_of_revenue_part"
    assert concept_of("Cost of products sold", "income_statement")[0] == "cost_of_revenue"


@pytest.mark.parametrize(("units", "label", "scale"), [
    ("(In millions, except per share data)", "Diluted", 1e6),  # Walmart: counts in millions
    ("(in thousands, except share and per share data)", "Diluted", 1.0),
    ("(in millions, except per share data)", "Shares used in calculation (000's)", 1e3),  # Costco
    ("(In millions, except number of shares, which are reflected in thousands, and per-share "
     "amounts)", "Diluted", 1e3),
    ("(In millions, except per share amounts; shares in thousands)", "Diluted", 1e3),
])
def test_a_share_count_takes_its_own_scale(units: str, label: str, scale: float) -> None:
    table = StatementTable(page=0, statement="income_statement", units=units, scale=1e6 if
                           "millions" in units else 1e3, columns=[], rows=[])
    assert table.share_scale(label) == scale


@pytest.mark.parametrize(("label", "group"), [
    ("AVERAGE SHARES OUTSTANDING — DILUTED", None),  # Coca-Cola 2017
    ("Weighted average 3M common shares outstanding — diluted", "Operating expenses"),  # 3M
    ("Diluted", "Weighted-average common shares outstanding"),  # Walmart, Netflix
    ("Diluted", "Shares used in calculation (000’s)"),  # Costco
    ("Average shares outstanding assuming dilution", None),
])
def test_the_diluted_share_count_is_a_line_item(label: str, group: str | None) -> None:
    """The denominator of diluted EPS (us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding)
    as income statements print it, alone or read with its caption; the basic count is not it,
    nor is diluted EPS."""
    from rag_assets.core.ingest.facts import _row_concept
    from rag_assets.core.ingest.statement_tables import StatementRow

    def concept(text: str, caption: str | None) -> str | None:
        row = StatementRow(label=text, group=caption or "", cells=[], values=[], quote=text)
        return _row_concept(row, "income_statement", False)[0]

    assert concept(label, group) == "diluted_shares"
    basic = re.sub(r"(?i)diluted|assuming dilution", "basic", label)
    assert concept(basic, group) != "diluted_shares", basic
    assert concept("Diluted", "Earnings per share") == "eps"


@pytest.mark.parametrize(("cell", "value"), [
    ("(17.5)⁵", -17.5),  # a raised note number after the figure (a rate reconciliation)
    ("53.5 1", 53.5),  # a note number set apart by a space, not a digit of the figure
    ("$ 1", 1.0),  # a dollar sign's lone digit is the figure itself
    ("5,645 (a)", 5645.0),
    ("— %", 0.0),  # a nil percentage (Walmart's rate reconciliation before the TCJA's items)
])
def test_a_cells_note_number_is_no_digit_of_its_figure(cell: str, value: float) -> None:
    assert parse_figure(cell) == value
