"""What the CLI prints: a line and a table row per partition run, and the warehouse's tables.

The warehouse is read as the roll-ups read it, through the resources: ``default_resources``
chooses the database for the data folder and ``read_whole_table`` reads a table read-only,
waiting while a run holds the writer lock.
"""

from __future__ import annotations

import json
import math
import shutil
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, cast

from tabulate import tabulate

if TYPE_CHECKING:
    import pandas as pd

# the demo table: row key -> column header (two lines, so that the table stays narrow)
DEMO_COLUMNS = {
    "partition": "partition", "pages": "pages", "tables": "tables",
    "footnotes": "foot-\nnotes", "stitched": "stitched", "unresolved": "un-\nresolved",
    "complete": "complete", "lost_words": "lost\nwords",
    "naive": "naive\nchunks", "enriched": "enriched\nchunks",
    "naive_coloc": "naive\nco-loc", "enriched_coloc": "enriched\nco-loc",
    "embedded": "embedded", "seconds": "s",
}
# a line under each table, saying what its columns measure
DEMO_LEGEND = ("complete: definitions found whole; lost words: words gone after stitching; "
               "co-loc: chunks that hold the definitions they cite; s: seconds")
RETRIEVAL_LEGEND = ("MRR: 1/rank of the first right page; nDCG@10: order of the top 10; R@5: "
                    "right pages in the top 5; fn R@5: cited definitions in the top 5")
BY_DOCUMENT_LEGEND = "MRR: 1/rank of the first right page, per document and strategy; n: questions"
ANSWER_LEGEND = ("fact recall: expected facts stated; cit. precision: citations that hold; "
                 "cit. recall: claims fully cited; abstention acc.: answered or refused rightly")


# what the demo's last lines suggest asking (a question the sample release answers)
SAMPLE_QUESTION = "How much revenue did Lumen Analytics contribute in fiscal 2024?"


def command_name() -> str:
    """``rag-assets`` as a person can type it here: the bare name when the PATH finds this
    installation, else the script's path (``.venv/bin/rag-assets`` from the checkout)."""
    script = Path(sys.executable).with_name("rag-assets")
    found = shutil.which("rag-assets")
    if found and Path(found).resolve() == script.resolve():
        return "rag-assets"
    try:
        return str(script.relative_to(Path.cwd()))
    except ValueError:
        return str(script)


def next_steps() -> str:
    """The demo's last lines: how to ask a question of what it indexed, and open the UI."""
    from rag_assets.core.settings import Settings

    runtime = Settings().runtime
    return (f"\nAsk a question of what was indexed (an answer with numbered, verified citations):"
            f'\n  make ask Q="{SAMPLE_QUESTION}"'
            f'\n  {command_name()} ask "{SAMPLE_QUESTION}" [--json] [--document D] [--year Y]'
            f"\nOpen the UI with `make ui` (http://{runtime.ui_host}:{runtime.ui_port}): the "
            "ingest, index, evaluation and generation groups, their partitions and these runs.")


def _pct(value: object) -> str:
    """A share as a whole percentage, rounded down: 100% only when it is complete."""
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        return "-"
    return f"{math.floor(float(value) * 100 + 1e-9):d}%"


def _count(value: object) -> object:
    return value if isinstance(value, int) and not isinstance(value, bool) else "-"


def partition_row(document: str, year: int, meta: dict[str, dict], checks: dict[str, dict],
                  seconds: float, error: str = "") -> dict:
    """A demo table row from a partition run's materialization metadata (asset -> metadata) and
    asset check metadata (check -> metadata). Anything absent prints as ``-``."""
    coloc = checks.get("footnote_colocation", {})
    dictionary = meta.get("footnote_dictionary", {})
    registry = meta.get("footnote_registry", {})
    pages = meta.get("raw_pages", {})
    vectors = [meta[f"{kind}_vectors"] for kind in ("naive", "enriched")
               if f"{kind}_vectors" in meta]
    return {
        "partition": f"{document}|{year}",
        "pages": pages.get("pages", "-"),
        "tables": pages.get("tables", "-"),
        "footnotes": dictionary.get("footnotes", "-"),
        "stitched": registry.get("stitched", "-"),
        "unresolved": registry.get("unresolved", "-"),
        # share of ground-truth definitions found complete (generated reports only)
        "complete": _pct(dictionary.get("definitions_complete")),
        # words of the report missing from the stitched text (the text_conservation check)
        "lost_words": _count(checks.get("text_conservation", {}).get("words_lost")),
        "naive": meta.get("naive_chunks", {}).get("chunks", "-"),
        "enriched": meta.get("enriched_chunks", {}).get("chunks", "-"),
        "naive_coloc": _pct(coloc.get("naive_colocation")),
        "enriched_coloc": _pct(coloc.get("enriched_colocation")),
        "embedded": sum(v.get("embeddings_computed", 0) for v in vectors) if vectors else "-",
        "ocr_pages": pages.get("ocr_pages", 0),
        "pages_without_text": pages.get("pages_without_text", 0),
        "seconds": round(seconds, 1),
        "error": error,
    }


def page_text_note(row: dict) -> str:
    """What the demo line says of pages that had no text layer: "2 pages read by OCR", "1 page
    without text (scanned?)"; empty when every page had its text."""
    notes = []
    for key, what in (("ocr_pages", "read by OCR"), ("pages_without_text",
                                                     "without text (scanned?)")):
        n = row.get(key) or 0
        if n:
            notes.append(f"{n} page{'s' if n != 1 else ''} {what}")
    return "  ".join(notes)


def demo_table(rows: list[dict]) -> str:
    """The rows under two-line headers, without tabulate's extra header padding (about 135
    columns wide with the longest sample partition name)."""
    import tabulate as tabulate_module

    padding, tabulate_module.MIN_PADDING = tabulate_module.MIN_PADDING, 0
    try:
        return tabulate([[r[k] for k in DEMO_COLUMNS] for r in rows],
                        headers=list(DEMO_COLUMNS.values()), floatfmt=".1f",
                        colalign=("left",) + ("right",) * (len(DEMO_COLUMNS) - 1))
    finally:
        tabulate_module.MIN_PADDING = padding


def progress_head(partition: str, position: int, total: int, width: int = 0) -> str:
    """``[ 3/14] 3m-10k|2018``, aligned: positions to the width of the total, names to ``width``."""
    return f"[{position:>{len(str(total))}}/{total}] {partition.ljust(width)}"


def partition_line(row: dict, position: int, total: int, width: int = 0) -> str:
    """``[3/14] 3m-10k|2018  160 pages  7 footnotes ...  12.3 s``: what a run did, in a line."""
    head = progress_head(row["partition"], position, total, width)
    if row["error"]:
        return f"{head}  FAILED {row['error']}  {row['seconds']} s"
    if row["pages"] == "-":
        return f"{head}  no report: nothing ingested  {row['seconds']} s"
    parts = [f"{row['pages']} pages", f"{row['tables']} tables", f"{row['footnotes']} footnotes",
             f"{row['stitched']} stitched", f"{row['unresolved']} unresolved"]
    if note := page_text_note(row):
        parts.insert(1, note)
    if row["complete"] != "-":
        parts.append(f"{row['complete']} complete")
    if row["lost_words"] != "-":
        parts.append(f"{row['lost_words']} words lost")
    parts.append(f"{row['naive']}/{row['enriched']} naive/enriched chunks")
    if row["embedded"] != "-":
        parts.append(f"{row['embedded']} embedded")
    return f"{head}  {'  '.join(parts)}  {row['seconds']} s"


def report_failures(failed: list[str]) -> None:
    """After the tables, so they are the last thing on screen."""
    for line in failed:
        print(f"FAILED {line}")


def warehouse_of(data_dir: Path) -> Path | str:
    """The warehouse the resources choose for this data folder."""
    from rag_assets.defs.resources import RagSettings, default_resources

    return cast(RagSettings, default_resources(str(data_dir))["settings"]).warehouse_path


def has_warehouse(data_dir: Path) -> bool:
    from rag_assets.core.warehouse.writable import is_local_database

    warehouse = warehouse_of(data_dir)
    return not is_local_database(str(warehouse)) or Path(warehouse).is_file()


def warehouse_table(data_dir: Path, table: str) -> pd.DataFrame | None:
    """Every row of ``rag.<table>`` as the roll-ups read it (``read_whole_table``); None when
    the warehouse or the table does not exist yet. One of ``WAREHOUSE_ERRORS`` when it cannot
    be read."""
    import pandas as pd

    from rag_assets.core.warehouse.connection import read_whole_table

    missing = pd.DataFrame()
    frame = read_whole_table(warehouse_of(data_dir), table, missing)
    return None if frame is missing else frame


def missing_table(data_dir: Path, table: str) -> str:
    """Why a table cannot be shown: not written yet (its asset never succeeded)."""
    return f"no table {table} in {warehouse_of(data_dir)}"


def _shown(data_dir: Path, table: str, what: str | None = None) -> pd.DataFrame | None:
    """The table, or None after one line saying why there is nothing to show."""
    from rag_assets.core.warehouse.connection import WAREHOUSE_ERRORS

    try:
        frame = warehouse_table(data_dir, table)
        reason = "" if frame is not None else missing_table(data_dir, table)
    except WAREHOUSE_ERRORS as err:
        frame, reason = None, str(err).splitlines()[0]
    if frame is None:
        print(f"\nno {what or table} to show ({reason})")
    return frame


def print_summaries(data_dir: Path, document: str, year: int, width: int = 64) -> None:
    """The baseline and enriched summaries of one report side by side, each sentence cited."""
    frame = _shown(data_dir, "summaries")
    if frame is None:
        return
    frame = frame[(frame.document == document) & (frame.year == year)]
    if frame.empty:
        print(f"\nno summaries of {document}|{year}")
        return
    columns = {}
    for variant in ("baseline", "enriched"):
        rows = frame[frame.variant == variant].sort_values("position")
        lines: list[str] = []
        for row in rows.itertuples():
            pages = sorted({c["page"] + 1 for c in json.loads(row.citations)})
            cited = f"{row.text} [p.{', p.'.join(map(str, pages))}]"
            lines += textwrap.wrap(f"{row.position}. {cited}", width) + [""]
        columns[variant] = lines
    height = max(len(v) for v in columns.values())
    print(f"\nSummaries of {document}|{year}: baseline (naive chunks) | enriched (stitched "
          "footnotes)")
    print(f"{'-' * width}-+-{'-' * width}")
    base, rich = (columns[v] + [""] * (height - len(columns[v])) for v in columns)
    for left, right in zip(base, rich, strict=True):
        print(f"{left:<{width}} | {right}")


def legend(text: str) -> None:
    """A table's legend, one line under it."""
    print(f"  {text}")


def print_answer_metrics(data_dir: Path) -> None:
    """Fact recall, citation precision and recall, abstention and seconds per answer, over all
    golden questions and per document."""
    frame = _shown(data_dir, "answer_rollup")
    if frame is None or frame.empty:
        return
    rows = frame[frame.category == "all"]
    shown = {"document": "document", "questions": "n", "fact_recall": "fact recall",
             "citation_precision": "cit. precision", "citation_recall": "cit. recall",
             "abstention_accuracy": "abstention acc.", "invalid_citations": "invalid",
             "seconds_p50": "s p50", "seconds_p95": "s p95"}
    print("\nAnswers to the golden questions (extractive engine, each citation verified):")
    print(tabulate(rows[list(shown)].rename(columns=shown), headers="keys", showindex=False,
                   floatfmt=".3f"))
    legend(ANSWER_LEGEND)


def unavailable_strategies(rollup: pd.DataFrame) -> dict[str, str]:
    """Strategy -> why it could not run (an optional model not installed): its rows hold its
    fallback's numbers, so they are left out of the tables and said once."""
    if "unavailable" not in rollup:
        return {}
    rows = rollup[rollup.unavailable.notna()]
    return dict(zip(rows.strategy, rows.unavailable, strict=True))


def print_metrics(data_dir: Path) -> None:
    """The roll-up: strategy x (MRR, nDCG@10, recall@5), naive vs enriched chunks, per setting,
    and the footnote-dependent questions alone."""
    from rag_assets.core.evaluation.charts import by_document_table, comparison_table

    rollup = _shown(data_dir, "evaluation_rollup", "evaluation roll-up")
    if rollup is None:
        return
    skipped = unavailable_strategies(rollup)
    rollup = rollup[~rollup.strategy.isin(list(skipped))]
    for setting, title in (("corpus", "whole corpus, one shared store (the setting that counts)"),
                           ("partition", "each question within its own partition")):
        for category, what in (("all", "All golden questions"),
                               ("footnote-dependent", "Footnote-dependent questions")):
            print(f"\n{what}, {title}:")
            print(comparison_table(rollup, setting, category))
            legend(RETRIEVAL_LEGEND)
    print("\nMRR per document, enriched chunks, whole corpus:")
    print(by_document_table(rollup, "corpus", "enriched"))
    legend(BY_DOCUMENT_LEGEND)
    for strategy, reason in skipped.items():
        print(f"\n{strategy}: not in these tables: {reason}")
