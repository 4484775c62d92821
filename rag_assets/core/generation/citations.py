"""Citation verification: is each quote printed on the page it cites, and does it support the claim?

A model (or the extractive engine) cites ``(document, year, page, quote)``. Nothing it writes is
trusted: every citation is checked against the stored pages (``raw_pages``) and marked

- ``invalid``: the page is not stored, the quote is not printed on it, or an ``Article N`` /
  ``Article N(M)`` / ``Note N`` that the claim or quote names is not on that page;
- ``context_mismatch``: the quote is on the page but does not support the claim: a figure of the
  claim is not in the quote or next to it, the claim's words are not around the quote, or the
  quote sits outside the Article / Note the claim names;
- ``valid`` otherwise.

Quotes are compared after ``normalize`` (:mod:`page_texts`, with the stored pages), so line
breaks, hyphenation, table pipes and typographic quotes never decide. A quote taken from the
stitched text may carry ``{FOOTNOTE [N]: definition}`` blocks: the sentence part must be on the
cited page and each definition on that page or on another page of the same report (stitching
puts a definition printed elsewhere after the sentence that cites it), and the sentence (or an
earlier definition in the quote) must cite the marker.
Deterministic and model-free; plain Python, no Dagster.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from rag_assets.core.footnotes.stitching import FOOTNOTE_BLOCK_RE
from rag_assets.core.generation.evidence import looks_like_instruction
from rag_assets.core.generation.page_texts import (
    CHECKED_KINDS,
    Label,
    Mention,
    NormalizedPage,
    PageTexts,
    normalize,
)
from rag_assets.core.generation.records import CitationMark, Claim, SourceCitation
from rag_assets.core.retrieval.references import STOP_WORDS, find_references
from rag_assets.core.text.figures import DECIMALS, INTEGER, SCALE_WORDS

WINDOW_CHARS = 400  # normalized characters either side of a quote that still count as its context
REFERENCE_WINDOW_LINES = 4  # lines either side of a quote where a mention of an Article counts

_ELLIPSIS_RE = re.compile(r"\[?\s*(?:\.{3,}|…)\s*\]?")
_EDGE_PUNCT = " .,;:'\"!?"

_KEY_RE = re.compile(r"(?P<kind>article|note) (?P<num>[0-9a-z.]+)(?P<parts>(?:\([0-9a-z]+\))*)")

_VALUE_RE = re.compile(
    r"(?<![\w.,])(?<![^\W\d_]-)"  # not part of a word: "Q4", "3M", "COVID-19", "10-K"
    rf"(?P<int>{INTEGER})(?P<dec>{DECIMALS})?(?!\w|[.,]\d|-[^\W\d_])"
    r"\s*(?P<pct>%|percent\b)?\s*(?P<scale>thousand|million|billion|trillion)?\b"
)
_WORD_RE = re.compile(r"[^\W\d_]{3,}")
_MORE_STOP_WORDS = frozenset({"per", "cent", "percent", "year", "years", "company"})


class CitationSettings(BaseModel):
    """How closely a cited reference's context must match its claim: read by the answers and
    summaries (``AnswerConfig``) and set with the ``llm`` section of the settings."""

    model_config = ConfigDict(extra="forbid")

    citation_threshold: float = Field(
        default=0.5, ge=0.0, le=1.0,
        description="how closely a cited reference's context must match its claim (0-1)")


# --- references ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Ref:
    key: str  # "article 12(3)", "note 5"
    kind: str
    number: str
    parts: tuple[str, ...]

    @property
    def shown(self) -> str:
        return self.kind.title() + " " + self.number.upper() + "".join(f"({p})" for p in self.parts)

    def labels_match(self, label: Label) -> bool:
        article, paragraph, note = label
        if self.kind == "article":
            return (self.number.isdigit() and article == int(self.number)
                    and (not self.parts or (self.parts[0].isdigit()
                                            and paragraph == int(self.parts[0]))))
        # "Note 1M" is a lettered section of Note 1: its region is Note 1's
        return note is not None and self.number.startswith(note) and (
            self.number[len(note):].isalpha() or self.number == note)

    def printed_as(self, key: str) -> bool:
        """A page printing ``key`` prints this reference: the same or a more specific one
        ("Article 6(1)(a)" prints Article 6(1); "Article 12" does not print Article 12(9))."""
        return key == self.key or key.startswith(self.key + "(")

    def related(self, key: str) -> bool:
        """The same reference, or its parent / child: Article 12 and Article 12(3)."""
        return self.printed_as(key) or self.key.startswith(key + "(")


def _refs(text: str) -> list[_Ref]:
    out: dict[str, _Ref] = {}
    for r in find_references(text):
        if r.kind in CHECKED_KINDS and (m := _KEY_RE.fullmatch(r.key)):
            parts = tuple(re.findall(r"\((\w+)\)", m["parts"]))
            out.setdefault(r.key, _Ref(r.key, m["kind"], m["num"], parts))
    return list(out.values())


# --- figures and words ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Figure:
    value: float
    decimals: int
    scale: float  # 1 unless a scale word follows: "$2.4 billion"
    year_like: bool


def _figures(normalized: str) -> list[_Figure]:
    out = []
    for m in _VALUE_RE.finditer(normalized):
        digits = m["int"].replace(",", "")
        decimals = len(m["dec"]) - 1 if m["dec"] else 0
        value = float(digits + (m["dec"] or ""))
        scale = SCALE_WORDS.get(m["scale"] or "", 1.0)
        year_like = ("," not in m["int"] and not decimals and not m["pct"] and scale == 1
                     and 1900 <= value <= 2100)
        out.append(_Figure(value, decimals, scale, year_like))
    return out


def _figure_in(wanted: _Figure, pool: Iterable[_Figure]) -> bool:
    """Equal, or equal at the claim's precision once scales agree: "$2.4 billion" is in a table
    that prints 2,400 (millions) or 2,431 and in prose that prints "$2.4 billion"."""
    for found in pool:
        if wanted.scale == 1:
            if math.isclose(found.value, wanted.value):
                return True
            continue
        scales = [found.scale] if found.scale > 1 else [1.0, 1e3, 1e6, 1e9]
        for scale in scales:
            if math.isclose(round(found.value * scale / wanted.scale, wanted.decimals),
                            wanted.value):
                return True
    return False


def _stem(word: str) -> str:
    for suffix in ("ing", "ies", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _words(normalized: str, ignore: frozenset[str] = frozenset()) -> set[str]:
    return {
        _stem(w) for w in _WORD_RE.findall(normalized)
        if w not in STOP_WORDS and w not in _MORE_STOP_WORDS and w not in ignore
    }


def _blank_references(text: str) -> str:
    """The claim without its reference phrases: "Article 33" or "[3]" is not a figure."""
    chars = list(text)
    for r in find_references(text):
        chars[r.start:r.end] = " " * (r.end - r.start)
    return "".join(chars)


# --- quote matching ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Block:
    marker: str
    text: str  # normalized definition
    cited_before: str  # normalized body and definitions before this block in the quote


@dataclass(frozen=True, slots=True)
class _Quote:
    parts: list[str]  # normalized sentence parts (outside footnote blocks and ellipses)
    blocks: list[_Block]
    full: str  # the whole quote normalized


def _parse_quote(quote: str) -> _Quote:
    parts: list[str] = []
    blocks: list[_Block] = []
    seen: list[str] = []
    position = 0
    for m in [*FOOTNOTE_BLOCK_RE.finditer(quote), None]:
        body = quote[position:m.start() if m else len(quote)]
        for piece in _ELLIPSIS_RE.split(body):
            norm = normalize(piece).strip(_EDGE_PUNCT)
            if norm:
                parts.append(norm)
                seen.append(norm)
        if m is None:
            break
        definition = normalize(m["text"]).strip(_EDGE_PUNCT)
        blocks.append(_Block(normalize(m["marker"]), definition, " ".join(seen)))
        seen.append(definition)
        position = m.end()
    return _Quote(parts, blocks, normalize(quote))


def _cites(block: _Block, body_ends: Sequence[int] | None, page: str) -> bool:
    """Whether the quote cites the block's marker: in its text before the block, or on the page
    before the end of the quoted text (a quote may start after the marker, mid-sentence or below
    a table whose cells carry it); a quote of definitions only: anywhere on the page."""
    if block.marker in block.cited_before:
        return True
    if body_ends is None:
        return block.marker in page
    return any(block.marker in page[:end] for end in body_ends)


def _find_in_order(text: str, parts: Sequence[str]) -> list[tuple[int, int]] | None:
    """Every occurrence chain of ``parts`` in order (each after the previous one); the spans of
    the first and last part for each chain start, or None when the parts are not all there."""
    if not parts:
        return None
    spans = []
    start = text.find(parts[0])
    while start != -1:
        end = start + len(parts[0])
        for part in parts[1:]:
            at = text.find(part, end)
            if at == -1:
                break
            end = at + len(part)
        else:
            spans.append((start, end))
        start = text.find(parts[0], start + 1)
    return spans or None


# --- verification --------------------------------------------------------------------------


def _mark(citation: SourceCitation, mark: CitationMark, reason: str) -> SourceCitation:
    return citation.model_copy(update={"mark": mark, "reason": reason})


def _found_elsewhere(pages: PageTexts, citation: SourceCitation, quote: _Quote) -> str:
    others = [
        p for p in pages.pages_of(citation.document, citation.year)
        if p != citation.page
        and _find_in_order(pages.normalized(citation.document, citation.year, p) or "",
                           quote.parts)
    ]
    if not others:
        return ""
    shown = ", ".join(f"p.{p + 1}" for p in others[:3])
    return f" (it is on {shown})"


def verify(citation: SourceCitation, claim_text: str, pages: PageTexts,
           threshold: float = 0.5) -> SourceCitation:
    """A copy of ``citation`` marked valid, context_mismatch or invalid, with a one-line reason.

    ``threshold`` (0-1) is the share of the claim's content words that must be printed in the
    quote or around it on the page. Three checks, in order: the quote is printed on the page
    (:func:`_printed_spans`), every Article / Note named is on it (:func:`_absent_reference`),
    the claim matches the quote's context (:func:`_context_mark`).
    """
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be between 0 and 1, not {threshold}")
    doc, year, page = citation.document, citation.year, citation.page
    where = f"{doc} {year} p.{page + 1}"
    if not pages.pages_of(doc, year):
        return _mark(citation, "invalid", f"no pages stored for {doc} {year}")
    key = (doc, year, page)
    norm = pages.normalized_page(key)
    if norm is None:
        return _mark(citation, "invalid", f"{where} is not a stored page")
    quote = _parse_quote(citation.quote)
    if not quote.parts and not quote.blocks:
        return _mark(citation, "invalid", "empty quote")
    if looks_like_instruction(citation.quote):  # printed, but addressed to a model: not evidence
        return _mark(citation, "invalid", "the quote is text addressed to a model, not evidence")
    spans = _printed_spans(citation, quote, norm.text, pages, where)
    if isinstance(spans, str):
        return _mark(citation, "invalid", spans)
    if absent := _absent_reference(claim_text, quote, pages, key, where):
        return _mark(citation, "invalid", absent)
    return _context_mark(citation, claim_text, quote, norm, pages, spans, threshold)


def _printed_spans(citation: SourceCitation, quote: _Quote, page_text: str,
                   pages: PageTexts, where: str) -> list[tuple[int, int]] | str:
    """Where the page prints the quote (definitions: on this page or another of the report,
    cited by the quoted text), or why it does not."""
    doc, year = citation.document, citation.year
    spans = _find_in_order(page_text, quote.parts) if quote.parts else None
    if quote.parts and not spans:
        return f"quote not found on {where}{_found_elsewhere(pages, citation, quote)}"
    body_ends = [end for _, end in spans] if spans else None
    for block in quote.blocks:
        here = page_text.find(block.text)
        if here < 0:  # stitched from another page: printed there, and cited by what is quoted
            if not any(block.text in (pages.normalized(doc, year, p) or "")
                       for p in pages.pages_of(doc, year)):
                return f"footnote {block.marker} definition not found in {doc} {year}"
            if not _cites(block, body_ends, page_text):
                return f"footnote {block.marker} is not cited by the quoted text on {where}"
        if not spans:  # definitions only: anchored where the page prints (or cites) the first
            at = here if here >= 0 else page_text.find(block.marker)
            spans = [(at, at + len(block.text if here >= 0 else block.marker))]
    assert spans is not None
    return spans


def _absent_reference(claim_text: str, quote: _Quote, pages: PageTexts,
                      key: tuple[str, int, int], where: str) -> str | None:
    """The first Article / Note the claim or the quote names that the page is not, or None."""
    labels = pages.page_labels(key)
    mentions = pages.page_mentions(key)
    for ref in [*_refs(claim_text), *_refs(" ".join(quote.parts))]:
        if not any(ref.labels_match(lb) for lb in labels) and not any(
                ref.printed_as(m.key) for m in mentions):
            return f"{ref.shown} is not on {where}"
    return None


def _context_mark(citation: SourceCitation, claim_text: str, quote: _Quote,
                  norm: NormalizedPage, pages: PageTexts, spans: list[tuple[int, int]],
                  threshold: float) -> SourceCitation:
    """Valid when the claim matches the context of one of the quote's spans, else
    context_mismatch with the first span's reason."""
    doc, year, page = citation.document, citation.year, citation.page
    where = f"{doc} {year} p.{page + 1}"
    claim_norm = normalize(_blank_references(claim_text))
    if not claim_norm:
        return _mark(citation, "valid", f"quote found on {where}")
    key = (doc, year, page)
    labels, mentions = pages.page_labels(key), pages.page_mentions(key)
    failures: list[str] = []
    for start, end in spans:
        reason = _context_failure(
            quote, claim_norm, _refs(claim_text), norm, labels, mentions, (start, end),
            frozenset(_WORD_RE.findall(normalize(doc.replace("-", " ")))), year, threshold)
        if reason is None:
            return _mark(citation, "valid", f"quote found on {where} and matches the claim")
        failures.append(reason)
    return _mark(citation, "context_mismatch", failures[0])


def _context_failure(
    quote: _Quote, claim: str, claim_refs: Sequence[_Ref], norm: NormalizedPage,
    labels: Sequence[Label], mentions: Sequence[Mention], span: tuple[int, int],
    ignore: frozenset[str], year: int, threshold: float,
) -> str | None:
    """Why the claim does not fit this occurrence of the quote, or None when it does."""
    start, end = span
    window = norm.text[max(0, start - WINDOW_CHARS):end + WINDOW_CHARS]
    context = f"{quote.full} {window}"

    pool = _figures(context)
    page_years = {f.value for f in _figures(norm.text) if f.year_like} | {float(year)}
    missing = [
        f for f in _figures(claim)
        if not _figure_in(f, pool) and not (f.year_like and f.value in page_years)
    ]
    if missing:
        shown = ", ".join(f"{f.value:g}" for f in missing[:3])
        return f"figure {shown} of the claim is not in the quote or next to it"

    first, last = norm.line_at(start), norm.line_at(max(start, end - 1))
    for ref in claim_refs:
        inside = any(ref.labels_match(labels[i]) for i in range(first, last + 1)
                     if i < len(labels))
        near = any(not m.heading and ref.related(m.key)
                   and first - REFERENCE_WINDOW_LINES <= m.line <= last + REFERENCE_WINDOW_LINES
                   for m in mentions)
        if not inside and not near:
            return f"the quote is not in or near {ref.shown}"

    wanted = _words(claim, ignore)
    if wanted:
        overlap = len(wanted & _words(context)) / len(wanted)
        if overlap < threshold:
            return f"claim words around the quote {overlap:.2f} < {threshold:.2f}"
    return None


def verify_claims(claims: Sequence[Claim], pages: PageTexts,
                  threshold: float = 0.5) -> list[Claim]:
    """Copies of the claims with every citation verified against the part of its claim it
    stands for (``supports``; the whole claim when empty). A citation already marked keeps its
    mark: each is verified once, by the route that made it or by the answer that shows it."""
    return [
        claim.model_copy(update={
            "citations": [verify(c, c.supports or claim.text, pages, threshold)
                          if c.mark == "unchecked" else c for c in claim.citations]})
        for claim in claims
    ]


_MARK_TEXT: dict[CitationMark, str] = {
    "valid": "", "context_mismatch": ", context mismatch", "invalid": ", invalid",
    "unchecked": ", unchecked",
}
# a marker as :func:`marked` writes it, read back: its number and its mark's words
MARKER_RE = re.compile(r"\[(\d+)(?:, (" + "|".join(
    re.escape(t.removeprefix(", ")) for t in _MARK_TEXT.values() if t) + r"))?\]")


def marked(ref: int | str, mark: CitationMark) -> str:
    """How a citation shows in text: ``[1]`` (or ``[3m-10k 2018 p.56]``) when valid, else
    ``[1, invalid]``."""
    return f"[{ref}{_MARK_TEXT[mark]}]"
