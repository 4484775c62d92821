"""The report tree ``data/reports/<document>/<year>/<file>``: what is there, and what changed.

A partition is one filed report, keyed ``<document>|<year>`` (``partition_key``). Document names
are sanitized to ``[a-z0-9-]+``: ``|`` separates the key's two values, and ``,`` separates keys
in Dagster's partition selections.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel

from rag_assets.core.ingest.documents import document_kind, file_sha256
from rag_assets.core.text.years import WHOLE_YEAR_RE

DOCUMENT_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def partition_key(document: str, year: int | str) -> str:
    """The partition of a document's report of ``year``: ``costco-10k|2021``."""
    return f"{document}|{year}"


def split_partition_key(key: str) -> tuple[str, int]:
    """(document, year) of a partition key; a ``ValueError`` naming the key otherwise."""
    document, _, year = key.rpartition("|")
    if not document or not year.isdigit():
        raise ValueError(f"partition key {key!r} is not <document>|<year>")
    return document, int(year)


class ReportFile(BaseModel):
    document: str
    year: int
    path: Path
    size: int
    mtime_ns: int

    @property
    def partition(self) -> str:
        return partition_key(self.document, self.year)


class CatalogProblem(BaseModel):
    path: Path
    problem: str


def sanitize_document_name(name: str) -> str:
    """``3M 10-K`` -> ``3m-10-k``: lowercase, runs of other characters become one dash."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def several_reports(document: str, year: int | str, files: list[Path]) -> str:
    """The one-line problem of a partition folder holding more than one report."""
    names = ", ".join(sorted(p.name for p in files))
    return f"{len(files)} report files for {document}|{year}: {names}; keep one"


def _is_report(path: Path) -> bool:
    return path.is_file() and not path.name.startswith(".") and document_kind(path) is not None


def scan_reports(reports_dir: Path) -> tuple[list[ReportFile], list[CatalogProblem]]:
    """Every partition's report, and what cannot be a partition (with why).

    A file of an unsupported type or in a badly named folder is one problem each; a partition
    folder holding several reports is one problem for the folder (and none of its files is a
    report), with the same words as ``report_for`` fails that partition with.
    """
    found: list[ReportFile] = []
    problems: list[CatalogProblem] = []
    if not reports_dir.exists():
        return found, problems
    by_folder: dict[Path, list[Path]] = {}
    for path in sorted(p for p in reports_dir.glob("*/*/*") if p.is_file()):
        if path.name.startswith("."):
            continue
        doc_dir, year_dir = path.parent.parent.name, path.parent.name
        if document_kind(path) is None:
            problems.append(CatalogProblem(path=path, problem="unsupported file type"))
        elif not DOCUMENT_NAME_RE.match(doc_dir):
            suggestion = sanitize_document_name(doc_dir)
            problems.append(
                CatalogProblem(path=path, problem=f"document folder must be [a-z0-9-]+ "
                               f"(rename it to {suggestion!r})")
            )
        elif not WHOLE_YEAR_RE.match(year_dir):
            problems.append(CatalogProblem(path=path, problem="year folder must be a year"))
        else:
            by_folder.setdefault(path.parent, []).append(path)
    for folder, files in sorted(by_folder.items()):
        document, year = folder.parent.name, folder.name
        if len(files) > 1:
            problems.append(
                CatalogProblem(path=folder, problem=several_reports(document, year, files))
            )
            continue
        stat = files[0].stat()
        found.append(
            ReportFile(document=document, year=int(year), path=files[0], size=stat.st_size,
                       mtime_ns=stat.st_mtime_ns)
        )
    found.sort(key=lambda r: r.path)
    problems.sort(key=lambda p: p.path)
    return found, problems


def report_for(reports_dir: Path, document: str, year: int | str) -> Path | None:
    """The one report of a partition; None for a gap; a ``ValueError`` when there are several
    (the message ``scan_reports`` reports that folder with)."""
    folder = reports_dir / document / str(year)
    files = sorted(p for p in folder.glob("*") if _is_report(p)) if folder.exists() else []
    if len(files) > 1:
        raise ValueError(f"{folder}: {several_reports(document, year, files)}")
    return files[0] if files else None


def has_report(reports_dir: Path, document: str, year: int | str) -> bool:
    """Whether the partition has a report, or is a gap of the grid; a folder holding several
    has one (``raw_pages`` fails it with the reason)."""
    try:
        return report_for(reports_dir, document, year) is not None
    except ValueError:
        return True


def changed_reports(
    reports: list[ReportFile], seen: dict[str, list[int | str]]
) -> tuple[list[tuple[ReportFile, str]], dict[str, list[int | str]]]:
    """Reports that are new or whose content changed since ``seen``, and the new ``seen``.

    ``seen`` maps a path to ``[size, mtime_ns, sha256]``; the file is only hashed again when its
    size or mtime moved, and only counts as changed when its hash did (a touch is not an edit).
    """
    changed: list[tuple[ReportFile, str]] = []
    new_seen: dict[str, list[int | str]] = {}
    for report in reports:
        key = str(report.path)
        previous = seen.get(key)
        if previous and previous[0] == report.size and previous[1] == report.mtime_ns:
            new_seen[key] = previous
            continue
        digest = file_sha256(report.path)
        new_seen[key] = [report.size, report.mtime_ns, digest]
        if not previous or previous[2] != digest:
            changed.append((report, digest))
    return changed, new_seen
