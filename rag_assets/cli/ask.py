"""``rag-assets ask``: one question answered from everything indexed, every fault in one line.

The question itself is checked by ``app.main`` before anything is opened
(``core/text/question_input.py``). Then, each check cheap and before the model loads, so that a
broken store is refused within seconds, with exit code 2 and one line naming the store and what
to run:

1. the warehouse exists, is a database (a file of random bytes or a truncated one is refused at
   once, not after the lock's retries) and holds ``raw_pages``;
2. ``--document`` and ``--year`` name a partition ``raw_pages`` holds (one ``DISTINCT``, not the
   pages; else the line lists the documents, or that document's years);
3. the LanceDB folder exists and holds the model's chunk tables (``VectorStore.searchable``);
   a folder whose tables cannot be read is refused the same way.

The answer is printed (and with ``--html`` its view written, the file's path kept in the row)
before it is appended to ``answer_audit``: an append that cannot get the
warehouse's writer lock (another ``ask`` or a run writing) is retried for ``AUDIT_WAIT_SECONDS``
and then said on stderr in one line, and the answer stands (exit 0).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag_assets.cli.output import command_name, has_warehouse, missing_table, warehouse_of

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rag_assets.core.evaluation.answer_view import PartitionSource
    from rag_assets.core.generation.answers import Answerer
    from rag_assets.core.generation.records import QAResult
    from rag_assets.core.settings import Settings

AUDIT_WAIT_SECONDS = 10.0  # an ask's audit row waits this long for another writer, then is skipped


def rebuild() -> str:
    """What to run to build the stores, written as it runs here."""
    return f"run `{command_name()} ingest REPORT --document NAME --year YYYY` or `make demo`"


class StoreFault(Exception):
    """A store that cannot serve the question; ``str()`` is the one line to print."""


class UnknownPartition(Exception):
    """``--document`` or ``--year`` names nothing indexed; ``str()`` says what is."""


def cmd_ask(args: argparse.Namespace) -> int:
    """Answer one question; the answer, its sources and their verification marks. Exit 2, in
    one line, for a store fault or an unknown ``--document`` / ``--year``."""
    from rag_assets.core.warehouse.tables import StaleTable

    try:
        answerer = _answerer(args)
        result = answerer.ask(args.question, args.document, args.year)
    except (StoreFault, StaleTable) as fault:  # a stale partition: what to run, in one line
        print(f"cannot answer: {fault}", file=sys.stderr)
        return 2
    except UnknownPartition as unknown:
        print(f"rag-assets ask: error: {unknown}", file=sys.stderr)
        return 2
    _print_result(result, args.json)
    sys.stdout.flush()
    code = write_view(args.html, args.data_dir, result) if args.html else 0
    _record(args, result, str(args.html.resolve()) if args.html and code == 0 else None)
    return code


def _answerer(args: argparse.Namespace) -> Answerer:
    """The answer engine over the data folder's stores, each checked (``StoreFault``), the
    question's partition first (``UnknownPartition``)."""
    check_partition(indexed_partitions(args.data_dir), args.document, args.year)
    return open_answerer(args.data_dir, args.provider)


def indexed_partitions(data_dir: Path) -> list[tuple[str, int]]:
    """The (document, year) partitions indexed under ``data_dir``, or ``StoreFault`` in one
    line when the folder or its warehouse is missing or unreadable."""
    if not data_dir.is_dir():
        raise StoreFault(f"no data folder {data_dir}: {rebuild()} first")
    if not has_warehouse(data_dir):
        raise StoreFault(f"nothing indexed under {data_dir} (no warehouse "
                         f"{warehouse_of(data_dir)}): {rebuild()} first")
    return _partitions(data_dir)


def open_answerer(data_dir: Path, provider: str | None = None) -> Answerer:
    """The answer engine built by the core from the one ``Settings`` with this data folder
    (and model ``provider``), its stores checked (``StoreFault``): no Dagster to answer. What
    ``ask`` builds per question and ``serve`` once per process."""
    from rag_assets.core.settings import IngestSettings, Settings

    settings = Settings()
    ingest = settings.ingest.model_dump() | {"data_dir": str(data_dir)}
    update: dict[str, object] = {"ingest": IngestSettings(**ingest)}
    if provider:
        update["llm"] = settings.llm.model_copy(update={"provider": provider})
    return _built(settings.model_copy(update=update))


def _partitions(data_dir: Path) -> list[tuple[str, int]]:
    """The (document, year) partitions ``raw_pages`` holds (a ``DISTINCT``, not its pages), or
    ``StoreFault`` naming the warehouse and what to run."""
    from rag_assets.core.warehouse.connection import WAREHOUSE_ERRORS, read_partitions

    warehouse = warehouse_of(data_dir)
    try:
        partitions = read_partitions(warehouse, "raw_pages")
    except WAREHOUSE_ERRORS as err:
        raise StoreFault(f"the warehouse {warehouse} cannot be read ({_first_line(err)}): "
                         f"move it aside and {rebuild()}") from err
    if not partitions:
        raise StoreFault(f"{missing_table(data_dir, 'raw_pages')}: nothing ingested: {rebuild()}")
    return partitions


def check_partition(partitions: Sequence[tuple[str, int]], document: str | None,
                    year: int | None) -> None:
    """``UnknownPartition`` naming what is indexed when ``document`` or ``year`` is not."""
    documents = sorted({d for d, _ in partitions})
    if document is not None and document not in documents:
        raise UnknownPartition(f"--document {document!r} is not indexed; indexed: "
                               f"{', '.join(documents)}")
    if year is None:
        return
    years = sorted({y for d, y in partitions if document is None or d == document})
    if year not in years:
        where = f" for {document}; its indexed years" if document else "; indexed years"
        raise UnknownPartition(f"--year {year} is not indexed{where}: "
                               f"{', '.join(map(str, years))}")


def _built(settings: Settings) -> Answerer:
    """``answerer_from`` over a LanceDB folder checked first (it exists and its chunk tables
    open), so that a missing or damaged store is one line, not a traceback. Its pages and
    statement facts are read from the warehouse as questions need them."""
    from rag_assets.core.engine import answerer_from
    from rag_assets.core.llm.client import LLMConfigError
    from rag_assets.core.warehouse.connection import WAREHOUSE_ERRORS

    lance = settings.ingest.lancedb_dir
    if isinstance(lance, Path) and not lance.is_dir():
        raise StoreFault(f"no LanceDB store {lance} (the vectors): {rebuild()}")
    try:
        answerer = answerer_from(settings)
        for kind in ("naive", "enriched"):
            answerer.retriever.store.searchable(kind)
    except LLMConfigError as err:  # a setting of the model, not the store: say which
        raise StoreFault(f"the {settings.llm.provider} model: {_first_line(err)}") from err
    except LookupError as err:  # no chunk table of this model
        raise StoreFault(f"{_first_line(err)} ({rebuild()})") from err
    except WAREHOUSE_ERRORS as err:
        raise StoreFault(f"the warehouse {settings.ingest.warehouse_path} cannot be read "
                         f"({_first_line(err)}): move it aside and {rebuild()}") from err
    except (OSError, ValueError, RuntimeError) as err:  # lance's errors on a damaged folder
        raise StoreFault(f"the LanceDB store {lance} cannot be read ({_first_line(err)}): "
                         f"move it aside and {rebuild()}") from err
    return answerer


def _first_line(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    return lines[0] if lines else type(err).__name__


def answer_json(result: QAResult) -> dict[str, Any]:
    """The answer as ``--json`` prints it: the ``QAResult`` with every page one-based and named
    ``page_number`` (the number ``p.N`` and a reason's text give), not the stored zero-based
    ``page`` index a reader would take for the printed page."""
    data = result.model_dump(mode="json")
    data["sources_used"] = [_page_number(source) for source in data["sources_used"]]
    for claim in data["claims"]:
        claim["citations"] = [_page_number(citation) for citation in claim["citations"]]
    return data


def _page_number(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its zero-based ``page`` replaced, in place in the key order, by the
    one-based ``page_number``."""
    return {("page_number" if key == "page" else key): (value + 1 if key == "page" else value)
            for key, value in record.items()}


def _print_result(result: QAResult, as_json: bool) -> None:
    if as_json:
        print(json.dumps(answer_json(result), indent=2, ensure_ascii=False))
        return
    print(result.answer)
    if result.sources_used:
        print("\nSources:")
        for source in result.sources_used:
            print(f"  {source.label}  {source.mark}")
    for event in result.guardrail_events:
        print(f"  guardrail {event.name}: {event.detail}")


def write_view(path: Path, data_dir: Path, result: QAResult) -> int:
    """Write the answer's HTML view (``core/evaluation/answer_view.py``) to ``path``, its pages
    read from the data folder's warehouse and reports; a file that cannot be written is one
    line on stderr and exit 1 (the answer printed stands)."""
    from rag_assets.core.evaluation.answer_view import answer_html
    from rag_assets.core.warehouse.connection import WAREHOUSE_ERRORS

    try:
        path.write_text(answer_html(result, cited_sources(data_dir, result)), encoding="utf-8")
    except (OSError, *WAREHOUSE_ERRORS) as err:
        print(f"cannot write the answer's view to {path}: {_first_line(err)}", file=sys.stderr)
        return 1
    print(f"view: {path}", file=sys.stderr)
    return 0


def cited_sources(data_dir: Path, result: QAResult) -> dict[tuple[str, int], PartitionSource]:
    """What the answer's view shows of each partition ``result`` cites: its report file and
    stored pages, read from the data folder's warehouse and reports (``WAREHOUSE_ERRORS``)."""
    from rag_assets.core.evaluation.view_sources import partition_sources

    cited = [(c.document, c.year) for claim in result.claims for c in claim.citations]
    return partition_sources(warehouse_of(data_dir), data_dir / "reports", cited)


def _record(args: argparse.Namespace, result: QAResult, view_path: str | None = None) -> None:
    """Append the answer to ``answer_audit`` (with the file its view was written to); what
    could not be appended is one line on stderr."""
    note = record_answer(args.data_dir, result, args.document, args.year, view_path)
    if note:
        print(f"note: {note}", file=sys.stderr)


def record_answer(data_dir: Path, result: QAResult, document: str | None,
                  year: int | None, view_path: str | None = None) -> str | None:
    """Append the answer to the data folder's ``answer_audit``; a warehouse that cannot take it
    now (another writer holds the lock past ``AUDIT_WAIT_SECONDS``) is the line returned."""
    from rag_assets.core.generation.answers import audit_record
    from rag_assets.core.generation.storage import append_audit
    from rag_assets.core.warehouse.connection import WAREHOUSE_ERRORS, WAREHOUSE_SCHEMA

    warehouse = warehouse_of(data_dir)
    try:
        append_audit(warehouse, WAREHOUSE_SCHEMA,
                     [audit_record(result, document=document, year=year, view_path=view_path)],
                     wait_seconds=AUDIT_WAIT_SECONDS)
    except WAREHOUSE_ERRORS as err:
        return f"the answer was not added to answer_audit in {warehouse} ({_first_line(err)})"
    return None
