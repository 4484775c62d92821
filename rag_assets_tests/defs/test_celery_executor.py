"""``RAG_ASSETS_EXECUTOR=celery`` gives every job dagster-celery's executor, listening to the
broker its workers are started with (deploy/scale/celery.yaml); steps executing on real workers
are shown by ``rag_assets_tests/test_scale_check.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rag_assets.defs.platform import CELERY_CONFIG, EXECUTORS, executor_from_setting

REPO = Path(__file__).resolve().parents[2]


def test_the_workers_are_started_with_the_executors_config() -> None:
    """A worker started on another broker or backend than the runs' never sees their steps."""
    worker = yaml.safe_load((REPO / "deploy" / "scale" / "celery.yaml").read_text())
    assert worker["execution"]["config"] == CELERY_CONFIG
    assert CELERY_CONFIG["broker"] == {"env": "RAG_ASSETS_CELERY_BROKER"}


def test_celery_executor_takes_broker_and_backend_from_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import dagster as dg
    from dagster._config import process_config
    from dagster_celery.executor import CELERY_CONFIG as SCHEMA

    executor = executor_from_setting("celery")
    assert executor.name == "celery"
    monkeypatch.setenv("RAG_ASSETS_CELERY_BROKER", "redis://127.0.0.1:6399/0")
    monkeypatch.setenv("RAG_ASSETS_CELERY_BACKEND", "redis://127.0.0.1:6399/1")
    processed = process_config(dg.Shape(SCHEMA), CELERY_CONFIG)
    assert processed.success, processed.errors
    assert processed.value["broker"] == "redis://127.0.0.1:6399/0"
    assert processed.value["backend"] == "redis://127.0.0.1:6399/1"
    assert processed.value["config_source"]["broker_connection_retry_on_startup"] is True


def test_an_unknown_executor_name_fails_with_the_names_it_takes() -> None:
    assert {executor_from_setting(n).name for n in EXECUTORS} == {
        "in_process", "multiprocess", "celery"}
    with pytest.raises(ValueError, match="one of in_process, multiprocess, celery"):
        executor_from_setting("threads")
