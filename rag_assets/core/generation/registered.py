"""The securities a filer registers under Section 12(b), read from its cover page's table.

"Which debt securities are registered to trade on a national securities exchange under X's
name?" is answered where Forms 10-K, 10-Q and 8-K require it: the cover page's table of
"Securities registered pursuant to Section 12(b) of the Act", one row per class (its title, its
trading symbol, its exchange). A sentence that retrieval ranks first (Item 5's "our common stock
is listed on the NYSE") names one class of several. Text extraction prints the table either as
rows of cells or as lines where the columns run together ("1.900% Notes Due 2022 WMT22 NYSE"),
and no table model reads the second; the exchanges' names, which end each row, split it. The
words of the table are data (``cover_page.json``, each with its source). The first sentence
names the classes asked (debt, equity, or all), each with its symbol and exchange, or says that
none of the kind asked is registered and names what is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import printed_unit
from rag_assets.core.question.question import Question

COVER_PATH = Path(__file__).with_name("cover_page.json")
INTENT = "registered_securities"
COVER_PAGES = 5  # a 10-K inside an annual report prints its cover after the report's own pages
MAX_BLOCK_CHARS = 4000  # a cover whose table never closes: read no further than a long table


class Pattern(BaseModel):
    pattern: str
    source: str


class CoverWords(BaseModel):
    """``cover_page.json``, validated."""

    doc: list[str] = Field(alias="_doc", min_length=1)
    opens: Pattern
    closes: Pattern
    header: list[Pattern]
    symbol_column: Pattern
    exchanges: list[Pattern]
    symbol: Pattern
    debt: Pattern
    equity: Pattern
    asks_debt: Pattern
    asks_equity: Pattern
    asks_securities: Pattern
    class_words: Pattern


@cache
def _re(field: str, whole_words: bool = False) -> re.Pattern[str]:
    """The pattern (or the alternatives) of one entry of ``cover_page.json``, compiled once;
    ``whole_words``: not inside a word."""
    entry = getattr(cover_words(), field)
    entries = entry if isinstance(entry, list) else [entry]
    body = "|".join(f"(?:{e.pattern})" for e in entries)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)" if whole_words else body,
                      re.IGNORECASE | re.MULTILINE)


class Security(BaseModel):
    """One row of the table: a class of securities, its trading symbol, its exchange."""

    title: str
    symbol: str | None = None
    exchange: str

    def shown(self) -> str:
        listed = ", ".join(x for x in (self.symbol, self.exchange) if x)
        return f"{self.title} ({listed})"


@cache
def cover_words(path: Path = COVER_PATH) -> CoverWords:
    return CoverWords.model_validate(json.loads(path.read_text(encoding="utf-8")))


def cover_table(text: str) -> str | None:
    """The text of a page's Section 12(b) table, header and rows as printed, or None. Where
    nothing is printed between the caption and the next part, text extraction put the table
    elsewhere on the page (General Mills 2015: its header and row after the check boxes): it is
    read from its header ("Title of each class") on."""
    opened = _re("opens").search(text)
    if opened is None:
        return None
    block = _block(text, opened.end())
    if not block:
        header = _re("header", whole_words=True).search(text, opened.end())
        block = _block(text, header.start()) if header else ""
    return block or None


def _block(text: str, start: int) -> str:
    """The text from ``start`` to the cover page's next part, stripped."""
    rest = text[start:start + MAX_BLOCK_CHARS]
    closed = _re("closes").search(rest)
    return (rest[:closed.start()] if closed else rest).strip()


def _cells(line: str, exchange: re.Pattern[str]) -> Security | None:
    """A row extracted as cells: "| 2.100% Notes due 2020 | GIS20 | New York ... |"."""
    cells = [c.strip() for c in line.strip().strip("|").split("|") if c.strip()]
    if len(cells) < 2 or not exchange.search(cells[-1]) or exchange.sub("", cells[-1]).strip(
            " ,;()"):
        return None  # the last cell is the exchanges' names, one or several
    return Security(title=cells[0], symbol=cells[1] if len(cells) > 2 else None,
                    exchange=cells[-1])


@cache
def _symbol_at_end() -> re.Pattern[str]:
    return re.compile(rf"(?:^|\s)({cover_words().symbol.pattern})\s*$", re.IGNORECASE)


def _titled(lines: Sequence[str], has_symbol: bool, exchange: str) -> Security | None:
    """A row from its title's lines, the last ending in its symbol when the table has one."""
    symbol = _symbol_at_end()
    text = " ".join(" ".join(lines).split()).strip(" ,;")
    found = symbol.search(text) if has_symbol else None
    title = text[:found.start()].strip(" ,;") if found else text
    return Security(title=title, symbol=found.group(1) if found else None,
                    exchange=exchange) if title else None


def _by_column(titles: Sequence[str], exchanges: Sequence[str], has_symbol: bool
               ) -> list[Security]:
    """Titles printed as one column, then the exchanges as the next: one exchange per title;
    extra exchanges belong to the first class (the common stock a filer lists twice: 3M's
    NYSE and Chicago); one exchange after several lines is one title printed over them."""
    if len(exchanges) == 1:
        row = _titled(titles, has_symbol, exchanges[0])
        return [row] if row else []
    if len(exchanges) < len(titles):
        return []  # the columns do not pair: read nothing rather than a wrong pairing
    extra = len(exchanges) - len(titles)
    first = Security(title=titles[0], exchange=", ".join(exchanges[:extra + 1]))
    return [first, *(Security(title=t, exchange=e)
                     for t, e in zip(titles[1:], exchanges[extra + 1:], strict=True))]


def securities(block: str) -> list[Security]:
    """Every class the table registers, in the order printed: rows of cells, rows whose
    columns ran together (each ends with its exchange's name, its symbol the word before it
    when the header prints a symbol column), or the columns printed one after the other."""
    exchange = _re("exchanges", whole_words=True)
    header = _re("header", whole_words=True)
    has_symbol = _re("symbol_column").search(block) is not None
    rows: list[Security] = []
    pending: list[str] = []  # title lines whose exchange is not printed yet
    column: list[str] = []  # exchanges printed on lines of their own after the titles
    # the header first, over the whole block: "Name of each exchange on" / "which registered"
    for raw in [*header.sub(" ", block).splitlines(), ""]:
        line = raw.strip(" ,;")
        listed = [m.group(0) for m in exchange.finditer(line)]
        if column and (not listed or exchange.sub("", line).strip(" ,;()")):
            rows += _by_column(pending, column, has_symbol)
            pending, column = [], []
        if raw.lstrip().startswith("|"):
            row = _cells(raw, exchange)
            rows += [row] if row else []
        elif not listed:
            pending += [line] if line else []
        elif (before := line[:line.index(listed[0])].strip(" ,;(")):
            row = _titled([*pending, before], has_symbol, ", ".join(listed))
            rows += [row] if row else []
            pending = []
        elif pending:
            column += listed
        elif rows:  # a second exchange, or its tier in parentheses, of the row above
            rows[-1].exchange += f", {', '.join(listed)}"
    return rows


def _asked(question: Question, listed: Sequence[Security]) -> tuple[str, list[Security]]:
    """The kind of class asked ("debt", "equity" or "", with the class words the question
    names: "preferred") and the classes of that kind; the exchanges a question names (and
    "stock exchange") are no kind."""
    exchanges = _re("exchanges", whole_words=True)
    text = re.sub(r"\b(?:stock|securities) exchanges?\b", " ",
                  exchanges.sub(" ", question.ranking_text), flags=re.IGNORECASE)
    debt = _re("asks_debt").search(text) is not None
    equity = _re("asks_equity").search(text) is not None
    kind = "" if debt == equity else "debt" if debt else "equity"
    is_debt = _re("debt")
    asked = [s for s in listed if not kind or (is_debt.search(s.title) is not None) == debt]
    named = _class_words(text)
    if named:
        kind = " ".join(sorted(named))
        asked = [s for s in asked if named <= _class_words(s.title)]
    return kind, asked


def _class_words(text: str) -> set[str]:
    return {m.group(0).lower() for m in _re("class_words").finditer(text)}


def _exchange_named(question: Question) -> str | None:
    named = _re("exchanges", whole_words=True).search(question.ranking_text)
    return named.group(0) if named else None


def _on_exchange(question: Question, asked: Sequence[Security]) -> list[Security]:
    """The classes listed on the exchange a question names, when it names one ("Is X listed on
    the Nasdaq?"): its first word, case aside, in the row's exchange."""
    named = _exchange_named(question)
    if named is None:
        return list(asked)
    key = re.sub(r"^the\s+", "", named.lower()).split()[0]
    return [s for s in asked if key in s.exchange.lower()]


def _read_whole(block: str, listed: Sequence[Security], kind: str) -> bool:
    """Whether the table was read whole for the kind asked: no title of that kind is printed
    in the table beyond the classes read (a row the reader lost says nothing is there)."""
    pattern = _re("debt" if kind == "debt" else "equity" if kind == "equity" else "class_words")
    rest = _re("header", whole_words=True).sub(" ", _re("exchanges", whole_words=True).sub(
        " ", block))  # "The Nasdaq Stock Market" names no class of stock
    for s in listed:
        rest = rest.replace(s.title, " ")
    return not kind or pattern.search(rest) is None


def _named(items: Sequence[Security]) -> str:
    shown = [s.shown() for s in items]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" and {shown[-1]}"


def _first_cover(pages: Sequence[tuple[int, str]]
                 ) -> tuple[int, str, list[Security]] | None:
    """The first of the filing's first pages whose cover table lists a class: its page, the
    table as printed and the classes."""
    for page, text in pages[:COVER_PAGES]:
        block = cover_table(text.replace("\xa0", " "))  # covers space their words with NBSP
        if block and (listed := securities(block)):
            return page, block, listed
    return None


def registered_securities(question: Question, document: str, year: int,
                          pages: Sequence[tuple[int, str]]) -> DirectAnswer | None:
    """The classes registered under Section 12(b) that the question asks about, from the
    filing's cover page, as the first line; None when the question is not about them or no
    cover page in the filing's first pages prints the table."""
    if (INTENT not in question.intents or question.expects == "figure"
            or not _re("asks_securities").search(question.ranking_text)):
        return None
    found = _first_cover(pages)
    if found is None:
        return None
    page, block, listed = found
    kind, asked = _asked(question, listed)
    if question.expects == "yes_no":
        asked = _on_exchange(question, asked)
    where = "registered under Section 12(b) of the Exchange Act"
    if asked:
        said = f"{_named(asked)}, {where}."
        text = f"Yes: {said}" if question.expects == "yes_no" else said
    elif _read_whole(block, listed, kind):
        on = _exchange_named(question) if question.expects == "yes_no" else None
        text = (f"{'No' if question.expects == 'yes_no' else 'None'}: no {kind} securities are "
                f"{where}{f' on {on}' if on else ''}; the cover page lists {_named(listed)}.")
    else:
        return None
    unit = printed_unit(document, year, page, block)
    return DirectAnswer(kind="securities", units=[unit], text=text)
