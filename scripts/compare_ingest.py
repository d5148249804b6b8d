#!/usr/bin/env python3
"""Compares two `report` binaries ingesting the same files, alternating, and checks that they
store the same rows. It prints figures and asserts nothing.

Usage:
  scripts/compare_ingest.py --a BASELINE --b CANDIDATE [--pairs 2] [--dir /tmp/compare-ingest] FILE...

For each pair and each FILE, runs `A ingest --db NEW --format json FILE`, then B the same (A
first in odd pairs, B first in even ones, so that neither always runs on a machine warmed or
loaded by the other), each into a new store, and prints wall time, CPU time (user + sys) and
peak RSS from GNU time. After each file's first pair it compares every table of both stores
(each table's rows sorted, so that rowids handed out in another order do not count; the
migrations table by name only, its times differ) and says which tables differ. The stores are
deleted after each run. CPU time and the same-run ratio are what to trust on a shared machine.
"""
import argparse
import hashlib
import os
import sqlite3
import subprocess
import sys

GNU_TIME = '/usr/bin/time'


def ingest(binary, path, db):
    for suffix in ('', '-wal', '-shm'):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    cmd = [GNU_TIME, '-f', '%e %U %S %M', binary, 'ingest', '--db', db, '--format', 'json', path]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f'{binary} failed on {path}: {done.stderr[-2000:]}')
    wall, user, system, rss = done.stderr.strip().splitlines()[-1].split()
    return float(wall), float(user) + float(system), int(rss) // 1024


def digests(db):
    con = sqlite3.connect(db)
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    out = {}
    for table in sorted(tables):
        columns = [r[1] for r in con.execute(f'PRAGMA table_info("{table}")') if r[1] != 'applied_at']
        rows = sorted(repr(row) for row in con.execute(f'SELECT {", ".join(columns)} FROM "{table}"'))
        out[table] = (len(rows), hashlib.md5('\n'.join(rows).encode()).hexdigest())
    con.close()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--a', required=True)
    ap.add_argument('--b', required=True)
    ap.add_argument('--pairs', type=int, default=2)
    ap.add_argument('--dir', default='/tmp/compare-ingest')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    for pair in range(a.pairs):
        order = [('A', a.a), ('B', a.b)] if pair % 2 == 0 else [('B', a.b), ('A', a.a)]
        for path in a.files:
            runs = {}
            for name, binary in order:
                db = os.path.join(a.dir, f'{name}.sqlite')
                wall, cpu, rss = ingest(binary, path, db)
                runs[name] = (wall, cpu)
                print(f'pair {pair + 1} {os.path.basename(path)} {name}: {wall:.2f} s wall, {cpu:.2f} s CPU, {rss} MB peak RSS',
                      flush=True)
                if pair == 0:
                    runs[name + 'digest'] = digests(db)
            print(f'pair {pair + 1} {os.path.basename(path)} B/A: wall {runs["B"][0] / runs["A"][0]:.3f}, '
                  f'CPU {runs["B"][1] / runs["A"][1]:.3f}', flush=True)
            if pair == 0:
                da, db_ = runs['Adigest'], runs['Bdigest']
                differ = [t for t in sorted(set(da) | set(db_)) if da.get(t) != db_.get(t)]
                print(f'  same rows in all {len(da)} tables' if not differ else f'  TABLES DIFFER: {differ}', flush=True)
            for name in ('A', 'B'):
                for suffix in ('', '-wal', '-shm'):
                    p = os.path.join(a.dir, f'{name}.sqlite{suffix}')
                    if os.path.exists(p):
                        os.remove(p)


if __name__ == '__main__':
    main()
