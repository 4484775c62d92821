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
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pytest

from rag_assets.core.retrieval.onnx_backend import OnnxEncoder

_VECTORS: dict[tuple[str, int, str], np.ndarray] = {}
_original = OnnxEncoder.encode
_enabled = True


def _remembering_encode(self: OnnxEncoder, texts: Sequence[str], batch_size: int,
                        max_seq_length: int, threads: int) -> np.ndarray:
    if not _enabled or not texts:
        return _original(self, texts, batch_size, max_seq_length, threads)
    stat = self.path.stat()  # a model file written again at the same path is another model
    model = f"{self.path}|{stat.st_size}|{stat.st_mtime_ns}"
    keys = [(model, max_seq_length, text) for text in texts]
    missing = list(dict.fromkeys(key for key in keys if key not in _VECTORS))
    if missing:
        fresh = _original(self, [text for _, _, text in missing], batch_size, max_seq_length,
                          threads)
        _VECTORS.update(zip(missing, fresh, strict=True))
    return np.stack([_VECTORS[key] for key in keys])


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
