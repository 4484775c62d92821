"""The offline answer engine: it picks the evidence sentences that answer a question and quotes
them, each with its page citation. Deterministic, no model call, and it cannot write a figure its
cited page does not print, because every word of a claim is a quoted unit.

A unit's relevance to the question (:func:`score_units`) blends four signals, each on 0..1:

- ``dense``: cosine of the question and the unit (MiniLM, the retrieval model);
- ``bm25``: BM25 of the question's words over the candidate units, relative to the best;
- ``coverage``: the idf-weighted share of the question's content words printed in the unit or
  in what it is about (its chunk header, table title and column headings);
- ``matches``: the question's figures, years, metric line items and Article/Note references
  found in the unit.

Whether the evidence answers at all (:func:`evidence_strength`) uses only absolute signals
(``dense`` and ``coverage`` of one of the best units, and the years asked being printed there): the
relative ones are 1.0 for the best unit of any candidate set, relevant or not. Below
``abstain_below`` the engine says it cannot answer and what it looked for.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Annotated

import numpy as np
from pydantic import BaseModel, Field

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.places import places_printed
from rag_assets.core.question.question import Question
from rag_assets.core.question.vocabulary import qualifier_pattern, spelled_words, terms_in
from rag_assets.core.retrieval.references import STOP_WORDS, find_references
from rag_assets.core.text.figures import (
    AMOUNT,
    AMOUNT_STATED_RE,
    DECIMALS,
    INTEGER,
    MARKER_TOKEN_RE,
    NIL_TOKENS,
    SCALE_WORDS,
    SIGN_TOKEN_RE,
    is_figure,
)
from rag_assets.core.text.periods import (
    MONTHS_PER_YEAR,
    PERIOD_ROOTS,
    calendar_dates,
    horizons,
    is_period_word,
    listed_months,
    months_asked,
    opens_with_prior_period,
    quarters_named,
    results_compared,
)
from rag_assets.core.text.years import (
    WHOLE_YEAR_RE,
    YEARLIKE_RE,
    names_other_years,
    only_base_years,
)

_WORD_RE = re.compile(r"[a-z][a-z0-9'-]*|\d[\d,.]*")
_AMOUNT_RE = re.compile(rf"(?:{INTEGER})(?:{DECIMALS})?%?")
LONG_UNIT_WORDS = 60
ANSWER_TYPES_PATH = Path(__file__).with_name("answer_types.json")
QUESTION_WORDS = frozenset({
    "much", "many", "did", "does", "company", "companies", "total", "amount", "year", "fiscal",
    "compare", "compared", "change", "changed", "reported", "report", "reports", "value",
    "figure", "figures", "using", "based", "provide", "provided", "give", "show", "state",
})


# a share or a score on 0..1
Share = Annotated[float, Field(ge=0.0, le=1.0)]

class ExtractiveConfig(BaseModel):
    """The engine's weights and thresholds (calibrated on the golden sets: bench/README.md)."""

    w_dense: float = 0.40
    w_bm25: float = 0.20
    w_coverage: float = 0.25
    w_matches: float = 0.15
    answer_type_factor: Share = Field(
        default=0.6,
        description="score share kept by a unit without the kind of answer asked (a count for "
        "'how many', a name for 'which'/'who'): chosen on prose-dev (0.4 and 0.6 10/24, 0.8 and "
        "1.0 9/24; the milder of the best), bench/README.md")
    max_claims: int = Field(default=3, ge=1, description="quotes an answer gives at most")
    keep_within: Share = Field(
        default=0.80, description="a further claim must score at least this share of the best one")
    abstain_below: Share = Field(
        default=0.25,
        description="evidence strength under which the engine abstains (a floor: on the golden "
        "sets a higher cut refuses answerable questions before unanswerable ones; the anchors "
        "a question names are what tells them apart, bench/README.md)")


class ScoredUnit(BaseModel):
    unit: EvidenceUnit
    score: float
    dense: float
    bm25: float
    coverage: float
    matches: float


def words(text: str) -> list[str]:
    """Content words, lower-cased, crude-stemmed (plural s), no stop words."""
    out = []
    for word in _WORD_RE.findall(text.lower()):
        word = word.strip(".,'-")
        if not word or word in STOP_WORDS or word in QUESTION_WORDS or len(word) < 2:
            continue
        if word.isalpha() and len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


def roots(text: str, letters: int = 5) -> set[str]:
    """Content words cut to ``letters`` letters: "acquired" and "acquisitions" share "acqui",
    "repurchases" and "repurchased" share "repur"."""
    return {w[:letters] for w in words(text) if len(w) >= letters and w.isalpha()}


def asked_roots(plan: Question) -> set[str]:
    """The roots of what a question asks of: its words beside its company's, its period's, the
    asking words (:data:`QUESTION_WORDS`) and the words of a change (:data:`CHANGE_ROOTS`):
    "total backlog" of "What was Lockheed Martin's total backlog at June 25, 2023?" is
    "backl"."""
    return (roots(plan.ranking_text) - roots(" ".join(plan.companies)) - PERIOD_ROOTS
            - CHANGE_ROOTS)


def names_asked(plan: Question, text: str) -> bool:
    """Whether a text names what a question asks of: half the roots of :func:`asked_roots`, two
    of a long question's (its conditions, "excluding changes in working capital", are no
    measure a sentence need print), or a line item of a metric it names in the filer's words
    ("net sales" for revenue: ``Question.expansion``), or the question names nothing beside
    its company and period."""
    asked = asked_roots(plan)
    return (not asked or len(roots(text) & asked) >= min(2, math.ceil(len(asked) / 2))
            or any(names_measure(term, text) for term in plan.expansion))


def names_short_name(plan: Question, text: str) -> bool:
    """Whether a text prints a short name the question defines ("(CMD)":
    ``Question.short_names``): the name the sentence giving the thing's size prints ("During
    2018, Corning acquired substantially all of CMD for $841 million")."""
    return any(re.search(rf"\b{re.escape(n)}\b", text) for n in plan.short_names)


# a unit that is a table's lines run together ("Aeronautics $ 58,100 $ 56,630 Missiles and Fire
# Control 34,018 28,735 ..."): many figures, standing side by side in runs, row after row
RUN_ON_FIGURES = 10
RUN_ON_STRETCHES = 4


def _figure_word(token: str) -> bool:
    """A figure a table prints, never a year or a date's day ("31,"): those head columns."""
    return (is_figure(token) or token in NIL_TOKENS) and not WHOLE_YEAR_RE.match(
        token.strip("(),.:;")) and not (token.endswith(",") and len(token) <= 3)


def runs_figures_on(text: str) -> bool:
    """Whether a sentence is a table's rows run together (a page whose table the chunker read
    as lines of text): at least :data:`RUN_ON_FIGURES` figures, in :data:`RUN_ON_STRETCHES`
    runs of two or more side by side (a row's columns); a sentence that lists counts, "564 in
    the United States, 107 in Canada", puts words between its figures."""
    figures, stretches = figure_stretches(text)
    return figures >= RUN_ON_FIGURES and stretches >= RUN_ON_STRETCHES


def figure_stretches(text: str) -> tuple[int, int]:
    """How many figures a text prints (a table's, never a year or a date's day) and how many
    runs of two or more of them stand side by side, as a table's columns do."""
    tokens = [t for t in text.split() if not SIGN_TOKEN_RE.match(t)]
    figures_at = [_figure_word(t) for t in tokens]
    stretches = sum(1 for i in range(1, len(tokens))
                    if figures_at[i] and figures_at[i - 1] and (i < 2 or not figures_at[i - 2]))
    return sum(figures_at), stretches


def _reads_as_a_row(row_text: str) -> bool:
    """Whether a page's row is read as one: each figure after its label under a heading of its
    own, no figure in the label but a year or a marker ("(1)", "Tier 1"): a label holding
    figures is the page's table misread ("Cash dividends declared per share 0.90 0.90: ...",
    JPMorgan's highlights, five columns read under a header of three), as is a value with no
    heading; a row of headings alone ("1Q21; 4Q20") prints no figure."""
    label, _, values = row_text.partition(": ")
    if any(_figure_word(t) and not MARKER_TOKEN_RE.match(t) for t in label.split()):
        return False
    cells = [cell.rpartition(": ") for cell in values.split("; ")]
    return bool(cells) and all(heading.strip() and any(_figure_word(t) for t in value.split())
                               for heading, _, value in cells)


def _of_the_run(row: EvidenceUnit, run: str, plan: Question) -> bool:
    """Whether a page's row is one of the run's own (every figure it prints the run prints) and
    of the dates asked: the dates printed last before its label in the run head its columns
    (one a column), and each date asked must be the one of its year there ("at June 26, 2022"
    of a table headed June 25, 2023 and Dec. 31, 2022 keeps the run as printed, whose headings
    the row, read under its years, would lose)."""
    label, _, values = row.text.partition(": ")
    printed = {t.strip(";") for t in run.split()}
    figures_in_row = [t.strip(";") for t in values.split() if _figure_word(t.strip(";"))]
    if not figures_in_row or not set(figures_in_row) <= printed:
        return False
    asked = calendar_dates(" ".join(plan.dates))
    if not asked:
        return True
    at = run.find(label)
    columns = len(values.split("; "))
    heads = calendar_dates(run[:at])[-columns:] if at > 0 else []
    by_year = {year: (year, month, day) for year, month, day in heads}
    return all(by_year.get(date[0]) == date for date in asked)


def names_a_period_only(label: str) -> bool:
    """Whether a row's label is a period's words alone ("Third quarter", "Fiscal 2022"): a
    row of the periods themselves (the weeks in each quarter), never of a measure."""
    found = words(label)
    return bool(found) and all(is_period_word(w) for w in found)


def names_measure(measure: str, text: str) -> bool:
    """Whether a text names a measure: every content word of it, short ones too, by its first
    five letters ("a special cash dividend" names "special dividend"; "the quarterly dividend"
    names no "one time dividend", "net sales" no "comp sales"; "net sales increased ... due to
    comparable sales" names comparable sales, though not as its subject: the caller asks of
    the subject)."""
    asked = _prefixes(measure)
    return bool(asked) and asked <= _prefixes(text)


def _prefixes(text: str) -> set[str]:
    return {w[:5] for w in words(text) if w.isalpha()}


def figures(text: str) -> set[str]:
    """Figures as printed, without thousands separators: "32,765" and "32765" are one."""
    return {f.replace(",", "").rstrip(".") for f in _AMOUNT_RE.findall(text)
            if not YEARLIKE_RE.fullmatch(f)}


def _bm25(query: list[str], docs: list[list[str]], k1: float = 1.2, b: float = 0.75) -> list[float]:
    n = len(docs)
    if not n or not query:
        return [0.0] * n
    avg = sum(len(d) for d in docs) / n or 1.0
    df = Counter(t for d in docs for t in set(d))
    out = []
    for doc in docs:
        counts = Counter(doc)
        score = 0.0
        for term in set(query):
            if term in counts:
                idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
                tf = counts[term]
                score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(doc) / avg))
        out.append(score)
    return out


def _coverage(query: list[str], doc: set[str], idf: dict[str, float]) -> float:
    terms = set(query)
    if not terms:
        return 0.0
    total = sum(idf.get(t, 1.0) for t in terms)
    return sum(idf.get(t, 1.0) for t in terms if t in doc) / total


def _matches(plan: Question, unit: EvidenceUnit, asked_refs: set[str]) -> float:
    """Share of the question's specific asks that the unit prints: its figures, its years (in
    the unit's own words or column headings, not the chunk header every unit of the report
    shares), the span ahead it asks ("the next five years"), its metric's line items, a
    figure at all when it names a metric, its Article and Note references, a qualified measure
    stated (:func:`qualified_at`), the kind of answer asked (:func:`answer_type_held`)."""
    text = unit.text
    lower = f"{unit.scope} {text}".lower()
    asks, found = 0, 0.0
    asked_figures = figures(plan.text)
    if asked_figures:
        asks += 1
        found += bool(asked_figures & figures(text))
    if plan.years:
        asks += 1
        found += any(str(y) in text for y in plan.years)
    if plan.horizons:  # "for the next five years": the plan stated over that span
        asks += 1
        found += bool(set(plan.horizons) & set(horizons(text)))
    if plan.metrics:
        asks += 2
        found += any(term.lower() in lower for term in plan.expansion)
        found += bool(figures(text))
    if asked_refs:
        asks += 1
        found += bool(asked_refs & {r.key for r in find_references(f"{unit.scope} {text}")})
    if plan.qualified:  # "comparable sales growth": the sentence that states it, not a cause
        asks += 1  # opening with it, or half as much after another amount (a headline's run)
        at = qualified_at(plan, text)
        found += 0.0 if at is None else 1.0 if at == 0 else 0.5
    if (_count_asked(plan) or plan.opens_with_name
            or plan.expects == "cause" or (plan.expects in ("text", "figure")
                                            and plan.manner)
            or plan.asks_of):
        asks += 1
        found += answer_type_held(plan, text)
    return found / asks if asks else 0.0


@cache
def _form_text() -> tuple[tuple[re.Pattern[str], ...], re.Pattern[str]]:
    """The patterns of a form's own text and of a question that asks of it
    (``answer_types.json``'s ``form_text``)."""
    entry = json.loads(ANSWER_TYPES_PATH.read_text("utf-8"))["form_text"]
    return tuple(re.compile(p) for p in entry["patterns"]), re.compile(entry["asked"])


def form_text(plan: Question, lower: str) -> bool:
    """Whether ``lower`` is text every filing of its form prints (a certification, the cover's
    check boxes) and the question does not ask of it."""
    patterns, asked = _form_text()
    return any(p.search(lower) for p in patterns) and not asked.search(plan.text.lower())


# what could be done is no event that was: "we may issue ... commercial paper", "plans to issue"
MODAL_BEFORE_RE = re.compile(r"\b(?:may|might|could|would|will|shall|can|to)(?:\s+\w+)?\s*$",
                             re.IGNORECASE)


def answer_type_held(plan: Question, text: str) -> bool:
    """Whether ``text`` prints the kind of answer the question asks for, where it asks for one:
    a count of what "how many" names, a name a "which" or "who" question asks to be told, a
    cause "what drove" or "why" asks for (``Question.expects``). A sentence that only shares
    the question's words ("Corning employees all contribute ...", "No other customer accounted
    for 10 percent", "Merchandise inventories ... totaled $1.6 billion") does not answer "How
    many employees", "Which customer" or "What drove the increase in inventories" (the
    expected-answer-type rule of question answering); nor does the text every filing of its
    form prints (:func:`form_text`)."""
    question = plan.text
    counted = _count_asked(plan)
    if counted and not counts_asked(question, counted, text):
        return False
    lower = text.lower()
    if form_text(plan, lower):
        return False  # "I have reviewed this Quarterly Report ...": every filing prints it
    if plan.expects == "cause" and not any(p.search(lower) for p in (
            *answer_patterns("cause"), *answer_qualifiers("cause", "reasons"))):
        return False  # a cause asked ("What drove ...?"), no causal connective nor reason
    manner = plan.manner if plan.expects in ("text", "figure") else None
    if manner and not any(not MODAL_BEFORE_RE.search(lower[:m.start()])
                          for m in re.finditer(rf"\b{re.escape(manner)}", lower)):
        return False  # "How was it funded?": a sentence that says how it was, not may be
    if plan.asks_of and plan.asks_of[:5] not in roots(text):
        return False  # "What one-time charge weighed on ...?": a sentence that names a charge
    return not (plan.opens_with_name and not new_names(question, text))


def _count_asked(plan: Question) -> str | None:
    """What a question that asks a count's figure counts (``Question.counts`` when it asks a
    figure: "Did the number of stores increase?" asks a yes or no, and its answer may state a
    change, "opened 50 net new stores", or a percentage)."""
    return plan.counts if plan.expects == "figure" else None


@cache
def answer_patterns(kind: str) -> tuple[re.Pattern[str], ...]:
    """What a sentence that gives one worded answer type prints (``answer_types.json``'s
    ``answer`` of ``kind``: a cause's connectives, "primarily due to", "driven by" ...)."""
    return tuple(re.compile(p) for p in _answer_types()[kind]["answer"])


@cache
def answer_qualifiers(kind: str, key: str = "qualifiers") -> tuple[re.Pattern[str], ...]:
    """The words that make a sentence's measure another one than the question's
    (``answer_types.json``'s ``qualifiers`` of ``kind``, "segment", with the vocabulary's
    qualifiers, "adjusted", "comparable" ...; its ``others``: a measure that is never the one
    asked unless named, "ratio")."""
    own = tuple(re.compile(p) for p in _answer_types()[kind].get(key, []))
    return (qualifier_pattern(), *own) if key == "qualifiers" else own


@cache
def _answer_types() -> dict[str, dict[str, list[str]]]:
    types: dict[str, dict[str, list[str]]] = json.loads(
        ANSWER_TYPES_PATH.read_text(encoding="utf-8"))["types"]
    return types


@cache
def counted_pattern(noun: str) -> re.Pattern[str]:
    """A count printed before ``noun`` or a word the filer may count it under
    (``answer_types.json``'s ``counted``: "853 warehouses" answers "How many stores"), in the
    question's number ("15 Employee Resource Groups" counts groups, not employees), or after
    "the number of" it ("The number of shares ... outstanding ... was 2,690,000,000")."""
    one = _singular(noun)
    words = next((e["words"] for e in _counted() if one in e["words"]), [one])
    forms = {noun, *(w if one == noun else _plural(w) for w in words)}
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    # "858 warehouses", or "the number of shares ... outstanding ... was 2,690,000,000"
    return re.compile(rf"\d[\d,.]*\s+(?:[\w-]+\s+){{0,3}}(?:{alternatives})\b|"
                      rf"\bnumber of (?:[\w-]+\s+){{0,3}}?(?:{alternatives})\b[^.;]{{0,80}}?"
                      r"\b(?:was|were|is|are|totaled|totalled|of)\s+(?:approximately\s+|"
                      r"about\s+)?\d")


@cache
def count_change_re() -> re.Pattern[str]:
    """The words of a count's change in the period (``answer_types.json``'s
    ``count_changes``: "opened", "net new")."""
    pattern = json.loads(ANSWER_TYPES_PATH.read_text("utf-8"))["count_changes"]["pattern"]
    return re.compile(pattern, re.IGNORECASE)


def counts_asked(question: str, noun: str, text: str) -> bool:
    """Whether ``text`` prints a number of ``noun`` as the question counts it: how many there
    are, unless it asks how many were opened, closed or added ("41 net new stores" answers
    "How many stores did X open?", not "How many stores did X operate?")."""
    lower = text.lower()
    changes = count_change_re()
    asks_change = changes.search(question) is not None
    return any(asks_change or not changes.search(lower[max(0, m.start() - 12):m.end()])
               for m in counted_pattern(noun).finditer(lower))


def _singular(noun: str) -> str:
    if noun == "people":
        return "person"
    for plural, one in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("sses", "ss"), ("s", "")):
        if noun.endswith(plural) and not noun.endswith("ss"):
            return noun[: -len(plural)] + one
    return noun


def _plural(word: str) -> str:
    if word in ("person", "people"):
        return "people"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("ch", "sh", "s", "x")) else "s")


@cache
def _counted() -> list[dict[str, list[str]]]:
    entries: list[dict[str, list[str]]] = json.loads(
        ANSWER_TYPES_PATH.read_text(encoding="utf-8"))["counted"]
    return entries


def new_names(question: str, text: str) -> list[str]:
    """Capitalized words of ``text`` past a sentence's start that the question does not print
    and that name something particular (not :data:`GENERIC_CAPITALS`): what a "Which
    customer ...?" or "Who ...?" question asks to be told ("Walmart", "Apple, Google")."""
    asked = {w.lower() for w in re.findall(r"[A-Za-z][\w&-]*", question)}
    starts = {m.start(1) for m in _SENTENCE_START_RE.finditer(text)}
    return [m.group(0) for m in _CAPITAL_RE.finditer(text)
            if m.start() not in starts and m.group(0).lower() not in asked
            and m.group(0).lower() not in GENERIC_CAPITALS]


def length_factor(unit: EvidenceUnit, comfortable_words: int = LONG_UNIT_WORDS) -> float:
    """1.0 up to ``comfortable_words``, then shrinking: a flattened table or a run-on list read as
    one sentence covers every word of a question without answering it."""
    n = len(unit.text.split())
    return 1.0 if n <= comfortable_words else (comfortable_words / n) ** 0.5


def score_units(plan: Question, units: Sequence[EvidenceUnit], question_vector: np.ndarray,
                unit_vectors: np.ndarray, config: ExtractiveConfig) -> list[ScoredUnit]:
    """Units by relevance to the question, best first."""
    if not units:
        return []
    query = words(plan.ranking_text)
    docs = [words(f"{u.text} {u.scope}") for u in units]
    bm25 = _bm25(query, docs)
    top = max(bm25) or 1.0
    n = len(docs)
    df = Counter(t for d in docs for t in set(d))
    idf = {t: math.log(1 + n / (1 + df[t])) + 0.5 for t in set(query)}
    dense = unit_vectors @ question_vector if len(unit_vectors) else np.zeros(n)
    refs = {r.key for r in find_references(plan.text)}
    scored = []
    for unit, doc, b, d in zip(units, docs, bm25, dense, strict=True):
        coverage = _coverage(query, set(doc), idf)
        matches = _matches(plan, unit, refs)
        score = length_factor(unit) * (
            config.w_dense * max(0.0, float(d)) + config.w_bm25 * b / top
            + config.w_coverage * coverage + config.w_matches * matches)
        if not answer_type_held(plan, unit.text):
            score *= config.answer_type_factor
        # a unit from a better-ranked chunk wins a tie
        score -= 0.001 * unit.chunk_rank
        scored.append(ScoredUnit(unit=unit, score=round(score, 6), dense=round(float(d), 6),
                                 bm25=round(b / top, 6), coverage=round(coverage, 6),
                                 matches=round(matches, 6)))
    scored.sort(key=lambda s: -s.score)
    return scored


# capitalized words that name no particular thing a report must print
GENERIC_CAPITALS = frozenset({
    "what", "which", "how", "who", "when", "where", "why", "does", "did", "is", "are", "was",
    "were", "can", "under", "according", "compare", "describe", "summarise", "summarize",
    "article", "articles", "note", "notes", "item", "items", "section", "fiscal", "fy", "q1",
    "q2", "q3", "q4", "january", "february", "march", "april", "may", "june", "july",
    "august", "september", "october", "november", "december", "usd", "eur", "gaap", "non-gaap",
    "the", "in", "for", "of", "and", "or", "to", "by", "on", "ceo", "cfo", "answer", "round",
    "give", "using", "based", "please", "company", "corporation", "inc", "ltd", "group",
    # a question in title case ("Which region had the Highest EBITDAR Contribution"): the words
    # that rank, not a name the evidence must print
    "highest", "lowest", "largest", "smallest", "biggest", "greatest", "most", "least", "best",
    "worst", "top", "bottom",
})
# the filing a question names by its form ("according to its 2015 Form 10-K"): routing's, never
# an anchor the evidence must print (yet a name a certification's text prints beside others)
FILING_FORM_WORDS = frozenset({"form"})
# a name may open with one lower-case letter ("eBay", "iPhone"): a word is read whole, from its
# first letter, never from a capital inside it ("Bay")
_CAPITAL_RE = re.compile(r"(?<![\w&-])[a-z]?[A-Z][A-Za-z&-]{2,}")
_SENTENCE_START_RE = re.compile(r"(?:^|[.?!:;]\s+)([a-z]?[A-Z][A-Za-z&-]*)")


def anchors(question: Question, known_words: set[str]) -> list[str]:
    """What a question names that its answer must print: proper names (capitalized words past
    a sentence's start, not the document's own names nor a term of the finance vocabulary:
    "EPS", "EBITDA"), years and Article/Note references."""
    text = question.text
    starts = {m.start(1) for m in _SENTENCE_START_RE.finditer(text)}
    found: list[str] = []
    for match in _CAPITAL_RE.finditer(text):
        word = match.group(0).removesuffix("'s").removesuffix("’s")
        if match.start() in starts or word.lower() in GENERIC_CAPITALS | FILING_FORM_WORDS or (
                word.lower() in known_words) or (terms_in(word) and not spelled_words(word)):
            continue  # "EPS" is the vocabulary's, written "earnings per share" by a filing
        found.append(word)
    found += YEARLIKE_RE.findall(text)
    found += [r.key for r in find_references(text) if r.kind in ("article", "note")]
    return list(dict.fromkeys(found))


def missing_anchors(question: Question, evidence: str, known_words: set[str]) -> list[str]:
    """The question's anchors that no retrieved evidence prints: a question about "Antarctica",
    "2025" or "Article 120" is not answered by text that never names them."""
    text = evidence.lower()
    refs = {r.key for r in find_references(evidence)}
    abbreviated = places_printed(question.text, evidence)  # "United States" printed "U.S."
    missing = []
    for anchor in anchors(question, known_words):
        key = anchor.lower()
        if key in abbreviated or ((spelled := spelled_words(anchor)) and re.search(
                r",?\s+(?:and\s+|&\s+)?".join(spelled), text)):
            continue  # "SG&A" printed "selling, general and administrative"
        if key.startswith(("article ", "note ")):
            if key not in refs and key.split("(")[0] not in refs:
                missing.append(anchor)
        elif not re.search(rf"(?<![a-z0-9]){re.escape(key)}", text):
            missing.append(anchor)
    return missing


def evidence_strength(plan: Question, best: ScoredUnit | None) -> float:
    """How well the best unit answers, on absolute signals only: 0 when the question asks for
    years that it does not print (a 2025 figure is not answered by 2018's)."""
    if best is None:
        return 0.0
    text = f"{best.unit.scope} {best.unit.text}"
    if plan.years and not any(str(y) in text for y in plan.years):
        held = YEARLIKE_RE.findall(text)
        if held and not only_base_years(best.unit.text, plan.years):
            # it prints other years: not the period asked about; a sentence that states the
            # period asked against its base speaks of it, whatever its header's year
            return 0.0
    return round(0.5 * max(0.0, best.dense) + 0.5 * best.coverage, 6)


# a measure's change, not the measure: "comparable sales growth" is stated as "comparable
# sales increased 8.0%"
CHANGE_ROOTS = frozenset({"growt", "incre", "decre", "chang", "decli"})

# a share of sales as a filing prints one: "73% of our $66.0 billion in net sales", "29% of
# Corning's segment net sales", "21 percent of our consolidated net sales" (never a move:
# "Net sales increased 5%")
SHARE_OF_SALES_RE = re.compile(r"\d(?:\.\d+)?\s*(?:%|percent)\s+of\s+(?:[\w$.,'’-]+\s+){0,4}?"
                               r"(?<!cost\sof\s)(?:net\s+)?(?<!cost\sof\s)(?:sales|revenues?)\b",
                               re.IGNORECASE)

# a sentence that sends the reader elsewhere and states nothing of its own ("For more
# information regarding the acquisition terms, see Item 1.01 in our Current Report on Form
# 8-K", "See Note 4 for further discussion", "Refer to Part II, Item 7"): Regulation S-K's
# cross-references (Item 10(d), incorporation by reference) as filings word them
POINTER_RE = re.compile(
    r"^\W*(?:(?:for|with respect to)\s+(?:more|additional|further|a)\s+(?:information|details?|"
    r"discussion|description)\b.{0,120}?\b(?:see|refer\s+to)\b|(?:please\s+)?(?:see|refer\s+to)\b)",
    re.IGNORECASE)


def points_elsewhere(text: str) -> bool:
    """Whether a sentence only sends the reader elsewhere: it opens with a cross-reference and
    prints no amount of its own."""
    return POINTER_RE.match(text) is not None and AMOUNT_STATED_RE.search(text) is None


def quote_order(plan: Question, chosen: Sequence[ScoredUnit]) -> list[ScoredUnit]:
    """The quotes in the order they are given: a sentence that only points elsewhere after
    those that state something; for what a filing says (text asked; names are read by their
    own readers, and a name's sentence need print no amount), the sentences that print an
    amount first (its specifics: "... accounted for approximately 67% of our net revenues"
    before the trend's heading sentence), then the rest as scored (a table row is not moved);
    for a figure asked ("How much ...?"), those that print an
    amount (money, a percentage, a figure with a scale word: not "Note 10" or "June 30")
    first, those of them that name what the question asks of before the rest (a release's
    "record backlog of $158 billion" before its income statement's run of figures, which
    shares the question's company and dates: :func:`names_asked`), each sentence before a
    table's rows run together as one (:func:`runs_figures_on`), and for a count ("How
    many warehouses ...?") those that print a number of the thing
    counted ("858 warehouses") before them, each group best first (and for a dependence
    asked, "How dependent is X on Y?", the sentences that state the share that measures it:
    :func:`states_share`); a sentence that states only other spans ahead than the one asked
    ("the next 10 years" for "the next five years"), or whose subject is the year-ago period
    ("The prior year provision was ..."), after the rest, as a figure of another period; the
    scores, and so the evidence's strength and any abstention, are not touched."""

    def group(item: ScoredUnit) -> tuple[bool, bool, int, float]:
        text = item.unit.text
        pointer = points_elsewhere(text)
        spans = set(horizons(text)) if plan.horizons else set()
        other_span = (bool(spans) and not spans & set(plan.horizons)
                      or other_quarter(plan, text) or other_block(plan, item.unit)
                      or not item.unit.is_row and other_length(plan, text)
                      or opens_with_prior_period(text) and not plan.prior_period)
        if plan.asks_dependence:  # "How dependent is X on Y?": the share measures it
            return pointer, other_span, 0 if states_share(plan, item.unit) else 1, 0.0
        if plan.expects == "text":  # what the filing says: its specifics first
            states = (not item.unit.is_row and AMOUNT_STATED_RE.search(text) is not None
                      and not runs_figures_on(text))  # a table's run states no specific
            return pointer, other_span, 0 if states else 1, 0.0
        if plan.expects != "figure":
            return pointer, other_span, 0, 0.0
        if plan.counts and counts_asked(plan.text, plan.counts, text):
            # the whole before a part of it: 86,200 employees before the 1,100 of them a
            # collective agreement covers
            return pointer, other_span, 0, -largest_count(plan.counts, text)
        if AMOUNT_STATED_RE.search(text) is None:
            return pointer, other_span, 7, 0.0
        at = qualified_at(plan, text)
        # the sentence that opens with the measure, then one that states it later (a
        # release's headline run into its first sentence), then an amount beside what the
        # question asks of, then any amount
        if at is not None:
            return pointer, other_span, 1 if at == 0 else 2, 0.0
        # of those, a table's figures run together as one sentence after a sentence's
        return pointer, other_span, (3 if names_asked(plan, text) else 5) + runs_figures_on(
            text), 0.0
    return sorted(chosen, key=group)


PageRows = Callable[[str, int, int], list[EvidenceUnit]]


def rows_for_runs(plan: Question, chosen: Sequence[ScoredUnit], page_rows: PageRows
                  ) -> list[ScoredUnit]:
    """For a figure asked, each quote that runs a table's figures together as one sentence
    (:func:`runs_figures_on`) in the place of its own table's row that names what the question
    asks of (:func:`names_asked`, :func:`_of_the_run`; of those, the one naming the most of
    it), scored and ranked as the quote was: "Total backlog: 2023: $158,011; 2022: $149,998",
    not a release's cash flow statement, backlog and deliveries run together; for what a
    filing says, the row before the run, which may hold the words around the table. A quote
    whose page prints no such row stays, as does one that states the count or the qualified
    measure asked; no row is quoted twice, and no more quotes are given than were chosen."""
    asked = asked_roots(plan)
    if plan.expects not in ("figure", "text") or not asked:
        return list(chosen)
    quoted = {s.unit.quote for s in chosen}
    out: list[ScoredUnit] = []
    for scored in chosen:
        unit = scored.unit
        best = None if unit.is_row or not runs_figures_on(unit.text) or _states_asked(
            plan, unit.text) else max(
            (r for r in page_rows(unit.document, unit.year, unit.page)
             if r.quote not in quoted and names_asked(plan, r.text) and _reads_as_a_row(r.text)
             and _of_the_run(r, unit.text, plan)),
            key=lambda r: len(roots(r.text) & asked), default=None)
        if best is not None:
            quoted.add(best.quote)
            out.append(scored.model_copy(update={"unit": best.model_copy(update={
                "chunk_id": unit.chunk_id, "chunk_rank": unit.chunk_rank})}))
        if best is None or plan.expects == "text":
            out.append(scored)
    return out[:len(chosen)]


def _states_asked(plan: Question, text: str) -> bool:
    """Whether a quote states the count or the qualified measure a question asks: the quote
    the count's and the qualifier's readers chose, never to be replaced by a row."""
    return bool(plan.counts and counts_asked(plan.text, plan.counts, text)) or (
        bool(plan.qualified) and qualified_at(plan, text) is not None)


def states_share(plan: Question, unit: EvidenceUnit) -> bool:
    """Whether a sentence states the share a dependence is measured by: a percentage of sales
    or revenues (Item 101(c) measures a customer by its share of consolidated revenues), of
    whom the question names as depended on (a question naming none, "its largest customer",
    is left to the customers' reader); never a table's row (an ownership's 100%), a share of
    cost of sales, or a percentage of something else (employees by region)."""
    text = unit.text
    if unit.is_row or not SHARE_OF_SALES_RE.search(text):
        return False
    named = plan.depended_on
    return named is not None and all(w in words(text) for w in words(named))


def other_block(plan: Question, unit: EvidenceUnit) -> bool:
    """Whether a table row stands under a header of another period than the one asked: the
    header's length of period ("Three months ended June 30, 2023" when the first half is
    asked) or only other years ("Six months ended June 30, 2022"); Corning's Q2 2023 10-Q
    stacks four blocks of its non-GAAP reconciliation, each headed by its period."""
    if not unit.is_row or not plan.years:
        return False
    header = unit.scope.rsplit(" | ", 1)[-1]
    months = months_asked(header)
    return (months != 12 and months != plan.months) or names_other_years(header, plan.years)


def other_length(plan: Question, text: str) -> bool:
    """Whether a sentence speaks of a period of another length than the one asked: "During
    the six months ended June 30, 2023, the Company repurchased ..." for the second quarter,
    or a release's "in the current year compared to ... the prior year" for the fourth
    quarter (MGM's Q2 2023 10-Q and Q4 2022 release print both, the other one first); a
    sentence that lists the length asked beside it ("three and six months") speaks of it."""
    if plan.months in (listed_months(text) or []):
        return False
    months = months_asked(text)
    compared = results_compared(text)
    return months not in (MONTHS_PER_YEAR, plan.months) or compared not in (None, plan.months)


def other_quarter(plan: Question, text: str) -> bool:
    """Whether a sentence names only quarters other than the one asked and its base a year
    before: JPMorgan's year-to-date paragraph ("... down 45%, ... markdowns ... in the second
    quarter of 2022") speaks of no third quarter of 2022 (after the quarter's own, as another
    span is)."""
    asked = {(int(q[1]), int(y)) for q, y in plan.periods if q and q[1:].isdigit()}
    named = {(q, y) for q, y, _ in quarters_named(text)}
    bases = {(q, y - 1) for q, y in asked}
    return bool(asked and named) and not named & (asked | bases)


def largest_count(noun: str, text: str) -> float:
    """The largest number a text prints of the thing counted ("approximately 2.3 million
    associates" is 2,300,000): of a whole and its parts, the whole."""
    values = [0.0]
    lower = text.lower()
    for found in counted_pattern(noun).finditer(lower):
        # the counts listed before it with "and": "86,200 and 62,600 employees, respectively"
        listed = _LISTED_COUNTS_RE.search(lower[:found.start()])
        before = listed.group(0) if listed and " and " in f" {listed.group(0)}" else ""
        numbers = [n for n in _NUMBER_RE.findall(f"{before} {found.group(0)}")
                   if not WHOLE_YEAR_RE.match(n)]  # "As of December 31, 2019,"
        scale = next((v for w, v in SCALE_WORDS.items() if w in found.group(0)), 1.0)
        values += [float(n.replace(",", "")) * scale for n in numbers]
    return max(values)


_NUMBER_RE = re.compile(AMOUNT)
_LISTED_COUNTS_RE = re.compile(rf"(?:{AMOUNT}\s*(?:,\s*and\s+|,\s*|and\s+)"
                               r"(?:approximately\s+|about\s+)?)+$")


def qualified_at(plan: Question, text: str) -> int | None:
    """Before which of a sentence's amounts (0: the first, or a sentence without one) it
    states a qualified measure the question asks, just before that amount (after the one
    before it), or None: "Comparable sales (...) increased 8.0%" states "comparable sales
    growth" before its first amount, a release's headline "Net Sales of $2.6 Billion ...
    Comparable Sales Increased 9.3%" before a later one; "Net sales increased 10.1% ... due to
    increased comparable sales" not at all (a cause, after every amount)."""
    wanted = [w for phrase in plan.qualified if (w := roots(phrase) - CHANGE_ROOTS)]
    start = 0
    for n, amount in enumerate(AMOUNT_STATED_RE.finditer(text)):
        leading = roots(text[start:amount.start()])
        if any(w <= leading for w in wanted):
            return n
        start = amount.end()
    # a sentence without an amount states the measure wherever it names it
    return 0 if start == 0 and any(w <= roots(text) for w in wanted) else None


def select(scored: Sequence[ScoredUnit], config: ExtractiveConfig,
           max_claims: int | None = None) -> list[ScoredUnit]:
    """The best unit and those close to it, each quote once."""
    if not scored:
        return []
    limit = max_claims or config.max_claims
    floor = scored[0].score * config.keep_within
    chosen: list[ScoredUnit] = []
    seen: set[str] = set()
    for item in scored:
        key = " ".join(item.unit.quote.lower().split())
        if item.score < floor or len(chosen) >= limit:
            break
        if key in seen or any(key in s or s in key for s in seen):
            continue
        seen.add(key)
        chosen.append(item)
    return chosen
