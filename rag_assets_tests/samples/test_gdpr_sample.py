"""The rendered GDPR keeps the OJ layout the parser relies on; its golden questions stay honest."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rag_assets.core.evaluation.questions import GoldenQuestion, read_questions
from rag_assets.samples.base import packaged_questions
from rag_assets.samples.gdpr import (
    SEPARATOR,
    build_gdpr,
    question_problems,
    render_gdpr,
    split_pages,
)

CORPORA = Path(__file__).resolve().parents[2].parent / "shared" / "corpora"
GDPR_JSON = CORPORA / "legal" / "gdpr.json"
HEADER_RE = re.compile(
    r"^4\.5\.2016    EN    Official Journal of the European Union    L 119/(\d+)$"
)
MARKER_START_RE = re.compile(r"^\((\d{1,3})\) ")

needs_corpus = pytest.mark.skipif(
    not GDPR_JSON.is_file(),
    reason=f"real GDPR corpus not checked out at {GDPR_JSON} (../shared/corpora)",
)


def _body(page: str) -> list[str]:
    """Page lines after the running header and its blank line."""
    return page.rstrip("\n").split("\n")[2:]


def _zones(pages: list[str]) -> tuple[list[int], list[int], int]:
    """Pages holding recitals, pages holding the footnote block, page of HAVE ADOPTED."""
    adopted = next(i for i, p in enumerate(pages) if "HAVE ADOPTED THIS REGULATION:" in p)
    notes = [i for i, p in enumerate(pages) if SEPARATOR in p.split("\n")]
    return list(range(notes[0] + 1)), notes, adopted


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    if not GDPR_JSON.is_file():
        pytest.skip(f"real GDPR corpus not checked out at {GDPR_JSON} (../shared/corpora)")
    return json.loads(GDPR_JSON.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def pages(data: dict[str, Any]) -> list[str]:
    return split_pages(render_gdpr(data))


def test_missing_corpus_returns_nothing(tmp_path: Path) -> None:
    assert build_gdpr(tmp_path / "reports", tmp_path / "questions", tmp_path / "nowhere") == []
    assert not (tmp_path / "reports").exists()


@needs_corpus
def test_build_writes_report_and_questions(tmp_path: Path) -> None:
    built = build_gdpr(tmp_path / "reports", tmp_path / "questions", CORPORA)
    assert len(built) == 1
    sample = built[0]
    assert (sample.document, sample.year) == ("gdpr", 2016)
    assert sample.path == tmp_path / "reports" / "gdpr" / "2016" / "gdpr_oj.txt"
    assert sample.origin.startswith("real:")
    assert sample.questions_path == tmp_path / "questions" / "gdpr" / "2016.jsonl"
    written = read_questions(sample.questions_path)
    assert len(written) == sample.n_questions >= 25
    assert written == packaged_questions("gdpr", 2016)

    again = build_gdpr(tmp_path / "again", tmp_path / "q2", CORPORA)[0]
    assert again.path.read_bytes() == sample.path.read_bytes()


@needs_corpus
def test_pages_headers_and_line_lengths(pages: list[str]) -> None:
    assert 80 <= len(pages) <= 120
    for index, page in enumerate(pages):
        lines = page.rstrip("\n").split("\n")
        match = HEADER_RE.match(lines[0])
        assert match, f"page {index} header: {lines[0]!r}"
        assert int(match.group(1)) == index + 1
        assert lines[1] == ""
        assert len(lines) <= 60
        assert all(len(line) <= 100 for line in lines), f"page {index} has an over-long line"
        assert lines[-1].strip() and not re.fullmatch(r"\s*\d{1,4}\s*", lines[-1])


@needs_corpus
def test_reading_order(pages: list[str]) -> None:
    text = "\f".join(pages)
    order = [
        "REGULATION (EU) 2016/679 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL",
        "of 27 April 2016",
        "on the protection of natural persons",
        "THE EUROPEAN PARLIAMENT AND THE COUNCIL OF THE EUROPEAN UNION,",
        "Having regard to the opinion of the European Economic and Social Committee (1),",
        "\nWhereas:\n",
        "\n(1) The protection of natural persons",
        "\n(173) This Regulation should apply",
        f"\n{SEPARATOR}\n(1) OJ C 229, 31.7.2012, p. 90.\n",
        "\nHAVE ADOPTED THIS REGULATION:\n",
        "\nCHAPTER I\nGeneral provisions\n",
        "\nArticle 1\nSubject-matter and objectives\n1. This Regulation",
        "\nArticle 99\nEntry into force and application\n",
    ]
    positions = [text.find(s) for s in order]
    assert -1 not in positions, [s for s, p in zip(order, positions, strict=True) if p < 0]
    assert positions == sorted(positions)


@needs_corpus
def test_recitals_start_lines_in_order(data: dict[str, Any], pages: list[str]) -> None:
    recital_pages, notes, _ = _zones(pages)
    numbers: list[int] = []
    for index in recital_pages:
        for line in _body(pages[index]):
            if line == SEPARATOR:
                break
            match = MARKER_START_RE.match(line)
            if match:
                numbers.append(int(match.group(1)))
    assert numbers == list(range(1, len(data["recitals"]) + 1)) == list(range(1, 174))


@needs_corpus
def test_footnote_block(data: dict[str, Any], pages: list[str]) -> None:
    _, notes, adopted = _zones(pages)
    expected = sorted((int(c["number"]), c["text"]) for c in data["citations"].values())
    assert len(expected) == 21
    assert notes == list(range(notes[0], notes[-1] + 1)) and adopted == notes[-1] + 1
    assert "(173) This Regulation" in pages[notes[0]]
    found: list[tuple[int, str]] = []
    for index in notes:
        body = _body(pages[index])
        start = body.index(SEPARATOR)
        if index != notes[0]:
            assert start == 0, "a continuation page must open its footnote zone with the separator"
        zone = body[start + 1 :]
        assert zone[0] and MARKER_START_RE.match(zone[0])
        for line in zone:
            match = MARKER_START_RE.match(line)
            if match:
                found.append((int(match.group(1)), line[match.end() :]))
            elif line:
                assert line.startswith("    ") and not MARKER_START_RE.match(line.strip())
                found[-1] = (found[-1][0], f"{found[-1][1]} {line.strip()}")
    assert found == [(n, " ".join(t.split())) for n, t in expected]
    rules = [
        (i, line)
        for i, p in enumerate(pages)
        for line in p.split("\n")
        if re.match(r"^\s*_{5,}", line)
    ]
    assert rules == [(i, SEPARATOR) for i in notes], (
        "one separator per footnote page, none elsewhere"
    )


# Where the OJ cites each footnote: the word just before the inline marker, on the same line.
CITED_AFTER = {
    1: "Committee",
    2: "Regions",
    3: "procedure",
    5: "2003/361/EC",
    10: "93/13/EEC",
    17: "2012",
    **{n: "Council" for n in (4, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 18, 19, 20, 21)},
}


def _outside_notes(pages: list[str]) -> list[tuple[int, str]]:
    """(page, line) for every body line not in a footnote zone."""
    _, notes, _ = _zones(pages)
    out: list[tuple[int, str]] = []
    for index, page in enumerate(pages):
        body = _body(page)
        if index in notes:
            body = body[: body.index(SEPARATOR)]
        out.extend((index, line) for line in body)
    return out


@needs_corpus
def test_inline_markers_stay_mid_line(pages: list[str]) -> None:
    lines = _outside_notes(pages)
    for n, before in CITED_AFTER.items():
        hits = [(i, line) for i, line in lines if f"{before} ({n})" in line]
        assert len(hits) == 1, (n, hits)
        assert not hits[0][1].lstrip().startswith(f"({n})")
    # the only lines opening with "(N)" outside the footnote block are the 173 recitals
    starts = [(i, line) for i, line in lines if MARKER_START_RE.match(line.lstrip())]
    assert len(starts) == 173 and all(not line[0].isspace() for _, line in starts)
    assert "European Economic and Social Committee (1)," in pages[0]


@needs_corpus
def test_article_lines_follow_the_layout(data: dict[str, Any], pages: list[str]) -> None:
    _, _, adopted = _zones(pages)
    lines = [line for page in pages[adopted:] for line in _body(page)]
    items = [
        item
        for chapter in data["chapters"]
        for part in chapter["contents"]
        for article in ([part] if part["type"] == "article" else part["contents"])
        for item in article["contents"]
    ]
    numbered = sum(1 for i in items if i["type"] == "point" and i["number"])
    lettered = sum(1 for i in items for s in i["subpoints"] if s["number"])
    dashed = sum(1 for i in items for s in i["subpoints"] if not s["number"])
    assert sum(1 for line in lines if re.match(r"^\d{1,3}\. \S", line)) == numbered
    assert sum(1 for line in lines if re.match(r"^ {4}\([a-z]{1,2}\) \S", line)) == lettered
    assert sum(1 for line in lines if line.startswith("    — ")) == dashed
    marker_like = re.compile(r"^(\(\w{1,4}\)|\d+\.|—)(\s|$)")
    for line in lines:
        if line.startswith(" " * 8):
            assert not marker_like.match(line.strip()), line
        if line and not line.startswith(" "):
            assert not re.match(r"^\(\w{1,4}\) ", line), line
    text = "\n".join(pages)
    for reference in ("Article 6(1)", "Article 9(2)", "Articles 15 to 22", "Article 58(2)"):
        assert reference in text


@needs_corpus
def test_structure_headings(data: dict[str, Any], pages: list[str]) -> None:
    _, _, adopted = _zones(pages)
    lines = [line for page in pages[adopted:] for line in _body(page)]
    articles = [int(line.split()[1]) for line in lines if re.fullmatch(r"Article \d{1,3}", line)]
    chapters = [line.split()[1] for line in lines if re.fullmatch(r"CHAPTER [IVXLC]+", line)]
    sections = [line for line in lines if re.match(r"^\s*Section\s+\d{1,2}\b", line)]
    assert articles == list(range(1, 100))
    assert chapters == [c["number"] for c in data["chapters"]]
    assert len(sections) == 15 and all(re.fullmatch(r"Section \d{1,2}", s) for s in sections)
    # reference-looking lines that are not headings would be taken for one by the parser
    every = [line for page in pages for line in _body(page)]
    assert not [
        line
        for line in every
        if re.match(r"^\s*(Article|CHAPTER|Section)\b", line)
        and not re.fullmatch(r"(Article \d{1,3}|CHAPTER [IVXLC]+|Section \d{1,2})", line)
        and not re.match(r"^Article \d", line.strip())  # mid-paragraph "Article 6(1) ..." lines
    ]


@needs_corpus
def test_rendering_is_deterministic(data: dict[str, Any]) -> None:
    assert render_gdpr(data) == render_gdpr(json.loads(GDPR_JSON.read_text(encoding="utf-8")))


def test_packaged_questions_shape() -> None:
    questions = packaged_questions("gdpr", 2016)
    assert len(questions) >= 25
    assert len({q.id for q in questions}) == len(questions)
    assert {(q.document, q.year) for q in questions} == {("gdpr", 2016)}
    categories = Counter(q.category for q in questions)
    for needed in ("factual", "citation", "footnote-dependent", "relationship", "holistic"):
        assert categories[needed] >= 3, categories
    assert categories["unanswerable"] >= 2, categories
    for q in questions:
        if q.category == "unanswerable":
            assert not (q.relevant_pages or q.relevant_markers or q.expected_facts), q.id
            continue
        assert q.expected_facts, q.id
        if q.category == "footnote-dependent":
            assert q.relevant_markers and len(q.relevant_pages) >= 2, q.id


@needs_corpus
def test_expected_facts_are_on_relevant_pages(pages: list[str]) -> None:
    """Fails when the layout moved a fact off the pages its question labels (regenerate them)."""
    problems = [p for q in packaged_questions("gdpr", 2016) for p in question_problems(q, pages)]
    assert not problems, "\n".join(problems)


@needs_corpus
def test_footnote_questions_label_citing_and_defining_pages(pages: list[str]) -> None:
    _, notes, _ = _zones(pages)
    for q in packaged_questions("gdpr", 2016):
        if q.category != "footnote-dependent":
            continue
        for marker in q.relevant_markers:
            citing = [
                p for p in q.relevant_pages if re.search(rf"\S {re.escape(marker)}", pages[p])
            ]
            defining = [p for p in q.relevant_pages if p in notes and f"\n{marker} " in pages[p]]
            assert citing, f"{q.id}: no labelled page cites {marker} inline"
            assert defining, f"{q.id}: no labelled page defines {marker}"


@needs_corpus
def test_stale_question_is_reported(pages: list[str]) -> None:
    stale = GoldenQuestion(
        id="stale",
        document="gdpr",
        year=2016,
        question="From what date does the GDPR apply?",
        category="factual",
        relevant_pages=[0],
        expected_facts=["It shall apply from 25 May 2018"],
    )
    assert question_problems(stale, pages)
    moved = stale.model_copy(update={"relevant_pages": [len(pages) - 1]})
    assert question_problems(moved, pages) == []


# Why each unanswerable question is unanswerable, checked on the rendered text (whitespace
# collapsed): patterns that must not occur anywhere in it.
ABSENT: dict[str, list[str]] = {
    # the Regulation has 99 articles; the higher numbers cited are TFEU articles
    "gdpr-2016-q37": [r"\bArticle 120\b",
                      r"\bArticles? (?:1\d\d|[2-9]\d\d)\b(?:\(\d+\))?+(?!(?: and \d+)? TFEU)"],
    # the only euro amounts are Article 83's fine ceilings; budgets are the supervisory
    # authorities' own, with no amount
    "gdpr-2016-q38": [r"(?<!fines up to )(?<!\d )\b\d{1,3}(?: \d{3})+ EUR", r"\beuros?\b",
                      r"\bbudgets?\b[^.]*\d", r"Board[^.]*\bbudget"],
    # adopted in 2016: no Member State authority, and no later enforcement, is named
    "gdpr-2016-q39": [r"\bIrish\b", r"\bIreland\b", r"\b2019\b"],
}


def test_every_unanswerable_question_is_verified() -> None:
    ids = {q.id for q in packaged_questions("gdpr", 2016) if q.category == "unanswerable"}
    assert ids == set(ABSENT), "each unanswerable question needs its absence patterns"


@needs_corpus
def test_unanswerable_questions_are_not_answered_by_the_text(pages: list[str]) -> None:
    text = " ".join(" ".join(pages).split())
    headings = [int(n) for n in re.findall(r"^Article (\d+)$", "\n".join(pages), re.MULTILINE)]
    assert max(headings) == 99 and len(set(headings)) == 99
    assert len(re.findall(r"fines up to \d{1,3}(?: \d{3})+ EUR", text)) == 3
    for qid, patterns in ABSENT.items():
        for pattern in patterns:
            found = re.search(pattern, text)
            assert found is None, f"{qid}: {found.group(0)!r} may answer it"
