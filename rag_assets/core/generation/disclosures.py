"""The deals of a period, each in the sentence that states it, as the answer's first line.

"Which acquisitions did X complete in FY2018?", "Which divestitures ...?": ASC 805-10-50-2 has a
filing name each business combination of the period with its date, and ASC 205-20 / 360-10 each
disposal, and filings state each completed deal in one sentence ("On January 1, 2022, the
Company completed the sale of its New York subsidiary"). ``intent_lexicon.json`` gives the
pattern of that sentence per kind of deal asked (``states``: a sale for "divestitures", an
acquisition for "acquisitions"), with its source. The sentences are looked for in the evidence
the engine selected, the part's other evidence, then every page of the filing; a sentence that
names years but not the one asked is of another period. Each deal is given once, in a sentence
that prints its price when one does; a deal sentence without a price is read with the sentence
the page prints after it when that one prints the price and states no other deal ("On January
1, 2022, the Company completed the ... sale of its regulated utility operations in New York to
Liberty ..." then "Liberty purchased ... for a purchase price of $608 million in cash"), the
second in parentheses; an issuance's next sentence is read too when only that one gives its net
proceeds ("AWCC issued $1,035 million ... Notes" then "AWCC received net proceeds of
approximately $1,022 million"). The first line lists them, numbered, as printed (at most
``MAX_DEALS``), each cited; none found, no first line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer, Scan
from rag_assets.core.generation.drivers import Adjacent
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import roots
from rag_assets.core.generation.legal_matters import Under, as_matters, particulars
from rag_assets.core.generation.yes_no import of_the_period
from rag_assets.core.question.intents import Statement, load_intents
from rag_assets.core.question.question import Question
from rag_assets.core.text.figures import MONEY_RE
from rag_assets.core.text.periods import OPENING_PERIOD_RE, months_asked
from rag_assets.core.text.prose import without_caps_heading
from rag_assets.core.text.years import names_other_years, years_in

MAX_DEALS = 4
# an issuance states its principal, then (often in the next sentence) what it raised
ISSUANCE_RE = re.compile(r"\b(?:issued|offering|issuance)\b", re.IGNORECASE)
PROCEEDS_RE = re.compile(r"\bproceeds\b", re.IGNORECASE)
# what a sentence says when its amount is the deal's price: not a disposal group's assets, a
# rate base or the use of proceeds
PRICE_CUE_RE = re.compile(r"\b(?:purchase price|consideration|proceeds|received|paid|"
                          r"in cash|for (?:a total of |approximately |about )?\$)", re.IGNORECASE)
# a term a filing defines in parentheses, "(the “Nuts Transaction”)", and one that is a date
DEFINED_TERM_RE = re.compile(r"\((?:the\s+)?[“\"]([A-Z][^”\"]{2,60})[”\"]\s*\)")
DATE_TERM_RE = re.compile(r"\b(?:Date|Period|Agreement)\b")
# a short name a filing gives a party or a deal ("HSG", "CMD"), and capitals that name none
SHORT_NAME_RE = re.compile(r"\b[A-Z]{3,6}\b")
NO_DEAL_NAMES = frozenset({"LLC", "INC", "LLP", "PLC", "GAAP", "SEC", "FDIC", "FTC", "USA",
                           "NYSE", "CEO", "CFO", "ASC", "ASU", "IRS", "EBITDA", "EPS", "LIBOR",
                           "SOFR", "USD", "EUR", "GBP", "JPY", "CAD", "IPO", "CARES", "COVID"})
# a sentence on a matter named before it ("meritorious defenses to the claims raised in this
# class action complaint"): the matter's status, not a matter of its own
REFERS_BACK_RE = re.compile(r"\b(?:this|these|such|the foregoing)\s+(?:[\w-]+\s+){0,2}?"
                            r"(?:complaints?|lawsuits?|suits?|actions?|litigation|matters?|"
                            r"cases?|proceedings?|claims?)\b", re.IGNORECASE)
RESTATED_CHARS = 60  # of a cut deal sentence's end, found in the sentence read whole
MAX_MATTERS = 6  # Item 103 names every material proceeding: a longer list than a period's deals
MATTER_SENTENCES = 60  # sentences read for matters grouped by heading: several state one
MAX_SENTENCE_WORDS = 80  # a sentence longer than this is a paragraph the reader failed to split
PERIOD_SENTENCES_BACK = 3  # sentences a deal's that names no year goes on from
PARTY_RE = re.compile(r"\b[A-Z][\w&.'’-]*")
# Regulation S-K Item 103 leaves out "ordinary routine litigation incidental to the business":
# a sentence of it ("a defendant in various lawsuits ... that arise in the normal course of
# business") names no matter, and goes after those that do
ROUTINE_RE = re.compile(r"\b(?:normal|ordinary|regular) course of (?:its |our |the |their )?"
                        r"business\b|\broutine litigation\b", re.IGNORECASE)


# words a question asks for matters with, not what the matters are of
ASKING_ROOTS = frozenset({"disc", "desc", "spec", "ment", "sign", "mate", "pend", "invo",
                          "curr", "face", "faci", "rela", "repo"})
ROOT_LETTERS = 4  # "failures" and "failed" share "fail"


def _matter_words(question: Question) -> set[str]:
    """What the matters asked are of, when the question says ("class action lawsuits over
    water main failures": {"main", "fail"}): its words but the company's, the intent's own
    phrases' and the asking ones, cut to four letters; none of a question asking every
    matter."""
    intents = load_intents().intents
    phrases = " ".join(p for key in question.intents for p in intents[key].phrases)
    return (roots(question.ranking_text, ROOT_LETTERS) - roots(phrases, ROOT_LETTERS)
            - ASKING_ROOTS - roots(" ".join(question.companies), ROOT_LETTERS))


# capitalized words that name no party: the filer itself, a heading's words, months
GENERIC_PARTIES = frozenset({
    "Company", "Company’s", "Company's", "Corporation", "We", "Our", "The", "In", "As", "On",
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December", "Item", "Note", "Legal", "Proceedings"})


def _statements(question: Question) -> list[Statement]:
    """The statements of the kinds the question asks (a sale for "divestitures")."""
    intents = load_intents().intents
    return [statement for key in question.intents for statement in intents[key].states
            if re.search(statement.asked, question.ranking_text, re.IGNORECASE)]


def _patterns(question: Question) -> tuple[list[re.Pattern[str]], bool]:
    """The patterns of the sentences that state what the question asks, by the kind asked,
    and whether what they state is pending (a lawsuit: no year asked of its sentence)."""
    statements = _statements(question)
    return ([re.compile(s.stated, re.IGNORECASE) for s in statements],
            any(s.pending for s in statements))


def _denials(question: Question) -> list[re.Pattern[str]]:
    """The patterns of the sentences that say no deal of each kind asked was completed, or
    none when a kind asked has no such pattern."""
    statements = _statements(question)
    denials = [re.compile(s.none_stated, re.IGNORECASE) for s in statements if s.none_stated]
    return denials if len(denials) == len(statements) else []


def _none_stated(question: Question, denials: Sequence[re.Pattern[str]], pending: bool,
                 candidates: Iterable[EvidenceUnit]) -> DirectAnswer | None:
    """"None", with the sentence that says no deal of the kind asked was completed in the
    period ("There were no material acquisitions completed in 2020 or 2019"), or no matter is
    pending (``pending``: said as of the filing's date, so no year is required of it), or
    None. Only when every kind asked is denied (``denials``: :func:`_denials`): a question of
    acquisitions or divestitures is not answered by a denial of one of them."""
    if not denials:
        return None
    said: dict[int, EvidenceUnit] = {}
    for unit in candidates:
        text = " ".join(unit.text.split())
        for n, denial in enumerate(denials):
            if (n not in said and not unit.is_row and denial.search(text)
                    and (pending or set(years_in(text)) & set(question.years
                                                              or years_in(text)))):
                said[n] = unit
    if len(said) < len(denials):
        return None
    units = list({u.quote: u for u in said.values()}.values())
    shown = "; ".join(" ".join(u.text.split()).rstrip(". ") for u in units)
    # a matter pending is denied as the filing concludes of it: none it holds material
    opening = "None material" if pending else "None"
    return DirectAnswer(kind="list", units=units, text=f"{opening}: {shown}.", supports=shown)


def _none_asked(question: Question) -> bool:
    """Whether a yes or no asks what a pending matter's denial answers (``none_asked`` of the
    kinds asked: "Is X involved in any material litigation?")."""
    return any(s.none_asked and re.search(s.none_asked, question.ranking_text, re.IGNORECASE)
               for s in _statements(question))


def _object_of(rest: str) -> str:
    """What a deal sentence names after its verb, as a key: the first name it prints ("CMD",
    "Asda"), with the rate it prints (two issuances of "Senior Notes" are two), else its first
    content words, lower case: "substantially all of CMD for $841 million" and "... of CMD in
    two cash transactions" are one deal."""
    name = re.search(r"\b[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*)*", rest[:80])
    rate = re.search(r"\d+(?:\.\d+)?%", rest[:80])  # notes of one kind differ by their rate
    if name:
        return f"{name.group(0).rstrip('.').lower()}{f' {rate.group(0)}' if rate else ''}"
    words = [w for w in re.findall(r"[a-z0-9&]+", rest.lower())
             if w not in {"of", "the", "all", "its", "our", "a", "an", "substantially", "certain"}]
    return " ".join(words[:5])


def _names_a_party(sentence: str) -> bool:
    """Whether a sentence on a matter names someone past its first word (a court, an agency,
    a plaintiff: "Asda", "SEC", "Hedick"): "the date on which the petition commencing the
    lawsuit was filed" describes the list to come and names no matter."""
    return any(m.group(0) not in GENERIC_PARTIES for m in PARTY_RE.finditer(sentence)
               if m.start())


def _in_period(question: Question, sentence: str, before: str = "") -> bool:
    """The sentence names a year asked (a deal of the period), or the question asks none, or
    it names no year and goes on from a sentence that names one asked (``before``: "During the
    second quarter of fiscal 2017, we sold our Martel plant ..." then "In addition, we sold our
    Argentina foodservice business ..."); and no longer period than the one asked: a deal is an
    event, so one completed "during the second quarter of fiscal 2017" is one of fiscal 2017,
    where "during the nine months" does not say what the third quarter did
    (:func:`yes_no.of_the_period`); a heading in capitals run into it is not of its period."""
    sentence = without_caps_heading(sentence)  # "FISCAL 2019 ... In fiscal 2018, we acquired"
    named = years_in(sentence)
    asked = not question.years or bool(set(named or years_in(before)) & set(question.years))
    opening = OPENING_PERIOD_RE.match(sentence)
    if opening is not None and question.years and int(opening[1]) not in question.years:
        return False  # "In the fourth quarter of fiscal 2014, we sold ..., finalized in 2015"
    return asked and (months_asked(sentence) <= question.months
                      or of_the_period(question, sentence))



def _before(unit: EvidenceUnit, text: str, preceding: Adjacent | None) -> str:
    """For a deal's sentence that names no year, the nearest sentence before it on the page
    that names one (at most ``PERIOD_SENTENCES_BACK`` back: "During the second quarter of
    fiscal 2017, we sold our Martel plant ..." / "We received $17.5 million in cash ..." /
    "In addition, we sold our Argentina foodservice business ..."): the period it goes on
    with."""
    if preceding is None or years_in(text):
        return ""
    before = preceding(unit)
    for _ in range(PERIOD_SENTENCES_BACK):
        if before is None or before.is_row:
            return ""
        if years_in(before.text):
            return before.text
        before = preceding(before)
    return ""


def _lacks_price(text: str) -> bool:
    """A deal sentence that prints no amount, or an issuance's that prints its principal but
    not what it raised."""
    return not MONEY_RE.search(text) or (ISSUANCE_RE.search(text) is not None
                                         and not PROCEEDS_RE.search(text))


def _gives_price(question: Question, deal: str, after: EvidenceUnit,
                 patterns: Sequence[re.Pattern[str]]) -> bool:
    """Whether the next sentence prints the deal's price: an amount it says is a price or
    proceeds (an issuance's: its proceeds), no deal of its own, no year but those asked."""
    text = after.text
    return (not after.is_row and MONEY_RE.search(text) is not None
            and PRICE_CUE_RE.search(text) is not None
            and (not MONEY_RE.search(deal) or PROCEEDS_RE.search(text) is not None)
            and not any(p.search(text) for p in patterns)
            and not names_other_years(text, question.years))


def _priced(question: Question, unit: EvidenceUnit, text: str,
            patterns: Sequence[re.Pattern[str]], following: Adjacent | None,
            scan: Scan | None = None) -> tuple[str, list[EvidenceUnit]]:
    """The deal's sentence, with the sentence after it in parentheses when the deal's own
    lacks its price and the next one gives it ("purchase price", "consideration", "received",
    "for $"), else with the sentences that define the deals it names by a defined term
    (:func:`_defined_prices`); and the units it is read from."""
    if following is None or not _lacks_price(text):
        return text, [unit]
    after = following(unit)
    if after is None or not _gives_price(question, text, after, patterns):
        defined = _defined_prices(text, unit, scan)
        whole = next(((d, u) for d, u in defined if _restates(d, text)), None)
        if whole is not None:  # the same sentence read whole elsewhere, its price in it
            return whole[0], [whole[1]]
        return (f"{text.rstrip('. ')} ({'; '.join(d for d, _ in defined)})"
                if defined else text), [unit, *(u for _, u in defined)]
    return f"{text.rstrip('. ')} ({' '.join(after.text.split()).rstrip('. ')})", [unit, after]


def _defined_prices(text: str, unit: EvidenceUnit, scan: Scan | None
                    ) -> list[tuple[str, EvidenceUnit]]:
    """For a deal sentence that names its deals by defined terms and prints no price ("we
    completed the sale of certain assets in our global nuts business (the “Nuts
    Transaction”)"), the sentence elsewhere in the filing that defines each term with the
    deal's price: drafting defines a deal once, where its terms are stated (Kraft Heinz
    2021's note: "to sell certain assets in our global nuts business for total consideration
    of approximately $3.4 billion (the “Nuts Transaction”)"). That sentence may name the year
    the agreement was signed: it is the same deal."""
    if scan is None:
        return []
    found: list[tuple[str, EvidenceUnit]] = []
    for term in DEFINED_TERM_RE.findall(text):
        if DATE_TERM_RE.search(term) or term in NO_DEAL_NAMES:
            continue  # "the “Assan Foods Acquisition Date”" defines a date, "FDIC" an agency
        defining = re.compile(rf"[“\"]{re.escape(term)}[”\"]\s*\)")
        for other in scan([defining]):
            said = " ".join(other.text.split())
            if (other.quote != unit.quote and not other.is_row
                    and len(said.split()) <= MAX_SENTENCE_WORDS
                    and MONEY_RE.search(said) and PRICE_CUE_RE.search(said)):
                if all(u.quote != other.quote for _, u in found):
                    found.append((said.rstrip(". "), other))
                break
    return found


def _restates(defining: str, deal: str) -> bool:
    """Whether the defining sentence is the deal's own sentence read whole (a chunk cut it
    before its price: "... First Republic Bank (the “First Republic acquisition”) from the
    FDIC" and, on the page, "... from the FDIC, as receiver, for $67.9 billion")."""
    def words(text: str) -> str:
        return " ".join(re.findall(r"[a-z0-9]+", text.lower()))
    # its end, where the chunk cut it: a heading run into its start is not the sentence's
    tail = words(deal)[-RESTATED_CHARS:]
    return len(tail) == RESTATED_CHARS and tail in words(defining)


def _known_as(deal: str, text: str, best: dict[str, tuple[str, list[EvidenceUnit]]]) -> str:
    """The key of a deal already listed that this sentence names by the short name both
    print ("HSG": "Corning obtained a controlling interest in HSG" and "HSG redeemed Dupont’s
    entire ownership of HSG ... Corning obtained a 100% interest in HS LLC"), else ``deal``."""
    names = set(SHORT_NAME_RE.findall(text)) - NO_DEAL_NAMES
    for key, (said, _) in best.items():
        if names & (set(SHORT_NAME_RE.findall(said)) - NO_DEAL_NAMES):
            return key
    return deal


# a risk factor's example ("In California, lawsuits have been filed in connection with ...
# wildfires"): Item 1A (Regulation S-K Item 105) states risks, Item 103's matters are Item 3's,
# a 10-Q's Part II Item 1's and the contingencies note's
RISK_FACTORS_RE = re.compile(r"\bItem\s+1A\b", re.IGNORECASE)
# where Item 103 puts them: Item 3 of a 10-K, Part II Item 1 of a 10-Q ("Legal Proceedings"),
# the contingencies note
LEGAL_SECTION_RE = re.compile(r"\bItem\s+3\b|\blegal proceedings\b|\bcontingencies\b|"
                              r"\blitigation\b|\blegal matters\b",
                              re.IGNORECASE)


def _one_per_deal(question: Question, patterns: Sequence[re.Pattern[str]],
                  candidates: Iterable[EvidenceUnit], pending: bool = False,
                  following: Adjacent | None = None, preceding: Adjacent | None = None,
                  scan: Scan | None = None, limit: int | None = None
                  ) -> dict[str, list[EvidenceUnit]]:
    """Each deal of the period once (at most ``MAX_DEALS``, ``MAX_MATTERS`` of pending matters,
    or ``limit``, in the order first stated), in the
    sentence that states it with its price when one does: the note prints "for $608 million
    in cash" where MD&A's overview names the sale alone."""
    best: dict[str, tuple[str, list[EvidenceUnit]]] = {}
    for unit in candidates:
        text = " ".join(unit.text.split())
        match = next((m for p in patterns if (m := p.search(text))), None)
        if (match is None or unit.is_row or len(text.split()) > MAX_SENTENCE_WORDS
                or not (_names_a_party(text) and not REFERS_BACK_RE.search(text)
                        and not RISK_FACTORS_RE.search(unit.scope) if pending
                        else _in_period(question, text, _before(unit, text, preceding)))):
            continue
        deal = _object_of(text[match.end():])
        deal = deal if pending else _known_as(deal, text, best)
        if deal not in best and len(best) == (limit or (MAX_MATTERS if pending else MAX_DEALS)):
            continue
        if deal in best and MONEY_RE.search(best[deal][0]):
            continue
        text, units = _priced(question, unit, text, patterns, None if pending else following,
                              scan)
        if deal not in best or MONEY_RE.search(text):
            best[deal] = (text, units)
    return {text: units for text, units in best.values()}


# the party a question names after a deal's word: "acquisition of Seagen", "sale of Asda to"
DEAL_NAMED_RE = re.compile(r"\b(?:acqui\w*|merg\w*|sale|sell\w*|sold|divest\w*|purchas\w*|"
                           r"buy\w*|bought|spin\w*)\s+(?:off\s+)?(?:of\s+|with\s+)?(?:the\s+)?"
                           r"(?P<name>(?-i:[A-Z])[\w&.'’-]*(?:\s+(?-i:[A-Z])[\w&.'’-]*)*)",
                           re.IGNORECASE)


# a party's legal form after its name: "Seagen Inc." is Seagen
CORPORATE_SUFFIX_RE = re.compile(r"[\s,]+(?:inc|corp|corporation|co|ltd|llc|plc|l\.p|s\.a|n\.v|ag)"
                                 r"\.?$|\.$", re.IGNORECASE)


def _party_printed(question: Question, units: Sequence[EvidenceUnit], scan: Scan | None
                   ) -> re.Pattern[str] | None:
    """The names the question gives the other party of a deal ("the proposed acquisition of
    Seagen Inc.": Seagen), as a pattern, when the filing prints one, in ``units`` or any
    sentence of it; else None: a name it never prints is no party it states a deal with."""
    named = {CORPORATE_SUFFIX_RE.sub("", m["name"]) for m in DEAL_NAMED_RE.finditer(question.text)}
    if not (named := named - {""}):
        return None
    pattern = re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in named),
                         re.IGNORECASE)
    printed = any(pattern.search(u.text) for u in units) or (
        scan is not None and next(iter(scan([pattern])), None) is not None)
    return pattern if printed else None


def _in_legal_section(groups: Iterable[Sequence[EvidenceUnit]]) -> bool:
    """Whether a unit of ``groups`` stands in Item 3 or the contingencies note, where Item 103
    and ASC 450-20 have the filer state its material proceedings."""
    return any(LEGAL_SECTION_RE.search(u.scope) for units in groups for u in units)


def _in_order(question: Question, found: dict[str, list[EvidenceUnit]]
              ) -> dict[str, list[EvidenceUnit]]:
    """The first ``MAX_MATTERS`` matters found (the evidence's first), those that print what
    the question names the matters by first ("class action lawsuits over water main
    failures": "main", "fail"), then those Item 103's particulars identify, then those of the
    legal section, then others, the routine litigation after them (stable)."""
    asked = _matter_words(question)
    return dict(sorted(list(found.items())[:MAX_MATTERS], key=lambda item: (
        bool(ROUTINE_RE.search(item[0])),
        bool(asked) and not asked & roots(item[0], ROOT_LETTERS),
        not particulars(item[0]),
        not any(LEGAL_SECTION_RE.search(u.scope) for u in item[1]))))


def stated_deals(question: Question, selected: Sequence[EvidenceUnit],
                 pool: Sequence[EvidenceUnit] = (), scan: Scan | None = None,
                 following: Adjacent | None = None, preceding: Adjacent | None = None,
                 at_least: int = 0, under: Under | None = None) -> DirectAnswer | None:
    """The period's deals (or the matters pending: lawsuits), each in the sentence that states
    it (and the next one, for its price), numbered; or None. Given ``under`` (the heading a
    sentence stands under and the sentences under it), the matters' sentences are grouped by
    their headings, each matter one line (:func:`legal_matters.as_matters`). A count of names
    asked ("three main companies acquired": ``at_least``) is answered only by as many deals or
    more. Whether the period had any deal ("Did X complete any acquisitions in 2019?") is "Yes"
    with them, or "No" with the sentence that says none was completed; whether any material
    matter is pending is "No" with the filing's own conclusion that none is, where it names
    none, and otherwise left to the quotes, never to a count of the matters."""
    patterns, pending = _patterns(question)
    # whether any material matter is pending is "No" only from the filing's own conclusion
    # that none is, no matter named; any other yes or no of a matter (settled? won? one named,
    # "opioid litigation"?) is the quotes' to show, never "Yes" from a count of the matters
    yes_no = question.expects == "yes_no" and (not pending or _none_asked(question))
    if not patterns or not (question.expects == "names" or yes_no):
        return None

    candidates = [*selected, *pool, *(scan(patterns) if scan is not None else ())]
    grouped = pending and under is not None  # a matter's sentences read under its heading
    found = _one_per_deal(question, patterns, candidates, pending, following, preceding, scan,
                          MATTER_SENTENCES if grouped else None)
    if grouped and under is not None:
        found = as_matters(found, patterns, under)
    if not pending and (named := _party_printed(question, candidates, scan)) and not (
            found := {t: units for t, units in found.items() if named.search(t)}):
        return None  # the deal asked ("the acquisition of Seagen"), never another (GBT)
    if yes_no and question.years and found and not pending:
        # a "Yes" rests on deals dated in the year asked: a 10-K restates the year before's
        # ("Upon completion of the Redemption, Corning obtained a 100% interest", 2020's, in
        # its 2021 10-K)
        found = {text: units for text, units in found.items()
                 if set(years_in(text)) & set(question.years)}
    if not found or (pending and not _in_legal_section(found.values())):
        denials = _denials(question)
        denied = _none_stated(question, denials, pending, [
            *selected, *pool, *(scan(denials) if scan is not None and denials else ())])
        # matters named only outside Item 3 (a tax note's "Altera Corp. v. Commissioner")
        # give way to Item 3's own conclusion that none is material
        if not found or (denied is not None and _in_legal_section([denied.units])):
            return denied.model_copy(update={"text": f"No. {denied.supports}."}
                                     ) if denied is not None and yes_no else denied
    if len(found) < min(at_least, MAX_DEALS):
        return None  # fewer deals than the names asked: not the list the question means
    if yes_no and pending:
        return None  # matters named: whether any is material is the quotes' to show
    if pending:
        found = _in_order(question, found)
    listed = "; ".join(f"({n}) {text.rstrip('.')}" for n, text in enumerate(found, start=1))
    units = [u for deal in found.values() for u in deal]
    return DirectAnswer(kind="list", units=units, text=f"{'Yes: ' if yes_no else ''}{listed}.",
                        supports=units[0].text)
