"""Chunks: the naive windows and the footnote-aware enriched chunks, and their quality suite.

``chunking`` cuts the pages (naive) and the stitched text (enriched) into chunks sized in the
embedding model's tokens, each with its contextual header; ``quality`` is the Great Expectations
suite a chunk table must pass. Reads the ingest and footnotes stages.
"""
