"""PDF structure extraction: layout, metadata, sections, floats, references and chunks."""

EXTRACTOR_VERSION = "0.83.0"  # bump when extraction output changes; recorded in every Document's audit
