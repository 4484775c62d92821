"""An answer put together from its parts: the text with numbered citations, each citation's
verification mark, only the cited sources listed, and the ``answer_audit`` row of it."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from rag_assets.core.generation.citations import marked, verify_claims
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.records import (
    ABSTENTION,
    AuditRecord,
    CitationMark,
    Claim,
    GuardrailEvent,
    QAResult,
    Source,
)
from rag_assets.core.question.question import Question
from rag_assets.core.retrieval.retriever import Scope


class Part(BaseModel):
    """One self-contained piece of a question and the partitions it is answered from."""

    question: Question
    scope: Scope | None = None
    label: str = ""


class PartAnswer(BaseModel):
    """What one part found: its claims (verified once, here or by :func:`compose`), how strong
    its evidence was, what it looked for, the guardrails that acted."""

    part: Part
    claims: list[Claim] = Field(default_factory=list)
    abstained: bool = True
    strength: float = 0.0
    chunk_ids: list[str] = Field(default_factory=list)
    looked_for: list[str] = Field(default_factory=list)
    events: list[GuardrailEvent] = Field(default_factory=list)
    first_pages: int = 0
    method: str = Field(default="quoted", description="how its first claim was reached "
                        "(``QAResult.method``)")


def distinct_pages(answers: Sequence[PartAnswer]) -> int:
    """The pages the parts' claims cite, each once."""
    return len({(c.document, c.year, c.page) for a in answers for claim in a.claims
                for c in claim.citations})


def compose(question: str, answers: Sequence[PartAnswer], pages: PageTexts,
            threshold: float) -> QAResult:
    """The answer text with numbered citations, each marked by the verifier (a citation a
    route verified keeps its mark), and only the cited sources listed."""
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
                        chunk_ids=chunk_ids, method="abstained")
    method = next(a.method for a in answers if not a.abstained)
    return QAResult(question=question, answer="\n".join(lines), claims=claims,
                    sources_used=sources, chunk_ids=chunk_ids, method=method)


_ORDER: dict[CitationMark, int] = {"valid": 0, "unchecked": 1, "context_mismatch": 2,
                                   "invalid": 3}


def _worse(current: CitationMark | None, new: CitationMark) -> CitationMark:
    if current is None:
        return new
    return current if _ORDER[current] >= _ORDER[new] else new


def audit_record(result: QAResult, document: str | None = None,
                 year: int | None = None, view_path: str | None = None) -> AuditRecord:
    """The ``answer_audit`` row of an answer, with the answer itself as JSON (its view can be
    drawn again from it) and the file its view was written to, if any."""
    triggered = [e.name for e in result.guardrail_events]
    return AuditRecord(
        question=result.question, document=document, year=year, provider=result.provider,
        k=result.k, sources=result.first_sources,
        guardrail_triggered=",".join(dict.fromkeys(triggered)) or None,
        retry_k=result.retry_k, final_sources=len(result.sources_used),
        answer_chars=len(result.answer), abstained=result.abstained, seconds=result.seconds,
        result_json=result.model_dump_json(), view_path=view_path)
