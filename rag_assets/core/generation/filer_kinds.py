"""What kind of filer a filing is (a bank, an insurer, a real estate investment trust), read
from its own statements' presentation or the SIC code its cover prints.

Some metrics do not apply to some filers: a bank prints no cost of revenue, so it has no gross
margin. Deciding that from a missing line would blame the filing for what the statement reader
missed (an aerospace maker whose "Cost of products" and "Cost of services" were not read was
told gross margin is not meaningful for it). Here the decision rests on what the filer IS: the
line items its kind's presentation rules require (``filer_kinds.json``, each with its source),
never on a line that is absent. Plain Python and pydantic; no Dagster.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from rag_assets.core.ingest.facts import normalize_label

if TYPE_CHECKING:
    from rag_assets.core.ingest.facts import StatementFact

KINDS_FILE = Path(__file__).with_name("filer_kinds.json")
_SIC_RE = re.compile(r"standard\s+industrial\s+classification[^0-9]{0,80}?(?P<code>\d{4})",
                     re.IGNORECASE)


class KindLine(BaseModel):
    pattern: str
    source: str


class FilerKindDef(BaseModel):
    title: str
    statements: list[str]
    lines: list[KindLine] = Field(min_length=1)
    min_lines: int = Field(ge=1)
    sic: list[tuple[int, int]] = Field(default_factory=list)
    sic_source: str = ""
    presents_without: str
    source: str


class FilerKind(BaseModel):
    """A kind a filer was found to be, and the evidence: the rows it prints, or its SIC code."""

    kind: str
    title: str
    evidence: list[str] = Field(description="the labels as printed, or 'SIC code NNNN'")
    presents_without: str
    source: str

    @property
    def because(self) -> str:
        """Why the filer is of this kind, as an answer says it."""
        if self.evidence and self.evidence[0].startswith("SIC code"):
            return f"its cover prints {self.evidence[0]}"
        shown = ", ".join(f'"{e}"' for e in self.evidence[:3])
        return f"its statements print {shown}"


@cache
def load_kinds(path: Path = KINDS_FILE) -> dict[str, FilerKindDef]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {name: FilerKindDef.model_validate(entry) for name, entry in data["kinds"].items()}


@cache
def _patterns(name: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(line.pattern) for line in load_kinds()[name].lines)


def sic_code(cover: str) -> int | None:
    """The SIC code a cover prints after "Standard Industrial Classification", if any."""
    match = _SIC_RE.search(cover)
    return int(match["code"]) if match else None


def filer_kind(facts: Sequence[StatementFact], cover: str = "") -> FilerKind | None:
    """The kind of filer whose statements these facts are (the first of the data file's
    kinds that holds), or None: an ordinary commercial or industrial filer."""
    code = sic_code(cover) if cover else None
    for name, entry in load_kinds().items():
        if code is not None and any(low <= code <= high for low, high in entry.sic):
            return FilerKind(kind=name, title=entry.title, evidence=[f"SIC code {code}"],
                             presents_without=entry.presents_without,
                             source=entry.sic_source or entry.source)
        matched: dict[int, str] = {}
        for fact in facts:
            if fact.statement not in entry.statements:
                continue
            label = normalize_label(fact.label)
            for i, pattern in enumerate(_patterns(name)):
                if i not in matched and pattern.fullmatch(label):
                    matched[i] = " ".join(fact.label.split())
        if len(matched) >= entry.min_lines:
            return FilerKind(kind=name, title=entry.title,
                             evidence=[matched[i] for i in sorted(matched)],
                             presents_without=entry.presents_without, source=entry.source)
    return None
