"""The main risks a filing names: the captions of its risk factors, where Regulation S-K puts
them and in the weight they are printed in.

Item 105 of Regulation S-K (17 CFR 229.105, a 10-K's Item 1A and a 10-Q's Part II Item 1A)
sets each risk factor "under a subcaption that adequately describes the risk" and has the
factors "organized under relevant headings" ("Risks Related to Our Business", "General Risk
Factors"). Filers print both captions in a bold face and the paragraphs that explain them in
the body's; the PDF reader keeps which lines are bold (``Page.bold_lines``). Here the bold lines
of the pages ingest read under Item 1A (``PageTexts.page_items``) are joined into captions; a
short one that names risks and says nothing of them ("Operational Risks") heads a group, the
others are the factors. The first line names the groups, each with how many factors it holds,
then the first factor of each group (Item 105 asks for a logical order, and filers lead with
what matters most); without groups, the first factors. Every caption is quoted from its page,
so the claim is checked like any other. An Item 1A without bold captions whose factors are
bullets gives each bullet's run-in first sentence as its caption. A 10-Q's Part II Item 1A asks
only for the material changes from the risk factors of the 10-K (Form 10-Q, Part II, Item 1A);
one that prints no caption and refers to the 10-K is answered by its own sentences: the one
that refers, and the one that says no material change. A text file, or a 10-K's Item 1A with
neither captions nor bullets, gets nothing here: its quotes stand.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit, printed_unit
from rag_assets.core.ingest.sections import pages_in_section, quarterly_item_of, sections_of
from rag_assets.core.question.question import Question
from rag_assets.core.text.filing_kinds import kinds_asked
from rag_assets.core.text.sentences import split_sentences

INTENT = "risk"
SECTION = "risk_factors"
SHOWN = 5  # factors given in the first line
MIN_FACTOR_WORDS = 4  # a caption shorter than this is a run-in label, not a risk
MAX_BOLD_SHARE = 0.5  # of a section's lines: a bold body, where the weight marks no caption
MAX_GROUP_WORDS = 10
# a group's heading names risks and states none: no verb a risk factor's caption states it with
GROUP_RE = re.compile(r"\b(?:risks?|factors|matters)\b", re.IGNORECASE)
STATES_RE = re.compile(r"\b(?:may|could|might|can|cannot|will|would|is|are|was|were|be|"
                       r"been|has|have|had|depends?|relies?|faces?|affects?)\b", re.IGNORECASE)
# bold lines that are not captions: the running header, a page number; the Item's heading
# opens the captions, the next Item's closes them
NOT_CAPTION_RE = re.compile(r"^\s*(?:risk factors\.?|table of contents|\d{1,3})\s*$|"
                            r"^\s*part\s+i{1,3}\b", re.IGNORECASE)
OPENS_RE = re.compile(r"^\s*(?:part\s+ii\W+)?item\s+1a\b", re.IGNORECASE)
CLOSES_RE = re.compile(r"^\s*(?:part\s+ii\W+)?item\s+(?:1b|[2-9])\b", re.IGNORECASE)
# a risk factor's bullet, and where its run-in caption ends: a sentence's stop, then the body's
# first word, with or without a space ("... cost of funding.The Company's credit ratings")
BULLET_RE = re.compile(r"^\s*[*•·●▪]\s+(?P<text>\S.*)$")
CAPTION_END_RE = re.compile(r"[.?!](?=\s*[A-Z“\"])")
MAX_CAPTION_WORDS = 45
# a 10-Q's Part II, Item 1A saying that the 10-K's risk factors (the sentence that names the
# 10-K: ``filing_kinds.kinds_asked``) have not changed in substance (Form 10-Q, Part II, Item
# 1A: "any material changes from risk factors as previously disclosed")
NO_CHANGE_RE = re.compile(r"\bno\s+material\s+changes?\b", re.IGNORECASE)
# a "no material change" that excepts what follows ("... except for the risk factor below")
EXCEPT_RE = re.compile(r"\b(?:except|other\s+than|below|following|supplement\w*|update\w*)\b",
                       re.IGNORECASE)
ITEM_CITED_RE = re.compile(r"\bItem\s+\d{1,2}[A-C]?\.$")  # an Item named inside a sentence
# a line a heading runs on from ("Risks Related to Our / Business")
RUNS_ON_RE = re.compile(r"\b(?:to|of|and|the|our|in|for|with|&)$|[,;:-]$", re.IGNORECASE)


@dataclass
class _Group:
    heading: EvidenceUnit | None
    # each factor's caption: one unit, or two when a page break cuts it
    factors: list[list[EvidenceUnit]] = field(default_factory=list)


def _caption(parts: Sequence[EvidenceUnit]) -> str:
    return " ".join(u.text for u in parts).rstrip(".")


def _joined(parts: Sequence[str]) -> str:
    return re.sub(r"(?<=\w)- (?=[a-z])", "-", " ".join(parts))


def _captions(bold: Sequence[tuple[int, str]], first: bool) -> tuple[list[str], bool]:
    """A page's bold lines joined into captions (lines printed one under the other are one,
    but a group's heading ends at its line), from the Item's heading on when the page prints
    it (``first``: the section's first page); and whether the next Item's heading closed
    them."""
    out: list[list[str]] = []
    last = -2
    if first and any(OPENS_RE.match(line) for _, line in bold):
        bold = bold[next(i for i, (_, line) in enumerate(bold) if OPENS_RE.match(line)):]
    for number, line in bold:
        text = " ".join(line.split())
        if CLOSES_RE.match(text):
            return [_joined(parts) for parts in out], True
        if not text or NOT_CAPTION_RE.match(text) or OPENS_RE.match(text):
            last = -2
            continue
        heading = bool(out) and _is_group(_joined(out[-1])) and not RUNS_ON_RE.search(
            out[-1][-1]) and text[:1].isupper()
        if number == last + 1 and out and not heading:
            out[-1].append(text)
        else:
            out.append([text])
        last = number
    return [_joined(parts) for parts in out], False


def _runs_on(caption: str, following: str) -> bool:
    """Whether a page's first caption goes on with the last one of the page before ("... and
    impact our" / "ability to ..."): no sentence ended, and it opens in lower case."""
    return caption[-1:] not in ".?!" and following[:1].islower()


def _is_group(caption: str) -> bool:
    return (len(caption.split()) <= MAX_GROUP_WORDS and GROUP_RE.search(caption) is not None
            and STATES_RE.search(caption) is None and not caption.endswith("."))


def _groups(document: str, year: int, pages: Sequence[int],
            bold: Mapping[int, Sequence[tuple[int, str]]]) -> list[_Group]:
    groups = [_Group(None)]
    for page in pages:
        captions, closed = _captions(bold.get(page, ()), page == pages[0])
        last = groups[-1].factors[-1] if groups[-1].factors else None
        for n, caption in enumerate(captions):
            unit = printed_unit(document, year, page, caption, "Item 1A.")
            if n == 0 and last is not None and _runs_on(last[-1].text, caption):
                last.append(unit)  # the rest of a caption the page break cut
            elif _is_group(caption):
                groups.append(_Group(unit))
            elif len(caption.split()) >= MIN_FACTOR_WORDS:
                groups[-1].factors.append([unit])
        if closed:
            break
    return [g for g in groups if g.factors]


def _bulleted(document: str, year: int, pages: Sequence[tuple[int, str]],
              section: Sequence[int]) -> list[_Group]:
    """Without bold captions, the captions a bulleted Item 1A runs into its paragraphs (3M's
    2018 10-K: "* Change in the Company's credit ratings could increase cost of funding.The
    Company's credit ratings ..."): each bullet's first sentence, from the Item's heading (on
    the page before the section's first when it prints it) to the next Item's (on the page
    after its last: ingest files a page under the Item it ends with)."""
    texts = dict(pages)
    first = section[0] if section else None
    read = [first - 1] if first and any(
        OPENS_RE.match(line) for line in texts.get(first - 1, "").splitlines()) else []
    opened = not read
    group = _Group(None)
    after = [section[-1] + 1] if section else []  # the page the next Item opens on
    for page in [*read, *section, *after]:
        lines = texts.get(page, "").splitlines()
        for at, line in enumerate(lines):
            opened = opened or bool(OPENS_RE.match(line))
            if CLOSES_RE.match(line):
                return [group] if group.factors else []
            bullet = BULLET_RE.match(line)
            if not opened or bullet is None:
                continue
            rest = [bullet["text"]]
            for following in lines[at + 1:]:
                if BULLET_RE.match(following) or CAPTION_END_RE.search(" ".join(rest)):
                    break
                rest.append(following.strip())
            found = CAPTION_END_RE.search(" ".join(rest))
            caption = " ".join(" ".join(rest)[:found.start() + 1 if found else 0].split())
            if (MIN_FACTOR_WORDS <= len(caption.split()) <= MAX_CAPTION_WORDS
                    and caption[:1].isupper()):  # a list inside a factor opens in lower case
                group.factors.append([printed_unit(document, year, page, caption, "Item 1A.")])
    return [group] if group.factors else []


def _factors(count: int) -> str:
    return f"{count} risk factor{'' if count == 1 else 's'}"


def _sentence(groups: Sequence[_Group]) -> tuple[str, list[EvidenceUnit]]:
    factors = sum(len(g.factors) for g in groups)
    headings = [g.heading for g in groups if g.heading is not None]
    if len(headings) > 1:
        named = "; ".join(f"{g.heading.text.rstrip('.:')} ({len(g.factors)})"
                          for g in groups if g.heading is not None)
        lead = (f"Item 1A sets out {_factors(factors)} under {len(headings)} headings: "
                f"{named}. The first of each:")
        shown = [g.factors[0] for g in groups][:SHOWN]
    else:
        under = f" under {headings[0].text.rstrip('.:')}" if headings else ""
        lead = f"Item 1A sets out {_factors(factors)}{under}; the first:"
        shown = [f for g in groups for f in g.factors][:SHOWN]
    listed = "; ".join(f"({n}) {_caption(parts)}" for n, parts in enumerate(shown, start=1))
    return f"{lead} {listed}.", [*headings, *(u for parts in shown for u in parts)]


def risk_captions(question: Question, document: str, year: int,
                  pages: Sequence[tuple[int, str]], items: Mapping[int, str | None],
                  bold: Mapping[int, Sequence[tuple[int, str]]]) -> DirectAnswer | None:
    """The risk factors' headings and first captions of Item 1A, or None (also when most of
    its lines are bold: General Mills' FY2020 10-K sets its body in a face named bold, so the
    weight marks no caption)."""
    if INTENT not in question.wholes or question.expects not in ("text", "names"):
        return None  # "How does X describe the pandemic in its risk factors?" asks one matter
    section = pages_in_section(items, SECTION)
    read = set(section)
    lines = sum(1 for page, text in pages if page in read
                for ln in text.splitlines() if ln.strip())
    if sum(len(bold.get(page, ())) for page in section) > MAX_BOLD_SHARE * lines:
        return None
    groups = _groups(document, year, section, bold) or _bulleted(document, year, pages, section)
    if not groups:
        return _referred(document, year, pages, items)
    text, units = _sentence(groups)
    return DirectAnswer(kind="risks", units=units, text=text)


def _referred(document: str, year: int, pages: Sequence[tuple[int, str]],
              items: Mapping[int, str | None]) -> DirectAnswer | None:
    """A 10-Q's Part II, Item 1A that refers to the 10-K's risk factors: the sentence that
    refers and the one that says no material change, quoted from the page that prints the
    Item's heading (ingest files a page under the Item it ends with, so Part II's pages are
    read for it); None when the Item prints neither there."""
    for page, text in pages:
        if not (items.get(page) or "").startswith("Part II"):
            continue
        # the Items as ingest reads a 10-Q's headings (contents lines and cross references
        # are none), from Item 1A's to the next
        headed = [(i, quarterly_item_of(line, "II")) for i, line in enumerate(text.splitlines())]
        at = next((i for i, item in headed if item and SECTION in sections_of(item)), None)
        if at is None:
            continue
        end = next((i for i, item in headed[at + 1:] if item), len(headed))
        body = text.splitlines()[at + 1:end]
        sentences: list[str] = []
        for sentence in split_sentences(" ".join(" ".join(body).split())):
            if sentences and ITEM_CITED_RE.search(sentences[-1]):
                sentences[-1] = f"{sentences[-1]} {sentence}"  # "Part I, Item 1A. Risk ..."
            else:
                sentences.append(sentence)
        refers = next((s for s in sentences if "10k" in kinds_asked(s)), None)
        if refers is None:
            return None
        unchanged = next((s for s in sentences if NO_CHANGE_RE.search(s)
                          and not EXCEPT_RE.search(s) and s != refers), None)
        quoted = [refers, *([unchanged] if unchanged else [])]
        units = [printed_unit(document, year, page, q, "Part II, Item 1A.") for q in quoted]
        said = (" and reports no material change in them" if unchanged or (
            NO_CHANGE_RE.search(refers) and not EXCEPT_RE.search(refers)) else "")
        return DirectAnswer(kind="risks", units=units, text=(
            f"Its Part II, Item 1A refers to the risk factors of the Form 10-K{said}: "
            + " ".join(f"“{q.rstrip('.')}.”" for q in quoted)))
    return None
