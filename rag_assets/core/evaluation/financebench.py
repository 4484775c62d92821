"""FinanceBench questions as golden questions: real 10-Ks, analyst questions, labelled pages.

FinanceBench (Islam et al. 2023, arXiv 2311.11944) ships two JSONL files, as in
``../shared/corpora/financebench-dev/``:

- ``documents.jsonl``: one filing a line (``doc_name`` such as ``3M_2018_10K``, ``company``,
  ``doc_type`` such as ``10k``, ``doc_period`` the fiscal year, ``gics_sector``, ``doc_link``);
- ``questions.jsonl``: one question a line (``financebench_id``, ``question``, ``answer``,
  ``justification``, ``question_type``, ``question_reasoning``, ``company``, ``doc_name``) with
  its ``evidence``: a list of ``evidence_text``, ``evidence_page_num``, ``doc_name`` and
  ``evidence_text_full_page``. The PDF of a filing is ``pdfs/<doc_name>.pdf``.

Mapping to :class:`~rag_assets.core.evaluation.questions.GoldenQuestion`:

- **partition**: document = company slug + ``-`` + doc type (``Coca-Cola``, ``10k`` ->
  ``coca-cola-10k``; ``3M`` -> ``3m-10k`` as in the sample corpus), year = ``doc_period``. The
  three fiscal years of one company are three years of one document, the document × year grid
  the platform partitions by;
- **relevant pages**: ``evidence_page_num`` is already a **zero-based PDF page index**, used as
  it is. Checked on the dev set against the PDFs (pypdfium2 page text, 25 evidence items of 18
  questions, :func:`evidence_word_share` over lower-cased ``[a-z0-9]+`` word occurrences): on
  the page at that index 17 of the 25 evidence texts have every word and the others 83-99 %
  (97 % pooled over all words), while the page one before holds 8-55 % (mean 33 %) and the page
  one after 10-67 % (mean 41 %); read as one-based (index - 1), every question would be labelled
  with the wrong page. The words missing on the labelled page are the data set's own
  extraction gluing words (``Transaction-basedrevenue``, ``CONSOLIDATEDBALANCESHEETS``): with the
  spaces taken out of both (``glued=True``), every evidence word of every item is on its
  labelled page (``rag_assets_tests/core/evaluation/test_financebench.py`` holds all of this).
  The page index is not the printed page number: General Mills prints ``50`` on index 49;
- **category**: ``temporal`` when the question names two or more fiscal years (``FY2018 -
  FY2020``, an average between two year ends: figures of several years), else ``factual``;
- **question type** (:func:`question_type`): FinanceBench's ``question_type`` in three groups
  an analyst reads, ``metrics-generated`` -> ``metrics`` (a ratio or line item of the
  statements), ``domain-relevant`` -> ``judgments`` (trends and judgments: did working capital
  stay positive, which of three cash flows is largest), ``novel-generated`` -> ``prose`` (what
  the filing says: segments, officers, deals); the raw type is kept beside it
  (:meth:`FinanceBenchSet.labels`);
- **filing kind** (:func:`filing_kind`): ``doc_type`` as a reader names it: ``10-K``, ``10-Q``,
  ``8-K``, ``earnings`` (a release; FinanceBench spells it ``Earnings``);
- ``answer`` and every evidence item's ``evidence_text`` are kept for the generation work;
  ``expected_facts`` stay empty (FinanceBench answers are computed, ``24.26``, not printed);
  no footnote markers are labelled.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rag_assets.core.evaluation.questions import GoldenQuestion, QuestionCategory
from rag_assets.core.text.filing_kinds import DATED_NAME_RE, FINANCEBENCH_NAME_RE, QUARTER_NAME_RE
from rag_assets.core.text.years import years_in

WORD_RE = re.compile(r"[a-z0-9]+")
QUESTION_TYPES = {"metrics-generated": "metrics", "domain-relevant": "judgments",
                  "novel-generated": "prose"}
FILING_KINDS = {"10k": "10-K", "10q": "10-Q", "8k": "8-K", "earnings": "earnings"}


class FinanceBenchEvidence(BaseModel):
    model_config = ConfigDict(extra="ignore")

    evidence_text: str
    doc_name: str
    evidence_page_num: int = Field(ge=0, description="zero-based PDF page index (verified)")
    evidence_text_full_page: str | None = None

    @field_validator("evidence_page_num", mode="before")
    @classmethod
    def _page_number(cls, value: object) -> object:
        return int(value.strip()) if isinstance(value, str) else value  # the dev set has "68"


class _FinanceBenchLine(BaseModel):
    """A line of one of FinanceBench's JSONL files, as the data set spells it: each names a
    filing by ``doc_name`` and ``company``; fields the project does not read are ignored."""

    model_config = ConfigDict(extra="ignore")

    doc_name: str
    company: str


class FinanceBenchQuestion(_FinanceBenchLine):
    """One line of ``questions.jsonl``: a question asked of the filing it names."""

    financebench_id: str
    question: str
    answer: str
    justification: str | None = None
    question_type: str | None = None
    question_reasoning: str | None = None
    evidence: list[FinanceBenchEvidence] = Field(min_length=1)


class FinanceBenchDocument(_FinanceBenchLine):
    """One line of ``documents.jsonl``: the filing it names."""

    doc_type: str = "10k"
    doc_period: int
    gics_sector: str | None = None
    doc_link: str | None = None


class Filing(BaseModel):
    """A FinanceBench filing as a partition of this project."""

    doc_name: str
    company: str
    document: str
    year: int
    pdf: Path
    doc_type: str = Field(default="10k", description="FinanceBench's doc_type: 10k, 10q, 8k, "
                          "earnings")

    @property
    def kind(self) -> str:
        """``10-K``, ``10-Q``, ``8-K`` or ``earnings`` (:func:`filing_kind`)."""
        return filing_kind(self.doc_type)


class FinanceBenchSet(BaseModel):
    """Filings (in ``documents.jsonl`` order) and their questions, raw and as golden questions
    (same order, ``golden[i]`` is ``raw[i]``)."""

    root: Path
    filings: list[Filing]
    raw: list[FinanceBenchQuestion]
    golden: list[GoldenQuestion]

    def filing(self, doc_name: str) -> Filing:
        return next(f for f in self.filings if f.doc_name == doc_name)

    def by_partition(self) -> dict[tuple[str, int], Filing]:
        return {(f.document, f.year): f for f in self.filings}

    def labels(self) -> dict[str, dict[str, str]]:
        """Per question id: ``type`` (:func:`question_type`), ``raw_type`` (FinanceBench's
        ``question_type``, ``-`` when missing) and ``kind`` of its filing (:func:`filing_kind`)."""
        partitions = self.by_partition()
        return {
            g.id: {"type": question_type(r.question_type), "raw_type": r.question_type or "-",
                   "kind": partitions[(g.document, g.year)].kind}
            for r, g in zip(self.raw, self.golden, strict=True)
        }


def question_type(raw_type: str | None) -> str:
    """FinanceBench's ``question_type`` as an analyst's kind of question: ``metrics``,
    ``judgments`` or ``prose`` (:data:`QUESTION_TYPES`); another value is kept as it is, a
    missing one is ``other``."""
    if not raw_type:
        return "other"
    return QUESTION_TYPES.get(raw_type.strip().lower(), raw_type.strip())


def filing_kind(doc_type: str) -> str:
    """A filing's ``doc_type`` as printed on it: ``10k`` -> ``10-K``, ``10q`` -> ``10-Q``,
    ``8k`` -> ``8-K``, ``Earnings`` -> ``earnings``; another value is kept as it is."""
    key = re.sub(r"[^a-z0-9]", "", doc_type.lower())
    return FILING_KINDS.get(key, doc_type)


def company_slug(company: str) -> str:
    """``Coca-Cola`` -> ``coca-cola``, ``MGM Resorts`` -> ``mgm-resorts``, ``3M`` -> ``3m``:
    a document name of the catalog's ``[a-z0-9-]+`` form."""
    slug = re.sub(r"[^a-z0-9]+", "-", company.lower()).strip("-")
    if not slug:
        raise ValueError(f"company {company!r} gives no document name")
    return slug


def document_name(company: str, doc_type: str = "10k", doc_name: str = "") -> str:
    """The document of a filing: company slug and doc type, ``3m-10k``; a quarterly or event
    filing adds what ``doc_name`` says of it, its quarter or its date (``jpmorgan-10q-q1``,
    ``foot-locker-8k-2022-05-20``), so that several filings of one company in one year stay
    distinct partitions."""
    name = f"{company_slug(company)}-{company_slug(doc_type)}"
    if match := QUARTER_NAME_RE.search(doc_name):
        name += f"-{match.group('quarter').lower()}"
    if match := DATED_NAME_RE.search(doc_name):
        name += f"-{match.group('date')}"
    return name


def filing_of(document: FinanceBenchDocument, pdfs_dir: Path) -> Filing:
    return Filing(
        doc_name=document.doc_name, company=document.company,
        document=document_name(document.company, document.doc_type, document.doc_name),
        year=document.doc_period,
        pdf=pdfs_dir / f"{document.doc_name}.pdf",
        doc_type=document.doc_type,
    )


def filing_from_doc_name(doc_name: str, company: str, pdfs_dir: Path) -> Filing:
    """A filing missing from ``documents.jsonl``: period and type from its ``doc_name``
    (``COMPANY_2019_10K``), the company as the question spells it."""
    match = FINANCEBENCH_NAME_RE.match(doc_name)
    if not match:
        raise ValueError(f"doc_name {doc_name!r} is not COMPANY_YEAR_TYPE and is not in "
                         "documents.jsonl")
    return filing_of(
        FinanceBenchDocument(doc_name=doc_name, company=company, doc_type=match.group("type"),
                             doc_period=int(match.group("period"))),
        pdfs_dir,
    )


_Record = TypeVar("_Record", bound=BaseModel)


def _jsonl(path: Path) -> Iterable[tuple[int, object]]:  # any JSON value: the model checks it
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                yield lineno, json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{lineno}: not JSON: {exc}") from exc


def _records(path: Path, model: type[_Record], what: str) -> list[_Record]:
    out = []
    for lineno, row in _jsonl(path):
        try:
            out.append(model.model_validate(row))
        except ValueError as exc:
            raise ValueError(f"{path}:{lineno}: invalid FinanceBench {what}: {exc}") from exc
    return out


def read_documents(path: Path) -> list[FinanceBenchDocument]:
    return _records(path, FinanceBenchDocument, "document")


def read_financebench_questions(path: Path) -> list[FinanceBenchQuestion]:
    return _records(path, FinanceBenchQuestion, "question")


def category_of(question: str) -> QuestionCategory:
    """``temporal`` when the question names two or more fiscal years, else ``factual``."""
    return "temporal" if len(years_in(question)) >= 2 else "factual"


def to_golden(question: FinanceBenchQuestion, filing: Filing) -> GoldenQuestion:
    """The golden question of one FinanceBench question asked of ``filing``; evidence in
    another filing is an error (a golden question has one partition)."""
    elsewhere = sorted({e.doc_name for e in question.evidence} - {filing.doc_name})
    if elsewhere:
        raise ValueError(f"{question.financebench_id}: evidence in {elsewhere}, the question is "
                         f"asked of {filing.doc_name}")
    return GoldenQuestion(
        id=question.financebench_id,
        document=filing.document,
        year=filing.year,
        question=question.question,
        category=category_of(question.question),
        relevant_pages=sorted({e.evidence_page_num for e in question.evidence}),
        answer=question.answer,
        evidence_text=[e.evidence_text for e in question.evidence],
    )


def load_financebench(root: Path, questions: Path | None = None) -> FinanceBenchSet:
    """Read ``root/documents.jsonl`` and ``root/questions.jsonl`` (PDFs in ``root/pdfs``), or
    another questions file of the same format over those filings (``questions``: the
    project's own prose set in ``bench/questions``).

    Filings keep the order of ``documents.jsonl``; a question's filing missing there is derived
    from its ``doc_name``. Two filings on one partition are an error."""
    root = Path(root)
    pdfs = root / "pdfs"
    documents_file = root / "documents.jsonl"
    filings = [filing_of(d, pdfs) for d in read_documents(documents_file)] \
        if documents_file.exists() else []
    by_name = {f.doc_name: f for f in filings}
    raw = read_financebench_questions(questions or root / "questions.jsonl")
    for q in raw:
        if q.doc_name not in by_name:
            by_name[q.doc_name] = filing_from_doc_name(q.doc_name, q.company, pdfs)
            filings.append(by_name[q.doc_name])
    return _question_set(root, filings, raw)


def load_question_set(roots: Sequence[Path], questions: Path) -> FinanceBenchSet:
    """A questions file over the filings of several folders (the analyst sets ask of filings of
    ``financebench-dev``, ``-wide`` and ``-bulk``): the filings its questions name, in order of
    first mention, each from the first folder whose ``documents.jsonl`` lists it. The store
    holds those filings and no others, so its size follows the set, not the corpora."""
    raw = read_financebench_questions(questions)
    named = list(dict.fromkeys(q.doc_name for q in raw))
    listed: dict[str, Filing] = {}
    for root in map(Path, roots):
        for document in read_documents(root / "documents.jsonl"):
            listed.setdefault(document.doc_name, filing_of(document, root / "pdfs"))
    if missing := [name for name in named if name not in listed]:
        raise ValueError(f"{questions}: filings {missing} are in no documents.jsonl of "
                         f"{[str(r) for r in roots]}")
    return _question_set(Path(roots[0]), [listed[name] for name in named], raw)


def _question_set(root: Path, filings: list[Filing], raw: list[FinanceBenchQuestion]
                  ) -> FinanceBenchSet:
    """The set of these filings and questions; two filings on one partition are an error."""
    seen: dict[tuple[str, int], str] = {}
    for f in filings:
        other = seen.setdefault((f.document, f.year), f.doc_name)
        if other != f.doc_name:
            raise ValueError(f"{other} and {f.doc_name} are both {f.document}|{f.year}")
    by_name = {f.doc_name: f for f in filings}
    golden = [to_golden(q, by_name[q.doc_name]) for q in raw]
    return FinanceBenchSet(root=root, filings=filings, raw=raw, golden=golden)


def words(text: str) -> list[str]:
    """Lower-cased ``[a-z0-9]+`` tokens."""
    return WORD_RE.findall(text.lower())


def evidence_word_share(evidence: str, page_text: str, *, glued: bool = False) -> float:
    """Share of the evidence's word occurrences found on a page (1.0 for no words).

    ``glued``: a word counts when its characters occur in the page's words joined without
    spaces, which forgives an extraction that glued words (``basedrevenue``) or split them."""
    wanted = words(evidence)
    if not wanted:
        return 1.0
    if glued:
        squashed = "".join(words(page_text))
        found = sum(w in squashed for w in wanted)
    else:
        have = set(words(page_text))
        found = sum(w in have for w in wanted)
    return found / len(wanted)


def select(
    data: FinanceBenchSet, docs: int | None = None, questions: int | None = None
) -> tuple[list[Filing], list[GoldenQuestion]]:
    """A subset for a quick run: the first ``docs`` filings that have questions (all filings
    when ``docs`` is None), and the first ``questions`` of their questions."""
    asked = {(q.document, q.year) for q in data.golden}
    filings = [f for f in data.filings if docs is None or (f.document, f.year) in asked]
    if docs is not None:
        filings = filings[:docs]
    held = {(f.document, f.year) for f in filings}
    chosen = [q for q in data.golden if (q.document, q.year) in held]
    return filings, chosen[:questions] if questions is not None else chosen


def hit_at(reciprocal_rank: float, k: int) -> float:
    """1.0 when the first relevant hit is within the first ``k`` (from the reciprocal rank of
    :func:`rag_assets.core.evaluation.metrics.reciprocal_rank`), else 0.0."""
    return 1.0 if reciprocal_rank > 0 and 1.0 / reciprocal_rank <= k + 1e-9 else 0.0


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
