"""``rag-assets``: the sample corpus, the demo over every partition, and evaluation backfills.

    rag-assets sample   [--data-dir data] [--corpora ../shared/corpora]
    rag-assets demo     [--data-dir data] [--corpora ../shared/corpora] [--only ...] [--no-eval]
    rag-assets backfill [retrieval_runs] [retrieval_metrics] [--only ...] [--set w_bm25=0.8]
    rag-assets ingest   PATH --document NAME --year YYYY [--data-dir data]
    rag-assets ask      "QUESTION" [--document NAME] [--year YYYY] [--json] [--provider P]
                        [--html FILE]
    rag-assets serve    [--port 8765] [--dagster-url URL] [--provider P] [--data-dir data]
    rag-assets report   --partition DOC|YEAR [--data-dir data]
    rag-assets settings [--readme README.md] [--reference docs/CONFIGURATION.md]
    rag-assets --version

``demo`` materializes the ingest and index assets of every (document, year) partition in this
process against the Dagster instance in ``$DAGSTER_HOME`` (the UI then shows the same runs), then
the evaluation assets and their roll-up, and prints one line per partition and the metrics.
``backfill`` re-materializes evaluation assets over every partition (e.g. after changing a
retrieval weight) and refreshes the roll-up. ``ingest`` files one report and ingests and indexes
its partition. ``ask`` answers a question from everything indexed, with numbered citations that
were checked against the stored pages, and appends it to ``answer_audit``; with ``--html`` it
also writes the answer's view, each cited page drawn with its quote highlighted. ``serve``
asks from a browser: a question box over the indexed partitions, the answer's view, the history.

The terminal gets one line per partition (and, on a terminal, a ticker of the running step);
Dagster's own log goes only to the run records (the instance's event log, shown by the UI).
"""

from __future__ import annotations

import argparse
import difflib
import os
import signal
import sys
from pathlib import Path

from rag_assets.cli.ask import cmd_ask
from rag_assets.cli.commands import cmd_backfill, cmd_demo, cmd_report, cmd_sample, cmd_settings
from rag_assets.cli.ingest import cmd_ingest

DEFAULT_CORPORA = Path("../shared/corpora")
# onnxruntime 1.30's native module overflows its stack while importing when the process's command
# line (/proc/self/cmdline) passes 32 KiB (a recursion over it: SIGSEGV, no message; reproduced
# with `python -c "import onnxruntime" <32,518 characters>`), whatever the command does with its
# arguments. Half of that is refused before anything is imported: no question, path or name
# needs it (questions stop at max_question_chars, 4,000).
MAX_COMMAND_LINE_BYTES = 16_384


def _options() -> argparse.ArgumentParser:
    """A parser that only holds options, to hand to commands as a parent."""
    return argparse.ArgumentParser(add_help=False)


def _shared() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The options commands share, declared once: the data folder (every command) and which
    reports (``sample``, ``demo``, ``backfill``)."""
    from rag_assets.core.settings import Settings

    data = _options()
    data.add_argument("--data-dir", type=Path, default=Path(Settings().ingest.data_dir),
                      help="data folder (reports/, questions/, stores)")
    corpus = _options()
    corpus.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA,
                        help="shared real documents (10-Ks, GDPR); skipped when absent")
    corpus.add_argument("--only", nargs="*", default=[],
                        help="partitions (gdpr|2016), documents or years")
    return data, corpus


def build_parser() -> argparse.ArgumentParser:
    """The commands and their options. A command whose own arguments come before the shared
    ones in its usage declares them in a parent of their own, listed first."""
    data, corpus = _shared()
    parser = argparse.ArgumentParser(prog="rag-assets",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("sample", parents=[data, corpus],
                   help="write the sample corpus and golden questions").set_defaults(
        func=cmd_sample)
    demo = sub.add_parser("demo", parents=[data, corpus],
                          help="sample corpus, then every asset of every partition")
    demo.add_argument("--no-eval", action="store_true", help="ingest and index only")
    demo.set_defaults(func=cmd_demo)
    backfill = sub.add_parser(
        "backfill", parents=[data, corpus],
        help="re-run evaluation assets over every partition, then the roll-up")
    backfill.add_argument("assets", nargs="*", default=[],
                          help="partitioned assets: retrieval_runs retrieval_metrics (the "
                          "default), summaries answers answer_metrics")
    backfill.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                          help="a retrieval setting for these runs, e.g. --set w_bm25=0.8")
    backfill.set_defaults(func=cmd_backfill)

    ingest = _options()
    ingest.add_argument("path", type=Path, help="the report (.pdf, .txt, .tei.xml or .xml)")
    ingest.add_argument("--document", required=True,
                        help="document name, [a-z0-9-]+ (e.g. acme-10k)")
    ingest.add_argument("--year", required=True, help="the report's year, e.g. 2023")
    sub.add_parser(
        "ingest", parents=[ingest, data],
        help="file one report under data/reports/<document>/<year>/, ingest and index it"
    ).set_defaults(func=cmd_ingest)
    ask = _options()
    ask.add_argument("question", help="the question; control characters become spaces, an "
                     "empty one or one longer than the llm setting max_question_chars (4,000 "
                     "characters) is refused")
    ask.add_argument("--document", help="only this document (e.g. 3m-10k); one that is not "
                     "indexed is refused (exit 2) with the documents that are")
    ask.add_argument("--year", type=int, help="only this year; one not indexed (for "
                     "--document: in that document) is refused (exit 2) with the years that are")
    ask.add_argument("--json", action="store_true", help="the QAResult as JSON")
    ask.add_argument("--html", type=Path, metavar="FILE",
                     help="also write the answer's view: each cited page drawn with the quote "
                     "highlighted, the citations' marks and the guardrails (one HTML file)")
    ask.add_argument("--provider", choices=["extractive", "openai", "azure"],
                     help="override the llm resource's provider")
    ask_parser = sub.add_parser("ask", parents=[ask, data],
                                help="answer a question with verified page citations")
    ask_parser.set_defaults(func=cmd_ask, command_parser=ask_parser)
    _serve_parser(sub, data)
    report = _options()
    report.add_argument("--partition", required=True, metavar="DOC|YEAR",
                        help="e.g. exemplar-corp-earnings|2024")
    sub.add_parser(
        "report", parents=[report, data],
        help="rebuild a partition's audit report (Markdown, heatmap, HTML) from stored "
        "tables: no model call, no embedding").set_defaults(func=cmd_report)
    settings = sub.add_parser("settings", help="every setting, its variables and default, as "
                              "the markdown table of the README")
    settings.add_argument("--readme", type=Path, metavar="PATH",
                          help="write the sections' table into PATH between its markers")
    settings.add_argument("--reference", type=Path, metavar="PATH",
                          help="write every setting's table into PATH between its markers")
    settings.set_defaults(func=cmd_settings)
    return parser


def _serve_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser],
                  data: argparse.ArgumentParser) -> None:
    """``serve``'s options; its defaults read without loading Starlette."""
    from rag_assets.cli.serve import DEFAULT_PORT, cmd_serve
    from rag_assets.web import DEFAULT_DAGSTER_URL

    serve = sub.add_parser("serve", parents=[data], help="ask from a browser on "
                           f"127.0.0.1 (default port {DEFAULT_PORT})")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help="the port on 127.0.0.1")
    serve.add_argument("--dagster-url", default=DEFAULT_DAGSTER_URL,
                       help="the Dagster UI each source partition links to")
    serve.add_argument("--provider", choices=["extractive", "openai", "azure"],
                       help="override the llm resource's provider")
    serve.set_defaults(func=cmd_serve)


def version() -> str:
    """The installed distribution's version (what ``pip`` and a bug report name)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("rag-assets")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def commands_of(parser: argparse.ArgumentParser) -> list[str]:
    """The command names ``build_parser`` declared, in their order."""
    for action in parser._actions:  # argparse keeps its subcommands nowhere public
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def check_command(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """A misspelt command exits 2 naming the closest command, where argparse would list them
    all: the top-level parser takes no option with a value, so the first word is the command."""
    word = next((arg for arg in argv if not arg.startswith("-")), None)
    commands = commands_of(parser)
    if word is None or word in commands:
        return
    close = difflib.get_close_matches(word, commands, n=1, cutoff=0.5)
    hint = f"did you mean {close[0]!r}?" if close else f"the commands: {', '.join(commands)}"
    parser.error(f"unknown command {word!r}; {hint}")


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit code (argument errors exit 2 through argparse)."""
    parser = build_parser()
    check_command(parser, sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    if args.command == "backfill":  # the asset graph knows which assets a backfill takes
        from rag_assets.cli.runs import backfill_assets, default_backfill_assets

        unknown = set(args.assets) - set(backfill_assets())
        if unknown:
            parser.error(f"not an evaluation asset: {', '.join(sorted(unknown))}")
        args.assets = args.assets or default_backfill_assets()
    if args.command == "ask":
        refused = _refused_question(args)
        if refused is not None:
            return refused
    return int(args.func(args))


def _refused_question(args: argparse.Namespace) -> int | None:
    """The question as the engine reads it (control characters spaced, white space collapsed)
    put back in ``args``; an empty one exits 2 through ``parser.error`` (the usage, then the
    cause), one past ``max_question_chars`` exits 2 in one line; None when it is fine."""
    from rag_assets.core.settings import Settings
    from rag_assets.core.text.question_input import QuestionError, QuestionTooLong, checked_question

    try:
        args.question = checked_question(args.question, Settings().llm.max_question_chars)
    except QuestionTooLong as err:
        print(f"rag-assets ask: error: {err}", file=sys.stderr)
        return 2
    except QuestionError as err:
        args.command_parser.error(str(err))
    return None


def _stopped(signum: int, why: str = "") -> int:
    """One line for a command stopped by a signal (its run canceled, slots freed); the exit
    code, 128 + the signal's number."""
    name = signal.Signals(signum).name
    what = ""
    if "rag_assets.runtime.run_safety" in sys.modules:  # a run may be in progress
        from rag_assets.runtime.run_safety import stop_current

        what = stop_current(f"rag-assets: stopped by {name}{why}")
    print(f"\nstopped by {name}{why}" + (f": {what}" if what else ""), flush=True)
    return 128 + signum


def command_line_bytes() -> int:
    """The length of this process's command line as native code reads it."""
    try:
        with open("/proc/self/cmdline", "rb") as handle:
            return len(handle.read())
    except OSError:  # not Linux: argv as Python got it
        return sum(len(os.fsencode(arg)) + 1 for arg in [sys.executable, *sys.argv])


def run() -> None:
    """The console entry point. DuckDB 2.0's bindings report "leaked" type objects at interpreter
    teardown after a Dagster run (pages of harmless noise under the tables), so once all output
    is flushed the process exits without the teardown. Model loading's progress bars are off:
    the terminal shows the CLI's own progress lines.

    SIGINT and SIGTERM stop the command (``rag_assets.runtime.processes.STOP``): the run in progress
    ends CANCELED with its pool slots freed, one line says so, the exit code is 128 + the
    signal's number; a command still running ``runtime.stop_grace_seconds`` after the signal (a
    step in a long call that cannot be interrupted) cancels its run from the watchdog thread and
    exits."""
    from rag_assets.core.settings import Settings
    from rag_assets.runtime.processes import STOP

    if (length := command_line_bytes()) > MAX_COMMAND_LINE_BYTES:
        print(f"rag-assets: error: the command line is {length:,} bytes long, more than the "
              f"{MAX_COMMAND_LINE_BYTES:,} taken (a question stops at 4,000 characters)",
              file=sys.stderr)
        os._exit(2)

    def too_late(signum: int) -> None:
        _stopped(signum, f" (still running {grace:.0f} s later)")

    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    grace = Settings().runtime.stop_grace_seconds
    STOP.install(grace=grace, on_deadline=too_late)
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `rag-assets demo | head`: the reader left, nothing to report
        os._exit(141)
    except KeyboardInterrupt as stop:  # SIGINT or SIGTERM (Stopped: the run was canceled)
        code = _stopped(getattr(stop, "signum", None) or STOP.received(1.0) or signal.SIGINT)
    sys.stderr.flush()
    os._exit(code)
