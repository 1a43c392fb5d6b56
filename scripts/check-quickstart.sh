#!/usr/bin/env bash
# CI step: run the README's quickstart commands exactly as written, in a fresh clone of this checkout, and
# check that they did what the README promises (a running Neo4j holding the sample papers).
#
# The commands are read from the README's "## Quickstart" bash block, so the README cannot drift from what
# is proven. Only the environment differs from a user's: a throw-away data directory and free ports, so the
# check never touches the user's own database or a server already on 7687. QUICKSTART_SKIP names commands
# to leave out: one command, as written (e.g. QUICKSTART_SKIP="make test" where CI runs the suite anyway).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d -t paperkg-quickstart.XXXXXX)
clone="$work/paperkg"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
export PAPERKG_DATA_DIR="$work/data" PAPERKG_BOLT_PORT=$(free_port) PAPERKG_HTTP_PORT=$(free_port)
export PAPERKG_API_PORT=$(free_port)

main_job=""
cleanup() {
    if [[ -n "$main_job" ]]; then kill -- -"$main_job" 2>/dev/null || true; fi
    if [[ -x "$clone/.venv/bin/kg" ]]; then "$clone/.venv/bin/kg" db stop >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

commands=$(awk '/^## Quickstart/ {q = 1} q && /^```bash/ {b = 1; next} b && /^```/ {exit} b {print}' "$repo/README.md" \
           | sed -E 's/[[:space:]]+#.*$//; /^[[:space:]]*$/d')
if [[ -z "$commands" ]]; then
    echo "check-quickstart: no bash block under '## Quickstart' in README.md" >&2
    exit 1
fi

git clone --quiet "$repo" "$clone"
cd "$clone"
api_up() { curl -fsS "http://127.0.0.1:$PAPERKG_API_PORT/health" >/dev/null 2>&1; }
while IFS= read -r command; do
    if [[ "$command" == "${QUICKSTART_SKIP:-}" ]]; then
        echo "check-quickstart: skipped (QUICKSTART_SKIP): $command"
        continue
    fi
    echo "check-quickstart: \$ $command"
    if [[ "$command" == "make run"* ]]; then
        # The main job ends by serving the API in the foreground: run it in the background until /health answers.
        setsid bash -c "$command" </dev/null &
        main_job=$!
        for _ in $(seq 1 1800); do
            api_up && break
            kill -0 "$main_job" 2>/dev/null || { echo "check-quickstart: '$command' exited before the API came up" >&2; exit 1; }
            sleep 1
        done
        api_up || { echo "check-quickstart: the API did not answer within 30 minutes" >&2; exit 1; }
        echo "check-quickstart: the API answers on port $PAPERKG_API_PORT"
    else
        bash -c "$command"
    fi
done <<< "$commands"

# What the README says `make run` gives: Neo4j running, the kg command in .venv/bin, the sample papers, the API.
.venv/bin/kg db status
papers=$(.venv/bin/python - <<'EOF'
from kg.db import store
from kg.settings import get_settings

with store.connect(get_settings()) as driver:
    print(driver.execute_query("MATCH (p:Paper) RETURN count(p) AS n").records[0]["n"])
EOF
)
expected=$(find samples -name '*.pdf' | wc -l)
if [[ "$papers" != "$expected" ]]; then
    echo "check-quickstart: the graph holds $papers papers after make run, expected the $expected sample papers" >&2
    exit 1
fi
echo "check-quickstart: README quickstart passed ($papers sample papers in the graph)"
