"""Whether an answer's citations support its claims: the ALCE citation scores, made lexically.

ALCE (Gao et al. 2023, "Enabling Large Language Models to Generate Text with Citations", arXiv
2305.14627) judges support with an NLI model; here :func:`supports` is a figure-and-content-word
rule, so a score is deterministic and explainable. The evidence of a citation is the page it
cites, read through a :data:`PageText`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rag_assets.core.evaluation.answer_lexicon import content_words, figures
from rag_assets.core.generation.records import Claim, QAResult, SourceCitation

PageText = Callable[[str, int, int], str | None]
"""``page_text(document, year, page)``: the text of a zero-based page, None when there is none."""

SUPPORT_WORD_SHARE = 0.8
_MARKER = re.compile(r"\[\d{1,3}\]")  # a bracketed reference, not a figure


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


# ------------------------------------------------------------------------------ verifier's marks


def is_invalid_citation(citation: SourceCitation, page_text: PageText) -> bool:
    """Marked ``invalid`` or ``context_mismatch`` by the verifier, or citing a page that does
    not exist: one rule for :func:`citation_marks` and the per-question score."""
    return citation.mark in ("invalid", "context_mismatch") or page_text(
        citation.document, citation.year, citation.page) is None


def citation_marks(result: QAResult | Sequence[Claim], page_text: PageText) -> dict[str, int]:
    """The answer's citations under the verifier: ``citations`` (all of them), ``valid`` (marked
    ``valid`` on a page that exists), ``invalid`` (marked ``invalid`` or ``context_mismatch``,
    or citing a page that does not exist: what
    :func:`~rag_assets.core.evaluation.answer_metrics.score_answer` counts) and ``unchecked``
    (the rest). Every cited operand is valid when ``valid == citations > 0``."""
    citations = [c for claim in _claims(result) for c in claim.citations]
    invalid = sum(is_invalid_citation(c, page_text) for c in citations)
    valid = sum(c.mark == "valid" and not is_invalid_citation(c, page_text) for c in citations)
    return {"citations": len(citations), "valid": valid, "invalid": invalid,
            "unchecked": len(citations) - valid - invalid}
