"""Quotes from a real earnings release whose tables print two columns under one date (Costco's
12 and 36 weeks ended May 7, 2023): a quoted row whose citation does not hold on its page is
dropped, never shown with an invalid mark; what is shown is valid."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets_tests.real_filings import CORPORA

from .conftest import Corpus, real_corpus

pytestmark = [pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here"),
              pytest.mark.slow]  # one real release indexed

RELEASE = "financebench-bulk/pdfs/COSTCO_2023Q3_EARNINGS.pdf"


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return real_corpus(Path(tmp_path_factory.mktemp("quotes_lancedb")),
                       [(RELEASE, "costco-earnings-q3", 2023, None)])


@pytest.mark.parametrize("question", [
    "What explains the change in Costco's net income in the third quarter of fiscal 2023?",
    "What was Costco's net income attributable to Costco in the 36 weeks ended May 7, 2023?",
])
def test_every_citation_shown_is_valid(release: Corpus, question: str) -> None:
    result = release.answerer().ask(question)
    marks = [c.mark for claim in result.claims for c in claim.citations]
    assert all(mark == "valid" for mark in marks), (marks, result.answer)
    assert "context mismatch" not in result.answer and "invalid" not in result.answer
