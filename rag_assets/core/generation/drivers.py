"""What drove a change: the causes a filing gives for the change of the measure a question
names, as the answer's first sentence.

Regulation S-K Item 303(b) asks MD&A for "the reasons underlying" each material change, and
filings print them after a causal connective: "Net sales increased 10% ..., primarily due to a
9% increase in comparable sales ..., partially offset by ...". A question that asks what drove a
change (``Question.expects == "cause"``) gets as its first sentence the causes the sentence
prints, from its first connective to its end (the offsets stay with them), as printed; the
sentence itself is quoted after it. The sentence chosen names the question's measure before its
connective (it is that measure's change it explains) and is preferred in MD&A; the sentence after
it is read with the causes when it goes on explaining them ("The decrease in expenses was
impacted by approximately $150 million of ...", "In addition, ..."). A measure's level explained
by an item it includes ("Net income for the quarter was $1.30 billion, ..., which includes a
non-recurring charge ... of $298 million") counts too, after a sentence that gives the change.
The connectives are those of ``answer_types.json``'s ``cause`` entry: one list for the scorer
and for this. Nothing is written that the sentence does not print.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import NamedTuple

from rag_assets.core.generation.direct_rows import DirectAnswer, Scan
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import (
    answer_patterns,
    answer_qualifiers,
    figure_stretches,
    names_measure,
    words,
)
from rag_assets.core.ingest.sections import sections_of
from rag_assets.core.question.question import Question
from rag_assets.core.question.vocabulary import (
    TermMatch,
    abbreviation_re,
    load_vocabulary,
    normalize,
    qualifier_pattern,
    spelled_out,
    spelled_words,
    terms_in,
)
from rag_assets.core.text.figures import states_other_amount
from rag_assets.core.text.periods import (
    PERIOD_REFERRED,
    months_asked,
    names_a_period,
    stated_length,
    without_period_lead,
)
from rag_assets.core.text.sentences import (
    ends_at,
    page_prose,
    prose_after_table,
    reads_as_table,
    split_sentences,
)
from rag_assets.core.text.years import names_other_years, only_base_years, years_in

# the sentence a page prints just before (or after) a unit, as a unit of its own (None: not found)
Adjacent = Callable[[EvidenceUnit], EvidenceUnit | None]
# the heading printed last above a unit ("Sam's Club Segment"), empty when none is found
Heading = Callable[[EvidenceUnit], str]
# words of a "what drove" question that ask, not name the measure
ASKING_WORDS = frozenset({
    "what", "drove", "drive", "driven", "driving", "driver", "why", "cause", "caused",
    "reason", "explain", "explains", "explanation", "behind", "led", "contributed",
    "contributors", "accounted", "responsible", "during", "quarter",
    "month", "ended", "fiscal", "main", "primary", "key", "factor", "first", "second", "third",
    "fourth", "three", "nine", "twelve", "weeks", "half",
    # the period compared with, not the measure: "than a year earlier", "the prior year"
    "year", "years", "earlier", "ago", "prior", "previous", "compared", "than",
    # the change itself, in any direction: the measure is what changed
    "change", "growth", "grow", "increase", "decrease", "decline", "rise", "fall", "drop",
    "gain", "improvement", "improve", "expansion", "contraction", "higher", "lower",
    "reduction", "reduce", "reduced", "decreased", "increased", "declined",
})
ROOT_LETTERS = 6
# a change named by its way: "Negative impacts to gross margin were primarily driven by ..."
# (Corning's MD&A, after the change's size), "favorable impacts"
IMPACT_BY_WAY = {"up": r"(?:positive(?:ly)?|favorabl[ey])\s+impact\w*",
                 "down": r"(?:negative(?:ly)?|unfavorabl[ey]|advers[ey](?:ly)?)\s+impact\w*"}
# the direction a change is worded in ("decreased", "growth"): a question's and its sentence's
DIRECTION_RES = {
    "up": re.compile(r"\b(?:increas\w*|grow\w*|grew|growth|ris[ei]\w*|rose|higher|"
                     rf"expan\w*|gain\w*|up(?= \$?\d)|{IMPACT_BY_WAY['up']})\b",  # "up 1.6"
                     re.IGNORECASE),
    "down": re.compile(r"\b(?:decreas\w*|declin\w*|fell|fall\w*|drop\w*|lower|reduc\w*|"
                       rf"contract\w*|shr[iu]nk\w*|down(?= \$?\d)|{IMPACT_BY_WAY['down']})\b",
                       re.IGNORECASE),
}
# a change worded by its worth, not its way: "improved" is up for a margin or sales, down for a
# loss, an expense or a cost (a net loss improves as it narrows). Not "improvements" (leasehold
# improvements are assets), nor "better" ("better than expected")
WORTH = {"better": r"improv(?:e|es|ed|ing|ement)", "worse": r"(?:worsen\w*|deteriorat\w*)"}
WORTH_RES = {worth: re.compile(rf"\b{words}\b", re.IGNORECASE) for worth, words in WORTH.items()}
LOWER_IS_BETTER = r"(?:loss(?:es)?|expenses?|costs?|deficit)"
# the loss, expense or cost is what improved or worsened, as a noun's object ("the improvement
# in (our) net loss") or a verb's subject with no object ("net loss for the quarter improved
# by $5 million"); never a cause ("Cost savings improved margins", "improved with lower costs")
LOWER_IS_BETTER_RE = re.compile(
    rf"\b(?:improvement|deterioration|worsening)\s+(?:in|of)\s+(?:\S+\s+){{0,2}}?"
    rf"(?:net\s+)?{LOWER_IS_BETTER}\b|\b{LOWER_IS_BETTER}\s+(?:for\s+the\s+(?:\w+\s+){{0,2}}?)?"
    r"(?:improved|worsened|deteriorated)\b(?=\s*(?:$|[,.;]|by\b|to\b|from\b|in\b|"
    r"compared\b|versus\b|primarily\b|mainly\b|largely\b|due\b|as\b))", re.IGNORECASE)
# what a "which segment drove ..." question ranks, not the measure that changed
MEMBER_WORDS = frozenset({"segment", "segments", "geography", "geographies", "region", "regions",
                          "division", "divisions", "business", "businesses", "market", "markets",
                          "product", "products", "largest", "biggest", "share", "most"})
PARENTHESES_RE = re.compile(r"\([^()]*\)")
# a heading over one segment's discussion in MD&A ("Sam's Club Segment", "Segment Results"):
# its sentences explain the segment's change, not the company's
SEGMENT_HEADING_RE = re.compile(r"\bsegments?\b", re.IGNORECASE)
MIN_CAUSE_WORDS = 3  # "primarily due to pricing" is a cause; "due to" alone is not
# causes that only point to where they are given: "due to the factors described above"
POINTER_CAUSE_RE = re.compile(
    r"^\W*(?:(?:primarily|largely|mainly|partly|partially)\s+)?(?:due\s+to|driven\s+by|"
    r"as\s+a\s+result\s+of|attributable\s+to|because\s+of|reflecting|resulting\s+from)\s+"
    r"(?:the|these|those)\s+(?:\w+\s+)?(?:factors?|items?|reasons?|changes?|matters?|drivers?)\s+"
    r"(?:described|discussed|noted|mentioned|outlined|explained|set\s+forth)\s+"
    r"(?:above|below|previously|earlier|herein)\b", re.IGNORECASE)
# causes that only open what follows: a connective of a few words, then "the following"
FOLLOWING_CAUSES_RE = re.compile(r"^\W*(?:[\w-]+\s+){1,4}the\s+following\W*$", re.IGNORECASE)
MAX_SUBJECT_WORDS = 60  # what changed, before the connective: a clause, not a page
MDNA_BONUS = 0.5
YEAR_WEIGHT = 0.25
MIN_MEASURE_SHARE = 0.5  # half the measure's words named before the connective, at least
OTHER_SUBJECT_PENALTY = 0.25
OWNER_BONUS = 0.25  # the segment the question names, in the sentence or its heading
# the change a sentence explains: "increased", "fell 120 basis points", "up 44%", "higher",
# "compared to" the period before
CHANGE_RE = re.compile(r"\b(?:increas|decreas|declin|grow|grew|rose|rise|fell|fall|drop|"
                       r"improv|expan|contract|reduc|higher|lower|up|down|chang|gain|loss|"
                       rf"{IMPACT_BY_WAY['up']}|{IMPACT_BY_WAY['down']}|"
                       # "was $2,807 million compared to $2,841 million": two periods' amounts
                       r"compared (?:to|with))", re.IGNORECASE)
NAME_RE = re.compile(r"\b[A-Z][a-z][\w&'-]*")
# a line stated as a share of revenue (a common-size figure) names revenue as its base, not as
# what changed: "Operating expenses as a percentage of net sales decreased" is no net sales
COMMON_SIZE_RE = re.compile(r"\bas an? (?:percent(?:age)?|share|%) of (?:(?:total|net|"
                            r"consolidated|operating|segment)\s+)*(?:sales|revenues?)\b",
                            re.IGNORECASE)
# a change named as a noun with what changed after it: "changes to the contribution rate"
CHANGE_OF_RE = re.compile(r"(?:increases?|decreases?|declines?|changes?|reductions?|"
                          r"improvements?|expansions?|gains?|losses|growth)\s+(?:in|to|of)\s+"
                          r"(?P<what>(?:(?:the|our|its)\s+)?[a-z][\w&'’-]*(?:\s+[\w&'’-]+){0,4}?)"
                          r"(?=\s+(?:for|in|during|from|of|was|were|is|and|by|to|at|as|"
                          r"compared)\b|[,.;]|$)", re.IGNORECASE)
# a level compared with another measure, not with another period ("Our effective income tax
# rate is typically lower than the U.S. statutory rate" states no change; what follows "than"
# when a period does is core/text's names_a_period)
OTHER_THAN_RE = re.compile(r"\b(?:higher|lower)\s+than\s+", re.IGNORECASE)
# how an amount is presented, no change of it: "recorded as a reduction to revenues"
PRESENTED_AS_RE = re.compile(r"\b(?:recorded|recognized|presented|reported|classified|"
                             r"accounted\s+for|treated)\s+as\s+(?:an?\s+)?(?:\w+\s+)?"
                             r"(?:reductions?|increases?|decreases?|offsets?)\b", re.IGNORECASE)
# a change that might happen is no change a filing explains: "any significant decrease in
# display glass pricing could have a material ... impact" (a risk factor's conditional)
HYPOTHETICAL_RE = re.compile(r"\b(?:could|might|would|may)\b")
# what will be done is a policy or an expectation, no change that was ("As glass is shipped to
# the customer, Corning will recognize revenue ... resulting from the sale of glass", its 2015
# 10-K's revenue recognition), unless the question asks what is expected; so is what is
# anticipated ("Company revenues are anticipated to be lower in 2023 than in 2022 due to
# expected revenue declines", Pfizer's guidance, explains no quarter's decline)
FUTURE_RE = re.compile(r"\bwill\b|\b(?:anticipated|expected|projected|forecasted) to\b|"
                       r"\b(?:expects?|anticipates?)\b", re.IGNORECASE)
POSSESSIVE_S_RE = re.compile(r"['’]s\b")
# a run of capitalized words, dotted initials among them ("Walmart U.S.", "U.K. Retail"; not
# the accounting standards' "U.S. GAAP")
_NAME_WORD = r"(?:[A-Z][a-z][\w&'-]*|[A-Z]\.(?:[A-Z]\.)+(?:['’]s)?(?!\s+GAAP))"
NAME_RUN_RE = re.compile(rf"\b{_NAME_WORD}(?:\s+(?:&\s+)?{_NAME_WORD})*")
# capitalized words that name no other subject: months, a heading's first words, statements
MONTHS = frozenset({"january", "february", "march", "april", "may", "june", "july", "august",
                    "september", "october", "november", "december"})
GENERIC_NAMES = MONTHS | frozenset({
    "fiscal", "net", "total", "the", "our", "company",
    "consolidated", "first", "second", "third", "fourth", "quarter", "three", "six", "nine",
    "twelve", "months", "weeks", "ended", "year", "in", "for", "as",
})
# an adverb of degree before a connective: "primarily due to", "partially offset by"
ADVERB_BEFORE_RE = re.compile(r"\b(?:primarily|mainly|largely|principally|partially|partly|"
                              r"mostly|chiefly|predominantly|in part|in large part)\s+$",
                              re.IGNORECASE)
# where a clause of a run-on bullet starts: "reflecting: - Net interest income", "; Card"
CLAUSE_START_RE = re.compile(r"[:;•]\s*[-–—]?\s*|\s[-–—]\s")
# the conjunction a subject ends on before its connective: "Total net revenue was up 1%, and
# [reflected: ...]" (JPMorgan's 10-Q)
TRAILING_AND_RE = re.compile(r"[\s,]+(?:and|but)$", re.IGNORECASE)
# the words that end a measure's qualifiers, read back from the measure: "an increase in
# [revenue]", "our [net sales]"
QUALIFIER_STOPS = frozenset({"the", "our", "its", "their", "a", "an", "in", "of", "for", "and",
                             "to", "from", "by", "on", "at", "with", "was", "were", "is", "are",
                             "as", "or", "that", "which", "these", "this"})
MAX_QUALIFIER_WORDS = 4
# causes that open a list inside a bullet: "reflected: – Net interest income ..."
LIST_OPENED_RE = re.compile(r"^[\w ]{1,40}:\s*[-–—◦]\s", re.IGNORECASE)
MAX_LIST_SENTENCES = 4
# the verb a subject ends on before its connective: "The decrease ... was [primarily due to]"
TRAILING_VERB_RE = re.compile(r"\s+(?:was|were|is|are|has been|have been|had been)$",
                              re.IGNORECASE)
# the cells of a table a sentence's chunk ran into before it ("% 3 % Interest and other income
# (expense) decreased ...", Netflix's Q2 2023 10-Q): figures and bare "%" or "$" signs before
# the sentence's capitalized first word, at least one sign among them
LEADING_CELLS_RE = re.compile(r"^(?=[\d.,()\s]*[%$]\s)(?:[%$]|[\d.,()]+)(?:\s+(?:[%$]|[\d.,()]+))*"
                              r"\s+(?=[A-Z][a-z])")
# a change named as a noun: "the increase", "these declines"
CHANGE_NOUN = (r"(?:increases?|decreases?|declines?|changes?|improvements?|growth|reductions?|"
               r"rise)\b")
# a sentence whose change is the previous sentence's: "The increase was primarily due to ..."
ANAPHOR_RE = re.compile(r"^\s*(?:the|this|these|such)\s+"
                        # its size may come first: "The 2.6 percentage point decrease", "The
                        # $140 million increase"
                        r"(?:(?:\$?\d[\d.,]*\s*(?:%|percent(?:age[- ]points?)?|basis[- ]points?|"
                        rf"bps|points?|million|billion)?[\s-]+)?{CHANGE_NOUN}"
                        # or the period whose results the sentence before gave: "The current
                        # quarter was negatively affected by a three-day ... closure"
                        rf"|{PERIOD_REFERRED})",
                        re.IGNORECASE)
# causes said before their verb: "The negative impact of the yen ... drove the decrease, but
# were partially offset by cost reductions" (the change is the sentence before's)
ACTIVE_CAUSE_RE = re.compile(
    r"\s+(?:primarily |largely |mainly )?(?:drove|caused|led to|resulted in|contributed to)\s+"
    rf"(?P<change>(?:the|this|these)\s+{CHANGE_NOUN})", re.IGNORECASE)
OFFSET_TAIL_RE = re.compile(r"^[\s,;]*(?:but|and|which)?\s*(?:(?:were|was|is|are)\s+)?"
                            r"(?P<offset>(?:partially |partly |somewhat )?offset by\b.*)$",
                            re.IGNORECASE)
# what an anaphor goes on with when it names its own measure: "The $550 million change in
# current assets and liabilities"
OWN_MEASURE_RE = re.compile(r"\s+(?:in|of)\s+\w", re.IGNORECASE)
# an item a measure's level includes ("..., which includes a non-recurring charge of $298
# million"): it explains the measure without a word of change before it
LEVEL_CAUSE_RE = re.compile(r"^\s*which\s+(?=includ)", re.IGNORECASE)
LEVEL_DISCOUNT = 0.25
LOSS_ITEM_RE = re.compile(r"\b(?:charges?|loss(?:es)?|impairments?|expenses?)\b", re.IGNORECASE)
GAIN_ITEM_RE = re.compile(r"\b(?:gains?|benefits?)\b", re.IGNORECASE)
# a sentence that goes on explaining the previous one's change: its anaphor, or "In addition"
CONTINUES_RE = re.compile(rf"{ANAPHOR_RE.pattern}|^\s*(?:in addition|additionally|also|"
                          r"partially offsetting)\b", re.IGNORECASE)


def root(word: str) -> str:
    """A word's root for matching a measure's words: its first six letters, a plural's "s"
    dropped first ("revenues" and "revenue" agree; "interest" and "interchange" do not)."""
    word = word.lower()
    return (word[:-1] if len(word) > 3 and word.endswith("s") else word)[:ROOT_LETTERS]


def asks_members_drove(question: Question) -> bool:
    """"Which segment drove the decline in net sales?": the names are asked, and MD&A's
    sentence that explains the total's change names them with their amounts ("primarily driven
    by decreased segment sales in Optical Communications of $247 million")."""
    return question.expects == "names" and bool(question.phrased("members_drove"))


def measure_roots(question: Question) -> set[str]:
    """The measure a "what drove" question names, as roots (:func:`root`: "Asia Pacific net
    revenues" -> {"asia", "pacifi", "revenu"}): its content words but the asking ones, the
    change's own ("growth", "decline") and the company's name (``Question.companies``)."""
    company = {root(w) for w in words(" ".join(question.companies))}
    asking = {root(w) for w in ASKING_WORDS | MONTHS | (
        MEMBER_WORDS if question.expects == "names" else frozenset())}
    return {root(w) for w in words(question.ranking_text)
            if w.isalpha() and len(w) >= 4} - asking - company


class Reading(NamedTuple):
    """A reading of the measure asked: its roots (half of them named, or two, is enough) and
    those of the line item it is read as, which are named whole or not at all ("net operating
    loss carryforwards" names no "net operating revenues")."""

    roots: frozenset[str]
    whole: frozenset[str] = frozenset()
    common_size: bool = False  # the question asks a share of revenue: its base is named too
    # the line item's roots in the order it prints them: named whole is named as one phrase
    # ("cash flows provided by operating activities ... net income" names no operating income)
    phrase: tuple[str, ...] = ()


def measure_readings(question: Question) -> list[Reading]:
    """The measure's roots, then the same with a metric it names read as the line item a
    filing prints for it: MD&A explains "gross profit" or "operating income" where a question
    asks about the gross margin or the operating margin (``finance_terms.json``'s line items
    that share a word with the metric's phrase), and a line item it names read as every label
    the vocabulary prints it under ("operating revenues" for "net sales")."""
    roots = measure_roots(question)
    common_size = COMMON_SIZE_RE.search(question.ranking_text) is not None
    norm = normalize(question.ranking_text)
    terms = terms_in(question.ranking_text)
    # an abbreviation asked ("SG&A") is named whole, spelled out or not: "Sales and marketing
    # expenses" shares two words with "SG&A expense as a percent of net sales" and is another
    spelled = frozenset(root(w) for m in abbreviation_re().finditer(question.ranking_text)
                        for w in spelled_words(m[0]) if len(w) >= 4)
    readings = [Reading(frozenset(roots | spelled), spelled, common_size=common_size)]
    if named := _line_item_named(terms, norm):
        # a line item asked is named whole, short words and all: "net sales" is no "loan
        # sales" (JPMorgan's "Home Lending warehouse loan sales outpaced originations")
        readings = [Reading(frozenset(roots), frozenset(named), common_size, named)]
    vocabulary = load_vocabulary()
    for term in terms:
        phrase = {root(w) for w in words(norm[term.start:term.end])
                  if w.isalpha() and len(w) >= 4}
        for item in vocabulary.line_items_of(term.name):
            # a line item keeps its short words: "net income" is not any income
            # its alternate in parentheses is no part of it: "operating income (loss)"
            ordered = tuple(root(w) for w in words(PARENTHESES_RE.sub(" ", item))
                            if w.isalpha() and len(w) >= 3)
            item_roots = set(ordered)
            reading = Reading(frozenset((roots - phrase) | item_roots), frozenset(item_roots),
                              common_size, ordered)
            # a line item is the same measure printed under another name ("revenues" for
            # "net sales": Netflix's and American Water's MD&A explain their revenues); a
            # metric's line items only where they share a word with it (gross profit, not
            # revenue, for the gross margin)
            if ((item_roots & phrase or not term.is_metric) and item_roots != phrase
                    and reading not in readings):
                readings.append(reading)
    return readings


def _line_item_named(terms: Sequence[TermMatch], norm: str) -> tuple[str, ...]:
    """The roots, in order, of the one line item (not a metric) the question names in two
    words or more; empty otherwise."""
    items = [t for t in terms if not t.is_metric]
    if len(items) != 1:
        return ()
    named = tuple(root(w) for w in words(norm[items[0].start:items[0].end])
                  if w.isalpha() and len(w) >= 3)
    return named if len(named) > 1 else ()


_NAME_WORD_RE = re.compile(r"[a-z0-9&]+")  # a name's words, its hyphens and dots left out


def subjects_named(question: Question) -> set[str]:
    """Names the question gives the measure's owner beyond the company ("Regulated
    Businesses", "Asia Pacific"), each a run of capitalized words, lower case: a segment's
    change is asked, not the company's (written with or without its hyphen: "Coca-Cola's"
    of the company "Coca Cola")."""
    company = set(_NAME_WORD_RE.findall(" ".join(question.companies).lower()))
    found = set()
    for run in NAME_RUN_RE.finditer(question.ranking_text):
        kept = [w for w in (x.lower().removesuffix("'s").rstrip("'") for x in run.group(0).split())
                if not set(_NAME_WORD_RE.findall(w)) <= company and w not in GENERIC_NAMES
                and w not in ASKING_WORDS]
        if kept and run.start():
            found.add(" ".join(kept))
    return found


def names_owner(text: str, owners: frozenset[str] | set[str]) -> bool:
    """Whether ``text`` names one of the owners :func:`subjects_named` read (lower case, a
    possessive's "'s" dropped: "Sam's Club Segment" names "sam club")."""
    plain = POSSESSIVE_S_RE.sub("", text.lower())
    return any(o in plain for o in owners)


def _splits(unit: EvidenceUnit) -> list[tuple[str, str]]:
    """(what changed, its causes) at each causal connective of a sentence, in order: "Total net
    revenue was up 34%, reflecting: - Net interest income up 44%, driven by higher rates" holds
    two, and which one explains the measure asked is the scorer's to say. An adverb before the
    connective ("primarily due to") goes with the causes."""
    lower = unit.text.lower()
    starts = sorted({m.start() for p in answer_patterns("cause") for m in p.finditer(lower)})
    out = []
    for at in starts:
        adverb = ADVERB_BEFORE_RE.search(unit.text[:at])
        at = adverb.start() if adverb else at
        causes = _own_item(unit.text[:at], unit.text[at:].strip()).rstrip(".;: ")
        # a table's rows after the connective are no cause a reader would name
        if len(causes.split()) >= MIN_CAUSE_WORDS and not reads_as_table(causes):
            out.append((unit.text[:at], causes))
    active = ACTIVE_CAUSE_RE.search(unit.text)
    if active is not None:
        causes = unit.text[:active.start()].strip()
        tail = OFFSET_TAIL_RE.match(unit.text[active.end():])
        if tail is not None:
            causes = f"{causes}, {tail['offset'].strip().rstrip('.')}"
        if len(causes.split()) >= MIN_CAUSE_WORDS and not reads_as_table(causes):
            out.append((active["change"], causes))
    return out


def _share_named(readings: Sequence[Reading], subject: str) -> float:
    """The best share of a reading of the measure the sentence names before its connective;
    0 below half its roots (or below two of them), or without its line item's every root. The
    revenue a common-size figure is stated against counts only for a question that asks one."""
    subject = spelled_out(subject)
    named_all = {root(w) for w in words(subject) if w.isalpha()}
    named_changed = {root(w) for w in words(COMMON_SIZE_RE.sub(" ", subject)) if w.isalpha()}
    sequence = [root(w) for w in words(subject) if w.isalpha() and len(w) >= 3]
    best = 0.0
    for roots, whole, common_size, phrase in readings:
        named = named_all if common_size else named_changed
        found = len(roots & named)
        if (roots and found / len(roots) >= MIN_MEASURE_SHARE and found >= min(len(roots), 2)
                and whole <= named and _printed_as_one(phrase, sequence)):
            best = max(best, found / len(roots))
    return best


def _printed_as_one(phrase: Sequence[str], sequence: Sequence[str]) -> bool:
    """Whether a line item's roots run together in a sentence's (one word may come between:
    "operating (loss) income"); true for no line item."""
    run = r"(?: \S+)? ".join(map(re.escape, phrase))
    return not phrase or re.search(rf"(?:^| ){run}(?: |$)", " ".join(sequence)) is not None


def _score(readings: Sequence[Reading], unit: EvidenceUnit, subject: str,
           question_words: set[str], owners: frozenset[str] | set[str], asked_way: str | None,
           level: bool = False, directed: str | None = None
           ) -> float:
    """Share of the measure's roots the sentence names before its connective, plus a bonus
    in MD&A, the section required to give the reasons; 0 below half the roots. A question
    that names the measure's owner (a segment) prefers the sentences of that owner (named in
    the sentence or its section's heading), and the others lose as another subject's.
    ``directed``: the way the connective itself says the measure went ("Consolidated
    operating income was negatively affected by ...", MGM Resorts 2018: down), a change
    stated as the subject would state it."""
    share = _share_named(readings, subject)
    if not share or _another_measure(question_words, subject, "others"):
        return 0.0  # "net debt to operating cash flow ratio" is no operating cash flow
    if _changes_only_another(readings, subject):
        return 0.0  # "minor changes to the contribution rate" is no change of operating income
    if not _states_change(subject) and directed is None:
        if not level:
            return 0.0  # Item 303 explains a change: "because it is useful to investors" is none
        share -= LEVEL_DISCOUNT  # a sentence that gives the change itself wins
    other = OTHER_SUBJECT_PENALTY if (_names_another_subject(question_words, subject)
                                      or _qualified(readings, subject, question_words)) else 0.0
    if owners:
        other = -OWNER_BONUS if names_owner(f"{subject} {unit.scope}", owners) else \
            OTHER_SUBJECT_PENALTY
    elif _another_measure(question_words, subject) or SEGMENT_HEADING_RE.search(
            unit.scope.rsplit("|", 1)[-1]):
        return 0.0  # the company's change is asked: a segment's ("Segment operating profit
        # ... declined", a sentence under "U.S. Retail Segment") never explains it
    changed = stated_direction(subject) or directed
    if asked_way and changed and asked_way != changed:
        other += OTHER_SUBJECT_PENALTY  # an increase does not explain the decline asked
    return share - other + (MDNA_BONUS if "mdna" in sections_of(unit.scope) else 0.0)


def _changes_only_another(readings: Sequence[Reading], subject: str) -> bool:
    """Whether every change the subject names is a noun with what changed after it ("changes
    to the contribution rate", "an increase in costs") and none of those is the measure asked:
    the measure is then named beside another thing's change, not as what changed."""
    found = list(CHANGE_RE.finditer(subject))
    named = [CHANGE_OF_RE.match(subject, m.start()) for m in found]
    return bool(found) and all(n is not None and not _share_named(readings, n["what"])
                               for n in named)


def _states_change(subject: str) -> bool:
    """Whether the subject states a change: a change word, not "lower than" another measure,
    nor how an amount is presented ("is recorded as a reduction to revenues", a revenue
    policy's variable consideration: ASC 606-10-32-25)."""
    compared = [m.span() for m in OTHER_THAN_RE.finditer(subject)
                if not names_a_period(subject[m.end():])]
    compared += [m.span() for m in PRESENTED_AS_RE.finditer(subject)]
    return any(not any(a <= m.start() < b for a, b in compared)
               for m in CHANGE_RE.finditer(subject))


def segments_change(answer: DirectAnswer) -> bool:
    """Whether the change a cause answer explains is a segment's: its subject names a segment
    ("operating expenses as a percentage of segment net sales") or a sentence it cites stands
    under a segment's heading ("Sam's Club Segment", read by :func:`drivers`)."""
    return bool(SEGMENT_HEADING_RE.search(answer.changed)) or any(
        SEGMENT_HEADING_RE.search(u.scope.rsplit("|", 1)[-1]) for u in answer.units)


def explained_way(answer: DirectAnswer) -> str | None:
    """Which way the change a cause answer explains went, as its sentences say before their
    causes: "For fiscal 2022, the decrease was primarily driven by ..." after "Gross profit
    rate decreased 55 basis points and increased 50 basis points for fiscal 2022 and 2021"
    went down; None when no sentence says one way."""
    for unit in reversed(answer.units):
        splits = _splits(unit)  # the first: what the sentence explains
        if splits and (way := stated_direction(without_period_lead(splits[0][0]))):
            return way
    return stated_direction(answer.changed)


def _other_way(question: Question, subject: str, causes: str = "") -> bool:
    """Whether the sentence explains a change the other way than the one a cause question
    names ("an increase of 10% due to ..." explains no decline asked: "What drove the decline
    in ...?"), or its connective says the change went the other way than its subject or the
    question does ("Net sales increased 8%, negatively affected by currency"): a connective
    that carries a way (``answer_types.json``'s ``up_only`` and ``down_only``) explains only
    that way's part. A yes or no asks the way ("Is its gross margin improving, and what is
    driving it?"), it names none."""
    named = (stated_direction(question.text)
             if question.expects == "cause" and question.way is None else None)
    said = stated_direction(subject)
    if named is not None and said is not None and said != named:
        return True
    way, connective = said or named, _connective_way(causes)
    return way is not None and connective is not None and connective != way


def explained_direction(changed: str, causes: str) -> str | None:
    """The way a sentence says what it explains went: its subject's words ("decreased"),
    else its connective's ("was negatively affected by": down)."""
    return stated_direction(changed) or _connective_way(causes)


def _connective_way(causes: str) -> str | None:
    """The way a cause's connective says the change went ("negatively affected by": down;
    "benefited from": up), or None."""
    head = causes.lstrip(" \t-–—•,;:").lower()
    return next((way for way in ("up", "down")
                 if any(p.match(head) for p in answer_qualifiers("cause", f"{way}_only"))), None)


def stated_direction(text: str) -> str | None:
    """"up" or "down" when the text names one direction of change only, else None. A change
    worded by its worth goes the measure's better way: up, but down for a loss, an expense or a
    cost the text names ("the improvement in net loss" is its decrease); a worsening of no such
    measure counts only where no plain way is said ("credit cost rising ... versus underlying
    deterioration" is up)."""
    found = {d for d, pattern in DIRECTION_RES.items() if pattern.search(text)}
    stated = bool(found)
    falling = [m.span() for m in LOWER_IS_BETTER_RE.finditer(text)]
    for worth, pattern in WORTH_RES.items():
        for m in pattern.finditer(text):
            falls = any(a <= m.start() < b for a, b in falling)
            if worth == "worse" and not falls and stated:
                continue  # "rising ... underlying deterioration" (of credit): the way is said
            found.add("down" if (worth == "better") == falls else "up")
    return found.pop() if len(found) == 1 else None


def _another_measure(question_words: set[str], subject: str, key: str = "qualifiers") -> bool:
    """Whether the change is of another measure than the one asked: "Adjusted operating
    profit" or "Segment operating profit" for a question on operating profit
    (``answer_types.json``'s qualifiers: non-GAAP and segment measures are others; with
    ``key="others"``, a ratio the measure is a term of), unless the question says it too."""
    lowered = subject.lower()
    asked = {part for w in question_words for part in re.findall(r"[a-z0-9]+", w.lower())}
    # named by the question too when it asks every word of it ("as a percentage of")
    return any(m is not None and not set(re.findall(r"[a-z0-9]+", m.group(0))) <= asked
               for m in (p.search(lowered) for p in answer_qualifiers("cause", key)))


def _names_another_subject(question_words: set[str], subject: str) -> bool:
    """Whether the change is of something the question does not name: a capitalized name past
    the subject's first word ("Convenience Stores & Foodservice net sales increased") when the
    question asks of the company's."""
    names = [m.group(0).lower() for m in NAME_RE.finditer(subject)
             if m.start() or _names_the_measure(subject[m.end():], question_words)]
    return any(n not in question_words for n in names if n not in GENERIC_NAMES)


def _qualified(readings: Sequence[Reading], subject: str, question_words: set[str]) -> bool:
    """Whether the first word the subject names the measure by (a reading's last word) comes
    after a word that neither the question nor any reading of the measure prints: a part or
    another measure, not the one asked ("Principal transactions revenue increased", "higher net
    mortgage servicing revenue" and "Comparable sales" where net sales are asked, read as
    total net revenue; "Total net revenue" and "Operating revenues" are readings' own words)."""
    heads = {r.phrase[-1] for r in readings if r.phrase}
    allowed = ({w for r in readings for w in r.roots | r.whole} | {root(w) for w in
               question_words | GENERIC_NAMES | QUALIFIER_STOPS})
    # words, and the figures and marks that end a run of them ("2018 vs. 2017 Net Sales")
    tokens = re.findall(r"[a-z][\w'&-]*|[^\sa-z]+", subject.lower())
    at = next((i for i, token in enumerate(tokens) if root(token) in heads), None)
    if at is None:
        return False
    before = []
    for token in reversed(tokens[max(0, at - MAX_QUALIFIER_WORDS):at]):
        if token in QUALIFIER_STOPS or not token[0].isalpha():
            break  # "an increase in [revenue]": what comes before is no qualifier
        before.append(token)
    return any(root(token) not in allowed for token in before)


def _names_the_measure(after: str, question_words: set[str]) -> bool:
    """Whether a sentence's first word is followed by the question's measure: the first word
    of "Pet operating profit decreased" names whose operating profit it is (a segment's)."""
    following = re.findall(r"[a-z]+", after.lower())[:1]
    return bool(following) and following[0] in question_words and \
        following[0] not in GENERIC_NAMES


def _previous(units: Sequence[EvidenceUnit]) -> dict[int, EvidenceUnit]:
    """Each unit's preceding sentence in its chunk (by position in ``units``): what "The
    increase" of "The increase was primarily due to ..." refers to."""
    out: dict[int, EvidenceUnit] = {}
    last: dict[str, EvidenceUnit] = {}
    for unit in units:
        if unit.chunk_id in last:
            out[id(unit)] = last[unit.chunk_id]
        last[unit.chunk_id] = unit
    return out


def _own_item(subject: str, causes: str) -> str:
    """The causes of a list's item up to the list's next item: a sentence of bullets ("...; •
    Gross margin percentage decreased 29 basis points due to ...; • Selling, general &
    administrative (SG&A) expenses ... decreased 24 basis points ...", Costco's 2018
    highlights) explains one item's change in it, and the items after it are other measures'.
    The item is opened by the mark last printed before its change; the causes are cut at that
    mark's next print, unless the causes open a list of their own there ("reflecting: • a net
    addition ... • $727 million of net charge-offs", "primarily due to the following factors:
    • ...") or the words before it leave a clause open ("partially offset by • ...")."""
    marks = [c for c in subject if c in BULLET_MARKS]
    if not marks:
        return causes
    head, mark, _ = causes.partition(marks[-1])
    if not mark or len(head.split()) < MIN_CAUSE_WORDS or _OPEN_CLAUSE_RE.search(head):
        return causes
    return head.rstrip(" ;,")


# words that leave a clause open before a list's mark: the list goes on with it
_OPEN_CLAUSE_RE = re.compile(r"(?:[:,–—-]|\b(?:by|and|or|of|to|from|including|in|with|as|a|an|"
                             r"the|following))\s*$", re.IGNORECASE)


def _candidate(question: Question, roots: Sequence[Reading], asked: set[str],
               unit: EvidenceUnit, before: EvidenceUnit | None,
               owners: frozenset[str] | set[str] = frozenset(), asked_way: str | None = None,
               known_way: bool = False) -> tuple[float, list[EvidenceUnit], str, str] | None:
    """(score, units cited, what changed, its causes) of the sentence's best split, or None;
    ``roots`` the measure's readings, ``asked`` the question's words, lower case, ``owners``
    the segment it names; with ``known_way`` (the statements say which way the measure
    went), a connective that says the way states the change ("was negatively affected by")."""
    if unit.is_row or "risk_factors" in sections_of(unit.scope):
        return None  # Item 1A says what could happen; Item 303 asks MD&A for what did
    best = None
    for subject, causes in _splits(unit):
        subject = CLAUSE_START_RE.split(subject)[-1]  # "... reflecting: - Net interest income"
        # a scanned page's table may run into the sentence: "... 22.0 % 24.3 % (2.3)%
        # Operating income margins decreased in 2018 versus 2017, driven primarily by ...";
        # an anaphor right after a table ("| 1,100 | The increase was ...") refers to it
        trimmed = unit
        if not _refers_back(prose := prose_after_table(subject)):
            if prose != subject:
                trimmed = _from_prose(unit, prose)
            subject = prose
        if len(subject.split()) > MAX_SUBJECT_WORDS or reads_as_table(subject):
            continue  # a table's cells run into the sentence: no subject a reader would name
        if HYPOTHETICAL_RE.search(subject) or (FUTURE_RE.search(subject) and not
                                               question.phrased("future")):
            continue  # a change that could happen, or will, is none the filing explains
        if any(p.search(subject.lower()) for p in answer_patterns("cause")):
            continue  # a connective inside the causes ("..., primarily due to ...") splits them
        if _wider_line_item(question, subject):
            continue
        cited = [trimmed]
        level = bool(LEVEL_CAUSE_RE.match(causes))
        if level and not _level_agrees(question, causes):
            continue
        causes = LEVEL_CAUSE_RE.sub("", causes, count=1) if level else causes
        score = _score(roots, unit, subject, asked, owners, asked_way, level,
                       _connective_way(causes) if known_way else None)
        if not score and _refers_back(subject) and before is not None and not before.is_row:
            # "The increase was due to ...": the change is the sentence before's, or the
            # anaphor's own ("The 2.6 percentage point decrease" of a rate "compared to")
            # (a table run into the sentence before is no part of the change it states)
            anaphor, subject, cited = subject.lower(), prose_after_table(before.text), [
                before, unit]
            if _wider_line_item(question, subject):
                continue
            said_way = stated_direction(anaphor)
            if (asked_way and said_way and asked_way != said_way) or (
                    _share_named(roots, subject) < 1.0):
                # "The decrease" explains no increase asked; and the change the anaphor
                # states is of the measure only when the sentence before names it whole
                anaphor = ""
            score = _score(roots, unit, f"{subject} {anaphor}".strip(), asked, owners,
                           asked_way)
        if score:
            score += _years_weight(question, subject) - _unqualified(question, subject)
        if score and (best is None or score > best[0]):
            best = (score, cited, subject, causes)
    return best


def _from_prose(unit: EvidenceUnit, prose: str) -> EvidenceUnit:
    """The unit from where its prose starts, when a table's cells ran into its start (MGM
    Resorts' Q2 2023 10-Q: the summary table's rows, then "Consolidated net revenues increased
    21% ..."): what is cited is the sentence as the page prints it, not the table run into
    it. The unit as it was when its quote does not print the prose's opening."""
    opening = " ".join(prose.split()[:6])
    flat_quote, flat_text = " ".join(unit.quote.split()), " ".join(unit.text.split())
    at_quote, at_text = flat_quote.find(opening), flat_text.find(opening)
    if at_quote < 0 or at_text < 0:
        return unit
    return unit.model_copy(update={"quote": flat_quote[at_quote:], "text": flat_text[at_text:]})


# what a cash flow line prints between its head and its activity: "cash provided by (used in)"
HEAD_GAP_RE = re.compile(r"(?:[\s()]|provided|used|by|in|from|generated)*")


def _wider_line_item(question: Question, subject: str) -> bool:
    """Whether the subject's change is of another line item whose name holds the one asked:
    "cash used in investing activities increased $588 million" where the cash balance is asked
    (American Water's Q2 2023 10-Q), a flow of another statement, not the balance."""
    keys = _asked_line_items(question.ranking_text)
    if not keys:
        return False
    names = {name for name, _ in keys}
    named = [t for t in terms_in(subject) if not t.is_metric]
    others = [t for t in named if t.name not in names]
    # the measure asked named as the head of another's phrase is that other's: "Net cash
    # provided by (used in) investing activities" names no cash balance
    norm = normalize(subject)
    own = [t for t in named if t.name in names and not any(
        o.start >= t.end and HEAD_GAP_RE.fullmatch(norm[t.end:o.start]) for o in others)]
    if not others or own:
        return False
    return any(key and any(key <= set(norm[t.start:o.end].split()) for o in others
                           for t in [*named, o] if t.start <= o.start) for _, key in keys)


@cache
def _asked_line_items(ranking_text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """The line items a question names, each with the words its phrase shares with the
    item's title ("cash" of "cash position" and "cash and cash equivalents"): read once per
    question, not once per sentence scanned."""
    said, vocabulary = normalize(ranking_text), load_vocabulary()
    return tuple((t.name, frozenset(said[t.start:t.end].split())
                  & frozenset(normalize(vocabulary.title(t.name)).split()))
                 for t in terms_in(ranking_text) if not t.is_metric)


def refers_elsewhere(causes: str) -> bool:
    """Whether the causes only point to where the filing gives them ("due to the factors
    described above", "As a result of the factors discussed above"): a reader learns no
    cause from them, though the sentence still states the change as printed. Read on the
    first clause: a cause answer's own text goes on with the change ("Due to the factors
    described above; Operating income increased ...")."""
    clause = causes.split(";", 1)[0]
    pointer = POINTER_CAUSE_RE.match(clause)
    return pointer is not None and len(clause[pointer.end():].split()) < MIN_CAUSE_WORDS


def _level_agrees(question: Question, causes: str) -> bool:
    """Whether an item a measure includes can explain the change asked: a charge or a loss a
    decline, a gain or a benefit an increase; either, when no direction is asked."""
    asked = stated_direction(question.text)
    if asked == "up":
        return not LOSS_ITEM_RE.search(causes)
    if asked == "down":
        return not GAIN_ITEM_RE.search(causes)
    return True


def _refers_back(subject: str) -> bool:
    """Whether the change a sentence explains is the sentence before's: "The increase was",
    "The 2.6 percentage point decrease was"; not "The $550 million change in current assets
    and liabilities was", which names its own measure; read after the period it opens with
    ("For fiscal 2018, the decrease was")."""
    subject = without_period_lead(subject)
    match = ANAPHOR_RE.match(subject)
    return match is not None and OWN_MEASURE_RE.match(subject[match.end():]) is None


def _unqualified(question: Question, subject: str) -> float:
    """What a subject loses that does not name the qualified measure asked ("What drove its
    comparable sales?": "Net sales increased 10.1% ... due to increased comparable sales" is
    net sales' change, and comparable sales its cause, not its subject)."""
    # a measure a qualifier opens ("comparable sales"), not a part a segment narrows it to
    asked = [m for m in question.qualified if qualifier_pattern().match(m)]
    return OTHER_SUBJECT_PENALTY if asked and not any(
        names_measure(m, subject) for m in asked) else 0.0


def _years_weight(question: Question, subject: str) -> float:
    """A change that names a year the question asks is preferred, one that names only other
    years is not (2019's increase, not 2018's, when the 10-K prints both); a fiscal year that
    is not the calendar year of its dates (Walmart's fiscal 2024 quarter ended April 30, 2023)
    is still found, after the others. A change over a period of another length than the one
    asked ("in the fourth quarter" for a fiscal year, "for the six months" for a quarter) is
    another period's: it loses as much, as does one whose latest year is past those asked
    (the year after's change "compared to" the year asked)."""
    stated = stated_length(subject)  # "in the current year compared to ... the prior year"
    other_length = -YEAR_WEIGHT if months_asked(subject) not in (12, question.months) or (
        stated is not None and stated != question.months) else 0.0
    printed = set(years_in(subject))
    if not printed or not question.years:
        return other_length
    # "fiscal 2017 ... compared to ... fiscal 2016" is 2017's change, not 2016's; "increased
    # 8.0% compared to an increase of 14.4% in the second quarter of fiscal 2022" names only
    # its base, the year before the one asked
    own = (printed & set(question.years) and max(printed) <= max(question.years)) or \
        only_base_years(subject, question.years)
    return other_length + (YEAR_WEIGHT if own else -YEAR_WEIGHT)


def drivers(question: Question, selected: Sequence[EvidenceUnit],
            pool: Sequence[EvidenceUnit] = (), preceding: Adjacent | None = None,
            scan: Scan | None = None, following: Adjacent | None = None,
            heading: Heading | None = None, pointers: bool = True,
            levels: Sequence[float] = (), way: str | None = None) -> DirectAnswer | None:
    """The causes, first, of the sentence that explains the change the question names, then
    the change as printed; None when the question asks no cause or no sentence found names
    its measure and a cause. ``preceding`` gives the sentence a page prints before a unit,
    for "The increase ..." whose chunk begins with it, and ``following`` the one after it:
    the margin's own change a filing prints after explaining its profit's; ``scan`` the
    filing's sentences that print a causal connective, each with its page's Item: MD&A
    explains the change wherever retrieval looked (a sentence retrieval found wins a tie).
    ``levels``: the measure's amounts the statements print for the change asked (its two
    periods' and the change, in dollars): a sentence that states the measure at another
    amount ("The provision for credit losses was $59 million", a business line's, where the
    firm's is $1,101 million) explains another's change. ``way``: the way the statements
    say the measure went, when the question names none: a sentence whose own words or
    connective say the other way explains no part of the change the question asks of."""
    if not (question.expects == "cause" or asks_members_drove(question)) or not measure_roots(
            question):
        return None
    best = _best_explained(question, selected, pool or selected, preceding, scan, heading,
                           pointers, levels, way)
    return None if best is None else _as_cause(best, following, question)


def _as_cause(explained: Explained, following: Adjacent | None, question: Question
              ) -> DirectAnswer:
    """A sentence that explains a change as a cause answer: its causes first, then the change
    as printed, with the sentences after it that go on listing or explaining (``following``)
    and the one that gives the change of the measure asked itself."""
    _, cited, subject, causes = explained
    if following is not None and not SENTENCE_END_RE.search(cited[-1].text) and (
            rest := following(cited[-1])) is not None and rest.text[:1].islower() and (
            rest.text.strip().rstrip(" .") not in causes):
        # a sentence the page break cut ("... driven by cost" | "inflation as well as ..."):
        # its causes go on on the next page
        causes, cited = f"{causes.rstrip()} {rest.text.strip().rstrip(' .')}", [*cited, rest]
    change = LEADING_CELLS_RE.sub("", TRAILING_VERB_RE.sub("", TRAILING_AND_RE.sub(
        "", subject.strip(" \t-–—•,;:.")))).rstrip(" ,")
    asked = _asked_change(question, subject, cited[-1], following)
    more = _list_items(causes, cited[-1], following) or [
        m for m in [_continued(question, cited[-1], following)] if m is not None]
    for item in (m for m in more if asked is None or m.quote != asked.quote):
        causes, cited = f"{causes.rstrip(' .;')}; {item.text.strip().rstrip(' .')}", [
            *cited, item]
    if asked is not None:  # "Operating profit decreased 1 percent ...; Operating profit
        cited, change = [*cited, asked], f"{change}; {asked.text.rstrip(' .')}"  # margin ..."
    text = f"{causes[0].upper()}{causes[1:]}" + (f"; {change}." if change else ".")
    return DirectAnswer(kind="cause", units=cited, text=text, changed=change, causes=causes,
                        supports="" if len(cited) > 1 else cited[0].text)


Explained = tuple[float, list[EvidenceUnit], str, str]  # score, units cited, change, causes


def _best_explained(question: Question, selected: Sequence[EvidenceUnit],
                    pool: Sequence[EvidenceUnit], preceding: Adjacent | None,
                    scan: Scan | None, heading: Heading | None = None, pointers: bool = True,
                    levels: Sequence[float] = (), way: str | None = None
                    ) -> Explained | None:
    """(score, units cited, what changed, its causes) of the best sentence that explains the
    measure's change among the selected units, the pool and the filing's scanned ones; each
    read under the heading printed above it (``heading``), as a chunk's sentences are; with
    ``pointers`` False, none whose causes only point elsewhere (:func:`refers_elsewhere`);
    none that states the measure at an amount other than ``levels``. None when the best
    explains a change the other way (:func:`_other_way`): the change asked is not explained,
    and the next best may be another period's or another member's. A best whose causes only
    open what follows ("due to the following:") gives way to the sentence of its page that
    goes on with its change and states them ("The increase in gross margin for fiscal 2022
    was primarily due to ...")."""
    ranked: list[tuple[tuple[float, int, int], Explained]] = []
    for found, key in _explained(question, selected, pool, preceding, scan, heading, way):
        if (not pointers and refers_elsewhere(found[3])) or states_other_amount(found[2],
                                                                                 levels):
            continue  # a part's level or another period's: not the change asked
        if way is not None and explained_direction(found[2], found[3]) not in (None, way):
            continue  # "benefited from a gain" explains no part of a decline
        ranked.append((key, found))
    if not ranked:
        return None
    ranked.sort(key=lambda kf: kf[0])
    best = ranked[0][1]
    if _other_way(question, best[2], best[3]):
        return None
    if _points_to_following(best[3]):
        page = best[1][0].page
        stated = next((f for _, f in ranked if f[1][0].page == page
                       and ANAPHOR_RE.match(without_period_lead(f[2]))
                       and not _points_to_following(f[3])
                       and not _other_way(question, f[2], f[3])), None)
        return stated or best
    return best


def _points_to_following(causes: str) -> bool:
    """Whether the causes only open what follows, a list or a chart the text may have lost
    ("Gross margin increased 120 basis points ... due to the following:", Nike's FY2022 10-K):
    a connective and "the following", nothing else."""
    return FOLLOWING_CAUSES_RE.match(causes) is not None


def parts_explained(question: Question, selected: Sequence[EvidenceUnit],
                    pool: Sequence[EvidenceUnit], preceding: Adjacent | None,
                    scan: Scan | None, heading: Heading | None,
                    levels: Sequence[float]) -> list[DirectAnswer]:
    """The sentences that explain the measure's change at an amount the statements do not
    print for it (``levels``): a segment's part of the change, where MD&A discusses each
    segment and not the whole (Item 303(b)); each cause once, best first, pointers left out."""
    found: dict[str, tuple[tuple[float, int, int], Explained]] = {}
    for explained, key in _explained(question, selected, pool, preceding, scan, heading):
        if refers_elsewhere(explained[3]) or not states_other_amount(explained[2], levels):
            continue
        said = " ".join(explained[2].split())
        if said not in found or key < found[said][0]:
            found[said] = (key, explained)
    return [_as_cause(explained, None, question) for _, explained in sorted(
        found.values(), key=lambda kv: kv[0])]


def _explained(question: Question, selected: Sequence[EvidenceUnit],
               pool: Sequence[EvidenceUnit], preceding: Adjacent | None, scan: Scan | None,
               heading: Heading | None, way: str | None = None
               ) -> Iterator[tuple[Explained, tuple[float, int, int]]]:
    """Every sentence that explains the measure's change, with its rank key: the best score;
    on a tie the higher chunk, then the earlier sentence (MD&A gives the main reason first:
    "In addition, ..." follows it)."""
    roots, owners = measure_readings(question), subjects_named(question)
    asked = {w.lower() for w in re.findall(r"[\w&'-]+", question.text)}
    asked_way = stated_direction(question.text) or way  # read once, not per sentence
    previous = _previous(pool)
    position = {(u.chunk_id, u.quote): i for i, u in enumerate(pool)}
    scanned = (list(scan([*answer_patterns("cause"), ACTIVE_CAUSE_RE])) if scan is not None
               else [])
    for unit in [*selected, *pool, *scanned]:
        at = position.get((unit.chunk_id, unit.quote), len(pool))
        before = previous.get(id(pool[at])) if at < len(pool) else None
        if before is None and preceding is not None and (
                ANAPHOR_RE.match(without_period_lead(unit.text))
                or ACTIVE_CAUSE_RE.search(unit.text)):
            before = preceding(unit)
        if heading is not None and (above := heading(unit)):
            unit = unit.model_copy(update={"scope": f"{unit.scope} | {above}"})
        found = _candidate(question, roots, asked, unit, before, owners, asked_way,
                           known_way=way is not None)
        if found is not None:
            yield found, (-found[0], unit.chunk_rank, at)


def _continued(question: Question, unit: EvidenceUnit, following: Adjacent | None
               ) -> EvidenceUnit | None:
    """The sentence after the one explaining the change, when it opens as going on explaining
    it ("The decrease in expenses was impacted by approximately $150 million of ..."; "In
    addition, ...") and names no year but those asked (the next sentence of a 10-K often
    explains the year before): MD&A often gives a cause's size or a second cause next."""
    if following is None:
        return None
    after = following(unit)
    if (after is None or after.is_row or not CONTINUES_RE.match(after.text)
            or names_other_years(after.text, question.years)):
        return None
    return after


def _list_items(causes: str, unit: EvidenceUnit, following: Adjacent | None
                ) -> list[EvidenceUnit]:
    """The sentences after ``unit`` that finish the list its causes open ("reflected: – Net
    interest income of $15.1 billion, up 19%." then "Net interest income excluding Markets ...,
    driven by higher rates ..." and "– Noninterest revenue ..., predominantly driven by: ◦ lower
    Investment Banking fees ...", JPMorgan's 10-Q): a list opened by a dash or a sub-bullet
    inside a bullet runs to the next bullet (•), MAX_LIST_SENTENCES at most."""
    opened = LIST_OPENED_RE.match(causes)
    if opened is None or following is None:
        return []
    items: list[EvidenceUnit] = []
    while len(items) < MAX_LIST_SENTENCES:
        after = following(items[-1] if items else unit)
        if after is None or after.is_row or after.text.lstrip().startswith("•"):
            break
        items.append(after)
    return items


def _asked_change(question: Question, subject: str, unit: EvidenceUnit,
                  following: Adjacent | None) -> EvidenceUnit | None:
    """The sentence after the one explaining the change that gives the change of the measure
    asked itself, when the explained one is its line item ("Operating profit decreased 1
    percent, primarily driven by ..." then "Operating profit margin of 17.1 percent decreased
    120 basis points"); None when the subject names the measure asked already."""
    asked = [Reading(frozenset(measure_roots(question)))]
    if following is None or _share_named(asked, subject) == 1.0:
        return None
    after = following(unit)
    if (after is None or after.is_row or not CHANGE_RE.search(after.text)
            or names_other_years(after.text, question.years)):
        return None  # "For fiscal 2017, the increase in ..." is the year before's
    return after if _share_named(asked, after.text) == 1.0 else None


def following_on_page(page_text: str | None, unit: EvidenceUnit) -> EvidenceUnit | None:
    """The sentence ``page_text`` prints just after ``unit``'s quote (after the sentence it
    ends in, when a chunk cut it), as a unit of the same chunk and page; None when the quote is
    not found or ends the page."""
    return _adjacent_on_page(page_text, unit, after=True)


def continued_on_next_page(page_text: str | None, next_page: str | None,
                           unit: EvidenceUnit) -> EvidenceUnit | None:
    """The sentence the next page opens with, when ``unit`` ends its page (its printed page
    number aside) and that page goes on with a list's next item or the sentence's rest ("– $657
    million of net charge-offs, down $77 million, driven by Card.", JPMorgan's executive
    overview, whose list of what drove the provision runs over the page break); else None."""
    if not page_text or not next_page:
        return None
    flat, quote = page_prose(page_text), " ".join(unit.quote.split())
    at = flat.find(quote)
    if at < 0 or not quote or not PAGE_END_RE.fullmatch(flat[at + len(quote):]):
        return None
    opening = split_sentences(page_prose(next_page))[:1]
    if not opening or not CONTINUATION_RE.match(opening[0]):
        return None
    return unit.model_copy(update={"quote": opening[0], "text": opening[0], "footnotes": [],
                                   "page": unit.page + 1})


MAX_COMPLETION_WORDS = 40
SENTENCE_REST_RE = re.compile(r"[a-z]")
BULLET_MARKS = frozenset("•●◦▪")
TAIL_WORDS = 10  # a quote that ends in a table's run of cells (one run into its start may not)


def completed_on_page(flat: str | None, unit: EvidenceUnit) -> EvidenceUnit:
    """A sentence a chunk cut ("... foreign exchange losses of $23 million and $130 million,
    respectively, compared to gains of $239 million and $431 million, respectively, for the
    corresponding": Netflix's Q2 2023 10-Q, whose sentence goes on "periods in 2022.") with
    the rest its page prints, up to the sentence's end; the unit itself when it ends its
    sentence, is a row, or its page does not print it once. A quote cut before its comparison
    reads as another change: "compared" is no cause. Read on only where the rest goes on as a
    sentence's rest does (a word in lower case), ends a sentence within
    ``MAX_COMPLETION_WORDS`` (never a page's footer or number) and prints no bullet and no two
    figures side by side: a table's run of cells (the quote's last ``TAIL_WORDS`` words; a run
    into its start, "... As a percentage of revenues — % 3 % Interest and other income ...",
    is the chunk's seam), a heading, a running header or a list's item is not joined to what
    the page prints next. A quote the page prints twice is not read on
    (which of the two the chunk cut is not known), nor a unit already joined over a page
    break (its text is more than its quote). ``flat``: the page on one line
    (:func:`page_prose`), as the caller has it read."""
    if (unit.is_row or not flat or needs_no_completion(unit)
            or " ".join(unit.text.split()) != " ".join(unit.quote.split())
            or _figures_side_by_side(" ".join(unit.quote.split()[-TAIL_WORDS:]))
            or _titled(unit.quote)):
        return unit
    quote = " ".join(unit.quote.split())
    at = flat.find(quote)
    if at < 0 or not quote or flat.count(quote) != 1 or ends_at(flat, at + len(quote)):
        return unit
    rest = split_sentences(flat[at + len(quote):])[:1]
    if (not rest or len(rest[0].split()) > MAX_COMPLETION_WORDS
            or not SENTENCE_REST_RE.match(rest[0]) or not SENTENCE_END_RE.search(rest[0])
            or BULLET_MARKS & set(rest[0]) or _figures_side_by_side(rest[0])):
        return unit
    return unit.model_copy(update={"quote": f"{quote} {rest[0]}",
                                   "text": f"{unit.text.rstrip()} {rest[0]}"})


def needs_no_completion(unit: EvidenceUnit) -> bool:
    """Whether a unit ends its sentence as quoted: no page need be read to complete it."""
    return unit.is_row or SENTENCE_END_RE.search(unit.quote) is not None


def _titled(text: str) -> bool:
    """Whether most words are capitalized: a heading or running header ("Notes to
    Consolidated Financial Statements Pfizer Inc. and Subsidiary Companies"), no sentence."""
    words = [w for w in text.split() if w[:1].isalpha()]
    return bool(words) and sum(w[:1].isupper() for w in words) * 2 > len(words)


def _figures_side_by_side(text: str) -> bool:
    """Whether two figures stand next to each other: a table's cells, not a sentence's."""
    return figure_stretches(text)[1] > 0


SENTENCE_END_RE = re.compile(r"[.;:!?)\]]['’”\"]?\s*$")
# what a page prints after its last sentence: nothing, or its page number
PAGE_END_RE = re.compile(r"\s*(?:\d{1,3}|[ivxlc]{1,6})?\s*", re.IGNORECASE)
# a page that opens by going on: a list's next item, or a sentence's rest in lower case
CONTINUATION_RE = re.compile(r"[–—◦•-]\s|[a-z]")


def preceding_on_page(page_text: str | None, unit: EvidenceUnit) -> EvidenceUnit | None:
    """The sentence ``page_text`` prints just before ``unit``'s quote, as a unit of the same
    chunk and page; None when the quote is not found or opens the page."""
    return _adjacent_on_page(page_text, unit, after=False)


def _adjacent_on_page(page_text: str | None, unit: EvidenceUnit, after: bool
                      ) -> EvidenceUnit | None:
    if not page_text:
        return None
    flat, quote = page_prose(page_text), " ".join(unit.quote.split())
    at = flat.find(quote)
    if at < 0 or not quote or (at == 0 and not after):
        return None
    sentences = split_sentences(flat[at + len(quote):] if after else flat[:at])
    if after and sentences and not ends_at(flat, at + len(quote)):
        sentences = sentences[1:]  # a quote cut mid-sentence: the rest of its sentence is not next
    if not sentences:
        return None
    # the sentence before, without a table that ran into its start
    sentence = sentences[0] if after else prose_after_table(sentences[-1])
    return unit.model_copy(update={"quote": sentence, "text": sentence, "footnotes": []})
