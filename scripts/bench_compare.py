#!/usr/bin/env python3
"""Times the feed filters and the model comparison on a store. It prints figures and asserts nothing.

Usage:
  scripts/bench_compare.py --db STORE [--bin .build/release/report] [--runs 5] [--baseline rec-v12]
                           [--window-end 2026-11-20] [--only TEXT]

Runs each report as a whole process, --runs times after one warm-up run, with
`--db STORE --now <window end>T12:00:00Z --format json`, and prints the median wall time and
CPU time (user + system), each also less the binary's start-up (median of `report --help`):
`dislike-rate` by model, by its default (model, position) and by position buckets,
`exposures --by day`, and `compare --baseline B` by model and by (model, position), each
unfiltered and with a 30-day window (`--from`, `--to`), and `exposures` with the window by each
of `page`, `item`, `model` and `position`; with `--only TEXT`, only the cases whose
name holds TEXT (`--only '30 days'`). On a machine shared with other work the CPU times are the
steadier figures. Build a store with
`scripts/generate_events.py` and `report ingest` (or keep the one `scripts/bench.py` builds).
"""
import argparse
import datetime as dt
import resource
import statistics
import subprocess
import time


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command, runs):
    """The median wall and CPU milliseconds of `command` over `runs` runs after a warm-up."""
    subprocess.run(command, check=True, capture_output=True)
    walls, cpus = [], []
    for _ in range(runs):
        cpu, start = children_cpu(), time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((children_cpu() - cpu) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--db', required=True)
    ap.add_argument('--bin', default='.build/release/report')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--baseline', default='rec-v12')
    ap.add_argument('--window-end', default='2026-11-20')
    ap.add_argument('--only', default='', help='run only the cases whose name holds this text')
    a = ap.parse_args()
    end = dt.date.fromisoformat(a.window_end)
    start = (end - dt.timedelta(days=29)).isoformat()
    window = ['--from', start, '--to', a.window_end]
    common = ['--db', a.db, '--now', a.window_end + 'T12:00:00Z', '--format', 'json']
    startup_wall, startup_cpu = timed([a.bin, '--help'], a.runs)
    reports = [
        ('dislike-rate --by model', ['dislike-rate', '--by', 'model']),
        ('dislike-rate', ['dislike-rate']),
        ('dislike-rate --position-buckets', ['dislike-rate', '--position-buckets', '0-4,5-9,10-']),
        ('exposures --by day', ['exposures', '--by', 'day']),
        (f'compare --baseline {a.baseline}', ['compare', '--baseline', a.baseline]),
        (f'compare --by model,position', ['compare', '--baseline', a.baseline, '--by', 'model,position']),
    ]
    cases = [case for name, args in reports for case in ((name, args), (name + ', 30 days', args + window))
             if a.only in case[0]]
    cases += [case for by in ('page', 'item', 'model', 'position')
              for case in [(f'exposures --by {by}, 30 days', ['exposures', '--by', by] + window)] if a.only in case[0]]
    print(f'start-up (report --help): {startup_wall:.0f} ms wall, {startup_cpu:.0f} ms CPU')
    print(f'{"report":<46} {"wall ms":>8} {"less start-up":>14} {"CPU ms":>8} {"less start-up":>14}')
    for name, args in cases:
        wall, cpu = timed([a.bin] + args + common, a.runs)
        print(f'{name:<46} {wall:>8.0f} {wall - startup_wall:>14.0f} {cpu:>8.0f} {cpu - startup_cpu:>14.0f}')


if __name__ == '__main__':
    main()
