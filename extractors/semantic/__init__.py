"""Semantic extraction: concepts, methods, datasets, metrics, tasks, experiments and results from a parsed
Document, by rules, spaCy and curated data only (no model download, no network): the same paper always gives
the same graph, and every element carries the evidence it came from."""

EXTRACTOR_NAME = "paperkg-semantic"
EXTRACTOR_VERSION = "0.36.0"  # bump when semantic output changes
EXTRACTOR = f"{EXTRACTOR_NAME}@{EXTRACTOR_VERSION}"
