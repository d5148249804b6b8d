#!/usr/bin/env bash
# Captures what `report` prints and what `report serve` answers, byte for byte, so that a
# refactoring can be checked to change none of it: every report in table, json, csv and ndjson (fixed
# --now and --tz) over the sample data and the acceptance data, every saved query, the help
# texts, and the HTTP answers (status, headers but Date, body) of every GET endpoint, including
# 400s, 404s and 405s. With TALLY_CLICKHOUSE_URL set, the reports also run on ClickHouse.
#
#   scripts/snapshot_outputs.sh OUT_DIR [--bin .build/debug/report] [--acceptance DIR]
#   diff -r before/ after/
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: snapshot_outputs.sh OUT_DIR [--bin PATH] [--acceptance DIR]}
shift
BIN=.build/debug/report
ACCEPTANCE=/work/shared/acceptance
while [ $# -gt 0 ]; do
    case $1 in
        --bin) BIN=$2; shift 2 ;;
        --acceptance) ACCEPTANCE=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tally-snapshot.XXXXXX")
SERVE_PID=
cleanup() {
    if [ -n "$SERVE_PID" ]; then kill -TERM "$SERVE_PID" 2>/dev/null; wait "$SERVE_PID" 2>/dev/null; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
NOW=2026-11-20T12:00:00Z

# run NAME ARGS...: stdout, stderr and exit status of `report ARGS...` into $OUT/NAME.
run() {
    local name=$1; shift
    NO_COLOR=1 "$BIN" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
    echo $? >"$OUT/$name.status"
}

# The report invocations, one a line (word-split), each run in every format.
reports() {
    cat <<'EOF'
summary
summary --user u-sh
summary --user u-sh --tz -05:00
summary --user u-ny --tz +14:00
trend --days 7
trend --days 30 --user u-sh
trend --days 30 --user u-ny --tz +08:00
heatmap --days 365
heatmap --days 90 --user u-ny --tz +14:00
heatmap --days 60 --week-start monday
continue
continue --user u-sh
continue --user u-ny
continue --user nobody
progress m-01 --user u-sh
progress m-05
progress kb-statistics
progress kb-statistics --user u-sh
progress m-99 --user u-sh
dislike-rate
dislike-rate --by model
dislike-rate --by position
dislike-rate --by position --position-buckets 0-4,5-9,10-
dislike-rate --top-reasons 3
dislike-rate --by model --top-reasons 2 --user u-sh
exposures
exposures --by day
exposures --by page
exposures --by item
exposures --by model
exposures --by position
exposures --by page --user u-sh
dislike-rate --by model --from 2026-10-01 --to 2026-11-10
dislike-rate --platform ios --app-version 2.4.0
exposures --by day --from 2026-11-01
exposures --by model --platform ios
compare --baseline rec-v11
compare --baseline rec-v11 --by model,position --position-buckets 0-4,5-
compare --baseline rec-v12 --from 2026-10-01 --platform ios
latency --event view_loaded --field load_duration_ms --by app_version
latency --event view_loaded --field load_duration_ms --by view_name
latency --event view_loaded --field load_duration_ms --by appVersion --user u-sh
top --event api_request_failed --by userId --limit 5
top --event view_loaded --by view_name --limit 3
top --event view_loaded --by platform --limit 10 --user u-sh
top --event api_request_failed --by appVersion --limit 2
rejected
query learning_days
query learning_users
query store_counts
query top --param event=view_loaded --param by=view_name --param limit=3
query exposures --param by=model
query rejected
sql SELECT_1
retention
retention --days 60 --user u-sh
retention --days 7 --tz +14:00
EOF
}

# The invocations that must fail, and how.
failures() {
    cat <<'EOF'
exposures --by nope
trend --days 0
heatmap --days 3661
top --event x --by userId --limit 0
latency --event view_loaded
dislike-rate --by nope
dislike-rate --position-buckets 5-1
dislike-rate --from 2026-02-30
compare --baseline no-such-model
compare --baseline rec-v11 --by position
summary --now yesterday
summary --tz +25:00
query no_such_query
nosuch
retention --days 0
retention --days 3661
EOF
}

# snapshot_store LABEL STORE_ARGS...: every report over one store.
snapshot_store() {
    local label=$1; shift
    local i=0 line args
    while read -r line; do
        i=$((i + 1))
        read -r -a args <<<"$line"
        [ "${args[0]}" = sql ] && args=(sql "SELECT 1 AS one")
        for format in table json csv ndjson; do
            run "$label.$(printf %02d $i).${args[0]}.$format" "${args[@]}" --now "$NOW" --format "$format" "$@"
        done
    done < <(reports)
    i=0
    while read -r line; do
        i=$((i + 1))
        read -r -a args <<<"$line"
        run "$label.fail.$(printf %02d $i).${args[0]}" "${args[@]}" --now "$NOW" "$@"
    done < <(failures)
}

# Help texts.
run help.report --help
for command in ingest summary trend heatmap continue progress dislike-rate exposures latency top rejected query sql serve simulate clickhouse retention; do
    run "help.$command" "$command" --help
done
run help.clickhouse-init clickhouse init --help

# The sample data and the acceptance data, each in its own SQLite store.
run ingest.sample ingest sample-data/exposure.ndjson.gz sample-data/feedback.ndjson sample-data/observability.ndjson \
    sample-data/reading.ndjson.gz --db "$WORK/sample.sqlite" --format json
snapshot_store sample --db "$WORK/sample.sqlite"
acceptance_files=()
while read -r file; do acceptance_files+=("$ACCEPTANCE/data/$file"); done <"$ACCEPTANCE/data/files.txt"
(cd "$ACCEPTANCE/data" && NO_COLOR=1 "$BIN" ingest $(cat files.txt) --db "$WORK/acceptance.sqlite" --format json) \
    >"$OUT/ingest.acceptance.out" 2>"$OUT/ingest.acceptance.err"
snapshot_store acceptance --db "$WORK/acceptance.sqlite"

# The same reports on ClickHouse, when a server is given.
if [ -n "${TALLY_CLICKHOUSE_URL:-}" ]; then
    database=snapshot_$$_$RANDOM
    "$BIN" clickhouse init --backend clickhouse --clickhouse-database "$database" >/dev/null
    (cd "$ACCEPTANCE/data" && NO_COLOR=1 "$BIN" ingest $(cat files.txt) --backend clickhouse --clickhouse-database "$database" --format json) \
        >"$OUT/ingest.clickhouse.out" 2>"$OUT/ingest.clickhouse.err"
    snapshot_store clickhouse --backend clickhouse --clickhouse-database "$database"
    curl -s --max-time 30 "$TALLY_CLICKHOUSE_URL" --data-binary "DROP DATABASE $database" >/dev/null || echo "could not drop ClickHouse database $database" >&2
fi

# The HTTP answers over the sample store.
"$BIN" serve --db "$WORK/sample.sqlite" --port 0 --allow-sql >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVE_PID=$!
BASE=
for _ in $(seq 1 400); do
    BASE=$(sed -n 's/^listening on //p' "$WORK/serve.out")
    [ -n "$BASE" ] && break
    sleep 0.05
done
[ -n "$BASE" ] || { echo "report serve did not start" >&2; cat "$WORK/serve.err" >&2; exit 1; }
Q="now=$NOW"
i=0
while read -r method path; do
    i=$((i + 1))
    curl -s -i -X "$method" "$BASE$path" | tr -d '\r' | grep -v -i '^date:' >"$OUT/http.$(printf %02d $i).txt"
done <<EOF
GET /openapi.json
GET /learning/summary?$Q
GET /learning/summary?$Q&user=u-sh&tz=-05:00
GET /learning/trend?$Q
GET /learning/trend?$Q&days=30&user=u-sh
GET /activity/heatmap?$Q
GET /activity/heatmap?$Q&days=90&user=u-ny&tz=%2B14:00
GET /learning/continue?$Q
GET /learning/continue?$Q&user=u-sh
GET /materials/m-01/reading-progress?$Q&user=u-sh
GET /materials/kb-statistics/reading-progress?$Q
GET /feed/dislike-rate?$Q
GET /feed/dislike-rate?$Q&by=model&topReasons=2
GET /feed/dislike-rate?$Q&by=position&positionBuckets=0-4,5-9,10-
GET /feed/exposures?$Q
GET /feed/exposures?$Q&by=model
GET /feed/exposures?$Q&by=item&user=u-sh
GET /observability/latency?$Q&event=view_loaded&field=load_duration_ms&by=app_version
GET /observability/latency?$Q&event=view_loaded&field=load_duration_ms
GET /learning/users
GET /sql?q=SELECT%201%20AS%20one
GET /sql?q=DELETE%20FROM%20reading_events
GET /learning/trend?$Q&days=0
GET /learning/trend?$Q&days=x
GET /feed/exposures?$Q&by=nope
GET /feed/dislike-rate?$Q&by=nope
GET /observability/latency?$Q&event=view_loaded
GET /learning/summary?$Q&bogus=1
GET /learning/summary?now=yesterday
GET /nope
POST /learning/summary
DELETE /feed/exposures
PUT /materials/m-01/reading-progress
PATCH /openapi.json
POST /healthz
GET /learning/reading-events/batch
GET /learning/retention?$Q
GET /learning/retention?$Q&days=60&user=u-sh
GET /learning/retention?$Q&days=0
DELETE /learning/retention
EOF
echo "snapshot of $BIN in $OUT: $(ls "$OUT" | wc -l) files"
