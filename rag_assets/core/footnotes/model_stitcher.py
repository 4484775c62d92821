"""The model stitcher (``stitch_mode=llm``): a librarian model inlines the footnotes, the
deterministic stitcher checks every word of its work.

The deterministic stitcher (``stitching.stitch_document``) runs first. Its pages, less their
``{FOOTNOTE ...}`` blocks, are the body text the model is given (furniture and definition lines
already removed, tables as markdown), in page-aware batches of about ``batch_chars`` characters
cut only between pages (a page longer than that is cut between paragraphs, or lines, into parts of
its own). Each batch carries an appendix: the dictionary's definitions of the markers its pages
cite. Pages that cite nothing are not sent: whatever a model wrote there, the rules below would
throw it away.

The reply is parsed per page (``=== PAGE n ===`` lines) and merged with the deterministic page:

- body: the reply's body words (outside the blocks; letters, digits, ``$ € £ ¥ %``) must be the
  given ones, in order. A page whose words were dropped, added or changed falls back to the
  deterministic page, and the reason is recorded. The body of an accepted page is the given body
  itself, character for character: the model only contributes where a block goes and what it says;
- a block for a marker the page does not cite is removed: one the document never defines (an
  invented definition) or one cited elsewhere only;
- a block whose definition is the dictionary's (after normalizing white space, quotes and dashes,
  and a final full stop) is kept: status ``model``. A definition that is missing (``MISSING`` or
  empty), truncated (under 60 % of the known length) or altered is replaced by the dictionary's
  text: status ``backfilled``, with the reason. A citation the reply left without its block gets
  the deterministic block at the deterministic place: ``backfilled``, ``missing``;
- a block stays where the model put it when that lies between the citing marker and the end of
  the line on which the deterministic stitcher put it (a block in a markdown table row goes after
  the table, as the deterministic stitcher does); elsewhere it moves to the deterministic place;
- a model error or timeout (``LLMReplyError``) makes that batch's pages fall back; nothing raises.

So the output never loses a footnote the deterministic stitcher placed, never carries a definition
the document does not have, and never loses or changes a body word: ``text_conservation`` and
``stitching_coverage`` hold for it exactly as for the deterministic pages. Plain Python: no Dagster.
"""

from __future__ import annotations

import math
import re
import time
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Literal

from pydantic import BaseModel, Field

from rag_assets.core.footnotes.stitching import (
    FOOTNOTE_BLOCK_RE,
    MAX_SENTENCE_LINES,
    FootnoteIndex,
    StitchedPage,
    stitch_document,
)
from rag_assets.core.ingest.pages import Page
from rag_assets.core.llm.client import ChatModel, LLMReplyError
from rag_assets.core.llm.prompts import render

StitchStatus = Literal["model", "backfilled", "deterministic_fallback"]
DEFAULT_BATCH_CHARS = 4500
TRUNCATED_SHARE = 0.6  # a definition shorter than this share of the known one is "truncated"
CHARS_PER_REPLY_TOKEN = 3  # generous: figures and markdown tokenize densely
REPLY_TOKEN_MARGIN = 200

PAGE_HEADER_RE = re.compile(
    r"^[ \t>#*]*=+[ \t]*PAGE[ \t]+(?P<page>\d+)(?:[ \t]+PART[ \t]+(?P<part>\d+))?[ \t]*=*[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)
# blocks as a model may write them: spaces around the colon, lower case, a longer marker
REPLY_BLOCK_RE = re.compile(
    r"\{[ \t]*FOOTNOTE[ \t]+(?P<marker>[^:{}\n]{1,12}?)[ \t]*:[ \t]*(?P<text>[^{}]*)\}",
    re.IGNORECASE,
)
ONLY_BLOCKS_RE = re.compile(rf"^(?:{FOOTNOTE_BLOCK_RE.pattern}[ \t]*)+$")
TOKEN_RE = re.compile(r"[^\W_]+|[$€£¥%]")
MISSING_RE = re.compile(r"^[\W_]*(?:missing|none|n/?a|unknown|not found)?[\W_]*$", re.IGNORECASE)
FENCE_LINE_RE = re.compile(r"^[ \t]*(?:```\w*|</?document>)[ \t]*$", re.MULTILINE)
APPENDIX_LINE_RE = re.compile(r"^[ \t]*Appendix:?[ \t]*$", re.MULTILINE | re.IGNORECASE)
_PUNCTUATION = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "—": "-",
                              "\u00a0": " "})


# --- results --------------------------------------------------------------------------------


class FootnoteOutcome(BaseModel):
    """What became of one footnote on one page that cites it."""

    page_index: int
    marker: str
    footnote_id: str
    status: StitchStatus
    reason: str = ""  # why it was backfilled or fell back; "" for ``model``
    placed_by: Literal["model", "deterministic"] = "deterministic"


class PageFallback(BaseModel):
    page_index: int
    reason: str


class RemovedBlock(BaseModel):
    """A block of the reply that the output does not carry."""

    page_index: int
    marker: str
    reason: str
    text: str  # the model's definition, cut to 160 characters


class ModelStitchResult(BaseModel):
    pages: list[StitchedPage]  # the same shape as ``stitch_document``'s
    outcomes: list[FootnoteOutcome] = Field(default_factory=list)
    fallbacks: list[PageFallback] = Field(default_factory=list)
    removed: list[RemovedBlock] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)  # model errors, one per failed batch
    batches: int = 0
    pages_sent: int = 0
    model_calls: int = 0
    seconds: float = 0.0  # wall time of the whole stitch, model calls included
    model_seconds: float = 0.0

    def _count(self, status: StitchStatus) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def recovered(self) -> int:
        """Footnote placements (page, footnote) the model got right by itself."""
        return self._count("model")

    @property
    def backfilled(self) -> int:
        return self._count("backfilled")

    @property
    def fallback_footnotes(self) -> int:
        return self._count("deterministic_fallback")

    @property
    def fallback_pages(self) -> int:
        return len(self.fallbacks)

    def status_by_footnote(self) -> dict[str, StitchStatus]:
        """Per footnote id, its worst status over the pages that cite it."""
        rank = {"model": 0, "backfilled": 1, "deterministic_fallback": 2}
        out: dict[str, StitchStatus] = {}
        for o in self.outcomes:
            if o.footnote_id not in out or rank[o.status] > rank[out[o.footnote_id]]:
                out[o.footnote_id] = o.status
        return out

    def summary(self) -> str:
        return (f"{self.recovered} footnote placements by the model, {self.backfilled} "
                f"backfilled, {self.fallback_footnotes} from {self.fallback_pages} page(s) that "
                f"fell back; {self.model_calls} model call(s), {self.seconds:.1f}s")


# --- a stitched page as body text plus blocks -------------------------------------------------


@dataclass
class Anchor:
    """A block of the deterministic page: inline after ``offset`` of the body, or on a line of
    its own before body line ``line`` (``line == number of lines``: after the last one)."""

    marker: str
    text: str
    footnote_id: str
    orphan: bool
    offset: int | None = None
    line: int | None = None


@dataclass
class PageBody:
    page: StitchedPage
    body: str
    anchors: list[Anchor]

    @property
    def cited(self) -> list[Anchor]:
        return [a for a in self.anchors if not a.orphan]


def split_page(page: StitchedPage, index: FootnoteIndex) -> PageBody | None:
    """The page's body (its text less the footnote blocks) and where each block stood; None
    when the blocks cannot be taken out so that putting them back gives the page again."""
    orphans = {f.footnote_id for f in index.orphans if f.page_index == page.page_index}

    def anchor(match: re.Match[str], **where: int) -> Anchor | None:
        fid = _footnote_of(index, page.page_index, match, own_line="line" in where)
        if fid is None:
            return None
        return Anchor(marker=match.group("marker"), text=match.group("text"), footnote_id=fid,
                      orphan=fid in orphans, **where)

    lines: list[str] = []
    anchors: list[Anchor] = []
    offset = 0  # where the current line starts in the body
    for line in page.text.split("\n"):
        if ONLY_BLOCKS_RE.match(line):
            for match in FOOTNOTE_BLOCK_RE.finditer(line):
                found = anchor(match, line=len(lines))
                if found is None:
                    return None
                anchors.append(found)
            continue
        kept: list[str] = []
        length, last = 0, 0
        for match in FOOTNOTE_BLOCK_RE.finditer(line):
            part = line[last:match.start()]
            part = part[:-1] if part.endswith(" ") else part
            kept.append(part)
            length += len(part)
            found = anchor(match, offset=offset + length)
            if found is None:
                return None
            anchors.append(found)
            last = match.end()
        kept.append(line[last:])
        body_line = "".join(kept)
        lines.append(body_line)
        offset += len(body_line) + 1
    split = PageBody(page=page, body="\n".join(lines), anchors=anchors)
    if render_page(split.body, [(a, a.text) for a in anchors]) != page.text:
        return None
    return split


def _footnote_of(index: FootnoteIndex, page_index: int, block: re.Match[str],
                 own_line: bool = False) -> str | None:
    """The id of the footnote a block of a stitched page shows: the one with its marker and
    text that is cited on the page (or, on a line of its own, an orphan printed there)."""
    found = [f for f in index.footnotes
             if f.marker == block.group("marker") and f.text == block.group("text")]
    for f in found:
        if page_index in f.cited_pages:
            return f.footnote_id
    for f in found:
        if own_line and not f.cited_pages and f.page_index == page_index:
            return f.footnote_id
    return found[0].footnote_id if found else None


def render_page(body: str, blocks: Sequence[tuple[Anchor, str]]) -> str:
    """The body with each block put back where its anchor says (in the order given when two
    stand at one place), formatted as ``stitch_document`` formats them."""
    inline = sorted(((a.offset, n) for n, (a, _) in enumerate(blocks) if a.line is None),
                    reverse=True)
    text = body
    for offset, n in inline:
        anchor, definition = blocks[n]
        text = f"{text[:offset]} {footnote_block_text(anchor.marker, definition)}{text[offset:]}"
    lines = text.split("\n") if body else []
    own: dict[int, list[str]] = {}
    for anchor, definition in blocks:
        if anchor.line is not None:
            own.setdefault(anchor.line, []).append(footnote_block_text(anchor.marker, definition))
    out: list[str] = []
    for n in range(len(lines) + 1):
        out.extend(own.get(n, []))
        if n < len(lines):
            out.append(lines[n])
    return "\n".join(out)


def footnote_block_text(marker: str, definition: str) -> str:
    return f"{{FOOTNOTE {marker}: {definition}}}"


def body_text(page: StitchedPage, index: FootnoteIndex) -> str:
    """The text the model is given for a page: the stitched page without its footnote blocks."""
    split = split_page(page, index)
    if split is not None:
        return split.body
    return "\n".join(line for line in (FOOTNOTE_BLOCK_RE.sub("", x).rstrip()
                                       for x in page.text.split("\n")) if line.strip())


# --- batches ---------------------------------------------------------------------------------


@dataclass
class Unit:
    """A page, or a part of a page longer than a batch, as sent to the model."""

    page_index: int
    part: int  # 1-based; 0 for a whole page
    start: int  # span in the page body
    end: int
    text: str
    definitions: list[tuple[str, str]]

    @property
    def header(self) -> str:
        part = f" PART {self.part}" if self.part else ""
        return f"=== PAGE {self.page_index + 1}{part} ==="

    @property
    def key(self) -> tuple[int, int]:
        return self.page_index + 1, self.part


@dataclass
class Batch:
    units: list[Unit] = field(default_factory=list)

    @property
    def chars(self) -> int:
        return sum(len(u.text) for u in self.units)

    @property
    def text(self) -> str:
        return "\n\n".join(f"{u.header}\n{u.text}" for u in self.units)

    @property
    def definitions(self) -> list[tuple[str, str]]:
        seen: dict[tuple[str, str], None] = {}
        for u in self.units:
            seen.update(dict.fromkeys(u.definitions))
        return list(seen)


def _line_starts(body: str) -> list[int]:
    starts = [0]
    starts.extend(m.end() for m in re.finditer("\n", body))
    return starts


def _parts(body: str, limit: int) -> list[tuple[int, int]]:
    """Spans of ``body`` of at most about ``limit`` characters, cut between paragraphs where
    that is enough, else between lines (a longer line is a part of its own)."""
    if len(body) <= limit:
        return [(0, len(body))]
    target = math.ceil(len(body) / math.ceil(len(body) / limit))
    starts = _line_starts(body)
    ends = [s - 1 for s in starts[1:]] + [len(body)]
    spans: list[tuple[int, int]] = []
    start = 0
    best: int | None = None  # the last paragraph end in the current part
    for n, end in enumerate(ends):
        if end - start > target and n and ends[n - 1] > start:
            cut = best if best is not None and best - start >= target // 2 else ends[n - 1]
            spans.append((start, cut))
            start = cut + 1
            best = None
        blank_next = n + 1 < len(ends) and not body[starts[n + 1]:ends[n + 1]].strip()
        if blank_next and end > start:
            best = end
    spans.append((start, len(body)))
    return [(a, b) for a, b in spans if body[a:b].strip()]


def plan_units(splits: Sequence[PageBody], batch_chars: int = DEFAULT_BATCH_CHARS) -> list[Unit]:
    """The pages that cite a footnote, a page longer than ``batch_chars`` in parts; each with
    the definitions of the blocks that stand in it (a part without any is not sent)."""
    units: list[Unit] = []
    for split in splits:
        if not split.cited:
            continue
        spans = _parts(split.body, batch_chars)
        starts = _line_starts(split.body)
        for part, (start, end) in enumerate(spans, start=1):
            defs: dict[tuple[str, str], None] = {}
            for a in split.cited:
                if a.line is None:
                    at = a.offset or 0
                else:  # a block on its own line belongs to the end of the line above
                    at = starts[a.line] - 1 if 0 < a.line < len(starts) else (
                        0 if a.line == 0 else len(split.body))
                if start <= at <= end:
                    defs[(a.marker, a.text)] = None
            units.append(Unit(page_index=split.page.page_index, part=part if len(spans) > 1
                              else 0, start=start, end=end, text=split.body[start:end],
                              definitions=list(defs)))
    return units


def plan_batches(units: Sequence[Unit], batch_chars: int = DEFAULT_BATCH_CHARS) -> list[Batch]:
    """The units that carry definitions, in order, packed into batches of about
    ``batch_chars`` characters of body text, cut only between units."""
    batches: list[Batch] = []
    current = Batch()
    for unit in units:
        if not unit.definitions:
            continue
        if current.units and current.chars + len(unit.text) > batch_chars:
            batches.append(current)
            current = Batch()
        current.units.append(unit)
    if current.units:
        batches.append(current)
    return batches


# --- the reply -------------------------------------------------------------------------------


@dataclass
class ReplyBlock:
    marker: str
    text: str
    token: int  # body tokens before it


@dataclass
class ReplyPage:
    tokens: list[str]
    blocks: list[ReplyBlock]


def tokens(text: str) -> list[str]:
    return [t.lower() for t in TOKEN_RE.findall(unicodedata.normalize("NFKC", text))]


def _token_spans(text: str) -> list[tuple[int, int]]:
    """Where each of ``tokens(text)`` stands in ``text`` (NFKC may split one match in two)."""
    spans = []
    for match in TOKEN_RE.finditer(text):
        n = len(tokens(match.group()))
        spans.extend([match.span()] * n)
    return spans


def parse_reply_text(text: str) -> ReplyPage:
    """A page of a reply: its body tokens and its blocks, each with the tokens before it."""
    body_tokens: list[str] = []
    blocks: list[ReplyBlock] = []
    last = 0
    for match in REPLY_BLOCK_RE.finditer(text):
        body_tokens.extend(tokens(text[last:match.start()]))
        blocks.append(ReplyBlock(marker=normalize_marker(match.group("marker")),
                                 text=match.group("text").strip(), token=len(body_tokens)))
        last = match.end()
    body_tokens.extend(tokens(text[last:]))
    return ReplyPage(tokens=body_tokens, blocks=blocks)


def split_reply(reply: str, batch: Batch) -> dict[tuple[int, int], str]:
    """The reply's text per unit key, by its ``=== PAGE n ===`` lines (the first of a repeated
    header counts); a one-unit batch answered without a header is that unit."""
    reply = FENCE_LINE_RE.sub("", reply)
    if not any(APPENDIX_LINE_RE.search(u.text) for u in batch.units):
        cut = APPENDIX_LINE_RE.search(reply)
        reply = reply[:cut.start()] if cut else reply
    headers = list(PAGE_HEADER_RE.finditer(reply))
    if not headers:
        return {batch.units[0].key: reply} if len(batch.units) == 1 else {}
    out: dict[tuple[int, int], str] = {}
    for n, header in enumerate(headers):
        end = headers[n + 1].start() if n + 1 < len(headers) else len(reply)
        key = (int(header.group("page")), int(header.group("part") or 0))
        out.setdefault(key, reply[header.end():end])
    return out


def normalize_marker(marker: str) -> str:
    marker = re.sub(r"\s+", "", marker)
    return f"[{marker}]" if marker.isdigit() else marker


def normalized_definition(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_PUNCTUATION)
    text = " ".join(text.split()).strip().strip('"').strip()
    return text[:-1].rstrip() if text.endswith(".") else text


def judge_definition(given: str, known: str) -> str | None:
    """None when the model's definition is the dictionary's, else why it is not."""
    if MISSING_RE.match(given):
        return "missing"
    a, b = normalized_definition(given), normalized_definition(known)
    if a == b:
        return None
    if len(a) < TRUNCATED_SHARE * len(b):
        return f"truncated ({len(a)} of {len(b)} characters)"
    return f"altered ({_first_difference(b, a)})"


def _first_difference(known: str, given: str) -> str:
    a, b = known.split(), given.split()
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            return f"{' '.join(a[i1:i2])[:40]!r} -> {' '.join(b[j1:j2])[:40]!r}"
    return "punctuation"


def _body_difference(given: list[str], got: list[str]) -> str:
    dropped: list[str] = []
    added: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, given, got, autojunk=False).get_opcodes():
        if tag in ("delete", "replace"):
            dropped.extend(given[i1:i2])
        if tag in ("insert", "replace"):
            added.extend(got[j1:j2])
    parts = []
    if dropped:
        parts.append(f"dropped {len(dropped)} word(s) ({' '.join(dropped[:8])})")
    if added:
        parts.append(f"added {len(added)} word(s) ({' '.join(added[:8])})")
    return "body changed: " + ", ".join(parts)


# --- the merge -------------------------------------------------------------------------------


class _Page:
    """A split page with the helpers the merge needs."""

    def __init__(self, split: PageBody) -> None:
        self.split = split
        self.body = split.body
        self.lines = self.body.split("\n")
        self.starts = _line_starts(self.body)
        self.spans = _token_spans(self.body)

    def line_of(self, offset: int) -> int:
        return max(0, bisect_right(self.starts, offset) - 1)

    def line_end(self, line: int) -> int:
        return self.starts[line] + len(self.lines[line])

    def at(self, anchor: Anchor) -> int:
        if anchor.line is None:
            return anchor.offset or 0
        if anchor.line == 0:
            return 0
        return self.line_end(min(anchor.line, len(self.lines)) - 1)

    def place(self, token: int, marker: str, text: str, fid: str) -> Anchor:
        """Where a block the model wrote after ``token`` body tokens goes in the body: after the
        characters that close the token's word (``[1].``); after the table for a table row."""
        if token == 0 or not self.spans:
            return Anchor(marker=marker, text=text, footnote_id=fid, orphan=False, offset=0)
        offset = self.spans[min(token, len(self.spans)) - 1][1]
        while offset < len(self.body) and not self.body[offset].isspace():
            offset += 1
        line = self.line_of(offset)
        if self.lines[line].lstrip().startswith("|"):
            while line + 1 < len(self.lines) and self.lines[line + 1].lstrip().startswith("|"):
                line += 1
            return Anchor(marker=marker, text=text, footnote_id=fid, orphan=False, line=line + 1)
        return Anchor(marker=marker, text=text, footnote_id=fid, orphan=False, offset=offset)

    def window(self, anchor: Anchor) -> tuple[int, int]:
        """Where a model's block for the citation of ``anchor`` may stand: from the citing
        marker (when it is printed in the few lines before) to the end of the line on which the
        deterministic stitcher put the block."""
        at = self.at(anchor)
        line = self.line_of(at)
        low = self.starts[max(0, line - MAX_SENTENCE_LINES)]
        cited = self.body.rfind(anchor.marker, low, at + 1)
        start = cited + len(anchor.marker) if cited >= 0 else self.starts[line]
        return start, self.line_end(line)


def _merge_page(
    page: _Page, reply: ReplyPage, index_markers: set[str]
) -> tuple[str, list[FootnoteOutcome], list[RemovedBlock]] | str:
    """The merged page text, its outcomes and removed blocks; or why the page falls back."""
    given = tokens(page.body)
    if reply.tokens != given:
        return _body_difference(given, reply.tokens)
    page_index = page.split.page.page_index
    expected: dict[str, list[Anchor]] = {}
    for a in page.split.cited:
        expected.setdefault(a.marker, []).append(a)
    got: dict[str, list[ReplyBlock]] = {}
    removed: list[RemovedBlock] = []
    for block in reply.blocks:
        if block.marker in expected:
            got.setdefault(block.marker, []).append(block)
            continue
        reason = ("not cited on this page" if block.marker in index_markers
                  else "not defined in the document")
        removed.append(RemovedBlock(page_index=page_index, marker=block.marker, reason=reason,
                                    text=block.text[:160]))
    rank = {id(a): n for n, a in enumerate(page.split.anchors)}  # reading order on the page
    placed: list[tuple[Anchor, int]] = [(a, rank[id(a)]) for a in page.split.anchors
                                        if a.orphan]
    per_footnote: dict[str, list[tuple[StitchStatus, str, bool]]] = {}
    for marker, anchors in expected.items():
        blocks = got.get(marker, [])
        for n, anchor in enumerate(anchors):
            if n >= len(blocks):
                placed.append((anchor, rank[id(anchor)]))
                per_footnote.setdefault(anchor.footnote_id, []).append(
                    ("backfilled", "missing", False))
                continue
            block = blocks[n]
            problem = judge_definition(block.text, anchor.text)
            where = page.place(block.token, anchor.marker, anchor.text, anchor.footnote_id)
            low, high = page.window(anchor)
            by_model = low <= page.at(where) <= high
            placed.append((where if by_model else anchor, rank[id(anchor)]))
            status: StitchStatus = "backfilled" if problem else "model"
            per_footnote.setdefault(anchor.footnote_id, []).append(
                (status, problem or "", by_model))
        for block in blocks[len(anchors):]:
            removed.append(RemovedBlock(page_index=page_index, marker=marker,
                                        reason="more blocks than citations on the page",
                                        text=block.text[:160]))
    outcomes = []
    marker_of = {a.footnote_id: a.marker for a in page.split.cited}
    for fid, results in per_footnote.items():
        bad = [r for r in results if r[0] != "model"]
        outcomes.append(FootnoteOutcome(
            page_index=page_index, marker=marker_of[fid], footnote_id=fid,
            status="backfilled" if bad else "model",
            reason="; ".join(dict.fromkeys(r[1] for r in bad)),
            placed_by="model" if all(r[2] for r in results) else "deterministic",
        ))
    # blocks at one place keep the deterministic page's order; always the dictionary's text
    placed.sort(key=lambda item: (page.at(item[0]), item[1]))
    text = render_page(page.body, [(anchor, anchor.text) for anchor, _ in placed])
    return text, outcomes, removed


# --- the whole document ----------------------------------------------------------------------


def model_stitch(
    pages: Sequence[Page],
    index: FootnoteIndex,
    chat: ChatModel,
    *,
    batch_chars: int = DEFAULT_BATCH_CHARS,
    deterministic: Sequence[StitchedPage] | None = None,
    log: Callable[[str], None] | None = None,
) -> ModelStitchResult:
    """Stitch ``pages`` with the librarian model of ``chat``, validated page by page against
    the deterministic stitcher (see the module docstring). ``deterministic`` saves stitching
    again when the caller has ``stitch_document(pages, index)`` already."""
    started = time.perf_counter()
    det = list(deterministic) if deterministic is not None else stitch_document(pages, index)
    index_markers = {f.marker for f in index.footnotes}
    by_id = index.by_id()
    out: dict[int, StitchedPage] = {p.page_index: p for p in det}
    result = ModelStitchResult(pages=[])
    splits: list[PageBody] = []
    for page in det:
        split = split_page(page, index)
        if split is None:
            result.fallbacks.append(PageFallback(
                page_index=page.page_index,
                reason="its footnote blocks could not be separated from the body"))
            continue
        splits.append(split)
    split_of = {s.page.page_index: s for s in splits}
    by_page = {s.page.page_index: _Page(s) for s in splits}
    units = plan_units(splits, batch_chars)
    batches = plan_batches(units, batch_chars)
    result.batches = len(batches)
    result.pages_sent = len({u.page_index for b in batches for u in b.units})
    calls_before, seconds_before = chat.calls, chat.seconds
    replies: dict[int, list[tuple[Unit, str | None]]] = {}
    for unit in units:
        if not unit.definitions:  # a part that cites nothing: its text is its own reply
            replies.setdefault(unit.page_index, []).append((unit, unit.text))
    failures: dict[int, str] = {}
    for number, batch in enumerate(batches, start=1):
        prompt = render("stitcher", text=batch.text, definitions=batch.definitions)
        try:
            reply = _complete(chat, prompt, batch)
        except LLMReplyError as err:
            message = f"batch {number} (pages {_pages_of(batch)}): {err}"
            result.errors.append(message)
            if log:
                log(f"model stitcher: {message}; deterministic pages used")
            for unit in batch.units:
                failures.setdefault(unit.page_index, f"model error: {err}")
            continue
        texts = split_reply(reply, batch)
        for unit in batch.units:
            replies.setdefault(unit.page_index, []).append((unit, texts.get(unit.key)))
    for page_index, page in by_page.items():
        if not page.split.cited:
            continue
        reason = failures.get(page_index)
        parts = replies.get(page_index, [])
        if reason is None and any(text is None for _, text in parts):
            reason = "page missing from the model's reply"
        merged = None
        if reason is None:
            combined = ReplyPage(tokens=[], blocks=[])
            for _, text in sorted(parts, key=lambda item: item[0].start):
                part = parse_reply_text(text or "")
                for block in part.blocks:
                    block.token += len(combined.tokens)
                combined.tokens.extend(part.tokens)
                combined.blocks.extend(part.blocks)
            merged = _merge_page(page, combined, index_markers)
            if isinstance(merged, str):
                reason, merged = merged, None
        if merged is None:
            result.fallbacks.append(PageFallback(page_index=page_index, reason=reason or ""))
            continue
        text, outcomes, removed = merged
        det_page = page.split.page
        out[page_index] = det_page.model_copy(update={"text": text})
        result.outcomes.extend(outcomes)
        result.removed.extend(removed)
    fell_back = {f.page_index: f.reason for f in result.fallbacks}
    for page in det:
        reason = fell_back.get(page.page_index)
        if reason is None:
            continue
        cited: dict[str, str] = {}
        split = split_of.get(page.page_index)
        if split is not None:
            cited = {a.footnote_id: a.marker for a in split.cited}
        else:  # blocks that are not orphans printed where they stand
            for match in FOOTNOTE_BLOCK_RE.finditer(page.text):
                footnote = by_id.get(_footnote_of(index, page.page_index, match) or "")
                if footnote is not None and footnote.cited_pages:
                    cited.setdefault(footnote.footnote_id, footnote.marker)
        for fid, marker in cited.items():
            result.outcomes.append(FootnoteOutcome(
                page_index=page.page_index, marker=marker, footnote_id=fid,
                status="deterministic_fallback", reason=reason))
    if log:
        for f in result.fallbacks:
            log(f"model stitcher: page {f.page_index} fell back to the deterministic stitcher: "
                f"{f.reason}")
    result.outcomes.sort(key=lambda o: (o.page_index, o.footnote_id))
    result.fallbacks.sort(key=lambda f: f.page_index)
    result.pages = [out[p.page_index] for p in det]
    result.model_calls = chat.calls - calls_before
    result.model_seconds = round(chat.seconds - seconds_before, 3)
    result.seconds = round(time.perf_counter() - started, 3)
    return result


def _pages_of(batch: Batch) -> str:
    return ", ".join(dict.fromkeys(str(u.page_index) for u in batch.units))


def _complete(chat: ChatModel, prompt: str, batch: Batch) -> str:
    """The librarian's reply, allowed enough tokens to write the batch back with its blocks
    (the configured ``max_tokens`` suits answers, not a copy of 4,500 characters)."""
    need = sum(len(u.text) + sum(len(m) + len(t) + 14 for m, t in u.definitions)
               for u in batch.units) + 20 * len(batch.units)
    budget = max(chat.config.max_tokens, need // CHARS_PER_REPLY_TOKEN + REPLY_TOKEN_MARGIN)
    if budget == chat.config.max_tokens:
        return chat.complete(prompt, role="librarian")
    sized = ChatModel(chat.config.model_copy(update={"max_tokens": budget}), chat.client)
    try:
        return sized.complete(prompt, role="librarian")
    finally:
        chat.calls += sized.calls
        chat.seconds += sized.seconds


__all__ = [
    "DEFAULT_BATCH_CHARS", "Anchor", "Batch", "FootnoteOutcome", "ModelStitchResult",
    "PageBody", "PageFallback", "RemovedBlock", "Unit", "body_text", "judge_definition",
    "model_stitch", "parse_reply_text", "plan_batches", "plan_units", "render_page",
    "split_page", "split_reply", "tokens",
]
