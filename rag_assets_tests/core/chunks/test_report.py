"""``process_report``, the one ingest chain: each stage worked out once and kept, its seconds
said; and the one statement classification, made once at ingest: what ``raw_pages`` stores for
a page is what the facts reader and the chunkers see of it, on every page of every real filing
of ``../shared/corpora`` (retrieval's side: ``core/retrieval/test_retrieval_real.py``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from rag_assets.core.chunks.report import ProcessedReport, process_report
from rag_assets.core.ingest import routing
from rag_assets.core.ingest.facts import StatementFact, extract_facts
from rag_assets.core.ingest.pages import DocumentError
from rag_assets.core.ingest.statements import PRIMARY_STATEMENTS, page_lines, statement_title
from rag_assets.core.warehouse.tables import pages_to_frame
from rag_assets_tests.real_filings import CORPORA, real_filing

from ..conftest import Processed

SETS = ("financebench-dev", "financebench-wide", "financebench-bulk", "sec-10k", "damaged")


def stored_statements(report: ProcessedReport) -> dict[int, str | None]:
    """The statement ``raw_pages`` stores for each page, as the ingest step writes it."""
    frame = pages_to_frame(report.pages, report.document, report.year, "f.pdf", "0" * 64,
                           report.context)
    return {int(i): None if pd.isna(kind) else str(kind)
            for i, kind in zip(frame.page_index, frame.statement, strict=True)}


def disagreements(report: ProcessedReport) -> list[str]:
    """Each page where the facts reader or a chunker sees another statement than raw_pages
    stores, and each fact a note gives of a statement's line (``supplemental``,
    ``breakdowns``) read off another statement's page. The chunkers are run on the pages with
    a statement kind and the page after each (where a kind ends): a page of none can only
    disagree by being given one there."""
    stored = stored_statements(report)
    kinds = report.context.statements(report.pages)
    out = [f"page {p.page_index}: facts read {kind}, stored {stored[p.page_index]}"
           for p, kind in zip(report.pages, kinds, strict=True) if kind != stored[p.page_index]]
    # a page may open a second statement under its own title (Costco's Q3 release: the balance
    # sheet under the income statement): the facts read there are of the statement titled
    titled = {p.page_index: {statement_title(line) for line in page_lines(p)}
              for p in report.pages}
    own = extract_facts(report.document, report.year, report.pages, kinds)
    out += [f"page {f.page}: a fact of {f.statement}, stored {stored[f.page]}"
            for f in own if f.statement != stored[f.page] and f.statement not in titled[f.page]]
    # what the notes print of a statement's lines (supplemental disclosures, a line broken
    # down) is read off the statements' pages, never off another statement's
    keys = {_key(f) for f in own}
    out += [f"page {f.page}: a note's fact of {f.statement}, stored {stored[f.page]}"
            for f in report.facts if _key(f) not in keys
            and stored[f.page] in PRIMARY_STATEMENTS and stored[f.page] != f.statement]
    kinded = {i for i, kind in stored.items() if kind}
    part = report.part(kinded | {i + 1 for i in kinded})
    out += [f"page {c.page_start}: a {c.kind} chunk of {c.statement}, stored "
            f"{stored[c.page_start]}"
            for c in (*part.naive_chunks, *part.enriched_chunks)
            if c.statement != stored[c.page_start]]
    return out


def _key(fact: StatementFact) -> tuple[int, int, int, str]:
    return fact.page, fact.row, fact.column, fact.label


def real_pdfs() -> list[Path]:
    return sorted(pdf for name in SETS for folder in (CORPORA / name / "pdfs", CORPORA / name)
                  for pdf in folder.glob("*.pdf"))


@pytest.mark.corpora
def test_every_page_of_the_real_corpora_has_one_statement_kind() -> None:
    pdfs = real_pdfs()
    if not pdfs:
        pytest.skip(f"no real filing under {CORPORA} (../shared/corpora)")
    found: dict[str, list[str]] = {}
    pages = kinds = 0
    for pdf in pdfs:
        try:
            report = process_report(real_filing(pdf), pdf.stem.lower(), 2024)
        except DocumentError:
            continue  # a file the loader refuses has no page to classify
        pages += len(report.pages)
        kinds += sum(1 for kind in stored_statements(report).values() if kind)
        if problems := disagreements(report):
            found[pdf.name] = problems[:5]
    assert not found, found
    assert pages > 10_000 and kinds > 1_000  # the corpora were read, statements found in them


def test_each_stage_is_worked_out_once_and_timed(earnings: Processed,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The cover is read once for the chunk headers and the routing profile; a stage asked
    for again is the same object; each stage's own seconds are kept."""
    report = process_report(earnings.loaded, earnings.document, earnings.year)
    reads: list[str] = []
    real = routing.cover_profile

    def counted(*args: object) -> routing.DocumentProfile:
        reads.append("cover")
        return real(*args)  # type: ignore[arg-type]

    for reader in ("rag_assets.core.chunks.report", "rag_assets.core.ingest.context"):
        monkeypatch.setattr(f"{reader}.cover_profile", counted)
    chunks = report.enriched_chunks
    assert report.profile.title and report.context.company
    assert report.naive_chunks and report.facts is report.facts
    assert report.enriched_chunks is chunks and report.index is report.index
    assert reads == ["cover"]
    assert {"load", "profile", "context", "index", "stitched", "enriched_chunks",
            "naive_chunks", "facts"} <= set(report.seconds)
    assert all(seconds >= 0 for seconds in report.seconds.values())
    # the chunkers' share leaves out the stages they asked for
    assert report.seconds["enriched_chunks"] < sum(report.seconds.values())


def test_a_part_of_a_report_is_headed_as_the_whole(three_m: Processed) -> None:
    """A store of a few pages (the tests', the benches') heads its chunks with the whole
    filing's context: 3M's cash flow statement page chunked alone says company, form, Item
    and statement, and its chunks are the whole report's chunks of that page."""
    part = three_m.part({59})
    assert part.context is three_m.context and part.index is three_m.index
    assert {c.page_start for c in part.enriched_chunks} == {59}
    assert all(c.statement == "cash_flow" and c.context.startswith("3M Company | 10-K fiscal "
                                                                   "2018 | Item 8. ")
               for c in part.enriched_chunks)
    whole = [c.text for c in three_m.enriched_chunks if c.page_start == c.page_end == 59]
    assert whole == [c.text for c in part.enriched_chunks]
