"""What the product runs beside its Dagster definitions: the processes it starts and stops, and
its patches on Dagster's internals.

``processes`` (standard library only): ports, logs, an ``exec`` with default signal handlers,
whether a recorded process lives, and how a command stops on SIGINT/SIGTERM (the CLI and
``run_safety`` use it). ``run_safety``: crash safety and cancellation of the runs the CLI
executes in its own process. ``launcher``: the run launcher that ``deploy/dagster.yaml`` names;
importing it installs ``run_retries`` (a failed run is retried even when the daemon read its
failure before its status).

``run_safety``, ``launcher`` and ``run_retries`` reach into Dagster's private modules: each
names the Dagster version it was written against (``PATCHED_DAGSTER_VERSION``), and a test fails
when the installed or pinned Dagster differs, so a moved pin means reading the patch again.
"""
