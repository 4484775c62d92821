"""Statement pages, 10-K Items and the segment note: rules on hand-written lines, then the real
filings (the FinanceBench dev set's 14 10-Ks and the 3M and Pfizer 10-Ks, loaded once).

The expected kind of every FinanceBench evidence page was decided by reading the page; the
statement pages pinned per filing are every page classified as a primary statement, read one by
one: no false positive, the only pages outside Item 8 being the statements of MGM's affiliate
CityCenter filed as Exhibit 99.3.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets.core.ingest.statements import (
    PRIMARY_STATEMENTS,
    STATEMENT_KINDS,
    STATEMENT_TITLES,
    StatementKind,
    classify_page,
    classify_pages,
    item_of,
    items_by_page,
    note_heading,
    page_lines,
    statement_title,
)
from rag_assets_tests.real_filings import real_filing
from rag_assets_tests.work_count import growth

from ..conftest import CORPORA

DEV_PDFS = CORPORA / "financebench-dev" / "pdfs"
SEC_10K = CORPORA / "sec-10k"

ITEM_7 = "Item 7. Management's Discussion and Analysis"
ITEM_8 = "Item 8. Financial Statements and Supplementary Data"

# --- titles --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "kind"), [
    ("CONSOLIDATED STATEMENTS OF CASH FLOWS", "cash_flow"),
    ("            Consolidated Statements of Cash Flows (continued)", "cash_flow"),
    ("Consolidated Statement of Incom e", "income_statement"),  # 3M: a letter split off
    ("Consolidated Balance Shee t", "balance_sheet"),
    ("Consolidated Balance Sheets Corning Incorporated and Subsidiary Companies", "balance_sheet"),
    ("Consolidated Statements of Financial Position", "balance_sheet"),
    ("Consolidated Statements of Earnings", "income_statement"),
    ("CONSOLIDATED STATEMENTS OF OPERATIONS", "income_statement"),
    ("Consolidated Statements of Operations and Comprehensive Income (Loss)", "income_statement"),
    ("CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME (LOSS)", "comprehensive_income"),
    ("Consolidated Statements of Total Equity and Redeemable Interest", "equity"),
    ("CONSOLIDATED STATEMENTS OF SHAREOWNERS' EQUITY", "equity"),
    ("CONSOLIDATED STATEMENTS OF CHANGES IN SHAREHOLDERS’ EQUITY", "equity"),
    ("Consolidated Statement of Changes in Equit y", "equity"),
    ("Consolidated Statements of Equity", "equity"),
])
def test_statement_titles(line: str, kind: StatementKind) -> None:
    assert statement_title(line) == kind


@pytest.mark.parametrize("line", [
    "Consolidated Balance Sheets as of December 31, 2020 and 2019 80",  # an index line
    "Consolidated Statements of Earnings – Years ended December 31, 2022 ..........  62",
    "Consolidated Statements of Operations Data",  # selected data in MD&A
    "Consolidated Statement of Income. Research, development and related expenses totaled $1.8",
    "consolidated balance sheet (in millions):",  # the end of a sentence
    "The following table summarizes our Consolidated Statements of Cash Flows:",
    "ANALYSIS OF THE CONSOLIDATED STATEMENTS OF INCOME",
    "CONDENSED CONSOLIDATING STATEMENT OF CASH FLOWS INFORMATION",
    "We have audited the accompanying consolidated balance sheets of 3M Company",
    "• Consolidated Statements of Income",
])
def test_lines_that_only_name_a_statement_are_no_title(line: str) -> None:
    assert statement_title(line) is None


def test_every_kind_has_a_title() -> None:
    assert set(STATEMENT_TITLES) == set(STATEMENT_KINDS)
    assert set(PRIMARY_STATEMENTS) < set(STATEMENT_KINDS)


# --- pages ---------------------------------------------------------------------------------------

CASH_FLOW_PAGE = [
    "Table of Contents",
    "ACME CORPORATION AND SUBSIDIARIES",
    "CONSOLIDATED STATEMENTS OF CASH FLOWS",
    "(In millions)",
    "2023 2022 2021",
    "Cash flows from operating activities:",
    "Net income $ 1,503 $ 1,848 $ 273",
    "Depreciation and amortization 328 509 888",
    "Accounts payable 31 (65) 85",
    "Net cash provided by operating activities 1,831 1,790 2,213",
    "Capital expenditures (116) (131) (155)",
    "Net cash used in investing activities (22) (230) (207)",
    "Dividends paid (283) (259) (226)",
    "Net cash used in financing activities (105) (2,019) (613)",
]
INDEX_PAGE = [
    "ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA",
    "Page",
    "Consolidated Statements of Income 72",
    "Consolidated Statements of Comprehensive Income 73",
    "Consolidated Balance Sheets 74",
    "Consolidated Statements of Cash Flows 75",
    "Consolidated Statements of Shareowners' Equity 76",
    "Notes to Consolidated Financial Statements 77",
]
PROSE_PAGE = [
    "Table of Contents",
    "Consolidated Statements of Cash Flows",
    "Cash provided by operating activities rose in 2023 as collections improved and working",
    "capital needs fell; the consolidated statements of cash flows show capital expenditures",
    "of $116 million, below the $131 million spent in 2022, as several projects were deferred",
    "to the next year while the company reviewed its plans for new data centers in Europe.",
]


def test_a_titled_page_of_figures_is_the_statement() -> None:
    assert classify_page(CASH_FLOW_PAGE) == "cash_flow"
    assert classify_page(CASH_FLOW_PAGE, ITEM_7) == "cash_flow"  # a statement wins everywhere


def test_the_index_of_statements_and_prose_under_a_title_are_no_statement() -> None:
    assert classify_page(INDEX_PAGE) is None
    assert classify_page(INDEX_PAGE, ITEM_8) is None
    assert classify_page(PROSE_PAGE) is None
    assert classify_page(PROSE_PAGE, ITEM_7) == "mdna"


def test_a_table_placeholder_under_a_title_is_the_statement() -> None:
    page = ["American Water Works Company, Inc.", "Consolidated Balance Sheets", "(In millions)",
            "December 31, 2022 December 31, 2021", "[[TABLE 1]]", "79"]
    assert classify_page(page) == "balance_sheet"
    assert classify_page(["Index to Consolidated Financial Statements", "[[TABLE 1]]"]) is None


def test_a_statement_printed_over_two_pages_is_one_statement() -> None:
    rows = [f"Row {i} 1,{i:03d} (2{i}) 3{i}.5" for i in range(20)]
    second = ["stock Class A and B common stock", *rows]
    notes = ["Notes to Consolidated Financial Statements", "NOTE 1 - DESCRIPTION OF BUSINESS",
             *["Square, Inc. provides payment services to sellers in many markets."] * 10]
    assert classify_pages([CASH_FLOW_PAGE, second, notes]) == ["cash_flow", "cash_flow", None]


# --- Items ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "item"), [
    ("Item 7. Management's Discussion and Analysis of Financial Condition and Results of "
     "Operations", ITEM_7),
    ("ITEM 7. MANAGEMENT’S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF", ITEM_7),
    ("ITEM 7 - Management’s Discussion and Analysis of Financial Condition", ITEM_7),
    ("ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA", ITEM_8),
    ("ITEM 8.  FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA", ITEM_8),
    ("Item 1A. Risk Factors", "Item 1A. Risk Factors"),
    ("Item 1. Busines s.", "Item 1. Business"),  # 3M: a letter split off
    ("Item 1B.   UNRESOLVED STAFF COMMENTS", "Item 1B. Unresolved Staff Comments"),
    ("ITEM 6. [RESERVED]", "Item 6. [Reserved]"),
    ("ITEM 6. SELECTED FINANCIAL DATA", "Item 6. Selected Financial Data"),
    ("Item\xa07A. Quantitative and Qualitative Disclosures About Market Risk",
     "Item 7A. Quantitative and Qualitative Disclosures About Market Risk"),
])
def test_item_headings(line: str, item: str) -> None:
    assert item_of(line) == item


@pytest.mark.parametrize("line", [
    "Item 7. Management's Discussion and Analysis 25",  # a table of contents line
    "ITEM 1. Business .........................................................  3",
    "Item 8 of this Annual Report on Form 10-K.",
    "Item 1A. Risk Factors—Collaborations and Other Relationships section in this Form 10-K",
    "Item 601(b)(2) of Regulation S-K.",
    "Items 7 and 8 below describe the results.",
    "Part II, Item 7, of this report discusses",
])
def test_lines_that_cite_an_item_are_no_heading(line: str) -> None:
    assert item_of(line) is None


def test_items_by_page_ignores_contents_and_cross_references() -> None:
    contents = ["Table of Contents", "PART I", "Item 1. Business 4", "Item 1A. Risk Factors 10",
                "Item 7. Management's Discussion and Analysis 25",
                "Item 8. Financial Statements 40"]
    cover = ["Forward-looking statements are made throughout this report."]
    business = ["PART I", "ITEM 1. BUSINESS", "We make things."]
    cross = ["For the risks of government contracts, see", "Item 1A - Risk Factors.", "More text."]
    part_iii = ["ITEM 10. DIRECTORS, EXECUTIVE OFFICERS AND CORPORATE GOVERNANCE", "By reference.",
                "ITEM 11. EXECUTIVE COMPENSATION", "By reference.",
                "ITEM 12. SECURITY OWNERSHIP OF CERTAIN BENEFICIAL OWNERS", "By reference."]
    assert items_by_page([contents, cover, business, cross, part_iii]) == [
        None, None, "Item 1. Business", "Item 1. Business",
        "Item 12. Security Ownership of Certain Beneficial Owners",
    ]


def test_a_heading_run_onto_the_sentence_above_it_opens_its_item() -> None:
    # Nike's 2019 10-K, p20: the text layer runs "ITEM 3. LEGAL PROCEEDINGS" onto the line of
    # the properties' last sentence; a cross reference in the same place is no heading
    properties = ["ITEM 2. PROPERTIES", "Our",
                  "leases expire through the year 2043 . ITEM 3. LEGAL PROCEEDINGS",
                  "There are no material pending legal proceedings."]
    cited = ["ITEM 2. PROPERTIES", "For our leases, see Item 3. Legal Proceedings",
             "As discussed. in ITEM 3. Legal Proceedings of this report"]
    assert items_by_page([properties, cited]) == ["Item 3. Legal Proceedings", "Item 2. Properties"]


def test_statements_after_item_15_are_item_8_and_exhibits_are_no_item() -> None:
    pages = [
        ["ITEM 15. EXHIBITS, FINANCIAL STATEMENT SCHEDULES", "(a) 1. Financial statements"],
        ["Table of Contents", "Report of Independent Registered Public Accounting Firm"],
        CASH_FLOW_PAGE,
        ["Exhibit 99.3", "CITYCENTER HOLDINGS, LLC", "Independent Auditors' Report"],
        ["The accompanying notes are an integral part of these statements."],
    ]
    assert items_by_page(pages) == [
        "Item 15. Exhibits and Financial Statement Schedules", ITEM_8, ITEM_8,
        "Exhibit 99.3", "Exhibit 99.3",
    ]


# --- the segment note ----------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "title"), [
    ("NOTE 18. Business Segments", "Business Segments"),
    ("Note 21: Segment Information", "Segment Information"),
    ("NOTE 19 - SEGMENT AND GEOGRAPHICAL INFORMATION", "SEGMENT AND GEOGRAPHICAL INFORMATION"),
    ("Note 5 – Information on Business Segments", "Information on Business Segments"),
    ("NOTE 16 — SEGMENT INFORMATION", "SEGMENT INFORMATION"),
    ("19. Reportable Segments (Continued)", "Reportable Segments (Continued)"),
    ("15. Operating Segments and Geographic Regions", "Operating Segments and Geographic Regions"),
    ("Note 10 for additional information and Note 19 for the impact", None),
    ("19. Reportable Segments 101", None),  # an index line
    ("2. The information contained in the Report fairly presents, in all material respects.", None),
])
def test_note_headings(line: str, title: str | None) -> None:
    assert note_heading(line) == title


def test_the_segment_note_runs_until_the_next_note() -> None:
    opening = ["Table of Contents", "Other income was flat.", "NOTE 18. Business Segments",
               "3M manages its operations in four business segments."]
    tables = ["Business Segment Information", "Net sales 1,000 2,000"]
    more = ["Segment assets 5,000 6,000"]
    next_note = ["NOTE 19. Geographic Areas", "Sales by area 1 2 3"]
    after = ["Quarterly data", "Net sales by segment 10 20 30 40"]
    pages = [["ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA"], opening, tables, more,
             next_note, after]
    assert classify_pages(pages) == [None, "segment_note", "segment_note", "segment_note", None,
                                     None]


def test_segment_results_in_mdna_are_mdna() -> None:
    pages = [["ITEM 7. MANAGEMENT’S DISCUSSION AND ANALYSIS"], ["Segment Information",
                                                                "Segment sales grew 4%."]]
    assert classify_pages(pages) == ["mdna", "mdna"]


# --- the real filings ----------------------------------------------------------------------------

# (pdf, zero-based page) -> what the page is, decided by reading it; every evidence page of the
# dev set's 18 questions
EVIDENCE: dict[tuple[str, int], StatementKind | None] = {
    ("ACTIVISIONBLIZZARD_2019_10K", 68): "balance_sheet",
    ("ACTIVISIONBLIZZARD_2019_10K", 69): "income_statement",
    ("ACTIVISIONBLIZZARD_2019_10K", 72): "cash_flow",
    ("AMERICANWATERWORKS_2020_10K", 85): "cash_flow",
    ("AMERICANWATERWORKS_2021_10K", 85): "income_statement",
    ("AMERICANWATERWORKS_2021_10K", 87): "cash_flow",
    ("AMERICANWATERWORKS_2022_10K", 80): "balance_sheet",
    ("AMERICANWATERWORKS_2022_10K", 81): "balance_sheet",  # its second page
    ("BLOCK_2020_10K", 85): "income_statement",
    ("BLOCK_2020_10K", 89): "cash_flow",
    ("COCACOLA_2017_10K", 73): "income_statement",
    ("COCACOLA_2017_10K", 75): "balance_sheet",
    ("CORNING_2022_10K", 23): "mdna",  # "2022 Results": the effective tax rate in MD&A
    ("CORNING_2022_10K", 59): "balance_sheet",
    ("GENERALMILLS_2020_10K", 49): "balance_sheet",
    ("GENERALMILLS_2020_10K", 51): "cash_flow",
    ("LOCKHEEDMARTIN_2020_10K", 66): "income_statement",
    ("LOCKHEEDMARTIN_2020_10K", 68): "balance_sheet",
    ("LOCKHEEDMARTIN_2021_10K", 67): "balance_sheet",
    ("LOCKHEEDMARTIN_2022_10K", 62): "income_statement",
    ("MGMRESORTS_2018_10K", 56): "balance_sheet",
    ("MGMRESORTS_2020_10K", 64): "income_statement",
    ("MGMRESORTS_2020_10K", 66): "cash_flow",
    ("MGMRESORTS_2022_10K", 31): None,  # Item 5, dividend policy
}
EVIDENCE_ITEMS = {("CORNING_2022_10K", 23): ITEM_7,
                  ("MGMRESORTS_2022_10K", 31): "Item 5. Market for Registrant's Common Equity"}

# every page classified as a primary statement, per filing (measured 2026-11-24, each page read)
STATEMENT_PAGES: dict[str, dict[StatementKind, list[int]]] = {
    "3M_2018_10K": {"income_statement": [55], "comprehensive_income": [56],
                    "balance_sheet": [57], "equity": [58], "cash_flow": [59]},
    "PFIZER_2021_10K": {"income_statement": [56], "comprehensive_income": [57],
                        "balance_sheet": [58], "equity": [59], "cash_flow": [60, 61]},
    "ACTIVISIONBLIZZARD_2019_10K": {"balance_sheet": [68], "income_statement": [69],
                                    "comprehensive_income": [70], "equity": [71],
                                    "cash_flow": [72]},
    "AMERICANWATERWORKS_2020_10K": {"balance_sheet": [81, 82], "income_statement": [83],
                                    "comprehensive_income": [84], "cash_flow": [85],
                                    "equity": [86]},
    "AMERICANWATERWORKS_2021_10K": {"balance_sheet": [83, 84], "income_statement": [85],
                                    "comprehensive_income": [86], "cash_flow": [87],
                                    "equity": [88]},
    "AMERICANWATERWORKS_2022_10K": {"balance_sheet": [80, 81], "income_statement": [82],
                                    "comprehensive_income": [83], "cash_flow": [84],
                                    "equity": [85]},
    "BLOCK_2020_10K": {"balance_sheet": [84], "income_statement": [85],
                       "comprehensive_income": [86], "equity": [87, 88], "cash_flow": [89]},
    "COCACOLA_2017_10K": {"income_statement": [73], "comprehensive_income": [74],
                          "balance_sheet": [75], "cash_flow": [76], "equity": [77]},
    "CORNING_2022_10K": {"income_statement": [57], "comprehensive_income": [58],
                         "balance_sheet": [59], "cash_flow": [60], "equity": [61]},
    "GENERALMILLS_2020_10K": {"income_statement": [47], "comprehensive_income": [48],
                              "balance_sheet": [49], "equity": [50], "cash_flow": [51]},
    "LOCKHEEDMARTIN_2020_10K": {"income_statement": [66], "comprehensive_income": [67],
                                "balance_sheet": [68], "cash_flow": [69], "equity": [70]},
    "LOCKHEEDMARTIN_2021_10K": {"income_statement": [65], "comprehensive_income": [66],
                                "balance_sheet": [67], "cash_flow": [68], "equity": [69]},
    "LOCKHEEDMARTIN_2022_10K": {"income_statement": [62], "comprehensive_income": [63],
                                "balance_sheet": [64], "cash_flow": [65], "equity": [66]},
    # 173-176: CityCenter Holdings' own statements, filed as Exhibit 99.3
    "MGMRESORTS_2018_10K": {"balance_sheet": [56, 173], "income_statement": [57, 174],
                            "comprehensive_income": [58], "cash_flow": [59, 175],
                            "equity": [60, 176]},
    "MGMRESORTS_2020_10K": {"balance_sheet": [63], "income_statement": [64],
                            "comprehensive_income": [65], "cash_flow": [66], "equity": [67]},
    "MGMRESORTS_2022_10K": {"balance_sheet": [58], "income_statement": [59],
                            "comprehensive_income": [60], "cash_flow": [61], "equity": [63]},
}
SEGMENT_NOTE_STARTS = {  # the page that prints the segment note's heading
    "3M_2018_10K": 123, "PFIZER_2021_10K": 106, "ACTIVISIONBLIZZARD_2019_10K": 99,
    "AMERICANWATERWORKS_2020_10K": 128, "AMERICANWATERWORKS_2021_10K": 135,
    "AMERICANWATERWORKS_2022_10K": 132, "BLOCK_2020_10K": 135, "COCACOLA_2017_10K": 140,
    "CORNING_2022_10K": 100, "GENERALMILLS_2020_10K": 87, "LOCKHEEDMARTIN_2020_10K": 81,
    "LOCKHEEDMARTIN_2021_10K": 80, "LOCKHEEDMARTIN_2022_10K": 75, "MGMRESORTS_2018_10K": 89,
    "MGMRESORTS_2020_10K": 99, "MGMRESORTS_2022_10K": 97,
}
# where Item 7 and Item 8 come into force (Corning and Activision print their statements after
# Item 15, opened by the auditor's report)
ITEM_STARTS = {
    "3M_2018_10K": (14, 51), "ACTIVISIONBLIZZARD_2019_10K": (30, 65),
    "CORNING_2022_10K": (22, 54), "GENERALMILLS_2020_10K": (17, 44),
    "MGMRESORTS_2022_10K": (33, 53), "PFIZER_2021_10K": (31, 54),
}


def _pdf(name: str) -> Path:
    return (SEC_10K if name in {"3M_2018_10K", "PFIZER_2021_10K"} else DEV_PDFS) / f"{name}.pdf"


@pytest.fixture(scope="module")
def filings() -> dict[str, tuple[list[list[str]], list[list[str]]]]:
    """Each filing's pages as :func:`page_lines` and as ``Page.lines``. The documents come from
    the session's cache of real filings (``real_filing``): half of these 16 were loaded by the
    modules that run before this one (about 2 s each through the PDF engine)."""
    missing = [name for name in STATEMENT_PAGES if not _pdf(name).is_file()]
    if missing:
        pytest.skip(f"real 10-Ks not found under {CORPORA}: {missing[:3]}")
    out = {}
    for name in STATEMENT_PAGES:
        doc = real_filing(_pdf(name))
        out[name] = ([page_lines(p) for p in doc.pages], [p.lines for p in doc.pages])
    return out


@pytest.mark.slow
def test_every_evidence_page_is_what_it_holds(
    filings: dict[str, tuple[list[list[str]], list[list[str]]]],
) -> None:
    for rendered in (0, 1):  # tables rendered, and tables as placeholders
        names = {name for name, _ in EVIDENCE}  # each filing read once, its pages looked up
        kinds = {name: classify_pages(filings[name][rendered]) for name in names}
        items = {name: items_by_page(filings[name][rendered]) for name in names}
        got = {(name, page): kinds[name][page] for (name, page) in EVIDENCE}
        for (name, page) in EVIDENCE:
            item = items[name][page]
            assert item == EVIDENCE_ITEMS.get((name, page), ITEM_8), (name, page, item)
        assert got == EVIDENCE


@pytest.mark.slow
def test_statement_pages_of_every_filing(
    filings: dict[str, tuple[list[list[str]], list[list[str]]]],
) -> None:
    for name, expected in STATEMENT_PAGES.items():
        for pages in filings[name]:
            kinds = classify_pages(pages)
            found: dict[str, list[int]] = {}
            for i, kind in enumerate(kinds):
                if kind in PRIMARY_STATEMENTS:
                    found.setdefault(kind, []).append(i)
            assert found == expected, name
            segment = [i for i, kind in enumerate(kinds) if kind == "segment_note"]
            assert segment[0] == SEGMENT_NOTE_STARTS[name], (name, segment)
            assert 1 <= len(segment) <= 10, (name, segment)
            assert segment == list(range(segment[0], segment[-1] + 1)), (name, segment)


@pytest.mark.slow
def test_items_and_mdna_on_real_filings(
    filings: dict[str, tuple[list[list[str]], list[list[str]]]],
) -> None:
    for name, (mdna_start, statements_start) in ITEM_STARTS.items():
        pages = filings[name][0]
        items = items_by_page(pages)
        assert items[mdna_start] == ITEM_7 and items[mdna_start - 1] != ITEM_7, name
        assert items[statements_start] == ITEM_8 and items[statements_start - 1] != ITEM_8, name
        assert items[0] is None, name  # the cover, before the contents
        kinds = classify_pages(pages)
        mdna = [i for i, kind in enumerate(kinds) if kind == "mdna"]
        assert mdna == [i for i, item in enumerate(items) if item == ITEM_7], name
    items = items_by_page(filings["MGMRESORTS_2018_10K"][0])
    assert all(items[i] == "Exhibit 99.3" for i in (173, 174, 175, 176))


@pytest.mark.slow
def test_classifying_grows_linearly_with_the_pages(
    filings: dict[str, tuple[list[list[str]], list[list[str]]]],
) -> None:
    """Classifying four times the pages makes about four times the calls (under 5x: quadratic
    work would make 16x), counted in one process over four real filings, never timed
    (``rag_assets_tests/work_count.py``). A cost per page belongs to a benchmark, not to a test."""
    filing = [rendered for rendered, _ in filings.values()][:4]

    def classify(times: int) -> None:
        for rendered in filing:
            classify_pages(rendered * times)

    assert growth(classify, 1, 4) < 5.0
