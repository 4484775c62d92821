"""An earnings release's outlook, as the table it prints, for "what outlook did X give".

A release states its guidance in a block headed "Fiscal 2023 Outlook" (or "Prior FY23 Outlook
Updated FY23 Outlook" when it revises it): one line per measure, its range after its label
("Net sales $10.95 billion to $11.05 billion $11.0 billion to $11.1 billion"). The block is
the answer; a sentence around it is not. The first page of the filing whose heading names the
outlook (and the year asked, when one is) and is followed by lines that print figures gives
the first line of the answer: those lines, as printed, joined. Text extraction keeps a table's
row on one line, which is what makes the block readable without a table model.

A block that revises the outlook prints each measure's prior range beside its updated one
("Prior FY23 Outlook Updated FY23 Outlook"; "Operating margin 14.7% to 15.0% 14.5% to 14.8%";
"no change"): its first line says which way each moved, the midpoints compared ("Revised its
outlook: raised net sales to $11.0 billion to $11.1 billion (from ...); lowered ..."), then
the block as printed.

A yes or no that asks where the outlook takes a measure against the year just reported ("Does
the fiscal 2023 outlook point to further operating margin expansion after fiscal 2022?") is
answered from the measure's row read against the year the question names before the
outlook's, else the year before it, as the release's own statements compute it (the facts
route's :meth:`level`): "No. The Fiscal 2023 Outlook guides operating margin to 14.7% to
15.0%, 110 to 140 basis points below the 16.1% of FY2022." A range on both sides of the year's
figure answers neither way; the comparison is still said. A release whose statements print no
such year (a quarter's, with the year's outlook) gets the block alone; a revision's own moves
answer only a way asked of the outlook itself ("Did X raise its net sales outlook?").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import printed_unit
from rag_assets.core.generation.extractive import words
from rag_assets.core.generation.metric_engine import MetricAnswer, base_unit
from rag_assets.core.generation.metric_format import format_value
from rag_assets.core.generation.records import SourceCitation
from rag_assets.core.ingest.sections import heading_topic
from rag_assets.core.question.question import Question
from rag_assets.core.question.vocabulary import Unit, load_vocabulary, terms_in
from rag_assets.core.text.bullets import bullet_groups, is_bullet, numbered
from rag_assets.core.text.figures import SCALE_WORDS
from rag_assets.core.text.periods import MONTH_YEAR, PERIOD_WORD_RE, months_asked
from rag_assets.core.text.sentences import split_sentences
from rag_assets.core.text.years import YEAR_SPAN, years_in

OUTLOOK_HEADING_RE = re.compile(r"\b(?:outlook|guidance)\b", re.IGNORECASE)
FIGURE_LINE_RE = re.compile(r"\d")  # a row of the block prints a figure
# a line of a paragraph, not of a table: a sentence ends or breaks off, or a long line goes
# on after a comma ("..., while maintaining"; a row's label may hold one: "New stores, net")
PROSE_LINE_RE = re.compile(r"[.,;]$|[a-z]\.\s+[A-Z]|^(?:\S+\s+){10,}.*,\s+[a-z]")
# a line that only goes on with its row's figures: "$67.0 to $70.0 billion", "(previously ...)"
FIGURES_GO_ON_RE = re.compile(r"^[($~≥≤<>\d]")
MAX_LABEL_WORDS = 8  # a row's label printed on a line of its own
MAX_ROW_WORDS = 25  # a longer line is a paragraph's
MAX_LEAD_LINES = 3  # lines of prose between an outlook's heading and its table
MAX_HEADING_WORDS = 12
MIN_ROWS = 3
MAX_ROWS = 15
MIN_BULLETS = 2
# a revision's columns: the prior range, then the updated one
REVISION_RE = re.compile(r"\bprior\b.*\b(?:updated|revised|current|new)\b", re.IGNORECASE)
# a revision printed the other way round: the updated range first, then the prior one named
# by its date or in words (Lockheed Martin: "Current Update April 2023"), or a row that gives
# its prior range after the updated one (Pfizer: "$67.0 to $70.0 billion (previously $67.0 to
# $71.0 billion)")
UPDATED_WORD_RE = re.compile(r"\b(?:current|updated|revised|new)\b", re.IGNORECASE)
PRIOR_WORD_RE = re.compile(r"\b(?:prior|previous(?:ly)?)\b", re.IGNORECASE)
MONTH_YEAR_RE = re.compile(MONTH_YEAR, re.IGNORECASE)
PREVIOUSLY_RE = re.compile(r"\(\s*previously\b", re.IGNORECASE)
# a note marker printed after a row's label ("Business segment operating profit 2 ~$7,325"):
# a bare number of one or two digits, no range of the measure
MARKER_RE = re.compile(r"\d{1,2}")
MARKER_AFTER_RE = re.compile(r"\s+\d{1,2}$")
# a browser printout's running header: the page's path, or the date and time it was printed
# ("7/16/23, 3:13 PM 3919443-1-1_Proof.html"): no heading and no row
URL_RE = re.compile(r"\b[a-z]+:///?|^\s*\d{1,2}/\d{1,2}/\d{2,4},\s+\d{1,2}:\d\d\s*[AP]M\b",
                    re.IGNORECASE)
NO_CHANGE_RE = re.compile(r"\b(?:no change|unchanged|reaffirmed)\b", re.IGNORECASE)
# the way a yes or no asks (``Question.way``, in its own clause) as a revision's words say it:
# an improved outlook is a raised one
OUTLOOK_WAYS = {"up": "raised", "better": "raised", "down": "lowered", "worse": "lowered",
                "kept": "unchanged"}
LABEL_NET_RE = re.compile(r",?\s*net\s*$", re.IGNORECASE)  # "New stores, net"
LINKING_WORDS = frozenset({"full", "for", "the", "its", "of", "updated", "revised", "prior"})
# the measure a question names before the outlook: "its fiscal 2023 new stores outlook"
OUTLOOK_OF_RE = re.compile(r"\b(?:its|the|their)\s+(?P<what>[^?]*?)\s*(?:outlook|guidance|"
                           r"forecast)\b", re.IGNORECASE)
AMOUNT = (r"(?:approximately\s+)?[-–]?\$?\d[\d,]*(?:\.\d+)?%?"
          r"(?:\s*(?:billion|million|thousand)\b)?")
RANGE_RE = re.compile(rf"(?P<lo>{AMOUNT})(?:\s*(?:to|-|–)\s*(?P<hi>{AMOUNT}))?", re.IGNORECASE)
SCALE_RE = re.compile("|".join(SCALE_WORDS), re.IGNORECASE)
PER_SHARE_LABEL_RE = re.compile(r"per\s+(?:diluted\s+|basic\s+)?share|\beps\b", re.IGNORECASE)
# an amount of a range printed without its scale: "$66,250", "(1,950)", "8,150"
RANGE_AMOUNT_RE = re.compile(r"\(?\d[\d,.]*\)?")
# what a guided figure is printed as: a range, an estimate, or its change said in words
# ("$67.0 to $70.0 billion", "25-30", "approximately $900 million", "~$7,325", "low-single
# digit", "no change"); a table of results prints exact figures ("2021 Total Revenues––$81.3
# billion", "An increase of 95% compared to 2020"): a span of years ("2019-2021") or a rate
# run into an amount ("up 95% to $81.3 billion") is no range
ESTIMATE_RE = re.compile(rf"(?<![\d,.])(?!{YEAR_SPAN})"
                         r"\$?\d[\d,.]*(?:%(?!\s*to\s*\$))?(?:\s*(?:billion|million|thousand))?"
                         r"\s*(?:to|-|–)\s*[-–]?\$?\d|"
                         r"\b(?:approximately|around|at least|up to|no change|unchanged|reaffirmed|"
                         r"flat)\b|[~≈≥≤]|\bdigits?\b|\bexpect\w*\b", re.IGNORECASE)
SIGNED_NUMBER_RE = re.compile(r"(?P<sign>[-–])?\$?(?P<n>\d[\d,]*(?:\.\d+)?)")
# a sentence that introduces the year's targets as a list: "our key full-year fiscal 2024
# targets are summarized below:", "we expect the following for 2024:"
TARGETS_INTRO_RE = re.compile(r"\b(?:outlook|guidance|targets?|expect(?:s|ed|ations?)?)\b",
                              re.IGNORECASE)
# a measure's figure in a fiscal year, computed from the filing's statements (metric, year)
Level = Callable[[str, int], MetricAnswer | None]
# the ways a yes or no asks a measure to move, as the side of the year's figure it asks for
SIDE_ASKED = {"up": 1, "better": 1, "down": -1, "worse": -1}
# a row that guides another measure than the one read against the year: an adjusted figure
# (unless the question asks it), or a change or growth of the measure
ADJUSTED_RE = re.compile(r"\b(?:adjusted|non-gaap|core|organic|excluding|ex-|constant\s+"
                         r"currency)", re.IGNORECASE)
CHANGE_LABEL_RE = re.compile(r"\b(?:change|growth|expansion|increase|decrease|bps|basis\s+"
                             r"points?)\b", re.IGNORECASE)
LABEL_SCALE_RE = re.compile(r"\bin\s+(thousands|millions|billions)\b", re.IGNORECASE)
LABEL_SCALE_PAREN_RE = re.compile(r"\s*\(\s*in\s+(?:thousands|millions|billions)\s*\)",
                                  re.IGNORECASE)
DECIMALS_RE = re.compile(r"\.(\d+)")
MONTHS_PER_YEAR = 12


def _block(lines: Sequence[str], at: int) -> tuple[list[str], int]:
    """The rows after the heading at ``at``, and the index of the last line they take: the
    table under it (:func:`_table_rows`), else its lines that print a figure (a paragraph of
    expectations: Corning's "For full-year 2019, Corning expects the display glass market to
    grow by a mid-single digit percentage, ...")."""
    rows, end = _table_rows(lines, at)
    return (rows, end) if len(rows) >= MIN_ROWS else _figure_lines(lines, at)


def _table_rows(lines: Sequence[str], at: int) -> tuple[list[str], int]:
    """The table's rows after the heading at ``at``, and the index of the last line they take.
    At most :data:`MAX_LEAD_LINES` lines of prose between heading and table are skipped, their
    figures too ("Pfizer narrowed its 2023 revenue guidance range to $67 to $70 billion, while
    ..."); a label printed on a line of its own takes the figures under it ("Revenues" over
    "$67.0 to $70.0 billion"), and a line that only goes on with figures ("(previously $67.0 to
    $71.0 billion)") stays with its row. The table ends at the first line of prose, or one
    that prints no figure and labels none."""
    rows: list[str] = []
    label, end, lead = "", at, 0
    for index in range(at + 1, min(len(lines), at + 1 + MAX_ROWS + MAX_LEAD_LINES)):
        text = lines[index].strip()
        if URL_RE.search(text):
            continue  # a printout's running header: no row
        count = len(text.split())
        figures = bool(FIGURE_LINE_RE.search(text)) and count <= MAX_ROW_WORDS
        if not label and (PROSE_LINE_RE.search(text) or not figures and (
                count > MAX_LABEL_WORDS or text.endswith((".", ":")))):
            lead += 1
            if rows or lead > MAX_LEAD_LINES:
                break
            continue
        if not figures:
            if label:
                break  # a label over no figures: no table
            label = text  # its figures are on the next line
            continue
        if label:
            rows.append(f"{label} {text}")
        elif rows and FIGURES_GO_ON_RE.match(text):
            rows[-1] = f"{rows[-1]} {text}"
        else:
            rows.append(text)
        label, end = "", index
        if len(rows) == MAX_ROWS:
            break
    return rows, end


def _figure_lines(lines: Sequence[str], at: int) -> tuple[list[str], int]:
    """The lines after the heading at ``at`` that print a figure, until the first that prints
    none past the first (a line without one before them is skipped)."""
    rows: list[str] = []
    end = at
    for index in range(at + 1, min(len(lines), at + 1 + MAX_ROWS + 2)):
        line = lines[index]
        if FIGURE_LINE_RE.search(line) and len(line.split()) <= MAX_ROW_WORDS:
            rows.append(line.strip())
            end = index
        elif rows:
            break
        if len(rows) == MAX_ROWS:
            break
    return rows, end


def _of_the_year(question: Question, heading: str) -> bool:
    named = years_in(heading)  # "FY23" is 2023: the one grammar reads it
    return not question.years or not named or bool(set(named) & set(question.years))


def outlook_block(question: Question, document: str, year: int,
                  pages: Sequence[tuple[int, str]], level: Level | None = None
                  ) -> DirectAnswer | None:
    """The outlook block of the filing's pages (page index, text), or None: the table under
    an outlook heading, or the bullets after a sentence that introduces the year's targets;
    ``level`` computes a measure's figure in the year the outlook is read against."""
    if "outlook" not in question.intents or (question.expects == "figure"
                                             and not question.metrics):
        return None  # a figure of no measure ("How much does Pfizer expect to pay to spin
        # off Upjohn?") is one sentence's, not the outlook's
    read = [(page, [line for line in text.splitlines() if line.strip()]) for page, text in pages]
    following = {page: read[i + 1] for i, (page, _) in enumerate(read[:-1])
                 if read[i + 1][0] == page + 1}
    for strict in (True, False):  # a section heading ("Fiscal 2023 Outlook") before a headline
        for page, lines in read:
            found = _table_block(question, document, year, (page, lines), strict, level,
                                 following.get(page)) or (
                None if strict else _bulleted_block(question, document, year, page, lines))
            if found is not None and _prints_asked(question, found.text):
                return found
    return None


def _prints_asked(question: Question, block: str) -> bool:
    """Whether the block prints a measure the question names, or the question names none:
    a display glass outlook answers no "What capital expenditures does Corning expect?"."""
    vocabulary = load_vocabulary()  # a growth asked is guided as its line item's range
    asked = {vocabulary.grown(m) or m for m in question.metrics}
    return not asked or bool(asked & {t.name for t in terms_in(block)})


def _bulleted_block(question: Question, document: str, year: int, page: int,
                    lines: Sequence[str]) -> DirectAnswer | None:
    """The targets a filing lists after a sentence that introduces them ("our key full-year
    fiscal 2024 targets are summarized below:"), or after any lead-in whose bullets state
    them ("With these assumptions in mind: • We expect fiscal 2018 organic net sales to
    decline between 1 and 2 percent ...", General Mills' 10-K), each bullet as printed,
    numbered."""
    for at, line in enumerate(lines):
        if not line.rstrip().endswith(":"):
            continue
        block = _bullets_after(lines, at)
        _, bullets = bullet_groups(block)
        if len(bullets) < MIN_BULLETS or not (
                TARGETS_INTRO_RE.search(line) and _of_the_year(question, line)
                or _state_targets(question, bullets)):
            continue
        intro = split_sentences(" ".join(line.split()))[-1]
        quote = "\n".join([line.strip(), *block])
        unit = printed_unit(document, year, page, quote)
        return DirectAnswer(kind="list", units=[unit], supports=quote,
                            text=f"{intro} {numbered(bullets)}.")
    return None


def _bullets_after(lines: Sequence[str], at: int) -> list[str]:
    """The bullet lines after line ``at``, each with the lines the page wrapped it onto."""
    block: list[str] = []
    for following in lines[at + 1:at + 1 + 3 * MAX_ROWS]:
        if is_bullet(following):
            block.append(following.rstrip())
        elif block and not block[-1].endswith((".", ";")):
            block.append(following.rstrip())  # the page wrapped the bullet
        else:
            break
    return block


def _state_targets(question: Question, bullets: Sequence[Sequence[str]]) -> bool:
    """Whether most bullets (each with its sub-bullets) state an expectation of a year asked
    ("We expect fiscal 2018 ..."): a forward-looking statements list names no year in each of
    its risks."""
    asked = set(question.years)
    said = [" ".join(bullet) for bullet in bullets]
    stating = [b for b in said if TARGETS_INTRO_RE.search(b) and (
        set(years_in(b)) & asked if asked else years_in(b))]
    return 2 * len(stating) > len(said)


def _table_block(question: Question, document: str, year: int,
                 read: tuple[int, Sequence[str]], strict: bool, level: Level | None = None,
                 following: tuple[int, Sequence[str]] | None = None) -> DirectAnswer | None:
    """The rows under an outlook heading that print figures, or None; ``strict``: only under
    a heading that opens the outlook section (``sections.json``), not a headline that names
    it ("Company Raises Outlook for Fiscal Year 2023" over the quarter's results). A heading
    the page ends soon after (a paragraph's first lines under it) heads the table the
    ``following`` page opens with: Lockheed Martin's Q2 2023 release."""
    page, lines = read
    for at, line in enumerate(lines):
        if (not OUTLOOK_HEADING_RE.search(line) or len(line.split()) > MAX_HEADING_WORDS
                or URL_RE.search(line)  # a printout's path ("...\\Content.Outlook\\...")
                or not _of_the_year(question, line)
                or (strict and heading_topic(line) != "outlook")):
            continue
        rows, end = _block(lines, at)
        where, printed = page, lines[at:end + 1]
        if len(rows) < MIN_ROWS and following and at >= len(lines) - 1 - MAX_LEAD_LINES:
            rows, end = _table_rows([line, *following[1]], 0)
            where, printed = following[0], following[1][:end]
        if len(rows) < MIN_ROWS or 2 * sum(bool(ESTIMATE_RE.search(r)) for r in rows) < len(rows):
            continue  # no table, or one of results ("An increase of 95% compared to 2020")
        heading = line.strip()
        quote = "\n".join(line.strip() for line in printed)  # as printed
        unit = printed_unit(document, year, where, quote)
        moves = revision_moves(rows, heading)
        moved, polarity = revision_text(moves), revised_yes_no(question, moves)
        block = f"{heading.rstrip(': ')}: {'; '.join(r.rstrip(' .;') for r in rows)}."
        against = (read_against_year(question, rows, heading, level, moves is not None)
                   if level is not None else None)
        if against is not None:
            return DirectAnswer(kind="yes_no" if against.polarity else "comparison",
                                units=[unit], supports=quote, computed=against.cited,
                                text=f"{against.text} {block}")
        # the figures asked lead; a change asked, the revision
        if question.expects == "figure" and not polarity and not question.phrased(
                "outlook_change"):
            return DirectAnswer(kind="list", units=[unit], supports=quote,
                                text=block + (f" {moved}." if moved else ""))
        return DirectAnswer(kind="yes_no" if polarity else "list", units=[unit], supports=quote,
                            text=(f"{polarity} " if polarity else "")
                            + (f"{moved}. " if moved else "") + block)
    return None


def _midpoint(found: re.Match[str]) -> float:
    """The middle of a printed range ("$11.0 billion to $11.1 billion", "-1% to 1%"), in units;
    a scale printed once ("$10.95 to $11.05 billion") holds for both ends."""
    ends = [found["lo"], found["hi"] or found["lo"]]
    return sum(_amount(end, " ".join(ends)) for end in ends) / 2


def _amount(text: str, range_text: str) -> float:
    """A printed amount in units: its sign, digits and scale (else the range's scale)."""
    number = SIGNED_NUMBER_RE.search(text)
    if number is None:
        return 0.0
    scale = SCALE_RE.search(text) or SCALE_RE.search(range_text)
    value = float(number["n"].replace(",", "")) * (SCALE_WORDS[scale[0].lower()] if scale else 1)
    return -value if number["sign"] else value


def _moved_by(change: float, row: str) -> str:
    """How far a guided measure moved, in its own units: a percentage's in basis points
    ("20 basis points lower"), dollars in the scale that fits ("$50 million higher"), a count
    as a count; an analyst reads a revision by its size, not only its direction."""
    way = "higher" if change > 0 else "lower"
    size = abs(change)
    if "%" in row:
        return f"{round(size * 100):,} basis points {way}"
    if "$" in row:
        for word, scale in sorted(SCALE_WORDS.items(), key=lambda item: -item[1]):
            if size >= scale:
                return f"${size / scale:,.{2 if size / scale < 10 else 0}f} {word} {way}" \
                    .replace(".00 ", " ")
        return f"${size:,.2f} {way}"
    return f"{size:,g} {way}"


Moves = dict[str, list[tuple[str, str]]]  # way moved -> (the measure's label, what it says)


def _updated_first(line: str, heading: bool = False) -> bool:
    """Whether a line heads a revision's columns updated range first: an updated word with no
    prior word before it, then the prior column named by a prior word or, in the columns'
    own line (not a heading: "Updated 2023 Outlook (July 2023)"), by its month and year."""
    updated = UPDATED_WORD_RE.search(line)
    if updated is None or PRIOR_WORD_RE.search(line[:updated.start()]):
        return False
    after = line[updated.end():]
    return bool(PRIOR_WORD_RE.search(after) or not heading and MONTH_YEAR_RE.search(after))


def revision_moves(rows: Sequence[str], heading: str = "") -> Moves | None:
    """Each measure of a revised outlook by the way it moved ("raised", "lowered",
    "unchanged"): a row's prior and updated ranges compared by their midpoints, "no change"
    read as printed; None when the block prints no prior and updated columns (in its first
    rows or in its heading: "Prior FY23 Outlook Updated FY23 Outlook")."""
    head = [heading, *rows[:2]]
    updated_first = _updated_first(heading, True) or any(_updated_first(r) for r in rows[:2])
    if not (updated_first or any(REVISION_RE.search(r) for r in head)
            or any(PREVIOUSLY_RE.search(r) for r in rows)):
        return None
    moved: Moves = {"raised": [], "lowered": [], "unchanged": []}
    units = next((m for r in head if (m := LABEL_SCALE_RE.search(r))), None)  # "(in millions)"
    # a block that revises rows in place ("(previously ...)"): a row of one range was kept
    inline = not updated_first and not any(REVISION_RE.search(r) for r in head) and any(
        PREVIOUSLY_RE.search(r) for r in rows)
    for row in rows:
        header = _updated_first(row) and not re.search(r"[$%]", row)  # the columns' line
        ranges = [] if REVISION_RE.search(row) or header else [
            r for r in RANGE_RE.finditer(row) if not MARKER_RE.fullmatch(r.group(0))]
        label = MARKER_AFTER_RE.sub("", row[:ranges[0].start()].strip(" :,~≥≤$(")) if ranges else ""
        if not label:
            continue
        # the heading's scale is the row's amounts', never a per-share figure's, a count's (no
        # "$": "New stores, net 25-30") or a percentage's
        scaled = units if units and not SCALE_RE.search(row) and "$" in row and not (
            PER_SHARE_LABEL_RE.search(label)) and "%" not in row else None
        if len(ranges) == 1 and (NO_CHANGE_RE.search(row) or inline):  # kept, as it keeps
            moved["unchanged"].append((label, f"{label.lower()} ({_in_scale(ranges[0], scaled)})"))
        elif len(ranges) == 2:
            if updated_first or PREVIOUSLY_RE.search(row):
                ranges.reverse()
            scale = SCALE_WORDS[scaled[1].lower()[:-1]] if scaled else 1.0
            before, after = (scale * _midpoint(r) for r in ranges)
            way = "raised" if after > before else "lowered" if after < before else "unchanged"
            then, now = (_in_scale(r, scaled) for r in ranges)
            moved[way].append((label, f"{label.lower()} ({now})" if way == "unchanged" else
                               f"{label.lower()} to {now} (from {then}; "
                               f"{_moved_by(after - before, row)} at the midpoint)"))
    return moved


def _in_scale(found: re.Match[str], units: re.Match[str] | None) -> str:
    """A printed range with the scale its table's heading prints written after each end
    ("$66,250 million - $66,750 million" under "(in millions)"): an amount read out of its
    table names its unit, or "$8,150" is eight thousand dollars."""
    if units is None:
        return found.group(0)
    word = units[1].lower()[:-1]
    return RANGE_AMOUNT_RE.sub(lambda m: f"{m[0]} {word}", found.group(0))


def revision_text(moved: Moves | None) -> str | None:
    if moved is None or not moved["raised"] and not moved["lowered"]:
        return None
    verb = ("Raised" if not moved["lowered"] else "Lowered" if not moved["raised"]
            else "Revised")
    parts = [f"{way + ' ' if verb == 'Revised' else ''}{', '.join(d for _, d in items)}"
             for way, items in moved.items() if items and way != "unchanged"]
    if moved["unchanged"]:
        parts.append(f"unchanged: {', '.join(d for _, d in moved['unchanged'])}")
    return f"{verb} its outlook: {'; '.join(parts)}"


def _measures_named(question: Question, moved: Moves) -> Moves | None:
    """The measures of ``moved`` the question's own clause names, every word of a row's label
    ("New stores, net": "new stores"; a concessive clause after a comma, "... even as net
    sales rose", names none); all of them when it names no measure before "outlook" or
    "guidance" ("Did X raise its fiscal 2023 guidance?"); None when it names one no label
    prints."""
    clause = question.clause
    said = set(words(clause))
    before = OUTLOOK_OF_RE.search(clause)
    measure = {w for w in words(before["what"]) if not PERIOD_WORD_RE.fullmatch(w)
               and w not in LINKING_WORDS and not w.isdigit()} if before else set()

    def names(label: str) -> bool:  # every word of the label, or the label holds the measure
        printed = set(words(LABEL_NET_RE.sub("", label)))  # "diluted earnings per share"
        return printed <= said or bool(measure) and measure <= printed

    named: Moves = {way: [(label, d) for label, d in items if names(label)]
                    for way, items in moved.items()}
    if any(named.values()):
        return named
    return None if measure or question.metrics or question.qualified else moved


def revised_yes_no(question: Question, moved: Moves | None) -> str | None:
    """"Yes." or "No." to a yes or no asking which way the outlook moved ("Did X raise its
    guidance?", "... lower its operating margin outlook?", "... reaffirm ...?"), read from the
    revised block's measures the question names (:func:`_measures_named`). A raise asked is a
    yes when a measure was raised and none lowered, a no when none was raised; a kept outlook
    asked, a yes when nothing moved. None when the question asks no way of the outlook itself
    (a measure's move, "imply operating margin expansion", is asked against the year), the
    block is no revision, a measure named is not printed, or the measures moved both ways and
    the question names none (the revision's own words say each)."""
    asked = OUTLOOK_WAYS.get(question.way) if question.way else None
    if (asked is None or moved is None or question.expects != "yes_no"
            or not question.phrased("outlook_revision")):
        return None
    ways = _measures_named(question, moved)
    if ways is None:
        return None
    up, down = bool(ways["raised"]), bool(ways["lowered"])
    if asked == "unchanged":
        return "No." if up or down else "Yes."
    if up and down:
        return None
    return "Yes." if ways[asked] else "No."


class Guided(NamedTuple):
    """A measure's row of an outlook: its label, its range as printed, its ends in the
    measure's own unit (a percentage as a fraction, dollars in dollars) and the decimals its
    figures are printed to, in the scale printed (the precision it is read at)."""

    label: str
    printed: str
    low: float
    high: float
    decimals: int
    scale: float


class Against(NamedTuple):
    """An outlook's range read against the year's figure: the sentence, its "Yes." or "No."
    (empty when the range is on both sides or in line) and the statement rows the figure is
    read from."""

    text: str
    polarity: str
    cited: list[SourceCitation]


def guided_row(question: Question, rows: Sequence[str], metric: str, unit: Unit,
               heading: str, revised: bool) -> Guided | None:
    """The row whose label names ``metric`` and prints its range in the metric's unit (a
    percentage for a ratio in percent, dollars for an amount or per share; a revision's
    updated range, its last), a scale its label or heading prints ("(in millions)") applied;
    never a row of an adjusted figure the question does not ask, nor of a measure's change
    ("Operating margin change"); None when no row does."""
    for row in rows:
        ranges = list(RANGE_RE.finditer(row))
        if not ranges or len(ranges) > (2 if revised else 1):
            continue
        label, found = row[:ranges[0].start()].strip(" :,"), ranges[-1]
        printed = found.group(0).strip()
        if (not label or metric not in {t.name for t in terms_in(label)}
                or ("%" in printed) != (unit == "percent")
                or ("$" in printed) != unit.startswith("USD")
                or ADJUSTED_RE.search(label) and not ADJUSTED_RE.search(question.text)
                or CHANGE_LABEL_RE.search(label)):
            continue
        ends = [found["lo"], found["hi"] or found["lo"]]
        scale = _scale_of(printed, f"{label} {heading}") if unit == "USD" else 1.0
        values = [_amount(end, printed) * scale / (100 if unit == "percent" else 1)
                  for end in ends]
        decimals = max(len(d) for d in (DECIMALS_RE.findall(" ".join(ends)) or [""]))
        in_scale = LABEL_SCALE_RE.search(f"{label} {heading}") if scale != 1.0 else None
        return Guided(label=LABEL_NET_RE.sub("", LABEL_SCALE_PAREN_RE.sub("", label)),
                      printed=f"{printed} ({in_scale[0]})" if in_scale else printed,
                      low=min(values), high=max(values), decimals=decimals,
                      scale=_printed_scale(printed) * scale)
    return None


def _scale_of(printed: str, around: str) -> float:
    """The scale a label or heading prints for a range that prints none ("Net sales (in
    millions) $10,950 to $11,050"); 1 when the range prints its own or none is printed."""
    if SCALE_RE.search(printed) or (found := LABEL_SCALE_RE.search(around)) is None:
        return 1.0
    return float(SCALE_WORDS[found[1].lower().removesuffix("s")])


def _printed_scale(printed: str) -> float:
    found = SCALE_RE.search(printed)
    return float(SCALE_WORDS[found[0].lower()]) if found else 1.0


def _year_against(question: Question, heading: str, revised: bool) -> int | None:
    """The year an outlook is read against: the one the question names before the
    outlook's ("versus fiscal 2021"), else the year before it, the year the release reports
    (a revision's own moves answer unless the question names one); None for an outlook of
    a quarter or a half, or one whose heading names no year."""
    named = years_in(heading)
    if not named or months_asked(heading) < MONTHS_PER_YEAR:  # a quarter's, a half's
        return None
    earlier = [y for y in question.years if y < max(named)]
    if earlier:
        return max(earlier)
    return None if revised else max(named) - 1


def read_against_year(question: Question, rows: Sequence[str], heading: str,
                      level: Level, revised: bool = False) -> Against | None:
    """The range of the measure asked, read against the measure's figure in the year the
    outlook is compared with (:func:`_year_against`): for a yes or no that asks it to move,
    and for the growth a range implies ("What net sales growth does the outlook imply?"; a
    pace of growth, "faster than", is no level's move). None when the question asks
    neither, names no measure a row guides, or no year is read against."""
    vocabulary = load_vocabulary()
    yes_no = question.expects == "yes_no"
    side = SIDE_ASKED.get(question.way or "") if yes_no else 0
    reported = _year_against(question, heading, revised)
    if side is None or reported is None or question.phrased("negated_clause"):
        return None
    for asked in question.metrics:
        metric = vocabulary.grown(asked) or asked  # "net sales growth": net sales guided
        grown = metric != asked
        if (not yes_no and not grown) or (grown and (question.phrased("pace")
                                                      or question.way in ("better", "worse",
                                                                          "down"))):
            continue  # a level asked is the range itself: the block answers
        computed = level(metric, reported)
        if computed is None or computed.value is None:
            continue
        unit = base_unit(computed.question, vocabulary)
        guided = guided_row(question, rows, metric, unit, heading, revised)
        if guided is None:
            continue
        definition = vocabulary.metrics.get(metric)
        if question.way in ("better", "worse"):
            if definition is None or definition.better is None:
                continue  # which way is better the vocabulary says of a metric only
            side = -side if definition.better == "lower" else side
        return _against(guided, computed, unit, side, heading, reported)
    return None


def _against(guided: Guided, computed: MetricAnswer, unit: Unit, side: int, heading: str,
             reported: int) -> Against:
    """The sentence that reads ``guided`` against the year's figure at the precision the
    range prints (an analyst reads 16.1% against 14.7% to 15.0%: 110 to 140 basis points;
    "approximately $900 million" against $900.033 million: in line)."""
    value = computed.value or 0.0
    shown = format_value(value, unit, computed.question.decimals)
    if unit == "percent":
        actual = round(value * 100, max(guided.decimals, 1)) / 100
        compared = actual
    else:
        actual = value
        compared = round(value / guided.scale, guided.decimals) * guided.scale
    above, below = guided.low > compared, guided.high < compared
    where = ("in line with" if guided.low == guided.high == compared else
             "around" if not (above or below) else
             f"{_gap(guided, actual, unit)}{'above' if above else 'below'}")
    polarity = ("Yes." if above == (side > 0) else "No.") if side and (above or below) else ""
    text = (f"{polarity + ' ' if polarity else ''}The {heading.rstrip(': ')} guides "
            f"{guided.label.lower()} to {guided.printed}, {where} the {shown} of "
            f"FY{reported}. {computed.headline}")
    return Against(text=text, polarity=polarity,
                   cited=[o.citation() for o in computed.operands])


def _gap(guided: Guided, actual: float, unit: Unit) -> str:
    """How far the range's ends are from the year's figure, with a space after it: basis
    points for a percentage, a percentage for an amount (none against a loss or nothing);
    one size for a single figure."""
    ends = sorted({guided.low, guided.high})
    if unit == "percent":
        sizes = sorted({f"{round(abs(end - actual) * 10000):,}" for end in ends}, key=float)
        said = " to ".join(sizes) + " basis points"
    elif actual > 0:
        gaps = sorted({round(abs(end / actual - 1) * 100, 1) for end in ends})
        said = " to ".join(f"{gap:.1f}%" for gap in gaps)
    else:
        return ""
    return f"{said} "
