"""How a question asks, beside what it names: the phrasings a reader of the answer decides by.

"Was it not approved?" asks in the negative, "What were the results of the vote?" asks every
matter's outcome, "by how much did X grow?" a change over time. Each phrasing is data
(``phrasings.json``: its pattern, the text of the question it is read on, what a reader does
with it and its source), read once with the question into ``Question.phrasings``; the readers
ask ``question.phrased(name)`` instead of matching the question's text with a pattern of their
own (a pattern a reader applies to a filing's sentences as well, "average price per share",
"adjusted", stays with that reader). Plain Python and pydantic.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

PHRASINGS_PATH = Path(__file__).with_name("phrasings.json")
ReadOn = Literal["text", "ranking_text", "clause"]


class Phrasing(BaseModel):
    """One way of asking (``phrasings.json``'s entries)."""

    read_on: ReadOn
    pattern: str
    means: str
    source: str

    @property
    def regex(self) -> re.Pattern[str]:
        return _compiled(self.pattern)


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


@cache
def load_phrasings() -> dict[str, Phrasing]:
    """The phrasings by name, as ``phrasings.json`` documents them."""
    entries = json.loads(PHRASINGS_PATH.read_text("utf-8"))["phrasings"]
    return {name: Phrasing.model_validate(entry) for name, entry in entries.items()}


def phrasings_in(texts: dict[ReadOn, str]) -> dict[str, str]:
    """Each phrasing a question uses, with the words it is asked in (the pattern's first
    group, else its whole match): ``texts`` are the question as asked, without its
    instructions and its own clause."""
    found: dict[str, str] = {}
    for name, phrasing in load_phrasings().items():
        match = phrasing.regex.search(texts[phrasing.read_on])
        if match is not None:
            group = match.group(1) if match.re.groups else None
            found[name] = (group or match.group(0)).strip() or name
    return found
