"""A question, read once: what it names and asks, as one typed record every stage takes.

:func:`read_question` reads the text with the one grammar of each thing (years and quarters of
:mod:`rag_assets.core.text`, filing kinds of :mod:`rag_assets.core.text.filing_kinds`, metrics
and line items of the finance vocabulary, intents of the intent lexicon, statements and
instructions of :mod:`instructions`) and, given the indexed documents' profiles, the documents
and companies it names (:mod:`companies`). Retrieval, routing, the metric engine, the direct
answers and the quote scorer take the :class:`Question`, never the raw string, so no two of them
read a question differently. Plain Python and pydantic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, Field

from rag_assets.core.ingest.routing import DocumentProfile, short_display_name
from rag_assets.core.ingest.statements import STATEMENT_TITLES, StatementKind
from rag_assets.core.question.companies import named_filings, route, unindexed_company
from rag_assets.core.question.comparison import Comparison, comparison_asked, total_asked
from rag_assets.core.question.instructions import (
    decimals_asked,
    statements_named,
    strip_instructions,
)
from rag_assets.core.question.intents import (
    AnswerForm,
    answer_form_of,
    answering_first,
    intents_in,
    items_asked,
    sections_for,
    wholes_asked,
)
from rag_assets.core.question.members import narrowed_by_name
from rag_assets.core.question.moves import Move, Way, moved_measure, way_of
from rag_assets.core.question.parts import CAUSE_ASKED, asked_parts
from rag_assets.core.question.phrasings import load_phrasings, phrasings_in
from rag_assets.core.question.shares import Share, share_asked
from rag_assets.core.question.thresholds import Threshold, threshold_asked
from rag_assets.core.question.transactions import manner_asked, terms_asked
from rag_assets.core.question.vocabulary import (
    load_vocabulary,
    normalize,
    qualified_measures,
    terms_in,
)
from rag_assets.core.text.filing_kinds import filing_years, kinds_asked, without_period_filing
from rag_assets.core.text.periods import (
    PERIOD_NAME_RE,
    asked_quarters,
    asks_to_date,
    dates_named,
    horizons,
    months_asked,
    names_fiscal,
    names_prior_period,
    quarters_named,
)
from rag_assets.core.text.sentences import split_sentences
from rag_assets.core.text.years import year_mentions, years_in

Expects = AnswerForm
Period = tuple[str | None, str]  # (quarter "Q2" or None, year "2023")

# what the answer's first sentence must be, by how the asking sentence opens
# (after a short opening clause: "As of Q2 2023, is Pfizer spinning off ...?")
# the auxiliary that opens a yes or no, after a short opening clause ("In FY2022, did ...") or
# one that says what to base it on, its own commas aside ("Based on the count in the release
# dated August 9, 2023, is ...")
_YES_NO_RE = re.compile(r"^(?:[^,?]{1,40},\s*|(?:based on|according to|using|looking at|"
                        r"considering|judging by|in light of|"
                        # an opening phrase of a preposition, a date's comma in it: "Under his
                        # August 2022 letter agreement, will ...", "As of its September 12,
                        # 2023 statement, had ..."
                        r"under|as of|per|after|following|during|since|upon|given|with)\b"
                        r"(?:(?!\b(?:what|which|how|who|why|when|where)\b)[^?]){1,200}?,\s*)?"
                        r"(?P<aux>does|do|did|has|have|had|is|are|was|were|will|can|could|"
                        r"should|would)\b")
_YES_NO_OPENING_RE = re.compile(_YES_NO_RE.pattern, re.IGNORECASE)  # on the text as written
# a short opening clause before a question word: "In fiscal 2022, what ..."
_OPENING_CLAUSE_RE = re.compile(r"^[^,?]{1,40},\s*(?=(?:what|which|how|who|whom|why|when|where)\b)",
                                re.IGNORECASE)
# "accounted for" asks a cause of a change ("What accounted for the decline?"), never a share
# ("Which customers accounted for 10% or more of net sales?"); phrasings.json's
# "members_drove" holds it too (test_phrasings checks the copy)
ACCOUNTED_FOR_CHANGE = (r"accounted for (?:(?!\d)[\w'’-]+ ){0,4}?(?:increas|decreas|declin|grow|"
                        r"rise|rose|drop|fall|fell|chang|improv|deteriorat|swing|shift)\w*")
# "terminated for cause", "without (good) cause", "resigns for good reason": the grounds of an
# officer's termination in an employment agreement, no cause asked
_CAUSE_RE = re.compile(r"\b(?:why|drove|drive[sn]?|driving|drivers?|due to|(?<!good )reasons?|"
                       r"(?<!for )(?<!without )(?<!good )caused?|explains?|explanation|"
                       r"contributed to|"
                       r"contributors?|led to|"
                       rf"{ACCOUNTED_FOR_CHANGE}|responsible for|behind|"
                       r"factors? (?:that|which|driving|contributing|explaining|for|in))\b")
# "did it rise or fall?", "increase or decrease": which way a change went is asked, not yes/no
EITHER_WAY_RE = re.compile(r"\b(?:increas|ris[ei]|gr[eo]w|go(?:ne)? up|improv|up)\w* or "
                           r"(?:decreas|fall|fell|declin|shr[iu]nk|go(?:ne)? down|worse|"
                           r"deteriorat|down)\w*", re.IGNORECASE)
# "Which segment drove ...?" asks a name first; "Which factors drove ...?" asks the causes
_NAME_WORDS = r"(?:which|who|whom)\b"
_NAME_OPENING_RE = re.compile(rf"\s*{_NAME_WORDS}", re.IGNORECASE)  # on the text as asked
_NAME_FIRST_RE = re.compile(rf"^{_NAME_WORDS}(?! (?:factors?|reasons?|drivers?|"
                            r"items?|causes?)\b)")
# a degree asked of a dependence ("How dependent is X on Walmart?", "To what extent does X
# rely on ...?"): answered by the share that measures it, as a concentration is; and whom it
# names after "on" ("... on the U.S. Government as a customer?")
_OPENING = r"^\s*(?:[^,?]{1,40},\s*)?"
_DEPENDENCE = r"dependent|reliant|concentrated"  # a dependence, which a share measures
_DEGREE_RE = re.compile(rf"{_OPENING}(?:how\s+(?:{_DEPENDENCE}|exposed|diversified)|to\s+what\s+"
                        r"(?:extent|degree))\b", re.IGNORECASE)
_DEPENDENCE_RE = re.compile(rf"{_OPENING}how\s+(?:{_DEPENDENCE})\b", re.IGNORECASE)
_DEPENDED_ON_RE = re.compile(r"\b(?:on|upon)\s+(?:the\s+|its\s+|our\s+|their\s+)?"
                             r"(?P<who>[A-Z][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*)*)")
_COUNT_FIRST_RE = re.compile(r"\bhow many [a-z][a-z-]{2,}|\bwhat (?:is |was )?(?:the )?number of\b")
# a verb ends a count's noun phrase ("How many people does Costco employ?" counts people, never
# "does"); a word that ends in "s" and is no plural is never its noun ("how many of this
# segment's stores": stores)
_AUXILIARY = r"(?:did|does|do|is|are|was|were|has|have|had|will|would)"
_NO_PLURAL = r"(?:this|these|those|its|his|was|does|has|is)"
# what a count asks to count: "how many warehouses", "the number of stores", "how many retail
# stores", "how many of Costco's warehouses", "how many people" (a plural noun after at most
# three words); never "how many times" (a ratio)
_COUNTED_RE = re.compile(r"\b(?:how many|(?:the )?number of)\s+(?:(?!" + _AUXILIARY + r"\b)"
                         r"[a-z'’.-]+\s+){0,3}?(?P<noun>(?!times\b)(?!" + _NO_PLURAL +
                         r"\b)(?:[a-z]{3,}s|people|personnel|staff))\b")
# after a short opening clause too: "As of fiscal 2022, which of Walmart's debt securities ..."
# the kinds or the parts of a measure, never its amount: "What debt instruments does X have?",
# "What types of revenue ...?", "its main revenue streams" ("what made up the provision?" asks
# what drove it, as a cause question reads it)
KINDS_ASKED_RE = re.compile(r"\bwhat (?:(?!of\b)[a-z]+ ){0,2}(?:types|kinds|categories|"
                            r"sources|components|instruments|streams|classes) (?:of|does|do|"
                            r"did|are|were|make)\b|\b(?:revenue|income) streams\b")
# what a filer paid or received for something, asked by the amount's own verb and "for" its
# object: a figure, whatever the object names ("What did Corning pay for 3M's Communication
# Markets Division?"); never "pay royalties for", "receive approval for", "spend the most on",
# nor beside a clause that asks names ("..., and which businesses did it buy?")
_PRICE_ASKED_RE = re.compile(r"^(?:[^,?]{1,40},\s*)?what did (?:[\w&.'’()-]+ ){1,5}?"
                             r"(?:pay|receive)\s+for\s+(?!(?:in|during)\b)[\w$'’]"
                             r"(?![^?]*\b(?:which|who|whom)\b)")
_NAMES_RE = re.compile(r"^(?:[^,?]{1,40},\s*)?(?:which|who|whom|name|list)\b|"
                       r"\bwhat (?:are|were) (?:the )?"
                       r"(?:main|key|major|largest|primary|two|three|four|five|names?)\b|"
                       # "What business did X buy?" asks a name as "which business" does
                       r"^(?:[^,?]{1,40},\s*)?what (?:(?!of\b)[a-z]+ ){0,2}(?:business(?:es)?|"
                       r"compan(?:y|ies)|brands?|subsidiar(?:y|ies)|entit(?:y|ies)|"
                       r"acquisitions?|divestitures?|offerings?|issuances?|transactions?) "
                       r"(?:did|does|do|has|have|had|will|was|were|is|are)\b|"
                       + KINDS_ASKED_RE.pattern)
# the noun a "what" asks to be told of: "What one-time charge weighed on ...?", "What
# euro-denominated notes did Corning issue?" (at most two words before it, none "of": "What
# percentage of revenue did ..." asks a percentage), then an auxiliary or a past tense
_HEAD_ASKED_RE = re.compile(
    r"^(?:[^,?]{1,40},\s*)?what\s+(?:(?!(?:is|was|are|were|did|does|do|has|have|had|of)\b)"
    r"[a-z][\w'’-]*\s+){0,2}?(?P<noun>(?!(?:is|was|are|were|did|does|do|has|have|had)\b)"
    r"[a-z]{5,})\s+(?:did|does|do|has|have|had|was|were|is|are|will|[a-z]{3,}ed)\b",
    re.IGNORECASE)
# a question that asks what the filing says, not for a fact of its own form
_TEXT_RE = re.compile(r"\b(?:says?|said|describes?|described|description|discuss(?:es)?)\b")
_FIGURE_RE = re.compile(r"\bhow (?:much|many)\b|\bwhat (?:is |was )?(?:the )?number of\b|"
                        # a limit or a threshold: "what is the maximum number of nominees",
                        # "how large a voting stake ... to call a special meeting"
                        r"\bwhat (?:is|was|are|were) (?:the )?(?:maximum|minimum) (?:number|"
                        r"amount|percentage|share)\b|\bhow (?:large|big|high|low|long) an?\b|"
                        r"\bwhat total\b|\bwhat (?:is|was|were) (?:the )?"
                        r"(?:amount|value|total|number|percent|ratio)\b|"
                        # "What was Lockheed Martin's total backlog ...?" (never "Walmart's
                        # value proposition")
                        r"\bwhat (?:is|was|were) (?:[\w&.-]+ ){0,3}[\w&.-]+'s "
                        r"(?:amount|total|number|percent|ratio)\b|"
                        # a share is a figure: "What percentage of its warehouses are in Canada?"
                        r"\bwhat (?:share|percent(?:age)?|proportion|portion|fraction) of\b")
# how, where and when ask for a manner, a place or a time, never an intent's usual form
_OWN_FORM_RE = re.compile(r"^(?:how|where|when|in which item)\b")


class Question(BaseModel):
    """What one question names and asks (see the module docstring)."""

    text: str = Field(description="the whole question as asked: the answer follows its "
                                  "instructions")
    ranking_text: str = Field(description="the question without its instructions: what to "
                                          "rank with")
    years: list[int] = Field(description="years it names, in order of mention")
    filing_years: list[int] = Field(description="years it writes on a filing ('its 2020 10-K')")
    quarters: list[str] = Field(description="quarters it names, as document ids write them")
    periods: list[Period] = Field(description="(quarter or None, year) in order of mention")
    months: int = Field(description="12 for a fiscal year, 3 a quarter, 6 a half, 9")
    to_date: bool = Field(default=False, description="it asks of the point the year has "
                          "reached ('as of Q2', 'year to date'): a 10-Q's year-to-date flows")
    fiscal: bool = Field(default=False, description="it names its period as the filer's "
                         "fiscal one ('fiscal Q1 2023', 'FY2023'): a calendar quarter only for "
                         "a year that ends in December")
    prior_period: bool = Field(default=False, description="it names the year-ago period as "
                               "such ('the prior year'): a sentence of that period answers it")
    dates: list[str] = Field(default_factory=list,
                             description="dates it names as printed ('August 9, 2023')")
    horizons: list[int] = Field(default_factory=list, description="spans ahead it asks, in "
                                "years ('over the next five years': 5)")
    kinds: list[str] = Field(description="filing kinds it names, as document ids write them")
    metrics: list[str] = Field(description="terms of the finance vocabulary it names")
    statements: list[StatementKind] = Field(description="named first, then its metrics'")
    named_statements: list[StatementKind] = Field(description="the statements it names itself")
    expansion: list[str] = Field(description="titles of the named statements, line items of "
                                             "its metrics: BM25 terms")
    qualified: list[str] = Field(default_factory=list, description="measures it names with a "
                                 "qualifier ('comparable sales growth', 'adjusted eps'): no "
                                 "metric, a figure the filing states in words")
    narrowed: list[str] = Field(default_factory=list, description="terms it narrows to a member "
                                "it names ('operating income for Sam's Club'): no metric")
    intents: list[str] = Field(default_factory=list, description="intent_lexicon.json keys")
    wholes: list[str] = Field(default_factory=list, description="of its intents, those it asks "
                              "for as a whole section ('What are the main risks ...?')")
    sections: list[str] = Field(default_factory=list, description="the sections that answer "
                                                                  "its intents")
    expects: Expects = "text"
    counts: str | None = Field(default=None, description="what a count asks to count "
                                                         "('warehouses'), else None (a cause "
                                                         "asked of a number, 'Why did the "
                                                         "number of employees fall?', counts "
                                                         "nothing)")
    decimals: int | None = Field(default=None, description="the decimals its instructions ask "
                                                           "a figure in ('round to one decimal "
                                                           "place'), else None")
    documents: list[str] = Field(default_factory=list,
                                 description="indexed documents it names, narrowed to the "
                                             "kinds and quarters it names")
    companies: list[str] = Field(default_factory=list,
                                 description="those documents' companies, as answers name them")
    unindexed: str | None = Field(default=None,
                                  description="a company it names that no indexed filing is from")
    asked: list[str] = Field(default_factory=list, description="the clauses it asks, each a "
                             "question, when it asks more than one (:mod:`parts`)")
    compares: Comparison | None = Field(default=None, description="two measures a yes or no "
                                        "compares by growth or level (:mod:`comparison`)")
    total: bool = Field(default=False, description="it asks the sum of the line items it names "
                        "('its total goodwill and intangible asset impairment')")
    short_names: list[str] = Field(default_factory=list, description="short names it defines "
                                   "in parentheses after the long ones ('Communication Markets "
                                   "Division (CMD)': 'CMD'), as a filing defines its terms")
    asks_of: str | None = Field(default=None, description="the noun a 'what' question that asks "
                                "what the filing says, and names no intent, asks to be told "
                                "of ('What one-time charge ...?': 'charge'): the sentence that "
                                "answers it names one")
    moved: Move | None = Field(default=None, description="the measure a yes/no question asks "
                              "the move of, when only prose names it ('grow its average "
                              "deposits': 'average deposits', asked up; :mod:`moves`): no "
                              "metric, no qualified measure")
    clause: str = Field(default="", description="the clause it asks in (:func:`own_clause`): "
                        "from its auxiliary or question word, after a short opening clause, up "
                        "to a comma, a concessive word or its question mark ('Did X raise its "
                        "outlook, even as sales rose?': 'Did X raise its outlook')")
    way: Way | None = Field(default=None, description="the way a yes or no asks something "
                            "moved, in its own clause (:func:`way_asked_of`): up, down, kept, "
                            "or a judgment (better, worse); of a measure only prose names, its "
                            "governing verb's")
    manner: str | None = Field(default=None, description="the stem of the verb whose event or "
                               "manner it asks ('issu' in 'What debt did Corning issue?', "
                               "'fund' in 'How was the redemption funded?': "
                               ":mod:`transactions`): the sentence that answers prints it")
    terms: bool = Field(default=False, description="it asks a transaction's terms ('What were "
                        "the key terms of the notes ...?': :mod:`transactions`)")
    share: Share | None = Field(default=None, description="the part and the total a share "
                                "question names ('What share of its net sales came from "
                                "Walmart International?': :mod:`shares`), else None")
    threshold: Threshold | None = Field(default=None, description="the level a yes or no "
                                        "asks the value or its move against ('above the 21% "
                                        "statutory rate', 'by more than $500 million')")
    phrasings: dict[str, str] = Field(default_factory=dict, description="the ways it asks "
                                      "(``phrasings.json``: 'negated', 'vote_results', "
                                      "'difference', ...), each with the words it asks in; "
                                      "read on the question as asked, so a retry's search "
                                      "words (searched_as, plain) leave them as they are")

    def phrased(self, name: str) -> str | None:
        """The words it asks in the way ``phrasings.json`` names ``name``, else None; a name
        the file does not hold is an error, never a silent no."""
        if name not in load_phrasings():
            raise KeyError(f"no phrasing {name!r} in phrasings.json")
        return self.phrasings.get(name)

    def without_phrasing(self, name: str) -> str:
        """The question as asked, every span of the phrasing ``name`` taken out ("What is the
        total ..." without "What is the total"): the words that name what it asks of."""
        return load_phrasings()[name].regex.sub(" ", self.text)

    def reworded(self, text: str, ranking_text: str | None = None) -> Question:
        """This question asked in other words (a reader's rephrasing): its clause, the way it
        asks there and its phrasings read again on them, what it names kept."""
        ranking = self.ranking_text if ranking_text is None else ranking_text
        clause = own_clause(ranking)
        return self.model_copy(update={
            "text": text, "ranking_text": ranking, "clause": clause,
            "way": way_asked_of(clause, self.moved) if self.expects == "yes_no" else None,
            "threshold": threshold_asked(asking_sentence(text)),
            "phrasings": phrasings_in({"text": text, "ranking_text": ranking,
                                       "clause": clause})})

    @property
    def compares_growth(self) -> bool:
        """Whether it compares one measure's growth with another's ("Did inventory grow
        faster than sales?"): one side's move alone never answers it."""
        return self.compares is not None and self.compares.by == "growth"

    @property
    def opens_with_name(self) -> bool:
        """Whether it opens by asking to be told a name ("Which customer ...?", "Who are
        ...?"): the sentence that answers prints one. Read from the text as it stands, so a
        question reworded to rank ("Which segment had the largest revenue?") asks its own."""
        return _NAME_OPENING_RE.match(self.text) is not None

    @property
    def asks_degree(self) -> bool:
        """Whether it asks how far a dependence goes ("How dependent is General Mills on
        Walmart?"): the shares that measure it answer, as for the names of major customers.
        Read from the text as asked."""
        return _DEGREE_RE.match(self.text) is not None

    @property
    def asks_dependence(self) -> bool:
        """Whether the degree asked is a dependence ("How dependent is X on Y?", "reliant",
        "concentrated"), which a share of sales measures; not an exposure or an extent."""
        return _DEPENDENCE_RE.match(self.text) is not None

    @property
    def depended_on(self) -> str | None:
        """Whom a degree question names as depended on ("How dependent is General Mills on
        Walmart?": Walmart), whose share alone answers it; None when it names none ("... on
        its largest customer?") or asks no degree."""
        found = _DEPENDED_ON_RE.search(self.text) if self.asks_degree else None
        return found["who"].strip(" .") if found else None

    @property
    def bm25_text(self) -> str:
        """The ranking text and the expansion terms it does not already hold."""
        present = normalize(self.ranking_text)
        extra = [term for term in self.expansion if normalize(term) not in present]
        return " ".join([self.ranking_text, *extra])

    def searched_as(self, words: str) -> Question:
        """The question as asked, searched with other words (a retry's phrasing): what it asks,
        its periods, intents, sections and phrasings stay; only what ranks the chunks
        changes."""
        return self.model_copy(update={"ranking_text": words, "expansion": []})

    def within(self, whole: Question) -> Question:
        """This question as a part of ``whole``: the whole's filing and company, and what it
        does not name itself (the filing kind, the period) the whole's; one that names only
        an earlier year than the whole ("change from fiscal 2019") reads up to its latest."""
        update: dict[str, object] = {}
        if whole.documents:  # one question is about one filing: its clauses too
            update |= {"documents": whole.documents, "companies": whole.companies,
                       "unindexed": whole.unindexed}
        if not self.kinds:
            update["kinds"] = whole.kinds
        if not self.years:
            update |= {name: getattr(whole, name) for name in _PERIOD_FIELDS}
        elif whole.years and max(self.years) < max(whole.years):
            latest = max(self.years)
            update |= {"years": [*self.years, *(y for y in whole.years if y > latest)],
                       "periods": [*self.periods, *(p for p in whole.periods
                                                    if int(p[1]) > latest)]}
        return self.model_copy(update=update)

    def plain(self) -> Question:
        """The question ranked as written: no instructions dropped, no terms added (how it
        asks, its phrasings, stays as read)."""
        return self.model_copy(update={"ranking_text": self.text, "metrics": [],
                                       "statements": [], "named_statements": [],
                                       "expansion": []})


# a clause that concedes what the ask is set against: "even with the acquisition", "despite
# lower earnings", "in spite of ...", up to the next comma or the question's end
CONCESSIVE_RE = re.compile(r",?\s*\b(?:even (?:with|after|though)|despite|in spite of|"
                           r"notwithstanding)\b[^,?;]*", re.IGNORECASE)

# a question's own clause ends at a comma or a concessive word ("..., even as net sales rose",
# "... as costs rose"), never at an "as" inside its measure or its period ("gross profit as a
# percentage of net sales", "as of June 30", "as compared to 2022")
CLAUSE_END_RE = re.compile(r",|\b(?:even|while|although|though|despite)\b|\bas\b(?!\s+(?:a|an|"
                           r"of|compared|part|well|much|many|measured|reported|adjusted|"
                           r"defined|stated|such|per)\b)", re.IGNORECASE)


def own_clause(asking: str) -> str:
    """The clause a question asks in: its concessive clauses left out, from a yes or no's
    auxiliary or a question word after a short opening clause ("As of Q2 2023, did ...",
    "In fiscal 2022, what ..."), up to a comma, a concessive word or its question mark."""
    text = CONCESSIVE_RE.sub("", asking).strip(" ,;")
    opening = _YES_NO_OPENING_RE.match(text)
    start = opening.start("aux") if opening else 0
    if opening is None and (asked := _OPENING_CLAUSE_RE.match(text)):
        start = asked.end()
    return CLAUSE_END_RE.split(text[start:], maxsplit=1)[0].strip().rstrip("?").strip()


# what a part of a question that names no period of its own takes from the whole
_PERIOD_FIELDS = ("years", "filing_years", "quarters", "periods", "months", "to_date",
                  "fiscal", "dates")

# "..., and why?" after what a question asks first: a metric's change is computed and its causes
# read after it (answers.Answerer), a winner's causes read beside it (direct.with_causes)
# (what it is: "the change", "it", "that segment's decline", up to three words); what made
# up an amount is asked as its causes are: MD&A states both in one sentence ("The provision for
# credit losses was $1.1 billion, reflecting $657 million of net charge-offs and ..."); "and
# if so, why?" asks the same of a yes or no
_THAT_CHANGE = r"(?:the|this|that|its?)(?:\s+[\w'’-]+){0,3}"
AND_WHY_RE = re.compile(
    rf",?\s*and,?\s+(?:if so,?\s+)?(?:why|{CAUSE_ASKED} {_THAT_CHANGE}|(?:for )?what reasons?|"
    rf"what (?:factors|reasons|drivers) "
    rf"(?:were|are|was|is) behind {_THAT_CHANGE})\s*\??\s*$", re.IGNORECASE)


def read_question(text: str, profiles: Sequence[DocumentProfile] = ()) -> Question:
    """The :class:`Question` of ``text``; ``profiles`` are the indexed documents it may name."""
    vocabulary = load_vocabulary()
    ranking = strip_instructions(text)
    # a qualified term ("comparable sales growth") is a measure asked, but none the statements
    # print: no metric for the engine, still a figure to answer
    measures = terms_in(ranking)
    documents = named_filings(text, route(text, profiles)) if profiles else []
    titles = {p.document: p.title for p in profiles if p.title}
    companies = list(dict.fromkeys(short_display_name(titles[d]) for d in documents
                                   if d in titles))
    # a member named after the measure ("operating income for Sam's Club") narrows it as a
    # qualifier does: no consolidated figure answers it
    unqualified = list(dict.fromkeys(t.name for t in terms_in(ranking, qualified=False)))
    names = [*companies, *(a for p in profiles if p.document in documents for a in p.aliases)]
    narrowed = {term: phrase for term, phrase in narrowed_by_name(ranking, names,
                                                                  measures).items()
                if term in unqualified}  # "for Block (formerly known as Square)": its company
    metrics = [m for m in unqualified if m not in narrowed]
    named = statements_named(text)
    # a statement named in an instruction ("... only has access to the statement of income")
    # leaves the ranking text with the instruction: its printed title searches for it
    statements = list(dict.fromkeys([*named, *(s for m in metrics
                                               for s in vocabulary.statements_of(m))]))
    expansion = list(dict.fromkeys([*(STATEMENT_TITLES[s] for s in named),
                                    *(i for m in metrics for i in vocabulary.line_items_of(m))]))
    # "in its release" stays; a concessive clause is the ask's context, not the ask ("Did it
    # grow its deposits, even with the First Republic acquisition?" asks of no deal)
    intents = intents_in(CONCESSIVE_RE.sub("", strip_instructions(text, references=False)))
    expects = expected_answer(ranking, bool(measures), intents)
    qualified = [*qualified_measures(ranking), *narrowed.values()]
    moved = moved_measure(ranking) if expects == "yes_no" and not (metrics or qualified) \
        else None
    clause = own_clause(ranking)
    return Question(
        text=text, ranking_text=ranking, years=years_asked(text), filing_years=filing_years(text),
        quarters=sorted(asked_quarters(text)), periods=periods_asked(text),
        months=months_asked(text), to_date=asks_to_date(text), dates=dates_named(text),
        fiscal=names_fiscal(text), prior_period=names_prior_period(text),
        horizons=horizons(text),
        kinds=sorted(kinds_asked(text)),
        metrics=metrics, statements=statements, named_statements=named, expansion=expansion,
        qualified=qualified, narrowed=list(narrowed), moved=moved,
        intents=intents, wholes=wholes_asked(ranking, intents),
        sections=sections_for(answering_first(intents, expects)), expects=expects,
        decimals=decimals_asked(text),
        counts=counted(ranking) if expects != "cause" else None,
        documents=documents, companies=companies,
        unindexed=None if documents or not profiles else unindexed_company(text, profiles),
        asked=asked_parts(text), compares=comparison_asked(text), total=total_asked(text),
        short_names=short_names_defined(text),
        asks_of=asked_head(text, expects, intents), manner=manner_asked(text), clause=clause,
        way=way_asked_of(clause, moved) if expects == "yes_no" else None,
        terms=terms_asked(ranking, expects, intents), share=share_asked(ranking),
        threshold=threshold_asked(asking_sentence(text)),
        phrasings=phrasings_in({"text": text, "ranking_text": ranking, "clause": clause}))


# a short name defined in parentheses after the long one ("Communication Markets Division
# (CMD)", "Samsung Display (SDC)"), as a filing defines its terms: never a capitals word merely
# printed (the company's ticker, "R&D"), nor a period's ("(FY2022)")
SHORT_NAME_DEFINED_RE = re.compile(r"\(\s*[“\"]?([A-Z][A-Za-z0-9&]{1,9})[”\"]?\s*\)")


def short_names_defined(text: str) -> list[str]:
    """The short names a question defines (:data:`SHORT_NAME_DEFINED_RE`), in order, each
    once."""
    return list(dict.fromkeys(n for n in SHORT_NAME_DEFINED_RE.findall(text)
                              if not PERIOD_NAME_RE.fullmatch(n)))


def years_asked(text: str) -> list[int]:
    """The years a question asks of: those it writes, but a year written only in naming the
    filing by its period, when it asks another (:func:`without_period_filing`)."""
    return years_in(without_period_filing(text)) or years_in(text)


def periods_asked(text: str) -> list[Period]:
    """The periods a question asks of (:func:`periods_named`), a filing named by the period it
    reports left out when it asks another ("in the first quarter of 2021, according to its
    10-Q for the quarter ended March 31, 2021" asks Q1 2021 once)."""
    return periods_named(without_period_filing(text)) or periods_named(text)


def way_asked_of(clause: str, moved: Move | None) -> Way | None:
    """The way a yes or no asks in its own clause (:func:`moves.way_of`); of a measure only
    prose names, the way of the verb that governs it, whatever else the clause says ("Did
    Netflix reduce its content spending to support growth?" asks down, "Did it cut its
    workforce to improve profitability?" down, "Did it maintain and grow its memberships?"
    up, "Did its credit quality improve?" better)."""
    return moved.way if moved is not None else way_of(clause)


def periods_named(text: str) -> list[Period]:
    """The periods a question names, in order: (quarter or None, year); the first reading of a
    year wins ("Q1 2022 Q2 2023" holds no "2022 Q2")."""
    quarters: dict[int, Period] = {}
    for q, y, at in quarters_named(text):
        quarters.setdefault(at, (f"Q{q}", str(y)))
    found = {at: quarters.get(at, (None, str(year))) for year, at in year_mentions(text)}
    # a quarter whose year is glued to it ("Q22023") is no year the year grammar sees alone
    found.update({at: period for at, period in quarters.items() if at not in found})
    return list(dict.fromkeys(period for _, period in sorted(found.items())))


def asked_head(text: str, expects: Expects, intents: Sequence[str]) -> str | None:
    """The noun a "what" question asks to be told of, lower case, else None (the expected
    answer type of question answering). Only of a question that asks what the filing says and
    names no intent: an intent's sections and readers know their answer's words ("What
    industry ...?" is answered by a sentence of Item 1 that need not say "industry")."""
    if expects != "text" or intents:
        return None
    found = _HEAD_ASKED_RE.match(text.strip())
    return found["noun"].lower() if found else None


def counted(asking: str) -> str | None:
    """The plural noun a count asks to count ("How many warehouses did Costco operate?":
    "warehouses"), else None."""
    match = _COUNTED_RE.search(normalize(asking))
    return match["noun"] if match else None


def asking_sentence(text: str) -> str:
    """The sentence of ``text`` that asks (the first ending in a question mark), else all of
    it: a question's definitions and instructions around it ask nothing."""
    return next((s for s in split_sentences(text) if s.rstrip().endswith("?")), text)


def expected_answer(asking: str, names_metric: bool, intents: Sequence[str] = ()) -> Expects:
    """The form the answer's first sentence takes, from how the question asks: a yes or no, a
    cause, names, a figure, what the filing says (text); else the form of the first intent it
    names (``intent_lexicon.json``), else text."""
    sentence = normalize(asking_sentence(asking))
    if _YES_NO_RE.search(sentence) and not EITHER_WAY_RE.search(sentence):
        return "yes_no"  # "did it rise or fall?" asks which way, not yes or no
    cause = _CAUSE_RE.search(sentence)
    count = _COUNT_FIRST_RE.search(sentence)
    # the first thing asked leads: "Which segment drove ..." asks a name, "How many employees
    # ..., and why ...?" a count, and their cause comes after
    if cause and not _NAME_FIRST_RE.match(sentence) and not (count and count.start()
                                                              < cause.start()):
        return "cause"
    if _PRICE_ASKED_RE.match(sentence):
        return "figure"  # "What did Corning pay for 3M's ... Division?": a price, no name
    if _NAMES_RE.search(sentence) or items_asked(sentence, intents):
        return "names"
    if names_metric or _FIGURE_RE.search(sentence):
        return "figure"
    if _TEXT_RE.search(sentence) or _OWN_FORM_RE.search(sentence):
        return "text"
    return answer_form_of(intents) or "text"


def asks_cause(question: Question) -> bool:
    """Whether a question asks a cause, first ("What drove ...?") or after what it asks first
    ("Did its gross margin improve, and what drove the change?")."""
    return question.expects == "cause" or bool(AND_WHY_RE.search(question.ranking_text))
