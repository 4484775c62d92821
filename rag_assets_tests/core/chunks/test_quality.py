"""The chunk tables' GX suite: a sound table passes every expectation; a broken one fails each
broken expectation with its count and a sample of what broke it (the check's description)."""

from __future__ import annotations

from rag_assets.core.chunks.quality import validate_chunk_table
from rag_assets.core.chunks.records import Chunk, chunk_id
from rag_assets.core.warehouse.tables import chunks_to_frame


def _chunk(seq: int, text: str, tokens: int, start: int = 0, end: int = 0) -> Chunk:
    return Chunk(chunk_id=chunk_id("doc", 2024, "naive", seq), document="doc", year=2024,
                 kind="naive", seq=seq, page_start=start, page_end=end, text=text,
                 section=None, n_chars=len(text), n_tokens=tokens, markers_cited=[],
                 markers_defined=[])


def test_a_sound_table_meets_every_expectation() -> None:
    report = validate_chunk_table(chunks_to_frame([_chunk(0, "Sales rose.", 5),
                                                   _chunk(1, "Costs fell.", 6, 1, 2)]), 256)
    assert report.success and report.evaluated == 7 and not report.failed
    assert report.summary() == "all 7 expectations met"


def test_a_broken_table_names_each_broken_expectation_with_a_sample() -> None:
    frame = chunks_to_frame([_chunk(0, "Sales rose.", 5), _chunk(1, "Too long.", 300),
                             _chunk(2, "Backwards.", 4, 3, 1)])
    frame.loc[2, "chunk_id"] = frame.loc[0, "chunk_id"]  # two chunks with one id
    report = validate_chunk_table(frame, 256)
    assert not report.success
    failed = {(f.expectation, f.column): f for f in report.failed}
    assert set(failed) == {
        ("expect_column_values_to_be_unique", "chunk_id"),
        ("expect_column_values_to_be_between", "n_tokens"),
        ("expect_column_pair_values_a_to_be_greater_than_b", "page_end"),
    }
    too_long = failed[("expect_column_values_to_be_between", "n_tokens")]
    assert too_long.unexpected_count == 1 and too_long.sample == [300]
    assert failed[("expect_column_pair_values_a_to_be_greater_than_b", "page_end")].sample == [
        (1, 3)]
    assert "n_tokens): 1 unexpected, e.g. [300]" in report.summary()  # plain values
