"""The HTML view of an answer over 3M's real 2018 10-K: each quote's highlight covers the
characters it is printed in (as pdfplumber's own search finds them) and no line far from them,
a table row whole, a sentence over a page break on both pages, a computed metric's operands each
on its page; a text report's passage marked in its text; hostile text runs no script."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pdfplumber
import pytest

from rag_assets.core.evaluation.answer_view import (
    AnswerView,
    PartitionSource,
    build_view,
    render_view,
)
from rag_assets.core.evaluation.quote_boxes import Box
from rag_assets.core.generation.page_texts import normalize
from rag_assets.core.generation.records import (
    Claim,
    GuardrailEvent,
    QAResult,
    Source,
    SourceCitation,
)
from rag_assets_tests.real_filings import CORPORA, real_filing

THREE_M = CORPORA / "sec-10k" / "3M_2018_10K.pdf"
DOC = ("3m-10k", 2018)
# p.21 (index 20): a sentence over two lines, and a row of the segment table (3 of its columns
# left out, pipes as a markdown row prints them)
SENTENCE = ("The following tables contain sales and operating income results by business segment "
            "for the fourth quarters of 2018 and 2017, followed by additional discussion of "
            "business segment results.")
ROW = "Safety and Graphics | 1,569 | 19.8 | 345 | 1,565"
ROW_PRINTED = r"Safety and Graphics 1,569 19\.8 345 1,565 19\.6 405 0\.3 \(14\.8\)"
# the foot of p.21 and the head of p.22, a page number and a running head between
OVER_BREAK = ("Organic sales grew in home improvement and stationery and office, while home care, "
              "and consumer health care declined. Operating income margins were 21.3 percent, "
              "down 1.1 percentage points")
# asset turnover's operands: net sales on the income statement (p.56), total assets on the
# balance sheet (p.58)
NET_SALES = "Net sales $ 32,765 $ 31,657 $ 30,109"
TOTAL_ASSETS = "Total assets $ 36,500 $ 37,987"


def citation(page: int, quote: str, **extra: str) -> SourceCitation:
    return SourceCitation(document=DOC[0], year=DOC[1], page=page, quote=quote, mark="valid",
                          **extra)


def answer(*claims: tuple[str, list[SourceCitation]], **extra: object) -> QAResult:
    """A QAResult as ``compose`` builds it: each cited page a numbered source, ``[n]`` after
    each claim."""
    numbers: dict[tuple[str, int, int], int] = {}
    lines = []
    for text, cites in claims:
        refs = [numbers.setdefault((c.document, c.year, c.page), len(numbers) + 1)
                for c in cites]
        lines.append(f"{text} " + " ".join(f"[{n}]" for n in dict.fromkeys(refs)))
    sources = [Source(number=n, document=d, year=y, page=p, mark="valid")
               for (d, y, p), n in numbers.items()]
    return QAResult(question=str(extra.pop("question", "What do the pages say?")),
                    answer="\n".join(lines), sources_used=sources,
                    claims=[Claim(text=t, citations=c) for t, c in claims], **extra)


@pytest.fixture(scope="module")
def pdf_source() -> dict[tuple[str, int], PartitionSource]:
    if not THREE_M.is_file():
        pytest.skip(f"{THREE_M} not found")
    return {DOC: PartitionSource(THREE_M, {})}


@pytest.fixture(scope="module")
def pdf() -> pdfplumber.PDF:
    with pdfplumber.open(str(THREE_M)) as opened:
        yield opened


def printed_chars(pdf: pdfplumber.PDF, page: int, pattern: str) -> list[Box]:
    """The boxes of the characters pdfplumber's own search finds for ``pattern`` on a page."""
    found = pdf.pages[page].search(pattern, regex=True)
    assert len(found) == 1, (pattern, len(found))
    return [Box(c["x0"], c["top"], c["x1"], c["bottom"]) for c in found[0]["chars"]]


def words(quote: str) -> str:
    """A search pattern of the quote's words, any space or line break between them."""
    return r"\s+".join(re.escape(w) for w in quote.split())


def boxes_on(view: AnswerView, page: int, number: int) -> list[Box]:
    return [h.box for panel in view.panels if panel.page == page
            for h in panel.highlights if h.number == number]


def assert_covers(boxes: list[Box], chars: list[Box], lines: int) -> None:
    """Every character inside a rectangle, one rectangle a line, none far from the chars."""
    assert chars and len(boxes) == lines
    assert all(any(b.holds(c) for b in boxes) for c in chars)
    top, bottom = min(c.top for c in chars), max(c.bottom for c in chars)
    assert all(top - 1 <= b.top and b.bottom <= bottom + 1 for b in boxes)


def test_stored_quotes_are_printed_on_the_pages_they_cite() -> None:
    """The quotes are the stored pages' own text (as a verified citation's would be)."""
    if not THREE_M.is_file():
        pytest.skip(f"{THREE_M} not found")
    pages = real_filing(THREE_M).pages
    for page, quote in ((20, SENTENCE), (55, NET_SALES), (57, TOTAL_ASSETS)):
        assert normalize(quote) in normalize(pages[page].text + "\n" + "\n".join(
            " ".join(row) for table in pages[page].tables for row in table.rows))
    assert normalize(OVER_BREAK) not in normalize(pages[20].text)


def test_a_sentence_is_highlighted_over_its_characters_line_by_line(pdf_source, pdf) -> None:
    view = build_view(answer(("Segments are discussed.", [citation(20, SENTENCE)])), pdf_source)
    assert [(p.page, p.numbers) for p in view.panels] == [(20, [1])]
    assert_covers(boxes_on(view, 20, 1), printed_chars(pdf, 20, words(SENTENCE)), lines=2)
    assert view.citations[0].located
    # the first line's rectangle begins at the sentence's first word, the second ends at its last
    first, second = sorted(boxes_on(view, 20, 1), key=lambda b: b.top)
    assert first.x0 == pytest.approx(printed_chars(pdf, 20, r"The following")[0].x0)
    assert second.x1 == pytest.approx(printed_chars(pdf, 20, r"results\.")[-1].x1)


def test_a_table_row_is_highlighted_whole(pdf_source, pdf) -> None:
    view = build_view(answer(("Safety and Graphics sold $1,569 million.", [citation(20, ROW)])),
                      pdf_source)
    row = printed_chars(pdf, 20, ROW_PRINTED)
    assert_covers(boxes_on(view, 20, 1), row, lines=1)
    # the columns the quote left out are covered too: the row from its label to its last figure
    (box,) = boxes_on(view, 20, 1)
    assert box.x1 == pytest.approx(max(c.x1 for c in row))


def test_a_quote_over_a_page_break_is_highlighted_on_both_pages(pdf_source, pdf) -> None:
    view = build_view(answer(("Consumer margins fell.", [citation(20, OVER_BREAK)])),
                      pdf_source)
    assert [(p.page, p.numbers) for p in view.panels] == [(20, [1]), (21, [1])]
    head, foot = OVER_BREAK.split(" were ")
    assert_covers(boxes_on(view, 20, 1), printed_chars(pdf, 20, words(head)), lines=2)
    assert_covers(boxes_on(view, 21, 1), printed_chars(pdf, 21, words("were " + foot)),
                  lines=1)


def test_a_computed_metrics_operands_are_each_highlighted_on_their_page(pdf_source, pdf) -> None:
    sales, assets = (citation(55, NET_SALES, supports="Net sales $32,765"),
                     citation(57, TOTAL_ASSETS, supports="Total assets $36,500"))
    result = answer(("Asset turnover was 0.90 (32,765 / 36,500).", [sales, assets]),
                    ("Net sales, FY2018: $32,765 million.", [sales]),
                    ("Total assets, FY2018: $36,500 million.", [assets]))
    view = build_view(result, pdf_source)
    assert [(p.page, p.numbers) for p in view.panels] == [(55, [1]), (57, [2])]
    # each operand's row once per citation of it, on its own page only
    assert_covers(boxes_on(view, 55, 1)[:1], printed_chars(pdf, 55, r"Net sales \$ 32,765.*"),
                  lines=1)
    assert_covers(boxes_on(view, 57, 2)[:1],
                  printed_chars(pdf, 57, r"Total assets \$ 36,500.*"), lines=1)
    assert not boxes_on(view, 55, 2) and not boxes_on(view, 57, 1)
    html = render_view(view)
    assert html.count('<a class="chip mark-valid" href="#page-1" data-citation="1"') == 2
    assert html.count('<a class="chip mark-valid" href="#page-2" data-citation="2"') == 2
    assert html.count('class="hl" data-citation="1"') == len(boxes_on(view, 55, 1)) == 2
    assert "Net sales $32,765" in html and html.count("data:image/png;base64,") == 2


def test_a_quote_not_printed_there_is_said_and_not_highlighted(pdf_source) -> None:
    view = build_view(answer(("Made up.", [citation(20, "Revenue tripled on the moon.")])),
                      pdf_source)
    assert not boxes_on(view, 20, 1) and not view.citations[0].located
    assert "not found on the page as printed" in render_view(view)


TEXT_PAGE = ("Northwind quarterly note\nRevenue grew 12% to $40 million [1]. Costs were\n"
             "flat [2].\n__________\n[1] Includes $6 million from the Harbor acquisition.\n")


def test_a_text_reports_passage_is_marked_in_its_text() -> None:
    result = QAResult(
        question="What did costs do?", answer="Costs were flat [1].",
        claims=[Claim(text="Costs were flat.", citations=[SourceCitation(
            document="northwind-note", year=2023, page=0, quote="Costs were flat [2].")])],
        sources_used=[Source(number=1, document="northwind-note", year=2023, page=0)])
    view = build_view(result, {("northwind-note", 2023): PartitionSource(None, {0: TEXT_PAGE})})
    marked = [s for s in view.panels[0].segments if s.numbers]
    # from its first letter or digit to its last, over the line break
    assert [(s.text, s.numbers) for s in marked] == [("Costs were\nflat [2", (1,))]
    assert "".join(s.text for s in view.panels[0].segments) == TEXT_PAGE
    html = render_view(view)
    assert '<mark data-citation="1">Costs were\nflat [2</mark>]' in html
    assert view.citations[0].located and "<img" not in html


HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_a_report_of_hostile_text_runs_no_script_in_the_view(pdf_source) -> None:
    page = f"Revenue grew.\n{HOSTILE} was printed here.\n"
    hostile = SourceCitation(document="evil", year=2023, page=0, quote=f"{HOSTILE} was printed",
                             supports=HOSTILE, mark="invalid", reason=HOSTILE)
    result = answer((f"3M says {HOSTILE}", [citation(20, ROW)]), (HOSTILE, [hostile]),
                    question=HOSTILE,
                    guardrail_events=[GuardrailEvent(name="decomposed", detail=HOSTILE)])
    result = result.model_copy(update={"answer": result.answer + f" [{HOSTILE}]"})
    sources = {**pdf_source, ("evil", 2023): PartitionSource(None, {0: page}, note=HOSTILE)}
    html = render_view(build_view(result, sources))
    parser = Tags()
    parser.feed(html)
    assert all(tag != "script" for tag, _ in parser.tags)
    assert not [(tag, a) for tag, attrs in parser.tags for a in attrs if a.startswith("on")]
    images = [attrs["src"] or "" for tag, attrs in parser.tags if tag == "img"]
    assert len(images) == 1 and images[0].startswith("data:image/png;base64,")
    assert "<script" not in html.lower() and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # the hostile passage is still marked, as text
    assert '&lt;<mark data-citation="2">script&gt;alert(1)&lt;/script&gt;' in html


def test_the_view_is_one_file_that_fetches_nothing(pdf_source, tmp_path: Path) -> None:
    html = render_view(build_view(answer(("Rows.", [citation(20, ROW)])), pdf_source))
    parser = Tags()
    parser.feed(html)
    links = [attrs.get("href") or "" for tag, attrs in parser.tags if tag == "a"]
    assert links and all(link.startswith("#page-") for link in links)
    assert "default-src 'none'" in html and "script-src" not in html


def test_only_the_markers_closing_a_line_are_citation_chips() -> None:
    """A report's own footnote marker quoted in the answer ("$1,502 million [8]") is text,
    not citation 8; the markers compose writes at the line's end are the chips."""
    from rag_assets.core.evaluation.answer_view import answer_lines

    line, = answer_lines("Revenue was $1,502 million [8]. (Footnote [8]: organic 3.2%) [1] "
                         "[2, invalid]")
    chips = [(p.number, p.mark) for p in line if p.number is not None]
    assert chips == [(1, "valid"), (2, "invalid")]
    assert "[8]" in "".join(p.text for p in line if p.number is None)
