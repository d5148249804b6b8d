#!/usr/bin/env python3
"""Loads into a copy of a full ClickHouse store, each beside the same file into an empty database,
with what the server did during each load. Prints figures, asserts nothing.

Usage:
  scripts/bench_store_pairs.py --bin .build/release/report --snapshot DIR --files A.ndjson,B.ndjson
                               [--database tally_bench_store] [--http 18350] [--tcp 19350] [--pause 30]

--snapshot is the folder of a stopped server that scripts/clickhouse.sh started (such as the --dir
of `scripts/bench_clickhouse.py --keep`, stopped with `scripts/clickhouse.sh stop DIR`); it is
copied, so every run starts from the same store. On the copy (system.part_log on), the binary
first creates its schema (an ingest of nothing: a layout change converts the store here, timed),
then for each file in turn: ingests it into an empty database, drops that, waits --pause seconds,
ingests it into the store, waits again. For each load it prints the wall time, the server's CPU
time, the statements' server CPU (query_log, the views each insert runs included) and the merges
the server ran meanwhile per table (part_log: seconds, rows, bytes), then the ratio of each
file's speed into the store over its speed into the empty database.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_clickhouse as bench  # noqa: E402

PART_LOG = """<?xml version="1.0"?>
<yandex><part_log><database>system</database><table>part_log</table><flush_interval_milliseconds>3000</flush_interval_milliseconds></part_log></yandex>
"""


def load(server, server_dir, binary, path, database):
    """One ingest of `path` into `database`: its seconds, and prints where the server's time went."""
    before = server.query_ids()
    started = server.run('SELECT toString(now())').strip()
    cpu = bench.server_cpu(server_dir)
    seconds, out = bench.timed([binary, 'ingest', path, '--format', 'json', '--backend', 'clickhouse',
                                '--clickhouse-url', server.url, '--clickhouse-database', database])
    cpu = bench.server_cpu(server_dir) - cpu
    ended = server.run('SELECT toString(now())').strip()
    print('%s into %s: %.2f s, server CPU %.2f s, %s accepted' % (
        os.path.basename(path), database, seconds, cpu, '{:,}'.format(json.loads(out)['accepted'])))
    kinds = {}
    for _, _, _, text, statement_cpu in server.finished_queries(before):
        kind = bench.statement_kind(text)
        kinds[kind] = kinds.get(kind, 0) + statement_cpu
    for kind, statement_cpu in sorted(kinds.items(), key=lambda item: -item[1])[:8]:
        print('  statements %-44s CPU %6.2f s' % (kind, statement_cpu))
    for table, merges, merge_seconds, rows, data in server.rows(
            "SELECT table, count(), sum(duration_ms) / 1000, sum(rows), sum(size_in_bytes) FROM system.part_log "
            "WHERE event_type = 2 AND database = '%s' AND event_time BETWEEN '%s' AND '%s' "
            "GROUP BY table ORDER BY sum(duration_ms) DESC LIMIT 8" % (database, started, ended)):
        print('  merges of %-44s %3s, %6.2f s, %10s rows, %7.1f MB' % (
            table, merges, float(merge_seconds), '{:,}'.format(int(rows)), int(data) / 1e6))
    return seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--bin', default='.build/release/report')
    ap.add_argument('--snapshot', required=True, help="a stopped server's folder (scripts/clickhouse.sh)")
    ap.add_argument('--files', required=True, help='event files, comma-separated, each newer than the store')
    ap.add_argument('--database', default='tally_bench_store')
    ap.add_argument('--http', type=int, default=18350)
    ap.add_argument('--tcp', type=int, default=19350)
    ap.add_argument('--pause', type=float, default=30, help='seconds between loads (default %(default)s)')
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    here = os.path.dirname(os.path.abspath(__file__))
    copy = tempfile.mkdtemp(prefix='tally-store-pairs-')
    try:
        shutil.copytree(os.path.join(args.snapshot, 'data'), os.path.join(copy, 'data'), symlinks=True)
        os.makedirs(os.path.join(copy, 'config.d'), exist_ok=True)
        with open(os.path.join(copy, 'config.d', 'part_log.xml'), 'w') as out:
            out.write(PART_LOG)
        url = subprocess.run([os.path.join(here, 'clickhouse.sh'), 'start', copy, str(args.http), str(args.tcp)],
                             check=True, capture_output=True, text=True).stdout.strip()
        server = bench.Server(url)
        time.sleep(args.pause)
        empty = os.path.join(copy, 'empty.ndjson')
        open(empty, 'w').close()
        seconds, _ = bench.timed([binary, 'ingest', empty, '--backend', 'clickhouse', '--clickhouse-url', url,
                                  '--clickhouse-database', args.database])
        print('schema of %s over the store: %.2f s' % (args.bin, seconds))
        ratios = []
        for path in args.files.split(','):
            time.sleep(args.pause)
            into_empty = load(server, copy, binary, path, 'tally_pairs_empty')
            server.run('DROP DATABASE IF EXISTS tally_pairs_empty')
            time.sleep(args.pause)
            into_store = load(server, copy, binary, path, args.database)
            ratios.append('%s %.2f' % (os.path.basename(path), into_empty / into_store))
        print('speed into the store over speed into an empty database: ' + ', '.join(ratios))
    finally:
        subprocess.run([os.path.join(here, 'clickhouse.sh'), 'stop', copy])
        shutil.rmtree(copy, ignore_errors=True)


if __name__ == '__main__':
    main()
