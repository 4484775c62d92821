"""A real store for the generation tests: the earnings release, the six annual reports, GDPR's
Articles 4-35 and 3M's financial statements, indexed naive and enriched by the platform's own
chunkers and model, with every stored page to cite against.

GDPR and 3M come from ../shared/corpora: without it the store holds the generated samples alone,
and only the tests that ask those two documents skip (``Corpus.documents`` says what is in)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from rag_assets.core.chunks.records import ChunkKind
from rag_assets.core.generation.answers import Answerer
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.retrieval.embeddings import Embedder
from rag_assets.core.retrieval.retriever import Retriever
from rag_assets.core.retrieval.store import VectorStore, index_partition

from ..conftest import Processed, write_warehouse

GDPR_PAGES = range(36, 66)  # Articles 4-35
THREE_M_PAGES = range(50, 63)  # Item 8: the statements and the first notes


@dataclass
class Corpus:
    store: VectorStore
    embedder: Embedder
    pages: PageTexts
    documents: set[str]

    def answerer(self, **config: object) -> Answerer:
        from rag_assets.core.generation.answers import AnswerConfig

        return Answerer(Retriever(self.store, self.embedder), self.pages,
                        config=AnswerConfig(**config))


def real_corpus(folder: Path, filings: Sequence[tuple[str, str, int, Sequence[int] | None]]
                ) -> Corpus:
    """A store in ``folder`` of real filings of ``../shared/corpora``: each ``(file, document,
    year, pages kept)`` processed whole (headed and resolved as the whole report) and indexed
    on the pages kept (None: all), its enriched chunks alone: the answerer reads those
    (``AnswerConfig.kind``), and the naive ones are the sample corpus' to compare with."""
    from ..conftest import process_real

    embedder = Embedder()
    store = VectorStore.of(embedder, folder)
    pages = PageTexts()
    for path, document, year, keep in filings:
        add(store, embedder, pages, process_real(path, document, year), keep,
            kinds=("enriched",))
    return Corpus(store, embedder, pages, {document for _, document, _, _ in filings})


def add(store: VectorStore, embedder: Embedder, pages: PageTexts, processed: Processed,
        keep: Sequence[int] | None = None,
        kinds: Sequence[ChunkKind] = ("naive", "enriched")) -> None:
    """The report indexed as ``kinds`` (the pages in ``keep`` alone, headed and resolved as the
    whole report), its routing profile stored, every page of it kept to cite against."""
    document, year = processed.document, processed.year
    part = processed if keep is None else processed.part(keep)
    footnotes = processed.index.footnotes
    for kind in kinds:
        chunks = part.naive_chunks if kind == "naive" else part.enriched_chunks
        index_partition(store, embedder, kind, document, year, chunks, footnotes)
    store.put_profile(document, year, processed.profile.title, processed.profile.aliases)
    pages.add(document, year, processed.pages,
              {p.page_index: p.item for p in processed.context.pages})


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory, earnings: Processed,
           annual: dict[tuple[str, int], Processed], request: pytest.FixtureRequest) -> Corpus:
    embedder = Embedder()
    store = VectorStore.of(embedder, Path(tmp_path_factory.mktemp("lancedb")))
    pages = PageTexts()
    documents = {"exemplar-corp-earnings", *(document for document, _ in annual)}
    add(store, embedder, pages, earnings)
    for processed in annual.values():
        add(store, embedder, pages, processed)
    for fixture, keep in (("gdpr", GDPR_PAGES), ("three_m", THREE_M_PAGES)):
        try:
            real: Processed = request.getfixturevalue(fixture)
        except pytest.skip.Exception:
            continue  # ../shared/corpora is absent: the samples alone
        add(store, embedder, pages, real, keep)
        documents.add(real.document)
    return Corpus(store, embedder, pages, documents)


@pytest.fixture(scope="session")
def corpus_warehouse(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory,
                     earnings: Processed, annual: dict[tuple[str, int], Processed],
                     request: pytest.FixtureRequest) -> Path:
    """A DuckDB warehouse beside ``corpus``'s store, as the assets write it: ``raw_pages`` of
    every partition the store holds (the same pages) and 3M's ``financial_statements``."""
    from rag_assets.core.ingest.facts import extract_facts
    from rag_assets.core.warehouse.tables import facts_to_frame, pages_to_frame

    partitions = [("exemplar-corp-earnings", 2024, earnings, None),
                  *((d, y, p, None) for (d, y), p in annual.items())]
    for fixture, document, year, keep in (("gdpr", "gdpr", 2016, GDPR_PAGES),
                                          ("three_m", "3m-10k", 2018, THREE_M_PAGES)):
        if document in corpus.documents:
            partitions.append((document, year, request.getfixturevalue(fixture), keep))
    frames = {"raw_pages": [], "financial_statements": []}
    for document, year, processed, keep in partitions:
        pages = [p for p in processed.pages if keep is None or p.page_index in keep]
        frames["raw_pages"].append(pages_to_frame(pages, document, year, "f", "0" * 64,
                                                  processed.context))
        if document == "3m-10k":
            facts = extract_facts(document, year, pages, processed.context.statements(pages))
            frames["financial_statements"].append(facts_to_frame(facts, set()))
    path = tmp_path_factory.mktemp("warehouse") / "warehouse.duckdb"
    return write_warehouse(path, frames)
