"""The audit report asset on a real warehouse and instance: built from the ingested earnings
release with no model call and no embedding, its files written, its metadata holding the Markdown
(heatmap inlined) and the HTML path; only the partition's rows read; `rag-assets report`."""

from __future__ import annotations

import re
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from rag_assets.cli import main
from rag_assets.core.llm.client import ChatModel
from rag_assets.core.retrieval import embeddings
from rag_assets.definitions import all_assets, defs
from rag_assets.defs.partitions import partition_key
from rag_assets.defs.resources import default_resources
from rag_assets.samples.earnings import build_earnings_release
from rag_assets_tests.defs.conftest import materialize

EARNINGS = ("exemplar-corp-earnings", 2024)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every model call and embedding made, by name (the report must make none)."""
    made: list[str] = []

    def counting(name: str, original):  # noqa: ANN001, ANN202
        def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            made.append(name)
            return original(*args, **kwargs)
        return wrapper

    for owner, name in ((embeddings.Embedder, "encode"), (embeddings.Embedder, "embed"),
                        (embeddings.Embedder, "embed_query"), (ChatModel, "complete"),
                        (ChatModel, "complete_json")):
        monkeypatch.setattr(owner, name, counting(f"{owner.__name__}.{name}",
                                                  getattr(owner, name)))
    monkeypatch.setattr(embeddings, "load_model", counting("load_model", embeddings.load_model))
    return made


def report(data_dir: Path, instance: dg.DagsterInstance) -> dg.ExecuteInJobResult:
    return dg.materialize(
        all_assets, selection=dg.AssetSelection.assets("audit_report"),
        partition_key=partition_key(*EARNINGS), instance=instance,
        resources=default_resources(str(data_dir)), raise_on_error=False)


def test_audit_report_from_stored_tables_costs_no_model(
        data_dir: Path, instance: dg.DagsterInstance, calls: list[str]) -> None:
    # the same release again with its footnote ground truth, so ingest records completeness
    build_earnings_release(data_dir / "reports", data_dir / "questions", data_dir / "truth")
    assert materialize(data_dir, instance, *EARNINGS).success
    assert materialize(data_dir, instance, "northwind-note", 2023).success  # another partition
    calls.clear()  # ingest embeds nothing either, but only the report is measured here
    result = report(data_dir, instance)
    assert result.success
    assert calls == []  # 0 model calls, 0 embeddings, no model loaded
    out = data_dir / "reports_out" / EARNINGS[0] / str(EARNINGS[1])
    for name in ("report.md", "heatmap.png", "audit.html"):
        assert (out / name).is_file() and (out / name).stat().st_size > 0, name
    (mat,) = [e.event_specific_data.materialization
              for e in result.get_asset_materialization_events()]
    assert mat.partition == str(partition_key(*EARNINGS))
    markdown = mat.metadata["report"]
    assert isinstance(markdown, dg.MarkdownMetadataValue)
    assert "# Audit report: exemplar-corp-earnings 2024" in markdown.value
    assert "](data:image/png;base64," in markdown.value  # the heatmap, inlined
    assert mat.metadata["html"] == dg.MetadataValue.path(str(out / "audit.html"))
    # not stored yet: no golden runs, no summaries, no answers (the sections say so)
    assert {"retrieval_metrics", "summaries", "answers", "answer_metrics"} <= set(
        mat.metadata["missing_tables"].value)
    assert "_No `summaries` stored for this partition._" in markdown.value
    # the figures the ingest run recorded (text_conservation check) are shown
    assert "| words_lost | 0 |" in markdown.value
    assert "| definitions_complete | 1.0 |" in markdown.value
    # the partition's rows only: one inspector entry per stored earnings chunk
    with duckdb.connect(str(data_dir / "warehouse.duckdb"), read_only=True) as con:
        chunks = sum(con.execute(f"select count(*) from rag.{t} where document = ? and "
                                 "year = ?", list(EARNINGS)).fetchone()[0]
                     for t in ("naive_chunks", "enriched_chunks"))
        others = con.execute("select count(*) from rag.naive_chunks where document = "
                             "'northwind-note'").fetchone()[0]
    assert others > 0
    page = (out / "audit.html").read_text(encoding="utf-8")
    assert page.count('<div class="chunk"') == chunks
    assert "northwind" not in page.lower()

    # re-materialized: the same files again, still no model
    assert report(data_dir, instance).success
    assert calls == []


def test_report_job_and_cli(data_dir: Path, instance: dg.DagsterInstance, calls: list[str],
                            capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    job = defs.resolve_job_def("report_job")
    assert [n for n in job.graph.node_dict] == ["audit_report"]
    assert main(["report", "--partition", "no-pipe", "--data-dir", str(data_dir)]) == 2
    assert materialize(data_dir, instance, *EARNINGS).success
    calls.clear()
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    assert main(["report", "--partition", "|".join(map(str, EARNINGS)),
                 "--data-dir", str(data_dir)]) == 0
    printed = capsys.readouterr().out
    out = data_dir / "reports_out" / EARNINGS[0] / str(EARNINGS[1])
    for name in ("report.md", "heatmap.png", "audit.html"):
        assert str(out / name) in printed and (out / name).is_file()
    assert calls == []


@pytest.mark.slow
def test_report_after_the_whole_chain_costs_no_model(
        data_dir: Path, instance: dg.DagsterInstance, calls: list[str]) -> None:
    """Ingest, index, evaluation and generation of the release (6 questions), then the report:
    every section filled from stored rows, and still no model call and no embedding."""
    questions = data_dir / "questions" / EARNINGS[0] / f"{EARNINGS[1]}.jsonl"
    lines = questions.read_text(encoding="utf-8").splitlines()
    keep = [line for line in lines if '"footnote-dependent"' in line][:3] + [
        line for line in lines if '"unanswerable"' in line]
    questions.write_text("\n".join(keep) + "\n", encoding="utf-8")
    upstream = (dg.AssetSelection.groups("ingest", "index")
                | dg.AssetSelection.assets("retrieval_runs", "retrieval_metrics", "summaries",
                                           "answers", "answer_metrics"))
    assert dg.materialize(all_assets, selection=upstream, partition_key=partition_key(*EARNINGS),
                          instance=instance, resources=default_resources(str(data_dir)),
                          raise_on_error=False).success
    assert any(name.startswith("Embedder") for name in calls)  # the counters do count
    calls.clear()
    result = report(data_dir, instance)
    assert result.success
    assert calls == []
    (mat,) = [e.event_specific_data.materialization
              for e in result.get_asset_materialization_events()]
    assert mat.metadata["missing_tables"].value == []
    markdown = mat.metadata["report"].value
    assert "**baseline**" in markdown and "**enriched**" in markdown
    assert "| enriched | corpus" in markdown and "fact_recall" in markdown
    page = Path(mat.metadata["html"].value).read_text(encoding="utf-8")
    assert page.count('<div class="answer">') == len(keep)
    targets = set(re.findall(r'href="#(page-[a-z0-9-]+)"', page))
    assert targets and all(f'id="{t}"' in page for t in targets)  # each citation's page text
