#!/usr/bin/env bash
# Checks `report serve` against its own OpenAPI document (/openapi.json) with schemathesis:
# every endpoint, generated valid and invalid inputs, every check. Starts a server on a free
# loopback port over the sample data, with a token of every scope (--token-file) that every
# request carries, and stops it afterwards.
#
#   scripts/schemathesis.sh [--bin .build/debug/report] [extra schemathesis options]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--bin" ]; then BIN=$2; shift 2; fi
command -v schemathesis >/dev/null || python3 -m pip install --quiet 'schemathesis>=4,<5'
. scripts/serve_helpers.sh
ingest_sample
TOKEN=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
printf 'read,write,sql,metrics %s\n' "$TOKEN" > "$WORK/tokens"
start_server --token-file "$WORK/tokens"
echo "schemathesis against $BASE (with a token of every scope)" >&2
schemathesis run "$BASE/openapi.json" --header "Authorization: Bearer $TOKEN" --checks all --max-examples "${MAX_EXAMPLES:-40}" --seed 1 \
    --phases examples,coverage,fuzzing --request-timeout 30 --no-color "$@"
