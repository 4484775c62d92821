"""Loading reports: one-line errors on bad input, text decoding, page splitting and labels, TEI
structure, and the real 10-Ks (encrypted with an empty password, displaced superscripts)."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from fpdf import FPDF

from rag_assets.core.ingest.documents import DocumentError, load_document
from rag_assets.samples import tei_paper

from ..conftest import TEN_K, Processed


def _error(path: Path) -> DocumentError:
    with pytest.raises(DocumentError) as info:
        load_document(path)
    return info.value


def _assert_one_line(err: DocumentError, path: Path, *cause_words: str) -> None:
    message = str(err)
    assert "\n" not in message, message
    assert message.startswith(f"{path.name}: "), message
    for word in cause_words:
        assert word in message.lower(), f"{word!r} not in {message!r}"


# --- bad input ------------------------------------------------------------------------------


def test_random_bytes_named_pdf_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "noise.pdf"
    path.write_bytes(bytes(range(256)) * 16)
    _assert_one_line(_error(path), path, "corrupt or not a pdf")


def test_truncated_pdf_is_repaired_and_a_stub_refused(
    tmp_path: Path, samples: dict[tuple[str, int], Path]
) -> None:
    """A file cut after its first third has lost its cross-reference table: qpdf rebuilds it
    from the objects that remain and the pages those hold are read (flagged as repaired); the
    first 2% holds no page at all and is refused in one line."""
    source = samples[("exemplar-corp-earnings", 2024)]
    data = source.read_bytes()
    path = tmp_path / "truncated.pdf"
    path.write_bytes(data[: len(data) // 3])
    doc = load_document(path)
    whole = load_document(source)
    assert doc.repaired and "PDFium: Data format error" in (doc.repair_cause or "")
    assert 0 < len(doc.pages) < len(whole.pages)
    assert doc.pages[0].text == whole.pages[0].text
    assert doc.warnings[0].startswith("repaired truncated.pdf: ")
    path.write_bytes(data[: len(data) // 50])
    err = _error(path)
    _assert_one_line(err, path, "corrupt or not a pdf", "qpdf could not repair it")


def test_password_protected_pdf(tmp_path: Path) -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="Confidential revenue figures for fiscal 2024.")
    pdf.set_encryption(owner_password="o", user_password="secret")
    path = tmp_path / "locked.pdf"
    pdf.output(str(path))
    err = _error(path)
    _assert_one_line(err, path, "password")
    assert "corrupt" not in str(err)


def test_pdf_without_text_layer(tmp_path: Path) -> None:
    pdf = FPDF()
    for _ in range(2):  # a "scan": drawn shapes only, no text objects
        pdf.add_page()
        pdf.rect(20, 20, 120, 60)
        pdf.rect(30, 100, 50, 50, style="F")
        pdf.line(10, 200, 190, 200)
    path = tmp_path / "scanned.pdf"
    pdf.output(str(path))
    err = _error(path)
    _assert_one_line(err, path, "no text layer", "2 pages")


@pytest.mark.parametrize("name", ["empty.pdf", "empty.txt", "empty.tei.xml"])
def test_empty_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"")
    _assert_one_line(_error(path), path, "empty file")


def test_missing_and_unsupported_files(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pdf"
    _assert_one_line(_error(missing), missing, "file not found")
    docx = tmp_path / "report.docx"
    docx.write_bytes(b"PK\x03\x04")
    _assert_one_line(_error(docx), docx, "unsupported file type")


def test_a_file_changed_while_it_is_read_fails_instead_of_mixing_versions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A report still being copied in (or edited) during the read: the recorded hash would not
    be the content the pages came from."""
    from rag_assets.core.ingest import documents

    path = tmp_path / "note.txt"
    path.write_text("Revenue rose 5% [1].\n[1] Organic.\n", encoding="utf-8")
    original = documents.assign_sections

    def edit_during_read(pages):  # noqa: ANN001, ANN202
        path.write_text("Revenue rose 7% [1].\n[1] Organic.\n", encoding="utf-8")
        return original(pages)

    monkeypatch.setattr(documents, "assign_sections", edit_during_read)
    _assert_one_line(_error(path), path, "changed while it was being read")
    monkeypatch.undo()
    assert load_document(path).sha256 == documents.file_sha256(path)


def test_binary_content_in_txt(tmp_path: Path) -> None:
    path = tmp_path / "binary.txt"
    path.write_bytes(b"Revenue rose\x00\x00\x00 by 5%.")
    _assert_one_line(_error(path), path, "binary content")


def test_cp1252_text_is_decoded_with_a_warning(tmp_path: Path) -> None:
    text = "The café in Zürich reported “strong” results. Revenue rose 5%.\n"
    data = text.encode("cp1252")
    path = tmp_path / "legacy.txt"
    path.write_bytes(data)
    doc = load_document(path)
    assert doc.pages[0].text == text.rstrip("\n")
    assert len(doc.warnings) == 1
    warning = doc.warnings[0]
    assert warning.startswith("legacy.txt: not UTF-8, decoded as ")
    encoding = warning.rsplit(" ", 1)[-1]
    assert data.decode(encoding) == text  # the named encoding is the one that was used


def test_utf8_text_has_no_warning(tmp_path: Path) -> None:
    path = tmp_path / "modern.txt"
    path.write_text("The café in Zürich reported “strong” results.", encoding="utf-8")
    doc = load_document(path)
    assert doc.warnings == []
    assert doc.pages[0].text == "The café in Zürich reported “strong” results."


@pytest.mark.parametrize(
    "text",
    [
        "Revenue at the Zürich café rose 12% – the “core” business, per the résumé.\n"
        "Net income was €4 million.\n",
        "Le café des élèves, über “quoted” résumé naïve. Révision du chiffre d’affaires à la "
        "hausse.\nSecond line ü é.",
        "Résumé: the Müller GmbH café “Bäckerei” – revenue €12 million, naïve estimate, "
        "façade renovation, déjà vu.\n" * 3,
    ],
    ids=["english-euro", "french", "german-french"],
)
def test_western_european_cp1252_text_is_decoded_correctly(tmp_path: Path, text: str) -> None:
    path = tmp_path / "legacy.txt"
    path.write_bytes(text.encode("cp1252"))
    doc = load_document(path)
    assert "\n".join(p.text for p in doc.pages) == text.strip("\n")


def test_malformed_tei(tmp_path: Path) -> None:
    path = tmp_path / "broken.tei.xml"
    path.write_text(
        '<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body><p>unclosed</body></TEI>',
        encoding="utf-8",
    )
    _assert_one_line(_error(path), path, "malformed tei")


def test_tei_without_body(tmp_path: Path) -> None:
    path = tmp_path / "headless.tei.xml"
    path.write_text('<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader/></TEI>', "utf-8")
    _assert_one_line(_error(path), path, "no <text><body>")


def test_tei_entity_expansion_is_refused_quickly(tmp_path: Path) -> None:
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10)
    ]
    path = tmp_path / "laughs.tei.xml"
    path.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE TEI [\n' + "\n".join(entities) + "\n]>\n"
        '<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body><p>&lol9;</p></body></text></TEI>',
        encoding="utf-8",
    )
    outcome: list[BaseException | object] = []

    def run() -> None:
        try:
            outcome.append(load_document(path))
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "entity expansion hung the TEI loader"
    assert len(outcome) == 1 and isinstance(outcome[0], DocumentError), outcome
    _assert_one_line(outcome[0], path, "unsafe")


# --- plain text pages -----------------------------------------------------------------------


def test_text_pages_split_on_form_feeds(tmp_path: Path) -> None:
    path = tmp_path / "ff.txt"
    path.write_text("First page.\nStill first.\fSecond page.\f\nThird page.\n\f", "utf-8")
    pages = load_document(path).pages
    assert [p.text for p in pages] == ["First page.\nStill first.", "Second page.", "Third page."]
    assert [p.page_index for p in pages] == [0, 1, 2]


def test_text_pages_split_after_page_footers_with_labels(tmp_path: Path) -> None:
    body = []
    for n in (3, 4, 5):
        body += [f"Body of printed page {n}.", "More text.", "", f"Page {n}/8"]
    body.append("Trailing text after the last footer.")
    path = tmp_path / "footers.txt"
    path.write_text("\n".join(body), "utf-8")
    pages = load_document(path).pages
    assert len(pages) == 4
    assert [p.page_label for p in pages[:3]] == ["3", "4", "5"]
    assert pages[0].text.startswith("Body of printed page 3.")
    assert pages[0].lines[-1] == "Page 3/8"
    assert pages[1].text.startswith("Body of printed page 4.")
    assert pages[3].text == "Trailing text after the last footer."
    assert pages[3].page_label is None


def test_text_note_zone_below_separator(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Revenue rose [1].\n\n__________\n[1] Includes an acquisition.\n", "utf-8")
    page = load_document(path).pages[0]
    assert page.lines[page.note_lines[0]] == "[1] Includes an acquisition."
    assert page.note_lines == [3]


# --- TEI sample -----------------------------------------------------------------------------


def test_tei_pages_sections_and_notes(tei: Processed) -> None:
    pages = tei.pages
    assert tei.loaded.kind == "tei"
    assert len(pages) == tei_paper.N_PAGES == 5
    assert [p.page_label for p in pages] == ["1", "2", "3", "4", "5"]
    headings = [ln for p in pages for ln in p.lines if ln.startswith("## ")]
    assert headings == [
        "## Introduction", "## Related work", "## Method", "## Experiments", "## Conclusion",
    ]
    # the Method section runs over the pb inside its div
    assert pages[2].section == "Method"
    assert not any(ln.startswith("## ") for ln in pages[2].lines)
    notes = {}
    for p in pages:
        for n in p.note_lines:
            match = re.match(r"^\[(\d)\] (\S.*)$", p.lines[n])
            assert match, p.lines[n]
            notes[match.group(1)] = (p.page_index, match.group(2))
        # every "[n] text" line sits in the note zone
        defs = {i for i, ln in enumerate(p.lines) if re.match(r"^\[\d\] ", ln)}
        assert defs == set(p.note_lines)
    assert len(notes) == tei_paper.N_FOOTNOTES
    assert notes["4"] == (
        2,
        "Dangling markers occurred in 2.5% of the chunks, mostly because the PDF converter "
        "split a definition across a page break.",
    )
    assert notes["6"][1].startswith("Differences on footnote-dependent questions are "
                                    "significant at p < 0.01")  # &lt; unescaped


def test_tei_back_matter_and_header_are_excluded(tei: Processed) -> None:
    text = "\n".join(p.text for p in tei.pages)
    for absent in (
        "Structure-aligned chunking for legal retrieval",  # bibliography (back)
        "Journal of Fictitious Retrieval",
        "Pellegrini",
        "This paper is fictitious",  # abstract (teiHeader)
        "Fictitious Proceedings",
    ):
        assert absent not in text
    assert "Marlow and Quade (2021) showed" in text  # an inline bibr ref keeps its text
    assert "footnote printed far from it [1]." in text  # ref type=foot becomes " [n]"


# --- real 10-Ks -----------------------------------------------------------------------------


@pytest.mark.slow
def test_3m_10k_pages_and_labels(three_m: Processed) -> None:
    pages = three_m.pages
    assert len(pages) == 160
    assert pages[45].page_label == "46"
    assert [p.page_index for p in pages] == list(range(160))


@pytest.mark.slow
def test_encrypted_pfizer_10k_opens_with_empty_password(pfizer: Processed) -> None:
    pdf = pdfium.PdfDocument(str(TEN_K["pfizer"]))
    try:
        assert pdfium_raw.FPDF_GetSecurityHandlerRevision(pdf.raw) >= 2  # it is encrypted
        n_pages = len(pdf)
    finally:
        pdf.close()
    assert n_pages == 143
    assert len(pfizer.pages) == 143
    assert sum(len(p.text) for p in pfizer.pages) > 300_000


@pytest.mark.slow
def test_pfizer_displaced_superscripts_are_reattached(pfizer: Processed) -> None:
    page = pfizer.pages[56]
    lines = [ln.strip() for ln in page.lines]
    assert "Cost of sales (a) 30,821 8,484 8,054" in lines
    assert any(ln.startswith("Selling, informational and administrative expenses (a)")
               for ln in lines)
    assert any(
        ln.startswith("(a) Exclusive of amortization of intangible assets") for ln in lines
    )
    # no line is left holding only stray markers
    assert not any(re.fullmatch(r"(?:\([a-z]\)[\s,]*)+", ln) for ln in lines)
