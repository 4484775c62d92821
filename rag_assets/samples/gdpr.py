"""The real GDPR (Regulation (EU) 2016/679), rendered as Official Journal plain text.

The synthetic samples only exercise layouts we invented; the GDPR is a real legal text with
recitals, inline ``(N)`` footnote citations and a footnote block, so it checks that the pipeline
holds on a document nobody on the project wrote. The source is ``legal/gdpr.json`` in the shared
corpora (github coolharsh55/GDPRtEXT, CC-BY-4.0, text of EUR-Lex).

Layout contract (the text parser relies on it, keep it stable, the golden questions pin pages):

* pages are separated by ``\\f``; each starts with the OJ running header and a blank line;
* recitals start at the line start with ``(N)``; inline footnote markers ``(N)`` never start a
  line;
* all footnote definitions sit in one block after recital 173, opened by a ``__________`` line
  that is repeated at the top of a continuation page; the block ends its page;
* articles: ``Article N`` line, title line, paragraphs ``1. ...``, points ``(a) ...`` indented by
  4 spaces (continuations by 8).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_assets.core.evaluation.questions import GoldenQuestion
from rag_assets.core.footnotes.groundtruth import FootnoteTruth, TruthFootnote, write_truth
from rag_assets.samples.base import SampleFile, packaged_questions, publish, report_dir

DOCUMENT = "gdpr"
YEAR = 2016
SOURCE_JSON = Path("legal") / "gdpr.json"
REPORT_NAME = "gdpr_oj.txt"
ORIGIN = "real: EUR-Lex via github coolharsh55/GDPRtEXT gdpr.json (CC-BY-4.0)"

WIDTH = 100  # hard maximum line length, indentation included
PAGE_LINES = 56  # header + blank + body
BODY_LINES = PAGE_LINES - 2
SEPARATOR = "_" * 10
POINT_INDENT = " " * 4
POINT_CONT_INDENT = " " * 8
FOOTNOTE_CONT_INDENT = " " * 4

# The JSON starts at the recitals; the preamble is the OJ text that carries footnotes (1) to (3),
# so it is reproduced here. ``{n}`` slots take the footnote number if the JSON defines it.
_PREAMBLE: tuple[tuple[str, int | None], ...] = (
    ("THE EUROPEAN PARLIAMENT AND THE COUNCIL OF THE EUROPEAN UNION,", None),
    (
        "Having regard to the Treaty on the Functioning of the European Union, "
        "and in particular Article 16 thereof,",
        None,
    ),
    ("Having regard to the proposal from the European Commission,", None),
    ("After transmission of the draft legislative act to the national parliaments,", None),
    ("Having regard to the opinion of the European Economic and Social Committee{n},", 1),
    ("Having regard to the opinion of the Committee of the Regions{n},", 2),
    ("Acting in accordance with the ordinary legislative procedure{n},", 3),
)
_CLOSING: tuple[str, ...] = (
    "This Regulation shall be binding in its entirety and directly applicable in all Member "
    "States.",
    "Done at Brussels, {dated}.",
)
_SIGNATURES: tuple[str, ...] = (
    "For the European Parliament",
    "The President",
    "M. SCHULZ",
    "",
    "For the Council",
    "The President",
    "J.A. HENNIS-PLASSCHAERT",
)
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

# Words that must not open a continuation line: a reader would take them for a recital or
# footnote marker, a point, a numbered paragraph, a dash item or a heading.
_BAD_LINE_START = re.compile(
    r"^(\(\d{1,3}\)|\([a-z]{1,4}\)|\d+\.|—|Articles?(\x00\S+)?|CHAPTER|Section)[.,;:]?$"
)
# Words glued to the next one so that "Article 6(1)" or "Articles 15" is never split by a wrap.
_GLUE_TO_NEXT = frozenset({"Article", "Articles"})
_NBSP = "\x00"  # internal non-breaking space, same width as a space, never written out


@dataclass
class _Block:
    """A run of lines placed as a unit; ``keep`` glues a heading to the start of the next block."""

    lines: list[str]
    gap: bool = True  # blank line before it unless it opens a page
    keep: bool = False
    split: bool = True
    new_page: bool = False


@dataclass
class _Footnotes:
    """The footnote block: definitions kept whole, separator repeated on each page it covers."""

    items: list[list[str]] = field(default_factory=list)


def wrap(text: str, first_indent: str = "", indent: str = "", width: int = WIDTH) -> list[str]:
    """Greedy word wrap that never opens a continuation line with a marker-like word.

    A marker that would start a line pulls the previous word down with it, so inline ``(N)``
    footnote citations stay mid-line as in the OJ and parsers can trust line-start markers;
    "Article N" references stay on one line so line-based reference extraction sees them whole.
    """
    words = text.split()
    tokens: list[str] = []
    for word in words:
        if tokens and tokens[-1].rpartition(_NBSP)[2] in _GLUE_TO_NEXT:
            tokens[-1] += _NBSP + word
        else:
            tokens.append(word)
    lines: list[list[str]] = [[]]
    for word in tokens:
        current = lines[-1]
        prefix = first_indent if len(lines) == 1 else indent
        if not current or len(prefix) + len(" ".join([*current, word])) <= width:
            current.append(word)
            continue
        carried = [word]
        while _BAD_LINE_START.match(carried[0]) and len(current) > 1:
            carried.insert(0, current.pop())
        if _BAD_LINE_START.match(carried[0]):
            current.extend(carried)  # nothing left to carry: overflow rather than break the rule
        else:
            lines.append(carried)
    return [
        (first_indent if i == 0 else indent) + " ".join(words).replace(_NBSP, " ")
        for i, words in enumerate(lines)
    ]


def _oj_date(ddmmyyyy: str) -> str:
    """``04/05/2016`` -> ``4.5.2016`` (the OJ header style)."""
    day, month, year = ddmmyyyy.split("/")
    return f"{int(day)}.{int(month)}.{year}"


def _long_date(ddmmyyyy: str) -> str:
    """``27/04/2016`` -> ``27 April 2016`` (the title and signature style)."""
    day, month, year = ddmmyyyy.split("/")
    return f"{int(day)} {_MONTHS[int(month) - 1]} {year}"


def _citations(data: Mapping[str, Any]) -> list[tuple[int, str]]:
    """Footnote definitions as (number, text), in number order whatever the JSON order."""
    raw = data.get("citations") or {}
    items = raw.values() if isinstance(raw, Mapping) else raw
    return sorted((int(c["number"]), " ".join(str(c["text"]).split())) for c in items)


def _articles_of(chapter: Mapping[str, Any]) -> Iterator[tuple[Mapping[str, Any] | None, Any]]:
    """Yield (section or None, article) so sections get a heading before their first article."""
    for item in chapter["contents"]:
        if item["type"] == "section":
            for article in item["contents"]:
                yield item, article
        else:
            yield None, item


def _article_blocks(article: Mapping[str, Any]) -> list[_Block]:
    """One block per paragraph or point, headings glued to what follows."""
    blocks = [
        _Block([f"Article {article['number']}", *wrap(article["title"])], keep=True, split=False)
    ]
    for part in article["contents"]:
        number = part.get("number")
        head = f"{number}. " if part["type"] == "point" and number else ""
        blocks.append(_Block(wrap(head + part["text"]), gap=bool(blocks[1:])))
        for sub in part.get("subpoints") or []:
            mark = f"({sub['number']}) " if sub.get("number") else "— "
            lines = wrap(mark + sub["text"], POINT_INDENT, POINT_CONT_INDENT)
            blocks.append(_Block(lines))
    return blocks


def _blocks(data: Mapping[str, Any]) -> list[_Block | _Footnotes]:
    """The whole regulation in reading order, before pagination."""
    citations = _citations(data)
    defined = {number for number, _ in citations}
    dated = _long_date(str(data.get("dated") or "27/04/2016"))
    regulation = str(data.get("regulation") or "2016/679")
    about = str(data.get("about") or "")

    out: list[_Block | _Footnotes] = [
        _Block(
            [f"REGULATION (EU) {regulation} OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL"],
            gap=False,
            split=False,
        ),
        _Block([f"of {dated}"], split=False),
        _Block(wrap(about if about.startswith("on ") else f"on the {about}"), split=False),
        _Block(["(Text with EEA relevance)"], split=False),
    ]
    for text, footnote in _PREAMBLE:
        marker = f" ({footnote})" if footnote in defined else ""
        out.append(_Block(wrap(text.replace("{n}", marker))))
    out.append(_Block(["Whereas:"], keep=True, split=False))
    for recital in data["recitals"]:
        out.append(_Block(wrap(f"({recital['number']}) {recital['text']}")))
    if citations:
        out.append(
            _Footnotes([wrap(f"({n}) {text}", "", FOOTNOTE_CONT_INDENT) for n, text in citations])
        )
    out.append(_Block(["HAVE ADOPTED THIS REGULATION:"], new_page=True, split=False))
    for chapter in data["chapters"]:
        out.append(
            _Block(
                [f"CHAPTER {chapter['number']}", *wrap(chapter["title"])], keep=True, split=False
            )
        )
        section_seen: object = None
        for section, article in _articles_of(chapter):
            if section is not None and section is not section_seen:
                section_seen = section
                heading = [f"Section {section['number']}", *wrap(section["title"])]
                out.append(_Block(heading, keep=True, split=False))
            out.extend(_article_blocks(article))
    out.extend(_Block(wrap(text.format(dated=dated))) for text in _CLOSING)
    out.append(_Block(list(_SIGNATURES), split=False))
    return out


def _need(blocks: Sequence[_Block | _Footnotes], i: int) -> int:
    """Lines block ``i`` needs on the current page: whole if unsplittable, else two (no orphan);
    a heading also needs what it is glued to (chapter -> section -> article -> paragraph)."""
    block = blocks[i]
    assert isinstance(block, _Block)
    need = len(block.lines) if not block.split else min(2, len(block.lines))
    nxt = blocks[i + 1] if i + 1 < len(blocks) else None
    if block.keep and isinstance(nxt, _Block):
        need = len(block.lines) + int(nxt.gap) + _need(blocks, i + 1)
    return need


def _paginate(blocks: Sequence[_Block | _Footnotes]) -> list[list[str]]:
    """Fill pages of BODY_LINES lines; headings keep company, footnote definitions stay whole."""
    pages: list[list[str]] = [[]]

    def room() -> int:
        return BODY_LINES - len(pages[-1])

    for i, block in enumerate(blocks):
        if isinstance(block, _Footnotes):
            for j, item in enumerate(block.items):
                opening = [SEPARATOR] if j == 0 else []
                gap = 1 if j == 0 and pages[-1] else 0
                if gap + len(opening) + len(item) + (1 if j else 0) > room():
                    pages.append([])
                    opening, gap = [SEPARATOR], 0
                elif j:
                    opening = [""]  # blank line between definitions
                pages[-1].extend([""] * gap + opening + item)
            pages.append([])  # the footnote zone runs to the end of its page
            continue

        page = pages[-1]
        if block.new_page and page:
            pages.append([])
        need = _need(blocks, i)
        gap = 1 if block.gap and pages[-1] else 0
        if gap + need > room():
            pages.append([])
            gap = 0
        lines = list(block.lines)
        if gap:
            pages[-1].append("")
        while lines:
            take = min(len(lines), room())
            if take < len(lines) and len(lines) - take < 2 and take > 2:
                take = len(lines) - 2  # leave no single widowed line on the next page
            if take <= 0:
                pages.append([])
                continue
            pages[-1].extend(lines[:take])
            lines = lines[take:]
            if lines:
                pages.append([])
    return [page for page in pages if page]


def render_gdpr(data: Mapping[str, Any]) -> str:
    """The OJ-style text: ``\\f``-separated pages, each opening with the running header."""
    date = _oj_date(str(data.get("updated") or "04/05/2016"))
    identifier = str(data.get("identifier") or "L 119/1")
    series, _, first = identifier.rpartition("/")
    start = int(first) if first.isdigit() else 1
    pages = _paginate(_blocks(data))
    texts = []
    for n, body in enumerate(pages, start=start):
        header = f"{date}    EN    Official Journal of the European Union    {series}/{n}"
        texts.append("\n".join([header, "", *body]) + "\n")
    return "\f".join(texts)


def split_pages(text: str) -> list[str]:
    """Zero-based pages as the golden questions count them."""
    return text.split("\f")


def _normalise(text: str) -> str:
    """Case- and whitespace-insensitive form used to match expected facts against pages."""
    return " ".join(text.split()).casefold()


def question_problems(question: GoldenQuestion, pages: Sequence[str]) -> list[str]:
    """Why a golden question is stale for this rendering (empty when it is sound)."""
    problems: list[str] = []
    if question.document != DOCUMENT or question.year != YEAR:
        problems.append(f"{question.id}: labelled {question.document}/{question.year}")
    bad = [p for p in question.relevant_pages if not 0 <= p < len(pages)]
    if bad:
        problems.append(f"{question.id}: pages {bad} outside 0..{len(pages) - 1}")
        return problems
    relevant = [_normalise(pages[p]) for p in question.relevant_pages]
    for fact in question.expected_facts:
        if not any(_normalise(fact) in page for page in relevant):
            problems.append(f"{question.id}: fact {fact!r} not on pages {question.relevant_pages}")
    for marker in question.relevant_markers:
        if not any(marker in pages[p] for p in question.relevant_pages):
            where = question.relevant_pages
            problems.append(f"{question.id}: marker {marker} not on pages {where}")
    return problems


# A footnote call "(N)": not at a line start (recitals, points), not glued ("Article 6(1)"), not
# continuing an enumeration of paragraphs ("Article 22(1) and (4)", "Article 60(7), (8) and (9)").
_CALL = re.compile(r"\((\d{1,3})\)")
_LINE_START = re.compile(r"(?:^|\n) *$")
_ENUMERATION = re.compile(r"\d\)(?:\s*,\s*\(\d+\))*\s*(?:,|and|or|to)\s*$")
_DEFINITION_LINE = re.compile(r"\((\d{1,3})\) (.*)")


def gdpr_truth(data: Mapping[str, Any]) -> FootnoteTruth:
    """The footnotes of the rendering: each definition's page read from the footnote block,
    its text from the JSON (checked against the rendering), its citing pages from the body.

    Raises ``ValueError`` if the rendered block and the JSON disagree or a note is never cited.
    """
    texts = dict(_citations(data))
    found: dict[int, list[Any]] = {}
    cited: dict[int, list[int]] = {}
    for index, page in enumerate(split_pages(render_gdpr(data))):
        lines = page.split("\n")
        zone_at = lines.index(SEPARATOR) if SEPARATOR in lines else len(lines)
        current = None
        for line in lines[zone_at + 1:]:
            match = _DEFINITION_LINE.fullmatch(line)
            if match:
                current = int(match.group(1))
                found[current] = [index, match.group(2)]
            elif current is not None and line.startswith(FOOTNOTE_CONT_INDENT):
                found[current][1] += " " + line.strip()
            else:
                current = None
        body = "\n".join(lines[:zone_at])
        for match in _CALL.finditer(body):
            before = body[:match.start()]
            number = int(match.group(1))
            if (number in texts and before and before[-1] in " \n"
                    and not _LINE_START.search(before) and not _ENUMERATION.search(before)):
                cited.setdefault(number, [])
                if index not in cited[number]:
                    cited[number].append(index)
    problems = [n for n, text in texts.items()
                if n not in found or " ".join(found[n][1].split()) != text or n not in cited]
    if problems:
        raise ValueError(f"GDPR footnotes not rendered or never cited: {problems}")
    return FootnoteTruth(document=DOCUMENT, year=YEAR, footnotes=[
        TruthFootnote(marker=f"({n})", page=found[n][0], text=text, cited_pages=cited[n])
        for n, text in texts.items()
    ])


def load_gdpr(corpora_dir: Path) -> dict[str, Any] | None:
    """The parsed corpus JSON, or None when the shared corpora are not checked out."""
    path = corpora_dir / SOURCE_JSON
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def build_gdpr(
    reports_dir: Path, questions_dir: Path, corpora_dir: Path, truth_dir: Path | None = None
) -> list[SampleFile]:
    """Write the rendered GDPR and its validated golden questions (and its footnote truth under
    ``truth_dir``); [] when the JSON is absent.

    Questions are checked against the rendered pages before anything is written, so a layout
    change that moves their evidence fails here instead of silently scoring retrieval against
    the wrong pages.
    """
    data = load_gdpr(corpora_dir)
    if data is None:
        return []
    text = render_gdpr(data)
    questions = packaged_questions(DOCUMENT, YEAR)
    pages = split_pages(text)
    problems = [p for q in questions for p in question_problems(q, pages)]
    if problems:
        raise ValueError("stale GDPR golden questions:\n" + "\n".join(problems))
    path = report_dir(reports_dir, DOCUMENT, YEAR) / REPORT_NAME
    path.write_text(text, encoding="utf-8")
    if truth_dir is not None:
        write_truth(truth_dir, gdpr_truth(data))
    return [publish(path, DOCUMENT, YEAR, questions, questions_dir, ORIGIN)]
