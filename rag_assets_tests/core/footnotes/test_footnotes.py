"""The footnote dictionary and stitching: every definition found, every citation resolved to the
right one (cross-page, forward, nested, same marker under two tables), nothing invented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rag_assets.core.footnotes.stitching import (
    FOOTNOTE_BLOCK_RE,
    build_footnote_index,
    footnote_block,
    stitch_document,
    stitching_coverage,
)
from rag_assets.core.ingest.documents import load_document
from rag_assets.samples import earnings as ern
from rag_assets.samples.annual_reports import (
    COMPANIES,
    SAME_MARKER_CASES,
    YEARS,
    report_pages,
)

from ..conftest import Processed, process

DEFINITION_LINE_RE = re.compile(r"^\s*\[\d{1,3}\] ")


def _page_of(processed: Processed, needle: str) -> int:
    found = [p.page_index for p in processed.pages if needle in p.text]
    assert len(found) == 1, (needle, found)
    return found[0]


# --- earnings release -----------------------------------------------------------------------


def test_earnings_dictionary_is_complete(earnings: Processed) -> None:
    index = earnings.index
    assert len(index.footnotes) == ern.N_FOOTNOTES == 46
    assert sorted(f.marker for f in index.footnotes) == sorted(f"[{n}]" for n in range(1, 47))
    assert index.unresolved == []
    assert index.orphans == []
    assert {f.style for f in index.footnotes} == {"bracket"}


def test_earnings_definitions_equal_the_printed_footnotes(earnings: Processed) -> None:
    """Each definition is the composed footnote text, on the page that prints it."""
    expected = {}
    for page_index, page in enumerate(ern.earnings_pages()):
        for note in page.footnotes:
            marker, text = note.split(" ", 1)
            expected[marker] = (page_index, text)
    found = {f.marker: (f.page_index, f.text) for f in earnings.index.footnotes}
    assert found == expected


def test_earnings_stitching_coverage_is_complete(earnings: Processed) -> None:
    coverage = stitching_coverage(earnings.index, earnings.stitched)
    assert coverage.ratio == 1.0
    assert coverage.missing == []
    assert coverage.unresolved == []
    assert coverage.cited_with_definition == coverage.stitched >= 46


def test_cross_page_marker_is_stitched_on_every_citing_page(earnings: Processed) -> None:
    footnote = earnings.index.by_id()[f"{ern.CROSS_PAGE_MARKER}@1"]
    assert footnote.cited_pages == list(ern.CROSS_PAGE_MARKER_PAGES)
    block = footnote_block(footnote)
    assert block.startswith("{FOOTNOTE [8]: Software and Cloud revenue includes all $555 million")
    for page in earnings.stitched:
        wanted = page.page_index in ern.CROSS_PAGE_MARKER_PAGES
        assert (block in page.text) == wanted, page.page_index
    # on page 4 the block follows the sentence that cites it, not the page end
    page4 = earnings.stitched[4].text
    assert "Software and Cloud [8], whose segment operating margin\nreached 29.3%. " + block in (
        page4
    )


def test_forward_marker_resolves_to_later_page(earnings: Processed) -> None:
    marker = ern.FORWARD_MARKER
    cited, defined = ern.FORWARD_MARKER_CITED_PAGE, ern.FORWARD_MARKER_DEFINED_PAGE
    footnote = earnings.index.by_id()[f"{marker}@{defined}"]
    assert footnote.page_index == defined
    assert footnote.cited_pages == [cited, defined]
    early = [c for c in earnings.index.citations if c.marker == marker and c.page_index == cited]
    assert len(early) == 1 and early[0].footnote_id == f"{marker}@{defined}"
    page = earnings.stitched[cited].text
    assert "during fiscal 2025 [37]. " + footnote_block(footnote) in page


def test_nested_definitions_cite_their_footnotes(earnings: Processed) -> None:
    by_marker = {f.marker: f for f in earnings.index.footnotes}
    for marker, cited in ern.NESTED_MARKERS.items():
        expected = [by_marker[m].footnote_id for m in cited]
        assert by_marker[marker].cites == expected, marker
    # not a nested definition: cites nothing
    assert by_marker["[1]"].cites == []


def test_nested_blocks_follow_the_citation_of_33(earnings: Processed) -> None:
    by_marker = {f.marker: f for f in earnings.index.footnotes}
    page = earnings.stitched[ern.TABLE_PAGES["Table 3"]].text
    after = page.split("| Non-GAAP net income [33] |", 1)[1]
    for marker in ("[33]", *ern.NESTED_MARKERS["[33]"], "[3]", "[4]", "[5]"):  # [13] cites 3-5
        assert footnote_block(by_marker[marker]) in after, marker
    # each block once per insertion point, even if reached twice
    assert after.count(footnote_block(by_marker["[13]"])) == 1


def test_no_definition_line_or_furniture_is_left(earnings: Processed) -> None:
    for page in earnings.stitched:
        for line in page.text.split("\n"):
            assert not DEFINITION_LINE_RE.match(line), (page.page_index, line)
            assert not re.fullmatch(r"\s*Page \d+/\d+\s*", line), (page.page_index, line)
        assert ern.HEADER not in page.text
    # the source did have both on every page
    assert all(ern.HEADER in p.text and f"Page {p.page_index + 1}/8" in p.text
               for p in earnings.pages)


def test_stitched_blocks_are_dictionary_definitions(earnings: Processed) -> None:
    definitions = {(f.marker, f.text) for f in earnings.index.footnotes}
    source = " ".join(" ".join(p.text for p in earnings.pages).split())
    n_blocks = 0
    for page in earnings.stitched:
        for match in FOOTNOTE_BLOCK_RE.finditer(page.text):
            n_blocks += 1
            assert (match.group("marker"), match.group("text")) in definitions
            assert match.group("text") in source
        assert page.text.count("{FOOTNOTE") == len(FOOTNOTE_BLOCK_RE.findall(page.text))
    assert n_blocks >= 46


def test_every_text_citation_is_followed_by_its_block(earnings: Processed) -> None:
    by_id = earnings.index.by_id()
    for c in earnings.index.citations:
        if c.context == "footnote":
            continue
        text = earnings.stitched[c.page_index].text
        at = text.find(c.marker)
        assert at >= 0
        assert footnote_block(by_id[c.footnote_id]) in text[at:], (c.marker, c.page_index)


def test_index_is_deterministic(earnings: Processed, samples: dict[tuple[str, int], Path]) -> None:
    again = build_footnote_index(earnings.pages)
    assert again.model_dump() == earnings.index.model_dump()
    reloaded = process(samples[("exemplar-corp-earnings", 2024)])
    assert reloaded.index.model_dump() == earnings.index.model_dump()
    assert [p.model_dump() for p in reloaded.stitched] == [
        p.model_dump() for p in earnings.stitched
    ]


# --- annual reports: the same marker under two tables ---------------------------------------


@pytest.mark.parametrize("year", YEARS)
@pytest.mark.parametrize("case", sorted(SAME_MARKER_CASES), ids=lambda c: f"{c[0]}-{c[1]}")
def test_same_marker_under_two_tables(
    annual: dict[tuple[str, int], Processed], case: tuple[str, str], year: int
) -> None:
    document, marker = case
    pages = SAME_MARKER_CASES[case]
    processed = annual[(document, year)]
    company = next(co for co in COMPANIES if co.document == document)
    composed = report_pages(company, year)
    expected = {}
    for page in pages:
        notes = [n for b in composed[page].blocks for n in getattr(b, "notes", ())]
        expected[page] = next(n.split(" ", 1)[1] for n in notes if n.startswith(marker + " "))
    assert expected[pages[0]] != expected[pages[1]]

    by_page = {f.page_index: f for f in processed.index.footnotes if f.marker == marker}
    assert sorted(by_page) == sorted(pages)
    assert {p: by_page[p].text for p in pages} == expected
    assert len({by_page[p].footnote_id for p in pages}) == 2

    for page in pages:
        own, other = by_page[page], by_page[next(p for p in pages if p != page)]
        table_citations = [
            c for c in processed.index.citations
            if c.marker == marker and c.page_index == page and c.context == "table"
        ]
        assert table_citations, (marker, page)
        assert {c.footnote_id for c in table_citations} == {own.footnote_id}
        stitched = processed.stitched[page].text
        assert footnote_block(own) in stitched
        assert footnote_block(other) not in stitched


def test_annual_report_notes_are_all_cited(annual: dict[tuple[str, int], Processed]) -> None:
    orphans = {
        key: [f.footnote_id for f in p.index.orphans]
        for key, p in annual.items()
        if p.index.orphans
    }
    assert orphans == {}


@pytest.mark.parametrize(
    ("sentence", "marker"),
    [("Organic net sales grew 9.3%(b) this year.", "(b)"),
     ("The EDPS delivered an opinion on 7 March 2012 (17).", "(17)")],
    ids=["percent-letter", "year-number"],
)
def test_marker_after_a_figure_is_a_citation(tmp_path: Path, sentence: str, marker: str) -> None:
    path = tmp_path / "note.txt"
    path.write_text(f"{sentence}\n\n__________\n{marker} The note that qualifies it.\n", "utf-8")
    doc = load_document(path)
    index = build_footnote_index(doc.pages)
    assert [f.footnote_id for f in index.footnotes] == [f"{marker}@0"]
    assert index.footnotes[0].cited_pages == [0]


# --- markers without definitions ------------------------------------------------------------


def test_markers_without_definitions_are_unresolved_not_invented(tmp_path: Path) -> None:
    path = tmp_path / "dangling.txt"
    path.write_text(
        "Revenue rose [1]. Costs fell [2].\nMargins improved, see the list below.\n"
        "(a) first item of a list\n(b) second item\n",
        "utf-8",
    )
    doc = load_document(path)
    index = build_footnote_index(doc.pages)
    assert index.footnotes == []
    assert [(c.marker, c.page_index) for c in index.unresolved] == [("[1]", 0), ("[2]", 0)]
    stitched = stitch_document(doc.pages, index)
    assert "{FOOTNOTE" not in stitched[0].text
    assert stitched[0].text == doc.pages[0].text  # nothing added, nothing removed
    coverage = stitching_coverage(index, stitched)
    assert coverage.unresolved == ["[1] on page 0", "[2] on page 0"]
    assert coverage.cited_with_definition == 0 and coverage.missing == []


# --- GDPR (real) ----------------------------------------------------------------------------


def test_gdpr_dictionary(gdpr: Processed) -> None:
    index = gdpr.index
    assert len(index.footnotes) == 21
    assert index.unresolved == []
    assert sorted((f.marker for f in index.footnotes), key=lambda m: int(m.strip("()"))) == [
        f"({n})" for n in range(1, 22)
    ]
    by_id = index.by_id()
    assert by_id["(1)@34"].text == "OJ C 229, 31.7.2012, p. 90."
    assert by_id["(1)@34"].cited_pages == [0]
    assert by_id["(17)@35"].text == "OJ C 192, 30.6.2012, p. 7."
    assert by_id["(4)@34"].text == (
        "Directive 95/46/EC of the European Parliament and of the Council of 24 October 1995 on "
        "the protection of individuals with regard to the processing of personal data and on the "
        "free movement of such data (OJ L 281, 23.11.1995, p. 31)."
    )
    assert {f.page_index for f in index.footnotes} == {34, 35}


def test_gdpr_points_and_references_are_not_footnotes(gdpr: Processed) -> None:
    index = gdpr.index
    assert {f.style for f in index.footnotes} == {"paren-number"}
    assert {c.style for c in index.citations} == {"paren-number"}
    # "(a)" points are everywhere in the articles, and none of them was taken for a note
    assert sum(ln.lstrip().startswith("(a) ") for p in gdpr.pages for ln in p.lines) > 50
    # "Article 6(1)" and recital numbers "(1) The protection ..." are not citations: every
    # citation stands after some text on its line, and each one resolves to a definition
    assert len(index.citations) == 21  # each of the 21 Official Journal notes, once
    assert all(c.footnote_id for c in index.citations)
    for c in index.citations:
        line = gdpr.pages[c.page_index].lines[c.line]
        start = c.end - len(c.marker)
        assert line[start : c.end] == c.marker
        assert line[:start].strip() and not line[:start].rstrip().endswith(("Article", ")"))


def test_gdpr_stitching(gdpr: Processed) -> None:
    coverage = stitching_coverage(gdpr.index, gdpr.stitched)
    assert coverage.ratio == 1.0 and coverage.missing == [] and coverage.unresolved == []
    block = footnote_block(gdpr.index.by_id()["(1)@34"])
    assert (
        "Having regard to the opinion of the European Economic and Social Committee (1), " + block
    ) in gdpr.stitched[0].text


def test_gdpr_footnote_17_is_cited(gdpr: Processed) -> None:
    page = _page_of(gdpr, "delivered an opinion on 7 March 2012 (17)")
    footnote = gdpr.index.by_id()["(17)@35"]
    assert footnote.cited_pages == [page]
    assert footnote_block(footnote) in gdpr.stitched[page].text


def test_gdpr_index_is_deterministic(gdpr: Processed) -> None:
    assert build_footnote_index(gdpr.pages).model_dump() == gdpr.index.model_dump()


# --- real 10-Ks -----------------------------------------------------------------------------


@pytest.mark.slow
def test_3m_footnotes(three_m: Processed) -> None:
    by_id = three_m.index.by_id()
    assert by_id["(1)@12"].text.startswith(
        "The total number of shares purchased includes: (i) shares purchased under the "
        "Board’s authorizations described above"
    )
    assert by_id["*@13"].text.startswith("The Company adopted ASU No. 2014-09")
    assert by_id["(1)@44"].text == (
        "Effective income tax rate used for interest expense 23.4 % 35.5 % 28.3 %"
    )
    assert by_id["(1)@12"].cited_pages == [12]
    assert three_m.index.unresolved == []
    coverage = stitching_coverage(three_m.index, three_m.stitched)
    assert coverage.ratio == 1.0 and coverage.missing == []


@pytest.mark.slow
def test_pfizer_footnote_a_on_income_statement(pfizer: Processed) -> None:
    page_56 = [
        f for f in pfizer.index.footnotes if f.marker == "(a)" and f.page_index == 56
    ]
    assert len(page_56) == 1
    footnote = page_56[0]
    assert footnote.text == (
        "Exclusive of amortization of intangible assets, except as disclosed in Note 1M."
    )
    assert 56 in footnote.cited_pages
    cites = [c for c in pfizer.index.citations if c.page_index == 56 and c.marker == "(a)"]
    assert len(cites) == 3  # cost of sales, SI&A, R&D
    assert {c.footnote_id for c in cites} == {footnote.footnote_id}
    stitched = pfizer.stitched[56].text
    assert "Cost of sales (a) 30,821 8,484 8,054 " + footnote_block(footnote) in stitched
    assert pfizer.index.unresolved == []
    assert stitching_coverage(pfizer.index, pfizer.stitched).ratio == 1.0
