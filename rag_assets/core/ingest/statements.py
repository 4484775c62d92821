"""What a page of a 10-K is: a primary financial statement, the segment note, MD&A, or other.

Analysts ask for figures that live on a handful of pages ("capex as a % of revenue" needs the
cash flow statement and the income statement). Knowing which page is which lets a chunk carry
its statement in its header and lets retrieval prefer the statements a question needs.

A primary statement is recognised by its printed title at the top of the page ("Consolidated
Balance Sheets", "CONSOLIDATED STATEMENTS OF CASH FLOWS"; the company name, "Table of Contents"
and a page number may come first) together with the page being a page of figures. The title
alone is not enough: MD&A prose names "the consolidated statements of cash flows", the auditor's
report names every statement, and the index of financial statements lists every title with its
page number. The 10-K Item in force on a page (the last Item heading before it, tables of
contents ignored) separates MD&A (Item 7) from the notes (Item 8). Plain Python, no model: it
runs at ingest on every page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from rag_assets.core.ingest.pages import TABLE_PLACEHOLDER_RE, Page
from rag_assets.core.text.figures import FIGURE_RE, NIL_IN_TEXT_RE
from rag_assets.core.text.filing_kinds import FORM_10K_SUMMARY_TITLE
from rag_assets.core.text.markers import SUPERSCRIPT_DIGITS
from rag_assets.core.text.prose import UNITS_NOTE_RE
from rag_assets.core.text.years import PAGE_YEAR_RE

StatementKind = Literal[
    "income_statement",  # statement of operations / income / earnings
    "balance_sheet",  # balance sheet / statement of financial position
    "cash_flow",  # statement of cash flows
    "equity",  # statement of shareholders' / stockholders' / shareowners' equity
    "comprehensive_income",  # statement of comprehensive income (loss)
    "segment_note",  # the note on business / operating / reportable segments
    "mdna",  # a page of Item 7, Management's Discussion and Analysis, not a statement
]
STATEMENT_KINDS: tuple[StatementKind, ...] = (
    "income_statement", "balance_sheet", "cash_flow", "equity", "comprehensive_income",
    "segment_note", "mdna",
)
PRIMARY_STATEMENTS: tuple[StatementKind, ...] = STATEMENT_KINDS[:5]
STATEMENT_TITLES: dict[StatementKind, str] = {
    "income_statement": "Consolidated Statements of Income",
    "balance_sheet": "Consolidated Balance Sheets",
    "cash_flow": "Consolidated Statements of Cash Flows",
    "equity": "Consolidated Statements of Shareholders' Equity",
    "comprehensive_income": "Consolidated Statements of Comprehensive Income",
    "segment_note": "Segment Information (Notes to Consolidated Financial Statements)",
    "mdna": "Management's Discussion and Analysis",
}

# --- 10-K Items ----------------------------------------------------------------------------------

# Item number -> (words its printed title starts with, the short form returned). The words tell
# a heading from a cross reference ("Item 8 of this Annual Report" has none of them).
ITEM_TITLES: dict[str, tuple[str, str]] = {
    "1": ("business", "Business"),
    "1A": ("risk factors", "Risk Factors"),
    "1B": ("unresolved staff", "Unresolved Staff Comments"),
    "1C": ("cybersecurity", "Cybersecurity"),
    "2": ("properties", "Properties"),
    "3": ("legal proceedings", "Legal Proceedings"),
    "4": ("mine safety", "Mine Safety Disclosures"),
    "5": ("market for", "Market for Registrant's Common Equity"),
    "6": ("selected|reserved|removed", "Selected Financial Data"),
    "7": ("management", "Management's Discussion and Analysis"),
    "7A": ("quantitative", "Quantitative and Qualitative Disclosures About Market Risk"),
    "8": ("financial statements", "Financial Statements and Supplementary Data"),
    "9": ("changes in", "Changes in and Disagreements with Accountants"),
    "9A": ("controls", "Controls and Procedures"),
    "9B": ("other information", "Other Information"),
    "9C": ("disclosure regarding", "Disclosure Regarding Foreign Jurisdictions"),
    "10": ("directors", "Directors, Executive Officers and Corporate Governance"),
    "11": ("executive compensation", "Executive Compensation"),
    "12": ("security ownership", "Security Ownership of Certain Beneficial Owners"),
    "13": ("certain relationships", "Certain Relationships and Related Transactions"),
    "14": ("principal account", "Principal Accountant Fees and Services"),
    "15": ("exhibits", "Exhibits and Financial Statement Schedules"),
    "16": (FORM_10K_SUMMARY_TITLE, "Form 10-K Summary"),
}
MDNA_ITEM = "Item 7. Management's Discussion and Analysis"
STATEMENTS_ITEM = "Item 8. Financial Statements and Supplementary Data"
# Items after which a registrant may append its financial statements (Item 8 then says "see
# Item 15"): the auditor's report that opens them brings Item 8 back in force.
TRAILING_ITEMS = {"Item 15", "Item 16"}

ITEM_RE = re.compile(
    r"^\s*(?:part\s+[iv]{1,3}\s*[,.:;—–-]?\s*)?item\s+(?P<n>\d{1,2}[a-c]?)\s*(?:[.:—–-]\s*|\s+)"
    r"(?P<title>\S.*)$",
    re.IGNORECASE,
)
# a table of contents line: ends in a page number (4, F-1, A-3) or dot leaders
PAGE_REF_RE = re.compile(r"(?:\s(?:[A-Z]-)?\d{1,3}|\.{4,}\s*(?:[A-Z]-)?\d{0,3})\s*$")
# words that make an Item line a sentence, not a heading ("Item 1A. Risk Factors section in this
# Form 10-K", "Item 8 of this Annual Report")
REFERENCE_WORDS_RE = re.compile(
    r"\b(?:this|herein|hereof|see|refer|included|incorporated|section|below|above)\b",
    re.IGNORECASE,
)
# a line that carries on into the next: an Item line after it is a cross reference
OPEN_END_RE = re.compile(
    r"\b(?:see|in|under|to|of|and|also|within|entitled|captioned|our|the|at|by|from|with|"
    r"refer|part\s+[iv]+,)\s*[\"“‘]?\s*$",
    re.IGNORECASE,
)
MAX_ITEMS_IN_BODY = 6  # Part III pages hold up to six short Item headings (10 to 14, 9B)


def _squash_letters(text: str) -> str:
    """Join a letter the PDF split from its word ("Incom e", "Shee t", "Busines s.")."""
    return re.sub(r"(?<=[A-Za-z]{2}) (?=[B-HJ-Zb-z]\b)", "", text)


def item_heading(line: str) -> tuple[str, str] | None:
    """An "Item N. Title" line as (number, lower-case title), the title's split letters joined;
    None for a line too long to be a heading, a contents line ending in a page number, or no
    Item at all. What the title must say is the caller's: 10-K, 10-Q and 8-K Items differ."""
    text = " ".join(line.split())
    if not text or len(text) > 160 or PAGE_REF_RE.search(text):
        return None
    match = ITEM_RE.match(text)
    if not match:
        return None
    title = _squash_letters(match.group("title")).lower().replace("’", "'")
    return match.group("n").upper(), title


def item_of(line: str) -> str | None:
    """The 10-K Item a heading line opens, as ``"Item 7. Management's Discussion and Analysis"``.

    A line that only cites an Item ("Item 8 of this Annual Report", "Item 1A. Risk Factors
    section in this Form 10-K") or lists it in a table of contents ("Item 7. ... 25") is not a
    heading and gives None.
    """
    heading = item_heading(line)
    if heading is None:
        return None
    number, title = heading
    entry = ITEM_TITLES.get(number)
    if entry is None:
        return None
    starts, short = entry
    if not re.match(rf"(?:the\s+)?(?:\[\s*)?(?:{starts})", title):
        return None
    if REFERENCE_WORDS_RE.search(title):
        return None
    if number == "6" and re.search(r"reserved|removed", title):
        short = "[Reserved]"
    return f"Item {number}. {short}"


def _is_contents_page(lines: Sequence[str], headings: int) -> bool:
    """A table of contents: three or more Item lines, some of them ending in a page number, or
    more Item headings than a body page ever holds."""
    if headings > MAX_ITEMS_IN_BODY:
        return True
    if headings + _listed_items(lines) < 3:
        return False
    return _listed_items(lines) > 0


def is_contents_page(lines: Sequence[str]) -> bool:
    """Whether a page is a table of contents (:func:`_is_contents_page` on its Item lines):
    the page no Item is set by, asked of a whole page."""
    return _is_contents_page(lines, len(_page_items(lines)))


def _listed_items(lines: Sequence[str]) -> int:
    return sum(
        1 for line in lines
        if ITEM_RE.match(" ".join(line.split())) and PAGE_REF_RE.search(line.rstrip())
    )


def _page_items(lines: Sequence[str]) -> list[str]:
    """The Item headings of a page, in order, leaving out cross references that wrapped onto a
    line of their own ("... see" / "Item 1A - Risk Factors.")."""
    found: list[str] = []
    previous = ""
    for line in lines:
        if not line.strip():
            continue
        item = item_of(line)
        if item and not OPEN_END_RE.search(previous):
            found.append(item)
        elif item is None and (run_on := RUN_ON_HEADING_RE.search(line)):
            # a heading the text layer ran onto the sentence above it, set in capitals to the
            # line's end (Nike 2019 p20: "... through the year 2043 . ITEM 3. LEGAL
            # PROCEEDINGS"): a cross reference is never in capitals after a sentence's end
            found.extend(filter(None, [item_of(run_on.group("heading"))]))
        previous = line
    return found


# an Item heading in capitals after a sentence's end, running to the end of its line
RUN_ON_HEADING_RE = re.compile(
    r"(?<=[a-z0-9)\s])[.!?]\s+(?P<heading>ITEM\s+\d{1,2}[A-C]?\.\s+[A-Z][A-Z ,'’&()-]{3,})\s*$")


EXHIBIT_RE = re.compile(r"^\s*exhibit\s+(\d{1,3}(?:\.\d{1,3}[a-z]?)?)\s*$", re.IGNORECASE)
AUDITOR_REPORT_RE = re.compile(
    r"^\s*(?:report\s+of\s+independent\s+registered\s+public\s+accounting\s+firm"
    r"|index\s+to\s+(?:the\s+)?(?:consolidated\s+)?financial\s+statements)\b",
    re.IGNORECASE,
)


def exhibit_of(lines: Sequence[str]) -> str | None:
    """The exhibit a page belongs to, from the label printed at its top ("Exhibit 99.3")."""
    for line in _top(lines, 3):
        if match := EXHIBIT_RE.match(line):
            return f"Exhibit {match.group(1)}"
    return None


def items_by_page(pages: Sequence[Sequence[str]]) -> list[str | None]:
    """The Item in force on each page: the last Item heading seen up to the end of that page.

    Tables of contents do not set it. Financial statements a registrant appends after Item 15
    ("Item 8. ... see Item 15") are Item 8 again from the auditor's report (or the index of
    statements) that opens them. Exhibits filed with the 10-K (a plan, an affiliate's
    financial statements) are no Item: from their label ("Exhibit 99.3") on, that label.
    """
    out: list[str | None] = []
    current: str | None = None
    for lines in pages:
        found = _page_items(lines)
        exhibit = exhibit_of(lines)
        if found and not _is_contents_page(lines, len(found)):
            current = found[-1]
        elif exhibit:
            current = exhibit
        elif (
            current is not None
            and current.split(".")[0] in TRAILING_ITEMS
            and any(AUDITOR_REPORT_RE.match(line) for line in _top(lines, 6))
        ):
            current = STATEMENTS_ITEM
        out.append(current)
    return out


# --- statement pages -----------------------------------------------------------------------------

TOP_LINES = 6  # the title sits under "Table of Contents", the company name and a page number
_OWNERS = r"(?:share|stock)(?:holder|owner)s?['’]?\s*(?:equity|deficit|investment)"
_EQUITY = (
    rf"(?:changes\s+in\s+)?(?:total\s+)?(?:{_OWNERS}|equity|shareholders?['’]?\s+equity"
    rf"|(?:members|partners)['’]?\s+(?:equity|capital))"
)
_OF = r"statements?\s+of\s+(?:consolidated\s+)?"
# (kind, pattern of the title after "Consolidated"/"Combined"), first match wins
_TITLE_SOURCES: tuple[tuple[StatementKind, str], ...] = (
    ("comprehensive_income", r"statements?\s+of\s+comprehensive\s+(?:income|loss|earnings)"),
    ("cash_flow", rf"{_OF}cash\s+flows?|cash\s+flows?\s+statements?"),
    ("balance_sheet", rf"balance\s+sheets?|{_OF}financial\s+(?:position|condition)"),
    ("equity", rf"{_OF}{_EQUITY}"),
    ("income_statement", rf"{_OF}(?:operations|income|earnings)|income\s+statements?"),
)
TITLE_PATTERNS: tuple[tuple[StatementKind, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in _TITLE_SOURCES
)
TITLE_HEAD_RE = re.compile(
    # "NIKE, Inc. Consolidated Statements of Income" (the company first, Nike 2018),
    # "CONDENSED CONSOLIDATED BALANCE SHEETS" (10-Qs, earnings releases)
    # "MGM RESORTS INTERNATIONAL AND SUBSIDIARIES CONSOLIDATED STATEMENTS OF ..." (MGM 2019)
    r"^(?:[A-Z][\w.,&'’ -]{0,60}?\b(?:inc|corp|corporation|company|companies|co|plc|ltd|"
    r"subsidiaries|international|incorporated|holdings|group)\.?,?\s+)?"
    r"(?:the\s+)?(?:condensed\s+)?(?:(?:consolidated|combined)\s+)?(?:condensed\s+)?"
    r"(?P<title>(?:statements?|balance|income|cash)\b.*)$",
    re.IGNORECASE,
)
# what may follow a title on its line: "(continued)", "(In millions)", a company name
CONTINUED_RE = re.compile(r"^[\s,—–-]*\(?(?:continued|cont['’]d)\)?\s*$", re.IGNORECASE)
PARENTHESIS_RE = re.compile(r"^\s*\([^)]*\)\s*$")
COMPANY_WORDS_RE = re.compile(
    r"\b(?:inc|incorporated|corp|corporation|company|companies|subsidiaries|co|llc|plc|ltd|"
    r"limited|international|holdings|group)\b\.?",
    re.IGNORECASE,
)
WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’]+")
MIN_FIGURES = 10  # the shortest statement pages (comprehensive income) print 17-30
TABLE_FIGURES = 30  # a table left as its placeholder: a short statement's worth
MIN_FIGURE_SHARE = 0.12  # figures among figures + words; MD&A prose runs 2-8%, statements 15-45%
SEGMENT_RE = re.compile(r"\bsegments?\b", re.IGNORECASE)
NOTE_HEADING_RE = re.compile(
    r"^\s*(?:note\s+(?P<n>\d{1,2})\s*[.:—–-]\s*|(?P<m>\d{1,2})\s*\.\s+)(?P<title>[A-Z].{2,100})$",
    re.IGNORECASE,
)
TITLE_SMALL_WORDS = {"and", "of", "on", "the", "for", "in", "to", "&"}
BARE_SEGMENT_HEADING_RE = re.compile(
    r"^\s*(?:business\s+|operating\s+|reportable\s+)?segments?\s+(?:and\s+geographic(?:al)?\s+)?"
    r"(?:information|reporting|data)\s*(?:\(continued\))?\s*$",
    re.IGNORECASE,
)


def page_lines(page: Page) -> list[str]:
    """A page's lines with its tables rendered in place, as the classifier reads them."""
    out: list[str] = []
    for line, table in page.lines_with_tables():
        out.extend(table.markdown().split("\n") if table else [line])
    return out


def _top(lines: Sequence[str], n: int) -> list[str]:
    return [line for line in lines if line.strip()][:n]


TITLE_WORDS = frozenset((
    "consolidated", "condensed", "combined", "statement", "statements", "operations", "income",
    "earnings", "comprehensive", "balance", "sheet", "sheets", "cash", "flows", "financial",
    "position", "condition", "shareholders", "stockholders", "equity", "changes",
))


def _join_title_words(text: str) -> str:
    """A title word the PDF split in two ("Statem ents", "Comp rehensive": Corning 2018) joined,
    and a split word's tail left before the title ("heets Consolidated Balance Sheets")."""
    words = text.split(" ")
    out: list[str] = []
    for word in words:
        if out and (out[-1] + word).lower() in TITLE_WORDS and out[-1].lower() not in TITLE_WORDS:
            out[-1] += word
        else:
            out.append(word)
    if len(out) > 1 and out[0][:1].islower() and any(
            w.endswith(out[0]) and w != out[0] for w in TITLE_WORDS):
        out = out[1:]
    return " ".join(out)


# a page's head run together into one line or one table cell by the PDF (General Mills 2015:
# "Table of Contents Consolidated Statements of Earnings GENERAL MILLS, INC. AND SUBSIDIARIES
# (In Millions, Except per Share Data) Fiscal Year 2015 2014 2013"): furniture before the
# title, and after it the units in parentheses and the columns' years
HEAD_FURNITURE_RE = re.compile(r"^(?:[A-Z]\w*\s+)?(?:table\s+of\s+contents|index)\s+", re.I)
RUN_ON_HEAD = 300  # characters of a run-on line read for its title


def statement_title(line: str) -> StatementKind | None:
    """The primary statement a line is the title of, or None (prose that names a statement, an
    index line ending in its page number, "Consolidated Statements of Operations Data")."""
    text = _join_title_words(_squash_letters(" ".join(line.replace("|", " ").split())))
    return _title_of(text) or _run_on_title(text)


def _run_on_title(text: str) -> StatementKind | None:
    """The title of a page head run together with its furniture, units and years."""
    head = HEAD_FURNITURE_RE.sub("", text[:RUN_ON_HEAD])
    match = TITLE_HEAD_RE.match(head)
    if match is None or not head[:1].isupper():
        return None
    title = match.group("title")
    for kind, pattern in TITLE_PATTERNS:
        found = pattern.match(title)
        if found:
            rest = title[found.end():]
            units = UNITS_NOTE_RE.search(rest)
            if units and len(PAGE_YEAR_RE.findall(rest[units.end():])) >= 2:
                return kind
            return None
    return None


def _title_of(text: str) -> StatementKind | None:
    """The statement a whole line titles: the title, then nothing but a marker, "(continued)",
    a parenthesis or a company name."""
    if (
        not text
        or len(text) > 140
        or not text[0].isupper()  # "consolidated balance sheet (in millions):" ends a sentence
        or text.endswith(":")
        or PAGE_REF_RE.search(text)
    ):
        return None
    head = TITLE_HEAD_RE.match(text)
    if not head:
        return None
    title = head.group("title")
    for kind, pattern in TITLE_PATTERNS:
        match = pattern.match(title)
        if match:
            rest = title[match.end():]
            if kind == "income_statement":  # "... of Operations and Comprehensive Income (Loss)"
                rest = re.sub(
                    r"^\s*and\s+(?:other\s+)?comprehensive\s+(?:income|loss|earnings)"
                    r"(?:\s*\((?:loss|income)\))?|^\s*and\s+retained\s+earnings",
                    "", rest, flags=re.IGNORECASE,
                )
            if kind == "equity":  # "... Total Equity and Redeemable Interest"
                rest = re.sub(r"^\s*and\s+redeemable\s+(?:non-?controlling\s+)?interests?", "",
                              rest, flags=re.IGNORECASE)
            return kind if _title_tail(rest) else None
    return None


def _title_tail(rest: str) -> bool:
    """What follows a title on its line is nothing, "(Loss)", "(continued)", a parenthesis or a
    company name; never a sentence."""
    rest = re.sub(r"^\s*\((?:loss|income|deficit)\)", "", rest, flags=re.IGNORECASE)
    rest = rest.lstrip(SUPERSCRIPT_DIGITS)  # a note marker: "Statements of Earnings¹" (Lockheed)
    rest = re.sub(r"\s*\(?(?:continued|cont['’]d)\)?\s*$", "", rest, flags=re.IGNORECASE)
    rest = rest.strip(" ,—–-:")
    if not rest or PARENTHESIS_RE.match(rest) or CONTINUED_RE.match(rest):
        return True
    words = rest.split()
    return (
        len(words) <= 8
        and bool(COMPANY_WORDS_RE.search(rest))
        and all(w[:1].isupper() or w.lower() in TITLE_SMALL_WORDS for w in words)
    )


def figure_share(lines: Sequence[str]) -> tuple[int, float]:
    """Figures on a page (years left out) and their share of figures + words.

    A table left as its ``[[TABLE n]]`` placeholder (``Page.lines``) counts as a page's worth
    of figures: under a statement title it is the statement. Rendered tables
    (:func:`page_lines`) are counted figure by figure.
    """
    placeholders = sum(1 for line in lines if TABLE_PLACEHOLDER_RE.match(line.strip()))
    text = "\n".join(lines)
    figures = (
        len(FIGURE_RE.findall(text)) + len(NIL_IN_TEXT_RE.findall(text))
        - len(PAGE_YEAR_RE.findall(text)) + placeholders * TABLE_FIGURES
    )
    words = len(WORD_RE.findall(text))
    total = figures + words
    return figures, (figures / total if total else 0.0)


def is_figures_page(lines: Sequence[str]) -> bool:
    """Enough figures, dense enough: a statement, not prose that names one."""
    figures, share = figure_share(lines)
    return figures >= MIN_FIGURES and share >= MIN_FIGURE_SHARE


def page_statement(lines: Sequence[str]) -> StatementKind | None:
    """The primary statement whose title heads the page, if the page is one of figures.

    A page that lists three or more statement titles is an index (or the list in Item 15),
    whatever its figures (years and page numbers look like figures).
    """
    kinds = [k for k in (statement_title(line) for line in _top(lines, TOP_LINES)) if k]
    if not kinds:
        return None
    listed = {k for k in (statement_title(line) for line in lines) if k}
    if len(listed) >= 3:
        return None
    return kinds[0] if is_figures_page(lines) else None


def note_heading(line: str) -> str | None:
    """The title of a note heading ("NOTE 18. Business Segments", "Note 21: Segment
    Information", "19. Reportable Segments (Continued)"), or None."""
    text = " ".join(line.split())
    if len(text) > 110 or PAGE_REF_RE.search(text):
        return None
    match = NOTE_HEADING_RE.match(text)
    if not match:
        return None
    title = match.group("title")
    if match.group("m") is not None:  # a bare "19. Title": short, in title case, no sentence
        words = title.split()
        if len(words) > 10 or title.rstrip().endswith(".") or not all(
            w[:1].isupper() or w[:1] in "(&-–—" or w.lower() in TITLE_SMALL_WORDS for w in words
        ):
            return None
    return title


def segment_heading(lines: Sequence[str], item: str | None = None) -> bool | None:
    """True if the page's last note heading is the segment note, False if it is another note,
    None if the page opens no note. A bare "Segment Information" heading counts in Item 8."""
    state: bool | None = None
    in_notes = item is None or item == STATEMENTS_ITEM
    for line in lines:
        title = note_heading(line)
        if title is not None:
            state = bool(SEGMENT_RE.search(title))
        elif in_notes and BARE_SEGMENT_HEADING_RE.match(line):
            state = True
    return state


def classify_page(lines: Sequence[str], item: str | None = None) -> StatementKind | None:
    """What one page is, from its own lines and the Item in force.

    ``lines`` are :func:`page_lines` (tables rendered in place) or ``Page.lines`` (tables as
    ``[[TABLE n]]`` placeholders); both give the same statement pages on the 16 real 10-Ks.

    A primary statement wins over everything; then a page that opens the segment note; then a
    page of Item 7 is MD&A. Pages that carry on the segment note without its heading need the
    pages before them: :func:`classify_pages`.
    """
    kind = page_statement(lines)
    if kind is not None:
        return kind
    if item != MDNA_ITEM and segment_heading(lines, item):
        return "segment_note"
    if item == MDNA_ITEM:
        return "mdna"
    return None


MAX_SEGMENT_PAGES = 10  # a segment note runs 1-10 pages; past that a missed heading ended it


def classify_pages(pages_lines: Sequence[Sequence[str]]) -> list[StatementKind | None]:
    """Every page of a filing: :func:`classify_page` with the Item in force, a page of figures
    with no title after a statement page as that statement's continuation, and the segment
    note carried over the pages that continue it: until the next note or Item heading, or a
    page that no longer says "segment" (the page after the heading is always carried: a note
    that opens low on a page prints its tables on the next)."""
    items = items_by_page(pages_lines)
    out: list[StatementKind | None] = []
    segment_pages = 0  # pages of the segment note up to the page before, 0 when not in it
    previous_item: str | None = None
    printed: StatementKind | None = None  # the kind of the last page that prints any word
    said_segment = False  # the page before said "segment"
    for lines, item in zip(pages_lines, items, strict=True):
        kind = classify_page(lines, item)
        if kind is None and printed in PRIMARY_STATEMENTS and _continues_statement(lines):
            kind = printed
        if item != previous_item:
            segment_pages = 0
        previous_item = item
        if kind is None and _continues_segment_note(lines, segment_pages, said_segment):
            kind = "segment_note"
        opened = segment_heading(lines, item) if item != MDNA_ITEM else None
        if opened is True or (opened is None and kind == "segment_note"):
            segment_pages += 1
        else:  # another note opened, or the page is no part of the segment note
            segment_pages = 0
        out.append(kind)
        said_segment = _says_segment(lines)
        if not prints_no_word(lines):
            printed = _last_titled(lines, kind) if kind in PRIMARY_STATEMENTS else kind
    return _titled_below_the_top(pages_lines, out)


def _last_titled(lines: Sequence[str], kind: StatementKind | None) -> StatementKind | None:
    """The statement a page runs on into the next: the last one titled on it (Costco's Q3
    release prints its income statement, then the top of its balance sheet, on one page; the
    next page carries on the balance sheet), else the page's own."""
    titled = [k for k in (statement_title(line) for line in lines) if k in PRIMARY_STATEMENTS]
    return titled[-1] if titled else kind


def prints_no_word(lines: Sequence[str]) -> bool:
    """A page that prints nothing but its number (a blank page the PDF keeps between a
    statement's two pages: Block's 2018 cash flows, pages 79-81) continues nothing and ends
    nothing."""
    return not any(re.search(r"[A-Za-z]", line) for line in lines)


def _titled_below_the_top(pages_lines: Sequence[Sequence[str]],
                          kinds: list[StatementKind | None]) -> list[StatementKind | None]:
    """A primary statement the filing prints under a title below its page's top lines (a press
    release printed from a browser runs its statements on after its prose: Lockheed's 2023 Q2;
    the PDF gives Pfizer's 2023 Q2 release's title after its rows): a page of figures holding
    that title, for a statement no page is titled at its top with (so no filing whose
    statements head their pages changes)."""
    found = set(kinds)
    for at, lines in enumerate(pages_lines):
        if kinds[at] not in (None, "mdna"):
            continue
        titled = [k for k in (statement_title(line) for line in lines) if k]
        if titled and len(set(titled)) < 3 and titled[0] not in found \
                and is_figures_page(lines):
            kinds[at] = titled[0]
        elif at and kinds[at - 1] in PRIMARY_STATEMENTS and kinds[at - 1] not in found \
                and _continues_statement(lines) and _opens_with_rows(lines):
            kinds[at] = kinds[at - 1]  # its second page (Lockheed's financing activities)
    return kinds


ROW_END_RE = re.compile(r"\(?\$?\d[\d,]*(?:\.\d+)?\)?|[—–]")


def _opens_with_rows(lines: Sequence[str]) -> bool:
    """The page's first lines already print rows of figures: it carries on the statement
    before it, no table of its own under its own heading (Lockheed's segment summary)."""
    return any(
        re.search(r"[A-Za-z]", line) and ROW_END_RE.fullmatch(line.split()[-1])
        for line in _top(lines, TOP_LINES)
    )


def _continues_segment_note(lines: Sequence[str], segment_pages: int,
                            said_before: bool = False) -> bool:
    """A page after the segment note's that says "segment", or prints figures under no
    title right after a page that said it (``said_before``: Nike 2022's page 89, the segment
    note's table of revenues, EBIT and additions by segment, titled on the page before); a
    run of such pages carries nothing further (a 10-Q's MD&A, no Item heading ending it)."""
    return (
        0 < segment_pages < MAX_SEGMENT_PAGES
        and not _opens_other_note(lines)
        and (segment_pages == 1 or _says_segment(lines)
             or (said_before and _opens_with_table(lines) and _continues_statement(lines)))
    )


def _opens_with_table(lines: Sequence[str]) -> bool:
    """A page whose first printed line, past a short running head ("Table of Contents"), is a
    table's row: a table carried on from the page before, not prose of its own."""
    for line in _top(lines, 3):
        if line.lstrip().startswith("|"):
            return True
        if len(line.strip()) > MAX_RUNNING_HEAD:
            return False
    return False


MAX_RUNNING_HEAD = 40  # characters of a line above a page's first table that heads every page


def _says_segment(lines: Sequence[str]) -> bool:
    return any(SEGMENT_RE.search(line) for line in lines)


NOTES_HEADER_RE = re.compile(r"^\s*notes\s+to\b", re.IGNORECASE)


def _continues_statement(lines: Sequence[str]) -> bool:
    """A page of figures under no title after a statement page: the statement's second page
    (Block prints the columns of its equity statement over two). The notes that follow the
    statements open with "Notes to ..." or "Note 1" and are prose."""
    top = _top(lines, TOP_LINES)
    return (
        is_figures_page(lines)
        and not any(NOTES_HEADER_RE.match(line) or note_heading(line) for line in top)
        and not _page_items(lines)
    )


def _opens_other_note(lines: Sequence[str]) -> bool:
    """The page starts with another note: its first lines hold a note heading."""
    return any(
        (title := note_heading(line)) is not None and not SEGMENT_RE.search(title)
        for line in _top(lines, TOP_LINES)
    )
