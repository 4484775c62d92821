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

from rag_assets.core.generation.direct_rows import DirectAnswer, DirectKind
from rag_assets.core.generation.evidence import printed_unit
from rag_assets.core.generation.extractive import words
from rag_assets.core.generation.report_items import report_items
from rag_assets.core.question.question import Question
from rag_assets.core.text.filing_kinds import form_of

VOTE_ITEM = "5.07"
# the outcome a report closes a matter with, after its counts (in a sentence of their own or
# after the counts run into the same line)
OUTCOME_OPENING_RE = re.compile(r"(?:^\W*|(?<=[\d|]\s))Based on the votes\b")
# the columns Item 5.07(b) names, as reports head them
COLUMN_RE = re.compile(r"\b(?:votes?\s+)?(for|against|withheld|abstentions?|abstain(?:ed|s)?|"
                       r"broker\s+non-?\s?votes?)\b", re.IGNORECASE)
# a count as reports print one: grouped by commas (a year in a label is no count) or a dash
COUNT = r"(?:\d{1,3}(?:,\d{3})+|\d{1,3}|[-–—])"
ROW_RE = re.compile(rf"^(?P<label>.*?)(?<![^\s])(?P<counts>{COUNT}(?:\s+{COUNT})+)\s*$")
# the matter's opening: "Proposal 2.", "Proposal No. 2:", "2. Election of directors"
MATTER_RE = re.compile(r"^(?:proposal\s+(?:no\.\s*)?\d+|item\s+\d+\b(?!\.\d)|\d{1,2}\.\s)",
                       re.IGNORECASE)
# the outcome as it refers back to the counts ("Based on the votes set forth above, ... was
# approved"; "... were elected"), never the next matter's opening ("The shareholders approved,
# on an advisory basis, ...")
OUTCOME_RE = re.compile(r"\bbased on the (?:votes|foregoing|results)\b|\b(?:was|were)\s+(?:duly\s+"
                        r"|not\s+)?(?:elected|approved|ratified|adopted|passed|rejected)\b",
                        re.IGNORECASE)
# an outcome's polarity: passed ("was duly elected", "were approved") or not ("was not
# approved", "failed", "was rejected")
PASSED_RE = re.compile(r"\b(?:was|were)\s+(?:duly\s+)?(?P<not>not\s+)?(?:elected|approved|"
                       r"ratified|adopted|passed)\b|(?P<failed>\b(?:was|were)\s+rejected\b|"
                       r"\bfailed\b)", re.IGNORECASE)
# the quorum a report states before the matters: the shares entitled to vote, and those
# represented in person or by proxy (one sentence may not span them: "$0.01 par value" holds
# a period)
_SAME_SENTENCE = r"(?:(?!\.\s+[A-Z]|\d{1,3}(?:,\d{3})+\s+shares).){0,160}?"  # no other count
_SHARES_COUNTED = r"(?P<n>\d{1,3}(?:,\d{3})+)\s+shares\b"
ENTITLED_RE = re.compile(rf"{_SHARES_COUNTED}{_SAME_SENTENCE}\boutstanding\b", re.IGNORECASE)
REPRESENTED_RE = re.compile(rf"{_SHARES_COUNTED}{_SAME_SENTENCE}\b(?:were|was)\s+(?:represented|"
                            r"present)\b", re.IGNORECASE)
# words every matter's paragraph may print: they name no matter
VOTE_WORDS = frozenset({"vote", "votes", "voted", "cast", "proposal", "proposals", "approve",
                        "approved", "approval", "shareholder", "shareholders", "stockholder",
                        "stockholders", "company", "meeting", "annual", "percentage", "percent",
                        "share", "shares", "advisory", "basis", "respect", "set", "forth",
                        "below", "fiscal", "year", "years", "term", "board", "new", "held"})
MIN_SHARED = 1  # words a matter's paragraph shares with the question, beside the vote's own
# one nominee's share of votes against "substantially" above the others': at least twice the
# median of theirs and five points above it (a judgment, said with the shares it rests on)
OUTLIER_FACTOR = 2.0
OUTLIER_POINTS = 0.05
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
    (from its "Proposal" opening) and the outcome sentence after; a table is kept only when
    every row prints a count per column and an outcome or the next matter follows it."""
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
        outcome, read = _outcome(lines[end:])
        if rows and all(len(r[1]) == len(columns) for r in rows) and (
                outcome or _opens_next(lines[end:end + 1])):
            opening = max((i for i, c in enumerate(context) if MATTER_RE.match(c)), default=0)
            title = " ".join(context[opening:])
            matters.append(Matter(title=title, columns=columns, rows=rows, outcome=outcome,
                                  quote="\n".join([*context[opening:], *lines[at:end + read]])))
            context, at = [], end + read
            continue
        context.append(lines[at])
        at += 1
    return matters


def vote_outcomes(sentences: Sequence[str]) -> list[str]:
    """The outcome Item 5.07 closes each matter with ("Based on the votes set forth above, each
    of the ten nominees to the Board was duly elected"), in order, each as printed: read from
    an Item's sentences (its opening first, never an outcome) where :func:`read_matters` reads
    its tables' lines; a report that prints its counts in prose has outcomes and no table."""
    return [re.split(r"\s\(\d{1,2}\)\s", " ".join(s[m.start():].split()))[0].rstrip(".;")
            for s in sentences[1:] if s.rstrip().endswith(".")  # whole: not cut at a page
            and (m := OUTCOME_OPENING_RE.search(s))]


def _opens_next(lines: Sequence[str]) -> bool:
    """Whether the line after a table opens the next matter or table: a table that runs to
    the page's end, or into a line of its own (a name the page wrapped), may not be whole."""
    return bool(lines) and (MATTER_RE.match(lines[0]) is not None
                            or _is_header(_columns(lines[0])))


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
    if any(ROW_RE.match(line) for line in taken):  # the table goes on past a wrapped line
        return "", 0
    return (sentence, len(taken)) if taken and OUTCOME_RE.search(sentence) else ("", 0)


def vote_result(question: Question, document: str, year: int,
                pages: Sequence[tuple[int, str]]) -> DirectAnswer | None:
    """The nominee or the share a question on an 8-K's vote asks, read from Item 5.07's
    counts; None when the report is no 8-K with a vote, or the question asks neither."""
    if "shareholder_vote" not in question.intents or not pages:
        return None
    if form_of(document, pages[0][1]) != "8-K":
        return None
    found = next(((item.page, item.lines) for item in report_items(pages)
                  if item.number == VOTE_ITEM), None)
    if found is None:
        return None
    page, lines = found
    if (represented := _represented(question, lines)) is not None:
        text, quote = represented
        return DirectAnswer(kind="arithmetic", units=[printed_unit(document, year, page, quote)],
                            supports=quote, text=text)
    matters = read_matters(lines)
    answer = (_nominees(question, matters) if question.phrased("vote_nominees")
              else _approval(question, matters)) or _passed(question, matters)
    if answer is None:
        return None
    text, matter, kind = answer
    unit = printed_unit(document, year, page, matter.quote)
    return DirectAnswer(kind=kind, units=[unit], supports=matter.quote, text=text)


def _represented(question: Question, lines: Sequence[str]) -> tuple[str, str] | None:
    """The share of the shares entitled to vote that were represented at the meeting (the
    quorum Item 5.07 reports before the matters: "there were a total of 96,089,997 shares ...
    outstanding and entitled to vote ... 77,551,206 shares ... were represented in person or
    by proxy"), and the lines it is read from; None unless a share of them is asked."""
    if (question.expects == "yes_no" or question.share is None
            or not question.phrased("quorum") or question.phrased("votes_cast")):
        return None  # a share of the votes for a matter is the matter's, not the quorum
    text = " ".join(lines)
    whole, part = ENTITLED_RE.search(text), REPRESENTED_RE.search(text)
    if whole is None or part is None:
        return None
    entitled, present = (int(m["n"].replace(",", "")) for m in (whole, part))
    if not 0 < present < entitled or whole.start() == part.start():
        return None
    first = next(i for i, line in enumerate(lines) if whole["n"] in line)
    last = next(i for i, line in enumerate(lines) if part["n"] in line)
    quote = "\n".join(lines[min(first, last):max(first, last) + 1])
    return (f"{present / entitled:.1%} of the shares entitled to vote were represented at the "
            f"meeting: {part['n']} / {whole['n']} shares."), quote


def _column_asked(question: Question, election: Matter) -> int | None:
    """The column a question on the nominees asks of: the one it names after "votes" or the
    extreme ("the most votes against"), else the votes for when it asks support ("the
    highest approval") and the votes against when it asks opposition; None otherwise."""
    if (named := question.phrased("vote_column")) is not None:
        asked = _columns(named)
        return election.column(AGAINST if asked[0] in AGAINST else asked)
    if question.phrased("vote_support"):
        return election.column(("for",))
    if question.phrased("vote_opposition"):
        return election.column(AGAINST)
    return None


def _nominees(question: Question, matters: Sequence[Matter]
              ) -> tuple[str, Matter, DirectKind] | None:
    """Which nominee received the most (fewest) votes of the column asked, or, asked as a yes
    or no, whether one received substantially more votes against than the others; None for
    any other question on them (whether each got over 90%: the quotes and the table)."""
    election = next((m for m in matters if len(m.rows) > 1 and all(r[0] for r in m.rows)), None)
    if election is None:
        return None
    favour, against = election.column(("for",)), election.column(AGAINST)
    if question.expects == "yes_no":
        if not question.phrased("vote_outlier") or favour is None or against is None:
            return None
        ranked = sorted(election.rows, key=lambda r: r[1][against], reverse=True)
        return _outlier(election, ranked, against, favour), election, "yes_no"
    column = _column_asked(question, election)
    fewest = question.phrased("fewest") is not None
    if column is None or not (fewest or question.phrased("most")):
        return None
    if question.phrased("share_word"):
        if favour is None or against is None:
            return None
        return _share_ranked(election, column, favour, against, fewest), election, "superlative"
    ranked = sorted(election.rows, key=lambda r: r[1][column], reverse=not fewest)
    (name, counts), word = ranked[0], election.columns[column]
    return (f"{name} received the {'fewest' if fewest else 'most'} votes {word} of the "
            f"{len(election.rows)} nominees: {counts[column]:,} votes {word} (next, "
            f"{ranked[1][0]}: {ranked[1][1][column]:,}).", election, "superlative")


def _share_ranked(election: Matter, column: int, favour: int, against: int,
                  fewest: bool) -> str:
    """The nominee with the highest (lowest) share of the votes cast on it (for and against)
    in the column asked, the share stated with its counts."""

    def share(counts: list[int]) -> float:
        cast = counts[favour] + counts[against]
        return counts[column] / cast if cast else 0.0

    ranked = sorted(election.rows, key=lambda r: share(r[1]), reverse=not fewest)
    (name, counts), word = ranked[0], election.columns[column]
    return (f"{name} received the {'lowest' if fewest else 'highest'} share of votes {word} "
            f"of the {len(election.rows)} nominees: {share(counts):.1%} of the votes cast on "
            f"the nominee ({counts[column]:,} / ({counts[favour]:,} for + {counts[against]:,} "
            f"{election.columns[against]})); next, {ranked[1][0]}: {share(ranked[1][1]):.1%}.")


def _outlier(election: Matter, ranked: Sequence[tuple[str, list[int]]], column: int,
             favour: int) -> str:
    """"Yes." when the nominee with the most votes against (by count) has at least twice the
    median of the others' shares of votes cast against (for and against) and five points
    more, else "No."; either way the shares it is read from."""
    def share(counts: list[int]) -> float:
        cast = counts[favour] + counts[column]
        return counts[column] / cast if cast else 0.0

    name, counts = ranked[0]
    others = median(share(c) for _, c in ranked[1:])
    outlier = (share(counts) >= OUTLIER_FACTOR * others
               and share(counts) - others >= OUTLIER_POINTS)
    word = election.columns[column]
    return (f"{'Yes' if outlier else 'No'}. {name} received {counts[column]:,} votes {word} "
            f"({share(counts):.1%} of the votes cast on the nominee), compared with a median "
            f"of {others:.1%} for the other {len(ranked) - 1} nominees; next, {ranked[1][0]}: "
            f"{ranked[1][1][column]:,}." + (f" {election.outcome}" if election.outcome else ""))


def _named_matter(question: Question, matters: Sequence[Matter], rows: int | None = 1
                  ) -> Matter | None:
    """The matter whose paragraph shares the most words with the question past the vote's own
    and the calendar's, more than any other matter's (of ``rows`` rows, or any); None when
    none or two share as many."""
    asked = set(words(question.ranking_text)) - VOTE_WORDS
    scored = sorted(((len(asked & set(words(m.title))), i) for i, m in enumerate(matters)
                     if rows is None or len(m.rows) == rows), reverse=True)
    if (not scored or scored[0][0] < MIN_SHARED
            or (len(scored) > 1 and scored[1][0] == scored[0][0])):
        return None
    return matters[scored[0][1]]


def _passed(question: Question, matters: Sequence[Matter]
            ) -> tuple[str, Matter, DirectKind] | None:
    """Whether a matter passed, asked as a yes or no ("Did shareholders approve the executive
    compensation?", "Were the nominees elected?"): the outcome sentence Item 5.07 closes the
    matter with, read in its polarity ("was approved", "was not approved"), and turned when the
    question asks the opposite ("Did shareholders reject ..."); the counts follow it. None
    without an outcome sentence: the counts alone leave the company's voting standard unsaid."""
    if (question.expects != "yes_no" or question.phrased("vote_unread")
            or not question.phrased("vote_passing") or question.phrased("vote_counts")
            or question.phrased("negated")):
        return None  # a yes or no on the counts ("more than 90%?"), or asked in the negative
    matter = _named_matter(question, matters, rows=None)
    if matter is None or not (said := PASSED_RE.search(matter.outcome)):
        return None
    passed = not said["not"] and not said["failed"]
    answer = "Yes" if passed != bool(question.phrased("vote_rejection")) else "No"
    counts = (" (" + ", ".join(f"{n:,} {c}" for c, n in zip(matter.columns, matter.rows[0][1],
                                                            strict=True)) + ")"
              if len(matter.rows) == 1 else "")  # every column Item 5.07(b) requires
    return f"{answer}. {matter.outcome.rstrip('.')}{counts}.", matter, "yes_no"


def _approval(question: Question, matters: Sequence[Matter]
              ) -> tuple[str, Matter, DirectKind] | None:
    """The share of the votes cast for (or against, when asked) the matter whose paragraph
    shares the most words with the question past the vote's own and the calendar's (more
    than any other matter's): votes for over votes for and against. None for a yes or no, a
    share of the shares outstanding or present, or no matter named."""
    if (question.expects == "yes_no" or not question.phrased("vote_share")
            or question.phrased("vote_other_base") or question.phrased("vote_unread")):
        return None
    matter = _named_matter(question, matters)
    favour, against = (None, None) if matter is None else (matter.column(("for",)),
                                                          matter.column(AGAINST))
    if matter is None or favour is None or against is None:
        return None
    counts = matter.rows[0][1]
    cast = counts[favour] + counts[against]
    column = against if question.phrased("vote_against") else favour
    if not cast:
        return None
    word = matter.columns[column]
    return (f"{counts[column] / cast:.1%} of the votes cast were {word} it ({counts[column]:,} "
            f"{word} / ({counts[favour]:,} for + {counts[against]:,} "
            f"{matter.columns[against]}))." + (f" {matter.outcome}" if matter.outcome else "")
            ), matter, "arithmetic"
