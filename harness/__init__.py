"""The make targets' harnesses, outside the installed package: they start the product's processes
from this checkout (its ``workspace.yaml``, ``deploy/``) and check what those processes did.

``ui_launcher``: ``make ui``; ``local_dagster``: a real webserver or daemon for a script or test;
``celery_workers``: the scale profile's Celery workers; ``servers``: throwaway PostgreSQL and
Redis on 127.0.0.1; ``backfill_check``: ``make backfill-check``; ``scale_check``:
``make scale-check``. Run from the checkout's root (``python -m harness.backfill_check``).
"""
