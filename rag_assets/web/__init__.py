"""``rag-assets serve``: the question box in a browser (``app``), over the engine ``ask`` builds.

Nothing is imported here: the command line reads the default below without loading Starlette.
"""

DEFAULT_DAGSTER_URL = "http://127.0.0.1:3000"  # `make ui`'s Dagster UI
