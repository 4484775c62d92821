"""``python -m rag_assets.cli``: the console entry point, as the ``rag-assets`` script runs it."""

from rag_assets.cli.app import run

run()
