"""The main risks of three real 10-Ks from the captions their Item 1A prints in bold (Regulation
S-K Item 105): the headings with how many factors each groups, then the first factor of each,
every caption cited on its page. The store indexes a few pages of each filing; every page is
kept to read Item 1A from and to cite. The questions are this project's own (the probe's 10-K
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
