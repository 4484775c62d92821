"""Retrieval: embeddings, the LanceDB store and the search strategies.

``embeddings`` (the model and its content-hash cache), ``store`` (the LanceDB tables, BM25 index
and document profiles), ``references`` (citations in one normalized form, citation scores) and
``retriever`` (the strategies behind ``Retriever.search`` over a read
:class:`~rag_assets.core.question.question.Question`, page ranking, context packing). Reads the
ingest, footnotes, chunks, question and warehouse stages.
"""
