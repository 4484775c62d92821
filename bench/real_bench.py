"""Retrieval on real filings: the FinanceBench dev set (14 10-Ks, 18 analyst questions) in one
shared store, every strategy and chunk kind, beside a plain LangChain + FAISS baseline and the
golden set of the sample corpus.

1. The dev set (``../shared/corpora/financebench-dev``) is read by
   :func:`rag_assets.core.evaluation.financebench.load_financebench`: each filing is a
   document × year partition (``lockheed-martin-10k`` 2020, 2021, 2022 ...), each question a
   golden question with its zero-based evidence pages.
2. Every filing goes through the project's own path, the functions the assets call:
   ``load_document`` -> ``build_footnote_index`` -> ``stitch_document`` -> ``naive_chunks`` /
   ``enriched_chunks`` -> ``index_partition`` (both kinds) and its routing profile
   (``profile_from_text`` on the first two pages, as ``document_profile`` does), all partitions
   in ONE store in a temporary folder (``retrieval_bench.index_ours``).
3. Every question is searched by every strategy (``Retriever.search`` through
   ``evaluation.run_question``, corpus setting: the whole shared store; ``routed`` narrows
   itself) on naive and enriched chunks, and judged at page level by ``evaluation.judge``:
   MRR@10, hit@1, hit@5 (the first relevant hit within the first 1 / 5), recall@5.
4. Baseline on the same questions: LangChain's ``RecursiveCharacterTextSplitter(1024, 30)``
   page by page over the plain PDFium page text (what LangChain's ``PyPDFium2Loader`` reads,
   one split has one page), the same MiniLM vectors, FAISS ``IndexFlatIP`` over normalized
   vectors, top 10.
5. The golden set: the sample corpus (``build_sample_corpus``, every partition ``make demo``
   indexes) in a second store, the same strategies and metrics over its golden questions
   (``--no-golden`` skips it).
6. Answers (``--no-answers`` skips them): every question asked as it is, with no scope, of
   ``Answerer`` (the extractive engine, default ``AnswerConfig``: ``routed`` over enriched
   chunks) over the real store, with the filings' loaded pages as ``PageTexts`` to cite and
   verify against. Scored by ``answer_metrics.score_answer``: correct against FinanceBench's
   ``answer`` by ``answer_correct`` (the rule its docstring states: figures within rounding,
   scales and signs, else content-word recall), abstentions, invalid citations (marked
   ``invalid`` / ``context_mismatch`` by the verifier); plus the evidence-page citation rate
   (the share of questions whose answer cites at least one labelled, zero-based evidence page
   of the question's filing) and seconds per answer (p50, p95).

Every vector goes through the persistent embedding cache that ``retrieval_bench.py`` uses
(``bench/out/lancedb_cache/``): the first full run embeds some 40,000 texts (the dev set's chunks
of both kinds, the baseline splits, the sample corpus; about 20 texts/s on 2 cores, so 30-40 min),
a second run takes every vector from the cache.

Run: ``make bench-real`` or ``.venv/bin/python bench/real_bench.py [--docs N] [--questions N]
[--no-golden] [--no-answers]``. Prints tables, then one ``BENCH_JSON {...}`` line; the figures,
every question's ranks and every answer go to ``bench/out/real.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from tabulate import tabulate

sys.path.insert(0, str(Path(__file__).resolve().parent))
import retrieval_bench as rb  # noqa: E402 - the bench folder is not a package

REPO = rb.REPO
DEV_DIR = rb.CORPORA / "financebench-dev"
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
    from rag_assets.core.chunks.chunking import enriched_chunks, naive_chunks
    from rag_assets.core.footnotes.stitching import build_footnote_index, stitch_document
    from rag_assets.core.ingest.context import document_context
    from rag_assets.core.ingest.documents import load_document

    started = time.perf_counter()
    loaded = load_document(path, pdf_workers=workers)
    index = build_footnote_index(loaded.pages)
    stitched = stitch_document(loaded.pages, index)
    context = document_context(document, year, loaded.pages)
    return rb.Doc(
        document=document, year=year, pages=loaded.pages,
        naive=naive_chunks(loaded.pages, document, year, index, context=context),
        enriched=enriched_chunks(stitched, document, year, index, context=context),
        questions=list(questions), footnotes=index.footnotes,
        load_s=time.perf_counter() - started,
    )


def load_dev(filings: Sequence[Any], questions: Sequence[Any], workers: int) -> list[rb.Doc]:
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


def answer_record(question: Any, result: Any, page_text: Any) -> dict[str, Any]:
    """One answer scored: ``score_answer`` (correctness by ``answer_correct`` against the
    reference, abstention, invalid citations) and whether it cites a labelled evidence page of
    the question's own filing (pages zero-based on both sides)."""
    from rag_assets.core.evaluation.answer_metrics import score_answer

    score = score_answer(question, result, page_text)
    cited = cited_pages(result)
    evidence = [(d, y, p, m) for d, y, p, m in cited if (d, y) == (question.document,
                                                                  question.year)
                and p in question.relevant_pages]
    return {
        "id": question.id, "document": question.document, "year": question.year,
        "relevant_pages": question.relevant_pages, "reference": question.answer,
        "answer": result.answer, "correct": bool(score.answer_correct),
        "abstained": score.abstained, "cites_evidence": bool(evidence),
        "cites_evidence_valid": any(m == "valid" for *_, m in evidence),
        "cites_filing": any((d, y) == (question.document, question.year) for d, y, _, _ in cited),
        "cited": [f"{d}|{y} p{p}{'' if m == 'valid' else ' ' + m}" for d, y, p, m in cited],
        "claims": score.n_claims, "citations": score.n_citations,
        "invalid_citations": score.invalid_citations, "seconds": result.seconds,
        "guardrails": list(dict.fromkeys(e.name for e in result.guardrail_events)),
    }


def answer_summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Counts and rates over the answer records; seconds per answer p50 / p95."""
    n = len(rows)
    correct = sum(r["correct"] for r in rows)
    evidence = sum(r["cites_evidence"] for r in rows)
    return {
        "questions": n,
        "correct": correct, "accuracy": correct / n if n else 0.0,
        "cites_evidence": evidence, "evidence_citation_rate": evidence / n if n else 0.0,
        "cites_evidence_valid": sum(r["cites_evidence_valid"] for r in rows),
        "cites_filing": sum(r["cites_filing"] for r in rows),
        "abstained": sum(r["abstained"] for r in rows),
        "invalid_citations": sum(r["invalid_citations"] for r in rows),
        "citations": sum(r["citations"] for r in rows),
        "seconds_p50": rb.percentile([r["seconds"] for r in rows], 50),
        "seconds_p95": rb.percentile([r["seconds"] for r in rows], 95),
        "seconds_mean": rb.mean([r["seconds"] for r in rows]),
    }


def run_answers(docs: Sequence[rb.Doc], retriever: Any) -> list[dict[str, Any]]:
    """Every answerable question of ``docs`` asked as it is (no scope: routing finds the
    filing) of the extractive ``Answerer`` over ``retriever``'s store, with the loaded pages."""
    from rag_assets.core.generation.answers import Answerer
    from rag_assets.core.generation.citations import PageTexts

    pages = PageTexts()
    for doc in docs:
        pages.add(doc.document, doc.year, doc.pages)
    answerer = Answerer(retriever, pages)
    questions = [q for d in docs for q in d.questions if q.answerable]
    rows = []
    for number, q in enumerate(questions, start=1):
        result = answerer.ask(q.question)
        rows.append(answer_record(q, result, pages.get))
        r = rows[-1]
        log(f"  [{number:2d}/{len(questions)}] {q.id}: "
            f"{'correct' if r['correct'] else 'wrong'}, "
            f"{'abstained' if r['abstained'] else 'evidence page cited' if r['cites_evidence'] else 'evidence page not cited'}, "  # noqa: E501
            f"{r['seconds']:.1f} s")
    return rows


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


# --- output -------------------------------------------------------------------------------------


def _f(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def report(figures: dict[str, Any]) -> None:
    real = figures["real"]
    golden = figures.get("golden")
    default = figures["default_strategy"]
    base = real["summary"]["baseline"]
    print(f"\nPage level, top {K}, corpus setting (one shared store). Real: FinanceBench dev, "
          f"{real['questions']} questions over {len(real['partitions'])} filings"
          + (f"; golden: sample corpus, {golden['questions']} questions over "
             f"{len(golden['partitions'])} partitions" if golden else "") + ".")
    rows = [[f"baseline: {BASELINE_CHUNK_SIZE}/{BASELINE_OVERLAP} splits, MiniLM, FAISS", "-",
             _f(base["mrr"]), _f(base["hit_at_1"]), _f(base["hit_at_5"]),
             _f(base["recall_at_5"]), "1.00", "1.00", *(["-"] * 3 if golden else [])]]
    for strategy in figures["strategies"]:
        for kind, level in ((kind, level) for level in ("", "/pages") for kind in KINDS):
            key = f"{strategy}/{kind}{level}"
            r = real["summary"][key]
            label = strategy + (" (n/a: first stage)" if strategy in
                                figures["unavailable"] else "")
            row = [label + (" *" if strategy == default else ""),
                   kind + (", pages" if level else ""), _f(r["mrr"]),
                   _f(r["hit_at_1"]), _f(r["hit_at_5"]), _f(r["recall_at_5"]),
                   _f(r["mrr"] / base["mrr"] if base["mrr"] else None, 2),
                   _f(r["hit_at_5"] / base["hit_at_5"] if base["hit_at_5"] else None, 2)]
            if golden:
                g = golden["summary"][key]
                row += [_f(g["mrr"]), _f(g["hit_at_1"]), _f(g["hit_at_5"])]
            rows.append(row)
    headers = ["system", "chunks", "real MRR@10", "hit@1", "hit@5", "recall@5", "MRR / base",
               "hit@5 / base"]
    if golden:
        headers += ["golden MRR@10", "hit@1", "hit@5"]
    print(tabulate(rows, headers=headers, disable_numparse=True))
    for key, r in figures["ratios"].items():
        print(f"* default strategy {key}: MRR@10 {_f(r['mrr'], 2)}x the baseline's, hit@5 "
              f"{_f(r['hit_at_5'], 2)}x (issue 9 asks 2x MRR and hit@5 >= 0.6)")
    if not golden:
        print("golden set: skipped (--no-golden); `make demo` prints its MRR per strategy and "
              "kind in the corpus setting, or run this bench without --no-golden")

    print(f"\nRank of the first relevant hit per question (- = not in the top {K}):")
    per_q = []
    records = real["records"]
    shown = ["baseline", *(f"{default}/{kind}" for kind in KINDS),
             *(f"{default}/{kind}/pages" for kind in KINDS), "bm25/enriched", "dense/enriched"]
    shown = [s for s in shown if s in records]
    for i, base_row in enumerate(records["baseline"]):
        per_q.append([base_row["id"].replace("financebench_id_", "fb"),
                      f"{base_row['document']}|{base_row['year']}",
                      ",".join(map(str, base_row["relevant_pages"])),
                      *(records[s][i]["first_relevant_rank"] or "-" for s in shown),
                      records[f"{default}/enriched"][i]["scope"]])
    print(tabulate(per_q, headers=["question", "partition", "pages", *shown,
                                   f"{default} scope (enriched)"], disable_numparse=True))
    stats = real["index"]
    print(f"\nreal corpus: {real['baseline_splits']} baseline splits, "
          f"{stats['total']['naive']} naive + {stats['total']['enriched']} enriched chunks "
          f"({real['pages']} pages); embeddings computed {figures['embeddings']['computed']}, "
          f"from the cache {figures['embeddings']['cached']}")
    for strategy, reason in figures["unavailable"].items():
        print(f"{strategy}: {reason}")
    answers = figures.get("answers")
    if answers:
        report_answers(answers)


def _short(text: str | None, width: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 3] + "..."


def report_answers(answers: dict[str, Any]) -> None:
    s = answers["summary"]
    print(f"\nAnswers: the extractive engine ({answers['strategy']} over {answers['kind']} "
          "chunks), each question asked as it is over the whole store; correct = "
          "answer_correct against FinanceBench's answer; evidence = cites a labelled page")
    print(tabulate(
        [[r["id"].replace("financebench_id_", "fb"), f"{r['document']}|{r['year']}",
          ",".join(map(str, r["relevant_pages"])),
          "yes" if r["correct"] else "no",
          "abstained" if r["abstained"] else "yes" if r["cites_evidence"] else "no",
          " ".join(c.split("|")[1] if c.startswith(r["document"] + "|") else c
                   for c in r["cited"][:4]) + (" ..." if len(r["cited"]) > 4 else ""),
          r["invalid_citations"], f"{r['seconds']:.1f}", _short(r["reference"], 40)]
         for r in answers["records"]],
        headers=["question", "partition", "pages", "correct", "cites evidence",
                 "cited (year p<zero-based>)", "invalid", "s", "reference"],
        disable_numparse=True))
    print(f"answers: {s['correct']}/{s['questions']} correct ({s['accuracy']:.3f}); evidence page "
          f"cited {s['cites_evidence']}/{s['questions']} ({s['evidence_citation_rate']:.3f}; "
          f"with a valid citation {s['cites_evidence_valid']}); own filing cited "
          f"{s['cites_filing']}; abstained {s['abstained']}; invalid citations "
          f"{s['invalid_citations']} of {s['citations']}; seconds per answer p50 "
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bench; 0 on success, 2 when the dev set is missing."""
    from rag_assets.core.retrieval.retriever import STRATEGIES

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=None,
                        help="index only the first N filings that have questions")
    parser.add_argument("--questions", type=int, default=None,
                        help="ask only the first N questions of those filings")
    parser.add_argument("--no-golden", action="store_true",
                        help="skip the golden set of the sample corpus")
    parser.add_argument("--no-answers", action="store_true",
                        help="skip the answers (extractive engine) on the real questions")
    parser.add_argument("--strategies", default=",".join(STRATEGIES),
                        help=f"comma separated (default all: {','.join(STRATEGIES)})")
    parser.add_argument("--workers", type=int, default=2, help="pdf_workers of the loader")
    parser.add_argument("--cache-dir", type=Path, default=rb.CACHE_DIR,
                        help="persistent embedding cache (LanceDB folder)")
    parser.add_argument("--dev-dir", type=Path, default=DEV_DIR)
    parser.add_argument("--out", type=Path, default=OUT_JSON)
    args = parser.parse_args(argv)
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    unknown = sorted(set(strategies) - set(STRATEGIES))
    if unknown:
        parser.error(f"unknown strategies {unknown}; known: {', '.join(STRATEGIES)}")
    if not (args.dev_dir / "questions.jsonl").is_file():
        print(f"real_bench: FinanceBench dev set not found under {args.dev_dir}",
              file=sys.stderr)
        return 2
    os.environ.setdefault("LANCEDB_LOG", "error")

    from rag_assets.core.evaluation.financebench import load_financebench, select
    from rag_assets.core.retrieval.embeddings import Embedder
    from rag_assets.core.retrieval.store import VectorStore

    started = time.perf_counter()
    sections: dict[str, float] = {}
    default = default_strategy()
    data = load_financebench(args.dev_dir)
    filings, questions = select(data, args.docs, args.questions)
    embedder = Embedder(batch_size=rb.BATCH_SIZE)
    embedder.cache = VectorStore(args.cache_dir, embedder.slug,
                                 embedder.dimension).embedding_cache()
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "code": code_state(),
        "machine": {"python": platform.python_version(), "cpus": rb._cpus()},
        "model": embedder.model_name, "default_strategy": default, "strategies": strategies,
        "args": {"docs": args.docs, "questions": args.questions, "golden": not args.no_golden,
                 "answers": not args.no_answers},
    }
    embedded = {"computed": 0, "cached": 0}
    with tempfile.TemporaryDirectory(prefix="real_bench_") as tmp_name:
        tmp = Path(tmp_name)
        log(f"loading and chunking {len(filings)} filings ({len(questions)} questions) ...")
        docs, sections["real: load + chunk"] = rb.timed(
            lambda: load_dev(filings, questions, args.workers))
        for doc in docs:
            if max((p for q in doc.questions for p in q.relevant_pages), default=-1) >= len(
                    doc.pages):
                raise SystemExit(f"{doc.document}|{doc.year}: the loader read "
                                 f"{len(doc.pages)} pages, fewer than the evidence needs")
        log(f"baseline: splitting the PDFium page text ({BASELINE_CHUNK_SIZE}/"
            f"{BASELINE_OVERLAP}) and embedding (persistent cache) ...")
        splits = plain_splits(filings)
        baseline, sections["real: baseline index"] = rb.timed(
            lambda: FaissBaseline(splits, embedder))
        embedded["computed"] += baseline.stats.computed
        embedded["cached"] += baseline.stats.cached
        log(f"  {len(splits)} splits: {baseline.stats.computed} embedded, "
            f"{baseline.stats.cached} from the cache")
        log("ours: indexing naive + enriched chunks into one store, then every strategy ...")
        (records, stats, unavailable, retriever), sections["real: index + search"] = rb.timed(
            lambda: run_ours(docs, embedder, tmp / "real", strategies))
        embedded["computed"] += stats["computed"]
        embedded["cached"] += stats["cached"]
        records = {"baseline": _baseline_records(baseline, questions), **records}
        figures["real"] = {
            "questions": len(questions),
            "partitions": [f"{d.document}|{d.year}" for d in docs],
            "pages": sum(len(d.pages) for d in docs),
            "baseline_splits": len(splits),
            "index": {k: v for k, v in stats.items() if k != "aliases"},
            "aliases": stats.get("aliases", {}),
            "summary": summary(records),
            "records": records,
        }
        figures["unavailable"] = unavailable
        if not args.no_answers:
            from rag_assets.core.generation.answers import AnswerConfig

            log(f"answers: {len(questions)} questions, extractive engine over the same store ...")
            rows, sections["real: answers"] = rb.timed(lambda: run_answers(docs, retriever))
            config = AnswerConfig()
            figures["answers"] = {"engine": "extractive", "strategy": config.strategy,
                                  "kind": config.kind, "k": config.k,
                                  "summary": answer_summary(rows), "records": rows}
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
    figures["embeddings"] = embedded
    figures["ratios"] = ratios(figures["real"]["summary"], default)
    finish(figures, sections, started, args.out, report)
    compact = {k: v for k, v in figures.items() if k not in ("real", "answers")}
    compact["real"] = {k: v for k, v in figures["real"].items() if k != "records"}
    if "answers" in figures:
        compact["answers"] = {k: v for k, v in figures["answers"].items() if k != "records"}
    print("BENCH_JSON " + json.dumps(compact, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
