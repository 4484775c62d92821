"""The one grammar of a share asked: "What share of <total> came from <part>?", "What
percentage of its revenues did it keep as gross profit?", "How much of its revenue did net
interest income account for?". The question reader reads it once into
:attr:`Question.share <rag_assets.core.question.question.Question.share>`; the metric parse
(:mod:`rag_assets.core.generation.metric_questions`) reads the same patterns for a share's
definition, beside its coverages. Hand-written patterns: no library parses a financial
question's share into its two terms. Plain Python and pydantic; no Dagster."""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from rag_assets.core.question.vocabulary import normalize
from rag_assets.core.text.periods import PERIOD_AFTER_RE

# "What share of <total> came from <part>?": the part divided by the total, a percentage (a
# segment's or a line's share of the whole the statements print both of)
SHARE_WORD = r"(?P<word>share|percent|percentage|proportion|portion|fraction)"
# what the filer did with the total that made the part of it: kept it as gross profit,
# converted it into operating income, paid it out as dividends, spent it on capex
SHARE_VERB = (r"(?:keep|kept|retain(?:ed)?|convert(?:ed)?|turn(?:ed)?|pay|paid|pay out|paid out|"
              r"return(?:ed)?|spend|spent|distribute[d]?|use[d]?|allocate[d]?|translate[d]?|"
              r"consumed|absorbed|taken up)")
SHARE_RES = (
    # "What share of <total> came from <part>?"
    re.compile(rf"\b(?:what {SHARE_WORD}|how much) of (?:the )?(?P<total>.+?) "
               r"(?:(?:came|come|comes|was|were|is|are|did) (?:from|generated (?:by|in|from)|"
               r"contributed by|derived from|earned (?:in|from)|attributable to)|"
               # "What share of its capital expenditures went to eCommerce?"
               r"(?:went|goes|go|(?:was|were) (?:allocated|spent|devoted|directed)) "
               r"(?:to|on|toward|towards)) (?P<part>.+?)(?: account for| contribute| represent)?"
               r"\s*\??$"),
    # "What percentage of its revenues did Coca-Cola keep as gross profit?"
    re.compile(rf"\bwhat {SHARE_WORD} of (?:the )?(?P<total>.+?) (?:did|does|do) \S+(?: \S+)"
               rf"{{0,4}}? {SHARE_VERB} (?:as|into|to|in|on|for) (?P<part>.+?)\s*\??$"),
    # "What share of its net income was paid out as cash dividends?"
    re.compile(rf"\bwhat {SHARE_WORD} of (?:the )?(?P<total>.+?) (?:was|were|is|are) "
               rf"{SHARE_VERB} (?:as|into|to|in|on|for|by) (?P<part>.+?)\s*\??$"),
    # "What percentage of its total net revenue was net interest income?"
    re.compile(rf"\bwhat {SHARE_WORD} of (?:the )?(?P<total>.+?) (?:was|were|is|are) "
               r"(?!(?:up|down|higher|lower|about|approximately)\b)(?P<part>.+?)\s*\??$"),
    # "How much of its revenue did net interest income account for?"
    re.compile(rf"\b(?:how much|{SHARE_WORD.replace('?P<word>', '?:')}) of (?:the )?"
               r"(?P<total>.+?) (?:did|does|do) (?P<part>.+?) (?:account for|represent|make up|"
               r"contribute)\s*\??$"),
)
_POSSESSIVE_RE = re.compile(r"^.*?\b[a-z0-9&.]+ ?(?:'s|s')\s+")
# where a share's term ends: a clause after a comma, "i.e.", "as a ...", the period it is of
_TERM_END_RE = re.compile(rf",|;|\(|\bi\.?e\.?\b|\bas a\b|{PERIOD_AFTER_RE.pattern}",
                          re.IGNORECASE)
_LIST_TERM_END_RE = re.compile(rf",(?!\s*(?:and\s+)?[a-z])|;|\(|\bi\.?e\.?\b|\bas a\b|"
                               rf"{PERIOD_AFTER_RE.pattern}", re.IGNORECASE)
PRONOUNS = frozenset({"each", "it", "they", "them", "these", "those", "this", "that", "which"})
_PERIOD_WORDS = frozenset({"fiscal", "fy", "year", "quarter", "calendar", "month", "months"})
_EDGE_WORDS = frozenset({"in", "for", "during", "of", "the", "its", "ended", "and"})


class Share(BaseModel):
    """The two terms a share question names, as its words without the company's name and the
    period ("what share of Walmart's fiscal 2020 net sales came from Walmart International":
    "walmart international" of "net sales")."""

    part: str = Field(description="what the share is of the total ('walmart international')")
    total: str = Field(description="the whole ('net sales')")
    listed_part: str = Field(description="the part with a list's commas kept ('eCommerce, "
                                         "technology, supply chain and other'): a member's "
                                         "name may hold commas")
    listed_total: str = Field(description="the total with a list's commas kept")


def share_asked(asking: str) -> Share | None:
    """The share a question asks, or None (no share pattern, or the members named by a
    pronoun: "how much ... did each account for")."""
    match = share_match(normalize(asking))
    terms = share_terms(match) if match is not None else None
    listed = share_terms(match, listed=True) if match is not None else None
    if terms is None or listed is None:
        return None
    return Share(part=terms[0], total=terms[1], listed_part=listed[0], listed_total=listed[1])


def share_match(norm: str) -> re.Match[str] | None:
    """The first share pattern's match in a normalized asking sentence."""
    return next((m for pattern in SHARE_RES if (m := pattern.search(norm))), None)


def share_terms(match: re.Match[str], listed: bool = False) -> tuple[str, str] | None:
    """The part's and the total's words of a share pattern's match, or None for a pronoun
    ("how much ... did each account for": the members, not a line item); ``listed``: a
    list's commas do not end a term ("capital expenditures, dividends and buybacks")."""
    terms = []
    for side in (match["part"], match["total"]):
        # "..., i.e. its efficiency ratio", "in weeks ended"
        side = (_LIST_TERM_END_RE if listed else _TERM_END_RE).split(side)[0]
        words = [w for w in _POSSESSIVE_RE.sub("", side).split()
                 if not re.search(r"\d", w) and w not in _PERIOD_WORDS]
        while words and words[0] in _EDGE_WORDS:
            words.pop(0)
        while words and words[-1] in _EDGE_WORDS:
            words.pop()
        if not words or words[0] in PRONOUNS:
            return None
        terms.append(" ".join(words))
    return terms[0], terms[1]
