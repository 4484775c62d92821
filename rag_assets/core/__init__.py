"""Plain-Python core of rag-assets: no Dagster import anywhere below this package."""
