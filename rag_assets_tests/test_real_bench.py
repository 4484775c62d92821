"""The glue of ``bench/real_bench.py`` without the model: plain splits of a real filing, the FAISS
baseline judged like our strategies, and the ratios it prints."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from rag_assets.core.evaluation.financebench import Filing, hit_at
from rag_assets.core.evaluation.questions import GoldenQuestion
from rag_assets.core.evaluation.runs import judge

BENCH = Path(__file__).resolve().parents[1] / "bench"
DEV_PDF = BENCH.parents[1] / "shared/corpora/financebench-dev/pdfs/LOCKHEEDMARTIN_2022_10K.pdf"


@pytest.fixture(scope="module")
def real_bench():  # type: ignore[no-untyped-def]
    pytest.importorskip("faiss")
    pytest.importorskip("langchain_text_splitters")
    sys.path.insert(0, str(BENCH))
    try:
        yield importlib.import_module("real_bench")
    finally:
        sys.path.remove(str(BENCH))


class _Embedder:
    """Bag-of-letters vectors: enough to rank a split that shares the question's words."""

    dimension = 26

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dimension, dtype=np.float32)
        for ch in text.lower():
            if "a" <= ch <= "z":
                vector[ord(ch) - 97] += 1
        return vector / (np.linalg.norm(vector) or 1.0)

    def embed(self, texts: list[str]) -> tuple[np.ndarray, object]:
        stats = type("Stats", (), {"computed": len(texts), "cached": 0})()
        return np.stack([self._vector(t) for t in texts]), stats

    def embed_query(self, question: str) -> np.ndarray:
        return self._vector(question)


def test_faiss_baseline_is_judged_at_page_level(real_bench) -> None:  # type: ignore[no-untyped-def]
    splits = [{"document": "d", "year": 2020, "page": p, "text": t}
              for p, t in ((0, "zzzz qqqq"), (4, "balance sheet assets"), (7, "xxxx"))]
    baseline = real_bench.FaissBaseline(splits, _Embedder())
    hits, latency = baseline.search("balance sheet assets", k=3)
    assert [h.page_start for h in hits][0] == 4 and latency >= 0
    question = GoldenQuestion(id="q", document="d", year=2020, question="?", category="factual",
                              relevant_pages=[4])
    page, _ = judge(question, hits)
    row = real_bench.record(question, page, latency, None, hits)
    assert (row["mrr"], row["hit_at_1"], row["hit_at_5"], row["first_relevant_rank"]) == (
        1.0, 1.0, 1.0, 1)
    other = question.model_copy(update={"year": 2021})  # same pages, another year: no credit
    assert judge(other, hits)[0].mrr == 0.0


def test_ratios_and_means(real_bench) -> None:  # type: ignore[no-untyped-def]
    rows = [{"mrr": m, "hit_at_1": hit_at(m, 1), "hit_at_5": hit_at(m, 5), "recall_at_5": 0.0,
             "ndcg_at_10": 0.0, "latency_ms": 1.0} for m in (1.0, 0.25, 0.0, 0.0)]
    table = {"baseline": real_bench.means(rows[1:]), "routed/naive": real_bench.means(rows),
             "routed/enriched": real_bench.means(rows[2:])}
    assert table["routed/naive"]["hit_at_5"] == 0.5 and table["baseline"]["hit_at_1"] == 0.0
    ratios = real_bench.ratios(table, "routed")
    assert ratios["routed/naive"]["mrr"] == pytest.approx((1.25 / 4) / (0.25 / 3))
    assert ratios["routed/naive"]["hit_at_1"] is None  # the baseline never hit at 1
    assert ratios["routed/enriched"]["mrr"] == 0.0


@pytest.mark.skipif(not DEV_PDF.is_file(), reason=f"{DEV_PDF} not found")
def test_plain_splits_keep_one_page_each(real_bench, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    filing = Filing(doc_name="LOCKHEEDMARTIN_2022_10K", company="Lockheed Martin",
                    document="lockheed-martin-10k", year=2022, pdf=DEV_PDF)
    splits = real_bench.plain_splits([filing])
    pages = real_bench.pdfium_page_texts(DEV_PDF)
    assert len(splits) > len(pages)
    assert all(len(s["text"]) <= real_bench.BASELINE_CHUNK_SIZE for s in splits)
    assert all(s["text"] in pages[s["page"]] for s in splits)
    assert {s["page"] for s in splits} >= {62}  # the income statement page of the dev question


def test_answer_records_and_their_summary(real_bench) -> None:  # type: ignore[no-untyped-def]
    from rag_assets.core.generation.records import ABSTENTION, Claim, QAResult, SourceCitation

    question = GoldenQuestion(
        id="q", document="d", year=2020, category="factual", relevant_pages=[85],
        question="How much (in USD billions) did it pay out in cash dividends for FY2020?",
        answer="$0.40")
    pages = {("d", 2020, 85): "Dividends paid (400)", ("d", 2020, 105): "paid $400 million"}

    def page_text(document: str, year: int, page: int) -> str | None:
        return pages.get((document, year, page))

    def cite(year: int, page: int, mark: str) -> SourceCitation:
        return SourceCitation(document="d", year=year, page=page, quote="paid", mark=mark)

    text = "The Company paid $400 million in cash dividends in 2020."
    right = QAResult(question=question.question, answer=f"{text} [1] [2, invalid]", seconds=2.0,
                     claims=[Claim(text=text, citations=[cite(2020, 85, "valid"),
                                                         cite(2020, 105, "invalid")])])
    other_year = QAResult(question=question.question, answer="It paid $0.52 billion. [1]",
                          seconds=4.0, claims=[Claim(text="It paid $0.52 billion.",
                                                     citations=[cite(2021, 85, "valid")])])
    refused = QAResult(question=question.question, answer=ABSTENTION, abstained=True,
                       seconds=1.0)
    rows = [real_bench.answer_record(question, r, page_text) for r in (right, other_year,
                                                                       refused)]
    assert [r["correct"] for r in rows] == [True, False, False]  # 400 million is 0.40 billion
    # evidence: a labelled page of the question's own filing (zero-based), any mark
    assert [r["cites_evidence"] for r in rows] == [True, False, False]
    assert [r["cites_filing"] for r in rows] == [True, False, False]
    assert rows[0]["cited"] == ["d|2020 p85", "d|2020 p105 invalid"]
    assert [r["invalid_citations"] for r in rows] == [1, 1, 0]  # d|2021 p85 is not stored
    summary = real_bench.answer_summary(rows)
    assert (summary["questions"], summary["correct"], summary["cites_evidence"],
            summary["abstained"], summary["invalid_citations"]) == (3, 1, 1, 1, 2)
    assert summary["evidence_citation_rate"] == pytest.approx(1 / 3)
    assert (summary["seconds_p50"], summary["seconds_p95"]) == (2.0, pytest.approx(3.8))
