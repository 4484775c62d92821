"""Report summaries, baseline against enriched, each sentence cited.

Both read the same report through the same multi-query retrieval (one search per topic of
``SUMMARY_TOPICS``) and keep the evidence in relevance order within a character budget
(``pack_context``). They differ where the product differs:

- **baseline**: naive chunks (fixed windows, footnote definitions left at the page bottom) and a
  plain summary: a sentence is quoted as printed, markers and all;
- **enriched**: enriched chunks (each definition stitched after the sentence that cites it) and a
  summary that keeps the qualification with the figure it qualifies.

The extractive engine picks, per topic, the sentences that best answer the topic's query; a model
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
from rag_assets.core.generation.evidence import units_of
from rag_assets.core.generation.records import Claim, GuardrailEvent, SummaryResult
from rag_assets.core.llm.prompts import render
from rag_assets.core.retrieval.retriever import SUMMARY_TOPICS, Scope, pack_context

Variant = Literal["baseline", "enriched"]
KIND_OF: dict[Variant, Literal["naive", "enriched"]] = {"baseline": "naive",
                                                         "enriched": "enriched"}
PER_TOPIC = 2
BUDGET_CHARS = 12_000


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
    if answerer.chat is None:
        seen: set[str] = set()
        for topic, terms in SUMMARY_TOPICS.items():
            topic_hits = [h for h in kept if h.stage == f"multi_query:{topic}"] or kept
            units = [u for h in topic_hits for u in units_of(h, answerer.locate)]
            if variant == "baseline":  # quoted as printed: no stitched definition
                units = [u.model_copy(update={"footnotes": []}) for u in units]
            scored = answerer.score(answerer.read(f"{subject} {topic}: {terms}"), units)
            taken = 0
            for item in scored:
                key = item.unit.quote
                if key in seen or not item.unit.located:
                    continue
                seen.add(key)
                claims.append(claim_of(item.unit))
                taken += 1
                if taken >= per_topic:
                    break
    else:
        units = [u for h in kept for u in units_of(h, answerer.locate)]
        scored = answerer.score(answerer.read(f"{subject} summary"), units)
        sources = page_sources(scored, answerer.config.model_context_chars)
        prompt = render(f"{variant}_summary", answerer.chat.prompts, document=document,
                        year=year, sources=sources, max_sentences=len(SUMMARY_TOPICS) * per_topic)
        reply, events = model_reply(answerer.chat, prompt)
        claims = model_claims(reply, sources)
    checked = verify_claims(claims, answerer.pages, answerer.config.citation_threshold)
    if answerer.chat is not None:
        checked, dropped = keep_verified(checked, "model sentences")
        events += dropped
    return SummaryResult(
        document=document, year=year, variant=variant, text=summary_text(checked),
        claims=checked, chunk_ids=packed.chunk_ids,
        provider="extractive" if answerer.chat is None else answerer.chat.provider,
        model=None if answerer.chat is None else answerer.chat.config.executive_model,
        events=events, seconds=round(time.perf_counter() - started, 3))


def summary_text(claims: list[Claim]) -> str:
    """Each sentence followed by its citations as ``[document p.N]``, marked when not valid."""
    lines = []
    for claim in claims:
        refs = [marked(citation.label, citation.mark) for citation in claim.citations]
        lines.append(f"{claim.text} {' '.join(dict.fromkeys(refs))}".strip())
    return "\n".join(lines)
