#!/usr/bin/env bash
# Benchmarks `report serve` on loopback with wrk and prints its figures:
#   - GET /learning/summary over a 10,000,000-event store: requests/s and p99 latency;
#   - POST /learning/reading-events/batch with 100 events a request into a new store: events/s;
#   - the server's peak RSS (VmHWM) under each load.
#
#   swift build -c release --product report
#   scripts/bench_serve.sh [--bin .build/release/report] [--duration 20] [--connections 64]
#
# The 10M store is built once (ten seeded 1M-event files from scripts/generate_events.py, as
# scripts/bench.py does) and kept in bench-out/store-10000000.sqlite; STORE=… names another.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/report DURATION=20 CONNECTIONS=64 THREADS=2
while [ $# -gt 0 ]; do
    case $1 in
        --bin) BIN=$2; shift 2 ;;
        --duration) DURATION=$2; shift 2 ;;
        --connections) CONNECTIONS=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
STORE=${STORE:-bench-out/store-10000000.sqlite}
mkdir -p bench-out
if [ ! -s "$STORE" ]; then
    echo "building $STORE (ten 1M-event files, then ingest; several minutes)" >&2
    for seed in $(seq 1 10); do
        file=bench-out/events-1000000-seed$seed.ndjson
        [ -s "$file" ] || python3 scripts/generate_events.py --events 1000000 --seed "$seed" --out "$file"
        "$BIN" ingest "$file" --db "$STORE" >/dev/null
    done
fi

DB=$STORE
. scripts/serve_helpers.sh

peak_rss() { awk '/VmHWM/ {printf "%.0f MB", $2 / 1024}' "/proc/$SERVE_PID/status"; }

start_server
echo "events in the store: $(curl -s "$BASE/healthz")"
curl -s -o /dev/null "$BASE/learning/summary"   # the first answer is computed, later ones come from the cache
echo "== GET /learning/summary, $CONNECTIONS connections, $DURATION s"
wrk -t$THREADS -c"$CONNECTIONS" -d"${DURATION}s" --latency "$BASE/learning/summary" | tee "$WORK/get.txt"
echo "get-summary: $(awk '/Requests\/sec/ {print $2}' "$WORK/get.txt") requests/s, p99 $(awk '$1 == "99%" {print $2}' "$WORK/get.txt"), peak RSS $(peak_rss)"
stop_server_only() { kill -TERM "$SERVE_PID"; wait "$SERVE_PID"; SERVE_PID=; }
stop_server_only

DB=$WORK/post.sqlite
start_server
echo "== POST batches of 100 events, $CONNECTIONS connections, $DURATION s, into a new store"
wrk -t$THREADS -c"$CONNECTIONS" -d"${DURATION}s" --latency -s scripts/wrk/post_batch.lua "$BASE" | tee "$WORK/post.txt"
echo "post-batches peak RSS $(peak_rss); stored: $(curl -s "$BASE/healthz")"
