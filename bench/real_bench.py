"""Retrieval and answers on real filings: both FinanceBench sets, financebench-dev (14 10-Ks, 18
analyst questions) and financebench-wide (28 filings: 10-Ks, 10-Qs, 8-Ks, earnings releases; 38
questions), each in its own shared store, every strategy and chunk kind, beside a plain
LangChain + FAISS baseline and the golden set of the sample corpus.

1. Each set (``--sets dev,wide``, default both) is read by
   :func:`rag_assets.core.evaluation.financebench.load_financebench`: each filing is a
   document × year partition (``lockheed-martin-10k`` 2020, ``jpmorgan-10q-q1`` 2021,
   ``foot-locker-8k-2022-05-20`` 2022 ...), each question a golden question with its zero-based
   evidence pages, its type (``metrics`` / ``judgments`` / ``prose`` from FinanceBench's
   ``question_type``, the raw type kept) and its filing's kind (10-K, 10-Q, 8-K, earnings).
2. Every filing of a set goes through the project's own path, what the ingest step runs:
   ``process_report`` (pages, footnote index, stitched text, both chunk kinds and the cover's
   routing profile) -> ``index_partition`` (both kinds) and the profile stored, all the set's
   partitions in ONE store in a temporary folder (``retrieval_bench.index_ours``): one store
   per set, never both sets in one.
3. Every question is searched by every strategy (``Retriever.search`` through
   ``evaluation.run_question``, corpus setting: the whole shared store; ``routed`` narrows
   itself) on naive and enriched chunks, and judged at page level by ``evaluation.judge``:
   MRR@10, hit@1, hit@5 (the first relevant hit within the first 1 / 5), recall@5; for the
   default strategy (pages ranked, enriched chunks) and the baseline also per question type
   and per filing kind.
4. Baseline on the same questions: LangChain's ``RecursiveCharacterTextSplitter(1024, 30)``
   page by page over the plain PDFium page text (what LangChain's ``PyPDFium2Loader`` reads,
   one split has one page), the same MiniLM vectors, FAISS ``IndexFlatIP`` over normalized
   vectors, top 10.
5. The golden set: the sample corpus (``build_sample_corpus``, every partition ``make demo``
   indexes) in another store, the same strategies and metrics over its golden questions
   (``--no-golden`` skips it).
6. Answers (``--no-answers`` skips them): every question asked as it is, with no scope, of
   ``Answerer`` (the extractive engine, default ``AnswerConfig``: ``routed`` over enriched
   chunks) over the set's store, with the filings' loaded pages as ``PageTexts`` to cite and
   verify against, and the filings' statement facts for the metric engine (``facts_provider``:
   ``read_facts`` over the loaded pages; ``--no-facts`` answers without them). Judged by
   ``answer_correctness.strict_answer_correct`` (the answer's first
   sentence against the reference's: figures within rounding, the yes/no polarity rule, else
   content-word recall), with the lenient rule (``answer_correct``, anywhere in the answer)
   beside it, labelled; citations under the verifier (``citation_marks``: valid, invalid, and
   whether every cited operand is valid); the evidence-page citation rate (the share of
   questions whose answer cites at least one labelled, zero-based evidence page of the
   question's filing) and seconds per answer (p50, p95); per question type and filing kind.

The analyst sets (``--sets analyst-tune,analyst-check``) are this project's analysts' questions
over filings of dev, wide and bulk (``bench/questions/README.md``), read by ``load_question_set``:
their store holds the filings their questions name; ``analyst-paraphrases`` asks tune's questions
in other words (how much an answer rests on one wording). ``analyst-check`` is held out from whoever
chooses answer rules (``HELD_OUT_SETS``): its per-question records are neither printed nor
written, only its totals and its breakdowns per type and kind. ``analyst-fresh`` and
``analyst-fresh-held`` are questions written afresh over tune's companies' filings, split by
filing: the first is read, the second held out like check; ``analyst-open`` and
``analyst-open-held`` are judgments and open questions split the same way.

Every figure is printed with the set it comes from, and the role of that set for the retrieval
settings (``SET_ROLES``: ``RetrievalConfig``'s weights were chosen on dev, wide is held out; see
bench/README.md, "Settings provenance").

Every vector goes through the persistent embedding cache that ``retrieval_bench.py`` uses
(``bench/out/lancedb_cache/``): the first full run embeds the chunks of both kinds and the
baseline splits of both sets and the sample corpus (about 20 texts/s on 2 cores), a second run
takes every vector from the cache.

Run: ``make bench-real`` or ``.venv/bin/python bench/real_bench.py [--sets dev,wide] [--docs N]
[--questions N] [--no-golden] [--no-answers] [--strategies a,b]``. Prints tables, then one
``BENCH_JSON {...}`` line; the figures, every question's ranks and every answer (with its set,
type and kind) go to ``bench/out/real.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from tabulate import tabulate

sys.path.insert(0, str(Path(__file__).resolve().parent))
# the checkout's own code, not the installed one: a bench run from a worktree at another commit
# (an editable install points at one checkout) measures that commit
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import retrieval_bench as rb  # noqa: E402 - the bench folder is not a package

REPO = rb.REPO
DEV_DIR = rb.CORPORA / "financebench-dev"
WIDE_DIR = rb.CORPORA / "financebench-wide"
BULK_DIR = rb.CORPORA / "financebench-bulk"
QUESTIONS_DIR = REPO / "bench" / "questions"
PROSE_DEV = QUESTIONS_DIR / "prose_dev.jsonl"
SETS = {"dev": DEV_DIR, "wide": WIDE_DIR, "prose-dev": DEV_DIR, "analyst-tune": DEV_DIR,
        "analyst-paraphrases": DEV_DIR, "analyst-check": DEV_DIR, "analyst-fresh": DEV_DIR,
        "analyst-fresh-held": DEV_DIR, "analyst-open": DEV_DIR, "analyst-open-held": DEV_DIR,
        "fresh-reading": DEV_DIR}
# a set's questions when they are not the folder's own questions.jsonl: prose-dev is this
# project's prose questions over the dev filings, the analyst sets its analysts' questions over
# filings of dev, wide and bulk (bench/questions/README.md)
QUESTION_FILES = {"prose-dev": PROSE_DEV,
                  "analyst-tune": QUESTIONS_DIR / "analyst_tune.jsonl",
                  "analyst-paraphrases": QUESTIONS_DIR / "analyst_tune_paraphrases.jsonl",
                  "analyst-check": QUESTIONS_DIR / "analyst_check.jsonl",
                  "analyst-fresh": QUESTIONS_DIR / "analyst_fresh.jsonl",
                  "analyst-fresh-held": QUESTIONS_DIR / "analyst_fresh_held.jsonl",
                  "analyst-open": QUESTIONS_DIR / "analyst_open.jsonl",
                  "analyst-open-held": QUESTIONS_DIR / "analyst_open_held.jsonl",
                  "fresh-reading": QUESTIONS_DIR / "fresh_reading.jsonl"}
# sets whose filings come from several folders: the filings their questions name
MULTI_FOLDER_SETS = ("analyst-tune", "analyst-paraphrases", "analyst-check", "analyst-fresh",
                     "analyst-fresh-held", "analyst-open", "analyst-open-held", "fresh-reading")
# held out from whoever chooses answer rules: the bench prints and writes only their totals
HELD_OUT_SETS = ("analyst-check", "analyst-fresh-held", "analyst-open-held")
DEFAULT_SETS = ("dev", "wide")
# what each set is to the retrieval settings (RetrievalConfig): bench/README.md, "Settings
# provenance". A weight chosen on one set is reported on the other; change this when a setting
# is chosen on wide.
SET_ROLES = {
    "dev": "in-sample: RetrievalConfig's weights were chosen on dev and the golden set",
    "wide": "held out: no weight was chosen on wide",
    "prose-dev": "in-sample: the prose answer rules were chosen on it (the project's own "
                 "questions over the dev filings)",
    "analyst-tune": "in-sample: answer rules for analysts' questions are chosen on it",
    "analyst-paraphrases": "in-sample: analyst-tune's questions that were answered right, each "
                           "asked in two other wordings; some rules were chosen on its failures",
    "analyst-check": "held out: only its totals are printed; no rule was chosen on it",
    "analyst-fresh": "in-sample once read: questions written afresh over tune's companies' "
                     "filings, the half of them (by filing) whose failures are read",
    "analyst-fresh-held": "held out: the other half of the fresh questions (by filing); only "
                          "its totals are printed; no rule was chosen on it",
    "analyst-open": "in-sample once read: judgments and open questions written afresh over "
                    "tune's companies' filings, the half of them (by filing) whose failures are "
                    "read",
    "analyst-open-held": "held out: the other half of the open questions (by filing); only its "
                         "totals are printed; no rule was chosen on it",
    "fresh-reading": "in-sample once read: open questions and judgments written afresh over 14 "
                     "filings outside analyst-check's companies, measured once before any rule "
                     "was read from it",
}
QUESTION_TYPE_ORDER = ("metrics", "judgments", "prose")
FILING_KIND_ORDER = ("10-K", "10-Q", "8-K", "earnings")
# the acceptance lines of issues 18 and 23 the printed figures are read against
TARGETS = {
    "dev": {"mrr": 0.85, "correct": 13},
    "wide": {"mrr": 0.60, "hit_at_5": 0.75, "correct": 24},
    "metrics_accuracy": 0.80,
}
OUT_JSON = REPO / "bench" / "out" / "real.json"
BASELINE_CHUNK_SIZE, BASELINE_OVERLAP = 1024, 30
K = 10
KINDS = ("naive", "enriched")
FALLBACK_DEFAULT_STRATEGY = "routed"  # the full pipeline; the "best strategy today"
log = rb.log


def code_state() -> dict[str, Any]:
    """The commit the bench ran on and the project files that differed from it (other work in
    the same checkout changes what a run measures)."""
    import subprocess

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True,
                              check=False)
        return done.stdout.rstrip("\n")

    changed = [line[3:] for line in git("status", "--porcelain", "--", "rag_assets",
                                        "bench").splitlines()]
    return {"commit": git("rev-parse", "--short", "HEAD"), "changed": changed}


def default_strategy() -> str:
    """``retriever.DEFAULT_STRATEGY`` once the project names one, else ``routed``."""
    from rag_assets.core.retrieval import retriever

    return getattr(retriever, "DEFAULT_STRATEGY", FALLBACK_DEFAULT_STRATEGY)


# --- the corpus, through the project's own path ---------------------------------------------


def load_partition(path: Path, document: str, year: int, questions: Sequence[Any],
                   workers: int) -> rb.Doc:
    """One report loaded, stitched and chunked as the ingest assets do it."""
    return rb.processed_doc(path, document, year, questions, workers)


def load_filings(filings: Sequence[Any], questions: Sequence[Any], workers: int) -> list[rb.Doc]:
    """Every filing loaded, stitched and chunked with its questions (``load_partition``)."""
    docs = []
    for number, filing in enumerate(filings, start=1):
        mine = [q for q in questions if (q.document, q.year) == (filing.document, filing.year)]
        doc = load_partition(filing.pdf, filing.document, filing.year, mine, workers)
        log(f"  [{number:2d}/{len(filings)}] {filing.document}|{filing.year}: {len(doc.pages)} "
            f"pages, {len(doc.naive)} naive + {len(doc.enriched)} enriched chunks, "
            f"{len(mine)} questions, {doc.load_s:.1f} s")
        docs.append(doc)
    return docs


def load_golden(data_dir: Path, workers: int) -> list[rb.Doc]:
    """Every partition of the sample corpus (what ``make demo`` indexes) with its answerable
    questions (an unanswerable one has no evidence page to rank)."""
    from rag_assets.core.evaluation.questions import answerable_questions, read_questions
    from rag_assets.samples.corpus import build_sample_corpus

    docs = []
    for sample in build_sample_corpus(data_dir, rb.CORPORA):
        questions = answerable_questions(
            read_questions(sample.questions_path) if sample.questions_path else [])
        docs.append(load_partition(sample.path, sample.document, sample.year, questions,
                                   workers))
    return docs


# --- the plain baseline -----------------------------------------------------------------------


def pdfium_page_texts(pdf: Path) -> list[str]:
    """The plain PDFium text of every page (LangChain's ``PyPDFium2Loader`` reads this)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        texts = []
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
            page.close()
        return texts
    finally:
        document.close()


def plain_splits(filings: Sequence[Any]) -> list[dict[str, Any]]:
    """``RecursiveCharacterTextSplitter(1024, 30)`` page by page, as ``split_documents`` does
    on a loader's pages: each split keeps the one page it came from."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=BASELINE_CHUNK_SIZE,
                                              chunk_overlap=BASELINE_OVERLAP)
    splits = []
    for filing in filings:
        for page, text in enumerate(pdfium_page_texts(filing.pdf)):
            for piece in splitter.split_text(text):
                if piece.strip():
                    splits.append({"document": filing.document, "year": filing.year,
                                   "page": page, "text": piece})
    return splits


class FaissBaseline:
    """Dense MiniLM over the splits, FAISS ``IndexFlatIP`` on normalized vectors."""

    def __init__(self, splits: list[dict[str, Any]], embedder: Any) -> None:
        import faiss

        self.splits = splits
        self.embedder = embedder
        vectors, self.stats = embedder.embed([s["text"] for s in splits])
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        faiss.normalize_L2(vectors)
        self.index = faiss.IndexFlatIP(embedder.dimension)
        self.index.add(vectors)

    def search(self, question: str, k: int = K) -> tuple[list[Any], float]:
        from rag_assets.core.retrieval.retriever import Hit

        vector = np.ascontiguousarray(self.embedder.embed_query(question)[None, :],
                                      dtype=np.float32)
        started = time.perf_counter()
        scores, ids = self.index.search(vector, k)
        latency = (time.perf_counter() - started) * 1000
        hits = [
            Hit(chunk_id=f"split-{i}", document=self.splits[i]["document"],
                year=self.splits[i]["year"], page_start=self.splits[i]["page"],
                page_end=self.splits[i]["page"], text=self.splits[i]["text"], rank=rank,
                score=float(s), stage="faiss")
            for rank, (i, s) in enumerate(zip(ids[0], scores[0], strict=True), start=1)
            if i >= 0
        ]
        return hits, latency


# --- runs and their figures ---------------------------------------------------------------------


def record(question: Any, page: Any, latency_ms: float, scope: str | None,
           hits: Sequence[Any]) -> dict[str, Any]:
    from rag_assets.core.evaluation.financebench import hit_at

    first = round(1 / page.mrr) if page.mrr else None
    return {
        "id": question.id, "document": question.document, "year": question.year,
        "relevant_pages": question.relevant_pages, "mrr": page.mrr,
        "hit_at_1": hit_at(page.mrr, 1), "hit_at_5": hit_at(page.mrr, 5),
        "recall_at_5": page.recall_at_5, "ndcg_at_10": page.ndcg_at_10,
        "first_relevant_rank": first, "latency_ms": latency_ms, "scope": scope,
        "top": [f"{h.document}|{h.year} p{','.join(map(str, h.pages))}" for h in hits[:3]],
    }


def means(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    return {
        "questions": len(rows),
        **{m: rb.mean([r[m] for r in rows])
           for m in ("mrr", "hit_at_1", "hit_at_5", "recall_at_5", "ndcg_at_10")},
        "latency_ms_p50": rb.percentile([r["latency_ms"] for r in rows], 50),
    }


def run_ours(docs: Sequence[rb.Doc], embedder: Any, store_dir: Path,
             strategies: Sequence[str]) -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any],
                                                 dict[str, str], Any]:
    """Index ``docs`` in one store, then every question × kind × strategy, corpus setting;
    returns the records, the index statistics, the strategies that ran a stand-in, and the
    retriever over the store (the answers read the same store)."""
    from rag_assets.core.evaluation.runs import run_question
    from rag_assets.core.retrieval.retriever import Retriever

    store, stats = rb.index_ours(docs, embedder, store_dir)
    # index_ours keys its chunk counts by document alone: count per partition here
    stats["chunks"] = {f"{d.document}|{d.year}": {"pages": len(d.pages), "naive": len(d.naive),
                                                  "enriched": len(d.enriched)} for d in docs}
    stats["total"] = {kind: sum(len(getattr(d, kind)) for d in docs) for kind in KINDS}
    retriever = Retriever(store, embedder)
    questions = [q for d in docs for q in d.questions if q.answerable]
    for q in questions:  # encoded once: the latencies are the searches alone
        embedder.embed_query(q.question)
    records: dict[str, list[dict[str, Any]]] = {}
    unavailable: dict[str, str] = {}
    for kind in KINDS:
        for strategy in strategies:
            rows = records.setdefault(f"{strategy}/{kind}", [])
            page_rows = records.setdefault(f"{strategy}/{kind}/pages", [])
            for q in questions:
                run = run_question(retriever, q, kind, "corpus", strategy)
                rows.append(record(q, run.page, run.latency_ms, run.scope, run.hits))
                page_rows.append(record(q, run.pages, run.latency_ms, run.scope, run.page_hits))
                if run.unavailable:
                    unavailable[strategy] = run.unavailable
    return records, stats, unavailable, retriever


# --- answers ------------------------------------------------------------------------------------


def cited_pages(result: Any) -> list[tuple[str, int, int, str]]:
    """Every (document, year, zero-based page, mark) an answer cites, in order, once each."""
    seen: dict[tuple[str, int, int], str] = {}
    for claim in result.claims:
        for c in claim.citations:
            key = (c.document, c.year, c.page)
            if key not in seen or c.mark == "valid":
                seen[key] = c.mark
    return [(*key, mark) for key, mark in seen.items()]


def company_of(document: str) -> str:
    """The company part of a document name (``jpmorgan-10q-q1`` -> ``jpmorgan``): its words up
    to the filing kind (``financebench.FILING_KINDS``, the kinds the set's names carry), so that
    two filings of one company compare equal."""
    from rag_assets.core.evaluation.financebench import FILING_KINDS

    words = document.split("-")
    kind = next((n for n, w in enumerate(words) if w in FILING_KINDS), len(words))
    return "-".join(words[:kind])


def answer_record(question: Any, result: Any, page_text: Any,
                  routed: Sequence[str] | None = None, asks: str = "-") -> dict[str, Any]:
    """One answer scored: ``correct`` by the strict rule (``strict_answer_correct``: the
    answer's first sentence, ``lead``, against the reference's), ``correct_lenient`` by
    ``answer_correct`` over the whole answer (what ``score_answer`` reports), abstention, the
    citations under the verifier (``citation_marks``: valid, invalid, every one valid), and
    whether it cites a labelled evidence page of the question's own filing (pages zero-based on
    both sides); ``cites_unrouted``: a cited filing outside ``routed`` (the documents the
    question's scope was routed to, when it was), ``cites_other_company``: a cited filing of
    another company than the question's; ``asks``: the form the question asks its first
    sentence in (``Question.expects``: yes_no, cause, names, figure, text)."""
    from rag_assets.core.evaluation.answer_correctness import (
        answer_lead,
        strict_answer_correct,
        strict_miss,
    )
    from rag_assets.core.evaluation.answer_metrics import score_answer
    from rag_assets.core.evaluation.citation_support import citation_marks

    score = score_answer(question, result, page_text)
    marks = citation_marks(result, page_text)
    strict = not score.abstained and strict_answer_correct(result.answer, question.answer or "",
                                                           question.question)
    cited = cited_pages(result)
    evidence = [(d, y, p, m) for d, y, p, m in cited if (d, y) == (question.document,
                                                                  question.year)
                and p in question.relevant_pages]
    return {
        "id": question.id, "document": question.document, "year": question.year,
        "relevant_pages": question.relevant_pages, "reference": question.answer,
        "answer": result.answer, "lead": "" if score.abstained else answer_lead(result.answer),
        "correct": bool(strict), "correct_lenient": bool(score.answer_correct),
        "abstained": score.abstained, "cites_evidence": bool(evidence),
        "cites_evidence_valid": any(m == "valid" for *_, m in evidence),
        "cites_filing": any((d, y) == (question.document, question.year) for d, y, _, _ in cited),
        "cites_unrouted": bool(routed) and any(d not in (routed or []) for d, *_ in cited),
        "cites_other_company": any(company_of(d) != company_of(question.document)
                                   for d, *_ in cited),
        "cited": [f"{d}|{y} p{p}{'' if m == 'valid' else ' ' + m}" for d, y, p, m in cited],
        "claims": score.n_claims, "citations": score.n_citations,
        "citations_valid": marks["valid"], "invalid_citations": score.invalid_citations,
        "all_cited_valid": marks["citations"] > 0 and marks["valid"] == marks["citations"],
        "seconds": result.seconds, "method": result.method, "asks": asks,
        "miss": "abstained" if score.abstained else ("" if strict else strict_miss(
            result.answer, question.answer or "", question.question)),
        "guardrails": list(dict.fromkeys(e.name for e in result.guardrail_events)),
    }


def answer_summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Counts and rates over the answer records: ``correct`` / ``accuracy`` by the strict rule,
    ``correct_lenient`` / ``accuracy_lenient`` by the lenient one; citations (all, valid,
    invalid) and the answers whose every citation is valid among those that cite; seconds per
    answer p50 / p95."""
    n = len(rows)
    correct = sum(r["correct"] for r in rows)
    lenient = sum(r.get("correct_lenient", r["correct"]) for r in rows)
    evidence = sum(r["cites_evidence"] for r in rows)
    return {
        "questions": n,
        "correct": correct, "accuracy": correct / n if n else 0.0,
        "correct_lenient": lenient, "accuracy_lenient": lenient / n if n else 0.0,
        "cites_evidence": evidence, "evidence_citation_rate": evidence / n if n else 0.0,
        "cites_evidence_valid": sum(r["cites_evidence_valid"] for r in rows),
        "cites_filing": sum(r["cites_filing"] for r in rows),
        "cites_unrouted": sum(bool(r.get("cites_unrouted")) for r in rows),
        "cites_other_company": sum(bool(r.get("cites_other_company")) for r in rows),
        "abstained": sum(r["abstained"] for r in rows),
        "citations": sum(r["citations"] for r in rows),
        "citations_valid": sum(r.get("citations_valid", 0) for r in rows),
        "invalid_citations": sum(r["invalid_citations"] for r in rows),
        "answers_citing": sum(r["citations"] > 0 for r in rows),
        "all_cited_valid": sum(bool(r.get("all_cited_valid")) for r in rows),
        "seconds_p50": rb.percentile([r["seconds"] for r in rows], 50),
        "seconds_p95": rb.percentile([r["seconds"] for r in rows], 95),
        "seconds_mean": rb.mean([r["seconds"] for r in rows]),
    }


def facts_provider(docs: Sequence[rb.Doc]) -> Any:
    """The statement facts of ``docs`` as the metric engine asks for them (``Answerer``'s
    ``facts``: ``(document, year) -> facts``), read from the loaded pages on first use and kept
    (``rag_assets.core.ingest.filing_facts.read_facts``, what the ``financial_statements``
    asset reads); None when the project has no facts reader or ``Answerer`` takes no
    ``facts``. A filing whose facts fail to read gives none, and the error is kept in
    ``provider.errors``."""
    import inspect

    from rag_assets.core.generation.answers import Answerer

    try:
        from rag_assets.core.ingest.filing_facts import read_facts
    except ImportError:
        return None
    if "facts" not in inspect.signature(Answerer).parameters:
        return None
    pages = {(d.document, d.year): d.pages for d in docs}
    cache: dict[tuple[str, int], list[Any]] = {}

    def provider(document: str, year: int) -> list[Any]:
        key = (document, year)
        if key not in cache:
            try:
                cache[key] = read_facts(document, year, pages[key]) if key in pages else []
            except Exception as exc:  # noqa: BLE001 - one filing's reader error is reported
                provider.errors[f"{document}|{year}"] = f"{type(exc).__name__}: {exc}"
                cache[key] = []
        return cache[key]

    provider.errors = {}  # type: ignore[attr-defined]
    return provider


def make_answerer(retriever: Any, pages: Any, facts: Any = None, chat: Any = None) -> Any:
    """The ``Answerer`` over ``retriever``'s store and ``pages`` (extractive, or with ``chat``
    the model's claims, kept only when verified); with ``facts`` (a statement-facts provider
    for the metric engine), handed to its constructor as ``facts=``."""
    from rag_assets.core.generation.answers import Answerer

    if facts is None:
        return Answerer(retriever, pages, chat=chat)
    return Answerer(retriever, pages, chat=chat, facts=facts)


def model_of(provider: str) -> Any:
    """The chat model of ``--provider`` as the settings and the usual environment variables
    configure it (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``AZURE_OPENAI_*``), or None for
    the extractive engine."""
    if provider == "extractive":
        return None
    import os

    from rag_assets.core.llm.client import connect
    from rag_assets.core.settings import Settings

    settings = Settings()
    return connect(settings.llm.model_copy(update={"provider": provider}), os.environ)


def run_answers(docs: Sequence[rb.Doc], retriever: Any, *, facts: Any = None,
                answerer: Callable[[Any, Any, Any], Any] = make_answerer,
                held_out: bool = False) -> list[dict[str, Any]]:
    """Every answerable question of ``docs`` asked as it is (no scope: routing finds the
    filing) of the ``Answerer`` over ``retriever``'s store, with the loaded pages.

    ``facts``: a statement-facts provider for the metric engine, passed on by ``answerer``
    (``make_answerer``: ``Answerer(retriever, pages, facts=facts)``); None asks the engine as
    it is today. ``held_out``: the progress lines name no question and say no verdict."""
    from rag_assets.core.generation.page_texts import PageTexts

    pages = PageTexts()
    for doc in docs:
        pages.add(doc.document, doc.year, doc.pages)
    engine = answerer(retriever, pages, facts)
    questions = [q for d in docs for q in d.questions if q.answerable]
    rows = []
    for number, q in enumerate(questions, start=1):
        result = engine.ask(q.question)
        read = engine.read(q.question)
        scope = engine.retriever.resolve_scope(read, engine.config.kind)
        rows.append(answer_record(q, result, pages.get, scope.documents, read.expects))
        r = rows[-1]
        if held_out:
            log(f"  [{number:2d}/{len(questions)}] answered")
            continue
        log(f"  [{number:2d}/{len(questions)}] {q.id}: "
            f"{'correct' if r['correct'] else 'wrong'} (lenient: "
            f"{'correct' if r['correct_lenient'] else 'wrong'}), "
            f"{'abstained' if r['abstained'] else 'evidence page cited' if r['cites_evidence'] else 'evidence page not cited'}, "  # noqa: E501
            f"{r['seconds']:.1f} s")
    return rows


# --- figures per set, per question type and filing kind ----------------------------------------


def summary(records: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, float]]:
    return {system: means(rows) for system, rows in records.items()}


def ratios(table: dict[str, dict[str, float]], default: str) -> dict[str, dict[str, float | None]]:
    base = table["baseline"]
    out: dict[str, dict[str, float | None]] = {}
    for key in (f"{default}/{kind}{level}" for kind in KINDS for level in ("", "/pages")):
        mine = table.get(key)
        if mine is None:
            continue
        out[key] = {
            m: (mine[m] / base[m] if base[m] else None) for m in ("mrr", "hit_at_1", "hit_at_5")
        }
    return out


def default_system(default: str) -> str:
    """The default of the comparison: the default strategy over enriched chunks, pages ranked
    (what ``Answerer``'s default ``AnswerConfig`` reads)."""
    return f"{default}/enriched/pages"


def label_rows(rows: Sequence[dict[str, Any]], labels: dict[str, dict[str, str]],
               set_name: str) -> list[dict[str, Any]]:
    """Each record (a question's rank or answer) with its ``set``, ``type`` (metrics /
    judgments / prose), ``raw_type`` (FinanceBench's) and ``kind`` (10-K, 10-Q, 8-K,
    earnings); changed in place, returned."""
    unknown = {"type": "other", "raw_type": "-", "kind": "-"}
    for row in rows:
        row.update({"set": set_name, **labels.get(row["id"], unknown)})
    return list(rows)


def grouped(rows: Sequence[dict[str, Any]], key: str,
            order: Sequence[str]) -> list[tuple[str, list[dict[str, Any]]]]:
    """``rows`` by ``row[key]``: the groups of ``order`` that have rows, in that order, then any
    other group by name."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(str(row.get(key, "-")), []).append(row)
    names = [g for g in order if g in groups] + sorted(set(groups) - set(order))
    return [(name, groups[name]) for name in names]


BREAKDOWNS = (("type", QUESTION_TYPE_ORDER), ("kind", FILING_KIND_ORDER))


def retrieval_breakdown(records: dict[str, list[dict[str, Any]]],
                        systems: Sequence[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """``{"type" | "kind": {system: {group: means}}}`` for ``systems`` (labelled records)."""
    return {key: {system: {group: means(rows) for group, rows in grouped(
        records[system], key, order)} for system in systems if system in records}
        for key, order in BREAKDOWNS}


# how each answer's first sentence was reached (``QAResult.method``), per question type, and the
# same per the form the question asks (``asks``: a names question answered by a quote): where a
# set's wrong answers come from, as totals (a held-out set's too)
ANSWER_BREAKDOWNS = (*BREAKDOWNS, ("method", ()), ("asks", ()), ("miss", ()))


def answer_breakdown(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """``{"type" | "kind" | "method" | "asks" | "miss": {group: answer_summary}}`` over labelled
    answer records; a method's group is ``"<type>: <method>"``, an asked form's ``"<type>: asks
    <form>, <method>"`` (the method without its missing-operand note), a miss's ``"<type>:
    <method>: <why the lead missed>"`` (``strict_miss``; ``right`` when it did not)."""
    keyed = [{**r, "method": f"{r.get('type', '-')}: {r.get('method', '-')}",
              "asks": f"{r.get('type', '-')}: asks {r.get('asks', '-')}, "
                      f"{str(r.get('method', '-')).split(',')[0]}",
              "miss": f"{r.get('type', '-')}: {str(r.get('method', '-')).split(',')[0]}: "
                      f"{r.get('miss') or 'right'}"} for r in rows]
    return {key: {group: answer_summary(g) for group, g in grouped(keyed, key, order)}
            for key, order in ANSWER_BREAKDOWNS}


# --- output -------------------------------------------------------------------------------------


def _f(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _set_title(name: str, data: dict[str, Any]) -> str:
    return (f"financebench-{name} ({data['role']}): {data['questions']} questions over "
            f"{len(data['partitions'])} filings ({', '.join(f'{n} {k}' for k, n in data['kinds'].items())})")  # noqa: E501


def report_set(name: str, data: dict[str, Any], figures: dict[str, Any]) -> None:
    """One set's retrieval table (every strategy, kind and level beside the baseline) and the
    rank of the first relevant hit per question."""
    default = figures["default_strategy"]
    base = data["summary"]["baseline"]
    print(f"\n== {_set_title(name, data)}")
    print(f"Page level, top {K}, corpus setting (one shared store of this set's filings).")
    rows = [[f"baseline: {BASELINE_CHUNK_SIZE}/{BASELINE_OVERLAP} splits, MiniLM, FAISS", "-",
             _f(base["mrr"]), _f(base["hit_at_1"]), _f(base["hit_at_5"]),
             _f(base["recall_at_5"]), "1.00", "1.00"]]
    for strategy in figures["strategies"]:
        for kind, level in ((kind, level) for level in ("", "/pages") for kind in KINDS):
            r = data["summary"][f"{strategy}/{kind}{level}"]
            label = strategy + (" (n/a: first stage)" if strategy in
                                figures["unavailable"] else "")
            rows.append([label + (" *" if strategy == default else ""),
                         kind + (", pages" if level else ""), _f(r["mrr"]),
                         _f(r["hit_at_1"]), _f(r["hit_at_5"]), _f(r["recall_at_5"]),
                         _f(r["mrr"] / base["mrr"] if base["mrr"] else None, 2),
                         _f(r["hit_at_5"] / base["hit_at_5"] if base["hit_at_5"] else None, 2)])
    print(tabulate(rows, headers=[f"{name}: system", "chunks", "MRR@10", "hit@1", "hit@5",
                                  "recall@5", "MRR / base", "hit@5 / base"],
                   disable_numparse=True))
    for key, r in data["ratios"].items():
        print(f"* {name}: default strategy {key}: MRR@10 {_f(r['mrr'], 2)}x the baseline's, "
              f"hit@5 {_f(r['hit_at_5'], 2)}x")

    records = data["records"]
    if not records:
        print(f"\n{name}: held out: per-question records withheld (totals only)")
        if data.get("answers"):
            report_answer_totals(data["answers"], name)
        return
    print(f"\n{name}: rank of the first relevant hit per question (- = not in the top {K}):")
    shown = ["baseline", *(f"{default}/{kind}" for kind in KINDS),
             *(f"{default}/{kind}/pages" for kind in KINDS), "bm25/enriched", "dense/enriched"]
    shown = [s for s in shown if s in records]
    scope_key = f"{default}/enriched" if f"{default}/enriched" in records else shown[-1]
    per_q = [[base_row["id"].replace("financebench_id_", "fb"), base_row["type"],
              base_row["kind"], f"{base_row['document']}|{base_row['year']}",
              ",".join(map(str, base_row["relevant_pages"])),
              *(records[s][i]["first_relevant_rank"] or "-" for s in shown),
              records[scope_key][i]["scope"]]
             for i, base_row in enumerate(records["baseline"])]
    print(tabulate(per_q, headers=["question", "type", "kind", "partition", "pages", *shown,
                                   f"scope ({scope_key})"], disable_numparse=True))
    stats = data["index"]
    print(f"{name}: {data['baseline_splits']} baseline splits, {stats['total']['naive']} naive "
          f"+ {stats['total']['enriched']} enriched chunks ({data['pages']} pages)")
    if data.get("answers"):
        report_answers(data["answers"], name)


def report_breakdowns(figures: dict[str, Any]) -> None:
    """Per question type and per filing kind, every set: retrieval of the default and the
    baseline, and the answers (strict, lenient, citations)."""
    default = default_system(figures["default_strategy"])
    sets = figures["sets"]
    for key, title in (("type", "question type"), ("kind", "filing kind")):
        rows = []
        for name, data in sets.items():
            for system in ("baseline", default):
                for group, r in data["breakdown"][key].get(system, {}).items():
                    rows.append([name, system, group, r["questions"], _f(r["mrr"]),
                                 _f(r["hit_at_1"]), _f(r["hit_at_5"])])
        print(f"\nRetrieval per {title} (page level; set = where each figure comes from):")
        print(tabulate(rows, headers=["set", "system", title, "questions", "MRR@10", "hit@1",
                                      "hit@5"], disable_numparse=True))
        report_answer_breakdown(sets, key, title)
    report_answer_breakdown(sets, "method", "type: how the first sentence was reached")
    report_answer_breakdown(sets, "asks", "type: the form asked, how it was reached")
    report_answer_breakdown(sets, "miss", "type: how it was reached: why the lead missed")


def report_answer_breakdown(sets: dict[str, Any], key: str, title: str) -> None:
    """The answers of every set per group of ``key`` (a breakdown of ``answer_breakdown``)."""
    rows = []
    for name, data in sets.items():
        if not data.get("answers") or key not in data["answers"]["breakdown"]:
            continue
        for group, a in data["answers"]["breakdown"][key].items():
            rows.append([name, group, a["questions"], f"{a['correct']}/{a['questions']}",
                         f"{a['correct_lenient']}/{a['questions']}",
                         f"{a['all_cited_valid']}/{a['answers_citing']}",
                         f"{a['invalid_citations']}/{a['citations']}",
                         f"{a['cites_evidence']}/{a['questions']}"])
    if rows:
        print(f"\nAnswers per {title} (strict = first sentence; lenient = anywhere):")
        print(tabulate(rows, headers=["set", title, "questions", "correct (strict)",
                                      "lenient", "every citation valid", "invalid citations",
                                      "cites evidence"], disable_numparse=True))


def acceptance(figures: dict[str, Any]) -> list[dict[str, Any]]:
    """Per set, the figures the acceptance lines of issues 18 and 23 read, beside their
    targets (``TARGETS``), and the metrics questions over every set."""
    default = default_system(figures["default_strategy"])
    out = []
    metrics_rows: list[dict[str, Any]] = []
    for name, data in figures["sets"].items():
        mine = data["summary"].get(default, {})
        base = data["summary"]["baseline"]
        row: dict[str, Any] = {
            "set": name, "role": data["role"], "questions": data["questions"],
            "mrr": mine.get("mrr"), "hit_at_5": mine.get("hit_at_5"),
            "baseline_mrr": base["mrr"], "baseline_hit_at_5": base["hit_at_5"],
            "targets": TARGETS.get(name, {}),
        }
        answers = data.get("answers")
        if answers:
            s = answers["summary"]
            row.update({k: s.get(k, 0) for k in (
                "correct", "correct_lenient", "invalid_citations", "citations", "all_cited_valid",
                "answers_citing", "cites_unrouted", "cites_other_company")})
            metrics_rows += [r for r in answers["records"] if r["type"] == "metrics"]
        out.append(row)
    if metrics_rows:
        n = len(metrics_rows)
        correct = sum(r["correct"] for r in metrics_rows)
        out.append({"set": "+".join(figures["sets"]), "metrics_questions": n,
                    "metrics_correct": correct, "metrics_accuracy": correct / n,
                    "targets": {"metrics_accuracy": TARGETS["metrics_accuracy"]}})
    return out


def report_acceptance(figures: dict[str, Any]) -> None:
    default = default_system(figures["default_strategy"])
    rows, notes = [], []
    for row in figures["acceptance"]:
        t = row["targets"]
        if "metrics_questions" in row:
            notes.append(f"metrics questions ({row['set']}): {row['metrics_correct']}/"
                         f"{row['metrics_questions']} correct by the strict rule "
                         f"({row['metrics_accuracy']:.2f}; target >= "
                         f"{t['metrics_accuracy']:.2f})")
            continue
        target = " ".join(f"{k}>={v}" for k, v in t.items())
        answers = (f"{row['correct']}/{row['questions']}" if "correct" in row else "-")
        rows.append([row["set"], row["role"].split(":")[0], row["questions"],
                     _f(row["mrr"]), _f(row["hit_at_5"]), _f(row["baseline_mrr"]),
                     _f(row["baseline_hit_at_5"]), answers,
                     f"{row['correct_lenient']}/{row['questions']}" if "correct" in row else "-",
                     f"{row['invalid_citations']}/{row['citations']}" if "correct" in row else "-",
                     f"{row['all_cited_valid']}/{row['answers_citing']}" if "correct" in row
                     else "-",
                     f"{row['cites_unrouted']} / {row['cites_other_company']}" if "correct" in row
                     else "-", target or "-"])
    print(f"\nAcceptance figures per set (retrieval: {default}; answers: strict rule):")
    print(tabulate(rows, headers=["set", "role", "questions", "MRR@10", "hit@5", "base MRR@10",
                                  "base hit@5", "correct (strict)", "lenient", "invalid cit.",
                                  "every cit. valid", "cite unrouted / other co.",
                                  "targets (issues 18, 23)"],
                   disable_numparse=True))
    for note in notes:
        print(note)


def report(figures: dict[str, Any]) -> None:
    for name, data in figures["sets"].items():
        report_set(name, data, figures)
    golden = figures.get("golden")
    if golden:
        print(f"\nGolden set: sample corpus, {golden['questions']} questions over "
              f"{len(golden['partitions'])} partitions (its own store):")
        rows = []
        for strategy in figures["strategies"]:
            for kind, level in ((kind, level) for level in ("", "/pages") for kind in KINDS):
                g = golden["summary"][f"{strategy}/{kind}{level}"]
                rows.append([strategy, kind + (", pages" if level else ""), _f(g["mrr"]),
                             _f(g["hit_at_1"]), _f(g["hit_at_5"])])
        print(tabulate(rows, headers=["golden: system", "chunks", "MRR@10", "hit@1", "hit@5"],
                       disable_numparse=True))
    else:
        print("\ngolden set: skipped (--no-golden); `make demo` prints its MRR per strategy and "
              "kind in the corpus setting, or run this bench without --no-golden")
    report_breakdowns(figures)
    print("\nSettings provenance (bench/README.md): "
          + "; ".join(f"{name}: {data['role']}" for name, data in figures["sets"].items()))
    report_acceptance(figures)
    print(f"\nembeddings computed {figures['embeddings']['computed']}, from the cache "
          f"{figures['embeddings']['cached']}")
    for strategy, reason in figures["unavailable"].items():
        print(f"{strategy}: {reason}")


def _short(text: str | None, width: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 3] + "..."


def report_answers(answers: dict[str, Any], name: str = "") -> None:
    where = f"{name}: " if name else ""
    print(f"\n{where}answers: {answers['engine']} ({answers['strategy']} over "
          f"{answers['kind']} chunks), each question asked as it is over the set's store; "
          "strict = the answer's first sentence gives FinanceBench's answer "
          "(strict_answer_correct), lenient = anywhere in the answer (answer_correct); "
          "evidence = cites a labelled page")
    print(tabulate(
        [[r["id"].replace("financebench_id_", "fb"), r.get("type", "-"), r.get("kind", "-"),
          f"{r['document']}|{r['year']}", ",".join(map(str, r["relevant_pages"])),
          "yes" if r["correct"] else "no", "yes" if r.get("correct_lenient") else "no",
          "abstained" if r["abstained"] else "yes" if r["cites_evidence"] else "no",
          " ".join(c.split("|")[1] if c.startswith(r["document"] + "|") else c
                   for c in r["cited"][:4]) + (" ..." if len(r["cited"]) > 4 else ""),
          f"{r['invalid_citations']}/{r['citations']}", f"{r['seconds']:.1f}",
          _short(r["reference"], 30), _short(r.get("lead"), 40)]
         for r in answers["records"]],
        headers=["question", "type", "kind", "partition", "pages", "strict", "lenient",
                 "cites evidence", "cited (year p<zero-based>)", "invalid", "s", "reference",
                 "first sentence"],
        disable_numparse=True))
    report_answer_totals(answers, name)


def report_answer_totals(answers: dict[str, Any], name: str = "") -> None:
    s = answers["summary"]
    where = f"{name}: " if name else ""
    print(f"{where}answers: {s['correct']}/{s['questions']} correct by the strict rule "
          f"({s['accuracy']:.3f}); lenient {s['correct_lenient']}/{s['questions']} "
          f"({s['accuracy_lenient']:.3f}); evidence page cited {s['cites_evidence']}/"
          f"{s['questions']} ({s['evidence_citation_rate']:.3f}; with a valid citation "
          f"{s['cites_evidence_valid']}); own filing cited {s['cites_filing']}; "
          f"citing an unrouted filing "
          f"{s['cites_unrouted']}, another company's {s['cites_other_company']}; abstained "
          f"{s['abstained']}; citations {s['citations']}: valid {s['citations_valid']}, invalid "
          f"{s['invalid_citations']}; every citation valid in {s['all_cited_valid']} of "
          f"{s['answers_citing']} answers that cite; seconds per answer p50 "
          f"{s['seconds_p50']:.2f}, p95 {s['seconds_p95']:.2f}")


def _baseline_records(baseline: FaissBaseline, questions: Sequence[Any]) -> list[dict[str, Any]]:
    from rag_assets.core.evaluation.runs import judge

    out = []
    for q in questions:
        hits, latency = baseline.search(q.question)
        out.append(record(q, judge(q, hits)[0], latency, None, hits))
    return out


def finish(figures: dict[str, Any], sections: dict[str, float], started: float, out: Path,
           show: Any) -> None:
    """Time the sections, print the figures (``show``) and write them, rounded, as JSON."""
    figures["sections_s"] = sections
    figures["total_s"] = time.perf_counter() - started
    show(figures)
    print("\nsections: " + ", ".join(f"{k} {v:.1f} s" for k, v in sections.items())
          + f"; total {figures['total_s']:.1f} s")
    figures = rb._rounded(figures)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2, default=str) + "\n")
    print(f"\nwritten {out}")


# --- one set ------------------------------------------------------------------------------------


def run_set(name: str, root: Path | Sequence[Path], args: argparse.Namespace, embedder: Any,
            tmp: Path, strategies: Sequence[str], default: str, sections: dict[str, float],
            embedded: dict[str, int]) -> tuple[dict[str, Any], dict[str, str]]:
    """One FinanceBench set in its own store (or, ``--one-store``, several sets' filings in
    one store: what the store's size costs a query): load, baseline, every strategy, answers;
    the set's figures (every record labelled with set, type and kind) and the strategies that
    ran a stand-in."""
    from rag_assets.core.evaluation.financebench import (
        load_financebench,
        load_question_set,
        select,
    )

    roots = [root] if isinstance(root, Path) else list(root)
    labels: dict[str, dict[str, str]] = {}
    filings: list[Any] = []
    questions: list[Any] = []
    for one, set_name in zip(roots, name.split("+"), strict=False):
        data = (load_question_set((DEV_DIR, WIDE_DIR, BULK_DIR), QUESTION_FILES[set_name])
                if set_name in MULTI_FOLDER_SETS
                else load_financebench(one, QUESTION_FILES.get(set_name)))
        labels.update(data.labels())
        chosen_filings, chosen_questions = select(data, args.docs, args.questions)
        filings += chosen_filings
        questions += chosen_questions
    root = roots[0] if len(roots) == 1 else Path(",".join(str(r) for r in roots))
    log(f"{name}: loading and chunking {len(filings)} filings ({len(questions)} questions) ...")
    docs, sections[f"{name}: load + chunk"] = rb.timed(
        lambda: load_filings(filings, questions, args.workers))
    for doc in docs:
        if max((p for q in doc.questions for p in q.relevant_pages), default=-1) >= len(
                doc.pages):
            raise SystemExit(f"{name}: {doc.document}|{doc.year}: the loader read "
                             f"{len(doc.pages)} pages, fewer than the evidence needs")
    log(f"{name}: baseline: splitting the PDFium page text ({BASELINE_CHUNK_SIZE}/"
        f"{BASELINE_OVERLAP}) and embedding (persistent cache) ...")
    splits = plain_splits(filings)
    baseline, sections[f"{name}: baseline index"] = rb.timed(
        lambda: FaissBaseline(splits, embedder))
    embedded["computed"] += baseline.stats.computed
    embedded["cached"] += baseline.stats.cached
    log(f"  {len(splits)} splits: {baseline.stats.computed} embedded, "
        f"{baseline.stats.cached} from the cache")
    log(f"{name}: ours: indexing naive + enriched chunks into one store, then every strategy ...")
    (records, stats, unavailable, retriever), sections[f"{name}: index + search"] = rb.timed(
        lambda: run_ours(docs, embedder, tmp / name, strategies))
    embedded["computed"] += stats["computed"]
    embedded["cached"] += stats["cached"]
    records = {"baseline": _baseline_records(baseline, questions), **records}
    for rows in records.values():
        label_rows(rows, labels, name)
    table = summary(records)
    kinds: dict[str, int] = {}
    for f in filings:
        kinds[f.kind] = kinds.get(f.kind, 0) + 1
    out: dict[str, Any] = {
        "dir": str(root), "role": SET_ROLES.get(name, "-"),
        "questions": len(questions),
        "partitions": [f"{d.document}|{d.year}" for d in docs],
        "kinds": kinds,
        "pages": sum(len(d.pages) for d in docs),
        "baseline_splits": len(splits),
        "index": {k: v for k, v in stats.items() if k != "aliases"},
        "aliases": stats.get("aliases", {}),
        "summary": table,
        "ratios": ratios(table, default),
        "breakdown": retrieval_breakdown(records, ["baseline", default_system(default)]),
        "records": records,
    }
    if not args.no_answers:
        from rag_assets.core.generation.answers import AnswerConfig

        facts = None if args.no_facts else facts_provider(docs)
        log(f"{name}: answers: {len(questions)} questions over the set's store "
            f"({'with' if facts else 'without'} statement facts) ...")
        chat = model_of(args.provider)
        rows, sections[f"{name}: answers"] = rb.timed(
            lambda: run_answers(docs, retriever, facts=facts,
                                answerer=lambda r, p, f: make_answerer(r, p, f, chat),
                                held_out=bool(set(name.split("+")) & set(HELD_OUT_SETS))))
        label_rows(rows, labels, name)
        config = AnswerConfig()
        engine = ("extractive" if chat is None
                  else f"{args.provider} ({chat.config.executive_model})")
        out["answers"] = {"engine": engine + (" + statement facts" if facts else ""),
                          "strategy": config.strategy, "kind": config.kind, "k": config.k,
                          "facts_errors": getattr(facts, "errors", {}),
                          "summary": answer_summary(rows), "breakdown": answer_breakdown(rows),
                          "records": rows}
        for partition, error in out["answers"]["facts_errors"].items():
            log(f"  {name}: no statement facts for {partition}: {error}")
    return out, unavailable


def register_set(name: str, path: Path) -> None:
    """A question set of one's own (``--set-file``) asked like the analyst sets: its filings
    named across dev, wide and bulk, its records printed (it is in-sample once they are read)."""
    global MULTI_FOLDER_SETS
    SETS[name] = DEV_DIR
    QUESTION_FILES[name] = path
    MULTI_FOLDER_SETS = (*MULTI_FOLDER_SETS, name)
    SET_ROLES[name] = f"a set of one's own ({path}): held out until its records are read"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bench; 0 on success, 2 when a set is missing."""
    from rag_assets.core.retrieval.retriever import STRATEGIES

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--one-store", action="store_true",
                        help="index the chosen sets' filings into ONE store (a set named "
                             "dev+wide): query latency at the size of both")
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS),
                        help=f"comma separated sets of {', '.join(SETS)} (default: "
                             f"{','.join(DEFAULT_SETS)})")
    parser.add_argument("--docs", type=int, default=None,
                        help="index only the first N filings that have questions (per set)")
    parser.add_argument("--questions", type=int, default=None,
                        help="ask only the first N questions of those filings (per set)")
    parser.add_argument("--no-golden", action="store_true",
                        help="skip the golden set of the sample corpus")
    parser.add_argument("--no-answers", action="store_true",
                        help="skip the answers (extractive engine) on the real questions")
    parser.add_argument("--no-facts", action="store_true",
                        help="answer without the statement facts (no metric engine)")
    parser.add_argument("--provider", choices=("extractive", "openai", "azure"),
                        default="extractive",
                        help="who writes the answers: the offline extractive engine, or a model "
                        "of an OpenAI-compatible or Azure endpoint (its usual environment "
                        "variables); its claims are kept only when their citations hold")
    parser.add_argument("--strategies", default=",".join(STRATEGIES),
                        help=f"comma separated (default all: {','.join(STRATEGIES)})")
    parser.add_argument("--workers", type=int, default=2, help="pdf_workers of the loader")
    parser.add_argument("--cache-dir", type=Path, default=rb.CACHE_DIR,
                        help="persistent embedding cache (LanceDB folder)")
    parser.add_argument("--dev-dir", type=Path, default=DEV_DIR)
    parser.add_argument("--wide-dir", type=Path, default=WIDE_DIR)
    parser.add_argument("--out", type=Path, default=OUT_JSON)
    parser.add_argument("--set-file", action="append", default=[], metavar="NAME=PATH",
                        help="a question set of your own, in the analyst sets' format over "
                             "filings of dev, wide and bulk, asked as set NAME (repeatable)")
    args = parser.parse_args(argv)
    for spec in args.set_file:
        name, _, path = spec.partition("=")
        if not name or not path:
            parser.error(f"--set-file {spec!r}: expected NAME=PATH")
        register_set(name, Path(path))
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    unknown = sorted(set(strategies) - set(STRATEGIES))
    if unknown:
        parser.error(f"unknown strategies {unknown}; known: {', '.join(STRATEGIES)}")
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    if not sets or set(sets) - set(SETS):
        parser.error(f"unknown sets {sorted(set(sets) - set(SETS))}; known: {', '.join(SETS)}")
    # the analyst sets name their filings across dev, wide and bulk: the dev folder stands for
    # them (MULTI_FOLDER_SETS)
    roots = {name: args.wide_dir if name == "wide" else args.dev_dir for name in SETS}
    for name in sets:
        if not (QUESTION_FILES.get(name) or roots[name] / "questions.jsonl").is_file():
            print(f"real_bench: FinanceBench {name} set not found under {roots[name]}",
                  file=sys.stderr)
            return 2
    os.environ.setdefault("LANCEDB_LOG", "error")

    from rag_assets.core.retrieval.embeddings import Embedder
    from rag_assets.core.retrieval.store import VectorStore
    from rag_assets.core.settings import Settings

    started = time.perf_counter()
    sections: dict[str, float] = {}
    default = default_strategy()
    embedder = Embedder(batch_size=rb.BATCH_SIZE, backend=Settings().embeddings.backend)
    VectorStore.of(embedder, args.cache_dir)  # the embedder gets the store's cache
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "code": code_state(),
        "machine": {"python": platform.python_version(), "cpus": rb._cpus()},
        "model": embedder.model_name, "default_strategy": default,
        "default_system": default_system(default), "strategies": strategies,
        "args": {"sets": sets, "docs": args.docs, "questions": args.questions,
                 "golden": not args.no_golden, "answers": not args.no_answers,
                 "facts": not args.no_facts, "provider": args.provider},
        "sets": {},
    }
    embedded = {"computed": 0, "cached": 0}
    unavailable: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="real_bench_") as tmp_name:
        tmp = Path(tmp_name)
        for name in (["+".join(sets)] if args.one_store else sets):
            where = [roots[n] for n in name.split("+")] if args.one_store else roots[name]
            figures["sets"][name], missing = run_set(name, where, args, embedder, tmp,
                                                     strategies, default, sections, embedded)
            unavailable.update(missing)
        if not args.no_golden:
            log("golden set: writing the sample corpus, loading and chunking every partition ...")
            golden_docs, sections["golden: load + chunk"] = rb.timed(
                lambda: load_golden(tmp / "data", args.workers))
            log(f"  {len(golden_docs)} partitions, "
                f"{sum(len(d.questions) for d in golden_docs)} questions; indexing and "
                "searching ...")
            (g_records, g_stats, g_unavailable, _), sections["golden: index + search"] = rb.timed(
                lambda: run_ours(golden_docs, embedder, tmp / "golden", strategies))
            embedded["computed"] += g_stats["computed"]
            embedded["cached"] += g_stats["cached"]
            unavailable.update(g_unavailable)
            figures["golden"] = {
                "questions": sum(len(d.questions) for d in golden_docs),
                "partitions": [f"{d.document}|{d.year}" for d in golden_docs],
                "summary": summary(g_records),
            }
    figures["unavailable"] = unavailable
    figures["embeddings"] = embedded
    figures["acceptance"] = acceptance(figures)
    withhold(figures)
    finish(figures, sections, started, args.out, report)
    print("BENCH_JSON " + json.dumps(compact(figures), separators=(",", ":")))
    return 0


def withhold(figures: dict[str, Any]) -> None:
    """Drop the per-question records of the held-out sets (``HELD_OUT_SETS``): whoever reads
    the output while choosing rules sees their totals and breakdowns, never a question."""
    for name, data in figures["sets"].items():
        if set(name.split("+")) & set(HELD_OUT_SETS):
            data["records"] = {}
            if "answers" in data:
                data["answers"]["records"] = []
            data["held_out"] = True


def compact(figures: dict[str, Any]) -> dict[str, Any]:
    """The figures without per-question records (the ``BENCH_JSON`` line)."""
    out = {k: v for k, v in figures.items() if k != "sets"}
    out["sets"] = {}
    for name, data in figures["sets"].items():
        out["sets"][name] = {k: v for k, v in data.items()
                             if k not in ("records", "answers", "aliases", "index")}
        if "answers" in data:
            out["sets"][name]["answers"] = {k: v for k, v in data["answers"].items()
                                            if k != "records"}
    return out


if __name__ == "__main__":
    sys.exit(main())
