#!/usr/bin/env bash
# The main job on the bundled sample data: build, ingest sample-data/ into a fresh store,
# then print the learning summary and the 365-day heatmap of the busiest user.
# The sample ends on 2026-11-20, so "now" is pinned there to keep the output alive.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product report >&2
report=.build/release/report
db=$(mktemp -d)/sample.sqlite
now=2026-11-20T12:00:00Z
"$report" ingest sample-data/*.ndjson* --db "$db"
user=$("$report" sql "SELECT user_id FROM reading_daily GROUP BY user_id ORDER BY sum(active_seconds) DESC LIMIT 1" \
    --db "$db" --format csv | sed -n 2p | tr -d '\r')
echo
echo "== summary (all users)"
"$report" summary --db "$db" --now "$now"
echo
echo "== summary of $user"
"$report" summary --db "$db" --now "$now" --user "$user"
echo
echo "== heatmap of $user, 365 days"
"$report" heatmap --db "$db" --now "$now" --user "$user" --days 365
