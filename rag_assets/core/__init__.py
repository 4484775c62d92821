"""Plain-Python core of rag-assets, grouped by stage: no Dagster import anywhere below this
package, and each stage imports only from the stages before it: ``ingest`` (report files to
pages, what each page is, the document's profile and context), ``footnotes`` (the dictionary and
the stitcher, their checks and ground truth), ``chunks`` (naive and enriched chunks, their quality
suite), ``warehouse`` (stage records as DataFrames, the store probe), ``retrieval`` (embeddings,
the LanceDB store, query understanding, the strategies) and ``evaluation`` (golden questions,
FinanceBench, metrics, runs, reports)."""
