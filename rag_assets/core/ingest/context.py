"""What a chunk cannot say about itself: whose report it is, which year, where in the report.

A chunk cut from a statement starts at ``$ in millions | Fiscal Years Ended ...``: the company,
the fiscal year and the statement's title are pages away. Each chunk therefore carries a short
header, built here from the document itself (the registrant name on its cover, the form it is
filed on, the Item and the statement each page belongs to, the note topics of a page of notes
and the other Items a page heads: :mod:`rag_assets.core.ingest.sections`, whose
``sections_of`` reads them back for section routing) and stored apart from the body:
BM25 and the embedding read header and body, an answer quotes the body alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, Field

from rag_assets.core.ingest.entities import other_entity_pages, registrant_statements
from rag_assets.core.ingest.pages import Page
from rag_assets.core.ingest.routing import COVER_PAGES, DocumentProfile, cover_profile, display_name
from rag_assets.core.ingest.sections import page_items, sections_of, topic_title, topics_by_page
from rag_assets.core.ingest.statements import (
    STATEMENT_TITLES,
    StatementKind,
    classify_pages,
    page_lines,
)
from rag_assets.core.text.filing_kinds import GENERIC_ID_WORDS, form_of

MAX_SECTION_CHARS = 80
MAX_TITLE_CHARS = 100
MAX_TOPICS = 2  # note topics a header names (a page may close one note and open another)
MAX_ITEMS = 4  # further Items a page heads (Part II Items 1, 1A, 2, 5 share one 10-Q page)


class PageContext(BaseModel):
    page_index: int
    item: str | None = None  # the Item in force on the page (10-K, 10-Q by Part, 8-K)
    # what the page is (core/ingest/statements.py): the one classification, read by the chunk
    # headers, the chunks' ``statement`` (retrieval's statement boost) and the facts reader
    statement: StatementKind | None = None
    # section keys of the notes and headings on the page (core/ingest/sections.json)
    topics: list[str] = Field(default_factory=list)
    # the Items the page heads besides the one in force at its end
    other_items: list[str] = Field(default_factory=list)


class DocumentContext(BaseModel):
    """The facts every chunk header of one document × year partition is made of."""

    document: str
    year: int
    company: str | None = None
    doc_type: str = "report"
    # the routing profile read from the cover (``document_profile`` stores it for retrieval)
    title: str | None = None
    aliases: list[str] = Field(default_factory=list)
    pages: list[PageContext] = Field(default_factory=list)

    def page(self, page_index: int) -> PageContext:
        if 0 <= page_index < len(self.pages) and self.pages[page_index].page_index == page_index:
            return self.pages[page_index]
        return next((p for p in self.pages if p.page_index == page_index),
                    PageContext(page_index=page_index))

    def statements(self, pages: Sequence[Page]) -> list[StatementKind | None]:
        """The statement each of ``pages`` is, as classified at ingest (the facts reader's
        statement pages)."""
        return [self.page(p.page_index).statement for p in pages]

    def header(self, page_index: int, section: str | None = None,
               table_title: str | None = None) -> str:
        """One line: company, form and fiscal year, Item, statement, section, table title.

        The statement's printed title says the same as the table title and the section
        heading on a statement page: a part already said is not said again.
        """
        page = self.page(page_index)
        parts = [self.company or self.document, f"{self.doc_type} fiscal {self.year}"]
        for extra in (
            *page.other_items,
            page.item,
            STATEMENT_TITLES[page.statement] if page.statement else None,
            *(topic_title(t) for t in page.topics[:MAX_TOPICS]),
            _short(section, MAX_SECTION_CHARS),
            _short(table_title, MAX_TITLE_CHARS),
        ):
            if not extra or letters_and_digits(extra) in letters_and_digits(" ".join(parts)):
                continue
            # a longer form of a part already said (the Item's heading as the section) replaces it
            longer = next((i for i, part in enumerate(parts[2:], 2)
                           if letters_and_digits(part) in letters_and_digits(extra)), None)
            if longer is None:
                parts.append(extra)
            else:
                parts[longer] = extra
        return " | ".join(parts)


def document_context(document: str, year: int, pages: Sequence[Page],
                     profile: DocumentProfile | None = None) -> DocumentContext:
    """Company, form and routing profile from the cover pages (``profile`` when the caller
    read it already), the Item of every page and what each page is: the statement
    classification (:func:`statements.classify_pages` over the pages with their tables in
    place: a continued statement and the segment note's later pages included; another
    company's statements left out, :mod:`entities`), made here once per report."""
    cover = [p.text for p in pages[:COVER_PAGES]]
    profile = profile or cover_profile(document, year, pages)
    lines = [p.lines for p in pages]
    doc_type = form_of(document, "\n".join(cover))
    items, opened = page_items(lines, doc_type)
    topics = topics_by_page(lines, items)
    rendered = [page_lines(p) for p in pages]
    # another company's statements (an investee's under Rule 3-09) are no statement pages
    kinds = registrant_statements(classify_pages(rendered), other_entity_pages(
        rendered, items, [profile.title, *profile.aliases]))
    return DocumentContext(
        document=document, year=year, company=company_name(document, profile.title),
        doc_type=doc_type, title=profile.title, aliases=profile.aliases,
        pages=[
            PageContext(page_index=p.page_index, item=item, statement=kind, topics=page_topics,
                        other_items=[i for i in heads if i != item and _routable(i)][:MAX_ITEMS])
            for p, item, kind, page_topics, heads in zip(
                pages, items, kinds, topics, opened, strict=True)
        ],
    )


def _routable(item: str) -> bool:
    """An Item a question may be routed to (legal proceedings, risk factors), not one of
    boilerplate ("Mine Safety Disclosures", "Unresolved Staff Comments")."""
    return bool(sections_of(item) - {"other"})


def company_name(document: str, registrant: str | None) -> str:
    """The registrant as a name is written ("McDONALD'S CORPORATION" -> "McDonald's
    Corporation"), else the document id's words ("coca-cola-10k" -> "Coca Cola")."""
    if registrant:
        return display_name(registrant)
    words = [w for w in re.split(r"[-_\s]+", document) if w and w.lower() not in GENERIC_ID_WORDS]
    return " ".join(w.title() if w.islower() else w for w in words) or document


def _short(text: str | None, limit: int) -> str | None:
    if not text:
        return None
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


_ASCII_NOT_ALNUM = bytes(c for c in range(128) if not chr(c).isalnum())
_NOT_ALNUM_RE = re.compile(r"[\W_]+")  # \w is str.isalnum() and "_"


def letters_and_digits(text: str) -> str:
    """Text compared without case, spacing, punctuation or line breaks (a header part against
    another, a definition in a raw window against the dictionary's): the characters for which
    ``str.isalnum()`` holds, lower-cased. ASCII text goes through ``bytes.translate`` (30x a
    character loop; every chunk of a report passes here)."""
    lowered = text.lower()
    if lowered.isascii():
        return lowered.encode("ascii").translate(None, _ASCII_NOT_ALNUM).decode("ascii")
    return _NOT_ALNUM_RE.sub("", lowered)
