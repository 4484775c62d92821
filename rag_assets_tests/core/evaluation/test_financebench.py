"""The FinanceBench loader: format, partition names, page numbering, checked on the real files.

The real-file tests read ``../shared/corpora/financebench-dev`` (skipped when it is absent) and
open only the labelled pages and their neighbours with pypdfium2: about a second in all.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.evaluation.financebench import (
    Filing,
    FinanceBenchQuestion,
    category_of,
    company_slug,
    document_name,
    evidence_word_share,
    filing_from_doc_name,
    filing_kind,
    hit_at,
    load_financebench,
    load_question_set,
    question_type,
    select,
    to_golden,
    words,
)
from rag_assets.core.evaluation.metrics import reciprocal_rank
from rag_assets.core.evaluation.questions import GoldenQuestion, read_questions, write_questions

DEV = Path(__file__).resolve().parents[3].parent / "shared" / "corpora" / "financebench-dev"
needs_dev = pytest.mark.skipif(not DEV.is_dir(), reason=f"FinanceBench dev set not at {DEV}")
WIDE = DEV.with_name("financebench-wide")
needs_wide = pytest.mark.skipif(not WIDE.is_dir(), reason=f"FinanceBench wide set not at {WIDE}")


def _question(**changes: object) -> FinanceBenchQuestion:
    row = {
        "financebench_id": "financebench_id_00001", "company": "3M", "doc_name": "3M_2018_10K",
        "question": "What is the FY2018 capex of 3M?", "answer": "$1,577", "justification": None,
        "question_type": "metrics-generated", "question_reasoning": "Information extraction",
        "evidence": [{"evidence_text": "Purchases of property", "doc_name": "3M_2018_10K",
                      "evidence_page_num": "59", "evidence_text_full_page": "..."}],
        "dataset_subset_label": "OPEN_SOURCE",
    }
    row.update(changes)
    return FinanceBenchQuestion.model_validate(row)


# --- the format ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("company", "doc_type", "document"), [
    ("3M", "10k", "3m-10k"),
    ("Coca-Cola", "10k", "coca-cola-10k"),
    ("MGM Resorts", "10k", "mgm-resorts-10k"),
    ("American Water Works", "10K", "american-water-works-10k"),
    ("AT&T", "10Q", "at-t-10q"),
])
def test_document_names_are_catalog_names(company: str, doc_type: str, document: str) -> None:
    assert document_name(company, doc_type) == document


def test_company_without_letters_is_refused() -> None:
    with pytest.raises(ValueError, match="no document name"):
        company_slug(" & ")


def test_question_becomes_a_golden_question(tmp_path: Path) -> None:
    filing = filing_from_doc_name("3M_2018_10K", "3M", tmp_path)
    assert (filing.document, filing.year, filing.pdf.name) == ("3m-10k", 2018, "3M_2018_10K.pdf")
    golden = to_golden(_question(), filing)
    assert golden.id == "financebench_id_00001"
    assert (golden.document, golden.year) == ("3m-10k", 2018)
    assert golden.relevant_pages == [59]  # "59" (a string in the dev set) taken as it is
    assert golden.answer == "$1,577"
    assert golden.evidence_text == ["Purchases of property"]
    assert golden.category == "factual"
    assert golden.expected_facts == [] and golden.relevant_markers == []


def test_pages_are_unique_and_sorted(tmp_path: Path) -> None:
    evidence = [{"evidence_text": t, "doc_name": "3M_2018_10K", "evidence_page_num": p}
                for t, p in (("b", 61), ("a", 59), ("c", "61"))]
    golden = to_golden(_question(evidence=evidence), filing_from_doc_name("3M_2018_10K", "3M",
                                                                           tmp_path))
    assert golden.relevant_pages == [59, 61]
    assert golden.evidence_text == ["b", "a", "c"]


def test_evidence_in_another_filing_is_an_error(tmp_path: Path) -> None:
    evidence = [{"evidence_text": "x", "doc_name": "3M_2017_10K", "evidence_page_num": 3}]
    with pytest.raises(ValueError, match="3M_2017_10K"):
        to_golden(_question(evidence=evidence), filing_from_doc_name("3M_2018_10K", "3M",
                                                                      tmp_path))


def test_negative_page_is_refused() -> None:
    evidence = [{"evidence_text": "x", "doc_name": "3M_2018_10K", "evidence_page_num": -1}]
    with pytest.raises(ValueError):
        _question(evidence=evidence)


@pytest.mark.parametrize(("question", "category"), [
    ("What is the FY2019 fixed asset turnover ratio? ... average PP&E between FY2018 and FY2019",
     "temporal"),
    ("What is the FY2017 - FY2019 3 year average of capex as a % of revenue?", "temporal"),
    ("How much did it pay out in cash dividends for FY2020?", "factual"),
    ("Does Corning have positive working capital based on FY2022 data?", "factual"),
])
def test_category(question: str, category: str) -> None:
    assert category_of(question) == category


def test_filing_missing_from_documents_comes_from_its_name(tmp_path: Path) -> None:
    (tmp_path / "questions.jsonl").write_text(_question().model_dump_json() + "\n")
    data = load_financebench(tmp_path)  # no documents.jsonl at all
    assert [(f.document, f.year) for f in data.filings] == [("3m-10k", 2018)]
    assert data.golden[0].relevant_pages == [59]
    with pytest.raises(ValueError, match="COMPANY_YEAR_TYPE"):
        filing_from_doc_name("3M-annual", "3M", tmp_path)


def test_two_filings_on_one_partition_are_an_error(tmp_path: Path) -> None:
    rows = [{"doc_name": n, "company": "3M", "doc_type": "10k", "doc_period": 2018}
            for n in ("3M_2018_10K", "3M_2018_10K_AMENDED")]
    (tmp_path / "documents.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    (tmp_path / "questions.jsonl").write_text(_question().model_dump_json() + "\n")
    with pytest.raises(ValueError, match="both 3m-10k\\|2018"):
        load_financebench(tmp_path)


def test_old_question_files_still_load_and_new_fields_round_trip(tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    old.write_text('{"id": "q1", "document": "d", "year": 2020, "question": "?", '
                   '"category": "factual", "relevant_pages": [0], "relevant_markers": [], '
                   '"expected_facts": ["1"]}\n')
    [q] = read_questions(old)
    assert q.answer is None and q.evidence_text == []
    new = tmp_path / "new.jsonl"
    write_questions(new, [GoldenQuestion(id="q2", document="d", year=2020, question="?",
                                         category="factual", relevant_pages=[3], answer="42",
                                         evidence_text=["forty", "two"])])
    [back] = read_questions(new)
    assert (back.answer, back.evidence_text) == ("42", ["forty", "two"])


def test_word_share() -> None:
    page = "Consolidated Balance Sheets\nTransaction-based revenue 1,234"
    assert evidence_word_share("Balance Sheets 1,234", page) == 1.0
    assert evidence_word_share("Transaction-basedrevenue", page) == 0.5  # 'basedrevenue' glued
    assert evidence_word_share("Transaction-basedrevenue", page, glued=True) == 1.0
    assert evidence_word_share("cash flows", page) == 0.0
    assert evidence_word_share("", page) == 1.0
    assert words("Net income (loss) $1,234") == ["net", "income", "loss", "1", "234"]


@pytest.mark.parametrize(("ranks", "k", "hit"), [
    ([1], 1, 1.0), ([2], 1, 0.0), ([5], 5, 1.0), ([6], 5, 0.0), ([], 5, 0.0), ([3], 10, 1.0),
])
def test_hit_at_k(ranks: list[int], k: int, hit: float) -> None:
    covered = [set() for _ in range(10)]
    for rank in ranks:
        covered[rank - 1] = {("d", 2020, "1")}
    assert hit_at(reciprocal_rank(covered, k=10), k) == hit


# --- the real files -----------------------------------------------------------------------------


@cache
def _dev():  # type: ignore[no-untyped-def]
    return load_financebench(DEV)


@cache
def _page_count(pdf: Path) -> int:
    pdfium = pytest.importorskip("pypdfium2")
    document = pdfium.PdfDocument(str(pdf))
    try:
        return len(document)
    finally:
        document.close()


@cache
def _page_text(pdf: Path, index: int) -> str:
    pdfium = pytest.importorskip("pypdfium2")
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[index]
        textpage = page.get_textpage()
        text = textpage.get_text_range()
        textpage.close()
        page.close()
        return text
    finally:
        document.close()


@needs_dev
def test_dev_set_maps_every_filing_to_a_partition() -> None:
    data = _dev()
    assert len(data.filings) == 14 and len(data.golden) == 18
    partitions = {(f.document, f.year) for f in data.filings}
    assert len(partitions) == 14
    years: dict[str, set[int]] = {}
    for f in data.filings:
        years.setdefault(f.document, set()).add(f.year)
    # three companies over three fiscal years each: one document, three years
    assert {d for d, y in years.items() if len(y) == 3} == {
        "lockheed-martin-10k", "american-water-works-10k", "mgm-resorts-10k"}
    assert years["mgm-resorts-10k"] == {2018, 2020, 2022}
    assert data.by_partition()[("coca-cola-10k", 2017)].doc_name == "COCACOLA_2017_10K"
    assert {q.id for q in data.golden} == {q.financebench_id for q in data.raw}
    assert all(q.answer and q.evidence_text for q in data.golden)


@needs_dev
def test_every_question_has_its_pdf_and_its_pages() -> None:
    data = _dev()
    for question in data.golden:
        filing: Filing = data.by_partition()[(question.document, question.year)]
        assert filing.pdf.is_file(), filing.pdf
        pages = _page_count(filing.pdf)
        assert all(0 <= p < pages for p in question.relevant_pages), (question.id, pages)


@needs_dev
def test_evidence_is_on_the_labelled_zero_based_page() -> None:
    """The measure behind the docstring of :mod:`rag_assets.core.evaluation.financebench`."""
    data = _dev()
    shares, pooled, total, before, after = [], 0.0, 0, [], []
    for raw in data.raw:
        for evidence in raw.evidence:
            pdf = data.filing(evidence.doc_name).pdf
            page = evidence.evidence_page_num
            share = evidence_word_share(evidence.evidence_text, _page_text(pdf, page))
            n = len(words(evidence.evidence_text))
            shares.append(share)
            pooled, total = pooled + share * n, total + n
            # spaces aside, every evidence word is on its page
            assert evidence_word_share(evidence.evidence_text, _page_text(pdf, page),
                                       glued=True) == 1.0, (raw.financebench_id, page)
            for neighbours, other in ((before, page - 1), (after, page + 1)):
                other_share = evidence_word_share(evidence.evidence_text, _page_text(pdf, other))
                neighbours.append(other_share)
                assert share > other_share + 0.25, (raw.financebench_id, page, other)
    assert len(shares) == 25
    assert min(shares) >= 0.8
    assert sum(s == 1.0 for s in shares) >= 17
    assert pooled / total >= 0.95
    # read as one-based, the labels would point at a page holding a third of the words
    assert max(before) < 0.6 and sum(before) / len(before) < 0.4


@needs_dev
def test_select_takes_filings_with_questions_first() -> None:
    data = _dev()
    filings, questions = select(data, docs=2, questions=None)
    assert [f.doc_name for f in filings] == ["ACTIVISIONBLIZZARD_2019_10K",
                                             "AMERICANWATERWORKS_2020_10K"]
    assert len(questions) == 3
    filings, questions = select(data, docs=None, questions=4)
    assert len(filings) == 14 and [q.id for q in questions] == [q.id for q in data.golden[:4]]


# --- question types and filing kinds; the wide set -----------------------------------------------


@pytest.mark.parametrize(("raw", "kind"), [
    ("metrics-generated", "metrics"), ("domain-relevant", "judgments"),
    ("novel-generated", "prose"), ("Metrics-Generated ", "metrics"), (None, "other"),
    ("something-new", "something-new"),
])
def test_question_type(raw: str | None, kind: str) -> None:
    assert question_type(raw) == kind


@pytest.mark.parametrize(("doc_type", "kind"), [
    ("10k", "10-K"), ("10K", "10-K"), ("10q", "10-Q"), ("8k", "8-K"), ("Earnings", "earnings"),
    ("10-K", "10-K"), ("S-1", "S-1"),
])
def test_filing_kind(doc_type: str, kind: str) -> None:
    assert filing_kind(doc_type) == kind


def test_labels_carry_type_raw_type_and_kind(tmp_path: Path) -> None:
    (tmp_path / "documents.jsonl").write_text(json.dumps(
        {"doc_name": "JPMORGAN_2021Q1_10Q", "company": "JPMorgan", "doc_type": "10q",
         "doc_period": 2021}) + "\n")
    rows = [_question(financebench_id="a", company="JPMorgan", doc_name="JPMORGAN_2021Q1_10Q",
                      question_type="novel-generated",
                      evidence=[{"evidence_text": "x", "doc_name": "JPMORGAN_2021Q1_10Q",
                                 "evidence_page_num": 3}]),
            _question(financebench_id="b", question_type=None)]  # 3M_2018_10K: from its name
    (tmp_path / "questions.jsonl").write_text(
        "\n".join(r.model_dump_json() for r in rows) + "\n")
    data = load_financebench(tmp_path)
    assert [(f.document, f.kind) for f in data.filings] == [("jpmorgan-10q-q1", "10-Q"),
                                                            ("3m-10k", "10-K")]
    assert data.labels() == {"a": {"type": "prose", "raw_type": "novel-generated",
                                   "kind": "10-Q"},
                             "b": {"type": "other", "raw_type": "-", "kind": "10-K"}}


@needs_dev
@needs_wide
def test_both_sets_load_with_distinct_partitions_types_and_kinds() -> None:
    from collections import Counter

    dev, wide = load_financebench(DEV), load_financebench(WIDE)
    assert (len(dev.filings), len(dev.golden), len(wide.filings), len(wide.golden)) == (
        14, 18, 28, 38)
    assert Counter(v["type"] for v in dev.labels().values()) == {"metrics": 14, "judgments": 4}
    assert Counter(f.kind for f in wide.filings) == {"10-K": 19, "10-Q": 5, "8-K": 2,
                                                     "earnings": 2}
    labels = wide.labels()
    assert Counter(v["type"] for v in labels.values()) == {"metrics": 16, "prose": 20,
                                                           "judgments": 2}
    assert Counter(v["kind"] for v in labels.values()) == {"10-K": 21, "10-Q": 8, "8-K": 2,
                                                           "earnings": 7}
    partitions = wide.by_partition()
    assert len(partitions) == 28  # quarters and dates keep one company's filings apart
    assert partitions[("jpmorgan-10q-q1", 2021)].doc_name == "JPMORGAN_2021Q1_10Q"
    assert partitions[("foot-locker-8k-2022-05-20", 2022)].kind == "8-K"
    assert partitions[("foot-locker-8k-2022-08-19", 2022)].kind == "8-K"
    assert partitions[("mgm-resorts-earnings-q4", 2022)].kind == "earnings"
    assert all(f.pdf.is_file() for f in wide.filings)


@needs_wide
def test_a_question_set_over_several_folders_holds_the_filings_it_names(tmp_path: Path) -> None:
    """The analyst sets ask of dev, wide and bulk filings: the set holds the filings named, each
    from the folder that lists it, and a filing no folder lists is an error."""
    def write(doc_names: list[str]) -> Path:
        path = tmp_path / "questions.jsonl"
        rows = [{"financebench_id": f"q{i}", "company": "x", "doc_name": name,
                 "question": "?", "answer": "a",
                 "evidence": [{"evidence_text": "x", "doc_name": name, "evidence_page_num": 0}]}
                for i, name in enumerate(doc_names)]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        return path

    data = load_question_set([DEV, WIDE], write(["NIKE_2023_10K", "MGMRESORTS_2018_10K",
                                                 "NIKE_2023_10K"]))
    assert [f.doc_name for f in data.filings] == ["NIKE_2023_10K", "MGMRESORTS_2018_10K"]
    assert data.filing("NIKE_2023_10K").pdf == WIDE / "pdfs" / "NIKE_2023_10K.pdf"
    assert data.filing("MGMRESORTS_2018_10K").pdf.parent == DEV / "pdfs"
    assert len(data.golden) == 3
    with pytest.raises(ValueError, match="NOBODY_2020_10K"):
        load_question_set([DEV, WIDE], write(["NOBODY_2020_10K"]))
