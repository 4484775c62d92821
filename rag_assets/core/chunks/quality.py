"""Data quality of chunk tables, with Great Expectations (GX Core 1.x).

GX is imported lazily (its import takes seconds) and runs in an ephemeral context: no project
folder, no analytics. Value-length expectations ignore nulls, so each is paired with not-null.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from pydantic import BaseModel


class ExpectationOutcome(BaseModel):
    expectation: str
    column: str
    success: bool
    unexpected_count: int | None = None
    sample: list[Any] = []


class QualityReport(BaseModel):
    success: bool
    evaluated: int
    failed: list[ExpectationOutcome]

    def summary(self) -> str:
        if self.success:
            return f"all {self.evaluated} expectations met"
        return "; ".join(
            f"{f.expectation}({f.column}): {f.unexpected_count} unexpected, e.g. {f.sample[:3]}"
            for f in self.failed
        )


def validate_chunk_table(frame: pd.DataFrame, max_tokens: int) -> QualityReport:
    """Ids unique and present, text present, every chunk (header and body) within the
    embedding model's window of ``max_tokens``, page start <= page end."""
    import great_expectations as gx
    import great_expectations.expectations as gx_expectations
    from great_expectations.data_context.types.base import ProgressBarsConfig

    # the package re-exports its expectation classes implicitly (no __all__): typed as Any
    gxe: Any = gx_expectations

    context = gx.get_context(mode="ephemeral")
    context.variables.progress_bars = ProgressBarsConfig(globally=False)
    source = context.data_sources.add_pandas("warehouse")
    asset = source.add_dataframe_asset("chunks")
    batch = asset.add_batch_definition_whole_dataframe("partition").get_batch(
        batch_parameters={"dataframe": frame}
    )
    suite = gx.ExpectationSuite(name="chunk_table")
    for expectation in (
        gxe.ExpectColumnValuesToNotBeNull(column="chunk_id"),
        gxe.ExpectColumnValuesToBeUnique(column="chunk_id"),
        gxe.ExpectColumnValuesToNotBeNull(column="text"),
        gxe.ExpectColumnValueLengthsToBeBetween(column="text", min_value=1),
        gxe.ExpectColumnValuesToNotBeNull(column="n_tokens"),
        gxe.ExpectColumnValuesToBeBetween(column="n_tokens", min_value=1, max_value=max_tokens),
        gxe.ExpectColumnPairValuesAToBeGreaterThanB(
            column_A="page_end", column_B="page_start", or_equal=True
        ),
    ):
        suite.add_expectation(expectation)
    # BASIC: the counts and a sample of the unexpected values, all a failure line needs (the
    # default SUMMARY also tallies them: 40% more of the check's time on a small table)
    result = batch.validate(suite, result_format="BASIC")
    failed = []
    for outcome in result.results:
        if outcome.success:
            continue
        config = outcome.expectation_config
        assert config is not None  # the validator gives every result its expectation's config
        details = outcome.result or {}
        failed.append(
            ExpectationOutcome(
                expectation=config.type,
                column=str(config.kwargs.get("column") or config.kwargs.get("column_A")),
                success=False,
                unexpected_count=details.get("unexpected_count"),
                sample=[_plain(v) for v in (details.get("partial_unexpected_list") or [])[:5]],
            )
        )
    return QualityReport(success=result.success, evaluated=len(result.results), failed=failed)


def _plain(value: Any) -> Any:
    """A sampled value as Python writes it (300, not ``np.int64(300)``, in a check's line)."""
    if isinstance(value, tuple | list):
        return type(value)(_plain(v) for v in value)
    return value.item() if hasattr(value, "item") else value
