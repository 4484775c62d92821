"""What moved the effective tax rate, read from real filings' rate reconciliations (ASC
740-10-50-12), each item's two years checked against the page that prints them."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.rate_reconciliation import (
    _figure,
    _line_movers,
    movers_clause,
    rate_movers,
)
from rag_assets.core.generation.records import Claim
from rag_assets_tests.real_filings import CORPORA, real_filing


@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
def test_the_items_that_moved_the_rate_most_are_read_from_the_reconciliation() -> None:
    """Corning 2022's Note 7 (p.77): the rate rose from 20.2% to 22.9%; valuation allowance
    (0.5) to 2.1, audit settlements & change in reserve 1.6 to 3.7, foreign derived
    intangible income (1.3) to (2.7) moved most; the statutory rate (21.0% both years) and
    the smaller items are not named."""
    pages = PageTexts.from_pages("corning-10k", 2022, real_filing(
        "financebench-dev/pdfs/CORNING_2022_10K.pdf").pages)
    movers = rate_movers(pages, "corning-10k", 2022, (2021, 2022))
    assert [(m.label, m.before, m.after) for m in movers] == [
        ("Valuation allowance", -0.5, 2.1),
        ("Audit settlements & change in reserve", 1.6, 3.7),
        ("Foreign derived intangible income", -1.3, -2.7)]
    clause, cited = movers_clause(movers)
    assert clause.startswith("its rate reconciliation (p.77) moved most on Valuation allowance,"
                             " -0.5% to 2.1%;")
    assert len(cited) == 3 and all(c.page == 76 for c in cited)


def _moved(lines: list[str], years: tuple[int, int]) -> list[tuple[str, float, float]]:
    return [(m.label, m.before, m.after)
            for m in _line_movers("\n".join(lines), years, ("acme-10k", 2017, 0))]


def test_note_marks_and_a_misread_row_are_no_figures() -> None:
    """Coca-Cola 2017 marks its cells with notes ("(17.5)⁵", "53.5 1"); a row whose label
    swallowed a cell ("Other — net 5.9 2,3,4") is not read."""
    lines = ["| Year Ended December 31, | 2017 | 2016 | 2015 |", "|---|---|---|---|",
             "| Statutory U.S. federal tax rate | 35.0% | 35.0% | 35.0% |",
             "| Earnings in jurisdictions taxed at other rates | (9.7) | (17.5)⁵ | (12.7) |",
             "| Tax Reform Act | 53.5 1 | — | — |",
             "| Other — net 5.9 2,3,4 |  | 3.8 6 | 1.5 |",
             "| Effective tax rate | 82.5% | 19.5% | 22.5% |"]
    assert _figure("(17.5)⁵") == -17.5 and _figure("53.5 1") == 53.5 and _figure("—") == 0.0
    # the row that swallowed a cell may have moved 5.9 + 3.8 + 1.5 points: only a larger move
    # is named
    assert _moved(lines, (2016, 2017)) == [("Tax Reform Act", 0.0, 53.5)]
    assert _moved(lines, (2013, 2014)) == []  # no column of those years


@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
def test_a_reconciliation_printed_in_amounts_is_read_over_the_pretax_income_it_implies() -> None:
    """Netflix 2015 (p.58) reconciles in thousands of dollars, from "Expected tax expense at
    U.S. Federal statutory rate of 35%" ($49,658 and $122,279: pretax income of $141,880 and
    $349,369) to the "Provision for income taxes": the R&D tax credit, (18,655) and (29,363),
    is -5.3 and -20.7 points, the largest move (the credit was extended retroactively)."""
    pages = PageTexts.from_pages("netflix-10k", 2015, real_filing(
        "financebench-wide/pdfs/NETFLIX_2015_10K.pdf").pages)
    movers = rate_movers(pages, "netflix-10k", 2015, (2014, 2015))
    assert [(m.label, m.before, m.after) for m in movers] == [
        ("R&D tax credit", -5.3, -20.7),
        ("Foreign earnings at other than US rates", 0.8, 3.7),
        ("Release of tax reserves on previously unrecognized tax benefits", -11.1, -9.5)]
    lines = ["| Year Ended December 31, | 2015 | 2014 |", "|---|---|---|",
             "| Expected tax expense at the statutory rate | $ 49,658 | $ 122,279 |",
             "| R&D tax credit | (29,363) | (18,655) |",
             "| Provision for income taxes | $ 19,244 | $ 82,570 |"]
    assert _moved(lines, (2014, 2015)) == []  # amounts without a rate: no share read


@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
def test_a_reconciliation_printed_as_lines_is_read_line_by_line() -> None:
    """Coca-Cola 2019 (p.57) prints its reconciliation as lines of text, with notes' marks set
    apart ("federal tax rate 1.1 1,2,3 3.1 5,6 (9.5)", "Tax Reform Act — 0.1 7 52.4 8") and
    one label on two lines; from 21.3% to 16.7%, Other — net moved 3.2 points."""
    pages = PageTexts.from_pages("coca-cola-10k", 2019, real_filing(
        "financebench-bulk/pdfs/COCACOLA_2019_10K.pdf").pages)
    movers = rate_movers(pages, "coca-cola-10k", 2019, (2018, 2019))
    assert [(m.label, m.before, m.after) for m in movers] == [
        ("Other — net", -0.6, -3.8),
        ("Earnings in jurisdictions taxed at rates different from the statutory U.S. federal "
         "tax rate", 3.1, 1.1),
        ("Equity income or loss", -2.5, -1.6)]
    _, cited = movers_clause(movers)
    assert [c.quote for c in cited][1] == "federal tax rate 1.1 1,2,3 3.1 5,6 (9.5)"


@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
def test_a_line_that_leaves_its_blank_year_unsaid_bounds_what_is_named() -> None:
    """Corning 2020 (p.94) rules its first three rows, then prints lines; "Foreign derived
    intangible income (8.5) (0.6)" leaves unsaid which of three years is blank, so it might
    have moved up to 9.1 points and the repatriation tax's line 10.3: only tax credits (26.9
    points) and the remeasurement (12.8) are surely the largest; the valuation allowance's
    6.2 is not named."""
    pages = PageTexts.from_pages("corning-10k", 2020, real_filing(
        "financebench-wide/pdfs/CORNING_2020_10K.pdf").pages)
    movers = rate_movers(pages, "corning-10k", 2020, (2019, 2020))
    assert [(m.label, m.before, m.after) for m in movers] == [
        ("Tax credits", -2.8, -29.7),
        ("Remeasurement of deferred tax assets and liabilities", -0.6, -13.4)]
    assert verify_claims([Claim(text="Tax credits moved from (2.8) to (29.7).",
                                citations=movers_clause(movers)[1][:1])], pages)[0] \
        .citations[0].mark == "valid"
