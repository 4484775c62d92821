"""Generation assets on a real DuckDB file, LanceDB folder and Dagster instance: summaries,
answers with the answer_citations check, the append-only audit log, answer metrics and the
roll-up; a partition re-materialized replaces its rows; a model provider without its settings
fails the partition in one line; `rag-assets ask` answers, refuses and prints JSON."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from rag_assets.cli import main
from rag_assets.core.generation.records import ABSTENTION, QAResult
from rag_assets.core.generation.storage import read_audit
from rag_assets.definitions import all_assets
from rag_assets.defs.partitions import partition_key
from rag_assets.defs.resources import LLMResource, default_resources
from rag_assets_tests.defs.conftest import materialize, register_test_partitions, write_data_dir

EARNINGS = ("exemplar-corp-earnings", 2024)
GENERATION = dg.AssetSelection.assets("summaries", "answers", "answer_metrics")
QUESTIONS = 6  # 3 answerable + the release's 3 unanswerable ones


def run(data_dir: Path, instance: dg.DagsterInstance, selection: object,
        partition: tuple[str, int] | None, **resources: object) -> dg.ExecuteInJobResult:
    return dg.materialize(
        all_assets, selection=selection,
        partition_key=partition_key(*partition) if partition else None, instance=instance,
        resources={**default_resources(str(data_dir)), **resources}, raise_on_error=False)


def rows(data_dir: Path, table: str) -> int:
    with duckdb.connect(str(data_dir / "warehouse.duckdb"), read_only=True) as con:
        return con.execute(f"select count(*) from rag.{table}").fetchone()[0]


@pytest.fixture(scope="module")
def indexed_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The earnings release ingested and indexed once for the module (its warehouse, vectors
    and files), with 3 answerable and the 3 unanswerable questions."""
    data = write_data_dir(tmp_path_factory.mktemp("indexed") / "data")
    with dg.DagsterInstance.ephemeral() as instance:
        register_test_partitions(instance)
        assert materialize(data, instance, *EARNINGS).success
        assert run(data, instance, dg.AssetSelection.groups("index"), EARNINGS).success
    questions = data / "questions" / EARNINGS[0] / f"{EARNINGS[1]}.jsonl"
    lines = questions.read_text(encoding="utf-8").splitlines()
    unanswerable = [line for line in lines if '"unanswerable"' in line]
    answerable = [line for line in lines if '"footnote-dependent"' in line][:3]
    questions.write_text("\n".join(answerable + unanswerable) + "\n", encoding="utf-8")
    return data


@pytest.fixture
def indexed(indexed_once: Path, tmp_path: Path) -> Path:
    """A copy of ``indexed_once`` of this test's own: what the test writes stays in it. The
    generation assets read their inputs from the data folder, not from the instance's records
    (the test's ``instance`` knows the partitions, not the ingest runs)."""
    return Path(shutil.copytree(indexed_once, tmp_path / "indexed"))


@pytest.mark.slow
def test_generation_assets_answer_cite_score_and_audit(indexed, instance) -> None:
    first = run(indexed, instance, GENERATION, EARNINGS)
    assert first.success
    checks = {e.check_name: e for e in first.get_asset_check_evaluations()}
    assert checks["answer_citations"].passed
    assert rows(indexed, "answers") == QUESTIONS
    assert rows(indexed, "answer_audit") == QUESTIONS
    with duckdb.connect(str(indexed / "warehouse.duckdb"), read_only=True) as con:
        answers = con.execute("select * from rag.answers").df()
        summaries = con.execute("select variant, count(*) n from rag.summaries "
                                "group by variant").fetchall()
        metrics = con.execute("select * from rag.answer_metrics").df()
    assert dict(summaries).keys() == {"baseline", "enriched"}
    results = [QAResult.model_validate_json(r) for r in answers.result_json]
    unanswerable = answers.question_id.isin(
        [q for q, c in zip(answers.question_id, answers.category, strict=True)
         if c == "unanswerable"])
    assert unanswerable.sum() == 3
    answered = [r for r, u in zip(results, unanswerable, strict=True) if not u]
    assert all(not r.abstained and r.claims for r in answered)
    assert all(c.mark == "valid" for r in answered for cl in r.claims for c in cl.citations)
    assert len(metrics) == QUESTIONS and metrics.fact_recall.dropna().mean() >= 0.5

    # a partition re-materialized replaces its rows; the audit log is appended to
    again = run(indexed, instance, GENERATION, EARNINGS)
    assert again.success
    assert rows(indexed, "answers") == QUESTIONS
    assert rows(indexed, "answer_metrics") == QUESTIONS
    audit = read_audit(indexed / "warehouse.duckdb", "rag")
    assert len(audit) == 2 * QUESTIONS
    # the first retrieval's pages, then the pages the answer cites (none when it abstained)
    assert (audit.sources > 0).all() and (audit.final_sources <= audit.sources + 4).all()
    assert (audit.final_sources[audit.abstained] == 0).all()

    rollup = run(indexed, instance, dg.AssetSelection.assets("answer_rollup"), None)
    assert rollup.success
    with duckdb.connect(str(indexed / "warehouse.duckdb"), read_only=True) as con:
        overall = con.execute("select * from rag.answer_rollup where document = 'all' and "
                              "category = 'all'").df().iloc[0]
    assert overall.questions == QUESTIONS and overall.seconds_p95 >= overall.seconds_p50 > 0

    # rag-assets ask: an answer with verified citations, an honest refusal, JSON
    assert main(["ask", "What was Exemplar's organic revenue growth in fiscal 2024?",
                 "--data-dir", str(indexed)]) == 0
    assert main(["ask", "How many employees does Exemplar have in Antarctica?", "--json",
                 "--data-dir", str(indexed)]) == 0
    assert len(read_audit(indexed / "warehouse.duckdb", "rag")) == 2 * QUESTIONS + 2


def test_a_model_provider_without_its_settings_fails_the_partition_in_one_line(
        indexed, instance, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    result = run(indexed, instance, dg.AssetSelection.assets("answers"), EARNINGS,
                 llm=LLMResource(provider="openai"))
    assert not result.success
    failure = next(e for e in result.all_events if e.event_type_value == "STEP_FAILURE")
    message = failure.event_specific_data.error.message
    assert "OPENAI_API_KEY" in message


def test_ask_refuses_what_the_corpus_cannot_answer(indexed, capsys) -> None:
    assert main(["ask", "What was Exemplar's revenue in fiscal 2031?", "--json",
                 "--data-dir", str(indexed)]) == 0
    result = QAResult.model_validate(json.loads(capsys.readouterr().out))
    assert result.abstained and result.answer.startswith(ABSTENTION)
    assert not result.sources_used


def test_ask_json_numbers_pages_as_the_text_answer_prints_them(indexed, capsys) -> None:
    """``--json`` names its pages ``page_number``, one-based: the ``p.N`` of the text answer's
    sources, never the zero-based index beside a ``p.N`` that is one more."""
    question = "What was Exemplar's organic revenue growth in fiscal 2024?"
    assert main(["ask", question, "--data-dir", str(indexed)]) == 0
    text = capsys.readouterr().out
    printed = dict(re.findall(r"^  \[(\d+)\] exemplar-corp-earnings 2024 p\.(\d+)", text, re.M))
    assert main(["ask", question, "--json", "--data-dir", str(indexed)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert printed and len(printed) == len(answer["sources_used"])
    for source in answer["sources_used"]:
        assert "page" not in source
        assert printed[str(source["number"])] == str(source["page_number"])
    citations = [c for claim in answer["claims"] for c in claim["citations"]]
    assert citations and all("page" not in c for c in citations)
    assert {c["page_number"] for c in citations} <= {s["page_number"]
                                                     for s in answer["sources_used"]}


def test_ask_html_writes_a_view_of_each_cited_page_with_its_quotes_highlighted(
        indexed, tmp_path, capsys) -> None:
    """``--html FILE``: the answer printed as ever, and one self-contained file with a chip per
    citation, each cited page of the earnings release drawn, and a highlight of each quote."""
    out = tmp_path / "view.html"
    question = "What was Exemplar's organic revenue growth in fiscal 2024?"
    assert main(["ask", question, "--json", "--html", str(out), "--data-dir", str(indexed)]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert f"view: {out}" in captured.err
    html = out.read_text(encoding="utf-8")
    numbers = {s["number"] for s in result["sources_used"]}
    assert numbers and not result["abstained"]
    pages = re.findall(r'<section class="page" id="page-\d+" data-page="(\d+)">', html)
    assert {int(p) for p in pages} >= {s["page_number"] for s in result["sources_used"]}
    assert html.count("data:image/png;base64,") == len(pages)
    highlighted = {int(n) for n in re.findall(r'class="hl" data-citation="(\d+)"', html)}
    assert highlighted == numbers  # every cited quote found on its page and highlighted
    assert {int(n) for n in re.findall(r'<a class="chip[^"]*" href="#page-\d+" '
                                       r'data-citation="(\d+)"', html)} == numbers
    assert "not found on the page as printed" not in html and "<script" not in html
    audit = read_audit(indexed / "warehouse.duckdb", "rag")
    assert audit.view_path.iloc[-1] == str(out.resolve())  # the row says where its view is


def test_ask_html_to_a_folder_that_does_not_exist_is_one_line_and_exit_1(indexed, tmp_path,
                                                                         capsys) -> None:
    out = tmp_path / "no" / "such" / "view.html"
    assert main(["ask", "What was Exemplar's organic revenue growth in fiscal 2024?",
                 "--html", str(out), "--data-dir", str(indexed)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"cannot write the answer's view to {out}: ")
    assert read_audit(indexed / "warehouse.duckdb", "rag").view_path.isna().iloc[-1]
