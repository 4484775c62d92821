"""Financial tables that read right: a figure stays in one cell, ruled tables keep their text.

The split patterns are the ones real 10-Ks print (financebench-dev filings): a ``$`` in its own
cell before a spacer and the figure, a ``%`` after the figure, a sign left in the label's cell.
Real filings come from the session's cache of real filings, skipped when ../shared/corpora is
absent.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rag_assets.core.ingest.documents import LoadedDocument
from rag_assets.core.ingest.pages import Page, TableBlock
from rag_assets.core.ingest.pdf import clean_table_rows
from rag_assets_tests.core.conftest import CORPORA, Processed
from rag_assets_tests.real_filings import real_filing

FINANCEBENCH = CORPORA / "financebench-dev" / "pdfs"


@pytest.fixture(scope="module")
def filing() -> Callable[[str], LoadedDocument]:
    """A financebench-dev 10-K by file stem (the session's cache of real filings)."""

    def get(stem: str) -> LoadedDocument:
        return real_filing(FINANCEBENCH / f"{stem}.pdf")

    return get


def row_with(tables: list[TableBlock], label: str) -> list[str]:
    for table in tables:
        for row in table.rows:
            if row and row[0] == label:
                return row
    raise AssertionError(f"no table row labelled {label!r}")


def characters(rows: list[list[str]]) -> list[str]:
    return sorted(ch for row in rows for cell in row for ch in cell if not ch.isspace())


# --- cells -------------------------------------------------------------------------------------

SPLIT_ROWS = [  # (cells as the grid gives them, the row clean_table_rows must return)
    (  # American Water 2020 p119: "$" cell, figure cell, empty spacer
        ["Net amount recognized", "$", "420", "", "$", "416", "", "$", "(168)", "", "$", "(185)"],
        ["Net amount recognized", "$ 420", "$ 416", "$ (168)", "$ (185)"],
    ),
    (  # American Water 2020 p5: a figure and its "%" in two cells
        ["New Jersey", "$", "753", "", "$", "43", "", "$", "796", "", "24.5", "%", "", "657"],
        ["New Jersey", "$ 753", "$ 43", "$ 796", "24.5%", "657"],
    ),
    (  # American Water 2020 p74: a nil dash and its "%"
        ["Real estate investment trusts (“REITs”)", "", "2", "%", "", "—", "%", "", "—", "%"],
        ["Real estate investment trusts (“REITs”)", "2%", "—%", "—%"],
    ),
    (  # American Water 2021 p125: the "$" printed in the label's cell
        ["Projected benefit obligation $", "2,294", "", "$", "2,386"],
        ["Projected benefit obligation", "$ 2,294", "$ 2,386"],
    ),
    (  # the negative printed as "(", spacer, "7", ")" (the pattern of EDGAR's HTML tables)
        ["Sales of investments", "", "(", "", "7", ")"],
        ["Sales of investments", "(7)"],
    ),
    (  # Corning 2022 p23/p27: "(11" then "%)" or ")%" in the cell after it
        ["Gross margin", "$", "", "4,506", "(11", "%)", "(1.2", ")%"],
        ["Gross margin", "$ 4,506", "(11%)", "(1.2)%"],
    ),
    (  # "$ (" in one cell, the figure in the next, its ")" after a spacer
        ["Net loss", "$ (", "36", "", ")"],
        ["Net loss", "$ (36)"],
    ),
]


@pytest.mark.parametrize(("cells", "expected"), SPLIT_ROWS)
def test_a_figure_ends_in_one_cell(cells: list[str], expected: list[str]) -> None:
    header = ["In millions"] + [f"h{j}" for j in range(1, len(cells))]
    rows = clean_table_rows([header, cells])
    assert rows is not None
    figures = [c for c in rows[1] if c]
    assert figures == expected
    assert characters(rows) == characters([header, cells])  # a merge moves text, never drops it


def test_headers_and_labels_are_no_figures() -> None:
    rows = clean_table_rows([
        ["", "2022", "% change", "$ change"],
        ["Revenue (in millions", ")", "12", "3"],
    ])
    assert rows == [["", "2022", "% change", "$ change"], ["Revenue (in millions)", "", "12", "3"]]


def test_columns_split_by_the_rules_are_joined_but_not_with_the_labels() -> None:
    # General Mills 2020 p80: the year over the "$" spacer, the figures in the next column
    rows = clean_table_rows([
        ["", "2020", "", "2019", ""],
        ["Service cost", "", "$ 92.7", "", "$ 94.6"],
        ["Interest cost", "", "230.5", "", "248.0"],
    ])
    assert rows == [
        ["", "2020", "2019"],
        ["Service cost", "$ 92.7", "$ 94.6"],
        ["Interest cost", "230.5", "248.0"],
    ]


def _no_figure_split(pages: list[Page]) -> None:
    for page in pages:
        for table in page.tables:
            for row in table.rows:
                assert not [c for c in row if c in {"$", ")", "%", "()", ")%", "%)"}], row


def test_real_ruled_tables_keep_each_figure_in_one_cell(filing) -> None:
    corning = filing("CORNING_2022_10K").pages
    assert row_with(corning[27].tables, "Display Technologies") == [
        "Display Technologies", "3,306", "3,700", "(394)", "(11)%",
    ]
    assert row_with(corning[23].tables, "Gross margin")[-1] == "(11%)"
    _no_figure_split(corning)


def test_real_ruled_tables_keep_each_dollar_figure_in_one_cell(filing) -> None:
    water = filing("AMERICANWATERWORKS_2020_10K").pages
    assert row_with(water[119].tables, "Net amount recognized") == [
        "Net amount recognized", "$ 420", "$ 416", "$ (168)", "$ (185)",
    ]
    assert row_with(water[111].tables, "Amortization of deferred investment tax credits") == [
        "Amortization of deferred investment tax credits", "(1)", "(1)", "(1)",
    ]
    _no_figure_split(water)


def test_a_cell_drawn_over_several_rows_gives_each_row_its_figure(filing) -> None:
    # General Mills 2020 p80: the 2020 column is one cell drawn over the whole table; its
    # figures went into the first row, and PDFium's bounded text doubled the ")" at cell edges
    pages = filing("GENERALMILLS_2020_10K").pages
    assert row_with(pages[80].tables, "Expected return on plan assets")[:4] == [
        "Expected return on plan assets", "(449.9)", "(445.8)", "(480.2)",
    ]
    assert row_with(pages[80].tables, "Interest cost")[:4] == [
        "Interest cost", "230.5", "248.0", "217.9",
    ]


def _printed_characters(page: Page, source: Path) -> tuple[list[str], list[str]]:
    import pypdfium2 as pdfium

    from rag_assets.core.ingest.pages import TABLE_PLACEHOLDER_RE
    from rag_assets.core.ingest.pdf import clean_pdf_text
    from rag_assets.core.text.markers import FROM_SUPERSCRIPT as back

    pdf = pdfium.PdfDocument(str(source))
    printed = clean_pdf_text(pdf[page.page_index].get_textpage().get_text_range())
    pdf.close()
    kept = [line for line in page.lines if not TABLE_PLACEHOLDER_RE.match(line.strip())]
    got = "\n".join(kept).translate(back) + "".join(
        cell for t in page.tables for row in t.rows for cell in row
    )
    return (
        sorted(ch for ch in printed if not ch.isspace()),
        sorted(ch for ch in got if not ch.isspace()),
    )


def test_every_printed_character_is_in_the_text_or_in_one_cell(filing) -> None:
    """Ruled-table pages keep every character once: no cell doubles a ")" or a descender that
    overhangs a rule, and a row PDFium ran on from the title above loses nothing."""
    doc = filing("AMERICANWATERWORKS_2020_10K")
    for index in (5, 74, 111, 119):
        printed, kept = _printed_characters(doc.pages[index], doc.source)
        assert kept == printed, index


# --- statements printed without rules ---------------------------------------------------------


def aligned(page: Page) -> list[TableBlock]:
    return [t for t in page.tables if t.found_by == "alignment"]


def _consistent(page: Page) -> None:
    """Line sizes and note lines number the lines of the text as it is after the tables."""
    lines = page.lines
    assert len(page.line_sizes) == len(lines)
    assert all(0 <= n < len(lines) for n in page.note_lines)
    placeholders = [line.strip() for line in lines if line.strip().startswith("[[TABLE")]
    assert placeholders == [f"[[TABLE {t.index}]]" for t in page.tables]
    for n, line in enumerate(lines):
        if line.strip().startswith("[[TABLE"):
            assert page.line_sizes[n] == 0.0


@pytest.mark.parametrize("text", [
    "May 31, 2020 May 26, 2019",
    "2020 2019 2018",
    "(Millions) 2018 2017 2016",
    "Year Ended December 31, 2017 2016 2015",
    "At December 31, 2019 At December 31, 2018",
    "(Dollars in millions, except per share amounts) 2018* 2017 2016 2015 2014",
])
def test_a_header_of_periods(text: str) -> None:
    from rag_assets.core.ingest.pdf import _period_header

    found = _period_header(text)
    assert found is not None
    label, periods = found
    assert len(periods) >= 2
    assert " ".join([label, *periods]).split() == text.split()  # every word in a cell


@pytest.mark.parametrize("text", [
    "Item 7 Management’s Discussion and Analysis of Financial Condition and Results of "
    "Operations 18",
    "In 2018, ROIC of 22.2 percent was higher than 2017.",
    "as of December 31, 2018 and 2017.",
    "Inlyta 2025 2025 2025",  # a row of patent expiry years
    "Ibrance 2023 2027 2028",
    "1. Summary of Significant Accounting Policies 2019 2018",
    "2020 vs 2019",
])
def test_prose_lists_and_rows_of_years_are_no_header(text: str) -> None:
    from rag_assets.core.ingest.pdf import _period_header

    assert _period_header(text) is None


def test_general_mills_balance_sheet_is_a_table(filing) -> None:
    page = filing("GENERALMILLS_2020_10K").pages[49]
    tables = aligned(page)
    assert len(tables) == 1
    sheet = tables[0]
    assert sheet.rows[0] == ["", "May 31, 2020", "May 26, 2019"]
    assert "Consolidated Balance Sheets" in (sheet.title or "")
    assert row_with(tables, "Accounts payable") == ["Accounts payable", "$ 3,247.7", "$ 2,854.1"]
    assert row_with(tables, "Common stock in treasury, at cost, shares of 144.8 and 152.7") == [
        "Common stock in treasury, at cost, shares of 144.8 and 152.7", "(6,433.3)", "(6,779.0)",
    ]
    assert row_with(tables, "Current assets:") == ["Current assets:", "", ""]
    assert row_with(tables, "Total liabilities and equity")[1:] == ["$ 30,806.7", "$ 30,111.2"]
    assert "Accounts payable" not in page.text  # the statement's lines gave way to the table
    assert "See accompanying notes to consolidated financial statements." in page.text
    _consistent(page)


def test_general_mills_cash_flow_statement_is_a_table(filing) -> None:
    page = filing("GENERALMILLS_2020_10K").pages[51]
    tables = aligned(page)
    assert len(tables) == 1
    assert tables[0].rows[0] == ["Fiscal Year", "2020", "2019", "2018"]
    assert row_with(tables, "Net cash provided by operating activities") == [
        "Net cash provided by operating activities", "3,676.2", "2,807.0", "2,841.0",
    ]
    assert row_with(tables, "Purchases of land, buildings, and equipment")[1:] == [
        "(460.8)", "(537.6)", "(622.7)",
    ]
    assert row_with(tables, "Divestitures loss")[1:] == ["-", "30.0", "-"]
    # a label printed over two lines is one row
    assert row_with(
        tables,
        "Changes in current assets and liabilities, excluding the effects of acquisitions "
        "and divestitures",
    )[1:] == ["793.9", "(7.5)", "542.1"]
    _consistent(page)


def test_activision_statements_are_tables_and_keep_their_note_markers(filing) -> None:
    from rag_assets.core.footnotes.stitching import build_footnote_index

    doc = filing("ACTIVISIONBLIZZARD_2019_10K")
    balance, operations, cash = (aligned(doc.pages[n]) for n in (68, 69, 72))
    assert balance[0].rows[0] == ["", "At December 31, 2019", "At December 31, 2018"]
    assert row_with(balance, "Total current assets")[1:] == ["7,292", "6,106"]
    assert row_with(operations, "Total net revenues")[1:] == ["6,489", "7,500", "7,017"]
    assert row_with(cash, "Net cash provided by operating activities")[1:] == [
        "1,831", "1,790", "2,213",
    ]
    assert row_with(cash, "Share-based compensation expense (2)")[1:] == ["166", "209", "176"]
    # the notes under the statement stay text, and the markers in its cells cite them
    assert "(1) Excludes deferral and amortization of share-based compensation expense." in [
        line.strip() for line in doc.pages[72].lines
    ]
    index = build_footnote_index(doc.pages)
    cited = {c.marker: c.footnote_id for c in index.citations if c.page_index == 72}
    assert cited == {"(1)": "(1)@72", "(2)": "(2)@72"}
    for n in (68, 69, 72):
        _consistent(doc.pages[n])


def test_coca_cola_statements_are_tables(filing) -> None:
    doc = filing("COCACOLA_2017_10K")
    income, balance = aligned(doc.pages[73]), aligned(doc.pages[75])
    assert income[0].rows[0] == ["Year Ended December 31,", "2017", "2016", "2015"]
    assert row_with(income, "NET OPERATING REVENUES")[1:] == ["$ 35,410", "$ 41,863", "$ 44,294"]
    assert row_with(income, "NET INCOME ATTRIBUTABLE TO SHAREOWNERS OF THE COCA-COLA COMPANY")[
        1:
    ] == ["$ 1,248", "$ 6,527", "$ 7,351"]
    # the marker printed under its label, the figures on the line after: one row
    assert row_with(income, "Basic net income per share from continuing operations ¹")[1:] == [
        "$ 0.28", "$ 1.51", "$ 1.69",
    ]
    assert balance[0].rows[0] == ["December 31,", "2017", "2016"]
    assert row_with(balance, "TOTAL CURRENT LIABILITIES")[1:] == ["27,194", "26,532"]
    assert row_with(balance, "TOTAL LIABILITIES AND EQUITY")[1:] == ["$ 87,896", "$ 87,270"]


def test_lockheed_martin_statement_of_earnings_is_a_table(filing) -> None:
    page = filing("LOCKHEEDMARTIN_2022_10K").pages[62]
    tables = aligned(page)
    assert tables[0].rows[0] == ["Years Ended December 31,", "2022", "2021", "2020"]
    assert row_with(tables, "Total net sales")[1:] == ["65,984", "67,044", "65,398"]
    assert row_with(tables, "Net loss from discontinued operations")[1:] == ["—", "—", "(55)"]


def test_prose_and_a_table_of_contents_make_no_table(filing) -> None:
    pages = filing("GENERALMILLS_2020_10K").pages
    contents, prose = pages[2], pages[6]
    assert "Item 7 Management’s Discussion and Analysis" in contents.text
    assert contents.tables == [] and prose.tables == []
    assert "Kofi A. Bruce, age 50, is Chief Financial Officer." in prose.text


def test_a_box_that_cuts_a_paragraph_at_an_indent_is_text(filing) -> None:
    """A box may cut a paragraph's first or last line at an indent, leaving a short piece of
    it in a cell of its own ("businesses (the “Cheese Transaction”)."): still a paragraph.
    MGM's 2022 10-K boxes its capital expenditures' paragraph (p46), Kraft Heinz's 2021 10-K
    the end of its divestitures' sentence and its Assan Foods acquisition (p28): both text."""
    mgm = filing("MGMRESORTS_2022_10K").pages[46]
    assert ("In 2022, we made capital expenditures of $765 million, of which $31 million "
            "related to MGM China.") in mgm.text
    assert not any("capital expenditures of $765" in cell for t in mgm.tables
                   for row in t.rows for cell in row)
    kraft = real_filing(CORPORA / "financebench-bulk" / "pdfs" / "KRAFTHEINZ_2021_10K.pdf")
    page = kraft.pages[28]
    assert page.tables == []
    assert "in 2021, we completed the acquisition of Assan Gıda Sanayi" in page.text
    assert "businesses (the “Cheese Transaction”)." in page.text


def test_a_grid_of_dated_rows_takes_the_headings_above_it() -> None:
    """Walmart's Q1 fiscal 2024 10-Q prints its debt issued (p9) as rows of dates and figures
    ("April 18, 2023 | $ 750 | April 15, 2026 | 4.000% | $ 748") under headings set above the
    top rule: the first row is data, never the header, as American Water's rate cases by state
    (a state, its effective date, its amount) are. A header of dates alone stays a header."""
    walmart = real_filing(CORPORA / "financebench-bulk" / "pdfs" / "WALMART_2024Q1_10Q.pdf")
    issued = [t for t in walmart.pages[9].tables if t.rows[-1][0] == "Total"][0]
    assert issued.rows[0][1:] == ["Principal Amount", "Maturity Date", "Fixed Interest Rate",
                                  "Net Proceeds"]
    assert issued.rows[1] == ["April 18, 2023", "$ 750", "April 15, 2026", "4.000%", "$ 748"]
    assert len(issued.rows) == 7
    water = real_filing(CORPORA / "financebench-bulk" / "pdfs"
                        / "AMERICANWATERWORKS_2023Q2_10Q.pdf")
    cases = [t for t in water.pages[36].tables
             if any(r[0] == "Total general rate case authorizations" for r in t.rows)][0]
    assert cases.rows[0][1:] == ["Effective Date", "Amount"]
    assert ["Missouri", "May 28, 2023", "$ 44"] in cases.rows


def test_ruled_tables_are_found_as_before(filing) -> None:
    """American Water draws rules around its statements: its 99 tables are the ruled ones the
    loader found before alignment tables existed, with the same figures. Five more boxes frame
    a paragraph each (the passages that changed: Note 6's acquisitions on p100, MD&A's causes
    of a revenue change), which is text."""
    doc = filing("AMERICANWATERWORKS_2020_10K")
    tables = [t for p in doc.pages for t in p.tables]
    assert len(tables) == 99
    note = doc.pages[100]
    assert note.tables == []
    assert ("During 2020, the Company closed on 23 acquisitions of various regulated water and "
            "wastewater systems for a total aggregate purchase price of $135") in note.text
    cash = doc.pages[85].tables
    assert row_with(cash, "Net cash provided by operating activities")[1:] == [
        "1,426", "1,383", "1,386",
    ]
    assert row_with(cash, "Dividends paid")[1:] == ["(389)", "(353)", "(319)"]


@pytest.mark.slow
def test_a_note_that_prints_figures_stays_below_the_table(three_m: Processed) -> None:
    """3M's ROIC table (p44): its note (1) prints the tax rates it used; it is the definition
    of the (1) cited in the table, not a row of it."""
    page = three_m.pages[44]
    tables = aligned(page)
    assert tables[0].rows[0] == ["Years ended December 31 (Millions)", "2018", "2017", "2016"]
    assert row_with(tables, "Interest expense (after-tax) (1)")[1:] == ["268", "208", "143"]
    assert "(1) Effective income tax rate used for interest expense 23.4 % 35.5 % 28.3 %" in [
        line.strip() for line in page.lines
    ]
    by_id = three_m.index.by_id()
    assert by_id["(1)@44"].text == "Effective income tax rate used for interest expense 23.4 % " \
        "35.5 % 28.3 %"
    assert 44 in by_id["(1)@44"].cited_pages


def test_rows_printed_below_a_ruled_tables_last_rule_join_it() -> None:
    """Corning 2020 p130: the grid rules the geographic table's header and the United States;
    Canada to the total stand below as plain lines. They are the table's rows (with the regions'
    captions between them), not prose, and the page's text holds them once, in the table."""
    page = real_filing(CORPORA / "financebench-wide" / "pdfs" / "CORNING_2020_10K.pdf").pages[129]
    (table,) = page.tables
    assert table.found_by == "rules"
    labels = [" ".join(row[0].split()) for row in table.rows]  # PDFium's no-break spaces
    assert labels[labels.index("United States"):] == [
        "United States", "Canada", "Mexico", "Total North America", "Asia Pacific:", "Japan",
        "Taiwan", "China", "Korea", "Other", "Total Asia Pacific", "Europe:", "Germany", "Other",
        "Total Europe", "All Other", "Total"]
    assert table.rows[labels.index("Total Asia Pacific")][1:] == [
        "6,214", "10,979", "5,869", "10,700", "5,747", "9,939"]
    text = " ".join(page.text.split())
    assert "Taiwan" not in text and "(1) Net sales are attributed" in text


def test_a_table_below_a_ruled_table_is_not_taken_into_it(filing) -> None:
    """American Water 2021 p65: the general taxes table's total is followed by a caption and
    the next table's header of years; neither becomes a row of the first table."""
    page = filing("AMERICANWATERWORKS_2021_10K").pages[64]
    ended = next(t for t in page.tables if t.rows[-1][0] == "Total")
    assert ended.rows[-1][1:] == ["$ 1,325", "$ 1,258", "$ 1,182"]


def test_a_segment_notes_year_blocks_below_its_rules_join_it() -> None:
    """Corning 2020 p126: the grid rules the segment note's header and the 2020 block's first
    row; the rest of 2020 (a label's note mark, a label wrapped over two lines), then the 2019
    and 2018 blocks under their own period captions, stand below as plain lines."""
    page = real_filing(CORPORA / "financebench-wide" / "pdfs" / "CORNING_2020_10K.pdf").pages[125]
    (table,) = page.tables
    rows = {(i, r[0]): r[1:] for i, r in enumerate(table.rows)}
    labels = [r[0] for r in table.rows]
    assert labels.count("Segment net sales") == 3
    assert [r for r in labels if r.startswith("For the year ended")] == [
        "For the year ended December 31, 2020", "For the year ended December 31, 2019",
        "For the year ended December 31, 2018"]
    assert "Research, development and engineering expenses (2)" in labels
    second = labels.index("Segment net sales", labels.index("Segment net sales") + 1)
    assert rows[(second, "Segment net sales")] == [
        "$ 3,254", "$ 4,064", "$ 1,594", "$ 1,499", "$ 1,015", "$ 230", "$ 11,656"]


def test_a_header_of_names_over_blocks_of_years_is_a_table() -> None:
    """Walmart 2020 p81: the segment note prints no rules and no header of years; a column
    per segment and one for the total, each named by a header wrapped over lines, a block of
    rows per fiscal year. It is one table whose columns are the names as printed."""
    page = real_filing(CORPORA / "financebench-wide" / "pdfs" / "WALMART_2020_10K.pdf").pages[80]
    table = next(t for t in page.tables if t.found_by == "alignment")
    assert table.rows[0] == ["(Amounts in millions)", "Walmart U.S.", "Walmart International",
                             "Sam's Club", "Corporate and support", "Consolidated"]
    labels = [r[0] for r in table.rows]
    assert [label for label in labels if label.startswith("Fiscal Year")] == [
        f"Fiscal Year Ended January 31, {year}" for year in (2020, 2019, 2018)]
    second = labels.index("Net sales", labels.index("Net sales") + 1)
    assert table.rows[second][1:] == ["$ 331,666", "$ 120,824", "$ 57,839", "$ —", "$ 510,329"]
    assert table.rows[labels.index("Interest, net")][1:] == ["", "", "", "", "(2,410)"]
    assert "Net sales $ 341,004" not in " ".join(page.text.split())  # its lines gave way


def test_a_header_of_names_over_bare_years_and_a_header_across_columns() -> None:
    """Costco 2018 p59: the segment note's blocks are captioned by a year alone and its header
    names wrap over three lines; Coca-Cola 2017 p107: goodwill by segment is read
    so, while a hedge table's header phrases run across
    its two columns (words a space apart fall in both), so its names are not guessed."""
    costco = real_filing(CORPORA / "financebench-bulk" / "pdfs" / "COSTCO_2018_10K.pdf")
    table = next(t for t in costco.pages[58].tables if t.rows[0][-1] == "Total")
    assert table.rows[0][1:] == ["United States Operations", "Canadian Operations",
                                 "Other International Operations", "Total"]
    assert table.rows[1:3] == [["2018", "", "", "", ""], [
        "Total revenue", "$ 102,286", "$ 20,689", "$ 18,601", "$ 141,576"]]
    coke = real_filing(CORPORA / "financebench-dev" / "pdfs" / "COCACOLA_2017_10K.pdf")
    headers = [t.rows[0] for t in coke.pages[106].tables]
    assert ["", "Europe, Middle East & Africa", "Latin America", "North America",
            "Asia Pacific", "Bottling Investments", "Total"] in headers  # goodwill by segment
    assert not any("Effectiveness" in cell for row in headers for cell in row)


def test_names_stacked_over_a_block_whose_rows_open_with_a_caption() -> None:
    """Coca-Cola 2019 p133 stacks its segments' names over up to three lines ("Europe, Middle"
    / "East & Africa", centred on their column) above blocks captioned "2019", whose first
    line is a caption ("Net operating revenues:") and not a header; Netflix 2015 p60 captions
    its blocks "As of/Year ended December 31, 2015", prints its first row with a note mark
    ("Total memberships at end of period (1) 44,738 ...") and centres "(in thousands)" under
    the names: the units are the stub's, not a column's."""
    coke = real_filing(CORPORA / "financebench-bulk" / "pdfs" / "COCACOLA_2019_10K.pdf")
    table = next(t for t in coke.pages[133].tables if t.found_by == "alignment")
    assert table.rows[0] == ["", "Europe, Middle East & Africa", "Latin America",
                             "North America", "Asia Pacific", "Global Ventures",
                             "Bottling Investments", "Corporate", "Eliminations", "Consolidated"]
    assert table.rows[1:3] == [["2019", *[""] * 9], ["Net operating revenues:", *[""] * 9]]
    assert row_with([table], "Total net operating revenues")[1:] == [
        "7,058", "4,118", "11,915", "5,327", "2,562", "7,440", "94", "(1,248)", "37,266"]
    netflix = real_filing(CORPORA / "financebench-wide" / "pdfs" / "NETFLIX_2015_10K.pdf")
    first, second = (t for t in netflix.pages[60].tables if t.found_by == "alignment")
    assert first.rows[0] == ["(in thousands)", "Domestic Streaming", "International Streaming",
                             "Domestic DVD", "Consolidated"]
    assert [t.rows[1][0] for t in (first, second)] == [
        f"As of/Year ended December 31, {year}" for year in (2015, 2014)]
    assert row_with([first], "Revenues")[1:] == [
        "$ 4,180,339", "$ 1,953,435", "$ 645,737", "$ 6,779,511"]
    assert row_with([first], "Total memberships at end of period (1)")[1:] == [
        "44,738", "30,024", "4,904", "—"]


def test_a_caption_printed_over_a_header_of_names_heads_it() -> None:
    """3M 2018 p21 (sec-10k): "Year ended December 31, 2018" is printed over the header names
    ("Worldwide Sales Change By Business Segment" ... "Total sales change"), not under them;
    the segments' rows follow."""
    page = real_filing(CORPORA / "sec-10k" / "3M_2018_10K.pdf").pages[21]
    table = next(t for t in page.tables if t.found_by == "alignment")
    assert table.rows[0] == ["Worldwide Sales Change By Business Segment",
                             "Organic local- currency sales", "Acquisitions", "Divestitures",
                             "Translation", "Total sales change"]
    assert table.rows[1][0] == "Year ended December 31, 2018"
    assert row_with([table], "Safety and Graphics")[1:] == ["5.1", "7.3", "(3.1)", "0.2", "9.5"]


def test_a_header_of_durations_names_its_columns() -> None:
    """Costco's Q3 fiscal 2023 release p1 prints its comparable sales under "12 Weeks 12 Weeks
    36 Weeks 36 Weeks" and, under the second and fourth, "Adjusted*"; no year (the sentence
    leading into it says fiscal 2023). Each column is named by the words printed over it, and
    a row that prints a figure per column keeps each in its column though the figures are
    centred ("-10.0%" under "0.3%")."""
    page = real_filing(CORPORA / "financebench-bulk" / "pdfs"
                       / "COSTCO_2023Q3_EARNINGS.pdf").pages[0]
    table = next(t for t in page.tables if t.found_by == "alignment")
    assert table.rows[0] == ["", "12 Weeks", "12 Weeks Adjusted*", "36 Weeks",
                             "36 Weeks Adjusted*"]
    assert table.title is not None and table.title.startswith("Comparable sales for the third")
    assert row_with([table], "Total Company")[1:] == ["0.3%", "3.5%", "4.0%", "5.8%"]
    assert row_with([table], "E-commerce")[1:] == ["-10.0%", "-9.0%", "-7.8%", "-6.6%"]
    assert [r[0] for r in table.rows[1:]] == ["U.S.", "Canada", "Other International",
                                              "Total Company", "E-commerce"]


def test_a_header_of_runs_of_years_names_each_kind_of_column() -> None:
    """3M's 2018 10-K prints its geographic areas under "Net Sales" over 2018 2017 2016 and
    "Property, Plant and" / "Equipment - net" over 2018 2017 (p127), and its employees,
    capital spending and net property over three, three and two years (p39): each column is
    named by the words over its run of years, so no two columns share a name."""
    pages = real_filing(CORPORA / "sec-10k" / "3M_2018_10K.pdf").pages
    note = next(t for t in pages[126].tables if t.found_by == "alignment")
    assert note.rows[0] == ["(Millions)", "Net Sales 2018", "Net Sales 2017", "Net Sales 2016",
                            "Property, Plant and Equipment - net 2018",
                            "Property, Plant and Equipment - net 2017"]
    assert row_with([note], "Asia Pacific")[1:] == ["10,254", "9,809", "8,847", "1,624", "1,672"]
    assert row_with([note], "Total Company")[1:] == ["$ 32,765", "$ 31,657", "$ 30,109",
                                                     "$ 8,738", "$ 8,866"]
    mdna = next(t for t in pages[38].tables if t.found_by == "alignment")
    assert [h.rsplit(" ", 1)[0] for h in mdna.rows[0][1::3]] == [
        "Employees as of December 31,", "Capital Spending",
        "Property, Plant and Equipment - net as of December 31,"]
    assert len(set(mdna.rows[0])) == len(mdna.rows[0]) == 9
    assert row_with([mdna], "United States")[1:4] == ["37,412", "36,958", "35,748"]


def test_years_each_over_a_block_of_named_columns() -> None:
    """Corning's 2015 10-K p144 prints its geographic areas under "2015 2014 2013", PDFium
    running the years onto the sentence that leads into the table, each year over "Net sales
    (2)" and "Long-lived assets (1)" stacked over lines: each column is named by its words and
    the year over it, the sentence heads the stub, and a row with blanks keeps its figures in
    their columns."""
    page = real_filing(CORPORA / "financebench-bulk" / "pdfs" / "CORNING_2015_10K.pdf").pages[143]
    table = next(t for t in page.tables if t.found_by == "alignment")
    assert table.title == ("Information concerning principal geographic areas was as follows "
                           "(in millions):")
    assert "areas was as follows (in millions):\n[[TABLE" in page.text  # a line of the page
    assert table.rows[0] == [
        "",
        "Net sales (2) 2015", "Long-lived assets (1) 2015", "Net sales (2) 2014",
        "Long-lived assets (1) 2014", "Net sales (2) 2013", "Long-lived assets (1) 2013"]
    assert row_with([table], "Total\xa0Asia\xa0Pacific")[1:] == [
        "4,982", "8,147", "5,783", "8,135", "4,287", "8,404"]
    assert row_with([table], "Total")[1:3] == ["$ 9,111", "$ 18,189"]
    assert row_with([table], "Mexico")[1:] == ["37", "135", "35", "50", "23", "36"]


def test_a_header_repeated_under_names_is_named_by_them() -> None:
    """Coca-Cola's 2019 10-K p108 prints its benefit obligations under "Pension Benefits" and
    "Other Benefits", each over 2019 2018: the repeated years are named by the words over
    them; where no words name every run (its p109's plan assets), the header stays as printed."""
    pages = real_filing(CORPORA / "financebench-bulk" / "pdfs" / "COCACOLA_2019_10K.pdf").pages
    obligations = next(t for t in pages[107].tables if t.found_by == "alignment")
    assert obligations.rows[0] == ["Year Ended December 31,", "Pension Benefits 2019",
                                   "Pension Benefits 2018", "Other Benefits 2019",
                                   "Other Benefits 2018"]
    assert obligations.rows[1][1:] == ["$ 8,015", "$ 9,469", "$ 719", "$ 795"]


@pytest.mark.parametrize(("line", "periods"), [
    ("Thirteen weeks ended Thirty-nine weeks ended", True),  # Foot Locker's Q3 2023 10-Q
    ("(Unaudited)", True),
    ("Three Months Ended June 30, Six Months Ended June 30,", True),
    ("Fiscal Year", True),
    ("Pension Benefits Other Benefits", False),  # Coca-Cola 2019 p108: kinds of column
    ("Net Sales Property, Plant and", False),  # 3M 2018 p127
])
def test_a_line_captioning_periods_names_no_kind_of_column(line: str, periods: bool) -> None:
    from rag_assets.core.ingest.pdf.aligned_tables import _names_periods

    assert _names_periods(line) is periods


@pytest.mark.parametrize(("years", "runs"), [
    ([2018, 2017, 2016, 2018, 2017], [3, 2]),
    ([2018, 2017, 2016, 2018, 2017, 2016, 2018, 2017], [3, 3, 2]),
    ([2021, 2020, 2021, 2020], None),  # one length: a header repeated, named only if words are
    ([2023, 2025, 2027], None),  # a row of years with gaps (patent expiries) is no header
    ([2018, 2017, 2018], None),  # a run of one year
])
def test_runs_of_years(years: list[int], runs: list[int] | None) -> None:
    from rag_assets.core.ingest.pdf.aligned_tables import year_runs

    assert year_runs(years) == runs
    if len(set(years)) < len(years) and runs is None and len(years) == 4:
        assert year_runs(years, repeated=True) == [2, 2]


def test_rows_pdfium_ran_together_are_a_table() -> None:
    """General Mills 2022 p85 sets its segment note's tables in small type, rows close
    together: PDFium's text runs a header and three rows into one line ("In Millions 2022 2021
    2020 U.S. Meals & Baking Solutions $ 4,023.8 ... U.S. Snacks 3,191.4 ..."). Cut at each
    printed row that ends in a figure or a caption's colon, they are tables: the operating
    units' net sales and the geographic areas' (a caption's row over its members)."""
    page = real_filing(CORPORA / "financebench-wide" / "pdfs"
                       / "GENERALMILLS_2022_10K.pdf").pages[84]
    units = next(t for t in page.tables if any(r[0] == "U.S. Snacks" for r in t.rows))
    assert [r[0] for r in units.rows[1:]] == [
        "U.S. Meals & Baking Solutions", "U.S. Morning Foods", "U.S. Snacks", "Canada", "Total"]
    assert units.rows[0][1:] == ["2022", "2021", "2020"]
    areas = next(t for t in page.tables if any(r[0] == "Non-United States" for r in t.rows))
    assert areas.rows[1:4] == [["Net sales:", "", "", ""],
                               ["United States", "$ 14,691.2", "$ 13,496.9", "$ 13,364.5"],
                               ["Non-United States", "4,301.6", "4,630.1", "4,262.1"]]
    assert "Meals & Baking Solutions $ 4,023.8" not in " ".join(page.text.split())


def test_a_label_wrapped_over_rows_stays_whole() -> None:
    """Corning 2015 p90 wraps its cash flow labels over rows ("Net cash provided / by
    operating / activities 2,809"), and PDFium runs some of them into one line: a row is cut
    after a figure, not inside a label, so a label and its figures stay one line."""
    page = real_filing(CORPORA / "financebench-bulk" / "pdfs" / "CORNING_2015_10K.pdf").pages[89]
    lines = [" ".join(line.split()) for line in page.text.split("\n")]  # its spaces are NBSPs
    assert "Capital expenditures (1,250) (1,076) (1,019)" in lines
    assert "Other, net 180 169 18" in lines
    assert "Restructuring, impairment and other charges 71 67" in lines


def test_headings_printed_above_a_grid_are_its_header() -> None:
    """American Water 2021 p7 rules its state table from the first state down: the column
    headings are printed above the top rule (PDFium runs the last of them on into the first
    row), so the grid opens with "New Jersey" and its figures. The headings that stand over
    one column each become the header, under a row of the headings over groups of columns
    ("Operating Revenues (in millions)", printed once over the first of its group); no row is
    taken for a header and no character is printed twice."""
    page = real_filing(FINANCEBENCH / "AMERICANWATERWORKS_2021_10K.pdf").pages[6]
    table = next(t for t in page.tables if any(r[0] == "New Jersey" for r in t.rows))
    assert table.rows[0] == ["", "Operating Revenues (in millions)", "", "", "",
                             "Number of Customers (in thousands)", "", "", ""]
    assert table.rows[1] == ["", "Water (a)", "Wastewater", "Total", "% of Total", "Water",
                             "Wastewater", "Total", "% of Total"]
    assert table.rows[2] == ["New Jersey", "$ 778", "$ 48", "$ 826", "24.4%", "660", "55",
                             "715", "20.3%"]
    assert "Water (a) Wastewater Total" not in page.text


def test_headings_above_a_grid_that_opens_with_a_caption() -> None:
    """Walmart 2022 p77 rules its segment table from a caption down ("Fiscal Year Ended
    January 31, 2022" over the net sales row, a "$ —" among its figures): the segments' names,
    stacked two lines high above the top rule ("Walmart" over "International"), are its header;
    the sentence that leads into the table is no heading over its columns."""
    page = real_filing(CORPORA / "financebench-bulk" / "pdfs" / "WALMART_2022_10K.pdf").pages[76]
    table = next(t for t in page.tables if any(r[0] == "Net sales" for r in t.rows))
    assert table.rows[0] == ["(Amounts in millions)", "Walmart U.S.", "Walmart International",
                             "Sam's Club", "Corporate and support", "Consolidated"]
    assert table.rows[1][0] == "Fiscal Year Ended January 31, 2022"
    assert "is provided in the following table:" in page.text


def test_headings_of_one_printed_line_given_as_two_pieces_head_a_grid() -> None:
    """American Water 2020 p129 rules each year's segment table from its first row; above the
    top rule, "Regulated" / "Market-Based" over "Businesses" / "Businesses Other Consolidated",
    the lower line given by PDFium as two pieces ("Businesses" alone, over one column, then the
    rest). Read as one printed line, the four segments head the grid, under the year."""
    page = real_filing(FINANCEBENCH / "AMERICANWATERWORKS_2020_10K.pdf").pages[129]
    tables = [t for t in page.tables if t.rows[1][0] == "Operating revenues"]
    assert [t.title for t in tables] == ["2020", "2019"]
    for table in tables:
        assert table.rows[0] == ["", "Regulated Businesses", "Market-Based Businesses", "Other",
                                 "Consolidated"]
    assert tables[0].rows[1][1:] == ["$ 3,255", "$ 540", "$ (18)", "$ 3,777"]
    # American Water 2022 p107: "Weighted Average Grant" over "Date Fair Value (per" over
    # "share)", beside "Shares (in thousands)": a heading wider than its column, above a
    # joined line, would be read as a group over the shares; the grid stays unheaded
    awards = real_filing(FINANCEBENCH / "AMERICANWATERWORKS_2022_10K.pdf").pages[107]
    assert "Weighted Average Grant" in awards.text
    assert not any("Weighted Average Grant" in cell for t in awards.tables for cell in t.rows[0])


def test_figures_between_two_grids_are_no_header() -> None:
    """3M 2018 p59 prints its equity statement's rows between grids: a row of figures above
    a grid that opens with figures is no heading, and stays in the text."""
    page = real_filing(CORPORA / "sec-10k" / "3M_2018_10K.pdf").pages[58]
    assert not any("(2,678)" in cell for t in page.tables for cell in t.rows[0])
    assert "Dividends declared ($4.44 per share, Note 8)" in page.text


def test_a_period_centred_under_a_lead_in_is_the_tables_caption() -> None:
    """American Water's 2021 10-K prints its segment note as a table per year, each year
    centred a blank line under the sentence that leads in ("... for the years ended December
    31:" then "2021"; p.137 "Table of Contents" then "2020"), and PDFium runs the two into one
    line. A character a blank line below the last starts a printed row of its own: the year
    is a line of its own, above the segments' headings, which stay the grid's header."""
    pages = real_filing(CORPORA / "financebench-dev" / "pdfs" /
                        "AMERICANWATERWORKS_2021_10K.pdf").pages
    for index, year, revenues in ((135, "2021", "$ 3,384"), (136, "2020", "$ 3,255")):
        lines = [line.strip() for line in pages[index].text.splitlines()]
        table = next(t for t in pages[index].tables if t.rows[1][0] == "Operating revenues")
        assert table.rows[0] == ["", "Regulated Businesses", "Market-Based Businesses",
                                 "Other", "Consolidated"]
        assert table.rows[1][1] == revenues
        assert year in lines  # a line of its own, above the header
    assert any(line.strip().endswith("for the years ended December 31:")
               for line in pages[135].text.splitlines())
