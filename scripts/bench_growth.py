#!/usr/bin/env python3
"""Benchmark of a store that grows: daily files loaded one after another into one store.

Usage:
  scripts/bench_growth.py [--bin .build/release/report] [--files 6] [--events 1000000]
                          [--shape sessions|few] [--dir bench-out/growth] [--no-duckdb] [--keep]
                          [--reports USER] [--runs 5] [--reports-only]

1. Generates --files NDJSON files of --events events with random UUIDv4 keys, each a later
   period of the same users than the one before (scripts/generate_events.py --user-seed 1
   --seed K --end END_K), into --dir unless they are there already:
     --shape sessions (default): 2,000 users over 60 days a file, a few hundred active a day,
       reading sessions and feed pages as most apps send;
     --shape few: 9 users over 365 days a file, the shape of the earlier incremental figure.
2. Loads them one after another with `report ingest --db DIR/growth.sqlite --format json FILE`
   into one store, each load a process of its own, and after each the same file with DuckDB
   into one growing table keyed by the idempotency key (`read_json_objects`, `INSERT OR
   IGNORE`, every core), so that both sides meet the same machine load.
3. Prints, per load: the events already stored, Tally's events/s, wall and CPU time (user +
   sys) and peak RSS, its speed over the first load's by wall and by CPU time (target: the
   sixth >= 0.8x, the eleventh >= 0.7x; CPU time is the steadier on a shared machine), then
   DuckDB's figures and Tally's speed over DuckDB's.
4. With --reports USER, times every report on the grown store as `scripts/bench.py` does (each
   a whole process, median of --runs after a warm-up, less start-up; per-user ones for USER).
   With --reports-only as well, skips the loads and times the reports on the store a run with
   --keep left in --dir.
It asserts nothing. Disk: about 0.4 GB per million events for the files, 0.6 GB for the store.
"""
import argparse
import datetime as dt
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import GNU_TIME, HERE, last_material, remove_db, run, time_reports  # noqa: E402

END = dt.datetime(2026, 11, 20, 12, tzinfo=dt.timezone.utc)
SHAPES = {'sessions': (2000, 60), 'few': (9, 365)}  # users, days a file


def files(args):
    """The generated files, oldest period first."""
    users, days = SHAPES[args.shape]
    paths = []
    for k in range(1, args.files + 1):
        path = os.path.join(args.dir, f'{args.shape}-{args.events}-{k}.ndjson')
        paths.append(path)
        if os.path.exists(path):
            continue
        end = END + dt.timedelta(days=days * (k - 11))  # the eleventh file ends at END
        r = run([sys.executable, os.path.join(HERE, 'generate_events.py'), '--events', str(args.events),
                 '--users', str(users), '--days', str(days), '--user-seed', '1', '--seed', str(k), '--key', 'v4',
                 '--end', end.strftime('%Y-%m-%dT%H:%M:%SZ'), '--out', path + '.part'])
        if r.rc:
            sys.exit(f'generate_events.py failed: {r.err}')
        os.rename(path + '.part', path)
        print(f'generated {path} ({r.wall:.0f} s)', flush=True)
    return paths


def duckdb_load(path, duck_db):
    """DuckDB adding the file to the table keyed by the idempotency key: its Run."""
    query = (f"import duckdb; c = duckdb.connect({duck_db!r}); "
             "c.execute('CREATE TABLE IF NOT EXISTS e (k VARCHAR PRIMARY KEY, doc JSON)'); "
             "c.execute(\"INSERT OR IGNORE INTO e SELECT coalesce(json->>'eventId', json->>'id'), json "
             f"FROM read_json_objects({path!r}, format='newline_delimited')\"); c.close()")
    return run([sys.executable, '-c', query])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split('\n', 1)[1])
    ap.add_argument('--bin', default='.build/release/report')
    ap.add_argument('--files', type=int, default=6)
    ap.add_argument('--events', type=int, default=1_000_000)
    ap.add_argument('--shape', choices=sorted(SHAPES), default='sessions')
    ap.add_argument('--dir', default='bench-out/growth')
    ap.add_argument('--no-duckdb', action='store_true', help='skip the DuckDB loads')
    ap.add_argument('--keep', action='store_true', help='keep the grown store (DIR/growth.sqlite)')
    ap.add_argument('--reports', metavar='USER', dest='user', help='time the reports on the grown store, per-user ones for USER')
    ap.add_argument('--runs', type=int, default=5, help='runs of each report (--reports)')
    ap.add_argument('--reports-only', action='store_true', help='no loads: time the reports on the kept store')
    args = ap.parse_args()
    if not os.access(GNU_TIME, os.X_OK):
        sys.exit(f'{GNU_TIME} is missing: apt-get install time')
    if not os.access(args.bin, os.X_OK):
        sys.exit(f'{args.bin} is not an executable: swift build -c release --product report, or give --bin')
    duck = not args.no_duckdb and importlib.util.find_spec('duckdb') is not None
    if not args.no_duckdb and not duck:
        print('duckdb: not installed (pip install duckdb); its loads are skipped')
    os.makedirs(args.dir, exist_ok=True)
    paths = files(args)
    db, duck_db = os.path.join(args.dir, 'growth.sqlite'), os.path.join(args.dir, 'growth.duckdb')
    if args.reports_only:
        if not args.user or not os.path.exists(db):
            sys.exit(f'--reports-only needs --reports USER and the store {db} a run with --keep left')
        time_reports(args, db, last_material(paths[-1], args.user), [])
        return
    remove_db(db)
    remove_db(duck_db)
    os.sync()
    with open('/proc/loadavg') as f:
        print(f'\n{args.shape}: {len(paths)} files of {args.events:,} UUIDv4 events into one store; '
              f'load average {f.read().split()[0]} at the start')
    print(f'{"load":>4} {"stored":>10} | {"Tally ev/s":>10} {"wall":>7} {"CPU":>7} {"RSS":>6} {"x1st":>5} {"by CPU":>6} | '
          f'{"DuckDB ev/s":>11} {"wall":>7} {"CPU":>7} {"RSS":>6} | {"x DuckDB":>8} {"by CPU":>6}')
    stored, first, first_cpu, peak = 0, None, None, 0.0
    for k, path in enumerate(paths, 1):
        t = run([args.bin, 'ingest', '--db', db, '--format', 'json', path])
        if t.rc:
            sys.exit(f'report ingest failed ({t.rc}): {t.err}')
        first, first_cpu = first or t.wall, first_cpu or t.cpu
        peak = max(peak, t.rss)
        line = (f'{k:>4} {stored:>10,} | {args.events / t.wall:>10,.0f} {t.wall:>6.2f}s {t.cpu:>6.2f}s '
                f'{t.rss:>4.0f}MB {first / t.wall:>5.2f} {first_cpu / t.cpu:>6.2f} |')
        if duck:
            d = duckdb_load(path, duck_db)
            if d.rc:
                sys.exit(f'duckdb failed ({d.rc}): {d.err}')
            line += (f' {args.events / d.wall:>11,.0f} {d.wall:>6.2f}s {d.cpu:>6.2f}s {d.rss:>4.0f}MB |'
                     f' {d.wall / t.wall:>8.2f} {d.cpu / t.cpu:>6.2f}')
        print(line, flush=True)
        stored += args.events
    size = sum(os.path.getsize(db + s) for s in ('', '-wal') if os.path.exists(db + s))
    with open('/proc/loadavg') as f:
        print(f'store {size / 1e9:.2f} GB; Tally peak RSS {peak:.0f} MB (target <= 400); '
              f'load {len(paths)} at x{first / t.wall:.2f} of the first by wall time, x{first_cpu / t.cpu:.2f} by CPU; '
              f'load average {f.read().split()[0]} at the end')
    if args.user:
        time_reports(args, db, last_material(paths[-1], args.user), [])
    if not args.keep:
        remove_db(db)
    remove_db(duck_db)


if __name__ == '__main__':
    main()
