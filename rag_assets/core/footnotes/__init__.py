"""Footnotes: markers, definitions, the dictionary and the stitcher, and the measures of them.

``stitching`` is the public face of the deterministic stitcher: it finds markers and definitions
on the loaded pages, builds the dictionary, resolves citations and stitches each definition after
the sentence that cites it (with its coverage); the work is split by seam into ``markers``,
``records``, ``sentences``, ``zones``, ``citations``, ``definitions``, ``resolve``, ``index``,
``blocks``, ``render`` and ``coverage`` (its docstring lists them). ``model_stitcher`` lets a
model inline the notes and checks its work against the deterministic pages (``page_body``,
``model_batches``, ``model_reply``, ``model_merge``, ``model_results``). ``checks`` counts what
the stitcher keeps and loses (text conservation, stray note lines, definition completeness,
citation counts); ``groundtruth`` is the footnote truth a sample generator writes beside its
report. Reads the ingest stage only.
"""
