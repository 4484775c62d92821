"""Shared fixtures for the core tests: the generated samples, built once per session, and the
documents loaded from them (the real 10-Ks take seconds each, so each is loaded only once)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from rag_assets.core.footnotes.stitching import (
    FootnoteIndex,
    StitchedPage,
    build_footnote_index,
    stitch_document,
)
from rag_assets.core.ingest.documents import LoadedDocument, load_document
from rag_assets.samples.annual_reports import build_annual_reports
from rag_assets.samples.earnings import build_earnings_release
from rag_assets.samples.gdpr import build_gdpr
from rag_assets.samples.tei_paper import build_tei_paper
from rag_assets_tests.real_filings import CORPORA, real_filing

TEN_K = {"3m": CORPORA / "sec-10k" / "3M_2018_10K.pdf",
         "pfizer": CORPORA / "sec-10k" / "PFIZER_2021_10K.pdf"}


@dataclass(frozen=True)
class Processed:
    """A loaded document with its footnote dictionary and stitched pages."""

    doc: LoadedDocument
    index: FootnoteIndex
    stitched: list[StitchedPage]


def process(path: Path) -> Processed:
    return processed(load_document(path))


def process_real(path: Path) -> Processed:
    """A real filing of ``../shared/corpora`` processed (loaded through the session's cache of
    real filings, ``rag_assets_tests.real_filings``; skips when it is absent)."""
    return processed(real_filing(path))


def processed(doc: LoadedDocument) -> Processed:
    index = build_footnote_index(doc.pages)
    return Processed(doc=doc, index=index, stitched=stitch_document(doc.pages, index))


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
    return process(samples[("exemplar-corp-earnings", 2024)])


@pytest.fixture(scope="session")
def tei(samples: dict[tuple[str, int], Path]) -> Processed:
    return process(samples[("footnote-rag-paper", 2023)])


@pytest.fixture(scope="session")
def annual(samples: dict[tuple[str, int], Path]) -> dict[tuple[str, int], Processed]:
    return {key: process(path) for key, path in samples.items() if key[0].endswith("-annual")}


@pytest.fixture(scope="session")
def gdpr(tmp_path_factory: pytest.TempPathFactory) -> Processed:
    """The real GDPR rendered in the OJ layout (skipped without ../shared/corpora)."""
    if not (CORPORA / "legal" / "gdpr.json").is_file():
        pytest.skip(f"real GDPR corpus not found at {CORPORA / 'legal' / 'gdpr.json'}")
    base = tmp_path_factory.mktemp("gdpr")
    files = build_gdpr(base / "reports", base / "questions", CORPORA)
    assert len(files) == 1
    return process(files[0].path)


def _ten_k(name: str) -> Processed:
    return process_real(TEN_K[name])


# Session scope (not module scope): test_documents and test_footnotes both use the 10-Ks, and
# each should be parsed once per run.
@pytest.fixture(scope="session")
def three_m() -> Processed:
    return _ten_k("3m")


@pytest.fixture(scope="session")
def pfizer() -> Processed:
    return _ten_k("pfizer")
