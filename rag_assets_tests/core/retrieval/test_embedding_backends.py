"""The embedding backends (issue 20): ONNX fp32 and int8 against torch fp32 on real sentences,
tables and caches kept apart per backend (and per recipe), and the fallback to torch when ONNX
cannot load.

The exports are the machine's own (``onnx_backend.onnx_dir``, as every other test and run uses
them): the session fixture :func:`exported` makes them at most once per machine (about 20-40 s
on 2 cores the first time, nothing after); the test of the cache itself works on a copy.
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from rag_assets.core.chunks.chunking import Chunk, chunk_id
from rag_assets.core.retrieval import onnx_backend
from rag_assets.core.retrieval.embeddings import (
    BUNDLED_MODEL,
    DEFAULT_BACKEND,
    Embedder,
    content_key,
    model_slug,
    prepare_onnx,
    requested_backend,
    resolve_model,
)
from rag_assets.core.retrieval.store import VectorStore, index_partition
from rag_assets.core.settings import Settings

pytestmark = pytest.mark.encoder_unmemoized  # the encoder's own tests: the model runs

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
# fp32 ONNX is torch to float rounding (cosine 0.9999999 here and on 512 chunks of a 10-K).
# int8, measured on these sentences: 0.987-0.995, the empty text 0.980 (mean 0.991); on 512
# real chunks of a 10-K mean 0.9935, min 0.984 (bench/README.md, embed_bench.py)
FP32_MIN_COSINE = 0.99
INT8_MIN_COSINE = 0.97
INT8_MEAN_COSINE = 0.985
TORCH_SLUG = "all_minilm_l6_v2_256"


@pytest.fixture(scope="session")
def exported() -> dict[str, Path]:
    """Both ONNX files of the bundled model in the machine's export folder: exported (and
    checked against torch) the first time on a machine, found in the cache after that."""
    folder = Path(resolve_model(BUNDLED_MODEL))
    return {backend: prepare_onnx(BUNDLED_MODEL, backend, 256)
            for backend in onnx_backend.ONNX_BACKENDS} | {"folder": folder}


@pytest.fixture(scope="module")
def torch_vectors() -> np.ndarray:
    return Embedder(backend="torch").encode(SENTENCES)


@pytest.mark.parametrize(("backend", "least", "mean"), [
    ("onnx", FP32_MIN_COSINE, 0.9999), ("onnx-int8", INT8_MIN_COSINE, INT8_MEAN_COSINE)])
def test_onnx_vectors_match_torch(backend: str, least: float, mean: float,
                                  torch_vectors: np.ndarray, exported: dict[str, Path]) -> None:
    embedder = Embedder(backend=backend)
    assert embedder.backend == backend and embedder.fallback_reason is None
    vectors = embedder.encode(SENTENCES)
    assert vectors.shape == torch_vectors.shape and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    cosines = (vectors * torch_vectors).sum(axis=1)
    assert cosines.min() >= least and cosines.mean() >= mean, cosines
    # alone or among others, in any order: the same vector (one text per run, so int8's
    # per-run activation scale is the text's own)
    single = np.stack([embedder.encode([s])[0] for s in SENTENCES])
    assert np.allclose(single, vectors, atol=1e-6)
    reordered = embedder.encode(SENTENCES[::-1])[::-1]
    assert np.allclose(reordered, vectors, atol=1e-5)


@pytest.mark.parametrize("streams", [2, 3, 20])
def test_streams_give_each_text_its_own_vector_in_order(streams: int,
                                                        exported: dict[str, Path]) -> None:
    """Several one-thread streams side by side (every ``streams``-th text each) return exactly
    the vectors of one stream, in the input order, with more streams than texts too."""
    encoder = Embedder(backend="onnx-int8").model
    one = encoder.encode(SENTENCES, 32, 256, 1)
    side_by_side = encoder.encode(SENTENCES, 32, 256, streams)
    assert side_by_side.shape == one.shape and side_by_side.dtype == np.float32
    assert np.array_equal(side_by_side, one)
    assert encoder.encode([], 32, 256, streams).shape == (0, one.shape[1])


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


def test_export_is_cached_and_checked(exported: dict[str, Path], tmp_path: Path) -> None:
    """An export is made once and then found (by any process: nothing is exported or loaded
    again); a truncated file is exported again, not loaded. On a copy of the machine's folder."""
    copy = tmp_path / "onnx"
    shutil.copytree(exported["onnx"].parent, copy / exported["onnx"].parent.name,
                    ignore=shutil.ignore_patterns("*.lock", "*.tmp"))
    int8_file = copy / exported["onnx-int8"].parent.name / exported["onnx-int8"].name
    facts = onnx_backend.json.loads(int8_file.with_suffix(".json").read_text())
    assert facts["recipe_tag"] == onnx_backend.recipe_tag("onnx-int8") in int8_file.name
    assert facts["probe_cosine_min"] >= onnx_backend.PROBE_COSINE["onnx-int8"]
    assert facts["bytes"] == int8_file.stat().st_size
    exported_at = int8_file.stat().st_mtime_ns
    # from the copy: nothing exported, nothing loaded
    again = Embedder(backend="onnx-int8", onnx_folder=copy)
    assert again.backend == "onnx-int8" and not again.model_loaded
    assert int8_file.stat().st_mtime_ns == exported_at
    # a truncated file (a disk filled up, a copy cut short) is exported again, not loaded
    int8_file.write_bytes(int8_file.read_bytes()[:1000])
    repaired = Embedder(backend="onnx-int8", onnx_folder=copy)
    assert repaired.backend == "onnx-int8" and int8_file.stat().st_size == facts["bytes"]
    assert repaired.encode(["Net sales rose."]).shape == (1, 384)


def test_a_recipe_change_gets_new_tables_a_new_cache_and_a_new_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stale vectors of an older recipe are never read: the slug (tables and embedding cache)
    and the export's file name carry backend, precision and a tag of the recipe."""
    folder = Path(resolve_model(BUNDLED_MODEL))
    slug = model_slug(BUNDLED_MODEL, 256, "onnx-int8")
    tag = onnx_backend.recipe_tag("onnx-int8")
    assert slug == f"{TORCH_SLUG}_onnx_int8_{tag}" and len(tag) == 6
    assert model_slug(BUNDLED_MODEL, 256, "onnx") == (
        f"{TORCH_SLUG}_onnx_fp32_{onnx_backend.recipe_tag('onnx')}")
    fp32_slug = model_slug(BUNDLED_MODEL, 256, "onnx")
    path = onnx_backend.export_path(folder, "onnx-int8")
    monkeypatch.setattr(onnx_backend, "INT8_RECIPE",
                        {**onnx_backend.INT8_RECIPE, "kept_fp32": "the first two layers"})
    assert model_slug(BUNDLED_MODEL, 256, "onnx-int8") != slug
    assert onnx_backend.export_path(folder, "onnx-int8") != path
    assert model_slug(BUNDLED_MODEL, 256, "onnx") == fp32_slug  # int8's recipe is not fp32's
    monkeypatch.setattr(onnx_backend, "ENCODING", "padded batches")  # how the file is run
    assert model_slug(BUNDLED_MODEL, 256, "onnx") != fp32_slug
    monkeypatch.setattr(onnx_backend, "EXPORT_VERSION", onnx_backend.EXPORT_VERSION + 1)
    assert len({model_slug(BUNDLED_MODEL, 256, "onnx"), fp32_slug, slug}) == 3
    assert model_slug(BUNDLED_MODEL, 256, "torch") == TORCH_SLUG


def _chunks(texts: list[str]) -> list[Chunk]:
    return [Chunk(chunk_id=chunk_id("acme", 2024, "naive", seq), document="acme", year=2024,
                  kind="naive", seq=seq, page_start=seq, page_end=seq + 1, section="s",
                  text=text, n_chars=len(text), n_tokens=len(text.split()), markers_cited=[],
                  markers_defined=[]) for seq, text in enumerate(texts)]


def _table_vectors(store: VectorStore) -> np.ndarray:
    rows = store.db.open_table(store.table_name("naive")).search().limit(None).to_list()
    return np.stack([np.asarray(r["vector"], dtype=np.float32)
                     for r in sorted(rows, key=lambda r: r["seq"])])


def test_switching_the_backend_on_a_store_never_mixes_vectors(
    tmp_path: Path, exported: dict[str, Path],
) -> None:
    """One store folder, the same partition indexed by torch, then int8, then torch again:
    each backend writes and reads its own vector table and its own embedding cache; nothing of
    one backend is read or written by another, and going back computes nothing."""
    torch_embedder, int8 = Embedder(backend="torch"), Embedder(backend="onnx-int8")
    fp32 = Embedder(backend="onnx")
    assert torch_embedder.slug == TORCH_SLUG  # torch keeps the tables it had
    assert len({torch_embedder.slug, int8.slug, fp32.slug}) == 3
    assert int8.slug.startswith(f"{TORCH_SLUG}_onnx_int8_")
    assert fp32.slug.startswith(f"{TORCH_SLUG}_onnx_fp32_")

    folder = tmp_path / "db"
    chunks = _chunks(SENTENCES[:5])
    texts = [c.search_text for c in chunks]

    def index(embedder: Embedder) -> tuple[VectorStore, int, int]:
        store = VectorStore(folder, embedder.slug, embedder.dimension)
        embedder.cache = store.embedding_cache()
        stats = index_partition(store, embedder, "naive", "acme", 2024, chunks).embedding
        return store, stats.computed, stats.cached

    torch_store, computed, _ = index(torch_embedder)
    assert computed == 5
    int8_store, computed, cached = index(int8)  # same texts, another backend: computed
    assert (computed, cached) == (5, 0)
    assert torch_store.table_name("naive") != int8_store.table_name("naive")
    names = set(torch_store.table_names())
    for slug in (torch_embedder.slug, int8.slug):
        assert f"embedding_cache__{slug}" in names
        assert any(n.endswith(f"__{slug}") and n.startswith("naive_chunks") for n in names)
    # each table holds its own backend's vectors, nothing else
    torch_rows, int8_rows = _table_vectors(torch_store), _table_vectors(int8_store)
    assert torch_rows.shape == int8_rows.shape == (5, 384)
    assert np.allclose(torch_rows, torch_embedder.encode(texts), atol=1e-5)
    assert np.allclose(int8_rows, int8.encode(texts), atol=1e-6)
    assert not np.allclose(torch_rows, int8_rows, atol=1e-3)
    keys = [content_key(t) for t in texts]
    torch_cache = torch_store.embedding_cache().get_many(keys)
    int8_cache = int8_store.embedding_cache().get_many(keys)
    assert np.allclose(np.stack([torch_cache[k] for k in keys]), torch_rows, atol=1e-6)
    assert np.allclose(np.stack([int8_cache[k] for k in keys]), int8_rows, atol=1e-6)
    # back on torch (a new process would do the same): everything from torch's own cache
    _, computed, cached = index(Embedder(backend="torch"))
    assert (computed, cached) == (0, 5)
    assert np.array_equal(_table_vectors(torch_store), torch_rows)
    _, computed, cached = index(Embedder(backend="onnx-int8"))
    assert (computed, cached) == (0, 5)
    assert np.array_equal(_table_vectors(int8_store), int8_rows)


def test_backend_from_the_settings(monkeypatch: pytest.MonkeyPatch,
                                   exported: dict[str, Path]) -> None:
    """``embeddings.backend``, from ``RAG_ASSETS_EMBED_BACKEND`` or the nested variable."""
    def from_settings() -> Embedder:
        return Embedder(**Settings().embeddings.model_dump())

    monkeypatch.delenv("RAG_ASSETS_EMBED_BACKEND", raising=False)
    monkeypatch.delenv("RAG_ASSETS_EMBEDDINGS__BACKEND", raising=False)
    assert requested_backend() == DEFAULT_BACKEND == "onnx-int8"
    assert from_settings().backend == DEFAULT_BACKEND
    monkeypatch.setenv("RAG_ASSETS_EMBED_BACKEND", "torch")
    assert requested_backend("onnx-int8") == "onnx-int8"
    assert from_settings().backend == "torch" and from_settings().slug == TORCH_SLUG
    monkeypatch.setenv("RAG_ASSETS_EMBEDDINGS__BACKEND", "ONNX")  # the nested name wins
    assert from_settings().backend == "onnx"
    with pytest.raises(ValueError, match="unknown embedding backend 'tensorrt'"):
        Embedder(backend="tensorrt")


def test_an_onnx_backend_that_cannot_load_falls_back_to_torch_in_one_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path,
) -> None:
    # a cache folder that cannot be created: the export has nowhere to go
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with caplog.at_level(logging.WARNING):
        embedder = Embedder(backend="onnx-int8", onnx_folder=blocker / "onnx")
    assert embedder.backend == "torch" and embedder.requested_backend == "onnx-int8"
    assert embedder.slug == TORCH_SLUG  # torch's vectors, torch's tables
    lines = [r.getMessage() for r in caplog.records if "unavailable" in r.getMessage()]
    assert len(lines) == 1 and "\n" not in lines[0]
    assert lines[0].startswith("embeddings: backend onnx-int8 unavailable")
    assert embedder.fallback_reason and embedder.fallback_reason in lines[0]
    assert embedder.encode(["Net sales rose."]).shape == (1, 384)


def _linked_copy(source: Path, target: Path) -> Path:
    """The model folder with every file a symbolic link (not 88 MB copied); a file to change
    must be unlinked first (:func:`_rewrite`), or the original would change."""
    shutil.copytree(source, target, copy_function=os.symlink)
    return target


def _rewrite(path: Path, text: str) -> None:
    path.unlink()
    path.write_text(text, encoding="utf-8")


def test_a_model_folder_onnx_cannot_reproduce_falls_back(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    """A Dense layer after the pooling (or another pooling mode) is not run on ONNX."""
    folder = _linked_copy(Path(resolve_model(BUNDLED_MODEL)), tmp_path / "MiniLM-with-dense")
    modules = onnx_backend._read_json(folder / "modules.json")
    modules.insert(2, {"idx": 2, "name": "2", "path": "2_Dense",
                       "type": "sentence_transformers.models.Dense"})
    _rewrite(folder / "modules.json", onnx_backend.json.dumps(modules))
    with pytest.raises(onnx_backend.OnnxUnavailable, match="Dense"):
        onnx_backend.pipeline_of(folder)
    _rewrite(folder / "modules.json", onnx_backend.json.dumps(
        [m for m in modules if m["path"] != "2_Dense"]))
    pooling = folder / "1_Pooling" / "config.json"
    config = onnx_backend._read_json(pooling)
    config["pooling_mode_lasttoken"] = True
    _rewrite(pooling, onnx_backend.json.dumps(config))
    with caplog.at_level(logging.WARNING):
        embedder = Embedder(str(folder), backend="onnx")
    assert embedder.backend == "torch" and "pooling" in (embedder.fallback_reason or "")
    assert embedder.slug == model_slug(str(folder), 256)  # torch's name for that folder
    assert len([r for r in caplog.records if "unavailable" in r.getMessage()]) == 1


def test_the_resource_passes_its_backend(tmp_path: Path, exported: dict[str, Path]) -> None:
    from rag_assets.defs.resources import EmbeddingsResource, RagSettings

    settings = RagSettings(data_dir=str(tmp_path))
    embedder, store = EmbeddingsResource(backend="onnx-int8").embedder(settings)
    assert embedder.backend == "onnx-int8" and store.model_slug == embedder.slug
    embedder, store = EmbeddingsResource(backend="torch").embedder(settings)
    assert embedder.backend == "torch" and store.model_slug == TORCH_SLUG
