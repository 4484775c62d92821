"""Quoted report text made to read as prose: footnote markers as references, a heading kept
apart from the sentence chunking glued it to, a table row's figures with their units.

The words stay the report's own (a citation still quotes the page as printed); only what a
reader trips on changes: ``[7] Free cash flow is ...`` (a definition quoted with its marker)
reads ``Note 7: Free cash flow is ...``, ``... per diluted share [5].`` reads ``... per diluted
share (note 5).``, ``Fiscal year 2024 highlights Revenue rose ...`` reads ``Fiscal year 2024
highlights: Revenue rose ...`` and ``Free cash flow: FY 2024: 381`` under "(in $ millions)"
reads ``Free cash flow: FY 2024: $381 million``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import groupby

from rag_assets.core.text.figures import FIGURE_AT_END_RE

BRACKET_MARKER_RE = re.compile(r"\[\d{1,3}\]")  # "[7]": a marker wherever it stands
# words after which a marker is a noun ("described in [3] and [4]"), not a reference mark
_NOUN_BEFORE_RE = re.compile(r"(?:\b(?:in|see|and|or|also|under|to|of|from)|,)\s$", re.I)
# what may follow a reference mark: punctuation, the end, or a word after a space
_MARK_AFTER_RE = re.compile(r"$|[.,;:)\s]")
_FUNCTION_WORDS = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or",
                   "the", "to", "with", "its", "their", "our", "that", "which"}
_SENTENCE_END = tuple('.!?:"”’)]')
# a line that ends its sentence: a stop, question or exclamation mark or a colon, closing
# quotes or brackets after it ("... (the “Company”)" ends none)
_LINE_ENDS_SENTENCE_RE = re.compile(r"[.!?:][\"”’)\]]*\s*$")
MAX_HEADING_WORDS = 16
_UNITS_RE = re.compile(r"(?P<unit>(?:\$|USD|US\$|EUR|€|£|GBP|dollars)?\s*(?:in\s+)?"
                       r"(?P<scale>billions?|millions?|thousands?)\b[^()|]*)", re.I)
# a units line as a page prints it above a table: "(in $ millions)", "(Millions)"
UNITS_NOTE_RE = re.compile(r"\([^()]*\b(?:millions|thousands|billions)\b[^()]*\)", re.I)
_CURRENCIES = (("$", ("$", "usd", "dollar")), ("€", ("€", "eur")), ("£", ("£", "gbp")))
_FIGURE_RE = re.compile(r"^(?P<cur>[$€£])?\s?(?P<open>\()?(?P<minus>[-−])?\s?"
                        r"(?P<num>\d[\d,]*(?:\.\d+)?)\)?$")
_PER_SHARE_RE = re.compile(r"per\s+(?:\w+\s+)?share|\bEPS\b", re.I)
_NOT_MONEY_RE = re.compile(r"%|percent|margin|\bratio\b|\brate\b|\bshares\b|\bemployees\b|"
                           r"\bdays\b|\bnumber of\b", re.I)


def marker_name(marker: str) -> str:
    """``[7]``, ``(7)`` -> ``7``; ``(a)`` -> ``a``; ``*`` stays ``*``."""
    return marker.strip().strip("[]()").strip() or marker.strip()


def as_note(marker: str, text: str, markers: Iterable[str] = ()) -> str:
    """A footnote definition as a sentence: ``Note 7: Free cash flow is ... .``"""
    body = with_references(text.strip(), markers)
    end = "" if body.endswith(_SENTENCE_END) else "."
    return f"Note {marker_name(marker)}: {body}{end}"


def with_references(text: str, markers: Iterable[str] = ()) -> str:
    """Every footnote marker of ``text`` as a reference a reader reads: ``(note 5)`` after the
    words it marks, ``note 3`` where the sentence names it ("described in note 3"). Markers
    are the ``[N]`` kind and those given (``(1)``, ``(a)``, ``*`` as the chunk printed them);
    a given marker that stands alone before a word ("(a) the data subject") is left, a list's
    point rather than a mark."""
    known = sorted({m for m in markers if m.strip()}, key=len, reverse=True)
    pattern = "|".join([BRACKET_MARKER_RE.pattern, *map(re.escape, known)])
    if not pattern:
        return text

    def reference(match: re.Match[str]) -> str:
        before, after = text[:match.start()], text[match.end():]
        name, bracketed = marker_name(match.group()), bool(BRACKET_MARKER_RE.fullmatch(
            match.group()))
        if not before.strip():
            return match.group()  # opening the text: a definition's own marker (as_note)
        if _NOUN_BEFORE_RE.search(before):
            return f"note {name}"
        if not bracketed and (not _MARK_AFTER_RE.match(after) or (
                before[-1:].isspace() and re.match(r"\s+[a-z]", after))):
            return match.group()  # "(a) the data subject": a list's point, not a mark
        return f"{'' if before[-1:].isspace() else ' '}(note {name})"

    return re.sub(pattern, reference, text)


def leading_marker(text: str, defined: Iterable[str] = ()) -> str | None:
    """The marker a quoted footnote definition opens with (``[7] Free cash flow is ...``):
    a ``[N]`` marker, or one of ``defined`` (the markers the chunk defines); else None."""
    stripped = text.lstrip()
    for marker in sorted({m for m in defined if m.strip()}, key=len, reverse=True):
        if stripped.startswith(marker + " "):
            return marker
    match = BRACKET_MARKER_RE.match(stripped)
    return match.group() if match and stripped[match.end():match.end() + 1] == " " else None


def heading_split(text: str, page_text: str) -> tuple[str, str]:
    """``(heading, sentence)`` when ``text`` opens with lines the page prints on their own as
    headings (chunking joined them to the sentence under them); the nearest heading is kept,
    a running header above it dropped. ``("", text)`` when it does not."""
    lines = [" ".join(line.split()) for line in page_text.splitlines()]
    heading, rest = "", " ".join(text.split())
    while True:
        found = next((i for i, line in enumerate(lines)
                      if line and rest.startswith(line + " ") and _is_heading(lines, i)
                      and rest[len(line) + 1:].startswith(_first_words(lines, i + 1))), None)
        if found is None:
            return heading, rest
        heading, rest = lines[found], rest[len(lines[found]) + 1:]


def _first_words(lines: Sequence[str], start: int, count: int = 3) -> str:
    following = next((line for line in lines[start:] if line), "")
    return " ".join(following.split()[:count]) or "\0"  # no next line: never a prefix


def _is_heading(lines: Sequence[str], i: int) -> bool:
    """A page line that is a heading: short or in title case, no sentence punctuation, not
    ending in a word that continues a sentence, clearly shorter than the prose under it, after
    a sentence's end (or a page's top, or another heading), with a capital after it."""
    line, words = lines[i], lines[i].split()
    alpha = [w for w in words if w[:1].isalpha()]
    if (not alpha or len(words) > MAX_HEADING_WORDS or line.endswith((*_SENTENCE_END, ",", ";"))
            or "," in line or words[-1].lower() in _FUNCTION_WORDS or not line[0].isupper()):
        return False
    if len(words) > 6 and sum(w[0].isupper() for w in alpha) < 0.6 * len(alpha):
        return False
    after = [line for line in lines[i + 1:i + 4] if line]
    if not after or not after[0][:1].isupper() or len(line) > 0.8 * max(map(len, after)):
        return False
    before = next((line for line in reversed(lines[:i]) if line), "")
    return not before or before.endswith(_SENTENCE_END) or len(before.split()) <= 8


PROSE_LINE_WORDS = 10  # a line of running prose holds this many words at least
# headings stacked ("Table of Contents", "PART II", "Item 1. Legal Proceedings"); a longer run
# of short lines over prose is a block (a signature's date, name and titles), no heading
MAX_HEADING_RUN = 3
# a page's number printed on a line of its own ("16", "2022 Form 10-K Page 15")
_FOLIO_LINE_RE = re.compile(r"(?:.{0,30}\bpage\s+)?\d{1,3}", re.IGNORECASE)
# a caption's end that is no sentence's: "Cimma v. Sikorsky Aircraft Corp., et al."
_CAPTION_END_RE = re.compile(r"\bet al\.$")
# a title that ends naming its cases in parentheses: "Shareholder Derivative Lawsuits (Wessels,
# Hamilton and Ha)", AMD's 2020 10-K
_NAMES_END_RE = re.compile(r"\([A-Z][^().!?:]*\)$")


def _shaped(line: str) -> bool:
    """Whether a line has a heading's shape: a capital first, at most ``MAX_HEADING_WORDS``
    words, no sentence's or clause's end (a caption's "et al." or names in parentheses
    aside), no word that goes on with a sentence and no figure last (a table's row)."""
    words = line.split()
    return (0 < len(words) <= MAX_HEADING_WORDS and line[0].isupper()
            and (not line.endswith((*_SENTENCE_END, ",", ";"))
                 or _CAPTION_END_RE.search(line) is not None
                 or _NAMES_END_RE.search(line) is not None)
            and words[-1].lower() not in _FUNCTION_WORDS
            and not FIGURE_AT_END_RE.search(line) and not line.startswith("|"))


def standing_headings(page_text: str) -> list[str]:
    """The lines a page prints on their own between paragraphs: a matter's or a subsection's
    title, a case's caption ("Lockheed Martin v. Metropolitan Transportation Authority",
    "Dunbar, West Virginia Water Main Break Class Action Litigation"), commas and all, which
    :func:`_is_heading` leaves to the sentence. A line stands on its own when it has a
    heading's shape (:func:`_shaped`), follows a boundary (a sentence's end, a table's row, a
    page number, the page's top) or another such line ("Item 3. Legal Proceedings" over a
    matter's title), and opens a paragraph of prose: the line after it starts with a capital,
    holds ``PROSE_LINE_WORDS`` words at least and is a quarter longer than it or more, or is
    itself such a line; at most ``MAX_HEADING_RUN`` of them in a row. A table's rows, a signature
    block or a chart's labels have no prose under them."""
    lines = [" ".join(line.split()) for line in page_text.split("\n")]
    lines = [line for line in lines if line]
    count = len(lines)

    def opens_prose(i: int) -> bool:
        after = lines[i + 1] if i + 1 < count else ""
        return (after[:1].isupper() and len(after.split()) >= PROSE_LINE_WORDS
                and len(lines[i]) <= 0.8 * len(after))

    over_prose = [False] * (count + 1)  # from the end: a heading's shape over prose
    for i in range(count - 1, -1, -1):
        over_prose[i] = _shaped(lines[i]) and (opens_prose(i) or over_prose[i + 1])
    standing: list[bool] = []
    for i in range(count):
        before = lines[i - 1] if i else ""
        boundary = (not before or before.endswith(_SENTENCE_END) or before.startswith("|")
                    or _FOLIO_LINE_RE.fullmatch(before) is not None or standing[i - 1])
        standing.append(over_prose[i] and boundary)
    runs = [list(run) for _, run in groupby(range(count), key=lambda i: standing[i])]
    blocks = {i for run in runs if standing[run[0]] and len(run) > MAX_HEADING_RUN for i in run}
    return [line for i, line in enumerate(lines) if standing[i] and i not in blocks]


# words that open a sentence, never a title run into its paragraph ("The Company.")
_SENTENCE_OPENERS = frozenset({"the", "a", "an", "this", "these", "those", "our", "we", "it",
                               "its", "such", "each", "all", "in", "on", "as"})
RUN_IN_MAX_WORDS = 10
# a title's last word is a word, not a shortening a citation's period closed ("LA Civil Dist.
# Ct., New Orleans Parish", Walmart's 2018 exhibit of opioid suits)
RUN_IN_LAST_LETTERS = 5


# a heading in capitals the page prints before a sentence, run into it: "BUSINESS SEGMENTS We
# operate ...", "FISCAL 2019 CONSOLIDATED RESULTS OF OPERATIONS In fiscal 2018, we acquired ..."
# (a year inside the heading is the heading's, not the sentence's)
CAPS_HEADING_RE = re.compile(r"^(?:(?:[A-Z][A-Z&’'-]+|(?:19|20)\d{2})\s+)*[A-Z][A-Z&’'-]+\s+"
                             r"(?=[A-Z][a-z])")


def without_caps_heading(sentence: str) -> str:
    """The sentence without the heading in capitals run into its start (:data:`CAPS_HEADING_RE`)."""
    return CAPS_HEADING_RE.sub("", sentence, count=1)


def run_in_heading(sentence: str) -> str | None:
    """The title a paragraph opens with, run into it and closed by a period ("Department of
    Justice Grand Jury Subpoena. In March 2012, Corning received ...", Corning's 2015 10-K;
    "Asda Equal Value Claims. Asda Stores, Ltd. ...", Walmart's), when ``sentence`` (as the one
    sentence grammar splits a page) is one: two to ``RUN_IN_MAX_WORDS`` words from a capital, no
    figure and no comma, a last word of ``RUN_IN_LAST_LETTERS`` letters or more, every word but
    the small ones capitalized, not opening as a sentence does; else None."""
    text = " ".join(sentence.split())
    words = text.rstrip(".").split()
    if (not text.endswith(".") or not 2 <= len(words) <= RUN_IN_MAX_WORDS
            or not text[0].isupper() or any(c.isdigit() or c in ",;:" for c in text)
            or len(words[-1]) < RUN_IN_LAST_LETTERS or words[0].lower() in _SENTENCE_OPENERS):
        return None
    titled = all(w[:1].isupper() or w.lower() in _FUNCTION_WORDS or not w[:1].isalpha()
                 for w in words)
    return text.rstrip(".") if titled else None


def table_units(scope: str) -> tuple[str, str]:
    """``(currency, scale)`` a table's units line gives ("(in $ millions)" -> ``("$",
    "million")``, "(Millions, except per share amounts)" -> ``("", "million")``), the nearest
    one in ``scope`` (the title and header above a row); ``("", "")`` when none is printed."""
    found = list(_UNITS_RE.finditer(scope))
    if not found:
        return "", ""
    unit = found[-1].group("unit").lower()
    scale = found[-1].group("scale").lower().rstrip("s")
    currency = next((sign for sign, names in _CURRENCIES if any(n in unit for n in names)), "")
    return currency, scale


def units_line_above(page_text: str, row_label: str) -> str:
    """The last units line (``(Millions)``) the page prints above the row labelled
    ``row_label`` (a chunk that starts inside a table carries no heading of it); "" when
    none."""
    at = page_text.find(row_label) if row_label else -1
    found = UNITS_NOTE_RE.findall(page_text[:at] if at > 0 else "")
    return found[-1] if found else ""


def row_with_units(text: str, scope: str) -> str:
    """A table row's text (``label: heading: figure; heading: figure``) with each bare figure
    in the units its table prints: ``FY 2024: 381`` -> ``FY 2024: $381 million``. A per-share
    amount keeps its currency and no scale; a percentage, ratio or count is left as printed."""
    currency, scale = table_units(scope)
    label = re.sub(r"\([^()]*\)", "", text.split(": ", 1)[0])  # "(maturities over 90 days)"
    if not scale or _NOT_MONEY_RE.search(label):
        return text
    per_share = bool(_PER_SHARE_RE.search(label))
    parts = []
    for part in text.split("; "):
        head, sep, value = part.rpartition(": ")
        parts.append(f"{head}{sep}{_figure(value, currency, '' if per_share else scale)}")
    return "; ".join(parts)


def _figure(value: str, currency: str, scale: str) -> str:
    """``381`` -> ``$381 million``; ``(284)`` -> ``-$284 million``; anything else as is."""
    match = _FIGURE_RE.match(value.strip())
    if match is None:
        return value
    sign = "-" if match.group("open") or match.group("minus") else ""
    money = match.group("cur") or currency
    return f"{sign}{money}{match.group('num')}{' ' + scale if scale else ''}"


def ends_sentence_line(line: str) -> bool:
    """Whether a printed line ends its sentence: a text cut by a page break after a line that
    does not goes on over the break."""
    return bool(_LINE_ENDS_SENTENCE_RE.search(line))
