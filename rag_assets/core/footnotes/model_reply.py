"""Reading the model's reply: split per page, body words and blocks parsed, each definition
judged against the dictionary's (equal after normalizing white space, quotes and dashes)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher

from rag_assets.core.footnotes.model_batches import Batch

TRUNCATED_SHARE = 0.6  # a definition shorter than this share of the known one is "truncated"

PAGE_HEADER_RE = re.compile(
    r"^[ \t>#*]*=+[ \t]*PAGE[ \t]+(?P<page>\d+)(?:[ \t]+PART[ \t]+(?P<part>\d+))?[ \t]*=*[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)
# blocks as a model may write them: spaces around the colon, lower case, a longer marker
REPLY_BLOCK_RE = re.compile(
    r"\{[ \t]*FOOTNOTE[ \t]+(?P<marker>[^:{}\n]{1,12}?)[ \t]*:[ \t]*(?P<text>[^{}]*)\}",
    re.IGNORECASE,
)
TOKEN_RE = re.compile(r"[^\W_]+|[$€£¥%]")
MISSING_RE = re.compile(r"^[\W_]*(?:missing|none|n/?a|unknown|not found)?[\W_]*$", re.IGNORECASE)
FENCE_LINE_RE = re.compile(r"^[ \t]*(?:```\w*|</?document>)[ \t]*$", re.MULTILINE)
APPENDIX_LINE_RE = re.compile(r"^[ \t]*Appendix:?[ \t]*$", re.MULTILINE | re.IGNORECASE)
_PUNCTUATION = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "—": "-",
                              "\u00a0": " "})


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
    """The body words compared between the given page and the reply (letters, digits and
    currency signs, lower case): punctuation and spacing a model may change do not count."""
    return [t.lower() for t in TOKEN_RE.findall(unicodedata.normalize("NFKC", text))]


def token_spans(text: str) -> list[tuple[int, int]]:
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


def body_difference(given: list[str], got: list[str]) -> str:
    """Why a reply's body is not the given one: the words dropped and added (the first few)."""
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
