"""What drove a real operating margin's change, when MD&A explains its parts: Walmart's 10-Ks
explain the gross profit rate and operating expenses as a percentage of net sales, for the
company and again for each segment, never the operating margin in one sentence. The answer
leads with the causes of each part that moved the margin's way, the company's own (never a
segment's, never the other way's), then the change computed from the statements.

The store holds the MD&A pages of each filing (consolidated results and the three segments);
the facts are read from the whole filing. The questions are this project's own (the probe's
10-K battery); Walmart is an analyst-tune company, and no analyst-check filing is read."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.evaluation.answer_correctness import answer_lead
from rag_assets.core.generation.answers import Answerer
from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets.core.retrieval.retriever import Retriever
from rag_assets_tests.real_filings import CORPORA, real_filing

from .conftest import Corpus, real_corpus

pytestmark = [pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here"),
              pytest.mark.slow]  # two real 10-Ks read whole, a few pages of each indexed

WIDE, BULK = "financebench-wide/pdfs", "financebench-bulk/pdfs"
FILINGS = [(f"{WIDE}/WALMART_2018_10K.pdf", "walmart-10k", 2018, range(38, 45)),
           (f"{WIDE}/WALMART_2020_10K.pdf", "walmart-10k", 2020, range(35, 39)),
           (f"{BULK}/WALMART_2022_10K.pdf", "walmart-10k", 2022, range(36, 42)),
           (f"{BULK}/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1", 2024, range(16, 24))]


@cache
def _facts(path: str, document: str, year: int) -> list[StatementFact]:
    return read_facts(document, year, real_filing(path).pages)


@pytest.fixture(scope="module")
def margins_corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return real_corpus(Path(tmp_path_factory.mktemp("bridged_lancedb")), FILINGS)


def _answer(corpus: Corpus, question: str, year: int) -> str:
    path, document = next((f[0], f[1]) for f in FILINGS if f[2] == year)
    answerer = Answerer(Retriever(corpus.store, corpus.embedder), corpus.pages,
                        facts=lambda d, y: _facts(path, d, y) if y == year else [])
    result = answerer.ask(question, document=document, year=year)
    assert result.method == "direct cause", result.answer
    assert all(c.mark == "valid" for claim in result.claims for c in claim.citations)
    return answer_lead(result.answer)


@pytest.mark.parametrize(("period", "year", "opening", "change", "absent"), [
    # p.41: "Our gross profit rate decreased 26 basis points for fiscal 2018 ... For fiscal
    # 2018, the decrease was primarily due to strategic price investments ..."; the year
    # before's causes, printed next, are not read
    ("FY2018", 2018,
     "A lower gross margin (primarily due to strategic price investments and the mix impact "
     "from eCommerce) and a higher operating expense ratio (primarily due to approximately "
     "$0.6 billion in charges related to Sam's Club closures",
     "Walmart's operating margin decreased from 4.7% in FY2017 (operating income of $22,764 "
     "million / revenue of $485,873 million) to 4.1% in FY2018 (operating income of $20,437 "
     "million / revenue of $500,343 million), by 0.6 percentage points",
     ["fiscal 2017"]),
    # fiscal 2022: the company's gross profit rate rose (p.38, its cause cut by the page break
    # after "driven by cost", read on from p.39's opening); International's fell (p.40:
    # "shifts into lower margin formats"), and each segment's expenses are explained under
    # its heading, the company's "benefited from" its causes (no causal connective the reader
    # takes)
    ("FY2022", 2022,
     "A higher gross margin (our gross profit rate increased 14 and 20 basis points for "
     "fiscal 2022 and 2021, respectively, when compared to the previous fiscal year, primarily "
     "due to price management in the Walmart U.S. segment driven by cost inflation as well as "
     "merchandise mix, partially offset by increased supply chain costs)",
     "Walmart's operating margin increased from 4.0% in FY2021 (operating income of $22,548 "
     "million / revenue of $559,151 million) to 4.5% in FY2022",
     ["lower margin formats", "divested markets", "tobacco", " 38"]),
    # the 10-Q for Q1 fiscal 2024 (p.19): "Operating expenses as a percentage of net sales
    # decreased 58 basis points ... The decrease was driven by higher sales in each of our
    # segments as well as operating discipline."; the margin's own sentence gives only "due
    # to the factors described above"
    ("Q1 fiscal 2024", 2024,
     "A lower operating expense ratio (Operating expenses as a percentage of net sales "
     "decreased 58 basis points for the three months ended April 30, 2023, driven by higher "
     "sales in each of our segments as well as operating discipline)",
     "Walmart's operating margin increased from 3.8% in the three months ended in 2022 "
     "(operating income of $5,318 million / revenue of $141,569 million) to 4.1% in the three "
     "months ended in 2023",
     ["factors described above"]),
])
def test_the_parts_that_moved_the_margin_lead_with_the_companys_causes(
        margins_corpus: Corpus, period: str, year: int, opening: str, change: str,
        absent: list[str]) -> None:
    lead = _answer(margins_corpus, f"What drove the change in Walmart's operating margin "
                   f"in {period}?", year)
    assert lead.startswith(opening), lead
    assert change in lead, lead
    assert not any(words in lead for words in absent), lead


def test_a_segments_profit_leads_with_the_causes_its_own_discussion_gives(
        margins_corpus: Corpus) -> None:
    """Walmart's FY2018 Sam's Club discussion explains its net sales, its gross profit rate
    and its operating expenses as a percentage of segment net sales, then sums up "As a result
    of the factors discussed above, segment operating income ...": each part's causes lead,
    the segment's (the club closures' charge), never the company's (its "strategic price
    investments")."""
    lead = _answer(margins_corpus, "What drove the change in Sam's Club's operating income in "
                   "fiscal 2018?", 2018)
    assert lead.startswith("Higher revenue (primarily due to an increase in comparable sales"), lead
    assert "a lower gross margin (primarily due to the impact of markdowns" in lead, lead
    assert "a higher operating expense ratio (primarily due to a charge of approximately $0.6 " \
           "billion related to club closures" in lead, lead
    assert "strategic price investments" not in lead and "factors discussed" not in lead, lead


def test_a_segments_gross_margin_is_its_own_when_its_discussion_says_the_result_of(
        margins_corpus: Corpus) -> None:
    """Walmart's FY2020 Walmart U.S. discussion: "Gross profit rate decreased 14 and 28 basis
    points ... For fiscal 2020, the decreases were primarily the result of continued price
    investments ...". The company's sentence names the segment too ("price investment in the
    Walmart U.S. segment and the addition of Flipkart in the Walmart International segment"),
    and is not the segment's."""
    lead = _answer(margins_corpus, "What drove the increase in Walmart U.S.'s operating income "
                   "in fiscal 2020?", 2020)
    assert lead.startswith("Higher revenue (primarily due to increases in comparable store "
                           "sales of 2.9%"), lead
    assert ("a lower gross margin (Gross profit rate decreased 14 and 28 basis points"
            in lead and "primarily the result of continued price investments" in lead), lead
    assert "Flipkart" not in lead and "factors discussed" not in lead, lead


def test_a_segment_named_without_its_company_is_searched_not_refused(
        margins_corpus: Corpus) -> None:
    """No scope given and no company named: "Sam's Club's" names a segment Walmart's pages print
    ("the Sam's Club segment"), found by the store's full-text index, so the question is
    answered from the filing; a company no page prints as its segment is still refused."""
    answerer = Answerer(Retriever(margins_corpus.store, margins_corpus.embedder),
                        margins_corpus.pages)
    found = answerer.ask("What drove the change in Sam's Club's operating income in fiscal 2018?")
    assert not found.abstained and "No indexed filing" not in found.answer
    assert {s.document for s in found.sources_used} == {"walmart-10k"}
    refused = answerer.ask("What drove the change in Kroger's operating income in fiscal 2018?")
    assert refused.answer == "No indexed filing is from Kroger." and refused.abstained
