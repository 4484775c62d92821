"""What every run of the project gets: its resources and its executor (the rest of this folder's
modules hold the assets, checks, jobs, schedules and sensors, found by ``dg``'s autoloading)."""

from __future__ import annotations

from typing import Any, get_args

import dagster as dg

from rag_assets.core.settings import RuntimeSettings, Settings, short_name
from rag_assets.defs.resources import default_resources

EXECUTORS: tuple[str, ...] = get_args(RuntimeSettings.model_fields["executor"].annotation)
CELERY_BROKER = short_name("runtime", "celery_broker")  # redis://host:6379/0
CELERY_BACKEND = short_name("runtime", "celery_backend")  # where workers put steps' events
# The Celery executor's config, read from the environment where a run executes (its run worker)
# and, the same block in deploy/scale/celery.yaml, by every `dagster-celery worker start -y`:
# a worker listens to the broker the run sends its steps to. Celery's settings beyond dagster-
# celery's (which takes one task per worker process at a time, prefetch 1): retry the broker
# connection at start (Celery 6 changes the default), and keep a step's result an hour only.
CELERY_CONFIG: dict[str, Any] = {
    "broker": {"env": CELERY_BROKER},
    "backend": {"env": CELERY_BACKEND},
    "config_source": {
        "broker_connection_retry_on_startup": True,
        "result_expires": 3600,
    },
}


def executor_from_setting(name: str | None = None) -> dg.ExecutorDefinition:
    """The executor the settings' ``runtime.executor`` names (``RAG_ASSETS_EXECUTOR``;
    ``name`` instead when given).

    ``celery``: ``dagster_celery.celery_executor`` with ``CELERY_CONFIG``, so each step of a run
    is a Celery task that a worker (``dagster-celery worker start``, deploy/scale/README.md)
    executes; the run worker only orchestrates. An unknown name fails the code location's load
    with the names it takes, instead of running in-process unnoticed.
    """
    name = name if name is not None else Settings().runtime.executor
    if name == "in_process":
        return dg.in_process_executor
    if name == "multiprocess":
        return dg.multiprocess_executor
    if name == "celery":
        from dagster_celery import celery_executor

        return celery_executor.configured(CELERY_CONFIG, name="celery")
    raise ValueError(f"executor {name!r}: one of {', '.join(EXECUTORS)}")


@dg.definitions
def platform() -> dg.Definitions:
    """Resources from the settings (the stores' variables as ``dg.EnvVar``) and the executor
    ``runtime.executor`` names (``RAG_ASSETS_EXECUTOR``), in-process by default.

    One process per run, its steps one after another. Measured (bench/README.md): a process per
    step would import the model's runtime and load the model in each vector step, and a
    multiprocess executor would run chunking beside an embedding step, which then loses its cores
    (issue 12: 6.6 texts/s instead of 13-20). In-process, the model loads once per run, the
    encoder gets every core (rag_assets/defs/index.py), and nothing runs beside it. What a run
    costs to start is cut by the run launcher instead (rag_assets/runtime/launcher.py). On a bigger
    machine or a pod per run, ``multiprocess`` runs a run's independent steps in processes of
    their own; past one machine, ``celery`` sends every step to Celery workers (docs/DEPLOY.md).
    """
    return dg.Definitions(resources=default_resources(), executor=executor_from_setting())
