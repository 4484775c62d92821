"""An 8-K's Items as the report prints them: each Item's heading (the Form's title), the page it
opens on and its body's lines, over the page break when a sentence runs on (Form 8-K's General
Instructions: each event under its numbered Item, Item 9.01's exhibits after them). Read once
for the readers of an Item's body (:mod:`current_items`) and of a vote's counts
(:mod:`vote_results`). Plain Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rag_assets.core.ingest.layout import BARE_NUMBER_RE, PAGE_OF_RE
from rag_assets.core.ingest.sections import current_item_of
from rag_assets.core.ingest.statements import exhibit_of
from rag_assets.core.text.prose import ends_sentence_line


@dataclass
class ReportItem:
    """An Item of the report: its heading (the Form's title), the page it opens on, its body's
    lines there, and the lines its body goes on with on each later page (until the next Item
    or the exhibits: an officer's terms run past the page that names him)."""

    heading: str
    page: int
    lines: list[str]
    later: list[tuple[int, list[str]]] = field(default_factory=list)

    @property
    def number(self) -> str:
        """The Item's number, "5.02"."""
        return self.heading.split()[1].rstrip(".")

    def parts(self) -> list[tuple[int, list[str]]]:
        """The body's lines on each page it is printed on, in order."""
        return [(self.page, self.lines), *((p, lines) for p, lines in self.later if lines)]


def report_items(pages: Sequence[tuple[int, str]]) -> list[ReportItem]:
    """Each Item of the report's own pages (before its exhibits), its heading's title read
    whole where the printed heading wraps onto the next line ("...; Compensatory" /
    "Arrangements of Certain Officers.": the Form's title, not the body's first sentence)."""
    items: list[ReportItem] = []
    for page, text in pages:
        lines = [line for line in text.splitlines() if line.strip()]
        if exhibit_of(lines) is not None:
            break
        sink = None
        if items and _runs_on(items[-1]):  # a sentence cut by the page break goes on here
            items[-1].later.append((page, []))
            sink = items[-1].later[-1][1]
        printed = ""
        for line in lines:
            if BARE_NUMBER_RE.match(line) or PAGE_OF_RE.match(line):
                continue  # the page's printed label: no part of a body that runs over it
            if (heading := current_item_of(line)) is not None:
                items.append(ReportItem(heading, page, []))
                sink, printed = items[-1].lines, line
            elif sink is not None:
                if printed and _completes_title(printed, line, items[-1].heading):
                    printed = f"{printed} {line}"
                    continue
                printed = ""
                sink.append(line.strip())
    return items


def _runs_on(item: ReportItem) -> bool:
    """Whether the Item's body goes on over the page break: its last line so far ends mid
    sentence (an Item that ends with its page is done; the next page may be a signature page
    or an exhibit printed without its label)."""
    last = next((lines[-1] for _, lines in reversed(item.parts()) if lines), "")
    return bool(last) and not ends_sentence_line(last)


def _completes_title(printed: str, line: str, heading: str) -> bool:
    """Whether a line goes on with a heading printed over two lines: the printed heading and
    the line together are the start of the Form's title of the Item (``sections.json``)."""
    def plain(text: str) -> str:
        return " ".join(re.sub(r"[^\w;]+", " ", text.lower()).split())
    number, _, title = heading.partition(". ")
    so_far = plain(printed.partition(number.split()[1])[2])
    joined = plain(f"{so_far} {line}")
    return bool(so_far) and len(joined) > len(so_far) and plain(title).startswith(joined)
