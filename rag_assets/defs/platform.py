"""What every run of the project gets: its resources and its executor (the rest of this folder's
modules hold the assets, checks, jobs, schedules and sensors, found by ``dg``'s autoloading)."""

from __future__ import annotations

import os

import dagster as dg

from rag_assets.defs.resources import default_resources


@dg.definitions
def platform() -> dg.Definitions:
    """Resources from the environment (``dg.EnvVar``) and the in-process executor.

    One process per run, its steps one after another. Measured (bench/README.md): a process per
    step would import the model's runtime and load the model in each vector step, and a
    multiprocess executor would run chunking beside an embedding step, which then loses its cores
    (issue 12: 6.6 texts/s instead of 13-20). In-process, the model loads once per run, the
    encoder gets every core (rag_assets/defs/index.py), and nothing runs beside it. What a run
    costs to start is cut by the run launcher instead (rag_assets/launcher.py). On a bigger
    machine or a pod per run, ``RAG_ASSETS_EXECUTOR=multiprocess`` runs a run's independent
    steps in processes of their own (docs/DEPLOY.md).
    """
    multiprocess = os.environ.get("RAG_ASSETS_EXECUTOR", "in_process") == "multiprocess"
    return dg.Definitions(
        resources=default_resources(),
        executor=dg.multiprocess_executor if multiprocess else dg.in_process_executor,
    )
