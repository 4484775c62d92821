"""Query understanding: what a financial question asks for, and where in a 10-K that lives.

Analyst questions arrive wrapped in instructions ("Round your answer to two decimal places.
Approach the question asked by assuming the standpoint of an investment banking analyst who only
has access to the statement of income.") and name metrics no filing prints ("capex as a % of
revenue", "DPO"). Ranked as they are, the instructions pull in pages that talk about rounding
and analysts, and the metric's name matches no line of the statement that holds its inputs.

:func:`understand` keeps the whole question for answering, and derives from it:

- ``ranking_text``: the question without its instruction boilerplate (what to rank with). Whole
  instruction sentences, leading instruction clauses ("Basing your judgments off of the balance
  sheet, ...") and unit or rounding parentheses go; company names, years and metric names stay.
  A definition ("ROA is defined as: FY2017 net income / (average total assets ...)") keeps its
  words and loses its arithmetic;
- ``metrics``: the keys of :file:`finance_lexicon.json` the question names;
- ``statements``: the statements the question names ("using the cash flow statement", "P&L
  statement", even inside an instruction it drops), then those that hold its metrics' inputs;
- ``expansion``: the line items of its metrics as filings print them, for BM25;
- ``intents`` and ``sections``: what the question asks about (legal matters, segments, deals,
  outlook ...: the keys of :file:`intent_lexicon.json` it names) and the filing sections that
  answer it (:mod:`rag_assets.core.ingest.sections`), which ``routed`` prefers.

Plain Python and JSON data files: no model, deterministic.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rag_assets.core.ingest.routing import YEAR_RE, years_in
from rag_assets.core.ingest.sections import load_sections
from rag_assets.core.ingest.statements import STATEMENT_TITLES, StatementKind
from rag_assets.core.text.sentences import split_sentences

T = TypeVar("T")
LEXICON_PATH = Path(__file__).with_name("finance_lexicon.json")
INTENTS_PATH = Path(__file__).with_name("intent_lexicon.json")

# --- the lexicon ---------------------------------------------------------------------------------


class _DocumentedFile(BaseModel):
    """A JSON data file that carries its own documentation under ``_doc``."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    doc: list[str] = Field(alias="_doc", min_length=1)

    @classmethod
    def read(cls, path: Path) -> Self:
        return cls.model_validate(json.loads(path.read_text(encoding="utf-8")))


class MetricEntry(BaseModel):
    """One metric: how questions name it, where its inputs are, how filings print them."""

    model_config = ConfigDict(extra="forbid")

    aliases: list[str] = Field(min_length=1)
    statements: list[StatementKind] = Field(min_length=1)
    line_items: list[str] = Field(default_factory=list)
    inputs: list[str] = Field(default_factory=list)
    note: str | None = None


class Lexicon(_DocumentedFile):
    """``finance_lexicon.json``: metric key -> entry."""

    metrics: dict[str, MetricEntry]

    @model_validator(mode="after")
    def _inputs_are_metrics(self) -> Lexicon:
        for key, entry in self.metrics.items():
            unknown = [i for i in entry.inputs if i not in self.metrics]
            if unknown:
                raise ValueError(f"metric {key!r} has unknown inputs {unknown}")
            self._closure(key, ())  # raises on a cycle
        return self

    def _closure(self, key: str, path: tuple[str, ...]) -> list[str]:
        """The metric and, depth first, the metrics it is computed from (each once)."""
        if key in path:
            raise ValueError(f"metric inputs form a cycle: {' -> '.join((*path, key))}")
        out = [key]
        for sub in self.metrics[key].inputs:
            out += [k for k in self._closure(sub, (*path, key)) if k not in out]
        return out

    def statements_of(self, key: str) -> list[StatementKind]:
        """Where the metric's inputs live: its own statements, then its inputs'."""
        return _unique(s for k in self._closure(key, ()) for s in self.metrics[k].statements)

    def line_items_of(self, key: str) -> list[str]:
        """The metric's line items, then its inputs' (what BM25 should find)."""
        return _unique(i for k in self._closure(key, ()) for i in self.metrics[k].line_items)


@cache
def load_lexicon(path: Path = LEXICON_PATH) -> Lexicon:
    """The lexicon, validated (its statement names are :data:`StatementKind` values)."""
    return Lexicon.read(path)


class IntentEntry(BaseModel):
    """One intent: how questions ask about it, the sections that answer it."""

    model_config = ConfigDict(extra="forbid")

    phrases: list[str] = Field(min_length=1)
    sections: list[str] = Field(min_length=1)


class IntentLexicon(_DocumentedFile):
    """``intent_lexicon.json``: intent key -> entry."""

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
    return IntentLexicon.read(path)


@cache
def _intent_patterns(path: Path = INTENTS_PATH) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple(
        (key, re.compile("|".join(_phrase_pattern(p) for p in entry.phrases)))
        for key, entry in load_intents(path).intents.items()
    )


def intents_in(text: str, path: Path = INTENTS_PATH) -> list[str]:
    """Intent keys the text names, in the lexicon's order."""
    norm = normalize(text)
    return [key for key, pattern in _intent_patterns(path) if pattern.search(norm)]


def sections_for(intents: Iterable[str], path: Path = INTENTS_PATH) -> list[str]:
    """The sections that answer the intents, each once, in order."""
    lexicon = load_intents(path)
    return _unique(s for key in intents for s in lexicon.intents[key].sections)


# --- matching ------------------------------------------------------------------------------------


def normalize(text: str) -> str:
    """Lower case, straight quotes, '%' and 'percentage' as 'percent', hyphens as spaces, one
    space: the form aliases and statement names are matched in."""
    text = text.lower().replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = re.sub(r"\s*%", " percent", text)
    text = re.sub(r"\bpercentage\b", "percent", text)
    text = re.sub(r"(?<=\w)-(?=\w)", " ", text)
    return " ".join(text.split())


def _phrase_pattern(phrase: str) -> str:
    """Whole words, any spacing; a word of three letters or more may take a plural ending
    ("capital expenditures as a percent of revenues")."""
    words = [
        re.escape(w) + (r"(?:s|es)?" if len(w) >= 3 and w[-1].isalpha() else "")
        for w in normalize(phrase).split()
    ]
    body = r"\s+".join(words)
    return rf"(?<![\w&]){body}(?![\w&])"


@cache
def _alias_patterns(path: Path = LEXICON_PATH) -> tuple[tuple[str, re.Pattern[str]], ...]:
    lexicon = load_lexicon(path)
    return tuple(
        (key, re.compile(_phrase_pattern(alias)))
        for key, entry in lexicon.metrics.items()
        for alias in entry.aliases
    )


def metrics_in(text: str, path: Path = LEXICON_PATH) -> list[str]:
    """Metric keys named in the text, in order of mention, each once. Where aliases overlap the
    longest wins ("capex as a % of revenue" is one metric, not capex and revenue)."""
    norm = normalize(text)
    found = [
        (m.start(), m.end(), key)
        for key, pattern in _alias_patterns(path)
        for m in pattern.finditer(norm)
    ]
    taken: list[tuple[int, int, str]] = []
    for start, end, key in sorted(found, key=lambda f: (f[0] - f[1], f[0])):
        if all(end <= s or start >= e for s, e, _ in taken):
            taken.append((start, end, key))
    return _unique(key for _, _, key in sorted(taken))


_STATE = r"(?:consolidated\s+)?"
_STATEMENT_NAME_SOURCES: tuple[tuple[StatementKind, str], ...] = (
    ("comprehensive_income", rf"\bstatements?\s+of\s+{_STATE}comprehensive\s+(?:income|loss)"),
    ("income_statement", rf"\bincome\s+statements?\b|\bstatements?\s+of\s+{_STATE}"
                         r"(?:income|operations|earnings)\b|(?<![\w&])p&l\b"
                         r"|\bprofit\s+and\s+loss\b"),
    ("balance_sheet", rf"\bbalance\s+sheets?\b|\bstatements?\s+of\s+{_STATE}financial\s+"
                      r"(?:position|condition)\b"),
    ("cash_flow", rf"\bcash\s+flows?\s+statements?\b|\bstatements?\s+of\s+{_STATE}cash\s+"
                  r"flows?\b"),
    ("equity", rf"\bstatements?\s+of\s+{_STATE}(?:changes\s+in\s+)?(?:(?:share|stock)"
               r"(?:holder|owner)s?'?\s+)?equity\b|\bequity\s+statements?\b"),
    ("segment_note", r"\bsegment\s+(?:note|information|data|results|reporting|disclosures?)\b"
                     r"|\b(?:by|each|which|per)\s+(?:business\s+|operating\s+|reportable\s+)?"
                     r"segments?\b|\b(?:business|operating|reportable)\s+segments?\b"),
    ("mdna", r"(?<![\w&])md&a\b|\bmanagement'?s?\s+discussion\s+and\s+analysis\b"),
)
STATEMENT_NAME_PATTERNS: tuple[tuple[StatementKind, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern)) for kind, pattern in _STATEMENT_NAME_SOURCES
)


def statements_named(text: str) -> list[StatementKind]:
    """Statements the text names ("using the cash flow statement", "statement of income", "P&L
    statement", "statement of financial position"), in order of first mention."""
    norm = normalize(text)
    found = [
        (m.start(), kind)
        for kind, pattern in STATEMENT_NAME_PATTERNS
        if (m := pattern.search(norm))
    ]
    return [kind for _, kind in sorted(found)]


# --- instruction boilerplate ---------------------------------------------------------------------

# Markers of a sentence (or leading clause) that tells how to answer, not what is asked. Written
# for the kinds of instruction analysts add, not for particular strings.
INSTRUCTION_MARKERS = re.compile(
    "|".join((
        r"\b(?:the|your|this)\s+(?:following\s+)?(?:question|answer|response)s?\b",
        r"\bjudge?ments?\b",
        r"\b(?:assum\w*|tak\w*|adopt\w*)\s+(?:the\s+)?(?:standpoint|perspective|viewpoint|role|"
        r"shoes)\s+of\b",
        r"\bbest\s+of\s+your\s+abilit",
        r"\bround(?:ed|ing)?\s+(?:your\s+|the\s+|all\s+)?(?:answers?\s+|results?\s+|figures?\s+)?"
        r"to\b",
        r"\b(?:answer|respond|reply)\s+in\s+(?:units|usd|us\$|\$|percent|millions|billions)",
        r"\bin\s+units\s+of\b",
        r"\breasonable\s+approximation\b",
        r"\bwe\s+need\s+to\s+(?:calculate|compute|find|determine|estimate)\b",
        r"\bnot\s+(?:a\s+)?(?:useful|relevant|meaningful|applicable)\b",
        r"\b(?:calculate|compute)\s+\(?or\s+extract\b",
        r"\bonly\s+(?:has|have)\s+access\s+to\b|\bcan\s+only\s+use\b",
        r"\b(?:utilize|use|rely\s+on|relying\s+on)\s+(?:the\s+)?(?:information|details|data)\b",
        r"\bshow\s+your\s+work\b|\bexplain\s+your\s+(?:answer|reasoning)\b",
    )),
    re.IGNORECASE,
)
# a leading clause that only names the source: "Using the cash flow statement, ..."
SOURCE_CLAUSE_RE = re.compile(
    r"^(?:using|based\s+on|basing\s+\w+|according\s+to|from|per|relying\s+on|drawing\s+on|"
    r"by\s+drawing|with\s+reference\s+to|referring\s+to|looking\s+at)\b",
    re.IGNORECASE,
)
# "(in USD billions)", "(in units of percents and round to one decimal place)"
INSTRUCTION_PAREN_RE = re.compile(
    r"\s*\((?=[^()]*\b(?:round|units?\s+of|answer|usd|us\$|in\s+(?:millions|billions|thousands))"
    r"\b)[^()]*\)",
    re.IGNORECASE,
)
UNIT_PHRASE_RE = re.compile(
    r"\s+in\s+(?:usd|us\$|\$)\s*(?:millions|billions|thousands)\b", re.IGNORECASE
)
DEFINITION_RE = re.compile(
    r"\s*(?:here\s+)?(?:is|are)\s+(?:defined|calculated|computed)\s+as\s*:?\s*|^\s*define\s+",
    re.IGNORECASE,
)
ARITHMETIC_RE = re.compile(
    r"[()/+*=÷×:]|\s[-–—]\s|\b(?:divided\s+by|multiplied\s+by|less|minus|plus|times|between)\b",
    re.IGNORECASE,
)
OPERATOR_TOKEN_RE = re.compile(r"(?<=\s)[+/*=÷×](?=\s)")


def _is_instruction(text: str, named: bool) -> bool:
    return bool(INSTRUCTION_MARKERS.search(text)) or (named and bool(SOURCE_CLAUSE_RE.match(text)))


def _strip_leading_clauses(sentence: str) -> str:
    """Drop leading clauses that instruct ("Basing your judgments off of the balance sheet,",
    "Using the cash flow statement, answer the following question ...:")."""
    while True:
        match = re.match(r"^(?P<clause>[^,:?]{3,}?)[,:]\s+(?P<rest>\S.*)$", sentence)
        if not match:
            return sentence
        clause = match.group("clause")
        if not _is_instruction(clause, bool(statements_named(clause))):
            return sentence
        sentence = match.group("rest")


def _definition(sentence: str) -> str:
    """A definition keeps its words (metric, line items, years) and loses its arithmetic."""
    match = DEFINITION_RE.search(sentence)
    if match and match.start() == 0:  # "Define X as Y" -> "X Y"
        sentence = re.sub(r"\s+as\s+", " ", sentence[match.end():], count=1)
    else:
        sentence = DEFINITION_RE.sub(" ", sentence)
    return " ".join(ARITHMETIC_RE.sub(" ", sentence).split())


def strip_instructions(question: str) -> str:
    """The question without instruction boilerplate, definitions without arithmetic.

    A year named only in a dropped instruction ("Using the FY2020 cash flow statement, ...") is
    kept, appended at the end: the substance never goes.
    """
    text = INSTRUCTION_PAREN_RE.sub("", " ".join(question.split()))
    kept: list[str] = []
    dropped: list[str] = []
    for sentence in split_sentences(text):
        if DEFINITION_RE.search(sentence):
            kept.append(_definition(sentence))
            continue
        is_question = sentence.rstrip().endswith("?")
        if not is_question and _is_instruction(sentence, bool(statements_named(sentence))):
            dropped.append(sentence)
            continue
        stripped = _strip_leading_clauses(sentence)
        if stripped != sentence:
            dropped.append(sentence[: len(sentence) - len(stripped)])
            sentence = stripped[:1].upper() + stripped[1:]
        kept.append(UNIT_PHRASE_RE.sub("", sentence))
    if not kept:  # all of it reads as instructions ("Explain the role of ..."): keep it all
        kept, dropped = [text], []
    out = " ".join(OPERATOR_TOKEN_RE.sub("", " ".join(kept)).split())
    out = re.sub(r"\s+(?=[.,;?!])", "", out)
    years = set(years_in(out))
    for lost in (m.group(0) for d in dropped for m in YEAR_RE.finditer(d)):
        year = years_in(lost)
        if year and year[0] not in years:
            out += f" {lost}"
            years.add(year[0])
    return out.strip()


# --- the plan ------------------------------------------------------------------------------------


class QueryPlan(BaseModel):
    """What a question asks for and where a 10-K holds it."""

    question: str  # the full text, instructions included: the answer must follow them
    ranking_text: str  # the question without its instructions: what to rank with
    years: list[int]
    metrics: list[str]  # lexicon keys, in order of mention
    statements: list[StatementKind]  # named in the question first, then the metrics'
    named_statements: list[StatementKind]  # those the question names itself
    expansion: list[str]  # titles of the named statements, line items of the metrics, for BM25
    intents: list[str] = Field(default_factory=list)  # intent_lexicon.json keys it names
    sections: list[str] = Field(default_factory=list)  # the sections that answer them

    @property
    def bm25_text(self) -> str:
        """The ranking text and the expansion terms it does not already hold."""
        present = normalize(self.ranking_text)
        extra = [term for term in self.expansion if normalize(term) not in present]
        return " ".join([self.ranking_text, *extra])


def understand(question: str, lexicon_path: Path = LEXICON_PATH) -> QueryPlan:
    """The :class:`QueryPlan` of a question (see the module docstring)."""
    lexicon = load_lexicon(lexicon_path)
    ranking = strip_instructions(question)
    metrics = metrics_in(ranking, lexicon_path)
    named = statements_named(question)
    statements = _unique([*named, *(s for m in metrics for s in lexicon.statements_of(m))])
    # a statement named in an instruction ("... only has access to the statement of income")
    # leaves the ranking text with the instruction: its printed title searches for it
    expansion = _unique([*(STATEMENT_TITLES[s] for s in named),
                         *(item for m in metrics for item in lexicon.line_items_of(m))])
    intents = intents_in(ranking)
    return QueryPlan(
        question=question,
        ranking_text=ranking,
        years=years_in(question),
        metrics=metrics,
        statements=statements,
        named_statements=named,
        expansion=expansion,
        intents=intents,
        sections=sections_for(intents),
    )


def _unique(values: Iterable[T]) -> list[T]:
    out: list[T] = []
    for value in values:
        if value not in out:
            out.append(value)
    return out
