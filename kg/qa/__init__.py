"""Graph-aware question answering: intents answered from Cypher, otherwise hybrid retrieval and an
extractive answer (kg.qa.engine.ask)."""
