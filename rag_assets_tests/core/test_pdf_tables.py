"""Financial tables that read right: a figure stays in one cell, ruled tables keep their text.

The split patterns are the ones real 10-Ks print (financebench-dev filings): a ``$`` in its own
cell before a spacer and the figure, a ``%`` after the figure, a sign left in the label's cell.
Real filings are loaded once per module and skipped when ../shared/corpora is absent.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rag_assets.core.documents import LoadedDocument, load_document
from rag_assets.core.pages import Page, TableBlock
from rag_assets.core.pdf import clean_table_rows
from rag_assets_tests.core.conftest import CORPORA

FINANCEBENCH = CORPORA / "financebench-dev" / "pdfs"


@pytest.fixture(scope="module")
def filing() -> Callable[[str], LoadedDocument]:
    """A financebench-dev 10-K by file stem, loaded once for the module."""
    loaded: dict[str, LoadedDocument] = {}

    def get(stem: str) -> LoadedDocument:
        path = FINANCEBENCH / f"{stem}.pdf"
        if not path.is_file():
            pytest.skip(f"real 10-K not found at {path} (../shared/corpora)")
        if stem not in loaded:
            loaded[stem] = load_document(Path(path))
        return loaded[stem]

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

    from rag_assets.core.pages import SUPERSCRIPT_DIGITS, TABLE_PLACEHOLDER_RE
    from rag_assets.core.pdf import clean_pdf_text

    back = str.maketrans(SUPERSCRIPT_DIGITS, "0123456789")
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
