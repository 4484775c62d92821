"""Cited answers: a question read once, its scope resolved once, answered by one of two routes.

The **facts route** (:mod:`facts_route`) computes a metric, trend or judgment from one filing's
statement facts; the **quote route** (:mod:`quote_route`) retrieves, reads the evidence and
quotes it (the ``extractive`` engine) or has a model write claims that must quote it. Either way
every citation is checked against the stored page (:mod:`citations`), and a claim (a model's
sentence or a quoted unit) whose citation does not hold is dropped, not shown. A route that
fails is that route's abstention, its reason a guardrail event, and the other route answers.

Guardrails, each recorded as a :class:`GuardrailEvent` and in ``answer_audit``: a company no
indexed filing is from is said so, citing nothing; a comparison is decomposed into parts; a part
that finds nothing is rephrased; a question that needs two sources but cites fewer is retried
with more chunks; a model reply that is not JSON gets a tolerant parse and one retry; below the
evidence threshold the answer is "I cannot answer this from the documents." and says what it
looked for.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from functools import cached_property

from rag_assets.core.generation.answer_config import AnswerConfig
from rag_assets.core.generation.compose import (
    Part,
    PartAnswer,
    audit_record,
    compose,
)
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import (
    ScoredUnit,
    answer_type_held,
    asked_roots,
    roots,
    words,
)
from rag_assets.core.generation.facts_route import FactsProvider, FactsRoute
from rag_assets.core.generation.metric_engine import LATER_PERIOD, MetricAnswer
from rag_assets.core.generation.page_texts import PageTexts, normalize
from rag_assets.core.generation.quote_route import QuoteRoute
from rag_assets.core.generation.records import ABSTENTION, Claim, GuardrailEvent, QAResult
from rag_assets.core.ingest.routing import short_display_name
from rag_assets.core.llm.client import ChatModel
from rag_assets.core.question.question import Question, asks_cause
from rag_assets.core.question.vocabulary import load_vocabulary, phrases_of
from rag_assets.core.retrieval.retriever import Retriever, Scope
from rag_assets.core.text.figures import AMOUNT_STATED_RE, SIGNED_MONEY_RE, money_amounts
from rag_assets.core.text.question_input import checked_question
from rag_assets.core.text.sentences import joined
from rag_assets.core.warehouse.tables import StaleTable

__all__ = ["AnswerConfig", "Answerer", "Part", "PartAnswer", "audit_record", "route_failed"]
LOG = logging.getLogger(__name__)


def route_failed(route: str, error: Exception) -> GuardrailEvent:
    """A route (the statement facts, the quotes) that raised: its abstention's reason, in one
    line; the traceback goes to the log, never to the user. A partition to ingest again
    (``StaleTable``) is no route's failure: it is raised on, for the caller to say so."""
    if isinstance(error, StaleTable):
        raise error
    LOG.warning("the %s route failed", route, exc_info=error)
    return GuardrailEvent(name="route_failed",
                          detail=f"{route} route failed: {type(error).__name__}: {error}"[:300])


class Answerer:
    """Answers questions over one store, with the stored pages to cite and verify against."""

    def __init__(self, retriever: Retriever, pages: PageTexts, chat: ChatModel | None = None,
                 config: AnswerConfig | None = None, facts: FactsProvider | None = None) -> None:
        self.retriever = retriever
        self.pages = pages
        self.chat = chat
        self.config = config or AnswerConfig()
        self.facts = None if facts is None else FactsRoute(
            facts, pages, self.held_years, self.company, chat, self.config.citation_threshold)
        # a cause's measure computed beside its causes, and the year an outlook is read
        # against, by the facts route
        self.quotes = QuoteRoute(retriever, pages, self.config, chat,
                                 self.facts.change if self.facts else None,
                                 self.facts.level if self.facts else None)

    @cached_property
    def companies(self) -> dict[str, str]:
        """What an answer calls each document's company ("AES", "Coca-Cola"; never "The")."""
        return {p.document: short_display_name(p.title) for p in self.retriever.profiles
                if p.title}

    def company(self, document: str) -> str | None:
        return self.companies.get(document)

    def held_years(self, document: str) -> list[int]:
        return [y for d, y in self.retriever.partitions(self.config.kind) if d == document]

    def read(self, text: str) -> Question:
        """A question as every stage takes it, read once against the indexed documents."""
        return self.retriever.read(text)

    def locate(self, document: str, year: int, pages: Sequence[int], quote: str) -> int | None:
        return self.quotes.locate(document, year, pages, quote)

    def score(self, question: Question, units: Sequence[EvidenceUnit]) -> list[ScoredUnit]:
        return self.quotes.score(question, units)

    def parts(self, question: Question, scope: Scope | None = None) -> list[Part]:
        """The parts a question is answered in (:meth:`QuoteRoute.parts`)."""
        routed = self.retriever.resolve_scope(question, self.config.kind)
        return self.quotes.parts(question, scope, routed, self.companies)

    def ask(self, text: str, document: str | None = None, year: int | None = None,
            log: Callable[[str], None] | None = None) -> QAResult:
        """The question answered from the statement facts when they compute it, else from the
        quotes. Input like any other: empty or past the bound is refused in one line
        (``QuestionError``), so no stage's work grows with a pasted document."""
        started = time.perf_counter()
        question = self.read(checked_question(text, self.config.max_question_chars))
        routed = self.retriever.resolve_scope(question, self.config.kind)
        if document is None and routed.unindexed:  # never another company's pages
            return self._finished(unindexed(question, routed.unindexed), started, log,
                                  "no indexed filing")
        events: list[GuardrailEvent] = []
        computed = self._from_facts(question, routed, document, year, events)
        if computed is not None and computed[0] is not None:
            causes = self._causes(question, computed[0])
            # a balance's change is explained by the flows its lead already states (debt issued
            # and repaid); a sentence MD&A ranks beside it is quoted after, never folded in
            answers = ([computed[0], *causes] if computed[1].question.explained_by
                       else led_by_both(computed[0], causes))
            answers = self._with_parts(question, answers, routed, document, year)
            result = self._computed(question, answers, events)
            return self._finished(result, started, log, "computed from statement facts")
        quoted = question
        if computed is not None and computed[1].question.covers:
            # whether one amount covers another is arithmetic: no sentence's polarity says it
            quoted = question.model_copy(update={"expects": "figure"})
        result = self._from_quotes(quoted, routed, document, year)
        if computed is not None:  # a computation that lacked an operand says which
            said = f"Not computed from the statements: {computed[1].headline}"
            result.answer = (f"{said}\n{result.answer}" if quotes_name_none(result, computed[1])
                             else f"{result.answer}\n{said}")
            result.method += missing_kind(computed[1])
        result.guardrail_events = events + result.guardrail_events
        return self._finished(result, started, log, "answered")

    def _from_facts(self, question: Question, routed: Scope, document: str | None,
                    year: int | None, events: list[GuardrailEvent]
                    ) -> tuple[PartAnswer | None, MetricAnswer] | None:
        """The facts route's answer; a failure is its event, and the quotes answer."""
        if self.facts is None:
            return None
        try:
            return self.facts.answer(question, routed, document, year)
        except Exception as error:  # one place for the facts route
            events.append(route_failed("facts", error))
            return None

    def _causes(self, question: Question, computed: PartAnswer) -> list[PartAnswer]:
        """"How did its debt change, and why?": after the computed change, the quotes of the
        same filing that give its causes (the quote route, in the computation's partition);
        nothing for a question that does not ask why, or when they find nothing. The question's
        other clause ("Did its operating margin improve, ...") weakens the evidence the quotes
        are ranked on; the measure is computed already, so weak evidence is read all the same,
        but then only a cause the drivers read, or the change computed with what moved it, is
        kept, never a quote that merely ranked high."""
        if not asks_cause(question) or computed.part.scope is None:
            return []
        asked = question.model_copy(update={"expects": "cause"})  # "Did it improve, and why?"
        part = Part(question=asked, scope=computed.part.scope)
        try:
            found = self.quotes.answer_part(part, self.config.k, floor=0.0)
        except Exception as error:  # the computed answer stands; the failure is an event
            computed.events.append(route_failed("quote", error))
            return []
        weak = found.strength < self.config.extractive.abstain_below
        if found.abstained or (weak and found.method not in ("direct cause", "computed change")):
            return []
        return [found]

    def _computed(self, question: Question, answers: Sequence[PartAnswer],
                  events: list[GuardrailEvent]) -> QAResult:
        # one answer, not parts: no part's label before its lines
        unlabelled = [a.model_copy(update={"part": a.part.model_copy(update={"label": ""})})
                      for a in answers]
        result = compose(question.text, unlabelled, self.pages, self.config.citation_threshold)
        result.guardrail_events = events + [e for a in answers for e in a.events]
        result.evidence_strength = answers[0].strength
        result.k, result.first_sources = self.config.k, answers[0].first_pages
        return result

    def _from_quotes(self, question: Question, routed: Scope, document: str | None,
                     year: int | None) -> QAResult:
        """The quote route's answer, each clause asked folded in; a failure is an abstention
        saying why."""
        try:
            found = self.quotes.found(question, asked_scope(document, year), routed,
                                      self.companies)
            if len(found.answers) == 1:  # a comparison's parts are labelled, never folded
                found.answers = self._with_parts(question, found.answers, routed, document,
                                                 year)
            return self.quotes.composed(question, found)
        except Exception as error:  # one place for the quote route
            event = route_failed("quote", error)
            return QAResult(question=question.text, answer=f"{ABSTENTION} ({event.detail})",
                            abstained=True, k=self.config.k, guardrail_events=[event],
                            method="abstained")

    def _with_parts(self, question: Question, answers: list[PartAnswer], routed: Scope,
                    document: str | None, year: int | None) -> list[PartAnswer]:
        """"How was the redemption funded, and what interests did Corning hold after it?":
        each clause the question asks (``Question.asked``) answered on its own, in the whole's
        filing and period; a clause's answer a reader reached, that the answer does not give
        already, joins its first sentence (:func:`led_by_all`). A clause that leans on the one
        before it ("When is it payable?", "What was the total cost?") is no question alone:
        only one that names its company, a measure the statements compute, or an intent of its
        own ("how much repurchase capacity remains?": a buyback's authorization) is asked."""
        found: list[PartAnswer] = []
        failed: list[GuardrailEvent] = []  # a clause's route that failed: the answer says so
        for text in question.asked:
            own = self.read(text)
            if not (own.documents or own.metrics or own.intents):
                continue
            answer = self._part_answer(own.within(question), routed, document, year, failed)
            if answer is None or not reached(answer) or said(answer, [*answers, *found]):
                continue
            if own.documents or own.intents or answer.method.startswith(COMPUTED):
                # the whole's filing: no filing's label before the clause's sentences
                found.append(answer.model_copy(update={
                    "part": answer.part.model_copy(update={"label": ""})}))
        led = led_by_all(answers, found)
        if failed and led:
            led[0] = led[0].model_copy(update={"events": [*led[0].events, *failed]})
        return led

    def _part_answer(self, part: Question, routed: Scope, document: str | None,
                     year: int | None, events: list[GuardrailEvent]) -> PartAnswer | None:
        """One clause's answer: computed from the statements, else quoted; None when it
        would be answered in parts of its own or a route fails (the whole's answer stands;
        the failure is added to ``events``)."""
        computed = self._from_facts(part, routed, document, year, events)
        if computed is not None and computed[0] is not None:
            return computed[0]
        parts = self.quotes.parts(part, asked_scope(document, year), routed, self.companies)
        if len(parts) != 1:
            return None
        try:
            return self.quotes.answer_part(parts[0], self.config.k)
        except Exception as error:
            events.append(route_failed("quote", error))
            return None

    def _finished(self, result: QAResult, started: float, log: Callable[[str], None] | None,
                  how: str) -> QAResult:
        """The provider, model and time stamped on an answer, and its log line."""
        result.provider = "extractive" if self.chat is None else self.chat.provider
        result.model = None if self.chat is None else self.chat.config.executive_model
        result.seconds = round(time.perf_counter() - started, 3)
        if log:
            log(f"{how} in {result.seconds:.1f} s: {len(result.claims)} claims, "
                f"{len(result.sources_used)} sources{' (abstained)' if result.abstained else ''}")
        return result


def led_by_both(computed: PartAnswer, causes: Sequence[PartAnswer]) -> list[PartAnswer]:
    """The computed change and the sentence of MD&A that gives its causes, as one first
    sentence ("... decreased from 35.6% to 33.7%; Higher input costs ...; gross margin
    decreased 190 basis points."), each citation standing for what its own page prints: the
    question asked both, so the answer's first sentence gives both. Only a cause the drivers
    read (``direct cause``), never a quote of a sentence that merely ranked high; or the same
    change computed with what moved it (``computed change``: the items of the effective tax
    rate's reconciliation, the margins an operating margin is bridged by), which extends the
    lead."""
    if not causes or not causes[0].claims or not computed.claims:
        return [computed, *causes]
    lead, cause = computed.claims[0], causes[0].claims[0]
    opening = YES_NO_OPENING_RE.match(lead.text)  # "No. ": the computed verdict stays first
    change = lead.text[opening.end() if opening else 0:]
    if causes[0].method == "computed change" and cause.text.startswith(
            change.rstrip(". ")) and len(cause.text) > len(change):
        both = Claim(text=f"{opening.group(0) if opening else ''}{cause.text}",
                     citations=[*lead.citations, *cause.citations])
    elif causes[0].method == "direct cause":
        added = unsaid(without_change(cause.text, lead.text), lead.text)
        # the computed change may quote MD&A's sentence of its causes already: the lead stands
        both = Claim(text=joined(lead.text, added), citations=[
            *lead.citations, *cause.citations]) if added else lead
    else:
        return [computed, *causes]
    rest = causes[0].model_copy(update={"claims": causes[0].claims[1:]})
    first = computed.model_copy(update={"claims": [both, *computed.claims[1:]]})
    return [first, *([rest] if rest.claims else []), *causes[1:]]


def without_change(cause: str, change: str) -> str:
    """A cause's sentence without the computed change it repeats after its causes ("A higher
    cost of sales ratio (...); General Mills' gross margin decreased from ...": the change
    leads already)."""
    core = YES_NO_OPENING_RE.sub("", change)[:CHANGE_PREFIX]
    at = cause.find(core) if len(core) == CHANGE_PREFIX else -1
    return f"{cause[:at].rstrip(' ;:,')}." if at > 0 else cause


def unsaid(cause: str, lead: str) -> str:
    """The parts of a cause's sentence (its causes, the change it states, set apart by
    semicolons) that the lead does not print already: Netflix 2020's computed operating cash
    flow quotes MD&A's "Net cash provided by operating activities increased $5,314 million ...
    primarily driven by ...", so neither part is said again after it; "" when none is left."""
    printed = normalize(lead)  # as quotes are matched on their pages
    kept = [part for part in cause.split("; ")
            if normalize(part).rstrip(" .;:,") not in printed]
    return "; ".join(kept).strip()


YES_NO_OPENING_RE = re.compile(r"^(?:Yes|No)\.\s+")
CHANGE_PREFIX = 40  # enough of a change's sentence to know it again


def asked_scope(document: str | None, year: int | None) -> Scope | None:
    """The filing and year a caller asked to answer from, if any."""
    if not (document or year):
        return None
    return Scope(documents=[document] if document else None,
                 years=[int(year)] if year else None, how="asked")


# the ways of answering that read what a clause asks (a computation, a reader of the filing's
# structure); a clause merely quoted joins the first sentence only with the figure it asks
READERS = ("computed", "judged", "direct")
COMPUTED = ("computed", "judged")  # from the statements, the measure named


def reached(answer: PartAnswer) -> bool:
    """Whether a clause's answer says what the clause asks: a reader's, or a quote that prints
    an amount when the clause asks a figure and holds most of the clause's own words (its
    company's name aside), or, for a clause asking names or words, every word of what it asks
    of (:func:`asked_roots`, two at least: "What ownership interests did Corning hold once it
    was completed?" by "HSG redeemed Dupont’s entire ownership of HSG ..., Upon completion of
    the redemption, Corning obtained a 100% interest in HS LLC ...", never "What interests did
    it hold afterwards?" by a sentence on a variable interest entity), or one that prints the
    event or manner the clause asks ("What debt did it issue?", "How was it funded?"): a
    sentence that merely ranked first is no answer to fold in."""
    if answer.abstained or not answer.claims:
        return False
    if answer.method.startswith(READERS):
        return True
    clause, claim = answer.part.question, answer.claims[0].text
    if clause.manner and answer_type_held(clause, claim):
        return True  # "What debt did it issue?": "the Company issued €300 million ..."
    if clause.expects in ("names", "text"):
        named = asked_roots(clause)
        return len(named) >= QUOTED_ROOTS and named <= roots(claim)
    asked = roots(clause.ranking_text) - roots(" ".join(clause.companies))
    return clause.expects == "figure" and bool(AMOUNT_STATED_RE.search(claim)) and len(
        asked & roots(claim)) >= QUOTED_SHARE * len(asked)


QUOTED_SHARE = 0.5
QUOTED_ROOTS = 2  # "What was it for?" names nothing a quote could be read to hold


def said(answer: PartAnswer, given: Sequence[PartAnswer]) -> bool:
    """Whether a clause's first sentence is one the answer already gives (most of its words
    in one of the answer's sentences), or its amounts all ones the answer's first sentence
    states within 1% (the cash a statement prints beside the cost a sentence gives with a
    tax): a clause the whole's reader answered is not said twice; one that adds an amount
    (a dividend's yearly rate), or one in another currency the whole's first sentence does
    not print, is."""
    first = answer.claims[0].text
    asked = set(words(first))
    if any(len(asked & set(words(claim.text))) >= SAID_SHARE * len(asked)
           for other in given for claim in other.claims):
        return True
    whole = given[0].claims[0].text if given and given[0].claims else ""
    if any(m["sign"] != "$" and m.group(0) not in whole
           for m in SIGNED_MONEY_RE.finditer(first)):
        return False  # "€300 million ... and €550 million": amounts no dollar figure says
    stated = [a for other in given[:1] for a in money_amounts(other.claims[0].text) if a]
    amounts = money_amounts(first)
    return bool(amounts and stated) and all(
        any(abs(amount - other) <= SAME_AMOUNT * other for other in stated)
        for amount in amounts)


SAID_SHARE = 0.8
SAME_AMOUNT = 0.01


# a clause's answer that opens with the yes or no the answer's first sentence opens with
POLARITY_RE = re.compile(r"^(?:Yes|No)\.\s+")


def led_by_all(answers: list[PartAnswer], parts: Sequence[PartAnswer]) -> list[PartAnswer]:
    """The answer's first sentence and each clause's, as one first sentence ("Corning's total
    debt increased ... by $713 million; on May 15, 2023, Corning issued ..."), each citation
    standing for its own page; each clause's other sentences after the answer's. An answer
    that found nothing, or only quoted a sentence while a reader answered the first clause it
    answers, is led by the clauses'."""
    if not parts:
        return answers
    if not answers or answers[0].abstained or not answers[0].claims:
        return list(parts)
    if not answers[0].method.startswith(READERS) and parts[0].method.startswith(READERS):
        # a quote that merely ranked first gives way to the clause a reader answered, and the
        # clauses after it join that one's first sentence
        return [*led_by_all([parts[0]], parts[1:]), *answers]
    lead = answers[0].claims[0]
    text, citations, rests = lead.text, list(lead.citations), []
    given = {claim.text for answer in answers for claim in answer.claims}
    for part in parts:
        said = part.claims[0].text
        if (polar := POLARITY_RE.match(said)) and text.startswith(polar.group(0)):
            said = said[polar.end():]  # "Yes. A; Yes. B" says yes once: "Yes. A; B"
        text, citations = joined(text, said), [*citations, *part.claims[0].citations]
        rest = [claim for claim in part.claims[1:] if claim.text not in given]
        given |= {claim.text for claim in rest}
        if rest:  # a sentence the answer gives already is not given twice
            rests.append(part.model_copy(update={"claims": rest}))
    first = answers[0].model_copy(update={"claims": [Claim(text=text, citations=citations),
                                                     *answers[0].claims[1:]]})
    return [first, *answers[1:], *rests]


def quotes_name_none(result: QAResult, computed: MetricAnswer) -> bool:
    """A value asked of one line item or metric, and no quoted sentence names a word of it or
    of what it is computed from (their titles, aliases and printed labels): the quotes answer
    another question ("Paid memberships ..." for Netflix's goodwill, which its balance sheet
    does not print), so what the statements lack leads, the quotes after it. A yes or no, a
    trend or several line items asked keep the quotes first: a sentence may answer them in
    words no label holds ("issued EUR 300 million Notes")."""
    asked = computed.question
    vocabulary = load_vocabulary()
    if (asked.aggregate != "value" or asked.yes_no or asked.choices
            or asked.target not in vocabulary.names or not result.claims):
        return False
    named = set().union(*(roots(phrase) for name in vocabulary.closure(asked.target)
                          for phrase in (vocabulary.title(name),
                                         *phrases_of(name, vocabulary.entry(name)),
                                         *vocabulary.entry(name).line_items)))
    return bool(named) and not any(roots(claim.text) & named for claim in result.claims)


def missing_kind(computed: MetricAnswer) -> str:
    """What a computation lacked, for an answer's method: a row the question names by its
    printed label (in its own definition, or as the line item whose change it asks), or a
    line item of the vocabulary (of the period asked), or a period after the statements'."""
    first = computed.missing[0] if computed.missing else ""
    if first.startswith(LATER_PERIOD):
        return ", a later period"
    return ", a row missing" if first.startswith("the reader did not find a row") else \
        ", a line item missing"


def unindexed(question: Question, company: str) -> QAResult:
    """The answer to a question about a company no indexed filing is from: said, citing
    nothing, nothing searched."""
    return QAResult(question=question.text, answer=f"No indexed filing is from {company}.",
                    abstained=True, looked_for=[company], method="abstained",
                    guardrail_events=[GuardrailEvent(
                        name="unindexed_company",
                        detail=f"{company}: no indexed filing; nothing searched")])
