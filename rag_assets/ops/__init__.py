"""Operating the project's processes, apart from the product's Dagster code.

``processes`` (standard library only): ports, logs, an ``exec`` with default signal handlers,
whether a recorded process lives, and how a command stops on SIGINT/SIGTERM (the CLI and
``rag_assets.run_safety`` use it); ``ui_launcher``: ``make ui``; ``local_dagster``: a real
webserver or daemon for a script or test; ``backfill_check``: ``make backfill-check``.
The run launcher and the run safety that ``deploy/dagster.yaml`` names stay in ``rag_assets``.
"""
