"""The facts route: a metric, trend or judgment question computed from one filing's statement
facts (:mod:`metric_engine`), with a model's explanation when a model is configured.

It answers only when the question is a metric question (:func:`parse_question`), one filing is
in scope and its facts hold the statements the metric needs; else the quote route answers. An
operand the facts lack gives no answer but the computation saying what is missing, for the quote
route's answer to end with.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.claims import keep_verified, model_claims, model_reply
from rag_assets.core.generation.compose import Part, PartAnswer
from rag_assets.core.generation.fiscal_names import (
    MONTHS_PER_QUARTER,
    fiscal_name_shift,
    in_fiscal_names,
    quarter_shift,
)
from rag_assets.core.generation.metric_engine import (
    MetricAnswer,
    Operand,
    answer_metric,
    base_unit,
    moved,
)
from rag_assets.core.generation.metric_format import (
    dollars_moved,
    format_value,
    subject_of,
    when_asked,
)
from rag_assets.core.generation.metric_questions import (
    MetricQuestion,
    parse_change,
    parse_question,
)
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.rate_reconciliation import movers_clause, rate_movers
from rag_assets.core.generation.records import (
    ABSTENTION,
    Change,
    Claim,
    GuardrailEvent,
    Moved,
    SourceCitation,
)
from rag_assets.core.generation.relative_measures import compared, sides
from rag_assets.core.generation.row_footnotes import row_footnote
from rag_assets.core.generation.stated_figures import (
    computed_total,
    stated_sentence,
    with_statements,
)
from rag_assets.core.generation.statement_lines import asks_largest_line, largest_line
from rag_assets.core.llm.client import ChatModel
from rag_assets.core.llm.prompts import render
from rag_assets.core.question.comparison import Comparison
from rag_assets.core.question.question import Question
from rag_assets.core.question.vocabulary import load_vocabulary
from rag_assets.core.retrieval.retriever import Scope

if TYPE_CHECKING:
    from rag_assets.core.ingest.facts import StatementFact

FactsProvider = Callable[[str, int], "Sequence[StatementFact]"]
EXPENSE_RATIO = "operating_expense_ratio"  # an operating margin's bridge from its gross margin
REST_SHARE = 0.05  # what is left below income taxes is named past this share of the change
_FIGURE_RE = re.compile(r"-?\$?\d[\d,]*(?:\.\d+)?%?")
MAX_STATED = 2  # sentences beside a headline: one per line item asked together, at most two


@dataclass
class FactsRoute:
    """The statement facts of any partition, the pages to cite, and the model, if any."""

    facts: FactsProvider
    pages: PageTexts
    held_years: Callable[[str], list[int]]  # the years a document is indexed for
    company: Callable[[str], str | None]  # what an answer calls a document's company
    chat: ChatModel | None = None
    citation_threshold: float = 0.5
    _shifts: dict[tuple[str, int, int | None], int] = field(default_factory=dict)

    def named_facts(self, parsed: MetricQuestion, document: str, year: int
                    ) -> tuple[list[StatementFact], int]:
        """The partition's facts with its columns' years as the filer names its fiscal periods
        (:mod:`fiscal_names`; read once per partition and quarter asked: a quarter's by the
        naming the filing defines, else the amounts its prose names), and the years they moved
        by; as printed when the question dates its period itself ("three months ended April
        30, 2023" names a column's own year)."""
        facts = self.facts(document, year)
        if not facts or parsed.dated:
            return list(facts), 0
        quarter = parsed.quarter if parsed.months == MONTHS_PER_QUARTER else None
        key = (document, year, quarter)
        if key not in self._shifts:
            named = quarter_shift(self.pages.fiscal_year_defined(document, year),
                                  quarter) if quarter else None
            self._shifts[key] = named if named is not None else fiscal_name_shift(
                facts, " ".join(self.pages.get(document, year, p) or ""
                                for p in self.pages.pages_of(document, year)))
        return in_fiscal_names(facts, self._shifts[key]), self._shifts[key]

    def partitions(self, parsed_years: Sequence[int], routed: Scope, document: str | None,
                   year: int | None) -> list[tuple[str, int]]:
        """The partitions whose facts may answer: the filings of one company (a document
        given, or those routed: its 10-K and 10-Qs, its earnings releases), each with the year
        asked first, then later filings (which print it as a comparative)."""
        documents = [document] if document else routed.documents or []
        if not documents or len({self.company(d) or d for d in documents}) != 1:
            return []
        if year:
            return [(d, int(year)) for d in documents]
        last = max(parsed_years) if parsed_years else None
        out = []
        for doc in documents:
            held = sorted(self.held_years(doc))
            out += ([(doc, y) for y in reversed(held)] if last is None else
                    [(doc, y) for y in sorted(held, key=lambda y: (y < last, abs(y - last)))])
        return out

    def answer(self, question: Question, routed: Scope, document: str | None = None,
               year: int | None = None) -> tuple[PartAnswer | None, MetricAnswer] | None:
        """The computed answer (a part, and the computation), the computation alone when an
        operand is missing, or None (not a metric question, no filing whose facts hold it)."""
        if question.unindexed and not routed.unindexed:
            return None  # a segment's name the question gives its measure to ("Consumer &
            # Community Banking's net income"): the filer's consolidated line is no answer
        if asks_largest_line(question.text):
            return self.largest(question, routed, document, year)
        if (compares := question.compares) and compares.measures and question.years:
            return self.relative(question, compares, routed, document, year)
        if question.compares_growth:
            return None  # one side's growth alone is no answer: the quotes answer
        if (parsed := parse_question(question)) is None:
            return None
        missing: MetricAnswer | None = None
        for doc, y in self.partitions(parsed.years, routed, document, year):
            facts, shift = self.named_facts(parsed, doc, y)
            if not facts:
                continue
            computed = answer_metric(parsed.model_copy(update={"end_year_shift": shift}), facts,
                                     self.company(doc), self.pages.get(doc, y, 0) or "")
            if computed.status in ("unavailable", "missing"):
                # another filing of the company may print it; else the quotes may answer,
                # and the first operand missing is said after them
                missing = missing or (computed if computed.status == "missing" else None)
                continue
            part = Part(question=question, scope=Scope.partition(doc, y), label=doc)
            claims = self.footnoted(self.stated(question, computed, doc, y), computed)
            answer = PartAnswer(part=part, claims=claims,
                                abstained=False,
                                strength=1.0, looked_for=[parsed.target],
                                first_pages=len({o.page for o in computed.operands}),
                                method="judged" if parsed.judgment else
                                f"computed {parsed.aggregate}")
            if self.chat is not None and computed.status == "answered":
                claims, events = self.explained(question.text, computed)
                answer.claims += claims
                answer.events += events
            return answer, computed
        return None if missing is None else (None, missing)

    def relative(self, question: Question, relative: Comparison, routed: Scope,
                 document: str | None, year: int | None
                 ) -> tuple[PartAnswer | None, MetricAnswer] | None:
        """Two measures compared (:mod:`relative_measures`), from the first filing of the
        company whose statements give both; the computation that failed when none does."""
        asked, failed = sides(relative, question), None
        for doc, y in self.partitions(asked[0].years, routed, document, year):
            computed = []
            for side in asked:
                facts, shift = self.named_facts(side, doc, y)
                computed.append(answer_metric(side.model_copy(update={"end_year_shift": shift}),
                                              facts, self.company(doc),
                                              self.pages.get(doc, y, 0) or ""))
            answer = compared(relative, computed, subject_of(self.company(doc)),
                              lambda q: when_asked(q, q.years[-1:]))
            if answer.status != "answered":
                failed = failed or (answer if answer.status == "missing" else None)
                continue
            part = Part(question=question, scope=Scope.partition(doc, y), label=doc)
            return PartAnswer(part=part, claims=answer.claims(), abstained=False, strength=1.0,
                              looked_for=list(relative.measures or ()),
                              first_pages=len({o.page for o in answer.operands}),
                              method="computed comparison"), answer
        return None if failed is None else (None, failed)

    def largest(self, question: Question, routed: Scope, document: str | None,
                year: int | None) -> tuple[PartAnswer | None, MetricAnswer] | None:
        """The largest line of the side of the balance sheet asked (:mod:`statement_lines`),
        from the first filing of the company whose statements print it."""
        for doc, y in self.partitions(question.years, routed, document, year):
            found = largest_line(question.text, question.years, self.facts(doc, y),
                                 self.company(doc))
            if found is not None:
                part = Part(question=question, scope=Scope.partition(doc, y), label=doc)
                return PartAnswer(part=part, claims=found.claims(), abstained=False,
                                  strength=1.0, looked_for=[found.question.target],
                                  first_pages=len({o.page for o in found.operands}),
                                  method="computed choice"), found
        return None

    def change(self, question: Question, document: str, year: int) -> Change | None:
        """The change of the measure a cause question asks (:func:`parse_change`), computed
        from the facts of the filing its causes were read in: the headline, every operand
        cited, and its way; None when the question names no such measure or an operand is
        missing."""
        if (parsed := parse_change(question)) is None:
            return None
        found = self.answered(parsed, document, year)
        if found is None:
            return None
        computed, facts = found
        asked, filer = computed.question, (self.company(document),
                                           self.pages.get(document, year, 0) or "")
        claim, parts = self.made_of(asked, computed, facts, filer, document, year)
        value = computed.value or 0.0
        return Change(claim=claim, way="up" if value > 0 else "down" if value < 0 else None,
                      parts=parts, levels=[*computed.values.values(), value]
                      if base_unit(asked, load_vocabulary()) == "USD" else [])

    def level(self, question: Question, metric: str, document: str, year: int,
              fiscal_year: int) -> MetricAnswer | None:
        """A measure of the vocabulary in one fiscal year (the filer's fiscal names), computed
        from the partition's facts (what an outlook's range is read against); None when the
        facts do not compute it."""
        asked = MetricQuestion(question=question.text, target=metric,
                               is_metric=metric in load_vocabulary().metrics, years=[fiscal_year])
        found = self.answered(asked, document, year)
        return found[0] if found is not None else None

    def answered(self, parsed: MetricQuestion, document: str, year: int
                 ) -> tuple[MetricAnswer, list[StatementFact]] | None:
        """``parsed`` computed from the partition's facts in the filer's fiscal names, with
        those facts; None when it has none or the computation gives no value."""
        facts, shift = self.named_facts(parsed, document, year)
        if not facts:
            return None
        computed = answer_metric(parsed.model_copy(update={"end_year_shift": shift}), facts,
                                 self.company(document), self.pages.get(document, year, 0) or "")
        if computed.status != "answered" or computed.value is None:
            return None
        return computed, facts

    def made_of(self, asked: MetricQuestion, computed: MetricAnswer,
                facts: Sequence[StatementFact], filer: tuple[str | None, str], document: str,
                year: int) -> tuple[Claim, list[Moved]]:
        """A change's sentence with what it is made of: the changes of the metrics it bridges
        (operating margin's: gross margin's and the operating expense ratio's) and the items
        of its reconciliation that moved most (the effective tax rate's), each cited; and the
        bridged metrics that moved its way; ``filer`` the company's name and cover page, as
        the change was computed with."""
        claim = computed.claims()[0]
        metric = load_vocabulary().metrics.get(asked.target) if asked.is_metric else None
        if metric is None:
            return _with_parts(claim, computed, facts, filer, lambda: self.tax_rate_moved(
                asked, facts, filer, document, year)), []
        parts = [answer_metric(asked.model_copy(update={"target": name}), facts, *filer)
                 for name in metric.bridge]
        its_way: list[Moved] = []
        if parts and all(p.status == "answered" for p in parts):
            if len(parts) > 1:  # one part is the margin's complement: no news beside it
                claim = _bridged(claim, computed, parts, facts)
            its_way = _moved_its_way(metric.better, computed.value or 0.0, parts)
        elif EXPENSE_RATIO in metric.bridge:
            claim = _expenses_bridged(claim, computed, facts)
        columns = _heading_years(asked)
        if metric.reconciled and (movers := rate_movers(self.pages, document, year, columns)):
            clause, cited = movers_clause(movers)
            claim = Claim(text=f"{claim.text[:-1]}; {clause}.", citations=[*claim.citations,
                                                                            *cited])
        return claim, its_way

    def tax_rate_moved(self, asked: MetricQuestion, facts: Sequence[StatementFact],
                       filer: tuple[str | None, str], document: str, year: int
                       ) -> tuple[str, list[SourceCitation]]:
        """How the effective tax rate moved over the years of a change (income taxes over
        pretax income, each year's), with the items of its reconciliation that moved it most
        (ASC 740-10-50-12), for a change whose largest part is income taxes: Coca-Cola's 2017
        net income fell 81% as its rate went from 19.5% to 82.5%. Empty when not computed."""
        rate = answer_metric(asked.model_copy(update={
            "target": "effective_tax_rate", "is_metric": True, "scale": None, "decimals": None,
            "percent": False}), facts, *filer)
        if not (said := moved(rate)):
            return "", []
        cited = list(rate.claims()[0].citations)
        columns = _heading_years(asked)
        if movers := rate_movers(self.pages, document, year, columns):
            clause, rows = movers_clause(movers)
            said, cited = f"{said}, {clause}", [*cited, *rows]
        return said, cited

    def stated(self, question: Question, computed: MetricAnswer, document: str, year: int
               ) -> list[Claim]:
        """The computation's claims; a line item an analyst's question asks of (a yes or no,
        an intent such as buybacks or debt) has the sentences of the filing that state its
        figures (a trend's: its latest year's) put beside its headline, each cited
        (:mod:`stated_figures`)."""
        claims = computed.claims()
        asked = computed.question
        if (asked.is_metric or asked.judgment or asked.aggregate not in ("value", "each", "trend")
                or not (question.intents or question.expects == "yes_no")):
            return claims
        pages = [(p, self.pages.get(document, year, p) or "")
                 for p in self.pages.pages_of(document, year)]
        # the line items asked themselves, never a component of a total computed from parts:
        # the total itself, as computed
        own = [o for o in computed.operands if o.concept in {asked.target, *asked.choices}]
        if not own and computed.values and asked.aggregate in ("value", "trend"):
            last = max(computed.values)
            own = [computed_total(asked.target, load_vocabulary().title(asked.target), last,
                                  abs(computed.values[last]), document, year)]
        operands = own[:MAX_STATED] if asked.aggregate != "trend" else [
            max(own, key=lambda o: o.fiscal_year)] if own else []
        found = [f for o in operands if (f := stated_sentence(o, pages))]
        found = list(dict.fromkeys(found))
        if not found:
            return claims
        head = claims[0]
        cited = [SourceCitation(document=document, year=year, page=page, quote=sentence,
                                supports=sentence) for page, sentence in found]
        return [Claim(text=with_statements(head.text, found),
                      citations=[*head.citations, *cited]), *claims[1:]]

    def footnoted(self, claims: list[Claim], computed: MetricAnswer) -> list[Claim]:
        """The first sentence with the notes the rows of the measure asked point to, each
        cited to its page (:mod:`row_footnotes`: "Dividends declared per common share (1)"
        and its "(1) The first quarter 2015 dividend was declared on December 3, 2014")."""
        asked = computed.question
        notes: dict[str, SourceCitation] = {}
        for o in computed.operands:
            if o.concept not in {asked.target, *asked.choices}:
                continue
            found = row_footnote(o.label, self.pages.get(o.document, o.year, o.page) or "",
                                 o.quote)
            if found is not None:
                bare, marker, note = found
                shown = f"({marker})" if marker.isalnum() else marker
                notes.setdefault(f"note {shown} to \"{bare}\": {note.rstrip('.')}",
                                 SourceCitation(document=o.document, year=o.year, page=o.page,
                                                quote=note, supports=note))
        if not notes or not claims:
            return claims
        head = claims[0]
        return [Claim(text=f"{head.text.rstrip('.')} ({'; '.join(notes)}).",
                      citations=[*head.citations, *notes.values()]), *claims[1:]]

    def explained(self, question: str, computed: MetricAnswer
                  ) -> tuple[list[Claim], list[GuardrailEvent]]:
        """A model's explanation of a computed metric: it gets the result and each operand's
        row as numbered evidence; a claim is kept when its citations hold once the computed
        figures are taken as supported (they come from the engine, not the page)."""
        assert self.chat is not None  # explained only with a model
        sources = operand_sources(computed)
        asked = (f"{question}\n\nComputed from the statement rows below: {computed.headline} "
                 f"{' '.join(computed.details)}")
        prompt = render("answer", self.chat.prompts, question=asked, sources=sources,
                        abstention=ABSTENTION)
        reply, events = model_reply(self.chat, prompt)
        computed_figures = _FIGURE_RE.findall(" ".join([computed.headline, *computed.details]))
        claims = []
        for claim in model_claims(reply, sources):
            supports = claim.text
            for figure in computed_figures:
                supports = supports.replace(figure, " ")
            claims.append(claim.model_copy(update={"citations": [
                c.model_copy(update={"supports": supports}) for c in claim.citations]}))
        checked = verify_claims(claims, self.pages, self.citation_threshold)
        kept, dropped = keep_verified(checked, "model claims")
        return kept, events + dropped


def operand_sources(computed: MetricAnswer) -> list[dict[str, object]]:
    """Each page a computation's operands are printed on, as a numbered source of its rows."""
    pages: dict[tuple[str, int, int], list[str]] = {}
    for o in computed.operands:
        pages.setdefault((o.document, o.year, o.page), []).append(
            f"{o.quote}  [{o.title}, {o.period}]")
    return [{"number": n, "document": d, "year": y, "page": p, "text": "\n".join(rows)}
            for n, ((d, y, p), rows) in enumerate(pages.items(), start=1)]


def _with_parts(claim: Claim, computed: MetricAnswer, facts: Sequence[StatementFact],
                filer: tuple[str | None, str],
                tax_rate: Callable[[], tuple[str, list[SourceCitation]]] | None = None
                ) -> Claim:
    """A line item's change with what its statement makes it of (``ConceptDef.parts``, in the
    statement's order: net income's operating income, pretax income and income taxes):
    operating income's change, the items between it and pretax income (pretax income's change
    less operating income's, with the row printed between them that moved most), income
    taxes' and what is left below them (noncontrolling interests, discontinued operations),
    the largest first, each cited: Walmart's fiscal 2020 net income rose $8.2 billion while
    its operating income fell, on the items below it. Income taxes the largest part, how the
    effective tax rate moved is said beside them (``tax_rate``)."""
    asked, total = computed.question, computed.value
    concept = load_vocabulary().concepts.get(asked.target)
    if (concept is None or len(concept.parts) != 3 or asked.aggregate != "trend"
            or total is None or len(computed.values) != 2):
        return claim
    answers = [answer_metric(asked.model_copy(update={"target": name}), facts, *filer)
               for name in concept.parts]
    if any(a.status != "answered" or len(a.values) != 2 for a in answers):
        return claim
    operating, pretax, taxes = (a.values[max(a.values)] - a.values[min(a.values)]
                                for a in answers)
    between, row_cited = _largest_between(facts, answers[0], answers[1])
    rate, rate_cited = ("", []) if tax_rate is None or abs(taxes) < max(
        abs(operating), abs(pretax - operating)) else tax_rate()
    shown = [(abs(operating), moved(answers[0])),
             (abs(pretax - operating), _added("the items between operating income and pretax "
                                              "income", pretax - operating, asked)
              + f" (pretax income's change less operating income's{between})"),
             (abs(taxes), moved(answers[2]) + (f" ({rate})" if rate else ""))]
    if abs(rest := total - pretax + taxes) > REST_SHARE * abs(total):
        shown.append((abs(rest), _added("the items after income taxes", rest, asked)))
    said = [text for _, text in sorted(shown, key=lambda s: -s[0]) if text]
    cited = [c for a in answers for c in a.claims()[0].citations] + row_cited + rate_cited
    return Claim(text=f"{claim.text[:-1]}: {'; '.join(said)}.",
                 citations=[*claim.citations, *cited])


def _largest_between(facts: Sequence[StatementFact], above: MetricAnswer, below: MetricAnswer
                     ) -> tuple[str, list[SourceCitation]]:
    """The row printed between two computed lines of one statement (operating income, pretax
    income) whose figure moved most between their two periods, read in the columns those
    lines were read from (its label and both figures as printed, as the line's own change
    names no period, and its citation): Walmart's "Other (gains) and losses", from 8,368 to
    (1,958) in fiscal 2020; ("", [])
    when the two lines are not printed one above the other on one page."""
    if len(above.operands) != 2:
        return "", []  # a line computed from parts is printed on no one row
    then_op, now_op = sorted(above.operands, key=lambda o: o.fiscal_year)
    now_top = _fact_of(facts, now_op)
    bottom = next((b for o in below.operands if o.fiscal_year == now_op.fiscal_year
                   and (b := _fact_of(facts, o)) is not None), None)
    if now_top is None or bottom is None or bottom.page != now_top.page:
        return "", []
    columns = {o.fiscal_year: f.column for o in (then_op, now_op) if (f := _fact_of(facts, o))}
    between = {(f.label, f.fiscal_year): f for f in facts
               if f.page == now_top.page and now_top.row < f.row < bottom.row and not f.total
               and f.unit == "USD" and f.fiscal_year in columns
               and columns[f.fiscal_year] == f.column}
    pairs = [(then, now) for (label, year), now in between.items()
             if year == now_op.fiscal_year
             and (then := between.get((label, then_op.fiscal_year))) is not None]
    if not pairs:
        return "", []
    then, now = max(pairs, key=lambda p: abs(p[1].value - p[0].value))
    citation = SourceCitation(document=now.document, year=now.year, page=now.page,
                              quote=now.quote, supports=now.quote)
    return f"; the most, \"{now.label}\", from {then.printed} to {now.printed}", [citation]


class RowMoved(NamedTuple):
    """An expense row's share of revenue in a change's two years, as said and cited."""

    label: str
    shares: tuple[str, str]  # "0.0%", "3.1%"
    of: str  # the revenue line's label, lower case
    citation: SourceCitation
    moved: str = ""  # "as it rose $344 million (7.7%)": the row's own move, in dollars

    def said(self) -> str:
        share = f"\"{self.label}\", from {self.shares[0]} to {self.shares[1]} of {self.of}"
        if not self.moved:
            return share
        # a share that fell while its dollars rose (revenue grew faster) says so: "while"
        along = (float(self.shares[1].rstrip("%")) >= float(self.shares[0].rstrip("%"))) == \
            self.moved.startswith("rose")
        return f"{share}, {'as' if along else 'while'} it {self.moved}"


def row_moved(then: StatementFact, now: StatementFact) -> str:
    """A row's move between two years as MD&A states it (:func:`dollars_moved`): "rose $344
    million (7.7%)" (Costco's SG&A, Q3 fiscal 2023: a cost ratio rises when the cost grows
    faster than revenue, and the analyst's sentence says by how much); no percentage for a row
    that more than doubled from next to nothing (General Mills' fiscal 2015 restructuring
    costs, $3.6 million to $543.9 million, "rose $540.3 million"); a statement in thousands
    said in millions ("$216.9 million")."""
    scale = {1e6: "millions", 1e9: "billions"}.get(now.scale)
    return dollars_moved(then.value, now.value, scale, 1 if scale is None else None,
                         whole_share_only=True)


def _expense_moved_most(facts: Sequence[StatementFact], margin: MetricAnswer,
                        gross: set[str], way: float) -> RowMoved | None:
    """The income statement's expense row whose share of revenue moved most ``way`` (up,
    positive: the expense ratio's way, or against the margin's where no gross margin is
    printed) between the two years of an operating margin's change: a row printed between
    revenue (or the ``gross`` margin's rows, where printed) and operating income, in their
    columns, not one of those rows (General Mills' fiscal 2015 "Restructuring, impairment, and
    other exit costs", 0.0% to 3.1% of net sales); None when those lines are not printed one
    above the other, or no row moved that way."""
    by_year: dict[int, dict[str, StatementFact]] = {}
    for o in margin.operands:
        if (f := _fact_of(facts, o)) is not None:
            by_year.setdefault(o.fiscal_year, {})[o.concept] = f
    rows: dict[int, dict[str, StatementFact]] = {}
    for year, lines in by_year.items():
        top, bottom = lines.get("revenue"), lines.get("operating_income")
        if top is None or bottom is None or top.page != bottom.page or top.row >= bottom.row:
            return None
        start = max([top.row, *(f.row for f in facts if f.page == top.page
                                  and f.label in gross and f.row < bottom.row)])
        rows[year] = {f.label: f for f in facts
                      if f.page == top.page and start < f.row < bottom.row and not f.total
                      and f.unit == "USD" and f.fiscal_year == year and f.column == top.column
                      and f.label not in gross}
    if len(rows) != 2:
        return None
    then_year, now_year = sorted(rows)
    revenue = {y: by_year[y]["revenue"].value for y in rows}
    if not all(revenue.values()):
        return None
    moves = [(move, then, now) for label, now in rows[now_year].items()
             if (then := rows[then_year].get(label)) is not None
             and (move := now.value / revenue[now_year] - then.value / revenue[then_year]) * way
             > 0]  # the ratio's way: a row that moved against it did not drive it
    if not moves:
        return None
    _, then, now = max(moves, key=lambda m: abs(m[0]))
    shares = [f"{f.value / revenue[y]:.1%}" for f, y in ((then, then_year), (now, now_year))]
    citation = SourceCitation(document=now.document, year=now.year, page=now.page,
                              quote=now.quote, supports=now.quote)
    return RowMoved(now.label, (shares[0], shares[1]),
                    by_year[now_year]["revenue"].label.lower(), citation,
                    row_moved(then, now))


def _bridged(claim: Claim, computed: MetricAnswer, parts: Sequence[MetricAnswer],
             facts: Sequence[StatementFact]) -> Claim:
    """A margin's change with how each metric it bridges moved (the gross margin's and the
    expense ratio's), the expense ratio with the row that moved it most, each cited."""
    said, cited = [], [*claim.citations]
    gross = {o.label for p in parts if p.question.target != EXPENSE_RATIO for o in p.operands}
    for part in parts:
        row = None if part.question.target != EXPENSE_RATIO else (
            _expense_moved_most(facts, computed, gross, _rise(part.values)))
        said.append(moved(part) + (f" (the most, {row.said()})" if row else ""))
        cited += [*part.claims()[0].citations, *([row.citation] if row else [])]
    return Claim(text=f"{claim.text[:-1]}: {' and '.join(said)}.", citations=cited)


def _expenses_bridged(claim: Claim, computed: MetricAnswer, facts: Sequence[StatementFact]
                      ) -> Claim:
    """An operating margin's change where no gross margin is printed (a utility's statement:
    operating revenues, then its expenses): the expense row whose share of revenue moved most
    against the margin (American Water 2021: operation and maintenance, 42.9% to 45.2% of
    operating revenues, as the margin fell from 33.0% to 30.4%), cited; else the claim."""
    if not computed.value or (row := _expense_moved_most(facts, computed, set(),
                                                         -computed.value)) is None:
        return claim
    went = "rose" if computed.value < 0 else "fell"
    return Claim(text=f"{claim.text[:-1]}: its expenses {went} as a share of revenue, the "
                 f"most on {row.said()}.", citations=[*claim.citations, row.citation])


def _rise(values: dict[int, float]) -> float:
    """How much a yearly figure rose from its first year to its last (negative: fell)."""
    return values[max(values)] - values[min(values)]


def _heading_years(asked: MetricQuestion) -> tuple[int, int]:
    """The two years a change's columns are headed by (a 52-53 week year's shift applied)."""
    return (asked.years[0] - 1 + asked.end_year_shift, asked.years[0] + asked.end_year_shift)


def _fact_of(facts: Sequence[StatementFact], operand: Operand) -> StatementFact | None:
    """The statement fact an operand was read from (its page, row label, year and months)."""
    return next((f for f in facts if f.page == operand.page and f.label == operand.label
                 and f.fiscal_year == operand.fiscal_year and f.months == operand.months), None)


def _added(what: str, amount: float, asked: MetricQuestion) -> str:
    """"<what> added $X million" (or "subtracted"), in the answer's scale."""
    shown = format_value(abs(amount), "USD", asked.decimals, asked.scale)
    return f"{what} {'added' if amount >= 0 else 'subtracted'} {shown}"


def _moved_its_way(better: str | None, change: float, parts: Sequence[MetricAnswer]
                   ) -> list[Moved]:
    """The bridged metrics that went the way the whole did, in its own terms: a lower gross
    margin and a higher expense ratio both lower an operating margin (each metric's
    ``better`` says which way is an improvement)."""
    if not change or better is None:
        return []
    improved = (change > 0) == (better == "higher")
    out = []
    for part in parts:
        values = [part.values[y] for y in sorted(part.values)]
        own = load_vocabulary().metrics.get(part.question.target)
        if len(values) < 2 or values[-1] == values[0] or own is None or own.better is None:
            continue
        up = values[-1] > values[0]
        if (up == (own.better == "higher")) == improved:
            out.append(Moved(title=own.title, way="up" if up else "down"))
    return out
