"""Reading a question: ``read_question`` over every question this repository ships, and the
vocabulary's term search inside it (``terms_in``) against a baseline in the same process.

``terms_in`` searches a question only for the vocabulary's phrases whose first word the question
holds (a substring test on the first word ``vocabulary._patterns`` keeps beside each pattern).
The baseline is ``terms_in`` itself with that test always passing: each of the vocabulary's
patterns run over the question. Both are timed over the same questions, in the same process,
the faster of ``--rounds`` rounds each; the terms found must be the same for every question, or
the bench fails.

Run: ``.venv/bin/python bench/question_bench.py [--rounds 5]``. Prints the figures, then
``BENCH_JSON {...}``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def shipped_questions() -> list[str]:
    """The questions of ``bench/questions``, the corpora's sets and the samples."""
    files = [*sorted((REPO / "bench" / "questions").glob("*.jsonl")),
             *sorted((REPO.parent / "shared" / "corpora").glob("*/questions.jsonl")),
             *sorted((REPO / "rag_assets" / "samples" / "questions").glob("*/*.jsonl"))]
    return [json.loads(line)["question"] for path in files
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def terms_found(every_pattern: bool) -> Callable[[str], list[Any]]:
    """``terms_in`` itself, or the baseline: ``terms_in`` with its first-word test always
    passing (each phrase's first word given as "", which every text holds), so every pattern
    is searched. The baseline swaps the module's phrase table for the call only."""
    from rag_assets.core.question import vocabulary

    table = vocabulary._patterns()
    every = tuple((*entry[:4], "") for entry in table)

    def found(text: str) -> list[Any]:
        if not every_pattern:
            return vocabulary.terms_in(text)
        vocabulary._patterns = lambda path=vocabulary.TERMS_FILE: every  # type: ignore[assignment]
        try:
            return vocabulary.terms_in(text)
        finally:
            vocabulary._patterns = original

    original = vocabulary._patterns
    return found


def fastest(work: Callable[[str], Any], questions: Sequence[str], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for question in questions:
            work(question)
        best = min(best, time.perf_counter() - started)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    from rag_assets.core.question.question import read_question

    questions = shipped_questions()
    every_pattern, first_word_filtered = terms_found(True), terms_found(False)
    differ = [q for q in questions if every_pattern(q) != first_word_filtered(q)]
    if differ:
        print(f"the first-word test loses matches in {len(differ)} questions: {differ[:3]}")
        return 1
    baseline = fastest(every_pattern, questions, args.rounds)
    filtered = fastest(first_word_filtered, questions, args.rounds)
    reading = fastest(read_question, questions, args.rounds)
    figures = {"questions": len(questions), "same_matches": True,
               "search_baseline_ms": round(1000 * baseline / len(questions), 3),
               "search_filtered_ms": round(1000 * filtered / len(questions), 3),
               "search_speedup": round(baseline / filtered, 2),
               "read_question_ms": round(1000 * reading / len(questions), 3)}
    print(f"{len(questions)} questions, the same terms in each; terms_in "
          f"{figures['search_baseline_ms']} ms a question with every pattern, "
          f"{figures['search_filtered_ms']} ms with the first-word test "
          f"({figures['search_speedup']}x); read_question {figures['read_question_ms']} ms")
    print("BENCH_JSON " + json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
