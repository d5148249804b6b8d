#!/usr/bin/env python3
"""What bounds `report ingest` on this machine's cores: beside DuckDB (SQLite backend), or
beside ClickHouse's own insert (--backend clickhouse). It prints figures and asserts nothing.

Usage:
  scripts/ingest_bound.py [--bin .build/release/report] [--bound-bin PATH] [--rounds 2]
                          [--dir /tmp/ingest-bound] FILE...
  scripts/ingest_bound.py --backend clickhouse [--bin ...] [--bound-bin PATH] [--rounds 2]
                          [--data bench-out] [--http 18400] [--tcp 19400]

The bound comes from a measurement build: the product with `scripts/ingest_bound.patch`
applied, whose ingest reads `TALLY_MEASURE`. Into SQLite:
  merge    every rollup is added up in memory as usual (reading thread and storing thread) but
           none is written: keys claimed, event rows written, commits as usual;
  rows     no rollup is added up or written: keys and event rows only.
Into ClickHouse:
  noviews  no materialized view is made (so no rollup is fed); the feed states are still
           looked up and stored;
  rows     no feed state either: event rows and keys (with their lookups) only.
Without --bound-bin the script makes that build itself: a worktree of HEAD in --dir, the patch
applied, `swift build -c release --product report` (a cold release build: 10-15 minutes on
two cores). The patch is made against the ingest of its commit; a change to `Ingestor` may
need it made again (three conditions in `Ingestor.swift` and `Ingestor+Files.swift`).

For each round and each FILE, one after the other on the same machine: DuckDB loading the
file into a table keyed by the idempotency key (as scripts/bench.py runs it), `report ingest`
into a new store, then the measurement build with `merge` and with `rows`. Each line gives
wall time, CPU time (user + sys of the whole process), the CPU time of its two busiest
threads (sampled from /proc every 50 ms, so up to 50 ms short), and the ratio of DuckDB's wall
time to its own. The last column is what the machine's cores allow at best: a job that needs C
seconds of CPU on N cores cannot end before C / N, so it cannot match DuckDB's wall time W
unless C <= N * W.

With --backend clickhouse, each round runs scripts/bench_clickhouse.py --ingest-only (its own
server in a fresh directory, the raw JSONEachRow insert of its 1M UUIDv4 file, then the ingest)
for the product and for the measurement build with `noviews` and with `rows`, and prints for
each the ratio to the raw insert (target >= 0.5), the client's and the server's CPU, and the
best ratio that CPU allows on this machine's cores.
"""
import argparse
import glob
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402  (DuckDB's keyed load, run as scripts/bench.py runs it)

TICK = os.sysconf('SC_CLK_TCK')
CORES = os.cpu_count() or 1


def thread_cpu(pid):
    """CPU seconds of each thread of pid, by thread id."""
    out = {}
    for path in glob.glob(f'/proc/{pid}/task/*/stat'):
        try:
            fields = open(path).read().rsplit(')', 1)[1].split()
        except OSError:
            continue
        out[path.split('/')[4]] = (int(fields[11]) + int(fields[12])) / TICK
    return out


def run(cmd, env=None):
    """Runs cmd; returns (wall s, CPU s, the two busiest threads' CPU s)."""
    environment = dict(os.environ)
    environment.update(env or {})
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(cmd, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    threads = {}
    while process.poll() is None:
        threads.update(thread_cpu(process.pid))
        time.sleep(0.05)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode != 0:
        sys.exit(f'{cmd[0]} failed ({process.returncode}): {process.stderr.read().decode(errors="replace")[-2000:]}')
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, sorted(threads.values(), reverse=True)[:2]


def remove_db(path):
    for suffix in ('', '-wal', '-shm'):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def bound_build(directory):
    """Builds the measurement binary in a worktree of HEAD; returns its path."""
    tree = os.path.join(directory, 'tree')
    repo = os.path.dirname(HERE)
    if os.path.exists(tree):
        subprocess.run(['git', '-C', repo, 'worktree', 'remove', '--force', tree], check=False)
        shutil.rmtree(tree, ignore_errors=True)
    subprocess.run(['git', '-C', repo, 'worktree', 'add', '--detach', tree, 'HEAD'], check=True)
    subprocess.run(['git', '-C', tree, 'apply', os.path.join(HERE, 'ingest_bound.patch')], check=True)
    print('building the measurement binary (a cold release build)...', flush=True)
    subprocess.run(['swift', 'build', '-c', 'release', '--product', 'report'], cwd=tree, check=True)
    return os.path.join(tree, '.build', 'release', 'report')


def clickhouse_round(args, label, binary, env):
    """One bench_clickhouse.py --ingest-only run; prints its summary line."""
    server_dir = os.path.join(args.dir, 'clickhouse-server')
    shutil.rmtree(server_dir, ignore_errors=True)
    environment = dict(os.environ)
    environment.update(env)
    done = subprocess.run([sys.executable, os.path.join(HERE, 'bench_clickhouse.py'), '--bin', binary, '--ingest-only',
                           '--data', args.data, '--dir', server_dir, '--http', str(args.http), '--tcp', str(args.tcp)],
                          env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f'bench_clickhouse.py failed for {label}: {done.stderr[-2000:]}')
    figures = {}
    for line in done.stdout.splitlines():
        for name, prefix in (('ratio', 'ratio to the raw insert: '), ('client', 'client CPU of the ingest: '),
                             ('server', 'server CPU: '), ('best', 'least wall time of the ingest')):
            if line.startswith(prefix):
                figures[name] = line[len(prefix):] if name != 'best' else line.rsplit(': ', 1)[-1]
    load = ' '.join(open('/proc/loadavg').read().split()[:3])
    print(f'{label:20s} ratio {figures.get("ratio", "?")}, best the CPU allows {figures.get("best", "?")}; '
          f'client CPU {figures.get("client", "?")}; server CPU {figures.get("server", "?")}  (load {load})', flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--bin', default='.build/release/report')
    parser.add_argument('--bound-bin')
    parser.add_argument('--rounds', type=int, default=2)
    parser.add_argument('--dir', default='/tmp/ingest-bound')
    parser.add_argument('--backend', choices=['sqlite', 'clickhouse'], default='sqlite')
    parser.add_argument('--data', default='bench-out', help='bench_clickhouse.py --data (clickhouse)')
    parser.add_argument('--http', type=int, default=18400, help='the private server\'s HTTP port (clickhouse)')
    parser.add_argument('--tcp', type=int, default=19400, help='its native port (clickhouse)')
    parser.add_argument('files', nargs='*')
    args = parser.parse_args()
    if args.backend == 'sqlite' and not args.files:
        parser.error('name the event files to ingest')
    os.makedirs(args.dir, exist_ok=True)
    bound = os.path.abspath(args.bound_bin or bound_build(args.dir))
    if args.backend == 'clickhouse':
        binary = os.path.abspath(args.bin)
        for round_number in range(1, args.rounds + 1):
            print(f'round {round_number}', flush=True)
            clickhouse_round(args, 'report ingest', binary, {})
            clickhouse_round(args, 'no views', bound, {'TALLY_MEASURE': 'noviews'})
            clickhouse_round(args, 'events and keys only', bound, {'TALLY_MEASURE': 'rows'})
        return
    db = os.path.join(args.dir, 'new.sqlite')
    variants = [('report ingest', args.bin, {}),
                ('rollups not written', bound, {'TALLY_MEASURE': 'merge'}),
                ('keys and rows only', bound, {'TALLY_MEASURE': 'rows'})]
    print(f'{CORES} cores; per line: wall s, CPU s, two busiest threads CPU s, DuckDB wall / wall, '
          f'CPU s / (cores x DuckDB wall): above 1.00 the cores cannot match DuckDB')
    for round_number in range(1, args.rounds + 1):
        for path in args.files:
            name = os.path.basename(path)
            keyed = bench.duckdb_keyed(path, args.dir)
            if keyed is None:
                sys.exit('DuckDB is needed: pip install duckdb')
            duck = (keyed.wall, keyed.cpu, [])
            results = [('DuckDB keyed', duck)]
            for label, binary, env in variants:
                remove_db(db)
                os.sync()
                results.append((label, run([binary, 'ingest', '--db', db, '--format', 'json', path], env)))
                remove_db(db)
            load = ' '.join(open('/proc/loadavg').read().split()[:3])
            for label, (wall, cpu, threads) in results:
                print(f'round {round_number} {name} {label:20s} {wall:6.2f} s wall {cpu:6.2f} s CPU '
                      f'threads {" ".join(f"{t:.2f}" for t in threads):10s} {duck[0] / wall:5.2f}x DuckDB '
                      f'{cpu / (CORES * duck[0]):5.2f} of the cores  (load {load})', flush=True)


if __name__ == '__main__':
    main()
