"""Claims and where they come from, one set of rules for the answers and the summaries.

The extractive engine quotes a unit as a claim (``claim_of``: each stitched definition cited on
the page that prints it). A model gets the best units grouped by page as numbered excerpts
(``page_sources``), replies in JSON (``model_reply``: a failed call or a reply without a claims
list is a guardrail event, never a crash), and its claims are cited on the excerpts they name
(``model_claims``); after verification only claims whose every citation holds are kept
(``keep_verified``). Apart from :mod:`answers` so the summaries use them without the
``Answerer``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import ScoredUnit
from rag_assets.core.generation.records import Claim, GuardrailEvent, SourceCitation
from rag_assets.core.llm.client import ChatModel, LLMCallError, LLMReplyError


def claim_of(unit: EvidenceUnit) -> Claim:
    """A unit as a claim: its sentence cited on its page, each stitched definition on the page
    that prints it, each citation standing for its own part of the claim."""
    citations = [SourceCitation(document=unit.document, year=unit.year, page=unit.page,
                                quote=unit.quote, supports=unit.text if unit.footnotes else "")]
    for note in unit.footnotes:
        citations.append(SourceCitation(
            document=unit.document, year=unit.year,
            page=note.page if note.page is not None else unit.page,
            quote=note.text if note.page is not None else f"{{FOOTNOTE {note.marker}: "
                                                          f"{note.text}}}",
            supports=note.text))
    return Claim(text=unit.with_footnotes, citations=citations)


def page_sources(scored: Sequence[ScoredUnit], budget: int) -> list[dict[str, Any]]:
    """The best units grouped by page, in order of their best unit, within ``budget`` chars."""
    pages: dict[tuple[str, int, int], list[str]] = {}
    used = 0
    for item in scored:
        unit = item.unit
        text = unit.with_footnotes
        if used + len(text) > budget:
            break
        pages.setdefault((unit.document, unit.year, unit.page), []).append(text)
        used += len(text)
    return [{"number": n, "document": d, "year": y, "page": p, "text": "\n".join(texts)}
            for n, ((d, y, p), texts) in enumerate(pages.items(), start=1)]


def model_reply(chat: ChatModel, prompt: str) -> tuple[dict[str, Any], list[GuardrailEvent]]:
    """The model's JSON reply, or {} with the guardrail event that says why: a failed call
    (``model_error``), no JSON after the retry, or JSON without a ``claims`` list
    (``invalid_json``)."""
    try:
        reply = chat.complete_json(prompt, "executive")
    except LLMCallError as err:
        return {}, [GuardrailEvent(name="model_error", detail=str(err)[:300])]
    except LLMReplyError as err:
        return {}, [GuardrailEvent(name="invalid_json", detail=str(err)[:300])]
    if not isinstance(reply.get("claims"), list):
        return {}, [GuardrailEvent(
            name="invalid_json", detail=f"no claims list in the reply: {str(reply)[:200]}")]
    return reply, []


def keep_verified(checked: Sequence[Claim], what: str
                  ) -> tuple[list[Claim], list[GuardrailEvent]]:
    """A model's claims whose every citation is valid, and the event saying how many were
    dropped (a model's sentence is shown only with a citation that holds)."""
    kept = [c for c in checked if c.citations and all(x.mark == "valid" for x in c.citations)]
    if len(kept) == len(checked):
        return kept, []
    return kept, [GuardrailEvent(
        name="unsupported_claims_dropped",
        detail=f"{len(checked) - len(kept)} of {len(checked)} {what} had no valid citation")]


def model_claims(reply: dict[str, Any], sources: Sequence[dict[str, Any]]) -> list[Claim]:
    """The claims of a model's reply, each cited on the excerpts it names (S1..Sn; a number
    outside them cites nothing)."""
    claims: list[Claim] = []
    for item in reply.get("claims") or []:
        if not isinstance(item, dict) or not str(item.get("text", "")).strip():
            continue
        numbers = item.get("sources") or []
        numbers = numbers if isinstance(numbers, list) else [numbers]
        quote = str(item.get("quote") or item.get("text"))
        cited = []
        for number in numbers:
            try:
                position = int(str(number).strip().lstrip("Ss"))
            except ValueError:
                continue
            if 1 <= position <= len(sources):
                source = sources[position - 1]
                cited.append(SourceCitation(document=source["document"], year=source["year"],
                                            page=source["page"], quote=quote))
        claims.append(Claim(text=str(item["text"]).strip(), citations=cited))
    return claims
