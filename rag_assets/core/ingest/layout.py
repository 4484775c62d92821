"""Page furniture and structure: running headers and footers, printed page labels, headings.

Reports repeat a header and a footer on every page; left in, they split sentences and pollute
chunks. They are found by repetition (digits ignored, so ``Page 3/8`` and ``L 119/12`` match their
siblings) in the first and last lines of pages, never by a list of known strings. Furniture is
narrow: a short line that holds no footnote marker. A paragraph or a table note repeated on every
page is content (``(1) Amounts in millions`` under the same statement, a disclaimer), and so is a
note that differs from its siblings only in its digits (``[7] Note 7: restated for page 7``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from rag_assets.core.text.markers import SUPERSCRIPT_DIGITS

SEPARATOR_RE = re.compile(r"^\s*_{5,}\s*$")
PAGE_OF_RE = re.compile(r"^\s*Page\s+(\d+)\s*(?:/|of)\s*\d+\s*$", re.IGNORECASE)
BARE_NUMBER_RE = re.compile(r"^\s*(\d{1,4}|[ivxlcdm]{1,7}|[A-Z]-\d{1,3})\s*$")
TRAILING_LABEL_RE = re.compile(r"\b([A-Z]\s?\d{1,4}/\d{1,4})\s*$")
FOOTER_NUMBER_RE = re.compile(r"^\s*\S.{0,50}\s(\d{1,4}|[ivxlc]{1,6})\s*$")  # "Acme 10-K 51"

HEADING_PATTERNS = (
    re.compile(r"^##\s+(?P<h>.+)$"),
    re.compile(r"^(?P<h>(?:ITEM|Item)\s+\d{1,2}[A-C]?\.\s*[A-Z].{0,100})$"),
    re.compile(r"^(?P<h>CHAPTER\s+[IVXLC]+\b.{0,80})$"),
    re.compile(r"^(?P<h>Article\s+\d{1,3})$"),
    re.compile(r"^(?P<h>Section\s+\d{1,2}\b.{0,80})$"),
    re.compile(r"^(?P<h>(?:NOTE|Note)\s+\d{1,2}\.\s+[A-Z][A-Za-z ,&'-]{2,80})$"),
)

EDGE_LINES = 3  # furniture lives in the first and last few lines of a page
FURNITURE_MAX_WORDS = 12  # a running header or footer is short
# a footnote marker anywhere, or a line opening with one: never furniture
MARKER_RE = re.compile(
    rf"\[\d{{1,4}}\]|\(\d{{1,2}}\)|[{SUPERSCRIPT_DIGITS}]|^\s*(?:\([a-z]\)|[*†‡])"
)


def detect_heading(line: str) -> str | None:
    """The section title a line opens, or None (markdown ``##`` heads and report conventions)."""
    stripped = line.strip()
    if not stripped or len(stripped) > 120:
        return None
    for pattern in HEADING_PATTERNS:
        match = pattern.match(stripped)
        if match:
            return " ".join(match.group("h").split())
    return None


def label_from_lines(lines: Sequence[str]) -> str | None:
    """The printed page label: ``Page N/M``, a bare number at the page end, or ``L 119/5``."""
    content = [line for line in lines if line.strip()]
    for line in reversed(content[-EDGE_LINES:]):
        match = PAGE_OF_RE.match(line)
        if match:
            return match.group(1)
    if content and BARE_NUMBER_RE.match(content[-1]):
        return content[-1].strip()
    if content and len(content[-1].split()) <= 8:
        match = FOOTER_NUMBER_RE.match(content[-1])
        if match:
            return match.group(1)
    for line in content[:EDGE_LINES]:
        match = TRAILING_LABEL_RE.search(line)
        if match:
            return match.group(1)
    if content and BARE_NUMBER_RE.match(content[0]):
        return content[0].strip()
    return None


# a page counter closing a running line ("... 13/14", "... Page 3 of 8") once digits are "#"
# (after other text: a bare "3/8" or "3 of 8" keeps its key "#/#" and is furniture as such)
COUNTER_KEY_RE = re.compile(r"(?<=\S)\s+(?:page\s+)?#\s*(?:/|of)\s*#$")


def furniture_key(line: str) -> str:
    """A line's key among its siblings on other pages: digits ignored, and a page counter at its
    end dropped (a browser's print footer prints "file:///....html 13/14" on most pages and the
    bare address on one)."""
    return COUNTER_KEY_RE.sub("", re.sub(r"\d+", "#", " ".join(line.lower().split())))


def _edge_indices(lines: Sequence[str]) -> list[int]:
    content = [i for i, line in enumerate(lines) if line.strip()]
    return sorted(set(content[:EDGE_LINES] + content[-EDGE_LINES:]))


def could_be_furniture(line: str) -> bool:
    """Short, and no footnote marker or definition in it."""
    return len(line.split()) <= FURNITURE_MAX_WORDS and not MARKER_RE.search(line)


def find_running_furniture(pages: Sequence[Sequence[str]], min_share: float = 0.5) -> set[str]:
    """Keys of short, marker-free edge lines repeated on at least half the pages (and at least
    three of them)."""
    if len(pages) < 3:
        return set()
    counts: Counter[str] = Counter()
    for lines in pages:
        counts.update(
            {furniture_key(lines[i]) for i in _edge_indices(lines) if could_be_furniture(lines[i])}
        )
    threshold = max(3, int(len(pages) * min_share + 0.5))
    return {key for key, n in counts.items() if n >= threshold and key.strip("# ")}


def _carries_on(lines: Sequence[str], i: int, furniture: set[int]) -> bool:
    """A line in lower case after a line that ends mid-sentence: the end of a note or a
    paragraph repeated on every page (``circular.``), not a running footer. A line above that
    is furniture itself is no sentence (a browser prints its date and title over its
    ``file:///`` line)."""
    j = next((j for j in range(i - 1, -1, -1) if lines[j].strip()), None)
    if j is None or j in furniture:
        return False
    above = lines[j].rstrip()
    return lines[i].lstrip()[:1].islower() and not above.endswith((".", "!", "?", ":"))


def furniture_lines(lines: Sequence[str], running: set[str]) -> set[int]:
    """Line numbers of a page that are header, footer or page number, not content."""
    found: set[int] = set()
    content = [i for i, line in enumerate(lines) if line.strip()]
    found.update(i for i, line in enumerate(lines) if PAGE_OF_RE.match(line))
    for i in _edge_indices(lines):
        line = lines[i]
        if (
            could_be_furniture(line)
            and furniture_key(line) in running
            and not _carries_on(lines, i, found)
        ):
            found.add(i)
    if content and BARE_NUMBER_RE.match(lines[content[-1]]):
        found.add(content[-1])
    return found
