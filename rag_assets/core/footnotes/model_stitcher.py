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

import time
from collections.abc import Callable, Sequence

from rag_assets.core.footnotes.blocks import FOOTNOTE_BLOCK_RE
from rag_assets.core.footnotes.model_batches import (
    DEFAULT_BATCH_CHARS,
    Batch,
    Unit,
    plan_batches,
    plan_units,
)
from rag_assets.core.footnotes.model_merge import MergePage, merge_page
from rag_assets.core.footnotes.model_reply import (
    ReplyPage,
    judge_definition,
    parse_reply_text,
    split_reply,
    tokens,
)
from rag_assets.core.footnotes.model_results import (
    FootnoteOutcome,
    ModelStitchResult,
    PageFallback,
    RemovedBlock,
)
from rag_assets.core.footnotes.page_body import (
    Anchor,
    PageBody,
    body_text,
    footnote_of,
    render_page,
    split_page,
)
from rag_assets.core.footnotes.records import FootnoteIndex, StitchedPage
from rag_assets.core.footnotes.render import stitch_document
from rag_assets.core.ingest.pages import Page
from rag_assets.core.llm.client import ChatModel, LLMReplyError
from rag_assets.core.llm.prompts import render

CHARS_PER_REPLY_TOKEN = 3  # generous: figures and markdown tokenize densely
REPLY_TOKEN_MARGIN = 200


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
    by_page = {s.page.page_index: MergePage(s) for s in splits}
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
        prompt = render("stitcher", chat.prompts, text=batch.text, definitions=batch.definitions)
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
    for page_index, body_page in by_page.items():
        if not body_page.split.cited:
            continue
        reason = failures.get(page_index)
        parts = replies.get(page_index, [])
        if reason is None and any(text is None for _, text in parts):
            reason = "page missing from the model's reply"
        merged: tuple[str, list[FootnoteOutcome], list[RemovedBlock]] | None = None
        if reason is None:
            outcome = merge_page(body_page, _combined_reply(parts), index_markers)
            if isinstance(outcome, str):
                reason = outcome
            else:
                merged = outcome
        if merged is None:
            result.fallbacks.append(PageFallback(page_index=page_index, reason=reason or ""))
            continue
        text, outcomes, removed = merged
        det_page = body_page.split.page
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
                footnote = by_id.get(footnote_of(index, page.page_index, match) or "")
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


def _combined_reply(parts: Sequence[tuple[Unit, str | None]]) -> ReplyPage:
    """A page's reply from the replies to its parts, in page order: one body, with each block
    counting the tokens of the parts before it."""
    combined = ReplyPage(tokens=[], blocks=[])
    for _, text in sorted(parts, key=lambda item: item[0].start):
        part = parse_reply_text(text or "")
        for block in part.blocks:
            block.token += len(combined.tokens)
        combined.tokens.extend(part.tokens)
        combined.blocks.extend(part.blocks)
    return combined


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
    sized = ChatModel(chat.config.model_copy(update={"max_tokens": budget}), chat.client,
                      chat.prompts)
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
