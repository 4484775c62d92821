"""An 8-K's answer where Form 8-K requires it: the body of the Item the question is about.

A current report states each event under its own numbered Item (Item 5.03 for a bylaw
amendment, 5.07 for a vote, 5.02 for an officer, 1.01 for an agreement, 8.01 for other events),
then Item 9.01 lists its exhibits and a signature block closes it. A question on what an 8-K
reports ("How did X amend its bylaws?", "What did X announce?") is answered by that Item's body,
not by a sentence retrieval ranked first (the signature block, the cover page's check boxes).
The Item is the one whose section (``sections.json``'s ``items_8k``) the question's intents
read first, else the report's only event Item, else the one that shares most of the question's
words; a question that asks of no one Item ("What is the key agenda of the 8-K?", "What did X
announce?") is answered by every Item the report states, each with its first sentence (the
Items are the events Form 8-K requires it to report). Its body runs from the heading (read
whole where it wraps onto a second line) to the sentence that refers to the exhibit ("The
foregoing description ... is qualified ..."), the signature page or the next Item, over the
next page when a sentence runs over the break; a
bulleted body is listed, numbered, after its opening words, each bullet as printed. A question
that asks more than the event (the new officer's salary, who was appointed) is led by the
sentences whose words shared with it weigh most (a word rarer in them weighs more), the body's
or those of the press release Item 9.01 lists (an event's particulars the body leaves to it),
never one about a person the question does not name, then the body from its opening. The body
and the release are quoted from their pages, so the claim is checked like any other.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit, printed_unit
from rag_assets.core.generation.extractive import words
from rag_assets.core.generation.report_items import ReportItem, report_items
from rag_assets.core.generation.vote_results import vote_outcomes
from rag_assets.core.ingest.layout import BARE_NUMBER_RE, PAGE_OF_RE
from rag_assets.core.ingest.sections import current_item_of, load_sections
from rag_assets.core.ingest.statements import exhibit_of
from rag_assets.core.question.question import Question
from rag_assets.core.text.bullets import bullet_groups, numbered
from rag_assets.core.text.figures import AMOUNT_STATED_RE
from rag_assets.core.text.filing_kinds import form_of
from rag_assets.core.text.periods import MONTH_RE, PRINTED_DATE_RE
from rag_assets.core.text.sentences import split_sentences

# where an Item's body ends: the pointer to the exhibit that holds the full text, the signature
BODY_END_RE = re.compile(r"^\s*(?:the foregoing (?:description|summary)|a copy of|the "
                         r"information (?:in|contained in) this|signatures?\s*$|pursuant to "
                         r"the requirements of the securities exchange act)", re.IGNORECASE)
EXHIBITS_ITEM = "9.01"
VOTE_ITEM = "5.07"  # Submission of Matters to a Vote of Security Holders
MAX_BODY_WORDS = 300
TERMS_READ = 4  # an Item's sentences read for the amount its opening does not state
MAX_LEAD_WORDS = 60
LEAD_SENTENCES = 3  # the body's sentences that may lead, each adding what the question asks
MIN_GAIN = 2  # the question's own words a leading sentence must add
# words that name the report, not an event: every Item's body may print them (as it may its
# date's month, core/text's MONTH_RE)
REPORT_WORDS = frozenset({
    "current", "report", "reports", "reported", "form", "item", "items", "dated", "filed",
    "filing"})
# a change an Item dates, from one date to another: "from August 24, 2027 to August 24, 2028"
DATED_CHANGE_RE = re.compile(rf"\bfrom\s+(?P<a>{PRINTED_DATE_RE.pattern})\s+(?:to|through)\s+"
                             rf"(?P<b>{PRINTED_DATE_RE.pattern})", re.IGNORECASE)
# Form 8-K General Instruction B.2: information furnished under Item 2.02 or 7.01 "shall not
# be deemed 'filed'": boilerplate, no part of the event
FURNISHED_RE = re.compile(r"\bshall not be (?:deemed|treated)\b|\b(?:is|are) (?:being )?"
                          r"furnished\b", re.IGNORECASE)
EXHIBIT_LINE_RE = re.compile(r"^\(?(\d{1,3}(?:\.\d{1,2})?)\)?\.?\s+(\S.*?)\.?\s*$")
# the words that ask ("How long will he serve?"): no word the answer prints
ASKING_WORDS_RE = re.compile(r"\bhow\s+(?:long|much|many|often|soon|far)\b", re.IGNORECASE)
# Item 9.01's title for the press release an 8-K furnishes (an exhibit 99 may also be an
# acquired business's statements or pro forma figures, Item 9.01(a) and (b))
RELEASE_TITLE_RE = re.compile(r"\b(?:press|news|earnings)\s+release\b", re.IGNORECASE)
# a release's dateline: its text opens after it ("SAN FRANCISCO, January 31, 2022— Block,
# Inc. ...", "ISSAQUAH, Wash., May 25, 2023 (GLOBE NEWSWIRE) -- Costco ..."); the headline and
# contacts above it are no sentences
DATELINE_RE = re.compile(rf",\s+{PRINTED_DATE_RE.pattern}\s*(?:\((?:GLOBE NEWSWIRE|BUSINESS "
                         r"WIRE)\)|/\s*PRNewswire\s*/)?\s*(?:--|[-–—])\s*", re.IGNORECASE)
MAX_RELEASE_SENTENCE_WORDS = 100  # longer is a paragraph the splitter did not part
# a name as printed, without a possessive ("Johnson’s" is Johnson; "O’Brien" is whole)
NAME = r"[A-Z][\w-]*(?:['’](?!s\b)[\w-]+)*"
# a person a sentence names: "Ms. Dillon", "Mary N. Dillon", "Mr. McMillon" (the surname is
# the last group, the given name the first)
PERSON_RE = re.compile(rf"\b(?:Mr|Ms|Mrs|Dr)\.\s+(?P<honored>{NAME})|"
                       rf"\b(?P<given>{NAME})\s+[A-Z]\.\s+(?P<named>{NAME})")


def _asked_item(question: Question, items: Sequence[ReportItem]) -> ReportItem | None:
    """The Item whose section the question reads first, else the report's only event Item."""
    table = load_sections().items_8k
    events = [i for i in items if i.number != EXHIBITS_ITEM]
    for section in question.sections:
        for item in events:
            entry = table.get(item.number)
            if entry is not None and entry.section == section:
                return item
    if question.phrased("exhibits"):
        return next((i for i in items if i not in events), None)
    if len(events) == 1:
        return events[0]
    return _most_shared(question, events)


def _most_shared(question: Question, events: Sequence[ReportItem]) -> ReportItem | None:
    """The Item whose heading, then body, shares the most of the question's words ("bylaws"
    with "Amendments to Articles of Incorporation or Bylaws"); None on a tie or none shared."""
    company = set(words(" ".join(question.companies)))
    asked = {w for w in words(question.ranking_text)
             if len(w) >= 4 and not MONTH_RE.fullmatch(w)} - company - REPORT_WORDS
    shared = sorted((((len(asked & set(words(i.heading))),
                       len(asked & set(words(" ".join(i.lines))))), i) for i in events),
                    key=lambda x: x[0], reverse=True)
    if not shared or not any(shared[0][0]) or (len(shared) > 1 and shared[1][0] == shared[0][0]):
        return None
    return shared[0][1]


def _kept(parts: Sequence[tuple[int, list[str]]]) -> list[tuple[int, list[str]]]:
    """The body's printed lines on each page, up to its end (:data:`BODY_END_RE`, the next
    Item)."""
    out: list[tuple[int, list[str]]] = []
    for page, lines in parts:
        kept: list[str] = []
        for line in lines:
            if BODY_END_RE.match(line) or current_item_of(line):
                return [*out, (page, kept)] if kept else out
            kept.append(line)
        if kept:
            out.append((page, kept))
    return out


def _body(kept: Sequence[str]) -> tuple[list[str], bool]:
    """The body's sentences, and whether it is bulleted: a bulleted body's sentence that opens
    the list ("The amendments:"), each top bullet numbered with its sub-bullets after it, as one
    sentence, then the sentences before the list; else the body's sentences as printed."""
    opening, bullets = bullet_groups(kept)
    sentences = split_sentences(" ".join(opening))
    if not bullets:
        return sentences, False
    intro = sentences.pop() if sentences and sentences[-1].rstrip().endswith(":") else ""
    listed = " ".join(part for part in (intro, f"{numbered(bullets)}.") if part)
    return [listed, *sentences], True


def _cut(sentences: Sequence[str]) -> str:
    """The sentences as one text of at most :data:`MAX_BODY_WORDS` words."""
    words = " ".join(sentences).split()
    return " ".join(words[:MAX_BODY_WORDS]) + (" ..." if len(words) > MAX_BODY_WORDS else "")


def current_item(question: Question, document: str, year: int,
                 pages: Sequence[tuple[int, str]]) -> DirectAnswer | None:
    """The body of the 8-K Item the question asks about, as the first line, or None (not an
    8-K, a figure or a share asked, no Item that the question's sections name); for a yes or
    no on an event the report does not state the Item of, "No" (:func:`_item_stated`)."""
    if question.expects not in ("text", "names", "yes_no") or not pages:
        return None
    if form_of(document, pages[0][1]) != "8-K":
        return None
    if question.phrased("signature") or question.phrased("cover"):
        return None  # the signature block or the cover answers, not an Item
    if question.share is not None:
        return None  # a share is a figure: an Item's body, or the list of Items, gives none
    items = report_items(pages)
    if question.expects == "yes_no" and question.phrased("exhibits"):
        return _exhibits_filed(document, year, items)
    if question.expects == "yes_no":
        return _item_stated(question, document, year, items)
    found = None if question.phrased("every_item") else _asked_item(question, items)
    if found is None:  # names of no one Item's ("in which countries ...?"): retrieval's quote
        return _every_item(document, year, items) if question.expects == "text" or (
            question.phrased("every_item")) else None
    releases = [] if found.number == EXHIBITS_ITEM else _release_sentences(pages, items)
    return _item_answer(document, year, found, question=question, releases=releases)


def _item_answer(document: str, year: int, item: ReportItem, opening: str = "",
                 question: Question | None = None,
                 releases: Sequence[tuple[int, str]] = ()) -> DirectAnswer | None:
    """The Item's body as one sentence after its name, quoted from its pages (``opening``:
    a yes before it), led by the sentences that answer the question's own words where the
    body's opening does not (:func:`_answering`), the body's or the furnished press
    release's (``releases``: its sentences and pages); None when its body holds nothing."""
    kept = _kept(item.parts())
    lines = [line for _, page_lines in kept for line in page_lines]
    sentences, bulleted = _body(lines)
    pool = [*sentences, *(sentence for _, sentence in releases)]
    outcomes = vote_outcomes(sentences) if item.number == VOTE_ITEM and not bulleted else []
    answering = [] if bulleted or question is None or _asks_the_event(question) else (
        _answering(question, pool))  # read once: for the lead, and for the matter asked
    chosen = [] if bulleted or question is None else (
        _event_lead(sentences, len(releases)) if _asks_the_event(question) else answering)
    if outcomes and question is not None and question.phrased("vote_results") and not (
            _one_matter_asked(pool, answering)):
        # the vote's event is how each matter went
        sentences, chosen = ["; ".join([sentences[0].rstrip(" .;:"), *outcomes]) + ".",
                             *sentences[1:]], []
    released = [releases[i - len(sentences)] for i in chosen if i >= len(sentences)]
    if chosen:
        lead = "; ".join(pool[i].rstrip(" .;:") for i in chosen)
        rest = [s for i, s in enumerate(sentences) if i not in chosen]
        sentences = [f"{lead}.", *rest]
    text = _cut(sentences)
    if item.number == EXHIBITS_ITEM:
        text = _exhibits(lines) or text  # "(d) Exhibits." heads the list, it is not the list
    if not text:
        return None
    units = [printed_unit(document, year, page, "\n".join(page_lines))
             for page, page_lines in kept]
    units += [printed_unit(document, year, page, sentence) for page, sentence in released]
    return DirectAnswer(kind="yes_no" if opening else "list", units=units,
                        supports=units[0].quote if len(units) == 1 else "",
                        text=f"{opening}{_named(item.heading)}: {text.rstrip('.')}.")


def _asks_the_event(question: Question) -> bool:
    """Whether the question asks what the report reports ("What leadership change did X
    report?", "What did X announce in its 8-K?"): the event, not one of its particulars."""
    return question.expects == "text" and bool(question.phrased("agenda") or (
        question.phrased("reporting") and question.phrased("what_happened")))


def _event_lead(sentences: Sequence[str], released: int) -> list[int]:
    """The event as the Item states it: its opening sentence, then the next that is not the
    furnishing boilerplate of Form 8-K General Instruction B.2 ("shall not be deemed
    'filed'"), which names the event's particulars (the successor appointed, the new maturity);
    where the body only points to its press release, the release's first sentence."""
    if not sentences:
        return []
    following = next((i for i, s in enumerate(sentences[1:], start=1)
                      if not FURNISHED_RE.search(s) and not BODY_END_RE.match(s)), None)
    if following is None and released:
        following = len(sentences)
    return [0] if following is None else [0, following]


def _answering(question: Question, sentences: Sequence[str]) -> list[int]:
    """The sentences (the body's, then the release's) that answer what the question asks,
    most telling first: the one whose words shared with the question (not the company's, the
    report's, a month's or "how long"'s) weigh most, a word weighing more the fewer sentences
    print it ("sign-on" over "bonus", which several do), then each that adds at least
    :data:`MIN_GAIN` more words, up to :data:`LEAD_SENTENCES`; never one that names a person,
    none of whom the question names, of a question that names one (:func:`_people_asked`);
    none when the opening sentence is the only one so chosen (it already leads)."""
    asked = _roots(ASKING_WORDS_RE.sub(" ", question.text)) - _roots(" ".join(question.companies))
    people = _people_asked(question, sentences)
    held = [set() if people and _names_another(s, people) else _roots(s) & asked
            for s in sentences]
    weight = {r: math.log(1 + len(held) / sum(r in h for h in held))
              for r in set().union(*held)} if held else {}
    chosen: list[int] = []
    covered: set[str] = set()
    for _ in range(LEAD_SENTENCES):
        gains = [(sum(weight[r] for r in h - covered), len(h - covered), -i)
                 for i, h in enumerate(held)]
        _, count, at = max(gains, default=(0.0, 0, 0))
        if count < MIN_GAIN and not (count and not chosen and count == len(asked)):
            break
        chosen.append(-at)
        covered |= held[-at]
    return [] if chosen[:1] == [0] and len(chosen) == 1 else chosen


def _names(text: str) -> set[str]:
    """The given names and surnames of the persons a text names (:data:`PERSON_RE`)."""
    return {name for m in PERSON_RE.finditer(text)
            for name in (m.group("honored"), m.group("given"), m.group("named")) if name}


def _people_asked(question: Question, sentences: Sequence[str]) -> set[str]:
    """The names of the persons a question asks about ("Richard", "Johnson"): its words that
    the sentences print as a person's name; none for a question that asks who (the person it
    asks for is one it does not name: "Who will succeed Richard Johnson?")."""
    if question.phrased("who"):
        return set()
    printed = _names(" ".join(sentences))
    return {w for w in re.findall(rf"\b{NAME}", question.text) if w in printed}


def _names_another(sentence: str, people: set[str]) -> bool:
    """Whether the sentence is about someone the question does not name ("Ms. Dillon served
    as Executive Chair" for a question on Richard Johnson): it names a person, none asked."""
    named = {m.group("honored") or m.group("named") for m in PERSON_RE.finditer(sentence)}
    return bool(named) and not named & people


def _release_numbers(items: Sequence[ReportItem]) -> set[str]:
    """The exhibits Item 9.01 lists as a press release ("99.1 Press Release, dated ...")."""
    lines = [line for item in items if item.number == EXHIBITS_ITEM
             for _, part in _kept(item.parts()) for line in part]
    return {m[1] for line in lines if (m := EXHIBIT_LINE_RE.match(line))
            and RELEASE_TITLE_RE.search(m[2])}


def _release_sentences(pages: Sequence[tuple[int, str]], items: Sequence[ReportItem]
                       ) -> list[tuple[int, str]]:
    """The sentences of the press release the report furnishes (an exhibit Item 9.01 lists
    as one: its pages from its label to the next exhibit's), each with its page, from the end
    of its dateline on (its headline and contacts above are no sentences)."""
    wanted = {f"Exhibit {n}" for n in _release_numbers(items)}
    out: list[tuple[int, str]] = []
    current: str | None = None
    opened = False
    for page, text in pages:
        lines = [line for line in text.splitlines() if line.strip()
                 and not (BARE_NUMBER_RE.match(line) or PAGE_OF_RE.match(line))]
        label = exhibit_of(lines)
        if label is not None and label != current:
            current, opened = label, False
        if current not in wanted:
            continue
        flat = " ".join(lines)
        if not opened:
            dateline = DATELINE_RE.search(flat)
            if dateline is None:
                continue
            flat, opened = flat[dateline.end():], True
        out += [(page, s) for s in split_sentences(flat)
                if len(s.split()) <= MAX_RELEASE_SENTENCE_WORDS]
    return out


def _roots(text: str) -> set[str]:
    """Content words of four letters or more, cut to five ("appointed" and "appointment"
    share "appoi"), the report's words and months aside."""
    return {w[:5] for w in words(re.sub(r"[-‐‑–]", " ", text)) if w.isalpha() and len(w) >= 4
            and w not in REPORT_WORDS and not MONTH_RE.fullmatch(w)} - {"compa"}


def _every_item(document: str, year: int, items: Sequence[ReportItem]
                ) -> DirectAnswer | None:
    """Every Item the report states, each named with its first sentence (Item 9.01 with the
    exhibits it lists): what an 8-K reports as a whole."""
    parts: list[str] = []
    units: list[EvidenceUnit] = []
    for item in items:
        heading, page = item.heading, item.page
        kept = next((lines for _, lines in _kept([(page, item.lines)])), [])
        if item.number == EXHIBITS_ITEM:
            lead = _exhibits(kept)
        else:  # as printed: a bulleted body's opening sentence comes first
            lead = _lead(split_sentences(" ".join(kept)), vote=item.number == VOTE_ITEM)
        if not kept or not lead:
            continue
        quote = "\n".join(kept)
        units.append(printed_unit(document, year, page, quote))
        parts.append(f"{_named(heading)}: {lead}")
    if not units:
        return None
    count = f"{len(parts)} Items" if len(parts) > 1 else "one Item"
    return DirectAnswer(kind="list", units=units,
                        text=f"The report states {count}: {'; '.join(parts)}.")


def _dates_a_change(sentence: str) -> bool:
    """Whether a sentence moves something from one date to another date."""
    found = DATED_CHANGE_RE.search(sentence)
    return found is not None and " ".join(found["a"].split()) != " ".join(found["b"].split())


def _one_matter_asked(sentences: Sequence[str], chosen: Sequence[int]) -> bool:
    """Whether the sentence the question's words chose first (:func:`_answering`) states one
    matter's outcome ("the outcome of the proposal to ratify KPMG"): that matter is asked,
    not the vote."""
    return bool(chosen) and len(vote_outcomes(["", sentences[chosen[0]]])) == 1


def _lead(sentences: Sequence[str], vote: bool = False) -> str:
    """An Item's opening sentence, and the first of its next ones that states an amount when
    the opening states none ("... entered into an Underwriting Agreement ..."; "The Notes bear
    interest at 5.25% ...") or that dates a change from one date to another: what the event
    is, then its terms; a vote's outcomes (:func:`vote_outcomes`)."""
    if not sentences:
        return ""
    first = " ".join(sentences[0].split()[:MAX_LEAD_WORDS]).rstrip(".:;")
    if vote and (outcomes := vote_outcomes(sentences)):  # a vote: how each matter went
        return f"{first}; {'; '.join(outcomes)}"
    # the terms: an amount the opening does not state, else the dates of what changed ("The
    # Amendment extends the maturity date ... from August 24, 2027 to August 24, 2028")
    stated = AMOUNT_STATED_RE.search(first) is not None
    terms = next((s for s in sentences[1:TERMS_READ] if not FURNISHED_RE.search(s) and (
        (not stated and AMOUNT_STATED_RE.search(s)) or _dates_a_change(s))),
        "")
    shown = " ".join(terms.split()[:MAX_LEAD_WORDS]).rstrip(".:;")
    return f"{first}; {shown}" if shown else first


def _item_stated(question: Question, document: str, year: int,
                 items: Sequence[ReportItem]) -> DirectAnswer | None:
    """"Did X's 8-K report a change in its officers?": Form 8-K files each event under its own
    Item (5.02 for an officer or director), so a report that states no such Item did not
    report it: "No", with the Items it does state. Only for a question that asks what the
    report reports (a reporting verb), of one intent whose sections name Items (of them,
    those whose title the question names), and a report whose Items were read; a report that
    states the Item answers nothing here: whether the event went the way asked (a vote
    carried, a nominee elected) is read from its body by the quotes."""
    table = load_sections().items_8k
    if len(question.intents) != 1 or not question.phrased("reporting"):
        return None
    of_section = [n for n, entry in table.items() if entry.section in question.sections]
    # of a section's Items, those whose title the question's words name (an officer: 5.02's
    # "Departure of Directors or Certain Officers", not 5.03's bylaws), else all of them
    stems = _stems(question.ranking_text) - _stems(" ".join(question.companies))
    named = [n for n in of_section if stems & _stems(table[n].title)]
    asked = named or of_section
    events = [i for i in items if i.number != EXHIBITS_ITEM]
    if not asked or not events or any(i.number in asked for i in events):
        return None
    listed = _every_item(document, year, items)
    if listed is None:
        return None
    wanted = " or ".join(f"Item {n} ({table[n].title})" for n in asked)
    _, _, stated_items = listed.text.partition(": ")
    return DirectAnswer(kind="yes_no", units=listed.units, text=(
        f"No. The report states no {wanted}; its Items: {stated_items}"))


def _exhibits_filed(document: str, year: int, items: Sequence[ReportItem]
                    ) -> DirectAnswer | None:
    """"Did X's 8-K include any exhibits?": "Yes", with Item 9.01's exhibits (Form 8-K files
    its financial statements and exhibits there), or "No" when the report states no Item 9.01;
    None when no Item was read."""
    listed = _every_item(document, year, items)
    if listed is None:
        return None
    exhibits = next((i for i in items if i.number == EXHIBITS_ITEM), None)
    if exhibits is None:
        _, _, stated = listed.text.partition(": ")
        return DirectAnswer(kind="yes_no", units=listed.units, text=(
            f"No. The report states no Item {EXHIBITS_ITEM} (Financial Statements and "
            f"Exhibits); its Items: {stated}"))
    return _item_answer(document, year, exhibits, "Yes. ")


def _stems(text: str) -> set[str]:
    """The words of four letters or more, a plural's "s" dropped, report words aside."""
    return {w.removesuffix("s") for w in words(text) if len(w) >= 4} - REPORT_WORDS


def _exhibits(lines: Sequence[str]) -> str:
    """Item 9.01's exhibits, each by number and title: "Exhibit 99.1 (Press release dated
    August 9, 2023)"."""
    return ", ".join(f"Exhibit {m[1]} ({m[2]})" for line in lines
                     if (m := EXHIBIT_LINE_RE.match(line)))


def _named(heading: str) -> str:
    """"Item 5.03. Amendments ..." as "Item 5.03 (Amendments ...)": one sentence with the body."""
    number, _, title = heading.partition(". ")
    return f"{number} ({title})" if title else number
