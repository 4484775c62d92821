"""The project loads the way ``dg`` projects load (``[tool.dg]``, ``dg.load_from_defs_folder``):
``dg check defs`` passes, and the autoloaded definitions hold every asset, check, job, schedule
and sensor of the folder, with the resources and executor of ``defs/platform.py``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import dagster as dg

from rag_assets.definitions import defs

REPO = Path(__file__).resolve().parents[2]


def test_dg_check_defs_passes_without_warnings() -> None:
    dg_bin = Path(sys.executable).with_name("dg")
    result = subprocess.run(  # noqa: S603 - the venv's own dg
        [str(dg_bin), "check", "defs"], cwd=REPO, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO), "DAGSTER_DISABLE_TELEMETRY": "1"},
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "All definitions loaded successfully" in output
    assert "Warning" not in output, output  # no SupersessionWarning, no deprecation


def test_loading_the_definitions_imports_no_store_or_plotting_library() -> None:
    """The webserver, the daemon, the code servers and every CLI command load the definitions;
    lancedb (2-3 s of import) and matplotlib (1 s) are imported where a store is opened or a
    chart drawn, so loading costs none of them."""
    probe = ("import sys, rag_assets.definitions; "
             "print(sorted(m for m in ('lancedb', 'matplotlib', 'torch') if m in sys.modules))")
    result = subprocess.run(  # noqa: S603 - this interpreter
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_folder_holds_every_definition_and_the_platform_its_resources() -> None:
    repository = defs.get_repository_def()
    assets = {k.to_user_string() for k in repository.asset_graph.get_all_asset_keys()}
    assert {"raw_pages", "footnote_dictionary", "stitched_text", "naive_chunks",
            "enriched_chunks", "naive_vectors", "enriched_vectors", "financial_statements",
            "retrieval_runs", "retrieval_metrics", "answers", "audit_report"} <= assets
    jobs = {job.name for job in repository.get_all_jobs()}
    assert {"ingest_job", "evaluation_job", "rollup_job", "generation_job", "report_job"} <= jobs
    assert {s.name for s in repository.schedule_defs} == {"reevaluate_schedule",
                                                          "reingest_schedule"}
    assert {s.name for s in repository.sensor_defs} == {"report_sensor", "automation_sensor"}
    assert {"settings", "embeddings", "retrieval", "llm", "io_manager"} <= set(defs.resources or {})
    ingest = defs.resolve_job_def("ingest_job")
    assert ingest.executor_def is dg.in_process_executor
    checks = {key.name for key in repository.asset_graph.asset_check_keys}
    assert {"footnote_coverage", "text_conservation", "naive_chunks_quality",
            "enriched_chunks_quality", "footnote_colocation"} <= checks
