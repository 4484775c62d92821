"""One report through the ingest chain: file -> pages and context -> footnote index -> stitched
text -> naive and enriched chunks (and the statement facts).

:func:`process_report` is the chain, the one copy of it: the ingest step takes each asset's
slice of one :class:`ProcessedReport` (``defs/ingest.py``), and every bench and test fixture
that needs a report's pages, footnotes, stitched text or chunks builds them here. Each stage is
worked out on first use and kept: a caller that needs the footnote index alone pays for nothing
after it, and nothing is worked out twice (the cover read once for the context and the routing
profile, the index once for the stitcher and both chunkers, the statement classification once
for the chunk headers and the facts). Each stage's own seconds are kept (``seconds``): the
ingest step reports them beside each table, so a run says where its time went.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Container
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar, overload

from rag_assets.core.chunks.enriched import enriched_chunks
from rag_assets.core.chunks.naive import naive_chunks
from rag_assets.core.chunks.records import Chunk, ChunkSettings
from rag_assets.core.footnotes.stitching import (
    FootnoteIndex,
    StitchedPage,
    build_footnote_index,
    stitch_document,
)
from rag_assets.core.ingest.context import DocumentContext, document_context
from rag_assets.core.ingest.documents import load_document
from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.ingest.filing_facts import filing_facts
from rag_assets.core.ingest.pages import LoadedDocument, Page
from rag_assets.core.ingest.routing import DocumentProfile, cover_profile

if TYPE_CHECKING:
    from rag_assets.core.settings import IngestSettings

# stitched pages in place of the deterministic stitcher's (the model stitcher of stitch_mode=llm)
Stitcher = Callable[["ProcessedReport"], list[StitchedPage]]
T = TypeVar("T")


class Stage(Generic[T]):
    """A stage of the chain: worked out on first use and kept in the report (where attribute
    lookup finds it from then on), its own seconds recorded in ``ProcessedReport.seconds``
    (those of the earlier stages it asked for left out)."""

    def __init__(self, work: Callable[[ProcessedReport], T]) -> None:
        self.work = work
        self.name = work.__name__
        self.__doc__ = work.__doc__

    @overload
    def __get__(self, report: None, owner: type) -> Stage[T]: ...

    @overload
    def __get__(self, report: ProcessedReport, owner: type) -> T: ...

    def __get__(self, report: ProcessedReport | None, owner: type) -> Stage[T] | T:
        if report is None:
            return self
        if self.name not in report.__dict__:
            started = time.perf_counter()
            outer, report.nested_seconds = report.nested_seconds, 0.0
            report.__dict__[self.name] = self.work(report)
            took = time.perf_counter() - started
            report.seconds[self.name] = round(took - report.nested_seconds, 3)
            report.nested_seconds = outer + took
        value: T = report.__dict__[self.name]
        return value


class ProcessedReport:
    """A loaded report and every stage after it, each worked out once, on first use."""

    def __init__(self, loaded: LoadedDocument, document: str, year: int,
                 chunk_settings: ChunkSettings | None = None,
                 stitcher: Stitcher | None = None) -> None:
        self.loaded = loaded
        self.document = document
        self.year = year
        self.chunk_settings = chunk_settings or ChunkSettings()
        self.stitcher = stitcher
        self.seconds: dict[str, float] = {}  # each stage's own, as it was worked out
        self.nested_seconds = 0.0  # the stages a stage being worked out asked for

    @property
    def pages(self) -> list[Page]:
        return self.loaded.pages

    def part(self, keep: Container[int]) -> ProcessedReport:
        """The report cut down to the pages in ``keep`` (their chunks, stitched text and facts)
        with the whole report's cover profile, context and footnote index: a small store of a
        long report, each chunk as the whole report's run would head it."""
        pages = [p for p in self.pages if p.page_index in keep]
        part = ProcessedReport(self.loaded.model_copy(update={"pages": pages}), self.document,
                               self.year, self.chunk_settings)
        # what the whole report worked out (a Stage keeps its value in __dict__)
        part.__dict__.update(
            profile=self.profile, context=self.context, index=self.index,
            stitched=[p for p in self.stitched if p.page_index in keep])
        return part

    @Stage
    def profile(self) -> DocumentProfile:
        """The cover read once: the chunk header's company and the routing profile."""
        return cover_profile(self.document, self.year, self.pages)

    @Stage
    def context(self) -> DocumentContext:
        return document_context(self.document, self.year, self.pages, self.profile)

    @Stage
    def index(self) -> FootnoteIndex:
        return build_footnote_index(self.pages)

    @Stage
    def deterministic_stitched(self) -> list[StitchedPage]:
        return stitch_document(self.pages, self.index)

    @Stage
    def stitched(self) -> list[StitchedPage]:
        """What the enriched chunks are cut from: the stitcher's pages when one is given, else
        the deterministic stitcher's."""
        return self.stitcher(self) if self.stitcher else self.deterministic_stitched

    @Stage
    def naive_chunks(self) -> list[Chunk]:
        return naive_chunks(self.pages, self.document, self.year, self.index,
                            self.chunk_settings, self.context)

    @Stage
    def enriched_chunks(self) -> list[Chunk]:
        return enriched_chunks(self.stitched, self.document, self.year, self.index,
                               self.chunk_settings, self.context)

    @Stage
    def facts(self) -> list[StatementFact]:
        """The statement facts, on the pages the context classifies as statements, and the
        parts the notes print of a statement's line (:mod:`filing_facts`)."""
        return filing_facts(self.document, self.year, self.pages,
                            self.context.statements(self.pages))


def process_report(source: Path | LoadedDocument, document: str, year: int,
                   settings: IngestSettings | None = None,
                   stitcher: Stitcher | None = None, *, use_ocr: bool = True) -> ProcessedReport:
    """The report at ``source`` read (``settings.pdf_workers`` processes, a page without a
    text layer by OCR unless ``use_ocr`` is False; a document already loaded, as the tests'
    cache of real filings keeps them, is taken as it is), its stages ready to be asked for,
    chunked by ``settings.chunk_settings`` (the defaults without ``settings``). Raises
    ``DocumentError`` with a one-line cause."""
    started = time.perf_counter()
    if isinstance(source, LoadedDocument):
        loaded = source
    elif settings is None:
        loaded = load_document(source, use_ocr=use_ocr)
    else:
        loaded = load_document(source, pdf_workers=settings.pdf_workers, use_ocr=use_ocr)
    chunk_settings = settings.chunk_settings if settings is not None else None
    report = ProcessedReport(loaded, document, year, chunk_settings, stitcher)
    report.seconds["load"] = round(time.perf_counter() - started, 3)
    return report
