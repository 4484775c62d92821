"""Shared fixtures for the core tests: the generated samples, built once per session, and the
reports processed from them by the platform's own chain (``process_report``: each stage worked
out on first use and kept for the session; the real 10-Ks take seconds each, so each is loaded
only once)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from rag_assets.core.chunks.report import ProcessedReport, process_report
from rag_assets.samples.annual_reports import build_annual_reports
from rag_assets.samples.earnings import build_earnings_release
from rag_assets.samples.gdpr import build_gdpr
from rag_assets.samples.tei_paper import build_tei_paper
from rag_assets_tests.real_filings import CORPORA, real_filing

TEN_K = {"3m": CORPORA / "sec-10k" / "3M_2018_10K.pdf",
         "pfizer": CORPORA / "sec-10k" / "PFIZER_2021_10K.pdf"}
TEN_K_PARTITIONS = {"3m": ("3m-10k", 2018), "pfizer": ("pfizer-10k", 2021)}


# what a fixture holds: a report through the ingest chain (pages, context, footnote index,
# stitched text, chunks and facts)
Processed = ProcessedReport


def write_warehouse(path: Path, frames: dict[str, list[pd.DataFrame]]) -> Path:
    """A DuckDB warehouse at ``path`` holding ``frames`` as the assets write them (schema
    ``rag``, one table per key, its frames' rows in order)."""
    import duckdb

    with duckdb.connect(str(path)) as con:
        con.execute("create schema rag")
        for table, parts in frames.items():
            con.register("rows", pd.concat(parts, ignore_index=True))
            con.execute(f"create table rag.{table} as select * from rows")
            con.unregister("rows")
    return path


def process(path: Path, document: str = "doc", year: int = 2024) -> ProcessedReport:
    return process_report(path, document, year)


def process_real(path: Path, document: str = "doc", year: int = 2024) -> ProcessedReport:
    """A real filing of ``../shared/corpora`` processed (loaded through the session's cache of
    real filings, ``rag_assets_tests.real_filings``; skips when it is absent)."""
    return process_report(real_filing(path), document, year)


@pytest.fixture(scope="session")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], Path]:
    """The generated samples (earnings release, six annual reports, TEI paper) by (doc, year)."""
    base = tmp_path_factory.mktemp("samples")
    reports, questions = base / "reports", base / "questions"
    files = [
        *build_earnings_release(reports, questions),
        *build_annual_reports(reports, questions),
        *build_tei_paper(reports, questions),
    ]
    return {(f.document, f.year): f.path for f in files}


@pytest.fixture(scope="session")
def earnings(samples: dict[tuple[str, int], Path]) -> Processed:
    return process(samples[("exemplar-corp-earnings", 2024)], "exemplar-corp-earnings", 2024)


@pytest.fixture(scope="session")
def tei(samples: dict[tuple[str, int], Path]) -> Processed:
    return process(samples[("footnote-rag-paper", 2023)], "footnote-rag-paper", 2023)


@pytest.fixture(scope="session")
def annual(samples: dict[tuple[str, int], Path]) -> dict[tuple[str, int], Processed]:
    return {key: process(path, *key) for key, path in samples.items()
            if key[0].endswith("-annual")}


@pytest.fixture(scope="session")
def gdpr(tmp_path_factory: pytest.TempPathFactory) -> Processed:
    """The real GDPR rendered in the OJ layout (skipped without ../shared/corpora)."""
    if not (CORPORA / "legal" / "gdpr.json").is_file():
        pytest.skip(f"real GDPR corpus not found at {CORPORA / 'legal' / 'gdpr.json'}")
    base = tmp_path_factory.mktemp("gdpr")
    files = build_gdpr(base / "reports", base / "questions", CORPORA)
    assert len(files) == 1
    return process(files[0].path, "gdpr", 2016)


def _ten_k(name: str) -> Processed:
    return process_real(TEN_K[name], *TEN_K_PARTITIONS[name])


# Session scope (not module scope): test_documents and test_footnotes both use the 10-Ks, and
# each should be parsed once per run.
@pytest.fixture(scope="session")
def three_m() -> Processed:
    return _ten_k("3m")


@pytest.fixture(scope="session")
def pfizer() -> Processed:
    return _ten_k("pfizer")
