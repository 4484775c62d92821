"""The ``rag-assets`` command line (``main``; ``run`` is the console entry point).

``app``: the argument parser, one declaration per shared option; ``commands`` and ``ingest``:
what each command does; ``runs``: runs of the project's ``defs`` in this process (its jobs'
selections, its resources configured for the data folder) and what its asset graph says a
backfill takes; ``progress``: the ticker of a running step; ``output``: the lines and tables
printed, and the warehouse read through the resources. Nothing here imports Dagster at import
time: ``run`` installs the signal handling first.
"""

from rag_assets.cli.app import main, run

__all__ = ["main", "run"]
