"""Metrics, trends and judgments computed from a filing's statement facts, every operand cited.

Retrieval finds the page that prints revenue, but no page prints "fixed asset turnover 24.26":
an analyst's metric is arithmetic over line items of several statements and years. Here a
question parsed by :mod:`metric_questions` (which metric or line item, which fiscal years or
quarter, the precision and units asked, a definition the question states itself) has its
formula (``finance_terms.json``, or the question's own definition) evaluated over the
filing's :class:`~rag_assets.core.ingest.facts.StatementFact` rows (:func:`answer_metric`), and
the answer opens with the result at the precision asked, then the formula, the computation and
every operand with its period and the row it was read from (page + quote: a citation the
verifier checks like any other). A missing operand is said plainly, never guessed, as what the
reader did not find in which statement on which pages (the quotes answer then); a metric is
said not to apply only from what the filer is (a bank has no gross margin: its kind is read
from its own presentation, :mod:`filer_kinds`), never from a line the reader missed; the
thresholds of a judgment are data (``judgment_rules.json``) stated in the answer, its yes/no
derived from the verdict.

Plain Python and pydantic; no Dagster, no model.
"""

from __future__ import annotations

import ast
import operator
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from rag_assets.core.generation.filer_kinds import FilerKind, filer_kind
from rag_assets.core.generation.metric_format import (
    dollars_moved,
    format_value,
    period_name,
    period_of,
    short,
    subject_of,
    trend_when,
    when_asked,
    wrap,
)
from rag_assets.core.generation.metric_questions import (
    LABEL_STOP_WORDS,
    MetricQuestion,
    Rules,
    coverage_sides,
    load_rules,
    quotient_sides,
)
from rag_assets.core.generation.records import Claim, SourceCitation
from rag_assets.core.ingest.facts import concept_of, normalize_label
from rag_assets.core.question.thresholds import Threshold
from rag_assets.core.question.vocabulary import (
    ConceptDef,
    MetricDef,
    Unit,
    Vocabulary,
    formula_names,
    load_vocabulary,
    whole_term,
)
from rag_assets.core.text.periods import MONTHS_IN_WORDS

if TYPE_CHECKING:
    from rag_assets.core.ingest.facts import StatementFact


Status = Literal["answered", "missing", "not_meaningful", "unavailable"]

STATEMENT_NAMES = {
    "income_statement": "income statement", "balance_sheet": "balance sheet",
    "cash_flow": "cash flow statement", "equity": "statement of equity",
    "comprehensive_income": "statement of comprehensive income",
    "segment_note": "segment note", "mdna": "MD&A",
}


# --- evaluation ------------------------------------------------------------------------------


# the other rows of a statement page that print the year's column, before a row that leaves it
# blank is read as a nil (a page that prints the column on so few rows is no statement of it)
NIL_COLUMN_ROWS = 3
NIL_PRINTED = "(no amount)"


class Operand(BaseModel):
    """A fact a computation used: the concept, its period and the row it was read from."""

    concept: str
    title: str
    fiscal_year: int
    months: int | None
    value: float = Field(description="as used: an amount paid or spent as a magnitude")
    document: str
    year: int
    statement: str
    label: str
    printed: str
    page: int
    quote: str
    scale: float = 1.0

    @property
    def period(self) -> str:
        if self.months is None:
            return f"end of FY{self.fiscal_year}"
        if self.months == 12:
            return f"FY{self.fiscal_year}"
        return f"{self.months} months of FY{self.fiscal_year}"

    @classmethod
    def read(cls, concept: str, title: str, fiscal_year: int, fact: StatementFact,
             value: float) -> Operand:
        """The operand a statement fact gives, its row cited as printed."""
        return cls(concept=concept, title=title, fiscal_year=fiscal_year, months=fact.months,
                   value=value, document=fact.document, year=fact.year,
                   statement=fact.statement, label=fact.label, printed=fact.printed,
                   page=fact.page, quote=fact.quote, scale=fact.scale)

    def citation(self) -> SourceCitation:
        """The operand's row as a citation: it stands for the label and the printed figure."""
        return SourceCitation(document=self.document, year=self.year, page=self.page,
                              quote=self.quote, supports=f"{self.label} {self.printed}")


class _Value(BaseModel):
    value: float  # never None: a missing operand raises _Missing
    shown: str
    # the computation in words, each operand by its title and amount ("365 * average accounts
    # payable of $47,016.5 million / cost of revenue of $394,605 million"); "" for a zero taken
    worded: str = ""
    # the line item one row read stands for, and its unit: an average of two years of the same
    # line item is said as that line item's average; "" for a computation
    title: str = ""
    unit: Unit = "USD"


class _Missing(Exception):
    pass


class FormulaError(ValueError):
    """A formula the evaluator cannot read: a name no definition has, an element it does not
    evaluate, a stored metric that uses itself."""


# words a label match ignores: articles, and the "total"/"net" a row may print or not
_LABEL_STOP = LABEL_STOP_WORDS
EXACT_ROW_WORDS = 3  # a row the question names by fewer words is read under them exactly


# words a definition adds to a row's label without naming another row ("expenses", "amount")
_IMPLIED_WORDS = frozenset({"expense", "consolidated", "reported"})
# words of a row that holds a period's opening balance: the period before's closing one, never
# a balance a definition names without saying so ("cash at end of year" is not "at beginning")
_OPENING_WORDS = frozenset({"beginning", "opening"})
# words of a row that holds a change of a balance ("Net increase in cash", "Other current assets"
# under "Changes in certain working capital items"): the flow, never the balance it moves
_CHANGE_WORDS = frozenset({"increase", "decrease", "change"})


def _label_words(text: str) -> tuple[str, ...]:
    """A label's or a phrase's words as rows are matched on: no stop words, abbreviations
    spelled out, a plural as its singular ("expenses" is "expense")."""
    text = re.sub(r"\bshare[- ]based\b", "stock-based", normalize_label(text))  # ASC 718's names
    spelled = load_vocabulary().abbreviations.labels  # "sg&a": the words a label prints
    words = " ".join(spelled.get(w, w) for w in re.findall(r"[a-z0-9&]+", text))
    return tuple(_singular(w) for w in words.split() if w not in _LABEL_STOP)


def _singular(word: str) -> str:
    """A plural as its singular, the same on both sides of a match: "expenses" and
    "expense", "inventories" and "inventory", "taxes" and "tax"; "loss" and "business" stay."""
    if len(word) <= 3 or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


def _all_words(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[a-z0-9&]+", normalize_label(text)))


# a statement row a formula names by its printed label; a formula that is one such row alone
# ("By how much did its provision for credit losses change?") has no formula to state
ROW_TERM_RE = re.compile(r"\brow\('[^']*'\)")


# what a label nets its item of: the words after it name a deduction, not the row's item
_NET_OF_RE = re.compile(r"\bnet\s+of\b|,\s*less\b", re.IGNORECASE)


def _label_distance(phrase: tuple[str, ...], label: str) -> int | None:
    """How far a printed label is from a phrase a definition writes: 0 when its words (or
    those before its first comma or parenthesis) are the phrase's, the count of extra words
    when it holds all of them (at most two), else None."""
    head = re.split(r",|\s\(", label, maxsplit=1)[0]
    if _OPENING_WORDS & set(_label_words(label)) and not _OPENING_WORDS & set(phrase):
        return None  # an opening balance answers only a phrase that asks for it
    netted = _NET_OF_RE.split(label, maxsplit=1)
    if len(netted) > 1 and not set(phrase) <= set(_label_words(netted[0])):
        return None  # "Investment securities, net of allowance for credit losses" is no allowance
    if phrase in (_label_words(label), _label_words(head)):
        return 0
    words = _label_words(label)
    if set(phrase) == set(words):  # the same words in another order
        return 0
    extra = len(words) - len(phrase)
    if set(phrase) <= set(words) and 0 < extra <= 2:
        return extra
    # the phrase adds a word the label leaves implied ("R&D expenses" for "Research and
    # development"): farther than any label that holds the whole phrase
    if words and set(words) < set(phrase) and set(phrase) - set(words) <= _IMPLIED_WORDS:
        return 3
    return None


def _row_distance(phrase: tuple[str, ...], fact: StatementFact) -> int | None:
    """:func:`_label_distance` of a row's label, or, for a row a single word labels, of its
    caption and label together ("Weighted-average shares outstanding" over "Diluted")."""
    bare = len(re.findall(r"[a-z]+", fact.label.lower())) == 1
    found = [d for label in (fact.label, f"{fact.group} {fact.label}" if bare else "")
             if label and (d := _label_distance(phrase, label)) is not None]
    return min(found, default=None)


def _change_unasked(phrase: tuple[str, ...], fact: StatementFact) -> bool:
    """A row of a balance's change that a phrase does not ask for: ranked after the balance's
    own row ("other current assets" is the balance sheet's, not the working capital change)."""
    caption = fact.group if re.match(r"(?i)(?:net )?changes? in\b", fact.group) else ""
    return bool(_CHANGE_WORDS & set(_label_words(f"{caption} {fact.label}"))) and not (
        _CHANGE_WORDS & set(phrase))


def _units_named(phrase: tuple[str, ...]) -> frozenset[str]:
    """The units of the rows a phrase may name: dollars, and per-share amounts or share
    counts (in the scale their statement prints them in) only when it says shares."""
    if "share" not in phrase:
        return frozenset({"USD"})
    return frozenset({"USD", "USD/share" if "per" in phrase else "shares"})


def _pages(pages: Sequence[int]) -> str:
    """Zero-based page indexes as printed page numbers: "page 53", "pages 52-53 and 60"."""
    runs: list[list[int]] = []
    for page in sorted(set(pages)):
        if runs and page == runs[-1][-1] + 1:
            runs[-1].append(page)
        else:
            runs.append([page])
    shown = [f"{r[0] + 1}" if len(r) == 1 else f"{r[0] + 1}-{r[-1] + 1}" for r in runs]
    word = "page" if len(shown) == 1 and "-" not in shown[0] else "pages"
    return f"{word} {' and '.join([', '.join(shown[:-1]), shown[-1]] if len(shown) > 1 else shown)}"


_BINARY: dict[type, tuple[str, Callable[[float, float], float]]] = {
    ast.Add: ("+", operator.add), ast.Sub: ("-", operator.sub), ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv), ast.Pow: ("^", operator.pow),
}


def _worded(left: str, symbol: str, right: str) -> str:
    """Two operands in words joined by their operation; a zero taken (no words) drops out."""
    if not left or not right:
        return f"-{wrap(right)}" if right and symbol == "-" else left or right
    shown = {"*": "×", "/": "/", "+": "+", "-": "-", "^": "^"}[symbol]
    return f"{wrap(left)} {shown} {wrap(right)}"


_COMPUTED = re.compile(r" [-+×/^] ")  # words of a computation, not of one row read
_WORDED_MOST = 240  # characters of a computation the first sentence gives in words


HISTORY_YEARS = 2  # years before the compared two a profile gives: a 10-K prints three


def _parts_read(facts: Sequence[StatementFact], concepts: dict[str, ConceptDef]
                ) -> list[StatementFact]:
    """The facts of each line item read among another's rows (``part_of``: net sales among
    revenue's), as facts of their own: the rows printed under one of its line items where the
    column prints another row of the whole (total revenues); a row that is the whole itself
    is read as the whole, once."""
    out = []
    read = {f.concept for f in facts}
    for name, entry in concepts.items():
        if not entry.part_of or name in read:  # an evaluator's copy has them already
            continue
        whole = [f for f in facts if f.concept == entry.part_of]
        columns = Counter((f.statement, f.page, f.column) for f in whole)
        out += [f.model_copy(update={"concept": name}) for f in whole
                if normalize_label(f.label) in entry.line_items
                and columns[(f.statement, f.page, f.column)] > 1]
    return out


# an operand of a year after the statements' last (:meth:`Evaluator.after_printed`)
LATER_PERIOD = "the statements print no period after FY"


class Evaluator:
    """Evaluates formulas over one filing's facts, remembering every fact it used and every
    operand it could not find."""

    def __init__(self, facts: Sequence[StatementFact], months: int = 12,
                 formulas: dict[str, str] | None = None,
                 written: dict[str, str] | None = None, year_end: bool = True,
                 exact_rows: bool = False) -> None:
        self.defs = load_vocabulary()
        # a row named by fewer than EXACT_ROW_WORDS words read only under those words exactly
        # (:attr:`MetricQuestion.named_row`): "net credit losses" is no "Provision for credit
        # losses"
        self.exact_rows = exact_rows
        self.year_end = year_end  # an interim balance's earlier one: the fiscal year's end
        self.facts = [*facts, *_parts_read(facts, self.defs.concepts)]
        self.months = months
        self.formulas = formulas or {}
        # the words a question's definition names a line item by: its row printed under those
        # words before the vocabulary's preferred label ("net sales" beside "total revenues")
        self.written = dict(written or {})
        self.read_as: dict[str, str] = {}  # a line item read from the row of its words: label
        self.operands: dict[tuple[str, int], Operand] = {}
        self.missing: list[str] = []
        self.absent: list[str] = []  # the concepts and rows not found (a kind may explain them)
        self.zeroed: list[str] = []
        # a line item the filing prints no row of, computed from its parts (its ``derived``),
        # by key; and each operand read for one, the outermost total it is a part of
        self.totals: dict[tuple[str, int], float] = {}
        self.part_of: dict[tuple[str, int], tuple[str, int]] = {}
        self._stack: list[str] = []
        self._asked: int | None = None  # the fiscal year a formula is evaluated at
        self.said = ""  # the sentence so far: an operand it gives is named by its title alone

    def copy(self) -> Evaluator:
        """A fresh evaluator over the same facts and question: a trial that marks nothing."""
        return Evaluator(self.facts, self.months, self.formulas, self.written, self.year_end,
                         self.exact_rows)

    def where(self, statements: Sequence[str]) -> str:
        """Where the reader looked: the first of the statements it read, with its pages."""
        for statement in statements:
            pages = [f.page for f in self.facts if f.statement == statement]
            if pages:
                return f"in the {STATEMENT_NAMES.get(statement, statement)} on {_pages(pages)}"
        return "in the statements read"

    def printed(self, concept: str) -> bool:
        return any(f.concept == concept for f in self.facts)

    def pick(self, concept: str, fiscal_year: int) -> StatementFact | None:
        """The fact of a concept for a fiscal year: the right duration (or a balance-sheet
        date), the definition's preferred statement first, then the concept map's best label,
        a total before a component, the first printed."""
        entry = self.defs.concepts[concept]
        order = {s: i for i, s in enumerate(entry.statements)}
        candidates = [
            f for f in self.facts
            if f.concept == concept and f.fiscal_year == fiscal_year
            and f.unit == entry.unit and (f.months is None if entry.kind == "stock"
                                          else f.months == self.months)
        ]
        if not candidates and entry.kind == "stock":  # a date column the reader gave months
            candidates = [f for f in self.facts if f.concept == concept
                          and f.fiscal_year == fiscal_year and f.unit == entry.unit]
        if not candidates and entry.kind != "stock" and self.months < 12:
            candidates = self.interim_columns(concept, fiscal_year, entry.unit)
        if entry.kind == "stock" and self.months < 12 and self.year_end:
            candidates = self.year_end_columns(concept, fiscal_year, entry.unit) or candidates
        if not candidates:
            return None
        written = _label_words(self.written[concept]) if concept in self.written else None
        chosen = min(candidates, key=lambda f: (order.get(f.statement, len(order)),
                                                written is not None
                                                and _label_words(f.label) != written,
                                                f.rank, not f.total, f.page, f.row))
        if written is not None and _label_words(chosen.label) == written:
            self.read_as[concept] = normalize_label(chosen.label)
        return chosen

    def printed_nil(self, concept: str, fiscal_year: int) -> StatementFact | None:
        """The concept's row as its primary statement prints it with no amount in the column
        of the year asked, while that page prints the column on other rows: a nil, cited with
        its row (Corning's 2018 income statement prints "Restructuring, impairment and other
        charges" with 77 for 2016 and nothing for 2018 or 2017: none that year, not a line the
        reader missed). None when no such row is printed."""
        entry = self.defs.concepts[concept]
        months = None if entry.kind == "stock" else self.months
        primary = entry.statements[0] if entry.statements else None
        rows: dict[tuple[int, int], list[StatementFact]] = {}
        for f in self.facts:
            if f.concept == concept and f.statement == primary and f.unit == entry.unit \
                    and f.months == months:
                rows.setdefault((f.page, f.row), []).append(f)
        for (page, row), printed in sorted(rows.items()):
            if any(f.fiscal_year == fiscal_year for f in printed):
                continue
            others = {f.row for f in self.facts if f.page == page and f.statement == primary
                      and f.fiscal_year == fiscal_year and f.months == months and f.row != row}
            if len(others) >= NIL_COLUMN_ROWS:
                return printed[0].model_copy(update={"fiscal_year": fiscal_year, "value": 0.0,
                                                     "printed": NIL_PRINTED})
        return None

    def interim_columns(self, concept: str, fiscal_year: int, unit: str
                        ) -> list[StatementFact]:
        """An interim statement whose period headings the reader lost (two columns of one
        year on a page, no months): Regulation S-X Rule 10-01(c)(2) orders them the quarter,
        then the year to date, so the first is the three months asked and the second a
        longer period."""
        return [pair[0] if self.months == 3 else pair[1]
                for pair in self._dated_pairs(concept, fiscal_year, unit)]

    def year_end_columns(self, concept: str, fiscal_year: int, unit: str
                         ) -> list[StatementFact]:
        """The preceding fiscal year's end, for the year before an interim balance sheet's:
        Regulation S-X Rule 10-01(c)(1) compares the quarter's end with it, and a retailer adds
        the quarter a year before after it (Walmart: April 30, 2023, January 31, 2023, April
        30, 2022). A row that prints two dates of the next year holds it as the later of the
        two; none when no row does."""
        return [pair[1] for pair in self._dated_pairs(concept, fiscal_year + 1, unit)]

    def _dated_pairs(self, concept: str, fiscal_year: int, unit: str
                     ) -> list[tuple[StatementFact, StatementFact]]:
        """The two columns of the year each row of the concept prints, when it prints exactly
        two (dates, or periods whose length the reader lost), in column order."""
        rows: dict[tuple[int, int], list[StatementFact]] = {}
        for f in self.facts:
            if (f.concept == concept and f.fiscal_year == fiscal_year and f.unit == unit
                    and f.months is None):
                rows.setdefault((f.page, f.row), []).append(f)
        pairs = []
        for _, found in sorted(rows.items()):
            if len(found) == 2:
                first, second = sorted(found, key=lambda f: f.column)
                pairs.append((first, second))
        return pairs

    def concept(self, name: str, fiscal_year: int) -> _Value:
        entry = self.defs.concepts[name]
        fact = self.pick(name, fiscal_year)
        if fact is None and not entry.derived:
            fact = self.printed_nil(name, fiscal_year)
        if fact is None:
            if entry.derived:  # a total of the rows read for it, remembered as such
                before = set(self.operands)
                total = self.formula(entry.derived, fiscal_year, name)
                self.totals[(name, fiscal_year)] = total.value
                for key in set(self.operands) - before:  # an outer total is read last
                    self.part_of[key] = (name, fiscal_year)
                unit = _concept_unit(entry.unit)
                return total.model_copy(update={"worded": self.amount(
                    entry.title, total.value, unit, fiscal_year), "title": entry.title,
                    "unit": unit})
            when = period_name(fiscal_year, entry.kind, self.months)
            self.missing.append(self.after_printed(fiscal_year, when) or
                                f"the reader did not find {entry.title} for {when} "
                                f"{self.where(entry.statements)}")
            self.absent.append(name)
            raise _Missing
        value = abs(fact.value) if entry.magnitude else fact.value
        return self.used(name, entry.title, fiscal_year, fact, value)

    def after_printed(self, fiscal_year: int, when: str) -> str:
        """Why an operand of a year after every fiscal year the statements print (in the
        filer's names of its years) is not read: a period to come ("How much capital investment
        does it plan for 2023?" of a 2022 10-K, which MD&A states), which no reader can miss;
        "" for a year they cover."""
        printed = [f.fiscal_year for f in self.facts if f.fiscal_year is not None]
        if not printed or fiscal_year <= max(printed):
            return ""
        return f"{LATER_PERIOD}{max(printed)}, and {when} is after it"

    def used(self, key: str, title: str, fiscal_year: int, fact: StatementFact,
             value: float) -> _Value:
        """A fact an operand is read from, remembered for the answer to cite."""
        self.operands.setdefault((key, fiscal_year),
                                 Operand.read(key, title, fiscal_year, fact, value))
        unit = _concept_unit(fact.unit)
        return _Value(value=value, shown=short(value),
                      worded=self.amount(title, value, unit, fiscal_year), title=title, unit=unit)

    def amount(self, title: str, value: float, unit: Unit, fiscal_year: int) -> str:
        """An operand in words: its title and amount, with its year when not the one asked."""
        when = f" ({period_name(fiscal_year, 'flow', 12)})" if (
            self._asked is not None and fiscal_year != self._asked) else ""
        if title[:1].isupper() and not title[1:2].isupper():  # a row's label, mid-sentence
            title = title[:1].lower() + title[1:]
        full = f"{title}{when} of {format_value(value, unit, None)}"
        return f"{title}{when}" if full in self.said else full  # given once in a sentence

    def row(self, phrase: str, fiscal_year: int) -> _Value:
        """The row a definition names by a label the vocabulary lacks ("accounts and notes
        receivable"): the statement row whose printed label has those words (the closest
        label, a column of the period's length or a balance date), else the concept the
        concept map gives that label; its concept's sign rule applies."""
        words = _label_words(phrase)
        written = _all_words(phrase)
        units = _units_named(words)
        scored = [(d, f) for f in self.facts if f.fiscal_year == fiscal_year and f.unit in units
                  and (f.months is None or f.months == self.months)
                  and (d := _row_distance(words, f)) is not None
                  and not (d and self.exact_rows and len(words) < EXACT_ROW_WORDS)
                  ] if words else []
        if scored:
            # "net interest income" over "Interest income": the words ranking leaves out
            # ("net", "total") decide between labels that are otherwise the same
            _, fact = min(scored, key=lambda x: (_change_unasked(words, x[1]), x[0],
                                                 _all_words(x[1].label) != written,
                                                 x[1].months is None, not x[1].total,
                                                 x[1].rank, x[1].page, x[1].row))
            entry = self.defs.concepts.get(fact.concept or "")
            value = abs(fact.value) if entry and entry.magnitude else fact.value
            return self.used(f"row:{phrase}", " ".join(fact.label.split()), fiscal_year, fact,
                             value)
        for statement in ("income_statement", "balance_sheet", "cash_flow"):
            concept, _ = concept_of(phrase, statement)
            if concept in self.defs.concepts:
                return self.concept(concept, fiscal_year)
        self.missing.append(self.after_printed(fiscal_year, f"FY{fiscal_year}") or
                            f"the reader did not find a row \"{phrase}\" for FY{fiscal_year} "
                            f"in the statements read")
        self.absent.append(f"row:{phrase}")
        raise _Missing

    def name(self, name: str, fiscal_year: int) -> _Value:
        """A name's value: the question's own definition, else the stored metric, else the
        line item; inside its own definition a name is the line item (a definition that
        reuses a line item's name is over the printed line, never itself)."""
        if name in self.formulas and name not in self._stack:
            return self.formula(self.formulas[name], fiscal_year, name)
        if name in self.defs.metrics and name not in self._stack:
            inner = self.formula(self.defs.formula_of(name), fiscal_year, name)
            metric = self.defs.metrics[name]
            return inner.model_copy(update={"worded": self.amount(
                metric.title, inner.value, metric.unit, fiscal_year), "title": metric.title,
                "unit": metric.unit})
        if name in self.defs.concepts:
            return self.concept(name, fiscal_year)
        if name in self._stack:
            raise FormulaError(f"circular definition of {name}")
        raise FormulaError(f"unknown name {name!r} in a formula")

    def formula(self, formula: str, fiscal_year: int, name: str = "") -> _Value:
        self._stack.append(name)
        try:
            return self.node(ast.parse(formula, mode="eval").body, fiscal_year)
        finally:
            self._stack.pop()

    def node(self, node: ast.expr, fy: int) -> _Value:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return _Value(value=float(node.value), shown=f"{node.value:g}",
                          worded=f"{node.value:g}")
        if isinstance(node, ast.Name):
            return self.name(node.id, fy)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            inner = self.node(node.operand, fy)
            sign = -1 if isinstance(node.op, ast.USub) else 1
            return _Value(value=sign * inner.value, shown=f"-{inner.shown}" if sign < 0
                          else inner.shown, worded=f"-{inner.worded}" if sign < 0
                          else inner.worded)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            symbol, op = _BINARY[type(node.op)]
            left, right = self.node(node.left, fy), self.node(node.right, fy)
            if symbol == "/" and right.value == 0:
                self.missing.append("a denominator is zero")
                raise _Missing
            return _Value(value=op(left.value, right.value),
                          shown=f"{wrap(left.shown)} {symbol} {wrap(right.shown)}",
                          worded=_worded(left.worded, symbol, right.worded))
        if isinstance(node, ast.Subscript):
            offset = ast.literal_eval(node.slice)
            if not isinstance(offset, int):
                raise FormulaError(f"a year offset is not a whole number: {offset!r}")
            return self.node(node.value, fy + offset)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "either" and len(node.args) == 2):
            # the first where the filing prints it, else the second: a line printed net
            # ("Interest, net") is the net, not netted again
            seen = len(self.missing)
            try:
                return self.node(node.args[0], fy)
            except _Missing:
                del self.missing[seen:]
                return self.node(node.args[1], fy)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1:
            arg, func = node.args[0], node.func.id
            if func == "row" and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                return self.row(arg.value, fy)
            if func == "avg":
                now, before = self.node(arg, fy), self.node(arg, fy - 1)
                mean = (now.value + before.value) / 2
                return _Value(value=mean, shown=f"({before.shown} + {now.shown}) / 2",
                              worded=self.averaged(arg, mean, fy, now, before))
            if func == "change":
                now, before = self.node(arg, fy), self.node(arg, fy - 1)
                return _Value(value=now.value - before.value,
                              shown=f"({now.shown} - {before.shown})",
                              worded=f"({_worded(now.worded, '-', before.worded)})")
            if func == "opt":
                seen = len(self.missing)
                try:
                    return self.node(arg, fy)
                except _Missing:
                    self.zeroed += self.missing[seen:]
                    del self.missing[seen:]
                    return _Value(value=0.0, shown="0")  # worded "": a zero taken, left out
        raise FormulaError(f"unsupported formula element: {ast.dump(node)[:80]}")

    def averaged(self, arg: ast.expr, mean: float, fy: int, now: _Value, before: _Value) -> str:
        """An average in words: "average accounts payable of $47,016.5 million" for a line
        item, the two years' words otherwise."""
        if now.title and now.title == before.title:  # one line item (either's pick too)
            return f"average {self.amount(now.title, mean, now.unit, fy)}"
        return f"the average of {before.worded} and {now.worded}"

    def evaluate(self, formula: str, fiscal_year: int) -> float | None:
        """The formula at a fiscal year, or None (the missing operands are in ``missing``);
        every operand is evaluated, so one answer names all that are missing."""
        found = self.computed(formula, fiscal_year)
        return None if found is None else found.value

    def shown(self, formula: str, fiscal_year: int) -> str:
        found = self.computed(formula, fiscal_year)
        return "" if found is None else found.shown

    def computed(self, formula: str, fiscal_year: int) -> _Value | None:
        """The formula evaluated at the fiscal year asked: its value, its computation in
        figures and in words (an operand of another year says its year); None when an operand
        is missing."""
        self._asked = fiscal_year
        try:
            return self.formula(formula, fiscal_year)
        except _Missing:
            return None
        finally:
            self._asked = None


# --- the answer ------------------------------------------------------------------------------


class MetricAnswer(BaseModel):
    """A computed answer: the result, how it was computed and every operand it used."""

    question: MetricQuestion
    status: Status
    value: float | None = None
    values: dict[int, float] = Field(default_factory=dict, description="the target per year")
    headline: str = Field(description="the first sentence: the result at the precision asked")
    details: list[str] = Field(default_factory=list, description="formula, computation, rule")
    operands: list[Operand] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)

    @property
    def text(self) -> str:
        lines = [self.headline, *self.details]
        lines += [f"{o.title[:1].upper()}{o.title[1:]}, {o.period}: {o.printed} ({_statement(o)} "
                  f"p.{o.page + 1}: \"{o.quote}\")" for o in self.operands]
        return "\n".join(lines)

    def claims(self) -> list[Claim]:
        """The answer as claims: the headline cites every operand, each operand line cites
        its row; the formula and computation lines cite nothing (they are arithmetic)."""
        citations = [o.citation() for o in self.operands]
        claims = [Claim(text=self.headline, citations=citations)]
        claims += [Claim(text=d) for d in self.details]
        # each operand says where it is printed: the statement, the page and the row as printed
        claims += [Claim(text=f"{o.title[:1].upper()}{o.title[1:]}, {o.period}: {o.printed} "
                              f"({_statement(o)} p.{o.page + 1}: \"{_clip(o.quote)}\").",
                         citations=[o.citation()])
                   for o in self.operands]
        return claims


def moved(answer: MetricAnswer) -> str:
    """A computed trend in a clause, for beside another's: "gross margin decreased 420 basis
    points, from 36.0% to 31.8%" (its first and last year; a move in points only for a
    percentage); empty unless answered with two years."""
    if answer.status != "answered" or len(answer.values) < 2:
        return ""
    defs = load_vocabulary()
    first, last = (answer.values[y] for y in (min(answer.values), max(answer.values)))
    unit = _unit(answer.question, defs)
    went = "was unchanged at" if first == last else "increased from" if last > first \
        else "decreased from"
    shown = [format_value(v, unit, answer.question.decimals, answer.question.scale)
             for v in (first, last)]
    if unit == "percent" and first != last and (points := _shown_points(
            first, last, 1 if answer.question.decimals is None else answer.question.decimals)):
        # "gross margin decreased 110 basis points from 40.4% to 39.3%"
        verb = "increased" if last > first else "decreased"
        return f"{_title(answer.question, defs)} {verb} {points} from {shown[0]} to {shown[1]}"
    return (f"{_title(answer.question, defs)} {went} {shown[1]}" if first == last else
            f"{_title(answer.question, defs)} {went} {shown[0]} to {shown[1]}")


# a percentage's move up to this many points is said in basis points, as MD&A and analysts say
# a margin's ("gross margin decreased 110 basis points"); a larger one (a tax rate's 19.5% to
# 82.5%) in percentage points
BASIS_POINTS_UP_TO = 5.0


def _shown_points(first: float, last: float, places: int) -> str:
    """A percentage's move between its two values as shown (:func:`_shown_move`): "110 basis
    points" for 40.4% to 39.3%, so each part of a bridge states its own move as the whole's
    does, and unrounded too where rounding bends it (Costco's fiscal 2021 gross margin as
    shown, 11.2% to 11.1%: "10 basis points", 7 unrounded, within half a shown unit); past
    :data:`BASIS_POINTS_UP_TO` points in percentage points; empty when the shown values are
    the same."""
    points, exact, bent = _shown_move(first, last, places)
    if not round(points, places):
        return ""  # 49.3% to 49.3% as shown: no move to state
    if points > BASIS_POINTS_UP_TO:
        return f"{points:,.{places}f} percentage points"
    if bent:
        return f"{points * 100:,.0f} basis points as shown ({exact:,.0f} unrounded)"
    return f"{points * 100:,.0f} basis points"


def _shown_move(first: float, last: float, places: int) -> tuple[float, float, bool]:
    """A percentage's move between two fractions as their values are shown to ``places``
    decimals, in points, as MD&A computes it so a sentence's own figures add up (15.0% to
    16.1% is 1.1 points, though 15.03% to 16.05% is 1.02); the move unrounded, in basis
    points; and whether rounding bends the shown move by half a shown unit or more."""
    points = abs(round(last * 100, places) - round(first * 100, places))
    exact = abs(last - first) * 10_000
    return points, exact, abs(exact - points * 100) >= 10 ** (2 - places) / 2


def _clip(quote: str, width: int = 140) -> str:
    quote = " ".join(quote.split())
    return quote if len(quote) <= width else quote[: width - 3].rstrip() + "..."


def metric_of(question: MetricQuestion, defs: Vocabulary) -> MetricDef | None:
    """The metric a question asks (None for a line item): the stored one, or the one the
    question defines under its own name (a ratio when its formula divides, else an amount)."""
    if not question.is_metric:
        return None
    if question.target in defs.metrics:
        return defs.metrics[question.target]
    formula = question.formulas.get(question.target, "0")
    top = ast.parse(formula, mode="eval").body
    divides = isinstance(top, ast.BinOp) and isinstance(top.op, ast.Div)
    return MetricDef(title=_title(question, defs), formula=formula,
                     unit="ratio" if divides else "USD", source="the question's own definition")


def _title(question: MetricQuestion, defs: Vocabulary, read_as: dict[str, str] | None = None
           ) -> str:
    """How the answer names what it computed: the question's own name for a metric it defines,
    a line item read from the row printed under the words the question asks it by under that
    row's label ("net sales" beside total revenues: ``Evaluator.read_as``), else the title."""
    label = (read_as or {}).get(question.target)
    if label and _label_words(label) != _label_words(defs.title(question.target)):
        return label
    return question.titles.get(question.target) or defs.title(question.target)


def _unit(question: MetricQuestion, defs: Vocabulary) -> Unit:
    metric = metric_of(question, defs)
    if metric is None:
        return _concept_unit(defs.concepts[question.target].unit)
    unit = metric.unit
    if question.aggregate == "cagr" or (question.aggregate == "trend" and unit == "USD"):
        return "percent" if question.aggregate == "cagr" else unit
    if unit == "percent" and question.stated and not question.percent:
        return "ratio"  # "ROA is defined as: net income / average total assets": a ratio
    if unit == "ratio" and question.percent:
        return "percent"
    return unit


def _default_year(facts: Sequence[StatementFact], months: int) -> int | None:
    """The filing's own fiscal year: the latest year a statement column names."""
    years = [f.fiscal_year for f in facts if f.fiscal_year is not None
             and f.statement in ("income_statement", "balance_sheet", "cash_flow")
             and (f.months is None or f.months == months)]
    return max(years) if years else None


def _unread(formula: str, evaluator: Evaluator, defs: Vocabulary) -> str | None:
    """A statement a line item of the formula is read from that the reader did not read at
    all (an extraction gap, or a filing without statements: another filing or the quotes may
    answer), or None."""
    read = {f.statement for f in evaluator.facts}
    return next((defs.concepts[n].statements[0]
                 for n in _line_items(formula, evaluator.formulas, defs)
                 if not read & set(defs.concepts[n].statements)), None)


def _line_items(formula: str, formulas: dict[str, str], defs: Vocabulary) -> list[str]:
    """The line items a formula comes down to, each once: through the question's own
    definitions and the vocabulary's metrics."""
    seen: set[str] = set()
    items: list[str] = []
    pending = [formula]
    while pending:
        for name in formula_names(pending.pop()):
            if name in seen:
                continue
            seen.add(name)
            if name in formulas:
                pending.append(formulas[name])
            if name in defs.metrics:
                pending.append(defs.formula_of(name))
            elif name in defs.concepts:
                items.append(name)
    return items


def answer_metric(question: MetricQuestion, facts: Sequence[StatementFact],
                  company: str | None = None, cover: str = "") -> MetricAnswer:
    """The question answered from one filing's facts.

    ``status`` says what came of it: ``answered``; ``missing`` (an operand the reader did not
    find, named with the statement and pages it read: the quotes answer); ``not_meaningful``
    (the filer is of a kind, read from its own presentation or the SIC code on its ``cover``,
    whose statements have no such line: a bank's gross margin); ``unavailable`` (no facts of a
    statement it needs, or a formula it cannot read: let another path answer).
    """
    defs = load_vocabulary()
    metric = metric_of(question, defs)
    formula = question.formulas.get(question.target) or (
        (metric.formula or question.target) if metric else question.target)
    asked, question = question, _year_to_date(question, facts, formula, defs)
    answer = _answered(question, facts, formula, defs, company, cover)
    if answer.status == "missing" and (ended := _at_year_end(question, formula)):
        at_end = _answered(question, facts, ended, defs, company, cover)
        if at_end.status == "answered":
            answer = at_end
            answer.details.insert(0, _YEAR_END_NOTE)
    if question is not asked and answer.status == "answered":
        given = when_asked(question, sorted(answer.values) or list(question.years))
        answer.details.insert(0, f"A quarterly report's cash flow statement covers the year to "
                                 f"date (Regulation S-X Rule 10-01(c)(4)): it prints no "
                                 f"{MONTHS_IN_WORDS.get(asked.months, asked.months)}-month "
                                 f"figure, so the {given} are given.")
    return answer


_AVERAGE_TERM_RE = re.compile(r"\bavg\(((?:[^()]|\([^()]*\))+)\)")  # avg(either(a, b)) too
_YEAR_END_NOTE = ("The balance sheet prints two year-ends, so the earlier year has no average "
                  "balance: both years are computed on year-end balances.")


def _at_year_end(question: MetricQuestion, formula: str) -> str | None:
    """A trend of a metric over average balances, on year-end balances instead: a 10-K's
    balance sheet prints two year-ends, so the earlier year's average needs a third the
    filing does not print (return on equity's move from FY2018 to FY2019). Said in the
    answer; None for any other question."""
    if question.aggregate != "trend" or not _AVERAGE_TERM_RE.search(formula):
        return None
    return _AVERAGE_TERM_RE.sub(r"\1", formula)


def _year_to_date(question: MetricQuestion, facts: Sequence[StatementFact], formula: str,
                  defs: Vocabulary) -> MetricQuestion:
    """A quarter asked of flows a 10-Q prints only in its cash flow statement, which covers
    the year to date: the year-to-date period instead (said so in the answer), never a
    quarter's figure made up and never "not found" for a figure the filing prints. A yes or
    no about the quarter ("Did it buy back shares in Q3?") is not answered from the year to
    date: shares bought in the first half say nothing of the third quarter; one asked "as of
    Q2" (the point the year has reached) is."""
    if question.months >= 12 or (question.yes_no and not question.to_date):
        return question
    items = _line_items(" + ".join([formula, *question.choices]), question.formulas, defs)
    if not items or any(defs.concepts[i].statements[:1] != ["cash_flow"] for i in items):
        return question
    months = {f.months for f in facts if f.statement == "cash_flow" and f.months}
    longer = sorted(m for m in months if question.months < m < 12)
    if question.months in months or not longer:
        return question
    return question.model_copy(update={"months": longer[0], "quarter": None})


def _answered(question: MetricQuestion, facts: Sequence[StatementFact], formula: str,
              defs: Vocabulary, company: str | None, cover: str) -> MetricAnswer:
    """The question computed from the facts (:func:`answer_metric`'s statuses)."""
    evaluator = Evaluator(facts, question.months, question.formulas, question.written,
                          year_end=not question.year_ago, exact_rows=question.named_row)
    if (statement := _unread(formula, evaluator, defs)) is not None:
        return MetricAnswer(question=question, status="unavailable",
                            headline=f"The filing's {STATEMENT_NAMES.get(statement, statement)} "
                                     f"was not read.")
    years = list(question.years) or [y for y in [_default_year(facts, question.months)] if y]
    if not years:
        return MetricAnswer(question=question, status="unavailable",
                            headline="The filing's statements name no fiscal year.")
    if question.aggregate == "trend" and not question.years:
        years = [years[0] - 1, years[0]]  # a change asked of no year: the latest against its prior
    try:
        if question.aggregate == "choice":
            return _choice(question, evaluator, years[-1], subject_of(company), defs)
        if question.aggregate == "each":
            return _each(question, evaluator, years[-1], subject_of(company), defs)
        return _computed(question, evaluator, formula, years, company, cover)
    except FormulaError as error:  # the question's formula, not the filing, is at fault
        return MetricAnswer(question=question, status="unavailable",
                            headline=f"The formula could not be evaluated: {error}.")


def _way_unread(question: MetricQuestion, values: dict[int, float], operands: list[Operand]
                ) -> MetricAnswer | None:
    """A row the question names printed in parentheses in every year: a deduction ("Net income
    attributable to noncontrolling interest (49) (223)") or a loss whose size grew as its
    printed value fell; no concept says which way it went, so the quotes answer. None for any
    other."""
    if not (question.named_row and len(values) > 1 and all(v < 0 for v in values.values())):
        return None
    return MetricAnswer(question=question, status="unavailable", operands=operands,
                        headline=f"The row \"{operands[0].label}\" is printed negative in every "
                                 f"year asked: which way it moved is not read.")


def _computed(question: MetricQuestion, evaluator: Evaluator, formula: str, years: list[int],
              company: str | None, cover: str) -> MetricAnswer:
    """The formula evaluated in the years asked, then worded by the aggregate asked."""
    defs = load_vocabulary()
    if question.aggregate in ("trend", "cagr") and len(years) == 1:
        years = [years[0] - 1, years[0]]
    if question.aggregate in ("trend", "cagr"):
        years = [years[0], years[-1]]
    values: dict[int, float] = {}
    computations: list[str] = []
    worded: dict[int, str] = {}  # each year's computation in words, for the first sentence
    for year in years:
        result = evaluator.computed(formula, year)
        if result is not None:
            values[year], worded[year] = result.value, result.worded
            computations.append(f"FY{year}: {result.shown} = "
                                f"{format_value(result.value, base_unit(question, defs), None)}")
    if question.history and not evaluator.missing:
        for year, value in _earlier(question, evaluator, formula, years[0]).items():
            values[year] = value
            computations.insert(0, f"FY{year}: {evaluator.shown(formula, year)} = "
                                   f"{format_value(value, base_unit(question, defs), None)}")
    operands = sorted(evaluator.operands.values(),
                      key=lambda o: (o.fiscal_year, o.statement, o.page, o.concept))
    if evaluator.missing:
        return _not_computed(question, evaluator, formula, years, company, cover, operands,
                             values)
    if (unread := _way_unread(question, values, operands)) is not None:
        return unread
    title = _title(question, defs, evaluator.read_as)
    details = [f"Formula: {title} = {_pretty(formula, defs)}"
               + (" (as the question defines it)." if question.stated else
                  f" ({_source(question, defs)}).")] if question.is_metric and not (
        ROW_TERM_RE.fullmatch(formula)) else []  # a row the question names: read, no formula
    if question.is_metric or question.aggregate != "value":
        details += [f"Computation ({'millions' if 'millions' in _scales(operands) else 'units'} "
                    f"as printed): {c}" for c in computations
                    if _COMPUTED.search(c)]  # one figure read is no computation
    if evaluator.zeroed:
        details.append(f"Taken as 0: {'; '.join(dict.fromkeys(evaluator.zeroed))}.")
    found = _headline(question, values, years, title, subject_of(company), details, operands,
                      _figures_read(question, evaluator),
                      worded if question.is_metric or question.aggregate == "trend" else {})
    if isinstance(found, MetricAnswer):
        return found
    value, headline = found
    headline = _with_parts_moved(question, headline, formula, evaluator, values, years)
    if question.covers and question.yes_no:
        headline = _covered(question, evaluator, years[-1], subject_of(company),
                            when_asked(question, years)) or headline
    if question.explained_by:
        clause, flows = _explained(question, evaluator, years[-1], defs)
        headline = headline[:-1] + clause + "." if clause else headline
        operands = [*operands, *flows]
    if question.judgment and question.aggregate == "value":
        clause, beside = _also(question, evaluator, years[-1], defs, headline)
        headline = headline[:-1] + clause + "." if clause else headline
        operands = [*operands, *beside]
    return MetricAnswer(question=question, status="answered", value=value, values=values,
                        headline=headline, details=details, operands=operands)


def _points_moved(first: float, last: float, places: int) -> str:
    """A percentage's move between the two values as shown, as MD&A computes it, so the
    sentence's own figures add up (15.0% to 16.1% is 1.1 points, though 15.03% to 16.05% is
    1.02), and in basis points as MD&A and analysts write a margin's move; a move the
    rounding of the two shown values bends by half a shown unit or more (Walmart's gross
    margin, 23.84% to 23.65%: 0.1 points as shown, 18 basis points as its MD&A says) is given
    unrounded too, after the shown move in basis points (Ulta's release: 17.0% to 15.5% is
    "150 basis points" as it prints them, 156 unrounded)."""
    points, exact, bent = _shown_move(first, last, places)
    if not round(points, places):
        return f"{points:.{places}f} percentage points"
    if bent:
        return f"{points:.{places}f} percentage points ({points * 100:,.0f} basis points) as " \
               f"shown, or {exact:,.0f} basis points unrounded"
    return f"{points:.{places}f} percentage points, or {points * 100:,.0f} basis points"


def _covered(question: MetricQuestion, evaluator: Evaluator, year: int, subject: str,
             when: str) -> str | None:
    """"Was its free cash flow enough to cover its share repurchases?": yes when the first
    amount is at least the second, said with both amounts, the gap between them and the
    coverage (a ratio alone does not say by how much); None when the question's formula is
    no quotient of two amounts."""
    sides = quotient_sides(question.formulas.get(question.target, ""))
    title = question.titles.get(question.target, "")
    named = coverage_sides(title)
    if sides is None or named is None:
        return None
    found = [evaluator.copy().computed(_expanded(side, question, evaluator.defs), year)
             for side in sides]
    read = [f for f in found if f is not None]
    if len(read) < 2 or not read[1].value:
        return None
    part, total = read[0].value, read[1].value
    part_title, total_title = (_said(side, words, evaluator.defs)
                               for side, words in zip(sides, named,
                                                      strict=True))
    held = part > total if question.exceeds else part >= total
    how = [f" ({w.worded})" if _COMPUTED.search(w.worded) and len(w.worded) <= _WORDED_MOST // 2
           else "" for w in read]  # "free cash flow of $195.1 million (operating ... - capex)"

    def amount(value: float) -> str:
        return format_value(value, "USD", None, question.scale)
    opening = f"{'Yes' if held else 'No'}. {subject} {when} {part_title} of {amount(part)}{how[0]}"
    if question.exceeds:  # two amounts set side by side: by how much one passes the other
        gap = f"by {amount(part - total)}" if held else f"{amount(abs(part - total))} less"
        times = f" ({part / total:.2f} times)" if total > 0 and part > 0 else ""
        return (f"{opening} {'exceeded' if held else 'did not exceed'} its {total_title} of "
                f"{amount(total)}{how[1]}{' ' if held else ': '}{gap}{times}.")
    used = f": its {total_title} took {abs(total / part) * 100:.1f}% of it" if part > 0 else ""
    return (f"{opening} {'covered' if held else 'did not cover'} its {total_title} of "
            f"{amount(total)}{how[1]}: {amount(abs(part - total))} "
            f"{'to spare' if held else 'short'} ({part / total:.2f} times{used}).")


def _expanded(side: str, question: MetricQuestion, defs: Vocabulary) -> str:
    """A coverage's side as the formula it is computed by, so its computation is said in
    words: a metric of the vocabulary (free cash flow) as its formula, a name the question
    defines or a line item as itself."""
    metric = defs.metrics.get(side)
    return (metric.formula or side) if metric and side not in question.formulas else side


def _said(side: str, words: str, defs: Vocabulary) -> str:
    """A side of a coverage as the question names it when its words are the line item's name
    ("share repurchases"), else by the line item's title ("the cash it spent repurchasing its
    shares" is its repurchases of common stock)."""
    return defs.title(side) if side in defs.concepts and whole_term(words) != side else words


def _earlier(question: MetricQuestion, evaluator: Evaluator, formula: str, first: int
             ) -> dict[int, float]:
    """The formula in each year before ``first`` the filing prints every operand of (a 10-K's
    income statement prints three years), latest first until one is missing: a profile is
    the record over the years the filing gives, not one year's change. A year with an
    operand missing is tried on a copy, so it never marks the answer incomplete."""
    found: dict[int, float] = {}
    for year in range(first - 1, first - HISTORY_YEARS - 1, -1):
        trial = evaluator.copy()
        value = trial.evaluate(formula, year)
        if value is None or trial.missing:
            break
        found[year] = evaluator.evaluate(formula, year) or value
    return found


def _source(question: MetricQuestion, defs: Vocabulary) -> str:
    metric = metric_of(question, defs)
    return metric.source if metric else ""


def _within(question: MetricQuestion, within: float, values: dict[int, float], title: str,
            unit: Unit, subject: str) -> tuple[float, str]:
    """Whether a measure stayed within the band asked ("consistent (within 2% each year)"):
    its highest less its lowest over the years, in percentage points for a percentage."""
    years = sorted(values)
    spread = max(values.values()) - min(values.values())
    shown = spread * 100 if unit == "percent" else spread
    held = shown <= within + 1e-9
    points = " percentage points" if unit == "percent" else ""
    band = f"{within:g}{points.removesuffix('s') if within == 1 else points}"
    each = ", ".join(f"{format_value(values[y], unit, question.decimals)} in "
                     f"{period_of(question, y)}" for y in years)
    return spread, (f"{'Yes' if held else 'No'}. {subject} {title} "
                    f"{'stayed within' if held else 'moved by more than'} "
                    f"{band} over {period_of(question, years[0])}-"
                    f"{period_of(question, years[-1])}: {each} (from its lowest to its highest, "
                    f"{shown:.1f}{points}).")


# a measure made of two line items: a ratio ("operating_income / revenue") or a difference
# ("operating_cash_flow - capex")
_TWO_PARTS_RE = re.compile(r"^\s*([a-z_]+)\s*[/-]\s*([a-z_]+)\s*$")


def _with_parts_moved(question: MetricQuestion, headline: str, formula: str,
                      evaluator: Evaluator, values: dict[int, float], years: Sequence[int]
                      ) -> str:
    """A trend's sentence ended with how each of the two dollar line items its measure is made
    of moved between the two years compared ("; gross profit fell $233 million (18.7%) to
    $1,013 million and net sales fell $372 million (10.3%) to $3,243 million"). Why: a margin
    moves with its numerator against its denominator, and a difference with each side; MD&A
    explains it by both (over the last two years of a record over several). Unchanged for a
    move too small to show ("was unchanged at 40.0%") or a measure of other parts."""
    defs, scale = load_vocabulary(), question.scale
    parts = _TWO_PARTS_RE.match(formula)
    if parts is None or len(years) != 2 or question.aggregate != "trend":
        return headline
    unit = _unit(question, defs)
    if len({format_value(values[y], unit, question.decimals, scale) for y in years}) == 1:
        return headline  # a move too small to show: "was unchanged at 40.0%"
    said = []
    for name in parts.groups():
        concept = defs.concepts.get(name)
        then, now = (evaluator.computed(name, year) for year in years)
        if concept is None or concept.unit != "USD" or then is None or now is None \
                or then.value <= 0:
            return headline
        level = format_value(now.value, "USD", None, scale)
        moved = dollars_moved(then.value, now.value, scale)
        said.append(f"{defs.title(name)} {moved} to {level}" if moved
                    else f"{defs.title(name)} was unchanged at {level}")
    # after earlier years of a record ("..., after 16.0% in FY2017"), the two years named
    earlier = any(y < years[0] for y in values)
    against = f" against {period_of(question, years[0])}," if earlier else ""
    return f"{headline[:-1]};{against} {' and '.join(said)}."


def _headline(question: MetricQuestion, values: dict[int, float], years: list[int], title: str,
              subject: str, details: list[str], operands: list[Operand], read: str = "",
              worded: dict[int, str] | None = None) -> tuple[float, str] | MetricAnswer:
    """The result and the sentence that opens the answer, by the aggregate asked (a CAGR of a
    value that is not positive: an answer saying so); a metric's value with how it was
    reached, its computation in words when one sentence holds it."""
    defs, rules = load_vocabulary(), load_rules()
    unit = _unit(question, defs)
    when = when_asked(question, years)
    balances = bool(operands) and all(o.months is None for o in operands)
    read_said = False
    if question.within is not None and len(values) >= 2:
        value, headline = _within(question, question.within, values, title, unit, subject)
    elif question.aggregate == "average":
        value = sum(values.values()) / len(values)
        headline = f"{subject} {when} {title} is " \
                   f"{format_value(value, unit, question.decimals, question.scale)}."
    elif question.aggregate == "cagr":
        first, last = values[years[0]], values[years[-1]]
        span = years[-1] - years[0]
        if first <= 0 or last <= 0 or span <= 0:
            return MetricAnswer(question=question, status="missing", operands=operands,
                                headline=f"A CAGR of {title} is not defined: a value is not "
                                         f"positive.", details=details)
        value = (last / first) ** (1 / span) - 1
        details.append(f"CAGR = ({short(last)} / {short(first)})^(1/{span}) - 1.")
        headline = f"{subject} {when} {title} CAGR is " \
                   f"{format_value(value, 'percent', question.decimals)}."
    elif question.aggregate == "trend":
        value, headline = _trend(question, values, years, title, unit, subject, defs, rules,
                                 balances, _computations(worded or {}, years))
    else:
        value = values[years[-1]]
        shown = format_value(value, unit, question.decimals, question.scale)
        headline = f"{subject} {when} {title} is {shown}."
        if question.months != 12 and balances:
            # an interim report's balance stands at its period's end, not over its months
            headline = f"{subject} {title} at the end of {when} is {shown}."
        metric = metric_of(question, defs)
        if unit == "ratio" and metric is not None and metric.unit == "percent" and not \
                shown.endswith("%)"):  # format_value wrote it as a percentage already
            headline = headline[:-1] + f" ({format_value(value, 'percent', None)})."
        if not question.judgment and (how := _computations(worded or {}, years[-1:])):
            headline = _aside(headline, how[years[-1]])
        if read_said := bool(question.judgment and question.aggregate == "value" and read):
            headline = _aside(headline, read)  # the operands, then what a blank row says
        headline, nil = _nil_said(headline, operands, years[-1], when)
        if not nil:  # a line printed blank says nothing of what other lines hold
            headline = _value_polarity(question, value, unit, headline)
    if question.judgment:
        if question.aggregate == "value" and read and not read_said:
            headline = _aside(headline, read)
        headline, rule_line = _judged(question, value, headline, rules)
        details.append(rule_line)
    return value, headline


def _value_polarity(question: MetricQuestion, value: float, unit: str, headline: str) -> str:
    """The value's headline opened with the yes or no a question asks of it: against a
    threshold, by its sign, or whether there is any."""
    threshold = question.threshold
    if question.yes_no and not question.judgment and threshold and not threshold.points and (
            threshold.money == (unit == "USD")):  # an amount against an amount only
        return _against_threshold(threshold, value, unit, headline)
    if question.yes_no and not question.judgment and question.sign:
        # "Does it have positive free cash flow?": the sign asked, against the value's
        held = value > 0 if question.sign == "positive" else value < 0
        return f"{'Yes' if held else 'No'}. {headline}"
    if question.exists and (not question.is_metric or unit == "USD") and not (
            question.judgment or question.threshold
    ):  # "Did it pay dividends?": whether there is any; "more than 10% of revenue" is a
        # share of revenue, which revenue alone does not settle
        held = value > 0 if question.asks_gain else bool(value)
        return f"{'Yes' if held else 'No'}. {headline}"
    return headline


def _nil_said(headline: str, operands: Sequence[Operand], year: int, when: str
              ) -> tuple[str, bool]:
    """The headline with the row a nil was read from, when the value asked is a row its
    statement prints with no amount that year (``Evaluator.printed_nil``), and whether it was:
    a blank on the income statement's restructuring line is no sign that none was recorded
    in its other lines (Corning 2018's core adjustments hold $130 million of them)."""
    nil = [o for o in operands if o.printed == NIL_PRINTED and o.fiscal_year == year]
    if not nil:
        return headline, False
    statement = nil[0].statement.replace("_", " ")
    label = " ".join(nil[0].label.split())
    return (f"{headline[:-1]}: the {statement} prints its row \"{label}\" with no amount for "
            f"{when}.", True)


def _against_threshold(threshold: Threshold, value: float, unit: str, headline: str) -> str:
    """"Yes."/"No." to "Is its effective tax rate above 21%?", the level said after the
    value, compared at the precision the value is shown (69.18% is the 69.2% a reader sees):
    a percent metric's level is a fraction of the value's (21% is 0.21); a ratio's written in
    percent is read as a fraction too; an amount's level is in dollars, as the value is ("Did
    its net income exceed $1 billion?")."""
    level = threshold.level / 100 if threshold.percent or (
        unit == "percent" and threshold.level > 1) else threshold.level
    places = 3 if unit == "percent" else 2
    value, level = round(value, places), round(level, places)
    held = threshold.holds(value, level)
    side = "above" if value > level else "below" if value < level else "at"
    return f"{'Yes' if held else 'No'}. {headline[:-1]}, {side} the {threshold.shown} asked."


def _computations(worded: dict[int, str], years: Sequence[int]) -> dict[int, str]:
    """The years' computations in words a first sentence gives: each a computation (not one
    row read), short enough for the sentence, and given for every year asked or for none."""
    most = _WORDED_MOST // max(len(years), 1)  # the sentence's room, shared by the years
    shown = {y: w for y in years if _COMPUTED.search(w := worded.get(y, "")) and len(w) <= most}
    return shown if len(shown) == len(years) else {}


def _aside(headline: str, aside: str) -> str:
    """A sentence with one more aside, in its parentheses: "0.30 (30.1%; cash ...)"."""
    return (f"{headline[:-2]}; {aside})." if headline.endswith(").")
            else f"{headline[:-1]} ({aside}).")


def _figures_read(question: MetricQuestion, evaluator: Evaluator) -> str:
    """The figures a computation rests on, as its first sentence states them: in the order
    the formula reads them, each by its title and value ("capital expenditure of $2,297
    million and revenue of $3,792 million"), a total computed from parts as the total ("total
    debt of $11,620.4 million"), with its period when more than one is read (an average)."""
    defs = load_vocabulary()
    shown: dict[tuple[str, int], tuple[str, int | None, float, Unit]] = {}
    for key, operand in evaluator.operands.items():
        if (total := evaluator.part_of.get(key)) is not None:
            shown.setdefault(total, (defs.title(total[0]), operand.months,
                                     evaluator.totals[total], _operand_unit(operand, defs)))
        else:
            shown[key] = (operand.title, operand.months, operand.value,
                          _operand_unit(operand, defs))
    several = len({(months, key[1]) for key, (_, months, _, _) in shown.items()}) > 1
    items = []
    for (_, fy), (title, months, value, unit) in shown.items():
        when = period_name(fy, "stock" if months is None else "flow", months or 12)
        items.append(f"{title}{f' ({when})' if several else ''} of "
                     f"{format_value(value, unit, None, question.scale)}")
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else "".join(items)


def _operand_unit(operand: Operand, defs: Vocabulary) -> Unit:
    concept = defs.concepts.get(operand.concept)
    return _concept_unit(concept.unit) if concept else "USD"


def _not_computed(question: MetricQuestion, evaluator: Evaluator, formula: str,
                  years: list[int], company: str | None, cover: str,
                  operands: list[Operand], values: dict[int, float]) -> MetricAnswer:
    """An operand was not found: not meaningful when the filer is of a kind whose statements
    have no such line (read from what it prints, never from what is missing); otherwise what
    the reader did not find, where it looked."""
    defs = load_vocabulary()
    title = _title(question, defs)
    metric = metric_of(question, defs)
    kind = filer_kind(evaluator.facts, cover) if metric and metric.not_meaningful_for \
        and evaluator.absent else None
    if metric is not None and kind is not None and kind.kind in metric.not_meaningful_for:
        return _not_meaningful(question, metric, kind, formula, company)
    missing = list(dict.fromkeys(evaluator.missing))
    return MetricAnswer(
        question=question, status="missing", operands=operands, values=values,
        missing=missing,
        headline=f"{subject_of(company)} {when_asked(question, years)} {title} cannot be "
                 f"computed from the statements: {'; '.join(missing)}.",
        details=[f"{title[:1].upper()}{title[1:]} = {_pretty(formula, defs)}."])


def _not_meaningful(question: MetricQuestion, metric: MetricDef, kind: FilerKind,
                    formula: str, company: str | None) -> MetricAnswer:
    """The metric does not apply to this kind of filer: the kind, why it is that kind (the
    rows it prints or its SIC code) and how that kind presents its results."""
    defs = load_vocabulary()
    title = _title(question, defs)
    who = company or "this filer"
    return MetricAnswer(
        question=question, status="not_meaningful",
        headline=f"{'No. ' if question.yes_no else ''}{title[:1].upper()}{title[1:]} is not a "
                 f"meaningful metric for {who}: it is {kind.title} ({kind.because}), and "
                 f"{kind.presents_without}.",
        details=[f"{title[:1].upper()}{title[1:]} = {_pretty(formula, defs)} "
                 f"({metric.source}); the filer's kind is read from its own statements "
                 f"(source: {kind.source})."],
        missing=[kind.kind])


_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


def _members_read(question: MetricQuestion, evaluator: Evaluator, year: int
                  ) -> tuple[dict[str, float], list[Operand]]:
    """The value of each line item the question names (``choices``) that the facts print,
    and the operands read, in the question's order."""
    values = {name: evaluator.evaluate(name, year) for name in question.choices}
    operands = sorted(evaluator.operands.values(), key=lambda o: question.choices.index(
        o.concept) if o.concept in question.choices else len(question.choices))
    return {name: v for name, v in values.items() if v is not None}, operands


def _choice(question: MetricQuestion, evaluator: Evaluator, year: int, subject: str,
            defs: Vocabulary) -> MetricAnswer:
    """Which of the line items a question names is highest (or lowest) in the year: every
    member's value read from the facts and cited, the winner first; a member the filing does
    not print is named, never guessed."""
    when = when_asked(question, [year])
    known, operands = _members_read(question, evaluator, year)
    if evaluator.missing:
        missing = list(dict.fromkeys(evaluator.missing))
        return MetricAnswer(question=question, status="missing", operands=operands,
                            missing=missing,
                            headline=f"The {when} comparison cannot be made from the "
                                     f"statements: {'; '.join(missing)}.")
    ranked = sorted(known, key=lambda n: known[n], reverse=question.pick == "max")
    winner, others = ranked[0], ranked[1:]
    if any(known[o] == known[winner] for o in others):
        tied = [defs.title(n) for n in ranked if known[n] == known[winner]]
        headline = f"{subject} {' and '.join(tied)} were equal in {when}."
    else:
        count = _COUNT_WORDS.get(len(ranked), str(len(ranked)))
        against = " and ".join(f"{format_value(known[o], 'USD', None, question.scale)} for "
                               f"{defs.title(o)}" for o in others)
        word = ("higher" if question.pick == "max" else "lower") if len(ranked) == 2 else (
            "highest" if question.pick == "max" else "lowest")
        headline = (f"{subject} {defs.title(winner)} was the {word} of the {count} in "
                    f"{when}: {format_value(known[winner], 'USD', None, question.scale)}, "
                    f"against {against}.")
    rule = ("Compared as printed, with their signs: an outflow (a negative figure) is lower than "
            "any inflow." if any(v < 0 for v in known.values()) else
            "Compared as printed in the filing's statements.")
    return MetricAnswer(question=question, status="answered", value=known[winner],
                        values={year: known[winner]}, headline=headline, details=[rule],
                        operands=operands)


def _each(question: MetricQuestion, evaluator: Evaluator, year: int, subject: str,
          defs: Vocabulary) -> MetricAnswer:
    """Each line item a question asks of together ("Did it pay dividends or buy back shares,
    and how much?"), read from the facts and cited; a yes or no asked is "Yes" when any of
    them is not zero. A member the filing does not print is named, never guessed."""
    when = when_asked(question, [year])
    known, operands = _members_read(question, evaluator, year)
    unprinted = [defs.title(n) for n in question.choices if n not in known]
    if evaluator.missing and not (question.yes_no and any(known.values())) and not (
            _none_printed(question, evaluator, year, known)):
        return MetricAnswer(question=question, status="missing", operands=operands,
                            missing=list(dict.fromkeys(evaluator.missing)),
                            headline=f"The {when} figures cannot all be read from the "
                                     f"statements: {'; '.join(dict.fromkeys(evaluator.missing))}.")
    listed = _amounts(known, defs, question.scale)
    if len(known) > 1 and question.total:
        listed += f", {format_value(sum(known.values()), 'USD', None, question.scale)} in total"
    opening = ("Yes. " if any(known.values()) else "No. ") if question.yes_no else ""
    # a yes already stated by one member: the others the statements do not print are named
    none = f" (the statements print no {' or '.join(unprinted)})" if unprinted else ""
    return MetricAnswer(question=question, status="answered", value=next(iter(known.values())),
                        values={year: next(iter(known.values()))}, operands=operands,
                        headline=f"{opening}{subject} {when}: {listed}{none}.",
                        details=["Each as printed in the filing's statements."])


# a cash flow statement's row of a debt flow that the vocabulary may not know ("Proceeds from
# borrowings under the revolving credit facility", "Short-term borrowings, net") still says
# the period had one; an operating adjustment on debt ("Foreign currency remeasurement loss
# (gain) on debt", "Amortization of debt issuance costs") is no flow of debt
_DEBT_NOUN = r"(?:debt|borrowings?|notes|bonds|debentures|loans?|commercial\s+paper)"
_DEBT_ROW_RE = re.compile(
    rf"^(?:net\s+)?(?:(?:proceeds|issuances?|repayments?|payments?|redemptions?|retirements?|"
    rf"principal|(?:increase|decrease|change)s?)\b.*\b{_DEBT_NOUN}\b|"
    rf"(?:short|long)-term\s+{_DEBT_NOUN}\b|{_DEBT_NOUN}\b)", re.IGNORECASE)


def _none_printed(question: MetricQuestion, evaluator: Evaluator, year: int,
                  known: dict[str, float]) -> bool:
    """A yes or no asked of flows that the period's cash flow statement prints as nil or not
    at all ("Did Netflix issue or repay any debt in Q2 2023?": "Repayments of debt —" in the
    quarter's column and no row of debt issued; ASC 230-10-45 requires the gross proceeds and
    repayments, so a flow the period had is printed): "No", when one of the flows asked is
    printed (the statement's rows of the period were read) and no other row of that period
    names debt with a figure (a row the vocabulary does not know is never taken for none)."""
    if not question.yes_no or not known or any(known.values()):
        return False
    return not any(fact.statement == "cash_flow" and fact.concept not in question.choices
                   and fact.value and fact.months == evaluator.months
                   and fact.fiscal_year == year and _DEBT_ROW_RE.search(fact.label)
                   for fact in evaluator.facts)


def _explained(question: MetricQuestion, evaluator: Evaluator, year: int, defs: Vocabulary
               ) -> tuple[str, list[Operand]]:
    """The flows of the latest year that moved a balance whose change is asked with its reason
    ("How did its total debt change, and why?": the long-term debt issued and repaid), each
    read from the cash flow statement and cited; an empty clause when it prints none. Read on
    a copy of the evaluator: a flow not printed never makes the change itself missing."""
    trial = evaluator.copy()
    read = {n: v for n in question.explained_by if (v := trial.evaluate(n, year))}
    if not read:  # none printed, or each printed as nothing ("—")
        return "", []
    listed = _amounts(read, defs, question.scale)
    unprinted = [defs.title(n) for n in question.explained_by if n not in read]
    listed += f" (no {' or '.join(unprinted)})" if unprinted else ""
    return (f"; its {when_asked(question, [year])} cash flow statement prints {listed}",
            [o for o in trial.operands.values() if o.concept in read])


def _also(question: MetricQuestion, evaluator: Evaluator, year: int, defs: Vocabulary,
          headline: str) -> tuple[str, list[Operand]]:
    """The metrics a judgment's rule states beside its own (``judgment_rules.json``'s
    ``also``: capital intensity's fixed-asset and total-asset turnover), each in the year
    asked where the filing prints every operand, with the operands to cite; read on a copy of
    the evaluator, so one not printed never makes the judgment itself missing. Each is given
    with its computation in words, as the rule's own metric is: the reader sees the operands
    an analyst states with the judgment (capex and depreciation against revenue, net PP&E
    against total assets) in the first sentence."""
    rule = load_rules().rules[question.judgment or ""]
    said: list[str] = []
    beside: dict[tuple[str, int], Operand] = {}  # each fact read once, beside the rule's own
    for name in rule.also:
        metric = defs.metrics.get(name)
        trial = evaluator.copy()
        trial.said = f"{headline} {' '.join(said)}"  # an operand given already: its title
        found = trial.computed(metric.formula or name, year) if metric else None
        if metric is None or found is None or trial.missing:
            continue
        how = found.worded if _COMPUTED.search(found.worded) and len(
            found.worded) <= _WORDED_MOST else ""
        stated = f"its {metric.title} is {format_value(found.value, metric.unit, None)}."
        said.append((_aside(stated, how) if how else stated)[:-1])  # "0.20 (19.9%; revenue / ...)"
        beside |= {k: o for k, o in trial.operands.items() if k not in evaluator.operands}
    if not said:
        return "", []
    listed = ", ".join(said[:-1]) + f" and {said[-1]}" if len(said) > 1 else said[0]
    return f"; {listed}", list(beside.values())


def _amounts(values: dict[str, float], defs: Vocabulary, scale: str | None) -> str:
    """Line items and their amounts, as a sentence lists them ("cash dividends paid of $1,244.5
    million and repurchases of common stock of $876.8 million")."""
    return " and ".join(f"{defs.title(n)} of {format_value(v, 'USD', None, scale)}"
                        for n, v in values.items())


def _statement(operand: Operand) -> str:
    return STATEMENT_NAMES.get(operand.statement, operand.statement)


def _concept_unit(unit: str) -> Unit:
    """How a line item's value is written: dollars, dollars per share, else a plain number."""
    return ("USD" if unit == "USD" else "USD/share" if unit == "USD/share" else
            "shares" if unit == "shares" else "ratio")


def base_unit(question: MetricQuestion, defs: Vocabulary) -> Unit:
    metric = metric_of(question, defs)
    if metric is None:
        return _concept_unit(defs.concepts[question.target].unit)
    return metric.unit


def _scales(operands: Sequence[Operand]) -> set[str]:
    return {"millions" if abs(o.value) >= 1e5 else "units" for o in operands}


def _trend(question: MetricQuestion, values: dict[int, float], years: Sequence[int],
           title: str, unit: Unit, subject: str, defs: Vocabulary, rules: Rules,
           balances: bool = False, worded: dict[int, str] | None = None) -> tuple[float, str]:
    """The change between two years, worded up/down (improved/worsened where the metric says
    which way is better), with the yes/no the question asks for first; ``balances``: every
    operand a balance (:func:`metric_format.trend_when`); ``worded``: each year's computation
    in words, given after its year ("0.48 at the end of FY2014 (long-term debt of $885.8
    million / total equity of $1,857.7 million)")."""
    first, last = values[years[0]], values[years[-1]]
    change = last - first
    flat = (abs(change) < rules.trend.flat_points if unit == "percent"
            else abs(change) < rules.trend.flat_relative * abs(first))
    went = "was unchanged" if change == 0 else ("increased" if change > 0 else "decreased")
    went += " slightly" if flat and change else ""
    metric = metric_of(question, defs)
    better = metric.better if metric else None
    quality = ""
    if not flat and better:
        improved = (change > 0) == (better == "higher")
        quality = f" ({'an improvement' if improved else 'a deterioration'}: higher is " \
                  f"{'better' if better == 'higher' else 'worse'} for {title})"
    answer = {"up": change > 0, "down": change < 0,
              "improve": bool(quality.startswith(" (an improvement")),
              "worsen": bool(quality.startswith(" (a deterioration"))}.get(
        question.direction or "change")
    if question.direction in ("improve", "worsen") and not better and not flat:
        answer = None  # which way is better for a line item is not the engine's to say
    if question.yes_no and question.threshold is not None and answer is not None:
        beyond, beyond_said = _moved_beyond(question.threshold, first, last, unit)
        answer = None if beyond is None else answer and beyond
        quality += beyond_said
    if unit == "percent":
        delta = _points_moved(first, last, question.decimals or 1)
    elif unit == "USD":  # no percentage of a base that is not positive: it means nothing
        delta = f"{format_value(abs(change), unit, None, question.scale)} " \
                f"({abs(change) / first * 100:.1f}%)" if first > 0 else format_value(
                    abs(change), unit, None, question.scale)
    else:
        delta = format_value(abs(change), unit, question.decimals)
    shown = [format_value(v, unit, question.decimals, question.scale) for v in (first, last)]
    earlier = sorted((y for y in values if y < years[0]), reverse=True)
    def when(year: int, how: bool = False) -> str:
        said = trend_when(question, year, years[-1], balances)
        return f"{said} ({worded[year]})" if how and worded and year in worded else said

    after = ", after " + " and ".join(
        f"{format_value(values[y], unit, question.decimals, question.scale)} {when(y)}"
        for y in earlier) if earlier else ""
    if shown[0] == shown[1]:  # 33.3% both years: no change as written, whichever way it went
        sentence = (f"{subject} {title} was unchanged at {shown[1]} {when(years[0])} "
                    f"and {when(years[-1])}{after}.")
        answer = None if answer is None else False  # no move: no to "did it go up?"
    else:
        sentence = (f"{subject} {title} {went} from {shown[0]} {when(years[0], True)} "
                    f"to {shown[1]} {when(years[-1], True)}"
                    + (f", by {delta}" if change else "") + f"{quality}{after}.")
    if question.yes_no and answer is not None:
        sentence = f"{'Yes' if answer else 'No'}. {sentence}"
    return change, sentence


def _moved_beyond(threshold: Threshold, first: float, last: float, unit: Unit
                  ) -> tuple[bool | None, str]:
    """"Did its net income increase by more than $500 million?": whether the move passed the
    level asked, and the words that say so. An amount is compared with the change in dollars,
    a percentage with the change relative to the first year's value, basis or percentage
    points with a percentage's move in points; a level the move reached
    ("rose to more than $10 billion") with the last value. None where the level and the
    measure are of different kinds, or a percentage asked of a percentage (points or a
    relative change: the question does not say), so no yes or no is given on the direction
    alone."""
    level = threshold.level
    if threshold.points:  # "by more than 50 basis points": a percentage's move in points
        if unit != "percent" or threshold.reached:
            return None, ""
        moved = round(abs(last - first) * 100, 2)
    elif threshold.reached and threshold.money == (unit == "USD") and threshold.percent == (
            unit == "percent"):
        moved, level = last, level / 100 if threshold.percent else level
    elif threshold.reached:
        return None, ""
    elif threshold.money and unit == "USD":
        moved = abs(last - first)
    elif threshold.percent and unit not in ("percent", "USD/share") and first > 0:
        moved = round(abs(last - first) / first * 100, 1)
    else:
        return None, ""
    side = "more than" if moved > level else "less than" if moved < level else "exactly"
    return threshold.holds(moved, level), f", {side} the {threshold.shown} asked"


def _judged(question: MetricQuestion, value: float, headline: str, rules: Rules
            ) -> tuple[str, str]:
    rule = rules.rules[question.judgment or ""]
    band = next((b for b in rule.bands if b.holds(value)), rule.bands[-1])
    asked = question.asks or rule.asks[-1].term  # the yes/no is the verdict's, never beside it
    opening = f"{'Yes' if band.says(asked) else 'No'}. " if question.yes_no else ""
    headline = f"{opening}{headline[:-1]}: {band.verdict}."
    return headline, f"Rule: {rule.rule} (source: {rule.source})."


def _either_worded(text: str) -> str:
    """``either(a, b)`` as a reader takes it: "(a, else b)", b read where the filing prints
    no a. The formula is walked as text, as :func:`_pretty` words it, so the parentheses
    are counted here rather than parsed back from an ``ast``."""
    start = text.find("either(")
    if start < 0:
        return text
    depth, comma, end = 0, -1, -1
    for at in range(start + len("either"), len(text)):
        depth += {"(": 1, ")": -1}.get(text[at], 0)
        if text[at] == "," and depth == 1 and comma < 0:
            comma = at
        if depth == 0:
            end = at
            break
    if comma < 0 or end < 0:
        return text
    first, second = text[start + len("either("):comma].strip(), text[comma + 1:end].strip()
    return (f"{text[:start]}({_either_worded(first)}, else {_either_worded(second)})"
            f"{_either_worded(text[end + 1:])}")


def _pretty(formula: str, defs: Vocabulary) -> str:
    """A formula with names as an answer writes them (a row's label quoted as written)."""
    labels = re.findall(r"\brow\('([^']*)'\)", formula)
    text = ROW_TERM_RE.sub("@", formula)
    text = re.sub(r"\bavg\(([a-z_@]+)\)", r"average \1 (prior and current year-end)", text)
    text = re.sub(r"\bchange\(([a-z_@]+)\)", r"change in \1 over the year", text)
    text = re.sub(r"\bopt\(([a-z_@]+)\)", r"\1", text)
    text = _either_worded(text)
    text = re.sub(r"\b([a-z_]+|@)\[-1\]", r"prior-year \1", text)
    text = re.sub(r"\b[a-z]+(?:_[a-z]+)+\b|\b[a-z]+\b",
                  lambda m: defs.title(m[0]) if m[0] in defs.concepts or m[0] in defs.metrics
                  else m[0], text)
    for label in labels:
        text = text.replace("@", f'"{label}"', 1)
    return text
