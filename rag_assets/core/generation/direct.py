"""A one-line direct answer before the quoted evidence, when the evidence states it.

Eight kinds of question get one (cues in ``direct_cues.json``, each with its source):

- a **superlative** ("Which segment had the lowest net revenue?"): the winner among a table's
  rows, the same column compared across them (parenthesized figures are negative), or the name a
  cited sentence gives it ("Pumps was the largest contributor ..."): "Corporate. Its net revenue
  was -$473 million.";
- a **list** ("What are three main companies acquired ..."): the names a cited sentence
  enumerates, as printed: "Trillium, Array and Therachon.";
- a **comparison of two periods** ("Did X increase or decrease ..."): the two figures of one
  cited row or sentence: "Decreased: 45 in Q2 2023 against 60 in Q2 2022." ("Yes." or "No."
  before it when the question asks one way: "Did deliveries decline ...?");
- a **cause** ("What drove ...?"): the causes the sentence that explains the named measure's
  change prints, first (:mod:`drivers`);
- a **member's share** of a total ("What share of net sales came from Walmart International?"):
  the member's row and the total's, from the table that prints both (:mod:`member_shares`);
- **arithmetic** on a sentence's amounts ("at what average price per share", "by how much",
  "what is the total"): computed and shown with its operands (:mod:`quoted_amounts`);
- a **yes or no** about a matter a filing discloses ("Does X depend on a few major customers?"):
  the polarity of the sentence that discloses it, then the sentence (:mod:`yes_no`); a
  quarter's buyback from Item 703's row for the quarter first (:mod:`issuer_purchases`);
- the **deals of a period** ("Which divestitures did X complete in FY2022?"): each in the
  sentence that states it, numbered (:mod:`disclosures`).

Nothing is invented: every name and figure of the sentence is copied from the units it cites
(a superlative's share of the table's total is computed from two cited rows, and says so:
"48% of the $14,805 million total (7,108 / 14,805)"), and the claim goes through the citation
verifier like every other. When the question is none of
these, or the evidence does not settle it (a tie, a missing period, a list of another length
than asked), there is no direct answer and the quotes stand alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from itertools import islice

from rag_assets.core.generation.bridged_causes import member_causes
from rag_assets.core.generation.concentration import concentration
from rag_assets.core.generation.direct_rows import (
    Cue,
    DirectAnswer,
    DirectCues,
    PageRows,
    Scan,
    direction_of,
    first_match,
    heading_has,
    load_cues,
    money,
    parse_cell,
    read_row,
    row_moved,
)
from rag_assets.core.generation.disclosures import stated_deals
from rag_assets.core.generation.drivers import (
    Adjacent,
    Heading,
    asks_members_drove,
    drivers,
    explained_way,
    measure_readings,
    refers_elsewhere,
    subjects_named,
)
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import (
    asked_roots,
    names_a_period_only,
    roots,
    words,
)
from rag_assets.core.generation.introduced_tables import introduced_total
from rag_assets.core.generation.issuer_purchases import purchases_count, purchases_yes_no
from rag_assets.core.generation.legal_matters import Under
from rag_assets.core.generation.made_up import largest_part, made_up
from rag_assets.core.generation.major_customers import major_customers
from rag_assets.core.generation.member_shares import PagesPrinting, member_share
from rag_assets.core.generation.metric_format import subject_of
from rag_assets.core.generation.per_share_dividends import per_share_dividend
from rag_assets.core.generation.quarter_events import quarter_debt_event
from rag_assets.core.generation.quoted_amounts import quoted_arithmetic
from rag_assets.core.generation.sized_causes import sized_cause
from rag_assets.core.generation.stated_events import stated_event
from rag_assets.core.generation.stated_line_items import stated_line_item
from rag_assets.core.generation.stated_moves import stated_cause, stated_move
from rag_assets.core.generation.superlatives import PagesTitling, superlative
from rag_assets.core.generation.yes_no import (
    Before,
    prose_yes_no,
    stated_none,
    with_its_amount,
)
from rag_assets.core.ingest.statement_tables import duration_words
from rag_assets.core.question.question import Period, Question, asks_cause
from rag_assets.core.question.vocabulary import normalize, terms_in
from rag_assets.core.text.periods import (
    DURATIONS,
    SPAN_NOUNS,
    durations_over,
    ended_quarter,
    figure_in_period_re,
)
from rag_assets.core.text.prose import without_caps_heading
from rag_assets.core.text.sentences import joined, split_sentences

# -- lists ------------------------------------------------------------------------------------


MAX_STATED_LISTS = 12  # sentences read, in page order, for a list a filing names


# a count of names asked: "three main companies", "two largest acquisitions" (never "six
# months", "5 million")
COUNTED_RE = re.compile(rf"\s+(?:[a-z]+\s+){{0,2}}?(?!(?:{SPAN_NOUNS}|million|billion|thousand|"
                        r"percent)\b)[a-z]{3,}s\b")


def _names_counted(question: str, cues: DirectCues) -> int:
    """The number of names a question asks for ("What are three main companies acquired
    ...?": 3), 0 when it asks none."""
    lowered = question.lower()
    return next((cues.list_counts[m[0]] for m in re.finditer(r"\b[a-z0-9]+\b", lowered)
                 if m[0] in cues.list_counts and COUNTED_RE.match(lowered, m.end())), 0)


def _items(listed: str) -> list[str]:
    """The names of an enumeration. Where semicolons set the names apart, a name may hold
    commas and "and" ("Europe, Middle East and Africa; Latin America; ... Global Ventures and
    Bottling Investments"): only the semicolons and the last "and" part them."""
    listed = " ".join(listed.split())  # "Europe &\nAustralia" is one name
    if ";" not in listed:
        named = re.split(r",?\s+and |,\s+", listed)
    else:
        *named, last = re.split(r";\s+", listed)
        named.extend([last[4:]] if last.startswith("and ") else last.rsplit(" and ", 1))
    if named and (ends := split_sentences(named[-1])):
        named[-1] = ends[0]  # "Asia & Latin America. See Note 16": the sentence ends first
    return [i.strip() for i in named if i.strip()]


def _list(question: str, selected: Sequence[EvidenceUnit], cues: DirectCues
          ) -> DirectAnswer | None:
    q = question.lower()
    if first_match(cues.list_question, q) is None or first_match(cues.superlative, q):
        return None
    count = _names_counted(question, cues) or None
    item = cues.enumeration.item
    pattern = re.compile(cues.enumeration.pattern.replace("{item}", item))
    asked = roots(question)
    for unit in selected:
        if unit.is_row:
            continue
        # a list that answers shares a word with the question ("acquired", "acquisitions")
        if not asked & roots(unit.text):
            continue
        for match in pattern.finditer(unit.text):
            items = _items(match["items"])
            if any(first_match(cues.list_item_not, i.split()[0]) for i in items):
                items = [i for i in items if not first_match(cues.list_item_not, i.split()[0])]
                if len(items) < 3 or not match["items"].endswith(items[-1]):
                    continue
            if len(items) < 2 or (count is not None and len(items) != count):
                continue
            if all(not re.search(r"[^\W\d_]", i) for i in items):
                continue  # "2019, 2018 and 2017": years or amounts name nothing asked
            shown = ", ".join(items[:-1]) + f" and {items[-1]}"
            return DirectAnswer(kind="list", units=[unit], text=f"{shown.rstrip('.')}.")
    return None


def _stated_list(question: str, scan: Scan | None, cues: DirectCues) -> DirectAnswer | None:
    """The list a filing is required to name, read from the filing's sentence that names it
    (``list_stated``: "Our businesses are organized into four operating segments: North
    America Retail, International, Pet, and North America Foodservice."), where retrieval did
    not look; None when no cue asks it or no such sentence lists the names."""
    if scan is None:
        return None
    for cue in cues.list_stated:
        if re.search(cue.pattern, question.lower()) and cue.stated:
            found = _list(question, list(islice(scan([re.compile(cue.stated, re.IGNORECASE)]),
                                               MAX_STATED_LISTS)), cues)
            if found is not None:
                return found
            if cue.single and (one := _single(question, scan([re.compile(cue.single,
                                                                      re.IGNORECASE)]), cues)):
                return one
    return None


def _single(question: str, units: Iterable[EvidenceUnit], cues: DirectCues,
            strict: bool = False) -> DirectAnswer | None:
    """"One: ...", with the first of ``units`` that says there is only one of what a list
    asks ("We operate as one operating segment"; ``list_stated``'s ``single``), or None. One
    reportable segment is no answer to the operating segments asked: a filer may have several
    too small to report (American Water Works' four market-based businesses). ``strict``,
    before any list is read: only a sentence that names the kind asked ("one reportable
    segment" for the reportable segments), not one a segment says of itself."""
    q = question.lower()
    cue = next((c for c in cues.list_stated if c.single and re.search(c.pattern, q)), None)
    if cue is None:
        return None
    single = re.compile(cue.single or "", re.IGNORECASE)
    for unit in units:
        said = " ".join(unit.text.split())
        if unit.is_row or not (m := single.search(said)) or (
                "operating" in q and "reportable" in m.group(0).lower()):
            continue
        if strict and not any(w in q and w in m.group(0).lower()
                              for w in ("reportable", "operating")):
            continue  # before a list: only the one segment of the kind asked
        said = without_caps_heading(said)  # "BUSINESS SEGMENTS We ..."
        return DirectAnswer(kind="list", units=[unit], text=f"One: {said.rstrip('.')}.")
    return None


# -- comparisons ------------------------------------------------------------------------------


def _periods_compared(question: Question, cues: DirectCues) -> list[Period] | None:
    periods = list(question.periods)
    if len(periods) == 1 and first_match(cues.prior_period, question.text.lower()):
        quarter, year = periods[0]
        periods.append((quarter, str(int(year) - 1)))
    if len(periods) != 2:
        return None
    return sorted(periods, key=lambda p: (p[1], p[0] or ""), reverse=True)  # later first


def _polar(question: Question, later: float, earlier: float) -> str:
    """"Yes. " or "No. " before a comparison asked yes or no one way ("Did X decline ...?"),
    from the way the two figures went (unchanged is neither way: "No. "); "" when no one way
    is asked (an improvement is no direction a row's figures say)."""
    if question.expects != "yes_no" or question.way not in ("up", "down"):
        return ""
    yes = later > earlier if question.way == "up" else later < earlier
    return "Yes. " if yes else "No. "


def _with_duration(headings: Sequence[str], unit: EvidenceUnit, quarter: str | None
                   ) -> dict[str, str]:
    """A row's column headings, each with the duration its table's header prints over it
    (:func:`periods.durations_over`: "Three Months Ended December 31," over "2022" and "2021"
    in MGM's release, "three months 2022"); as printed when a heading names its own duration
    (a bare year beside "three months 2022" is the year's), or when the header's period ends
    in another calendar quarter than the one asked (a Q3 question reads no table of the three
    months ended December 31)."""
    months = durations_over(unit.scope, len(headings))
    ended = ended_quarter(unit.scope)
    if any(p.search(h) for h in headings for p, _ in DURATIONS) or (
            quarter and ended and quarter != f"Q{ended}"):
        return {h: h for h in headings}
    return {h: f"{duration_words(m)}{h}" for h, m in zip(headings, months, strict=True)}


_COMPARING_ROOTS = roots("versus compared against relative")  # how a comparison is asked


def _of_another_measure(question: Question, label: str, unit: EvidenceUnit,
                        also: frozenset[str] = frozenset()) -> bool:
    """Whether a row is of another measure than the one asked: the question names a word that
    neither the row nor its table prints, and the row names one that neither the question
    nor any name the filing gives its measure (:func:`measure_readings`) does. "Las Vegas
    Strip Resorts net revenues" is no RevPAR of Las Vegas Strip Resorts; "Aeronautics" under
    a backlog table is the Aeronautics backlog asked. ``also``: words a row compared beside
    this one names (the question's other measure)."""
    missing = asked_roots(question) - roots(f"{label} {unit.caption} {unit.scope}") - (
        _COMPARING_ROOTS) - also
    named = _short_roots(question.ranking_text) | {
        r[:5] for reading in measure_readings(question) for r in reading.roots | reading.whole}
    return bool(missing) and bool(_short_roots(label) - named)


def _short_roots(text: str) -> set[str]:
    """A text's words of three letters or more, cut to five: a label of short words ("Slots
    win") names a measure too."""
    return {w[:5] for w in words(text) if w.isalpha() and len(w) >= 3}


def _comparison(question: Question, selected: Sequence[EvidenceUnit], cues: DirectCues
                ) -> DirectAnswer | None:
    if first_match(cues.comparison, question.text.lower()) is None:
        return None
    periods = _periods_compared(question, cues)
    if periods is None:
        return None
    later, earlier = periods
    for unit in selected:
        if (compared := _row_compared(question, unit, (later, earlier), cues)) is not None:
            text, figures = compared
            other = _other_measure_compared(question, selected, unit, (later, earlier), cues)
            if other is None:
                return DirectAnswer(kind="comparison", units=[unit], supports=figures,
                                    text=f"{text}.")
            return DirectAnswer(kind="comparison", units=[unit, other[0]],
                                text=_both_compared(text, other[1]))
        if unit.is_row:
            continue
        found = []
        for period in (later, earlier):
            label = f"{period[0]} {period[1]}" if period[0] else period[1]
            hits = figure_in_period_re(label).findall(unit.text)
            if len(set(hits)) != 1:
                break
            found.append((hits[0], label))
        if len(found) != 2:
            continue
        values = [parse_cell(re.sub(r" (?:million|billion|thousand)$", "", f)) for f, _ in found]
        if any(v is None for v in values) or found[0][0].endswith("%") != found[1][0].endswith("%"):
            continue
        (a, a_label), (b, b_label) = found
        figures = f"{a} in {a_label} against {b} in {b_label}"
        return DirectAnswer(kind="comparison", units=[unit], supports=figures, text=(
            f"{_polar(question, values[0][0], values[1][0])}"  # type: ignore[index]
            f"{direction_of(values[0][0], values[1][0])}: {figures}."))  # type: ignore[index]
    return None


_POLAR_RE = re.compile(r"^(?:Yes|No)\. ")


def _both_compared(first: str, second: str) -> str:
    """Two measures' moves in one sentence, a yes only when both went the way asked."""
    polar = [m.group(0) if (m := _POLAR_RE.match(t)) else "" for t in (first, second)]
    lead = "" if not polar[0] else "Yes. " if polar == ["Yes. ", "Yes. "] else "No. "
    first, second = (_POLAR_RE.sub("", t) for t in (first, second))
    return f"{lead}{first}; {second[0].lower()}{second[1:]}."


def _row_compared(question: Question, unit: EvidenceUnit, periods: Sequence[Period],
                  cues: DirectCues, also: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """A row's move between the two periods, as (the sentence, without its period; the figures
    it prints), or None: no row, a row of the periods themselves (the weeks in each quarter)
    or of another measure, or not one figure per period. ``also``: words the question asks
    that a row compared beside this one names."""
    row = read_row(unit)
    if row is None or not row.label or names_a_period_only(row.label) or _of_another_measure(
            question, row.label, unit, also):
        return None
    later, earlier = periods
    heads = _with_duration([c.heading for c in row.cells], unit, later[0])
    now = [c for c in row.cells if heading_has(heads[c.heading], later)]
    then = [c for c in row.cells if heading_has(heads[c.heading], earlier)
            and not heading_has(heads[c.heading], later)]
    if len(now) != 1 or len(then) != 1:
        return None
    a, b = now[0], then[0]
    figures = (f"{row.label} {money(a, unit, cues)} in {heads[a.heading]} against "
               f"{money(b, unit, cues)} in {heads[b.heading]}")
    return f"{_polar(question, a.value, b.value)}{row_moved(a, b, unit, cues)}: {figures}", figures


def _other_measure_compared(question: Question, selected: Sequence[EvidenceUnit],
                            first: EvidenceUnit, periods: Sequence[Period], cues: DirectCues
                            ) -> tuple[EvidenceUnit, str] | None:
    """The second measure a question compares ("By how much did occupancy and RevPAR
    increase?"): a row that names a word the question asks which the first row, its caption
    and its table do not, compared the same way, as (its unit, its sentence); None when the
    question asks one measure."""
    label = first.text.partition(": ")[0]
    covered = roots(f"{label} {first.caption} {first.scope}")
    for unit in selected:
        row = read_row(unit) if unit is not first else None
        if row is None or not (roots(row.label) & asked_roots(question)) - covered:
            continue
        if (compared := _row_compared(question, unit, periods, cues,
                                      frozenset(roots(label)))) is not None:
            return unit, compared[0]
    return None


# -- a winner and why --------------------------------------------------------------------------


CHANGE_WORDS = {"up": "increase", "down": "decline", None: "change"}


def _way_ranked(change: Cue | None) -> str | None:
    """Which way the winner's figure went: the cue's own ("grew the fastest": up), or a
    total's growth or decline driven by the largest amount ("drove the decline": down);
    None for a ranking either way could win ("the worst performance")."""
    if change is None:
        return None
    if change.moved is None and change.by == "amount":
        return "up" if change.direction == "max" else "down"
    return change.moved


def with_causes(question: Question, found: DirectAnswer | None,
                explain: Callable[[Question], DirectAnswer | None],
                cues: DirectCues) -> DirectAnswer | None:
    """"Which segment grew the fastest, and why?": the winner's sentence and the causes MD&A
    gives for the winner's own change, as one first sentence; the winner alone when the
    question asks no cause, or no sentence that names the winner (or is printed under its
    heading) explains a change the way the winner's went."""
    if found is None or found.kind != "superlative" or not found.named or not asks_cause(
            question):
        return found
    moved = _way_ranked(first_match(cues.change_rank, question.text.lower()))
    measure = next((normalize(question.ranking_text)[t.start:t.end]
                    for t in terms_in(question.ranking_text)), "")
    text = f"What drove the {CHANGE_WORDS[moved]} in {subject_of(found.named)} {measure}?"
    cause = explain(question.reworded(text, text).model_copy(update={"expects": "cause"}))
    named = found.named.lower()
    if cause is None or refers_elsewhere(cause.causes) or (
            moved is not None and explained_way(cause) not in (None, moved)) or not any(
            named in f"{u.scope} {u.text}".lower() for u in cause.units):
        return found
    return DirectAnswer(kind="superlative", units=[*found.units, *cause.units],
                        named=found.named, text=joined(found.text, cause.text))


def causes_read(question: Question, selected: Sequence[EvidenceUnit],
                pool: Sequence[EvidenceUnit], preceding: Adjacent | None, scan: Scan | None,
                following: Adjacent | None, heading: Heading | None) -> DirectAnswer | None:
    """What drove the change asked: the sentence that explains it (:func:`drivers`); for a
    segment's profit that no sentence explains but a pointer ("As a result of the factors
    discussed above"), its sales' and its margin's parts as the segment's own discussion
    explains them (:func:`member_causes`), each part asked as a cause question is."""
    found = drivers(question, selected, pool, preceding, scan, following, heading)
    owners = subjects_named(question)
    if owners and (found is None or refers_elsewhere(found.causes)):
        parts = member_causes(question, owners, lambda part: drivers(
            part, selected, pool, preceding, scan, following, heading, pointers=False))
        return parts or found
    return found


# -- the entry point --------------------------------------------------------------------------


def direct_answer(question: Question, selected: Sequence[EvidenceUnit],
                  pool: Sequence[EvidenceUnit] = (), page_rows: PageRows | None = None,
                  cues: DirectCues | None = None, preceding: Adjacent | None = None,
                  before: Before | None = None, scan: Scan | None = None,
                  following: Adjacent | None = None, printing: PagesPrinting | None = None,
                  titling: PagesTitling | None = None, heading: Heading | None = None,
                  under: Under | None = None) -> DirectAnswer | None:
    """The direct first sentence for ``question`` from the units the engine selected (best
    first), a table completed from ``pool`` (the part's other evidence units: a superlative
    compares every row of the table, not only the quoted ones) and from ``page_rows`` (every
    table row of a page, for a table whose blocks retrieval did not all return; ``preceding``
    and ``following`` the sentences a page prints before and after a unit, ``before`` the
    text before it, ``scan`` the filing's sentences a yes or no may be read from and
    ``printing`` the filing's pages that print a name, ``titling`` those that title a table
    by a word, ``under`` the heading a sentence stands under and the sentences under it), or
    None."""
    cues = cues or load_cues()
    if not selected:
        return None
    def explained(asked: Question) -> DirectAnswer | None:
        return sized_cause(asked, causes_read(asked, selected, pool, preceding, scan, following,
                                              heading), page_rows, cues)

    return (made_up(question, selected, page_rows, cues, printing)
            or (None if asks_members_drove(question) else explained(question))
            or stated_none(question, selected, pool, before, scan)
            or per_share_dividend(question, selected, pool, page_rows, scan)
            or quoted_arithmetic(question, selected, scan)
            or introduced_total(question, selected, page_rows, cues)
            or major_customers(question, selected, pool, before, scan)
            or member_share(question, selected, pool, page_rows, cues, printing)
            or concentration(question, selected, pool, page_rows, cues, titling)
            or with_causes(question, superlative(question, selected, pool, page_rows, cues,
                                                 titling),
                           explained, cues)
            or largest_part(question, selected, page_rows, cues, printing)
            or _comparison(question, selected, cues)
            or purchases_yes_no(question, selected, pool, page_rows, scan)
            or purchases_count(question, selected, pool, page_rows, scan)
            or with_its_amount(prose_yes_no(question, selected, pool, before, scan),
                               preceding, following, question.years)
            or stated_cause(question, selected, pool)
            or stated_move(question, selected, pool, scan)
            or quarter_debt_event(question, scan)
            or with_its_amount(stated_event(question, selected, pool, scan),
                               preceding, following, question.years)
            or stated_line_item(question, scan)
            or _single(question.text, selected, cues, strict=True)
            or _list(question.text, selected, cues) or _stated_list(question.text, scan, cues)
            # the deals stated one by one (a count asked that no enumeration printed: "three
            # main companies acquired" named deal by deal, when at least as many are stated)
            or stated_deals(question, selected, pool, scan, following, preceding,
                            at_least=_names_counted(question.text, cues), under=under)
            # "which segment drove the decline?" with no table to rank: MD&A's sentence
            or (sized_cause(question, drivers(question, selected, pool, preceding, scan,
                                              following, heading), page_rows, cues)
                if asks_members_drove(question) else None))
