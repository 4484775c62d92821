"""The loader for each file kind: a report file in, ``Page`` records (``core/ingest/pages.py``) out.

A loader keeps what later stages need and a plain text extraction loses: the printed page label,
which lines sit below a separator rule, type sizes, and tables apart from the prose (rendered as
markdown, their place in the prose kept by a ``[[TABLE k]]`` line). Bad input raises
``DocumentError`` with one line that names the file and the cause.
"""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import charset_normalizer
from defusedxml import ElementTree as SafeET

from rag_assets.core.ingest.layout import (
    SEPARATOR_RE,
    detect_heading,
    label_from_lines,
)
from rag_assets.core.ingest.pages import DocumentError, DocumentKind, LoadedDocument, Page
from rag_assets.core.ingest.pdf import read_pdf
from rag_assets.core.text.sentences import sentence_ends

SUPPORTED_SUFFIXES = (".pdf", ".txt", ".tei.xml", ".xml")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def document_kind(path: Path) -> DocumentKind | None:
    name = path.name.lower()
    if name.endswith(".pdf"):
        return "pdf"
    if name.endswith(".txt"):
        return "txt"
    if name.endswith(".xml"):
        return "tei"
    return None


def load_document(path: Path, *, pdf_workers: int = 2, use_ocr: bool = True) -> LoadedDocument:
    """Load any supported report; raises ``DocumentError`` with a one-line cause. A PDF that
    PDFium cannot open is read from qpdf's repair of it (``repaired``); a page whose layout
    cannot be read keeps its text and is flagged (``page_faults``); a page that is only an image
    is read by OCR unless ``use_ocr`` is False (the settings' ``runtime.ocr``)."""
    path = Path(path)
    kind = document_kind(path)
    if kind is None:
        raise DocumentError(path, f"unsupported file type (expected one of {SUPPORTED_SUFFIXES})")
    if not path.exists():
        raise DocumentError(path, "file not found")
    if path.stat().st_size == 0:
        raise DocumentError(path, "empty file (0 bytes)")
    warnings: list[str] = []
    # hashed before and after parsing: the hash recorded is the content the pages came from,
    # and a file still being copied in (or edited) during the read fails instead of mixing
    before = file_sha256(path)
    repair_cause: str | None = None
    if kind == "pdf":
        read = read_pdf(path, workers=pdf_workers, use_ocr=use_ocr)
        pages, repair_cause = read.pages, read.repair_cause
        warnings.extend(read.warnings)
    elif kind == "txt":
        pages = load_text_pages(path.read_bytes(), path, warnings)
    else:
        pages = load_tei_pages(path.read_bytes(), path)
    assign_sections(pages)
    if not any(p.text.strip() or p.tables for p in pages):
        raise DocumentError(path, "no text found in the document")
    after = file_sha256(path)
    if after != before:
        raise DocumentError(
            path, f"changed while it was being read (sha256 {before[:12]} before, {after[:12]} "
            "after): ingest it again once it is complete")
    return LoadedDocument(source=path, kind=kind, sha256=before, pages=pages, warnings=warnings,
                          repaired=repair_cause is not None, repair_cause=repair_cause)


def assign_sections(pages: list[Page]) -> None:
    """Set each page's section to the heading in force at its start (carried across pages)."""
    current: str | None = None
    for page in pages:
        page.section = page.section or current
        for line in page.lines:
            heading = detect_heading(line)
            if heading:
                current = heading
        if page.section is None:
            page.section = current


# --- plain text ---------------------------------------------------------------------------------

PAGE_FOOTER_RE = re.compile(r"^\s*Page\s+\d+\s*(?:/|of)\s*\d+\s*$", re.IGNORECASE)


def decode_text(data: bytes, path: Path, warnings: list[str]) -> str:
    """UTF-8 when it is, else cp1252 when every byte is defined there, else the encoding
    charset-normalizer finds; never a crash. (charset-normalizer alone reads short cp1252 text
    as cp775 or cp1250: ``Zürich`` came out as ``Z³rich``.)"""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1252")  # the usual non-UTF-8 encoding of Western reports
        warnings.append(f"{path.name}: not UTF-8, decoded as cp1252")
        return text
    except UnicodeDecodeError:
        pass
    best = charset_normalizer.from_bytes(data).best()
    if best is not None and best.encoding:
        warnings.append(f"{path.name}: not UTF-8, decoded as {best.encoding}")
        return str(best)
    warnings.append(f"{path.name}: unknown encoding, decoded as latin-1")
    return data.decode("latin-1")


def split_text_pages(text: str) -> list[str]:
    """Pages from form feeds, else after each ``Page N/M`` footer line, else one page."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\f" in text:
        pages = text.split("\f")
        return pages[:-1] if pages and not pages[-1].strip() else pages
    pages = []
    current: list[str] = []
    for line in text.split("\n"):
        current.append(line)
        if PAGE_FOOTER_RE.match(line):
            pages.append("\n".join(current))
            current = []
    if any(line.strip() for line in current) or not pages:
        pages.append("\n".join(current))
    return pages


# A line longer than any a report prints (the longest in 43 SEC filings has 3,544 characters)
# is a text written without line breaks: it is broken after each of its sentences, so that a
# note written at its end ("... [1]. [1] Includes acquisitions.") opens a line as notes do.
LONG_LINE_CHARS = 10_000
_GAP_RE = re.compile(r"[ \t]+(?=\S)")  # the spaces between two sentences of a line


def break_long_line(line: str) -> list[str]:
    """``line`` as it is, or, past ``LONG_LINE_CHARS``, one line per sentence
    (``core/text/sentences``; every word kept, the spaces after a sentence's end become the line
    break)."""
    if len(line) <= LONG_LINE_CHARS:
        return [line]
    lines, start = [], 0
    for end in sentence_ends(line):
        gap = _GAP_RE.match(line, end)
        if gap:
            lines.append(line[start:end])
            start = gap.end()
    lines.append(line[start:])
    return lines


def load_text_pages(data: bytes, path: Path, warnings: list[str]) -> list[Page]:
    text = decode_text(data, path, warnings)
    if "\x00" in text:
        raise DocumentError(path, "binary content in a .txt file (NUL bytes)")
    pages = []
    for index, page_text in enumerate(split_text_pages(text)):
        lines = []
        for line in page_text.strip("\n").split("\n"):
            broken = break_long_line(line.rstrip())
            if len(broken) > 1:
                warnings.append(
                    f"{path.name}: page {index + 1} has a line of {len(line):,} characters; "
                    f"read as {len(broken):,} lines, one per sentence")
            lines.extend(broken)
        pages.append(
            Page(
                page_index=index,
                page_label=label_from_lines(lines),
                text="\n".join(lines),
                note_lines=lines_below_separator(lines),
            )
        )
    return pages


def lines_below_separator(lines: list[str]) -> list[int]:
    """A separator rule (``_____``) opens a footnote zone that runs to the page end."""
    for number, line in enumerate(lines):
        if SEPARATOR_RE.match(line):
            return list(range(number + 1, len(lines)))
    return []


# --- TEI XML ------------------------------------------------------------------------------------

TEI_NS = "{http://www.tei-c.org/ns/1.0}"


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def load_tei_pages(data: bytes, path: Path) -> list[Page]:
    """Sections from ``body/div`` heads, pages from ``pb``, foot notes as ``[n]`` definitions.

    ``back`` (bibliography, annexes) and the header are left out: they are not the paper's text.
    """
    try:
        root = SafeET.fromstring(data)
    except ET.ParseError as exc:
        raise DocumentError(path, f"malformed TEI XML ({exc})") from exc
    except Exception as exc:  # defusedxml refuses entity expansion and external references
        raise DocumentError(path, f"unsafe or malformed XML ({type(exc).__name__}: {exc})") from exc
    body = next((el for el in root.iter() if _local(el.tag) == "body"), None)
    if body is None:
        raise DocumentError(path, "TEI file has no <text><body> element")

    pages: list[dict[str, list[str]]] = [{"text": [], "notes": [], "label": []}]

    def new_page(pb: ET.Element) -> None:
        label = [n] if (n := pb.get("n")) else []
        if not pages[-1]["text"] and not pages[-1]["notes"]:
            pages[-1]["label"] = label  # a pb before any text opens the first page
            return
        pages.append({"text": [], "notes": [], "label": label})

    def inline_text(el: ET.Element) -> str:
        parts = [el.text or ""]
        for child in el:
            name = _local(child.tag)
            if name == "ref" and child.get("type") == "foot":
                parts.append(f" [{(child.text or '').strip()}]")
            elif name == "note" and child.get("place") == "foot":
                add_note(child)
            elif name == "pb":
                flush(parts)
                parts = []
                new_page(child)
            else:
                parts.append(inline_text(child))
            parts.append(child.tail or "")
        return "".join(parts)

    def flush(parts: list[str]) -> None:
        text = " ".join("".join(parts).split())
        if text:
            pages[-1]["text"].append(text)

    def add_note(note: ET.Element) -> None:
        marker = note.get("n") or ""
        text = " ".join("".join(note.itertext()).split())
        pages[-1]["notes"].append(f"[{marker}] {text}" if marker else text)

    def walk(el: ET.Element) -> None:
        for child in el:
            name = _local(child.tag)
            if name == "pb":
                new_page(child)
            elif name == "head":
                flush(["## ", inline_text(child)])
            elif name == "note" and child.get("place") == "foot":
                add_note(child)
            elif name in {"p", "item", "formula", "label"}:
                flush([inline_text(child)])
            else:
                walk(child)

    walk(body)
    out = []
    for index, page in enumerate(pages):
        lines = page["text"] + (["__________", *page["notes"]] if page["notes"] else [])
        note_start = len(page["text"]) + 1
        out.append(
            Page(
                page_index=index,
                page_label=page["label"][0] if page["label"] else None,
                text="\n".join(lines),
                note_lines=list(range(note_start, len(lines))) if page["notes"] else [],
            )
        )
    return out
