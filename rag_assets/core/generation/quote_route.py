"""The quote route: retrieval part by part, the best evidence units quoted (or a model's claims
that quote them), a direct first sentence when the quoted units state it.

A question that compares companies or years is decomposed into one part per partition; a part
that finds nothing is asked in other words (a model's, else the vocabulary's line items); a
question that needs two sources but cites fewer is retried once with more chunks; below the
evidence threshold a part abstains and says what it looked for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property

import numpy as np

from rag_assets.core.chunks.chunking import join_context
from rag_assets.core.generation.answer_config import AnswerConfig
from rag_assets.core.generation.auditor import auditor
from rag_assets.core.generation.bridged_causes import bridged_causes
from rag_assets.core.generation.business_description import business_description
from rag_assets.core.generation.certifications import certifying_officer
from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.claims import (
    claim_of,
    keep_verified,
    model_claims,
    model_reply,
    page_sources,
)
from rag_assets.core.generation.compose import Part, PartAnswer, compose, distinct_pages
from rag_assets.core.generation.continued_quotes import continued_claim, continues
from rag_assets.core.generation.cover_facts import cover_fact
from rag_assets.core.generation.current_items import current_item
from rag_assets.core.generation.declared_dividends import declared_dividend
from rag_assets.core.generation.direct import direct_answer
from rag_assets.core.generation.direct_rows import DirectAnswer, Scan, load_cues
from rag_assets.core.generation.drivers import (
    completed_on_page,
    continued_on_next_page,
    drivers,
    explained_direction,
    following_on_page,
    needs_no_completion,
    parts_explained,
    preceding_on_page,
    refers_elsewhere,
    stated_direction,
    subjects_named,
)
from rag_assets.core.generation.evidence import (
    EvidenceUnit,
    attached_legal_text,
    contents_entry,
    headings_at,
    offsets_on,
    page_table_rows,
    pages_printing,
    pages_titled,
    printed_unit,
    units_of,
)
from rag_assets.core.generation.extractive import (
    ScoredUnit,
    counted_pattern,
    counts_asked,
    evidence_strength,
    largest_count,
    missing_anchors,
    names_asked,
    names_measure,
    names_short_name,
    quote_order,
    rows_for_runs,
    runs_figures_on,
    score_units,
    select,
    words,
)
from rag_assets.core.generation.fiscal_names import periods_as_printed, quarter_shift
from rag_assets.core.generation.metric_engine import MetricAnswer
from rag_assets.core.generation.outlook import Level, outlook_block
from rag_assets.core.generation.page_texts import PageTexts, normalize
from rag_assets.core.generation.part_causes import parts_summing
from rag_assets.core.generation.party_roles import party_roles
from rag_assets.core.generation.records import (
    ABSTENTION,
    Change,
    Claim,
    GuardrailEvent,
    QAResult,
)
from rag_assets.core.generation.registered import registered_securities
from rag_assets.core.generation.risk_factors import risk_captions
from rag_assets.core.generation.signatures import signer
from rag_assets.core.generation.transaction_terms import transaction_terms
from rag_assets.core.generation.unfound import Prints, unfound_disclosure, unprinted_line_item
from rag_assets.core.generation.vote_results import vote_result
from rag_assets.core.ingest.layout import find_running_furniture, furniture_key
from rag_assets.core.llm.client import ChatModel, LLMReplyError
from rag_assets.core.llm.prompts import render
from rag_assets.core.question.question import Question
from rag_assets.core.question.vocabulary import load_vocabulary
from rag_assets.core.question.vocabulary import normalize as as_phrased
from rag_assets.core.retrieval.retriever import Hit, Retriever, Scope
from rag_assets.core.text.figures import AMOUNT_STATED_RE, states_other_amount
from rag_assets.core.text.prose import run_in_heading, standing_headings
from rag_assets.core.text.sentences import page_prose, split_sentences, without_folio
from rag_assets.core.text.years import names_other_years

QUOTE_PREFIX = 80  # characters of a quote that find it on its page
HEADING_PAGES_BACK = 3  # pages a heading is looked for above a page that prints none
SPAN_PAGES = 3  # pages one heading's sentences are read over


STRENGTH_UNITS = 3  # the units whose best strength decides whether the part answers
AMOUNT_RANKED = 5  # the best scored units an amount asked is looked for in when no quote has one


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


def filing_asked(question: Question, selected: Sequence[EvidenceUnit],
                 held: Sequence[tuple[str, int]]) -> tuple[str, int]:
    """The filing whose structure answers: the best unit's; for a question that names no
    period, the latest filing held (``held``: every partition stored) of the document the best
    unit is from, when the question names that document (the company as it is now: "Which
    securities does General Mills have registered?" reads its newest cover, not the 2015 one
    that ranked first)."""
    document, year = selected[0].document, selected[0].year
    if question.years or question.dates or document not in question.documents:
        return document, year
    return document, max((y for d, y in held if d == document), default=year)


# the heading of the cautionary statement that a forward-looking statement's safe harbor asks
# for (Securities Exchange Act Section 21E(c), the PSLRA): the factors it lists ("- the amount
# and timing of any future dividends; - possible disruption in our supply chain") are what
# could happen, never what the filing says did; they answer a question on the risks alone
CAUTIONARY_HEADING_RE = re.compile(
    r"^\s*(?:special\s+note|cautionary\s+(?:note|statements?|language))?\s*(?:(?:regarding|"
    r"concerning|about|on|for)\s+)?forward[\s\-\u2010\u2011]+looking\s+(?:statements?|information)\b",
    re.IGNORECASE)


@dataclass
class Found:
    """What the quote route found for a question, before it is composed."""

    answers: list[PartAnswer]
    events: list[GuardrailEvent]
    retry_k: int | None = None
    first_sources: int = 0


@dataclass
class ReadPage:
    """A page as the quote readers read it, derived once per page text: on one line, its
    headings with their offsets on that line, and its sentences (the folio off the last) and
    the headings that may title a legal matter (:attr:`standing`), read when first asked."""

    text: str
    flat: str
    headings: list[tuple[int, str]]

    @cached_property
    def sentences(self) -> list[str]:
        sentences = split_sentences(self.flat)
        if sentences:
            sentences[-1] = without_folio(sentences[-1])
        return sentences

    @cached_property
    def standing(self) -> list[tuple[int, str]]:
        """The lines the page prints on their own (:func:`standing_headings`: a matter's title,
        a case's caption) and the titles run into the paragraphs they open
        (:func:`run_in_heading`), each with where ``flat`` prints it, in order."""
        lines = offsets_on(self.flat, standing_headings(self.text))
        starts = dict(lines)
        run_in = []
        for at, sentence in offsets_on(self.flat, self.sentences):
            glued = starts.get(at, "")  # a line standing before a title run into its paragraph
            if (title := run_in_heading(sentence[len(glued):])) is not None:
                run_in.append((at + len(glued) + (len(glued) > 0), title))
        return sorted([*lines, *run_in])


@dataclass
class QuoteRoute:
    """Retrieval over one store, the stored pages to quote and verify, and the model, if any."""

    retriever: Retriever
    pages: PageTexts
    config: AnswerConfig
    chat: ChatModel | None = None
    # the change of the measure a cause question asks, computed in a filing (the facts route)
    change: Callable[[Question, str, int], Change | None] | None = None
    # a measure's figure in a fiscal year, computed in a filing (the facts route's ``level``)
    level: Callable[[Question, str, str, int, int], MetricAnswer | None] | None = None
    # each page as the readers read it (:meth:`read_page`), by its key
    _read_pages: dict[tuple[str, int, int], ReadPage] = field(default_factory=dict)
    # each filing's running heads' keys (:meth:`matter_heads`), read once
    _running_heads: dict[tuple[str, int], set[str]] = field(default_factory=dict)

    @cached_property
    def known_words(self) -> set[str]:
        """Words of the documents' own names (their aliases): not an anchor a question adds."""
        return {w.lower().removesuffix("'s") for p in self.retriever.profiles
                for alias in p.aliases for w in alias.split()}

    # -- evidence -------------------------------------------------------------------------
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

    def evidence(self, question: Question, scope: Scope | None, k: int
                 ) -> tuple[list[Hit], list[EvidenceUnit]]:
        """The chunks found (after MMR) and their units that a page prints as read."""
        cfg = self.config
        result = self.retriever.search(question, cfg.strategy, cfg.kind,
                                       k=max(cfg.candidates, k), scope=scope or Scope(),
                                       route=False)
        hits = result.hits
        if hits:  # the indexed text: its vectors come from the content-hash cache, not the model
            vectors, _ = self.retriever.embedder.embed(
                [join_context(h.context, h.text) for h in hits])
            hits = mmr(hits, vectors, k, cfg.mmr_lambda)
        # a unit no page prints as read (an extraction seam) cannot be cited, so never quoted
        units = [self.completed(u) for h in hits for u in units_of(h, self.locate)
                 if u.located]
        own = [u for u in units  # an exhibit's legal text; a table of contents' line
               if not attached_legal_text(self.pages, u.document, u.year, u.page)
               and not contents_entry(self.pages, u)]
        if "risk" not in question.intents:  # the factors are a summary of the risks
            own = [u for u in own if not CAUTIONARY_HEADING_RE.match(self.heading_above(u))]
        return hits, own or units

    def score(self, question: Question, units: Sequence[EvidenceUnit]) -> list[ScoredUnit]:
        """Units by relevance: the lexical signals rank all of them, the model embeds only the
        ``dense_units`` best (a unit's embedding is the costly signal: ~200 per question)."""
        embedder = self.retriever.embedder
        query = embedder.embed_query(question.ranking_text)
        config = self.config.extractive
        lexical = score_units(question, units, query, np.zeros((len(units), len(query)),
                                                               dtype=np.float32), config)
        shortlist = [s.unit for s in lexical[:self.config.dense_units]]
        return score_units(question, shortlist, query,
                           embedder.encode([u.text for u in shortlist]), config)

    # -- one part -------------------------------------------------------------------------
    def answer_part(self, part: Part, k: int, max_claims: int | None = None,
                    floor: float | None = None) -> PartAnswer:
        """One part answered from its scope, or its abstention saying why; ``floor`` the
        evidence strength it abstains below, when not the configured one."""
        hits, units = self.evidence(part.question, part.scope, k)
        scored = self.score(part.question, units)
        if scored and not (part.scope and part.scope.documents):
            # a question that names no filing is answered from one: its best evidence's (a
            # cause or a figure from another company's filing is not this one's)
            top = scored[0].unit.document
            scored = [s for s in scored if s.unit.document == top]
            units = [u for u in units if u.document == top]
        # the best of the first few units: one of another year ranked first ("In 2021, we
        # invested $68 million in Retailors") leaves the sentence of the period asked below it,
        # which then leads the quotes
        strengths = [evidence_strength(part.question, s) for s in scored[:STRENGTH_UNITS]]
        strength = max(strengths, default=0.0)
        if strengths and strengths[0] == 0.0 < strength:  # the first is of another year
            best = strengths.index(strength)
            scored = [scored[best], *scored[:best], *scored[best + 1:]]
        looked_for = [part.question.ranking_text, *part.question.expansion[:6]]
        out = PartAnswer(part=part, strength=strength, chunk_ids=[h.chunk_id for h in hits],
                         looked_for=looked_for,
                         first_pages=len({(h.document, h.year, p) for h in hits for p in h.pages}))
        if event := self.below_threshold(part, hits, strength, out, floor):
            counted = self.counted_instead(part, scored, hits)
            if counted is None:
                out.events.append(event)
                return out
            scored = [counted]
        read = self.filings_read([*(s.unit for s in scored), *units])
        if missing := (unfound_disclosure(part.question, read, self.scan_all(read))
                       or unprinted_line_item(part.question, read, self.prints(read))):
            out.looked_for = [missing]
            out.events.append(GuardrailEvent(name="required_disclosure_unfound",
                                             detail=f"{part.label or 'question'}: {missing}"))
            return out
        if self.chat is None:
            self.quoted_claims(part.question, scored, units, max_claims, out)
        else:
            out.claims, events = self.claims_from_model(part.question.text, scored)
            out.events += events
            out.method = "model"
        out.abstained = not out.claims
        return out

    def quoted_claims(self, question: Question, scored: list[ScoredUnit],
                      units: Sequence[EvidenceUnit], max_claims: int | None,
                      out: PartAnswer) -> None:
        """The offline engine's claims, into ``out``: a direct answer (or a computed change)
        first when a reader finds one, then the quotes."""
        chosen = self.chosen(question, scored, max_claims)
        ordered = quote_order(question, chosen)
        # a quote whose citation does not hold on its page (a row whose headings the page
        # does not print as the chunk names them) is dropped, like a model's claim
        quotes, dropped = keep_verified(verify_claims(
            [claim_of(s.unit) for s in ordered], self.pages,
            self.config.citation_threshold), "quoted units")
        direct, out.method, changed = self.direct(question, [s.unit for s in chosen], units)
        direct, out.method = self.with_change(question, direct, out.method, quotes,
                                              changed, ([s.unit for s in chosen], units))
        if not direct:
            quotes = self.continued_lead(question, ordered, quotes)
        # a quote the direct sentence already holds whole ("Yes. <the sentence>") once
        out.claims = [*direct, *(q for q in quotes
                                 if not any(d.text.endswith(q.text) for d in direct))]
        out.events += dropped

    def continued_lead(self, question: Question, ordered: Sequence[ScoredUnit],
                       quotes: list[Claim]) -> list[Claim]:
        """The quotes with the first read on into the sentence its page prints next, when that
        one goes on with its subject and states more of what it amounts to
        (:mod:`continued_quotes`); the next sentence is then not quoted again."""
        if not ordered or not quotes or quotes[0].text != claim_of(ordered[0].unit).text:
            return quotes
        lead = ordered[0].unit
        after = self.following(lead)
        if after is None or not continues(question.years, lead, after):
            return quotes
        kept, _ = keep_verified(verify_claims([continued_claim(lead, after)], self.pages,
                                              self.config.citation_threshold), "continued quote")
        if not kept:
            return quotes
        return [kept[0], *(q for q in quotes[1:] if q.text != after.text)]

    def chosen(self, question: Question, scored: list[ScoredUnit], max_claims: int | None
               ) -> list[ScoredUnit]:
        """The units to quote: the best scored (:func:`select`), a count asked first, a table's
        run quoted as its row, an amount asked read from the sentence after the best."""
        chosen = self.count_first(question, select(scored, self.config.extractive, max_claims),
                                  scored)
        chosen = rows_for_runs(question, chosen, lambda document, year, page: page_table_rows(
            self.pages, document, year, page))
        return amount_ranked(question, self.amount_following(question, chosen), scored)

    def count_first(self, question: Question, chosen: list[ScoredUnit],
                    scored: Sequence[ScoredUnit]) -> list[ScoredUnit]:
        """A count asked ("How many employees ...?") with the sentence that prints a number of
        the thing counted among the quotes: the best scored one, else the filing's first
        (Item 101(c)(2)(ii) prints the employees in Item 1, where retrieval may not look),
        never one that names only other years. Unchanged when a quote prints one already."""
        if not question.counts or not chosen:
            return chosen
        noun = question.counts
        counted = counted_pattern(noun)  # in the filer's word: "associates"

        def counts(unit: EvidenceUnit) -> bool:
            return (counts_asked(question.text, noun, unit.text)
                    and not names_other_years(unit.text, question.years))

        counting = next((s for s in chosen if counts(s.unit)), None)
        if counting is not None:
            # a whole printed beside a part of it on the same page: 86,200 employees beside
            # the 1,100 a collective agreement covers (Coca-Cola 2019, Item 1)
            return self.whole_count(noun, counting, chosen, counts)
        found = next((s for s in scored if counts(s.unit)), None)
        if found is None:
            unit = next((u for u in self.sentences_matching(
                [chosen[0].unit], [re.compile(counted.pattern, re.IGNORECASE)]) if counts(u)),
                None)
            if unit is None:
                return chosen
            found = ScoredUnit(unit=unit, score=chosen[0].score, dense=0.0, bm25=0.0,
                               coverage=0.0, matches=0.0)
        return [found, *chosen[:max(1, len(chosen) - 1)]]

    def amount_following(self, question: Question, chosen: list[ScoredUnit]
                         ) -> list[ScoredUnit]:
        """For an amount asked ("How much does it expect to spend ...?") that no quote prints:
        the sentence the best quote's page prints after it, when that one prints an amount of
        the year asked and names what the question asks of (:func:`names_asked`: the page's
        next sentence is as often another topic's amount), leads, scored as the quote: a
        filing states a thing, then its size ("...
        submitted comments to the EPA outlining ... its projected costs associated with PFAS
        treatment ..." then "The Company estimates an investment in excess of $1 billion of
        capital expenditures ...", American Water's Q2 2023 10-Q). Unchanged otherwise, and
        for a count (:meth:`count_first` reads those)."""
        if not amount_unquoted(question, chosen):
            return chosen
        best = chosen[0]
        after = self.following(best.unit)
        if (after is None or after.is_row or AMOUNT_STATED_RE.search(after.text) is None
                or runs_figures_on(after.text) or names_other_years(after.text, question.years)
                or not names_asked(question, after.text)):
            return chosen
        lead = ScoredUnit(unit=after, score=best.score, dense=0.0, bm25=0.0, coverage=0.0,
                          matches=0.0)
        return [lead, *chosen[:max(1, len(chosen) - 1)]]

    def whole_count(self, noun: str, counting: ScoredUnit, chosen: list[ScoredUnit],
                    counts: Callable[[EvidenceUnit], bool]) -> list[ScoredUnit]:
        """The quotes led by the largest count of the thing printed on the page of the one
        chosen, when it is larger: a whole beside a part of it (Coca-Cola 2019's 86,200
        employees beside the 1,100 a collective agreement covers, Item 1)."""
        pattern = re.compile(counted_pattern(noun).pattern, re.IGNORECASE)
        page = [u for u in self.sentences_matching([counting.unit], [pattern])
                if u.page == counting.unit.page and counts(u)]
        whole = max(page, key=lambda u: largest_count(noun, u.text), default=None)
        if whole is None or largest_count(noun, whole.text) <= largest_count(
                noun, counting.unit.text):
            return chosen
        lead = ScoredUnit(unit=whole, score=counting.score, dense=0.0, bm25=0.0, coverage=0.0,
                          matches=0.0)
        return [lead, *(s for s in chosen if s.unit.text != whole.text)][:max(1, len(chosen))]

    def counted_instead(self, part: Part, scored: Sequence[ScoredUnit], hits: Sequence[Hit]
                        ) -> ScoredUnit | None:
        """A count asked of the filing routed to, its evidence too weak to quote: the sentence
        that prints a number of the thing counted (:meth:`count_first`: Ulta's release, "the
        Company operated 1,359 stores", where retrieval did not look), else None. Never for a
        question whose words the evidence does not name, nor one routed to no filing."""
        if (self.chat is not None or not part.question.counts or not scored
                or not (part.scope and part.scope.documents) or missing_anchors(
                    part.question, " ".join(f"{h.context} {h.text}" for h in hits),
                    self.known_words)):
            return None
        found = self.count_first(part.question, list(scored[:1]), scored)[0]
        return found if counts_asked(part.question.text, part.question.counts,
                                     found.unit.text) else None

    def with_change(self, question: Question, direct: list[Claim], method: str,
                    quotes: Sequence[Claim], changed: str = "",
                    read: tuple[Sequence[EvidenceUnit], Sequence[EvidenceUnit]] = ((), ())
                    ) -> tuple[list[Claim], str]:
        """A cause question's first sentence with the change its causes explain, computed
        from the statements of the filing they are read in ("Primarily driven by ...;
        Corning's operating margin decreased from 17.8% in FY2021 to 10.1% in FY2022, by
        7.7 percentage points."); when no sentence gives its own causes, those of the parts
        it is made of (:mod:`bridged_causes`, from ``read``: the units selected and their
        pool), else the change alone first (the quotes follow). Unchanged when the question
        names no measure the facts hold, or asks of a segment's or a region's
        (``subjects_named``: the statements print the company's)."""
        cited = (direct or list(quotes))[:1]
        if (self.change is None or question.expects != "cause" or not cited
                or not cited[0].citations or method not in ("direct cause", "quoted")
                or subjects_named(question)):
            return direct, method
        source = cited[0].citations[0]
        change = self.change(question, source.document, source.year)
        if change is None:
            return direct, method
        head = direct[0] if direct else None
        if head is not None and states_other_amount(changed, change.levels):
            # "The provision for credit losses was $59 million": a business line's, where the
            # statements print the firm's $1,101 million; the sentence that states the
            # measure at its printed amount is asked for, else none
            direct, changed = self.explained_at(question, change.levels, *read)
            head = direct[0] if direct else None
        # the way its words say, else its causes' connective ("Benefited from ...")
        said = explained_direction(changed, head.text) if head is not None else None
        against = bool(said and change.way and said != change.way)
        if head is None or against or refers_elsewhere(head.text):
            # a cause whose change runs against the statements' explains another period or
            # measure, and "due to the factors described above" names none: its parts'
            # causes lead, else the change computed (the quotes follow), else the pointer's
            # sentence, which still states the change as printed
            bridged = self.bridged(question, change, *read) or self.by_parts(
                question, change, *read)
            if bridged is not None:
                head, direct, method = bridged, [], "direct cause"
            elif (head is None or against) and change.way is not None and (
                    again := self.explained_way(question, change.way, change.levels, *read)):
                # no sentence states the change the way the statements say it went, but one
                # whose connective says that way ("Consolidated operating income was
                # negatively affected by ...", MGM Resorts 2018) explains it
                direct, changed = again
                head, method = direct[0], "direct cause"
            elif head is None or against:
                return [change.claim], "computed change"
        return [Claim(text=f"{without_bare_change(head.text, changed, change.claim.text)}; "
                           f"{change.claim.text}",
                      citations=[*head.citations, *change.claim.citations]), *direct[1:]], method

    def explained_at(self, question: Question, levels: Sequence[float],
                     selected: Sequence[EvidenceUnit], pool: Sequence[EvidenceUnit]
                     ) -> tuple[list[Claim], str]:
        """The cause answer again, and the change it explains as printed, among sentences
        that state the measure at none but the amounts the statements print (``levels``),
        when every citation holds; else none."""
        found = drivers(question, selected, pool, self.preceding, self.scan(selected),
                        self.following, self.heading_above, levels=levels) if selected else None
        if found is None or (kept := self.verified(found.claim())) is None:
            return [], ""
        return [kept], found.changed

    def explained_way(self, question: Question, way: str, levels: Sequence[float],
                      selected: Sequence[EvidenceUnit], pool: Sequence[EvidenceUnit]
                      ) -> tuple[list[Claim], str] | None:
        """The cause answer among sentences whose connective says the change went the way the
        statements say (``way``: "was negatively affected by"), with the change it explains,
        when every citation holds, stating the measure at no amount but the statements'
        (``levels``); else None. A sentence that states its own change was read
        already: the best of those ran against the statements or was another's (a segment's
        "increase in King's operating income" is no cause of the company's margin)."""
        found = drivers(question, selected, pool, self.preceding, self.scan(selected),
                        self.following, self.heading_above, levels=levels,
                        way=way) if selected else None
        if found is None or stated_direction(found.changed) is not None or explained_direction(
                "", found.causes) != way or (kept := self.verified(found.claim())) is None:
            return None
        return [kept], found.changed

    def bridged(self, question: Question, change: Change, selected: Sequence[EvidenceUnit],
                pool: Sequence[EvidenceUnit]) -> Claim | None:
        """The causes of the parts of a change that moved its way, read as a cause question
        is (:func:`drivers`), when every citation holds; else None."""
        def explain(asked: Question) -> DirectAnswer | None:
            return drivers(asked, selected, pool, self.preceding, self.scan(selected),
                           self.following, self.heading_above, pointers=False)

        found = bridged_causes(question, change, explain) if selected else None
        return self.verified(found.claim()) if found is not None else None

    def by_parts(self, question: Question, change: Change, selected: Sequence[EvidenceUnit],
                 pool: Sequence[EvidenceUnit]) -> Claim | None:
        """The causes of the parts MD&A explains a change by when it explains no whole
        (:mod:`part_causes`: their stated changes add up to the one computed), when every
        citation holds; else None."""
        if not selected or not change.levels:
            return None
        parts = parts_explained(question, selected, pool, self.preceding,
                                self.scan(selected), self.heading_above, change.levels)
        found = parts_summing(change.levels[-1], question.months, parts)
        return self.verified(found.claim()) if found is not None else None

    def verified(self, claim: Claim) -> Claim | None:
        """``claim`` with its citations checked against the pages, when every one holds; else
        None: a direct answer is all verified or not given."""
        checked = verify_claims([claim], self.pages, self.config.citation_threshold)[0]
        return checked if all(c.mark == "valid" for c in checked.citations) else None

    def below_threshold(self, part: Part, hits: Sequence[Hit], strength: float,
                        out: PartAnswer, floor: float | None = None) -> GuardrailEvent | None:
        """Why the part abstains before quoting: the evidence never names what the question
        does (said first in what it looked for), or is too weak; else None."""
        label = part.label or "question"
        missing = missing_anchors(part.question, " ".join(
            f"{h.context} {h.text}" for h in hits), self.known_words)
        if missing:
            out.looked_for = [*missing, *out.looked_for]
            return GuardrailEvent(name="below_evidence_threshold",
                                  detail=f"{label}: the documents found never name "
                                         f"{', '.join(missing)}")
        floor = self.config.extractive.abstain_below if floor is None else floor
        if strength < floor:
            return GuardrailEvent(name="below_evidence_threshold",
                                  detail=f"{label}: evidence {strength:.2f} < {floor:.2f}")
        return None

    def direct(self, question: Question, selected: Sequence[EvidenceUnit],
               pool: Sequence[EvidenceUnit]) -> tuple[list[Claim], str, str]:
        """The one-line direct answer that goes before the quotes (:mod:`direct`: the winner
        of a superlative, the names of a list, the direction of a two-period comparison), when
        the selected units print it and each of its citations holds, else nothing; and how the
        first sentence is reached ("direct <kind>", else "quoted"), and for a cause the change
        it explains, as printed."""
        read: dict[tuple[str, int, int], list[EvidenceUnit]] = {}  # each page parsed once

        def page_rows(document: str, year: int, page: int) -> list[EvidenceUnit]:
            key = (document, year, page)
            if key not in read:
                read[key] = page_table_rows(self.pages, document, year, page)
            return read[key]

        found = self.by_structure(question, selected) or direct_answer(
            self.as_printed(question, selected), selected, pool, page_rows,
            preceding=self.preceding,
            before=self.text_before, scan=self.scan(selected), following=self.following,
            printing=self.pages_printing, titling=self.pages_titling,
            heading=self.heading_above, under=self.under_heading)
        if found is None or (kept := self.verified(found.claim())) is None:
            return [], "quoted", ""
        return [kept], f"direct {found.kind}", found.changed

    def as_printed(self, question: Question, selected: Sequence[EvidenceUnit]) -> Question:
        """The question with the quarter it asks dated as the columns of the filing of the best
        unit print it (:func:`fiscal_names.quarter_shift`, on the naming the filing defines,
        read once per filing): the tables a direct answer ranks are headed by the calendar year
        a fiscal quarter ends in. Its words and years stay as asked."""
        quarters = {int(q[-1]) for q, _ in question.periods if q}
        if not selected or len(quarters) != 1:
            return question
        shift = quarter_shift(self.pages.fiscal_year_defined(selected[0].document,
                                                             selected[0].year), quarters.pop())
        return question.model_copy(update={"periods": periods_as_printed(question.periods,
                                                                          shift)}) \
            if shift else question

    def by_structure(self, question: Question, selected: Sequence[EvidenceUnit]
                     ) -> DirectAnswer | None:
        """What the filing of the best unit prints where its form puts the answer: the
        cover page's table of registered securities (:mod:`registered`) and what else the cover
        states of the registrant (:mod:`cover_facts`), the outlook block of
        a release (:mod:`outlook`, for a question that asks for the outlook), a dividend's
        declaration (:mod:`declared_dividends`), the counts of an 8-K's vote
        (:mod:`vote_results`: the nominee or the share asked), the body of the 8-K Item asked
        (:mod:`current_items`), the officer who signed an 8-K (:mod:`signatures`), the officers who
        certify a report (:mod:`certifications`), the firm that signs its auditor's report
        (:mod:`auditor`), the
        sentence that opens Item 1's description of the business
        (:mod:`business_description`), the captions of Item 1A's risk factors
        (:mod:`risk_factors`), a transaction and its terms (:mod:`transaction_terms`); None
        otherwise."""
        if not selected:
            return None
        document, year = filing_asked(question, selected, self.pages.partitions())
        pages = [(p, self.pages.get(document, year, p) or "")
                 for p in self.pages.pages_of(document, year)]
        return (registered_securities(question, document, year, pages)
                or cover_fact(question, document, year, pages)
                or declared_dividend(question, document, year, pages)
                or outlook_block(question, document, year, pages,
                                 self.levels_in(question, document, year))
                or vote_result(question, document, year, pages)
                or party_roles(question, selected, self.scan(selected), load_cues())
                or current_item(question, document, year, pages)
                or signer(question, document, year, pages)
                or certifying_officer(question, document, year, pages)
                or auditor(question, document, year, pages)
                or business_description(question, document, year, pages,
                                        self.pages.page_items(document, year))
                or risk_captions(question, document, year, pages,
                                 self.pages.page_items(document, year),
                                 self.pages.bold_lines(document, year))
                or transaction_terms(question, selected, document, year, pages))

    def levels_in(self, question: Question, document: str, year: int) -> Level | None:
        """A measure's figure in a fiscal year as the filing's statements compute it, for
        ``question`` (what an outlook is read against); None without the facts route."""
        level = self.level
        if level is None:
            return None

        @cache  # each measure computed once, however many headings are read
        def computed(metric: str, fiscal_year: int) -> MetricAnswer | None:
            return level(question, metric, document, year, fiscal_year)

        return computed

    def completed(self, unit: EvidenceUnit) -> EvidenceUnit:
        """A unit a chunk cut mid-sentence, with its sentence's rest as its page prints it
        (:func:`completed_on_page`), when the page's text still holds the longer quote (a
        verifier's check); else the unit as read."""
        if needs_no_completion(unit):  # most units: no page read for them
            return unit
        whole = completed_on_page(self.read_page(unit.document, unit.year, unit.page).flat,
                                  unit)
        if whole is unit or self.locate(unit.document, unit.year, [unit.page],
                                         whole.quote) is None:
            return unit
        return whole

    def preceding(self, unit: EvidenceUnit) -> EvidenceUnit | None:
        """The sentence a unit's page prints just before it."""
        return preceding_on_page(self.pages.get(unit.document, unit.year, unit.page), unit)

    def following(self, unit: EvidenceUnit) -> EvidenceUnit | None:
        """The sentence a unit's page prints just after it, or the next page's opening when
        the unit ends its page and that page goes on with it (:func:`continued_on_next_page`)."""
        page = self.pages.get(unit.document, unit.year, unit.page)
        return following_on_page(page, unit) or continued_on_next_page(
            page, self.pages.get(unit.document, unit.year, unit.page + 1), unit)

    def scan(self, selected: Sequence[EvidenceUnit]) -> Scan:
        """The sentences of the filing of ``selected`` that match given patterns."""
        return lambda patterns: self.sentences_matching(selected, patterns)

    @staticmethod
    def filings_read(units: Sequence[EvidenceUnit]) -> list[EvidenceUnit]:
        """A unit of each filing (document and year) among ``units``, in their order."""
        first: dict[tuple[str, int], EvidenceUnit] = {}
        for unit in units:
            first.setdefault((unit.document, unit.year), unit)
        return list(first.values())

    def scan_all(self, filings: Sequence[EvidenceUnit]) -> Scan:
        """The sentences of every filing of ``filings`` that match given patterns."""
        return lambda patterns: (unit for filing in filings
                                 for unit in self.sentences_matching([filing], patterns))

    def prints(self, filings: Sequence[EvidenceUnit]) -> Prints:
        """Whether a page of a filing of ``filings``, its text as stored (tables too) and
        normalized as the vocabulary's phrases are, matches one of given patterns."""
        def any_page(patterns: Sequence[re.Pattern[str]]) -> bool:
            texts = (as_phrased(self.pages.get(u.document, u.year, page) or "")
                     for u in filings for page in self.pages.pages_of(u.document, u.year))
            return any(p.search(text) for text in texts for p in patterns)
        return any_page

    def heading_above(self, unit: EvidenceUnit) -> str:
        """The heading printed last above a unit's quote: on its page, else the last of the
        pages before it (a section's heading holds over page breaks), within a few pages."""
        read = self.read_page(unit.document, unit.year, unit.page)
        at = read.flat.find(" ".join(unit.quote.split())[:QUOTE_PREFIX])
        above = [h for offset, h in read.headings if 0 <= offset <= at]
        if above:
            return above[-1]
        for page in range(unit.page - 1, max(-1, unit.page - 1 - HEADING_PAGES_BACK), -1):
            if earlier := self.read_page(unit.document, unit.year, page).headings:
                return earlier[-1][1]
        return ""

    def under_heading(self, unit: EvidenceUnit) -> tuple[str, list[EvidenceUnit]]:
        """The line printed on its own last above a unit's quote (:meth:`ReadPage.standing`: a
        legal matter's title or its case's caption), on its page or the page before, and the
        sentences under it up to the next such line, over at most ``SPAN_PAGES`` pages: what a
        filing prints of one matter. A chunk that glued the heading to the sentence places the
        unit by its quote's end.
        ``("", [])`` when no line stands above it."""
        read = self.read_page(unit.document, unit.year, unit.page)
        start = read.flat.find(" ".join(unit.quote.split())[:QUOTE_PREFIX])
        end = start + len(" ".join(unit.quote.split())) if start >= 0 else -1
        heads = self.matter_heads(unit.document, unit.year, unit.page)
        above = next(((unit.page, at, h) for at, h in reversed(heads) if at < end), None)
        if above is None and unit.page > 0 and (
                before := self.matter_heads(unit.document, unit.year, unit.page - 1)):
            above = (unit.page - 1, *before[-1])  # a matter runs over one page break at most
        if above is None:
            return "", []
        first, at, heading = above
        span: list[EvidenceUnit] = []
        items = self.pages.page_items(unit.document, unit.year)
        for page in range(first, first + SPAN_PAGES):
            read = self.read_page(unit.document, unit.year, page)
            begin = at + len(heading) if page == first else 0
            stop = next((o for o, _ in self.matter_heads(unit.document, unit.year, page)
                         if o >= begin), len(read.flat))
            sentences = split_sentences(read.flat[begin:stop].lstrip(". "))
            if sentences and stop == len(read.flat):
                sentences[-1] = without_folio(sentences[-1])
            span += [printed_unit(unit.document, unit.year, page, sentence,
                                  items.get(page) or "", rank=unit.chunk_rank)
                     for sentence in sentences]
            if stop < len(read.flat):
                break
        return heading, span

    def matter_heads(self, document: str, year: int, page: int) -> list[tuple[int, str]]:
        """A page's headings that may title a matter (:meth:`ReadPage.standing`), the filing's
        running heads left out: a line the ingest's layout reader finds at a page's edge on
        three pages or more (:func:`find_running_furniture`, of any share of the pages:
        "DowCorningIndex" atop the 40 pages of Dow Corning's statements Corning's 2015 10-K
        attaches) is the page's furniture, no title."""
        key = (document, year)
        if key not in self._running_heads:
            self._running_heads[key] = find_running_furniture(
                [(self.pages.get(document, year, p) or "").split("\n")
                 for p in self.pages.pages_of(document, year)], min_share=0.0)
        running = self._running_heads[key]
        return [(at, h) for at, h in self.read_page(document, year, page).standing
                if furniture_key(h) not in running]

    def read_page(self, document: str, year: int, page: int) -> ReadPage:
        """A page as the readers read it, once per page text (a page indexed again is read
        again): the cause, bridge and parts readers scan the same filing for one question."""
        key, text = (document, year, page), self.pages.get(document, year, page) or ""
        read = self._read_pages.get(key)
        if read is None or read.text != text:
            flat = page_prose(text)
            read = self._read_pages[key] = ReadPage(text, flat, headings_at(text, flat))
        return read

    def text_before(self, unit: EvidenceUnit, chars: int = 400) -> str:
        """The ``chars`` characters a page prints just before ``unit``'s quote."""
        flat = " ".join((self.pages.get(unit.document, unit.year, unit.page) or "").split())
        at = flat.find(" ".join(unit.quote.split()))
        return flat[max(0, at - chars):at] if at > 0 else ""

    def pages_printing(self, document: str, year: int, name: str) -> list[int]:
        """The filing's pages that print a row labelled ``name`` (:func:`pages_printing`)."""
        return pages_printing(self.pages, document, year, name)

    def pages_titling(self, document: str, year: int, words: Sequence[str]) -> list[int]:
        """The filing's pages that print a table titled by one of ``words``."""
        return pages_titled(self.pages, document, year, words)

    def sentences_matching(self, units: Sequence[EvidenceUnit],
                           patterns: Sequence[re.Pattern[str]]) -> Iterator[EvidenceUnit]:
        """Every sentence of the filing of ``units[0]`` that one of ``patterns`` matches, in
        page order, as units: a disclosure printed where retrieval did not look. A page none
        of the patterns matches is not split; each unit's scope is its page's Item ("Item 7."),
        the section it stands in. An attached material contract's pages are not read, as
        retrieval's evidence leaves them out (:func:`attached_legal_text`): an employment
        agreement's "subpoena power" is no legal matter of the filer's."""
        if not units:
            return
        document, year = units[0].document, units[0].year
        items = self.pages.page_items(document, year)
        for page in self.pages.pages_of(document, year):
            if attached_legal_text(self.pages, document, year, page):
                continue
            read = self.read_page(document, year, page)
            if not any(p.search(read.flat) for p in patterns):
                continue
            for sentence in read.sentences:
                if any(p.search(sentence) for p in patterns):
                    yield printed_unit(document, year, page, sentence,
                                       items.get(page) or "", rank=len(units))

    def claims_from_model(self, question: str, scored: Sequence[ScoredUnit]
                          ) -> tuple[list[Claim], list[GuardrailEvent]]:
        """Claims a model writes from the best units' pages; a claim must quote its excerpt."""
        assert self.chat is not None  # the model path only
        sources = page_sources(scored, self.config.model_context_chars)
        prompt = render("answer", self.chat.prompts, question=question, sources=sources,
                        abstention=ABSTENTION)
        reply, events = model_reply(self.chat, prompt)
        checked = verify_claims(model_claims(reply, sources), self.pages,
                                self.config.citation_threshold)
        kept, dropped = keep_verified(checked, "model claims")
        return kept, events + dropped

    # -- the question ---------------------------------------------------------------------
    def parts(self, question: Question, asked: Scope | None, routed: Scope,
              company: dict[str, str]) -> list[Part]:
        """One part per company (or per year) a comparison names; else the question whole.
        Several filings of one company (its 10-K and a 10-Q, two 8-Ks) are searched as one
        scope: a question that does not compare them is answered from the one that holds the
        answer, not once per filing with "I cannot answer" for the others."""
        if asked is not None:
            return [Part(question=question, scope=asked)]
        documents = routed.documents or []
        if len({company.get(d, d) for d in documents}) > 1:
            return [Part(question=question, label=d,
                         scope=Scope(documents=[d], years=routed.years, how=f"part: {d}",
                                     latest=[p for p in routed.latest or [] if p[0] == d]
                                     or None))
                    for d in documents]
        if routed.years and len(routed.years) > 1:
            return [Part(question=question, label=str(y),
                         scope=Scope(documents=routed.documents, years=[y],
                                     how=f"part: year {y}"))
                    for y in routed.years]
        # a routed question is searched in its filings whatever the strategy (no citation from
        # another company's pages); ``routed`` also narrows to the years it asks
        return [Part(question=question, scope=routed if documents or self.routes_years
                     else None)]

    @property
    def routes_years(self) -> bool:
        return self.config.strategy == "routed"

    def phrasings(self, question: Question) -> list[str]:
        """Other words for a part that found nothing: a model's, else the vocabulary's."""
        n = self.config.phrasings
        if not n:
            return []
        if self.chat is not None:
            try:
                reply = self.chat.complete_json(
                    render("alternative_phrasing", self.chat.prompts, question=question.text,
                           n=n), "executive")
                found = [str(p) for p in reply.get("phrasings") or [] if str(p).strip()]
                if found:
                    return found[:n]
            except LLMReplyError:
                pass
        vocabulary = load_vocabulary()
        out = ([" ".join([question.ranking_text, *question.expansion])]
               if question.expansion else [])
        for metric in question.metrics:
            items = vocabulary.line_items_of(metric)
            if items:
                out.append(f"{items[0]} {' '.join(str(y) for y in question.years)}".strip())
        return [p for p in dict.fromkeys(out) if p != question.text][:n]

    def rephrased(self, part: Part, answer: PartAnswer, per_part: int | None,
                  routed: Scope, events: list[GuardrailEvent]) -> PartAnswer:
        """A part that found nothing searched with other words: the question as asked (its
        answer's form, periods and measure), the same documents and years; only the words
        that rank the chunks change (a phrasing of line items names no company)."""
        for phrasing in self.phrasings(part.question):
            retry = self.answer_part(part.model_copy(update={
                "question": part.question.searched_as(phrasing),
                "scope": part.scope or routed}),
                self.config.k, per_part)
            events.append(GuardrailEvent(
                name="alternative_phrasing",
                detail=f"{part.label or 'question'}: {phrasing!r} "
                       f"{'answered' if not retry.abstained else 'found nothing'}"))
            if not retry.abstained:
                return retry
        return answer

    def answer(self, question: Question, asked: Scope | None, routed: Scope,
               company: dict[str, str]) -> QAResult:
        """The quote route's answer: :meth:`found`, composed."""
        return self.composed(question, self.found(question, asked, routed, company))

    def found(self, question: Question, asked: Scope | None, routed: Scope,
              company: dict[str, str]) -> Found:
        """Each part answered (rephrased when it found nothing), a retry with more chunks when
        a question that needs two sources cites fewer; not yet composed, so a caller may fold
        in what another part of the question found."""
        cfg = self.config
        parts = self.parts(question, asked, routed, company)
        events: list[GuardrailEvent] = []
        if len(parts) > 1:
            events.append(GuardrailEvent(name="decomposed", detail=f"{len(parts)} parts: "
                                         f"{', '.join(p.label for p in parts)}"))
        per_part = 2 if len(parts) > 1 else None
        answers, first_sources = [], 0
        for part in parts:
            answer = self.answer_part(part, cfg.k, per_part)
            first_sources += answer.first_pages
            if answer.abstained:
                answer = self.rephrased(part, answer, per_part, routed, events)
            answers.append(answer)
        answers, retry_k = self.retried(question, parts, answers, per_part, events)
        return Found(answers=answers, events=events, retry_k=retry_k,
                     first_sources=first_sources)

    def composed(self, question: Question, found: Found) -> QAResult:
        """The parts' answers as one cited answer."""
        events = [*found.events, *(e for answer in found.answers for e in answer.events)]
        result = compose(question.text, found.answers, self.pages,
                         self.config.citation_threshold)
        result.guardrail_events = events
        result.evidence_strength = min((a.strength for a in found.answers), default=0.0)
        result.k, result.retry_k = self.config.k, found.retry_k
        result.first_sources = found.first_sources
        return result

    def retried(self, question: Question, parts: Sequence[Part], answers: list[PartAnswer],
                per_part: int | None, events: list[GuardrailEvent]
                ) -> tuple[list[PartAnswer], int | None]:
        """A question that needs two sources (parts, or two years asked) and cites fewer is
        asked again with ``retry_extra_k`` more chunks."""
        cfg = self.config
        needs_two = len(parts) > 1 or len(question.years) > 1
        if not (needs_two and distinct_pages(answers) < 2 and cfg.retry_extra_k):
            return answers, None
        retry_k = cfg.k + cfg.retry_extra_k
        events.append(GuardrailEvent(
            name="too_few_sources",
            detail=f"{distinct_pages(answers)} source(s) for a question that needs 2: "
                   f"retried with k={retry_k}"))
        return [self.answer_part(a.part, retry_k, per_part) if a.abstained or len(parts) == 1
                else a for a in answers], retry_k


def amount_unquoted(question: Question, chosen: Sequence[ScoredUnit]) -> bool:
    """Whether an amount is asked (never a count: :meth:`QuoteRoute.count_first` reads those)
    and no quote prints one: no sentence states one, no table row (its figures print no dollar
    sign) is quoted."""
    return (question.expects == "figure" and not question.counts and bool(chosen)
            and not any(s.unit.is_row or AMOUNT_STATED_RE.search(s.unit.text) for s in chosen))


def amount_ranked(question: Question, chosen: list[ScoredUnit], scored: Sequence[ScoredUnit]
                  ) -> list[ScoredUnit]:
    """For an amount asked ("What did Corning pay for 3M's Communication Markets Division
    (CMD) in 2018?") that no quote prints, nor the sentence after the best: the best scored of
    the first :data:`AMOUNT_RANKED` units that prints an amount, names what the question asks
    of (:func:`names_asked`, or a short name it defines, "(CMD)": :func:`names_short_name`) and no
    other year than those asked, leads ("During 2018, Corning acquired substantially all of CMD
    for $841 million" over the announcement of December 2017 that ranked first). Unchanged
    otherwise, and for a count (:meth:`QuoteRoute.count_first` reads those)."""
    if not amount_unquoted(question, chosen):
        return chosen
    found = next((s for s in scored[:AMOUNT_RANKED]
                  if not s.unit.is_row and AMOUNT_STATED_RE.search(s.unit.text)
                  and not runs_figures_on(s.unit.text)
                  and not names_other_years(s.unit.text, question.years)
                  and (names_asked(question, s.unit.text)
                       or names_short_name(question, s.unit.text))), None)
    if found is None:
        return chosen
    others = [s for s in chosen if s.unit is not found.unit]
    return [found, *others[:max(1, len(chosen) - 1)]]


def without_bare_change(causes: str, changed: str, computed: str) -> str:
    """A cause answer without the change as printed at its end when that only names the
    change the computed sentence after it states with its figures: a change put as a noun
    ("The decline in gross margin as a percentage of sales", Corning's Q2 2023 10-Q; "The
    increase in our consolidated revenues") whose words the ``computed`` sentence holds.
    A change that prints a figure or a year, says it as a clause ("Principal transactions
    revenue increased": a part's, which the lead must name), or names anything the computed
    sentence does not, stays."""
    text = causes.rstrip().rstrip(".")
    bare = changed.strip().rstrip(" .")
    noun = _NOMINAL_CHANGE_RE.match(bare)
    if noun is None or re.search(r"\d", bare) or not text.endswith(f"; {bare}"):
        return text
    named = " ".join(w for w in words(noun["what"]) if w not in _NO_MEASURE)
    return text[:-len(bare)].rstrip(" ;,") if names_measure(named, computed) else text


# a change put as a noun: "The decline in ...", "The increase in ..."
_NOMINAL_CHANGE_RE = re.compile(r"^the (?:increase|decrease|decline|change|improvement|rise|"
                                r"fall|growth|reduction|deterioration) in (?P<what>.+)$",
                                re.IGNORECASE)
_NO_MEASURE = frozenset({"the", "our", "its", "a", "an", "of", "as", "in", "and",
                         "consolidated", "total"})
