"""The embedding backends (issue 20): ONNX fp32 and int8 against torch fp32 on real sentences,
tables and caches kept apart per backend, and the fallback to torch when ONNX cannot load.

The exported files go to a temporary folder of this module (``RAG_ASSETS_ONNX_DIR``): the first
test exports the bundled MiniLM once (about 20-40 s on 2 cores), the others reuse it.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from rag_assets.core.retrieval import onnx_backend
from rag_assets.core.retrieval.embeddings import (
    BACKEND_ENV,
    BUNDLED_MODEL,
    Embedder,
    model_slug,
    requested_backend,
    resolve_model,
)
from rag_assets.core.retrieval.store import VectorStore

# real sentences: a 10-K's notes and statements, a footnote, a question, an empty text, one
# longer than the model's 256 tokens (truncated alike by both), odd whitespace and accents
SENTENCES = [
    "Net sales increased 6 percent to $39.1 billion in fiscal 2019, driven by NIKE Direct.",
    "[1] Includes $555 million of revenue from the acquisition of Bluefin; organic growth was "
    "3.2%.",
    "What was the company's inventory turnover in FY2019?",
    "Total current liabilities  12,345   11,002\n(in millions, except per share data)",
    "  The effective tax rate decreased to 21.3%, compared with 24.1% in the prior year.\n",
    "Cash paid for interest, net of amounts capitalized",
    "",
    "Goodwill impairment testing requires judgment about future cash flows. " * 30,
    "Société Générale café naïve — résumé of the segment's EBITDA",
]
# measured on these sentences and on 512 chunks of a 10-K (bench/README.md, embed_bench.py):
# fp32 ONNX is torch to float rounding; int8 min 0.994 on 512 real chunks
FP32_MIN_COSINE = 0.99
INT8_MIN_COSINE = 0.98
INT8_MEAN_COSINE = 0.99


@pytest.fixture(scope="module", autouse=True)
def onnx_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("onnx_exports")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAG_ASSETS_ONNX_DIR", str(folder))
        patch.delenv(BACKEND_ENV, raising=False)
        yield folder


@pytest.fixture(scope="module")
def torch_vectors() -> np.ndarray:
    return Embedder(backend="torch").encode(SENTENCES)


@pytest.mark.parametrize(("backend", "least", "mean"), [
    ("onnx", FP32_MIN_COSINE, 0.9999), ("onnx-int8", INT8_MIN_COSINE, INT8_MEAN_COSINE)])
def test_onnx_vectors_match_torch(backend: str, least: float, mean: float,
                                  torch_vectors: np.ndarray) -> None:
    embedder = Embedder(backend=backend)
    assert embedder.backend == backend and embedder.fallback_reason is None
    vectors = embedder.encode(SENTENCES)
    assert vectors.shape == torch_vectors.shape and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    cosines = (vectors * torch_vectors).sum(axis=1)
    assert cosines.min() >= least and cosines.mean() >= mean, cosines
    # batches of other sizes and orders give the same vectors (padding never counts)
    single = np.stack([embedder.encode([s])[0] for s in SENTENCES[:4]])
    assert np.allclose(single, vectors[:4], atol=1e-4 if backend == "onnx" else 2e-2)
    reordered = embedder.encode(SENTENCES[::-1])[::-1]
    assert np.allclose(reordered, vectors, atol=1e-5)


def test_onnx_tokenizer_gives_sentence_transformers_ids() -> None:
    """The same ids, mask and types as the torch model's own tokenizer, truncation included."""
    from rag_assets.core.retrieval.embeddings import load_model

    model = load_model(BUNDLED_MODEL)
    model.max_seq_length = 256
    expected = model.tokenize(SENTENCES)
    ours = onnx_backend._feed(onnx_backend.load_tokenizer(Path(resolve_model(BUNDLED_MODEL)),
                                                          256), SENTENCES)
    for name in onnx_backend.INPUTS:
        assert np.array_equal(ours[name], expected[name].numpy()), name
    assert ours["input_ids"].shape[1] == 256  # the long sentence was cut at the limit


def test_export_is_cached_and_checked(onnx_folder: Path) -> None:
    Embedder(backend="onnx-int8")
    files = sorted(p.name for p in onnx_folder.rglob("*.onnx"))
    assert len(files) == 2 and any("int8" in f for f in files) and any("fp32" in f for f in files)
    facts = [p for p in onnx_folder.rglob("*.json")]
    assert all(onnx_backend.json.loads(p.read_text())["probe_cosine_min"] >= 0.98 for p in facts)
    again = Embedder(backend="onnx-int8")  # from the cache: nothing exported, nothing loaded
    assert sorted(p.name for p in onnx_folder.rglob("*.onnx")) == files
    assert not again.model_loaded


def test_backends_keep_their_own_tables_and_caches(tmp_path: Path) -> None:
    """Switching the backend on one store folder: another slug, other tables, another cache;
    nothing of one backend is read or written by another."""
    torch_embedder = Embedder(backend="torch")
    int8 = Embedder(backend="onnx-int8")
    fp32 = Embedder(backend="onnx")
    slugs = {torch_embedder.slug, int8.slug, fp32.slug}
    assert len(slugs) == 3
    assert torch_embedder.slug == "all_minilm_l6_v2_256"  # torch keeps the tables it had
    assert int8.slug == "all_minilm_l6_v2_256_onnx_int8"
    assert fp32.slug == "all_minilm_l6_v2_256_onnx_fp32"
    assert model_slug(BUNDLED_MODEL, 128, "onnx-int8") == "all_minilm_l6_v2_128_onnx_int8"

    stores = {}
    for embedder in (torch_embedder, int8):
        store = VectorStore(tmp_path / "db", embedder.slug, embedder.dimension)
        embedder.cache = store.embedding_cache()
        stores[embedder.backend] = store
    assert stores["torch"].table_name("naive") != stores["onnx-int8"].table_name("naive")

    texts = SENTENCES[:4]
    first, stats = torch_embedder.embed(texts)
    assert stats.computed == 4
    switched, stats = int8.embed(texts)  # same texts, other backend: computed, not read
    assert stats.computed == 4 and stats.cached == 0
    assert not np.array_equal(first, switched)
    # each cache holds its own backend's vectors, and back on torch everything is cached
    back = Embedder(backend="torch", cache=stores["torch"].embedding_cache())
    again, stats = back.embed(texts)
    assert stats.computed == 0 and np.array_equal(again, first)
    again_int8, stats = Embedder(
        backend="onnx-int8", cache=stores["onnx-int8"].embedding_cache()).embed(texts)
    assert stats.computed == 0 and np.array_equal(again_int8, switched)


def test_backend_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BACKEND_ENV, "onnx-int8")
    assert requested_backend() == "onnx-int8" and requested_backend("torch") == "torch"
    assert Embedder().backend == "onnx-int8"
    monkeypatch.setenv(BACKEND_ENV, "tensorrt")
    with pytest.raises(ValueError, match="unknown embedding backend 'tensorrt'"):
        Embedder()


def test_an_onnx_backend_that_cannot_load_falls_back_to_torch_in_one_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path,
) -> None:
    # a cache folder that cannot be created: the export has nowhere to go
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("RAG_ASSETS_ONNX_DIR", str(blocker / "onnx"))
    with caplog.at_level(logging.WARNING):
        embedder = Embedder(backend="onnx-int8")
    assert embedder.backend == "torch" and embedder.requested_backend == "onnx-int8"
    assert embedder.slug == "all_minilm_l6_v2_256"  # torch's vectors, torch's tables
    lines = [r.getMessage() for r in caplog.records if "unavailable" in r.getMessage()]
    assert len(lines) == 1 and "\n" not in lines[0]
    assert lines[0].startswith("embeddings: backend onnx-int8 unavailable")
    assert embedder.fallback_reason and embedder.fallback_reason in lines[0]
    assert embedder.encode(["Net sales rose."]).shape == (1, 384)


def test_a_model_folder_onnx_cannot_reproduce_falls_back(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    """A Dense layer after the pooling (or another pooling mode) is not run on ONNX."""
    import shutil

    folder = tmp_path / "MiniLM-with-dense"
    shutil.copytree(resolve_model(BUNDLED_MODEL), folder)
    modules = onnx_backend._read_json(folder / "modules.json")
    modules.insert(2, {"idx": 2, "name": "2", "path": "2_Dense",
                       "type": "sentence_transformers.models.Dense"})
    (folder / "modules.json").write_text(onnx_backend.json.dumps(modules))
    with pytest.raises(onnx_backend.OnnxUnavailable, match="Dense"):
        onnx_backend.pipeline_of(folder)
    (folder / "modules.json").write_text(onnx_backend.json.dumps(
        [m for m in modules if m["path"] != "2_Dense"]))
    pooling = folder / "1_Pooling" / "config.json"
    config = onnx_backend._read_json(pooling)
    config["pooling_mode_lasttoken"] = True
    pooling.write_text(onnx_backend.json.dumps(config))
    with caplog.at_level(logging.WARNING):
        embedder = Embedder(str(folder), backend="onnx")
    assert embedder.backend == "torch" and "pooling" in (embedder.fallback_reason or "")


def test_the_resource_passes_its_backend(tmp_path: Path) -> None:
    from rag_assets.defs.resources import EmbeddingsResource, RagSettings

    settings = RagSettings(data_dir=str(tmp_path))
    embedder, store = EmbeddingsResource(backend="onnx-int8").embedder(settings)
    assert embedder.backend == "onnx-int8" and store.model_slug == embedder.slug
    embedder, store = EmbeddingsResource(backend="torch").embedder(settings)
    assert embedder.backend == "torch" and store.model_slug == "all_minilm_l6_v2_256"
