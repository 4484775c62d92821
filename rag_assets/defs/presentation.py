"""What every asset shows a user: previews, one-line failures, the partition columns."""

import warnings
from pathlib import Path
from typing import Any, NoReturn

import dagster as dg
import pandas as pd

from rag_assets.core.evaluation.questions import GoldenQuestion, questions_path, read_questions
from rag_assets.defs.partitions import PARTITION_EXPR, report_partitions

# the DuckDB IO manager replaces exactly these rows when a partition is re-materialized
BY_PARTITION = {"partition_expr": PARTITION_EXPR}
PREVIEW_ROWS = 5
# a step that writes the warehouse takes a slot of this pool (DuckDB allows one writing process;
# the instance gives a pool one slot, deploy/dagster.yaml); its owner is set for every asset at
# once (rag_assets/definitions.py)
WRITER_POOL = "duckdb_writer"


def partition_table(group_name: str, kinds: set[str] | None = None, **options: Any) -> Any:
    """``dg.asset`` for a warehouse table of one document x year partition: partitioned, the
    IO manager told which columns hold the partition (so re-materializing replaces its rows),
    a slot of the writers' pool. ``options`` are the asset's own (checks, deps, inputs,
    automation)."""
    return dg.asset(group_name=group_name, partitions_def=report_partitions, metadata=BY_PARTITION,
                    kinds=kinds or {"duckdb"}, pool=WRITER_POOL, **options)


def partition_check(name: str, asset: str, description: str,
                    blocking: bool = False) -> dg.AssetCheckSpec:
    """A check of ``asset``'s document x year partitions: each result is stored with its
    partition, so the UI shows every partition's last result (not one result for the whole
    asset, whichever partition ran last). ``description`` says what it checks, why, and what
    to do when it fails; ``blocking`` (an error blocks what is downstream in the run) matches
    the severity of the results the asset yields."""
    with warnings.catch_warnings():
        # a check's partitions_def is a preview in Dagster 1.13 (pinned in pyproject.toml);
        # its warning would print on every load of the definitions
        warnings.simplefilter("ignore", dg.PreviewWarning)
        return dg.AssetCheckSpec(name, asset=asset, description=description, blocking=blocking,
                                 partitions_def=report_partitions)


def preview(frame: pd.DataFrame, columns: list[str], width: int = 160,
            rows: int = PREVIEW_ROWS) -> dg.MetadataValue:
    """The first rows as a markdown table, long text cut to ``width`` characters."""
    shown = frame[columns].head(rows).copy()
    for column in shown.columns:
        if not pd.api.types.is_numeric_dtype(shown[column]):
            shown[column] = shown[column].astype(str).str.slice(0, width).str.replace("\n", " ")
    return dg.MetadataValue.md(shown.to_markdown(index=False))


def fail(context: dg.AssetExecutionContext, reason: str, asset_key: dg.AssetKey | None = None,
         **details: str) -> NoReturn:
    """One line in the log and on the asset's page (``asset_key``: the page of a step that
    writes several assets), then fail this partition only (always raises ``dg.Failure``:
    nothing after a call runs)."""
    context.log.error(reason)
    context.log_event(
        dg.AssetObservation(
            asset_key=asset_key or context.asset_key,
            partition=context.partition_key,
            metadata={"error": reason, **details},
        )
    )
    raise dg.Failure(description=reason, metadata={"error": reason, **details},
                     allow_retries=False)


def partition_questions(context: dg.AssetExecutionContext, questions_dir: Path, document: str,
                        year: int) -> list[GoldenQuestion]:
    """The partition's golden questions (none when it has no file); a bad line fails the
    partition in one line naming the file."""
    path = questions_path(questions_dir, document, year)
    try:
        return read_questions(path)
    except ValueError as err:
        fail(context, str(err).splitlines()[0], file=str(path))
