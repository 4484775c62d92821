"""Facts in prose answered from real 10-Ks: the first sentence of the answer is the filing's
sentence that answers (a customer's share, a headcount), not a neighbour that merely shares
the question's words, and a question that names a statement line but asks for names is not
taken by the metric engine.

The store holds a few pages of three filings of ``financebench-dev`` around each answer, the
distractors included (Corning's officers' biographies on the pages after its headcount), so
ranking is tested among real neighbours; the questions are the project's own
(``bench/questions/prose_dev.jsonl``), never financebench-wide's."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from rag_assets.core.evaluation.answer_correctness import answer_lead
from rag_assets.core.generation.metric_questions import MetricQuestion, parse_question
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA

from .conftest import Corpus, real_corpus


def parse_text(text: str) -> MetricQuestion | None:
    """The metric question ``text`` asks, read as every caller reads it (a :class:`Question`)."""
    return parse_question(read_question(text))

pytestmark = [pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here"),
              pytest.mark.slow]  # three real 10-Ks indexed (~15 s)

# (file, document, year, zero-based pages kept): each answer's page and its neighbours
FILINGS: list[tuple[str, str, int, Sequence[int]]] = [
    ("financebench-dev/pdfs/CORNING_2022_10K.pdf", "corning-10k", 2022, range(0, 12)),
    ("financebench-dev/pdfs/GENERALMILLS_2020_10K.pdf", "general-mills-10k", 2020, range(0, 8)),
    ("financebench-dev/pdfs/ACTIVISIONBLIZZARD_2019_10K.pdf", "activision-blizzard-10k", 2019,
     [*range(3, 11), *range(39, 46)]),
]


@pytest.fixture(scope="module")
def prose_corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return real_corpus(Path(tmp_path_factory.mktemp("prose_lancedb")), FILINGS)


@pytest.mark.parametrize(("question", "lead_has"), [
    ("How many employees does Corning have?", ["57,500"]),
    ("Which customer accounted for 10% or more of General Mills' net sales in fiscal 2020, and "
     "how large was its share?", ["Walmart", "21 percent"]),
    ("Who are Activision Blizzard's most significant customers, and how much of 2019 net "
     "revenues did each account for?", ["Apple", "Google", "Sony", "17%"]),
    # a cause asked: the causes the sentence with the connective gives, first, then the change
    # (not the region table that shares the question's words)
    ("Why did net revenues in the Americas region decrease in 2019?",
     ["Primarily due to lower revenues", "decrease in net revenues in the Americas"]),
    ("What caused the decrease in net revenues in the Asia Pacific region in 2019?",
     ["Primarily due to", "decrease in net revenues in the Asia Pacific"]),
])
def test_the_first_sentence_is_the_one_that_answers(prose_corpus: Corpus, question: str,
                                                    lead_has: list[str]) -> None:
    result = prose_corpus.answerer().ask(question)
    lead = answer_lead(result.answer)
    assert all(part in lead for part in lead_has), lead
    assert result.claims and all(c.mark == "valid" for claim in result.claims
                                 for c in claim.citations)


@pytest.mark.parametrize("question", [
    "Who are Activision Blizzard's most significant customers, and how much of 2019 net "
    "revenues did each account for?",
    "What did General Mills expect for its fiscal 2021 adjusted operating profit margin?",
    "How many employees did Coca-Cola have at the end of 2017?",
])
def test_names_guidance_and_headcounts_are_not_statement_metrics(question: str) -> None:
    """Revenue or a margin named in a question that asks who, what is expected or how many
    people is not a figure of the primary statements: the prose path answers it."""
    assert parse_text(question) is None
