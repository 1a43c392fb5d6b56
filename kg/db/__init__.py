"""The database itself: the driver and its sessions (store), constraints and indexes (schema), the canonical dump
that says whether two graphs are the same (dump), the local Neo4j server (localserver) and the store of
the ingested PDFs the graph points into by hash (filestore). Everything else in kg
reaches Neo4j through these; nothing here imports the rest of kg, so a reader or writer can change without
touching the connection."""
