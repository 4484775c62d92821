"""The fictitious sample corpus: layout contract, footnote cases, determinism, golden questions.

Text is read back the way the pipeline reads it (pypdfium2 for text, pdfplumber for tables and
font sizes), so a layout change that would break the parser fails here first.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest

from rag_assets.core.evaluation.questions import read_questions
from rag_assets.samples import annual_reports, earnings, tei_paper
from rag_assets.samples.base import SampleFile

TEI = f"{{{tei_paper.TEI_NS}}}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
BRACKET = re.compile(r"\[(\d+)\]")
BRACKET_DEF = re.compile(r"^\[(\d+)\] ", re.MULTILINE)
TENK_MARKER = re.compile(r"\((?:\d|[a-z])\)|\*")
TENK_DEF = re.compile(r"^(\((?:\d|[a-z])\)|\*) ")
QUESTION_COUNTS = {"earnings": (12, 20), "annual": (7, 11), "tei": (5, 8)}


# ------------------------------------------------------------------------------------ helpers


def _build_all(root: Path) -> dict[str, list[SampleFile]]:
    reports, questions = root / "reports", root / "questions"
    return {
        "earnings": earnings.build_earnings_release(reports, questions),
        "annual": annual_reports.build_annual_reports(reports, questions),
        "tei": tei_paper.build_tei_paper(reports, questions),
    }


def pdf_page_texts(path: Path) -> list[str]:
    """One string per page, lines separated by ``\\n`` (pypdfium2 emits ``\\r\\n``)."""
    doc = pdfium.PdfDocument(path)
    try:
        return [page.get_textpage().get_text_range().replace("\r\n", "\n") for page in doc]
    finally:
        doc.close()


def tei_page_texts(path: Path) -> list[str]:
    """Body text split at ``pb`` elements; page 0 is the text after ``<pb n="1"/>``."""
    body = ET.parse(path).getroot().find(f"{TEI}text/{TEI}body")
    assert body is not None
    pages: list[list[str]] = []

    def walk(elem: ET.Element) -> None:
        if elem.tag == f"{TEI}pb":
            pages.append([])
        elif pages and elem.text:
            pages[-1].append(elem.text)
        for child in elem:
            walk(child)
            if pages and child.tail:
                pages[-1].append(child.tail)

    walk(body)
    return [" ".join(parts) for parts in pages]


def tei_notes_by_page(path: Path) -> list[set[str]]:
    """Foot-note numbers (``n``) defined on each ``pb`` page."""
    body = ET.parse(path).getroot().find(f"{TEI}text/{TEI}body")
    assert body is not None
    pages: list[set[str]] = []
    for elem in body.iter():
        if elem.tag == f"{TEI}pb":
            pages.append(set())
        elif elem.tag == f"{TEI}note" and elem.get("place") == "foot":
            pages[-1].add(elem.get("n", ""))
    return pages


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def bracket_definitions(text: str) -> list[int]:
    return [int(n) for n in BRACKET_DEF.findall(text)]


def bracket_citations(text: str) -> list[int]:
    """``[N]`` markers in order, not counting the marker that opens a definition line."""
    out: list[int] = []
    for line in text.splitlines():
        rest = BRACKET_DEF.sub("", line, count=1)
        out.extend(int(n) for n in BRACKET.findall(rest))
    return out


def tenk_split(text: str) -> tuple[set[str], set[str]]:
    """(defined, cited) 10-K style markers of one page."""
    defined: set[str] = set()
    cited: set[str] = set()
    for line in text.splitlines():
        match = TENK_DEF.match(line)
        if match:
            defined.add(match.group(1))
            line = line[match.end():]
        cited.update(TENK_MARKER.findall(line))
    return defined, cited


# ----------------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[SampleFile]]:
    return _build_all(tmp_path_factory.mktemp("samples"))


@pytest.fixture(scope="module")
def earnings_pages(built: dict[str, list[SampleFile]]) -> list[str]:
    return pdf_page_texts(built["earnings"][0].path)


# ------------------------------------------------------------------------------------ earnings


def test_earnings_file_location(built: dict[str, list[SampleFile]]) -> None:
    (sample,) = built["earnings"]
    assert sample.path.name == "exemplar_corp_q4_fy2024_earnings.pdf"
    assert sample.path.parent.parts[-2:] == ("exemplar-corp-earnings", "2024")
    assert sample.origin == "generated"


def test_earnings_pages_header_footer(earnings_pages: list[str]) -> None:
    assert len(earnings_pages) == earnings.N_PAGES == 8
    for i, text in enumerate(earnings_pages):
        lines = text.splitlines()
        assert lines[0] == earnings.HEADER
        assert lines[-1] == f"Page {i + 1}/8"


def test_earnings_footnotes_defined_once_and_numbered(earnings_pages: list[str]) -> None:
    defined = [n for text in earnings_pages for n in bracket_definitions(text)]
    assert len(set(defined)) >= 40
    assert sorted(defined) == list(range(1, earnings.N_FOOTNOTES + 1))  # each defined once
    cited = [n for text in earnings_pages for n in bracket_citations(text)]
    assert set(cited) <= set(defined)
    assert set(cited) == set(defined)  # no orphan definition either
    first_seen = list(dict.fromkeys(cited))
    assert first_seen == sorted(first_seen)  # numbered in order of first citation


def test_earnings_marker_cases(earnings_pages: list[str]) -> None:
    def defined_on(marker: str) -> list[int]:
        n = int(marker.strip("[]"))
        return [i for i, t in enumerate(earnings_pages) if n in bracket_definitions(t)]

    def cited_on(marker: str) -> list[int]:
        n = int(marker.strip("[]"))
        return [i for i, t in enumerate(earnings_pages) if n in bracket_citations(t)]

    assert defined_on(earnings.CROSS_PAGE_MARKER) == [1]
    assert cited_on(earnings.CROSS_PAGE_MARKER) == list(earnings.CROSS_PAGE_MARKER_PAGES)
    assert defined_on("[1]") == [0] and cited_on("[1]") == [0, 7]

    assert defined_on(earnings.FORWARD_MARKER) == [earnings.FORWARD_MARKER_DEFINED_PAGE]
    assert cited_on(earnings.FORWARD_MARKER)[0] == earnings.FORWARD_MARKER_CITED_PAGE
    assert earnings.FORWARD_MARKER_CITED_PAGE < earnings.FORWARD_MARKER_DEFINED_PAGE

    whole = "\n".join(earnings_pages)
    for marker, refs in earnings.NESTED_MARKERS.items():
        start = whole.index(f"\n{marker} ") + 1
        end = re.compile(r"^(\[\d+\] |Page \d)", re.MULTILINE).search(whole, start + 1)
        assert end is not None
        definition = norm(whole[start : end.start()])
        for ref in refs:
            assert ref in definition, (marker, ref, definition)
    assert "[33] Excludes the items described in [17], [30] and [31]; see also [13]." in whole


def test_earnings_no_body_line_starts_with_a_marker(built: dict[str, list[SampleFile]]) -> None:
    """Only 7.5 pt definition lines may start with ``[N]``; body text never wraps onto one."""
    with pdfplumber.open(built["earnings"][0].path) as pdf:
        for page in pdf.pages:
            for line in page.extract_text_lines():
                if BRACKET_DEF.match(line["text"]):
                    sizes = {round(c["size"], 1) for c in line["chars"]}
                    assert sizes == {7.5}, line["text"]


def test_earnings_fonts_and_rule(built: dict[str, list[SampleFile]]) -> None:
    with pdfplumber.open(built["earnings"][0].path) as pdf:
        page = pdf.pages[0]
        words = page.extract_words(extra_attrs=["size"])
        ones = [w for w in words if w["text"].startswith("[1]")]
        assert {round(w["size"], 1) for w in ones} == {10.0, 7.5}
        citation = next(w for w in ones if round(w["size"], 1) == 10.0)
        definition = next(w for w in ones if round(w["size"], 1) == 7.5)
        assert definition["top"] > citation["bottom"]
        header = [w for w in words if w["top"] < 40]
        assert header and {round(w["size"], 1) for w in header} == {8.0}
        footer = [w for w in words if w["text"] == "1/8"]
        assert footer and round(footer[0]["size"], 1) == 8.0
        body_bottom = max(w["bottom"] for w in words if round(w["size"], 1) == 10.0)
        rules = [ln for ln in page.lines if abs((ln["x1"] - ln["x0"]) - 60 / 25.4 * 72) < 1]
        assert len(rules) == 1
        assert body_bottom < rules[0]["top"] < definition["top"]


def test_earnings_tables_are_ruled_with_markers_defined_on_page(
    built: dict[str, list[SampleFile]], earnings_pages: list[str]
) -> None:
    with pdfplumber.open(built["earnings"][0].path) as pdf:
        for name, index in earnings.TABLE_PAGES.items():
            page = pdf.pages[index]
            assert page.edges, name
            tables = page.extract_tables()
            assert len(tables) == 1, name
            cells = [cell or "" for row in tables[0] for cell in row]
            markers = {int(n) for cell in cells for n in BRACKET.findall(cell)}
            assert markers, name
            assert markers <= set(bracket_definitions(earnings_pages[index])), name
            assert f"{name}:" in earnings_pages[index]
        table1 = pdf.pages[earnings.TABLE_PAGES["Table 1"]].extract_tables()[0]
    assert table1[0] == ["Line item", "Q4 2024", "Q4 2023", "FY 2024", "FY 2023"]
    assert table1[1] == ["Revenue [15]", "684", "488", "2,412", "1,800"]
    assert len(table1) == 14


# ------------------------------------------------------------------------------ annual reports


def test_annual_reports_layout_and_markers(built: dict[str, list[SampleFile]]) -> None:
    samples = built["annual"]
    assert sorted((s.document, s.year) for s in samples) == sorted(
        (d, y) for d in ("northwind-annual", "bluefin-annual") for y in (2022, 2023, 2024)
    )
    for sample in samples:
        assert sample.path.name == f"{sample.document.replace('-', '_')}_{sample.year}.pdf"
        pages = pdf_page_texts(sample.path)
        assert 4 <= len(pages) <= 6 and len(pages) == annual_reports.N_PAGES
        for i, text in enumerate(pages):
            lines = text.splitlines()
            assert lines[0].endswith(f"| Annual Report {sample.year}")
            assert lines[-1] == f"Page {i + 1}/{len(pages)}"
            defined, cited = tenk_split(text)
            assert cited <= defined, (sample.path.name, i, cited - defined)
            assert defined <= cited, (sample.path.name, i, defined - cited)
        # The same marker under both tables, with different definitions.
        marker = "(1)" if sample.document == "northwind-annual" else "(a)"
        defs = []
        for index in (annual_reports.INCOME_PAGE, annual_reports.SEGMENT_PAGE):
            line = next(ln for ln in pages[index].splitlines() if ln.startswith(f"{marker} "))
            defs.append(line)
        assert defs[0] != defs[1]


def test_annual_reports_prior_year_column_matches(built: dict[str, list[SampleFile]]) -> None:
    tables: dict[tuple[str, int], list[list[str]]] = {}
    for sample in built["annual"]:
        with pdfplumber.open(sample.path) as pdf:
            (table,) = pdf.pages[annual_reports.INCOME_PAGE].extract_tables()
        assert table[0] == ["Line item", f"Fiscal {sample.year}", f"Fiscal {sample.year - 1}"]
        tables[(sample.document, sample.year)] = table
    for (document, year), table in tables.items():
        earlier = tables.get((document, year - 1))
        if earlier is not None:
            assert [row[2] for row in table[1:]] == [row[1] for row in earlier[1:]]
    northwind_2023 = tables[("northwind-annual", 2023)]
    assert ["Net income", "302", "281"] in northwind_2023
    assert northwind_2023[1][0] == "Net sales(1)"


# ---------------------------------------------------------------------------------------- TEI


def test_tei_is_well_formed_with_pages_and_notes(built: dict[str, list[SampleFile]]) -> None:
    (sample,) = built["tei"]
    assert sample.path.name == "footnote_rag_paper.tei.xml"
    root = ET.parse(sample.path).getroot()
    assert root.tag == f"{TEI}TEI"
    assert root.find(f"{TEI}teiHeader//{TEI}title") is not None
    body = root.find(f"{TEI}text/{TEI}body")
    assert body is not None and body[0].tag == f"{TEI}pb" and body[0].get("n") == "1"
    assert [pb.get("n") for pb in body.iter(f"{TEI}pb")] == ["1", "2", "3", "4", "5"]
    divs = body.findall(f"{TEI}div")
    assert 4 <= len(divs) <= 6
    assert all(d.find(f"{TEI}head") is not None and d.find(f"{TEI}p") is not None for d in divs)
    notes = {n.get(XML_ID): n for n in body.iter(f"{TEI}note") if n.get("place") == "foot"}
    assert len(notes) == tei_paper.N_FOOTNOTES >= 6
    for xml_id, note in notes.items():
        assert xml_id == f"foot_{note.get('n')}"
    refs = [r for r in body.iter(f"{TEI}ref") if r.get("type") == "foot"]
    assert {r.get("target", "").lstrip("#") for r in refs} == set(notes)
    assert root.find(f"{TEI}text/{TEI}back//{TEI}listBibl") is not None
    by_page = tei_notes_by_page(sample.path)
    assert len(by_page) == tei_paper.N_PAGES
    assert tei_paper.CROSS_PAGE_NOTE in by_page[0]
    assert '#foot_2">2</ref>' in sample.path.read_text(encoding="utf-8").split('<pb n="2"/>')[1]


# ---------------------------------------------------------------------------------- questions


@pytest.mark.parametrize("kind", ["earnings", "annual", "tei"])
def test_questions_validate_and_are_answerable(
    built: dict[str, list[SampleFile]], kind: str
) -> None:
    low, high = QUESTION_COUNTS[kind]
    for sample in built[kind]:
        assert sample.questions_path is not None
        assert sample.questions_path.parts[-2:] == (sample.document, f"{sample.year}.jsonl")
        questions = read_questions(sample.questions_path)
        assert len(questions) == sample.n_questions and low <= len(questions) <= high
        assert len({q.id for q in questions}) == len(questions)
        if kind == "tei":
            pages = tei_page_texts(sample.path)
            notes = tei_notes_by_page(sample.path)
        else:
            pages = pdf_page_texts(sample.path)
        for q in questions:
            assert (q.document, q.year) == (sample.document, sample.year)
            if q.category == "unanswerable":  # checked against the text below
                assert not (q.relevant_pages or q.relevant_markers or q.expected_facts), q.id
                continue
            assert q.relevant_pages, q.id
            assert all(0 <= p < len(pages) for p in q.relevant_pages), q.id
            text = norm(" ".join(pages[p] for p in q.relevant_pages))
            for fact in q.expected_facts:
                assert fact in text, (q.id, fact)
            if q.category == "footnote-dependent":
                assert q.relevant_markers, q.id
            for marker in q.relevant_markers:
                if kind == "tei":
                    number = marker.strip("[]")
                    assert any(number in notes[p] for p in q.relevant_pages), (q.id, marker)
                else:
                    assert any(
                        line.startswith(f"{marker} ")
                        for p in q.relevant_pages
                        for line in pages[p].splitlines()
                    ), (q.id, marker)


def test_categories_cover_the_mix(built: dict[str, list[SampleFile]]) -> None:
    earnings_cats = {q.category for q in read_questions(built["earnings"][0].questions_path)}
    assert {"factual", "footnote-dependent", "comparative", "holistic", "citation"} <= (
        earnings_cats
    )
    assert "unanswerable" in earnings_cats
    for sample in built["annual"]:
        cats = {q.category for q in read_questions(sample.questions_path)}
        assert {"temporal", "footnote-dependent", "unanswerable"} <= cats


# Why each unanswerable question is unanswerable: patterns that must not occur in any report of
# its document (every year: in the corpus setting another year's report could answer it), read
# the way the pipeline reads the PDFs, whitespace collapsed.
_NO_HEADCOUNT = [r"\d[\d,]*\s+(?:employees|people|staff|workers)", r"headcount|workforce"]
_NO_DIVIDEND = [r"dividends?\s+(?:of|per|was|were|paid)\b", r"dividend[^.]*\$\s?\d",
                r"\$\s?\d[^.]*dividend"]
ABSENT: dict[str, list[str]] = {
    # the CEO is quoted, never paid: "compensation" is only stock-based or incentive pay
    "exemplar-corp-earnings-2024-q18": [r"salary|bonus", r"Okafor[^.]*\$\s?\d",
                                        r"(?<!stock-based )(?<!incentive )compensation"],
    # three segments: Software and Cloud, Devices, Services
    "exemplar-corp-earnings-2024-q19": [r"automotive", r"(?:four|five|six) segments"],
    # Meridian is described by revenue and production capacity, never by units shipped
    "exemplar-corp-earnings-2024-q20": [r"\bunits?\b", r"\bshipp?(?:ed|ing|ments?)\b"],
    "northwind-annual-2022-q11": _NO_HEADCOUNT,
    "northwind-annual-2023-q11": _NO_HEADCOUNT,
    "northwind-annual-2024-q10": _NO_HEADCOUNT,
    "bluefin-annual-2022-q10": _NO_DIVIDEND,
    "bluefin-annual-2023-q10": _NO_DIVIDEND,
    "bluefin-annual-2024-q10": _NO_DIVIDEND,
}


def test_unanswerable_questions_are_not_answered_by_any_report(
    built: dict[str, list[SampleFile]]
) -> None:
    texts: dict[str, str] = {}
    unanswerable = []
    for sample in [*built["earnings"], *built["annual"]]:
        page_text = " ".join(" ".join(pdf_page_texts(sample.path)).split())
        texts[sample.document] = f"{texts.get(sample.document, '')} {page_text}"
        assert sample.questions_path is not None
        unanswerable += [q for q in read_questions(sample.questions_path)
                         if q.category == "unanswerable"]
    assert {q.id for q in unanswerable} == set(ABSENT)
    for q in unanswerable:
        for pattern in ABSENT[q.id]:
            found = re.search(pattern, texts[q.document], re.IGNORECASE)
            assert found is None, f"{q.id}: {found.group(0)!r} may answer it"
    # the patterns do find what they look for where it is printed
    assert re.search(r"(?<!stock-based )(?<!incentive )compensation",
                     "the CEO's compensation was $2 million", re.IGNORECASE)
    assert "Exemplar reports three segments" in texts[earnings.DOCUMENT]
    assert re.search(_NO_HEADCOUNT[0], texts[earnings.DOCUMENT])  # "about 9,400 people"


# -------------------------------------------------------------------------------- determinism


def test_builds_are_deterministic(
    built: dict[str, list[SampleFile]], tmp_path: Path
) -> None:
    again = _build_all(tmp_path)
    for kind, samples in built.items():
        for first, second in zip(samples, again[kind], strict=True):
            if first.path.suffix == ".pdf":
                assert pdf_page_texts(first.path) == pdf_page_texts(second.path)
            assert first.path.read_bytes() == second.path.read_bytes()
            assert first.questions_path is not None and second.questions_path is not None
            assert first.questions_path.read_bytes() == second.questions_path.read_bytes()
