"""Rows printed as text under a ruled header: one table, so that each row keeps its columns.

Some filings rule a table's header and print its rows as plain lines of figures below it
(JPMorgan's segment results: a ruled header of segment names over "2021 | 2020 | Change", then
``Total net revenue $ 12,517 $ 13,287 (6) % $ 14,605 ...`` as text). The PDF reader finds the
header as a table of headings only and the rows as prose, so a row read alone has lost which
segment and which year each figure is. A line right under such a header that prints exactly one
cell per value column is a row of that table; the first line that does not ends it (a ratio
row that leaves its "Change" cells blank stays prose, as printed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.ingest.pages import (
    is_markdown_rule,
    markdown_cells,
    markdown_row,
    markdown_rule,
)
from rag_assets.core.ingest.statement_tables import UNIT_NAMES, duration_words, read_units
from rag_assets.core.text.figures import AMOUNT_IN_LINE_RE, parse_figure, trailing_cells
from rag_assets.core.text.periods import (
    DURATIONS,
    MONTH_RE,
    PERIOD_HEADING_WORDS_RE,
    is_period_word,
)
from rag_assets.core.text.years import (
    COLUMN_HEADING_RE,
    COMPARED_FULL_RE,
    COMPARED_YEARS_RE,
    STATEMENT_YEAR_RE,
    YEAR_OR_CHANGE_HEADING_RE,
)

MAX_WRAPPED_LABEL = 60  # a longer line without figures is prose, not a row's label
MIN_TEXT_ROWS = 3  # lines of as many figures in a run: a table printed without rules
MAX_HEADING_LINES = 16  # lines above such a run read for the headings of its columns
NOTE_MARKER_RE = re.compile(r"\(\d{1,2}\)")  # "(2)": a note's marker, or a small negative
# "($ in millions)", "(Dollars in millions)", "(Gallons in millions)": a header's units
UNITS_PAREN_RE = re.compile(r"\(\s*(?:\$|[A-Za-z]+)?\s*in\s+(?:thousands|millions|billions)\b"
                            r"[^)]*\)", re.IGNORECASE)
SUB_HEADING_RE = re.compile(r"[A-Z][a-z]{1,7}\.?")  # "Total", "Oper.": a column's sub-heading
PERCENT_CELLS_RE = re.compile(r"%(?:\s+%)*")  # a header line of "%" cells only: "% %"
TRAILING_CHANGES_RE = re.compile(r"(?:\bchange\b\s*)+$", re.IGNORECASE)


def _headings_only(rows: Sequence[Sequence[str]]) -> bool:
    """No cell after a row's first holds an amount: names, years and words only."""
    return all(parse_figure(cell) is None or STATEMENT_YEAR_RE.fullmatch(cell.strip())
               for row in rows for cell in row[1:])


def rows_under_header(table_lines: Sequence[str], lines: Sequence[str], start: int
                      ) -> tuple[list[str], int]:
    """The markdown rows of the text lines from ``lines[start]`` on that belong to the table
    of ``table_lines`` (markdown), and the index of the first line that does not: none unless
    the table is headings only and the lines print one cell per value column, at least one of
    them a figure. The cells are the page's words (:func:`trailing_cells`), so a quote of the
    row is found on the page."""
    rows = [markdown_cells(line) for line in table_lines if not is_markdown_rule(line)]
    if not rows or not _headings_only(rows):
        return [], start
    width = max(len(r) for r in rows) - 1
    found: list[str] = []
    at = start
    while width >= 2 and at < len(lines) and not _ends_rows(lines[at]):
        label, cells = _row(lines[at], width)
        taken = 1
        if not cells and at + 1 < len(lines) and len(label) <= MAX_WRAPPED_LABEL and not (
                _ends_rows(lines[at + 1])):
            # a label wrapped over two lines ("Income/(loss) before income" / "tax expense/
            # (benefit) 8,917 246 ..."): one row; a caption line stays a row without figures
            rest, cells = _row(lines[at + 1], width)
            label, taken = (f"{label} {rest}", 2) if len(cells) == width else (label, 1)
            cells = cells if taken == 2 else [""] * width
        if not label or len(cells) != width:
            break
        found.append(markdown_row([label, *cells]))
        at += taken
    while found and not _figures_in(found[-1]):
        found.pop()  # caption lines after the last row are the prose that follows the table
        at -= 1
    return found, at


def _ends_rows(line: str) -> bool:
    """A markdown table or a stitched footnote block: never a row printed as text."""
    return line.lstrip().startswith(("|", "{FOOTNOTE"))


def _row(line: str, width: int | None = None) -> tuple[str, list[str]]:
    """A line as label and cells; with ``width``, figures past the last ``width`` belong to the
    label ("Senior notes due 2027 500 600" under two columns)."""
    label, cells = trailing_cells(line.strip())
    if width is not None and len(cells) > width:
        label, cells = " ".join([label, *cells[:-width]]).strip(), cells[-width:]
    return (label, cells) if any(parse_figure(c) is not None for c in cells) else (
        line.strip(), [])


def _figures_in(row: str) -> bool:
    return any(parse_figure(c) is not None for c in markdown_cells(row)[1:])


def text_tables(lines: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Tables printed without rules or a ruled header (Pfizer's revenue by geography: a
    stacked header of "Three Months Ended Six Months Ended" over "July 2, / 2023 / July 3, /
    2022 / % / Change" twice, then a line per region): a run of at least ``MIN_TEXT_ROWS`` lines
    each ending in the same number (two or more) of cells, under headings that name one year or
    one "% Change" per column, in print order, the durations splitting them evenly. As (title,
    markdown lines): a header naming the columns ("three months 2023", "three months %
    change"), then the rows as printed. Runs whose columns the headings do not name are left
    out: nothing is guessed."""
    out: list[tuple[str, list[str]]] = []
    at = 0
    while at < len(lines):
        # a marker after the first row's label ("North America (1) ...") is read by the rows
        # under it: the width the next line prints too
        widths = _widths(lines[at])
        following = _widths(lines[at + 1]) if at + 1 < len(lines) else ()
        width = next((w for w in widths if w in following), widths[0])
        # a caption line that ends in the column headings reads as a row of years: it heads
        # the run, it is not in it, and the next such caption heads the next run
        start = at + 1 if width >= 2 and _caption_headings(lines[at], width) else at
        end = start
        while end < len(lines) and not lines[end].lstrip().startswith("|") and (
                width in _widths(lines[end])) and not _caption_headings(lines[end], width):
            end += 1
        if width >= 2 and end - start >= MIN_TEXT_ROWS:
            table = _named_text_table(lines, start, end, width)
            if table is not None:
                out.append(table)
        at = max(end, at + 1)
    return out


def _widths(line: str) -> tuple[int, ...]:
    """The cells a line may print: all its trailing cells, or one fewer when the first is a
    note marker after the label ("Asia Pacific & Latin America (2) 5,955 5,343 ...", Nike's
    revenue by geography): printed alike, a marker and a negative "(2)" differ only by the
    run of rows the line is in, so the run's width decides which it is."""
    cells = _row(line)[1]
    marked = len(cells) > 2 and NOTE_MARKER_RE.fullmatch(cells[0]) is not None
    return (len(cells), len(cells) - 1) if marked else (len(cells),)


def _heading_line(line: str) -> bool:
    """A line that may head a text table's columns: short, no amount (years and dates are
    headings), no sentence's end, not a markdown table."""
    text = line.strip()
    if YEAR_OR_CHANGE_HEADING_RE.search(text):  # "% CHANGE (1)": a heading's note marker
        text = NOTE_MARKER_RE.sub(" ", text).strip()
    text = UNITS_PAREN_RE.sub(" ", text).strip() or text  # "($ in millions)" prints no amount
    return bool(text) and len(text) <= 80 and not text.startswith("|") and not (
        AMOUNT_IN_LINE_RE.search(text) or text.endswith((".", ":"))) or bool(
        _sub_headings(text) or SIGN_HEADINGS_RE.fullmatch(text) and PERCENT_TOKEN_RE.search(text))


def _sub_headings(line: str) -> list[str] | None:
    """The headings a stacked header prints under each "% Change" (Pfizer's release: "Total
    Oper." under each, the change as reported and operationally), once per change: a line of
    short capitalized words that repeats one cycle, the cycle; None for any other line."""
    tokens = line.split()
    if len(tokens) < 2 or not all(SUB_HEADING_RE.fullmatch(t) for t in tokens):
        return None
    cycle = next((k for k in range(1, len(tokens)) if len(tokens) % k == 0
                  and tokens == tokens[:k] * (len(tokens) // k)), None)
    return tokens[:cycle] if cycle and cycle > 1 else None


def _expanded(headings: Sequence[re.Match[str]], header: str, width: int
              ) -> list[str] | None:
    """The columns' names where each "% Change" heads as many columns as the line under it
    names ("% Change" over "Total Oper."): "three months % change total", "... oper"; None
    when the widths do not add up."""
    changes = sum(1 for h in headings if h["change"])
    cycle = next((c for line in header.splitlines() if (c := _sub_headings(line.strip()))),
                 None)
    if not changes or cycle is None or len(headings) + changes * (len(cycle) - 1) != width:
        return None
    names = _column_names(headings, header)
    if names is None:
        return None
    return [f"{name} {sub.lower().rstrip('.')}".strip()
            for h, name in zip(headings, names, strict=True)
            for sub in (cycle if h["change"] else [""])]


def _units(text: str) -> tuple[str, float]:
    """The units a header or caption names, its clauses read one by one: a long caption's
    units are a clause of it ("... follow (in millions): Years Ended ...")."""
    return read_units(text.replace(": ", ":\n"))


def _caption_headings(line: str, width: int) -> tuple[str, str] | None:
    """A caption line that ends in the columns' headings, as (caption, headings): the text
    layer prints a header on the line of the title above it (Corning's segment note: "...
    (in millions): Years Ended December 31, Revenues from External Customers 2015 2014
    2013"). Only the line's last ``width`` headings, only when nothing follows them and the
    caption leads into the table (a colon) or names its units."""
    text = line.strip()
    found = list(YEAR_OR_CHANGE_HEADING_RE.finditer(text))
    if width < 2 or len(found) < width or text.endswith((".", ":")):
        return None
    tail = found[-width].start()
    caption = text[:tail].strip()
    if YEAR_OR_CHANGE_HEADING_RE.sub("", text[tail:]).strip() or not (
            ":" in caption or _units(caption)[0]):
        return None  # a row of figures that look like years ("Asia 1950 1975 2001") is no caption
    return caption, text[tail:]


def _by_column_kind(headings: list[re.Match[str]], rows: Sequence[Sequence[str]]
                    ) -> list[re.Match[str]] | None:
    """The headings in the order of the columns they head: a stacked header's text prints
    its "% Change" cells before the years they follow (Corning's "Year ended December 31, %
    / Change % / Change 2015 2014 2013 15 vs. 14 14 vs. 13" over "$ 3,086 $ 3,851 $ 2,545
    (20)% 51%"), so when the columns whose figures are percentages are as many as the change
    headings, the changes head those and the years the others, each in print order. Change
    columns printed without "%" (Pfizer's "(20)") keep the print order; some but not as many
    columns of percentages as changes, and which heads which is not printed: None."""
    changes = [h for h in headings if h["change"]]
    percent = [bool(figures) and all(c.endswith("%") for c in figures) for figures in (
        [c.strip() for c in column if any(ch.isdigit() for ch in c)]
        for column in zip(*rows, strict=True))]
    if not changes or not any(percent):
        return headings
    if len(percent) != len(headings) or sum(percent) != len(changes):
        return None
    years = iter([h for h in headings if not h["change"]])
    moves = iter(changes)
    return [next(moves) if is_percent else next(years) for is_percent in percent]


def _column_names(headings: Sequence[re.Match[str]], header: str) -> list[str] | None:
    """Each column's name: its duration and year, or "% change"; change columns that would
    share a name are named by the years they compare, as the header prints them ("15 vs.
    14"), else by the two years before each (Nike's "FISCAL 2022 FISCAL 2021 % CHANGE FISCAL
    2020 % CHANGE": "% change 2022 vs. 2021"). None when names still repeat."""
    width = len(headings)
    durations = sorted((m.start(), months) for p, months in DURATIONS for m in p.finditer(header))
    lengths = [durations[i * len(durations) // width][1] if durations else None
               for i in range(width)]
    names = [f"{duration_words(m)}{h['year'] or _change_name(h)}"
             for h, m in zip(headings, lengths, strict=True)]
    if len(set(names)) == len(names):
        return names
    changes = [i for i, h in enumerate(headings) if h["change"]]
    printed = [m.group(0) for m in COMPARED_YEARS_RE.finditer(header)]
    for number, i in enumerate(changes):
        years = [h["year"] for h in headings[:i] if h["year"]][-2:]
        compared = (printed[number] if len(printed) == len(changes)
                    else " vs. ".join(years) if len(years) == 2 else "")
        names[i] = f"{duration_words(lengths[i])}% change {compared}".strip()
    if len(set(names)) < len(names):
        # two changes of the same years, told apart by the words printed under one of them
        # (Nike's "% CHANGE" beside "% CHANGE / EXCLUDING / CURRENCY / CHANGES")
        for i in changes:
            qualifier = _change_qualifier(header, headings[i])
            if qualifier:
                names[i] = names[i].replace("% change", f"% change {qualifier}", 1)
    return names if len(set(names)) == len(names) else None


def _change_name(heading: re.Match[str]) -> str:
    """A change column's name: "change" for its amount ("Increase/(decrease)"), "% change"
    for its rate."""
    return "change" if heading.groupdict().get("delta") else "% change"


PERCENT_TOKEN_RE = re.compile(r"(?<!\S)%(?!\S)")
# a line of the signs or units each comparison's columns print under it: "$ % $ %", "Gallons %"
SIGN_HEADINGS_RE = re.compile(r"(?:(?:\$|%|[A-Z][a-z]+)\s*)+")


def compared_pairs(header: str, width: int) -> list[str] | None:
    """The columns of a header whose comparisons each head an amount and a percentage
    (American Water's MD&A: "Increase (Decrease)" over "2017 2016 2015 2017 vs. 2016 2016 vs.
    2015" over "(Dollars in millions) $ % $ %"): the years, then "change 2017 vs. 2016" and "%
    change 2017 vs. 2016" per comparison; None unless a line prints one "%" per comparison and
    the columns add up to ``width``."""
    pairs = [(m[1], m[2]) for m in COMPARED_FULL_RE.finditer(header)]
    if not pairs or not any(len(PERCENT_TOKEN_RE.findall(line)) == len(pairs)
                            for line in header.splitlines()):
        return None
    years = [m["year"] for m in YEAR_OR_CHANGE_HEADING_RE.finditer(
        COMPARED_FULL_RE.sub(" ", header)) if m["year"]]
    if len(years) + 2 * len(pairs) != width or len(set(years)) != len(years):
        return None
    return [*years, *(name for a, b in pairs
                      for name in (f"change {a} vs. {b}", f"% change {a} vs. {b}"))]


def stacked_changes(header: str) -> str:
    """A header whose "%" cells stand on one line and their "change" words at the end of the
    next, as one "% change" per column (Corning 2018's segment net sales: "% %" over "Years
    ended December 31, change change" over "2018 2017 2016 18 vs. 17 17 vs. 16"); only when
    the counts agree, so every other header is read as printed."""
    lines = header.split("\n")
    for n in range(len(lines) - 1):
        cells = lines[n].strip()
        changes = TRAILING_CHANGES_RE.search(lines[n + 1])
        if not PERCENT_CELLS_RE.fullmatch(cells) or changes is None:
            continue
        count = cells.count("%")
        if len(changes.group(0).split()) != count:
            continue
        merged = lines[n + 1][:changes.start()] + " ".join(["% change"] * count)
        return "\n".join([*lines[:n], merged.strip(), *lines[n + 2:]])
    return header


def _caption_above(lines: Sequence[str], start: int) -> str | None:
    """The caption a text table prints between its header and its rows ("Net revenues by
    distribution channel:", Activision Blizzard's 10-Q): a short line that ends in a colon and
    prints no amount; None for any other line."""
    line = lines[start - 1].strip() if start > 0 else ""
    return line if (line.endswith(":") and line[:1].isupper() and len(line) <= MAX_WRAPPED_LABEL
                    and not AMOUNT_IN_LINE_RE.search(line)) else None


# the words a header prints between its periods' words: "For the Three Months Ended June 30,"
_LINKING_WORDS = frozenset({"for", "the", "as", "of", "at", "and", "in"})
MAX_OTHER_HEADER_WORDS = 1


def _header_of_headings(header: str) -> bool:
    """Whether a header prints nothing but column headings, durations, dates and units: a
    wrapped sentence above a caption ("Compared with 2022, our revenue in 2023 by segment")
    heads no columns."""
    rest = UNITS_PAREN_RE.sub(" ", COLUMN_HEADING_RE.sub(" ", header))
    for duration, _ in DURATIONS:  # "Thirteen Weeks Ended", "Three Months Ended"
        rest = duration.sub(" ", rest)
    rest = MONTH_RE.sub(" ", PERIOD_HEADING_WORDS_RE.sub(" ", rest))
    other = [w for w in re.findall(r"[^\W\d_]+", rest.lower())
             if w not in _LINKING_WORDS and not is_period_word(w.removesuffix("s"))]
    return len(other) <= MAX_OTHER_HEADER_WORDS


def _change_qualifier(header: str, heading: re.Match[str]) -> str:
    """The words a stacked header prints under a "% change" heading, up to the next heading
    ("excluding currency changes"): what that change leaves out. Note markers and the words
    that open the next column's heading ("FISCAL 2020") are not its words."""
    following = COLUMN_HEADING_RE.search(header, heading.end())
    words = header[heading.end():following.start() if following else len(header)]
    words = PERIOD_HEADING_WORDS_RE.split(NOTE_MARKER_RE.sub(" ", words), maxsplit=1)[0]
    return " ".join(re.findall(r"[^\W\d_]+", words)).lower()


def _title_in(header: Sequence[str]) -> str:
    """A title the header's first line prints when the table opens the page ("REVENUES" over
    Pfizer's release's headings): a line that names no column, no period and no units."""
    first = header[0].strip() if header else ""
    named = YEAR_OR_CHANGE_HEADING_RE.search(first) or UNITS_PAREN_RE.search(first) or any(
        p.search(first) for p, _ in DURATIONS) or _sub_headings(first)
    return "" if named else first


def _named_text_table(lines: Sequence[str], start: int, end: int, width: int
                      ) -> tuple[str, list[str]] | None:
    caption_row = _caption_above(lines, start)
    first = start - 1 if caption_row else start  # the header stands above the caption
    top = first
    while top > max(0, first - MAX_HEADING_LINES) and _heading_line(lines[top - 1]) and not (
            _caption_headings(lines[top - 1], width)):
        top -= 1
    if top == first or (caption_row and not _header_of_headings(
            "\n".join(lines[top:first]))):
        caption_row, first, top = None, start, start  # no header above it: a title, as before
    header = stacked_changes("\n".join(line.strip() for line in lines[top:first]))
    headings = list(COLUMN_HEADING_RE.finditer(header))
    caption = None
    if not headings and top > 0 and (caption := _caption_headings(lines[top - 1], width)):
        header = " ".join(caption)
        headings = list(YEAR_OR_CHANGE_HEADING_RE.finditer(header))[-width:]
    rows = [_row(line, width) for line in lines[start:end]]
    names = compared_pairs(header, width)  # each comparison heading an amount and a percentage
    if names is None and len(headings) != width:
        names = _expanded(headings, header, width)
    elif names is None:
        ordered = _by_column_kind(headings, [cells for _, cells in rows])
        names = _column_names(ordered, header) if ordered is not None else None
    if names is None:
        return None  # which column is which is not printed
    _, scale = _units(header)
    title = caption[0] if caption else lines[top - 1].strip() if top > 0 else _title_in(
        lines[top:first])
    captioned = [[caption_row, *[""] * width]] if caption_row else []
    table = [[UNIT_NAMES.get(scale, ""), *names], *captioned,
             *([label, *cells] for label, cells in rows)]
    markdown = [markdown_row(row) for row in table]
    return title, [markdown[0], markdown_rule(width + 1), *markdown[1:]]
