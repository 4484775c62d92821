"""Seconds per answer of the extractive engine, against the retrieval alone, on a real store.

The store is built here, as ``real_bench.py`` builds its own (``real_bench.load_partition``:
``process_report``, the ingest step's chain, to naive and enriched chunks; then
``retrieval_bench.index_ours``: both kinds in ONE LanceDB store with the routing profiles):

- the sample earnings release (``exemplar-corp-earnings`` 2024) and the six annual reports
  (Northwind and Bluefin, 2022-2024), generated in a temporary folder;
- when ``../shared/corpora`` exists, 3M's 2018 10-K restricted to its statements (page indices
  50-62, Item 8: the statements and the first notes, the subset the generation tests index);
  every page of the filing stays citable.

The questions are those reports' golden questions (for 3M, the ones whose evidence lies in the
subset, plus its unanswerable ones), unanswerable ones included: an abstention costs time too.

For every question, alternating which goes first from round to round:

- **answer**: ``Answerer(retriever, pages).ask(question)`` (extractive engine, default
  ``AnswerConfig``), wall seconds; split into the time spent inside ``Retriever.search`` (every
  search the answer makes: its first retrieval, alternative phrasings, a retry with more chunks)
  and the rest (planning the parts, MMR and unit vectors, scoring, composing, verifying the
  citations), with the model's encodes outside the searches reported on their own;
- **retrieval** (the baseline): ``Retriever.search(question, "routed", "enriched")``, wall
  seconds.

Both start cold for the question: before each timed call the retriever gets a fresh
``Embedder`` (same model, loaded once per process) whose cache serves the indexed chunks'
vectors from the persistent embedding cache, as the store's cache does after indexing (the
answer's MMR reads them there), but never a question's and keeps nothing: both pay for embedding
the question, as a user's new question does. ``--scope partition`` asks both within the
question's own document and year (as ``rag-assets ask --document --year``); the default asks
over the whole store (routing finds the report). The answers of the first round are also scored
(:func:`rag_assets.core.evaluation.answer_metrics.score_answer`: fact recall, abstentions,
invalid citations), so that the timings can be read beside what was answered.

Run: ``make bench`` (part of it) or ``.venv/bin/python bench/answer_bench.py [--rounds N]
[--scope corpus|partition] [--no-3m]``. Prints tables, then one ``BENCH_JSON {...}`` line; the
figures and every question's timings go to ``bench/out/answer.json``.
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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tabulate import tabulate

sys.path.insert(0, str(Path(__file__).resolve().parent))
import real_bench  # noqa: E402 - the bench folder is not a package
import retrieval_bench as rb  # noqa: E402

REPO = rb.REPO
OUT_JSON = REPO / "bench" / "out" / "answer.json"
THREE_M = ("3m-10k", 2018)
THREE_M_PAGES = range(50, 63)  # Item 8: the statements and the first notes
STRATEGY, KIND = "routed", "enriched"
log = rb.log


# --- the corpus ---------------------------------------------------------------------------------


def restrict(doc: rb.Doc, pages: range) -> rb.Doc:
    """``doc`` with only the chunks that lie within ``pages`` (every page kept, to cite) and the
    questions answered there (unanswerable ones kept: the subset does not hold them either)."""
    return rb.Doc(
        document=doc.document, year=doc.year, pages=doc.pages,
        naive=[c for c in doc.naive if c.page_start in pages and c.page_end in pages],
        enriched=[c for c in doc.enriched if c.page_start in pages and c.page_end in pages],
        questions=[q for q in doc.questions
                   if not q.answerable or set(q.relevant_pages) <= set(pages)],
        footnotes=doc.footnotes, load_s=doc.load_s, profile=doc.profile,
    )


def load_reports(data_dir: Path, with_3m: bool, workers: int) -> list[rb.Doc]:
    """The earnings release, the six annual reports and (when the corpora are here) 3M's
    statements, loaded and chunked as the ingest assets do, with all their golden questions."""
    from rag_assets.core.evaluation.questions import read_questions
    from rag_assets.samples.annual_reports import build_annual_reports
    from rag_assets.samples.corpus import build_real_filings
    from rag_assets.samples.earnings import build_earnings_release

    reports, questions = data_dir / "reports", data_dir / "questions"
    files = [*build_earnings_release(reports, questions), *build_annual_reports(reports, questions)]
    if with_3m and rb.CORPORA.exists():
        files += [f for f in build_real_filings(reports, questions, rb.CORPORA)
                  if (f.document, f.year) == THREE_M]
    docs = []
    for sample in files:
        asked = read_questions(sample.questions_path) if sample.questions_path else []
        doc = real_bench.load_partition(sample.path, sample.document, sample.year, asked,
                                        workers)
        if (doc.document, doc.year) == THREE_M:
            doc = restrict(doc, THREE_M_PAGES)
        log(f"  {doc.document}|{doc.year}: {len(doc.pages)} pages, {len(doc.naive)} naive + "
            f"{len(doc.enriched)} enriched chunks, {len(doc.questions)} questions, "
            f"{doc.load_s:.1f} s")
        docs.append(doc)
    return docs


# --- timing ---------------------------------------------------------------------------------


@dataclass
class Meter:
    """Wall seconds inside ``Retriever.search`` and inside the model's encodes made outside
    the searches, during one timed call."""

    search_s: float = 0.0
    searches: int = 0
    encode_s: float = 0.0
    encodes: int = 0
    encoded_texts: int = 0
    search_encode_s: float = 0.0  # the question's vectors, inside the searches
    depth: int = 0

    def reset(self) -> None:
        self.search_s = self.encode_s = self.search_encode_s = 0.0
        self.searches = self.encodes = self.encoded_texts = 0


def instrument(retriever: Any, meter: Meter) -> None:
    """Wrap the retriever's ``search`` (on the instance) so that ``meter`` counts it."""
    search = retriever.search

    def timed_search(*args: Any, **kwargs: Any) -> Any:
        meter.depth += 1
        started = time.perf_counter()
        try:
            return search(*args, **kwargs)
        finally:
            meter.search_s += time.perf_counter() - started
            meter.searches += 1
            meter.depth -= 1

    retriever.search = timed_search


class ChunkVectors:
    """An embedding cache that serves only the indexed chunks' vectors (from ``inner``, the
    persistent cache, so lookups cost what they cost the platform) and writes nothing: a
    question, a rephrasing or a unit is never found there, so it is encoded every time."""

    def __init__(self, inner: Any, keys: set[str]) -> None:
        self.inner = inner
        self.keys = keys

    def get_many(self, keys: Sequence[str]) -> dict[str, Any]:
        return self.inner.get_many([k for k in keys if k in self.keys])

    def put_many(self, vectors: dict[str, Any]) -> None:
        return None


def chunk_vectors(docs: Sequence[rb.Doc], embedder: Any) -> ChunkVectors:
    from rag_assets.core.retrieval.embeddings import content_key

    keys = {content_key(embedder.document_prefix + c.search_text)
            for d in docs for c in (*d.naive, *d.enriched)}
    return ChunkVectors(embedder.cache, keys)


def cold_embedder(meter: Meter, model: str, cache: ChunkVectors) -> Any:
    """A new ``Embedder`` of the loaded model with the chunks' vectors and no memoized
    question, whose encodes ``meter`` counts (inside and outside the searches apart)."""
    from rag_assets.core.retrieval.embeddings import Embedder
    from rag_assets.core.settings import Settings

    embedder = Embedder(model, batch_size=rb.BATCH_SIZE, cache=cache,  # type: ignore[arg-type]
                        backend=Settings().embeddings.backend)
    encode = embedder.encode

    def timed_encode(texts: Sequence[str]) -> Any:
        started = time.perf_counter()
        try:
            return encode(texts)
        finally:
            if meter.depth:
                meter.search_encode_s += time.perf_counter() - started
            else:
                meter.encode_s += time.perf_counter() - started
                meter.encodes += 1
                meter.encoded_texts += len(texts)

    embedder.encode = timed_encode  # type: ignore[method-assign]
    return embedder


@dataclass
class Timings:
    answer_s: list[float] = field(default_factory=list)
    search_s: list[float] = field(default_factory=list)
    searches: list[int] = field(default_factory=list)
    encode_s: list[float] = field(default_factory=list)
    retrieval_s: list[float] = field(default_factory=list)
    answer_cpu_s: list[float] = field(default_factory=list)
    retrieval_cpu_s: list[float] = field(default_factory=list)
    retrieval_encode_s: list[float] = field(default_factory=list)
    encoded_texts: list[int] = field(default_factory=list)


def run(docs: Sequence[rb.Doc], embedder: Any, store_dir: Path, rounds: int, scoped: bool
        ) -> tuple[list[dict[str, Any]], list[Any], dict[str, Any]]:
    """Index ``docs`` in one store, then time every question's answer and retrieval."""
    from rag_assets.core.evaluation.answer_metrics import score_answer
    from rag_assets.core.generation.answers import Answerer
    from rag_assets.core.generation.page_texts import PageTexts
    from rag_assets.core.retrieval.retriever import Retriever, Scope

    store, stats = rb.index_ours(docs, embedder, store_dir)
    pages = PageTexts()
    for doc in docs:
        pages.add(doc.document, doc.year, doc.pages)
    meter = Meter()
    vectors = chunk_vectors(docs, embedder)
    retriever = Retriever(store, embedder)
    instrument(retriever, meter)
    answerer = Answerer(retriever, pages)
    questions = [q for d in docs for q in d.questions]

    def scope_of(q: Any) -> Scope | None:
        return Scope.partition(q.document, q.year) if scoped else None

    def answer(q: Any) -> Any:
        return answerer.ask(q.question, *((q.document, q.year) if scoped else ()))

    def retrieve(q: Any) -> Any:
        return retriever.search(q.question, STRATEGY, KIND, scope=scope_of(q))

    # warm-up: open the tables and indices, load the lexicon and the model
    retriever.embedder = cold_embedder(meter, embedder.model_name, vectors)
    answer(questions[0])
    retrieve(questions[0])

    timings = {q.id: Timings() for q in questions}
    results: dict[str, Any] = {}
    for round_ in range(rounds):
        started = time.perf_counter()
        for i, q in enumerate(questions):
            t = timings[q.id]
            steps: list[tuple[str, Callable[[Any], Any]]] = [("answer", answer),
                                                             ("retrieval", retrieve)]
            if (round_ + i) % 2:
                steps.reverse()
            for name, call in steps:
                retriever.embedder = cold_embedder(meter, embedder.model_name, vectors)
                meter.reset()
                t0, cpu0 = time.perf_counter(), time.process_time()
                out = call(q)
                seconds = time.perf_counter() - t0
                cpu = time.process_time() - cpu0
                if name == "retrieval":
                    t.retrieval_s.append(seconds)
                    t.retrieval_cpu_s.append(cpu)
                    t.retrieval_encode_s.append(meter.search_encode_s)
                    continue
                t.answer_s.append(seconds)
                t.answer_cpu_s.append(cpu)
                t.search_s.append(meter.search_s)
                t.searches.append(meter.searches)
                t.encode_s.append(meter.encode_s)
                t.encoded_texts.append(meter.encoded_texts)
                results.setdefault(q.id, out)
        log(f"  round {round_ + 1}: {len(questions)} questions, answer + retrieval, "
            f"{time.perf_counter() - started:.1f} s")
    retriever.embedder = embedder

    records, scores = [], []
    for q in questions:
        t, result = timings[q.id], results[q.id]
        score = score_answer(q, result, pages.get)
        scores.append(score)
        records.append({
            "id": q.id, "document": q.document, "year": q.year, "category": q.category,
            "answer_s": t.answer_s, "search_s": t.search_s, "searches": t.searches,
            "encode_s": t.encode_s, "retrieval_s": t.retrieval_s,
            "answer_cpu_s": t.answer_cpu_s, "retrieval_cpu_s": t.retrieval_cpu_s,
            "retrieval_encode_s": t.retrieval_encode_s, "encoded_texts": t.encoded_texts,
            "abstained": result.abstained, "answer": result.answer,
            "claims": len(result.claims),
            "sources": len(result.sources_used),
            "guardrails": [e.name for e in result.guardrail_events],
            "fact_recall": score.fact_recall, "invalid_citations": score.invalid_citations,
        })
    stats["chunks"] = {f"{d.document}|{d.year}": {"pages": len(d.pages), "naive": len(d.naive),
                                                  "enriched": len(d.enriched)} for d in docs}
    return records, scores, stats


# --- figures ------------------------------------------------------------------------------------


def distribution(values: Sequence[float]) -> dict[str, float]:
    return {"n": len(values), "p50": rb.percentile(values, 50), "p95": rb.percentile(values, 95),
            "mean": rb.mean(values), "max": max(values, default=0.0)}


def figures_of(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Distributions over every timed call (questions x rounds), overall and by group."""

    def pooled(rows: Sequence[dict[str, Any]], key: str) -> list[float]:
        return [v for r in rows for v in r[key]]

    def table(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
        answer, retrieval = pooled(rows, "answer_s"), pooled(rows, "retrieval_s")
        search, encode = pooled(rows, "search_s"), pooled(rows, "encode_s")
        reading = [a - s for a, s in zip(answer, search, strict=True)]
        out = {
            "questions": len(rows),
            "answer_s": distribution(answer),
            "answer_search_s": distribution(search),
            "answer_reading_s": distribution(reading),
            "answer_encode_outside_search_s": distribution(encode),
            "searches_per_answer": rb.mean(pooled(rows, "searches")),
            "texts_encoded_per_answer": distribution(pooled(rows, "encoded_texts")),
            "retrieval_s": distribution(retrieval),
            "answer_cpu_s": distribution(pooled(rows, "answer_cpu_s")),
            "retrieval_cpu_s": distribution(pooled(rows, "retrieval_cpu_s")),
            "retrieval_encode_s": distribution(pooled(rows, "retrieval_encode_s")),
        }
        for q in ("p50", "p95", "mean"):
            base = out["retrieval_s"][q]
            out[f"ratio_{q}"] = out["answer_s"][q] / base if base else None
        base = out["retrieval_cpu_s"]["p50"]
        out["ratio_cpu_p50"] = out["answer_cpu_s"]["p50"] / base if base else None
        out["search_share_of_answer"] = (sum(search) / sum(answer)) if sum(answer) else None
        return out

    groups: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        group = ("annual reports" if r["document"].endswith("-annual") else
                 "3M statements" if (r["document"], r["year"]) == THREE_M else
                 "earnings release" if r["document"] == "exemplar-corp-earnings" else
                 r["document"])
        groups.setdefault(group, []).append(r)
        groups.setdefault("answered" if not r["abstained"] else "abstained", []).append(r)
    return {"all": table(records), **{name: table(rows) for name, rows in groups.items()}}


def report(figures: dict[str, Any]) -> None:
    by = figures["timings"]
    print(f"\nSeconds per question, {figures['rounds']} round(s), scope "
          f"{figures['scope']}; answer = Answerer.ask (extractive), retrieval = "
          f"Retriever.search(question, '{STRATEGY}', '{KIND}'); both embed the question cold.")
    rows = []
    for name, t in by.items():
        rows.append([
            name, t["questions"],
            f"{t['answer_s']['p50']:.3f}", f"{t['answer_s']['p95']:.3f}",
            f"{t['answer_search_s']['p50']:.3f}", f"{t['answer_reading_s']['p50']:.3f}",
            f"{t['answer_reading_s']['p95']:.3f}",
            f"{t['answer_encode_outside_search_s']['p50']:.3f}",
            f"{t['searches_per_answer']:.2f}",
            f"{t['retrieval_s']['p50']:.3f}", f"{t['retrieval_s']['p95']:.3f}",
            f"{t['ratio_p50']:.1f}x" if t["ratio_p50"] else "-",
            f"{t['ratio_p95']:.1f}x" if t["ratio_p95"] else "-",
        ])
    print(tabulate(rows, headers=[
        "questions", "n", "answer p50", "p95", "in search p50", "reading p50", "reading p95",
        "encodes (reading) p50", "searches/answer", "retrieval p50", "p95", "ratio p50",
        "ratio p95"], disable_numparse=True))
    a = by["all"]
    print(f"\nanswer = {a['ratio_p50']:.1f} x retrieval (p50: {a['answer_s']['p50']:.3f} s against "
          f"{a['retrieval_s']['p50']:.3f} s; p95: {a['answer_s']['p95']:.3f} s against "
          f"{a['retrieval_s']['p95']:.3f} s, {a['ratio_p95']:.1f}x); searches are "
          f"{100 * a['search_share_of_answer']:.0f}% of the answer time; the question's "
          f"vectors are {a['retrieval_encode_s']['p50']:.3f} s (p50) of the retrieval")
    print(f"texts the answer encodes outside its searches (evidence units, rephrasings): p50 "
          f"{a['texts_encoded_per_answer']['p50']:.0f}, p95 "
          f"{a['texts_encoded_per_answer']['p95']:.0f}")
    print(f"process CPU time (all threads), p50: answer {a['answer_cpu_s']['p50']:.3f} s, "
          f"retrieval {a['retrieval_cpu_s']['p50']:.3f} s, ratio {a['ratio_cpu_p50']:.1f}x; "
          f"load average at the start {figures['machine']['load_start']}, at the end "
          f"{figures['machine']['load_end']}")
    q = figures["quality"]
    print(f"answers of round 1: {q['answerable']} answerable, {q['unanswerable']} unanswerable; "
          f"fact recall {q['fact_recall']:.3f} over {q['fact_questions']}, abstention accuracy "
          f"{q['abstention_accuracy']:.3f}, false abstentions {q['false_abstention_rate']:.3f}, "
          f"invalid citations {q['invalid_citations']}")
    slow = sorted(figures["records"], key=lambda r: -max(r["answer_s"]))[:5]
    print("slowest answers: " + "; ".join(
        f"{r['id']} {max(r['answer_s']):.2f} s ({max(r['searches'])} searches"
        f"{', abstained' if r['abstained'] else ''})" for r in slow))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=1,
                        help="timed passes over the questions (the order of answer and "
                             "retrieval alternates from question to question and round to "
                             "round)")
    parser.add_argument("--scope", choices=("corpus", "partition"), default="corpus",
                        help="ask over the whole store (default) or the question's partition")
    parser.add_argument("--no-3m", action="store_true", help="leave out 3M's statements")
    parser.add_argument("--questions", type=int, default=None,
                        help="time only the first N questions of each report")
    parser.add_argument("--workers", type=int, default=2, help="pdf_workers of the loader")
    parser.add_argument("--cache-dir", type=Path, default=rb.CACHE_DIR,
                        help="persistent embedding cache of the chunks (LanceDB folder)")
    parser.add_argument("--out", type=Path, default=OUT_JSON)
    args = parser.parse_args(argv)
    os.environ.setdefault("LANCEDB_LOG", "error")

    from rag_assets.core.evaluation.answer_metrics import summarize_answers
    from rag_assets.core.retrieval.embeddings import Embedder
    from rag_assets.core.retrieval.store import VectorStore
    from rag_assets.core.settings import Settings

    started = time.perf_counter()
    load_start = [round(x, 2) for x in os.getloadavg()]
    embedder = Embedder(batch_size=rb.BATCH_SIZE, backend=Settings().embeddings.backend)
    VectorStore.of(embedder, args.cache_dir)  # the embedder gets the store's cache
    sections: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="answer_bench_") as tmp_name:
        tmp = Path(tmp_name)
        log("loading and chunking the reports ...")
        docs, sections["load + chunk"] = rb.timed(
            lambda: load_reports(tmp / "data", not args.no_3m, args.workers))
        if args.questions is not None:
            for doc in docs:
                doc.questions = doc.questions[: args.questions]
        log("indexing (persistent embedding cache), then answering ...")
        (records, scores, stats), sections["index + time"] = rb.timed(
            lambda: run(docs, embedder, tmp / "store", args.rounds, args.scope == "partition"))
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "code": real_bench.code_state(),
        "machine": {"python": platform.python_version(), "cpus": rb._cpus(),
                    "load_start": load_start,
                    "load_end": [round(x, 2) for x in os.getloadavg()]},
        "model": embedder.model_name, "strategy": STRATEGY, "kind": KIND,
        "rounds": args.rounds, "scope": args.scope,
        "partitions": [f"{d.document}|{d.year}" for d in docs],
        "pages": sum(len(d.pages) for d in docs),
        "index": {k: v for k, v in stats.items() if k != "aliases"},
        "timings": figures_of(records),
        "quality": summarize_answers(scores),
        "records": records,
    }
    real_bench.finish(figures, sections, started, args.out, report)
    compact = {k: v for k, v in figures.items() if k not in ("records", "index")}
    print("BENCH_JSON " + json.dumps(compact, separators=(",", ":"), default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
