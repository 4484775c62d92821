"""Golden questions: the labelled evaluation set that retrieval and answers are judged against.

One JSONL file per partition at ``data/questions/<document>/<year>.jsonl`` so that an evaluation
partition reads exactly its own questions.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, model_validator

QuestionCategory = Literal[
    "factual",
    "footnote-dependent",
    "temporal",
    "comparative",
    "relationship",
    "holistic",
    "citation",
    "unanswerable",
]


class GoldenQuestion(BaseModel):
    """A question with the evidence that answers it.

    ``relevant_pages`` are zero-based page indices of the file (PDF page index, form-feed page of a
    text file, ``pb`` order of a TEI file), never printed page labels. ``relevant_markers`` are
    footnote markers as printed (``"[3]"``, ``"(1)"``, ``"(a)"``, ``"*"``). ``answer`` and
    ``evidence_text`` are optional: the hand-written sets have expected facts instead.
    """

    id: str
    document: str
    year: int
    question: str
    category: QuestionCategory
    relevant_pages: list[int] = Field(default_factory=list)
    relevant_markers: list[str] = Field(default_factory=list)
    expected_facts: list[str] = Field(default_factory=list)
    # a reference answer and the evidence passages as the question's source quotes them
    # (FinanceBench: :mod:`rag_assets.core.evaluation.financebench`), kept for the generation
    # work; files written before these fields existed load with the defaults
    answer: str | None = None
    evidence_text: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _evidence_matches_category(self) -> GoldenQuestion:
        if self.category == "unanswerable":
            labelled = [name for name in ("relevant_pages", "relevant_markers", "expected_facts",
                                          "evidence_text") if getattr(self, name)]
            if labelled:
                raise ValueError(f"{self.id}: an unanswerable question has no evidence, but "
                                 f"{', '.join(labelled)} {'is' if len(labelled) == 1 else 'are'}"
                                 " set")
        elif not self.relevant_pages:
            raise ValueError(f"{self.id}: a {self.category} question needs at least one "
                             "relevant page (only unanswerable questions have none)")
        return self

    @property
    def answerable(self) -> bool:
        """False for an ``unanswerable`` question: its document does not hold the answer."""
        return self.category != "unanswerable"


def answerable_questions(questions: Iterable[GoldenQuestion]) -> list[GoldenQuestion]:
    """The questions that have evidence to rank: retrieval evaluation runs these alone."""
    return [q for q in questions if q.answerable]


def questions_path(questions_dir: Path, document: str, year: int | str) -> Path:
    return questions_dir / document / f"{year}.jsonl"


def write_questions(path: Path, questions: Iterable[GoldenQuestion]) -> int:
    """Write questions as JSONL; returns how many were written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [q.model_dump_json() for q in questions]
    path.write_text("\n".join(rows) + ("\n" if rows else ""), encoding="utf-8")
    return len(rows)


def read_questions(path: Path) -> list[GoldenQuestion]:
    """Read a JSONL question file; a missing file means no questions, a bad line is an error."""
    if not path.exists():
        return []
    out: list[GoldenQuestion] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(GoldenQuestion.model_validate(json.loads(line)))
        except (json.JSONDecodeError, ValueError) as exc:
            raise ValueError(f"{path}:{lineno}: invalid golden question: {exc}") from exc
    return out
