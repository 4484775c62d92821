"""Metric, trend and judgment questions as the engine reads them, and the definitions they
name.

The metrics and line items come from the one finance vocabulary
(:mod:`rag_assets.core.question.vocabulary`); ``judgment_rules.json`` (thresholds an analyst
would defend, with sources) is loaded here; :func:`parse_question` reads a question's words:
which metric or line item, which fiscal years or quarter, the aggregate (a value, a multi-year
average, a CAGR, a trend), the precision and units asked, and a definition the question
states itself ("Fixed asset turnover ratio is defined as: FY2019 revenue / (average PP&E
between FY2018 and FY2019)"). What the engine does with a parsed question is
:mod:`metric_engine`'s. Plain Python and pydantic; no Dagster.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Sequence
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Literal, cast

from pydantic import BaseModel, Field

from rag_assets.core.generation.direct_rows import first_match, load_cues
from rag_assets.core.ingest.facts import NOTES_CITED_RE
from rag_assets.core.question.companies import POSSESSIVE_RE
from rag_assets.core.question.intents import load_intents
from rag_assets.core.question.members import member_after
from rag_assets.core.question.moves import COMPRESSED, REDUCED, SCALED_BACK, STEPPED_UP
from rag_assets.core.question.question import (
    AND_WHY_RE,
    EITHER_WAY_RE,
    KINDS_ASKED_RE,
    Question,
)
from rag_assets.core.question.shares import (
    PRONOUNS,
    SHARE_RES,
    SHARE_WORD,
    share_match,
    share_terms,
)
from rag_assets.core.question.thresholds import Threshold
from rag_assets.core.question.vocabulary import (
    TermMatch,
    Vocabulary,
    load_vocabulary,
    normalize,
    phrase_pattern,
    terms_in,
    whole_term,
)
from rag_assets.core.text.filing_kinds import without_period_filing
from rag_assets.core.text.periods import (
    NUMBER_WORDS,
    PERIOD_OPENING_RE,
    PERIOD_OVER_PERIOD_RE,
    PERIOD_WORD_RE,
    TERM_PERIOD_RE,
    THAN_PERIOD_RE,
    month_event,
    period_end_years,
    quarters_named,
    same_year_dates,
    without_quarters,
)
from rag_assets.core.text.sentences import split_sentences
from rag_assets.core.text.years import (
    BASE_YEAR_RE,
    FISCAL_TERM_RE,
    FY_TERM_RE,
    YEAR_SPAN_RE,
    YEAR_TOKEN,
    one_period_restated,
    years_in,
)

RULES_FILE = Path(__file__).with_name("judgment_rules.json")

Aggregate = Literal["value", "average", "cagr", "trend", "choice", "each"]
Scale = Literal["thousands", "millions", "billions"]
Direction = Literal["up", "down", "improve", "worsen", "change"]
SCALES = {"thousands": 1e3, "millions": 1e6, "billions": 1e9}

# --- definitions (data) ----------------------------------------------------------------------


class Band(BaseModel):
    min: float | None = None
    max: float | None = None
    verdict: str
    term: str = Field(description="what the verdict says the filer is: a yes to a question "
                                  "asking that, a no to one asking another term")
    also: list[str] = Field(default_factory=list, description="narrower terms the band is a "
                            "yes to as well: comfortable coverage also covers 'comfortably'")

    def says(self, asked: str) -> bool:
        """Whether the band is a yes to the term asked."""
        return asked == self.term or asked in self.also

    def holds(self, value: float) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value < self.max)


class Ask(BaseModel):
    pattern: str
    term: str


class JudgmentRule(BaseModel):
    patterns: list[str]
    metric: str
    bands: list[Band]
    asks: list[Ask] = Field(min_length=1, description="the term a question asks about: the "
                                                      "first whose pattern matches")
    rule: str
    source: str
    also: list[str] = Field(default_factory=list, description="metrics an analyst states "
                            "beside the rule's, each computed where the filing prints it")
    also_source: str = ""

    def without_its_words(self, norm: str) -> str:
        """The question without the words the rule reads ("returning cash to shareholders"):
        they ask the judgment, not a ratio of "cash to" another amount."""
        for pattern in self.patterns:
            norm = re.sub(pattern, " ", norm)
        return norm

    def asked(self, norm: str) -> str:
        """The term the question asks about ("capital-light" for "is it asset light?")."""
        return next((a.term for a in self.asks if re.search(a.pattern, norm)),
                    self.asks[-1].term)


class TrendRule(BaseModel):
    flat_relative: float
    flat_points: float
    source: str


class Rules(BaseModel):
    trend: TrendRule
    rules: dict[str, JudgmentRule]


@cache
def load_rules(path: Path = RULES_FILE) -> Rules:
    data = json.loads(path.read_text(encoding="utf-8"))
    return Rules(trend=data["trend"], rules=data["rules"])


def named_items(text: str, exclude: frozenset[str] = frozenset()) -> list[TermMatch]:
    """The metrics and line items the statement facts carry that a text names (the
    vocabulary's :func:`terms_in`), but those in ``exclude`` and those a qualifier makes
    another measure ("adjusted EBIT" is no EBIT the statements print)."""
    return terms_in(text, facts_only=True, exclude=exclude, qualified=False)


# --- the question ----------------------------------------------------------------------------


class MetricQuestion(BaseModel):
    """What a metric, trend or judgment question asks, read from its words."""

    question: str
    target: str = Field(description="a metric or concept of the vocabulary (finance_terms.json)")
    is_metric: bool
    years: list[int] = Field(default_factory=list, description="fiscal years asked, sorted")
    aggregate: Aggregate = "value"
    months: int = Field(default=12, description="12 for a fiscal year, 3 for a quarter, 6 ...")
    to_date: bool = Field(default=False, description="the year to date is asked "
                          "(``Question.to_date``)")
    quarter: int | None = None
    within: float | None = Field(default=None, description="the band a measure is asked to "
                                 "stay within over the years ('consistent (within 2% each "
                                 "year)'), in percentage points for a percentage")
    year_ago: bool = Field(default=False, description="an interim balance compared with the "
                           "quarter a year before, as the question names it ('compared with "
                           "Q1 fiscal 2023', 'a year ago'), not with the preceding fiscal "
                           "year's end a 10-Q compares it with")
    decimals: int | None = None
    scale: Scale | None = None
    percent: bool = Field(default=False, description="the question asks for percents")
    formulas: dict[str, str] = Field(
        default_factory=dict, description="definitions the question states, by metric name")
    yes_no: bool = False
    total: bool = Field(default=False, description="the sum of the line items asked together "
                        "is asked too (``Question.total``)")
    direction: Direction | None = None
    judgment: str | None = None
    choices: list[str] = Field(default_factory=list,
                               description="the line items a 'which' question compares")
    pick: Literal["max", "min"] | None = Field(
        default=None, description="the member a choice asks for: the highest or the lowest")
    titles: dict[str, str] = Field(
        default_factory=dict, description="metrics the question itself defines (a name the "
        "vocabulary lacks, as 'operating cash flow ratio'), by key: their title as written")
    asks: str | None = Field(default=None, description="the term a judgment asks about")
    dated: bool = Field(default=False, description="the question writes a period-end date: its "
                        "years are columns' own years, not fiscal names")
    sign: Literal["positive", "negative"] | None = Field(
        default=None, description="the sign a yes or no asks of the value ('Does it have "
        "positive free cash flow?')")
    threshold: Threshold | None = Field(
        default=None, description="the level a yes or no compares the value with ('Is its "
        "effective tax rate above the 21% statutory rate?')")
    history: bool = Field(default=False, description="a trend asked as a record over the "
                          "years (a margin 'profile', 'historically'): every earlier year the "
                          "filing prints is given too")
    end_year_shift: int = Field(default=0, description="years between a fiscal period's name "
                                "and the year its columns end in (the filer's naming)")
    written: dict[str, str] = Field(
        default_factory=dict, description="the words the question's definitions name a line "
        "item by ('net sales'): its row printed under them is read first")
    explained_by: list[str] = Field(
        default_factory=list, description="the flows that moved a balance whose change is "
        "asked with its reason ('and why?': the debt issued and repaid), read beside it")
    named_row: bool = Field(default=False, description="the target is the statement row the "
                            "question names by its label's words, no definition it states: "
                            "read under a label of exactly those words where they are fewer "
                            "than three (LABEL_STOP_WORDS aside)")

    @property
    def covers(self) -> bool:
        """Whether a coverage is asked ("was A enough to cover B", "how many times did A cover
        B"): A / B, the question's own; as a yes or no, covered when it is 1 or more."""
        return coverage_sides(self.titles.get(self.target, "")) is not None

    @property
    def exceeds(self) -> bool:
        """Whether the coverage is asked as one amount exceeding another ("Did its operating
        cash flow exceed its net income?"): a yes only above it, worded so."""
        return EXCESS_OF in self.titles.get(self.target, "")

    @property
    def exists(self) -> bool:
        """Whether the yes or no asks if the amount is there at all ("Did it pay dividends?",
        "Does it have any debt due within the year?"): yes when it is not zero; a quality asked
        of it ("Is its debt load manageable?") is not answered by its size, nor is a size
        asked ("Does it have a lot of goodwill relative to its assets?"): any is no yes."""
        return self.yes_no and bool(_EXISTENCE_RE.search(self.question)) and not \
            _SIZE_ASKED_RE.search(self.question)

    @property
    def asks_gain(self) -> bool:
        """Whether the amount asked is one a company brings in ("Did it generate cash from
        operations?", "earn a profit"): cash its operations used is none generated, so only an
        amount above zero is a yes (an outflow asked, "generate cash outflows", is not)."""
        return self.exists and bool(_GAIN_ASKED_RE.search(self.question))

    @property
    def stated(self) -> str | None:
        """The question's own formula of its target, when it states one."""
        return self.formulas.get(self.target)


_DEFINITION_RES = (
    re.compile(r"^(?:define\s+)?(?P<name>.+?)\s+(?:here\s+)?(?:is|are)\s+(?:defined|calculated|"
               r"computed)\s+as\s*:?\s*(?P<body>.+)$", re.IGNORECASE),
    re.compile(r"^define\s+(?P<name>.+?)\s+as\s*:?\s*(?P<body>.+)$", re.IGNORECASE),
    re.compile(r"^(?P<name>[^=?]+?)\s*=\s*(?P<body>[^=]+)$"),  # "Quick ratio = (cash + ...)"
)
# "(cash from operations divided by total current liabilities)" after the name it defines
_PAREN_DEFINITION_RE = re.compile(
    r"\((?P<body>[^()]*(?:\([^()]*\)[^()]*)*?(?:\bdivided\s+by\b|\bminus\b|\bplus\b|\btimes\b|"
    r"\bmultiplied\s+by\b|\s[/*÷+]\s|\w\s+over\s+(?!the\s+(?:prior|previous|past|last|next|same)\b|"
    r"time\b|\d))[^()]*(?:\([^()]*\)[^()]*)*)\)", re.IGNORECASE)
_SCALE_RE = re.compile(r"\b(?:in|of)\s+(?:units\s+of\s+)?(?:usd|us\$|\$|dollars)?\s*"
                       r"(?P<scale>thousands|millions|billions)\b", re.IGNORECASE)
_PERCENT_RE = re.compile(r"\b(?:in\s+(?:units\s+of\s+)?|as\s+(?:a\s+)?)percent", re.IGNORECASE)
# a breakdown (segment, region), a cause (why, drove), a choice among named things (which,
# who), the company's customers or workforce, what it expects (guidance): what the filing's
# prose and notes answer, not one figure of its primary statements ("Who are its largest
# customers, and how much of net revenues did each account for?" names revenue but asks for
# names and shares)
# earnings per share is a line item of the income statement, not a per-share amount to read
_EPS_RE = re.compile(r"\b(?:net )?(?:earnings|income) per (?:common )?share\b")
# a year's dividends per share, a line the statements print (General Mills' income statement,
# Corning's equity statement); a quarterly dividend declared is the prose path's (a release's
# or an 8-K's sentence), as is a dividend per share without a period the statements cover
_DPS_RE = re.compile(r"\b(?:cash )?dividends? (?:declared |paid )?per (?:common )?share\b")
_PROSE_RE = re.compile(
    r"\b(?:which|who|whom|why|drove|drive[sn]?|driving|driver|explain\w*|describe\w*|"
    r"customers?|employees?|headcount|expects?|expected|expectations?|outlook|guidance|"
    r"forecast\w*|anticipat\w*|segments?|"
    r"regions?|regional|geograph\w*|per share|each shareholder|reasons?|occurred|"
    r"behind|factors?|contributed to|contributors?|led to|accounted for|responsible for|"
    r"caused?|causing|what (?:are|were) (?:the )?(?:main|key|major|three|two)|"
    # an action taken, not its cost: "Did it undertake any new restructuring actions?" is
    # MD&A's sentence ("We did not undertake any new restructuring actions"), never a charge
    r"undertak\w*|new (?:[a-z-]+ ){0,2}(?:actions?|plans?|programs?|initiatives?|rounds?|"
    r"offerings?|agreements?|facilit(?:y|ies))|"
    # the instruments and their terms, not an amount: "What debt did it issue, and on what
    # terms?" is the debt note's or the 8-K's sentence (notes, rates, maturities), unless an
    # amount is asked beside them ("..., and how much did its total debt change?")
    r"(?:on what terms|what (?:debt|notes|bonds|securities|instruments) did)(?!.*\bhow much\b))\b")
# "Would you describe Corning as capital intensive?": a judgment asked in other words
_DESCRIBE_AS_RE = re.compile(r"\b(?:describe|characteri[sz]e|consider|call|classify|regard)\b"
                             r".*\bas\b")
_SOURCE_NOTE_RE = re.compile(r"\s*\((?=[^()]*\b(?:statement|balance sheet|p&l)\b)[^()]*\)",
                             re.IGNORECASE)
# "dividends paid per the cash flow statement": a term's source, said after it, is no part of it
_SOURCE_PHRASE_RE = re.compile(
    r"\s+(?:per|from|on|in|as\s+(?:reported|printed|shown)\s+(?:on|in))\s+(?:the\s+)?"
    r"(?:consolidated\s+)?(?:cash\s+flows?\s+statement|income\s+statement|balance\s+sheet|"
    r"statements?\s+of\s+(?:[a-z']+\s+){0,3}?(?:income|operations|earnings|cash\s+flows?|"
    r"financial\s+position|equity))\b", re.IGNORECASE)
# "How did Walmart's long-term debt change in fiscal 2022?": against the year before
# "how did X change", "by how much did X increase": the change itself is asked, against the
# period the filing prints beside the one named
_COMPARED_WITH_PRIOR = (r"\bhow (?:did|does|do) (?:it|that|this|they|these) compare (?:with|to) "
                        r"(?:the )?(?:prior|previous|preceding|last|year[- ]ago|same)\b")
_HOW_CHANGED_RE = re.compile(
    r"\b(?:how|by how much|how much) (?:did|has|have|does|do)\b.*(?:\b(?:chang|increas|decreas|"
    r"gr[eo]w|declin|ris[ei]|rose|fell|fall|drop)|"
    # a better or worse way, as a verb of the measure: never a noun ("warehouse improvements")
    # or a purpose ("capital expenditures to improve its supply chain")
    r"(?<!\bto )\b(?:improved?|worsen(?:ed)?|deteriorated?|strengthen(?:ed)?|weaken(?:ed)?)\b)|"
    r"\bwhat (?:happened|has happened) to\b|"
    r"\bwhat (?:was|is|were) the (?:change|increase|decrease|growth|decline) in\b|"
    r"\bhow (?:large|big|much|significant) (?:was|is|were) the (?:rise|increase|decrease|"
    rf"decline|growth|change|drop|fall)\b|\bby how much\b|{EITHER_WAY_RE.pattern}|"
    # "What is its FY2019 change in cash?", "What is its FY2019 net income growth (rate)?": the
    # change named as a noun, of the year named
    r"^\s*what (?:was|is|were)\b[^?]*\b(?:growth|change)(?:\s+rate)?(?:\s+(?:in|of)\b|\s*\??\s*$)|"
    # "..., and how did it compare with the prior year?": against the period printed beside it
    rf"{_COMPARED_WITH_PRIOR}", re.IGNORECASE)
_YES_NO_RE = re.compile(r"(?:^|[,:;]\s+)(?:does|do|did|has|have|had|is|are|was|were|will|can|"
                        r"could|would|should)\b", re.IGNORECASE)
# whether an amount is there: "Did X pay dividends?", "Has it repurchased shares?", "Does it
# have any debt due ...?", "Is there ...?"; not "Is its debt load manageable?"
_EXISTENCE_RE = re.compile(
    r"^\s*(?:(?:does|do|did|has|have|had)\s+(?:\S+\s+){0,5}?(?:have|has|had|pay|paid|hold|"
    r"carry|record|report|incur|owe|make|made|repurchase|repurchased|buy|bought|issue|issued|"
    r"spend|spent|return|returned|receive|received|recognize|recognized|generate|generated)\b|"
    r"(?:is|are|was|were)\s+there\b|(?:is|are|was|were)\s+(?:\S+\s+){0,5}?(?:buying\s+back|"
    r"repurchasing|paying\s+(?:a\s+|any\s+)?(?:cash\s+)?dividends?)\b)|\bany\b", re.IGNORECASE)
# a verb of bringing an amount in: a negative one is none
_GAIN_ASKED_RE = re.compile(r"\b(?:generat\w*|earn\w*|produc\w*)\b(?![^?]*\b(?:outflows?|"
                            r"used|spent|burn\w*|loss(?:es)?)\b)", re.IGNORECASE)
# how much of it is asked, not whether there is any: a size no rule here judges
_SIZE_ASKED_RE = re.compile(
    r"\b(?:a lot of|lots of|too much|too many|significant|substantial|large|high|heavy|"
    r"excessive|sizable|sizeable|considerable|more|less|fewer|higher|lower|greater|smaller)\b|"
    r"\brelative to\b|\bcompared (?:to|with)\b|"
    r"\bas a (?:share|percent\w*|proportion|fraction) of\b", re.IGNORECASE)
_AVERAGE_RE = re.compile(r"\baverage\b", re.IGNORECASE)
# an event a balance cannot answer: "Did X issue or repay any debt?" asks of the period's
# flows (the debt note, the cash flow statement), not of the debt it holds at the end
_EVENT_RE = re.compile(r"(?<!\bafter )(?<!\bto )(?<!\bafter it )(?<!\bgiven )"
                       r"\b(?:issue|issued|repa(?:y|id)|borrow(?:ed)?|refinanc(?:e|ed)|"
                       r"redeem(?:ed)?|retire[d]?|pa(?:y|id) down)\b", re.IGNORECASE)
# a trend asked as a record over the years, not one year's change: "an improving margin
# profile", "historically", "over time", "consistently"
_HISTORY_RE = re.compile(r"\bprofile\b|\bhistor(?:y|ical|ically)\b|\bover (?:time|the years)\b|"
                         r"\bconsisten(?:t|tly)\b|\btrack record\b|\bin recent years\b|"
                         r"\bover the (?:last|past) (?:two|three|four|five|several|few|\d) years\b",
                         re.IGNORECASE)
_CAGR_RE = re.compile(r"\bcagr\b|\bcompound(?:ed)?\s+annual\s+growth", re.IGNORECASE)
_DIRECTIONS: tuple[tuple[Direction, re.Pattern[str]], ...] = (
    # "Did its liquidity strengthen?", "Did its free cash flow weaken?": the measure's own
    # better way, as improve and worsen
    ("improve", re.compile(r"\bimprov\w*|\bbetter\b|\bstrengthen\w*", re.IGNORECASE)),
    ("worsen", re.compile(r"\bworse\w*|\bdeteriorat\w*|\bweaken\w*", re.IGNORECASE)),
    ("change", EITHER_WAY_RE),  # "did it rise or fall": which way is asked, not one of them
    ("up", re.compile(r"\bincreas\w*|\bgr[eo]w\w*|\brais\w*|\bros[ee]\b|\bris(?:e|ing)\b|"
                      r"\bwent\s+up|\bgo(?:ne)?\s+up|\bhigher\b(?!\s+than\b)|\bexpand\w*|\bupwards?\b|"
                      rf"\b{STEPPED_UP}\b", re.IGNORECASE)),
    ("down", re.compile(r"\bdecreas\w*|\bdeclin\w*|\bdrop\w*|\bfell\b|\bfall\w*|\bwent\s+down|"
                        r"\bgo(?:ne)?\s+down|\blower\b(?!\s+than\b)|\breduc\w*|\bshr[iu]nk\w*|"
                        rf"\bdownwards?\b|\b(?:{COMPRESSED}|{SCALED_BACK})\b|"
                        rf"\b(?:{REDUCED})\b(?=\s+(?:its|their)\b)", re.IGNORECASE)),
    ("change", re.compile(r"\bchang\w*|\bmov\w*|\bdifference\b|\btrend\w*|\bhappen\w*|"
                          rf"{_COMPARED_WITH_PRIOR}", re.IGNORECASE)),
)


# a pace asked of a verb ("Did its revenue grow faster in 2015 than in 2014?"): the move of
# its growth rate, not of the amount
_PACE_WORDED_RE = re.compile(
    r"\b(?:grow|grew|grown|growing|increas(?:e|ed|es|ing)|r(?:ise|ose|isen|ising))\s+(?:at\s+an?\s+)?"
    r"(?P<pace>faster|quicker|more\s+quickly|more\s+rapidly|slower|more\s+slowly)\b(?:\s+(?:pace|"
    r"rate))?", re.IGNORECASE)


def _paced(asked: str) -> str:
    """The question with a pace asked of a verb as its growth rate's move, unless "than" sets
    another measure against it ("grow faster than its cost of sales": no pace over time)."""
    if re.search(r"\bthan\b", asked, re.IGNORECASE) and not _than_period(normalize(asked)):
        return asked
    return _PACE_WORDED_RE.sub(lambda m: "growth " + ("slow" if "slow" in m["pace"].lower()
                                                      else "accelerate"), asked)


# a comparative word before "than": the way a comparison asks
_COMPARATIVE_RE = re.compile(r"\b(?P<word>more|greater|larger|higher|less|fewer|smaller|lower)\b"
                             r"(?=[^?]*\bthan\b)", re.IGNORECASE)
_UPWARD = frozenset({"more", "greater", "larger", "higher"})


def _period_compared(norm: str) -> Direction | None:
    """The way a comparison with another period asks ("more cash than in fiscal 2021",
    "revenue higher than its fiscal 2021 revenue": up): None when "than" sets another measure
    against it ("capex higher than its depreciation in fiscal 2022") or no period."""
    than = _than_period(norm)
    word = _COMPARATIVE_RE.search(norm[:than.end()]) if than else None
    if than is None or word is None:
        return None
    return "up" if word["word"].lower() in _UPWARD else "down"


def _than_period(norm: str) -> re.Match[str] | None:
    """Where "than" names another period of the measure before it, not another measure."""
    than = THAN_PERIOD_RE.search(norm)
    if than is None or {i.name for i in named_items(norm[than.start():than.end()])} - {
            i.name for i in named_items(norm[:than.start()])}:
        return None
    return than


# a growth rate's own move: "Did its revenue growth accelerate (slow) in 2017?"
_PACE_RE = re.compile(r"\b(?:accelerat|decelerat|slow(?:ed|ing|s)?\b)\w*", re.IGNORECASE)


def _number(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


# ", defined as dividends paid divided by net income ..." inside the asking sentence
_INLINE_DEFINITION_RE = re.compile(r",\s*(?:defined|calculated|computed)\s+as\s*:?\s*"
                                   r"(?P<body>[^?;]+)", re.IGNORECASE)
# an instruction a definition runs into: "...; round to one decimal place"
# or where its figures come from: "..., using figures from the income statement", "..., both for
# the three months ended June 30, 2023"
_BODY_END_RE = re.compile(
    r"[;,]\s*(?:and\s+)?(?:(?:round|express|answer|give|show|base)\w*\b|us(?:e|ing)\s+(?:the\s+)?"
    r"(?:(?:figures|numbers|data|amounts|values)\b|(?:consolidated\s+)?(?:statements?|balance|"
    r"income|cash)\b)|(?:both|all)\s+(?:for|as|at|from|in|of)\b).*$", re.IGNORECASE)
# a name that points back at what the question asks: "Define it as ..." (read as that)
_POINTING_NAMES = frozenset({"it", "this", "that", "this ratio", "the ratio", "this metric"})


_ASKED_NAME_RE = re.compile(r"\b(?:what (?:is|was|were|are)|calculate|compute|determine) (?:the )?"
                            r"(?:[\w&.-]+'s )?(?P<name>.+?)"
                            r"(?:\s+(?:in|for|of|as of|during|at|over)\b|\?|$)", re.IGNORECASE)


# an "over" that is no division: a change against a period ("growth over fiscal 2020", "quarter
# over quarter"), a span ("compounded over five years"), a place ("spread over its segments")
_CHANGE_BEFORE_OVER_RE = re.compile(r"\b(?:growth|grew|increase|decrease|decline|change|rise|"
                                    r"gain|up|down|carried|compounded|spread|measured)s?\s+"
                                    r"over\b", re.IGNORECASE)
_NO_TERM_AFTER_OVER_RE = re.compile(r"\bover\s+(?:the|a|an|its|their|from|time|several|"
                                    r"two|three|four|five|six|seven|eight|nine|ten)\b",
                                    re.IGNORECASE)
_OTHER_OPERATOR_RE = re.compile(r"\bdivided\s+by\b|\bminus\b|\bplus\b|\btimes\b|"
                                r"\bmultiplied\s+by\b|\s[/*÷+]\s", re.IGNORECASE)


def _divides(body: str) -> bool:
    """Whether a parenthesized text is a definition: an operator other than "over", or an
    "over" between two terms, the second naming no year."""
    if _OTHER_OPERATOR_RE.search(body):
        return True
    after = body[body.lower().rfind(" over ") + 6:] if " over " in body.lower() else ""
    return bool(after) and not (_CHANGE_BEFORE_OVER_RE.search(body)
                                or _NO_TERM_AFTER_OVER_RE.search(body) or years_in(after)
                                or PERIOD_OVER_PERIOD_RE.search(body))


def _asked_name(asked: str) -> str | None:
    """What "it" names in "Define it as ...": the measure the question before it asks for
    ("What was JPMorgan's efficiency ratio in Q3 2022?": "efficiency ratio")."""
    match = _ASKED_NAME_RE.search(asked)
    name = " ".join(FY_TERM_RE.sub(" ", match["name"].lower()).split()) if match else ""
    return name or None


def _body(text: str) -> str:
    """A definition's body without the instruction it runs into and its source notes."""
    body = _SOURCE_NOTE_RE.sub(" ", _BODY_END_RE.sub("", text))
    return _SOURCE_PHRASE_RE.sub("", body).strip().rstrip(".")


def _split_definitions(text: str) -> tuple[str, list[tuple[str | None, str]]]:
    """The asking text, and the (name, body) definitions the question states; a definition in
    parentheses or after a comma inside the asking sentence has no name of its own (it defines
    what the question asks, the words before it), nor has "Define it as ..."."""
    asked: list[str] = []
    definitions: list[tuple[str | None, str]] = []
    for sentence in split_sentences(text):
        for pattern in _DEFINITION_RES:
            if match := pattern.match(sentence.strip()):
                name = match["name"].strip()
                if name.lower() in _POINTING_NAMES:
                    name = _asked_name(" ".join(asked)) or name
                definitions.append((name, _body(match["body"])))
                break
        else:
            for match in _PAREN_DEFINITION_RE.finditer(sentence):
                if not _divides(match["body"]):
                    continue
                definitions.append((_defined_before(sentence[:match.start()]),
                                    _body(match["body"])))
                sentence = sentence.replace(match.group(0), " ")
            if inline := _INLINE_DEFINITION_RE.search(sentence):
                before = sentence[:inline.start()]  # "What is its R&D intensity, defined as"
                definitions.append((_inline_name(before), _body(inline["body"])))
                sentence = sentence[:inline.start()] + sentence[inline.end():]
            asked.append(sentence)
    return " ".join(asked), [d for name, body in definitions for named in _and_defined(name, body)
                             for d in _with_where(*named)]


# "Define net debt as total debt minus cash, and EBITDA as operating income plus D&A": a second
# term defined in the first one's sentence
_AND_DEFINED_RE = re.compile(r",\s+and\s+(?P<name>[A-Za-z][\w&'’ -]{0,40}?)\s+as\s+"
                             r"(?P<body>.+)$", re.IGNORECASE)


def _and_defined(name: str | None, body: str) -> list[tuple[str | None, str]]:
    """A definition and the one written after it with ", and X as ...", each on its own."""
    if name is None or (more := _AND_DEFINED_RE.search(body)) is None:
        return [(name, body)]
    return [(name, body[:more.start()].strip()), *_and_defined(more["name"].strip(),
                                                                more["body"].strip())]


# "EBIT divided by interest expense, where EBIT is operating income": a term defined after it
_WHERE_RE = re.compile(r",?\s+where\s+(?P<name>[^,;]+?)\s+(?:is|=|means|equals)\s+"
                       r"(?P<body>[^;]+)$", re.IGNORECASE)


def _with_where(name: str | None, body: str) -> list[tuple[str | None, str]]:
    """A definition with the term it defines after "where" written out in it ("(operating
    income) divided by interest expense")."""
    if (where := _WHERE_RE.search(body)) is None:
        return [(name, body)]
    term, written = where["name"].strip().lower(), f"({where['body'].strip().rstrip('.')})"
    pieces = _OPERAND_SPLIT_RE.split(body[:where.start()])
    return [(name, "".join(written if p.strip().lower() == term else p for p in pieces).strip())]


_OPERAND_SPLIT_RE = re.compile(r"(\s*(?:[-+*/()]|\b(?:divided by|times|plus|minus|over|less)\b)"
                               r"\s*)", re.IGNORECASE)


# "What was SG&A as a percentage of revenue?": the part named first, then its total (a share
# only where no metric of the vocabulary names these words: :func:`_share_of_unknown`)
_PART_AS_SHARE_RE = re.compile(
    r"\b(?:what (?:is|was|were|are)|how (?:much|large|high) (?:is|was|were)|calculate|compute)"
    rf"\s+(?P<part>.+?) as (?:an? )?{SHARE_WORD} of (?:the )?(?P<total>.+?)\s*\??$")
# "What percentage of its net sales did it keep after cost of sales?": what is left of the total
_KEPT_AFTER_RE = re.compile(rf"\bwhat {SHARE_WORD} of (?:the )?(?P<total>.+?) (?:did|does|do) "
                            r"\S+(?: \S+){0,4}? (?:keep|retain|have left|left) after (?:paying )?"
                            r"(?P<part>.+?)\s*\??$")
# "How many times did its operating income cover its interest expense?": a coverage ratio
_COVER_RE = re.compile(r"\bhow many times (?:did|does|do|could|can|would|was|is) "
                       r"(?P<part>.+?) (?:cover|covered) (?:by )?(?P<total>.+?)\s*\??$")
# "Was its free cash flow enough to cover its share repurchases?": the same ratio, asked as a
# yes or no (covered when it is 1 or more)
_ENOUGH_RE = re.compile(r"^(?:[^,?]{1,40},\s*)?(?:was|were|is|are|did|does|do|could|can|would)"
                        r" (?P<part>.+?) (?:(?:large |big |high )?enough|sufficient|adequate) "
                        r"to (?:fully )?(?:cover|fund|finance|pay for) (?P<total>.+?)\s*\??$")
# "Does Walmart generate enough operating cash flow to cover its capital expenditures?": the
# same, the measure after "enough"
_HAS_ENOUGH_RE = re.compile(r"^(?:[^,?]{1,40},\s*)?(?:did|does|do|could|can|would|will) "
                            r"[a-z0-9&.' -]{1,40}? (?:generate|generated|have|has|had|produce|"
                            r"produced|earn|earned) (?:(?:large |big |high )?enough|sufficient|"
                            r"adequate) (?P<part>.+?) to (?:fully )?(?:cover|fund|finance|pay for) "
                            r"(?P<total>.+?)\s*\??$")
# "Did its operating cash flow cover its capital expenditures?": the same, without "enough"
# ("can it comfortably cover its interest?" is the interest coverage judgment)
_COVERED_RE = re.compile(r"^(?:[^,?]{1,40},\s*)?(?:did|does|do) (?P<part>.+?) "
                         r"(?:fully )?(?:cover|fund|finance|pay for) (?P<total>.+?)\s*\??$")
# "Is its dividend covered by its free cash flow?": the same, asked of what is covered
_COVERED_BY_RE = re.compile(r"^(?:[^,?]{1,40},\s*)?(?:is|are|was|were) (?P<total>.+?) (?:fully |"
                            r"well )?(?:covered|funded|financed|paid for) by (?P<part>.+?)\s*\??$")
# "Did its operating cash flow exceed its net income?", "Is its capital expenditure higher
# than its depreciation?": two amounts set against each other, the first over the second (a
# level, "higher than 15%", or a period, "than in 2021", names no amount: no such pair)
_EXCEEDS_RE = re.compile(r"^(?:[^,?]{1,40},\s*)?(?:did|does|do|was|were|is|are) (?P<part>.+?) "
                         r"(?:exceed(?:s|ed)?|surpass(?:es|ed)?|outpace(?:s|d)?|(?:come in )?"
                         r"(?:higher|greater|larger|more) than) (?P<total>(?![$€£\d]).+?)\s*\??$")
COVERAGE_OF = " coverage of "  # the name a coverage's definition is given
EXCESS_OF = " excess over "  # the name of one amount set against another ("A exceeds B")


def coverage_sides(name: str) -> list[str] | None:
    """A coverage's (or an excess's) two sides as its name writes them, else None."""
    mark = next((m for m in (COVERAGE_OF, EXCESS_OF) if m in name), None)
    return name.split(mark, 1) if mark else None


def _share_definition(asking: str) -> tuple[str, str] | None:
    """The definition a share question states without saying so, as (name, body): "what share
    of JPMorgan's total net revenue in Q2 2023 came from net interest income" (or "was", "did
    net interest income account for", "did it keep as", "was paid out as") is net interest
    income divided by total net revenue (the company's name and the period are not terms);
    "how many times did operating income cover interest expense" is operating income divided
    by interest expense; "what was SG&A as a percentage of revenue", where no metric names
    those words, is SG&A divided by revenue."""
    norm = normalize(asking)
    # a coverage first: "share repurchases" names no share
    match = next((m for pattern in (_COVER_RE, _HAS_ENOUGH_RE, _ENOUGH_RE, _COVERED_RE,
                                    _COVERED_BY_RE, _EXCEEDS_RE, _KEPT_AFTER_RE, *SHARE_RES)
                  if (m := pattern.search(norm))
                  and (pattern is not _EXCEEDS_RE or _two_amounts(m, norm))
                  and not _funded_by_a_balance(m)), None)
    if match is None and _share_of_unknown(norm):
        match = _PART_AS_SHARE_RE.search(norm)
    terms = share_terms(match) if match is not None else None
    if match is None or terms is None:
        return None
    if match.re is _KEPT_AFTER_RE:
        return (f"{match['word']} of {terms[1]} left after {terms[0]}",
                f"({terms[1]} minus {terms[0]}) divided by {terms[1]}")
    if match.re in (_COVER_RE, _HAS_ENOUGH_RE, _ENOUGH_RE, _COVERED_RE, _COVERED_BY_RE,
                    _EXCEEDS_RE):
        listed = share_terms(match, listed=True) or terms
        mark = EXCESS_OF if match.re is _EXCEEDS_RE else COVERAGE_OF
        return f"{terms[0]}{mark}{listed[1]}", \
            f"{terms[0]} divided by {_sum_named(listed[1])}"
    word = match.groupdict().get("word") or "share"
    if match.re is _PART_AS_SHARE_RE:
        return f"{terms[0]} as a {word} of {terms[1]}", f"{terms[0]} divided by {terms[1]}"
    return f"{word} of {terms[1]} from {terms[0]}", f"{terms[0]} divided by {terms[1]}"


def _funded_by_a_balance(match: re.Match[str]) -> bool:
    """Whether a coverage asks what a balance funded ("Is its capex funded by debt?"): a
    balance at the period's end says nothing of what paid for the period's spending, so no
    ratio of the two answers it (a balance may still cover another, "current liabilities
    covered by current assets")."""
    if not re.search(r"\b(?:fund|financ|pa(?:y|id) for)", match[0]):
        return False
    terms = share_terms(match)
    item = _longest_named(terms[0]) if terms else None
    concept = load_vocabulary().concepts.get(item.name) if item else None
    return concept is not None and concept.kind == "stock"


def _longest_named(term: str) -> TermMatch | None:
    """The line item or metric a term names: its longest name."""
    return max(named_items(normalize(term)), key=lambda i: i.end - i.start, default=None)


def _two_amounts(match: re.Match[str], norm: str) -> bool:
    """Whether "A exceeds B" sets two different amounts side by side, each a line item or a
    dollar metric: "higher than its fiscal 2021 revenue" is another period, "greater than
    one" a level, and two ratios ("gross margin higher than operating margin") differ by no
    amount."""
    terms = share_terms(match)
    if terms is None or _period_compared(norm) is not None:
        return False
    first, second = (_longest_named(term) for term in terms)
    if first is None or second is None or first.name == second.name:
        return False
    return all(not i.is_metric or load_vocabulary().metrics[i.name].unit == "USD"
               for i in (first, second))


def _sum_named(words: str) -> str:
    """"capital expenditures, dividends and share repurchases": their sum, as a definition
    writes it, each item its own term (a line item, else a row's label the reader looks for:
    never one item read as the whole list); other words as they are."""
    pieces = [p.strip() for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", words) if p.strip()]
    return f"({' plus '.join(pieces)})" if len(pieces) > 1 else words


def _inline_name(before: str) -> str | None:
    """What ", defined as ..." defines: the metric the words before it end with when the
    vocabulary knows it ("... its debt to equity ratio"), else the measure asked ("What is
    its R&D intensity"), else the last line item named."""
    named = _defined_before(before)
    if named and _name_of(named) in load_vocabulary().metrics:
        return named
    return _asked_name(before) or named


# the words a ratio's name may open with before its first term: "the ratio of net debt to ..."
RATIO_OPENING_WORDS = frozenset({"the", "a", "its", "ratio", "of", "s", "is", "was", "what",
                                 "calculate", "compute"})


def _defined_before(text: str) -> str | None:
    """The name a parenthesized definition follows: from the last metric or line item the
    text names to its end ("... FY2019 operating cash flow ratio"), or None."""
    norm = normalize(text)
    items = named_items(norm)
    if not items:  # "Calculate JPMorgan's efficiency ratio (...)": a name outside the vocabulary
        return _asked_name(text)
    name = " ".join(PERIOD_OPENING_RE.split(re.sub(r"[^a-z0-9&\s]+", " ",
                                                  norm[items[-1][0]:]))[0].split())
    # "net debt to EBITDA (...)", "the ratio of net debt to EBITDA (...)": the item named last
    # is the ratio's second term, not its name
    before = " ".join(re.sub(r"[^a-z0-9&\s]+", " ", norm).split())
    ratio = re.search(rf"(?:^|\s)(?P<a>(?:[a-z&]+\s+){{1,3}}?)(?P<c>to|over|per)\s+"
                      rf"{re.escape(name)}$", before) if name else None
    if ratio:
        first = ratio["a"].split()
        while first and first[0] in RATIO_OPENING_WORDS:
            first.pop(0)
        if first:
            return " ".join([*first, ratio["c"], name])
    return name or None


def _name_of(phrase: str) -> str | None:
    """The metric (else line item) a definition's name phrase writes."""
    items = named_items(phrase)
    metrics = [i for i in items if i[3]]
    chosen = max(metrics or items, key=lambda i: i[1] - i[0], default=None)
    # "net debt to EBITDA" names a ratio of its own: a term inside it is not its name
    ratio = re.search(r"\S\s+(to|over|per)\s+\S", phrase)
    if chosen and ratio and not chosen[0] <= ratio.start(1) < chosen[1]:
        return None
    return chosen[2] if chosen else None


_AVG_RE = re.compile(rf"\baverage\s+(?:of\s+)?(?:the\s+)?(?P<x>[^()]+?)\s+(?:between|from|over)\s+"
                     rf"{YEAR_TOKEN}\s+(?:and|to|-)\s+{YEAR_TOKEN}")
# "revenue / average total assets": the average of the year's and the year before's balances
_BARE_AVG_RE = re.compile(r"(?<!weighted )\baverage\s+(?:of\s+)?(?:the\s+)?(?P<x>[^()+\-*/@]+?)\s*"
                          r"(?=[-+*/()]|$)")
_CHANGE_RE = re.compile(rf"\bchange\s+in\s+(?P<x>[^()]+?)\s+(?:between|from)\s+{YEAR_TOKEN}\s+"
                        rf"(?:and|to|-)\s+{YEAR_TOKEN}")
_FILLER_RE = re.compile(
    r"\b(?:the|unadjusted|reported|annual|year|end|year end|total amount of|amount of|"
    r"from (?:the )?(?:cash flows? statement|statement of cash flows|income statement|"
    r"balance sheet)|\(from (?:the )?cash flows? statement\)|on (?:the )?balance sheet)\b")
# the other sign a statement's label prints in parentheses, "Net cash provided by (used in)
# operating activities", "(Gain) or loss on sale": the row's name without it, not a group
_SIGN_ALTERNATE_RE = re.compile(
    r"(?:\s+or|\s*/)?\s*\((?:used(?: in| for)?|provided(?: by)?|decrease|increase|"
    r"loss(?:es)?|gains?|income|expenses?|benefit(?: from)?|provision|credits?|charges?|"
    r"earnings|reversals|recoveries|paid|received|repayments(?: of)?|remittances|"
    r"proceeds from|payments for)\)(?:\s+or\b)?", re.IGNORECASE)
_OPERATOR_WORDS = ((r"\bdivided\s+by\b", "/"), (r"\bover\b", "/"), (r"\bmultiplied\s+by\b", "*"),
                   (r"\btimes\b", "*"), (r"\bplus\b", "+"), (r"\bminus\b", "-"),
                   (r"\bless\b", "-"), (r"[×x](?=\s*\(|\s+\d)", "*"), (r"÷", "/"))


# a term followed by the sum or difference it is ("total debt (short-term borrowings plus
# long-term debt)"), the term a whole operand: at the start or after an operator
_EXPLAINED_TERM_RE = re.compile(r"(?:^|(?<=[-+*/(]))\s*(?P<term>[a-z][a-z' ]*?[a-z])\s+"
                                r"\((?P<inner>[^()]*\s[-+]\s[^()]*)\)")


def _explained_term(match: re.Match[str]) -> str:
    """The sum a term is explained as, when the term is one line item or metric of the
    vocabulary, whole ("total debt"); else the text as written ("a share of (A - B)" is no
    term explained)."""
    return f" ({match['inner']}) " if whole_term(match["term"].strip()) else match.group(0)


def definition_formula(body: str, year: int | None, defining: str | None = None,
                       written: dict[str, str] | None = None) -> str | None:
    """A definition the question writes, as a formula over concepts and metrics, or None when
    it writes no term at all (the stored definition is used then, never a guess).

    ``FY2019 revenue / (average PP&E between FY2018 and FY2019)`` with ``year`` 2019 becomes
    ``revenue / (avg(ppe_net))``; a term of an earlier year than ``year`` takes ``[-n]``. The
    metric ``defining`` is never a term of its own definition ("gross margin = gross profit /
    revenue": gross profit is the line item, not an alias of the metric). A term
    the vocabulary lacks ("payments for acquisition of property, plant and equipment") becomes
    ``row('...')``: the statement row printed under that label (:mod:`metric_engine`).
    ``written`` gathers the words each line item is named by ("net sales" for revenue).
    """
    text = normalize(_SIGN_ALTERNATE_RE.sub(" ", NOTES_CITED_RE.sub(" ", body)))
    text = FISCAL_TERM_RE.sub(lambda m: f"fy{m['y']}", text)
    text = TERM_PERIOD_RE.sub(lambda m: _period_of_term(m, year), text)
    text = _AVG_RE.sub(lambda m: f" avg({m['x']}) ", text)
    text = _CHANGE_RE.sub(lambda m: f" change({m['x']}) ", text)

    def fy(match: re.Match[str]) -> str:
        offset = int(match["y"]) - year if year else 0
        return f" @{offset} " if offset else " "

    text = FY_TERM_RE.sub(fy, text)
    text = text.replace("percent", " ")
    for pattern, symbol in _OPERATOR_WORDS:
        text = re.sub(pattern, f" {symbol} ", text)
    text = _BARE_AVG_RE.sub(lambda m: f" avg({m['x']}) ", text)
    # "long-term debt, including the current portion": one term (an alias of the vocabulary)
    text = _EXPLAINED_TERM_RE.sub(_explained_term, re.sub(r",\s+(?=including\b)", " ", text))
    if "(" not in text and text.count(" / ") == 1 and re.search(r" [-+] ", text):
        # "total debt minus cash divided by EBITDA": each side of the one division is a whole
        left, right = text.split(" / ")
        text = f"({left}) / ({right})"
    text = normalize(_FILLER_RE.sub(" ", text))  # named_items' positions are in this form
    exclude = frozenset({defining} if defining else ())
    out = [_term(piece, exclude, written) for piece in _TERM_SPLIT_RE.split(text)]
    formula = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", " ".join("".join(out).split())))
    formula = re.sub(r"@(-?\d+)\s+(row\('[^']*'\)|[a-z_]+)", lambda m: f"{m[2]}[{m[1]}]",
                     formula)
    names = set(re.findall(r"(?<!')\b[a-z_]+\b(?![^']*'\))", formula)) - {"avg", "change",
                                                                            "row"}
    defs = load_vocabulary()
    formula = _parts_apart(formula, defs)
    if not re.fullmatch(r"[a-z_]+", formula):  # a lone line item is itself, never opt()
        formula = _optional_re().sub(r"opt(\1)", formula)
    if "@" in formula or not (names or "row(" in formula) or not names <= (
            set(defs.metrics) | set(defs.concepts)):
        return None
    try:
        ast.parse(formula, mode="eval")
    except SyntaxError:
        return None
    return formula


def _period_of_term(match: re.Match[str], year: int | None) -> str:
    """A period written after a term: dropped when it is the year asked (the term is read
    in it anyway), kept as written for another year (its offset is read before a term only)."""
    written = int(match["fy"]) if match["fy"] else next(iter(period_end_years(match["ended"])),
                                                         None)
    return " " if year is None or written == year else match.group(0)


def _addends(node: ast.expr) -> list[ast.expr]:
    """The terms a chain of additions adds ("a + b + c"), else the node alone."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [*_addends(node.left), *_addends(node.right)]
    return [node]


def _named(node: ast.expr) -> str | None:
    """The line item a term names, bare or as ``opt(x)``."""
    if isinstance(node, ast.Call) and len(node.args) == 1:
        node = node.args[0]
    return node.id if isinstance(node, ast.Name) else None


def _parts_apart(formula: str, defs: Vocabulary) -> str:
    """A definition that adds a whole and one of its own parts means the whole's other parts:
    "long-term debt plus the current portion of long-term debt plus short-term borrowings"
    adds the noncurrent line, since the vocabulary's long-term debt already holds the current
    portion (Coca-Cola 2019 would count $4,253 million twice). The whole is replaced by its
    other parts (its ``derived`` sum); a formula that adds no such pair is left as it is."""
    try:
        added = _addends(ast.parse(formula, mode="eval").body)
    except SyntaxError:
        return formula
    names = {n for term in added if (n := _named(term))}
    for whole in sorted(names):
        entry = defs.concepts.get(whole)
        if entry is None or not entry.derived:
            continue
        parts = _addends(ast.parse(entry.derived, mode="eval").body)
        if not (names - {whole}) & {_named(p) for p in parts}:
            continue
        rest = [ast.unparse(p) for p in parts if _named(p) not in names]
        if rest:
            formula = re.sub(rf"\b{whole}\b(?!\()", f"({' + '.join(rest)})"
                             if len(rest) > 1 else rest[0], formula)
    return formula


def _is_cash_flow_item(name: str) -> bool:
    """A line item printed first in the cash flow statement (repurchases, dividends paid,
    capex): "payments for" it is it; not a balance or an expense ("income taxes paid" is not
    the tax provision, "payments on long-term debt" not the debt)."""
    concept = load_vocabulary().concepts.get(name)
    return bool(concept and concept.statements and concept.statements[0] == "cash_flow")


# words that say a line item is a payment without naming another one ("payments for
# repurchases of common stock" is the repurchases' row)
_PAYMENT_WORDS = frozenset({"payments", "payment", "for", "cash", "paid", "spent", "on", "used",
                            "it", "they"})
# words that say the whole of a line item, not another row: "total cash dividends" is dividends
_WHOLE_WORDS = frozenset({"total", "all"})
_TERM_EDGE_RE = re.compile(r"^(?:(?:of|and|in|for)\s+)+|(?:\s+(?:of|and|in|for))+$")
@cache
def _optional_re() -> re.Pattern[str]:
    """The line items the vocabulary's own formulas take as zero when a filer prints none
    (``opt(short_term_investments)`` in the quick ratio), as they stand in a formula: a
    question's definition names them under the same convention. One a formula also needs
    (cash returned to shareholders is repurchases alone where no dividends are printed) is
    not. Built on first use, not at import."""
    defs = load_vocabulary()
    formulas = [m.formula or "" for m in defs.metrics.values()]
    formulas += [c.derived or "" for c in defs.concepts.values()]
    needed = {x for f in formulas for x in re.findall(r"(?<!opt\()\b([a-z_]+)\b(?!\()",
                                                      re.sub(r"\brow\('[^']*'\)", " ", f))}
    names = sorted({x for f in formulas for x in re.findall(r"\bopt\(([a-z_]+)\)", f)}
                   - needed)
    return re.compile(rf"(?<!\w)(?<!opt\()({'|'.join(names)})\b(?!\[)")
_TERM_SPLIT_RE = re.compile(r"((?<!@)[-+*/()]|\bavg\(|\bchange\(|@-?\d+)")


def _term(piece: str, exclude: frozenset[str], written: dict[str, str] | None = None) -> str:
    """One piece of a definition between operators: an operator or number as written, the
    names it is made of when they are all its words, else ``row('words')``: a label the
    statements may print ("payments for acquisition of property, plant and equipment" is a
    row, not PP&E)."""
    words = _TERM_EDGE_RE.sub("", piece.strip())  # "of" left by a removed "the value of"
    if not words or _TERM_SPLIT_RE.fullmatch(words) or re.fullmatch(r"[\d.]+", words):
        return f" {words} "
    if abbreviated := load_vocabulary().abbreviations.formula.get(words):
        return f" {abbreviated} "  # "CFO / net income": an operand, not the officer
    items = named_items(words, exclude)
    if len(items) == 2 and items[0][2] == "cash" and _is_cash_flow_item(items[1][2]):
        items = items[1:]  # "the cash it spent repurchasing its shares": the outflow, paid in cash
    residue = words
    for start, end, _, _ in reversed(items):
        residue = residue[:start] + " " + residue[end:]
    left = set(re.findall(r"[a-z0-9]+", residue))
    # one item: two side by side are one label the vocabulary splits ("cash dividend payments")
    if len(items) == 1 and (not left - _WHOLE_WORDS or (
            not left - _PAYMENT_WORDS and _is_cash_flow_item(items[0][2]))):
        if written is not None and not left - _WHOLE_WORDS:  # the item in its own words
            written.setdefault(items[0][2], words)
        return f" {items[0][2]} "
    label = " ".join(re.sub(r"[^a-z0-9&,.\s-]", " ", words).split()).strip(" ,.")
    return f" row('{label}') " if re.search(r"[a-z]", label) else " "


# "used the most cash" asks for the lowest (most negative) inflow
_OUTFLOW_BEFORE_RE = re.compile(r"\b(?:used|spent|consumed|paid|lost|burned)\s+(?:the\s+)?$")
_WHICH_RE = re.compile(r"\bwhich\b")


def choice_asked(norm: str) -> tuple[list[str], Literal["max", "min"]] | None:
    """The line items a "which" question compares and whether it asks for the highest or the
    lowest, or None: a set of the vocabulary it names ("Among operations,
    investing, and financing activities, which brought in the most ...?"), else two or more
    line items joined by "or" ("Which was larger, R&D or SG&A?"). A "which" question about
    segments or regions names no such set and is not one."""
    cues = load_cues()  # the one list of ranking words, with the "most recent" that ranks none
    if not _WHICH_RE.search(norm) or any(re.search(c.pattern, norm)
                                         for c in cues.superlative_not):
        return None
    found = [(m.start(), c.direction) for c in [*cues.superlative, *cues.comparative]
             for m in re.finditer(c.pattern, norm)]
    if not found:
        return None
    start, direction = min(found, key=lambda f: f[0])
    pick: Literal["max", "min"] = "min" if direction == "min" else "max"
    if _OUTFLOW_BEFORE_RE.search(norm[:start]):
        pick = "min" if pick == "max" else "max"
    defs = load_vocabulary()
    for entry in defs.sets.values():
        if all(re.search(p, norm) for p in entry.patterns):
            return list(entry.concepts), pick
    items = [i for i in named_items(norm) if not i[3]]
    joined = [a[2] for a, b in zip(items, items[1:], strict=False)
              if re.fullmatch(r",?\s*or\s+(?:the\s+)?", norm[a[1]:b[0]])]
    names = list(dict.fromkeys(i[2] for i in items))
    if joined and len(names) >= 2 and len({(defs.concepts[n].unit, defs.concepts[n].kind)
                                            for n in names}) == 1:
        return names, pick
    return None


def each_asked(norm: str) -> list[str] | None:
    """The line items a question asks of together, joined by "or" or "and" ("Did it pay
    dividends or buy back shares, and how much?"): each is given, not one of them; None for
    fewer than two, or items of different units or kinds."""
    items = [i for i in named_items(norm) if not i[3]]
    joined = [a for a, b in zip(items, items[1:], strict=False)
              if re.fullmatch(r",?\s*(?:or|and)\s+(?:(?:the|its|did|also|pay|paid)\s+)*",
                              norm[a[1]:b[0]])]
    names = list(dict.fromkeys(i[2] for i in items))
    defs = load_vocabulary()
    if not joined or len(names) < 2 or len({(defs.concepts[n].unit, defs.concepts[n].kind)
                                             for n in names}) != 1:
        return None
    return names


def _answered_elsewhere(question: Question) -> bool:
    """Whether the question is about what a filing prints outside its statements (its cover
    page's registered securities, its issuances: ``never_a_metric`` in the intent lexicon),
    unless it asks a figure ("What was the total debt of 3M, whose notes are listed ...?")."""
    intents = load_intents().intents
    return question.expects != "figure" and any(intents[key].never_a_metric
                                                 for key in question.intents)


# "SG&A as a percent of revenue": a part's share of a whole, asked in these words
_PERCENT_OF_RE = re.compile(
    r"\s+as\s+(?:a\s+)?(?:percent(?:age)?|%|share|proportion|fraction)\s+of\s+")


# what joins a ratio's two amounts: "net debt to EBITDA", "gross profit over revenue", "A / B"
_JOINED_RE = re.compile(r"\s+(?:to|over)\s+|\s*/\s*")
# "to" that belongs to the word before it: "net income attributable to shareowners"
_TO_AFTER_WORD_RE = re.compile(r"\b(?:attributable|related|due|applicable|allocated|compared|"
                               r"equal|prior|up|paid|returned|distributed|additions|proceeds|"
                               r"payments|purchases|contributions|transfers|changes|increases|"
                               r"decreases|adjustments|reclassifications)$")


def _ratio_of_unknown(norm: str) -> bool:
    """Whether a ratio is asked of an amount the vocabulary does not name ("long-term debt to
    total capitalization", "the ratio of R&D to revenue" with no R&D line): neither amount
    alone answers it, so the prose path quotes the filing. A ratio the vocabulary names
    ("debt to equity", "current ratio") or two amounts it names (:func:`_amounts_ratio`) is
    computed instead."""
    items = named_items(norm)
    metrics = load_vocabulary().metrics
    if any(i.name in metrics and metrics[i.name].unit != "USD" for i in items):
        return False  # a ratio or a percentage the vocabulary names
    joined = [m for m in _JOINED_RE.finditer(norm)
              if any(i.end == m.start() for i in items) != any(i.start == m.end() for i in items)
              and not PERIOD_WORD_RE.match(norm[m.end():].split(" ", 1)[0])
              and not re.match(r"\d", norm[m.end():])
              and not _TO_AFTER_WORD_RE.search(norm[:m.start()])]
    return bool(joined) and _amounts_ratio(norm) is None


def _share_of_unknown(norm: str) -> bool:
    """Whether a share is asked ("X as a percent of Y") that no metric of the vocabulary names
    across its words ("capex as a percentage of revenue" is one): neither the part nor the
    whole alone answers it ("operating income as a percent of net sales" is no operating
    income; "SG&A as a percent of revenue", with no SG&A line item, no revenue), so the prose
    path quotes the filing instead. A percentage metric said "as a percent of" its base is
    itself."""
    found = _PERCENT_OF_RE.search(norm)
    if found is None:
        return False
    metrics = load_vocabulary().metrics
    return not any(item.is_metric and (item.start <= found.start() < item.end or (
        item.end == found.start() and metrics[item.name].unit == "percent"))
        for item in named_items(norm))  # "gross margin as a percentage of net sales": itself


def _for_prose(question: Question, asking: str, judgment: str | None) -> bool:
    """Whether the question is the prose path's: it asks prose, what a filing prints outside
    its statements, a share no metric names (and states no definition of it), a revenue
    base's concentration, or the shares of members it names by a pronoun ("how much of net
    revenues did each account for": the customers a sentence lists, never the total)."""
    norm = normalize(asking)
    return (_asks_prose(asking, judgment) or _kinds_asked(question, judgment)
            # whether something stopped ("Did it pause buybacks?") is a stated event, never
            # an amount's being above zero
            or question.phrased("stopped") is not None
            # what happened in a month ("issue in April 2020"): an event MD&A states; the
            # statements print a year's or a quarter's flows, never a month's
            or month_event(norm)
            or _answered_elsewhere(question)
            # whether a revenue base is diversified is its segments' shares, no total's value
            or (judgment is None and first_match(load_cues().concentration, norm) is not None)
            or _share_of_unknown(norm) or _members_share(norm) or _ratio_of_unknown(
                load_rules().rules[judgment].without_its_words(norm) if judgment else norm))


DIVIDENDS_PAID = "dividends_paid"
# a dividend raised, cut or kept: its rate per share ("Did Kraft Heinz raise its common
# dividend in 2021?" is No at $1.60 a share, though $1 million more was paid on more shares)
_DIVIDEND_RATE_RE = re.compile(
    r"\b(?:rais|increas|cut|lower|reduc|hik|maintain|kept|keep|boost)\w*\s+(?:its|the|their|a|"
    r"an)?\s*(?:[a-z-]+\s+){0,2}dividends?\b(?!\s+(?:paid|payments?|per\s+share|payout|"
    r"yield|coverage))")
_DIVIDENDS_PAID_RE = re.compile(r"\b(?:dividends?\s+paid|cash\s+dividends|total\s+dividends|"
                                r"in\s+dividends|dividend\s+payments?)\b")


def _dividend_rate_asked(norm: str) -> bool:
    """Whether the question asks a dividend raised, cut or kept (its rate per share, which
    the vocabulary's dividends per share reads where it names it), not the cash it paid
    (:data:`_DIVIDEND_RATE_RE`)."""
    return bool(_DIVIDEND_RATE_RE.search(norm)) and not _DIVIDENDS_PAID_RE.search(norm)


def _kinds_asked(question: Question, judgment: str | None) -> bool:
    """Whether names are asked of a measure's kinds or parts ("What debt instruments does X
    have?", "What types of revenue ...?", "What made up its impairment charges?"): the
    question reader's form, never an amount; a parts question beside a change asked ("By how
    much did X change, and what made up the 2022 provision?") keeps the change's
    computation."""
    return judgment is None and (KINDS_ASKED_RE.search(normalize(question.text)) is not None or (
        question.phrased("made_up") is not None and question.phrased("move") is None))


def _members_share(norm: str) -> bool:
    """Whether a share pattern asks the share of members named by a pronoun."""
    match = share_match(norm)
    return match is not None and share_terms(match) is None and bool(
        set(match["part"].split()[:1]) & PRONOUNS)


def _asks_prose(asking: str, judgment: str | None) -> bool:
    """Whether the asking sentence asks for prose (a cause, names, an outlook), unless it asks
    a judgment in other words ("Would you describe X as capital intensive?")."""
    norm = normalize(asking)
    if judgment and _DESCRIBE_AS_RE.search(norm):
        return False
    norm = _EPS_RE.sub(" eps ", normalize(AND_WHY_RE.sub("", asking)))
    if "quarter" not in norm:
        norm = _DPS_RE.sub(" dps ", norm)
    return bool(_PROSE_RE.search(norm))


def _periods_asked(text: str, asked: str, definitions: Sequence[tuple[str | None, str]],
                   read: Sequence[int] = ()) -> tuple[int | None, list[int], bool]:
    """The quarter asked, the years (those a definition names when the question names none;
    a period-end date's own year; else those the question was read with: a clause's are its
    whole question's), and whether a period-end date is written."""
    quarter, quarter_year = None, None
    asked = without_period_filing(asked)  # "its 10-K for the fiscal year ended ..." is no period
    if named := quarters_named(text):
        quarter, quarter_year, _ = named[0]
    years = sorted(set(years_in(without_quarters(asked)))) or (
        [quarter_year] if quarter_year else sorted(set(years_in(" ".join(
            b for _, b in definitions)))))
    if quarter_year and not years:
        years = [quarter_year]
    dated = bool(ends := period_end_years(asked))
    if dated and not definitions:
        years = sorted(set(ends))  # the columns print the period's end, not its fiscal name
    return quarter, years or sorted(set(read)), dated


def parse_question(question: Question, cause: bool = False) -> MetricQuestion | None:
    """What a metric, trend or judgment question asks; None when it names no metric or line
    item the facts hold and defines none, or asks prose (unless ``cause``: its measure)."""
    text = " ".join(question.text.split())
    asked, definitions = _split_definitions(text)
    share = _share_definition(next((x for x in split_sentences(asked) if x.rstrip()
                                    .endswith("?")), asked))
    if share and (not definitions or coverage_sides(share[0])):  # the coverage of a term
        definitions.append(share)  # the question defines is asked, not the term
    # "D&A (from cash flow statement) % margin"; "grow faster": its growth rate's pace
    asked = _paced(_SOURCE_NOTE_RE.sub(" ", asked))
    norm = normalize(asked)
    asking = next((x for x in split_sentences(asked) if x.rstrip().endswith("?")), asked)
    choice = choice_asked(normalize(asking))
    judgment = _judgment_asked(norm)
    if same_year_dates(asked) or (not (definitions or choice or cause) and _for_prose(
            question, asking, judgment)):  # two columns of one year, which the facts' years
        return None  # cannot tell apart; or its question, not its instructions, asks prose
    written: dict[str, str] = {}  # the words a line item is named by, asked or defined
    target, is_metric, judgment = _judged_target(asked, asking, judgment, definitions, written)
    each = None if choice or definitions or judgment or is_metric else each_asked(
        normalize(asking))  # "retention ratio (using dividends and net income)" is one metric
    if choice:
        target, is_metric, judgment = choice[0][0], False, None
    elif each:
        target, is_metric = each[0], False
    definitions, named_row = _with_row_changed(definitions, target, bool(choice), asking)
    quarter, years, dated = _periods_asked(text, asked, definitions, question.years)
    formulas, titles, defined = _own_definitions(definitions, target, norm,
                                                  years[-1] if years else None, written)
    if share and share in definitions:  # the share the question asks is what it asks
        defined = next((key for key, title in titles.items() if title == share[0]), defined)
    target, is_metric = (defined, True) if defined and not choice else (target, is_metric)
    if target is None or (target in question.narrowed and not definitions) or (
            target == DIVIDENDS_PAID and _dividend_rate_asked(norm)):
        return None  # a member's line ("operating income for Sam's Club"), a dividend's rate
    if not is_metric and (flows := _flows_asked(asking, target)) is not None:
        if not flows:
            return None  # the balance at the period's end does not say
        target, each = flows[0], flows if len(flows) > 1 else None
    aggregate, years, direction = _aggregate(asked, norm, years, choice is not None, judgment,
                                             _is_growth(target if is_metric else None),
                                             question.asked)
    aggregate = "each" if each and aggregate == "value" else aggregate
    return _spanned(MetricQuestion(
        question=question.text, target=target, is_metric=is_metric, years=years,
        aggregate=aggregate, months=question.months, to_date=question.to_date, quarter=quarter,
        decimals=question.decimals,
        # the pattern's group matches only the three scale words
        scale=cast(Scale, m["scale"].lower()) if (m := _SCALE_RE.search(text)) else None,
        percent=bool((share and not coverage_sides(share[0]))
                     or _PERCENT_RE.search(normalize(text))), formulas=formulas,
        titles=titles, written=written, sign=_sign_asked(asking), threshold=question.threshold,
        yes_no=bool(_YES_NO_RE.search(asked.split("?")[0] if "?" in asked else asked)),
        direction=direction if aggregate == "trend" else None, judgment=judgment,
        asks=load_rules().rules[judgment].asked(norm) if judgment else None,
        choices=choice[0] if choice else each if aggregate == "each" and each else [],
        pick=choice[1] if choice else None, total=question.total,
        dated=dated, history=_history_asked(asked, aggregate, is_metric), named_row=named_row,
        explained_by=_why_flows(asking, target, aggregate)), question, asking, norm)


def _spanned(parsed: MetricQuestion, question: Question, asking: str,
             norm: str) -> MetricQuestion:
    """The periods a question compares beyond its years: the quarter a year before, named;
    a band over a span ("consistent (within 2% each year) over FY2020-FY2022"), each year."""
    update: dict[str, object] = {"year_ago": sum(1 for q, _ in question.periods if q) > 1 or
                                 first_match(load_cues().prior_period, norm) is not None}
    if parsed.aggregate == "value" and (within := within_asked(asking)) is not None:
        update |= {"within": within, "years": _band_years(question.years, parsed.years)}
    return parsed.model_copy(update=update)


# "By how much did JPMorgan's provision for credit losses change ...", "Why did Netflix's
# interest and other income drop ...": the question's opening, then (after the company's
# possessive, :data:`POSSESSIVE_RE`) the measure and its verb of change
_HOW_MUCH_DID_RE = re.compile(r"^\s*(?:(?:by how much|how much|why) )?(?:did|has|have)\s+"
                              r"(?:the\s+)?", re.IGNORECASE)  # "did ... increase?" a yes or no
_MEASURE_CHANGED_RE = re.compile(r"\s+(?P<x>[a-z][a-z&'’ -]{3,60}?)\s+(?:change|increase|"
                                 r"decrease|grow|decline|rise|fall|drop)\b")
_MIN_ROW_WORDS = 3  # "credit losses" is both the provision's and the allowance's words
# "What drove JPMorgan's provision for credit losses in ...": a cause asked of a measure, the
# measure after the company's possessive, up to the period or the question's end
_CAUSE_OF_RE = re.compile(r"^\s*what\s+(?:(?:factors|items|reasons)\s+)?(?:drove|made\s+up|"
                          r"caused|explains?|(?:was|were)\s+behind|led\s+to)\s+"
                          r"(?:the\s+(?:change|increase|decrease|decline|rise|fall|drop|"
                          r"improvement)\s+in\s+)?",
                          re.IGNORECASE)
_MEASURE_ENDS_RE = re.compile(r"\s*(?:\$[\d.,]+\s+(?:thousand|million|billion)\s+)?"  # "$1.5 bn"
                              r"(?P<x>[a-z][a-z&'’ -]{3,60}?)\s*(?:\b(?:in|during|over|"
                              r"versus|compared)\b|\bto\s+(?:change|increase|decrease|grow|"
                              r"decline|rise|fall|drop|contract|expand|improve|widen|narrow)\b|"
                              r"[,?(]|$)")  # "provision for credit losses"; "X's Y to contract"


def _with_row_changed(definitions: list[tuple[str | None, str]], target: str | None,
                      choice: bool, asking: str) -> tuple[list[tuple[str | None, str]], bool]:
    """The definitions, or, for a change of a row no term names and nothing defines, that row
    read as the question's own definition (:func:`_row_changed`); and whether it was."""
    if target is None and not (definitions or choice) and (row := _row_changed(asking)):
        return [(row, row)], True
    return definitions, False


# the words a row's label is matched without (:mod:`metric_engine`'s label matching): "net
# credit losses" is matched as "credit losses", two words, the provision's and the allowance's
# alike, so a row named by so few is read only under a label of exactly those words
LABEL_STOP_WORDS = frozenset({"the", "of", "a", "an", "total", "net", "and", "&"})


def _row_changed(asking: str) -> str | None:
    """The measure a "by how much did X's <measure> change" (or "did X's <measure>
    increase", "why did X's <measure> drop", or "what drove X's <measure> in ...") question
    names when the vocabulary names none: a statement row by its printed label's words
    (``row('...')``, :attr:`MetricQuestion.named_row`), of three words at least; None for any
    other question, for a measure of a member named after it (the statements print the
    company's), and for words a hyphen joins across a space ("lending- and deposit-related
    fees"), which a formula would read as a subtraction."""
    for opening_re, measure_re in ((_HOW_MUCH_DID_RE, _MEASURE_CHANGED_RE),
                                   (_CAUSE_OF_RE, _MEASURE_ENDS_RE)):
        opening = opening_re.match(asking)
        owner = POSSESSIVE_RE.match(asking, opening.end()) if opening else None
        match = measure_re.match(asking, owner.end()) if owner else None
        if owner is None or match is None or len(match["x"].split()) < _MIN_ROW_WORDS:
            continue
        if member_after(asking[match.end("x"):], [owner["name"]]) or re.search(
                r"-\s|\s-", match["x"]):
            return None  # "net interest income in CCB": the statements print the firm's
        return match["x"]
    return None


# a yes/no on a value's sign: "Does X have positive free cash flow?"
_SIGN_ASKED_RE = re.compile(r"\b(positive|negative)\b")


def _sign_asked(asking: str) -> Literal["positive", "negative"] | None:
    found = _SIGN_ASKED_RE.search(asking.lower())
    return None if found is None else cast(Literal["positive", "negative"], found.group(1))


# "consistent (within 2% each year)", "stable, within 1 percentage point": a band over the years
_WITHIN_RE = re.compile(r"\bwithin\s+(?:a\s+(?:range|band)\s+of\s+)?(?P<n>\d+(?:\.\d+)?)\s*"
                        r"(?:%|percent(?:age)?(?:\s+points?)?|points?|pp\b)", re.IGNORECASE)
_STEADY_RE = re.compile(r"\b(?:consistent\w*|stable|steady|stayed|remained|maintain\w*|"
                        r"fluctuat\w*|var(?:y|ied))\b", re.IGNORECASE)


def within_asked(asking: str) -> float | None:
    """The band a steadiness question asks a measure to stay within, or None."""
    found = _WITHIN_RE.search(asking) if _STEADY_RE.search(asking) else None
    return float(found["n"]) if found else None


def _band_years(asked: Sequence[int], years: list[int]) -> list[int]:
    """Every year of the span a steadiness question asks ("over FY2020-FY2022"), else the three
    years to the latest asked (a 10-K's income statement prints three)."""
    if len(asked) >= 2:
        return list(range(min(asked), max(asked) + 1))
    return list(range(max(years) - 2, max(years) + 1)) if years else years


# the period a change is measured from: "compared with Q1 2020", "versus fiscal 2022"
COMPARED_WITH_RE = re.compile(r"\b(?:compared\s+(?:with|to)|versus|vs\.?|relative\s+to)\s",
                              re.IGNORECASE)


def parse_change(question: Question) -> MetricQuestion | None:
    """The measure whose change a cause question asks ("What drove the change in its operating
    margin in FY2022?", "Why did its net sales increase?"), as its change from the period
    before to the one asked: what the causes are causes of, computed from the statements.
    None for any other question, or one asking of several periods, a judgment or a choice."""
    if question.expects != "cause":
        return None
    parsed = parse_question(question, cause=True)
    if (parsed is None or parsed.aggregate not in ("value", "trend") or parsed.judgment
            or parsed.choices
            # the years the question names: "what was it in FY2018, and why did it change?"
            # reads as a trend over FY2017-FY2018, one change all the same
            or not _one_change(question.years or parsed.years, question.text)):
        return None
    update: dict[str, object] = {"aggregate": "trend", "direction": "change", "yes_no": False,
                                 "history": False, "explained_by": [],
                                 "years": [max(parsed.years)]}
    if (grown := _grown(parsed)) is not None:  # "what drove its revenue growth?": revenue's
        update |= {"target": grown, "is_metric": False, "percent": False}
    return parsed.model_copy(update=update)


def _one_change(years: Sequence[int], asked: str) -> bool:
    """Whether the years asked name one change: one year, or it and the year before it is
    compared with ("in Q1 2021 compared with Q1 2020"; not "in 2021 and 2022", two changes),
    or one period named twice, by the filer's fiscal name and by the date it ends on ("in Q1
    fiscal 2024 (three months ended April 30, 2023)": :func:`one_period_restated`)."""
    if one_period_restated(asked):
        return True
    return len(years) == 1 or (len(years) == 2 and max(years) - min(years) == 1
                               and COMPARED_WITH_RE.search(asked) is not None)


def _grown(parsed: MetricQuestion) -> str | None:
    """The line item a growth metric is the change of ("revenue / revenue[-1] - 1": revenue),
    or None: the causes of growth are those of the line item's change, not of the rate's."""
    return load_vocabulary().grown(parsed.target) if parsed.is_metric else None


def _history_asked(asked: str, aggregate: str, is_metric: bool) -> bool:
    """Whether a trend gives every earlier year the statements print: asked as a record ("an
    improving margin profile", "historically"), or a metric's change asked as a yes or no
    ("Did its gross margin improve?": the verdict rests on more than one year's move)."""
    yes_no = bool(_YES_NO_RE.search(asked.split("?")[0] if "?" in asked else asked))
    return aggregate == "trend" and (bool(_HISTORY_RE.search(asked)) or (is_metric and yes_no))


def _why_flows(asking: str, target: str, aggregate: str) -> list[str]:
    """The flows read beside a balance's change asked with its reason or its manner ("How did
    its total debt change, and why?", "How did its debt change?": the debt issued and repaid,
    which the balance's change is made of); none for "by how much", a metric or any other
    question."""
    concept = load_vocabulary().concepts.get(target)
    change = _HOW_CHANGED_RE.search(asking)  # its manner: "how did ...", not "(by) how much"
    manner = change is not None and re.match(r"how (?:did|has|have|does|do)\b", change.group(0),
                                             re.IGNORECASE)
    asked = AND_WHY_RE.search(asking) or manner
    return list(concept.flows) if concept and aggregate == "trend" and asked else []


def _flows_asked(asking: str, target: str) -> list[str] | None:
    """The flows an issuance or a repayment asked of a balance (a stock concept) asks ("Did X
    issue or repay any debt?", "How much long-term debt did it repay?": the debt issued and the
    debt repaid, the verbs of finance_terms.json's ``flows``); an empty list when a yes or no
    asks one of a balance that names no such flow (the balance at the period's end does not
    say); None when no event of a balance is asked, or its own change is ("did its debt
    increase after it issued notes?" is its trend)."""
    concept = load_vocabulary().concepts.get(target)
    if (concept is None or concept.kind != "stock" or not _EVENT_RE.search(asking)
            or any(p.search(asking) for _, p in _DIRECTIONS)):
        return None
    flows = [flow for flow, verbs in concept.flows.items()
             if re.search(verbs, asking, re.IGNORECASE)]
    return flows or ([] if _YES_NO_RE.search(asking) else None)


# "Did its leverage increase in 2019?", "Did its liquidity strengthen?", "Is its liquidity
# weakening?": the move of the judgment's metric, not its verdict (the verbs of ``_DIRECTIONS``;
# strengthen and weaken as verbs only, never "despite a weakening economy")
_MOVE_ASKED_RE = re.compile(
    r"^\s*(?:how\s+)?(?:(?:did|has|have)\b.*\b(?:increas|decreas|ris[ei]|rose|fell|fall|declin|"
    r"improv|worsen|deteriorat|chang|(?:strengthen|weaken)(?:s|ed)?\b)|(?:is|are|was|were)\s+"
    # the subject, with no verdict ("healthy") nor a clause of its own ("with ...") in it
    r"(?:(?!(?:healthy|strong|weak|adequate|sufficient|solid|sound|good|poor|high|low|with|"
    r"despite|while|given|amid|although|though)\b)\S+\s+){1,8}?"
    r"(?:increas|decreas|ris|fall|declin|improv|worsen|deteriorat|chang|strengthen|weaken)ing"
    # the clause's verb, its period, a degree or its end after it
    r"(?=\s*(?:[?,;]|$|(?:in|during|over|since|from|through|as|versus|vs|compared|relative|"
    r"year|this|last|again|still|further|significantly|meaningfully|materially|sharply|"
    r"to)\b)))", re.IGNORECASE)


def _judgment_asked(norm: str) -> str | None:
    """The first judgment rule whose words the question uses."""
    return next((key for key, rule in load_rules().rules.items()
                 if any(re.search(p, norm) for p in rule.patterns)), None)


def _judged_with(judgment: str) -> set[str]:
    """The metrics a judgment is read with: its rule's metric, the names its formula is
    computed from ("backed by operating cash flow" names cash conversion's numerator) and
    the metrics stated beside it."""
    rule = load_rules().rules[judgment]
    formula = load_vocabulary().metrics[rule.metric].formula or ""
    return {rule.metric, *re.findall(r"\b[a-z_]+\b", formula), *rule.also}


def _judged_target(asked: str, asking: str, judgment: str | None,
                   definitions: list[tuple[str | None, str]], written: dict[str, str]
                   ) -> tuple[str | None, bool, str | None]:
    """:func:`_target`, and the judgment asked: none when the question asks how the
    judgment's measure moved ("Did its leverage increase?": the metric's move), nor when it
    names another metric than the rule's ("Is its dividend covered by its free cash flow?":
    a rule's bands judge its own metric's value only)."""
    target, is_metric = _target(asked, judgment, definitions, written)
    if judgment and is_metric and target not in _judged_with(judgment):
        # its words were the rule's: read without it, "cash to shareholders" is no ratio
        return (None, False, None) if _ratio_of_unknown(normalize(asked)) else (
            target, is_metric, None)
    moved = _MOVE_ASKED_RE.search(asking) or _period_compared(normalize(asking))
    return target, is_metric, None if moved else judgment


def _target(asked: str, judgment: str | None, definitions: list[tuple[str | None, str]],
            written: dict[str, str]) -> tuple[str | None, bool]:
    """The metric (else the line item) the asking text names, the judgment's metric, or the
    first definition's name; a line item's words as asked go to ``written`` ("net sales")."""
    rules = load_rules().rules
    items = named_items(asked)
    metrics = [i for i in items if i[3]]
    chosen = max(metrics or items, key=lambda i: i[1] - i[0], default=None)
    target, is_metric = (chosen[2], chosen[3]) if chosen else (None, False)
    if not metrics and (ratio := _ratio_compared(asked, items)) is not None:
        chosen, (target, is_metric) = None, (ratio, True)
    if chosen and not is_metric:
        written[chosen.name] = normalize(asked)[chosen.start:chosen.end]
    if judgment and (target is None or target == rules[judgment].metric or not is_metric):
        target, is_metric = rules[judgment].metric, True
    named = [n for n, _ in definitions if n]
    if target is None and named:
        target = _name_of(named[0])
        is_metric = target in load_vocabulary().metrics
    return target, is_metric


# two line items set against each other: "how did its operating cash flow compare with its net
# income?", "revenue versus cost of sales"
COMPARED_RE = re.compile(r"\bcompared?s?\b(?:\s+\w+){0,2}?\s+(?:with|to|against)\b|\bversus\b|"
                         r"\bvs\b\.?|\brelative\s+to\b")


def _ratio_compared(asked: str, items: Sequence[TermMatch]) -> str | None:
    """The vocabulary's metric that is the first line item over the second, when the question
    compares two (cash conversion for operating cash flow against net income): the ratio
    states both and how they stand; None when none is defined."""
    names = list(dict.fromkeys(item.name for item in items))
    if len(names) != 2 or not COMPARED_RE.search(normalize(asked)):
        return None
    wanted = f"{names[0]} / {names[1]}"
    return next((name for name, metric in load_vocabulary().metrics.items()
                 if " ".join((metric.formula or "").split()) == wanted), None)


def _own_key(phrase: str) -> str:
    """The key of a metric of the question's own, named by its phrase ("q_net_debt")."""
    return "q_" + re.sub(r"[^a-z0-9]+", "_", phrase).strip("_")


def _own_definitions(definitions: list[tuple[str | None, str]], target: str | None, norm: str,
                     anchor: int | None, written: dict[str, str]
                     ) -> tuple[dict[str, str], dict[str, str], str | None]:
    """The formulas the question states, by the name they define; the titles of the metrics
    it defines under a name the vocabulary lacks or gives a line item ("operating cash flow
    ratio is defined as: cash from operations / total current liabilities": a metric of the
    question's own, whose formula's names are the line items, never itself); and that metric's
    key when the asking text names it; ``written`` gathers the words the formulas kept name
    their line items by."""
    defs = load_vocabulary()
    formulas: dict[str, str] = {}
    titles: dict[str, str] = {}
    defined = None
    for name, body in definitions:
        # a coverage is the question's own ratio, never the term it opens with
        key = None if name and coverage_sides(name) else _name_of(name) if name else target
        words: dict[str, str] = {}
        formula = definition_formula(body, anchor, key if key in defs.metrics else None, words)
        if formula is None or formula == key:
            continue
        written.update({k: v for k, v in words.items() if k not in written})
        phrase = " ".join(normalize(name).split()) if name else ""
        if phrase and key not in defs.metrics:
            own = _own_key(phrase)
            formulas[own], titles[own] = formula, phrase
            if defined is None and (phrase_pattern(phrase).search(norm) or key == target
                                    or target is None):
                defined = own
        elif key:
            ratio_of_its_own = _ratio_named(norm, key, formula) if key == target else None
            if ratio_of_its_own:  # "free cash flow conversion": not free cash flow
                own = _own_key(ratio_of_its_own)
                formulas[own], titles[own], defined = formula, ratio_of_its_own, own
                continue
            formulas[_defined_by(key, formula, target)] = formula
            if key == target and defined is None and (ratio := _ratio_of_defined(
                    norm, phrase or defs.title(key), key)):
                own = _own_key(ratio[0])  # "net debt to EBITDA", net debt defined: the ratio
                formulas[own], titles[own], defined = ratio[1], ratio[0], own
    ratio = (_ratio_of_defined(norm, titles[defined]) if defined is not None
             else None if definitions or _a_ratio(target) else _amounts_ratio(norm))
    if ratio is not None:
        own = _own_key(ratio[0])
        formulas[own], titles[own], defined = ratio[1], ratio[0], own
    if target and not formulas and (named := _operands_named(norm, target)):
        formulas[target] = named  # "leverage, based on its long-term debt and equity"
    return formulas, titles, defined


def _a_ratio(name: str | None) -> bool:
    """Whether a name is a metric of the vocabulary that is no amount (a margin, a ratio):
    "gross profit over net operating revenues" written out as the gross margin's definition."""
    metric = load_vocabulary().metrics.get(name or "")
    return metric is not None and metric.unit != "USD"


def _amounts_ratio(norm: str) -> tuple[str, str] | None:
    """"Net debt to EBITDA ratio", "cash to current liabilities", "total current assets / total
    assets", no metric of the vocabulary naming it: the amount named before "to" (or "over",
    or a slash) over the one named right after, never
    either amount alone; None when no two amounts are so joined (a ratio the vocabulary names
    is its own metric, matched before its terms: "debt to equity")."""
    metrics = load_vocabulary().metrics
    items = [i for i in named_items(norm)
             if i.name not in metrics or metrics[i.name].unit == "USD"]
    for first, second in pairwise(items):
        if _JOINED_RE.fullmatch(norm[first.end:second.start]):
            return (norm[first.start:second.end].strip(),
                    f"({first.name}) / ({second.name})")
    return None


def _ratio_of_defined(norm: str, phrase: str, numerator: str | None = None
                      ) -> tuple[str, str] | None:
    """The ratio the question asks of a term it defines ("net debt to EBITDA", net debt
    defined): its name and formula (the defined term, or ``numerator`` when the term is the
    vocabulary's, over the name after "to"), so the term alone is never given as the answer;
    None when the question asks the term itself."""
    found = re.search(rf"{re.escape(phrase)}\s+(?:to|over)\s+(?P<rest>.+)$", norm)
    if found is None:
        return None
    rest = found["rest"]
    opening = [i for i in named_items(rest) if i.start == 0]  # the name right after "to"
    if not opening:
        return None
    whole = max(opening, key=lambda i: i.end)
    return (f"{phrase} to {rest[:whole.end].strip()}",
            f"({numerator or _own_key(phrase)}) / ({whole.name})")


# "based on its long-term debt and stockholders' equity": the two amounts a ratio is read on
_BASED_ON_RE = re.compile(r"\b(?:based on|measured by|in terms of|judged by) (?P<named>.+?)"
                          r"(?=\s+(?:at|in|for|as of|between|from|over|versus|vs)\b|[,;?]|$)")


def _operands_named(norm: str, target: str) -> str | None:
    """A ratio the question reads on two amounts it names ("leverage ... based on its long-term
    debt and stockholders' equity"): the stored quotient with the side the question names
    otherwise (long-term debt / equity, not total debt / equity), the other side kept as the
    question names it too; None when it names no such pair or names the stored sides."""
    metric = load_vocabulary().metrics.get(target)
    sides = quotient_sides(metric.formula or "") if metric else None
    found = _BASED_ON_RE.search(norm)
    if sides is None or found is None:
        return None
    named = named_items(found["named"])
    if len(named) != 2 or any(i.is_metric for i in named) or not re.fullmatch(
            r"\s+and\s+(?:its\s+|the\s+)?", found["named"][named[0].end:named[1].start]):
        return None
    first, second = named[0].name, named[1].name
    # one side as stored, the other as the question names it
    return f"{first} / {second}" if (first == sides[0]) != (second == sides[1]) else None


def quotient_sides(formula: str) -> tuple[str, str] | None:
    """A formula's numerator and denominator when it is a quotient at its top level
    ("free_cash_flow / share_repurchases", "(a - b) / c"), else None."""
    tree = ast.parse(formula, mode="eval").body if formula else None
    if not (isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Div)):
        return None
    return ast.unparse(tree.left), ast.unparse(tree.right)


def _is_quotient(formula: str) -> bool:
    return quotient_sides(formula) is not None


# words that end the name of what a question asks: "free cash flow conversion for FY2020?"
_NAME_END_RE = re.compile(r"^(?:for|of|in|at|as|from|between|during|over|is|was|and|or|"
                          r"defined|define|using|use|based|where|if)$")


def _ratio_named(norm: str, key: str, formula: str) -> str | None:
    """The name the question gives what it defines as a quotient of amounts when that name
    only begins with an amount's ("free cash flow conversion, defined as (cash from operations
    - capex) / net income"): a ratio of the question's own, named by its words; else None."""
    if load_vocabulary().metrics[key].unit != "USD" or not _is_quotient(formula):
        return None
    spans = [i for i in named_items(norm) if i.name == key]
    if not spans:
        return None
    start, end = spans[0].start, spans[0].end
    extra = []
    for word in norm[end:].split()[:3]:
        word = word.strip(",.?;:")
        if (not word or _NAME_END_RE.match(word) or any(c.isdigit() for c in word)
                or PERIOD_WORD_RE.fullmatch(word)):
            break  # "for", "FY2020", "fiscal": the name has ended
        extra.append(word)
    return " ".join([norm[start:end].strip(), *extra]) if extra else None


def _defined_by(key: str, formula: str, target: str | None) -> str:
    """The metric a definition's formula is of: the name it defines, unless that name is an
    amount (EBITDA, in dollars) and the formula a quotient while the metric asked divides that
    name ("Define unadjusted EBITDA as operating income plus D&A, divided by net sales" asked
    of the EBITDA margin): then the formula is the asked metric's own, not the amount's, and
    the amount is not divided twice."""
    metrics = load_vocabulary().metrics
    asked = metrics.get(target or "")
    if (target is None or asked is None or target == key or metrics[key].unit != "USD"
            or not re.match(rf"^{re.escape(key)}\s*/", asked.formula or "")):
        return key
    return target if _is_quotient(formula) else key


def _is_growth(metric: str | None) -> bool:
    """Whether a metric's own formula is a change (it reads the year before: ``[-1]``)."""
    stored = load_vocabulary().metrics.get(metric or "")
    return bool(stored and "[-1]" in (stored.formula or ""))


def _aggregate(asked: str, norm: str, years: list[int], choice: bool, judgment: str | None,
               growth: bool, clauses: Sequence[str] = ()
               ) -> tuple[Aggregate, list[int], Direction | None]:
    """What is done with the years asked (a value, an average, a CAGR, a choice, a trend), the
    years it needs, and a trend's direction (none for a growth metric: its own formula is
    the change)."""
    aggregate: Aggregate = "value"
    direction: Direction | None = None
    # the first clause's own verb first (``Question.asked``): "Is its net income rising, and
    # how much of it came despite the deterioration of its margins?" asks whether it rose
    for text in ([normalize(clauses[0])] if clauses else []) + [norm]:
        direction = None if growth else next(
            (candidate for candidate, pattern in _DIRECTIONS
             if pattern.search(text.replace("growth rate", ""))), _period_compared(text))
        if direction:
            break
    if _PACE_WORDED_RE.search(norm):  # "grow faster than its cost of sales": two growth
        direction = None  # rates, which no amount's move compares
    if growth and (paced := _PACE_RE.search(norm)):  # "did its growth accelerate?"
        direction = "down" if paced[0].startswith(("dec", "slow")) else "up"
    elif _PACE_RE.search(norm):  # the pace of a measure no growth rate is stored for: the
        direction = None  # amount's own move does not say whether its growth sped up
    span = YEAR_SPAN_RE.search(asked)
    if _CAGR_RE.search(asked):
        aggregate = "cagr"
        if span and len(years) == 1:
            years = [years[0] - _number(span["n"]), years[0]]
    elif _AVERAGE_RE.search(asked) and (len(years) > 1 or span):
        aggregate = "average"
        last = years[-1] if years else None
        if span and last and len(years) == 1:
            years = list(range(last - _number(span["n"]) + 1, last + 1))
        elif years:
            years = list(range(years[0], years[-1] + 1))
    elif choice:
        aggregate = "choice"
        years = years[-1:]
    elif direction and judgment is None and (len(years) > 1 or _YES_NO_RE.search(asked)):
        aggregate = "trend"
        if len(years) == 1 and (than := _than_period(norm)) and str(years[0]) in than[0]:
            years = [years[0], years[0] + 1]  # "higher than in fiscal 2021": from it, a year on
    elif direction and judgment is None and len(years) == 1 and _HOW_CHANGED_RE.search(asked):
        # against the year the filing prints beside it; a base written ("change from fiscal
        # 2019") runs to the year after it
        based = BASE_YEAR_RE.search(asked)
        aggregate, years = "trend", ([years[0], years[0] + 1] if based and int(based[1]) ==
                                     years[0] else [years[0] - 1, years[0]])
    elif direction and judgment is None and not years and _HOW_CHANGED_RE.search(asked):
        aggregate = "trend"  # "How did it change compared with the prior year?": the latest two
    elif years:
        years = [years[-1]]
    return aggregate, years, direction
