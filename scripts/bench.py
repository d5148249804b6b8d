#!/usr/bin/env python3
"""Benchmark of Tally's `report` binary. It prints figures and asserts nothing.

Usage:
  scripts/bench.py [--events 1000000] [--store-events 10000000] [--bin .build/release/report]
                   [--runs 5] [--user U] [--dir bench-out] [--no-others] [--no-store] [--no-ceiling]

1. Generates two NDJSON files of --events events, the four families mixed, the same events
   with random UUIDv4 keys and with UUIDv7 keys (scripts/generate_events.py --seed 1
   --key v4|v7), into --dir unless they are there already.
2. For each file, times `report ingest --db DIR/bench.sqlite --format json FILE` into a new
   database (events/s and peak RSS), then DuckDB loading the same file into a table keyed by
   the idempotency key (`read_json_objects`, `INSERT OR IGNORE`, every core), and prints
   Tally's speed over DuckDB's (target >= 1.0x), and the CPU time (user + sys) of each, which
   a machine shared with other work disturbs far less than wall time.
3. Measures what writing that database costs SQLite alone, the ceiling of any ingest into this
   schema on this machine: a new database with the same schema and settings (page size, WAL,
   synchronous = FULL) gets the rows of the event tables, then of every table, each table in
   one `INSERT ... SELECT` in one transaction: no parsing, no binding, every row written once,
   in key order. Prints the equivalent events/s.
4. Loads the same file with `sqlite-utils insert DIR/su.db events FILE --nl --alter` (as it
   comes: a commit every 100 rows; and with --batch-size 10000) and with DuckDB's read_json,
   and prints their events/s and Tally's speed over theirs. Skipped with --no-others; install
   them with `pip install sqlite-utils duckdb`.
5. Builds a store of --store-events events (files of --events events with seeds 1, 2, ...,
   whose users differ, ingested one by one) and keeps it, with its input files, in --dir for
   the next run with the same binary (another binary builds it again). Skipped with --no-store.
   Then ingests a further file of each key kind (seed files + 1) into a copy of that store
   (flushed to disk first, else the ingest's first fsync would write the whole copy), the
   incremental daily load, and prints its speed over the new-store figure (target >= 0.8x).
   Then runs each report as a whole process, --runs times after one warm-up run, with
   `--db STORE --now 2026-11-20T12:00:00Z --format json`, and prints the median wall time,
   that less the start-up of the binary (median of `report --help`), and the peak RSS:
   per-user reports for --user (default u1-000, the most active user of seed 1) and the
   global ones.
The closing table puts the targets beside the figures: ingest >= 500k events/s, a per-user
report <= 10 ms and a global one <= 100 ms (both less start-up), latency <= 1 s, and the
whole `report summary --user U` process <= 50 ms.
Disk: about 0.36 GB per million events for the input files, and the databases besides.
"""
import argparse
import collections
import hashlib
import importlib.util
import json
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
NOW = '2026-11-20T12:00:00Z'
GNU_TIME = '/usr/bin/time'


Run = collections.namedtuple('Run', 'wall rss rc out err cpu')


def run(cmd):
    """Runs cmd; returns a Run: wall seconds, peak RSS in MB, exit code, stdout, end of stderr
    and CPU seconds (user + sys, every thread). The peak RSS comes from GNU time: a child of
    this script would also count the script's own memory, which Linux carries over into the
    maximum RSS of a child across fork and exec. CPU time says more than wall time on a
    machine shared with other work, where waiting for a core counts in the wall time."""
    with tempfile.NamedTemporaryFile('r') as usage, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.run([GNU_TIME, '-f', '%M %U %S', '-o', usage.name] + cmd, stdout=subprocess.PIPE, stderr=err)
        wall = time.perf_counter() - t0
        err.seek(0)
        tail = err.read()[-2000:].decode(errors='replace').strip()
        # the last line, after "Command exited with non-zero status N" if so
        peak_kb, user, system = usage.read().splitlines()[-1].split()
    return Run(wall, int(peak_kb) / 1024, p.returncode, p.stdout.decode(errors='replace'), tail,
               float(user) + float(system))


def remove_db(path):
    for suffix in ('', '-wal', '-shm', '-journal', '.wal'):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def rate(n, seconds):
    return f'{n / seconds:,.0f} events/s'


def generate(path, events, seed, key='v7'):
    if os.path.exists(path):
        return
    wall, rss, rc, _, err, _ = run([sys.executable, os.path.join(HERE, 'generate_events.py'), '--events', str(events),
                                    '--seed', str(seed), '--key', key, '--out', path + '.part'])
    if rc:
        sys.exit(f'generate_events.py failed: {err}')
    os.rename(path + '.part', path)
    print(f'generated {path}: {events:,} events, {os.path.getsize(path) / 1e6:,.0f} MB in {wall:.1f} s '
          f'({rate(events, wall)}, peak RSS {rss:.0f} MB)')


def ingest(binary, db, files):
    """Runs report ingest; returns (its Run, counts) or exits with its error."""
    r = run([binary, 'ingest', '--db', db, '--format', 'json'] + files)
    if r.rc:
        sys.exit(f'report ingest failed ({r.rc}): {r.err}')
    return r, json.loads(r.out)


def write_ceiling(source, directory, events, rows):
    """SQLite alone writing the rows of `source` into a new database of the same schema."""
    src = sqlite3.connect(source)
    schema = [sql for (sql,) in src.execute(
        "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid")]
    tables = [t for (t,) in src.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")]
    page_size = src.execute('PRAGMA page_size').fetchone()[0]
    src.close()
    print('\n== SQLite alone writing the ingested rows into a new database (no parsing, no binding, key order)')
    target = os.path.join(directory, 'ceiling.sqlite')
    for label, chosen in (('event tables', [t for t in tables if t.endswith('_events')]), ('every table', tables)):
        remove_db(target)
        db = sqlite3.connect(target, isolation_level=None)
        for pragma in (f'page_size = {page_size}', 'journal_mode = WAL', 'synchronous = FULL', 'cache_size = -262144'):
            db.execute(f'PRAGMA {pragma}')
        for sql in schema:
            db.execute(sql)
        db.execute('ATTACH ? AS src', (source,))
        t0 = time.perf_counter()
        db.execute('BEGIN')
        for t in chosen:  # the WHERE clause keeps SQLite from copying whole pages
            db.execute(f'INSERT INTO main."{t}" SELECT * FROM src."{t}" WHERE random() IS NOT NULL')
        db.execute('COMMIT')
        wall = time.perf_counter() - t0
        written = sum(db.execute(f'SELECT count(*) FROM main."{t}"').fetchone()[0] for t in chosen)
        db.close()
        remove_db(target)
        print(f'{label}: {written:,} rows in {wall:.2f} s, {rate(events, wall)}')
        rows.append((f'ceiling: SQLite writing the {label}', rate(events, wall), '',
                     f'above 500,000 events/s: {"yes" if events / wall >= 500_000 else "NO"}'))


def event_file(directory, events, seed, key):
    """The path of the generated file of `events` events of `seed` with `key` ids."""
    return os.path.join(directory, f'events-{events}-seed{seed}' + ('' if key == 'v7' else f'-{key}') + '.ndjson')


def duckdb_keyed(path, directory):
    """DuckDB loading the file into a table keyed by the idempotency key: its Run, or None."""
    if importlib.util.find_spec('duckdb') is None:
        print('duckdb: not installed (pip install duckdb)')
        return None
    duck_db = os.path.join(directory, 'keyed.duckdb')
    query = (f"import duckdb; c = duckdb.connect({duck_db!r}); "
             "c.execute('CREATE TABLE e (k VARCHAR PRIMARY KEY, doc JSON)'); "
             "c.execute(\"INSERT OR IGNORE INTO e SELECT coalesce(json->>'eventId', json->>'id'), json "
             f"FROM read_json_objects({path!r}, format='newline_delimited')\"); c.close()")
    remove_db(duck_db)
    r = run([sys.executable, '-c', query])
    remove_db(duck_db)
    if r.rc:
        print(f'duckdb keyed: failed ({r.rc}): {r.err}')
        return None
    return r


def bench_ingest(args, key, rows):
    """Tally and DuckDB (keyed) on the file of `key` ids; returns (path, Tally's wall, db)."""
    path = event_file(args.dir, args.events, 1, key)
    generate(path, args.events, 1, key)
    db = os.path.join(args.dir, 'bench.sqlite')
    remove_db(db)
    tally, counts = ingest(args.bin, db, [path])
    wall = tally.wall
    print(f'\n== report ingest {path} ({key} keys) into a new database: {wall:.2f} s ({tally.cpu:.2f} s CPU), '
          f'{rate(args.events, wall)}, peak RSS {tally.rss:.0f} MB, {counts}')
    rows.append((f'ingest, {key} keys, new store (Tally)', rate(args.events, wall), f'{tally.rss:.0f} MB',
                 f'>= 500,000 events/s: {"yes" if args.events / wall >= 500_000 else "NO"}; {tally.cpu:.2f} s CPU'))
    duck = duckdb_keyed(path, args.dir)
    if duck:
        ratio = duck.wall / wall
        print(f'DuckDB keyed load of the same file: {duck.wall:.2f} s ({duck.cpu:.2f} s CPU), {rate(args.events, duck.wall)}, '
              f'peak RSS {duck.rss:.0f} MB; Tally x{ratio:.2f} as fast, x{duck.cpu / tally.cpu:.2f} by CPU time')
        rows.append((f'  DuckDB keyed, {key} keys', rate(args.events, duck.wall), f'{duck.rss:.0f} MB',
                     f'Tally x{ratio:.2f} (>= 1.0: {"yes" if ratio >= 1.0 else "NO"}); '
                     f'{duck.cpu:.2f} s CPU, Tally x{duck.cpu / tally.cpu:.2f}'))
    return path, wall, db


def bench_incremental(args, store, key, first_wall, rows):
    """A further file of `key` ids ingested into a copy of the large store."""
    seed = -(-args.store_events // args.events) + 1
    path = event_file(args.dir, args.events, seed, key)
    generate(path, args.events, seed, key)
    copy = os.path.join(args.dir, 'incremental.sqlite')
    remove_db(copy)
    for suffix in ('', '-wal'):
        if os.path.exists(store + suffix):
            shutil.copyfile(store + suffix, copy + suffix)
    # Else the ingest's first fsync of the copy would write the whole copied file to disk.
    os.sync()
    tally, counts = ingest(args.bin, copy, [path])
    remove_db(copy)
    wall = tally.wall
    ratio = first_wall / wall
    print(f'\n== report ingest {os.path.basename(path)} ({key} keys) into a copy of {store}: {wall:.2f} s '
          f'({tally.cpu:.2f} s CPU), {rate(args.events, wall)}, peak RSS {tally.rss:.0f} MB, {counts}; '
          f'x{ratio:.2f} of the new-store figure')
    rows.append((f'ingest, {key} keys, into the {args.store_events:,}-event store', rate(args.events, wall),
                 f'{tally.rss:.0f} MB', f'x{ratio:.2f} of a new store (>= 0.8: {"yes" if ratio >= 0.8 else "NO"}); '
                 f'{tally.cpu:.2f} s CPU'))


def bench_others(path, events, directory, tally_wall, rows):
    print('\n== the same file elsewhere (one process each; DuckDB uses every core)')
    su, su_db, duck_db = shutil.which('sqlite-utils'), os.path.join(directory, 'su.db'), os.path.join(directory, 'd.duckdb')
    has_duckdb = importlib.util.find_spec('duckdb') is not None
    query = (f"import duckdb; duckdb.connect({duck_db!r}).execute(\"CREATE TABLE e AS SELECT * "
             f"FROM read_json({path!r}, format='newline_delimited', union_by_name=true)\")")
    contenders = [
        ('sqlite-utils insert --nl', [su, 'insert', su_db, 'events', path, '--nl', '--alter'], su),
        ('sqlite-utils --batch-size 10000', [su, 'insert', su_db, 'events', path, '--nl', '--alter', '--batch-size', '10000'], su),
        ('duckdb read_json', [sys.executable, '-c', query], has_duckdb),
    ]
    for name, cmd, available in contenders:
        if not available:
            print(f'{name}: not installed (pip install sqlite-utils duckdb)')
            continue
        remove_db(su_db)
        remove_db(duck_db)
        wall, rss, rc, _, err, _ = run(cmd)
        remove_db(su_db)  # they are large; only the figures are kept
        remove_db(duck_db)
        if rc:
            print(f'{name}: failed ({rc}): {err}')
            continue
        print(f'{name}: {wall:.1f} s, {rate(events, wall)}, peak RSS {rss:.0f} MB; Tally is x{wall / tally_wall:.2f} as fast')
        rows.append((name, rate(events, wall), f'{rss:.0f} MB', f'Tally x{wall / tally_wall:.2f}'))


def build_store(args, first_file):
    """The store of args.store_events events, reused while the same binary asks for it."""
    db = os.path.join(args.dir, f'store-{args.store_events}.sqlite')
    done = db + '.done'
    with open(args.bin, 'rb') as f:
        binary = hashlib.sha256(f.read()).hexdigest()
    if os.path.exists(done) and os.path.exists(db):
        with open(done) as f:
            built_by, about = f.read().split('\n', 1)
        if built_by == binary:
            print(f'\n== store {db}, kept from an earlier run: {about.strip()}')
            return db
        print(f'\n== store {db} was built by another binary')
    print(f'\n== building {db}: {args.store_events:,} events in files of {args.events:,}')
    remove_db(db)
    if os.path.exists(done):
        os.remove(done)
    total, files = 0, -(-args.store_events // args.events)
    for seed in range(1, files + 1):
        path = first_file if seed == 1 else os.path.join(args.dir, f'events-{args.events}-seed{seed}.ndjson')
        generate(path, args.events, seed)
        r, counts = ingest(args.bin, db, [path])
        total += counts['accepted']
        print(f'  ingest {os.path.basename(path)} into {total - counts["accepted"]:,} stored events: {r.wall:.1f} s, '
              f'{rate(args.events, r.wall)}, peak RSS {r.rss:.0f} MB, {counts}')
    size = sum(os.path.getsize(db + s) for s in ('', '-wal') if os.path.exists(db + s))
    with open(done, 'w') as f:
        f.write(f'{binary}\n{total:,} events, {size / 1e9:.2f} GB\n')
    return db


def last_material(path, user):
    """The material of the last reading event of user in the NDJSON file at path."""
    needle = f'"userId":"{user}"'
    with open(path, 'rb') as f:
        size = f.seek(0, os.SEEK_END)
        f.seek(max(0, size - 50_000_000))
        for line in reversed(f.read().decode(errors='replace').splitlines()):
            if needle in line and '"materialId"' in line:
                return json.loads(line)['materialId']
    sys.exit(f'no reading event of {user} near the end of {path}: give another --user')


def time_reports(args, db, material, rows):
    startup = statistics.median(run([args.bin, '--help'])[0] for _ in range(args.runs))
    print(f'\n== reports on {db}, {args.runs} runs each after a warm-up; start-up of the binary '
          f'(report --help): {startup * 1000:.1f} ms')
    u = ['--user', args.user]
    cases = [  # (name, arguments, scope)
        ('summary --user', ['summary'] + u, 'user'),
        ('trend --days 7 --user', ['trend', '--days', '7'] + u, 'user'),
        ('heatmap --days 365 --user', ['heatmap', '--days', '365'] + u, 'user'),
        ('continue --user', ['continue'] + u, 'user'),
        (f'progress {material} --user', ['progress', material] + u, 'user'),
        ('summary', ['summary'], 'global'),
        ('heatmap --days 365', ['heatmap', '--days', '365'], 'global'),
        ('dislike-rate', ['dislike-rate'], 'global'),
    ] + [(f'exposures --by {by}', ['exposures', '--by', by], 'global') for by in ('day', 'page', 'item', 'model', 'position')] + [
        ('latency view_loaded load_duration_ms by app_version',
         ['latency', '--event', 'view_loaded', '--field', 'load_duration_ms', '--by', 'app_version'], 'latency'),
        ('top api_request_failed by userId', ['top', '--event', 'api_request_failed', '--by', 'userId', '--limit', '10'], 'global'),
    ]
    targets = {'user': 0.010, 'global': 0.100, 'latency': 1.0}
    print(f'{"report":<55} {"median":>9} {"-startup":>9} {"min":>9} {"RSS":>8}')
    for name, cmd_args, scope in cases:
        cmd = [args.bin] + cmd_args + ['--db', db, '--now', NOW, '--format', 'json']
        results = [run(cmd) for _ in range(args.runs + 1)][1:]
        failed = next((r for r in results if r[2]), None)
        if failed or not results[0][3].strip():
            problem = f'failed ({failed[2]}): {failed[4][:300]}' if failed else 'printed nothing'
            print(f'{name:<55} {problem}')
            rows.append((name, problem, '', ''))
            continue
        median = statistics.median(r[0] for r in results)
        rss = max(r[1] for r in results)
        net = max(median - startup, 0.0)
        print(f'{name:<55} {median * 1000:>7.1f}ms {net * 1000:>7.1f}ms {min(r[0] for r in results) * 1000:>7.1f}ms {rss:>6.0f}MB')
        verdict = 'yes' if net <= targets[scope] else 'NO'
        rows.append((name, f'{net * 1000:.1f} ms', f'{rss:.0f} MB', f'<= {targets[scope] * 1000:.0f} ms: {verdict}'))
        if name == 'summary --user':
            rows.append(('summary --user, whole process', f'{median * 1000:.1f} ms', '',
                         f'<= 50 ms: {"yes" if median <= 0.050 else "NO"}'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split('\n', 1)[1])
    ap.add_argument('--events', type=int, default=1_000_000)
    ap.add_argument('--store-events', type=int, default=10_000_000)
    ap.add_argument('--bin', default='.build/release/report')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--user', default='u1-000')
    ap.add_argument('--dir', default='bench-out')
    ap.add_argument('--no-others', action='store_true', help='skip sqlite-utils and DuckDB')
    ap.add_argument('--no-store', action='store_true', help='skip the large store and the reports')
    ap.add_argument('--no-ceiling', action='store_true', help='skip SQLite alone writing the rows')
    args = ap.parse_args()
    if not os.access(GNU_TIME, os.X_OK):
        sys.exit(f'{GNU_TIME} is missing: apt-get install time')
    if not os.access(args.bin, os.X_OK):
        sys.exit(f'{args.bin} is not an executable: swift build -c release, or give --bin')
    args.bin = os.path.abspath(args.bin)
    os.makedirs(args.dir, exist_ok=True)
    cpu = next((line.split(':', 1)[1].strip() for line in open('/proc/cpuinfo') if line.startswith('model name')), '?')
    print(f'{platform.node()}: {cpu}, {os.cpu_count()} cores; {args.bin} built {time.ctime(os.path.getmtime(args.bin))}')

    rows = []
    walls = {}
    for key in ('v4', 'v7'):
        path, walls[key], db = bench_ingest(args, key, rows)
    if not args.no_ceiling:
        write_ceiling(db, args.dir, args.events, rows)
    if not args.no_others:
        bench_others(path, args.events, args.dir, walls['v7'], rows)
    if not args.no_store:
        store = build_store(args, path)
        for key in ('v4', 'v7'):
            bench_incremental(args, store, key, walls[key], rows)
        time_reports(args, store, last_material(path, args.user), rows)

    where = '' if args.no_store else (f'; reports on the {args.store_events:,}-event store, --user {args.user}, '
                                      'wall time less start-up unless said')
    print(f'\n== figures ({args.events:,}-event file{where})')
    print(f'{"":<55} {"figure":>22} {"peak RSS":>9}  target')
    for name, figure, rss, target in rows:
        print(f'{name:<55} {figure:>22} {rss:>9}  {target}')


if __name__ == '__main__':
    main()
