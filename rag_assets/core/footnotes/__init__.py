"""Footnotes: markers, definitions, the dictionary and the stitcher, and the measures of them.

``stitching`` finds markers and definitions on the loaded pages, builds the dictionary, resolves
citations and stitches each definition after the sentence that cites it (with its coverage);
``checks`` counts what the stitcher keeps and loses (text conservation, stray note lines,
definition completeness, citation counts); ``groundtruth`` is the footnote truth a sample
generator writes beside its report. Reads the ingest stage only.
"""
