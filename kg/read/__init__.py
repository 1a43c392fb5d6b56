"""Reading the graph: the parameterised queries behind the API and CLI (queries), the guard on users' own Cypher
(cypher_guard) and the worker processes the API runs it in (cypher_workers), Lucene query text for the full-text
indexes (fulltext), a paper's coverage (coverage) and evidence pictures cut from the stored PDFs (evidence). These
use kg.db and kg.workers and nothing that writes, so qa, curation, export and the API build on them without
pulling in ingestion."""
