"""What a figure is: the one grammar the statement reader, the PDF table reader, the footnote
finder and the answer checks share.

A figure is an amount (digits grouped by commas in threes, ``1,234,567``, or not; decimals after
a point; a European decimal comma before a percent sign, ``8,5 %``), with an optional currency
sign (``$ € £``), sign (``-``), parentheses for a negative (``(1,234)``) and a percent sign. A
nil is a dash standing for zero (``—``); ``n/a`` and ``NM`` are cells without a figure. Years
are figures too: readers that must tell a year heading from an amount do so with a year rule of
:mod:`rag_assets.core.text.years`.

Forms: :data:`FIGURE_TOKEN_RE` (fullmatch: a whole token or cell is a figure),
:data:`FIGURE_RE` (figures found in running text), :func:`parse_figure` (a cell's value),
:func:`trailing_cells` (the cells a row printed as text ends with), :func:`in_cents` (a
per-share cell), and :data:`INTEGER` /
:data:`DECIMALS`, the pieces the value parsers of answers and citations group.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.text.markers import SUPERSCRIPT_DIGITS

INTEGER = r"\d{1,3}(?:,\d{3})+(?!\d)|\d+"  # 1,234,567 or 1234567
DECIMALS = r"\.\d+"
# "8,5 %": a European decimal, read only before its percent sign; "1,2" alone is a list of
# notes ("Total deferred tax assets 1,2", Coca-Cola 2017), never a US group of three
DECIMAL_COMMA = r"\d+,\d{1,2}(?=\s?%)"
AMOUNT = rf"(?:{DECIMAL_COMMA}|(?:{INTEGER})(?:{DECIMALS})?)"
CURRENCY_SIGNS = frozenset("$€£")
CURRENCY = rf"[{''.join(sorted(CURRENCY_SIGNS))}]"
# an amount of dollars as prose writes it: "$645 million", "$8.6 billion", "$1,849" (groups "n"
# and "scale"); SCALE_WORDS gives the scale's factor
SCALE_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_AFTER_SIGN = rf"\s?(?P<n>(?:{INTEGER})(?:{DECIMALS})?)(?:\s(?P<scale>thousand|million|billion))?\b"
MONEY = rf"\${_AFTER_SIGN}"
MONEY_RE = re.compile(MONEY)
# an amount in any currency the figures grammar signs ("€300 million", "£45 million"): its sign
# in group "sign", so amounts of two currencies are never added
SIGNED_MONEY_RE = re.compile(rf"(?P<sign>{CURRENCY}){_AFTER_SIGN}")
FIGURE = rf"\(?[-–]?{CURRENCY}?\(?[-–]?{AMOUNT}\)?%?\)?"

# a whole token: "$1,234", "(56)", "12.5%", "$(0.28)", "2028¹" (a note number raised after it)
FIGURE_TOKEN_RE = re.compile(rf"{FIGURE}[{SUPERSCRIPT_DIGITS}]*")
# figures in running text, not inside a word ("Q4", "3M") or another figure
FIGURE_RE = re.compile(rf"(?<![\w.,]){FIGURE}(?![\w])")
NIL_RE = re.compile(r"[—–-]+")  # fullmatch: a dash printed for zero
NIL_IN_TEXT_RE = re.compile(r"(?<!\S)[—–-](?!\S)")
NO_FIGURE_RE = re.compile(r"[-–—]+|n/a|N/A|NM|nm")  # fullmatch: a cell that holds no amount
# a line that prints an amount, not only years or a date's day: a currency sign, a parenthesized
# figure, a group of thousands or decimals ("$ 5", "(12", "1,234", "3.5"); the chunker's test for
# a row of figures between a table and the headings above it
AMOUNT_IN_LINE_RE = re.compile(r"\$|\(\d|\d,\d{3}|\d\.\d")
# an amount a sentence states as one: money, a percentage, a figure with a scale word, basis
# points (not "Note 10", "June 30" or "Item 1A"): what answers "how much"
AMOUNT_STATED_RE = re.compile(rf"{MONEY}|\d\s?%|\d\s?(?:percent|thousand|million|billion|basis "
                              r"points?)\b")
# a figure a line ends with, unless it is a year alone: "Revenue 1,234" and "Growth 5%" end in
# one, the heading "Fiscal 2022" does not
FIGURE_AT_END_RE = re.compile(r"(?<![\d,.])(?!(?:19|20)\d\d$)\d[\d,.]*%?$")
# a letter note marker printed after a cell's figure: "5,645 (a)" (JPMorgan's segment results)
CELL_MARKER_RE = re.compile(r"\s*\([a-z]\)$")


def money_amounts(text: str) -> list[float]:
    """The amounts of dollars a text states, in dollars ("$285.8 million" is 285,800,000)."""
    return [float(m["n"].replace(",", "")) * SCALE_WORDS.get(m["scale"] or "", 1.0)
            for m in MONEY_RE.finditer(text)]


def states_other_amount(text: str, values: Sequence[float]) -> bool:
    """Whether a text states amounts of dollars with their scale words ("$59 million") and
    none is one of ``values`` (in dollars) to the precision printed ("$1.1 billion" is
    1,101 million): it states another measure's level, or a part's. False when it states no
    such amount or no value is known."""
    stated = [m for m in MONEY_RE.finditer(text) if m["scale"]]
    return bool(stated and values) and not any(
        abs(float(m["n"].replace(",", "")) * SCALE_WORDS[m["scale"]] - abs(value))
        <= 0.5 * 10 ** -len(m["n"].partition(".")[2]) * SCALE_WORDS[m["scale"]]
        for m in stated for value in values)


def is_figure(token: str) -> bool:
    """The whole ``token`` is a figure (:data:`FIGURE_TOKEN_RE`)."""
    return bool(FIGURE_TOKEN_RE.fullmatch(token))


def in_cents(cell: str) -> bool:
    """The cell is a figure of dollars and cents ("$ 0.29", "(0.65)"): a per-share amount,
    never a share count or an amount in millions."""
    text = cell.strip().replace(" ", "")
    return is_figure(text) and bool(re.search(r"\.\d{2}\)?$", text))


# a note number after a cell's figure: raised ("(17.5)⁵") or a lone digit set apart ("53.5 1")
_TRAILING_MARK_RE = re.compile(rf"[{SUPERSCRIPT_DIGITS}]+$|(?<=[\d)%])\s+\d$")


def parse_figure(cell: str) -> float | None:
    """A statement cell's value: ``$ (1,234.5)`` -> -1234.5, ``(6) %`` -> -6.0, ``5,645 (a)``
    -> 5645.0 (a note marker after it, raised ``(17.5)⁵`` or set apart ``53.5 1``), a nil
    dash -> 0.0, else None."""
    text = _TRAILING_MARK_RE.sub("", CELL_MARKER_RE.sub("", cell.strip()))
    text = text.replace("$", "").replace(" ", "")
    if not text:
        return None
    if NIL_RE.fullmatch(text.rstrip("%")):  # "—", "— %": nil
        return 0.0
    negative = text.startswith("(") or text.startswith("-")
    digits = text.strip("()-%")
    if not re.fullmatch(rf"(?:{INTEGER})(?:{DECIMALS})?", digits):
        return None
    value = float(digits.replace(",", ""))
    return -value if negative else value


def trailing_cells(text: str) -> tuple[str, list[str]]:
    """A row printed as a line of text, as its label and the cells it ends with, each cell as
    printed so that a quote of the row stays the page's words: a figure with the currency sign
    before it and a percent sign or a letter note marker after it (``$ 12,517``, ``(6) %``,
    ``5,645 (a)``), or a cell that holds no amount (``NM``, ``—``). JPMorgan's segment results
    print ``Net income/(loss) 3,100 5,645 (a) (45) 3,725 ...`` under a ruled header."""
    tokens = text.split()
    cells: list[str] = []
    end = len(tokens)
    while end:
        at = end - 1
        if at and re.fullmatch(r"\([a-z]\)", tokens[at]):
            at -= 1
        if at and tokens[at] == "%":
            at -= 1
        if not (is_figure(tokens[at]) or NO_FIGURE_RE.fullmatch(tokens[at])):
            break
        if at and re.fullmatch(CURRENCY, tokens[at - 1]):
            at -= 1
        cells.insert(0, " ".join(tokens[at:end]))
        end = at
    return " ".join(tokens[:end]), cells


def count_of(noun: str) -> str:
    """The pattern of a number of ``noun`` as a sentence prints it, the number in group ``n``:
    "858 warehouses", "2,601 retail stores", "1 store" (the noun's root: "stores" -> "store")."""
    stem = re.escape(noun[:-1] if noun.endswith("s") else noun)
    return rf"(?<![\w$.,])(?P<n>\d[\d,]*)(?:\.\d+)?\s+(?:[a-z-]+\s+){{0,2}}?{stem}s?"


# a table's nil as a token ("—"), a currency or percent sign printed apart from its figure
# ("$ 58,100"), and a note's or a tier's marker after a label ("(1)", "(a)", "Tier 1")
NIL_TOKENS = frozenset({"—", "–", "-"})
SIGN_TOKEN_RE = re.compile(r"^[$€£%]$")
MARKER_TOKEN_RE = re.compile(r"^\(\w{1,2}\)$|^\d{1,2}$")
# a subtotal's figures heading a block a page's reader took for a table of its own ("2,146,650
# 2,137,176 4,322,802 3,800,068"): a thousands figure and two more after it
FIGURES_RUN_RE = re.compile(r"\d,\d{3}(?:\s+\$?\s*\(?\d[\d,]*\)?){2,}")

