"""Report summaries, baseline against enriched, each sentence cited.

Both read the same report through the same multi-query retrieval (one search per topic of
``SUMMARY_TOPICS``) and keep the evidence in relevance order within a character budget
(``pack_context``). They differ where the product differs:

- **baseline**: naive chunks (fixed windows, footnote definitions left at the page bottom) and a
  plain summary: a sentence is quoted as printed, markers and all;
- **enriched**: enriched chunks (each definition stitched after the sentence that cites it) and a
  summary that keeps the qualification with the figure it qualifies.

The extractive engine picks, per topic, the sentences that best answer the topic's query, and
writes each as prose (``prose_of``): a footnote marker as a reference (``(note 5)``, a quoted
definition as ``Note 7: ...``, a stitched one after its sentence), a heading that chunking glued
to its sentence kept apart (``Fiscal year 2024 highlights: Revenue rose ...``), a table row's
figures in its table's units (``FY 2024: $381 million``); a table flattened into one "sentence"
is not a sentence and is skipped. Its citations still quote the page as printed. A model
(``openai``/``azure``) writes the sentences from the same excerpts, and any sentence whose
citation does not hold on its page is dropped.
"""

from __future__ import annotations

import time
from typing import Literal

from rag_assets.core.generation.answers import Answerer
from rag_assets.core.generation.citations import marked, verify_claims
from rag_assets.core.generation.claims import (
    claim_of,
    keep_verified,
    model_claims,
    model_reply,
    page_sources,
)
from rag_assets.core.generation.evidence import EvidenceUnit, units_of
from rag_assets.core.generation.records import Claim, GuardrailEvent, SummaryResult
from rag_assets.core.llm.prompts import render
from rag_assets.core.retrieval.retriever import SUMMARY_TOPICS, Hit, Scope, pack_context
from rag_assets.core.text.figures import is_figure
from rag_assets.core.text.prose import (
    as_note,
    heading_split,
    leading_marker,
    row_with_units,
    table_units,
    units_line_above,
    with_references,
)

Variant = Literal["baseline", "enriched"]
KIND_OF: dict[Variant, Literal["naive", "enriched"]] = {"baseline": "naive",
                                                         "enriched": "enriched"}
PER_TOPIC = 2
BUDGET_CHARS = 12_000
TABLE_FILLER = {"$", "€", "£", "%", "—", "–", "-"}  # cells between a flattened table's figures


def summarize_report(answerer: Answerer, document: str, year: int, variant: Variant,
                     subject: str | None = None, per_topic: int = PER_TOPIC,
                     budget: int = BUDGET_CHARS) -> SummaryResult:
    """A cited summary of one partition."""
    started = time.perf_counter()
    kind = KIND_OF[variant]
    scope = Scope.partition(document, year)
    subject = subject or f"{document} {year}"
    hits = answerer.retriever.multi_query(subject, answerer.config.strategy, kind,
                                          k_per_query=5, scope=scope)
    packed = pack_context(hits, budget)
    kept = [h for h in hits if h.chunk_id in set(packed.chunk_ids)]
    claims: list[Claim] = []
    events: list[GuardrailEvent] = []
    prose: list[str] = []
    if answerer.chat is None:
        picked = _extractive_claims(answerer, kept, subject, variant, per_topic)
        claims, prose = [claim for claim, _ in picked], [text for _, text in picked]
    else:
        units = [u for h in kept for u in units_of(h, answerer.locate)]
        scored = answerer.score(answerer.read(f"{subject} summary"), units)
        sources = page_sources(scored, answerer.config.model_context_chars)
        prompt = render(f"{variant}_summary", answerer.chat.prompts, document=document,
                        year=year, sources=sources, max_sentences=len(SUMMARY_TOPICS) * per_topic)
        reply, events = model_reply(answerer.chat, prompt)
        claims = model_claims(reply, sources)
    checked = verify_claims(claims, answerer.pages, answerer.config.citation_threshold)
    if prose:  # verified as quoted, shown as prose
        checked = [c.model_copy(update={"text": t}) for c, t in zip(checked, prose, strict=True)]
    if answerer.chat is not None:
        checked, dropped = keep_verified(checked, "model sentences")
        events += dropped
    return SummaryResult(
        document=document, year=year, variant=variant, text=summary_text(checked),
        claims=checked, chunk_ids=packed.chunk_ids,
        provider="extractive" if answerer.chat is None else answerer.chat.provider,
        model=None if answerer.chat is None else answerer.chat.config.executive_model,
        events=events, seconds=round(time.perf_counter() - started, 3))


def _extractive_claims(answerer: Answerer, kept: list[Hit], subject: str, variant: Variant,
                       per_topic: int) -> list[tuple[Claim, str]]:
    """Per topic, the ``per_topic`` best sentences of the kept evidence that read as text, none
    twice: each as its claim (the words quoted, to verify) and as prose (to show)."""
    seen: set[str] = set()
    claims: list[tuple[Claim, str]] = []
    cited = {h.chunk_id: h.markers_cited for h in kept}
    for topic, terms in SUMMARY_TOPICS.items():
        topic_hits = [h for h in kept if h.stage == f"multi_query:{topic}"] or kept
        units = [u for h in topic_hits for u in units_of(h, answerer.locate)]
        if variant == "baseline":  # quoted as printed: no stitched definition
            units = [u.model_copy(update={"footnotes": []}) for u in units]
        scored = answerer.score(answerer.read(f"{subject} {topic}: {terms}"), units)
        taken = 0
        for item in scored:
            unit = item.unit
            if unit.quote in seen or not unit.located or not reads_as_text(unit):
                continue
            seen.add(unit.quote)
            page = answerer.pages.get(unit.document, unit.year, unit.page) or ""
            text = prose_of(unit, page, _defined_on(kept, unit.page), cited.get(unit.chunk_id, []))
            claims.append((claim_of(unit), text))
            taken += 1
            if taken >= per_topic:
                break
    return claims


def _defined_on(hits: list[Hit], page: int) -> list[str]:
    """The markers the chunks printing ``page`` define: a marker a table reuses ("(1)" under
    two tables) is registered to one chunk, and a page's definition may sit in another."""
    return sorted({m for h in hits if page in (h.pages or range(h.page_start, h.page_end + 1))
                   for m in h.markers_defined})


def reads_as_text(unit: EvidenceUnit) -> bool:
    """False for what is not a sentence: a table flattened into one (a statement's rows run
    together, as a naive chunk or a page without ruled tables gives them: figures side by side,
    three in a row or two pairs), or a fragment a chunk window cut (it opens in lower case)."""
    if unit.is_row:
        return True
    if unit.text[:1].islower():
        return False
    runs: list[int] = [0]
    for word in unit.text.split():
        if word not in TABLE_FILLER:
            runs.append(runs[-1] + 1 if is_figure(word) else 0)
    return max(runs) < 3 and sum(n == 2 for n in runs) < 2


def prose_of(unit: EvidenceUnit, page_text: str, defined: list[str] | tuple[str, ...] = (),
             cited: list[str] | tuple[str, ...] = ()) -> str:
    """The unit as a reader reads it: a row in its table's units; a sentence without the
    heading chunking glued to it (kept apart, before a colon); a quoted definition as ``Note N:
    ...``; every other marker a reference; each stitched definition a note after it."""
    markers = [*defined, *cited, *(note.marker for note in unit.footnotes)]
    heading, text = ("", row_with_units(unit.text, _units_scope(unit, page_text))) \
        if unit.is_row else heading_split(unit.text, page_text)
    opening = leading_marker(text, defined)
    text = as_note(opening, text.lstrip()[len(opening):], markers) if opening \
        else with_references(text, markers)
    notes = [as_note(note.marker, note.text, markers) for note in unit.footnotes]
    return " ".join([f"{heading}: {text}" if heading else text, *notes])


def _units_scope(unit: EvidenceUnit, page_text: str) -> str:
    """Where a row's units are printed: its table's title and header (the unit's scope), else
    the units line its page prints above it."""
    if table_units(unit.scope)[1]:
        return unit.scope
    return units_line_above(page_text, unit.text.split(": ", 1)[0])


def summary_text(claims: list[Claim]) -> str:
    """Each sentence followed by its citations as ``[document p.N]``, marked when not valid."""
    lines = []
    for claim in claims:
        refs = [marked(citation.label, citation.mark) for citation in claim.citations]
        lines.append(f"{claim.text} {' '.join(dict.fromkeys(refs))}".strip())
    return "\n".join(lines)
