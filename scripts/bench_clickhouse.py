#!/usr/bin/env python3
"""Benchmark of the ClickHouse backend beside the SQLite one, in the same run. Prints figures,
asserts nothing.

Usage:
  scripts/bench_clickhouse.py [--url http://127.0.0.1:8123] [--bin .build/release/report]
                              [--events 1000000] [--store-events 10000000] [--runs 3]
                              [--data bench-out] [--work bench-out/clickhouse] [--keep]

1. Generates the NDJSON files of --events events with seeds 1, 2, ... (scripts/generate_events.py,
   as scripts/bench.py does) into --data unless they are there already.
2. Ingests the seed-1 file through `report ingest --backend clickhouse` into a new database, and
   through `report ingest` into a new SQLite file: events/s of each.
3. Builds a --store-events store in both backends (the files of seeds 1..N ingested one by one)
   and runs each global report --runs times after a warm-up as a whole process with
   `--now 2026-11-20T12:00:00Z --format json`: the median wall time of each backend, and
   whether both answered the same JSON.
The ClickHouse databases are tally_bench_ingest and tally_bench_store (dropped first; --keep
keeps them afterwards). The server is --url (default $TALLY_CLICKHOUSE_URL).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
NOW = '2026-11-20T12:00:00Z'
GLOBAL_REPORTS = [
    ['summary'],
    ['heatmap', '--days', '365'],
    ['trend', '--days', '30'],
    ['continue'],
    ['dislike-rate'],
    ['dislike-rate', '--by', 'model', '--top-reasons', '3'],
    ['exposures', '--by', 'day'],
    ['exposures', '--by', 'page'],
    ['exposures', '--by', 'item'],
    ['exposures', '--by', 'model'],
    ['exposures', '--by', 'position'],
    ['top', '--event', 'api_request_failed', '--by', 'userId'],
    ['latency', '--event', 'view_loaded', '--field', 'load_duration_ms', '--by', 'app_version'],
]


def clickhouse(url, sql):
    with urllib.request.urlopen(urllib.request.Request(url, data=sql.encode())) as answer:
        return answer.read().decode()


def generate(path, events, seed):
    if os.path.exists(path):
        return
    subprocess.run([sys.executable, os.path.join(HERE, 'generate_events.py'), '--events', str(events),
                    '--seed', str(seed), '--out', path + '.part'], check=True)
    os.replace(path + '.part', path)


def timed(command):
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit('failed: %s\n%s' % (' '.join(command), done.stderr[-2000:]))
    return elapsed, done.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--url', default=os.environ.get('TALLY_CLICKHOUSE_URL', 'http://127.0.0.1:8123'))
    ap.add_argument('--bin', default='.build/release/report')
    ap.add_argument('--events', type=int, default=1_000_000)
    ap.add_argument('--store-events', type=int, default=10_000_000)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--data', default='bench-out')
    ap.add_argument('--work', default=os.path.join('bench-out', 'clickhouse'))
    ap.add_argument('--keep', action='store_true')
    args = ap.parse_args()
    os.makedirs(args.data, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    files = []
    for seed in range(1, max(1, args.store_events // args.events) + 1):
        path = os.path.join(args.data, 'events-%d-seed%d.ndjson' % (args.events, seed))
        generate(path, args.events, seed)
        files.append(path)
    ch = lambda database: ['--backend', 'clickhouse', '--clickhouse-url', args.url, '--clickhouse-database', database]
    print('ClickHouse %s at %s; binary %s' % (clickhouse(args.url, 'SELECT version()').strip(), args.url, args.bin))

    # 2. Ingest of one file into empty stores.
    clickhouse(args.url, 'DROP DATABASE IF EXISTS tally_bench_ingest')
    sqlite_path = os.path.join(args.work, 'ingest.sqlite')
    for suffix in ['', '-wal', '-shm']:
        if os.path.exists(sqlite_path + suffix):
            os.remove(sqlite_path + suffix)
    print('\n| ingest of %s (%d events) | seconds | events/s |' % (os.path.basename(files[0]), args.events))
    print('| --- | ---: | ---: |')
    for name, extra in [('ClickHouse', ch('tally_bench_ingest')), ('SQLite', ['--db', sqlite_path])]:
        elapsed, out = timed([args.bin, 'ingest', files[0], '--format', 'json'] + extra)
        accepted = json.loads(out)['accepted']
        print('| %s | %.1f | %s |' % (name, elapsed, '{:,.0f}'.format(accepted / elapsed)), flush=True)

    # 3. The store of --store-events events in both backends, then the global reports.
    clickhouse(args.url, 'DROP DATABASE IF EXISTS tally_bench_store')
    store_path = os.path.join(args.work, 'store.sqlite')
    for suffix in ['', '-wal', '-shm']:
        if os.path.exists(store_path + suffix):
            os.remove(store_path + suffix)
    totals = {'ClickHouse': 0.0, 'SQLite': 0.0}
    for path in files:
        for name, extra in [('ClickHouse', ch('tally_bench_store')), ('SQLite', ['--db', store_path])]:
            totals[name] += timed([args.bin, 'ingest', path, '--format', 'json'] + extra)[0]
    stored = len(files) * args.events
    print('\nStore of %s events: ClickHouse ingest %.0f s (%s events/s), SQLite %.0f s (%s events/s).' % (
        '{:,}'.format(stored), totals['ClickHouse'], '{:,.0f}'.format(stored / totals['ClickHouse']),
        totals['SQLite'], '{:,.0f}'.format(stored / totals['SQLite'])))
    print('\n| report over %s events (median of %d) | ClickHouse | SQLite | same answer |' % ('{:,}'.format(stored), args.runs))
    print('| --- | ---: | ---: | --- |')
    for report in GLOBAL_REPORTS:
        medians, answers = {}, {}
        for name, extra in [('ClickHouse', ch('tally_bench_store')), ('SQLite', ['--db', store_path])]:
            command = [args.bin] + report + ['--now', NOW, '--format', 'json'] + extra
            timed(command)
            runs = [timed(command) for _ in range(args.runs)]
            medians[name] = statistics.median(r[0] for r in runs)
            answers[name] = json.loads(runs[-1][1])
        print('| `%s` | %.0f ms | %.0f ms | %s |' % (' '.join(report), medians['ClickHouse'] * 1000, medians['SQLite'] * 1000,
                                                    'yes' if answers['ClickHouse'] == answers['SQLite'] else '**no**'), flush=True)
    if not args.keep:
        clickhouse(args.url, 'DROP DATABASE IF EXISTS tally_bench_store')
        clickhouse(args.url, 'DROP DATABASE IF EXISTS tally_bench_ingest')


if __name__ == '__main__':
    main()
