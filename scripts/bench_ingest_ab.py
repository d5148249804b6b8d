#!/usr/bin/env python3
"""Compares the ingest's cost between builds of `report`. It prints figures and asserts nothing.

Usage:
  scripts/bench_ingest_ab.py FILE BIN_DIR [BIN_DIR ...] [--runs 5] [--db /tmp/bench-ingest-ab.sqlite]

Ingests FILE into a new store (`report ingest --db DB FILE`, the store deleted before each run)
with each BIN_DIR's `report`, the binaries alternating, --runs rounds; prints each run's CPU
time (user + system), wall time, peak RSS and the load average after it, then per binary the
median CPU and wall time and the median CPU against the first binary's. Alternating and
comparing medians keeps other work on the machine from favouring one binary; on a shared
machine the CPU times are the steadier figures. A BIN_DIR holds `report` and its resource
bundles (`cp -r .build/release/report .build/release/*.resources DIR/`).
"""
import argparse
import os
import statistics
import subprocess
import time


def remove_store(db):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)


def ingest(binary, db, path):
    """CPU seconds, wall seconds and peak RSS (MB) of one ingest into a new store."""
    remove_store(db)
    start = time.perf_counter()
    child = subprocess.Popen([binary, "ingest", "--db", db, path],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{binary} ingest failed with status {status}")
    remove_store(db)
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("bins", nargs="+", metavar="BIN_DIR")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--db", default="/tmp/bench-ingest-ab.sqlite")
    args = parser.parse_args()
    results = {b: [] for b in args.bins}
    for _ in range(args.runs):
        for b in args.bins:
            cpu, wall, rss = ingest(os.path.join(b, "report"), args.db, args.file)
            results[b].append((cpu, wall))
            load = os.getloadavg()[0]
            print(f"{b}: cpu {cpu:.2f} s, wall {wall:.2f} s, rss {rss:.0f} MB, load {load:.2f}", flush=True)
    first = statistics.median(c for c, _ in results[args.bins[0]])
    for b in args.bins:
        cpu = statistics.median(c for c, _ in results[b])
        wall = statistics.median(w for _, w in results[b])
        print(f"{b}: median cpu {cpu:.2f} s ({(cpu / first - 1) * 100:+.1f} % against {args.bins[0]}), "
              f"median wall {wall:.2f} s, {args.runs} runs")


if __name__ == "__main__":
    main()
