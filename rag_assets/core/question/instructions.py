"""A question's instructions told from its substance, and the statements it names.

Analyst questions arrive wrapped in instructions ("Round your answer to two decimal places.
Approach the question asked by assuming the standpoint of an investment banking analyst who only
has access to the statement of income."). Ranked as they are, the instructions pull in pages that
talk about rounding and analysts. :func:`strip_instructions` keeps what is asked: whole
instruction sentences, leading instruction clauses ("Basing your judgments off of the balance
sheet, ...") and unit or rounding parentheses go; company names, years and metric names stay. A
definition ("ROA is defined as: FY2017 net income / (average total assets ...)") keeps its words
and loses its arithmetic. :func:`statements_named` reads the statements a question names, even
inside an instruction it drops ("using the cash flow statement", "P&L statement").
"""

from __future__ import annotations

import re

from rag_assets.core.ingest.statements import StatementKind
from rag_assets.core.question.vocabulary import normalize
from rag_assets.core.text.filing_kinds import filing_references_dropped
from rag_assets.core.text.sentences import split_sentences
from rag_assets.core.text.years import YEAR_RE, years_in

_STATE = r"(?:consolidated\s+)?"
_STATEMENT_NAME_SOURCES: tuple[tuple[StatementKind, str], ...] = (
    ("comprehensive_income", rf"\bstatements?\s+of\s+{_STATE}comprehensive\s+(?:income|loss)"),
    ("income_statement", rf"\bincome\s+statements?\b|\bstatements?\s+of\s+{_STATE}"
                         r"(?:income|operations|earnings)\b|(?<![\w&])p&l\b"
                         r"|\bprofit\s+and\s+loss\b"),
    ("balance_sheet", rf"\bbalance\s+sheets?\b|\bstatements?\s+of\s+{_STATE}financial\s+"
                      r"(?:position|condition)\b"),
    ("cash_flow", rf"\bcash\s+flows?\s+statements?\b|\bstatements?\s+of\s+{_STATE}cash\s+"
                  r"flows?\b"),
    ("equity", rf"\bstatements?\s+of\s+{_STATE}(?:changes\s+in\s+)?(?:(?:share|stock)"
               r"(?:holder|owner)s?'?\s+)?equity\b|\bequity\s+statements?\b"),
    ("segment_note", r"\bsegment\s+(?:note|information|data|results|reporting|disclosures?)\b"
                     r"|\b(?:by|each|which|per)\s+(?:business\s+|operating\s+|reportable\s+)?"
                     r"segments?\b|\b(?:business|operating|reportable)\s+segments?\b"),
    ("mdna", r"(?<![\w&])md&a\b|\bmanagement'?s?\s+discussion\s+and\s+analysis\b"),
)
STATEMENT_NAME_PATTERNS: tuple[tuple[StatementKind, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern)) for kind, pattern in _STATEMENT_NAME_SOURCES
)


def statements_named(text: str) -> list[StatementKind]:
    """Statements the text names ("using the cash flow statement", "statement of income", "P&L
    statement", "statement of financial position"), in order of first mention."""
    norm = normalize(text)
    found = [
        (m.start(), kind)
        for kind, pattern in STATEMENT_NAME_PATTERNS
        if (m := pattern.search(norm))
    ]
    return [kind for _, kind in sorted(found)]


# "Round your answer to two decimal places", "to the nearest whole number", "to the nearest
# tenth", "2 dp": the precision asked
_DECIMALS_RE = re.compile(
    r"(?:\bround\w*\s+(?:\w+\s+){0,3}?)?\bto\s+(?:the\s+)?(?P<n>\d|zero|one|two|three|four)\s+"
    r"decimal|\bnearest\s+(?:(?P<whole>whole|integer)|(?P<place>tenth|hundredth|thousandth))|"
    r"\b(?P<dp>\d)\s?d\.?p\.?(?!\w)", re.IGNORECASE)
_DIGIT_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4}
_PLACES = {"tenth": 1, "hundredth": 2, "thousandth": 3}


def decimals_asked(text: str) -> int | None:
    """The decimals a question's instruction asks its figure in, or None when it asks none."""
    if (match := _DECIMALS_RE.search(text)) is None:
        return None
    if match["whole"]:
        return 0
    if match["place"]:
        return _PLACES[match["place"].lower()]
    number = match["n"] or match["dp"]
    return int(number) if number.isdigit() else _DIGIT_WORDS[number.lower()]


# --- instruction boilerplate ---------------------------------------------------------------------

# Markers of a sentence (or leading clause) that tells how to answer, not what is asked. Written
# for the kinds of instruction analysts add, not for particular strings.
INSTRUCTION_MARKERS = re.compile(
    "|".join((
        r"\b(?:the|your|this)\s+(?:following\s+)?(?:question|answer|response)s?\b",
        r"\bjudge?ments?\b",
        r"\b(?:assum\w*|tak\w*|adopt\w*)\s+(?:the\s+)?(?:standpoint|perspective|viewpoint|role|"
        r"shoes)\s+of\b",
        r"\bbest\s+of\s+your\s+abilit",
        r"\bround(?:ed|ing)?\s+(?:your\s+|the\s+|all\s+)?(?:answers?\s+|results?\s+|figures?\s+)?"
        r"to\b",
        r"\b(?:answer|respond|reply)\s+in\s+(?:units|usd|us\$|\$|percent|millions|billions)",
        r"\bin\s+units\s+of\b",
        r"\breasonable\s+approximation\b",
        r"\bwe\s+need\s+to\s+(?:calculate|compute|find|determine|estimate)\b",
        r"\bnot\s+(?:a\s+)?(?:useful|relevant|meaningful|applicable)\b",
        r"\b(?:calculate|compute)\s+\(?or\s+extract\b",
        r"\bonly\s+(?:has|have)\s+access\s+to\b|\bcan\s+only\s+use\b",
        r"\b(?:utilize|use|rely\s+on|relying\s+on)\s+(?:the\s+)?(?:information|details|data)\b",
        r"\bshow\s+your\s+work\b|\bexplain\s+your\s+(?:answer|reasoning)\b",
    )),
    re.IGNORECASE,
)
# a leading clause that only names the source: "Using the cash flow statement, ..."
SOURCE_CLAUSE_RE = re.compile(
    r"^(?:using|based\s+on|basing\s+\w+|according\s+to|from|per|relying\s+on|drawing\s+on|"
    r"by\s+drawing|with\s+reference\s+to|referring\s+to|looking\s+at)\b",
    re.IGNORECASE,
)
# "(in USD billions)", "(in units of percents and round to one decimal place)"
INSTRUCTION_PAREN_RE = re.compile(
    r"\s*\((?=[^()]*\b(?:round|units?\s+of|answer|usd|us\$|in\s+(?:millions|billions|thousands))"
    r"\b)[^()]*\)",
    re.IGNORECASE,
)
UNIT_PHRASE_RE = re.compile(
    r"\s+in\s+(?:usd|us\$|\$)\s*(?:millions|billions|thousands)\b", re.IGNORECASE
)
DEFINITION_RE = re.compile(
    r"\s*(?:here\s+)?(?:is|are)\s+(?:defined|calculated|computed)\s+as\s*:?\s*|^\s*define\s+",
    re.IGNORECASE,
)
ARITHMETIC_RE = re.compile(
    r"[()/+*=÷×:]|\s[-–—]\s|\b(?:divided\s+by|multiplied\s+by|less|minus|plus|times|between)\b",
    re.IGNORECASE,
)
OPERATOR_TOKEN_RE = re.compile(r"(?<=\s)[+/*=÷×](?=\s)")


def _is_instruction(text: str, named: bool) -> bool:
    return bool(INSTRUCTION_MARKERS.search(text)) or (named and bool(SOURCE_CLAUSE_RE.match(text)))


def _strip_leading_clauses(sentence: str) -> str:
    """Drop leading clauses that instruct ("Basing your judgments off of the balance sheet,",
    "Using the cash flow statement, answer the following question ...:")."""
    while True:
        match = re.match(r"^(?P<clause>[^,:?]{3,}?)[,:]\s+(?P<rest>\S.*)$", sentence)
        if not match:
            return sentence
        clause = match.group("clause")
        if not _is_instruction(clause, bool(statements_named(clause))):
            return sentence
        sentence = match.group("rest")


def _definition(sentence: str) -> str:
    """A definition keeps its words (metric, line items, years) and loses its arithmetic."""
    match = DEFINITION_RE.search(sentence)
    if match and match.start() == 0:  # "Define X as Y" -> "X Y"
        sentence = re.sub(r"\s+as\s+", " ", sentence[match.end():], count=1)
    else:
        sentence = DEFINITION_RE.sub(" ", sentence)
    return " ".join(ARITHMETIC_RE.sub(" ", sentence).split())


def strip_instructions(question: str, references: bool = True) -> str:
    """The question without instruction boilerplate, definitions without arithmetic.

    The references to the filing to read go too, unless ``references`` is False ("according
    to its 2020 10-K": :func:`filing_references_dropped`; an intent may be named in one, "in
    its earnings release"). A year named only in a dropped instruction or reference
    ("Using the FY2020 cash flow statement, ...") is kept, appended at the end: the substance
    never goes.
    """
    text = INSTRUCTION_PAREN_RE.sub("", " ".join(question.split()))
    kept: list[str] = []
    dropped: list[str] = []
    for sentence in split_sentences(text):
        if DEFINITION_RE.search(sentence):
            kept.append(_definition(sentence))
            continue
        is_question = sentence.rstrip().endswith("?")
        if not is_question and _is_instruction(sentence, bool(statements_named(sentence))):
            dropped.append(sentence)
            continue
        stripped = _strip_leading_clauses(sentence)
        if stripped != sentence:
            dropped.append(sentence[: len(sentence) - len(stripped)])
            sentence = stripped[:1].upper() + stripped[1:]
        kept.append(UNIT_PHRASE_RE.sub("", sentence))
    if not kept:  # all of it reads as instructions ("Explain the role of ..."): keep it all
        kept, dropped = [text], []
    out = " ".join(OPERATOR_TOKEN_RE.sub("", " ".join(kept)).split())
    out = re.sub(r"\s+(?=[.,;?!])", "", out)
    referenced = out
    out = filing_references_dropped(out) if references else out
    if out != referenced:
        dropped.append(referenced)
    years = set(years_in(out))
    for lost in (m.group(0) for d in dropped for m in YEAR_RE.finditer(d)):
        year = years_in(lost)
        if year and year[0] not in years:
            out += f" {lost}"
            years.add(year[0])
    return out.strip()
