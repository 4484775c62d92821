"""Finding citations: the markers a page cites in its text, its tables and its notes.

A ``(1)`` or ``(a)`` is a citation only when the words beside it say so (``word (1)`` is, ``Article
6(1)`` and ``point (a)`` are not), and a marker opening a line is a definition or a list item
unless it wrapped from the line above. Each citation in the text keeps the sentence around it.
"""

from __future__ import annotations

import re
from typing import Literal

from rag_assets.core.footnotes.records import Citation
from rag_assets.core.footnotes.sentences import SentenceEnds
from rag_assets.core.footnotes.zones import PageView
from rag_assets.core.ingest.pages import TABLE_PLACEHOLDER_RE, TableBlock
from rag_assets.core.text.figures import is_figure
from rag_assets.core.text.markers import CITATION_RE, marker_of

# words after which "(1)" or "(a)" is a reference to a paragraph or point, not a footnote
REFERENCE_WORDS = {
    "article", "articles", "art", "paragraph", "paragraphs", "subparagraph", "subparagraphs",
    "point", "points", "section", "sections", "item", "items", "note", "notes", "chapter",
    "regulation", "directive", "and", "or", "to", "of", "in", "under", "see", "with", "letter",
    "clause", "clauses", "rule", "schedule", "exhibit", "annex",
}
BRACKET_MARKER_RE = re.compile(r"^\[\d{1,4}\]$")
ACT_NUMBER_RE = re.compile(r"^\d{1,4}/\d{1,4}(?:/\w+)?[,;]?$")  # "Regulation 2019/1937 (1)"


def _is_figure_token(token: str) -> bool:
    """A figure (``core/text/figures``) with the punctuation after it, or a nil dash."""
    return token == "—" or is_figure(token.rstrip(",;."))


def citations_in_page(view: PageView) -> list[Citation]:
    """Every marker a page cites outside its furniture, in its lines and its tables' cells; a
    citation in the text keeps its sentence (the index shows where a note is used)."""
    out: list[Citation] = []
    page = view.page
    tables = {t.index: t for t in page.tables}
    ends = SentenceEnds(view.lines)
    for number, line in enumerate(view.lines):
        if number in view.furniture:
            continue
        placeholder = TABLE_PLACEHOLDER_RE.match(line.strip())
        if placeholder:
            table = tables.get(int(placeholder.group(1)))
            if table:
                out.extend(_citations_in_table(table, page.page_index, number))
            continue
        above = view.lines[number - 1].rstrip() if number and number in view.wrapped else ""
        found = citations_in_text(line, page.page_index, number, "text", wrapped=above)
        for c in found:
            c.sentence = ends.around(number, c.end)
        out.extend(found)
    return out


def _citations_in_table(table: TableBlock, page_index: int, line: int) -> list[Citation]:
    out = []
    for row in table.rows:
        for cell in row:
            for c in citations_in_text(cell, page_index, line, "table"):
                c.table_index = table.index
                c.sentence = " | ".join(x for x in row if x)[:300]
                out.append(c)
    return out


def citations_in_text(
    text: str,
    page_index: int,
    line: int,
    context: Literal["text", "table", "footnote"],
    wrapped: str = "",
) -> list[Citation]:
    """Markers cited in one line; ``wrapped``: the line above, when the marker opening this line
    is a citation that wrapped from it (not a definition)."""
    out = []
    start = len(text) - len(text.lstrip())
    for match in CITATION_RE.finditer(text):
        found = marker_of(match)
        if found is None:
            continue
        marker, style = found
        opens_line = match.start() <= start
        if wrapped and opens_line:
            if style in {"paren-number", "paren-letter"} and not _is_paren_citation(
                f"{wrapped} {text}", len(wrapped) + 1 + match.start()
            ):
                continue  # "Section 871(h) / (3) of the Code" is a reference that wrapped
        elif style in {"paren-number", "paren-letter"}:
            if not _is_paren_citation(text, match.start()):
                continue
        elif opens_line and context != "table":
            continue  # a marker that opens a line is a definition or a list item
        out.append(
            Citation(
                marker=marker, style=style, page_index=page_index, line=line,
                end=match.end(), context=context,
            )
        )
    return out


def citations_in_block(text: str) -> list[str]:
    """Markers cited in a block of lines, by the same rules the index applies to pages."""
    return [
        c.marker
        for number, line in enumerate(text.split("\n"))
        for c in citations_in_text(line, 0, number, "text")
    ]


TOKEN_CHARS = 64  # a word read beside a "(1)": a longer one is read by its last 64 characters


def _token_before(text: str, at: int) -> tuple[str, int]:
    """The white-space separated word that ends before ``at`` (its last ``TOKEN_CHARS``
    characters at most) and where it starts: a marker is judged by its neighbours, and reading
    them must not cost the whole line for each marker of a long one."""
    end = at
    while end > 0 and text[end - 1].isspace():
        end -= 1
    start = end
    while start > 0 and not text[start - 1].isspace() and end - start < TOKEN_CHARS:
        start -= 1
    return text[start:end], start


def _token_after(text: str, at: int) -> str:
    """The first white-space separated word from ``at`` ("" when the word is over
    ``TOKEN_CHARS`` characters: no figure is that long)."""
    start = at
    while start < len(text) and text[start].isspace():
        start += 1
    end = start
    while end < len(text) and not text[end].isspace():
        end += 1
        if end - start > TOKEN_CHARS:
            return ""
    return text[start:end]


def _is_paren_citation(text: str, paren: int) -> bool:
    """``word (1)``, ``2012 (17).``, ``9.3%(b)``, ``8,5 % (2)``, ``2019/1937 (1)`` cite a note;
    ``6(1)``,
    ``9(2)(a)``, ``(370) (967)`` and ``point (a)`` do not. Only the words beside the marker are
    read (``_token_before``, ``_token_after``), never the line up to it."""
    previous, start = _token_before(text, paren)
    if not previous:
        return False  # opens the line: a definition, a recital number or a list item
    glued = 0  # digits glued to the marker
    while glued < 4 and paren - glued > 0 and text[paren - glued - 1].isdecimal():
        glued += 1
    if 0 < glued <= 3 or text[paren - 1 : paren] == ")":
        return False  # Article 6(1), 9(2)(a); a year glued to a marker (2022(1)) is a citation
    if BRACKET_MARKER_RE.match(previous):
        return True  # "Inferred [7] (b)": a note after a note
    if previous in {"%", "‰"}:
        figure, _ = _token_before(text, start)
        if figure:
            previous = figure + previous  # "8,5 %": a European figure with its spaced sign
    close = text.find(")", paren)
    following = _token_after(text, close + 1)
    next_is_figure = bool(following) and bool(_is_figure_token(following))
    if not any(ch.isalpha() for ch in previous):
        # after a figure ("2012 (17).", "9.3%(b)") it is a note; after a reference ("60(7), (8)")
        # or inside a row of figures ("(370) (967)", "7 (4) 12") it is not
        plain_figure = (
            bool(_is_figure_token(previous) or ACT_NUMBER_RE.match(previous))
            and not previous.startswith("(")
        )
        if not plain_figure or next_is_figure:
            return False
    word = previous.strip(".,;:()").lower()
    return word not in REFERENCE_WORDS
