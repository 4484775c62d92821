"""The Dagster layer: thin assets, checks, resources, partitions and sensors over the core."""
