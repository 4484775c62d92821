"""Records that cross a boundary in generation: citations, claims, answers, summaries, audits.

Pages are zero-based page indices everywhere in the data (as in ``raw_pages.page_index``); the
text a reader sees prints them one-based (``p.N`` is the PDF viewer's page number).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal
from uuid import uuid4

from pydantic import BaseModel, Field

CitationMark = Literal["valid", "context_mismatch", "invalid", "unchecked"]
ABSTENTION = "I cannot answer this from the documents."


class SourceCitation(BaseModel):
    """Where a claim's words are printed: a document partition, a page and the exact quote."""

    document: str
    year: int
    page: int = Field(ge=0, description="zero-based page index")
    quote: str
    supports: str = Field(
        default="", description="the part of the claim it stands for (empty: the whole claim), "
        "e.g. a stitched footnote's definition, cited on the page that prints it")
    mark: CitationMark = "unchecked"
    reason: str = Field(default="", description="why a citation is not valid")

    @property
    def label(self) -> str:
        return f"{self.document} {self.year} p.{self.page + 1}"


class Claim(BaseModel):
    """One sentence of an answer or summary, with the citations that support it."""

    text: str
    citations: list[SourceCitation] = Field(default_factory=list)


class Moved(BaseModel):
    """A measure a change is made of, and which way it went: "gross margin", "down"."""

    title: str
    way: Literal["up", "down"]


class Change(BaseModel):
    """A measure's change computed from the statements, for the causes beside it: its
    sentence (every operand cited) and which way it went ("up", "down"; None: unchanged)."""

    claim: Claim
    way: Literal["up", "down"] | None = None
    parts: list[Moved] = Field(default_factory=list, description=(
        "the measures it bridges that moved its way (a lower gross margin for a lower "
        "operating margin): their causes explain it when its own are not printed"))
    levels: list[float] = Field(default_factory=list, description=(
        "an amount's two periods' values and its change, in dollars, as the statements print "
        "them: a sentence stating the measure at none of them is another's (a segment's); "
        "empty for a ratio"))


class Source(BaseModel):
    """A numbered source of an answer: only sources that a claim cites are listed."""

    number: int
    document: str
    year: int
    page: int
    mark: CitationMark = "unchecked"

    @property
    def label(self) -> str:
        return f"[{self.number}] {self.document} {self.year} p.{self.page + 1}"


class GuardrailEvent(BaseModel):
    name: Literal[
        "too_few_sources", "invalid_json", "decomposed", "alternative_phrasing",
        "below_evidence_threshold", "unsupported_claims_dropped", "model_error",
        "route_failed", "unindexed_company", "required_disclosure_unfound",
    ]
    detail: str = ""


class QAResult(BaseModel):
    """An answer, its claims with citations, the sources it used and what the guardrails did."""

    question: str
    answer: str
    claims: list[Claim] = Field(default_factory=list)
    sources_used: list[Source] = Field(default_factory=list)
    guardrail_events: list[GuardrailEvent] = Field(default_factory=list)
    abstained: bool = False
    evidence_strength: float = Field(
        default=0.0, description="how well the best evidence answers (0-1); below the engine's "
        "threshold it abstains")
    looked_for: list[str] = Field(
        default_factory=list, description="what an abstention searched for")
    provider: str = "extractive"
    model: str | None = None
    method: str = Field(default="quoted", description="how the first sentence was reached: "
                        "'computed <aggregate>' (or 'judged') from the statement facts, "
                        "'direct <kind>' read from the quoted evidence, 'quoted', 'model', "
                        "'abstained'; ', a row missing' or ', a line item missing' after a "
                        "computation the statements lacked")
    k: int = 10
    first_sources: int = Field(default=0, description="distinct pages the first retrieval found")
    retry_k: int | None = None
    chunk_ids: list[str] = Field(default_factory=list, description="the evidence it read")
    seconds: float = 0.0


class SummaryResult(BaseModel):
    """A report summary: cited sentences built from the chunks listed."""

    document: str
    year: int
    variant: Literal["baseline", "enriched"]
    text: str
    claims: list[Claim]
    chunk_ids: list[str]
    provider: str = "extractive"
    model: str | None = None
    events: list[GuardrailEvent] = Field(
        default_factory=list, description="why a model's sentences were dropped, if they were")
    seconds: float = 0.0


class AuditRecord(BaseModel):
    """One row of ``answer_audit``: every answer given, by any path, appended."""

    answered_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    question: str
    document: str | None = None
    year: int | None = None
    provider: str
    k: int
    sources: int = Field(description="distinct pages in the first retrieval")
    guardrail_triggered: str | None = None
    retry_k: int | None = None
    final_sources: int
    answer_chars: int
    abstained: bool
    seconds: float
    answer_id: str = Field(default_factory=lambda: uuid4().hex,
                           description="the row's own key: serve's /answer/<answer_id> view")
    result_json: str | None = Field(default=None,
                                    description="the QAResult as JSON: its view re-drawn")
    view_path: str | None = Field(default=None, description="the file ask --html wrote")
