"""The lexical reading of answers and evidence: normalized text, printed figures, content words.

The answer metrics judge without a model, so every rule works on what is printed: facts are
matched in :func:`normalize_text`'s form, amounts through :func:`figures` (value, sign, percent,
scale) and wording through :func:`content_words` (stopwords removed, light stemming).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

from rag_assets.core.text.figures import DECIMALS, INTEGER
from rag_assets.core.text.periods import MONTH_RE

# --------------------------------------------------------------------------------- normalization

_QUOTES = str.maketrans({"‘": "'", "’": "'", "‛": "'", "′": "'", "“": '"', "”": '"',
                         "„": '"', "″": '"', "–": "-", "—": "-", "−": "-"})


def normalize_text(text: str) -> str:
    """The form facts are matched in: Unicode NFKC (no-break spaces become spaces), curly quotes
    and dashes made plain, case folded, whitespace collapsed, no space between a currency sign
    and its figure (``$ 32,765`` -> ``$32,765``) or between a figure and ``%`` (``23.4 %`` ->
    ``23.4%``), and no thousands separators (``32,765`` -> ``32765``)."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    text = " ".join(text.split())
    text = re.sub(r"([$€£])\s+(?=\d)", r"\1", text)
    text = re.sub(r"(?<=\d)\s+%", "%", text)
    return re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)


# --------------------------------------------------------------------------------------- figures

SCALES = {"thousand": Decimal(10) ** 3, "k": Decimal(10) ** 3, "million": Decimal(10) ** 6,
          "m": Decimal(10) ** 6, "mm": Decimal(10) ** 6, "mn": Decimal(10) ** 6,
          "billion": Decimal(10) ** 9, "b": Decimal(10) ** 9, "bn": Decimal(10) ** 9,
          "trillion": Decimal(10) ** 12}

# a figure with its sign, currency, percent and scale words, its amount in the one grammar's
# pieces (core/text/figures)
_VALUE_RE = re.compile(
    r"""
    (?<![\w.,%])                                       # not inside a word or another figure:
                                                       # "4.5%-5.5%" is a range, no minus 5.5%
    (?P<open>\()?
    (?P<minus>[-−](?=(?:US\$|\$|€|£)?\d))?           # glued: "2019 - 2021" is a range
    (?P<currency>US\$|\$|€|£|USD\s|EUR\s)?\s?
    (?P<number>INTEGER)(?P<decimals>DECIMALS)?
    (?P<close>\))?
    (?P<percent>\s?%|\s?per\s?cent(?:age\s+points?)?\b|\s?percentage\s+points?\b)?
    (?P<scale>\s?(?:thousand|million|billion|trillion)s?\b|(?:MM|M|B|K|bn|mn)\b(?!['’]\w))?
    (?![a-wyz])                                        # not an ordinal or a code: 1st, 3Q
    """
    .replace("INTEGER", INTEGER).replace("DECIMALS", DECIMALS),  # the one figure grammar's
    re.VERBOSE | re.IGNORECASE,
)


# a month's name right before a figure: the figure is a date's day ("September 8, 2021")
_MONTH_BEFORE_RE = re.compile(rf"{MONTH_RE.pattern}\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Figure:
    """A number as printed: unsigned value, decimals printed, sign, percent, scale word."""

    value: Decimal
    decimals: int
    negative: bool
    minus: bool  # negative by a minus sign (not only by parentheses, which prose also uses)
    percent: bool
    scale: Decimal | None
    currency: bool
    text: str
    after_month: bool = False  # printed right after a month's name: "September 8"

    @property
    def is_year(self) -> bool:
        """A bare four-digit 1900-2100 (``2022``, ``FY 2022``): a label, not an amount."""
        return (self._bare and "," not in self.text and 1900 <= self.value <= 2100)

    @property
    def is_label(self) -> bool:
        """A year, or a date's day (``September 8, 2021``, ``as of December 31``): the when of
        a figure, not an amount."""
        return self.is_year or (self._bare and self.after_month and 1 <= self.value <= 31)

    @property
    def _bare(self) -> bool:
        return (not (self.percent or self.currency or self.decimals or self.scale)
                and self.value == self.value.to_integral_value())


def figures(text: str) -> list[Figure]:
    """Every figure printed in ``text``, in order.

    A figure is digits with optional thousands commas and decimals, optionally introduced by a
    currency sign (``$``, ``US$``, ``USD``, ``€``, ``£``), negative with a leading minus or
    between parentheses (``(1,561)``), followed by ``%`` / ``percent`` / ``percentage points``
    and by a scale: ``thousand``, ``million``, ``billion``, ``trillion`` (or ``K``, ``M``,
    ``MM``, ``mn``, ``B``, ``bn`` glued to the number: ``$1561M``; not before a possessive:
    ``3M's`` is a company). Digits inside a word
    (``FY2021``, ``Q4``) or followed by a letter other than ``x`` (``1st``; ``1.33x`` is a
    figure) are not a figure."""
    out: list[Figure] = []
    text = unicodedata.normalize("NFKC", text)
    for m in _VALUE_RE.finditer(text):
        digits = m.group("number").replace(",", "") + (m.group("decimals") or "")
        scale_word = (m.group("scale") or "").strip().lower()
        scale_word = scale_word[:-1] if scale_word.endswith("s") and len(scale_word) > 3 else (
            scale_word)
        out.append(Figure(
            value=Decimal(digits),
            decimals=len(m.group("decimals") or "") - 1 if m.group("decimals") else 0,
            negative=bool(m.group("minus")) or bool(m.group("open") and m.group("close")),
            minus=bool(m.group("minus")),
            percent=bool(m.group("percent")),
            scale=SCALES.get(scale_word) if scale_word else None,
            currency=bool(m.group("currency")),
            text=m.group(0).strip(),
            after_month=bool(_MONTH_BEFORE_RE.search(text, max(0, m.start() - 16), m.start())),
        ))
    return out


# ---------------------------------------------------------------------------------- content words

_STOPWORDS = """
a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each either few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself
just may me might more most must my myself no nor not of off on once only or other our ours
ourselves out over own per same shall she should so some such than that the their theirs them
themselves then there these they this those through to too under until up upon very was we were
what when where which while who whom why will with within without would yes you your yours
yourself yourselves
"""
STOPWORDS = frozenset(_STOPWORDS.split())


def stem(word: str) -> str:
    """A light suffix stripper: ``revenues``/``revenue`` -> ``revenu``, ``increased`` /
    ``increases``/``increasing`` -> ``increas``, ``companies`` -> ``company``. Words of four
    letters or fewer are kept as they are."""
    w = word.lower()
    if len(w) <= 4:
        return w
    if w.endswith("ies") and len(w) > 5:
        return w[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if w.endswith(suffix) and not w.endswith("ss") and len(w) - len(suffix) >= 4:
            w = w[: -len(suffix)]
            break
    return w[:-1] if w.endswith("e") and len(w) > 4 else w


def content_words(text: str) -> set[str]:
    """Stems of the letter words of ``text`` (possessive ``'s`` dropped) that are not stopwords
    and are longer than one letter."""
    text = re.sub(r"['’]s\b", "", unicodedata.normalize("NFKC", text).lower())
    return {stem(w) for w in re.findall(r"[a-z]+", text) if len(w) > 1 and w not in STOPWORDS}
