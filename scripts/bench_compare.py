#!/usr/bin/env python3
"""Times the feed filters and the model comparison on a store. It prints figures and asserts nothing.

Usage:
  scripts/bench_compare.py --db STORE [--bin .build/release/report] [--runs 5] [--baseline rec-v12]
                           [--window-end 2026-11-20]

Runs each report as a whole process, --runs times after one warm-up run, with
`--db STORE --now <window end>T12:00:00Z --format json`, and prints the median wall time and
that less the binary's start-up (median of `report --help`), and the same of its CPU time (user +
system, the figure a machine shared with other work keeps): `dislike-rate --by model` and
`exposures --by day` unfiltered (the rollups) and with a 30-day window, `exposures` with the
window by each of `page`, `item`, `model` and `position`, and `compare --baseline B`
unfiltered and with the window. Build a store with
`scripts/generate_events.py` and `report ingest` (or keep the one `scripts/bench.py` builds).
"""
import argparse
import datetime as dt
import resource
import statistics
import subprocess
import time


def timed(command, runs):
    """The median wall and CPU (user + system) milliseconds of `command` over `runs` runs."""
    subprocess.run(command, check=True, capture_output=True)
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append((time.perf_counter() - start) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--db', required=True)
    ap.add_argument('--bin', default='.build/release/report')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--baseline', default='rec-v12')
    ap.add_argument('--window-end', default='2026-11-20')
    a = ap.parse_args()
    end = dt.date.fromisoformat(a.window_end)
    start = (end - dt.timedelta(days=29)).isoformat()
    common = ['--db', a.db, '--now', a.window_end + 'T12:00:00Z', '--format', 'json']
    startup, startup_cpu = timed([a.bin, '--help'], a.runs)
    cases = [
        ('dislike-rate --by model', ['dislike-rate', '--by', 'model']),
        ('dislike-rate --by model, 30 days', ['dislike-rate', '--by', 'model', '--from', start]),
        ('exposures --by day', ['exposures', '--by', 'day']),
        ('exposures --by day, 30 days', ['exposures', '--by', 'day', '--from', start]),
        *[(f'exposures --by {by}, 30 days', ['exposures', '--by', by, '--from', start])
          for by in ['page', 'item', 'model', 'position']],
        (f'compare --baseline {a.baseline}', ['compare', '--baseline', a.baseline]),
        (f'compare --baseline {a.baseline}, 30 days', ['compare', '--baseline', a.baseline, '--from', start]),
    ]
    print(f'start-up (report --help): {startup:.0f} ms, {startup_cpu:.0f} ms of CPU')
    print(f'{"report":<40} {"wall ms":>8} {"less start-up":>14} {"CPU ms":>7} {"less start-up":>14}')
    for name, args in cases:
        wall, cpu = timed([a.bin] + args + common, a.runs)
        print(f'{name:<40} {wall:>8.0f} {wall - startup:>14.0f} {cpu:>7.0f} {cpu - startup_cpu:>14.0f}')


if __name__ == '__main__':
    main()
