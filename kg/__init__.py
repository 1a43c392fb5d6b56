"""paperkg: scientific papers as a typed, provenance-bearing knowledge graph in Neo4j."""

__version__ = "0.1.0"
