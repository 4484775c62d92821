"""Checks of the footnote stages that count the thing itself, not markers.

- ``text_conservation``: no word given to the stitcher is lost. Every word of a page's body (the
  page less its furniture and its definition lines) appears, in order, in the stitched page
  outside the footnote blocks; every word of a definition's lines appears in the text the
  dictionary keeps for it. It needs no ground truth, so it guards every real document.
- ``stray_note_lines``: lines in a footnote zone that no definition took (they stay in the body).
- ``definition_completeness``: against a generator's ground truth, the share of definitions whose
  stored text is the complete text, plus citing pages and footnote-to-footnote references.
- ``citation_counts``: per footnote, how often it is cited; orphans and unresolved citations.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

from pydantic import BaseModel, Field

from rag_assets.core.footnotes.blocks import FOOTNOTE_BLOCK_RE
from rag_assets.core.footnotes.definitions import join_wrapped
from rag_assets.core.footnotes.groundtruth import FootnoteTruth
from rag_assets.core.footnotes.records import Footnote, FootnoteIndex, StitchedPage
from rag_assets.core.footnotes.zones import page_views
from rag_assets.core.ingest.pages import Page, raw_page_text

WORD_RE = re.compile(r"[^\W_]+")  # letters and digits: a "_____" rule is no word


def words(text: str) -> list[str]:
    """Lower-case word tokens; lines are joined as the dictionary joins them (hyphenation)."""
    return WORD_RE.findall(unicodedata.normalize("NFKC", text).lower())


class LostWords(BaseModel):
    page_index: int
    where: str  # "body" or the footnote id whose text lacks them
    words: list[str]
    context: str  # the source line(s) they come from


class Conservation(BaseModel):
    words_checked: int
    lost: list[LostWords] = Field(default_factory=list)

    @property
    def words_lost(self) -> int:
        return sum(len(x.words) for x in self.lost)


def text_conservation(
    pages: Sequence[Page], index: FootnoteIndex, stitched: Sequence[StitchedPage]
) -> Conservation:
    """Every word the stitcher was given, found where it belongs (see the module docstring)."""
    views = page_views(pages)
    stitched_of = {p.page_index: p.text for p in stitched}
    spans: dict[int, dict[int, str]] = {}  # page -> definition line -> footnote id
    for f in index.footnotes:
        for page_index, lines in f.spans.items():
            for line in lines:
                spans.setdefault(page_index, {})[line] = f.footnote_id
    text_of = {f.footnote_id: Counter(words(f.text) + words(f.marker)) for f in index.footnotes}
    checked = 0
    lost: list[LostWords] = []
    for view in views:
        page = view.page
        definition_lines = spans.get(page.page_index, {})
        body_lines = [
            line for n, line in enumerate(view.lines)
            if n not in view.furniture and n not in definition_lines
        ]
        body = words(raw_page_text(page.model_copy(update={"text": "\n".join(body_lines)})))
        kept = words(FOOTNOTE_BLOCK_RE.sub(" ", stitched_of.get(page.page_index, "")))
        checked += len(body)
        missing = _not_in_order(body, kept)
        if missing:
            lost.append(LostWords(
                page_index=page.page_index, where="body", words=missing[:50],
                context=_context(body_lines, missing),
            ))
        by_footnote: dict[str, list[str]] = {}
        for n in sorted(definition_lines):
            by_footnote.setdefault(definition_lines[n], []).append(view.lines[n].strip())
        for footnote_id, note_lines in by_footnote.items():
            given = words(join_wrapped(note_lines))
            checked += len(given)
            have = text_of[footnote_id]
            absent = [w for w in given if have[w] == 0]
            if absent:
                lost.append(LostWords(
                    page_index=page.page_index, where=footnote_id, words=absent[:50],
                    context=" / ".join(note_lines)[:300],
                ))
    return Conservation(words_checked=checked, lost=lost)


DIFF_WORDS = 4_000  # the most words of one side difflib aligns at once (its cost is quadratic)


def _not_in_order(given: list[str], kept: list[str]) -> list[str]:
    """The words of ``given`` that ``kept`` does not hold in the same order.

    The stitcher keeps a page's body in order, so the two lists share a long head and tail;
    these are matched word for word (linear) and only what lies between is aligned by difflib,
    whose cost grows with the product of the lengths (a 5 MB page took minutes). A middle longer
    than ``DIFF_WORDS`` is aligned a window at a time (``_windowed``)."""
    head = _common_head(given, kept)
    tail = _common_head(given[head:][::-1], kept[head:][::-1])
    a = given[head:len(given) - tail]
    b = kept[head:len(kept) - tail]
    if not a:
        return []
    if not b:
        return a
    if len(a) <= DIFF_WORDS and len(b) <= DIFF_WORDS:
        return _difflib_missing(a, b)
    return _windowed(a, b)


def _common_head(a: list[str], b: list[str]) -> int:
    """How many words ``a`` and ``b`` share from their start (compared a slice at a time)."""
    n = min(len(a), len(b))
    at, step = 0, 1024
    while at < n:
        size = min(step, n - at)
        if a[at:at + size] == b[at:at + size]:
            at += size
            continue
        while at < n and a[at] == b[at]:
            at += 1
        return at
    return at


def _difflib_missing(a: list[str], b: list[str]) -> list[str]:
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    matched = {i for block in matcher.get_matching_blocks() for i in range(block.a,
                                                                          block.a + block.size)}
    return [w for i, w in enumerate(a) if i not in matched]


def _windowed(a: list[str], b: list[str]) -> list[str]:
    """``_difflib_missing`` over a long middle, ``DIFF_WORDS`` given words at a time against
    the kept words from where the last window's match ended (twice as many, so that words the
    stitcher added in between do not push the match out of the window): linear in the length,
    at the price of calling a word lost that moved further than a window."""
    missing: list[str] = []
    j = 0
    for i in range(0, len(a), DIFF_WORDS):
        window = a[i:i + DIFF_WORDS]
        against = b[j:j + 2 * DIFF_WORDS]
        matcher = SequenceMatcher(None, window, against, autojunk=False)
        blocks = [blk for blk in matcher.get_matching_blocks() if blk.size]
        matched = {k for blk in blocks for k in range(blk.a, blk.a + blk.size)}
        missing.extend(w for k, w in enumerate(window) if k not in matched)
        if blocks:
            j += blocks[-1].b + blocks[-1].size
    return missing


def _context(lines: list[str], missing: list[str]) -> str:
    wanted = set(missing)
    hits = [line.strip() for line in lines if wanted & set(words(line))]
    return " / ".join(hits[:3])[:300]


class StrayLine(BaseModel):
    page_index: int
    line: int
    text: str


def stray_note_lines(pages: Sequence[Page], index: FootnoteIndex) -> list[StrayLine]:
    """Lines in a footnote zone that no definition took: kept in the body, listed for a human."""
    taken = {(p, n) for f in index.footnotes for p, lines in f.spans.items() for n in lines}
    out = []
    for view in page_views(pages):
        page_index = view.page.page_index
        for n in sorted(view.zone):
            line = view.lines[n].strip()
            if line and n not in view.furniture and (page_index, n) not in taken:
                out.append(StrayLine(page_index=page_index, line=n, text=line[:200]))
    return out


class Completeness(BaseModel):
    """A document's definitions against its ground truth."""

    expected: int
    complete: int
    incomplete: list[str]  # "marker@page: expected '...' got '...'"
    cites_expected: int
    cites_recorded: int
    citing_pages_expected: int
    citing_pages_found: int

    @property
    def ratio(self) -> float:
        return self.complete / self.expected if self.expected else 1.0


def normalized(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def definition_completeness(index: FootnoteIndex, truth: FootnoteTruth) -> Completeness:
    by_marker: dict[str, list[Footnote]] = {}
    for f in index.footnotes:
        by_marker.setdefault(f.marker, []).append(f)
    marker_of_id = {f.footnote_id: f.marker for f in index.footnotes}
    complete, incomplete = 0, []
    cites_expected = cites_recorded = pages_expected = pages_found = 0
    for expected in truth.footnotes:
        candidates = by_marker.get(expected.marker, [])
        found = next((f for f in candidates if expected.page in f.spans), None) or next(
            (f for f in candidates if normalized(f.text) == normalized(expected.text)), None
        )
        got = normalized(found.text) if found else ""
        if got == normalized(expected.text):
            complete += 1
        else:
            incomplete.append(
                f"{expected.marker}@{expected.page}: expected {normalized(expected.text)[:80]!r}"
                f" got {got[:80]!r}"
            )
        recorded = {marker_of_id.get(fid, fid) for fid in (found.cites if found else [])}
        cites_expected += len(expected.cites)
        cites_recorded += len(set(expected.cites) & recorded)
        pages_expected += len(expected.cited_pages)
        pages_found += len(set(expected.cited_pages) & set(found.cited_pages if found else []))
    return Completeness(
        expected=len(truth.footnotes), complete=complete, incomplete=incomplete,
        cites_expected=cites_expected, cites_recorded=cites_recorded,
        citing_pages_expected=pages_expected, citing_pages_found=pages_found,
    )


class CitationCounts(BaseModel):
    counts: dict[str, int]  # footnote id -> citations in text and tables
    orphans: list[str]  # "footnote_id (page N): first words"
    unresolved: list[str]  # "marker (page N): sentence"
    citations: int

    @property
    def unresolved_share(self) -> float:
        return len(self.unresolved) / self.citations if self.citations else 0.0

    def most_cited(self, n: int = 10) -> list[tuple[str, int]]:
        return Counter(self.counts).most_common(n)

    def problems(self, max_unresolved_share: float) -> list[str]:
        """Why the citations need a look (none: ``citation_counts`` passes): too many markers
        without a definition, or footnotes defined and not one cited (the markers were not
        read). Some footnotes never cited is not one: a 10-K defines notes (of a table, of a
        row left out) that its text does not cite."""
        found = []
        if self.unresolved_share > max_unresolved_share:
            found.append(f"{len(self.unresolved)} of {self.citations} citations have no "
                         f"definition ({self.unresolved_share:.1%}, limit "
                         f"{max_unresolved_share:.0%})")
        if self.counts and len(self.orphans) == len(self.counts):
            found.append(f"none of the {len(self.counts)} footnotes is cited: were the markers "
                         "read?")
        return found


def multi_line(footnote: Footnote) -> bool:
    """Printed over several lines where its kept text stands (a note repeated on two pages in
    one line each is not a multi-line definition)."""
    return len(footnote.spans.get(footnote.page_index, [])) > 1


def citation_counts(index: FootnoteIndex) -> CitationCounts:
    counts = {f.footnote_id: 0 for f in index.footnotes}
    body = [c for c in index.citations if c.context != "footnote"]
    for c in body:
        if c.footnote_id:
            counts[c.footnote_id] = counts.get(c.footnote_id, 0) + 1
    orphans = [f"{f.footnote_id} (page {f.page_index}): {f.text[:60]}" for f in index.orphans]
    unresolved = [
        f"{c.marker} (page {c.page_index}): {c.sentence[:80]}" for c in index.citations
        if c.footnote_id is None
    ]
    return CitationCounts(counts=counts, orphans=orphans, unresolved=unresolved,
                          citations=len(index.citations))
