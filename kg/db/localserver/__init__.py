"""A Neo4j 5.26 Community server assembled from Maven Central and run with the machine's Java, no Docker."""

from kg.db.localserver.server import LocalNeo4j, ServerStatus

__all__ = ["LocalNeo4j", "ServerStatus"]
