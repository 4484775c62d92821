"""Retrieval: embeddings, the LanceDB store, query understanding and the search strategies.

``embeddings`` (the model and its content-hash cache), ``store`` (the LanceDB tables, BM25 index
and document profiles), ``references`` (citations in one normalized form, citation scores),
``query`` with ``finance_lexicon.json`` (ranking text, metrics, statements, BM25 expansion) and
``retriever`` (the strategies behind ``Retriever.search``, page ranking, context packing). Reads
the ingest, footnotes, chunks and warehouse stages.
"""
