"""What a question asks about (legal matters, segments, deals, what drove a change, capital
intensity ...), the filing sections required to print the answer and the form the answer takes:
``intent_lexicon.json`` (its ``_doc`` says each field, each entry names its source), read here."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rag_assets.core.ingest.sections import load_sections
from rag_assets.core.question.vocabulary import normalize, phrase_pattern, plural_forms

INTENTS_PATH = Path(__file__).with_name("intent_lexicon.json")
# the form of an answer's first sentence: a yes or no with its evidence, a figure, a list of
# names, the causes of a change, else text
AnswerForm = Literal["yes_no", "figure", "names", "cause", "text"]


class Statement(BaseModel):
    """The sentence a filing states an answer in ("completed the sale of"), for a question
    whose words match ``asked`` ("divestitures"): patterns, case-insensitive."""

    model_config = ConfigDict(extra="forbid")

    asked: str
    stated: str
    pending: bool = Field(default=False, description="what the sentence states stands at the "
                          "filing's date (a lawsuit pending), not an event of the year asked: "
                          "no year is required of it")
    none_stated: str | None = Field(default=None, description="the sentence that says no such "
                                    "event happened in the period ('There were no material "
                                    "acquisitions completed in 2020'): the answer when none is "
                                    "stated")
    none_asked: str | None = Field(default=None, description="of a pending matter, the yes or "
                                   "no that ``none_stated`` answers 'No' to ('Is X involved in "
                                   "any material litigation?'); another yes or no of a matter "
                                   "is left to the quotes")


class Unfound(BaseModel):
    """A disclosure a filing is required to make when it has something to disclose: a whole
    filing with no sentence of it says what a reader needs to know ("no customer of 10% or
    more"), so the answer abstains and says what it looked for instead of quoting another
    sentence. Patterns case-insensitive."""

    model_config = ConfigDict(extra="forbid")

    asked: str = Field(description="a pattern of the question that asks for this disclosure "
                       "('10%', 'major', 'reliant'), not any question naming the intent")
    stated: list[str] = Field(min_length=1, description="patterns of a sentence that states "
                              "something of it, beside the intent's affirms, denies and "
                              "none_other: the looser wordings a filing may use; any such "
                              "sentence and the part quotes, as before")
    forms: list[AnswerForm] = Field(default=["names", "yes_no"], min_length=1, description=(
        "the forms of the questions asked: 'which customers ...?', 'is it reliant on ...?'"))
    alongside: list[str] = Field(default_factory=list, description="the other intents a "
                                 "question may name and still ask for this disclosure alone "
                                 "('results' of 'in its earnings release'); any other and the "
                                 "part quotes")
    ignore: str | None = Field(default=None, description="a pattern of a sentence that names "
                               "its words and states none of it (the safe harbor's 'words "
                               "such as outlook'): it does not count")
    looked_for: str = Field(min_length=1, description="what the abstention says it looked for")
    source: str = Field(min_length=1, description="the rule that requires the disclosure, or "
                        "where a filing that makes it prints it")


class IntentEntry(BaseModel):
    """One intent: how questions ask about it, the sections that answer it (the first is where
    the filing is required to print it), the answer's form and the rule behind the section."""

    model_config = ConfigDict(extra="forbid")

    phrases: list[str] = Field(min_length=1)
    sections: list[str] = Field(min_length=1)
    answer: AnswerForm
    source: str = Field(min_length=1)
    affirms: list[str] = Field(default_factory=list, description="patterns of a sentence "
                               "that states yes (a yes/no answered from prose)")
    denies: list[str] = Field(default_factory=list, description="patterns of a sentence that "
                              "states no; it wins over an affirming pattern in one sentence")
    stated_near: str | None = Field(default=None, description="a pattern the sentence, or the "
                                    "text the page prints just before it, must hold")
    none_other: list[str] = Field(default_factory=list, description="patterns of a sentence "
                                  "that says no other than those stated qualifies ('no other "
                                  "customer accounted for 10% or more')")
    describes: list[str] = Field(default_factory=list, description="patterns (case-"
                                 "insensitive) of the sentence that says what the company is "
                                 "or does, where the section opens")
    describes_source: str | None = None
    names_industry: str | None = Field(default=None, description="a pattern (case-insensitive) "
                                       "of a sentence that names the industry the company is "
                                       "in, its group 'industry' (the sentence's subject) or "
                                       "'named' (what the company operates in) the name: read "
                                       "in Item 1, then Item 1A, when no sentence describes "
                                       "the company")
    names_industry_source: str | None = None
    asks_all: str | None = Field(default=None, description="a pattern (case-insensitive) of "
                                 "a question that asks for the whole section ('What are the "
                                 "main risks ...?'), not one matter it treats ('How does X "
                                 "describe the pandemic's impact in its risk factors?')")
    nothing_paid: bool = Field(default=False, description="a denying sentence that says no, "
                               "not or never answers a figure asked: the amount is none (no "
                               "dividend paid, no share bought back); see polarity_source")
    polarity_source: str | None = Field(default=None, description="why the patterns say yes "
                                        "or no")
    lexicon_only: bool = Field(default=False, description="only ``affirms`` and ``denies`` say "
                               "yes or no: a sentence that merely shares the question's words "
                               "(stated_events) states no such disclosure")
    other_party: str | None = Field(default=None, description="a pattern (case-insensitive) of "
                                    "a question that asks of another party than the intent's "
                                    "('depend on a single supplier' for customers): its "
                                    "``affirms`` and ``denies`` then say nothing")
    states: list[Statement] = Field(default_factory=list, description="for a names question, "
                                    "the sentence that states each answer, by what is asked")
    states_source: str | None = None
    unfound: Unfound | None = Field(default=None, description="a required disclosure whose "
                                    "absence from the whole filing the answer reports")
    never_a_metric: bool = Field(default=False, description="the filing answers it outside its "
                                 "statements (the cover page), so a line item the question "
                                 "names ('debt securities') asks for no computed figure")


class Verbs(BaseModel):
    """The lexicon's words a question asks as verbs: they match in every tense."""

    model_config = ConfigDict(extra="forbid")

    words: list[str] = Field(min_length=1)
    source: str


class IntentLexicon(BaseModel):
    """``intent_lexicon.json``: intent key -> entry."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    doc: list[str] = Field(alias="_doc", min_length=1)
    verbs: Verbs
    intents: dict[str, IntentEntry]

    @model_validator(mode="after")
    def _sections_exist(self) -> IntentLexicon:
        known = load_sections().keys()
        for key, entry in self.intents.items():
            if unknown := [s for s in entry.sections if s not in known]:
                raise ValueError(f"intent {key!r} points to unknown sections {unknown}")
        return self


@cache
def load_intents(path: Path = INTENTS_PATH) -> IntentLexicon:
    """The intent lexicon, validated (its sections are keys ``sections.json`` can give)."""
    return IntentLexicon.model_validate(json.loads(path.read_text(encoding="utf-8")))


VOWELS = frozenset("aeiou")


def word_forms(word: str, verb: bool = False) -> str:
    """A lexicon word as a question inflects it: a plural (:func:`plural_forms`), and a verb's
    -s, -ed and -ing too ("divest" asked as "divested", "acquire" as "acquiring", "rely" as
    "relied", "spin" as "spinning"). Hand-written: English inflection of a word the lexicon
    lists; a stemmer would also merge words the lexicon keeps apart."""
    if not verb or len(word) < 4 or not word.isalpha():
        return plural_forms(word)
    if word.endswith("e"):
        return re.escape(word[:-1]) + "(?:e|es|ed|ing)"
    if word.endswith("y") and word[-2] not in VOWELS:
        return re.escape(word[:-1]) + "(?:y|ies|ied|ying)"
    # one syllable closed by one consonant doubles it: "spinning", "stepped"
    doubled = (f"|{re.escape(word[-1])}(?:ed|ing)" if len(word) == 4 and word[-1] not in
               VOWELS | {"w", "x", "y"} and word[-2] in VOWELS and word[-3] not in VOWELS
               else "")
    return re.escape(word) + f"(?:s|es|ed|ing{doubled})?"


@cache
def _intent_patterns(path: Path = INTENTS_PATH) -> tuple[tuple[str, re.Pattern[str]], ...]:
    lexicon = load_intents(path)
    verbs = set(lexicon.verbs.words)

    def forms(word: str) -> str:
        return word_forms(word, word in verbs)

    return tuple(
        (key, re.compile("|".join(phrase_pattern(p, forms).pattern for p in entry.phrases)))
        for key, entry in lexicon.intents.items()
    )


@cache
def cause_openings(path: Path = INTENTS_PATH) -> str:
    """The drivers intent's phrases that open a clause asking a cause with "what" ("what
    drove", "what's driving", "what accounted for"), longest first, as one regular group for
    a reader of a question's raw text (an apostrophe either way, any spaces): the lexicon
    stays the one list of the words that ask what moved a thing. "Why" is its readers' own
    opening ("and why?" alone asks the cause of what the question asks first)."""
    phrases = [p for p in load_intents(path).intents["drivers"].phrases
               if re.match(r"what\b", p)]
    return "(?:" + "|".join(re.escape(p).replace(r"\ ", r"\s+").replace("'", "['’]")
                            for p in sorted(phrases, key=len, reverse=True)) + ")"


def intents_in(text: str, path: Path = INTENTS_PATH) -> list[str]:
    """Intent keys the text names, in the lexicon's order."""
    norm = normalize(text)
    return [key for key, pattern in _intent_patterns(path) if pattern.search(norm)]


def wholes_asked(text: str, intents: Iterable[str], path: Path = INTENTS_PATH) -> list[str]:
    """Of the intents named, those the text asks for as a whole section (their ``asks_all``:
    "What are the main risks ...?", not "How does X describe the pandemic in its risk
    factors?")."""
    lexicon = load_intents(path)
    return [key for key in intents if (pattern := lexicon.intents[key].asks_all)
            and re.search(pattern, text, re.IGNORECASE)]


def answering_first(intents: Iterable[str], expects: str, path: Path = INTENTS_PATH
                    ) -> list[str]:
    """The intents, those whose answer takes the form the question expects first: "What
    drove the change in its effective tax rate?" names taxes and drivers, and asks a cause,
    which MD&A is required to give (Item 303(b)), so MD&A is read before the tax note."""
    lexicon = load_intents(path)
    return sorted(intents, key=lambda key: lexicon.intents[key].answer != expects)


def items_asked(sentence: str, intents: Iterable[str], path: Path = INTENTS_PATH) -> bool:
    """Whether a "what" asks for the items of a names intent by its own phrase: "What legal
    proceedings does Netflix describe?" asks which proceedings (a list), as "Which legal
    proceedings ...?" does, where "What does Netflix say about its litigation?" asks text.
    ``sentence`` is the asking sentence, normalized (lower case)."""
    pattern = _items_pattern(tuple(intents), path)
    return pattern is not None and pattern.search(sentence) is not None


@cache
def _items_pattern(intents: tuple[str, ...], path: Path) -> re.Pattern[str] | None:
    """The pattern of a "what" that asks the intents' items by their phrases, once per set
    of intents; None unless every intent named answers with names ("What legal risks does X
    describe?" asks the risk factors' text too)."""
    lexicon = load_intents(path)
    if {lexicon.intents[key].answer for key in intents} != {"names"}:
        return None
    phrases = [p for key in intents for p in lexicon.intents[key].phrases]
    nouns = "|".join(re.escape(p) + "s?" for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"^(?:[^,?]{{1,40}},\s*)?what (?:(?!of\b)[a-z]+ ){{0,2}}(?:{nouns}) "
                      r"(?:did|does|do|has|have|had|is|are|was|were)\b")


def sections_for(intents: Iterable[str], path: Path = INTENTS_PATH) -> list[str]:
    """The sections that answer the intents, each once, in order."""
    lexicon = load_intents(path)
    return list(dict.fromkeys(s for key in intents for s in lexicon.intents[key].sections))


def answer_form_of(intents: Iterable[str], path: Path = INTENTS_PATH) -> AnswerForm | None:
    """The answer form of the first intent named, or None when none is named."""
    lexicon = load_intents(path)
    return next((lexicon.intents[key].answer for key in intents), None)
