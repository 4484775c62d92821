"""Everything Dagster loads: the definitions found in ``rag_assets/defs/`` (assets, checks, jobs,
schedules, sensors in their modules; resources and executor in ``defs/platform.py``), loaded the
way ``dg`` projects load them (``[tool.dg]`` in pyproject.toml), every asset owned by the team
(set here once, not asset by asset). ``defs`` is what Dagster loads."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from dagster._record import replace  # what Definitions.map_asset_specs itself uses

OWNERS = ["team:rag-assets"]


def owned(spec: dg.AssetSpec) -> dg.AssetSpec:
    return spec.replace_attributes(owners=OWNERS)


def with_owners(loaded: dg.Definitions) -> dg.Definitions:
    """``loaded`` with every asset owned by :data:`OWNERS`. An asset a module imports from
    another is found in both (the same object, once in the repository): mapped once, not twice
    (two mapped copies would be two assets of one key)."""
    unique = list({id(asset): asset for asset in loaded.assets or []}.values())
    specs = [a for a in unique if isinstance(a, dg.AssetsDefinition | dg.AssetSpec)]
    others = [a for a in unique if not isinstance(a, dg.AssetsDefinition | dg.AssetSpec)]
    return replace(loaded, assets=[*dg.map_asset_specs(owned, specs), *others])


defs = with_owners(dg.load_from_defs_folder(path_within_project=Path(__file__).parent))
all_assets = list(defs.assets or [])
