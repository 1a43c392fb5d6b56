# The two commands of the README: `make run` (the main job) and `make test` (the test suite).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test install system-deps system-deps-browser

$(BIN)/kg: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,embed,bench]"
	@touch $@

install: system-deps $(BIN)/kg

system-deps:
	@bash scripts/system-deps.sh

system-deps-browser:
	@bash scripts/system-deps.sh --browser

## run: install, start the local Neo4j, ingest PAPERS (default: the generated samples), then serve the API
## in the foreground (Ctrl-C stops the API; Neo4j keeps running until `kg db stop`)
PAPERS ?= samples
run: install
	$(BIN)/kg db start
	$(BIN)/kg ingest $(PAPERS)
	@echo "Graph: Neo4j Browser (URL above). Serving the REST API now (OpenAPI docs at its /docs); Ctrl-C stops it."
	$(BIN)/kg serve

## test: install everything the tests need (Chromium too), then run unit and integration tests
test: system-deps-browser install
	$(BIN)/kg db install
	$(BIN)/python -m pytest
