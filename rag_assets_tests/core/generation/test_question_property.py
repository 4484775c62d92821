"""No question crashes the metric route (issue 36 item 3): every question the project asks or
ships (bench/questions, the corpora's FinanceBench questions, the golden questions of the
samples) and generated definitions of every metric in three written forms, parsed and asked of
the statement facts of real filings of several kinds (a 10-K, a bank's 10-Q, an 8-K), with the
question parsers and routing: no exception, and a status the answer engine knows.

The quote route needs a vector store: a full ``ask`` over every question is the answer bench's
(``bench/answer_bench.py``); here the routes that take every question in a few seconds."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.generation.metric_engine import answer_metric
from rag_assets.core.generation.metric_questions import MetricQuestion, parse_question
from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets.core.ingest.routing import DocumentProfile
from rag_assets.core.question.question import read_question
from rag_assets.core.question.vocabulary import load_vocabulary
from rag_assets_tests.real_filings import CORPORA, real_filing


def parse_text(text: str) -> MetricQuestion | None:
    """The metric question ``text`` asks, read as every caller reads it (a :class:`Question`)."""
    return parse_question(read_question(text))

REPO = Path(__file__).resolve().parents[3]
FILINGS = {  # one filing of each kind the corpora hold, by the partition it is indexed as
    ("3m-10k", 2018): "sec-10k/3M_2018_10K.pdf",
    ("jpmorgan-10q-q2", 2022): "financebench-wide/pdfs/JPMORGAN_2022Q2_10Q.pdf",
    ("lockheed-martin-10k", 2021): "financebench-dev/pdfs/LOCKHEEDMARTIN_2021_10K.pdf",
    ("footlocker-8k", 2022): "financebench-wide/pdfs/FOOTLOCKER_2022_8K_dated-2022-05-20.pdf",
}
FORMS = ("What is the company's FY{y} {title}? {Title} is defined as: {body}.",
         "What is the company's FY{y} {title}? {title} = {body}",
         "What is the company's FY{y} {title} ({words})?",
         "What is the FY{y} {title} ratio? {Title} ratio is defined as: {body}.")


def shipped_questions() -> list[str]:
    """Every question of bench/questions, the corpora's question sets and the samples."""
    files = [*sorted((REPO / "bench" / "questions").glob("*.jsonl")),
             *sorted(CORPORA.glob("*/questions.jsonl")),
             *sorted((REPO / "rag_assets" / "samples" / "questions").glob("*/*.jsonl"))]
    return [json.loads(line)["question"] for path in files
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def generated_questions() -> list[str]:
    """Each metric's own formula written back as a question's definition, in each form."""
    defs = load_vocabulary()
    out = []
    for metric in defs.metrics.values():
        if metric.formula is None:  # not computed by the engine
            continue
        body = metric.formula
        for name in sorted(set(defs.concepts) | set(defs.metrics), key=len, reverse=True):
            body = body.replace(name, defs.title(name))
        body = body.replace("avg(", "average (").replace("opt(", "(").replace("change(", "(")
        words = body.replace("/", "divided by").replace("-", "minus").replace("+", "plus")
        for form in FORMS:
            out.append(form.format(y=2021, title=metric.title, Title=metric.title.capitalize(),
                                   body=body, words=words))
    return out


@cache
def facts_of(document: str, year: int, path: str) -> list[StatementFact]:
    return read_facts(document, year, real_filing(path).pages)


def test_shipped_and_generated_questions_are_read_and_routed_without_an_exception() -> None:
    questions = [*shipped_questions(), *generated_questions()]
    assert len(questions) > 250  # 165 shipped, 30 metrics x 4 forms
    profiles = [DocumentProfile(document="3m-10k", year=2018, title="3M Company",
                                aliases=["3M", "3M Company", "MMM"])]
    parsed = 0
    for question in questions:
        parsed += parse_text(question) is not None
        read_question(question, profiles)
    assert parsed > 150  # the metric route reads most of them (the rest are the quotes')


def test_every_question_asked_of_real_facts_gives_a_status_never_an_exception() -> None:
    if not CORPORA.is_dir():
        pytest.skip(f"{CORPORA} is absent")
    facts = {key: facts_of(*key, path) for key, path in FILINGS.items()}
    statuses: dict[str, int] = {}
    for question in [*shipped_questions(), *generated_questions()]:
        parsed = parse_text(question)
        if parsed is None:
            continue
        for (document, _), rows in facts.items():
            answer = answer_metric(parsed, rows, document)
            assert answer.headline, question
            statuses[answer.status] = statuses.get(answer.status, 0) + 1
    # each status comes up (most questions name years other filings than these print: missing)
    assert set(statuses) >= {"answered", "missing", "unavailable", "not_meaningful"}, statuses
    assert statuses["answered"] > 100, statuses
