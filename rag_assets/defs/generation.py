"""Generation assets (group ``generation``): summaries and cited answers, and how good they are.

``summaries`` writes a baseline (naive chunks, plain) and an enriched (stitched chunks, keeps
footnote qualifications) summary of each partition, every sentence cited; ``answers`` answers the
partition's golden questions with numbered, verified citations (the ``answer_citations`` check
fails a claim without a citation or with an ``invalid`` one); ``answer_metrics`` scores them (fact
recall, ALCE citation precision and recall, abstention); ``answer_rollup`` adds every partition up.
Every answer is also appended to ``answer_audit``. The engine is the ``llm`` resource's provider:
``extractive`` (offline, default), ``openai`` or ``azure``.
"""


from collections.abc import Iterator

import dagster as dg
import pandas as pd

from rag_assets.core.engine import answerer_from
from rag_assets.core.evaluation.answer_metrics import (
    frame_to_scores,
    score_answer,
    scores_to_frame,
    seconds_percentiles,
    summarize_answers,
)
from rag_assets.core.generation.answers import Answerer, audit_record
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.storage import answers_to_frame, append_audit, summaries_to_frame
from rag_assets.core.generation.summaries import summarize_report
from rag_assets.core.llm.client import LLMConfigError
from rag_assets.core.retrieval.embeddings import EmbeddingSettings
from rag_assets.core.settings import (
    AnswerSettings,
    IngestSettings,
    LLMSettings,
    RuntimeSettings,
    Settings,
    section_of,
)
from rag_assets.core.warehouse.connection import WAREHOUSE_SCHEMA, read_whole_table
from rag_assets.defs.index import document_profile, enriched_vectors, naive_vectors
from rag_assets.defs.partitions import partition_of
from rag_assets.defs.presentation import (
    WRITER_POOL,
    fail,
    partition_check,
    partition_questions,
    partition_table,
    preview,
)
from rag_assets.defs.resources import (
    AnswerResource,
    EmbeddingsResource,
    LLMResource,
    RagSettings,
    RetrievalSettings,
    RuntimeResource,
)
from rag_assets.defs.statements import financial_statements

GROUP = "generation"
INDEXED = [naive_vectors, enriched_vectors, document_profile, financial_statements]


def build_answerer(settings: RagSettings, embeddings: EmbeddingsResource,
                   retrieval: RetrievalSettings, llm: LLMResource,
                   answer: AnswerResource | None = None,
                   runtime: RuntimeResource | None = None) -> Answerer:
    """The core's answer engine (``answerer_from``) over these resources' settings: the pages
    and statement facts of the partitions a question reads (the filing routing picks, whichever
    partition asks), each read from the warehouse on first use."""
    return answerer_from(Settings(
        ingest=section_of(settings, IngestSettings),
        embeddings=section_of(embeddings, EmbeddingSettings), retrieval=retrieval.config(),
        llm=section_of(llm, LLMSettings),
        answer=answer.config() if answer else AnswerSettings(),
        runtime=section_of(runtime, RuntimeSettings) if runtime else RuntimeSettings()))


def _answerer(context: dg.AssetExecutionContext, settings: RagSettings,
              embeddings: EmbeddingsResource, retrieval: RetrievalSettings, llm: LLMResource,
              answer: AnswerResource, runtime: RuntimeResource) -> Answerer:
    try:
        return build_answerer(settings, embeddings, retrieval, llm, answer, runtime)
    except (LLMConfigError, RuntimeError) as err:
        fail(context, str(err))


@partition_table(GROUP, {"duckdb", "lancedb"}, deps=INDEXED, ins={"raw_pages": dg.AssetIn()},
                 automation_condition=dg.AutomationCondition.eager())
def summaries(
    context: dg.AssetExecutionContext, settings: RagSettings, embeddings: EmbeddingsResource,
    retrieval: RetrievalSettings, llm: LLMResource, raw_pages: pd.DataFrame,
    answer: AnswerResource, runtime: RuntimeResource,
) -> dg.Output[pd.DataFrame]:
    """Baseline (naive chunks, plain) and enriched (stitched chunks, footnote qualifications
    kept) summaries of the report, one row per cited sentence, with the chunks each read."""
    document, year = partition_of(context)
    answerer = _answerer(context, settings, embeddings, retrieval, llm, answer, runtime)
    results = [summarize_report(answerer, document, year, variant)
               for variant in ("baseline", "enriched")]
    frame = summaries_to_frame(results)
    side_by_side = "\n".join(
        f"### {r.variant} ({len(r.claims)} sentences, {len(r.chunk_ids)} chunks)\n\n"
        + "\n".join(f"- {line}" for line in r.text.splitlines())
        for r in results)
    for r in results:
        context.log.info(f"{r.variant} summary: {len(r.claims)} sentences in {r.seconds:.1f} s")
    return dg.Output(frame, metadata={
        "summaries": dg.MetadataValue.md(side_by_side or "(no evidence found)"),
        "provider": results[0].provider,
        "sentences": dg.MetadataValue.json({r.variant: len(r.claims) for r in results}),
        "dagster/row_count": len(frame),
    })


@partition_table(GROUP, {"duckdb", "lancedb"}, deps=INDEXED, ins={"raw_pages": dg.AssetIn()},
                 check_specs=[partition_check(
                     "answer_citations", "answers",
                     "Every claim of every answer to the partition's golden questions cites a "
                     "source, and no citation is `invalid` (its quote is not on the page it "
                     "names). Why: an answer promises that each claim can be checked on its "
                     "page. An error, not blocking: the answers are written and answer_metrics "
                     "measures them. `failing_questions` names each question with its first "
                     "problem: ask it again with `rag-assets ask` and read the citations.")],
                 automation_condition=dg.AutomationCondition.eager())
def answers(
    context: dg.AssetExecutionContext, settings: RagSettings, embeddings: EmbeddingsResource,
    retrieval: RetrievalSettings, llm: LLMResource, raw_pages: pd.DataFrame,
    answer: AnswerResource, runtime: RuntimeResource,
) -> Iterator[dg.Output[pd.DataFrame] | dg.AssetCheckResult]:
    """Each golden question of the partition answered within it: the answer with numbered
    citations, its claims and verified citations, the sources used and the guardrails that
    acted. Every answer is also appended to ``answer_audit``."""
    document, year = partition_of(context)
    questions = partition_questions(context, settings.questions_dir, document, year)
    answerer = _answerer(context, settings, embeddings, retrieval, llm, answer, runtime)
    results = []
    for position, question in enumerate(questions, 1):
        result = answerer.ask(question.question, document, year)
        results.append(result)
        context.log.info(f"[{position}/{len(questions)}] {question.id}: "
                         f"{'abstained' if result.abstained else f'{len(result.claims)} claims'}"
                         f" in {result.seconds:.1f} s")
    frame = answers_to_frame(questions, results, document, year)
    append_audit(settings.warehouse_path, WAREHOUSE_SCHEMA,
                 [audit_record(r, document=document, year=year) for r in results])
    yield dg.Output(frame, metadata={
        "questions": len(questions),
        "abstained": int(sum(r.abstained for r in results)),
        "provider": answerer.chat.provider if answerer.chat else "extractive",
        "dagster/row_count": len(frame),
        "preview": preview(frame, ["question_id", "abstained", "answer"], width=240),
    })
    failing = {q.id: reason for q, r in zip(questions, results, strict=True)
               if (reason := _citation_problem(r))}
    yield dg.AssetCheckResult(
        check_name="answer_citations", asset_key="answers", passed=not failing,
        description="every claim cited, no invalid citation",
        metadata={"questions": len(questions), "failing": len(failing),
                  "failing_questions": dg.MetadataValue.json(failing)})


def _citation_problem(result) -> str | None:  # noqa: ANN001 - a QAResult
    for claim in result.claims:
        if not claim.citations:
            return f"uncited claim: {claim.text[:80]}"
        bad = [c for c in claim.citations if c.mark == "invalid"]
        if bad:
            return f"invalid citation {bad[0].label}: {bad[0].reason}"
    return None


@partition_table(GROUP, ins={"raw_pages": dg.AssetIn()},
                 automation_condition=dg.AutomationCondition.eager())
def answer_metrics(
    context: dg.AssetExecutionContext, settings: RagSettings, answers: pd.DataFrame,
    raw_pages: pd.DataFrame,
) -> dg.Output[pd.DataFrame]:
    """Per golden question: fact recall, citation precision and recall (ALCE: claims supported by
    their cited pages; citations that support their claim), whether it abstained rightly, and
    seconds per answer."""
    document, year = partition_of(context)
    questions = {q.id: q for q in partition_questions(context, settings.questions_dir,
                                                      document, year)}
    pages = PageTexts.from_frame(raw_pages)
    scores = [score_answer(questions[row.question_id], _result_of(row), pages.get)
              for row in answers.itertuples() if row.question_id in questions]
    frame = scores_to_frame(scores)
    summary = summarize_answers(scores)
    context.log.info(f"{len(scores)} answers: fact recall {summary['fact_recall']:.3f}, "
                     f"citation precision {summary['citation_precision']:.3f}")
    return dg.Output(frame, metadata={
        **_figures(summary),
        "dagster/row_count": len(frame),
    })


def _figures(summary: dict[str, float | int]) -> dict[str, dg.MetadataValue]:
    """The summary's figures as metadata (a figure without a value is left out)."""
    return {name: dg.MetadataValue.float(float(value)) if isinstance(value, float)
            else dg.MetadataValue.int(int(value))
            for name, value in summary.items() if value == value}


def _result_of(row):  # noqa: ANN001, ANN202 - an answers row, a QAResult
    from rag_assets.core.generation.records import QAResult

    return QAResult.model_validate_json(row.result_json)


@dg.asset(group_name=GROUP, kinds={"duckdb"}, pool=WRITER_POOL,
          deps=[answer_metrics],
          automation_condition=dg.AutomationCondition.eager().without(
              # a partition may never get a table (no golden questions, its file gone): wait
              # for none of them
              ~dg.AutomationCondition.any_deps_missing()).with_label("eager, gaps allowed"))
def answer_rollup(context: dg.AssetExecutionContext,
                  settings: RagSettings) -> dg.Output[pd.DataFrame]:
    """Answer quality over every partition's questions: overall, per document and per
    question category (fact recall, citation precision and recall, abstention accuracy,
    seconds per answer p50 and p95). Reads the whole ``answer_metrics`` table from the
    warehouse: every partition that has answers counts, whichever instance or selection
    launches the roll-up."""
    scores = frame_to_scores(read_whole_table(settings.warehouse_path, "answer_metrics",
                                              scores_to_frame([])))
    groups: list[tuple[str, str, list]] = [("all", "all", scores)]
    for document in sorted({s.document for s in scores}):
        groups.append((document, "all", [s for s in scores if s.document == document]))
    for category in sorted({s.category for s in scores}):
        groups.append(("all", category, [s for s in scores if s.category == category]))
    rows = [{"document": document, "category": category, **summarize_answers(part),
             **seconds_percentiles(part)}
            for document, category, part in groups if part]
    frame = pd.DataFrame(rows).astype({"document": "string", "category": "string"}) \
        if rows else pd.DataFrame({"document": pd.Series(dtype="string"),
                                   "category": pd.Series(dtype="string")})
    context.log.info(f"answer roll-up over {len(scores)} questions")
    overall = rows[0] if rows else {}
    return dg.Output(frame, metadata={
        **_figures({k: v for k, v in overall.items() if k not in ("document", "category")}),
        "by_document": dg.MetadataValue.md(
            frame[frame.category == "all"].round(3).to_markdown(index=False)
            if len(frame) else "no answers yet"),
        "dagster/row_count": len(frame),
    })


generation_assets = [summaries, answers, answer_metrics, answer_rollup]
generation_job = dg.define_asset_job(
    "generation_job", selection=dg.AssetSelection.assets(summaries, answers, answer_metrics),
    description="Summaries, cited answers and their metrics for one document x year partition.")
