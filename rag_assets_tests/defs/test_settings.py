"""One settings model (``core/settings.py``) that the Dagster resources are, not copy: each
resource has exactly its section's fields and defaults, an unknown setting fails, the deployed
store locations stay ``dg.EnvVar`` until a run reads them."""

from __future__ import annotations

import inspect
from pathlib import Path

import dagster as dg
import pytest
from pydantic import BaseModel, ValidationError

from rag_assets.core.llm.client import LLMConfig
from rag_assets.core.retrieval.embeddings import Embedder, EmbeddingSettings
from rag_assets.core.retrieval.retriever import RetrievalConfig
from rag_assets.core.settings import (
    AnswerSettings,
    IngestSettings,
    LLMSettings,
    RuntimeSettings,
    Settings,
)
from rag_assets.defs.resources import (
    STORE_VARIABLES,
    AnswerResource,
    EmbeddingsResource,
    LLMResource,
    RagSettings,
    RetrievalSettings,
    RuntimeResource,
    default_resources,
)

RESOURCE_SECTIONS: list[tuple[type[dg.ConfigurableResource], type[BaseModel]]] = [
    (RagSettings, IngestSettings), (EmbeddingsResource, EmbeddingSettings),
    (RetrievalSettings, RetrievalConfig), (AnswerResource, AnswerSettings),
    (LLMResource, LLMSettings), (RuntimeResource, RuntimeSettings)]


@pytest.mark.parametrize(("resource", "section"), RESOURCE_SECTIONS)
def test_each_resource_is_its_section(resource: type[dg.ConfigurableResource],
                                      section: type[BaseModel]) -> None:
    assert issubclass(resource, section)
    assert resource.model_fields.keys() == section.model_fields.keys()
    for name, field in section.model_fields.items():
        assert resource.model_fields[name].default == field.default, name
    with pytest.raises(ValidationError):
        resource(not_a_setting=1)


def test_the_settings_model_forbids_unknown_fields_and_reaches_every_resource(
        tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="w_bm52"):
        Settings(retrieval={"w_bm52": 1.0})
    elsewhere = tmp_path / "elsewhere"
    settings = Settings(ingest=IngestSettings(data_dir=str(elsewhere), pdf_workers=3),
                        retrieval=RetrievalConfig(w_bm25=0.8, page_bonus=0.05),
                        embeddings=EmbeddingSettings(batch_size=8),
                        llm=LLMSettings(citation_threshold=0.7, temperature=0.3))
    resources = default_resources(settings=settings)
    assert resources["settings"].pdf_workers == 3
    assert resources["settings"].warehouse_path == elsewhere / "warehouse.duckdb"
    assert resources["io_manager"].database == str(elsewhere / "warehouse.duckdb")
    assert resources["retrieval"].config() == settings.retrieval
    assert resources["embeddings"].batch_size == 8
    assert resources["llm"].citation_threshold == 0.7
    assert resources["llm"].config() == LLMConfig(temperature=0.3)
    assert resources["answer"].config() == settings.answer
    assert resources["runtime"].ocr is True


def test_the_environment_reaches_every_resource(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    """What a deployment sets (nested or short variables) is what the runs are given; the
    vector store's index threshold comes from the runtime section."""
    monkeypatch.setenv("RAG_ASSETS_RETRIEVAL__K", "7")
    monkeypatch.setenv("RAG_ASSETS_ANSWER__EXTRACTIVE__MAX_CLAIMS", "2")
    monkeypatch.setenv("RAG_ASSETS_EMBEDDINGS__BATCH_SIZE", "8")
    monkeypatch.setenv("RAG_ASSETS_LLM__CITATION_THRESHOLD", "0.7")
    monkeypatch.setenv("RAG_ASSETS_INGEST__PDF_WORKERS", "3")
    monkeypatch.setenv("RAG_ASSETS_OCR", "off")
    monkeypatch.setenv("RAG_ASSETS_ANN_INDEX_ROWS", "2500")
    resources = default_resources(str(tmp_path / "data"))
    assert (resources["retrieval"].k, resources["embeddings"].batch_size) == (7, 8)
    assert resources["answer"].extractive.max_claims == 2
    assert (resources["llm"].citation_threshold, resources["settings"].pdf_workers) == (0.7, 3)
    assert resources["runtime"].ocr is False
    _, store = resources["embeddings"].embedder(resources["settings"], resources["runtime"])
    assert store.ann.min_rows == 2500


def test_one_place_for_each_default() -> None:
    """The embedder's defaults are its section's; the fusion and page-ranking functions take
    their weights from the retrieval section (no defaults of their own that could disagree)."""
    from rag_assets.core.retrieval.retriever import blended_rank, rank_pages

    defaults = EmbeddingSettings()
    signature = inspect.signature(Embedder.__init__).parameters
    for name in EmbeddingSettings.model_fields:
        assert signature[name].default == getattr(defaults, name), name
    for function, weights in ((blended_rank, ("w_vec", "w_bm25")),
                              (rank_pages, ("bonus", "extra_hits"))):
        parameters = inspect.signature(function).parameters
        assert all(parameters[w].default is inspect.Parameter.empty for w in weights)


def test_the_deployed_stores_stay_variables_until_a_run(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    for name in STORE_VARIABLES.values():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RAG_ASSETS_DATA_DIR", str(tmp_path / "from-env"))
    resources = default_resources()
    assert resources["io_manager"].database == str(tmp_path / "from-env" / "warehouse.duckdb")

    @dg.asset
    def where(settings: RagSettings) -> str:
        return settings.data_dir

    monkeypatch.setenv("RAG_ASSETS_DATA_DIR", str(tmp_path / "at-run-time"))
    result = dg.materialize([where], resources={"settings": resources["settings"]})
    assert result.output_for_node("where") == str(tmp_path / "at-run-time")
