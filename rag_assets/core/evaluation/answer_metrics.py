"""Answer quality without a judge model: expected facts, cited support, abstention, figures.

Plain functions over the generation records (:mod:`rag_assets.core.generation.records`) and the
golden questions (:mod:`rag_assets.core.evaluation.questions`). Every rule is lexical and
deterministic, so a score can be recomputed and explained; each function's docstring states its
rule.

- :func:`fact_recall`: share of a question's expected facts printed in the answer;
- :func:`supports`: whether evidence text supports a claim (the ALCE support judgement, with a
  figure-and-content-word rule in place of an NLI model);
- :func:`citation_scores`: ALCE citation precision and recall of an answer's claims, the cited
  *pages* being the evidence;
- :func:`abstention_correct`: abstained exactly when the question is unanswerable;
- :func:`answer_correct`: FinanceBench-style correctness of an answer against a reference answer
  (figures within rounding, else content-word recall), anywhere in the answer (the lenient rule);
- :func:`strict_answer_correct`: the same rule applied to the answer's lead (:func:`answer_lead`,
  its first sentence) against the reference's lead: a correct figure lost in a long quote is not
  an answer (the rule ``make bench-real`` reports first);
- :func:`citation_marks`: how an answer's citations fared under the verifier (valid, invalid);
- :func:`score_answer` and :func:`summarize_answers`: one :class:`AnswerScore` per question and
  their means.

ALCE: Gao et al. 2023, "Enabling Large Language Models to Generate Text with Citations"
(arXiv 2305.14627).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd
from pydantic import BaseModel

from rag_assets.core.evaluation.questions import GoldenQuestion
from rag_assets.core.generation.records import ABSTENTION, Claim, QAResult, SourceCitation

PageText = Callable[[str, int, int], str | None]
"""``page_text(document, year, page)``: the text of a zero-based page, None when there is none."""

SUPPORT_WORD_SHARE = 0.8
REFERENCE_WORD_RECALL = 0.6
RELATIVE_TOLERANCE = Decimal("0.005")

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


def _fact_pattern(fact: str) -> re.Pattern[str]:
    """The normalized fact, bounded where it starts or ends with a letter or digit: no letter or
    digit (nor a digit and a decimal point or comma) may continue it on either side."""
    body = re.escape(fact)
    left = r"(?<!\w)(?<!\d[.,])" if fact[:1].isalnum() else ""
    right = r"(?!\w)(?![.,]\d)" if fact[-1:].isalnum() else ""
    return re.compile(left + body + right)


def fact_recall(answer_text: str, expected_facts: Sequence[str]) -> float | None:
    """Share of the expected facts that the answer prints.

    Rule: both sides pass through :func:`normalize_text`; a fact is present when its normalized
    form occurs in the normalized answer and is not part of a longer word or figure (the fact
    ``32,765`` is in ``$32,765 million`` and in ``32765`` but not in ``132,765``, ``32,7650`` or
    ``32,765.5``). None when there are no (non-blank) expected facts: nothing to recall.
    """
    facts = [normalize_text(f) for f in expected_facts if f.strip()]
    if not facts:
        return None
    answer = normalize_text(answer_text)
    return sum(bool(_fact_pattern(f).search(answer)) for f in facts) / len(facts)


# --------------------------------------------------------------------------------------- figures

_SCALES = {"thousand": Decimal(10) ** 3, "k": Decimal(10) ** 3, "million": Decimal(10) ** 6,
           "m": Decimal(10) ** 6, "mm": Decimal(10) ** 6, "mn": Decimal(10) ** 6,
           "billion": Decimal(10) ** 9, "b": Decimal(10) ** 9, "bn": Decimal(10) ** 9,
           "trillion": Decimal(10) ** 12}
_UNITS = (Decimal(1), Decimal(10) ** 3, Decimal(10) ** 6, Decimal(10) ** 9)

_FIGURE = re.compile(
    r"""
    (?<![\w.,])                                        # not inside a word or another figure
    (?P<open>\()?
    (?P<minus>[-−](?=(?:US\$|\$|€|£)?\d))?           # glued: "2019 - 2021" is a range
    (?P<currency>US\$|\$|€|£|USD\s|EUR\s)?\s?
    (?P<number>\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?P<decimals>\.\d+)?
    (?P<close>\))?
    (?P<percent>\s?%|\s?per\s?cent(?:age\s+points?)?\b|\s?percentage\s+points?\b)?
    (?P<scale>\s?(?:thousand|million|billion|trillion)s?\b|(?:MM|M|B|K|bn|mn)\b)?
    (?![a-wyz])                                        # not an ordinal or a code: 1st, 3Q
    """,
    re.VERBOSE | re.IGNORECASE,
)
_NEGATIVE_WORDS = re.compile(
    r"\b(?:negative|deficit|loss(?:es)?|decreas(?:e|ed|es)|declin(?:e|ed|es)|fell|down|"
    r"shortfall)\b", re.IGNORECASE)
_MARKER = re.compile(r"\[\d{1,3}\]")


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

    @property
    def is_year(self) -> bool:
        """A bare four-digit 1900-2100 (``2022``, ``FY 2022``): a label, not an amount."""
        return (not (self.percent or self.currency or self.decimals or self.scale)
                and "," not in self.text and self.value == self.value.to_integral_value()
                and 1900 <= self.value <= 2100)


def figures(text: str) -> list[Figure]:
    """Every figure printed in ``text``, in order.

    A figure is digits with optional thousands commas and decimals, optionally introduced by a
    currency sign (``$``, ``US$``, ``USD``, ``€``, ``£``), negative with a leading minus or
    between parentheses (``(1,561)``), followed by ``%`` / ``percent`` / ``percentage points``
    and by a scale: ``thousand``, ``million``, ``billion``, ``trillion`` (or ``K``, ``M``,
    ``MM``, ``mn``, ``B``, ``bn`` glued to the number: ``$1561M``). Digits inside a word
    (``FY2021``, ``Q4``) or followed by a letter other than ``x`` (``1st``; ``1.33x`` is a
    figure) are not a figure."""
    out: list[Figure] = []
    for m in _FIGURE.finditer(unicodedata.normalize("NFKC", text)):
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
            scale=_SCALES.get(scale_word) if scale_word else None,
            currency=bool(m.group("currency")),
            text=m.group(0).strip(),
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


# ---------------------------------------------------------------------------------------- support


def supports(claim_text: str, evidence_texts: Sequence[str | None]) -> bool:
    """Whether the evidence supports the claim: ALCE's support judgement, made lexically.

    Rule, over the evidence texts joined (None counts as no text):

    1. every figure of the claim (number, percentage, year: see :func:`figures`) is printed in
       the evidence with the same value (sign, scale and ``%`` aside: ``12.0%`` matches
       ``12 %``, ``$2.4 billion`` matches ``2.4``); bracketed markers such as ``[3]`` are
       references, not figures, and are ignored;
    2. at least 80 % of the claim's content words (:func:`content_words`: stopwords removed,
       light stemming) occur in the evidence.

    A claim with neither a figure nor a content word states nothing to check: not supported.
    """
    claim = _MARKER.sub(" ", claim_text)
    evidence = " ".join(t for t in evidence_texts if t)
    wanted_figures = {f.value for f in figures(claim)}
    wanted_words = content_words(claim)
    if not wanted_figures and not wanted_words:
        return False
    if not wanted_figures <= {f.value for f in figures(evidence)}:
        return False
    if not wanted_words:
        return True
    have = content_words(evidence)
    return len(wanted_words & have) / len(wanted_words) >= SUPPORT_WORD_SHARE


def _claims(result: QAResult | Sequence[Claim]) -> list[Claim]:
    return list(result.claims) if isinstance(result, QAResult) else list(result)


def citation_scores(
    result: QAResult | Sequence[Claim], page_text: PageText
) -> tuple[float | None, float | None]:
    """ALCE citation precision and recall of an answer's claims: ``(precision, recall)``.

    The evidence of a citation is the whole text of the page it cites (``page_text(document,
    year, page)``), not only its quote: a quote proves where words are printed, the page is what
    a reader checks the claim against. A page that does not exist gives no text.

    - recall: share of claims that :func:`supports` holds for the concatenation of their cited
      pages; a claim without citations is unsupported;
    - precision: share of all citations that are relevant. As in ALCE, a citation is relevant
      only when its claim is supported by its citations together, and then unless it is
      *irrelevant*: it alone does not support the claim AND the claim's other citations support
      it without it. The citations of an unsupported claim are not relevant. Claims that cite
      nothing give precision 0.0.

    ``(None, None)`` when there are no claims.
    """
    claims = _claims(result)
    if not claims:
        return None, None
    cache: dict[tuple[str, int, int], str] = {}

    def text_of(citation: SourceCitation) -> str:
        key = (citation.document, citation.year, citation.page)
        if key not in cache:
            cache[key] = page_text(*key) or ""
        return cache[key]

    supported = relevant = total = 0
    for claim in claims:
        pages = [text_of(c) for c in claim.citations]
        total += len(pages)
        if not pages or not supports(claim.text, pages):
            continue
        supported += 1
        if len(pages) == 1:
            relevant += 1
            continue
        for i, page in enumerate(pages):
            alone = supports(claim.text, [page])
            without = supports(claim.text, pages[:i] + pages[i + 1:])
            relevant += alone or not without
    precision = relevant / total if total else 0.0
    return precision, supported / len(claims)


# ------------------------------------------------------------------------------------- abstention


def abstained(result: QAResult) -> bool:
    """The answer declined: ``abstained`` is set or the answer is the abstention sentence."""
    return result.abstained or result.answer.strip() == ABSTENTION


def abstention_correct(result: QAResult, question: GoldenQuestion) -> bool:
    """Right to abstain or not: for an unanswerable golden question, correct iff the answer
    abstained (:func:`abstained`); for an answerable one, correct iff it did not."""
    return abstained(result) != question.answerable


# ----------------------------------------------------------------------------- answer correctness

_QUESTION_UNIT = re.compile(
    r"\bin\s+(?:units\s+of\s+)?(?:usd|us\$|\$|dollars)?\s*(thousands|millions|billions)\b",
    re.IGNORECASE)
_POLARITY = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)


def _round_to(value: Decimal, decimals: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def _candidates(answer: Figure, reference: Figure, reference_scale: Decimal | None
                ) -> list[Decimal]:
    """The answer figure's value in the reference's units (several when a unit is unknown)."""
    if reference.is_year or answer.is_year:
        return [answer.value] if reference.is_year and answer.is_year else []
    if reference.percent:
        if answer.percent:
            return [answer.value]
        return [] if answer.scale else [answer.value * 100]  # a fraction: 0.019 is 1.9 %
    if answer.percent:
        return [answer.value / 100]
    if answer.scale is None:
        return [answer.value]
    if reference_scale is not None:
        return [answer.value * answer.scale / reference_scale]
    return [answer.value * answer.scale / unit for unit in _UNITS]


def _figure_matches(answer: Figure, reference: Figure, reference_scale: Decimal | None,
                    answer_says_negative: bool) -> bool:
    if reference.negative:
        if not (answer.negative or answer_says_negative):
            return False
    elif answer.minus:
        return False
    for value in _candidates(answer, reference, reference_scale):
        if _round_to(value, reference.decimals) == reference.value:
            return True
        if reference.value and abs(value - reference.value) <= (
                RELATIVE_TOLERANCE * reference.value):
            return True
        if not reference.value and value == 0:
            return True
    return False


def answer_correct(answer_text: str, reference_answer: str, question: str | None = None) -> bool:
    """Whether an answer gives a FinanceBench reference answer.

    Rule:

    1. polarity: when the reference opens with "Yes" or "No", an answer that opens with the other
       one is wrong;
    2. figures (:func:`figures`): years (``FY 2022``) are labels and left out unless the
       reference has no other figure. Every reference figure must be matched by some figure of
       the answer, compared in the reference's units: the answer's value, converted, either
       rounds (half up) to the reference's printed precision and equals it (``24.257`` or
       ``24.26`` for ``24.26``; ``0.0126`` for ``0.01``), or is within 0.5 % of it (``$1.83
       billion`` for ``1832.00`` in millions). Units: ``%`` against ``%``; a plain fraction
       against a percentage is multiplied by 100 (``0.019`` is ``1.9%``) and a percentage
       against a plain reference divided by 100 (``1.0%`` is ``0.01``). Scale words are applied
       (``$1,577 million``, ``$1.58 billion``, ``1577.00``); the reference's scale is its own
       scale word, else the one the ``question`` asks for ("Answer in USD millions"), else
       unknown, and then an answer figure with a scale word matches in any of units, thousands,
       millions or billions. An answer figure without a scale word is read in the reference's
       units. Sign: a negative reference figure (minus or parentheses) needs a negative answer
       figure or a word of negativity in the answer ("negative", "deficit", "loss", "decline",
       ...); a positive one is not matched by a figure printed with a minus sign;
    3. a reference without figures (a yes/no or text answer) is matched when at least 60 % of its
       content words (:func:`content_words`) occur in the answer.
    """
    reference_figures = figures(reference_answer)
    polarity = _POLARITY.match(reference_answer)
    given = _POLARITY.match(answer_text)
    if polarity and given and polarity.group(1).lower() != given.group(1).lower():
        return False
    amounts = [f for f in reference_figures if not f.is_year] or reference_figures
    if not amounts:
        wanted = content_words(reference_answer)
        if not wanted:
            return bool(polarity and given)
        return len(wanted & content_words(answer_text)) / len(wanted) >= REFERENCE_WORD_RECALL
    unit = _QUESTION_UNIT.search(question or "")
    answer_figures = figures(answer_text)
    says_negative = bool(_NEGATIVE_WORDS.search(answer_text))
    for reference in amounts:
        scale = reference.scale or (_SCALES[unit.group(1).lower()[:-1]] if unit else None)
        if not any(_figure_matches(a, reference, scale, says_negative) for a in answer_figures):
            return False
    return True


# ----------------------------------------------------------------------------------- strict rule

# a citation marker as answers print it: [1], [2, invalid], [3m-10k 2018 p.56]
_CITATION_MARKER = re.compile(r"[ \t]*\[[^\[\]\n]{1,80}\]")
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*(?=\s)")
_LAST_TOKEN = re.compile(r"(\S+?)[.!?]+[\"')\]]*$")
# words a period follows without ending the sentence ("Nike, Inc. reported", "approx. 5")
_ABBREVIATIONS = """
inc corp co ltd llc plc bros dept est fig figs jr sr mr mrs ms dr st vs etc approx incl excl
avg ref sec vol nos
"""
ABBREVIATIONS = frozenset(_ABBREVIATIONS.split())
LEAD_JOIN_WORDS = 3


def _sentence_ends(text: str) -> list[int]:
    """Offsets just past each sentence end in ``text`` (one line): ``.``, ``!`` or ``?`` (and a
    closing quote or bracket) before a space, unless the period closes an abbreviation
    (:data:`ABBREVIATIONS`, ``U.S.``, ``e.g.``), an initial (``Richard A. Johnson``), ``No.``
    before a figure (``No. 3``), or the next word starts in lower case."""
    ends = []
    for m in _SENTENCE_END.finditer(text):
        rest = text[m.end():].lstrip()
        if not rest:
            break
        token = _LAST_TOKEN.search(text[: m.end()])
        word = token.group(1).lstrip("\"'(") if token else ""
        if text[m.start()] == "." and (
                word.lower() in ABBREVIATIONS or re.fullmatch(r"[A-Za-z]", word)
                or re.fullmatch(r"(?:[A-Za-z]\.)+[A-Za-z]", word)
                or (word.lower() == "no" and rest[:1].isdigit())):
            continue
        if rest[0].islower():
            continue
        ends.append(m.end())
    return ends


def _sentences(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        start = 0
        for end in [*_sentence_ends(line), len(line)]:
            if line[start:end].strip():
                out.append(line[start:end].strip())
            start = end
    return out


def answer_lead(text: str) -> str:
    """The lead of an answer (or of a reference answer): its first sentence, citation markers
    removed.

    Rule: markers (``[1]``, ``[2, invalid]``, ``[3m-10k 2018 p.56]``) are dropped; a sentence
    ends at a line break or at ``.``/``!``/``?`` before a space (see :func:`_sentence_ends`:
    ``$1.83 billion``, ``U.S.``, ``Inc.`` and ``Richard A. Johnson`` do not end one). A first
    sentence of at most three words and no figure (``Yes.``, ``No.``, ``Corporate.``, a name:
    FinanceBench's own ``Corporate. Its net revenue was -$473 million.``) is read together with
    the sentence after it. Empty for an empty text."""
    sentences = _sentences(_CITATION_MARKER.sub("", text))
    if not sentences:
        return ""
    lead = sentences[0]
    if len(sentences) > 1 and not figures(lead) and len(
            re.findall(r"[^\W\d_]+", lead)) <= LEAD_JOIN_WORDS:
        lead = f"{lead} {sentences[1]}"
    return lead


def strict_answer_correct(answer_text: str, reference_answer: str,
                          question: str | None = None) -> bool:
    """Whether the answer's lead gives the reference's lead: :func:`answer_correct` (its yes/no
    polarity rule, figures within rounding in the reference's units, else content-word recall)
    applied to :func:`answer_lead` of both.

    The answer is judged on its first sentence only, so a correct figure quoted in a later
    sentence or a later line does not count; the reference is judged on its own first sentence,
    so FinanceBench's caveats after it ("The answer here assumes FY2023 refers to the 12 months
    ended on January 28, 2023 ...") ask for no figure."""
    return answer_correct(answer_lead(answer_text), answer_lead(reference_answer), question)


def citation_marks(result: QAResult | Sequence[Claim], page_text: PageText) -> dict[str, int]:
    """The answer's citations under the verifier: ``citations`` (all of them), ``valid`` (marked
    ``valid`` on a page that exists), ``invalid`` (marked ``invalid`` or ``context_mismatch``,
    or citing a page that does not exist: what :func:`score_answer` counts) and ``unchecked``
    (the rest). Every cited operand is valid when ``valid == citations > 0``."""
    citations = [c for claim in _claims(result) for c in claim.citations]
    invalid = sum(_invalid(c, page_text) for c in citations)
    valid = sum(c.mark == "valid" and not _invalid(c, page_text) for c in citations)
    return {"citations": len(citations), "valid": valid, "invalid": invalid,
            "unchecked": len(citations) - valid - invalid}


# ------------------------------------------------------------------------------------ per question


class AnswerScore(BaseModel):
    """How one answer did on one golden question."""

    question_id: str
    document: str
    year: int
    category: str
    answerable: bool
    abstained: bool
    abstention_correct: bool
    fact_recall: float | None = None
    answer_correct: bool | None = None
    citation_precision: float | None = None
    citation_recall: float | None = None
    n_claims: int = 0
    n_citations: int = 0
    invalid_citations: int = 0
    seconds: float = 0.0


def _invalid(citation: SourceCitation, page_text: PageText) -> bool:
    return citation.mark in ("invalid", "context_mismatch") or page_text(
        citation.document, citation.year, citation.page) is None


def score_answer(question: GoldenQuestion, result: QAResult, page_text: PageText) -> AnswerScore:
    """Score one answer.

    - ``fact_recall`` (:func:`fact_recall`) for an answerable question with expected facts, else
      None; an abstention on it recalls nothing;
    - ``answer_correct`` (:func:`answer_correct`) for an answerable question with a reference
      ``answer`` (FinanceBench), False when the answer abstained, else None;
    - ``citation_precision``/``citation_recall`` (:func:`citation_scores`), None without claims;
    - ``invalid_citations``: citations the verifier marked ``invalid`` or ``context_mismatch``,
      or that cite a page that does not exist.
    """
    did_abstain = abstained(result)
    facts = question.expected_facts if question.answerable else []
    correct = None
    if question.answerable and question.answer:
        correct = not did_abstain and answer_correct(result.answer, question.answer,
                                                     question.question)
    precision, recall = citation_scores(result, page_text)
    citations = [c for claim in result.claims for c in claim.citations]
    return AnswerScore(
        question_id=question.id, document=question.document, year=question.year,
        category=question.category, answerable=question.answerable, abstained=did_abstain,
        abstention_correct=abstention_correct(result, question),
        fact_recall=fact_recall(result.answer, facts) if facts else None,
        answer_correct=correct, citation_precision=precision, citation_recall=recall,
        n_claims=len(result.claims), n_citations=len(citations),
        invalid_citations=sum(_invalid(c, page_text) for c in citations),
        seconds=result.seconds,
    )


def _mean(values: Iterable[float | bool | None]) -> float:
    """Mean of the values that are not None or NaN; NaN when there are none."""
    kept = [float(v) for v in values if v is not None and not (isinstance(v, float)
                                                                and math.isnan(v))]
    return sum(kept) / len(kept) if kept else math.nan


def summarize_answers(scores: Sequence[AnswerScore]) -> dict[str, float | int]:
    """Means over questions (NaN where no question qualifies; None and NaN values are skipped).

    - ``abstention_accuracy``: over all questions; ``false_abstention_rate``: answerable
      questions that abstained; ``answered_unanswerable_rate``: unanswerable ones answered;
    - ``fact_recall``: over answerable questions with expected facts (``fact_questions``);
    - ``answer_accuracy``: over questions with a reference answer (``reference_questions``);
    - ``citation_precision``/``citation_recall``: over answers with claims (``cited_answers``);
    - ``claims_per_answer``, ``citations_per_answer``, ``invalid_citations`` (a total) and
      ``seconds_mean``.
    """
    answerable = [s for s in scores if s.answerable]
    unanswerable = [s for s in scores if not s.answerable]
    with_facts = [s for s in answerable if s.fact_recall is not None
                  and not math.isnan(s.fact_recall)]
    return {
        "questions": len(scores),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "abstention_accuracy": _mean(s.abstention_correct for s in scores),
        "false_abstention_rate": _mean(s.abstained for s in answerable),
        "answered_unanswerable_rate": _mean(not s.abstained for s in unanswerable),
        "fact_questions": len(with_facts),
        "fact_recall": _mean(s.fact_recall for s in with_facts),
        "reference_questions": sum(s.answer_correct is not None for s in scores),
        "answer_accuracy": _mean(s.answer_correct for s in scores),
        "cited_answers": sum(s.citation_recall is not None for s in scores),
        "citation_precision": _mean(s.citation_precision for s in scores),
        "citation_recall": _mean(s.citation_recall for s in scores),
        "claims_per_answer": _mean(s.n_claims for s in scores),
        "citations_per_answer": _mean(s.n_citations for s in scores),
        "invalid_citations": sum(s.invalid_citations for s in scores),
        "seconds_mean": _mean(s.seconds for s in scores),
    }


SCORE_TYPES = {
    "question_id": "string", "document": "string", "year": "Int64", "category": "string",
    "answerable": "boolean", "abstained": "boolean", "abstention_correct": "boolean",
    "fact_recall": "Float64", "answer_correct": "boolean", "citation_precision": "Float64",
    "citation_recall": "Float64", "n_claims": "Int64", "n_citations": "Int64",
    "invalid_citations": "Int64", "seconds": "Float64",
}


def scores_to_frame(scores: Sequence[AnswerScore]) -> pd.DataFrame:
    """The ``answer_metrics`` table: explicit types, so a first partition whose values are all
    missing still creates the right columns."""
    rows = [s.model_dump() for s in scores]
    return pd.DataFrame(rows, columns=list(SCORE_TYPES)).astype(SCORE_TYPES)


def frame_to_scores(frame: pd.DataFrame) -> list[AnswerScore]:
    return [AnswerScore.model_validate({k: (None if pd.isna(v) else v) for k, v in row.items()
                                        if k in SCORE_TYPES})
            for row in frame.to_dict("records")]


def seconds_percentiles(scores: Sequence[AnswerScore]) -> dict[str, float]:
    """Seconds per answer at the median and the 95th percentile."""
    seconds = sorted(s.seconds for s in scores)
    if not seconds:
        return {"seconds_p50": math.nan, "seconds_p95": math.nan}
    return {"seconds_p50": float(np.percentile(seconds, 50)),
            "seconds_p95": float(np.percentile(seconds, 95))}
