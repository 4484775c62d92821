"""The report file and stored pages of each partition an answer cites, for its HTML view.

``raw_pages`` records the file each partition was read from (``source_file``) and its content
hash. A page image is drawn only from that very content: the recorded file, or the partition's
report under ``data/reports/<document>/<year>/`` (a data folder copied or moved elsewhere), when
its hash is the one ingested. Otherwise, and for text and TEI reports, the view shows the
stored page text, and ``note`` says why there is no image.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rag_assets.core.evaluation.answer_view import PartitionSource
from rag_assets.core.ingest.catalog import report_for
from rag_assets.core.ingest.documents import document_kind, file_sha256
from rag_assets.core.ingest.pages import raw_page_text
from rag_assets.core.warehouse.connection import read_partition_rows
from rag_assets.core.warehouse.stored import PAGES_TABLE, StoredPages


def partition_sources(database: str | Path, reports_dir: Path,
                      partitions: Iterable[tuple[str, int]]
                      ) -> dict[tuple[str, int], PartitionSource]:
    """What the view shows of each stored partition of ``partitions``."""
    stored = StoredPages(database)
    out: dict[tuple[str, int], PartitionSource] = {}
    for document, year in dict.fromkeys(partitions):
        pages = stored.pages(document, year)
        if not pages:
            continue
        texts = {p.page_index: raw_page_text(p) for p in pages}
        rows = read_partition_rows(database, PAGES_TABLE, document, year,
                                   ["source_file", "sha256"]).head(1)
        recorded = Path(str(rows.source_file.iloc[0])) if len(rows) else None
        sha256 = str(rows.sha256.iloc[0]) if len(rows) else ""
        pdf, note = _pdf_of(recorded, reports_dir, document, year, sha256)
        out[(document, year)] = PartitionSource(pdf, texts, note)
    return out


def _pdf_of(recorded: Path | None, reports_dir: Path, document: str, year: int,
            sha256: str) -> tuple[Path | None, str]:
    """The PDF the partition was read from, or None and why its text is shown instead."""
    if recorded is not None and document_kind(recorded) != "pdf":
        return None, ""
    try:
        filed = report_for(reports_dir, document, year)
    except ValueError:
        filed = None
    candidates = [p for p in (recorded, filed) if p is not None and p.is_file()]
    for path in candidates:
        if file_sha256(path) == sha256:
            return path, ""
    if candidates:
        return None, (f"{candidates[0]} has changed since it was ingested: the stored text "
                      "is shown, not the page")
    return None, (f"the report {recorded} is not there any more: the stored text is shown, "
                  "not the page")
