"""The test harness's encoder memo on disk: a model installed again leaves no stale folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets_tests import encoder_memo


def test_a_model_file_replaced_at_its_path_drops_the_old_vectors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encoder_memo, "DISK", tmp_path)
    monkeypatch.setattr(encoder_memo, "_PRUNED", set())
    monkeypatch.delenv("RAG_ASSETS_TEST_CACHE", raising=False)
    old = encoder_memo._folder("/opt/models/model_int8.onnx|100|1", 256)
    other = encoder_memo._folder("/opt/models/model_fp32.onnx|400|1", 256)
    assert old is not None and other is not None
    (old / "vector.f32").write_bytes(b"\0" * 4)
    # the same file written again: another size and time at the same path
    new = encoder_memo._folder("/opt/models/model_int8.onnx|101|2", 256)
    assert new is not None and new.is_dir()
    assert not old.exists()
    assert other.is_dir()  # another model's vectors stay
    assert (new / encoder_memo.MODEL_FILE).read_text() == "/opt/models/model_int8.onnx|101|2"
