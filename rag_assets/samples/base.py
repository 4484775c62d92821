"""What every sample builder returns, and where its files go."""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from pydantic import BaseModel

from rag_assets.core.evaluation.questions import (
    GoldenQuestion,
    QuestionCategory,
    questions_path,
    write_questions,
)


class SampleFile(BaseModel):
    """One report written into ``data/reports/<document>/<year>/`` and its golden questions."""

    document: str
    year: int
    path: Path
    questions_path: Path | None = None
    n_questions: int = 0
    origin: str  # "generated" or "real: <source>"


def report_dir(reports_dir: Path, document: str, year: int) -> Path:
    """``<reports_dir>/<document>/<year>/``, created; one file per (document, year)."""
    path = reports_dir / document / str(year)
    path.mkdir(parents=True, exist_ok=True)
    return path


def packaged_questions(document: str, year: int) -> list[GoldenQuestion]:
    """Hand-written golden questions shipped as package data (``samples/questions/``)."""
    source = resources.files("rag_assets.samples").joinpath("questions", document, f"{year}.jsonl")
    rows = source.read_text(encoding="utf-8").splitlines()
    return [GoldenQuestion.model_validate(json.loads(row)) for row in rows if row.strip()]


def numbered_question(
    document: str,
    year: int,
    n: int,
    question: str,
    category: QuestionCategory,
    pages: Iterable[int],
    facts: Iterable[str],
    markers: Iterable[str] = (),
) -> GoldenQuestion:
    """The ``n``-th golden question of a sample, with its id ``<document>-<year>-qNN``."""
    return GoldenQuestion(
        id=f"{document}-{year}-q{n:02d}", document=document, year=year, question=question,
        category=category, relevant_pages=list(pages), relevant_markers=list(markers),
        expected_facts=list(facts),
    )


def publish(
    report: Path,
    document: str,
    year: int,
    questions: Iterable[GoldenQuestion],
    questions_dir: Path,
    origin: str = "generated",
) -> SampleFile:
    """Write a report's golden questions beside it and describe the pair."""
    qpath = questions_path(questions_dir, document, year)
    n = write_questions(qpath, questions)
    return SampleFile(
        document=document, year=year, path=report, questions_path=qpath, n_questions=n,
        origin=origin,
    )
