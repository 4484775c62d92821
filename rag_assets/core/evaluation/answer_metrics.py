"""Answer quality without a judge model: one score per golden question, and their summary.

Plain functions over the generation records (:mod:`rag_assets.core.generation.records`) and the
golden questions (:mod:`rag_assets.core.evaluation.questions`). Every rule is lexical and
deterministic, so a score can be recomputed and explained; each function's docstring states its
rule. The rules live by concern:

- :mod:`~rag_assets.core.evaluation.answer_lexicon`: normalized text, printed figures, content
  words;
- :mod:`~rag_assets.core.evaluation.citation_support`: the lexical support rule, ALCE citation
  precision and recall over the cited pages, the verifier's marks;
- :mod:`~rag_assets.core.evaluation.answer_correctness`: FinanceBench answer correctness, lenient
  (anywhere in the answer) and strict (the answer's lead);
- here: :func:`fact_recall` (share of a question's expected facts printed in the answer),
  :func:`abstention_correct` (abstained exactly when the question is unanswerable),
  :func:`score_answer` and :func:`summarize_answers` (one :class:`AnswerScore` per question and
  their means) and the ``answer_metrics`` table.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
from pydantic import BaseModel, Field

from rag_assets.core.evaluation.answer_correctness import answer_correct
from rag_assets.core.evaluation.answer_lexicon import normalize_text
from rag_assets.core.evaluation.citation_support import (
    PageText,
    citation_scores,
    is_invalid_citation,
)
from rag_assets.core.evaluation.questions import GoldenQuestion
from rag_assets.core.generation.records import ABSTENTION, QAResult

# ----------------------------------------------------------------------------------- fact recall


def _fact_pattern(fact: str) -> re.Pattern[str]:
    """The normalized fact, bounded where it starts or ends with a letter or digit: no letter or
    digit (nor a digit and a decimal point or comma) may continue it on either side."""
    body = re.escape(fact)
    left = r"(?<!\w)(?<!\d[.,])" if fact[:1].isalnum() else ""
    right = r"(?!\w)(?![.,]\d)" if fact[-1:].isalnum() else ""
    return re.compile(left + body + right)


def fact_recall(answer_text: str, expected_facts: Sequence[str]) -> float | None:
    """Share of the expected facts that the answer prints.

    Rule: both sides pass through :func:`normalize_text`; a fact is present when its normalized
    form occurs in the normalized answer and is not part of a longer word or figure (the fact
    ``32,765`` is in ``$32,765 million`` and in ``32765`` but not in ``132,765``, ``32,7650`` or
    ``32,765.5``). None when there are no (non-blank) expected facts: nothing to recall.
    """
    facts = [normalize_text(f) for f in expected_facts if f.strip()]
    if not facts:
        return None
    answer = normalize_text(answer_text)
    return sum(bool(_fact_pattern(f).search(answer)) for f in facts) / len(facts)


# ------------------------------------------------------------------------------------- abstention


def abstained(result: QAResult) -> bool:
    """The answer declined: ``abstained`` is set or the answer is the abstention sentence."""
    return result.abstained or result.answer.strip() == ABSTENTION


def abstention_correct(result: QAResult, question: GoldenQuestion) -> bool:
    """Right to abstain or not: for an unanswerable golden question, correct iff the answer
    abstained (:func:`abstained`); for an answerable one, correct iff it did not."""
    return abstained(result) != question.answerable


# ------------------------------------------------------------------------------------ per question


class AnswerScore(BaseModel):
    """How one answer did on one golden question: a score is None where it does not apply."""

    question_id: str
    document: str
    year: int
    category: str
    answerable: bool
    abstained: bool
    abstention_correct: bool
    fact_recall: float | None = Field(
        default=None, description="for an answerable question with expected facts; an "
        "abstention on it recalls nothing")
    answer_correct: bool | None = Field(
        default=None, description="for an answerable question with a reference answer "
        "(FinanceBench); False when the answer abstained")
    citation_precision: float | None = Field(default=None, description="None without claims")
    citation_recall: float | None = Field(default=None, description="None without claims")
    n_claims: int = 0
    n_citations: int = 0
    invalid_citations: int = Field(
        default=0, description="citations the verifier marked invalid or context_mismatch, or "
        "that cite a page that does not exist")
    seconds: float = 0.0


def score_answer(question: GoldenQuestion, result: QAResult, page_text: PageText) -> AnswerScore:
    """Score one answer, each score where :class:`AnswerScore` says it applies: ``fact_recall``
    by :func:`fact_recall`, ``answer_correct`` by
    :func:`~rag_assets.core.evaluation.answer_correctness.answer_correct`, the citation scores by
    :func:`~rag_assets.core.evaluation.citation_support.citation_scores`."""
    did_abstain = abstained(result)
    facts = question.expected_facts if question.answerable else []
    correct = None
    if question.answerable and question.answer:
        correct = not did_abstain and answer_correct(result.answer, question.answer,
                                                     question.question)
    precision, recall = citation_scores(result, page_text)
    citations = [c for claim in result.claims for c in claim.citations]
    return AnswerScore(
        question_id=question.id, document=question.document, year=question.year,
        category=question.category, answerable=question.answerable, abstained=did_abstain,
        abstention_correct=abstention_correct(result, question),
        fact_recall=fact_recall(result.answer, facts) if facts else None,
        answer_correct=correct, citation_precision=precision, citation_recall=recall,
        n_claims=len(result.claims), n_citations=len(citations),
        invalid_citations=sum(is_invalid_citation(c, page_text) for c in citations),
        seconds=result.seconds,
    )


def _mean(values: Iterable[float | bool | None]) -> float:
    """Mean of the values that are not None or NaN; NaN when there are none."""
    kept = [float(v) for v in values if v is not None and not (isinstance(v, float)
                                                                and math.isnan(v))]
    return sum(kept) / len(kept) if kept else math.nan


def summarize_answers(scores: Sequence[AnswerScore]) -> dict[str, float | int]:
    """Means over questions (NaN where no question qualifies; None and NaN values are skipped).

    - ``abstention_accuracy``: over all questions; ``false_abstention_rate``: answerable
      questions that abstained; ``answered_unanswerable_rate``: unanswerable ones answered;
    - ``fact_recall``: over answerable questions with expected facts (``fact_questions``);
    - ``answer_accuracy``: over questions with a reference answer (``reference_questions``);
    - ``citation_precision``/``citation_recall``: over answers with claims (``cited_answers``);
    - ``claims_per_answer``, ``citations_per_answer``, ``invalid_citations`` (a total) and
      ``seconds_mean``.
    """
    answerable = [s for s in scores if s.answerable]
    unanswerable = [s for s in scores if not s.answerable]
    with_facts = [s for s in answerable if s.fact_recall is not None
                  and not math.isnan(s.fact_recall)]
    return {
        "questions": len(scores),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "abstention_accuracy": _mean(s.abstention_correct for s in scores),
        "false_abstention_rate": _mean(s.abstained for s in answerable),
        "answered_unanswerable_rate": _mean(not s.abstained for s in unanswerable),
        "fact_questions": len(with_facts),
        "fact_recall": _mean(s.fact_recall for s in with_facts),
        "reference_questions": sum(s.answer_correct is not None for s in scores),
        "answer_accuracy": _mean(s.answer_correct for s in scores),
        "cited_answers": sum(s.citation_recall is not None for s in scores),
        "citation_precision": _mean(s.citation_precision for s in scores),
        "citation_recall": _mean(s.citation_recall for s in scores),
        "claims_per_answer": _mean(s.n_claims for s in scores),
        "citations_per_answer": _mean(s.n_citations for s in scores),
        "invalid_citations": sum(s.invalid_citations for s in scores),
        "seconds_mean": _mean(s.seconds for s in scores),
    }


SCORE_TYPES = {
    "question_id": "string", "document": "string", "year": "Int64", "category": "string",
    "answerable": "boolean", "abstained": "boolean", "abstention_correct": "boolean",
    "fact_recall": "Float64", "answer_correct": "boolean", "citation_precision": "Float64",
    "citation_recall": "Float64", "n_claims": "Int64", "n_citations": "Int64",
    "invalid_citations": "Int64", "seconds": "Float64",
}


def scores_to_frame(scores: Sequence[AnswerScore]) -> pd.DataFrame:
    """The ``answer_metrics`` table: explicit types, so a first partition whose values are all
    missing still creates the right columns."""
    rows = [s.model_dump() for s in scores]
    return pd.DataFrame(rows, columns=list(SCORE_TYPES)).astype(SCORE_TYPES)


def frame_to_scores(frame: pd.DataFrame) -> list[AnswerScore]:
    return [AnswerScore.model_validate({k: (None if pd.isna(v) else v) for k, v in row.items()
                                        if k in SCORE_TYPES})
            for row in frame.to_dict("records")]


def seconds_percentiles(scores: Sequence[AnswerScore]) -> dict[str, float]:
    """Seconds per answer at the median and the 95th percentile."""
    seconds = sorted(s.seconds for s in scores)
    if not seconds:
        return {"seconds_p50": math.nan, "seconds_p95": math.nan}
    return {"seconds_p50": float(np.percentile(seconds, 50)),
            "seconds_p95": float(np.percentile(seconds, 95))}
