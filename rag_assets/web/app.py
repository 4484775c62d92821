"""``rag-assets serve``: ask from a browser, over everything indexed in one data folder.

``GET /`` is the question box with the indexed partitions as document and year filters, each
partition linked to its page in the Dagster UI, and the questions already asked (read from
``answer_audit``, newest first, each linked to its answer's view). ``POST /ask`` (a plain form,
no script) answers the question and shows the answer's view (``core/evaluation/answer_view.py``,
the page ``ask --html`` writes) under the same box, then appends the answer to ``answer_audit``
as ``ask`` does. ``GET /answer/<answer_id>`` draws the view of an answer in ``answer_audit``
again from the answer stored in its row (``result_json``), its pages read as they are now.

The answer engine is built once per process (``Engine``): the model, retriever and stores load
on the first question (or at ``serve``'s start), and each question after costs what answering
it costs. Questions are answered one at a time. Every page is rendered by jinja2 with autoescape
on and carries no script (its Content Security Policy allows none).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, quote

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from rag_assets.cli import ask as ask_cli
from rag_assets.cli.output import warehouse_of
from rag_assets.core.ingest.catalog import partition_key
from rag_assets.web import DEFAULT_DAGSTER_URL

if TYPE_CHECKING:
    from starlette.requests import Request

    from rag_assets.core.evaluation.answer_view import AnswerView
    from rag_assets.core.generation.answers import Answerer
    from rag_assets.core.generation.records import QAResult

TEMPLATES = Path(__file__).with_name("templates")
SOURCE_ASSET = "raw_pages"  # a partition's page in the Dagster UI: the pages its report gave
HISTORY_ROWS = 50  # the newest questions listed
MAX_FORM_BYTES = 64 * 1024  # a question stops at 4,000 characters; a form past this is refused


class Engine:
    """The answer engine of one data folder, built on first use and kept, so that a question
    costs what answering it costs. One question at a time: a lock serializes the build and
    each answer (the engine's stores are opened once, not per thread)."""

    def __init__(self, data_dir: Path, provider: str | None = None) -> None:
        self.data_dir = data_dir
        self.provider = provider
        self._answerer: Answerer | None = None
        self._lock = threading.Lock()

    def _built(self) -> Answerer:
        if self._answerer is None:
            self._answerer = ask_cli.open_answerer(self.data_dir, self.provider)
        return self._answerer

    def warm(self) -> None:
        """Build the engine now (``StoreFault`` in one line when a store cannot serve)."""
        with self._lock:
            self._built()

    def ask(self, question: str, document: str | None, year: int | None) -> QAResult:
        with self._lock:
            return self._built().ask(question, document, year)


def dagster_partition_url(base: str, document: str, year: int,
                          asset: str = SOURCE_ASSET) -> str:
    """The partition's page of ``asset`` in the Dagster UI: ``/assets/<key>?view=partitions&
    partition=<document>|<year>``."""
    key = quote(partition_key(document, year), safe="")
    return f"{base.rstrip('/')}/assets/{quote(asset)}?view=partitions&partition={key}"


def environment() -> Environment:
    """The serve pages' templates, and the answer view's they extend: autoescape on, and a
    name a template asks for but is not given fails the render."""
    from rag_assets.core.evaluation.audit_html import TEMPLATES as VIEW_TEMPLATES

    loader = ChoiceLoader([FileSystemLoader(str(TEMPLATES)),
                           FileSystemLoader(str(VIEW_TEMPLATES))])
    return Environment(loader=loader, autoescape=True, undefined=StrictUndefined,
                       trim_blocks=True, lstrip_blocks=True)


def history(data_dir: Path) -> tuple[list[dict[str, Any]], str]:
    """The newest ``HISTORY_ROWS`` rows of ``answer_audit``, newest first, and a note when the
    table cannot be read now (none when nothing was asked yet)."""
    import pandas as pd

    from rag_assets.core.warehouse.connection import WAREHOUSE_ERRORS, read_rows

    try:
        frame = read_rows(warehouse_of(data_dir), "answer_audit", newest_by="answered_at",
                          limit=HISTORY_ROWS)
    except WAREHOUSE_ERRORS as err:
        return [], f"the history cannot be read now ({str(err).strip().splitlines()[0]})"
    if frame is None or frame.empty:
        return [], ""
    when = pd.to_datetime(frame["answered_at"], utc=True).dt.strftime("%Y-%m-%d %H:%M UTC")
    views = [None] * len(frame)  # a row written before answers were kept links to none
    if {"answer_id", "result_json"} <= set(frame.columns):
        views = [f"/answer/{quote(key, safe='')}" if isinstance(key, str) and kept else None
                 for key, kept in zip(frame["answer_id"], frame["result_json"].notna(),
                                      strict=True)]
    frame = frame.drop(columns=["result_json"], errors="ignore")
    frame = frame.assign(answered_at=when).astype(object).where(frame.notna(), None)
    rows = frame.to_dict("records")
    for row, view in zip(rows, views, strict=True):
        row["view"] = view
    return rows, ""


def stored_answer(data_dir: Path, answer_id: str) -> dict[str, Any] | None:
    """The ``answer_audit`` row of ``answer_id`` holding its answer, None when there is none
    (a table written before answers were kept has no such row); ``WAREHOUSE_ERRORS``."""
    from rag_assets.core.warehouse.connection import read_rows

    frame = read_rows(warehouse_of(data_dir), "answer_audit", where={"answer_id": answer_id})
    if frame is None or "result_json" not in frame:
        return None
    rows = frame[frame["result_json"].notna()]
    if rows.empty:
        return None
    row: dict[str, Any] = rows.iloc[0].astype(object).where(rows.iloc[0].notna(), None).to_dict()
    return row


class FormError(ValueError):
    """A question form that cannot be answered; ``str()`` is the line shown above the box."""


class Site:
    """The pages of one data folder: its partitions, its history, its engine."""

    def __init__(self, data_dir: Path, engine: Engine, dagster_url: str) -> None:
        from rag_assets.core.settings import Settings

        self.data_dir = data_dir
        self.engine = engine
        self.dagster_url = dagster_url
        self.max_question_chars = Settings().llm.max_question_chars
        self.templates = environment()

    def page(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.templates.get_template(template).render(**context)
        return HTMLResponse(html, status_code=status)

    def box(self, question: str = "", document: str = "", year: str = "", error: str = ""
            ) -> dict[str, Any]:
        """What the question box shows: the indexed partitions (``StoreFault``), the filters
        chosen, and the line of what was refused."""
        partitions = sorted(ask_cli.indexed_partitions(self.data_dir))
        return {"question": question, "document": document, "year": year, "error": error,
                "max_chars": self.max_question_chars,
                "documents": sorted({d for d, _ in partitions}),
                "years": sorted({y for _, y in partitions}),
                "partitions": [(d, y, self.link(d, y)) for d, y in partitions]}

    def link(self, document: str, year: int) -> str:
        return dagster_partition_url(self.dagster_url, document, year)

    def checked(self, fields: dict[str, str]) -> tuple[str, str | None, int | None]:
        """The question as the engine reads it and its filters, or ``FormError``."""
        from rag_assets.core.text.question_input import QuestionError, checked_question

        try:
            question = checked_question(fields.get("question", ""), self.max_question_chars)
        except QuestionError as err:
            raise FormError(str(err)) from err
        document = fields.get("document") or None
        year_text = fields.get("year", "").strip()
        if year_text and not year_text.isdigit():
            raise FormError(f"the year {year_text!r} is not a year")
        year = int(year_text) if year_text else None
        try:
            ask_cli.check_partition(ask_cli.indexed_partitions(self.data_dir), document, year)
        except ask_cli.UnknownPartition as err:
            raise FormError(str(err).removeprefix("--")) from err
        return question, document, year

    def index(self, request: Request) -> HTMLResponse:
        """The question box (filled from the query, as a history entry links it) and the
        history."""
        query = request.query_params
        return self.box_page(200, query.get("question", ""), query.get("document", ""),
                             query.get("year", ""))

    def box_page(self, status: int, question: str = "", document: str = "", year: str = "",
                 error: str = "") -> HTMLResponse:
        """The box and the history; a store that cannot serve is its one line (503)."""
        try:
            box = self.box(question, document, year, error)
        except ask_cli.StoreFault as fault:
            return self.page("fault.html.j2", 503, fault=str(fault))
        rows, note = history(self.data_dir)
        return self.page("index.html.j2", status, box=box, history=rows, history_note=note)

    async def ask(self, request: Request) -> HTMLResponse:
        """The posted form answered off the event loop (``respond``); a body past
        ``MAX_FORM_BYTES`` is refused (413)."""
        from starlette.concurrency import run_in_threadpool

        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_FORM_BYTES:
            return self.page("fault.html.j2", 413, fault="the form is too large")
        body = await request.body()
        if len(body) > MAX_FORM_BYTES:
            return self.page("fault.html.j2", 413, fault="the form is too large")
        fields = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace"),
                                               keep_blank_values=True).items()}
        response: HTMLResponse = await run_in_threadpool(self.respond, fields)
        return response

    def respond(self, fields: dict[str, str]) -> HTMLResponse:
        """The answer's view; a refused form is the box again with the reason (400), a store
        that cannot serve is one line (503)."""
        try:
            question, document, year = self.checked(fields)
            return self.answer(question, document, year)
        except FormError as err:
            return self.box_page(400, fields.get("question", ""), fields.get("document", ""),
                                 fields.get("year", ""), str(err))
        except ask_cli.StoreFault as fault:
            return self.page("fault.html.j2", 503, fault=str(fault))

    def answer(self, question: str, document: str | None, year: int | None) -> HTMLResponse:
        """The answer's view under the question box, then the answer appended to
        ``answer_audit`` (a note on the page when it could not be)."""
        from rag_assets.core.warehouse.tables import StaleTable

        try:
            result = self.engine.ask(question, document, year)
        except StaleTable as stale:  # a partition to ingest again: the one line, 503
            return self.page("fault.html.j2", 503, fault=str(stale))
        view = self.view_of(result)
        note = ask_cli.record_answer(self.data_dir, result, document, year) or ""
        return self.answer_page(result, view, question, document, year, note)

    def view_of(self, result: QAResult) -> AnswerView:
        """The answer's view, its cited pages read from the data folder (a page that cannot be
        read now is said so in the view)."""
        from rag_assets.core.evaluation.answer_view import build_view
        from rag_assets.core.warehouse.connection import WAREHOUSE_ERRORS

        try:
            sources = ask_cli.cited_sources(self.data_dir, result)
        except WAREHOUSE_ERRORS:  # the view says each page is not stored
            sources = {}
        return build_view(result, sources)

    def answer_page(self, result: QAResult, view: AnswerView, question: str, document: str | None,
                    year: int | None, note: str = "") -> HTMLResponse:
        """The answer's view under the question box (``question``, its filters), each cited
        partition linked to its Dagster page."""
        cited = dict.fromkeys((c.document, c.year) for claim in result.claims
                              for c in claim.citations)
        box = self.box(question, document or "", str(year or ""))
        return self.page("answer.html.j2", view=view, box=box, audit_note=note,
                         cited=[(d, y, self.link(d, y)) for d, y in cited])

    def stored(self, request: Request) -> HTMLResponse:
        """The view of an answer in ``answer_audit``, drawn again from its stored answer; an
        answer not stored is 404, a store that cannot serve is its one line (503)."""
        from rag_assets.core.generation.records import QAResult
        from rag_assets.core.warehouse.connection import WAREHOUSE_ERRORS

        answer_id = str(request.path_params["answer_id"])
        try:
            row = stored_answer(self.data_dir, answer_id)
            if row is None:
                return self.page("fault.html.j2", 404,
                                 fault=f"no answer {answer_id!r} is stored in answer_audit")
            result = QAResult.model_validate_json(row["result_json"])
            year = int(row["year"]) if row.get("year") is not None else None
            return self.answer_page(result, self.view_of(result), str(row["question"]),
                                    row.get("document"), year)
        except WAREHOUSE_ERRORS as err:
            return self.page("fault.html.j2", 503, fault="answer_audit cannot be read now "
                             f"({str(err).strip().splitlines()[0]})")
        except ask_cli.StoreFault as fault:
            return self.page("fault.html.j2", 503, fault=str(fault))


def create_app(data_dir: Path, dagster_url: str = DEFAULT_DAGSTER_URL,
               engine: Engine | None = None) -> Starlette:
    """The app over ``data_dir``: ``GET /``, ``POST /ask`` and ``GET /answer/<answer_id>``."""
    site = Site(data_dir, engine or Engine(data_dir), dagster_url)
    return Starlette(routes=[Route("/", site.index, methods=["GET"]),
                             Route("/ask", site.ask, methods=["POST"]),
                             Route("/answer/{answer_id}", site.stored, methods=["GET"])])
