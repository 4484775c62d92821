"""Arithmetic on the amounts a cited sentence prints, as the answer's first sentence.

A question that asks "at what average price per share", "by how much" or "what is the total"
of amounts a filing prints in one sentence gets the arithmetic done, shown like a metric's
computation, on the figures as printed ("About $348.82 per share: $645 million / 1,849,324
shares."). The sentence is cited for every operand; the result is the only figure it does not
print, and it is computed, never read.

Sentences that print two periods at once ("During the three and six months ended June 30,
2023, the Company repurchased 1,849,324 and 3,071,380 shares, respectively, for an aggregate
amount of $645 million and $1,045 million, respectively") are read by position: the period the
question asks picks the figure of each list. A sentence that already prints the change ("an
increase of $8.4 billion") is the answer as it stands, so nothing is computed for it; two
amounts or none of each kind asked, and nothing is computed either.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rag_assets.core.generation.direct_rows import DirectAnswer, Scan, share_of
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import count_change_re, roots
from rag_assets.core.question.question import Question
from rag_assets.core.text.bullets import listed_text
from rag_assets.core.text.figures import (
    CURRENCY_SIGNS,
    DECIMALS,
    INTEGER,
    MONEY_RE,
    SCALE_WORDS,
    SIGNED_MONEY_RE,
    count_of,
)
from rag_assets.core.text.periods import listed_months, results_compared
from rag_assets.core.text.years import names_other_years, years_in

_NUMBER = rf"(?:{INTEGER})(?:{DECIMALS})?"  # the one figure grammar (core/text)
SHARES_RE = re.compile(rf"(?<![$\d.,])(?P<n>{_NUMBER})(?:\s(?P<scale>thousand|million|billion))?"
                       r"\s+(?:shares|common shares)\b")
# "1,849,324 and 3,071,380 shares, respectively": figures listed for periods listed
_LISTED_SHARES_RE = re.compile(rf"(?P<a>{_NUMBER})(?:\s(?:million|billion))? and "
                               rf"(?P<b>{_NUMBER})(?:\s(?P<scale>million|billion))?\s+shares\b")
_LISTED_MONEY_RE = re.compile(rf"\$\s?(?P<a>{_NUMBER})(?:\s(?:million|billion))? and "
                              rf"\$\s?(?P<b>{_NUMBER})(?:\s(?P<scale>million|billion))?")
PER_SHARE_RE = re.compile(r"\b(?:average|avg\.?)\s+(?:price|cost)\b|\b(?:price|cost) per share\b|"
                          r"\b(?:pay|paid)\s+(?:\w+\s+){0,3}?per\s+share\b", re.IGNORECASE)
# "how many of them were outside the United States and Puerto Rico?": a count less a place's
OUTSIDE_WORDS = r"outside(?:\s+of)?|excluding|other\s+than|not\s+in"
# a place as a list or a question prints it: capitalized words, "and" between two of them
PLACE = r"[A-Z][\w.&'’-]*(?:\s+(?:and\s+)?[A-Z][\w.&'’-]*)*"
OUTSIDE_ASKED_RE = re.compile(rf"\b(?:{OUTSIDE_WORDS})\s+(?P<the>the\s+)?(?P<place>{PLACE})")
# a sentence that states a repurchase: "the Company repurchased 1,849,324 ... shares"
REPURCHASED_RE = re.compile(r"\b(?:repurchased|bought back|purchased)\b[^.]{0,80}?\bshares\b",
                            re.IGNORECASE)
# an amount the sentence prints as the total of what it lists: "... Thereafter 89 Total $ 2,944"
PRINTED_TOTAL_RE = re.compile(r"\btotal\s*(?:of\s*)?$", re.IGNORECASE)
# the words of a total's question that name no part of what is totalled
TOTAL_WORDS = frozenset({"amount", "amounts", "sum", "end", "beginning", "fiscal", "year",
                         "quarter", "period", "its", "their", "outstanding", "principal",
                         "face", "euro", "euros", "dollar", "dollars", "pound", "pounds",
                         "sterling"})  # the currency is the amounts' sign, not their words
# "What total net consideration did Walmart receive from the Asda and Seiyu divestitures?":
# what is totalled (the words after "total", to the verb or preposition), and the things named
# together whose amounts are added (two or three capitalized names joined by "and")
_TOTALLED_RE = re.compile(r"\b(?:total|combined|aggregate)\s+(?P<what>(?:(?!(?:did|does|do|was|"
                          r"were|is|are|of|from|for|in|that)\b)[a-z][\w-]*\s+){0,3}?"
                          r"(?!(?:did|does|do|was|were|is|are|of|from|for|in|that)\b)[a-z][\w-]*)"
                          r"\s+(?:did|does|do|was|were|is|are|of|from|for|in|that)\b")
_NAMED_TOGETHER_RE = re.compile(r"\b(?P<first>[A-Z][\w&'’-]+)(?:,\s+(?P<second>[A-Z][\w&'’-]+))?"
                                r",?\s+and\s+(?P<last>[A-Z][\w&'’-]+)\b")
_MONEY_AFTER_RE = re.compile(rf"\$\s?(?P<n>{_NUMBER})(?:\s(?P<scale>thousand|million|billion))?")
# an amount printed as the change itself: "increased $184 million", "an increase of $8.4 billion"
# "$27.9 billion of purchase obligations, of which $9.3 billion is due within one year": the
# second amount is a part of the first, so the two are never added
_PART_OF_RE = re.compile(r"\b(?:of which|including|includ(?:es|ed)|of (?:this|that|the|these) "
                         r"(?:amount|total|amounts)s?|of (?:this|that)|comprising)\b[^$.;]{0,30}$",
                         re.IGNORECASE)
_CHANGE_BEFORE_RE = re.compile(r"\b(?:increas|decreas|declin|grew|rose|fell|gain|drop)\w*\s+"
                               r"(?:of\s+|by\s+)?(?:approximately\s+|about\s+)?$|\bup\s+$",
                               re.IGNORECASE)


# a sentence that prints the change of its two amounts after them: "$674 million in the current
# year compared to $1.2 billion in the prior year, a decrease of 44%": it answers as it stands
_CHANGE_STATED_RE = re.compile(r"\b(?:an?\s+)?(?:increase|decrease|decline|rise|drop|growth|"
                               r"improvement)\s+of\s+(?:approximately\s+|about\s+)?[$€£]?\s?\d",
                               re.IGNORECASE)


def _of_another_period(question: Question, text: str) -> bool:
    """Whether a sentence compares a year's results where the question asks a quarter's, or a
    quarter's where it asks a year's."""
    compared = results_compared(text)
    return compared is not None and compared != question.months


@dataclass(frozen=True)
class Amount:
    """A figure as printed and its value in units."""

    printed: str
    value: float


def _amount(number: str, scale: str | None, printed: str) -> Amount:
    return Amount(printed=printed, value=float(number.replace(",", "")) * SCALE_WORDS.get(
        scale or "", 1.0))


def _position(question: Question, sentence: str) -> int | None:
    """Which of two listed periods the question asks (0 or 1), None when not listed or not
    asked."""
    months = listed_months(sentence)
    return months.index(question.months) if months and question.months in months else None


def _listed(pattern: re.Pattern[str], sentence: str, at: int, prefix: str,
            suffix: str) -> Amount | None:
    """The ``at``-th figure of a listed pair ("$645 million and $1,045 million"), its scale
    the one printed after the pair."""
    match = pattern.search(sentence)
    if match is None:
        return None
    number = match["a"] if at == 0 else match["b"]
    scale = match["scale"]
    return _amount(number, scale, f"{prefix}{number}{f' {scale}' if scale else ''}{suffix}")


def _one(pattern: re.Pattern[str], sentence: str, suffix: str = "") -> Amount | None:
    """The sentence's one figure of the kind, or None for none or several (which of several
    is not the sentence's to say)."""
    found = list(pattern.finditer(sentence))
    if len(found) != 1:
        return None
    match = found[0]
    return _amount(match["n"], match["scale"], match.group(0).strip() if not suffix
                   else f"{match['n']}{' ' + match['scale'] if match['scale'] else ''}{suffix}")


def _per_share(question: Question, unit: EvidenceUnit) -> DirectAnswer | None:
    """The average price per share: the amount spent over the shares bought, one sentence."""
    sentence = unit.text
    at = _position(question, sentence)
    if listed_months(sentence) and at is None:
        return None
    if at is not None:
        shares = _listed(_LISTED_SHARES_RE, sentence, at, "", " shares")
        spent = _listed(_LISTED_MONEY_RE, sentence, at, "$", "")
    else:
        shares = _one(SHARES_RE, sentence, " shares")
        spent = _one(MONEY_RE, sentence)
    if shares is None or spent is None or shares.value <= 0:
        return None
    price = spent.value / shares.value
    return DirectAnswer(kind="arithmetic", units=[unit], supports=unit.text, text=(
        f"About ${price:,.2f} per share: {spent.printed} / {shares.printed}."))


def _two_amounts(unit: EvidenceUnit) -> list[tuple[Amount, int]] | None:
    """The sentence's two money amounts of one currency and where each starts (of several
    currencies, the one that prints exactly two: "€300 million" and "$918 million" are never
    added); None for any other count or when one of them is printed as a change ("increased
    $184 million")."""
    by_sign: dict[str, list[tuple[re.Match[str], Amount]]] = {}
    for m in SIGNED_MONEY_RE.finditer(unit.text):
        by_sign.setdefault(m["sign"], []).append(
            (m, _amount(m["n"], m["scale"], m.group(0).strip())))
    pairs = [found for found in by_sign.values() if len(found) == 2]
    if len(pairs) != 1:
        return None
    found = pairs[0]
    if any(_CHANGE_BEFORE_RE.search(unit.text[:m.start()]) for m, _ in found):
        return None
    return [(a, m.start()) for m, a in found]


# what remains of an authorization, and the authorization: "$816.5 million remained available
# under the $2.0 billion share repurchase program" (Ulta Beauty's release)
_REMAINING_OF_RE = re.compile(
    rf"\$\s?(?P<left>{_NUMBER})(?:\s(?P<left_scale>thousand|million|billion))?\s+"
    r"(?:remained|remains|remaining|was|is|were)\s+available\s+(?:for\s+\w+\s+)?under\s+"
    rf"(?:the|its|our)\s+\$\s?(?P<all>{_NUMBER})(?:\s(?P<all_scale>thousand|million|billion))?"
    r"(?P<what>[^.;]{0,60}?\b(?:program|authori[sz]ation|plan)\b)", re.IGNORECASE)
# "how much of the program had been used": what an authorization has been spent on
_USED_ASKED_RE = re.compile(r"\b(?:used|utili[sz]ed|spent|consumed|executed)\b", re.IGNORECASE)
_AUTHORIZATION_RE = re.compile(r"\b(?:authori[sz]ation|program|plan)\b", re.IGNORECASE)


def _used_of_authorization(question: Question, unit: EvidenceUnit) -> DirectAnswer | None:
    """How much of an authorization has been used: the authorization less what the sentence
    says remains available under it, both printed; None unless the question asks what was
    used and the sentence prints both."""
    if not (_USED_ASKED_RE.search(question.text) and _AUTHORIZATION_RE.search(question.text)):
        return None  # "How much cash was used for repurchases in the quarter?" asks no program
    found = _REMAINING_OF_RE.search(unit.text)
    if found is None:
        return None
    left = _amount(found["left"], found["left_scale"],
                   f"${found['left']}{' ' + found['left_scale'] if found['left_scale'] else ''}")
    whole = _amount(found["all"], found["all_scale"],
                    f"${found['all']}{' ' + found['all_scale'] if found['all_scale'] else ''}")
    if not 0 <= left.value <= whole.value:
        return None
    used = _scaled(whole.value - left.value, left, whole)
    share = (whole.value - left.value) / whole.value * 100 if whole.value else 0.0
    what = " ".join(found["what"].split())
    return DirectAnswer(kind="arithmetic", units=[unit], supports=unit.text, text=(
        f"{left.printed} remained available, so {used} ({share:.1f}%) of the {whole.printed} "
        f"{what} had been used: {whole.printed} - {left.printed}."))


def _decimals(printed: str) -> int:
    match = re.search(r"\.(\d+)", printed)
    return len(match[1]) if match else 0


def _scaled(value: float, *operands: Amount) -> str:
    """``value`` in the currency and scale of the first printed operand and at the operands'
    precision."""
    like = operands[0]
    scale = next((w for w in SCALE_WORDS if like.printed.endswith(w)), "")
    decimals = max(_decimals(a.printed) for a in operands)
    sign = like.printed[0] if like.printed[:1] in CURRENCY_SIGNS else "$"
    return f"{sign}{value / SCALE_WORDS.get(scale, 1.0):,.{decimals}f}" \
        f"{f' {scale}' if scale else ''}"


# one item of the list that follows a count ("590 in the United States and Puerto Rico", "four
# each in China and Spain"), read item after item: the list ends where an item does not follow
_LIST_ITEM_RE = re.compile(
    r"(?:,\s*|\s+)?(?:and\s+)?(?P<m>\d[\d,]*|(?:one|two|three|four|five|six|seven|eight|nine|"
    r"ten|eleven|twelve)(?:\s+each)?)\s+(?:(?:are|were|is)\s+)?(?:located\s+)?in\s+"
    rf"(?P<place>(?:the\s+)?{PLACE})")
# what joins a second place to the one asked ("in Canada and Mexico", "Canada, Mexico")
_ANOTHER_PLACE_RE = re.compile(r"\s*(?:,|&|\+|/|\band\b|\bor\b|\bplus\b|\bas well as\b)",
                               re.IGNORECASE)


def _place_key(place: str) -> str:
    """A place's words as a list and a question both print it: lower case, no "the", no
    closing period ("Canada." ends a sentence; "U.S." and "U.S" are one place)."""
    return " ".join(re.sub(r"^the\s+", "", place.strip().lower()).rstrip(".").split())


class Listed(NamedTuple):
    """A count, the number of it in one place, as printed and in units, and the place as
    printed."""

    whole: Amount
    inside: Amount
    place: str


def _count_in_place(total: str, place: str, text: str) -> Listed | None:
    """The count a sentence prints of ``total`` (a plural noun, and any words that qualify it:
    "leased warehouses") and the number in one place that the list right after it prints
    ("operates 858 warehouses, including 590 in the United States and Puerto Rico, 107 in
    Canada"), each as printed, and the place as printed; None when it prints no such list. A
    year is no count, nor a count of what was opened or closed ("opened 30 net new
    warehouses, including 5 in Canada"); a place the list prints with another ("the United
    States and Puerto Rico" for "the United States") is not the one asked."""
    words = total.split()
    whole = re.search(rf"{count_of(words[-1])},?\s+(?:including|of which)\s+", text,
                      re.IGNORECASE)
    if (whole is None or years_in(whole["n"])
            or count_change_re().search(text[max(0, whole.start() - 12):whole.end()])
            or not set(words[:-1]) <= set(whole.group(0).lower().split())):
        return None
    at, asked = whole.end(), _place_key(place)
    while item := _LIST_ITEM_RE.match(text, at):
        at = item.end()
        if _place_key(item["place"]) == asked and item["m"][0].isdigit():
            count, inside = (_amount(n, None, n) for n in (whole["n"], item["m"]))
            printed = item["place"] if item["place"].count(".") > 1 else item[
                "place"].rstrip(".")
            return Listed(count, inside, printed) if 0 < inside.value < count.value else None
    return None


def _remainder(noun: str, place: str, unit: EvidenceUnit, the: bool = False
               ) -> DirectAnswer | None:
    """How many of a count are outside a place (:func:`_count_in_place`): the count less the
    place's, each as printed."""
    listed = _count_in_place(noun, place, unit.text)
    if listed is None:
        return None
    whole, inside = listed.whole, listed.inside
    return DirectAnswer(kind="arithmetic", units=[unit], supports=unit.text, text=(
        f"{whole.value:,.0f} {noun}, {whole.value - inside.value:,.0f} of them outside "
        f"{'the ' if the else ''}{place} ({whole.printed} - {inside.printed})."))


# the place a share of a count asks of, as the share's part reads it ("located outside the
# united states", "united states and puerto rico", "u.s.")
_PLACE_PART_RE = re.compile(rf"^(?:(?:located|based|operated)\s+)?(?P<outside>(?:{OUTSIDE_WORDS})"
                            r"\s+)?(?:in\s+)?(?:the\s+)?(?P<place>[a-z][\w.&'’ -]*?)[\s?]*$")


def _asked_alone(asking: str, place: str) -> bool:
    """Whether the question names no second place right after ``place`` ("in Canada and
    Mexico", "in Canada, Mexico and Japan"): a list's one item answers one place."""
    spaced = r"\s+".join(re.escape(w) for w in place.split())
    named = re.search(rf"\b{spaced}", asking, re.IGNORECASE)
    return named is None or not _ANOTHER_PLACE_RE.match(asking, named.end())


def _count_share(question: Question, unit: EvidenceUnit) -> DirectAnswer | None:
    """The share of a count in (or outside) one place, when the question asks a share of a
    plural noun (:attr:`Question.share`: "What percentage of Costco's warehouses are in
    Canada?") and the sentence prints the count with the place's number in its list
    (:func:`_count_in_place`): the place's number (or the count less it) over the count, each
    as printed, at the precision asked. The place is the longest run of the part's words the
    list prints ("canada as of its earnings release": Canada), never one of several places
    asked together."""
    asked = question.share
    part = _PLACE_PART_RE.match(asked.part) if asked and asked.total.endswith("s") else None
    if asked is None or part is None:
        return None
    words = part["place"].split()
    listed = next((found for n in range(len(words), 0, -1)
                   if _asked_alone(question.ranking_text, " ".join(words[:n]))
                   if (found := _count_in_place(asked.total, " ".join(words[:n]), unit.text))),
                  None)
    if listed is None:
        return None
    whole, inside = listed.whole, listed.inside
    if part["outside"]:
        count, where = whole.value - inside.value, "outside"
        shown = f"({whole.printed} - {inside.printed}) / {whole.printed}"
    else:
        count, where, shown = inside.value, "in", f"{inside.printed} / {whole.printed}"
    return DirectAnswer(kind="arithmetic", units=[unit], supports=unit.text, text=(
        f"{share_of(count, whole.value, question.decimals)} of its {whole.value:,.0f} "
        f"{asked.total}, {count:,.0f}, are {where} {listed.place} ({shown})."))


def _of_what_is_totalled(question: Question, text: str) -> bool:
    """Whether a sentence names what a total asks of, every content word of it (the lower-case
    words of the question but the total's own: "purchase obligations"): General Mills' 2017
    "guarantees and comfort letters of $505 million for the debt and other obligations ...
    and ... of $165 million" totals no purchase obligations."""
    asked = {w for w in re.findall(r"\b[a-z][a-z-]+\b", question.without_phrasing("total"))
             if w not in TOTAL_WORDS}
    return roots(" ".join(asked)) <= roots(text)


# a price is no amount to add to or take from an amount in millions: "was $22 billion based on
# the $27.51 price as reported" (Corning's cover page: the market value and the price it was
# taken at); two prices are ("from $0.70 to $0.79 per share": by how much it was raised)
_PRICE_AFTER_RE = re.compile(r"^[^\s]*(?:\s(?:thousand|million|billion))?\s+(?:closing\s+)?"
                             r"(?:price|per\s+(?:common\s+)?share)\b", re.IGNORECASE)
_PRICE_BEFORE_RE = re.compile(r"\bprice\s+(?:of|was|is)\s*$", re.IGNORECASE)


def _is_price(text: str, at: int) -> bool:
    return bool(_PRICE_AFTER_RE.search(text[at:at + 60])
                or _PRICE_BEFORE_RE.search(text[max(0, at - 30):at]))


def _difference_or_total(question: Question, unit: EvidenceUnit) -> DirectAnswer | None:
    if _of_another_period(question, unit.text):
        return None  # another period's amounts
    two = _two_amounts(unit)
    if two is not None and question.phrased("move") and _CHANGE_STATED_RE.search(
            unit.text):  # the change is printed: the sentence answers as it stands
        return DirectAnswer(kind="stated", units=[unit], supports=unit.text,
                            text=f"{listed_text(unit.text)}.")
    if two is None or (question.phrased("total") and not question.phrased("difference")
                       and not _of_what_is_totalled(question, unit.text)):
        return None
    if any(_is_price(unit.text, at) for _, at in two) and any(
            a.printed.endswith(tuple(SCALE_WORDS)) for a, _ in two):
        return None  # a price beside an amount in millions: two kinds, never one sum
    (a, a_at), (b, at) = two
    part_of = bool(_PART_OF_RE.search(unit.text[:at]))
    printed_total = next((x for x, x_at in ((a, a_at), (b, at))
                          if PRINTED_TOTAL_RE.search(unit.text[:x_at])), None)
    if printed_total is not None and question.phrased("total"):
        # a schedule run into prose ("2020 $ 1,324 2021 590 ... Total $ 2,944"): its total
        # is printed, and the other amount is one of its lines
        return DirectAnswer(kind="arithmetic", units=[unit], supports=unit.text, text=(
            f"{printed_total.printed.replace('$ ', '$')} in total, as printed."))
    if question.phrased("difference"):
        big, small = (a, b) if a.value >= b.value else (b, a)
        return DirectAnswer(kind="arithmetic", units=[unit], supports=unit.text, text=(
            f"{_scaled(big.value - small.value, big, small)}: {big.printed} - {small.printed}."))
    if question.phrased("total") and part_of:
        # the whole is printed: its part is already in it
        return DirectAnswer(kind="arithmetic", units=[unit], supports=unit.text, text=(
            f"{a.printed} in total, as printed; the {b.printed} beside it is a part of it."))
    if question.phrased("total"):
        return DirectAnswer(kind="arithmetic", units=[unit], supports=unit.text, text=(
            f"{_scaled(a.value + b.value, a, b)} in total: {a.printed} + {b.printed}."))
    return None


def _named_amount(name: str, others: Sequence[str], what: str,
                  units: Iterable[EvidenceUnit]) -> tuple[Amount, EvidenceUnit] | None:
    """The amount of ``what`` a sentence prints of ``name`` alone ("the divestiture of Asda
    ... for net consideration of $9.6 billion"): the first sentence that names it and none of
    the ``others``, the money figure within a few words after the words of what is totalled."""
    spaced = r"\s+".join(re.escape(w) for w in what.split())
    near = re.compile(rf"\b{spaced}\b[^$.;]{{0,25}}?(?={_MONEY_AFTER_RE.pattern})",
                      re.IGNORECASE)
    for unit in units:
        if unit.is_row or not re.search(rf"\b{re.escape(name)}\b", unit.text) or any(
                re.search(rf"\b{re.escape(o)}\b", unit.text) for o in others):
            continue
        if (at := near.search(unit.text)) and (money := _MONEY_AFTER_RE.match(
                unit.text, at.end())):
            return _amount(money["n"], money["scale"], money.group(0).replace("$ ", "$")), unit
    return None


def _total_of_named(question: Question, selected: Sequence[EvidenceUnit],
                    scan: Scan | None) -> DirectAnswer | None:
    """"What total net consideration did Walmart receive from the Asda and Seiyu
    divestitures?": each thing named together has its amount in a sentence of its own (MD&A and
    the note state each deal apart), so each is read where it is printed and the sum is
    computed, each operand cited; None unless every name's amount is found."""
    totalled = _TOTALLED_RE.search(question.text)
    together = _NAMED_TOGETHER_RE.search(question.text)
    if totalled is None or together is None or question.phrased("difference"):
        return None
    names = [n for n in together.groups() if n and n not in question.companies]
    if len(names) < 2:
        return None
    found = []
    for name in names:
        others = [n for n in names if n != name]
        pool = [*selected, *(scan([re.compile(rf"\b{re.escape(name)}\b")]) if scan else [])]
        read = _named_amount(name, others, totalled["what"], pool)
        if read is None:
            return None
        found.append(read)
    total = _scaled(sum(a.value for a, _ in found), *(a for a, _ in found))
    parts = " + ".join(f"{a.printed} ({name})" for (a, _), name in zip(found, names, strict=True))
    units = list({id(u): u for _, u in found}.values())
    return DirectAnswer(kind="arithmetic", units=units, supports=found[0][1].text,
                        text=f"{total} in total {totalled['what']}: {parts}.")


def quoted_arithmetic(question: Question, selected: Sequence[EvidenceUnit],
                      scan: Scan | None = None) -> DirectAnswer | None:
    """The arithmetic the question asks on the amounts of the first selected sentence that
    prints them, or None (no such question, or no sentence prints the operands). An average
    price per share is also read from the filing's sentences that state a repurchase
    (``scan``), those that name years naming the one asked: Item 703 and the equity note state
    the shares bought and the amount paid where retrieval may not have looked."""
    outside = OUTSIDE_ASKED_RE.search(question.ranking_text)
    if outside and question.counts and not count_change_re().search(question.ranking_text):
        found = next((found for unit in selected if not unit.is_row
                      and (found := _remainder(question.counts, outside["place"], unit,
                                               bool(outside["the"])))), None)
        if found is not None:
            return found
    shared = next((found for unit in selected if not unit.is_row
                   and (found := _count_share(question, unit) or _used_of_authorization(
                       question, unit))), None)
    if shared is not None:
        return shared
    per_share = bool(PER_SHARE_RE.search(question.text) and question.phrased("repurchase")
                     and not question.phrased("not_repurchase"))
    if not (per_share or question.phrased("difference")
            or question.phrased("total")):
        return None
    if not per_share and (named := _total_of_named(question, selected, scan)):
        return named
    for unit in selected:
        if unit.is_row:
            continue
        found = (_per_share(question, unit) if per_share
                 else _difference_or_total(question, unit))
        if found is not None:
            return found
    if not per_share or scan is None:
        return None
    stated = (u for u in scan([REPURCHASED_RE]) if not names_other_years(u.text, question.years))
    return next((found for unit in stated if (found := _per_share(question, unit))), None)
