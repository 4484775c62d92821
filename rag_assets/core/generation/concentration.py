"""Is a revenue base diversified, or does one segment dominate it: the largest segment's share
of the total its segment table prints (``direct_cues.json``'s ``concentration``: ASC
280-10-50-32, revenue by reportable segment reconciled to the total). A segment with more than
half of the total (a majority) dominates; the share is stated with the rule, so a reader can
apply another. The superlative never ranks a table that disaggregates revenue by product or
place for a segment (``superlatives.disaggregates``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer, DirectCues, PageRows, first_match
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.superlatives import PagesTitling, superlative
from rag_assets.core.question.question import Question

MAJORITY = 0.5
# which the question asks first: a diversified base, or one that a segment dominates
DIVERSIFIED_RE = re.compile(r"\bdiversif\w*", re.IGNORECASE)
DOMINATED_RE = re.compile(r"\b(?:dominat|concentrat|reliant|depend)\w*", re.IGNORECASE)


def concentration(question: Question, selected: Sequence[EvidenceUnit],
                  pool: Sequence[EvidenceUnit], page_rows: PageRows | None, cues: DirectCues,
                  titling: PagesTitling | None = None) -> DirectAnswer | None:
    """"Yes." or "No." with the largest segment and its share of the total, or None (no such
    question, or no segment table that prints the total)."""
    cue = first_match(cues.concentration, question.text.lower())
    if cue is None or not cue.word:
        return None
    ranked = question.reworded(f"Which {cue.word} had the largest revenue?")
    found = superlative(ranked, selected, pool, page_rows, cues, titling)
    if found is None or found.share is None:
        return None
    dominated = found.share > MAJORITY
    yes = dominated if _asks_dominated_first(question.text) else not dominated
    rule = (f"more than half of the total, so one {cue.word} dominates" if dominated else
            f"no {cue.word} has more than half of the total, so the base is diversified")
    return found.model_copy(update={
        "kind": "yes_no", "text": f"{'Yes' if yes else 'No'}. {found.text.rstrip('.')}: {rule}."})


def _asks_dominated_first(text: str) -> bool:
    diversified, dominated = DIVERSIFIED_RE.search(text), DOMINATED_RE.search(text)
    if dominated is None:
        return False
    return diversified is None or dominated.start() < diversified.start()

