# Shared by the scripts that exercise `report serve`: a sample store and a server on a free
# loopback port, stopped (SIGTERM) when the calling script exits. Source it; it sets
# BIN, WORK, DB, BASE and SERVE_PID.
BIN=${BIN:-.build/debug/report}
[ -x "$BIN" ] || { echo "no report binary at $BIN (swift build first, or set BIN)" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tally-serve.XXXXXX")
DB=${DB:-$WORK/sample.sqlite}
SERVE_PID=

stop_server() {
    if [ -n "$SERVE_PID" ] && kill -0 "$SERVE_PID" 2>/dev/null; then
        kill -TERM "$SERVE_PID"
        wait "$SERVE_PID" || echo "report serve exited with status $?" >&2
    fi
    rm -rf "$WORK"
}
trap stop_server EXIT

# Ingests the sample data into $DB unless it already holds a store.
ingest_sample() {
    [ -s "$DB" ] && return 0
    "$BIN" ingest sample-data/*.ndjson* --db "$DB" >/dev/null 2>&1
}

# Starts `report serve --db $DB --port 0 "$@"` and waits for its address in BASE.
start_server() {
    "$BIN" serve --db "$DB" --port 0 "$@" >"$WORK/serve.out" 2>"$WORK/serve.err" &
    SERVE_PID=$!
    for _ in $(seq 1 200); do
        BASE=$(sed -n 's/^listening on //p' "$WORK/serve.out")
        [ -n "$BASE" ] && return 0
        kill -0 "$SERVE_PID" 2>/dev/null || { cat "$WORK/serve.err" >&2; exit 1; }
        sleep 0.05
    done
    echo "report serve did not start" >&2
    exit 1
}
