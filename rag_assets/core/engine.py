"""The answer engine assembled from the one :class:`Settings`: what ``rag-assets ask``, the
answer assets and the benches answer with (no Dagster needed to answer)."""

from __future__ import annotations

from pathlib import Path

from rag_assets.core.generation.answers import AnswerConfig, Answerer
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.llm.client import LLMConfig, connect
from rag_assets.core.retrieval.ann import AnnConfig
from rag_assets.core.retrieval.embeddings import Embedder, torch_threads_for
from rag_assets.core.retrieval.retriever import Retriever
from rag_assets.core.retrieval.store import VectorStore
from rag_assets.core.settings import Settings, provider_environment, section_of
from rag_assets.core.warehouse.stored import stored_facts
from rag_assets.core.warehouse.writable import check_folder


def retriever_from(settings: Settings) -> Retriever:
    """The embedding model (its ONNX folder and cores from ``runtime``), its store (the vector
    index's threshold from ``runtime``) and the retrieval settings. An unwritable store folder
    raises ``StoreNotWritable`` (one line) before the model loads."""
    lancedb, runtime = settings.ingest.lancedb_dir, settings.runtime
    if isinstance(lancedb, Path):  # an object store has no folder to probe
        check_folder(lancedb, "LanceDB folder")
    embedder = Embedder(**settings.embeddings.model_dump(), onnx_folder=runtime.onnx_folder)
    if runtime.cores:
        embedder.threads = torch_threads_for(1, runtime.cores)
    store = VectorStore.of(embedder, lancedb, AnnConfig(min_rows=runtime.ann_index_rows))
    return Retriever(store, embedder, settings.retrieval)


def answerer_from(settings: Settings, pages: PageTexts | None = None) -> Answerer:
    """The answer engine of the configured provider over the store; ``LLMConfigError`` or
    ``RuntimeError`` in one line when a setting or the model is missing. The pages (``pages``,
    else the warehouse's) and statement facts of a partition are read when a question first
    needs them, with a ``WHERE``: a metric question is answered from the facts of the filing
    routing picks, and a question costs what it reads, not what the corpus holds."""
    llm = section_of(settings.llm, LLMConfig)
    chat = connect(llm, provider_environment(llm), settings.runtime.prompts_folder)
    # how closely a citation must match and how long a question may be are the llm section's
    # (the fields a user edits on the llm resource), whichever engine answers
    config = AnswerConfig.model_validate(settings.answer.model_dump() | {
        "citation_threshold": settings.llm.citation_threshold,
        "max_question_chars": settings.llm.max_question_chars})
    database = settings.ingest.warehouse_path
    return Answerer(retriever_from(settings), pages or PageTexts.from_warehouse(database), chat,
                    config, facts=stored_facts(database))
