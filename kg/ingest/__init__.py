"""Putting papers into the graph: the run over files (pipeline: parse, map and validate in worker processes, then
write in order), document to records (mapping), the check of every record against the ontology (validation),
entity resolution (entities), the re-ingestion rules that keep curators' work (reconcile), the writers (papers,
one transaction per paper, on write's batched statements; bulk, a first load through neo4j-admin), the run ledger
(runs), domain tagging (domains), deleting a paper (delete), the API's upload jobs (jobs) and parsing on a Dask
cluster (dask_workers). It writes through kg.db and parses in kg.workers; qa, curation and export may build on it,
never the reverse (tests/unit/test_layers.py)."""
