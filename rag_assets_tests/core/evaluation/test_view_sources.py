"""What the answer view shows of a partition: the PDF ``raw_pages`` records when its content is
the one ingested (also found under ``data/reports/`` when the data folder moved), else the stored
text and why."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from rag_assets.core.evaluation.view_sources import partition_sources
from rag_assets.core.ingest.documents import file_sha256
from rag_assets.core.ingest.pages import raw_page_text
from rag_assets.core.warehouse.tables import pages_to_frame
from rag_assets_tests.real_filings import CORPORA, real_filing

THREE_M = CORPORA / "sec-10k" / "3M_2018_10K.pdf"
KEY = ("3m-10k", 2018)


def warehouse(data: Path, source_file: Path, sha256: str) -> Path:
    """A warehouse whose ``raw_pages`` holds 3M's first 3 pages read from ``source_file``."""
    pages = real_filing(THREE_M).pages[:3]
    frame = pages_to_frame(pages, *KEY, str(source_file), sha256)
    database = data / "warehouse.duckdb"
    with duckdb.connect(str(database)) as con:
        con.execute("create schema rag")
        con.register("pages", frame)
        con.execute("create table rag.raw_pages as select * from pages")
    return database


@pytest.fixture
def filed(tmp_path: Path) -> Path:
    """3M's 10-K filed under the data folder's reports."""
    if not THREE_M.is_file():
        pytest.skip(f"{THREE_M} not found")
    report = tmp_path / "reports" / "3m-10k" / "2018" / THREE_M.name
    report.parent.mkdir(parents=True)
    shutil.copyfile(THREE_M, report)
    return report


def test_the_recorded_pdf_of_the_ingested_content_is_drawn(tmp_path, filed) -> None:
    database = warehouse(tmp_path, filed, file_sha256(filed))
    source = partition_sources(database, tmp_path / "reports", [KEY, KEY])[KEY]
    assert source.pdf == filed and not source.note
    assert source.texts[2] == raw_page_text(real_filing(THREE_M).pages[2])


def test_a_moved_data_folder_finds_its_report_under_reports(tmp_path, filed) -> None:
    database = warehouse(tmp_path, tmp_path / "elsewhere" / filed.name, file_sha256(filed))
    assert partition_sources(database, tmp_path / "reports", [KEY])[KEY].pdf == filed


def test_a_changed_or_missing_file_shows_the_stored_text_and_says_why(tmp_path, filed) -> None:
    database = warehouse(tmp_path, filed, "0" * 64)
    changed = partition_sources(database, tmp_path / "reports", [KEY])[KEY]
    assert changed.pdf is None and "has changed since it was ingested" in changed.note
    assert len(changed.texts) == 3
    filed.unlink()
    gone = partition_sources(database, tmp_path / "reports", [KEY, ("other", 2020)])
    assert gone[KEY].pdf is None and "is not there any more" in gone[KEY].note
    assert ("other", 2020) not in gone  # a partition not stored: nothing to show
