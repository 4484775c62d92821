"""``rag-assets ingest``: file one report where the catalog and the report sensor look, then
ingest and index its partition in this process."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from rag_assets.cli.commands import run_partition
from rag_assets.cli.output import DEMO_LEGEND, demo_table, legend, report_failures
from rag_assets.cli.runs import open_instance_for

if TYPE_CHECKING:
    import dagster as dg

SHOWN_FAULTS = 5  # flagged pages named on the terminal; all of them are in the run log


class IngestError(ValueError):
    """A report that cannot be filed as given (one line, for stderr)."""


def check_ingest(path: Path, document: str, year: str, reports_dir: Path) -> Path:
    """Where ``path`` is filed for (document, year): ``<reports_dir>/<document>/<year>/<name>``.
    Raises ``IngestError`` for a bad name or year, a missing or unsupported file, or a folder that
    already holds another report (a file of the same name is replaced)."""
    from rag_assets.core.ingest.catalog import DOCUMENT_NAME_RE, sanitize_document_name
    from rag_assets.core.ingest.documents import SUPPORTED_SUFFIXES, document_kind
    from rag_assets.core.text.years import WHOLE_YEAR_RE

    if not DOCUMENT_NAME_RE.match(document):
        suggestion = sanitize_document_name(document)
        hint = f": try --document {suggestion}" if DOCUMENT_NAME_RE.match(suggestion) else ""
        raise IngestError(f"document name {document!r} must be lowercase letters, digits and "
                          f"dashes, starting with a letter or digit{hint}")
    if not WHOLE_YEAR_RE.match(year):
        raise IngestError(f"year {year!r} must be a four-digit year (1900-2099)")
    if not path.exists():
        raise IngestError(f"{path}: no such file")
    if not path.is_file():
        raise IngestError(f"{path}: not a file")
    if document_kind(path) is None:
        raise IngestError(f"{path.name}: unsupported file type (expected one of "
                          f"{', '.join(SUPPORTED_SUFFIXES)})")
    if path.name.startswith("."):
        raise IngestError(f"{path.name}: a name starting with '.' is ignored in the report "
                          "tree; rename the file")
    folder = reports_dir / document / year
    others = sorted(
        p.name for p in (folder.iterdir() if folder.is_dir() else [])
        if p.is_file() and document_kind(p) and not p.name.startswith(".") and p.name != path.name
    )
    if others:
        raise IngestError(f"{folder} already holds {', '.join(others)} (one report per document "
                          f"and year): remove it to file {path.name} instead")
    return folder / path.name


def cmd_ingest(args: argparse.Namespace) -> int:
    """File one report under data/reports/<document>/<year>/, then ingest and index it."""
    try:
        target = check_ingest(args.path, args.document, args.year, args.data_dir / "reports")
    except IngestError as err:
        print(f"rag-assets ingest: error: {err}", file=sys.stderr)
        return 2
    if target.exists() and target.resolve() == args.path.resolve():
        print(f"{target} is already in place")
    else:
        replacing = target.exists()
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.partial")  # hidden: no catalog sees it
        shutil.copyfile(args.path, partial)
        os.replace(partial, target)  # appears whole, never half-copied, to a watching sensor
        print(f"{'replaced' if replacing else 'filed'} {target} ({target.stat().st_size:,} bytes)")
    from rag_assets.core.ingest.catalog import partition_key

    instance = open_instance_for([partition_key(args.document, args.year)])
    started = time.time()
    row = run_partition(args.document, int(args.year), args.data_dir, instance,
                        label=f"{args.document}|{args.year}", source="cli-ingest")
    for line in reading_notes(instance, f"{args.document}|{args.year}", started):
        print(line)
    print(demo_table([row]))
    legend(DEMO_LEGEND)
    if row["error"]:
        report_failures([f"{row['partition']}: {row['error']}"])
        return 1
    return 0


def reading_notes(instance: dg.DagsterInstance, partition: str, since: float) -> list[str]:
    """What the reading of the partition's file, materialized after ``since`` (epoch seconds),
    recorded that a user must see: ``repaired <file>: <cause>`` when the PDF was read from
    qpdf's repair, and the pages flagged, each in its fault's own words (``PageFault.line``:
    what failed, and whether the page kept its text)."""
    import dagster as dg

    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey("raw_pages"), asset_partitions=[partition]),
        limit=1,
    ).records
    if not records or records[0].timestamp < since or records[0].asset_materialization is None:
        return []
    meta = {k: getattr(v, "value", v) for k, v in records[0].asset_materialization.metadata.items()}
    notes = []
    if meta.get("repaired") is True:
        notes.append(f"repaired {Path(str(meta.get('file'))).name}: {meta.get('repair_cause')}")
    faults = meta.get("page_faults") or []
    if isinstance(faults, list) and faults:
        total = int(str(meta.get("faults") or len(faults)))
        shown = "; ".join(str(f["line"]) for f in faults[:SHOWN_FAULTS])
        more = f"; and {total - SHOWN_FAULTS} more" if total > SHOWN_FAULTS else ""
        notes.append(f"flagged {meta.get('pages_flagged')} page(s): {shown}{more}")
    return notes
