"""``make scale-check`` as a test: the scale profile on loopback (Postgres instance and
warehouse, Redis, two Celery workers, the webserver and the daemon), three text notes ingested
and indexed in the test's process into the Postgres warehouse while the services start, the
evaluation backfill on the workers with three runs at once and a Celery worker's pool process
SIGKILLed under a step, the run retried by the daemon, and every table exact. The ingest
backfill on the workers, the embedded-defaults comparison and the twelve sample reports are
``make scale-check``'s."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.scale_check import check
from harness.servers import ServerMissing


@pytest.mark.slow
def test_scale_profile_on_celery_survives_a_killed_worker(tmp_path: Path) -> None:
    try:
        (scale,) = check(tmp_path, fleet="notes", partitions=3, compare=False,
                         launcher="preloaded", timeout=240.0, monitor_every=1,
                         free_slots_after=1, ingest="in-process")
    except ServerMissing as err:
        pytest.skip(f"server test skipped: {err}")
    ingest, evaluation = scale.phases
    assert ingest.partitions == evaluation.partitions == 3
    assert ingest.succeeded == ingest.runs == 3
    assert scale.peak_runs >= 3
    assert "SIGKILL to Celery worker" in evaluation.note and "WorkerLostError" in evaluation.note
    assert evaluation.note.endswith("success")
    assert evaluation.failed == 1 and evaluation.runs == 4  # the killed run and its retry
    assert len(scale.steps_by_worker) == 2 and all(scale.steps_by_worker.values())
    assert all(r.retrieval_runs == r.distinct_runs > 0 for r in scale.rows.values())
