"""Every question the project holds, read by the one reader: the companies, years, quarters,
filing kinds and metrics it names are pinned.

Two kinds of pin. The questions written here (``own_questions.jsonl``) carry the reading a
person expects, written by hand. The question sets of the corpora, prose-dev and the samples'
golden questions are pinned as read (``question_pins.json``): a change of the reader that moves
one of their readings fails here and is looked at, then the file is written anew with
``python -m rag_assets_tests.core.question.test_question_pins``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rag_assets.core.ingest.routing import DocumentProfile
from rag_assets.core.question.question import Question, read_question
from rag_assets_tests.real_filings import CORPORA

HERE = Path(__file__).parent
REPO = Path(__file__).resolve().parents[3]
OWN = HERE / "own_questions.jsonl"
PINS = HERE / "question_pins.json"
SETS = {"financebench-dev": CORPORA / "financebench-dev" / "questions.jsonl",
        "financebench-wide": CORPORA / "financebench-wide" / "questions.jsonl",
        "prose-dev": REPO / "bench" / "questions" / "prose_dev.jsonl",
        **{f"golden-{p.parent.name}": p
           for p in sorted((REPO / "rag_assets" / "samples" / "questions").glob("*/*.jsonl"))}}
FIELDS = ("companies", "years", "filing_years", "quarters", "kinds", "metrics", "expects",
          "months", "unindexed")


@cache
def profiles() -> tuple[DocumentProfile, ...]:
    """The profiles of every filing of the corpora, read from their covers."""
    from rag_assets_tests.core.ingest.test_routing_covers import profiles as cover_profiles

    return tuple(cover_profiles())


def reading(question: Question) -> dict[str, Any]:
    return {field: getattr(question, field) for field in FIELDS}


def asked(path: Path) -> list[str]:
    return [json.loads(line)["question"] for line in path.read_text("utf-8").splitlines()
            if line.strip()]


def own() -> list[dict[str, Any]]:
    return [json.loads(line) for line in OWN.read_text("utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def corpus_profiles() -> tuple[DocumentProfile, ...]:
    if not all(p.is_file() for p in SETS.values()):
        pytest.skip(f"the question sets of {CORPORA} are not here")
    return profiles()


def test_two_hundred_questions_are_pinned(corpus_profiles: tuple[DocumentProfile, ...]) -> None:
    pins = json.loads(PINS.read_text("utf-8"))
    assert sum(len(asked(p)) for p in SETS.values()) + len(own()) >= 200
    moved = {}
    for name, path in SETS.items():
        for text in asked(path):
            now = reading(read_question(text, corpus_profiles))
            if pins[name].get(text) != now:
                moved[text] = (pins[name].get(text), now)
    assert not moved, moved


@pytest.mark.parametrize("row", own(), ids=lambda row: row["question"][:60])
def test_a_question_written_here_reads_as_a_person_reads_it(
        row: dict[str, Any], corpus_profiles: tuple[DocumentProfile, ...]) -> None:
    question = read_question(row["question"], corpus_profiles)
    assert question.companies == row["companies"]
    assert question.years == row["years"]
    assert question.filing_years == row.get("filing_years", [])
    assert question.quarters == row["quarters"]
    assert question.kinds == sorted(row["kinds"])
    assert question.metrics == row["metrics"]
    assert question.expects == row["expects"]
    assert question.months == row.get("months", 3 if row["quarters"] else 12)
    assert question.unindexed == row.get("unindexed")


def main() -> None:
    """Write ``question_pins.json`` anew from the reader as it is."""
    pins = {name: {text: reading(read_question(text, profiles())) for text in asked(path)}
            for name, path in SETS.items()}
    PINS.write_text(json.dumps(pins, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"{sum(len(p) for p in pins.values())} questions pinned in {PINS.name}")


if __name__ == "__main__":
    main()
