"""Everything Dagster loads: assets, checks, jobs, schedules, sensors, resources of rag-assets."""

from __future__ import annotations

import os

import dagster as dg

from rag_assets.defs.evaluation import evaluation_assets, evaluation_job, rollup_job
from rag_assets.defs.generation import generation_assets, generation_job
from rag_assets.defs.index import index_assets
from rag_assets.defs.ingest import ingest_assets, ingest_job
from rag_assets.defs.reports import report_job, reports_assets
from rag_assets.defs.resources import default_resources
from rag_assets.defs.schedules import schedules
from rag_assets.defs.sensors import automation_sensor, report_sensor
from rag_assets.defs.statements import statement_assets

all_assets = [*ingest_assets, *statement_assets, *index_assets, *evaluation_assets,
              *generation_assets, *reports_assets]
defs = dg.Definitions(
    assets=all_assets,
    jobs=[ingest_job, evaluation_job, rollup_job, generation_job, report_job],
    schedules=schedules,
    sensors=[report_sensor, automation_sensor],
    resources=default_resources(),
    # One process per run, its steps one after another. Measured (bench/README.md): a process
    # per step would import torch and load the model in each vector step (5-8 s each on 2
    # cores), and a multiprocess executor would run chunking beside an embedding step, which
    # then loses its cores (issue 12: 6.6 texts/s instead of 13-20). In-process, the model loads
    # once per run, torch gets every core (rag_assets/defs/index.py), and nothing runs beside it.
    # What a run costs to start is cut by the run launcher instead (rag_assets/launcher.py).
    # On a bigger machine or a pod per run, RAG_ASSETS_EXECUTOR=multiprocess runs a run's
    # independent steps in processes of their own (docs/DEPLOY.md).
    executor=dg.multiprocess_executor
    if os.environ.get("RAG_ASSETS_EXECUTOR", "in_process") == "multiprocess"
    else dg.in_process_executor,
)
