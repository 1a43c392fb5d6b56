"""Exports of the graph to other formats (RDF now; others later)."""
