"""Evaluation assets (group ``evaluation``): how well each strategy finds the golden evidence.

``retrieval_runs`` runs every golden question of a partition through every strategy, on naive and
enriched chunks, within the partition and against the whole shared store; ``retrieval_metrics``
aggregates them per strategy and question category; ``evaluation_rollup`` aggregates all
partitions and draws one chart per strategy. After changing a weight in ``RetrievalSettings``,
backfill ``retrieval_runs`` and ``retrieval_metrics`` over all partitions (README).
"""

from collections.abc import Iterator

import dagster as dg
import pandas as pd

from rag_assets.core.evaluation.charts import metrics_table, png_markdown, strategy_chart
from rag_assets.core.evaluation.questions import (
    answerable_questions,
    questions_path,
)
from rag_assets.core.evaluation.runs import records_to_frame, run_questions, summarize
from rag_assets.core.ingest.catalog import has_report
from rag_assets.core.retrieval.retriever import STRATEGIES, Retriever
from rag_assets.core.warehouse.connection import read_whole_table
from rag_assets.defs.index import document_profile, enriched_vectors, naive_vectors
from rag_assets.defs.partitions import partition_of
from rag_assets.defs.presentation import (
    WRITER_POOL,
    fail,
    partition_questions,
    partition_table,
    preview,
)
from rag_assets.defs.resources import (
    EmbeddingsResource,
    RagSettings,
    RetrievalSettings,
    RuntimeResource,
)

GROUP = "evaluation"
BY = ["kind", "setting", "strategy"]
HEADLINE = {
    "kind": "chunks", "setting": "setting", "strategy": "strategy", "questions": "n",
    "page_mrr": "MRR", "page_ndcg_at_10": "nDCG@10", "page_recall_at_5": "R@5",
    "footnote_recall_at_5": "footnote R@5",
}


def _headline(summary: pd.DataFrame) -> dg.MetadataValue:
    return dg.MetadataValue.md(metrics_table(summary, HEADLINE))


@partition_table(GROUP, {"duckdb", "lancedb"},
                 deps=[naive_vectors, enriched_vectors, document_profile],
                 output_required=False, automation_condition=dg.AutomationCondition.eager())
def retrieval_runs(
    context: dg.AssetExecutionContext,
    settings: RagSettings,
    embeddings: EmbeddingsResource,
    retrieval: RetrievalSettings,
    runtime: RuntimeResource,
) -> Iterator[dg.Output[pd.DataFrame]]:
    """For every golden question of the partition × chunk kind × setting × strategy: the ranked
    chunk ids with pages, scores and stage, the latency, and the question's metrics. A report
    without golden questions gets an empty table (its metrics too: evaluated, nothing to rank);
    a partition whose file is gone yields nothing. Unanswerable questions have no evidence page
    to rank: they are skipped and counted."""
    document, year = partition_of(context)
    if not has_report(settings.reports_dir, document, year):
        context.log.info(f"no report for {document} {year}: nothing to evaluate")
        return
    path = questions_path(settings.questions_dir, document, year)
    every_question = partition_questions(context, settings.questions_dir, document, year)
    questions = answerable_questions(every_question)
    if not questions:
        context.log.warning(f"no answerable golden questions at {path}: an empty table")
        yield dg.Output(records_to_frame([]), metadata={
            "questions": 0, "unanswerable_skipped": len(every_question), "runs": 0,
            "note": f"no answerable golden questions at {path}", "dagster/row_count": 0})
        return
    try:
        embedder, store = embeddings.embedder(settings, runtime)
    except RuntimeError as err:
        fail(context, str(err))
    retriever = Retriever(store, embedder, retrieval.config())
    try:
        records = run_questions(retriever, questions, progress=context.log.info)
    except LookupError as err:
        fail(context, str(err))
    reason = retriever.reranker.unavailable
    if reason:
        context.log.warning(reason)
    frame = records_to_frame(records)
    summary = summarize(frame, BY)
    yield dg.Output(
        frame,
        metadata={
            "questions": len(questions),
            "unanswerable_skipped": len(every_question) - len(questions),
            "runs": len(frame),
            "strategies": dg.MetadataValue.json(list(STRATEGIES)),
            "cross_encoder": reason or f"ran {retrieval.cross_encoder_model}",
            "retrieval_settings": dg.MetadataValue.json(retrieval.config().model_dump()),
            "embedding_model": embedder.model_name,
            "metrics": _headline(summary),
            "dagster/row_count": len(frame),
            "preview": preview(frame, ["question_id", "kind", "setting", "strategy",
                                       "page_mrr", "chunk_ids"]),
        },
    )


@partition_table(GROUP, automation_condition=dg.AutomationCondition.eager())
def retrieval_metrics(
    context: dg.AssetExecutionContext, retrieval_runs: pd.DataFrame
) -> dg.Output[pd.DataFrame]:
    """MRR, nDCG@10 and recall@1/5/10 at page and footnote level, per chunk kind × setting ×
    strategy, for all questions (``category = 'all'``) and per question category."""
    document, year = partition_of(context)
    overall = summarize(retrieval_runs, BY).assign(category="all")
    by_category = summarize(retrieval_runs, [*BY, "category"])
    frame = pd.concat([overall, by_category], ignore_index=True)
    frame.insert(0, "document", document)
    frame.insert(1, "year", year)
    frame = frame.astype({"year": "Int64", "unavailable": "string", "category": "string"})
    return dg.Output(
        frame,
        metadata={
            "questions": int(retrieval_runs.question_id.nunique()) if len(retrieval_runs) else 0,
            "metrics": _headline(overall),
            "dagster/row_count": len(frame),
        },
    )


@dg.asset(group_name=GROUP, kinds={"duckdb", "matplotlib"}, deps=[retrieval_runs],
          pool=WRITER_POOL,
          automation_condition=dg.AutomationCondition.eager().without(
              # a partition may never get a table (no golden questions, its file gone): wait
              # for none of them
              ~dg.AutomationCondition.any_deps_missing()).with_label("eager, gaps allowed"))
def evaluation_rollup(
    context: dg.AssetExecutionContext, settings: RagSettings
) -> dg.Output[pd.DataFrame]:
    """Every partition's runs together, per chunk kind × setting × strategy (each question
    weighs the same), also per question category and per document, with one chart per
    strategy. Reads the whole ``retrieval_runs`` table from the warehouse: every partition that
    has runs counts, whichever instance or selection launches the roll-up."""
    retrieval_runs = read_whole_table(settings.warehouse_path, "retrieval_runs",
                                      records_to_frame([]))
    overall = summarize(retrieval_runs, BY).assign(category="all", document="all")
    by_category = summarize(retrieval_runs, [*BY, "category"]).assign(document="all")
    by_document = summarize(retrieval_runs, [*BY, "document"]).assign(category="all")
    frame = pd.concat([overall, by_category, by_document], ignore_index=True).astype(
        {"unavailable": "string", "category": "string", "document": "string"}
    )
    charts: dict[str, dg.MetadataValue] = {}
    for strategy in STRATEGIES:
        rows = overall[overall.strategy == strategy]
        if rows.empty:
            continue
        reason = rows.unavailable.dropna()
        if len(reason):  # no chart of a fallback's numbers under this strategy's name
            charts[f"chart_{strategy}"] = dg.MetadataValue.text(f"unavailable: {reason.iloc[0]}")
            continue
        path = strategy_chart(overall, strategy, settings.evaluation_dir / f"{strategy}.png")
        charts[f"chart_{strategy}"] = dg.MetadataValue.md(png_markdown(path, strategy))
    questions = int(retrieval_runs.question_id.nunique()) if len(retrieval_runs) else 0
    context.log.info(f"rollup over {questions} questions, charts in {settings.evaluation_dir}")
    return dg.Output(
        frame,
        metadata={
            "questions": questions,
            "partitions": int(retrieval_runs[["document", "year"]].drop_duplicates().shape[0])
            if len(retrieval_runs) else 0,
            "metrics": _headline(overall),
            "charts_dir": str(settings.evaluation_dir),
            "dagster/row_count": len(frame),
            **charts,
        },
    )


evaluation_assets = [retrieval_runs, retrieval_metrics, evaluation_rollup]
evaluation_job = dg.define_asset_job(
    "evaluation_job",
    selection=dg.AssetSelection.assets(retrieval_runs, retrieval_metrics),
    description="Retrieval runs and metrics for one document x year partition.",
)
rollup_job = dg.define_asset_job(
    "rollup_job",
    selection=dg.AssetSelection.assets(evaluation_rollup),
    description="The corpus-wide evaluation roll-up and its charts.",
)
