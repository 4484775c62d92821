"""Index and evaluation assets on a real DuckDB file, a real LanceDB folder and Dagster."""

from __future__ import annotations

import json
import multiprocessing
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from rag_assets.cli import main
from rag_assets.core.retrieval.embeddings import (
    DEFAULT_BACKEND,
    Embedder,
    available_cores,
    torch_threads_for,
)
from rag_assets.core.retrieval.retriever import STRATEGIES, RetrievalConfig
from rag_assets.core.retrieval.store import VectorStore
from rag_assets.definitions import all_assets
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import default_resources
from rag_assets_tests.defs.conftest import materialize, register_test_partitions, write_data_dir

EARNINGS = ("exemplar-corp-earnings", 2024)
NOTE = ("northwind-note", 2023)
VECTORS = dg.AssetSelection.assets("naive_vectors", "enriched_vectors")


def run(data_dir: Path, instance: dg.DagsterInstance, selection: object,
        partition: tuple[str, int] | None, **overrides: object) -> dg.ExecuteInJobResult:
    return dg.materialize(
        all_assets,
        selection=selection,
        partition_key=partition_key(*partition) if partition else None,
        instance=instance,
        resources=default_resources(str(data_dir), overrides or None),
        raise_on_error=False,
    )


def store(data_dir: Path) -> VectorStore:
    embedder = Embedder()
    return VectorStore(data_dir / "lancedb", embedder.slug, embedder.dimension)


def chunk_rows(data_dir: Path, table: str, document: str, year: int) -> int:
    with duckdb.connect(str(data_dir / "warehouse.duckdb"), read_only=True) as con:
        return con.execute(f"select count(*) from rag.{table} where document = ? and year = ?",
                           [document, year]).fetchone()[0]


def metadata(result: dg.ExecuteInJobResult, asset: str) -> dict[str, object]:
    for event in result.get_asset_materialization_events():
        mat = event.event_specific_data.materialization
        if mat.asset_key.to_user_string() == asset:
            return {k: getattr(v, "value", v) for k, v in mat.metadata.items()}
    raise AssertionError(f"{asset} was not materialized")


QUESTIONS = 5  # of the 17 answerable earnings questions: enough to judge, quick to run
UNANSWERABLE = 3  # the earnings release's unanswerable questions


@pytest.fixture(scope="module")
def ingested_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two reports ingested once for the module (each test gets a copy: ``ingested``); the
    earnings questions cut to the footnote-dependent ones first, then the unanswerable."""
    data_dir = write_data_dir(tmp_path_factory.mktemp("ingested") / "data")
    with dg.DagsterInstance.ephemeral() as instance:
        register_test_partitions(instance)
        for document, year in (EARNINGS, NOTE):
            assert materialize(data_dir, instance, document, year).success
    questions = data_dir / "questions" / EARNINGS[0] / f"{EARNINGS[1]}.jsonl"
    lines = questions.read_text(encoding="utf-8").splitlines()
    # keep the footnote-dependent ones among them so footnote metrics are exercised
    lines.sort(key=lambda line: '"footnote-dependent"' not in line)
    # and the unanswerable ones, which retrieval evaluation skips (no evidence page to rank)
    unanswerable = [line for line in lines if '"unanswerable"' in line]
    assert len(unanswerable) == UNANSWERABLE
    questions.write_text("\n".join(lines[:QUESTIONS] + unanswerable) + "\n", encoding="utf-8")
    return data_dir


@pytest.fixture
def ingested(ingested_once: Path, data_dir: Path, instance: dg.DagsterInstance) -> Path:
    """A copy of the module's ingested data folder in this test's ``data_dir`` (ingesting both
    reports cost ~5 s a test); the test's instance knows their partitions."""
    shutil.rmtree(data_dir)
    shutil.copytree(ingested_once, data_dir)
    return data_dir


@pytest.mark.encoder_unmemoized  # it reads what the model did: texts/s, time in the model
def test_vectors_hold_every_chunk_and_rematerializing_embeds_nothing(ingested, instance):
    first = run(ingested, instance, VECTORS, EARNINGS)
    assert first.success
    naive = metadata(first, "naive_vectors")
    assert naive["rows"] == chunk_rows(ingested, "naive_chunks", *EARNINGS)
    assert naive["embeddings_computed"] > 0
    # what the model did, per vector step: texts/s, time in the model, threads as intended
    # (in-process execution: one embedding step at a time, so up to every core this process may
    # use, fewer while other processes keep cores busy)
    import torch

    for asset in ("naive_vectors", "enriched_vectors"):
        meta = metadata(first, asset)
        assert meta["embeddings_computed"] > 0
        assert meta["texts_per_second"] > 0
        assert meta["encode_seconds"] > 0 and meta["embed_seconds"] >= meta["encode_seconds"]
        assert meta["embedding_backend"] == DEFAULT_BACKEND  # the resource left it unset
        assert meta["torch_threads"] == torch_threads_for(1) == available_cores()
        used = {int(k): n for k, n in meta["torch_threads_used"].items()}
        assert used and all(1 <= k <= available_cores() and n > 0 for k, n in used.items())
    assert 1 <= torch.get_num_threads() <= available_cores()
    checks = {e.check_name: e.passed for e in first.get_asset_check_evaluations()}
    assert checks == {"naive_vectors_complete": True, "enriched_vectors_complete": True}
    counts = {kind: store(ingested).partition_rows(kind, *EARNINGS)
              for kind in ("naive", "enriched")}

    again = run(ingested, instance, VECTORS, EARNINGS)
    assert again.success
    assert {kind: store(ingested).partition_rows(kind, *EARNINGS)
            for kind in ("naive", "enriched")} == counts
    for asset in ("naive_vectors", "enriched_vectors"):
        assert metadata(again, asset)["embeddings_computed"] == 0
        assert metadata(again, asset)["texts_per_second"] == 0  # the model encoded nothing
        assert metadata(again, asset)["fts_unindexed_rows"] == 0


def _materialize_vectors(data_dir: str, instance_dir: str, document: str,
                         year: int) -> bool | str:
    """One partition's vectors in a process of its own (a run of the multiprocess executor);
    an error comes back as text."""
    try:
        with dg.DagsterInstance.from_config(instance_dir) as instance:
            return run(Path(data_dir), instance, VECTORS, (document, year)).success
    except Exception as err:  # noqa: BLE001 - reported to the test as a value
        return f"{type(err).__name__}: {err}"


@pytest.mark.slow
def test_two_partitions_written_concurrently_both_end_complete(ingested_once, tmp_path):
    data_dir = tmp_path / "data"
    shutil.copytree(ingested_once, data_dir)  # both reports' chunks, no vectors yet
    instance_dir = tmp_path / "dagster_home"
    instance_dir.mkdir()
    with dg.DagsterInstance.from_config(str(instance_dir)) as instance:
        register_partitions(instance, [partition_key(*EARNINGS), partition_key(*NOTE)])
    # an executor, not a Pool: a worker that dies breaks it with an error instead of hanging
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_materialize_vectors, str(data_dir), str(instance_dir), *part)
                   for part in (EARNINGS, NOTE)]
        outcomes = [f.result(timeout=300) for f in futures]
    assert outcomes == [True, True]
    vectors = store(data_dir)
    for document, year in (EARNINGS, NOTE):
        for kind in ("naive", "enriched"):
            assert vectors.partition_rows(kind, document, year) == chunk_rows(
                data_dir, f"{kind}_chunks", document, year
            )


def test_evaluation_runs_every_question_strategy_and_setting(ingested, instance):
    assert run(ingested, instance, dg.AssetSelection.groups("index"), EARNINGS).success
    result = run(ingested, instance,
                 dg.AssetSelection.assets("retrieval_runs", "retrieval_metrics"), EARNINGS)
    assert result.success
    with duckdb.connect(str(ingested / "warehouse.duckdb"), read_only=True) as con:
        runs = con.execute("select * from rag.retrieval_runs").df()
        metrics = con.execute("select * from rag.retrieval_metrics").df()
    questions = runs.question_id.nunique()
    assert questions == QUESTIONS
    assert metadata(result, "retrieval_runs")["unanswerable_skipped"] == UNANSWERABLE
    assert len(runs) == questions * 2 * 2 * len(STRATEGIES)  # kinds x settings x strategies
    partition_runs = runs[runs.setting == "partition"]
    assert (partition_runs.scope == "partition exemplar-corp-earnings|2024").all()
    unavailable = runs[runs.strategy == "cross_encoder"].unavailable
    assert unavailable.str.contains("is not installed on this machine").all()
    assert runs[runs.strategy != "cross_encoder"].unavailable.isna().all()
    overall = metrics[metrics.category == "all"]
    assert len(overall) == 2 * 2 * len(STRATEGIES)
    assert overall.questions.eq(questions).all()
    best = overall[(overall.setting == "partition") & (overall.strategy == "hybrid_rrf")]
    assert (best.page_mrr > 0.5).all()  # a small partition: the evidence is found
    assert overall.footnote_questions.gt(0).all()
    assert metadata(result, "retrieval_runs")["cross_encoder"].startswith(
        "the optional cross-encoder reranker")

    rollup = run(ingested, instance, dg.AssetSelection.assets("evaluation_rollup"), None)
    assert rollup.success
    meta = metadata(rollup, "evaluation_rollup")
    assert meta["questions"] == questions
    for strategy in STRATEGIES:
        if strategy == "cross_encoder":  # no chart of the fallback's numbers under its name
            assert str(meta[f"chart_{strategy}"]).startswith(
                "unavailable: the optional cross-encoder")
            assert not (ingested / "evaluation" / f"{strategy}.png").exists()
            continue
        assert (ingested / "evaluation" / f"{strategy}.png").read_bytes()[:4] == b"\x89PNG"
        assert str(meta[f"chart_{strategy}"]).startswith(f"![{strategy}](data:image/png;base64,")
    headline = str(metadata(result, "retrieval_runs")["metrics"])
    assert "n/a" in headline and "cross_encoder: the optional cross-encoder" in headline
    settings_used = metadata(result, "retrieval_runs")["retrieval_settings"]
    assert settings_used["w_bm25"] == RetrievalConfig().w_bm25 and settings_used["k"] == 10
    assert settings_used["statement_weight"] == RetrievalConfig().statement_weight


def test_backfill_command_recomputes_metrics_with_a_changed_weight(ingested, instance,
                                                                   monkeypatch, capsys):
    assert run(ingested, instance, dg.AssetSelection.groups("index"), EARNINGS).success
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    code = main(["backfill", "--data-dir", str(ingested), "--only", EARNINGS[0],
                 "--set", "w_bm25=0", "--set", "k=5"])
    assert code == 0
    out = capsys.readouterr().out
    assert "retrieval settings for this backfill: {'w_bm25': 0.0, 'k': 5}" in out
    assert "All golden questions, whole corpus" in out
    # five tables, each with its legend; the reranker that is not installed said once, in a
    # line of its own, and no row of its fallback's numbers in the tables
    assert out.count("\n  MRR: 1/rank of the first right page") == 5
    skipped = [line for line in out.splitlines() if "cross_encoder" in line]
    assert len(skipped) == 1 and skipped[0].startswith(
        "cross_encoder: not in these tables: the optional cross-encoder reranker")
    assert "huggingface.co" not in out and "OSError" not in out
    with duckdb.connect(str(ingested / "warehouse.duckdb"), read_only=True) as con:
        runs = con.execute(
            "select strategy, kind, setting, chunk_ids from rag.retrieval_runs"
        ).df()
    assert runs.chunk_ids.map(lambda ids: len(json.loads(ids))).max() <= 5
    # with the BM25 weight at 0, blended hybrid ranks exactly like dense
    pivot = runs[runs.setting == "partition"].pivot_table(
        index="kind", columns="strategy", values="chunk_ids", aggfunc=list
    )
    for kind in ("naive", "enriched"):
        assert pivot.loc[kind, "hybrid_blended"] == pivot.loc[kind, "dense"]


def test_backfill_rejects_an_unknown_setting(ingested, monkeypatch):
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    with pytest.raises(SystemExit, match="w_nothing"):
        main(["backfill", "--data-dir", str(ingested), "--set", "w_nothing=1"])


def test_a_partition_without_golden_questions_gets_empty_tables_not_failures(
        ingested, instance):
    """An empty result is a table with its schema: a backfill over it succeeds (Dagster's asset
    backfill counts a partition that wrote nothing as failed)."""
    assert run(ingested, instance, dg.AssetSelection.groups("index"), NOTE).success
    result = run(ingested, instance,
                 dg.AssetSelection.assets("retrieval_runs", "retrieval_metrics"), NOTE)
    assert result.success
    assert {e.asset_key.to_user_string() for e in result.get_asset_materialization_events()} \
        == {"retrieval_runs", "retrieval_metrics"}
    assert result.output_for_node("retrieval_runs").empty
    assert result.output_for_node("retrieval_metrics").empty
    con = duckdb.connect(str(ingested / "warehouse.duckdb"), read_only=True)
    try:
        for table in ("retrieval_runs", "retrieval_metrics"):
            columns = {r[0] for r in con.execute(f"describe rag.{table}").fetchall()}
            assert {"document", "year", "strategy"} <= columns, table
            assert con.execute(f"select count(*) from rag.{table} where document = ?",
                               [NOTE[0]]).fetchone()[0] == 0
    finally:
        con.close()
    # a gap of the grid (no report) still yields nothing
    gap = run(ingested, instance, dg.AssetSelection.assets("retrieval_runs"), ("broken", 2024))
    assert gap.success and gap.get_asset_materialization_events() == []
