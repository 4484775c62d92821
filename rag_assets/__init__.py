"""rag-assets: footnote- and citation-aware RAG over financial and legal reports, as Dagster
assets. ``rag_assets.definitions.defs`` is what Dagster loads."""
