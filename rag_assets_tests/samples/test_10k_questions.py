"""Golden questions over two real SEC 10-K PDFs (3M 2018, Pfizer 2021).

The JSONL files are checked without the PDFs (schema, ids, partition, markers). The evidence
checks open the PDFs from the shared corpora directory next to the repository and are skipped
when it is absent: every relevant page must exist, and every expected fact must occur
(case-insensitive, whitespace-normalized) in the pypdfium2 text of at least one relevant page.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.evaluation.questions import GoldenQuestion, questions_path, read_questions

REPO_ROOT = Path(__file__).resolve().parents[2]
QUESTIONS_DIR = REPO_ROOT / "rag_assets" / "samples" / "questions"
CORPORA_DIR = REPO_ROOT.parent / "shared" / "corpora"

# document -> (year, PDF path relative to the corpora directory)
REPORTS: dict[str, tuple[int, str]] = {
    "3m-10k": (2018, "sec-10k/3M_2018_10K.pdf"),
    "pfizer-10k": (2021, "sec-10k/PFIZER_2021_10K.pdf"),
}
MIN_QUESTIONS = 14
MARKER_RE = re.compile(r"^(\(\d{1,2}\)|\([a-z]\)|\*{1,2})$")

needs_corpora = pytest.mark.skipif(
    not CORPORA_DIR.is_dir(), reason=f"shared corpora not found at {CORPORA_DIR}"
)


def _path(document: str) -> Path:
    return questions_path(QUESTIONS_DIR, document, REPORTS[document][0])


def _normalize(text: str) -> str:
    return " ".join(text.split()).casefold()


def _all_questions() -> list[GoldenQuestion]:
    out: list[GoldenQuestion] = []
    for document in REPORTS:
        out.extend(read_questions(_path(document)))
    return out


@cache
def _page_texts(document: str) -> tuple[str, ...]:
    pdfium = pytest.importorskip("pypdfium2")
    pdf = pdfium.PdfDocument(str(CORPORA_DIR / REPORTS[document][1]))
    try:
        texts = []
        for i in range(len(pdf)):
            page = pdf[i]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
            page.close()
        return tuple(texts)
    finally:
        pdf.close()


@pytest.mark.parametrize("document", sorted(REPORTS))
def test_question_file_is_valid(document: str) -> None:
    path = _path(document)
    assert path.exists(), f"missing question file {path}"
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    questions = [GoldenQuestion.model_validate(json.loads(ln)) for ln in lines]
    assert len(questions) >= MIN_QUESTIONS
    assert read_questions(path) == questions

    year = REPORTS[document][0]
    for q in questions:
        assert q.document == document, q.id
        assert q.year == year, q.id
        assert q.question.strip().endswith("?"), q.id
        if q.category == "unanswerable":
            assert not (q.relevant_pages or q.relevant_markers or q.expected_facts), q.id
            continue
        assert q.expected_facts, f"{q.id}: no expected facts"
        assert all(f.strip() for f in q.expected_facts), q.id
        assert all(p >= 0 for p in q.relevant_pages), q.id
        assert len(set(q.relevant_pages)) == len(q.relevant_pages), q.id
        for marker in q.relevant_markers:
            assert MARKER_RE.match(marker), f"{q.id}: odd marker {marker!r}"
        if q.category == "footnote-dependent":
            assert q.relevant_markers, f"{q.id}: footnote-dependent without markers"

    categories = Counter(q.category for q in questions)
    for needed in ("factual", "footnote-dependent", "temporal", "comparative", "citation"):
        assert categories[needed] >= 1, f"{document}: no {needed} question"
    assert categories["footnote-dependent"] >= 3
    assert categories["unanswerable"] >= 2, f"{document}: fewer than 2 unanswerable questions"


def test_question_ids_are_unique() -> None:
    ids = [q.id for q in _all_questions()]
    assert len(ids) == len(set(ids))


@needs_corpora
@pytest.mark.parametrize("question", _all_questions(), ids=lambda q: q.id)
def test_expected_facts_are_on_relevant_pages(question: GoldenQuestion) -> None:
    texts = _page_texts(question.document)
    missing_pages = [p for p in question.relevant_pages if p >= len(texts)]
    assert not missing_pages, f"pages {missing_pages} beyond the PDF's {len(texts)} pages"

    pages = {p: _normalize(texts[p]) for p in question.relevant_pages}
    for fact in question.expected_facts:
        needle = _normalize(fact)
        assert any(needle in text for text in pages.values()), (
            f"{question.id}: {fact!r} not found on pages {question.relevant_pages}"
        )


@needs_corpora
@pytest.mark.parametrize("question", _all_questions(), ids=lambda q: q.id)
def test_markers_are_printed_on_relevant_pages(question: GoldenQuestion) -> None:
    texts = _page_texts(question.document)
    for marker in question.relevant_markers:
        assert any(marker in texts[p] for p in question.relevant_pages if p < len(texts)), (
            f"{question.id}: marker {marker!r} not on pages {question.relevant_pages}"
        )


# Why each unanswerable question is unanswerable, checked on the PDF text: patterns that must not
# occur anywhere in the filing (what an answer would be read from), and passages that must (the
# filing's own statement that the information is elsewhere).
ABSENT: dict[str, list[str]] = {
    # a 2018 10-K reports 2016-2018; "2025" occurs only as a tax-holiday end and a note maturity
    "3m-10k-2018-q22": [r"(?:year|fiscal|December 31,?)\s+2025",
                        r"[^\n]*2025[^\n]*(?:sales|revenue)", r"(?:sales|revenue)[^\n]*2025"],
    # Item 11 incorporates executive compensation from the proxy statement
    "3m-10k-2018-q23": [r"summary compensation table", r"roman[^\n]{0,80}\$\s?\d"],
    "pfizer-10k-2021-q22": [r"antarctic"],
    "pfizer-10k-2021-q23": [r"summary compensation table", r"bourla[^\n]{0,80}\$\s?\d"],
}
PRESENT: dict[str, list[str]] = {
    "3m-10k-2018-q23": [r"item 11\. executive compensation\.\s+the information required by item 402"
                        r"[^.]*3m proxy statement\. such information is incorporated by reference"],
    "pfizer-10k-2021-q23": [r"item 11\. executive compensation\s+information about director and "
                            r"executive compensation is incorporated by reference"],
}


def _unanswerable() -> list[GoldenQuestion]:
    return [q for q in _all_questions() if q.category == "unanswerable"]


def test_every_unanswerable_question_is_verified() -> None:
    ids = {q.id for q in _unanswerable()}
    assert len(ids) >= 3
    assert ids == set(ABSENT), "each unanswerable question needs its absence patterns"
    assert set(PRESENT) <= ids


@needs_corpora
@pytest.mark.parametrize("question", _unanswerable(), ids=lambda q: q.id)
def test_unanswerable_question_is_not_answered_by_the_filing(question: GoldenQuestion) -> None:
    text = "\n".join(_page_texts(question.document))
    for pattern in ABSENT[question.id]:
        found = re.search(pattern, text, re.IGNORECASE)
        assert found is None, f"{question.id}: {found.group(0)!r} may answer it"
    flat = " ".join(text.split())
    for pattern in PRESENT.get(question.id, []):
        assert re.search(pattern, flat, re.IGNORECASE), f"{question.id}: {pattern!r} not found"
