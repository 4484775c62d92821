"""A measure a qualifier makes another than the statements' ("comparable sales", Regulation G's
non-GAAP measures) is answered by the sentence that states it, never computed as the GAAP
metric: on Ulta Beauty's real second-quarter fiscal 2023 release (``financebench-bulk``), whose
first pages print both "Net sales increased 10.1% ... primarily due to increased comparable
sales" and "Comparable sales (...) increased 8.0%". The questions are this project's own probe's,
written apart from any question set."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets.core.evaluation.answer_correctness import answer_lead
from rag_assets_tests.real_filings import CORPORA

from .conftest import Corpus, real_corpus

pytestmark = [pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here"),
              pytest.mark.slow]  # one real release indexed (~10 s)

RELEASE = ("financebench-bulk/pdfs/ULTABEAUTY_2023Q2_EARNINGS.pdf", "ulta-beauty-earnings",
           2023, range(0, 4))


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return real_corpus(Path(tmp_path_factory.mktemp("qualified_lancedb")), [RELEASE])


@pytest.mark.parametrize(("question", "lead_starts", "lead_has"), [
    ("What was Ulta Beauty's comparable sales growth in the second quarter of fiscal 2023?",
     "Comparable sales (sales for stores open at least 14 months", "increased 8.0%"),
    ("What was Ulta Beauty's comparable sales increase in the first six months of fiscal 2023?",
     "Comparable sales increased 8.7%", "first six months"),
])
def test_a_qualified_measure_is_answered_by_the_sentence_that_states_it(
        release: Corpus, question: str, lead_starts: str, lead_has: str) -> None:
    result = release.answerer().ask(question)
    lead = answer_lead(result.answer)
    assert lead.startswith(lead_starts) and lead_has in lead, lead
    assert not lead.startswith("For the")  # net sales' growth is no comparable sales growth
    assert result.claims and all(c.mark == "valid" for claim in result.claims
                                 for c in claim.citations)
