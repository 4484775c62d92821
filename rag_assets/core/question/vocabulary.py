"""The finance vocabulary: every metric and line item a question may name, read from one file.

``finance_terms.json`` (its ``_doc`` says each field) holds, per metric or concept, how
questions write it, where filings print it, the labels they print it under and, for a metric,
its formula. Retrieval reads the statements and labels (what to boost, what BM25 adds); the
metric engine reads the kinds, formulas and units. Both find a question's terms with
:func:`terms_in`, so they never disagree on what a question names, and an alias names one key
(the validator refuses a file where two keys share one). Plain Python and pydantic.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Literal, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rag_assets.core.ingest.statements import StatementKind
from rag_assets.core.text.periods import MONTH_RE, YEAR_AFTER_TERM_RE
from rag_assets.core.text.years import FISCAL_YEAR_RE

TERMS_FILE = Path(__file__).with_name("finance_terms.json")
Unit = Literal["percent", "ratio", "days", "USD", "USD/share", "shares"]
# the statements a line item is printed on as a line, not a breakdown of it: what a question
# naming the item is boosted towards (a segment note or MD&A breaks revenue down; the question
# "what was revenue" asks for the income statement's line)
PRIMARY_STATEMENTS: frozenset[str] = frozenset(
    {"income_statement", "balance_sheet", "cash_flow", "equity", "comprehensive_income"})
T = TypeVar("T")


class _Term(BaseModel):
    """What every entry has: its name in answers, how questions write it, where it is printed."""

    model_config = ConfigDict(extra="forbid")

    title: str
    aliases: list[str] = Field(default_factory=list)
    statements: list[StatementKind] = Field(default_factory=list)
    line_items: list[str] = Field(default_factory=list)
    facts: bool = Field(default=True, description="the statement facts carry it: the metric "
                                                  "engine may take it as a question's target")
    note: str = ""


class ConceptDef(_Term):
    """A line item a filing prints."""

    kind: Literal["flow", "stock"]
    magnitude: bool = False
    derived: str | None = None
    part_of: str | None = Field(default=None, description=(
        "a line item read among another's rows: those of its facts printed under one of its "
        "own line_items (net sales above total revenues); its derived formula otherwise"))
    unit: str = "USD"
    flows: dict[str, str] = Field(default_factory=dict, description=(
        "a balance's flows (concept -> the verbs that ask it): what moved the balance"))
    parts: list[str] = Field(default_factory=list, description=(
        "three lines of the statement's own arithmetic that make up its change, in the "
        "statement's order: the line above, the subtotal the items between it end in, the line "
        "deducted (net income: operating income, pretax income, income taxes); a cause "
        "question's change is shown with theirs, the largest first"))


class MetricDef(_Term):
    """A metric computed from concepts (and other metrics) by its formula."""

    formula: str | None = None
    inputs: list[str] = Field(default_factory=list,
                              description="for a metric the engine does not compute: the "
                                          "entries retrieval adds its statements and labels of")
    unit: Unit
    decimals: int = 2
    better: Literal["higher", "lower"] | None = None
    not_meaningful_for: list[str] = Field(
        default_factory=list, description="kinds of filer (filer_kinds.json) it does not apply to")
    bridge: list[str] = Field(
        default_factory=list, description="the metrics whose changes make up this one's")
    reconciled: bool = Field(default=False, description=(
        "the filing reconciles it item by item (the effective tax rate: ASC 740-10-50-12)"))
    source: str = ""

    @model_validator(mode="after")
    def _computed_has_formula(self) -> MetricDef:
        if self.facts and not (self.formula and self.source):
            raise ValueError(f"metric {self.title!r}: a computed metric needs a formula and "
                             "its source")
        return self


class ConceptSet(BaseModel):
    """Line items an analyst compares as one set (the three cash-flow activities)."""

    concepts: list[str] = Field(min_length=2)
    patterns: list[str] = Field(min_length=1)
    source: str


class TermMatch(NamedTuple):
    """Where a text names a term, in :func:`normalize`'s form of the text."""

    start: int
    end: int
    name: str
    is_metric: bool


class Abbreviations(BaseModel):
    """How a question's own definition shortens what statements print (``_doc`` says how)."""

    labels: dict[str, str] = Field(default_factory=dict)
    formula: dict[str, str] = Field(default_factory=dict)
    source: str = ""


class Parts(BaseModel):
    """What, printed after a term, narrows it to a part of its total (``_doc`` says how)."""

    openers: list[str] = Field(default_factory=list)
    purpose: str = "on"
    not_purposes: list[str] = Field(default_factory=list)
    prepositions: list[str] = Field(default_factory=list)
    nouns: list[str] = Field(default_factory=list)
    not_members: list[str] = Field(default_factory=list)
    measures_before: list[str] = Field(default_factory=list)
    sourced: list[str] = Field(default_factory=list)
    member_words: list[str] = Field(default_factory=list)
    source: str = ""


class Qualifiers(BaseModel):
    """The words that make a term another measure (``_doc`` says which and why)."""

    phrases: list[str] = Field(default_factory=list)
    kinds: list[str] = Field(default_factory=list, description="a kind of the term printed "
                             "before it: a part or another balance ('subscription revenue', "
                             "'deferred revenue')")
    kinds_source: str = ""
    after_source: str = ""
    after: list[str] = Field(default_factory=list)
    paid_out: list[str] = Field(default_factory=list, description="verbs that ask what was "
                                "paid out of a balance ('how much cash did it pay for ...')")
    paid_out_source: str = ""
    also_reported: list[str] = Field(default_factory=list)
    parts: Parts = Field(default_factory=Parts)
    source: str = ""


# a growth rate's formula: a line item over itself a year earlier, less one (never an average
# of two balances, "(x + x[-1]) / 2")
GROWTH_FORMULA_RE = re.compile(r"^\s*([a-z_]+)\s*/\s*\1\[-1\]\s*-\s*1\s*$")


class Vocabulary(BaseModel):
    """``finance_terms.json``, validated."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    doc: list[str] = Field(alias="_doc", min_length=1)
    concepts: dict[str, ConceptDef]
    metrics: dict[str, MetricDef]
    sets: dict[str, ConceptSet] = Field(default_factory=dict)
    abbreviations: Abbreviations = Field(default_factory=Abbreviations)
    qualifiers: Qualifiers = Field(default_factory=Qualifiers)

    @model_validator(mode="after")
    def _one_key_per_alias(self) -> Vocabulary:
        unknown_abbreviated = set(self.abbreviations.formula.values()) - self.names
        if unknown_abbreviated:
            raise ValueError(f"abbreviations name unknown entries {sorted(unknown_abbreviated)}")
        owners: dict[str, str] = {}
        for name, entry in self.entries():
            for phrase in phrases_of(name, entry):
                if owners.setdefault(phrase, name) != name:
                    raise ValueError(f"the alias {phrase!r} names both {owners[phrase]!r} "
                                     f"and {name!r}")
        for name in self.metrics:
            unknown = [n for n in self.inputs_of(name) if n not in self.names]
            if unknown:
                raise ValueError(f"metric {name!r} is computed from unknown names {unknown}")
        for name in self.names:
            self.closure(name)  # raises on a cycle
        return self

    @property
    def names(self) -> set[str]:
        return set(self.concepts) | set(self.metrics)

    def entries(self) -> Iterable[tuple[str, ConceptDef | MetricDef]]:
        yield from self.concepts.items()
        yield from self.metrics.items()

    def entry(self, name: str) -> ConceptDef | MetricDef:
        return self.metrics.get(name) or self.concepts[name]

    def title(self, name: str) -> str:
        entry = self.concepts.get(name) or self.metrics.get(name)
        return entry.title if entry else name.replace("_", " ")

    def grown(self, name: str) -> str | None:
        """The line item a growth metric is the change of ("revenue / revenue[-1] - 1":
        revenue), or None: not a growth metric."""
        metric = self.metrics.get(name)
        found = GROWTH_FORMULA_RE.match(metric.formula or "") if metric else None
        return found[1] if found and found[1] in self.concepts else None

    def formula_of(self, name: str) -> str:
        """A computed metric's formula (the engine computes no metric without one)."""
        formula = self.metrics[name].formula
        if formula is None:
            raise KeyError(f"{name!r} is no metric the engine computes")
        return formula

    def inputs_of(self, name: str) -> list[str]:
        """The entries a metric is computed from: its formula's names, else its ``inputs``;
        a concept's derivation's names."""
        if name in self.metrics:
            metric = self.metrics[name]
            return formula_names(metric.formula) if metric.formula else list(metric.inputs)
        derived = self.concepts[name].derived
        return formula_names(derived) if derived else []

    def closure(self, name: str, path: tuple[str, ...] = ()) -> list[str]:
        """The entry and, depth first, the metrics and concepts it is computed from, each once
        (a concept's derivation is a fallback of the engine's, not what it is printed as: only
        a metric's inputs are followed)."""
        if name in path:
            raise ValueError(f"the vocabulary's formulas form a cycle: "
                             f"{' -> '.join((*path, name))}")
        out = [name]
        for sub in self.inputs_of(name) if name in self.metrics else []:
            out += [n for n in self.closure(sub, (*path, name)) if n not in out]
        return out

    def statements_of(self, name: str) -> list[StatementKind]:
        """Where retrieval looks for the entry: its own statements, then its inputs', the
        primary statements only (:data:`PRIMARY_STATEMENTS`)."""
        return _unique(s for n in self.closure(name) for s in self.entry(n).statements
                       if s in PRIMARY_STATEMENTS)

    def line_items_of(self, name: str) -> list[str]:
        """The labels filings print the entry's inputs under, its own first (BM25 terms)."""
        return _unique(i for n in self.closure(name) for i in self.entry(n).line_items)


@cache
def abbreviation_re() -> re.Pattern[str]:
    """The captions' abbreviations of ``abbreviations.labels`` that are no word ("SG&A",
    "R&D"), whole."""
    keys = [k for k in load_vocabulary().abbreviations.labels if "&" in k]
    return re.compile(rf"(?<![\w&])(?:{'|'.join(map(re.escape, keys))})(?![\w&])", re.IGNORECASE)


def spelled_words(abbreviation: str) -> list[str]:
    """The words an abbreviation that is no word stands for ("SG&A": selling, general,
    administrative); none for any other word."""
    if not abbreviation_re().fullmatch(abbreviation):
        return []
    return load_vocabulary().abbreviations.labels[abbreviation.lower()].split()


def spelled_out(text: str) -> str:
    """``text`` with each such abbreviation followed by its words ("SG&A selling general
    administrative"), so a text that abbreviates a caption names it as one that spells it
    out does."""
    return abbreviation_re().sub(lambda m: f"{m[0]} {' '.join(spelled_words(m[0]))}", text)


def formula_names(formula: str) -> list[str]:
    """The names a formula computes from (not its functions nor a ``row('label')``)."""
    bare = re.sub(r"row\('[^']*'\)", " ", formula)
    return _unique(n for n in re.findall(r"\b[a-z_][a-z0-9_]*\b(?!\s*\()", bare))


def phrases_of(name: str, entry: ConceptDef | MetricDef) -> list[str]:
    """How a question may write the entry: its aliases and its key's words, normalized."""
    return sorted({p for p in (normalize(a) for a in [*entry.aliases, name.replace("_", " ")])
                   if p})


@cache
def load_vocabulary(path: Path = TERMS_FILE) -> Vocabulary:
    """The vocabulary, read once per process."""
    return Vocabulary.model_validate(json.loads(path.read_text(encoding="utf-8")))


def normalize(text: str) -> str:
    """Lower case, straight quotes, '%' and 'percentage' as 'percent', hyphens as spaces, one
    space: the form aliases and statement names are matched in."""
    text = text.lower().replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = re.sub(r"\s*%", " percent", text)
    text = re.sub(r"\bpercentage\b", "percent", text)
    text = re.sub(r"(?<=\w)-(?=\w)", " ", text)
    return " ".join(text.split())


def plural_forms(word: str) -> str:
    """A word and, of three letters or more, its plural ("revenues")."""
    return re.escape(word) + (r"(?:s|es)?" if len(word) >= 3 and word[-1].isalpha() else "")


def phrase_pattern(phrase: str, forms: Callable[[str], str] = plural_forms) -> re.Pattern[str]:
    """Whole words, any spacing; each word in its ``forms`` (by default a word of three
    letters or more may take a plural ending: "capital expenditures as a percent of
    revenues")."""
    body = r",?\s+".join(forms(w) for w in normalize(phrase).split())
    # ",?": "acquisitions, net of cash acquired"
    return re.compile(rf"(?<![\w&]){body}(?![\w&])")


@cache
def _patterns(path: Path = TERMS_FILE
              ) -> tuple[tuple[str, bool, bool, re.Pattern[str], str], ...]:
    """(name, is_metric, in the facts, pattern, first word) for every phrase of the vocabulary.
    The first word, as :func:`phrase_pattern` prints it, is in any text the pattern matches: a
    substring test on it costs next to nothing beside a regular expression's search (586
    phrases are searched in every question, several times)."""
    vocabulary = load_vocabulary(path)
    return tuple((name, name in vocabulary.metrics, entry.facts, phrase_pattern(phrase),
                  normalize(phrase).split()[0])
                 for name, entry in vocabulary.entries() for phrase in phrases_of(name, entry))


@cache
def qualifier_pattern(path: Path = TERMS_FILE) -> re.Pattern[str]:
    """The vocabulary's qualifiers ("adjusted", "comparable store" ...) as whole words, any
    spacing or hyphen: matches in a sentence as printed (lower case) and in :func:`normalize`'s
    form alike."""
    qualifiers = load_vocabulary(path).qualifiers
    return _words_pattern([*qualifiers.phrases, *qualifiers.kinds],
                          r"(?<![\w&])(?<!non )(?<!non-)(?<!un )(?<!un-)")


def _words_pattern(phrases: Sequence[str], before: str = r"(?<![\w&])") -> re.Pattern[str]:
    """Whole-word phrases, longest first, any spacing or hyphen between their words."""
    ordered = sorted(phrases, key=len, reverse=True)
    body = "|".join(r"[\s-]+".join(re.escape(w) for w in p.split()) for p in ordered)
    return re.compile(rf"{before}(?:{body})(?![\w&])")


@cache
def _after_pattern() -> re.Pattern[str]:
    """A qualifier printed after a term, a change word maybe between ("net sales grew on an
    organic basis", "revenue growth in constant currency", "debt that is maturing")."""
    after = _words_pattern(load_vocabulary().qualifiers.after, "")
    return re.compile(rf"^\s+(?:(?:that|which)\s+)?(?:(?:is|are|was|were|will)\s+)?"
                      rf"(?:(?:grow|grew|growth|increas\w*|decreas\w*|declin\w*|rose|"
                      rf"fell|chang\w*)\s+)?{after.pattern}")


@cache
def _reported_pattern() -> re.Pattern[str]:
    """The reported figure asked beside the qualified one: "GAAP and adjusted EPS"."""
    return re.compile(_words_pattern(load_vocabulary().qualifiers.also_reported).pattern + r"$")


def _qualifier_before(norm: str, start: int) -> int | None:
    """Where the qualifier printed just before ``start`` begins ("comparable| sales growth"),
    or None; none when the reported figure is asked beside it ("GAAP and adjusted EPS")."""
    before = norm[:start].rstrip()
    offset = max(0, len(before) - 40)
    begin = next((offset + m.start() for m in qualifier_pattern().finditer(before[offset:])
                  if offset + m.end() == len(before)), None)
    if begin is not None and _reported_pattern().search(norm[:begin].rstrip()):
        return None
    return begin


@cache
def _part_pattern() -> re.Pattern[str]:
    """What narrows a term to a part, printed just after it (``qualifiers.parts``): "net income
    attributable to Walmart", "capital spending on new stores and clubs", "operating income of
    its International segment", "what share of its capital expenditures went to eCommerce"."""
    parts = load_vocabulary().qualifiers.parts
    openers = _words_pattern(parts.openers, "").pattern
    not_purpose = _words_pattern(parts.not_purposes, "").pattern
    nouns = _words_pattern(parts.nouns, "").pattern
    prepositions = "|".join(re.escape(p) for p in parts.prepositions)
    purpose = (rf"{re.escape(parts.purpose)}\s+(?!(?:an?|the)\s+(?:[\w&']+\s+){{0,3}}basis\b)"
               rf"(?!{MONTH_RE.pattern}|\d)(?!(?:the|its|their)\s+(?:consolidated\s+)?(?:income|"
               rf"balance|cash|statements?|financial)\b)(?!(?:its\s+|the\s+)?{not_purpose})"
               rf"[a-z]")
    member = (rf"(?:{prepositions})\s+(?:[\w&'.]+\s+){{0,4}}?{nouns}")
    return re.compile(rf"^\s+(?:(?:that|which)\s+)?(?:{openers}|{purpose}|{member})")


def _qualified(norm: str, start: int, end: int) -> bool:
    """Whether a qualifier is printed just before ``start`` or just after ``end`` (the year
    asked maybe between: "revenue in fiscal 2020 on a constant currency basis"), or what
    follows the term narrows it to a part (:func:`_part_pattern`)."""
    return (_qualifier_before(norm, start) is not None
            or _measure_before().search(norm[:start]) is not None
            or _narrowing_after(norm, end) is not None)


@cache
def _measure_before() -> re.Pattern[str]:
    """A measure of the term opened before it, up to three words between: "return on tangible
    common equity" is no equity, "cost of debt" no debt (``qualifiers.parts.measures_before``)."""
    opening = _words_pattern(load_vocabulary().qualifiers.parts.measures_before).pattern
    return re.compile(rf"{opening}\s+(?:[\w&']+\s+){{0,3}}$|{IMPACT_ON_RE.pattern}")


# what a thing did to a term: "the impact of the Tax Cuts and Jobs Act on Coca-Cola's FY2017
# income tax expense" asks the part of the expense the act caused, never the expense
IMPACT_ON_RE = re.compile(r"\b(?:impact|effect)s?\s+of\b[^?;]{1,80}?\bon\s+(?:the\s+|its\s+|"
                          r"(?:[\w.&-]+\s+){0,2}[\w.&-]+(?:'s|s')\s+)?"
                          rf"(?:{FISCAL_YEAR_RE.pattern}\s+)?$", re.IGNORECASE)


def _narrowing_after(norm: str, end: int) -> tuple[int, re.Match[str]] | None:
    """A qualifier printed after the term ending at ``end``, or what narrows it to a part, the
    year asked maybe between ("revenue in fiscal 2020 on a constant currency basis"): where
    the match was tried and the match, or None."""
    year = YEAR_AFTER_TERM_RE.match(norm[end:])
    for at in (end, end + year.end()) if year else (end,):
        found = _after_pattern().match(norm[at:]) or _part_pattern().match(norm[at:])
        if found:
            return at, found
    return None


def qualified_measures(text: str) -> list[str]:
    """The measures a text names with a qualifier, qualifier and term as :func:`normalize`
    writes them ("comparable sales growth", "adjusted eps"): what a filing states apart from
    its statements, and what a sentence that states it names."""
    norm = normalize(text)
    found = []
    for term in terms_in(text):
        begin = _qualifier_before(norm, term.start)
        after = _narrowing_after(norm, term.end)
        if begin is not None:
            found.append(norm[begin:term.end])
        elif after is not None:  # to the end of the word it opens with ("... on new")
            at, match = after
            word = re.match(r"[\w&']*", norm[at + match.end():])
            found.append(f"{norm[term.start:term.end]}{norm[at:at + match.end()]}"
                         f"{word.group(0) if word else ''}")
    return found


def terms_in(text: str, *, facts_only: bool = False, exclude: frozenset[str] = frozenset(),
             qualified: bool = True) -> list[TermMatch]:
    """The terms a text names, in order, each match in :func:`normalize`'s form of ``text``;
    where phrases overlap the longest wins, a metric before a concept of the same span
    ("capex as a % of revenue" is one metric, not capex and revenue). ``facts_only``: only the
    terms the statement facts carry (the metric engine's targets). ``qualified=False`` leaves
    out a term a qualifier is printed just before: "comparable sales growth" names no revenue
    growth, "adjusted EPS" no diluted EPS (the vocabulary's ``qualifiers``)."""
    norm = normalize(text)
    found = [TermMatch(m.start(), m.end(), name, is_metric)
             for name, is_metric, in_facts, pattern, first in _patterns()
             if first in norm and (in_facts or not facts_only) and name not in exclude
             for m in pattern.finditer(norm)]
    taken: list[TermMatch] = []
    for match in sorted(found, key=lambda f: (f.start - f.end, not f.is_metric, f.start)):
        if all(match.end <= t.start or match.start >= t.end for t in taken):
            taken.append(match)
    taken = [_split_alias(norm, t, facts_only, exclude)
             or _shared_head(norm, t, taken, facts_only, exclude) or t for t in taken]
    if not qualified:
        taken = [t for t in taken if not _qualified(norm, t.start, _coordinated_end(norm, t,
                                                                                   taken))
                 and not _paid_out_of(norm, t)]
    return sorted(taken)


# the question's own verb between a term and the rest of an alias: "how much long-term debt
# does Walmart have due within one year" (the alias "long-term debt due within one year"); a
# verb that is itself the rest's first word stays in it: "what dividend did Pfizer declare" is
# the alias "dividend declare", the rate a board declares per share, never the total it paid
SPLIT_BY_VERB_RE = re.compile(r"^\s+(?:does|do|did|will)\s+(?:[\w&'.]+\s+){1,4}?"
                              r"(?:(?:have|has|owe|hold|carry)\s+|(?=declare\b))"
                              r"(?P<rest>.*)$")
SPLIT_REST_WORDS = 6  # the longest rest of an alias tried after the verb


def _split_alias(norm: str, term: TermMatch, facts_only: bool,
                 exclude: frozenset[str]) -> TermMatch | None:
    """The entry an alias names when the question's verb splits it: the term's words and the
    longest run of words after the verb that together are another entry's alias."""
    split = SPLIT_BY_VERB_RE.match(norm[term.end:])
    if split is None:
        return None
    words = list(re.finditer(r"[\w&'.]+", split["rest"]))[:SPLIT_REST_WORDS]
    named = norm[term.start:term.end]
    for count in range(len(words), 0, -1):
        joined = f"{named} {' '.join(w.group(0) for w in words[:count])}"
        for name, is_metric, in_facts, pattern, _ in _patterns():
            if name != term.name and name not in exclude and (in_facts or not facts_only) \
                    and pattern.fullmatch(joined):
                end = term.end + split.start("rest") + words[count - 1].end()
                return TermMatch(term.start, end, name, is_metric)
    return None


# what follows a term when it is coordinated with a conjunct of ``count`` words, the last its
# head noun: "goodwill| or intangible asset impairments"
SHARED_HEAD_WORDS = 4


def _shared_head(norm: str, term: TermMatch, taken: Sequence[TermMatch], facts_only: bool,
                 exclude: frozenset[str]) -> TermMatch | None:
    """The entry a term names with the head noun of the conjunct coordinated after it, when the
    conjunct names no other term before its head: "goodwill or intangible asset impairments"
    asks goodwill's impairments (the alias "goodwill impairment"), never the balance of
    goodwill; the match keeps the term's own span, so the conjunct is still read after it."""
    found = re.match(rf"\s+(?:or|and)\s+(?P<conjunct>(?:[\w&'.-]+\s+){{0,{SHARED_HEAD_WORDS - 1}}}?"
                     rf"[\w&'-]+)(?=\s*(?:[?,.;:]|$|\s(?:in|for|during|of|at|as|did|does|do|was|"
                     rf"were|is|are|has|have|had)\b))",
                     norm[term.end:])
    if found is None:
        return None
    end = term.end + found.end("conjunct")
    if any(term.end < t.start and t.end < end for t in taken if t.start < end):
        return None  # the conjunct names a term of its own before its head
    words = found["conjunct"].split()
    named = norm[term.start:term.end]
    for count in range(1, len(words)):  # the head's words, the shortest first
        joined = f"{named} {' '.join(words[-count:])}"
        for name, is_metric, in_facts, alias, _ in _patterns():
            if name != term.name and name not in exclude and (in_facts or not facts_only) \
                    and alias.fullmatch(joined):
                return TermMatch(term.start, term.end, name, is_metric)
    return None


@cache
def _paid_out_pattern() -> re.Pattern[str]:
    """A payment asked of a balance: "cash| did Corning pay for acquisitions"."""
    verbs = _words_pattern(load_vocabulary().qualifiers.paid_out, "").pattern
    return re.compile(rf"^\s+(?:did|does|do|will|has|have|had|was|were)\s+"
                      rf"(?:[\w&'.]+\s+){{0,4}}?{verbs}")


def _paid_out_of(norm: str, term: TermMatch) -> bool:
    """Whether a balance (a stock concept) is asked as what was paid out of it: a flow, never
    the balance the statements print (``qualifiers.paid_out``)."""
    concept = load_vocabulary().concepts.get(term.name)
    return (concept is not None and concept.kind == "stock"
            and _paid_out_pattern().match(norm[term.end:]) is not None)


def whole_term(text: str) -> str | None:
    """The one term a text is, whole ("total debt", "share repurchases"), else None: a text
    that names a term among other words ("the cash it spent repurchasing its shares") is more
    than the term."""
    named = terms_in(text)
    whole = len(named) == 1 and named[0].start == 0 and named[0].end == len(normalize(text))
    return named[0].name if whole else None


def _coordinated_end(norm: str, term: TermMatch, taken: Sequence[TermMatch]) -> int:
    """Where the last of the terms coordinated with ``term`` ends: "net sales and operating
    income of its Industrial segment" narrows both to the segment, so what follows the last
    term is read after each."""
    end = term.end
    for other in sorted(taken):
        if other.start >= end and re.fullmatch(r"\s*(?:,|,?\s+and|,?\s+or)\s+(?:its\s+)?",
                                               norm[end:other.start]):
            end = other.end
    return end


def _unique(values: Iterable[T]) -> list[T]:
    return list(dict.fromkeys(values))
