"""Cited answers: retrieve, read the evidence, answer with numbered citations, verify each one.

One path for every provider. Retrieval is the platform's own (``routed`` over enriched chunks by
default); the evidence is the retrieved chunks after MMR, split into sentences and table rows on
the pages that print them (:mod:`evidence`). The ``extractive`` engine quotes the best units;
a model (``openai``/``azure``) writes a JSON reply whose claims must quote the excerpts
(:mod:`claims`). Either way every citation is checked against the stored page
(:mod:`citations`), and a model claim whose citation does not hold is dropped, not shown.

Guardrails, each recorded as a :class:`GuardrailEvent` and in ``answer_audit``:

- a question that compares companies or years is decomposed into one part per partition,
  answered part by part and put together; a part that finds nothing is retried with alternative
  phrasings (the metric's line items; a model's rewording when one is configured);
- a question that needs two sources (a comparison, or two years asked) but cites fewer retries
  once with ``k + retry_extra_k`` chunks;
- a model reply that is not JSON gets a tolerant parse and one retry; then the part abstains,
  saying why (never a crash, never an unverified claim);
- below the evidence threshold the answer is "I cannot answer this from the documents." and
  says what it looked for.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from pydantic import BaseModel, Field

from rag_assets.core.chunks.chunking import ChunkKind, join_context
from rag_assets.core.generation.citations import CitationSettings, marked, verify_claims
from rag_assets.core.generation.claims import (
    claim_of,
    keep_verified,
    model_claims,
    model_reply,
    page_sources,
)
from rag_assets.core.generation.direct import direct_answer
from rag_assets.core.generation.evidence import EvidenceUnit, page_table_rows, units_of
from rag_assets.core.generation.extractive import (
    ExtractiveConfig,
    ScoredUnit,
    evidence_strength,
    missing_anchors,
    score_units,
    select,
)
from rag_assets.core.generation.metric_engine import MetricAnswer, answer_metric
from rag_assets.core.generation.metric_questions import parse_question
from rag_assets.core.generation.page_texts import PageTexts, normalize
from rag_assets.core.generation.records import (
    ABSTENTION,
    AuditRecord,
    CitationMark,
    Claim,
    GuardrailEvent,
    QAResult,
    Source,
)
from rag_assets.core.ingest.routing import short_display_name
from rag_assets.core.llm.client import ChatModel, LLMReplyError
from rag_assets.core.llm.prompts import render
from rag_assets.core.retrieval.query import load_lexicon
from rag_assets.core.retrieval.retriever import Hit, Retriever, Scope, Strategy
from rag_assets.core.text.question_input import MAX_QUESTION_CHARS, checked_question

if TYPE_CHECKING:
    from rag_assets.core.ingest.facts import StatementFact

FactsProvider = Callable[[str, int], "Sequence[StatementFact]"]
LOG = logging.getLogger(__name__)


def route_failed(route: str, error: Exception) -> GuardrailEvent:
    """A route (the statement facts, the quotes) that raised: its abstention's reason, in one
    line; the traceback goes to the log, never to the user."""
    LOG.warning("the %s route failed", route, exc_info=error)
    return GuardrailEvent(name="route_failed",
                          detail=f"{route} route failed: {type(error).__name__}: {error}"[:300])


class AnswerConfig(CitationSettings):
    strategy: Strategy = "routed"
    kind: ChunkKind = "enriched"
    k: int = Field(default=10, ge=1, description="chunks read, after MMR")
    candidates: int = Field(default=20, ge=1, description="chunks retrieved before MMR")
    mmr_lambda: float = Field(default=0.7, ge=0.0, le=1.0,
                              description="relevance against diversity in MMR")
    retry_extra_k: int = Field(default=4, ge=0)
    max_question_chars: int = Field(
        default=MAX_QUESTION_CHARS, ge=1,
        description="the longest question answered (core/text/question_input.py)")
    model_context_chars: int = Field(
        default=6000, ge=500, description="excerpt characters a model prompt holds")
    phrasings: int = Field(default=2, ge=0, description="alternative phrasings of a part")
    dense_units: int = Field(default=24, ge=1,
                             description="units the model embeds, the lexically best")
    extractive: ExtractiveConfig = Field(default_factory=ExtractiveConfig)


class Part(BaseModel):
    """One self-contained piece of a question and the partitions it is answered from."""

    question: str
    scope: Scope | None = None
    label: str = ""


class PartAnswer(BaseModel):
    part: Part
    claims: list[Claim] = Field(default_factory=list)
    abstained: bool = True
    strength: float = 0.0
    chunk_ids: list[str] = Field(default_factory=list)
    looked_for: list[str] = Field(default_factory=list)
    events: list[GuardrailEvent] = Field(default_factory=list)
    first_pages: int = 0


def mmr(hits: Sequence[Hit], vectors: np.ndarray, k: int, lam: float) -> list[Hit]:
    """Maximal marginal relevance: the best hit, then each next one for its rank-based relevance
    minus its similarity to those already chosen (two chunks of one table do not crowd out the
    note that qualifies it)."""
    if len(hits) <= k:
        return list(hits)
    relevance = [1.0 / (1 + i) ** 0.5 for i in range(len(hits))]
    chosen = [0]
    while len(chosen) < k:
        best, best_value = None, -1e9
        for i in range(len(hits)):
            if i in chosen:
                continue
            similar = max(float(vectors[i] @ vectors[j]) for j in chosen)
            value = lam * relevance[i] - (1 - lam) * similar
            if value > best_value:
                best, best_value = i, value
        assert best is not None  # an unchosen hit is left, and unit vectors score above -1e9
        chosen.append(best)
    return [hits[i] for i in sorted(chosen)]


class Answerer:
    """Answers questions over one store, with the stored pages to cite and verify against."""

    def __init__(self, retriever: Retriever, pages: PageTexts, chat: ChatModel | None = None,
                 config: AnswerConfig | None = None, facts: FactsProvider | None = None) -> None:
        self.retriever = retriever
        self.pages = pages
        self.chat = chat
        self.config = config or AnswerConfig()
        self.facts = facts  # a partition's statement facts: metric questions are computed
        self._known_words: set[str] | None = None

    @property
    def known_words(self) -> set[str]:
        """Words of the documents' own names (their aliases): not an anchor a question adds."""
        if self._known_words is None:
            self._known_words = {w.lower().removesuffix("'s") for p in self.retriever.profiles
                                 for alias in p.aliases for w in alias.split()}
        return self._known_words

    # -- evidence ---------------------------------------------------------------------------
    def locate(self, document: str, year: int, pages: Sequence[int], quote: str) -> int | None:
        """The first of ``pages`` that prints ``quote``."""
        wanted = normalize(quote)
        if not wanted:
            return None
        for page in pages:
            text = self.pages.normalized(document, year, page)
            if text and wanted in text:
                return page
        return None

    def evidence(self, question: str, scope: Scope | None, k: int) -> tuple[list[Hit],
                                                                            list[EvidenceUnit]]:
        cfg = self.config
        result = self.retriever.search(question, cfg.strategy, cfg.kind,
                                       k=max(cfg.candidates, k), scope=scope)
        hits = result.hits
        if hits:  # the indexed text: its vectors come from the content-hash cache, not the model
            vectors, _ = self.retriever.embedder.embed(
                [join_context(h.context, h.text) for h in hits])
            hits = mmr(hits, vectors, k, cfg.mmr_lambda)
        # a unit no page prints as read (an extraction seam) cannot be cited, so never quoted
        units = [u for h in hits for u in units_of(h, self.locate) if u.located]
        return hits, units

    def score(self, question: str, units: Sequence[EvidenceUnit]) -> list[ScoredUnit]:
        """Units by relevance: the lexical signals rank all of them, the model embeds only the
        ``dense_units`` best (a unit's embedding is the costly signal: ~200 per question)."""
        plan = self.retriever.plan(question)
        embedder = self.retriever.embedder
        query = embedder.embed_query(plan.ranking_text)
        config = self.config.extractive
        lexical = score_units(plan, units, query, np.zeros((len(units), len(query)),
                                                           dtype=np.float32), config)
        shortlist = [s.unit for s in lexical[:self.config.dense_units]]
        return score_units(plan, shortlist, query,
                           embedder.encode([u.text for u in shortlist]), config)

    # -- one part ---------------------------------------------------------------------------
    def answer_part(self, part: Part, k: int, max_claims: int | None = None) -> PartAnswer:
        hits, units = self.evidence(part.question, part.scope, k)
        plan = self.retriever.plan(part.question)
        scored = self.score(part.question, units)
        strength = evidence_strength(plan, scored[0] if scored else None)
        looked_for = [plan.ranking_text, *plan.expansion[:6]]
        out = PartAnswer(part=part, strength=strength, chunk_ids=[h.chunk_id for h in hits],
                         looked_for=looked_for,
                         first_pages=len({(h.document, h.year, p) for h in hits for p in h.pages}))
        missing = missing_anchors(part.question, " ".join(
            f"{h.context} {h.text}" for h in hits), self.known_words)
        if missing:
            out.events.append(GuardrailEvent(
                name="below_evidence_threshold",
                detail=f"{part.label or 'question'}: the documents found never name "
                       f"{', '.join(missing)}"))
            out.looked_for = [*missing, *looked_for]
            return out
        if strength < self.config.extractive.abstain_below:
            out.events.append(GuardrailEvent(
                name="below_evidence_threshold",
                detail=f"{part.label or 'question'}: evidence {strength:.2f} < "
                       f"{self.config.extractive.abstain_below:.2f}"))
            return out
        if self.chat is None:
            chosen = select(scored, self.config.extractive, max_claims)
            out.claims = [*self.direct(part.question, [s.unit for s in chosen], units),
                          *(claim_of(s.unit) for s in chosen)]
        else:
            out.claims, events = self.claims_from_model(part.question, scored)
            out.events += events
        out.abstained = not out.claims
        return out

    def direct(self, question: str, selected: Sequence[EvidenceUnit],
               pool: Sequence[EvidenceUnit]) -> list[Claim]:
        """The one-line direct answer that goes before the quotes (:mod:`direct`: the winner
        of a superlative, the names of a list, the direction of a two-period comparison), when
        the selected units print it and each of its citations holds; else nothing."""
        read: dict[tuple[str, int, int], list[EvidenceUnit]] = {}  # each page parsed once

        def page_rows(document: str, year: int, page: int) -> list[EvidenceUnit]:
            key = (document, year, page)
            if key not in read:
                read[key] = page_table_rows(self.pages, document, year, page)
            return read[key]

        found = direct_answer(question, selected, pool, page_rows)
        if found is None:
            return []
        checked = verify_claims([found.claim()], self.pages, self.config.citation_threshold)
        return [c for c in checked if all(x.mark == "valid" for x in c.citations)]

    def _model(self) -> ChatModel:
        """The chat model the model paths write with (the extractive engine has none)."""
        if self.chat is None:
            raise RuntimeError("model claims need a chat model: the extractive engine has none")
        return self.chat

    def claims_from_model(self, question: str, scored: Sequence[ScoredUnit]
                          ) -> tuple[list[Claim], list[GuardrailEvent]]:
        """Claims a model writes from the best units' pages; a claim must quote its excerpt."""
        sources = page_sources(scored, self.config.model_context_chars)
        prompt = render("answer", question=question, sources=sources, abstention=ABSTENTION)
        reply, events = model_reply(self._model(), prompt)
        claims = model_claims(reply, sources)
        checked = verify_claims(claims, self.pages, self.config.citation_threshold)
        kept, dropped = keep_verified(checked, "model claims")
        return kept, events + dropped

    # -- the question -----------------------------------------------------------------------
    def parts(self, question: str, scope: Scope | None) -> list[Part]:
        """One part per company (or per year) a comparison names; else the question whole.
        Several filings of one company (its 10-K and a 10-Q, two 8-Ks) are searched as one
        scope: a question that does not compare them is answered from the one that holds the
        answer, not once per filing with "I cannot answer" for the others."""
        if scope is not None:
            return [Part(question=question, scope=scope)]
        routed = self.retriever.resolve_scope(question, self.config.kind)
        companies = {self.company(d) or d for d in routed.documents or []}
        if routed.documents and len(companies) > 1:
            return [Part(question=question, label=d,
                         scope=Scope(documents=[d], years=routed.years, how=f"part: {d}"))
                    for d in routed.documents]
        if routed.years and len(routed.years) > 1:
            return [Part(question=question, label=str(y),
                         scope=Scope(documents=routed.documents, years=[y],
                                     how=f"part: year {y}"))
                    for y in routed.years]
        # a routed question is searched in its filings whatever the strategy (only ``routed``
        # routes by itself): no citation from another company's pages
        return [Part(question=question, scope=routed if routed.documents else None)]

    def phrasings(self, question: str) -> list[str]:
        """Other words for a part that found nothing: a model's, else the lexicon's."""
        n = self.config.phrasings
        if not n:
            return []
        if self.chat is not None:
            try:
                reply = self.chat.complete_json(
                    render("alternative_phrasing", question=question, n=n), "executive")
                found = [str(p) for p in reply.get("phrasings") or [] if str(p).strip()]
                if found:
                    return found[:n]
            except LLMReplyError:
                pass
        plan = self.retriever.plan(question)
        lexicon = load_lexicon()
        out = [" ".join([plan.ranking_text, *plan.expansion])] if plan.expansion else []
        for metric in plan.metrics:
            items = lexicon.line_items_of(metric)
            if items:
                out.append(f"{items[0]} {' '.join(str(y) for y in plan.years)}".strip())
        return [p for p in dict.fromkeys(out) if p != question][:n]

    # -- metrics from statement facts -------------------------------------------------------
    def company(self, document: str) -> str | None:
        """The company a document's cover names, as an answer's first sentence calls it ("AES",
        "Coca-Cola", "3M"; never "The")."""
        for profile in self.retriever.profiles:
            if profile.document == document and profile.title:
                return short_display_name(profile.title)
        return None

    def fact_partitions(self, question: str, document: str | None, year: int | None,
                        asked: Sequence[int]) -> list[tuple[str, int]]:
        """The partitions whose facts may answer: one document (given or routed), the
        year asked first, then later filings (which print it as a comparative)."""
        documents = [document] if document else self.retriever.resolve_scope(
            question, self.config.kind).documents or []
        if len(documents) != 1:
            return []
        if year:
            return [(documents[0], int(year))]
        held = sorted({y for d, y in self.retriever.store.partitions(self.config.kind)
                       if d == documents[0]})
        last = max(asked) if asked else None
        if last is None:
            return [(documents[0], y) for y in reversed(held)]
        order = sorted(held, key=lambda y: (y < last, abs(y - last)))
        return [(documents[0], y) for y in order]

    def facts_answer(self, question: str, document: str | None = None,
                     year: int | None = None
                     ) -> tuple[PartAnswer | None, MetricAnswer] | None:
        """A metric, trend or judgment question answered from one filing's statement facts,
        or None (no facts provider, not such a question, no single filing whose facts hold
        the statements it needs): the retrieval path answers then. An operand the facts lack
        gives no part (None) and the computation saying what is missing, for the retrieval
        path's answer to end with."""
        if self.facts is None or (parsed := parse_question(question)) is None:
            return None
        for doc, y in self.fact_partitions(question, document, year, parsed.years):
            facts = self.facts(doc, y)
            if not facts:
                continue
            computed = answer_metric(parsed, facts, self.company(doc),
                                     self.pages.get(doc, y, 0) or "")
            if computed.status == "unavailable":
                continue
            if computed.status == "missing":  # the quotes may still answer: said after them
                return None, computed
            part = Part(question=question, scope=Scope.partition(doc, y), label=doc)
            answer = PartAnswer(part=part, claims=computed.claims(), abstained=False,
                                strength=1.0, looked_for=[parsed.target],
                                first_pages=len({o.page for o in computed.operands}))
            if self.chat is not None and computed.status == "answered":
                claims, events = self.model_metric_claims(question, computed)
                answer.claims += claims
                answer.events += events
            return answer, computed
        return None

    def model_metric_claims(self, question: str, computed: MetricAnswer
                            ) -> tuple[list[Claim], list[GuardrailEvent]]:
        """A model's explanation of a computed metric: it gets the result and each operand's
        row as numbered evidence; a claim is kept when its citations hold once the computed
        figures are taken as supported (they come from the engine, not the page)."""
        pages: dict[tuple[str, int, int], list[str]] = {}
        for o in computed.operands:
            pages.setdefault((o.document, o.year, o.page), []).append(
                f"{o.quote}  [{o.title}, {o.period}]")
        sources = [{"number": n, "document": d, "year": y, "page": p, "text": "\n".join(rows)}
                   for n, ((d, y, p), rows) in enumerate(pages.items(), start=1)]
        prompt = render("answer", question=f"{question}\n\nComputed from the statement rows "
                        f"below: {computed.headline} {' '.join(computed.details)}",
                        sources=sources, abstention=ABSTENTION)
        reply, events = model_reply(self._model(), prompt)
        computed_figures = re.findall(r"-?\$?\d[\d,]*(?:\.\d+)?%?", " ".join(
            [computed.headline, *computed.details]))
        claims = []
        for claim in model_claims(reply, sources):
            supports = claim.text
            for figure in computed_figures:
                supports = supports.replace(figure, " ")
            claims.append(claim.model_copy(update={"citations": [
                c.model_copy(update={"supports": supports}) for c in claim.citations]}))
        checked = verify_claims(claims, self.pages, self.config.citation_threshold)
        kept, dropped = keep_verified(checked, "model claims")
        return kept, events + dropped

    def ask(self, question: str, document: str | None = None, year: int | None = None,
            log: Callable[[str], None] | None = None) -> QAResult:
        """The question answered from the statement facts when they compute it, else from the
        quotes; a route that fails is that route's abstention, its reason a guardrail event,
        and the other route answers. A company no indexed filing is from: an abstention that
        cites nothing."""
        started = time.perf_counter()
        cfg = self.config
        # input like any other: empty or past the bound refused in one line (QuestionError),
        # so no stage's work grows with a pasted document
        question = checked_question(question, cfg.max_question_chars)
        if document is None and (
                unindexed := self.retriever.resolve_scope(question, cfg.kind).unindexed):
            # never another company's pages for a company the corpus does not hold
            result = QAResult(question=question, answer=f"No indexed filing is from {unindexed}.",
                              abstained=True, looked_for=[unindexed],
                              guardrail_events=[GuardrailEvent(
                                  name="unindexed_company",
                                  detail=f"{unindexed}: no indexed filing; nothing searched")])
            return self._finished(result, started, log, "no indexed filing")
        events: list[GuardrailEvent] = []
        try:
            from_facts = self.facts_answer(question, document, year)
        except Exception as error:  # one place for the facts route: the quotes answer
            from_facts = None
            events.append(route_failed("facts", error))
        if from_facts is not None and from_facts[0] is not None:
            answer = from_facts[0]
            result = compose(question, [answer], self.pages, cfg.citation_threshold)
            result.guardrail_events = events + answer.events
            result.evidence_strength = answer.strength
            result.k, result.first_sources = cfg.k, answer.first_pages
            return self._finished(result, started, log, "computed from statement facts")
        try:
            result = self.quote_answer(question, document, year)
        except Exception as error:  # one place for the quote route: an abstention saying why
            event = route_failed("quote", error)
            result = QAResult(question=question, answer=f"{ABSTENTION} ({event.detail})",
                              abstained=True, k=cfg.k)
            result.guardrail_events = [event]
        if from_facts is not None:  # a computation that lacked an operand says which
            result.answer += f"\nNot computed from the statements: {from_facts[1].headline}"
        result.guardrail_events = events + result.guardrail_events
        return self._finished(result, started, log, "answered")

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

    def quote_answer(self, question: str, document: str | None = None,
                     year: int | None = None) -> QAResult:
        """The quote route: retrieval part by part (another phrasing for a part that found
        nothing, more chunks for a question that needs two sources), the best units quoted."""
        cfg = self.config
        scope = None
        if document or year:
            scope = Scope(documents=[document] if document else None,
                          years=[int(year)] if year else None, how="asked")
        parts = self.parts(question, scope)
        events: list[GuardrailEvent] = []
        if len(parts) > 1:
            events.append(GuardrailEvent(
                name="decomposed", detail=f"{len(parts)} parts: "
                                          f"{', '.join(p.label for p in parts)}"))
        per_part = 2 if len(parts) > 1 else None
        answers = []
        first_sources = 0
        for part in parts:
            answer = self.answer_part(part, cfg.k, per_part)
            first_sources += answer.first_pages
            if answer.abstained:
                answer = self.rephrased(part, answer, per_part, events)
            answers.append(answer)
        needs_two = len(parts) > 1 or len(self.retriever.plan(question).years) > 1
        retry_k = None
        if needs_two and _distinct_pages(answers) < 2 and cfg.retry_extra_k:
            retry_k = cfg.k + cfg.retry_extra_k
            events.append(GuardrailEvent(
                name="too_few_sources",
                detail=f"{_distinct_pages(answers)} source(s) for a question that needs 2: "
                       f"retried with k={retry_k}"))
            answers = [self.answer_part(a.part, retry_k, per_part) if a.abstained or
                       len(parts) == 1 else a for a in answers]
        for answer in answers:
            events += answer.events
        result = compose(question, answers, self.pages, cfg.citation_threshold)
        result.guardrail_events = events
        result.evidence_strength = min((a.strength for a in answers), default=0.0)
        result.k, result.retry_k, result.first_sources = cfg.k, retry_k, first_sources
        return result

    def rephrased(self, part: Part, answer: PartAnswer, per_part: int | None,
                  events: list[GuardrailEvent]) -> PartAnswer:
        """A part that found nothing asked in other words, the same documents and years: a
        phrasing made of line items names no company, and routed on its own it would search
        every filing."""
        scope_of_part = part.scope or self.retriever.resolve_scope(part.question,
                                                                   self.config.kind)
        for phrasing in self.phrasings(part.question):
            retry = self.answer_part(
                part.model_copy(update={"question": phrasing, "scope": scope_of_part}),
                self.config.k, per_part)
            events.append(GuardrailEvent(
                name="alternative_phrasing",
                detail=f"{part.label or 'question'}: {phrasing!r} "
                       f"{'answered' if not retry.abstained else 'found nothing'}"))
            if not retry.abstained:
                return retry
        return answer


def _distinct_pages(answers: Sequence[PartAnswer]) -> int:
    return len({(c.document, c.year, c.page) for a in answers for claim in a.claims
                for c in claim.citations})


def compose(question: str, answers: Sequence[PartAnswer], pages: PageTexts,
            threshold: float) -> QAResult:
    """The answer text with numbered citations, each marked by the verifier, and only the cited
    sources listed."""
    claims: list[Claim] = []
    lines: list[str] = []
    numbers: dict[tuple[str, int, int], int] = {}
    marks: dict[int, CitationMark] = {}
    for answer in answers:
        if answer.abstained:
            if len(answers) > 1:
                lines.append(f"{answer.part.label}: {ABSTENTION}")
            continue
        for claim in verify_claims(answer.claims, pages, threshold):
            refs = []
            for citation in claim.citations:
                key = (citation.document, citation.year, citation.page)
                number = numbers.setdefault(key, len(numbers) + 1)
                # a source's mark is its worst citation's
                marks[number] = _worse(marks.get(number), citation.mark)
                refs.append(marked(number, citation.mark))
            claims.append(claim)
            prefix = f"{answer.part.label}: " if len(answers) > 1 and answer.part.label else ""
            lines.append(f"{prefix}{claim.text} {' '.join(dict.fromkeys(refs))}")
    sources = [Source(number=n, document=d, year=y, page=p, mark=marks[n])
               for (d, y, p), n in numbers.items()]
    chunk_ids = list(dict.fromkeys(c for a in answers for c in a.chunk_ids))
    if not claims:
        looked = list(dict.fromkeys(x for a in answers for x in a.looked_for))
        text = f"{ABSTENTION} I looked for: {'; '.join(looked[:4])}."
        return QAResult(question=question, answer=text, abstained=True, looked_for=looked,
                        chunk_ids=chunk_ids)
    return QAResult(question=question, answer="\n".join(lines), claims=claims,
                    sources_used=sources, chunk_ids=chunk_ids)


_ORDER: dict[CitationMark, int] = {"valid": 0, "unchecked": 1, "context_mismatch": 2,
                                   "invalid": 3}


def _worse(current: CitationMark | None, new: CitationMark) -> CitationMark:
    if current is None:
        return new
    return current if _ORDER[current] >= _ORDER[new] else new


def audit_record(result: QAResult, document: str | None = None,
                 year: int | None = None) -> AuditRecord:
    """The ``answer_audit`` row of an answer."""
    triggered = [e.name for e in result.guardrail_events]
    return AuditRecord(
        question=result.question, document=document, year=year, provider=result.provider,
        k=result.k, sources=result.first_sources,
        guardrail_triggered=",".join(dict.fromkeys(triggered)) or None,
        retry_k=result.retry_k, final_sources=len(result.sources_used),
        answer_chars=len(result.answer), abstained=result.abstained, seconds=result.seconds)
