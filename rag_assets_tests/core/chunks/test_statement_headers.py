"""Statement rows in enriched chunks carry their columns' years and units, on real filings of
seven companies: a row read alone ("Revenues: 2021: $ 44,538; 2020: ...") keeps its period."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rag_assets.core.chunks.chunking import enriched_chunks
from rag_assets.core.chunks.units import header_block
from rag_assets.core.footnotes.stitching import build_footnote_index, stitch_document
from rag_assets.core.ingest.context import document_context
from rag_assets.core.ingest.statement_tables import headed_markdown
from rag_assets_tests.real_filings import real_filing

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"

# filing, the revenue row's label as printed, the years its statement prints
FILINGS = [
    ("sec-10k/3M_2018_10K.pdf", "Net sales", (2018, 2017, 2016)),
    ("financebench-dev/pdfs/LOCKHEEDMARTIN_2021_10K.pdf", "Total net sales", (2021, 2020, 2019)),
    ("financebench-dev/pdfs/COCACOLA_2017_10K.pdf", "NET OPERATING REVENUES", (2017, 2016, 2015)),
    ("financebench-dev/pdfs/BLOCK_2020_10K.pdf", "Total net revenue", (2020, 2019, 2018)),
    ("financebench-wide/pdfs/NIKE_2021_10K.pdf", "Revenues", (2021, 2020, 2019)),
    ("financebench-wide/pdfs/WALMART_2020_10K.pdf", "Total revenues", (2020, 2019, 2018)),
    ("financebench-wide/pdfs/NETFLIX_2017_10K.pdf", "Revenues", (2017, 2016, 2015)),
]


@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
@pytest.mark.parametrize(("path", "label", "years"), FILINGS)
def test_statement_rows_carry_years_and_units(path: str, label: str, years: tuple[int, ...]
                                              ) -> None:
    pages = real_filing(path).pages
    index = build_footnote_index(pages)
    stitched = stitch_document(pages, index)
    chunks = enriched_chunks(stitched, "doc", years[0], index,
                             context=document_context("doc", years[0], pages))
    statement_chunks = [c for c in chunks if c.statement == "income_statement"]
    row = re.compile(rf"^\| {re.escape(label)} \| \$? ?[\d,.]+ \|", re.MULTILINE)
    holding = [c for c in statement_chunks if row.search(c.text)]
    assert holding, f"no income statement chunk prints the {label} row"
    lines = holding[0].text.split("\n")
    header = next(line for line in lines if line.startswith("|"))
    cells = [c.strip() for c in header.strip("|").split("|")]
    assert [int(y) for y in re.findall(r"\b20\d\d\b", " ".join(cells[-3:]))] == list(years)
    assert re.search(r"USD (?:millions|thousands)|millions|thousands", header, re.IGNORECASE)
    # every printed row of the table is still there, as stitched
    stitched_text = "\n".join(p.text for p in stitched)
    for line in lines:
        if line.startswith("|") and line != header and not line.startswith("|---"):
            assert line in stitched_text


# an earnings release's stacked header: its durations over a line per date, nine lines in all
STACKED = ["SUPPLEMENTAL DATA - NET REVENUES", "(In thousands)", "(Unaudited)",
           "Three months ended Twelve months ended", "December 31,", "2022", "December 31,",
           "2021", "December 31,", "2022", "December 31,", "2021"]
TABLE = ["| Las Vegas Strip Resorts | $ 2,297,282 | $ 1,806,686 | $ 8,398,372 | $ 4,737,185 |",
         "| Regional Operations | 991,452 | 899,607 | 3,815,885 | 3,392,363 |",
         "| MGM China | 174,720 | 314,717 | 673,593 | 1,210,761 |"]


def test_a_stacked_header_keeps_the_quarter_apart_from_the_year() -> None:
    """Eight lines above the table hold only dates and years: the line naming the durations is
    read too, so the quarter's columns and the year's are told apart."""
    lines = ["Revenue rose in the year.", *STACKED, *TABLE]
    above = header_block(lines, len(lines) - len(TABLE))
    assert above == STACKED  # the block, not the sentence above it
    header = headed_markdown(TABLE, above)[0]
    assert header == "| USD thousands | three months 2022 | three months 2021 | 2022 | 2021 |"


def test_the_block_is_not_read_past_rows_of_figures_or_without_a_duration() -> None:
    # rows printed as text between the durations and the table: only the last lines are read
    rows = ["Foreign exchange forwards", "and options $ 14 $ 19 $ 72 Revenues $ (5) $ 34"]
    lines = ["YEAR ENDED MAY 31,", *STACKED[4:], *rows, *TABLE]
    assert header_block(lines, len(lines) - len(TABLE)) == lines[-len(TABLE) - 8:-len(TABLE)]
    # a block without any duration: the last eight lines, as before
    plain = [line for line in STACKED if "months" not in line]
    lines = [*plain, *TABLE]
    assert header_block(lines, len(plain)) == plain[-8:]
