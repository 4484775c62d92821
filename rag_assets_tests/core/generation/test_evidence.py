"""What the evidence reader takes from a filing's pages, on real filings."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.evidence import attached_legal_text
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


def test_a_periodic_reports_attached_contracts_are_not_its_disclosure() -> None:
    """Corning 2022's 10-K attaches stock plans and agreements (Exhibits 10.40 to 10.42,
    pages 107-153): a plan's "consummation of a merger" answers no question about Corning's
    deals. Its notes (Item 8) and its subsidiaries' list (Exhibit 21) are no such text, nor is
    General Mills 2022's description of its registered securities (Exhibit 4.3, pages 99-115),
    which states what it has issued."""
    pages = PageTexts.from_pages("corning-10k", 2022, real_filing(
        "financebench-dev/pdfs/CORNING_2022_10K.pdf").pages)
    assert attached_legal_text(pages, "corning-10k", 2022, 139)
    assert not attached_legal_text(pages, "corning-10k", 2022, 72)
    assert not attached_legal_text(pages, "corning-10k", 2022, 153)  # Exhibit 21
    mills = PageTexts.from_pages("general-mills-10k", 2022, real_filing(
        "financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf").pages)
    assert mills.page_items("general-mills-10k", 2022)[98] == "Exhibit 4.3"
    assert not attached_legal_text(mills, "general-mills-10k", 2022, 98)
