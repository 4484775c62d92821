"""Every asset check explains itself (what it checks, why, what to do when it fails) and is
stored per partition; on a clean real 10-K none cries wolf."""

from __future__ import annotations

import dagster as dg
import pytest

from rag_assets.core.chunks.report import ProcessedReport
from rag_assets.core.settings import IngestSettings
from rag_assets.definitions import defs
from rag_assets.defs.ingest import chunk_outputs, citation_check
from rag_assets.defs.partitions import report_partitions
from rag_assets_tests.core.conftest import TEN_K, TEN_K_PARTITIONS, process_real


def check_specs() -> list[dg.AssetCheckSpec]:
    graph = defs.resolve_asset_graph()
    return [graph.get_check_spec(key) for key in graph.asset_check_keys]


def test_every_check_says_what_it_checks_why_and_what_to_do() -> None:
    specs = check_specs()
    assert len(specs) == 10
    for spec in specs:
        text = spec.description or ""
        head, why, rest = text.partition("Why: ")
        assert head.strip() and why and rest.strip(), (spec.name, text)
        # what to do: the metadata key, the page or the command to look at
        assert "`" in rest, (spec.name, rest)
        # an error that blocks says so, and a check that only warns never blocks
        assert ("blocks" in rest and "never blocks" not in rest) == spec.blocking, spec.name


def test_every_check_of_a_partitioned_asset_is_stored_per_partition() -> None:
    graph = defs.resolve_asset_graph()
    for spec in check_specs():
        assert graph.get(spec.asset_key).partitions_def is report_partitions
        assert spec.partitions_def is report_partitions, spec.name


@pytest.fixture(scope="module")
def pfizer() -> ProcessedReport:
    return process_real(TEN_K["pfizer"], *TEN_K_PARTITIONS["pfizer"])


@pytest.mark.slow
def test_a_clean_10k_with_footnotes_never_cited_passes_citation_counts(
        pfizer: ProcessedReport) -> None:
    """Pfizer's 2021 10-K defines 141 notes and cites 113 of them (notes of table rows it does
    not cite from the text): counted, not a warning."""
    result = citation_check(pfizer.index, IngestSettings().max_unresolved_share)
    assert result.passed
    assert result.severity == dg.AssetCheckSeverity.WARN
    metadata = {name: getattr(value, "value", value) for name, value in result.metadata.items()}
    assert (metadata["footnotes"], metadata["never_cited"], metadata["unresolved_citations"]) \
        == (141, 28, 0)
    assert len(metadata["never_cited_footnotes"]) == 28
    assert result.description is not None and "28 footnote(s) never cited" in result.description


@pytest.mark.slow
def test_a_clean_10k_passes_footnote_colocation_below_100_percent(
        pfizer: ProcessedReport) -> None:
    """147 of 163 enriched pairs co-located (long tables span several chunks; their note is
    kept once), far fewer naive ones: the enrichment works, nothing to warn about."""
    checks = [e for e in chunk_outputs(pfizer, IngestSettings().chunk_max_tokens)
              if isinstance(e, dg.AssetCheckResult)]
    by_name = {c.check_name: c for c in checks}
    assert set(by_name) == {"naive_chunks_quality", "enriched_chunks_quality",
                            "footnote_colocation"}
    assert all(c.passed for c in checks)
    colocation = {k: getattr(v, "value", v) for k, v in by_name["footnote_colocation"]
                  .metadata.items()}
    assert (colocation["enriched_colocated"], colocation["enriched_pairs"]) == (147, 163)
    assert colocation["naive_colocated"] < colocation["enriched_colocated"], colocation
