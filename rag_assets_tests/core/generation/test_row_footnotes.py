"""The note a statement row points to, beside the figure read from it: Corning's 2015 income
statement ("Dividends declared per common share (1)", its note under the table) read from the
real filing, and the marker's forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets.core.generation.answers import Answerer
from rag_assets.core.generation.row_footnotes import row_footnote, row_marker
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets.core.retrieval.retriever import Retriever
from rag_assets_tests.real_filings import CORPORA, real_filing

from .conftest import Corpus, real_corpus

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")

PAGE = ("Diluted (Note 18) $ 1.00 $ 1.73 $ 1.34\n"
        "Dividends declared per common share (1) $ 0.36 $ 0.52 $ 0.39\n"
        "(1)\xa0\xa0The first quarter 2015 dividend was declared on December 3, 2014. The "
        "accompanying notes are an integral part of these consolidated financial statements.")


def test_a_marker_is_read_from_the_label_or_between_the_label_and_its_figures() -> None:
    assert row_marker("Net sales (a)") == ("Net sales", "a")
    assert row_marker("Revenue¹") == ("Revenue", "¹")
    assert row_marker("Dividends declared per common share",
                      "Dividends declared per common share (1) $ 0.36 $ 0.52") == (
        "Dividends declared per common share", "1")
    # a note reference is no marker, nor a row's first (negative) figure without a "$"
    assert row_marker("Diluted (Note 18)") is None
    assert row_marker("Other", "Other (12) (9) 4") is not None  # read, then checked on the page
    assert row_footnote("Other", "Other (12) (9) 4\nTotal 5", "Other (12) (9) 4") is None


def test_the_note_is_the_pages_line_that_opens_with_the_marker() -> None:
    found = row_footnote("Dividends declared per common share", PAGE,
                         "Dividends declared per common share (1) $ 0.36 $ 0.52 $ 0.39")
    assert found == ("Dividends declared per common share", "1",
                     "The first quarter 2015 dividend was declared on December 3, 2014.")
    assert row_footnote("Diluted (Note 18)", PAGE, "Diluted (Note 18) $ 1.00") is None


FILING = ("financebench-bulk/pdfs/CORNING_2015_10K.pdf", "corning-10k", 2015)


@pytest.fixture(scope="module")
def corning_2015(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return real_corpus(Path(tmp_path_factory.mktemp("row_notes")), [(*FILING, [86])])


def test_a_figure_read_from_a_marked_row_is_given_with_its_note(corning_2015: Corpus) -> None:
    facts = read_facts(FILING[1], FILING[2], real_filing(FILING[0]).pages)
    answerer = Answerer(Retriever(corning_2015.store, corning_2015.embedder), corning_2015.pages,
                        facts=lambda document, year: facts)
    result = answerer.ask("What were Corning's dividends declared per share in 2015?")
    lead = result.answer.splitlines()[0]
    assert "$0.36" in lead and ('note (1) to "Dividends declared per common share": The first '
                                "quarter 2015 dividend was declared on December 3, 2014") in lead
    assert all(c.mark == "valid" for claim in result.claims for c in claim.citations)


def test_a_parenthesized_marker_is_not_a_notes_numbered_heading() -> None:
    """Corning's 2022 10-K (p.66): the supplemental table's "Interest (1) $ 275" sits under the
    page's heading "1. Summary of Significant Accounting Policies (Continued)"; its note is the
    line that opens "(1) Includes approximately $48 million ...", not that heading."""
    page = ("1. Summary of Significant Accounting Policies (Continued)\nStock Options\n"
            "Interest (1) $ 275 $ 287 $ 298\n(1) Includes approximately $48 million, $36 "
            "million and $58 million of interest costs that were capitalized.")
    found = row_footnote("Interest", page, "Interest (1) $ 275 $ 287 $ 298")
    assert found is not None and found[2].startswith("Includes approximately $48 million")
    spaced = row_footnote("Interest ( 1 )", page.replace("Interest (1)", "Interest ( 1 )"),
                          "Interest ( 1 ) $ 275 $ 287 $ 298")
    assert spaced is not None and spaced[2].startswith("Includes approximately $48 million")
