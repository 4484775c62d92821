"""Warehouse: where the stages' records are kept, and whether a store can be written at all.

``tables`` turns each stage's records (pages, footnotes, citations, stitched pages, chunks) into
the DuckDB warehouse's DataFrames and back; ``writable`` is the probe that fails a run in one
line when a store (the warehouse file, the LanceDB folder) cannot be written. Reads the ingest,
footnotes and chunks stages.
"""
