"""Repair before refusing: a PDF that PDFium cannot open (a damaged cross-reference table, a
truncated trailer) is rebuilt by qpdf (pikepdf) and read from the rebuilt copy.

Real 8-Ks with damaged cross-reference tables were refused "corrupt or not a PDF (PDFium: Data
format error)", and pdfplumber refuses them too, while qpdf reconstructs their object table by
scanning the file, in under a second, and every reader then finds their text. Only what qpdf
cannot open either is refused.

The reader spreads pages over spawned worker processes that open the PDF by path, as every page
parser does (``parser.PageParser``). So the repaired bytes are written once to a temporary file
that the load owns and removes when it ends: workers and any other parser read it as they read
any PDF, and the repair runs once, not once per worker (repairing in each worker would also
need every parser to know about it).
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pikepdf

from rag_assets.core.ingest.pages import DocumentError, one_line_cause

QPDF_NOTES = 3  # what qpdf says it repaired, first notes ("file is damaged; can't find ...")


def repaired_bytes(path: Path, cause: str) -> tuple[bytes, str]:
    """qpdf's rebuilt copy of ``path`` (encryption with an empty password removed) and what qpdf
    said it repaired; ``DocumentError`` in one line when qpdf cannot open it either (``cause``:
    why PDFium refused it)."""
    try:
        with pikepdf.open(path) as pdf:
            repairs = [" ".join(w.removeprefix(f"{path}: ").split())
                       for w in pdf.get_warnings()]
            buffer = io.BytesIO()
            pdf.save(buffer)
    except pikepdf.PasswordError as exc:
        raise DocumentError(path, "password-protected PDF (a password is needed)") from exc
    except Exception as exc:  # qpdf's own errors, and what it raises on bytes that are no PDF
        raise DocumentError(
            path, f"corrupt or not a PDF ({cause}; qpdf could not repair it: "
            f"{one_line_cause(exc).replace(f'{path}: ', '')})") from exc
    said = f"qpdf: {'; '.join(repairs[:QPDF_NOTES])}" if repairs else "qpdf rebuilt it"
    return buffer.getvalue(), said


@contextmanager
def repaired_file(path: Path, cause: str) -> Iterator[tuple[Path, str]]:
    """The repaired copy of ``path`` as a temporary file (same name, in a folder of its own,
    removed on exit) and the one-line cause: why PDFium refused it and what qpdf repaired."""
    data, said = repaired_bytes(path, cause)
    with tempfile.TemporaryDirectory(prefix="rag-assets-repaired-") as folder:
        fixed = Path(folder) / path.name
        fixed.write_bytes(data)
        yield fixed, f"{cause}; {said}"
