"""Worker processes for work that must not run in the process that asks for it: the sandbox (sandbox), whose
workers have a wall-clock and an address-space limit, for untrusted PDFs and users' Cypher; and a pool that
replaces itself when a worker dies (process_pool), for a server's uploads and questions. Ingestion, reads and
qa all run work here, so it imports only kg.errors and kg.settings."""
