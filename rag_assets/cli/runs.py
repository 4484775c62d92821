"""The CLI's runs: the assets, checks and resources of ``rag_assets.definitions.defs``.

No second ``Definitions``: a run is a job resolved against ``defs``'s asset graph with
``defs``'s own resources, and the data folder and retrieval overrides of the command go in as
run config (the resources of ``default_resources(data_dir, retrieval)``, exactly what the
launchpad would send). What the asset graph knows (which assets are partitioned, which
roll-up reads which) is read from it here, not repeated as literals.

Dagster is imported inside the functions: ``rag-assets`` installs its signal handling before
Dagster loads (``rag_assets.cli.app.run``), and ``sample`` never needs it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import dagster as dg
    from dagster._core.definitions.assets.graph.asset_graph import AssetGraph

# The name dg.materialize gives its runs, kept by the CLI's runs: their records (and the
# "Execution of run for ..." events the crash-safety tests read) stay what they were.
JOB_NAME = "__ephemeral_asset_job__"
# Dagster's console logger prints only what a user must act on at once; everything (DEBUG up)
# still goes to the instance's event log, so the UI shows the full log of every run.
CONSOLE_LOG_LEVEL = "CRITICAL"
LOGGERS = {"console": {"config": {"log_level": CONSOLE_LOG_LEVEL}}}
# the groups whose partitioned assets ``backfill`` re-runs; the first one's are its default
BACKFILL_GROUPS = ("evaluation", "generation")


def open_instance_for(partitions: Iterable[str] = ()) -> dg.DagsterInstance:
    """The instance in ``$DAGSTER_HOME`` (the UI shows the same runs), else an ephemeral one;
    with the given partitions (``<document>|<year>``) registered.

    Opened under the instance's lock (whoever comes first creates it): runs of an earlier CLI
    command whose process is gone are marked failed first, one line each, and their pool slots
    freed (``rag_assets.runtime.run_safety``)."""
    from rag_assets.defs.partitions import register_partitions
    from rag_assets.runtime.run_safety import open_instance

    wanted = set(partitions)

    def setup(instance: dg.DagsterInstance) -> None:
        if wanted:
            register_partitions(instance, wanted)

    return open_instance(setup=setup)


def _job(selection: dg.AssetSelection) -> dg.JobDefinition:
    """A job of ``defs``'s assets in ``selection`` (their checks included), bound to ``defs``'s
    resources: binding other resource objects would conflict with those ``defs`` bound to its
    assets, so the command's data folder is run config (``run_config``)."""
    import dagster as dg

    from rag_assets.definitions import defs

    repository = defs.get_repository_def()
    return dg.define_asset_job(JOB_NAME, selection=selection).resolve(
        asset_graph=repository.asset_graph,
        resource_defs=repository.get_top_level_resources())


def run_config(data_dir: Path, retrieval: dict[str, object] | None = None) -> dict[str, Any]:
    """The resources' config for this data folder (``default_resources``: its stores, the
    retrieval overrides of a backfill) and the quiet console logger. Every resource is given
    whole: a field left out takes its class default, not the value ``defs`` bound."""
    import dagster as dg

    from rag_assets.defs.resources import default_resources

    return dict(dg.RunConfig(resources=default_resources(str(data_dir), retrieval),
                             loggers=LOGGERS).to_config_dict())


def materialize(selection: dg.AssetSelection, data_dir: Path, instance: dg.DagsterInstance,
                partition: tuple[str, int] | None = None, source: str = "cli",
                retrieval: dict[str, object] | None = None,
                on_event: Callable[[Any], None] | None = None) -> dg.ExecuteInProcessResult:
    """Materialize a selection of the project's assets (one partition, or unpartitioned).

    What ``dg.materialize`` does, with a run id known beforehand so that ``on_event`` can follow
    the run's events as they are stored, and Dagster's console logger kept quiet: the full log is
    in the instance's event log (the UI's run page), not on the terminal.

    The run is tagged with this process (pid, host) so that a later command can fail it if this
    process dies, and runs on ``rag_assets.runtime.run_safety``'s executor: a step waiting for a
    pool slot sleeps, its notices say who holds the slot, and SIGINT/SIGTERM end the run CANCELED
    with its slots freed (then ``Stopped`` is raised: the command goes no further)."""
    from rag_assets.defs.partitions import partition_key, run_tags
    from rag_assets.runtime.run_safety import execute_in_process

    run_id = str(uuid.uuid4())
    if on_event is not None:
        instance.add_event_listener(run_id, on_event)
    tags = {"rag-assets/source": source, **(run_tags(*partition) if partition else {})}
    if retrieval:
        tags["rag-assets/retrieval"] = json.dumps(retrieval, sort_keys=True)
    return execute_in_process(
        _job(selection), instance=instance, run_id=run_id,
        run_config=run_config(data_dir, retrieval),
        partition_key=partition_key(*partition) if partition else None, tags=tags)


def _metadata_value(value: object) -> object:
    return getattr(value, "value", value)


def materialized_metadata(result: dg.ExecuteInProcessResult) -> dict[str, dict]:
    """Asset -> the metadata of its materialization, for the assets the run materialized."""
    meta: dict[str, dict] = {}
    for event in result.get_asset_materialization_events():
        mat = event.event_specific_data.materialization  # type: ignore[union-attr]
        meta[mat.asset_key.to_user_string()] = {
            k: _metadata_value(v) for k, v in mat.metadata.items()
        }
    return meta


def check_metadata(result: dg.ExecuteInProcessResult) -> dict[str, dict]:
    """Asset check name -> its result's metadata, for the checks that ran."""
    return {
        e.check_name: {k: _metadata_value(v) for k, v in e.metadata.items()}
        for e in result.get_asset_check_evaluations()
    }


def error_line(error: Any) -> str:
    """The root cause of a Dagster ``SerializableErrorInfo`` in one line: ``BinderException:
    Table "raw_pages" does not have ...``, not the wrapper's "Error occurred while handling
    output"."""
    while getattr(error, "cause", None) is not None:
        error = error.cause
    name = getattr(error, "cls_name", None) or "error"
    lines = [line.strip() for line in (getattr(error, "message", "") or "").splitlines()]
    line = next((line for line in lines if line), name)
    head, sep, rest = line.partition(": ")
    if sep and head.rsplit(".", 1)[-1] == name:  # "_duckdb.BinderException: ..." -> short name
        line = rest if name == "Failure" else f"{name}: {rest}"  # a dg.Failure: its description
    return line


def first_error(result: dg.ExecuteInProcessResult) -> str:
    """The first failed step and its one-line reason (else the run's failure message)."""
    for event in result.get_step_failure_events():
        data = event.step_failure_data
        user = data.user_failure_data
        if user and user.description:
            return f"{event.step_key}: {user.description.strip().splitlines()[0]}"
        return f"{event.step_key}: {error_line(data.error)}"
    for event in result.all_events:
        if event.event_type_value in ("RUN_FAILURE", "PIPELINE_FAILURE"):
            error = getattr(event.event_specific_data, "error", None)
            if error is not None:  # no step ran: e.g. a store that cannot be written
                return error_line(error)
            if event.message:
                return event.message.strip().splitlines()[0]
    return ""


def _graph() -> AssetGraph:
    from rag_assets.definitions import defs

    return defs.resolve_asset_graph()


@cache
def _asset_order() -> tuple[dg.AssetKey, ...]:
    """Every asset key in the order ``defs`` lists its assets (the order the demo prints)."""
    import dagster as dg

    from rag_assets.definitions import defs

    return tuple(key for item in defs.assets or () if isinstance(item, dg.AssetsDefinition)
                 for key in sorted(item.keys, key=lambda k: k.to_user_string()))


@cache
def backfill_assets() -> tuple[str, ...]:
    """The partitioned assets of ``BACKFILL_GROUPS``: what ``backfill`` accepts (retrieval_runs
    retrieval_metrics summaries answers answer_metrics)."""
    graph = _graph()
    return tuple(key.to_user_string() for key in _asset_order()
                 if graph.get(key).is_partitioned and graph.get(key).group_name in BACKFILL_GROUPS)


@cache
def demo_assets() -> tuple[str, ...]:
    """What ``demo`` materializes for each partition after ``ingest_job``: every partitioned
    asset that job does not build (the evaluation, generation and report assets). The demo
    leaves each partition up to date, so the automation sensor of ``make ui`` finds nothing to
    build after it."""
    from rag_assets.defs.ingest import ingest_job

    graph = _graph()
    ingested = ingest_job.selection.resolve(graph)
    rest = (key.to_user_string() for key in _asset_order()
            if graph.get(key).is_partitioned and key not in ingested)
    return tuple(dict.fromkeys((*backfill_assets(), *rest)))  # the evaluation first


def default_backfill_assets() -> list[str]:
    """``backfill`` without assets: those of the first group (the evaluation, which a changed
    retrieval setting changes)."""
    import dagster as dg

    graph = _graph()
    return [name for name in backfill_assets()
            if graph.get(dg.AssetKey.from_user_string(name)).group_name == BACKFILL_GROUPS[0]]


def rollups_of(assets: Iterable[str]) -> list[str]:
    """The roll-ups to refresh after re-running ``assets``, in their order: the unpartitioned
    assets that dependencies within an asset's group connect it to. ``retrieval_metrics``
    shares ``evaluation_rollup`` with ``retrieval_runs``, which the roll-up reads; nothing in its
    group reads ``summaries``, so it has none."""
    import dagster as dg

    graph = _graph()
    rollups: dict[str, None] = {}
    for name in assets:
        start = dg.AssetKey.from_user_string(name)
        group = graph.get(start).group_name
        family, todo = {start}, [start]
        while todo:
            node = graph.get(todo.pop())
            for near in (*node.parent_keys, *node.child_keys):
                if near not in family and graph.has(near) and graph.get(near).group_name == group:
                    family.add(near)
                    todo.append(near)
        for key in _asset_order():
            if key in family and not graph.get(key).is_partitioned:
                rollups[key.to_user_string()] = None
    return list(rollups)
