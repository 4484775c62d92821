"""The statement table reader: rows, their columns' periods and the units line of a statement.

One reader, two uses: statement facts (:mod:`facts`) and the header row a statement table
carries in the enriched chunks (:func:`headed_markdown`: ``| USD millions | 2022 | 2021 |``, so
that a row read alone keeps its periods: "Operating profit: 2022: 11,512; 2021: 11,162"). A
statement reaches us in one of three shapes, often mixed on one page: a table the PDF engine
found (``TableBlock`` rows, its header rows holding the years), lines of prose type that end in
figures (AMD, JPMorgan), and lines that carry several rows at once (General Mills 2022 prints a
statement as run-on lines). The reader turns every shape into printed rows (label + figure
cells), then reads the headings above the first row of figures: the years in order, the period
captions ("Three Months Ended", "Six Months Ended", "52 Weeks Ended", "Fiscal Years Ended") and
the units line ("(In millions, except per share data)"). Hand-written because no library reads
statement headings from PDF text; pdfplumber and PDFium give the cells, not what they mean.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from pydantic import BaseModel, Field

from rag_assets.core.ingest.pages import Page, markdown_cells, markdown_row, markdown_rule
from rag_assets.core.ingest.statements import (
    StatementKind,
    page_lines,
    prints_no_word,
    statement_title,
)
from rag_assets.core.text.figures import NIL_RE, in_cents, is_figure, parse_figure
from rag_assets.core.text.filing_kinds import FORM_OR_PAGE_AT_END_RE
from rag_assets.core.text.labels import LABEL_CARRIES_ON_RE
from rag_assets.core.text.periods import DURATIONS, MONTH_RE, MONTHS_IN_WORDS, PERIOD_CAPTION_RE
from rag_assets.core.text.years import STATEMENT_YEAR_RE

# the statements whose columns are periods (an equity statement's columns are its components)
PERIOD_STATEMENTS: tuple[StatementKind, ...] = ("income_statement", "balance_sheet", "cash_flow")
SCALES: tuple[tuple[re.Pattern[str], float, str], ...] = (
    (re.compile(r"\b(?:in|amounts?\s+in|dollars\s+in)?\s*billions\b", re.I), 1e9, "billions"),
    (re.compile(r"\bmillions\b", re.I), 1e6, "millions"),
    (re.compile(r"\bthousands\b", re.I), 1e3, "thousands"),
)
TOTAL_RE = re.compile(r"^\s*(?:total|net\s+(?:cash|increase|decrease|change|income|loss|"
                      r"earnings|sales|revenues?))\b", re.I)
PER_SHARE_RE = re.compile(r"per\s+(?:common\s+)?share|\bEPS\b|dividends?\s+declared\s+per", re.I)
SHARES_RE = re.compile(r"\bshares\b|\bweighted[- ]average\b", re.I)
FURNITURE_RE = re.compile(r"^\s*(?:item|part|note|page|exhibit|table of contents)\b", re.I)
PARENTHESIZED_RE = re.compile(r"\([^()]{3,80}\)")
UNIT_NAMES = {1e9: "USD billions", 1e6: "USD millions", 1e3: "USD thousands"}
MAX_HEADER_LINES = 16  # lines between a page's top and its first row of figures read as headings


class Column(BaseModel):
    heading: str = Field(description="what the column's headings print, joined")
    year: int | None = None
    months: int | None = Field(default=None, description="3/6/9/12; None for a date")


class StatementRow(BaseModel):
    label: str
    group: str = Field(default="", description="the caption row above it (\"Basic\" under "
                       "\"Earnings per share:\")")
    cells: list[str] = Field(description="the figure cells as printed, one per column")
    values: list[float | None] = Field(description="the cells as numbers, sign from parentheses")
    quote: str = Field(description="the row as printed: what a citation quotes")
    total: bool = False


class StatementTable(BaseModel):
    page: int
    statement: StatementKind
    title: str = ""
    units: str = Field(default="", description="the units line as printed")
    scale: float = 1.0
    columns: list[Column]
    rows: list[StatementRow]
    first_row: int = Field(default=0, description="the position of its first row among the "
                           "page's statement rows (a block below another on the page)")

    def share_scale(self, label: str, group: str = "") -> float:
        """The scale a share count is printed in: its own label's ("Shares used in calculation
        (000's)"), else none when the units line excepts shares ("in thousands, except share
        and per share data"), else the units line's ("in millions, except per share data":
        counts are in millions too)."""
        own = re.search(r"\((?:shares )?(?:in )?(thousands|millions|000'?s|000’s)\)",
                        f"{group} {label}", re.IGNORECASE)
        if own:
            return 1e6 if own[1].lower() == "millions" else 1e3
        # "except number of shares, which are reflected in thousands", "shares in thousands"
        said = re.search(r"\bshares?\b[^;.)]*?\b(?:in|reflected in)\s+(thousands|millions)\b",
                         self.units, re.IGNORECASE)
        if said:
            return 1e6 if said[1].lower() == "millions" else 1e3
        if re.search(r"except\s+(?:for\s+)?(?:number of\s+)?shares?\b", self.units, re.I):
            return 1.0
        return self.scale

    def unit_of(self, label: str, group: str = "") -> str:
        """What a row counts: per-share amounts and share counts are not dollars; a cash flow
        statement counts cash (ASC 230), so its "Repurchase of common shares" is the cash paid
        for them, never a count."""
        text = f"{group} {label}"
        if PER_SHARE_RE.search(text):
            return "USD/share"
        if SHARES_RE.search(text) and not re.search(r"equity|capital|stock\b", label, re.I) \
                and self.statement != "cash_flow":
            return "shares"
        return "USD"




def duration_words(months: int | None) -> str:
    """"three months " for a quarter's column, "" for a year's or an unknown duration: the
    duration in words, as statements print it ("Three Months Ended"), so a row quoted under a
    column named with it holds no figure the page does not print."""
    return f"{MONTHS_IN_WORDS[months]} months " if months in MONTHS_IN_WORDS else ""


def column_name(column: Column) -> str:
    """A column as the chunker names it: "three months 2022", "2022" (a full year), its
    heading else."""
    if column.year is None:
        return column.heading or "?"
    return f"{duration_words(column.months)}{column.year}"


def _tokens(text: str) -> list[str]:
    """Words and figures; ``$`` joins the figure after it, a lone ``(`` its figure."""
    return text.replace("$ ", "$").replace("( ", "(").replace(" )", ")").split()


def split_row_line(text: str) -> tuple[str, list[str]]:
    """A printed line as label + trailing figure cells (``Net revenue $ 3,991 $ 5,506``)."""
    tokens = _tokens(text)
    cells: list[str] = []
    while tokens and _is_figure(tokens[-1]):
        cells.insert(0, tokens.pop())
    return " ".join(tokens), cells


def _is_figure(token: str) -> bool:
    """A figure cell; a year heading or a date's day ("December 31,") is not one."""
    bare = token.lstrip("$")
    return (
        (is_figure(token) or bool(NIL_RE.fullmatch(token)))
        and not token.endswith(",")
        and bare.startswith("(") == bare.rstrip("%").endswith(")")  # "(Note 7)" is no figure
        and STATEMENT_YEAR_RE.fullmatch(token.strip("()")) is None
    )


def split_run_on_line(text: str, width: int) -> list[tuple[str, list[str]]]:
    """A line holding several rows (label, ``width`` figures, label, ...): General Mills 2022
    prints its statements so. Only a line whose figures come in runs of exactly ``width``
    is split; anything else stays one row."""
    tokens = _tokens(text)
    rows: list[tuple[str, list[str]]] = []
    label: list[str] = []
    figures: list[str] = []
    for at, token in enumerate(tokens):
        following = tokens[at + 1] if at + 1 < len(tokens) else ""
        # a dash between words ("Cash Flows - Operating Activities") is no nil figure
        words_dash = NIL_RE.fullmatch(token) and not figures and following[:1].isalpha()
        if _is_figure(token) and label and not words_dash:
            figures.append(token)
            continue
        if figures:
            if len(figures) != width:
                return [split_row_line(text)]
            rows.append((" ".join(label), figures))
            label, figures = [], []
        label.append(token)
    if figures:
        if len(figures) != width:
            return [split_row_line(text)]
        rows.append((" ".join(label), figures))
    elif label and rows:
        # a caption after the last row ("... 3,676.2 Cash Flows - Investing Activities": General
        # Mills 2022), when every label reads as one (prose reads "$11.0 billion to ...")
        rows.append((" ".join(label), []))
        if not all(r[0][:1].isupper() for r in rows):
            return [split_row_line(text)]
    return rows or [split_row_line(text)]


RUN_ON_PAGE = 600  # characters: a line this long is a page the PDF ran into one line


def _run_on_pieces(text: str) -> list[tuple[str, list[str]]]:
    """A whole statement the PDF gave as one line (Corning 2015): a row at every run of
    figures, however many (a row that leaves a column blank prints fewer); the words after
    the last run stay a row of their own; two figures joined by "and" are the label's own
    ("Trade accounts receivable, net of ... allowances - $48 and $47 1,372 1,501")."""
    rows: list[tuple[str, list[str]]] = []
    label: list[str] = []
    figures: list[str] = []
    tokens = _tokens(text)
    aside = False  # inside a parenthesis of words: "(Note 11 and 15)" holds no cell
    paired = False  # the figure after "and" of the label's own pair ("- $48 and $47")
    for at, token in enumerate(tokens):
        following = tokens[at + 1] if at + 1 < len(tokens) else ""
        words_dash = NIL_RE.fullmatch(token) and not figures and following[:1].isalpha()
        if paired and _is_figure(token):
            label.append(token)
            paired = False
            continue
        if figures and token == "and" and _is_figure(following):
            # "net of allowances - $48 and $47 1,372 1,501": a pair the label prints
            label += [*figures, token]
            figures, paired = [], True
            continue
        if not aside and _is_figure(token) and label and not words_dash:
            figures.append(token)
            continue
        if figures:
            rows.append((" ".join(label), figures))
            label, figures = [], []
        label.append(token)
        aside = (aside or token.startswith("(")) and not token.endswith(")")
    rows.append((" ".join(label), figures))
    return rows


def _run_on_rows(text: str) -> list[_Printed]:
    """:func:`_run_on_pieces` as rows, each quoting the line's own characters ("$ 9,111" as
    printed, where the pieces read "$9,111")."""
    out: list[_Printed] = []
    cursor = 0
    for label, cells in _run_on_pieces(text):
        chars = "".join(f"{label}{''.join(cells)}".split())
        found = re.compile(r"\s*".join(map(re.escape, chars))).search(text, cursor)
        quote = found.group(0) if found else f"{label} {' '.join(cells)}"
        cursor = found.end() if found else cursor
        out.append(_Printed(label=label, cells=cells, quote=quote, from_table=False))
    return out


class _Printed(BaseModel):
    """A row as the page prints it, before headings are known."""

    label: str
    cells: list[str]
    quote: str
    from_table: bool


def _table_rows(rows: Sequence[Sequence[str]]) -> Iterable[_Printed]:
    for row in rows:
        cells = [c.strip() for c in row]
        label = cells[0] if cells else ""
        quote = " ".join(c for c in cells if c)
        packed = split_row_line(label)[1] or any(_packed_cell(c) for c in cells[1:])
        if packed:  # figures in the label's cell, or two in one cell (Lockheed 2022)
            label, figures = split_row_line(quote)
            yield _Printed(label=label, cells=figures, quote=quote, from_table=True)
            continue
        values: list[str] = []
        for cell in cells[1:]:
            # a cell holding a figure and a share ("$ 3,226,773 100.0%") keeps the figure
            parts = [p for p in _tokens(cell) if _is_figure(p) or p.endswith("%")]
            figures = [p for p in parts if not p.endswith("%")]
            values.append(figures[0] if figures else cell)
        yield _Printed(label=label, cells=values, quote=quote, from_table=True)


def _packed_cell(cell: str) -> bool:
    """A cell holding two columns' figures (Lockheed 2022: "1,234 1,100"): two amounts, or two
    shares and no amount. One amount with its share of the total beside it ("$ 3,226,773
    100.0%", Ulta's releases) is one column's cell: its figure is the amount."""
    figures = [t for t in _tokens(cell) if _is_figure(t)]
    shares = sum(t.endswith("%") for t in figures)
    amounts = len(figures) - shares
    return amounts > 1 or (amounts == 0 and shares > 1)


def _printed_rows(page: Page, statement: StatementKind | None = None) -> list[_Printed]:
    """The page's rows in print order; from the statement's own title on when rows of figures
    come both before and after it (a release that prints its statement below other tables on
    the same page: Lockheed's 2023 Q2 balance sheet under a pension reconciliation)."""
    out: list[_Printed] = []
    title_at: int | None = None
    for line, table in page.lines_with_tables():
        if table:
            out.extend(_table_rows(table.rows))
            continue
        text = line.strip()
        if text:
            if title_at is None and statement and statement_title(text) == statement:
                title_at = len(out)
            if len(text) > RUN_ON_PAGE:
                out.extend(_run_on_rows(text))
                continue
            label, cells = split_row_line(text)
            out.append(_Printed(label=label, cells=cells, quote=text, from_table=False))
    if title_at and any(_is_data(r) for r in out[:title_at]) and any(
            _is_data(r) for r in out[title_at:]):
        return out[title_at:]
    return out


def _figure_count(row: _Printed) -> int:
    return sum(1 for c in row.cells if c and parse_figure(c) is not None)


def _is_data(row: _Printed) -> bool:
    """A row of figures: a label and at least one figure that is not a year heading; never a
    date heading ("June 30,"), nor furniture that ends in a number ("Item 8", "Page 12 of 15"),
    nor a statement's title with its note marker ("Consolidated Statements of Operations (1)",
    AMD 2018: read as a row, its headings were lost)."""
    return bool(row.label) and not MONTH_RE.search(row.label[-12:]) \
        and not FURNITURE_RE.match(row.label) and not FORM_OR_PAGE_AT_END_RE.search(row.label) \
        and _figure_count(row) > 0 and any(
        c and parse_figure(c) is not None and not STATEMENT_YEAR_RE.fullmatch(c.strip())
        for c in row.cells
    ) and (len(row.cells) > 1 or statement_title(row.quote) is None)


def _width(rows: Sequence[_Printed], header: str = "") -> int:
    """How many value columns the statement prints: as many as its headings name years, when
    rows of that many figures are printed; else the most common count (the larger on a tie).
    A row may carry a figure in its label ("(Note 7)") or leave a column blank."""
    counts = Counter(_figure_count(r) for r in rows if _is_data(r))
    if not counts:
        return 0
    common = max(counts, key=lambda n: (counts[n], n))
    if _positional_years(header, common) is not None:
        return common  # years beside change columns: the rows print both
    named = len(_years_in(header))
    if named in counts and (counts[named] >= 2 or counts[named] == max(counts.values())):
        return named  # a tie goes to the headings (a row garbled at a page's foot is no column)
    return max(counts, key=lambda n: (counts[n], n))


def _header_text(rows: Sequence[_Printed], first_data: int) -> str:
    head = rows[max(0, first_data - MAX_HEADER_LINES):first_data]
    return "\n".join(" ".join([r.label, *r.cells]) for r in head)


def _years_in(text: str) -> list[int]:
    return [int(y) for y in STATEMENT_YEAR_RE.findall(text)]


CHANGE_HEADING = "% change"
# what heads a column of changes beside the periods: "% Incr. / (Decr.)", "% Change"
CHANGE_TOKEN_RE = re.compile(r"\(?(?:decr|incr|change|chg)\.?\)?|%|/", re.I)


def _positional_years(header: str, width: int) -> list[int | None] | None:
    """A heading line of one token per column, years beside change columns ("2023 2022
    (Decr.) 2023 2022 (Decr.)": Pfizer's 2023 Q2 release): each column's year, None for a
    change column; None when no line reads so."""
    for line in header.split("\n"):
        tokens = line.split()
        if len(tokens) != width:
            continue
        years = [int(t) if STATEMENT_YEAR_RE.fullmatch(t) else None for t in tokens]
        if sum(y is not None for y in years) >= 2 and None in years and all(
                y is not None or CHANGE_TOKEN_RE.fullmatch(t) for y, t in zip(
                    years, tokens, strict=True)):
            return years
    return None


def _with_change_columns(header: str, width: int) -> list[Column] | None:
    """The columns of a statement that prints a change column beside its periods: the
    periods read as :func:`read_columns` reads them, the change columns named so."""
    years = _positional_years(header, width)
    if years is None:
        return None
    periods = iter(read_columns(header, sum(
        y is not None for y in years), changes=False))
    return [next(periods) if y is not None else Column(heading=CHANGE_HEADING)
            for y in years]


def read_columns(header: str, width: int, changes: bool = True) -> list[Column]:
    """The columns' years and durations from the heading text above the first row of figures.

    Years are read in print order; when they are ``width`` (or the last ``width`` of them, a
    title may name a year first) they head the columns in order. Duration captions split the
    columns evenly in print order ("Three Months Ended ... Six Months Ended" over 2023 2022
    2023 2022). A heading without years leaves the columns unnamed (year None).
    """
    if changes and (with_changes := _with_change_columns(header, width)) is not None:
        return with_changes
    years = _years_in(header)
    if len(years) > width:
        years = years[-width:]
    captions: list[tuple[int, int]] = []
    for pattern, span in DURATIONS:
        captions.extend((m.start(), span) for m in pattern.finditer(header))
    captions.sort()
    durations = [m for _, m in captions]
    columns: list[Column] = []
    for i in range(width):
        year = years[i] if len(years) == width else None
        months: int | None = None
        if durations and width % len(durations) == 0:
            months = durations[i // (width // len(durations))]
        elif durations and len(set(durations)) == 1:
            months = durations[0]
        columns.append(Column(heading=_heading(header, year, months), year=year, months=months))
    return columns


def _heading(header: str, year: int | None, months: int | None) -> str:
    if year is None:
        return " ".join(header.split())[:80]
    if months is None:
        return str(year)
    return f"{'year' if months == 12 else f'{months} months'} {year}"


def read_units(text: str) -> tuple[str, float]:
    """The units line and its scale: "(In millions, except per share data)" -> 1e6."""
    for line in text.split("\n"):
        for pattern, scale, _ in SCALES:
            if pattern.search(line) and len(line) < 200:
                return line.strip(), scale
    return "", 1.0


def _headings_run_on(row: _Printed) -> tuple[_Printed, str]:
    """The first row of figures of a statement printed as run-on lines carries the headings
    before it ("2022 2021 2020 Net sales $ 18,992.8 ..."; General Mills 2022): what runs up to
    its last year is headings, the rest the row."""
    years = list(STATEMENT_YEAR_RE.finditer(row.label))
    if row.from_table or not years:
        return row, ""
    cut = years[-1].end()
    label = row.label[cut:].strip(" ,")
    if not label:
        return row, ""
    head = row.label[:cut]
    quote = row.quote[row.quote.find(label):] if label in row.quote else row.quote
    return row.model_copy(update={"label": label, "quote": quote}), head


def _annual_by_dates(columns: Sequence[Column]) -> bool:
    """Flows headed by their end dates alone (Kraft Heinz: "December 28, 2019 | December 29,
    2018 | December 30, 2017"): three consecutive years side by side are an annual report's
    fiscal years; a quarterly statement always names its duration."""
    years = [c.year for c in columns]
    return (
        len(columns) >= 3 and all(c.months is None for c in columns) and None not in years
        and all(a - b == 1 for a, b in zip(years, years[1:], strict=False))  # type: ignore[operator]
    )


def _headings_elsewhere(printed: Sequence[_Printed], width: int) -> list[Column] | None:
    """Headings the PDF gives out of reading order (MGM 2022 lists "Year Ended December 31, /
    2022 2021 2020" after its table): a line that names exactly one year per column, read with
    the line before it."""
    for at, item in enumerate(printed):
        text = " ".join([item.label, *item.cells])
        if _is_data(item) or len(_years_in(text)) != width or len(text) > 80:
            continue
        before = " ".join([printed[at - 1].label, *printed[at - 1].cells]) if at else ""
        columns = read_columns(f"{before}\n{text}", width)
        if all(c.year is not None for c in columns):
            return columns
    return None


def read_tables(page: Page, statement: StatementKind) -> list[StatementTable]:
    """The statement's tables printed on one page: one, or one per block when the page stacks
    blocks of other periods, each under its own duration caption (Ulta's Q4 release: "13 Weeks
    Ended" over the quarter, "52 Weeks Ended" over the year, each with its date headings).

    A page of text whose lines mostly end inside the next row's label is read as one run of
    text (:func:`_wraps_rows`), when that gives columns of a year."""
    tables = _tables_of(page, statement, _printed_rows(page, statement))
    if page.tables or not _wraps_rows(page.lines):
        return tables
    wrapped = _tables_of(page, statement, _wrapped_rows(page))
    return wrapped if _dated(wrapped) else tables


def _dated(tables: Sequence[StatementTable]) -> bool:
    """Some column of the tables names its year: the rows were read under their headings."""
    return any(c.year is not None for t in tables for c in t.columns)


LABEL_PIECE_WORDS = 6  # a label's piece wrapped in a narrow column: a sentence's line is longer


def _wraps_rows(lines: Sequence[str]) -> bool:
    """The PDF gave the page as rows run together and wrapped at the page's width: most lines
    that print figures go on after them with words, the next row's label ("... Depreciation
    1,130 1,167 971 Amortization of purchased"), or labels are wrapped over lines that go on in
    lower case ("Net cash provided" / "by operating" / "activities 2,809"), where a statement
    prints a row to a line and its figures end it."""
    with_figures = wrapping = 0
    tokens_of = [_tokens(line) for line in lines]
    for tokens, following in zip(tokens_of, [*tokens_of[1:], []], strict=True):
        figures = [at for at, token in enumerate(tokens) if _is_figure(token)]
        with_figures += bool(figures)
        wrapping += bool(figures) and figures[-1] < len(tokens) - 1
        wrapping += (0 < len(tokens) <= LABEL_PIECE_WORDS and not figures and bool(following)
                     and following[0][:1].islower())
    return wrapping * 2 > with_figures > 0


def _wrapped_rows(page: Page) -> list[_Printed]:
    """The page's lines joined into one text, read as a run of rows (Corning 2015's cash flow
    statement: "... Depreciation 1,130 1,167 971 Amortization of purchased" / "intangibles 54
    33 31 Restructuring, ...")."""
    return _run_on_rows(" ".join(line.strip() for line in page.lines if line.strip()))


def _tables_of(page: Page, statement: StatementKind,
               printed: list[_Printed]) -> list[StatementTable]:
    """The tables of one reading of the page's rows (a line at a time, or as one run)."""
    tables: list[StatementTable] = []
    for kind, rows in _by_title(printed, statement):
        for block in _stacked_blocks(rows):
            if (table := _read_block(page, kind, block)) is not None:
                table.first_row = sum(len(t.rows) for t in tables)
                tables.append(table)
    return tables


def _by_title(printed: list[_Printed], statement: StatementKind
              ) -> list[tuple[StatementKind, list[_Printed]]]:
    """The page's rows cut where another statement's title follows rows of figures (Costco's Q3
    release: the balance sheet opens under the income statement), each part with its kind."""
    parts: list[tuple[StatementKind, list[_Printed]]] = [(statement, [])]
    figures_in_part = False
    for row in printed:
        kind = None if row.cells else statement_title(row.quote)
        if kind in PERIOD_STATEMENTS and kind != parts[-1][0] and figures_in_part:
            parts.append((kind, []))
            figures_in_part = False
        parts[-1][1].append(row)
        figures_in_part = figures_in_part or _is_data(row)
    return parts


def _stacked_blocks(printed: list[_Printed]) -> list[list[_Printed]]:
    """The page's rows cut where a duration caption ("52 Weeks Ended") heads rows of figures
    again after rows of figures: each block is read with its own headings."""
    data = [_is_data(row) for row in printed]
    last_of_all = max((i for i, d in enumerate(data) if d), default=-1)
    cuts, last_data = [0], None
    for i, row in enumerate(printed):
        if data[i]:
            last_data = i
        elif last_data is not None and i < last_of_all and any(
                p.search(" ".join([row.label, *row.cells])) for p, _ in DURATIONS):
            cuts.append(last_data + 1)
            last_data = None
    return [printed[a:b] for a, b in zip(cuts, [*cuts[1:], len(printed)], strict=True)]


def _read_block(page: Page, statement: StatementKind,
                printed: list[_Printed]) -> StatementTable | None:
    """One block of a statement's page: its headings, columns and rows."""
    data_positions = [i for i, r in enumerate(printed) if _is_data(r)]
    if not data_positions:
        return None
    first = data_positions[0]
    printed[first], headings = _headings_run_on(printed[first])
    header = "\n".join([_header_text(printed, first), headings])
    width = _width(printed, header)
    if width == 0:
        return None
    units, scale = read_units(header)
    if not units:  # printed after the table (Pfizer's 2023 Q2 release: "(millions, ...)")
        units, scale = read_units("\n".join(
            r.quote for r in printed if not r.cells and PARENTHESIZED_RE.fullmatch(r.quote)))
    columns = read_columns(header, width)
    if any(c.year is None for c in columns):
        columns = _headings_elsewhere(printed, width) or columns
    if statement != "balance_sheet" and _annual_by_dates(columns):
        columns = [c.model_copy(update={"months": 12, "heading": _heading("", c.year, 12)})
                   for c in columns]
    rows: list[StatementRow] = []
    group = ""
    captions = _OpenCaptions()
    for item in _captions_before(printed, first):
        captions.open(item.label)
    wrapped = ""  # a label printed over two lines, its first line ending mid-phrase
    for at, item in enumerate(printed[first:], start=first):
        pieces = [(item.label, item.cells)]
        if sum(_is_figure(t) for t in _tokens(f"{item.label} {' '.join(item.cells)}")) > width:
            pieces = split_run_on_line(f"{item.label} {' '.join(item.cells)}", width)
        for label, cells in pieces:
            figures = [c for c in cells if c]
            label, wrapped = f"{wrapped} {label}".strip(), ""
            # a lone dash after the label's words ends its phrase ("... depreciation -")
            dash = len(figures) == 1 and len(cells) < width and NIL_RE.fullmatch(figures[0])
            whole = f"{label} {figures[0]}" if dash else label
            if (not figures or dash) and label and at + 1 < len(printed) and _wraps_into(
                    whole, printed[at + 1]):
                wrapped = whole
                continue
            if not figures:
                if label:
                    captions.open(label)
                    group = label.rstrip(":").strip() if label.endswith(":") or len(label) < 60 \
                        else group
                continue
            if not label:  # a total under a rule, printed without its label (MGM)
                if len(figures) < width:
                    continue  # a bare page number ("56") under the last row is no total
                closed = captions.close_earliest()
                if closed is None:
                    continue
                label = f"Total {closed}"
            elif TOTAL_RE.match(label):
                captions.close_matching(label)
            if not _is_data(_Printed(label=label, cells=cells, quote="", from_table=False)):
                continue  # a date heading or furniture between the rows
            if len(cells) < width:  # a text row that left columns blank: right-aligned
                cells = [""] * (width - len(cells)) + cells
            cells = _without_note_marks(cells, width)
            cells = cells[-width:] if len(cells) > width else cells
            values = [parse_figure(c) if c else None for c in cells]
            quote = item.quote if len(pieces) == 1 else f"{label} {' '.join(cells)}"
            rows.append(StatementRow(
                label=label, group=group, cells=cells, values=values, quote=quote,
                total=bool(TOTAL_RE.match(label)),
            ))
            captions.add_row()
    if not rows:
        return None
    title = next((line.strip() for line in page.lines[:8] if line.strip()), "")
    return StatementTable(page=page.page_index, statement=statement, title=title, units=units,
                          scale=scale, columns=columns, rows=rows)


def _wraps_into(label: str, following: _Printed) -> bool:
    """Whether a label printed without figures goes on in the next row, which prints them:
    the label stops mid-phrase, or the next one opens with a figure or in lower case
    (Corning's "Property, plant and equipment, net of accumulated depreciation -" over
    "$13,663 and $12,995 (Note 9) 15,742 15,337"), never a caption ("Current assets:")."""
    if not following.cells or label.endswith(":"):
        return False
    opening = following.label[:1]
    return bool(LABEL_CARRIES_ON_RE.search(label)) or bool(re.match(r"[$(\da-z]", opening))


def _without_note_marks(cells: list[str], width: int) -> list[str]:
    """A row of more cells than columns whose figures are in dollars and cents loses the bare
    digit a superscript note mark was read as ("$ 0.29 3 $ 1.51 $ 1.69": Coca-Cola's basic
    EPS with note 3 after it) and the note marks printed in parentheses ("(1) $ 0.36 $ 0.52
    $ 0.39 (1)": Corning 2015's dividends declared per share, its note on the quarter declared
    the year before), so the figures keep their columns."""
    if len(cells) <= width or not any(in_cents(c) for c in cells):
        return cells
    kept = [c for c in cells if not re.fullmatch(r"\(?\d\)?|\([a-z]\)", c.strip())]
    return kept if len(kept) >= width else cells


def _captions_before(printed: Sequence[_Printed], first: int) -> list[_Printed]:
    """The caption rows right above the first row of figures ("ASSETS", "Current assets"),
    back to the headings (a row with a year, a units line or a title)."""
    out: list[_Printed] = []
    for item in reversed(printed[max(0, first - 4):first]):
        text = " ".join([item.label, *item.cells])
        if item.cells and any(item.cells) or STATEMENT_YEAR_RE.search(text) \
                or read_units(text)[1] != 1.0 or len(item.label) > 60 or not item.label:
            break
        out.insert(0, item)
    return out


class _OpenCaptions:
    """Caption rows ("Revenues", "Current assets") not yet closed by their total: an unlabelled
    total row closes the innermost caption with rows of its own under it (Costco's "PROPERTY
    AND EQUIPMENT" inside "ASSETS"), else the earliest one still open ("Total Revenues"), as a
    statement's layout reads."""

    def __init__(self) -> None:
        self.open_captions: list[str] = []
        self.rows: list[int] = []  # rows printed right under each open caption

    def open(self, label: str) -> None:
        self.open_captions.append(label.rstrip(":").strip())
        self.rows.append(0)

    def add_row(self) -> None:
        if self.rows:
            self.rows[-1] += 1

    def close_earliest(self) -> str | None:
        if not self.open_captions:
            return None
        held = [i for i, n in enumerate(self.rows) if n >= 2]  # a total adds two rows or more
        at = held[-1] if held else 0
        closed = self.open_captions[at]
        del self.open_captions[at:], self.rows[at:]
        return closed

    def close_matching(self, total: str) -> None:
        words = set(re.findall(r"[a-z]+", total.lower())) - {"total", "and", "net"}
        for i in range(len(self.open_captions) - 1, -1, -1):
            if words & set(re.findall(r"[a-z]+", self.open_captions[i].lower())):
                del self.open_captions[i:], self.rows[i:]
                return


def read_statement_tables(
    pages: Sequence[Page], kinds: Sequence[StatementKind | None]
) -> list[StatementTable]:
    """Every primary statement page's table; a continuation page without its own units line
    or headings takes them from the page before (a balance sheet over two pages)."""
    out: list[StatementTable] = []
    previous: StatementTable | None = None
    for page, kind in zip(pages, kinds, strict=True):
        if kind not in PERIOD_STATEMENTS:
            if not prints_no_word(page_lines(page)):  # a blank page between two is no break
                previous = None
            continue
        for table in read_tables(page, kind):
            _continue_from(previous, table)
            out.append(table)
            previous = table
    return out


def _continue_from(previous: StatementTable | None, table: StatementTable) -> None:
    """A continuation page without its own units line or headings takes them from the table
    before it (a balance sheet over two pages)."""
    if previous is None or previous.statement != table.statement:
        return
    if not table.units:
        table.units, table.scale = previous.units, previous.scale
    if len(table.columns) == len(previous.columns) and (
            all(c.year is None for c in table.columns)
            or ([c.year for c in table.columns] == [c.year for c in previous.columns]
                and all(c.months is None for c in table.columns))):
        table.columns = previous.columns  # its durations too (Lockheed 2023 Q2)


_BLOCK_TOTAL_RE = re.compile(r"^\s*total\b", re.I)
_BARE_TOTAL_RE = re.compile(r"^\s*(?:total|sub-?total)\s*(?:\(\w{1,2}\))?\s*:?\s*$", re.I)
# a note marker printed after a label or a heading: "Net sales (1)", "Other (c)", "Pet [2]"
TRAILING_MARKER_RE = re.compile(r"\s*(?:\(\w{1,2}\)|\[\w{1,3}\]|\*+)\s*$")


# a caption printed before the first row's label, on its line: "Net sales: North America Retail"
INLINE_CAPTION_RE = re.compile(r"^\s*(?P<caption>[A-Za-z][A-Za-z ,&'’-]{1,40}):\s+(?P<label>\S.*)$")


def caption_label(cells: Sequence[str]) -> str | None:
    """A caption row's words ("Net sales:" over the segments' rows, "North America:" over its
    countries, "For the year ended December 31, 2022" over a block of a segment note that
    prints a column per segment): a label ending in a colon, or naming a period and nothing
    else, with every other cell blank; else None."""
    label = cells[0].strip() if cells else ""
    if len(label) < 2 or any(c.strip() for c in cells[1:]):
        return None
    if label.endswith(":"):
        return label[:-1].strip()
    return label if PERIOD_CAPTION_RE.match(label) else None


class CaptionsInForce:
    """Reads a table's rows in order and says which caption each is printed under ("" for
    none, and for a caption row itself): a caption holds until the next one, or through the
    total row that closes its block ("Total North America" under "North America:"), so rows
    after that total are under none; a period's caption holds to the next caption, and its
    period (:attr:`period`) to the next period's, over the captions nested in its block
    (Coca-Cola's segment note: "2019" over "Net operating revenues:" over its rows).

    ``measure``, when the caller knows the measures: a row of words alone, no colon, that is
    one ("Net sales", then "Operating profit", over the same segments) captions the rows under
    it too, up to the row that names it again ("Total net sales", "Net cash provided by
    operating activities") or the next such heading."""

    def __init__(self, measure: Callable[[str], bool] | None = None) -> None:
        self.current = ""
        self.period = ""
        self.measure = measure
        self.held = False  # the caption in force is a measure's heading
        self.closed = False  # the row before closed a measure's block
        self.totaled = False  # a total was printed in the measure's block in force

    def split(self, cells: Sequence[str]) -> tuple[str, list[str]]:
        """A row's caption (:meth:`row`) and its cells, a caption printed on the block's first
        row ("Net sales: North America Retail $10,196.9", General Mills' segment note) taken
        off that row's label and put in force for the rows under it."""
        inline = INLINE_CAPTION_RE.match(cells[0]) if cells else None
        if inline is None or not any(c.strip() for c in cells[1:]):
            return self.row(cells), list(cells)
        self.current, self.held = inline["caption"].strip(), False
        label = [inline["label"].strip(), *cells[1:]]
        return self.row(label), label

    def row(self, cells: Sequence[str]) -> str:
        caption = caption_label(cells)
        if caption is not None:
            self.current, self.held = caption, False
            if PERIOD_CAPTION_RE.match(caption):
                self.period = caption
            return ""
        closed, self.closed = self.closed, False
        if self._heading(cells, closed or self.totaled):
            self.current, self.held, self.totaled = cells[0].strip(), True, False
            return ""
        now = self.current
        label = " ".join(cells[0].lower().split()) if cells else ""
        total = bool(cells) and _BLOCK_TOTAL_RE.match(cells[0]) is not None
        # a measure's heading closes where its block names it again or at a bare "Total",
        # never at a part's total inside it (Nike's segment note: "Total NIKE Brand" over
        # Converse, in the block that "TOTAL NIKE, INC. REVENUES" closes); a caption at its
        # total, but a period's, whose block holds its totals and the rows after them
        closes = (now.lower() in label or (total and _BARE_TOTAL_RE.match(label) is not None)
                  ) if self.held else (total and not PERIOD_CAPTION_RE.match(now))
        if closes:
            self.closed = self.held
            self.current, self.held = "", False
        self.totaled = self.held and (self.totaled or total)
        return now

    def _heading(self, cells: Sequence[str], closed: bool = False) -> bool:
        """Whether the row is a measure's heading: its label alone, a measure, where no
        caption but another such heading is in force; or any label alone after a total of a
        measure's block (Nike's segment note: "EARNINGS BEFORE INTEREST AND TAXES" under
        "TOTAL NIKE, INC. REVENUES", "ADDITIONS TO PROPERTY, PLANT AND EQUIPMENT" under
        "TOTAL NIKE, INC. INCOME BEFORE INCOME TAXES": measures the vocabulary need not
        know), the next block's heading."""
        label = cells[0].strip() if cells else ""
        return (self.measure is not None and bool(label) and not any(c.strip() for c in cells[1:])
                and (not self.current or self.held) and (closed or self.measure(label)))


def captions_in_force(rows: Sequence[Sequence[str]]) -> list[str]:
    """The caption of every row of a table (:class:`CaptionsInForce`)."""
    reader = CaptionsInForce()
    return [reader.row(cells) for cells in rows]


def headed_markdown(lines: Sequence[str], above: Sequence[str], width: int | None = None
                    ) -> list[str]:
    """A markdown table whose columns' years and units are printed above it or in its first
    rows, with a header row that names them (``| USD millions | 2022 | 2021 |``), so that a row
    read alone keeps its periods ("Operating profit: 2022: 11,512; 2021: 11,162").

    Only when the headings name one year per column; the printed rows all stay, in order, the
    old header row first (no printed word is dropped): the header is the reader's, the rows are
    the page's. ``width``: the value columns, when the caller knows them (rows read under a
    ruled header, :mod:`rag_assets.core.chunks.header_rows`), else read from the rows.
    """
    if len(lines) < 3:
        return list(lines)
    rows = [markdown_cells(line) for line in lines if not re.fullmatch(r"\|(?:-+\|)+", line)]
    printed = [_Printed(label=r[0], cells=r[1:], quote=" ".join(c for c in r if c),
                        from_table=True) for r in rows]
    data = [i for i, p in enumerate(printed) if _is_data(p)]
    if not data or (data[0] > 0 and _names_its_columns(rows[0])):
        return list(lines)
    header = "\n".join([*above, _header_text(printed, data[0])])
    width = width or _width(printed, header)
    columns = read_columns(header, width)
    full = max(len(r) for r in rows)
    _, scale = read_units(header)
    first = UNIT_NAMES.get(scale, rows[0][0] if data[0] > 0 else "")

    def headed(names: Sequence[str]) -> list[str]:
        new_header = [first, *[""] * (full - 1 - width), *names]
        return [markdown_row(new_header), markdown_rule(full), *(markdown_row(r) for r in rows)]

    if width < 1:
        return list(lines)
    if any(c.year is None for c in columns) or len({c.year for c in columns}) < width:
        # unnamed columns, or a year over several: the names spanning them say which is which
        names = two_level_headings(rows[:data[0]], width, full)
        if names is not None or any(c.year is None for c in columns):
            return list(lines) if names is None else headed(names)
    named = [r for r in rows[:data[0]] if _prints_years(r[1:], [c.year for c in columns])]
    if named:
        # the header rows name the columns already: the first gains the units if none has them
        if scale == 1.0 or read_units(" ".join(rows[0]))[1] != 1.0:
            return list(lines)
        first_row = [f"{rows[0][0]} ({UNIT_NAMES[scale]})".strip(), *rows[0][1:]]
        return [markdown_row(first_row), *lines[1:]]
    return headed([column_name(c) for c in columns])


def _prints_years(cells: Sequence[str], years: Sequence[int | None]) -> bool:
    """Whether a header row prints the columns' years, each in a cell of its own, in order:
    the row names the columns where it prints them, which need not be the last cells (MGM's
    release prints "2022", "2021", then the "%" of a "% Change" wrapped under it)."""
    at = 0
    for year in years:
        at = next((i + 1 for i in range(at, len(cells)) if str(year) in cells[i]), -1)
        if at < 0:
            return False
    return True


def _names_its_columns(row: Sequence[str]) -> bool:
    """A header row that names every column without a digit ("Walmart U.S.", ..., "Consolidated"
    over a segment note's blocks of fiscal years), or by a duration and no year (Costco's "12
    Weeks", "12 Weeks Adjusted*", "36 Weeks"): its columns are those names, not the periods
    printed above or between its rows (a lead-in's "fiscal 2023" names no column)."""
    return len(row) > 2 and all(cell.strip() and (not re.search(r"\d", cell) or (
        any(p.search(cell) for p, _ in DURATIONS) and not STATEMENT_YEAR_RE.search(cell)))
        for cell in row[1:])


def spanned(cells: Sequence[str]) -> list[str]:
    """A header row's cells, each blank one taking the heading printed before it: a caption
    printed once over the columns it spans ("Year ended December 31," over three years)."""
    out: list[str] = []
    for cell in cells:
        out.append(cell or (out[-1] if out else ""))
    return out


def two_level_headings(head: Sequence[Sequence[str]], width: int, full: int
                       ) -> list[str] | None:
    """Column names of a header printed on two rows: a top row of cells each spanning as many
    columns (its cell printed over the first, the rest blank), and under it a heading per
    column. Years over measures (Corning's geographic table: "2022" over "Net sales (1)" and
    "Long-lived assets (2)", then 2021, then 2020) give "Net sales 2022", "Long-lived assets
    2022", ...; names over periods (JPMorgan's segment results: "Consumer & Community Banking"
    over "2021 | 2020 | Change", then "Corporate & Investment Bank" ...) give "Consumer &
    Community Banking three months 2021", ..., with the duration the header's first cell names.
    The year always comes last. None unless every value column gets a top cell and a heading."""
    value_columns = range(full - width, full)
    for y in range(len(head) - 1):
        top_row, lower_row = head[y], head[y + 1]
        tops: list[str | None] = [t or None for t in spanned(
            [top_row[j].strip() if j < len(top_row) else "" for j in value_columns])]
        lowers = [lower_row[j].strip() if j < len(lower_row) else "" for j in value_columns]
        spans = Counter(tops)
        if None in spans or len(spans) < 2 or len(set(spans.values())) != 1 or not all(lowers):
            continue
        if all(STATEMENT_YEAR_RE.fullmatch(t or "") for t in tops):  # years over measures
            if all(parse_figure(m) is None and not STATEMENT_YEAR_RE.search(m) for m in lowers):
                return [f"{TRAILING_MARKER_RE.sub('', m)} {top}" for m, top in zip(
                    lowers, tops, strict=True)]
            continue
        span = width // len(spans)
        repeated = all(lowers[i:i + span] == lowers[:span] for i in range(0, width, span))
        if (any(parse_figure(t or "") is not None or any(p.search(t or "") for p, _ in DURATIONS)
                for t in tops) or not repeated
                or not any(STATEMENT_YEAR_RE.fullmatch(m) for m in lowers)):
            continue  # amounts or durations over the columns are no names
        durations = [m for p, m in DURATIONS if p.search(top_row[0] if top_row else "")]
        during = duration_words(durations[0]) if len(durations) == 1 else ""
        return [f"{TRAILING_MARKER_RE.sub('', top or '')} "
                f"{during if STATEMENT_YEAR_RE.fullmatch(m) else ''}{m}" for top, m in zip(
                    tops, lowers, strict=True)]
    return None
