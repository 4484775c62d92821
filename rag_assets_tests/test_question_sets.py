"""The project's own question sets (``bench/questions/*.jsonl``) against the real filings: every
evidence text is printed on its evidence page, and the analyst sets keep their split by company.

Each page is extracted afresh with pypdfium2, as the sets' writers did (zero-based page index,
``\\r\\n`` as ``\\n``), and compared with whitespace collapsed. Skipped with the reason when
``../shared/corpora`` is absent.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = REPO / "bench" / "questions"
CORPORA = REPO.parent / "shared" / "corpora"
FOLDERS = [CORPORA / f"financebench-{name}" for name in ("dev", "wide", "bulk")]
FIELDS = ["financebench_id", "company", "doc_name", "question_type", "question_reasoning",
          "domain_question_num", "question", "answer", "justification", "dataset_subset_label",
          "evidence"]
EVIDENCE_FIELDS = ["evidence_text", "doc_name", "evidence_page_num", "evidence_text_full_page"]
TYPES = {"metrics-generated", "domain-relevant", "novel-generated"}
ANALYST_SETS = {"analyst_tune.jsonl": 0, "analyst_check.jsonl": 1}  # file -> its half

pytestmark = pytest.mark.skipif(not all(f.is_dir() for f in FOLDERS),
                                reason=f"FinanceBench folders not under {CORPORA}")


def half_of(company: str) -> int:
    """The analyst sets' split, fixed before any question was written: the parity of the first
    byte of the company name's SHA-256 (0: ``analyst-tune``, 1: ``analyst-check``)."""
    return hashlib.sha256(company.encode()).digest()[0] % 2


@cache
def _documents() -> dict[str, tuple[Path, str]]:
    """doc_name -> (PDF, company), over the three FinanceBench folders."""
    out: dict[str, tuple[Path, str]] = {}
    for folder in FOLDERS:
        for line in (folder / "documents.jsonl").read_text(encoding="utf-8").splitlines():
            document = json.loads(line)
            out.setdefault(document["doc_name"],
                           (folder / "pdfs" / f"{document['doc_name']}.pdf", document["company"]))
    return out


@cache
def _page_text(pdf: Path, index: int) -> str:
    pdfium = pytest.importorskip("pypdfium2")
    document = pdfium.PdfDocument(str(pdf))
    try:
        textpage = document[index].get_textpage()
        return str(textpage.get_text_range()).replace("\r\n", "\n")
    finally:
        document.close()


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def _read(name: str) -> list[dict[str, Any]]:
    path = QUESTIONS / name
    if not path.is_file():
        pytest.skip(f"{path} not written")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


SET_FILES = sorted(p.name for p in QUESTIONS.glob("*.jsonl"))


@pytest.mark.parametrize("name", SET_FILES)
def test_every_evidence_text_is_printed_on_its_evidence_page(name: str) -> None:
    questions = _read(name)
    assert len({q["financebench_id"] for q in questions}) == len(questions)
    for q in questions:
        assert list(q) == FIELDS, q["financebench_id"]
        assert q["question_type"] in TYPES, q["financebench_id"]
        assert q["doc_name"] in _documents(), q["financebench_id"]
        assert q["company"] == _documents()[q["doc_name"]][1], q["financebench_id"]
        assert q["evidence"], q["financebench_id"]
        for evidence in q["evidence"]:
            assert list(evidence) == EVIDENCE_FIELDS, q["financebench_id"]
            assert evidence["doc_name"] == q["doc_name"], q["financebench_id"]
            page = _page_text(_documents()[q["doc_name"]][0], evidence["evidence_page_num"])
            where = (q["financebench_id"], evidence["evidence_page_num"])
            assert _collapsed(evidence["evidence_text"]) in _collapsed(page), where
            assert _collapsed(evidence["evidence_text_full_page"]) == _collapsed(page), where


def test_the_analyst_sets_are_split_by_company_and_cover_thirty_filings() -> None:
    """Item 1 of the analysts' set: at least 90 questions over at least 30 filings, all three
    kinds in each half, each half's companies on its side of the split and none in both."""
    sets = {name: _read(name) for name in ANALYST_SETS}
    companies = {name: {q["company"] for q in qs} for name, qs in sets.items()}
    for name, half in ANALYST_SETS.items():
        assert {half_of(c) for c in companies[name]} == {half}, name
        kinds = Counter(q["question_type"] for q in sets[name])
        assert set(kinds) == TYPES and min(kinds.values()) >= 10, (name, kinds)
    assert not companies["analyst_tune.jsonl"] & companies["analyst_check.jsonl"]
    everything = [q for qs in sets.values() for q in qs]
    assert len(everything) >= 90
    assert len({q["doc_name"] for q in everything}) >= 30


FRESH_SETS = {"analyst_fresh.jsonl": 0, "analyst_fresh_held.jsonl": 1}  # file -> its half
OPEN_SETS = {"analyst_open.jsonl": 0, "analyst_open_held.jsonl": 1}


def test_the_fresh_sets_are_split_by_filing_over_tunes_companies() -> None:
    """The fresh questions: written after tune's rules, over filings of tune's companies only
    (check's stay unseen), split by filing before any was read: a filing is in the held half
    when the first byte of its doc_name's SHA-256 is odd; each half holds all three kinds."""
    sets = {name: _read(name) for name in FRESH_SETS}
    for name, half in FRESH_SETS.items():
        assert {half_of(q["doc_name"]) for q in sets[name]} == {half}, name
        assert {half_of(q["company"]) for q in sets[name]} == {0}, name
        assert set(Counter(q["question_type"] for q in sets[name])) == TYPES, name
        assert len({q["doc_name"] for q in sets[name]}) >= 8, name


def test_the_open_sets_are_split_by_filing_over_tunes_companies() -> None:
    """The open questions (judgments and what a filing says, two of each per filing): over
    filings of tune's companies only, split by filing as the fresh sets are, six filings a
    half, the same four questions' kinds in each."""
    sets = {name: _read(name) for name in OPEN_SETS}
    for name, half in OPEN_SETS.items():
        assert {half_of(q["doc_name"]) for q in sets[name]} == {half}, name
        assert {half_of(q["company"]) for q in sets[name]} == {0}, name
        per_filing = Counter((q["doc_name"], q["question_type"]) for q in sets[name])
        assert len({doc for doc, _ in per_filing}) == 6, name
        assert set(per_filing.values()) == {2}, name
        assert {kind for _, kind in per_filing} == {"novel-generated", "domain-relevant"}, name
