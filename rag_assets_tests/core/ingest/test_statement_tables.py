"""Captions in force over a real segment note: a block of rows per year, each captioned by its
period ("For the year ended December 31, 2022"), so a row keeps the year its columns do not
print."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.ingest.pages import markdown_cells
from rag_assets.core.ingest.statement_tables import (
    CaptionsInForce,
    caption_label,
    captions_in_force,
)
from rag_assets_tests.real_filings import real_filing

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"
pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


def test_a_period_caption_holds_over_its_block_and_its_totals() -> None:
    pages = PageTexts.from_pages("corning", 2022, real_filing(
        "financebench-dev/pdfs/CORNING_2022_10K.pdf").pages)
    text = pages.get("corning", 2022, 101) or ""  # printed page 102
    lines = [x for x in text.split("\n") if x.startswith("|") and "---" not in x]
    rows = [markdown_cells(x) for x in lines[1:]]  # the header row of segment names aside
    captions = captions_in_force(rows)
    by_label = [(r[0], c) for r, c in zip(rows, captions, strict=True)
                if r[0] == "Segment net sales"]
    assert [c for _, c in by_label] == [f"For the year ended December 31, {y}"
                                        for y in (2022, 2021, 2020)]
    # the capital expenditures row closes each block and is still under its year
    capex = [c for r, c in zip(rows, captions, strict=True) if r[0] == "Capital expenditures"]
    assert capex == [c for _, c in by_label]


def test_only_a_period_or_a_colon_makes_a_caption() -> None:
    assert caption_label(["Fiscal Year Ended January 31, 2018", "", ""]) == (
        "Fiscal Year Ended January 31, 2018")
    assert caption_label(["Net sales:", ""]) == "Net sales"
    assert caption_label(["Research, development", "", ""]) is None  # a wrapped label
    assert caption_label(["For the year ended December 31, 2022", "$ 5", ""]) is None


def test_a_pair_of_figures_a_run_on_label_prints_stays_in_the_label() -> None:
    """Corning 2015's balance sheet, one run-on line: "Trade accounts receivable, net of doubtful
    accounts and allowances - $48 and $47 1,372 1,501" is a row of 1,372 and 1,501; the
    allowances "$48 and $47" are the label's (read as cells, receivables were "-" and 48)."""
    from rag_assets.core.ingest.statement_tables import _run_on_pieces

    pieces = _run_on_pieces(
        "Total cash, cash equivalents and short-term investments 4,600 6,068 Trade accounts "
        "receivable, net of doubtful accounts and allowances - $48 and $47 1,372 1,501 "
        "Inventories, net of inventory reserves - $146 and $127 (Note 5) 1,385 1,322")
    assert pieces == [
        ("Total cash, cash equivalents and short-term investments", ["4,600", "6,068"]),
        ("Trade accounts receivable, net of doubtful accounts and allowances - $48 and $47",
         ["1,372", "1,501"]),
        ("Inventories, net of inventory reserves - $146 and $127 (Note 5)", ["1,385", "1,322"])]


def test_a_periods_caption_holds_its_period_over_a_caption_nested_in_its_block() -> None:
    """Coca-Cola 2019's segment note: "2019" over "Net operating revenues:" over its rows; the
    rows are under the nested caption and still of 2019, until "2018" opens the next block."""
    reader = CaptionsInForce()
    seen = []
    for cells in (["2019", "", ""], ["Net operating revenues:", "", ""], ["Third party", "1", "2"],
                  ["Operating income", "3", "4"], ["2018", "", ""],
                  ["Net operating revenues:", "", ""], ["Third party", "5", "6"]):
        caption = reader.row(cells)
        if any(cells[1:]):
            seen.append((cells[0], caption, reader.period))
    assert seen == [("Third party", "Net operating revenues", "2019"),
                    ("Operating income", "Net operating revenues", "2019"),
                    ("Third party", "Net operating revenues", "2018")]
