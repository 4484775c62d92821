"""Warehouse: where the stages' records are kept, and whether a store can be written at all.

``tables`` turns each stage's records (pages, footnotes, citations, stitched pages, chunks) into
the warehouse's DataFrames and back; ``connection`` opens the warehouse, a DuckDB file or a
Postgres database, for every direct reader and the answer audit, the same calls for both;
``postgres`` is the Postgres warehouse's SQL (types, a partition's replacement, ``COPY``, reads
with DuckDB's dtypes); ``writable`` is the probe that fails a run in one line when a store (the
warehouse file, the LanceDB folder) cannot be written. Reads the ingest, footnotes and chunks
stages.
"""
