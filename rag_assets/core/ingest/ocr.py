"""OCR of a page that has no text layer but an image: Debian's tesseract, run as a process.

Only the PDF engine calls it, and only for a page whose text layer holds next to nothing
(``MIN_TEXT_CHARS``) while an image is drawn on it: a page with text costs nothing more. The page
is rendered by PDFium at ``OCR_DPI`` (grayscale) and handed to ``tesseract`` on its standard input
(an uncompressed PGM: no temporary file); tesseract's hOCR output gives each printed line with its
box and its row height (``x_size``), so an OCR'd page carries type sizes like any PDF page and its
smaller note lines can form a footnote zone (``core/footnotes/stitching.py``).

Why tesseract (``tesseract-ocr`` from Debian's apt, installed by ``make ocr``) and not RapidOCR
(``rapidocr`` 3.10 with onnxruntime: PyPI wheels shipping their ONNX models), measured on this
machine (2 cores, load about 1.8) on a page of report text scanned at 150 dpi: both read 100% of
its 98 words; rendered at 200 / 300 dpi tesseract took 0.36 / 0.47 s, RapidOCR 2.5 / 2.3 s. On a
noisy, slightly rotated 100 dpi scan tesseract read 90% of the words in 0.6 s, RapidOCR 86% in
2.9 s (it ran words together). Tesseract weighs about 24 MB installed from apt (English and
script-detection data included); RapidOCR with onnxruntime and OpenCV about 290 MB of wheels.

Tesseract runs with ``OMP_THREAD_LIMIT=1`` (through ``env``, the rest of the environment
inherited): its OpenMP threads spin against each other and against other work on a busy 2-core
machine (2.8 s per page with the default threads, 0.36 s with one), and long documents already
read pages in 2 processes. The binary is called directly rather than through pytesseract, which
passes the process environment unchanged to tesseract and so cannot give it that limit per call.

The settings' ``runtime.ocr`` false (``RAG_ASSETS_OCR=off``, or ``0``, ``false``, ``no``) turns
OCR off; ``unavailable(False)`` then says so, as it says when tesseract or its English data is
missing, and such pages are flagged instead (``Page.text_source == "none"`` with the reason in
``Page.text_note``).
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from defusedxml import ElementTree as SafeET
from PIL import Image

from rag_assets.core.ingest.pages import Page

TURNED_OFF = "OCR is turned off (runtime.ocr, RAG_ASSETS_OCR)"
# rendered at 200 dpi: in trials on scans of 100 to 400 dpi (6 to 11 pt type, clean and noisy)
# it read as many lines exactly as 300 dpi did, in two thirds of the time
OCR_DPI = 200
OCR_LANG = "eng"
OCR_TIMEOUT = 120.0  # seconds for one page
MIN_TEXT_CHARS = 20  # fewer non-space characters in a page's text layer: next to no text
TESSERACT = "tesseract"
LINE_CLASSES = {"ocr_line", "ocr_header", "ocr_caption", "ocr_textfloat"}
IMAGE_NOTE = "an image and no text layer"  # opens the note of a page whose image was not read
SAME_SIZE = 0.07  # OCR row heights within 7% of each other are one type size
_BBOX_RE = re.compile(r"bbox (\d+) (\d+) (\d+) (\d+)")
_X_SIZE_RE = re.compile(r"x_size ([\d.]+)")
_CONF_RE = re.compile(r"x_wconf (\d+)")


def has_text(text: str) -> bool:
    """At least ``MIN_TEXT_CHARS`` printed (non-space) characters."""
    return len("".join(text.split())) >= MIN_TEXT_CHARS  # split() drops what isspace() is


@dataclass(frozen=True)
class OcrLine:
    """A line as OCR read it; geometry in PDF points with the origin at the bottom left, as the
    PDF engine's lines (``size``: the row height tesseract measured, a type size on its own
    scale, comparable between OCR'd lines, not with a text layer's sizes)."""

    text: str
    size: float
    left: float
    bottom: float
    top: float
    right: float


@dataclass(frozen=True)
class OcrResult:
    lines: list[OcrLine]
    words: int
    confidence: float  # mean word confidence, 0-100 (0 when no word)
    engine: str

    def note(self, dpi: int = OCR_DPI) -> str:
        """The one line a page read by OCR carries (``Page.text_note``)."""
        return (f"OCR ({self.engine}, {dpi} dpi): {self.words} words, mean confidence "
                f"{self.confidence:.0f}%")


class OcrError(RuntimeError):
    """Tesseract ran but failed on a page (``str(err)`` is one line)."""


def unavailable(enabled: bool = True) -> str | None:
    """Why OCR cannot run here (one line), or None when it can: turned off (``enabled`` False),
    or the binary is missing (looked for once per process)."""
    if not enabled:
        return TURNED_OFF
    return _binary_problem(shutil.which(TESSERACT))


def engine() -> str:
    """``tesseract 5.3.0`` (the version line of the binary found), or ``tesseract``."""
    return _version(shutil.which(TESSERACT) or TESSERACT) or TESSERACT


@lru_cache(maxsize=4)
def _version(binary: str) -> str | None:
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    first = (out.stdout or out.stderr).decode("utf-8", "replace").strip().splitlines()
    return first[0].strip() if out.returncode == 0 and first else None


@lru_cache(maxsize=4)
def _binary_problem(binary: str | None) -> str | None:
    if binary is None:
        return ("tesseract is not installed (Debian: apt-get install tesseract-ocr; "
                "`make ocr` does it as root)")
    if _version(binary) is None:
        return f"{binary} --version failed: tesseract does not run"
    try:
        out = subprocess.run([binary, "--list-langs"], capture_output=True, timeout=30,
                             check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{binary} --list-langs failed ({exc})"
    langs = (out.stdout + out.stderr).decode("utf-8", "replace").split()
    if OCR_LANG not in langs:
        return (f"tesseract has no '{OCR_LANG}' language data (Debian: apt-get install "
                f"tesseract-ocr-{OCR_LANG})")
    return None


def read_image(image: Image.Image, dpi: int = OCR_DPI) -> OcrResult:
    """The lines tesseract reads on a page image rendered at ``dpi`` (call ``unavailable()``
    first). Raises ``OcrError`` when tesseract fails or times out."""
    binary = shutil.which(TESSERACT) or TESSERACT
    buffer = io.BytesIO()
    image.convert("L").save(buffer, format="PPM")  # PGM: no compression to pay for
    try:
        out = subprocess.run(
            ["env", "OMP_THREAD_LIMIT=1", binary, "stdin", "stdout", "-l", OCR_LANG, "--dpi",
             str(dpi), "hocr"],
            input=buffer.getvalue(), capture_output=True, timeout=OCR_TIMEOUT, check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise OcrError(f"tesseract took over {OCR_TIMEOUT:.0f} s") from exc
    except OSError as exc:
        raise OcrError(f"tesseract could not be run ({exc})") from exc
    if out.returncode != 0:
        detail = " ".join(out.stderr.decode("utf-8", "replace").split())[:200]
        raise OcrError(f"tesseract exited with {out.returncode}: {detail}")
    return parse_hocr(out.stdout.decode("utf-8", "replace"), dpi, image.height,
                      _version(binary) or TESSERACT)


def parse_hocr(hocr: str, dpi: int, image_height: int, engine_name: str = TESSERACT
               ) -> OcrResult:
    """Lines (in tesseract's reading order: blocks, paragraphs, lines) with their words joined
    by one space, their box and row height in points; sizes within ``SAME_SIZE`` of each other
    are made one (tesseract's row heights jitter by a pixel or two between lines of one type)."""
    try:
        root = SafeET.fromstring(hocr.encode("utf-8"))
    except Exception as exc:  # defusedxml refuses entities; a truncated output does not parse
        raise OcrError(f"tesseract's hOCR output could not be read ({exc})") from exc
    scale = 72.0 / dpi
    raw: list[tuple[str, float, tuple[int, int, int, int]]] = []
    confidences: list[int] = []
    for element in root.iter():
        if element.get("class") not in LINE_CLASSES:
            continue
        words = []
        for word in element.iter():
            if word.get("class") != "ocrx_word":
                continue
            text = "".join(word.itertext()).strip()
            if text:
                words.append(text)
                conf = _CONF_RE.search(word.get("title", ""))
                confidences.append(int(conf.group(1)) if conf else 0)
        title = element.get("title", "")
        box = _BBOX_RE.search(title)
        size = _X_SIZE_RE.search(title)
        if not words or box is None:
            continue
        x0, y0, x1, y1 = (int(v) for v in box.groups())
        raw.append((" ".join(words), float(size.group(1)) * scale if size else 0.0,
                    (x0, y0, x1, y1)))
    sizes = same_sizes([s for _, s, _ in raw])
    lines = [
        OcrLine(text=text, size=size, left=x0 * scale, right=x1 * scale,
                top=(image_height - y0) * scale, bottom=(image_height - y1) * scale)
        for (text, _, (x0, y0, x1, y1)), size in zip(raw, sizes, strict=True)
    ]
    mean = sum(confidences) / len(confidences) if confidences else 0.0
    return OcrResult(lines=lines, words=len(confidences), confidence=mean, engine=engine_name)


def same_sizes(sizes: list[float]) -> list[float]:
    """Each size replaced by the median of its group: sorted sizes each within ``SAME_SIZE`` of
    the one before form a group (0 stays 0)."""
    order = sorted((s, i) for i, s in enumerate(sizes) if s > 0)
    out = list(sizes)
    group: list[tuple[float, int]] = []
    for item in [*order, (float("inf"), -1)]:
        if group and item[0] > group[-1][0] * (1 + SAME_SIZE):
            median = group[len(group) // 2][0]
            for _, i in group:
                out[i] = round(median, 2)
            group = []
        group.append(item)
    return out


def summary(pages: Sequence[Page]) -> str:
    """One line on OCR for a document: pages read and by what, pages whose image was not read
    and why, or that none needed it."""
    read = [p for p in pages if p.text_source == "ocr"]
    unread = [p for p in pages if p.text_source == "none"
              and (p.text_note or "").startswith(IMAGE_NOTE)]
    parts = []
    if read:
        parts.append(f"{len(read)} page(s) read by {engine()} at {OCR_DPI} dpi")
    if unread:
        parts.append(f"{len(unread)} page(s) with {unread[0].text_note}")
    return "; ".join(parts) or "not needed: no page lacks a text layer and holds an image"
