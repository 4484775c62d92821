"""The main risks of three real 10-Ks from the captions their Item 1A prints in bold (Regulation
S-K Item 105): the headings with how many factors each groups, then the first factor of each,
every caption cited on its page; and of three 10-Qs whose Part II Item 1A refers to the 10-K.
The store indexes a few pages of each filing; every page is kept to read Item 1A from and to
cite. The questions are this project's own (the probe's 10-K
battery, of analyst-tune companies); no analyst-check filing is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets.core.evaluation.answer_correctness import answer_lead
from rag_assets_tests.real_filings import CORPORA

from .conftest import Corpus, real_corpus

pytestmark = [pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here"),
              pytest.mark.slow]  # three real 10-Ks read whole, a few pages of each indexed

FILINGS = [
    ("financebench-wide/pdfs/WALMART_2018_10K.pdf", "walmart-10k", 2018, range(16, 19)),
    ("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "general-mills-10k", 2022, range(7, 10)),
    ("financebench-dev/pdfs/AMERICANWATERWORKS_2021_10K.pdf", "american-water-works-10k", 2021,
     range(27, 30)),
]


@pytest.fixture(scope="module")
def risks_corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return real_corpus(Path(tmp_path_factory.mktemp("risks_lancedb")), FILINGS)


@pytest.mark.parametrize(("question", "opening", "first"), [
    ("What are the main risks Walmart faces according to its FY2018 10-K?",
     "Item 1A sets out 18 risk factors under 4 headings: Strategic Risks (5); Operational Risks "
     "(8); Financial Risks (2); Legal, Tax, Regulatory, Compliance, Reputational and Other Risks "
     "(3).", "(1) General or macro-economic factors, both domestically and internationally, may "
     "materially adversely affect our financial performance;"),
    ("What are the key risks General Mills faces according to its fiscal 2022 10-K?",
     "Item 1A sets out 22 risk factors under 4 headings: Business and Industry Risks (8); "
     "Operating Risks (5); Legal and Regulatory Risks (3); Financial and Economic Risks (6).",
     "(1) Global health developments and economic uncertainty resulting from the COVID-19 "
     "pandemic could materially and adversely affect our business"),
    ("What are the main risks American Water Works faces according to its FY2021 10-K?",
     "Item 1A sets out 38 risk factors under 4 headings: Risks Related to Our Industry and "
     "Business Operations (27); Financial, Economic and Market-Related Risks (6);",
     "(2) Our indebtedness could adversely affect our business"),
])
def test_the_headings_and_the_first_factor_of_each_from_item_1a(
        risks_corpus: Corpus, question: str, opening: str, first: str) -> None:
    result = risks_corpus.answerer().ask(question)
    assert result.method == "direct risks", result.answer
    assert all(c.mark == "valid" for claim in result.claims for c in claim.citations)
    assert answer_lead(result.answer).startswith(opening), result.answer
    assert first in result.answer.splitlines()[0], result.answer


@pytest.mark.parametrize(("filing", "document", "year", "company", "quoted", "unchanged"), [
    ("financebench-bulk/pdfs/AMERICANWATERWORKS_2023Q2_10Q.pdf", "american-water-works-10q-q2",
     2023, "American Water Works", "carefully consider the factors discussed in Item 1A—Risk "
     "Factors in the Form 10-K", True),
    ("financebench-wide/pdfs/JPMORGAN_2022Q2_10Q.pdf", "jpmorgan-10q-q2", 2022, "JPMorgan",
     "Refer to Part I, Item 1A: Risk Factors on pages 9-33 of JPMorgan Chase’s 2021 Form 10-K",
     False),
    ("financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf", "corning-10q-q2", 2023, "Corning",
     "the factors discussed in Part I, Item 1A. Risk Factors in Corning’s 2022 Form 10-K", False),
])
def test_a_10q_that_refers_to_its_10k_is_answered_by_its_own_sentences(
        filing: str, document: str, year: int, company: str, quoted: str,
        unchanged: bool) -> None:
    """A 10-Q's Part II, Item 1A asks only for material changes from the 10-K's risk factors
    (Form 10-Q): with no caption of its own, the sentence that refers to the 10-K is quoted,
    with the one that says nothing material changed where the Item prints one. An Item
    sentence naming "Item 1A." inside it is read whole."""
    from rag_assets.core.generation.page_texts import PageTexts
    from rag_assets.core.generation.risk_factors import risk_captions
    from rag_assets.core.ingest.context import document_context
    from rag_assets.core.ingest.routing import cover_profile
    from rag_assets.core.question.question import read_question
    from rag_assets_tests.real_filings import real_filing

    pages = real_filing(filing).pages
    context = document_context(document, year, pages, cover_profile(document, year, pages))
    texts = PageTexts()
    texts.add(document, year, pages, {p.page_index: p.item for p in context.pages})
    asked = read_question(f"What are the main risks {company} highlights in its 10-Q?")
    found = risk_captions(asked, document, year, [(p.page_index, p.text) for p in pages],
                          texts.page_items(document, year), texts.bold_lines(document, year))
    assert found is not None and found.kind == "risks"
    assert found.text.startswith("Its Part II, Item 1A refers to the risk factors of the Form "
                                 "10-K"), found.text
    assert quoted in found.text
    assert ("reports no material change" in found.text) is unchanged
    assert all(" ".join(u.quote.split()) in " ".join(pages[u.page].text.split())
               for u in found.units)
