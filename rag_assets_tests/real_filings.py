"""The real filings of ``../shared/corpora``, each loaded once per test session (a 10-K takes
about a second through the PDF engine, and several test modules read the same ones)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.ingest.documents import LoadedDocument, load_document

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


@cache
def _load(path: Path) -> LoadedDocument:
    return load_document(path)


def real_filing(path: str | Path) -> LoadedDocument:
    """The loaded filing at ``path`` (relative to the corpora folder, or absolute); the test
    skips, saying where it looked, when the corpora are not beside the repository."""
    full = Path(path) if Path(path).is_absolute() else CORPORA / path
    if not full.is_file():
        pytest.skip(f"real filing not found at {full} (../shared/corpora)")
    return _load(full)
