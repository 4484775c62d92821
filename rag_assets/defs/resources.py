"""Resources: where the data lives and how the stages are tuned, and the DuckDB warehouse."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from dagster_duckdb_pandas import DuckDBPandasIOManager
from pydantic import Field

from rag_assets.core.chunking import ChunkSettings

WAREHOUSE_SCHEMA = "rag"


class RagSettings(dg.ConfigurableResource):
    """Paths and tuning; every value can come from the environment (``dg.EnvVar``)."""

    data_dir: str = Field(default="data", description="root of reports/, questions/, stores")
    pdf_workers: int = Field(default=2, ge=1, description="processes that read a long PDF")
    chunk_size: int = Field(default=1200, ge=200)
    chunk_overlap: int = Field(default=300, ge=0)
    chunk_max_size: int = Field(default=3000, ge=400)

    @property
    def reports_dir(self) -> Path:
        return Path(self.data_dir) / "reports"

    @property
    def questions_dir(self) -> Path:
        return Path(self.data_dir) / "questions"

    @property
    def chunk_settings(self) -> ChunkSettings:
        return ChunkSettings(
            size=self.chunk_size, overlap=self.chunk_overlap, max_size=self.chunk_max_size
        )


class _PartitionAwareIOManager(dg.IOManager):
    """Works around dagster-duckdb failing on multi-partitions with a dynamic dimension.

    Its partition lookup needs the instance ("The instance is not available to load
    partitions"); handing it the run's instance through ``partition_loading_context`` is enough.
    """

    def __init__(self, inner: dg.IOManager) -> None:
        self._inner = inner

    def handle_output(self, context: dg.OutputContext, obj: object) -> None:
        with dg.partition_loading_context(dynamic_partitions_store=context.step_context.instance):
            self._inner.handle_output(context, obj)

    def load_input(self, context: dg.InputContext) -> object:
        with dg.partition_loading_context(dynamic_partitions_store=context.instance):
            return self._inner.load_input(context)


class WarehouseIOManager(DuckDBPandasIOManager):
    """DuckDB tables, one per asset; a partition's rows are replaced, never duplicated."""

    def create_io_manager(self, context: dg.InitResourceContext) -> dg.IOManager:
        return _PartitionAwareIOManager(super().create_io_manager(context))


def default_resources(data_dir: str | None = None) -> dict[str, object]:
    """Resources for the definitions, the CLI and tests: all paths under one data folder."""
    settings = (
        RagSettings(data_dir=data_dir)
        if data_dir
        else RagSettings(data_dir=dg.EnvVar("RAG_ASSETS_DATA_DIR").get_value("data") or "data")
    )
    database = str(Path(settings.data_dir) / "warehouse.duckdb")
    return {
        "settings": settings,
        "io_manager": WarehouseIOManager(database=database, schema=WAREHOUSE_SCHEMA),
    }
