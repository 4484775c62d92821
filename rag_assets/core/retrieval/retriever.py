"""Retrieval strategies behind one interface: ranked hits with scores and the stage behind them.

- ``dense``: cosine similarity of the question's vector;
- ``bm25``: LanceDB's native full-text index;
- ``hybrid_rrf``: LanceDB's hybrid query fused by reciprocal rank (k=60);
- ``hybrid_blended``: ``w_vec * (-rank_vec) + w_bm25 * (-rank_bm25)`` over the union of both
  candidate lists (a chunk missing from one list takes that list's length + 1 as its rank);
- ``citation_rerank``: a wide blended first stage (k=50) re-scored by the references it shares with
  the question (:mod:`rag_assets.core.retrieval.references`), blended by ``citation_weight``;
- ``cross_encoder``: the same first stage cut to ``top_n`` by a cross-encoder. Where its model is
  not on this machine the stage says why in ``RetrievalResult.unavailable`` and the first stage's
  ranking is returned unchanged;
- ``routed``: ``citation_rerank`` within the documents and years the question names
  (:mod:`rag_assets.core.question.companies`), the whole corpus when it names none, with a bonus
  (``statement_weight``) for chunks of the financial statements the question names, and half of
  it for those holding the inputs of the metric it names (the finance vocabulary),
  and a bonus (``section_weight``) for chunks of the sections that answer what it asks about
  (legal matters, segments, deals, outlook: the intent lexicon), read from each chunk's header
  (:func:`rag_assets.core.ingest.sections.sections_of`). A question that names a company no
  indexed document is searches every document and says so in its scope.

Every strategy takes a :class:`~rag_assets.core.question.question.Question` (read once by
:meth:`Retriever.read`) and ranks with its ranking text (instruction boilerplate such as "Answer
in USD millions." removed); BM25 also reads the line items of the metrics the question names
("capex" -> "purchases of property, plant and equipment").

Two levels: ``hits`` ranks chunks; ``pages`` ranks pages, each scored by its best chunk plus
``page_bonus`` for each further chunk of the first stage found on it (at most
``page_extra_hits``), and carries its best chunk's text (an analyst reads pages, and a question's
evidence is labelled by page).

Scopes: an explicit :class:`Scope` always wins; otherwise ``routed`` derives one from the question
(a year, falling back to ±1 year when no partition has it) and the other strategies search all.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from rag_assets.core.chunks.chunking import ChunkKind
from rag_assets.core.ingest.routing import DocumentProfile
from rag_assets.core.ingest.sections import sections_of
from rag_assets.core.question.companies import printed_as_member
from rag_assets.core.question.question import Question, read_question
from rag_assets.core.retrieval.embeddings import Embedder
from rag_assets.core.retrieval.references import blend_scores, citation_scores
from rag_assets.core.retrieval.store import VectorStore, sql_text
from rag_assets.core.text.filing_kinds import document_quarters, form_of

if TYPE_CHECKING:
    from sentence_transformers import CrossEncoder

Strategy = Literal[
    "dense", "bm25", "hybrid_rrf", "hybrid_blended", "citation_rerank", "cross_encoder", "routed"
]
STRATEGIES: tuple[Strategy, ...] = (
    "dense", "bm25", "hybrid_rrf", "hybrid_blended", "citation_rerank", "cross_encoder", "routed"
)
# an annual report prints the two fiscal years before its own beside it (a 10-K's income and
# cash-flow statements): a question spanning up to this many years is read in the latest report
COMPARATIVE_YEARS = 2
# a period the year grammar does not read ("3Q22", "Q2'23", "2H22", "fiscal '22") or a word that
# asks of an earlier filing ("its previous 10-K", "historically"): no latest partition alone
UNREAD_PERIOD_RE = re.compile(r"\b[1-4]Q\s?'?\d{2}\b|\bQ[1-4]\s?'\d{2}\b|\b[12]H\s?'?\d{2}\b|"
                              r"'\d{2}\b|\b(?:previous|prior|earlier|historical(?:ly)?|"
                              r"over\s+time)\b", re.IGNORECASE)
MEMBER_LOOKUP_K = 10  # chunks read to tell a segment a question names from an unindexed company
DEFAULT_STRATEGY: Strategy = "routed"  # chosen on the golden set and the FinanceBench dev set
DEFAULT_CROSS_ENCODER = "cross-encoder/ms-marco-MiniLM-L-6-v2"

# the five topical sub-queries a report summary needs evidence for
SUMMARY_TOPICS: dict[str, str] = {
    "financial performance": "revenue, net income, earnings per share, margins and growth",
    "cash flow and liquidity": "operating cash flow, free cash flow, cash, debt and liquidity",
    "risks": "principal risks, uncertainties, litigation and contingencies",
    "outlook": "outlook, guidance and expectations for the coming year",
    "operational highlights": "segments, products, acquisitions, divestitures and operations",
}


class RetrievalConfig(BaseModel):
    """How the strategies search and fuse: the settings' ``retrieval`` section
    (``core/settings.py``); the one place of each default."""

    model_config = ConfigDict(extra="forbid")

    k: int = Field(default=10, ge=1, description="hits returned")
    first_stage_k: int = Field(default=50, ge=1, description="candidates a reranker sees")
    top_n: int = Field(default=3, ge=1, description="hits a cross-encoder keeps")
    # fusion weights chosen on the golden set and the FinanceBench dev set together
    # (bench/README.md, "Retrieval on real filings")
    w_vec: float = Field(default=1.0, description="hybrid_blended: weight of the dense rank")
    w_bm25: float = Field(default=2.0, description="hybrid_blended: weight of the BM25 rank")
    rrf_k: int = Field(default=60, description="hybrid_rrf: reciprocal rank fusion's k")
    citation_weight: float = Field(
        default=0.3, ge=0.0, le=1.0,
        description="citation_rerank: share of the score that comes from the references a "
        "chunk shares with the question")
    cross_encoder_model: str = Field(default=DEFAULT_CROSS_ENCODER,
                                     description="the reranking strategy's cross-encoder")
    cross_encoder_batch_size: int = Field(default=16, ge=1,
                                          description="pairs the cross-encoder scores per batch")
    understand_query: bool = Field(
        default=True, description="rank with the question stripped of instructions, BM25 with "
        "the line items of the metrics it names")
    statement_weight: float = Field(
        default=0.8, ge=0.0, le=1.0,
        description="routed: bonus (0..1 scale) for chunks of a statement the question names")
    inferred_statement_share: float = Field(
        default=0.5, ge=0.0, le=1.0,
        description="routed: share of statement_weight for a statement only the metric names")
    section_weight: float = Field(
        default=0.3, ge=0.0, le=1.0,
        description="routed: bonus (0..1 scale) for chunks of a section that answers the "
        "question's intent (intent_lexicon.json)")
    section_first: bool = Field(
        default=True,
        description="routed: the candidates of the section where a filing is required to "
        "print the answer (the intent's first) ranked before the rest of the filing's")
    page_bonus: float = Field(
        default=0.02, ge=0.0, description="page ranking: bonus per further chunk on the page")
    page_extra_hits: int = Field(default=3, ge=0, description="further chunks a page counts")
    expansion_weight: float = Field(
        default=0.5, ge=0.0,
        description="weight of the BM25 ranking that also reads the metric's line items, beside "
        "the one of the question alone (1.0)")


class Hit(BaseModel):
    chunk_id: str
    document: str
    year: int
    page_start: int
    page_end: int
    section: str | None = None
    context: str = ""
    statement: str | None = None
    text: str
    markers_cited: list[str] = Field(default_factory=list)
    markers_defined: list[str] = Field(default_factory=list)
    pages: list[int] = Field(
        default_factory=list, description="pages its text comes from, stitched footnotes' too"
    )
    rank: int
    score: float
    stage: str
    page: int | None = Field(default=None, description="set on a page-level hit: its page")
    chunk_ids: list[str] = Field(
        default_factory=list, description="a page-level hit: the chunks found on its page")

    @model_validator(mode="after")
    def _pages_default_to_range(self) -> Hit:
        if not self.pages:
            self.pages = list(range(self.page_start, self.page_end + 1))
        return self


class Scope(BaseModel):
    """Which partitions to search; ``None`` means no restriction on that dimension."""

    documents: list[str] | None = None
    years: list[int] | None = None
    latest: list[tuple[str, int]] | None = Field(
        default=None, description="the one partition of each document to search (its latest "
        "filing), when the question names no period")
    how: str = "whole corpus"
    unindexed: str | None = Field(
        default=None, description="a company the question names that no indexed document is "
        "(the search then runs over all documents, and says so in ``how``)")

    def where(self) -> str | None:
        clauses = []
        if self.documents:
            clauses.append(f"document IN ({', '.join(sql_text(d) for d in self.documents)})")
        if self.years:
            clauses.append(f"year IN ({', '.join(str(int(y)) for y in self.years)})")
        if self.latest:
            clauses.append("(" + " OR ".join(f"(document = {sql_text(d)} AND year = {int(y)})"
                                             for d, y in self.latest) + ")")
        return " AND ".join(clauses) or None

    @classmethod
    def partition(cls, document: str, year: int) -> Scope:
        return cls(documents=[document], years=[year], how=f"partition {document}|{year}")


class RetrievalResult(BaseModel):
    question: str
    strategy: Strategy
    kind: ChunkKind
    hits: list[Hit]
    pages: list[Hit] = Field(default_factory=list, description="the page-level ranking")
    scope: Scope
    read: Question | None = Field(default=None, description="the question as read")
    unavailable: str | None = None
    latency_ms: float


@lru_cache(maxsize=4)
def load_cross_encoder(model: str, device: str = "cpu"
                       ) -> tuple[CrossEncoder | None, str | None]:
    """The model, or why it cannot be loaded; tried once per process. A model whose files are
    not on this machine is refused before sentence-transformers is imported: that import
    (torch) costs 5 s, paid by every run of the evaluation that only learns the model is
    absent."""
    if not model_files_present(model):
        return None, cross_encoder_unavailable(model, FileNotFoundError(model))
    try:
        from sentence_transformers import CrossEncoder

        return CrossEncoder(model, device=device), None
    except Exception as err:  # noqa: BLE001 - reported, the pipeline runs on without it
        return None, cross_encoder_unavailable(model, err)


def model_files_present(model: str) -> bool:
    """A local folder, or a name whose configuration is in the Hugging Face cache (the hub is
    never asked: this machine has no network beyond the package registries)."""
    if Path(model).expanduser().is_dir():
        return True
    from huggingface_hub import try_to_load_from_cache

    try:
        return isinstance(try_to_load_from_cache(model, "config.json"), str)
    except ValueError:  # not a hub name either (huggingface_hub's HFValidationError)
        return False


def cross_encoder_unavailable(model: str, err: Exception) -> str:
    """Why the optional reranker is skipped, in one line a person can act on: a model whose
    files are not on this machine (the hub's "We couldn't connect to 'https://huggingface.co'"
    when offline) is not installed; any other error is named by its first line."""
    head = f"the optional cross-encoder reranker {model!r} "
    if isinstance(err, OSError):  # no such folder, no cached files, no network
        why = "is not installed on this machine"
    else:
        first = next((line for line in str(err).splitlines() if line.strip()), "")
        why = f"could not be loaded ({type(err).__name__}: {first.strip()})"
    return (f"{head}{why}: the cross_encoder strategy is skipped (to run it, put the model in "
            "a local folder or the Hugging Face cache and set retrieval.cross_encoder_model)")


class CrossEncoderReranker:
    """Second stage: score (question, chunk) pairs with a cross-encoder and keep the best.

    The model loads lazily, once per process; if it cannot be loaded (no weights on this
    machine, no hub), ``unavailable`` says why and ``rerank`` must not be called.
    """

    def __init__(self, model: str = DEFAULT_CROSS_ENCODER, batch_size: int = 16,
                 device: str = "cpu") -> None:
        self.model_name = model
        self.batch_size = batch_size
        self.device = device

    @property
    def unavailable(self) -> str | None:
        return load_cross_encoder(self.model_name, self.device)[1]

    def scores(self, question: str, texts: Sequence[str]) -> np.ndarray:
        model, reason = load_cross_encoder(self.model_name, self.device)
        if model is None:
            raise RuntimeError(reason)
        pairs = [(question, text) for text in texts]
        return np.asarray(
            model.predict(pairs, batch_size=self.batch_size, show_progress_bar=False),
            dtype=np.float32,
        ).reshape(len(pairs), -1)[:, -1]

    def rerank(self, question: str, hits: Sequence[Hit], top_n: int) -> list[Hit]:
        """The ``top_n`` hits by model score, highest first (stable for equal scores)."""
        if not hits:
            return []
        scores = self.scores(question, [h.text for h in hits])
        return _reranked(hits, [float(x) for x in scores], "cross_encoder")[:top_n]


def _hits(rows: Sequence[dict[str, Any]], stage: str) -> list[Hit]:
    """Rows to ranked hits; equal scores (the same sentence in two years' reports) are ordered
    by chunk id, so a ranking reproduces."""
    rows = sorted(rows, key=lambda r: (-float(r["score"]), r["chunk_id"]))
    return [
        Hit(
            chunk_id=r["chunk_id"], document=r["document"], year=int(r["year"]),
            page_start=int(r["page_start"]), page_end=int(r["page_end"]),
            pages=list(r.get("pages") or []),
            section=r.get("section"), context=r.get("context") or "",
            statement=r.get("statement"), text=r["text"],
            markers_cited=list(r.get("markers_cited") or []),
            markers_defined=list(r.get("markers_defined") or []),
            rank=rank, score=float(r["score"]), stage=stage,
        )
        for rank, r in enumerate(rows, start=1)
    ]


def _reranked(hits: Sequence[Hit], scores: Sequence[float], stage: str) -> list[Hit]:
    order = sorted(range(len(hits)), key=lambda i: (-scores[i], i))
    return [
        hits[i].model_copy(update={"rank": rank, "score": float(scores[i]), "stage": stage})
        for rank, i in enumerate(order, start=1)
    ]


def blended_rank(
    dense: Sequence[Hit], bm25: Sequence[Hit], w_vec: float, w_bm25: float
) -> list[Hit]:
    """Fuse two ranked lists by ``w_vec*(-rank_vec) + w_bm25*(-rank_bm25)`` over their union."""
    return fuse_ranks([(dense, w_vec), (bm25, w_bm25)], "hybrid_blended")


def fuse_ranks(lists: Sequence[tuple[Sequence[Hit], float]], stage: str) -> list[Hit]:
    """Fuse ranked lists by ``sum(w * -rank)`` over their union (a chunk missing from a list
    takes that list's length + 1 as its rank); ties go to the first list's order."""
    ranks = [({h.chunk_id: h.rank for h in hits}, len(hits) + 1, w) for hits, w in lists]
    union: dict[str, Hit] = {}
    for hits, _ in reversed(lists):
        union.update({h.chunk_id: h for h in hits})
    scored = {cid: sum(w * -rank.get(cid, missing) for rank, missing, w in ranks)
              for cid in union}
    first, missing_first, _ = ranks[0]
    order = sorted(union, key=lambda c: (-scored[c], first.get(c, missing_first)))
    return [
        union[c].model_copy(update={"rank": rank, "score": scored[c], "stage": stage})
        for rank, c in enumerate(order, start=1)
    ]


def _of_quarters(documents: list[str], quarters: Sequence[str]) -> list[str]:
    """The documents of the quarters asked ("q3": "jpmorgan-10q-q3"), when any is; else all:
    a company's 10-Q for Q2 prints no third quarter."""
    asked = {q.lower() for q in quarters}
    kept = [d for d in documents if asked & document_quarters(d)]
    return kept or documents


class Retriever:
    """Every strategy over one store and one embedding model."""

    def __init__(
        self,
        store: VectorStore,
        embedder: Embedder,
        config: RetrievalConfig | None = None,
        reranker: CrossEncoderReranker | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.config = config or RetrievalConfig()
        self.reranker = reranker or CrossEncoderReranker(
            self.config.cross_encoder_model, self.config.cross_encoder_batch_size
        )
        self._profiles: list[DocumentProfile] | None = None
        self._partitions: dict[str, list[tuple[str, int]]] = {}

    # -- scope ----------------------------------------------------------------------------
    @property
    def profiles(self) -> list[DocumentProfile]:
        if self._profiles is None:
            self._profiles = [DocumentProfile.model_validate(p) for p in self.store.profiles()]
        return self._profiles

    def partitions(self, kind: ChunkKind) -> list[tuple[str, int]]:
        """The (document, year) pairs indexed for ``kind``, read from the store once."""
        if kind not in self._partitions:
            self._partitions[kind] = self.store.partitions(kind)
        return self._partitions[kind]

    def read(self, text: str) -> Question:
        """The question read against the indexed documents' profiles (the one reading every
        stage takes); without query understanding, ranked as written."""
        question = read_question(text, self.profiles)
        return question if self.config.understand_query else question.plain()

    def resolve_scope(self, question: Question, kind: ChunkKind) -> Scope:
        """Documents the question names, and the years it asks about (±1 when none is held; the
        latest when they span at most ``COMPARATIVE_YEARS`` and it is held); a year written on
        a filing ("its 2020 10-K") is the one asked, whatever other years it quotes; no period
        named, each document's latest partition when they are of one form (``Scope.latest``: the
        company as it is now), unless it names a period the year grammar does not read or asks
        of an earlier filing."""
        documents = question.documents or None
        held = [(d, y) for d, y in self.partitions(kind) if documents is None or d in documents]
        held_years = {y for _, y in held}
        asked = question.filing_years or question.years
        unindexed = question.unindexed
        owners = self.member_owners(unindexed, kind) if unindexed else None
        if owners is not None:
            # "Sam's Club's operating income": a segment of an indexed filer, whose filings
            # are the ones read when the question names no company
            unindexed = None
            if owners and not documents:
                documents = _of_quarters(owners, question.quarters)
                held = [(d, y) for d, y in self.partitions(kind) if d in documents]
                held_years = {y for _, y in held}
        how = [f"documents {', '.join(documents)}" if documents
               else f"no indexed company named ({unindexed}): all documents" if unindexed
               else "all documents"]
        years: list[int] | None = None
        matched = sorted(held_years & set(asked))
        if len(matched) > 1 and matched[-1] == max(asked) and (
                max(asked) - min(asked) <= COMPARATIVE_YEARS):
            # "FY2018 - FY2020" is read in the 2020 report, which prints 2019 and 2018 beside it
            years = matched[-1:]
            how.append(f"years {asked}: all in the {matched[-1]} report")
        elif matched:
            years = matched
            how.append(f"years {years}")
        elif asked:
            near = {y + d for y in asked for d in (-1, 0, 1)} & held_years
            if near:
                years = sorted(near)
                how.append(f"no partition for {asked}: years ±1 {years}")
            else:
                how.append(f"no partition within a year of {asked}: all years")
        latest = None
        if documents and len({form_of(d, "") for d in documents}) == 1 and not (
                asked or question.dates or question.periods or question.quarters
                or UNREAD_PERIOD_RE.search(question.text)):
            # no period named: the company as it is now, its latest report of the one form
            # held ("How dependent is X on the U.S. Government?" is read in its newest 10-K);
            # filings of several forms are all read, a 10-Q's Part I being no Item 1 of a 10-K
            newest = {d: max(y for e, y in held if e == d) for d in documents
                      if any(e == d for e, _ in held)}
            if any(sum(e == d for e, _ in held) > 1 for d in newest):
                latest = sorted(newest.items())
                how.append("no period named: each filing's latest, "
                           + ", ".join(f"{d}|{y}" for d, y in latest))
        if documents and years and len(documents) > 1:
            # one company's filings of other years than asked hold no answer to search
            holding = sorted({d for d, y in held if y in years})
            if holding and holding != documents:
                documents = holding
                how.append(f"documents holding those years: {', '.join(holding)}")
        return Scope(documents=documents, years=years, latest=latest, how="; ".join(how),
                     unindexed=unindexed)

    def member_owners(self, name: str, kind: ChunkKind) -> list[str] | None:
        """When an indexed filing prints ``name`` as a segment of its own
        (:func:`printed_as_member`), the documents of that filer (every filing of the company:
        its profiles' title; empty when the chunks do not say whose); None when none does. The
        few chunks the full-text index ranks first for the name and the word are read, so the
        check costs one lookup, not a read of the corpus."""
        try:
            rows = self.store.bm25(kind, f"{name} segment segments", MEMBER_LOOKUP_K)
        except (LookupError, ValueError, RuntimeError):  # no chunks of that kind, or no
            return None  # full-text index (lancedb's errors): the company stays unindexed
        printing = [row for row in rows if printed_as_member(name, row["text"])]
        if not printing:
            return None
        found = {row["document"] for row in printing if row.get("document")}
        titles = {p.title or p.document for p in self.profiles if p.document in found}
        return sorted({p.document for p in self.profiles if (p.title or p.document) in titles}
                      | found)

    # -- strategies -----------------------------------------------------------------------
    def search(
        self,
        question: Question | str,
        strategy: Strategy,
        kind: ChunkKind = "enriched",
        *,
        k: int | None = None,
        scope: Scope | None = None,
        route: bool | None = None,
    ) -> RetrievalResult:
        """Ranked chunks and pages of one strategy. ``scope`` is an explicit filter and always
        wins; otherwise ``route`` (default: only for ``routed``) narrows to the documents and
        years the question names. A question given as text is read here, once."""
        started = time.perf_counter()
        plan = self.read(question) if isinstance(question, str) else question
        k = k or self.config.k
        depth = max(k, self.config.first_stage_k)  # pages are ranked from this many chunks
        if route is None:
            route = strategy == "routed"
        if scope is None:
            scope = self.resolve_scope(plan, kind) if route else Scope()
        where = scope.where()
        unavailable = None
        if strategy == "dense":
            ranked = self._dense(plan, kind, depth, where)
        elif strategy == "bm25":
            ranked = self._bm25(plan, kind, depth, where)
        elif strategy == "hybrid_rrf":
            vector = self.embedder.embed_query(plan.ranking_text)
            rows = self.store.hybrid_rrf(kind, vector, plan.bm25_text, depth, where,
                                         self.config.rrf_k)
            ranked = _hits(rows, "hybrid_rrf")
        elif strategy == "hybrid_blended":
            ranked = self._blended(plan, kind, depth, where)
        elif strategy in ("citation_rerank", "routed"):
            ranked = self.citation_rerank(plan.text, self._blended(plan, kind, depth, where))
            if strategy == "routed":
                ranked = self.section_boost(plan, self.statement_boost(plan, ranked))
        elif strategy == "cross_encoder":
            ranked = self._blended(plan, kind, depth, where)
            unavailable = self.reranker.unavailable
            if not unavailable:
                ranked = self.reranker.rerank(plan.ranking_text, ranked, self.config.top_n)
        else:  # pragma: no cover - Literal guards the callers
            raise ValueError(f"unknown strategy {strategy!r}")
        return RetrievalResult(
            question=plan.text, strategy=strategy, kind=kind, hits=ranked[:k],
            pages=rank_pages(ranked, self.config.page_bonus, self.config.page_extra_hits)[:k],
            scope=scope, read=plan, unavailable=unavailable,
            latency_ms=round((time.perf_counter() - started) * 1000, 2),
        )

    def _dense(self, plan: Question, kind: ChunkKind, k: int, where: str | None) -> list[Hit]:
        vector = self.embedder.embed_query(plan.ranking_text)
        return _hits(self.store.dense(kind, vector, k, where), "dense")

    def _bm25(self, plan: Question, kind: ChunkKind, k: int, where: str | None) -> list[Hit]:
        """BM25 of the question, fused with BM25 of the question and its metrics' line items
        at ``expansion_weight``: synonyms find a filing's own words without drowning the
        question's (eight words for "revenue" would outweigh "Software and Cloud")."""
        plain = _hits(self.store.bm25(kind, plan.ranking_text, k, where), "bm25")
        if plan.bm25_text == plan.ranking_text or not self.config.expansion_weight:
            return plain
        expanded = _hits(self.store.bm25(kind, plan.bm25_text, k, where), "bm25")
        return fuse_ranks([(plain, 1.0), (expanded, self.config.expansion_weight)], "bm25")

    def _blended(self, plan: Question, kind: ChunkKind, k: int, where: str | None) -> list[Hit]:
        dense = self._dense(plan, kind, k, where)
        bm25 = self._bm25(plan, kind, k, where)
        return blended_rank(dense, bm25, self.config.w_vec, self.config.w_bm25)[:k]

    def statement_boost(self, plan: Question, hits: Sequence[Hit]) -> list[Hit]:
        """Scores (0..1) plus ``statement_weight`` for chunks of a statement the question names
        ("using the cash flow statement"), ``inferred_statement_share`` of it for a statement
        only its metric points to (capex: cash flows); unchanged when it asks for none."""
        named = set(plan.named_statements)
        inferred = set(plan.statements) - named
        weight = self.config.statement_weight
        if not (named or inferred) or not weight or not hits:
            return list(hits)
        share = self.config.inferred_statement_share
        scores = [h.score + (weight if h.statement in named
                             else weight * share if h.statement in inferred else 0.0)
                  for h in hits]
        return _reranked(hits, scores, hits[0].stage)

    def section_boost(self, plan: Question, hits: Sequence[Hit]) -> list[Hit]:
        """Scores plus ``section_weight`` for chunks of a section that answers the question's
        intent (its Item, note or statement, read from the chunk's header), and with
        ``section_first`` the chunks of the section a filing is required to print the answer
        in (the intent's first) ahead of the others; unchanged when the question names no
        intent."""
        wanted = set(plan.sections)
        weight = self.config.section_weight
        if not wanted or not weight or not hits:
            return list(hits)
        scores = [h.score + (weight if wanted & sections_of(h.context, h.statement) else 0.0)
                  for h in hits]
        ranked = _reranked(hits, scores, hits[0].stage)
        if not self.config.section_first:
            return ranked
        # the required section read first, the whole filing next (each in its own order)
        required = plan.sections[0]
        first = [h for h in ranked if required in sections_of(h.context, h.statement)]
        return first + [h for h in ranked if required not in sections_of(h.context, h.statement)]

    def citation_rerank(self, question: str, hits: Sequence[Hit]) -> list[Hit]:
        """Blend first-stage scores with citation scores (both on 0..1) by citation_weight."""
        if not hits:
            return []
        citation = [s.score for s in citation_scores(question, [h.text for h in hits])]
        blended = blend_scores([h.score for h in hits], citation, self.config.citation_weight)
        return _reranked(hits, blended, "citation_rerank")

    def multi_query(
        self,
        subject: str,
        strategy: Strategy = "hybrid_blended",
        kind: ChunkKind = "enriched",
        *,
        k_per_query: int = 5,
        scope: Scope | None = None,
    ) -> list[Hit]:
        """Evidence for a summary: one search per topic, merged round-robin by rank, each chunk
        once (its stage names the first topic that found it)."""
        results = [
            self.search(f"{subject} {topic}: {terms}", strategy, kind, k=k_per_query,
                        scope=scope).hits
            for topic, terms in SUMMARY_TOPICS.items()
        ]
        merged: dict[str, Hit] = {}
        for position in range(k_per_query):
            for topic, hits in zip(SUMMARY_TOPICS, results, strict=True):
                if position < len(hits) and hits[position].chunk_id not in merged:
                    merged[hits[position].chunk_id] = hits[position].model_copy(
                        update={"stage": f"multi_query:{topic}"}
                    )
        return [h.model_copy(update={"rank": r}) for r, h in enumerate(merged.values(), 1)]


def rank_pages(hits: Sequence[Hit], bonus: float, extra_hits: int) -> list[Hit]:
    """Pages ranked by their best chunk's score (put on 0..1 over the list) plus ``bonus`` for
    each further chunk found on the page (at most ``extra_hits``); each page is returned as its
    best chunk, with ``page`` set and the ids of every chunk found on it. A chunk counts for
    every page its text comes from (a stitched definition's page too)."""
    if not hits:
        return []
    raw = [h.score for h in hits]
    lo, hi = min(raw), max(raw)
    scaled = [1.0 if hi == lo else (x - lo) / (hi - lo) for x in raw]
    found: dict[tuple[str, int, int], list[tuple[float, Hit]]] = {}
    for hit, score in zip(hits, scaled, strict=True):
        for page in hit.pages:  # its page range and the pages of the footnotes stitched in
            found.setdefault((hit.document, hit.year, page), []).append((score, hit))
    scored = []
    for (_, _, page), chunks in found.items():
        chunks.sort(key=lambda pair: -pair[0])  # stable: equal scores keep the chunk ranking
        best = chunks[0][0] + bonus * sum(s for s, _ in chunks[1:1 + extra_hits])
        scored.append((best, chunks[0][1].rank, page, chunks))
    scored.sort(key=lambda item: (-item[0], item[1], item[2]))
    return [
        chunks[0][1].model_copy(update={
            "rank": rank, "score": round(score, 6), "page": page, "pages": [page],
            "stage": f"page:{chunks[0][1].stage}", "chunk_ids": [h.chunk_id for _, h in chunks],
        })
        for rank, (score, _, page, chunks) in enumerate(scored, start=1)
    ]


class PackedContext(BaseModel):
    texts: list[str]
    chunk_ids: list[str]
    chars: int
    truncated: bool
    dropped: list[str]


def pack_context(hits: Sequence[Hit], budget: int = 5000) -> PackedContext:
    """Hits in rank order into a character budget: the first is cut if it alone is too long,
    a later one is added only whole (a cut mid-figure would mislead), the rest are dropped."""
    texts: list[str] = []
    ids: list[str] = []
    dropped: list[str] = []
    used = 0
    truncated = False
    for position, hit in enumerate(hits):
        if position == 0 and len(hit.text) > budget:
            texts.append(hit.text[:budget])
            ids.append(hit.chunk_id)
            used, truncated = budget, True
        elif used + len(hit.text) <= budget:
            texts.append(hit.text)
            ids.append(hit.chunk_id)
            used += len(hit.text)
        else:
            dropped.append(hit.chunk_id)
    return PackedContext(texts=texts, chunk_ids=ids, chars=used, truncated=truncated,
                         dropped=dropped)
