"""A question is input like any other: checked before any store is opened or model loaded.

``rag-assets ask`` (and anything else that takes a question from outside) hands the text here
first. Control characters (a pasted ``\\x00``, an escape sequence, a form feed) are no part of a
question: each becomes a space, then runs of white space become one space. What is left must
hold a character to read (an empty, blank or control-only question is refused) and be no longer
than the settings' bound (``max_question_chars``, the ``llm`` section of ``core/settings.py``):
the longest question of the repository's and the shared corpora's question sets is 592
characters, so the default of 4,000 refuses no real question, while a 96 KB paste is refused
in one line instead of reaching the tokenizer, the full-text index and the answer engine.
"""

from __future__ import annotations

import unicodedata

# Unicode categories that print nothing a reader could ask about: controls (Cc), format
# characters such as zero-width spaces and bidi overrides (Cf), unassigned code points (Cn),
# surrogates (Cs) and private use (Co)
_INVISIBLE = frozenset({"Cc", "Cf", "Cn", "Cs", "Co"})
# invisible characters that join a word's parts (soft hyphen, zero-width non-joiner and joiner,
# word joiner, byte order mark): removed, so "re\u00advenue" reads "revenue", not "re venue"
_JOINERS = dict.fromkeys(map(ord, "\u00ad\u200c\u200d\u2060\ufeff"))
# the default bound: the longest real question is 592 characters (see above)
MAX_QUESTION_CHARS = 4000


class QuestionError(ValueError):
    """A question that cannot be asked; ``str()`` is the one-line reason."""


class EmptyQuestion(QuestionError):
    """Nothing readable: empty, blank, or only control or invisible characters."""


class QuestionTooLong(QuestionError):
    """Longer than the bound, after normalization."""


def normalized_question(text: str) -> str:
    """``text`` in NFC with every invisible or control character made a space and white space
    collapsed: what the engine reads, whatever the terminal or file it came from added."""
    text = unicodedata.normalize("NFC", text).translate(_JOINERS)
    cleaned = "".join(" " if unicodedata.category(c) in _INVISIBLE else c for c in text)
    return " ".join(cleaned.split())


def checked_question(text: str, max_chars: int) -> str:
    """The normalized question, or ``QuestionError`` (one line) when nothing readable is left
    or it is longer than ``max_chars`` characters."""
    question = normalized_question(text)
    if not question:
        what = ("empty" if not text else "blank" if not text.strip()
                else "only control or invisible characters")
        raise EmptyQuestion(f"the question is {what}: ask something, e.g. "
                            "\"What was 3M's total revenue in 2018?\"")
    if len(question) > max_chars:
        raise QuestionTooLong(f"the question is {len(question):,} characters long, more than the "
                            f"{max_chars:,} read (setting max_question_chars)")
    return question
