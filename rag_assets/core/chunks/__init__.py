"""Chunks: the naive windows and the footnote-aware enriched chunks, and their quality suite.

``chunking`` is the stage's public face: it re-exports the names the rest of the platform uses
from the modules that decide them (``records``, ``tokens``, ``markers``, ``naive``, ``units``,
``fitting``, ``enriched``), which cut the pages (naive) and the stitched text (enriched) into
chunks sized in the embedding model's tokens, each with its contextual header; ``quality`` is
the Great Expectations suite a chunk table must pass. Reads the ingest and footnotes stages.
"""
