"""Ligatures a font lost (PDFium's U+FFFE) read back as their letters, on Costco's real Q3
fiscal 2023 release, where every "fi", "ff" and "fl" comes out as the mark, while the same mark
in another filing stays the hyphen it prints."""

from __future__ import annotations

import pytest

from rag_assets.core.ingest.pdf.ligatures import (
    MARK,
    known_words,
    lost_ligature,
    mark_hyphens,
    restore_ligatures,
)
from rag_assets_tests.real_filings import CORPORA, real_filing

RELEASE = "financebench-bulk/pdfs/COSTCO_2023Q3_EARNINGS.pdf"


@pytest.mark.parametrize(("printed", "read"), [
    (f"{MARK}rst 36 weeks of {MARK}scal 2023", "first 36 weeks of fiscal 2023"),
    (f"employee bene{MARK}ts", "employee benefits"),  # "fi" inside a word
    (f"in{MARK}ation", "inflation"),  # "fl"
    # a word the list lacks keeps the hyphen: nothing is guessed
    (f"de{MARK}ation", "de-ation"),
    (f"the e{MARK}ects of competition", "the effects of competition"),  # "ff"
    (f"of{MARK}ce su{MARK}cient", "office sufficient"),  # "ffi", after "ff" fails
    (f"SIGNI{MARK}CANT", "SIGNIFICANT"),  # in the case of the word
    # a compound's hyphen: both sides words, and no word with a ligature in its place
    (f"long{MARK}term, wholly{MARK}owned, held{MARK}to{MARK}maturity",
     "long-term, wholly-owned, held-to-maturity"),
    (f"non{MARK}public co{MARK}brand", "non-public co-brand"),
    # a word-opening mark after no space is a compound's hyphen ("filed" is a word)
    (f"U.S.{MARK}led growth", "U.S.-led growth"),
    (f"({MARK}rst quarter)", "(first quarter)"),
])
def test_a_mark_is_a_lost_ligature_only_where_it_makes_a_word(printed: str, read: str) -> None:
    assert known_words(), "the bundled model's vocabulary is the word list"
    marked = mark_hyphens(printed)
    assert len(marked) == len(printed)  # one character for one: offsets into the page hold
    assert restore_ligatures(marked) == read


def test_a_mark_with_nothing_after_it_is_a_hyphen() -> None:
    assert lost_ligature("pre", "") is None
    assert mark_hyphens(f"pre{MARK} and post") == "pre- and post"


@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
def test_the_release_whose_font_lost_its_ligatures_reads_whole() -> None:
    pages = real_filing(RELEASE).pages
    opening = pages[0].text
    assert "the first 36 weeks of" in opening and "fiscal 2023, ended May 7, 2023" in opening
    assert "Comparable sales for the third quarter and first 36 weeks of fiscal 2023" in opening
    assert "-rst" not in opening and "-scal" not in opening
    assert all(MARK not in page.text for page in pages)
    assert all(MARK not in (table.title or "") and MARK not in " ".join(map(" ".join, table.rows))
               for page in pages for table in page.tables)
    assert "employee benefits" in pages[1].text
