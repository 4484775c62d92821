"""A question from outside: control characters spaced, empty and overlong ones refused in one
line, every real question of the repository's and the shared corpora's sets accepted as is."""

from __future__ import annotations

import json

import pytest

from rag_assets.core.settings import QuestionSettings
from rag_assets.core.text.question_input import (
    EmptyQuestion,
    QuestionTooLong,
    checked_question,
    normalized_question,
)
from rag_assets_tests.real_filings import CORPORA, REPO

BOUND = QuestionSettings().max_question_chars


def real_questions() -> list[str]:
    files = [*sorted((REPO / "bench" / "questions").glob("*.jsonl")),
             *sorted(CORPORA.glob("*/questions.jsonl"))]
    return [json.loads(line)["question"] for path in files
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_control_and_invisible_characters_become_single_spaces() -> None:
    asked = "What was 3M's\x1b[31m total\x07 net\u200b sales\x0c\r\n in\t2018?\x00"
    assert normalized_question(asked) == "What was 3M's [31m total net sales in 2018?"
    assert checked_question("  Net sales\u00a0of 3M?  ", BOUND) == "Net sales of 3M?"


def test_a_character_that_joins_a_word_leaves_the_word_whole() -> None:
    """A soft hyphen or a zero-width joiner sits inside a word: removed, not made a space."""
    assert normalized_question("net re\u00advenue of Nest\u200dl\u00e9\ufeff") == \
        "net revenue of Nestl\u00e9"


@pytest.mark.parametrize(("text", "what"), [
    ("", "empty"), ("   \t\n ", "blank"), ("\x00\x07\x1b", "only control or invisible"),
    ("\u200b\u202e", "only control or invisible")])
def test_nothing_readable_is_refused_in_one_line(text: str, what: str) -> None:
    with pytest.raises(EmptyQuestion) as refused:
        checked_question(text, BOUND)
    assert f"the question is {what}" in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_question_past_the_bound_is_refused_naming_its_length_and_the_setting() -> None:
    text = "What was 3M's revenue? " * 4400  # 101,200 characters, the 96 KB paste
    with pytest.raises(QuestionTooLong) as refused:
        checked_question(text, BOUND)
    message = str(refused.value)
    assert "101,199 characters long" in message and f"{BOUND:,}" in message
    assert "max_question_chars" in message and "\n" not in message
    assert checked_question("x" * BOUND, BOUND) == "x" * BOUND  # the bound itself is fine


def test_every_real_question_passes_unchanged_well_under_the_bound() -> None:
    questions = real_questions()
    if len(questions) < 50:
        pytest.skip(f"question sets not found under {CORPORA}")
    longest = max(len(q) for q in questions)
    assert longest * 4 < BOUND  # a wide margin over the longest analyst question (592)
    for question in questions:
        assert checked_question(question, BOUND) == " ".join(question.split())


def test_the_bound_is_a_documented_setting_of_the_llm_section() -> None:
    from rag_assets.core.settings import LLMSettings, Settings

    field = LLMSettings.model_fields["max_question_chars"]
    assert field.description and "592" in field.description
    assert Settings().llm.max_question_chars == BOUND == 4000
