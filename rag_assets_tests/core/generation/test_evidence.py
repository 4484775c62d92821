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
    deals. Its notes (Item 8) and its subsidiaries' list (Exhibit 21) are no such text; nor
    is an 8-K's exhibit, its content (Costco's press release and bylaws)."""
    pages = PageTexts.from_pages("corning-10k", 2022, real_filing(
        "financebench-dev/pdfs/CORNING_2022_10K.pdf").pages)
    assert attached_legal_text(pages, "corning-10k", 2022, 139)
    assert not attached_legal_text(pages, "corning-10k", 2022, 72)
    assert not attached_legal_text(pages, "corning-10k", 2022, 153)  # Exhibit 21
    eight_k = PageTexts.from_pages("costco-8k-2023-08-09", 2023, real_filing(
        "financebench-bulk/pdfs/COSTCO_2023_8K_dated-2023-08-09.pdf").pages)
    exhibit = [p for p, item in eight_k.page_items("costco-8k-2023-08-09", 2023).items()
               if (item or "").startswith("Exhibit 3")]
    assert exhibit and not any(attached_legal_text(eight_k, "costco-8k-2023-08-09", 2023, p)
                               for p in exhibit)
