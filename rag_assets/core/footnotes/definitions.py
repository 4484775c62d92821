"""Finding definitions (``find_definitions``) and merging them into footnotes.

A definition is a marker-led line in a footnote zone with its continuation lines, or, where real
filings print notes under a table in body type, a marker-led line that reads like a note and
whose marker is cited above it. A body line that opens with a marker followed by punctuation
(``[12]. The board``) is a citation that wrapped, never a definition.

Merging: ``[N]`` is numbered document-wide, so its definitions are one footnote; a scoped marker
is one footnote only with a truncated copy of itself (a note repeated under a statement).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from rag_assets.core.footnotes.records import Citation, Footnote
from rag_assets.core.footnotes.zones import PageView
from rag_assets.core.ingest.pages import TABLE_PLACEHOLDER_RE
from rag_assets.core.text.markers import (
    DEFINITION_RE,
    SCOPED_STYLES,
    MarkerStyle,
    marker_of,
)


@dataclass
class _Definition:
    marker: str
    style: MarkerStyle
    page: int
    line: int
    spans: dict[int, list[int]]  # page -> its lines (a note can run over onto the next page)
    parts: list[str]

    @property
    def text(self) -> str:
        return join_wrapped(self.parts)


def find_definitions(
    views: list[PageView], citations: list[Citation], strict_zones: bool
) -> list[_Definition]:
    """Definitions: a marker-led line in a footnote zone, with its continuation lines (flush or
    indented) up to the next definition or the zone's end, and on into the next page's zone when
    that zone opens without a marker. Outside zones (real 10-Ks print table notes in body type) a
    marker-led line is a definition when its marker is cited above it on the page or the page
    before, and it reads like a note: no punctuation after the marker, not a wrapped citation;
    its continuation lines are indented further, or carry on a sentence in lower case."""
    superscripts_cited = any(c.style == "superscript" for c in citations)
    first_cited: dict[tuple[int, str], int] = {}  # (page, marker) -> the first line citing it
    for c in citations:
        key = (c.page_index, c.marker)
        first_cited[key] = min(c.line, first_cited.get(key, c.line))
    # a marker defined in a page's note zone is that page's note: a body line opening with the
    # same marker there (a recital "(5) This Regulation ...") is not a second definition
    zone_defined = {
        (v.page.page_index, found[0])
        for v in views for n in v.zone
        if (match := DEFINITION_RE.match(v.lines[n])) and (found := marker_of(match))
    }
    out: list[_Definition] = []
    open_note: _Definition | None = None  # the note that ended the previous page's zone
    for view in views:
        page = view.page.page_index
        lines = view.lines
        carried, open_note = open_note, None
        n = 0
        while n < len(lines):
            if n in view.furniture or n in view.wrapped or not lines[n].strip():
                n += 1
                continue
            match = DEFINITION_RE.match(lines[n])
            found = marker_of(match) if match else None
            in_zone = n in view.zone
            if found is None or match is None:
                if carried is not None and n in view.overleaf and _opens_zone(view, n) and (
                    not carried.parts[-1].rstrip().endswith((".", "!", "?"))
                ):
                    taken = _continuation(view, n, in_zone=True, indent=-1, parts=carried.parts)
                    if taken:
                        carried.spans[page] = taken
                        open_note = carried if _ends_zone(view, taken[-1]) else None
                        n = taken[-1]
                if n in view.zone or n in view.overleaf:
                    carried = None  # the zone opened with something else: nothing carries over
                n += 1
                continue
            marker, style = found
            if match.group("bare") and not (in_zone and superscripts_cited):
                n += 1
                continue
            cited_above = first_cited.get((page, marker), n) < n or (
                (page - 1, marker) in first_cited and (page - 1, marker) not in zone_defined
            )
            # out of a zone, "(a)" lines are far more often list items than notes
            accepted = in_zone or (
                not strict_zones
                and n not in view.note_type
                and (page, marker) not in zone_defined
                and _reads_like_note(match, view.typed)
                and (
                    (style == "bracket" and not view.typed)
                    or (cited_above and style != "paren-letter")
                )
            )
            if not accepted:  # a list item or a body line: a note carried over may still follow
                n += 1
                continue
            carried = None
            parts = [match.group("text").strip()]
            taken = [n] + _continuation(
                view, n + 1, in_zone=in_zone, indent=len(match.group("indent")), parts=parts
            )
            definition = _Definition(marker, style, page, n, {page: taken}, parts)
            out.append(definition)
            open_note = definition if in_zone and _ends_zone(view, taken[-1]) else None
            n = taken[-1] + 1
    return out


def _reads_like_note(match: re.Match[str], typed: bool) -> bool:
    """A note's text follows its marker directly and does not open in lower case (in a typed
    document a body line like ``(4) and …`` is a citation that wrapped)."""
    text = match.group("text")
    if text[:1] in ".,;:":
        return False
    return not (typed and text[:1].islower())


def _continuation(
    view: PageView, start: int, *, in_zone: bool, indent: int, parts: list[str]
) -> list[int]:
    """The lines from ``start`` that continue a definition (appended to ``parts``)."""
    lines = view.lines
    taken: list[int] = []
    m = start
    while m < len(lines) and m not in view.furniture:
        nxt = lines[m]
        if not nxt.strip() or TABLE_PLACEHOLDER_RE.match(nxt.strip()):
            break
        open_sentence = not parts[-1].endswith((".", "!", "?"))
        head = DEFINITION_RE.match(nxt)
        # "30 June 2024." after "which amounted to" carries on; it is no bare note number
        if head and m not in view.wrapped and not (head.group("bare") and open_sentence):
            break
        if in_zone:
            continues = m in view.zone or m in view.overleaf
        else:
            deeper = len(nxt) - len(nxt.lstrip()) > indent
            # a flush line in the note's own type that carries on the open sentence of a line
            # that ran to the full measure (a short line, such as a table's row label, ended)
            carries_on = open_sentence and (
                nxt.lstrip()[:1].islower()
                or (_same_type(view, start - 1, m) and _full_measure(view, m - 1))
            )
            continues = (deeper or carries_on) and m not in view.note_type
        if not continues:
            break
        taken.append(m)
        parts.append(nxt.strip())
        m += 1
    return taken


def _full_measure(view: PageView, n: int) -> bool:
    """A line about as long as the page's longest: it wrapped, the text goes on below."""
    return len(view.lines[n].strip()) >= 0.75 * view.longest


def _same_type(view: PageView, a: int, b: int) -> bool:
    """Two lines set in the same type size (0.3 pt of rounding); unknown sizes never match."""
    sizes = view.page.line_sizes
    if not sizes or max(a, b) >= len(sizes) or min(a, b) < 0:
        return False
    return bool(sizes[a]) and abs(sizes[a] - sizes[b]) <= 0.3


def _opens_zone(view: PageView, n: int) -> bool:
    """No non-blank line of the zone or the overleaf run above line ``n``."""
    return view.first_note >= n


def _ends_zone(view: PageView, n: int) -> bool:
    """Nothing but furniture and blank lines after line ``n``: a note may go on overleaf."""
    return view.last_content <= n


def join_wrapped(parts: list[str]) -> str:
    """A note's lines as one text: a word hyphenated at a line end is joined again."""
    text = ""
    for part in parts:
        if text.endswith("-") and part[:1].islower():
            text = text[:-1] + part
        else:
            text = f"{text} {part}" if text else part
    return " ".join(text.split())


def merge_definitions(definitions: list[_Definition]) -> list[Footnote]:
    """One footnote per definition; a marker defined twice keeps its fuller definition.

    ``[N]`` numbering is document-wide, so two definitions of ``[3]`` are one footnote.
    ``(1)``/``(a)``/``*`` and superscripts restart under every table or page, so only a definition
    that is a truncated copy of another (a note repeated under a statement) is the same footnote.
    """
    merged: list[Footnote] = []
    found = _SameNote()
    for d in definitions:
        text = d.text
        same = found.first(d.marker, d.style, text)
        if same is None:
            footnote = Footnote(
                footnote_id=f"{d.marker}@{d.page}", marker=d.marker, style=d.style,
                text=text, page_index=d.page, line=d.line,
                spans={p: list(lines) for p, lines in d.spans.items()},
            )
            merged.append(footnote)
            found.add(footnote)
            continue
        for p, lines in d.spans.items():
            same.spans.setdefault(p, []).extend(lines)
        if len(text) > len(same.text):
            same.also_defined_on.append(same.page_index)
            found.retext(same, text)
            same.page_index, same.line = d.page, d.line
        elif d.page not in same.also_defined_on and d.page != same.page_index:
            same.also_defined_on.append(d.page)
    _assign_ids(merged)
    return merged


class _SameNote:
    """The footnotes merged so far, found by marker and text: which one a new definition is
    (``merge_definitions``) without comparing it with every footnote of its marker (4,000
    pages each defining its own ``(1)`` took a minute).

    A scoped marker's footnotes never hold one another's text as a prefix (such a definition
    merges), so a text has at most one footnote that is a prefix of it, found by exact lookups
    of its first characters; the footnotes that start with a text shorter than ``KEY`` are
    indexed by that prefix, and longer texts are compared only with those sharing their first
    ``KEY`` characters.
    """

    KEY = 32

    def __init__(self) -> None:
        self.order: dict[int, int] = {}  # id(footnote) -> its place among the merged ones
        self.lower: dict[int, str] = {}
        self.of_marker: dict[str, list[Footnote]] = defaultdict(list)
        self.whole: dict[tuple[str, str], Footnote] = {}  # a text shorter than KEY
        self.starting: dict[tuple[str, str], Footnote] = {}  # the first to start so
        self.keyed: dict[tuple[str, str], list[Footnote]] = defaultdict(list)  # first KEY chars

    def add(self, footnote: Footnote) -> None:
        self.order[id(footnote)] = len(self.order)
        self.of_marker[footnote.marker].append(footnote)
        self._file(footnote, "", footnote.text.lower())

    def retext(self, footnote: Footnote, text: str) -> None:
        """``footnote`` takes a longer ``text`` that starts with its own."""
        old = self.lower[id(footnote)]
        if len(old) < self.KEY:
            self.whole.pop((footnote.marker, old), None)
        footnote.text = text
        self._file(footnote, old, text.lower())

    def _file(self, footnote: Footnote, old: str, lower: str) -> None:
        marker, place = footnote.marker, self.order[id(footnote)]
        self.lower[id(footnote)] = lower
        for n in range(len(old) + 1, min(len(lower), self.KEY - 1) + 1):
            first = self.starting.get((marker, lower[:n]))
            if first is None or self.order[id(first)] > place:
                self.starting[(marker, lower[:n])] = footnote
        if len(lower) < self.KEY:
            self.whole[(marker, lower)] = footnote
        elif len(old) < self.KEY:
            self.keyed[(marker, lower[: self.KEY])].append(footnote)

    def first(self, marker: str, style: MarkerStyle, text: str) -> Footnote | None:
        """The first footnote merged with ``marker`` (any, for a document-wide ``[N]``; for a
        scoped marker, one whose text is this text or a truncated copy of it, or the reverse)."""
        same = self.of_marker.get(marker)
        if not same:
            return None
        if style not in SCOPED_STYLES:
            return same[0]
        lower = text.lower()
        found = [f for n in range(1, min(len(lower), self.KEY))
                 if (f := self.whole.get((marker, lower[:n]))) is not None]
        if len(lower) < self.KEY:
            first = self.starting.get((marker, lower))
            found += [first] if first is not None else []
        else:
            found += [f for f in self.keyed.get((marker, lower[: self.KEY]), [])
                      if _same_lower(self.lower[id(f)], lower)]
        return min(found, key=lambda f: self.order[id(f)], default=None)


def _assign_ids(footnotes: list[Footnote]) -> None:
    """``marker@page``; a scoped marker defined twice on one page (two tables) gets ``.2``."""
    seen: Counter[str] = Counter()
    for f in sorted(footnotes, key=lambda f: (f.page_index, f.line)):
        base = f"{f.marker}@{f.page_index}"
        seen[base] += 1
        f.footnote_id = base if seen[base] == 1 else f"{base}.{seen[base]}"


def _same_lower(a: str, b: str) -> bool:
    """One definition is the other, or a truncated copy of it (a note repeated under a table):
    both in lower case."""
    shorter, longer = sorted((a, b), key=len)
    return longer.startswith(shorter)
