#!/usr/bin/env python3
"""How to keep duplicates from counting twice on ClickHouse: what each way costs a report's
query. Prints figures, asserts nothing.

Usage:
  scripts/bench_clickhouse_dedup.py [--url http://127.0.0.1:8123] [--bin .build/release/report]
                                    [--events 1000000] [--runs 3] [--data bench-out] [--keep]

Ingests the --events file of seed 1 (generated as scripts/bench.py does, unless it is in
--data) into a new database tally_bench_dedup with `report ingest --backend clickhouse`, then
runs two report-shaped aggregations three ways, --runs times each, and prints the median:
  plain        what Tally runs: duplicates were settled at ingest, the query reads every row;
  FINAL        the table read with FINAL, ReplacingMergeTree collapsing rows by key at query time;
  any by key   the rows grouped by idempotency key first (any() per key), then aggregated.
The aggregations: active seconds and events per user (reading_events), and distinct
(page instance, item) pairs per local date (exposure_events).
The server is --url (default $TALLY_CLICKHOUSE_URL); --keep keeps the database afterwards.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
DATABASE = 'tally_bench_dedup'
QUERIES = {
    'reading seconds per user': {
        'plain': 'SELECT user_id, sum(active_seconds), count() FROM reading_events GROUP BY user_id',
        'FINAL': 'SELECT user_id, sum(active_seconds), count() FROM reading_events FINAL GROUP BY user_id',
        'any by key': 'SELECT user_id, sum(s), count() FROM (SELECT event_id, any(user_id) AS user_id, '
                      'any(active_seconds) AS s FROM reading_events GROUP BY event_id) GROUP BY user_id',
    },
    'exposure pairs per day': {
        'plain': 'SELECT local_date, uniqExact(page_instance_id, item_id) FROM exposure_events GROUP BY local_date',
        'FINAL': 'SELECT local_date, uniqExact(page_instance_id, item_id) FROM exposure_events FINAL GROUP BY local_date',
        'any by key': 'SELECT d, uniqExact(p, i) FROM (SELECT event_id, any(local_date) AS d, any(page_instance_id) AS p, '
                      'any(item_id) AS i FROM exposure_events GROUP BY event_id) GROUP BY d',
    },
}


def clickhouse(url, sql, database=None):
    query = urllib.parse.urlencode({'database': database} if database else {})
    request = urllib.request.Request(f'{url}/?{query}', data=sql.encode(), method='POST')
    with urllib.request.urlopen(request, timeout=600) as answer:
        return answer.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split('\n', 1)[1])
    ap.add_argument('--url', default=os.environ.get('TALLY_CLICKHOUSE_URL', 'http://127.0.0.1:8123'))
    ap.add_argument('--bin', default='.build/release/report')
    ap.add_argument('--events', type=int, default=1_000_000)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--data', default='bench-out')
    ap.add_argument('--keep', action='store_true')
    args = ap.parse_args()
    if not os.access(args.bin, os.X_OK):
        sys.exit(f'{args.bin} is not an executable: swift build -c release, or give --bin')
    os.makedirs(args.data, exist_ok=True)
    path = os.path.join(args.data, f'events-{args.events}-seed1.ndjson')
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(HERE, 'generate_events.py'), '--events', str(args.events),
                        '--seed', '1', '--out', path], check=True)
    clickhouse(args.url, f'DROP DATABASE IF EXISTS {DATABASE}')
    clickhouse(args.url, f'CREATE DATABASE {DATABASE}')
    t0 = time.perf_counter()
    subprocess.run([args.bin, 'ingest', '--backend', 'clickhouse', '--clickhouse-url', args.url,
                    '--clickhouse-database', DATABASE, path], check=True, stdout=subprocess.DEVNULL)
    print(f'ingested {path} into {DATABASE} in {time.perf_counter() - t0:.1f} s')
    parts = clickhouse(args.url, "SELECT table, count() FROM system.parts WHERE active AND database = "
                                 f"'{DATABASE}' AND table LIKE '%_events' GROUP BY table ORDER BY table").decode()
    print('active parts: ' + ', '.join(' '.join(line.split('\t')) for line in parts.strip().split('\n')))
    print(f'\n{"aggregation":<28} {"way":<12} {"median":>10}  answer as plain')
    for name, ways in QUERIES.items():
        expected = None
        for way, sql in ways.items():
            times, answer = [], None
            try:
                clickhouse(args.url, sql, DATABASE)  # warm-up
                for _ in range(args.runs):
                    t0 = time.perf_counter()
                    answer = sorted(clickhouse(args.url, sql, DATABASE).split(b'\n'))
                    times.append(time.perf_counter() - t0)
            except urllib.error.HTTPError as error:
                first = error.read().decode(errors='replace').split('\n')[0][:120]
                print(f'{name:<28} {way:<12} {"failed":>10}  {first}')
                continue
            expected = expected or answer
            print(f'{name:<28} {way:<12} {statistics.median(times) * 1000:>8.0f} ms  '
                  f'{"yes" if answer == expected else "NO"}')
    if not args.keep:
        clickhouse(args.url, f'DROP DATABASE {DATABASE}')


if __name__ == '__main__':
    main()
