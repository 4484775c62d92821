"""The glue of ``bench/real_bench.py`` without the model: plain splits of a real filing, the FAISS
baseline judged like our strategies, and the ratios it prints."""

from __future__ import annotations

import importlib
import json
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
    assert [h.page_start for h in hits][0] == 4 and latency > 0
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
    # the answers by how their first sentence was reached, per type: totals, no question
    right.method, refused.method = "computed value", "abstained"
    other_year.method = "quoted, a row missing"
    labelled = [{**real_bench.answer_record(question, r, page_text, asks="figure"),
                 "type": "metrics"} for r in (right, other_year, refused)]
    by_method = real_bench.answer_breakdown(labelled)["method"]
    assert {g: (a["correct"], a["questions"]) for g, a in by_method.items()} == {
        "metrics: computed value": (1, 1), "metrics: quoted, a row missing": (0, 1),
        "metrics: abstained": (0, 1)}
    # and per the form the question asks, the method without its missing-operand note
    by_form = real_bench.answer_breakdown(labelled)["asks"]
    assert {g: (a["correct"], a["questions"]) for g, a in by_form.items()} == {
        "metrics: asks figure, computed value": (1, 1),
        "metrics: asks figure, quoted": (0, 1), "metrics: asks figure, abstained": (0, 1)}


def _answer(text: str, page: int = 85, mark: str = "valid") -> object:
    from rag_assets.core.generation.records import Claim, QAResult, SourceCitation

    citation = SourceCitation(document="d", year=2020, page=page, quote="q", mark=mark)
    return QAResult(question="?", answer=text, seconds=1.0,
                    claims=[Claim(text=text, citations=[citation])])


def test_answer_record_judges_the_first_sentence(real_bench) -> None:  # type: ignore[no-untyped-def]
    question = GoldenQuestion(
        id="q", document="d", year=2020, category="factual", relevant_pages=[85],
        question="What is the FY2020 unadjusted EBITDA? Answer in USD millions.",
        answer="$1832.00")
    pages = {("d", 2020, 85): "Operating income 1,196 Depreciation 636"}

    def page_text(document: str, year: int, page: int) -> str | None:
        return pages.get((document, year, page))

    first = real_bench.answer_record(
        question, _answer("Unadjusted EBITDA was $1,832 million. [1]"), page_text)
    buried = real_bench.answer_record(
        question, _answer("Operating income was $1,196 million [1]. D&A was $636 million. "
                          "EBITDA: $1,832 million."), page_text)
    mismatch = real_bench.answer_record(
        question, _answer("EBITDA was $1,832 million. [1, context mismatch]", 85,
                          "context_mismatch"), page_text)
    assert (first["correct"], first["correct_lenient"]) == (True, True)
    assert (buried["correct"], buried["correct_lenient"]) == (False, True)
    assert buried["lead"] == "Operating income was $1,196 million."
    assert (first["all_cited_valid"], first["citations_valid"], first["invalid_citations"]) == (
        True, 1, 0)
    assert (mismatch["all_cited_valid"], mismatch["invalid_citations"]) == (False, 1)
    summary = real_bench.answer_summary([first, buried, mismatch])
    assert (summary["correct"], summary["correct_lenient"], summary["all_cited_valid"],
            summary["answers_citing"], summary["citations_valid"]) == (2, 3, 2, 3, 2)


def _rank_row(qid: str, mrr: float) -> dict[str, object]:
    return {"id": qid, "mrr": mrr, "hit_at_1": hit_at(mrr, 1), "hit_at_5": hit_at(mrr, 5),
            "recall_at_5": 0.0, "ndcg_at_10": 0.0, "latency_ms": 1.0}


LABELS = {"m1": {"type": "metrics", "raw_type": "metrics-generated", "kind": "10-K"},
          "m2": {"type": "metrics", "raw_type": "metrics-generated", "kind": "10-Q"},
          "p1": {"type": "prose", "raw_type": "novel-generated", "kind": "earnings"}}


def test_breakdowns_per_question_type_and_filing_kind(real_bench) -> None:  # type: ignore[no-untyped-def]
    default = real_bench.default_system("routed")
    assert default == "routed/enriched/pages"
    records = {
        "baseline": [_rank_row("m1", 0.0), _rank_row("m2", 0.5), _rank_row("p1", 0.0)],
        default: [_rank_row("m1", 1.0), _rank_row("m2", 0.2), _rank_row("p1", 1 / 7)],
    }
    for rows in records.values():
        real_bench.label_rows(rows, LABELS, "wide")
    prose = records[default][2]
    assert (prose["set"], prose["type"], prose["raw_type"], prose["kind"]) == (
        "wide", "prose", "novel-generated", "earnings")
    table = real_bench.retrieval_breakdown(records, ["baseline", default, "absent"])
    assert list(table["type"][default]) == ["metrics", "prose"]  # the documented order
    assert list(table["kind"][default]) == ["10-K", "10-Q", "earnings"]
    metrics = table["type"][default]["metrics"]
    assert (metrics["questions"], metrics["mrr"], metrics["hit_at_1"], metrics["hit_at_5"]) == (
        2, pytest.approx(0.6), 0.5, 1.0)
    assert table["type"][default]["prose"]["hit_at_5"] == 0.0  # rank 7
    assert table["kind"]["baseline"]["10-Q"]["mrr"] == 0.5
    assert "absent" not in table["type"]
    # a group outside the documented order comes after it, by name
    odd = real_bench.label_rows([_rank_row("x", 1.0)], {}, "dev")
    assert odd[0]["type"] == "other" and odd[0]["set"] == "dev"
    assert [g for g, _ in real_bench.grouped([*records[default], *odd], "type",
                                             real_bench.QUESTION_TYPE_ORDER)] == [
        "metrics", "prose", "other"]


def test_answer_breakdown_and_acceptance(real_bench) -> None:  # type: ignore[no-untyped-def]
    def answer(qid: str, correct: bool, lenient: bool, invalid: int) -> dict[str, object]:
        return {"id": qid, "correct": correct, "correct_lenient": lenient, "abstained": False,
                "cites_evidence": correct, "cites_evidence_valid": correct, "cites_filing": True,
                "citations": 2, "citations_valid": 2 - invalid, "invalid_citations": invalid,
                "all_cited_valid": invalid == 0, "seconds": 1.0}

    rows = real_bench.label_rows([answer("m1", True, True, 0), answer("m2", False, True, 1),
                                  answer("p1", True, True, 0)], LABELS, "wide")
    by = real_bench.answer_breakdown(rows)
    assert (by["type"]["metrics"]["correct"], by["type"]["metrics"]["correct_lenient"],
            by["type"]["metrics"]["invalid_citations"]) == (1, 2, 1)
    assert by["kind"]["earnings"]["questions"] == 1
    base = _rank_row("m1", 0.25)
    default = real_bench.default_system("routed")
    figures = {"default_strategy": "routed", "sets": {"wide": {
        "role": real_bench.SET_ROLES["wide"], "questions": 3,
        "summary": {"baseline": real_bench.means([base]),
                    default: real_bench.means([_rank_row("m1", 1.0)])},
        "answers": {"summary": real_bench.answer_summary(rows), "records": rows}}}}
    wide, metrics = real_bench.acceptance(figures)
    assert wide["set"] == "wide" and wide["role"].startswith("held out")
    assert (wide["mrr"], wide["baseline_mrr"], wide["correct"], wide["correct_lenient"]) == (
        1.0, 0.25, 2, 3)
    assert wide["targets"] == {"mrr": 0.60, "hit_at_5": 0.75, "correct": 24}
    assert (metrics["metrics_questions"], metrics["metrics_correct"]) == (2, 1)
    assert metrics["metrics_accuracy"] == 0.5


def test_run_answers_hands_a_facts_provider_to_the_answerer(real_bench) -> None:  # type: ignore[no-untyped-def]
    seen = []

    def answerer(retriever: object, pages: object, facts: object) -> object:
        seen.append((retriever, facts))
        return None

    provider = object()
    assert real_bench.run_answers([], "retriever", facts=provider, answerer=answerer) == []
    assert real_bench.run_answers([], "retriever", answerer=answerer) == []
    assert seen == [("retriever", provider), ("retriever", None)]


def test_a_held_out_sets_progress_names_no_question(real_bench, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """analyst-check's answers are logged as they come, without their ids or verdicts."""
    from types import SimpleNamespace

    question = GoldenQuestion(id="analyst_check_07", document="d", year=2020,
                              category="factual", relevant_pages=[0], question="secret?",
                              answer="42")
    doc = SimpleNamespace(document="d", year=2020, pages=[], questions=[question])
    scope = SimpleNamespace(documents=["d"])
    engine = SimpleNamespace(
        ask=lambda text: _answer("It is 42.", page=0),
        read=lambda text: SimpleNamespace(text=text, expects="figure"),
        config=SimpleNamespace(kind="enriched"),
        retriever=SimpleNamespace(resolve_scope=lambda question, kind: scope))
    lines: list[str] = []
    monkeypatch.setattr(real_bench, "log", lines.append)
    for held_out in (True, False):
        rows = real_bench.run_answers([doc], "retriever", answerer=lambda *a: engine,
                                      held_out=held_out)
        assert rows[0]["correct"] and rows[0]["asks"] == "figure"
    assert lines[0] == "  [ 1/1] answered"
    assert "analyst_check_07: correct" in lines[1]


def test_sets_are_checked_before_anything_loads(real_bench, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exc:
        real_bench.main(["--sets", "dev,other"])
    assert exc.value.code == 2  # argparse: unknown set
    assert real_bench.main(["--sets", "wide", "--wide-dir", str(tmp_path)]) == 2
    assert set(real_bench.SETS) == {"dev", "wide", "prose-dev", "analyst-tune",
                                    "analyst-paraphrases", "analyst-check", "analyst-fresh",
                                    "analyst-fresh-held", "analyst-open",
                                    "analyst-open-held", "fresh-reading"} == set(
        real_bench.SET_ROLES)
    assert real_bench.DEFAULT_SETS == ("dev", "wide")  # the project's own sets run when asked
    assert all(path.is_file() for path in real_bench.QUESTION_FILES.values())


def test_a_held_out_set_keeps_only_its_totals(real_bench) -> None:  # type: ignore[no-untyped-def]
    """Whoever chooses answer rules reads the bench's output: analyst-check's questions,
    ranks and answers are neither printed nor written, its totals are."""
    record = {"id": "q1", "question": "secret", "lead": "secret answer"}
    figures = {"sets": {name: {"records": {"baseline": [record]},
                               "answers": {"records": [record], "summary": {"correct": 1}}}
                        for name in ("analyst-tune", "analyst-check")}}
    real_bench.withhold(figures)
    check, tune = figures["sets"]["analyst-check"], figures["sets"]["analyst-tune"]
    assert check["records"] == {} and check["answers"]["records"] == []
    assert check["answers"]["summary"] == {"correct": 1} and check["held_out"]
    assert tune["records"]["baseline"] == [record] and "held_out" not in tune
    assert "secret" not in json.dumps(check)


def test_facts_provider_reads_each_filing_once_and_keeps_errors(real_bench, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import rag_assets.core.ingest.filing_facts as facts_module

    calls = []

    def read_facts(document: str, year: int, pages: list[object]) -> list[str]:
        calls.append((document, year, len(pages)))
        if document == "bad":
            raise ValueError("no statement table")
        return [f"{document} {year} fact"]

    monkeypatch.setattr(facts_module, "read_facts", read_facts)

    def doc(document: str) -> object:
        return real_bench.rb.Doc(document=document, year=2020, pages=["p0", "p1"], naive=[],
                                 enriched=[], questions=[], footnotes=[])

    provider = real_bench.facts_provider([doc("a"), doc("bad")])
    assert provider is not None
    assert provider("a", 2020) == ["a 2020 fact"] and provider("a", 2020) == ["a 2020 fact"]
    assert provider("bad", 2020) == [] and provider("other", 2021) == []
    assert calls == [("a", 2020, 2), ("bad", 2020, 2)]  # once each; an unknown filing: none
    assert provider.errors == {"bad|2020": "ValueError: no statement table"}


def test_the_model_path_is_built_from_the_provider_and_its_environment(
        real_bench, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """``--provider openai`` answers through the model the usual variables point at (here a
    loopback server that needs no key: nothing is sent when the model is built); the default
    is the offline engine."""
    assert real_bench.model_of("extractive") is None
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    chat = real_bench.model_of("openai")
    assert chat is not None and chat.provider == "openai"
    assert str(chat.client.base_url).startswith("http://127.0.0.1:9/v1")
    answerer = real_bench.make_answerer(object(), object(), None, chat)
    assert answerer.chat is chat


def test_a_set_of_ones_own_is_asked_like_the_analyst_sets(real_bench, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``--set-file NAME=PATH``: the set is known by its name, read across dev, wide and bulk,
    its records printed; a spec without a path is refused before anything loads."""
    for name in ("SETS", "QUESTION_FILES", "SET_ROLES"):
        monkeypatch.setattr(real_bench, name, dict(getattr(real_bench, name)))
    monkeypatch.setattr(real_bench, "MULTI_FOLDER_SETS", real_bench.MULTI_FOLDER_SETS)
    with pytest.raises(SystemExit) as exc:
        real_bench.main(["--sets", "mine", "--set-file", "mine"])
    assert exc.value.code == 2
    path = tmp_path / "mine.jsonl"
    real_bench.register_set("mine", path)
    assert real_bench.QUESTION_FILES["mine"] == path and "mine" in real_bench.MULTI_FOLDER_SETS
    assert "mine" not in real_bench.HELD_OUT_SETS and str(path) in real_bench.SET_ROLES["mine"]
