"""Everything Dagster loads: assets, checks, jobs, sensors and resources of rag-assets."""

from __future__ import annotations

import dagster as dg

from rag_assets.defs.evaluation import evaluation_assets, evaluation_job, rollup_job
from rag_assets.defs.index import index_assets
from rag_assets.defs.ingest import ingest_assets, ingest_job
from rag_assets.defs.resources import default_resources
from rag_assets.defs.sensors import report_sensor

all_assets = [*ingest_assets, *index_assets, *evaluation_assets]
defs = dg.Definitions(
    assets=all_assets,
    jobs=[ingest_job, evaluation_job, rollup_job],
    sensors=[report_sensor],
    resources=default_resources(),
    # one process per run: on a small machine a subprocess per step costs more than the step
    executor=dg.in_process_executor,
)
