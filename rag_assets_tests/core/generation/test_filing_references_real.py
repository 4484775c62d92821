"""A question that says which filing to read ("in the press release attached to Costco's 8-K
dated August 9, 2023") is answered from what it asks, not from the cover page that prints the
form's name and date, on Costco's real 8-K of that day (a fresh question's wording, worded
again here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets.core.evaluation.answer_correctness import answer_lead
from rag_assets_tests.real_filings import CORPORA

from .conftest import Corpus, real_corpus

pytestmark = [pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here"),
              pytest.mark.slow]  # one real 8-K indexed

EIGHT_K = "financebench-bulk/pdfs/COSTCO_2023_8K_dated-2023-08-09.pdf"


@pytest.fixture(scope="module")
def eight_k(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return real_corpus(Path(tmp_path_factory.mktemp("references_lancedb")),
                       [(EIGHT_K, "costco-8k-2023-08-09", 2023, None)])


@pytest.mark.parametrize("question", [
    "Judging by the warehouse count in the press release attached to Costco's 8-K dated "
    "August 9, 2023, are most of Costco's warehouses in the United States?",
    "Going by the press release attached to Costco's 8-K dated August 9, 2023, how many "
    "warehouses does Costco operate in the United States?",
    "Is Costco's warehouse base concentrated in the United States, according to the press "
    "release attached to its 8-K dated August 9, 2023?",
])
def test_the_answer_is_read_where_the_question_asks_not_on_the_cover(eight_k: Corpus,
                                                                     question: str) -> None:
    lead = answer_lead(eight_k.answerer().ask(question).answer)
    assert "590 in the United States" in lead, lead
    assert "SECURITIES AND EXCHANGE COMMISSION" not in lead
