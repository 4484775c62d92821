"""The roll-ups count every partition that has rows in the warehouse, whichever instance or run
selection launches them (a `backfill --only` without DAGSTER_HOME once rewrote
``evaluation_rollup`` from one partition)."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import duckdb
import pandas as pd

from rag_assets.core.evaluation.answer_metrics import AnswerScore, scores_to_frame
from rag_assets.definitions import all_assets
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import default_resources
from rag_assets_tests.defs.conftest import materialize

EARNINGS = ("exemplar-corp-earnings", 2024)
NOTE = ("northwind-note", 2023)
EARNINGS_QUESTIONS = 2  # of the earnings release's answerable questions: quick to run
NOTE_QUESTIONS = [
    {"id": "northwind-note-2023-q01", "document": "northwind-note", "year": 2023,
     "question": "How much did Northwind's revenue grow?", "category": "factual",
     "relevant_pages": [0], "relevant_markers": [], "expected_facts": ["12%"]},
    {"id": "northwind-note-2023-q02", "document": "northwind-note", "year": 2023,
     "question": "How much of the revenue came from the Harbor acquisition?",
     "category": "footnote-dependent", "relevant_pages": [0], "relevant_markers": ["[1]"],
     "expected_facts": ["$6 million"]},
]


def run(data_dir: Path, instance: dg.DagsterInstance, selection: object,
        partition: tuple[str, int] | None) -> dg.ExecuteInJobResult:
    return dg.materialize(
        all_assets, selection=selection, instance=instance,
        partition_key=partition_key(*partition) if partition else None,
        resources=default_resources(str(data_dir)), raise_on_error=False,
    )


def questions_of(result: dg.ExecuteInJobResult, asset: str) -> int:
    for event in result.get_asset_materialization_events():
        mat = event.event_specific_data.materialization
        if mat.asset_key.to_user_string() == asset:
            return mat.metadata["questions"].value if "questions" in mat.metadata else -1
    raise AssertionError(f"{asset} was not materialized")


def table(data_dir: Path, name: str) -> pd.DataFrame:
    with duckdb.connect(str(data_dir / "warehouse.duckdb"), read_only=True) as con:
        frame = con.execute(f"select * from rag.{name}").df()
    keys = [c for c in ("kind", "setting", "strategy", "category", "document") if c in frame]
    return frame.sort_values(keys).reset_index(drop=True)


def test_evaluation_rollup_from_an_instance_that_knows_one_partition_counts_all(
    data_dir: Path, instance: dg.DagsterInstance
) -> None:
    questions = data_dir / "questions" / EARNINGS[0] / f"{EARNINGS[1]}.jsonl"
    answerable = [line for line in questions.read_text(encoding="utf-8").splitlines()
                  if '"unanswerable"' not in line]
    questions.write_text("\n".join(answerable[:EARNINGS_QUESTIONS]) + "\n", encoding="utf-8")
    note_questions = data_dir / "questions" / NOTE[0] / f"{NOTE[1]}.jsonl"
    note_questions.parent.mkdir(parents=True, exist_ok=True)
    note_questions.write_text("".join(json.dumps(q) + "\n" for q in NOTE_QUESTIONS),
                              encoding="utf-8")
    evaluated = dg.AssetSelection.groups("index") | dg.AssetSelection.assets("retrieval_runs")
    for partition in (EARNINGS, NOTE):
        assert materialize(data_dir, instance, *partition).success
        assert run(data_dir, instance, evaluated, partition).success
    rollup = dg.AssetSelection.assets("evaluation_rollup")
    over_all = run(data_dir, instance, rollup, None)
    assert over_all.success
    expected = EARNINGS_QUESTIONS + len(NOTE_QUESTIONS)
    assert questions_of(over_all, "evaluation_rollup") == expected
    full = table(data_dir, "evaluation_rollup")
    assert set(full.document) == {"all", EARNINGS[0], NOTE[0]}

    # a fresh instance (no DAGSTER_HOME) that knows only the note's partition
    with dg.DagsterInstance.ephemeral() as partial:
        register_partitions(partial, [partition_key(NOTE[0], str(NOTE[1]))])
        again = run(data_dir, partial, rollup, None)
        assert again.success
        assert questions_of(again, "evaluation_rollup") == expected
    pd.testing.assert_frame_equal(table(data_dir, "evaluation_rollup"), full)

    # a selection of one partition's retrieval runs with the roll-up, in the first instance
    one = run(data_dir, instance, dg.AssetSelection.assets("retrieval_runs", "evaluation_rollup"),
              NOTE)
    assert one.success
    assert questions_of(one, "evaluation_rollup") == expected
    # the note's runs were recomputed (their latencies differ): the metrics are the same
    rerun = table(data_dir, "evaluation_rollup")
    metrics = [c for c in full.columns if c.startswith(("page_", "pages_", "footnote_"))]
    pd.testing.assert_frame_equal(rerun[["questions", *metrics]], full[["questions", *metrics]])


def test_answer_rollup_reads_every_partition_and_an_absent_table_is_empty(tmp_path: Path) -> None:
    data = tmp_path / "data"
    rollup = dg.AssetSelection.assets("answer_rollup")
    with dg.DagsterInstance.ephemeral() as instance:
        assert run(data, instance, rollup, None).success  # no warehouse yet: an empty roll-up
        scores = [AnswerScore(question_id=f"{document}-q{i}", document=document, year=year,
                              category="factual", answerable=True, abstained=False,
                              abstention_correct=True, fact_recall=recall, answer_correct=True,
                              citation_precision=1.0, citation_recall=1.0, n_claims=1,
                              n_citations=1, invalid_citations=0, seconds=0.1)
                  for document, year, recall in ((EARNINGS[0], EARNINGS[1], 1.0),
                                                 (NOTE[0], NOTE[1], 0.5))
                  for i in range(2)]
        with duckdb.connect(str(data / "warehouse.duckdb")) as con:
            con.register("scores", scores_to_frame(scores))
            con.execute("create schema if not exists rag")
            con.execute("create table rag.answer_metrics as select * from scores")
        # knows one partition only
        register_partitions(instance, [partition_key(NOTE[0], str(NOTE[1]))])
        assert run(data, instance, rollup, None).success
    frame = table(data, "answer_rollup")
    overall = frame[(frame.document == "all") & (frame.category == "all")]
    assert set(frame.document) == {"all", EARNINGS[0], NOTE[0]}
    assert overall.fact_recall.iloc[0] == 0.75
