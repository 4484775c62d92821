"""Who signed an 8-K, from its signature block, on two real 8-Ks (Intel's damaged one of
August 16, 2023 and Costco's of August 9, 2023)."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.signatures import signer
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


def _signed(path: str, document: str, question: str) -> str | None:
    pages = PageTexts.from_pages(document, 2023, real_filing(path).pages)
    listed = [(p, pages.get(document, 2023, p) or "") for p in pages.pages_of(document, 2023)]
    found = signer(read_question(question), document, 2023, listed)
    if found is None:
        return None
    assert all(c.mark == "valid" for claim in verify_claims([found.claim()], pages)
               for c in claim.citations)
    return found.text


def test_the_officer_and_title_under_the_signature() -> None:
    assert _signed("damaged/INTEL_2023_8K_dated-2023-08-16.pdf", "intel-8k",
                   "Who signed Intel's 8-K dated August 16, 2023?") == (
        "Signed by April Miller Boise, Executive Vice President and Chief Legal Officer.")
    assert _signed("financebench-bulk/pdfs/COSTCO_2023_8K_dated-2023-08-09.pdf", "costco-8k",
                   "Who signed Costco's 8-K?") == (
        "Signed by Richard A. Galanti, Executive Vice President, Chief Financial Officer and "
        "Director.")


def test_another_question_or_form_gives_nothing() -> None:
    assert _signed("damaged/INTEL_2023_8K_dated-2023-08-16.pdf", "intel-8k",
                   "What did Intel announce in its 8-K?") is None
    assert _signed("financebench-wide/pdfs/COSTCO_2021_10K.pdf", "costco-10k",
                   "Who signed Costco's 10-K?") is None
