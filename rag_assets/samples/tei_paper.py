"""A short fictitious paper as GROBID-style TEI XML, with page breaks and foot notes.

It exercises the TEI path of the pipeline: sections from ``div``/``head``, pages from ``pb``
order (the text after ``<pb n="1"/>`` is page 0), foot notes as ``<note place="foot">`` placed
on the page where they are printed and cited with ``<ref type="foot">``, and a ``back``
bibliography that the pipeline must exclude.

Pinned cases (zero-based pages): 7 foot notes; note 2 is defined on page 0 and cited again on
page 1 (cross-page); the Method section spans pages 1 and 2 (a ``pb`` inside a ``div``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from rag_assets.core.evaluation.questions import (
    GoldenQuestion,
    QuestionCategory,
)
from rag_assets.core.footnotes.groundtruth import FootnoteTruth, TruthFootnote, write_truth
from rag_assets.samples.base import SampleFile, numbered_question, publish, report_dir

DOCUMENT = "footnote-rag-paper"
YEAR = 2023
FILE_NAME = "footnote_rag_paper.tei.xml"
TEI_NS = "http://www.tei-c.org/ns/1.0"
N_PAGES = 5
N_FOOTNOTES = 7
CROSS_PAGE_NOTE = "2"  # defined on page 0, cited again on page 1


def _foot(n: int) -> str:
    return f'<ref type="foot" target="#foot_{n}">{n}</ref>'


def _note(n: int, text: str) -> str:
    return f'<note place="foot" n="{n}" xml:id="foot_{n}">{text}</note>'


def _author(forename: str, surname: str) -> str:
    return (
        f'<author><persName><forename type="first">{forename}</forename>'
        f"<surname>{surname}</surname></persName></author>"
    )


def _bibl(xml_id: str, title: str, authors: list[tuple[str, str]], venue: str, year: int) -> str:
    names = "".join(_author(first, last) for first, last in authors)
    return (
        f'<biblStruct xml:id="{xml_id}"><analytic><title level="a" type="main">{title}</title>'
        f'{names}</analytic><monogr><title level="j">{venue}</title><imprint>'
        f'<date type="published" when="{year}"/></imprint></monogr></biblStruct>'
    )


def tei_document() -> str:
    """The whole TEI document as a string (fixed text, so the file is identical every run)."""
    title = "Footnotes Matter: Marker-Aware Chunking for Retrieval over Financial Filings"
    body = f"""\
<pb n="1"/>
<div><head n="1">Introduction</head>
<p>Retrieval-augmented generation systems answer questions over long reports by retrieving a
few passages. In financial filings, however, the meaning of a figure often depends on a footnote
printed far from it{_foot(1)}. A revenue figure that includes an acquisition, or a net income
figure that includes a one-off gain, is misleading when its footnote is not retrieved with
it.</p>
{_note(1, "In a sample of 40 annual reports, 31% of the figures cited in the letter to "
       "shareholders were qualified by a footnote printed on another page.")}
<p>We propose marker-aware chunking, which links every chunk that cites a footnote marker to
the footnote definition{_foot(2)}, and we evaluate it on 120 labelled questions.</p>
{_note(2, "A footnote definition is the text printed at the page bottom after the marker; the "
       "marker is the symbol printed after the claim, such as [3] or (a).")}
</div>
<pb n="2"/>
<div><head n="2">Related work</head>
<p>Fixed-size chunking with overlap remains the default in most retrieval toolkits.
<ref type="bibr" target="#b0">Marlow and Quade (2021)</ref> showed that chunk boundaries
aligned with document structure improve recall on legal texts, but they discarded
footnotes{_foot(3)}. The table-aware parser of <ref type="bibr" target="#b1">Ostrander et al.
(2022)</ref> keeps tables intact but does not resolve markers inside cells.</p>
{_note(3, "Marlow and Quade removed footnotes because their corpus of court decisions used "
       "them mostly for citations rather than for qualifications.")}
</div>
<div><head n="3">Method</head>
<p>Our parser reads each page, detects footnote definitions by their smaller font and their
position below a short horizontal rule, and records for every marker the page on which it is
defined. Markers are resolved per document and per page, so the same marker reused on
different pages keeps its own definition{_foot(2)}.</p>
<pb n="3"/>
<p>Each body chunk is stored with the definitions of the markers it cites; at query time the
retriever scores the chunk text and its attached definitions jointly. Markers that have no
definition anywhere in the document are kept as dangling markers and reported{_foot(4)}.</p>
{_note(4, "Dangling markers occurred in 2.5% of the chunks, mostly because the PDF converter "
       "split a definition across a page break.")}
</div>
<pb n="4"/>
<div><head n="4">Experiments</head>
<p>We evaluate on 120 questions over 12 fictitious reports{_foot(5)}. Marker-aware chunking
raises recall at 5 from 0.61 with fixed-size chunks of 512 tokens to 0.78, and answer accuracy
from 54% to 71%.</p>
{_note(5, "Two annotators labelled the questions independently; their disagreements, 9 of "
       "120, were resolved by a third annotator.")}
<p>The gain is concentrated on footnote-dependent questions, where recall at 5 rises from 0.34
to 0.74, while factual questions improve only from 0.80 to 0.82{_foot(6)}.</p>
{_note(6, "Differences on footnote-dependent questions are significant at p &lt; 0.01 under "
       "a paired bootstrap test; differences on factual questions are not.")}
</div>
<pb n="5"/>
<div><head n="5">Conclusion</head>
<p>Attaching footnote definitions to the chunks that cite them is a cheap change that makes
retrieval over financial filings markedly more faithful. Future work will handle footnotes
that cite other footnotes{_foot(7)}.</p>
{_note(7, "Such nested definitions, for example a footnote reading excludes the items "
       "described in note 3, occurred in 6% of the reports.")}
</div>"""
    bibliography = "\n".join([
        _bibl("b0", "Structure-aligned chunking for legal retrieval",
              [("Ada", "Marlow"), ("Felix", "Quade")], "Journal of Fictitious Retrieval", 2021),
        _bibl("b1", "Keeping tables whole in document question answering",
              [("Rhea", "Ostrander"), ("Jun", "Takeda"), ("Mira", "Holt")],
              "Proceedings of the Imaginary Workshop on Documents", 2022),
        _bibl("b2", "Evaluating retrieval over annual reports",
              [("Sam", "Pellegrini")], "Fictional Finance Review", 2020),
    ])
    return f"""\
<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="{TEI_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<teiHeader xml:lang="en">
<fileDesc>
<titleStmt><title level="a" type="main">{title}</title></titleStmt>
<publicationStmt><publisher>Fictitious Proceedings</publisher>
<availability status="unknown"><licence/></availability>
<date type="published" when="{YEAR}">{YEAR}</date></publicationStmt>
<sourceDesc><biblStruct><analytic>{_author("Ilse", "Varga")}{_author("Tomas", "Ekwueme")}
<title level="a" type="main">{title}</title></analytic>
<monogr><imprint><date type="published" when="{YEAR}"/></imprint></monogr></biblStruct>
</sourceDesc>
</fileDesc>
<profileDesc><abstract><div><p>We show that linking footnote definitions to the chunks that
cite them improves retrieval over financial filings. This paper is fictitious and exists only
to test document retrieval.</p></div></abstract></profileDesc>
</teiHeader>
<text xml:lang="en">
<body>
{body}
</body>
<back>
<div type="references">
<listBibl>
{bibliography}
</listBibl>
</div>
</back>
</text>
</TEI>
"""


def _q(
    n: int,
    question: str,
    category: QuestionCategory,
    pages: list[int],
    facts: list[str],
    markers: list[str] | None = None,
) -> GoldenQuestion:
    # markers as the TEI loader prints them: note n becomes "[n]"
    return numbered_question(DOCUMENT, YEAR, n, question, category, pages, facts,
                             [f"[{m}]" for m in markers or []])


def tei_questions() -> list[GoldenQuestion]:
    """Golden questions; pages are zero-based in ``pb`` order, markers as loaded (``[n]``)."""
    return [
        _q(1, "What recall at 5 does marker-aware chunking reach compared with fixed-size "
              "chunking?", "comparative", [3], ["0.78", "0.61"]),
        _q(2, "How were the 120 evaluation questions labelled, and how were disagreements "
              "resolved?", "footnote-dependent", [3], ["Two annotators", "9 of 120"], ["5"]),
        _q(3, "Which prior work showed that structure-aligned chunk boundaries improve recall "
              "on legal texts, and why did it discard footnotes?", "citation", [1],
           ["Marlow and Quade (2021)", "court decisions"], ["3"]),
        _q(4, "How often did dangling markers occur, and what caused them?",
           "footnote-dependent", [2], ["2.5%", "page break"], ["4"]),
        _q(5, "What is the paper's main contribution and its headline result?", "holistic",
           [0, 3, 4], ["marker-aware chunking", "0.78", "71%"]),
        _q(6, "How often are figures in letters to shareholders qualified by a footnote on "
              "another page?", "footnote-dependent", [0], ["31%", "40 annual reports"], ["1"]),
        _q(7, "Is the improvement on factual questions statistically significant?",
           "footnote-dependent", [3], ["0.80", "0.82", "paired bootstrap"], ["6"]),
        _q(8, "The Method section says the same marker reused on different pages keeps its "
              "own definition; what does the paper mean by a footnote definition?",
           "footnote-dependent", [1, 0], ["own definition", "page bottom"], ["2"]),
    ]


def tei_truth() -> FootnoteTruth:
    """The foot notes as the TEI loader numbers them (``[n]``), page by ``pb`` (the text after
    ``<pb n="1"/>`` is page 0); citations are the ``<ref type="foot">`` elements."""
    tei = f"{{{TEI_NS}}}"
    body = ET.fromstring(tei_document().encode("utf-8")).find(f"{tei}text/{tei}body")
    assert body is not None
    page = -1
    notes: dict[str, TruthFootnote] = {}
    cited: list[tuple[str, int]] = []
    for elem in body.iter():
        if elem.tag == f"{tei}pb":
            page += 1
        elif elem.tag == f"{tei}note" and elem.get("place") == "foot":
            marker = f"[{elem.get('n')}]"
            notes[marker] = TruthFootnote(marker=marker, page=page,
                                          text=" ".join("".join(elem.itertext()).split()))
        elif elem.tag == f"{tei}ref" and elem.get("type") == "foot":
            cited.append((f"[{(elem.text or '').strip()}]", page))
    for marker, where in cited:
        if where not in notes[marker].cited_pages:
            notes[marker].cited_pages.append(where)
    return FootnoteTruth(document=DOCUMENT, year=YEAR, footnotes=list(notes.values()))


def build_tei_paper(
    reports_dir: Path, questions_dir: Path, truth_dir: Path | None = None
) -> list[SampleFile]:
    """Write the TEI paper and its golden questions (and its footnote truth under
    ``truth_dir``)."""
    path = report_dir(reports_dir, DOCUMENT, YEAR) / FILE_NAME
    path.write_text(tei_document(), encoding="utf-8")
    if truth_dir is not None:
        write_truth(truth_dir, tei_truth())
    return [publish(path, DOCUMENT, YEAR, tei_questions(), questions_dir)]
