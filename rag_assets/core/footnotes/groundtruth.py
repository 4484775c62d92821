"""Footnote ground truth of a report we generated: every definition's complete text and where it
is cited, written beside the report so that the pipeline can measure itself against it.

Real filings have no such file; the checks that need no ground truth (text conservation, citation
counts) guard them. Files live at ``<data_dir>/truth/<document>/<year>.json``.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field


class TruthFootnote(BaseModel):
    """One definition as the generator wrote it."""

    marker: str  # canonical form the parser uses: "[3]", "(1)", "(a)", "*", "¹" (superscripts)
    page: int  # 0-based page where the definition starts
    text: str  # the complete definition, whitespace-normalized, without its marker
    cited_pages: list[int] = Field(default_factory=list)  # pages whose text or tables cite it
    cites: list[str] = Field(default_factory=list)  # markers its own text cites


class FootnoteTruth(BaseModel):
    document: str
    year: int
    footnotes: list[TruthFootnote]


def truth_path(truth_dir: Path, document: str, year: int) -> Path:
    return Path(truth_dir) / document / f"{year}.json"


def write_truth(truth_dir: Path, truth: FootnoteTruth) -> Path:
    path = truth_path(truth_dir, truth.document, truth.year)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(truth.model_dump_json(indent=1), encoding="utf-8")
    return path


def load_truth(truth_dir: Path, document: str, year: int) -> FootnoteTruth | None:
    """The partition's ground truth, or None for a report nobody here generated."""
    path = truth_path(truth_dir, document, year)
    if not path.is_file():
        return None
    return FootnoteTruth.model_validate_json(path.read_text(encoding="utf-8"))
