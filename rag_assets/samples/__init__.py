"""The sample corpus, made by the project's own code (``rag-assets sample``)."""
