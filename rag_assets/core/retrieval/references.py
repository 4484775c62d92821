"""Citations: find legal and financial references, normalize them, rerank chunks that cite them.

Questions over the GDPR or a 10-K often name their target ("point (a) of Article 6(1)", "Note 1M",
"Item 7A", "[3]"). Embeddings blur such identifiers, so a chunk citing Article 7 can outrank the one
citing Article 6(1). Every written form of a reference is normalized to one key, so question and
chunk compare equal, and each chunk is scored by whether it cites the question's references
(exact), whether the words around that citation match the question (context) and how close the
citation sits to the question's words (proximity). Deterministic: no model, no Dagster.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

RefKind = Literal["article", "recital", "chapter", "section", "rule", "note", "item", "footnote"]
# keyword as written (lowercase, no dot, singular) -> kind
KINDS: dict[str, RefKind] = {
    "article": "article", "art": "article", "recital": "recital", "chapter": "chapter",
    "section": "section", "sec": "section", "§": "section", "rule": "rule", "note": "note",
    "item": "item",
}
RANGE_WORDS = {"to", "through", "-", "–"}
MAX_RANGE = 100  # "Articles 1 to 99999" is a typo, not 99999 references
ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}

# a subdivision: (1), (2a), (a), (iv)
_SUB = r"\((?:\d{1,3}[a-z]?|[a-z]|[ivx]{2,5})\)"
# subdivisions after a number: "(1)(a)", " (1)", " paragraph 1", ", point (a)"
_SUBS = rf"(?:\s?{_SUB}|,?\s+paragraph\s+(?:\(\d{{1,3}}\)|\d{{1,3}}(?!\w))|,?\s+point\s+{_SUB})*"
# the number itself: 6, 1M, 7A, 4.2, 10b-5 (SEC rules); recitals are also written "(47)" and
# chapters "III" (uppercase numeral after "Chapter"/"CHAPTER", so "this chapter I wrote" is no
# reference)
_HEAD = (
    r"(?:\d{1,4}(?:[a-z]{1,2}-\d{1,3}[a-z]?|[a-z])?(?:\.\d{1,3})*(?!\w)"
    r"|\(\d{1,3}\)|(?-i:[IVXLC]{1,7})(?!\w))"
)
_SEP = r"(?:,\s*(?:and|or)|,|and|or|to|through|[-–])"
# "point (a) of", "paragraph 2 of": subdivisions written before the keyword
_PREFIX = rf"(?:(?:point\s+{_SUB}|paragraph\s+(?:\(\d{{1,3}}\)|\d{{1,3}}))\s+of\s+)*"
# one reference phrase: a bracketed footnote marker, or [prefix] keyword number [subs] [list tail]
REFERENCE_RE = re.compile(
    r"\[(?P<fn>[1-9]\d{0,2})\]"  # [3], [12]; never [2018] nor [a]
    rf"|(?<![\w§])(?P<prefix>{_PREFIX})"
    r"(?P<kw>articles?|arts?\.?|recitals?|chapters?|sections?|secs?\.|§§?|notes?|items?|rules?)"
    rf"\s*(?P<first>{_HEAD}{_SUBS})(?P<rest>(?:\s*{_SEP}\s*{_HEAD}{_SUBS})*)",
    re.IGNORECASE,
)
# one element of a list or range: "13", ", 14", " and 15(1)", " to 22"
ITEM_RE = re.compile(rf"(?P<sep>{_SEP})?\s*(?P<head>{_HEAD})(?P<subs>{_SUBS})", re.IGNORECASE)
# the values inside subdivisions and prefixes, skipping the words around them
PART_RE = re.compile(r"\b(?:paragraph|point|of)\b|(\w+)", re.IGNORECASE)
# content words for the lexical scores (reference spans are blanked out first)
WORD_RE = re.compile(r"[a-z0-9]{2,}", re.IGNORECASE)
STOP_WORDS = frozenset({  # function words, question words and the reference keywords
    "about", "above", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "being", "between", "both", "but", "by", "can", "could", "did", "do", "does", "each", "for",
    "from", "had", "has", "have", "how", "if", "in", "into", "is", "it", "its", "may", "might",
    "must", "no", "nor", "not", "of", "on", "only", "or", "other", "our", "out", "over", "per",
    "say", "says", "shall", "should", "so", "such", "than", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "those", "through", "to", "under", "until", "upon", "was",
    "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with",
    "would", "you", "your", "according", "describe", "article", "articles", "art", "recital",
    "recitals", "chapter", "chapters", "section", "sections", "sec", "note", "notes", "item",
    "items", "rule", "rules", "paragraph", "point", "footnote", "footnotes",
})


class Reference(BaseModel):
    """One reference as found in a text, with its normalized key and real position."""

    model_config = ConfigDict(frozen=True)

    kind: RefKind
    key: str  # "article 6(1)", "article 9(2)(a)", "section 4", "note 1m", "footnote [3]"
    start: int = Field(ge=0)  # char offsets of the whole phrase: text[start:end] == raw
    end: int = Field(ge=0)
    raw: str


class CitationScore(BaseModel):
    """How well one text answers the references of a question; components are means over them."""

    exact: float = Field(ge=0, le=1)
    context: float = Field(ge=0, le=1)
    proximity: float = Field(ge=0, le=1)
    score: float = Field(ge=0, le=1)  # 0.7 * mean + 0.3 * max of the per-reference scores


def _roman(numeral: str) -> int:
    values = [ROMAN[c] for c in numeral]
    return sum(-v if v < nxt else v for v, nxt in zip(values, [*values[1:], 0], strict=True))


def _phrase(m: re.Match[str]) -> tuple[RefKind, list[str], int] | None:
    """Kind, keys and end of one keyword phrase; lists and ranges only follow a plural keyword."""
    word = m["kw"].lower().rstrip(".")
    plural = word == "§§" or word.endswith("s")
    kind = KINDS[word[0] if word[0] == "§" else word.removesuffix("s")]
    prefix = [p for p in PART_RE.findall(m["prefix"]) if p][::-1]  # innermost is written first
    keys: list[str] = []
    previous: int | None = None  # last plain number, the start of a possible range
    for item in ITEM_RE.finditer(m["first"] + m["rest"] if plural else m["first"]):
        head = item["head"]
        if (head[0] == "(" and kind != "recital") or (
            head.isalpha() and (kind != "chapter" or m["kw"].islower())
        ):
            return None  # "(47)" is only a recital's number, "III" only a Chapter's
        head = str(_roman(head)) if head.isalpha() else head.strip("()").lower()
        parts = [p.lower() for p in PART_RE.findall(item["subs"]) if p] + prefix
        if kind == "article":  # "Art. 6.1" is Article 6(1)
            head, *dotted = head.split(".")
            parts = dotted + parts
        head = str(int(head)) if head.isdigit() else head
        sep = (item["sep"] or "").strip(" ,").lower()
        span = int(head) - previous if previous is not None and head.isdigit() else 0
        if sep in RANGE_WORDS and not parts and 0 < span <= MAX_RANGE:
            keys += [f"{kind} {n}" for n in range(int(head) - span + 1, int(head))]
        keys.append(f"{kind} {head}" + "".join(f"({p})" for p in parts))
        previous = int(head) if head.isdigit() and not parts else None
    return kind, list(dict.fromkeys(keys)), m.end() if plural else m.end("first")


def find_references(text: str) -> list[Reference]:
    """Every reference in the text, in order; a list or range yields one per key, same span."""
    refs: list[Reference] = []
    for m in REFERENCE_RE.finditer(text):
        if m["fn"]:
            found: tuple[RefKind, list[str], int] | None = (
                "footnote", [f"footnote [{int(m['fn'])}]"], m.end())
        else:
            found = _phrase(m)
        if found:
            kind, keys, end = found
            raw = text[m.start():end]
            refs += [Reference(kind=kind, key=k, start=m.start(), end=end, raw=raw) for k in keys]
    return refs


def normalize_reference(raw: str) -> str | None:
    """The key of one reference as written, or None when the string is not exactly one reference
    (ordinary words, a bare "(1)", or a list or range, which is several: use find_references)."""
    raw = raw.strip().rstrip(".,;:")
    refs = find_references(raw)
    if len(refs) == 1 and refs[0].start == 0 and refs[0].end == len(raw):
        return refs[0].key
    return None


def _relation(wanted: str, found: str) -> float:
    """1.0 for the same key, 0.5 for a parent or child (article 6 / article 6(1)), else 0."""
    if wanted == found:
        return 1.0
    short, long = sorted((wanted, found), key=len)
    return 0.5 if long.startswith((short + "(", short + ".")) else 0.0


def _words(text: str, refs: Sequence[Reference]) -> list[tuple[str, int, int]]:
    """Content words with positions; reference spans are blanked so "6" or "article" never count."""
    chars = list(text)
    for ref in refs:
        chars[ref.start:ref.end] = " " * (ref.end - ref.start)
    found = ((m[0].lower(), m.start(), m.end()) for m in WORD_RE.finditer("".join(chars)))
    return [w for w in found if w[0] not in STOP_WORDS]


def _cosine(a: Counter[str], b: Counter[str]) -> float:
    dot = sum(n * b[w] for w, n in a.items())
    norm = math.sqrt(sum(n * n for n in a.values()) * sum(n * n for n in b.values()))
    return min(1.0, dot / norm) if norm else 0.0


def citation_scores(question: str, texts: Sequence[str], window: int = 300) -> list[CitationScore]:
    """One score per text for the references the question cites; all zeros when it cites none.

    Per question reference, at its best occurrence in the text: 0.4 * exact + 0.3 * context +
    0.3 * proximity. Context is the cosine between the question's content words and those within
    ``window`` characters either side of the occurrence; proximity is ``1 - d / window`` (clipped
    at 0), d the gap in characters to the nearest question content word in the text. The text's
    score is 0.7 * mean + 0.3 * max over the question's references.
    """
    if window <= 0:
        raise ValueError(f"window must be positive, got {window}")
    q_refs = find_references(question)
    q_keys = list(dict.fromkeys(r.key for r in q_refs))
    q_bag = Counter(w for w, _, _ in _words(question, q_refs))
    results = []
    for text in texts:
        if not q_keys:
            results.append(CitationScore(exact=0.0, context=0.0, proximity=0.0, score=0.0))
            continue
        refs = find_references(text)
        words = _words(text, refs)
        rows = []  # per question reference: (score, exact, context, proximity)
        for key in q_keys:
            best = (0.0, 0.0, 0.0, 0.0)
            for ref in refs:
                if not (exact := _relation(key, ref.key)):
                    continue
                lo, hi = ref.start - window, ref.end + window
                near = Counter(w for w, s, e in words if s >= lo and e <= hi)
                gap = min((max(0, s - ref.end, ref.start - e) for w, s, e in words if w in q_bag),
                          default=math.inf)
                context, proximity = _cosine(q_bag, near), max(0.0, 1.0 - gap / window)
                best = max(best, (0.4 * exact + 0.3 * context + 0.3 * proximity,
                                  exact, context, proximity))
            rows.append(best)
        score, exact, context, proximity = (sum(col) / len(rows) for col in zip(*rows, strict=True))
        results.append(CitationScore(exact=exact, context=context, proximity=proximity,
                                     score=min(1.0, 0.7 * score + 0.3 * max(r[0] for r in rows))))
    return results


def blend_scores(
    first_stage: Sequence[float], citation: Sequence[float], weight: float = 0.3
) -> list[float]:
    """(1 - weight) * minmax(first_stage) + weight * citation: first-stage scores (cosine, BM25,
    cross-encoder logits) are put on 0..1 first so the weight means the same for any retriever."""
    if len(first_stage) != len(citation):
        raise ValueError(f"{len(first_stage)} first-stage scores for {len(citation)} citations")
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"weight must be in [0, 1], got {weight}")
    if not first_stage:
        return []
    lo, hi = min(first_stage), max(first_stage)
    scaled = [1.0 if hi == lo else (s - lo) / (hi - lo) for s in first_stage]
    return [(1 - weight) * s + weight * c for s, c in zip(scaled, citation, strict=True)]
