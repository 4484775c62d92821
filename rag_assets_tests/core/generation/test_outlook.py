"""An outlook read where the filing prints it, on real filings: the table under an outlook
section's heading (not a headline that names the outlook over the quarter's results), or the
targets an annual report lists as bullets after the sentence that introduces them. Questions
worded apart from the analyst-tune set that chose the rules."""

from __future__ import annotations

import pytest

from rag_assets.core.evaluation.answer_correctness import answer_lead
from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.outlook import outlook_block
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


def _lead(path: str, document: str, year: int, question: str) -> str:
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    found = outlook_block(read_question(question), document, year, [
        (p, pages.get(document, year, p) or "") for p in pages.pages_of(document, year)])
    assert found is not None
    checked = verify_claims([found.claim()], pages)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    return answer_lead(found.text)


def test_an_annual_reports_targets_are_listed_from_its_bullets() -> None:
    lead = _lead("financebench-bulk/pdfs/GENERALMILLS_2023_annualreport.pdf",
                 "general-mills-10k-annualreport", 2023,
                 "What targets does General Mills set for fiscal 2024?")
    assert lead.startswith("Based on these assumptions, our key full-year fiscal 2024 targets "
                           "are summarized below: (1) Organic net sales are expected to "
                           "increase 3 to 4 percent; (2) Adjusted operating profit")
    assert "(4) Free cash flow conversion is expected to be at least 95 percent" in lead


def test_the_outlook_sections_table_wins_over_a_headline_that_names_it() -> None:
    # page 1 opens "Company Raises Outlook for Fiscal Year 2023" over the quarter's table;
    # page 3's "Fiscal 2023 Outlook" section prints the prior and the updated ranges
    lead = _lead("financebench-bulk/pdfs/ULTABEAUTY_2023Q2_EARNINGS.pdf",
                 "ulta-beauty-earnings-q2", 2023,
                 "What guidance for fiscal 2023 did Ulta Beauty give with its second quarter?")
    assert lead.startswith("Fiscal 2023 Outlook: ")
    assert "$11.05 billion to $11.15 billion" in lead and "$25.10 to $25.60" in lead
