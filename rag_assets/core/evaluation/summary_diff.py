"""The summary diff: baseline and enriched summaries paired sentence by sentence.

It pairs sentences by **lexical** similarity, the cosine of their token sets
(``|A ∩ B| / sqrt(|A| |B|)``), at ``threshold`` (0.82 by default). An embedding cosine would need
the model, and the report must cost none.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

SIMILARITY_THRESHOLD = 0.82
_TOKEN_RE = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")


def token_set(text: str) -> set[str]:
    return set(_TOKEN_RE.findall(text.lower()))


def token_set_cosine(a: str, b: str) -> float:
    """Cosine of the two sentences' token sets (binary vectors): ``|A ∩ B| / sqrt(|A| |B|)``."""
    left, right = token_set(a), token_set(b)
    if not left or not right:
        return 0.0
    return len(left & right) / math.sqrt(len(left) * len(right))


@dataclass(frozen=True)
class DiffRow:
    """One line of the summary diff: ``same`` (identical), ``similar`` (matched at or above the
    threshold), ``baseline_only`` or ``enriched_only``."""

    status: str
    baseline: str
    enriched: str
    similarity: float | None


def sentence_diff(baseline: Sequence[str], enriched: Sequence[str],
                  threshold: float = SIMILARITY_THRESHOLD) -> list[DiffRow]:
    """Pairs each enriched sentence with at most one baseline sentence, best pairs first, when
    their token-set cosine reaches ``threshold``; the rest are one-sided. Rows follow the
    enriched summary's order, an unmatched baseline sentence after the row it followed."""
    pairs = sorted(
        ((token_set_cosine(b, e), i, j) for i, b in enumerate(baseline)
         for j, e in enumerate(enriched)),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    match_of_enriched: dict[int, tuple[int, float]] = {}
    used: set[int] = set()
    for score, i, j in pairs:
        if score < threshold:
            break
        if i in used or j in match_of_enriched:
            continue
        used.add(i)
        match_of_enriched[j] = (i, score)
    rows: list[DiffRow] = []
    pending = [i for i in range(len(baseline)) if i not in used]
    for j, sentence in enumerate(enriched):
        if j in match_of_enriched:
            i, score = match_of_enriched[j]
            while pending and pending[0] < i:  # unmatched baseline sentences before this one
                rows.append(DiffRow("baseline_only", baseline[pending.pop(0)], "", None))
            same = baseline[i].strip() == sentence.strip()
            rows.append(DiffRow("same" if same else "similar", baseline[i], sentence,
                                round(score, 3)))
        else:
            rows.append(DiffRow("enriched_only", "", sentence, None))
    rows.extend(DiffRow("baseline_only", baseline[i], "", None) for i in pending)
    return rows
