"""An 8-K's vote results read as the tables Form 8-K Item 5.07 requires them in.

Item 5.07(b) requires, for each matter voted on at a shareholders' meeting, the number of votes
cast for, against or withheld, the abstentions and the broker non-votes, and for an election
each nominee's. A report prints each matter as a paragraph ("Proposal 2. With respect to the
proposal to approve ... the votes were cast as set forth below:"), a header that names the
columns ("Name Votes For Votes Against Abstentions Broker Non-Votes"), one row of counts per
nominee (or one row for the matter) and the outcome ("Based on the votes set forth above, ...
was approved."). Text extraction keeps a row on one line, so the table is read without a table
model: a matter is kept only when every row prints as many counts as its header names columns
(a frequency vote's two-line header, "Votes For 1 Year 2 Years 3 Years", is left to the
quotes).

Two questions are answered from the counts, where a quoted sentence answers neither:
- which nominee received the most (or fewest) votes of a column, and whether one received
  substantially more votes against than the others: its share of the votes cast on it (for and
  against, or withheld) read against the median of the other nominees' shares;
- what share of the votes cast approved a matter: its votes for over its votes for and against
  (abstentions and broker non-votes are not votes cast, as most companies' majority-of-votes-cast
  standards count them).
Plain Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from statistics import median

from pydantic import BaseModel, Field

from rag_assets.core.generation.current_items import report_items
from rag_assets.core.generation.direct_rows import DirectAnswer, DirectKind
from rag_assets.core.generation.evidence import printed_unit
from rag_assets.core.generation.extractive import words
from rag_assets.core.question.question import Question
from rag_assets.core.text.filing_kinds import form_of

VOTE_ITEM = "5.07"
# the columns Item 5.07(b) names, as reports head them
COLUMN_RE = re.compile(r"\b(?:votes?\s+)?(for|against|withheld|abstentions?|abstain(?:ed|s)?|"
                       r"broker\s+non-?\s?votes?)\b", re.IGNORECASE)
COUNT = r"(?:\d{1,3}(?:,\d{3})+|\d+|[-–—])"
ROW_RE = re.compile(rf"^(?P<label>.*?)\s*(?P<counts>{COUNT}(?:\s+{COUNT})+)\s*$")
# the matter's opening: "Proposal 2.", "Proposal No. 2:", "2. Election of directors"
MATTER_RE = re.compile(r"^(?:proposal\s+(?:no\.\s*)?\d+|item\s+\d+\b(?!\.\d)|\d{1,2}\.\s)",
                       re.IGNORECASE)
OUTCOME_RE = re.compile(r"\b(?:elected|approved|ratified|adopted|passed|rejected|failed|"
                        r"not\s+approved)\b", re.IGNORECASE)
# a question on the nominees' counts, and the column it asks of
NOMINEE_RE = re.compile(r"\b(?:nominees?|directors?|board\s+members?|candidates?)\b",
                        re.IGNORECASE)
MOST_RE = re.compile(r"\b(?:most|highest|largest|more|greatest|biggest)\b", re.IGNORECASE)
FEWEST_RE = re.compile(r"\b(?:fewest|least|lowest|smallest)\b", re.IGNORECASE)
SHARE_ASKED_RE = re.compile(r"\b(?:percent(?:age)?|share|proportion|%|support)\b",
                            re.IGNORECASE)
# one nominee's share of votes against "substantially" above the others': at least twice the
# median of theirs (a judgment, said with the shares it is read from)
OUTLIER_FACTOR = 2.0
AGAINST = ("against", "withheld")
SEPARATOR_RE = re.compile(r"^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*$")  # a stored table's rule


class Matter(BaseModel):
    """One matter voted on: its paragraph, the columns its header names, its rows (a
    nominee's name, or none for the matter's one row, with its counts), its outcome."""

    title: str
    columns: list[str]
    rows: list[tuple[str, list[int]]]
    outcome: str = ""
    quote: str = Field(description="the lines read, as printed, for the citation")

    def column(self, names: Sequence[str]) -> int | None:
        return next((self.columns.index(n) for n in names if n in self.columns), None)


def _columns(line: str) -> list[str]:
    """The columns a header names, each once in its order ("abstentions" as "abstain")."""
    found = [m.group(1).lower() for m in COLUMN_RE.finditer(line)]
    return ["abstain" if c.startswith("abst") else "broker non-votes" if c.startswith(
        "broker") else c for c in found]


def _as_text(line: str) -> str:
    """A stored page's table row ("| Name | Votes For |") as its cells' text, one space apart,
    as the page prints it."""
    if not line.lstrip().startswith("|"):
        return line.strip()
    return " ".join(cell.strip() for cell in line.strip().strip("|").split("|") if cell.strip())


def _is_header(columns: Sequence[str]) -> bool:
    """A table's header names the votes for and at least one other column ("for the 2022
    fiscal year" in an outcome names one)."""
    return "for" in columns and len(columns) >= 2


def _counts(text: str) -> list[int]:
    return [0 if c in "-–—" else int(c.replace(",", "")) for c in text.split()]


def read_matters(lines: Sequence[str]) -> list[Matter]:
    """The matters of an Item 5.07 body: each header with its rows, the paragraph before it
    (from its "Proposal" opening) and the outcome sentence after."""
    lines = [_as_text(line) for line in lines if not SEPARATOR_RE.match(line)]
    matters: list[Matter] = []
    context: list[str] = []
    at = 0
    while at < len(lines):
        columns = _columns(lines[at])
        rows: list[tuple[str, list[int]]] = []
        end = at + 1
        while _is_header(columns) and end < len(lines) and (row := ROW_RE.match(lines[end])):
            rows.append((row["label"].strip(), _counts(row["counts"])))
            end += 1
        if rows and all(len(r[1]) == len(columns) for r in rows):
            outcome, read = _outcome(lines[end:])
            opening = max((i for i, c in enumerate(context) if MATTER_RE.match(c)), default=0)
            title = " ".join(context[opening:])
            matters.append(Matter(title=title, columns=columns, rows=rows, outcome=outcome,
                                  quote="\n".join([*context[opening:], *lines[at:end + read]])))
            context, at = [], end + read
            continue
        context.append(lines[at])
        at += 1
    return matters


def _outcome(lines: Sequence[str]) -> tuple[str, int]:
    """The outcome sentence after a table (it may wrap: "... for the 2022" / "fiscal year was
    duly ratified.") and the lines it takes; none when the next sentence states no outcome."""
    taken: list[str] = []
    for line in lines[:3]:
        if MATTER_RE.match(line) or _is_header(_columns(line)):
            break
        taken.append(line)
        if line.rstrip().endswith("."):
            break
    sentence = " ".join(taken)
    return (sentence, len(taken)) if taken and OUTCOME_RE.search(sentence) else ("", 0)


def vote_result(question: Question, document: str, year: int,
                pages: Sequence[tuple[int, str]]) -> DirectAnswer | None:
    """The nominee or the share a question on an 8-K's vote asks, read from Item 5.07's
    counts; None when the report is no 8-K with a vote, or the question asks neither."""
    if "shareholder_vote" not in question.intents or not pages:
        return None
    if form_of(document, pages[0][1]) != "8-K":
        return None
    found = next(((page, lines) for heading, page, lines in report_items(pages)
                  if heading.split()[1].rstrip(".") == VOTE_ITEM), None)
    if found is None:
        return None
    page, lines = found
    matters = read_matters(lines)
    answer = (_nominees(question, matters) if NOMINEE_RE.search(question.text)
              else _approval(question, matters))
    if answer is None:
        return None
    text, matter, kind = answer
    unit = printed_unit(document, year, page, matter.quote)
    return DirectAnswer(kind=kind, units=[unit], supports=matter.quote, text=text)


def _nominees(question: Question, matters: Sequence[Matter]
              ) -> tuple[str, Matter, DirectKind] | None:
    """Which nominee received the most (fewest) votes of the column asked, or whether one
    received substantially more votes against than the others."""
    election = next((m for m in matters if len(m.rows) > 1 and all(r[0] for r in m.rows)), None)
    if election is None:
        return None
    against = election.column(AGAINST)
    asked = [c for c in _columns(question.text) if c in election.columns]
    column = election.column(asked[:1]) if asked else against
    favour = election.column(("for",))
    if column is None or favour is None:
        return None
    fewest = FEWEST_RE.search(question.text) is not None
    if not fewest and not MOST_RE.search(question.text):
        return None
    ranked = sorted(election.rows, key=lambda r: r[1][column], reverse=not fewest)
    name, counts = ranked[0]
    said = f"{counts[column]:,} votes {election.columns[column]}"
    if question.expects != "yes_no" or column != against:
        return (f"{name} received the {'fewest' if fewest else 'most'} votes "
                f"{election.columns[column]} of the {len(election.rows)} nominees: {said} "
                f"(next, {ranked[1][0]}: {ranked[1][1][column]:,}).", election, "superlative")
    return _outlier(election, ranked, column, favour), election, "yes_no"


def _outlier(election: Matter, ranked: Sequence[tuple[str, list[int]]], column: int,
             favour: int) -> str:
    """"Yes." when the nominee with the most votes against has at least twice the median of
    the others' shares of votes cast against (for and against), else "No."; either way the
    shares it is read from."""
    def share(counts: list[int]) -> float:
        cast = counts[favour] + counts[column]
        return counts[column] / cast if cast else 0.0

    name, counts = ranked[0]
    others = median(share(c) for _, c in ranked[1:])
    outlier = others > 0 and share(counts) >= OUTLIER_FACTOR * others
    word = election.columns[column]
    return (f"{'Yes' if outlier else 'No'}. {name} received {counts[column]:,} votes {word} "
            f"({share(counts):.1%} of the votes cast on the nominee), compared with a median "
            f"of {others:.1%} for the other {len(ranked) - 1} nominees"
            f"{f'; next, {ranked[1][0]}: {ranked[1][1][column]:,}' if len(ranked) > 1 else ''}."
            + (f" {election.outcome}" if election.outcome else ""))


def _approval(question: Question, matters: Sequence[Matter]
              ) -> tuple[str, Matter, DirectKind] | None:
    """The share of votes cast for the matter the question names most words of, when it asks
    a share: votes for over votes for and against."""
    if not SHARE_ASKED_RE.search(question.text):
        return None
    asked = set(words(question.ranking_text))
    scored = sorted(((len(asked & set(words(m.title))), i) for i, m in enumerate(matters)
                     if len(m.rows) == 1), reverse=True)
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    matter = matters[scored[0][1]]
    favour, against = matter.column(("for",)), matter.column(AGAINST)
    if favour is None or against is None:
        return None
    counts = matter.rows[0][1]
    cast = counts[favour] + counts[against]
    if not cast:
        return None
    return (f"{counts[favour] / cast:.1%} of the votes cast were for it ({counts[favour]:,} "
            f"for / ({counts[favour]:,} for + {counts[against]:,} "
            f"{matter.columns[against]}))." + (f" {matter.outcome}" if matter.outcome else "")
            ), matter, "arithmetic"
