"""The ONNX encoder's vectors remembered for the test process: a text the model has read once in
this process is not run through it again.

Many modules index the same sample reports into data folders of their own (every store starts
with an empty embedding cache, as a fresh data folder must): in the suite of 2026-11-27 a worker
encoded ~2,300 texts, ~1,600 of them already encoded by an earlier test of the same process,
~37 of the suite's core-seconds. The model still reads every distinct text once, and the vector
given back is the one it computed: ``OnnxEncoder`` runs one unpadded text per call and
quantizes activations per call, so a text's vector depends on that text, the model file (its
path, size and modification time) and the token limit alone, the memo's key. Everything above
the encoder (the store's cache, the counts of texts embedded, the thread plans, the run metadata)
runs as it does in production.

Tests of the encoder itself (the same vectors in any order, batch or number of streams), and
tests that read what the model did (its time, its texts per second: a remembered text takes no
time, so a rate read after a memo hit is 0), must see the model run: they carry
``pytest.mark.encoder_unmemoized``, and the memo is off during them.

The memo is shared by ``make test``'s two workers through the disk, as the loaded filings are
(``rag_assets_tests.real_filings``): each vector the model computes is written under
``.pytest_cache/encoder_vectors/<model>/`` (``<model>`` a hash of the memo's key but the text;
one file per text, named by its text's hash, written to a temporary name and renamed), and a
text one worker encoded is read there by the other. A folder names its model in ``MODEL``; the
folders of an earlier file at the same model path (a model installed again) are removed. In a
fresh clone's suite the workers' stores hold the same reports (the samples, 3M, GDPR, the real
filings' pages): about 160 core-seconds of encoding in the suite of 2026-12-03.
``RAG_ASSETS_TEST_CACHE=0`` keeps the memo in the process.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from rag_assets.core.retrieval.onnx_backend import OnnxEncoder
from rag_assets_tests.real_filings import CACHE_ROOT

_VECTORS: dict[tuple[str, int, str], np.ndarray] = {}
DISK = CACHE_ROOT.parent / "encoder_vectors"
MODEL_FILE = "MODEL"  # the memo's key but the token limit and the text, in its folder
_PRUNED: set[Path] = set()  # the folders of this process, their replaced models removed
_original = OnnxEncoder.encode
_enabled = True


def _remembering_encode(self: OnnxEncoder, texts: Sequence[str], batch_size: int,
                        max_seq_length: int, threads: int) -> np.ndarray:
    if not _enabled or not texts:
        return _original(self, texts, batch_size, max_seq_length, threads)
    stat = self.path.stat()  # a model file written again at the same path is another model
    model = f"{self.path}|{stat.st_size}|{stat.st_mtime_ns}"
    keys = [(model, max_seq_length, text) for text in texts]
    folder = _folder(model, max_seq_length)
    missing = [key for key in dict.fromkeys(keys)
               if key not in _VECTORS and not _read(folder, key)]
    if missing:
        fresh = _original(self, [text for _, _, text in missing], batch_size, max_seq_length,
                          threads)
        _VECTORS.update(zip(missing, fresh, strict=True))
        for key, vector in zip(missing, fresh, strict=True):
            _write(folder, key[2], vector)
    return np.stack([_VECTORS[key] for key in keys])


def _folder(model: str, max_seq_length: int) -> Path | None:
    """The other workers' vectors of this model and token limit, or None: the cache is off,
    or the model is a test's own export in a temporary folder (kept in the process only, so
    the cache holds the shipped models' vectors alone)."""
    if (os.environ.get("RAG_ASSETS_TEST_CACHE") == "0"
            or model.startswith(tempfile.gettempdir())):
        return None
    name = hashlib.sha256(f"{model}|{max_seq_length}".encode()).hexdigest()[:16]
    folder = DISK / name
    if folder not in _PRUNED:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / MODEL_FILE).write_text(model)
        _prune_replaced(model, folder)
        _PRUNED.add(folder)
    return folder


def _prune_replaced(model: str, kept: Path) -> None:
    """Remove the vectors of an earlier file at this model's path (a model installed again
    has another size or time: its old folder would never be read again)."""
    path = model.rsplit("|", 2)[0]
    for folder in DISK.iterdir():
        if folder == kept:
            continue
        try:
            other = (folder / MODEL_FILE).read_text()
        except OSError:
            continue
        if other != model and other.rsplit("|", 2)[0] == path:
            shutil.rmtree(folder, ignore_errors=True)


def _file(folder: Path, text: str) -> Path:
    return folder / f"{hashlib.sha256(text.encode()).hexdigest()[:32]}.f32"


def _read(folder: Path | None, key: tuple[str, int, str]) -> bool:
    """Whether another worker wrote ``key``'s vector (now in this process's memo too)."""
    if folder is None:
        return False
    try:
        raw = _file(folder, key[2]).read_bytes()
    except OSError:
        return False
    _VECTORS[key] = np.frombuffer(raw, dtype=np.float32).copy()
    return True


def _write(folder: Path | None, text: str, vector: np.ndarray) -> None:
    if folder is None:
        return
    path = _file(folder, text)
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_bytes(np.asarray(vector, dtype=np.float32).tobytes())
    os.replace(partial, path)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "encoder_unmemoized: the ONNX encoder runs for every text (the encoder's own "
        "tests, a test reading the model's speed)")
    OnnxEncoder.encode = _remembering_encode  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def _encoder_memo(request: pytest.FixtureRequest) -> Iterator[None]:
    """The memo off for a test marked ``encoder_unmemoized``."""
    global _enabled
    if request.node.get_closest_marker("encoder_unmemoized") is None:
        yield
        return
    _enabled = False
    try:
        yield
    finally:
        _enabled = True
