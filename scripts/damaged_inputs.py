#!/usr/bin/env python3
"""Replays the damaged inputs of the hardening issue against a `report` binary and prints what
each ingest kept. It prints figures and asserts nothing.

Usage:
  scripts/damaged_inputs.py [--bin .build/debug/report] [--dir damaged-out] [--events 300000]
                            [--bad-lines 1800000]

For each case it writes the input into --dir, ingests it into a new store and prints the exit
status, the counts (accepted / duplicates / rejected), the size of the store and the first line
of stderr:
  open-object    a one-line JSON array of --events events whose middle element is an object
                 left open;
  open-string    the same with the middle element's eventId string left unterminated;
  stray-bracket  the same array with a stray `]` after the middle element;
  truncated-gz   10,104 NDJSON lines gzipped and cut at 90 % of the compressed size, followed by
                 a good file on the same command line;
  garbage-gz     --bad-lines lines of garbage in one gzip file (a store of rejected lines).
"""
import argparse
import gzip
import json
import os
import subprocess
import sys


def event(i):
    return (f'{{"eventId":"e-{i}","userId":"u-{i % 97}","materialId":"m-{i % 501}","eventType":"heartbeat",'
            f'"clientTimestampMs":{1795100000000 + i},"activeSecondsDelta":15,"clientTimezoneOffsetMinutes":480}}')


def batch(n, damage):
    middle = n // 2
    parts = [event(i) for i in range(n)]
    if damage == "open-object":
        parts[middle] = parts[middle][:-1]
    elif damage == "open-string":
        parts[middle] = f'{{"eventId":"e-{middle}'
    elif damage == "stray-bracket":
        parts[middle] = parts[middle] + "]"
    return "[" + ",".join(parts) + "]"


def ingest(binary, files, store):
    if os.path.exists(store):
        os.remove(store)
    run = subprocess.run([binary, "ingest", *files, "--db", store, "--format", "json"], capture_output=True, text=True)
    try:
        counts = json.loads(run.stdout)
    except ValueError:
        counts = {}
    size = sum(os.path.getsize(store + s) for s in ("", "-wal") if os.path.exists(store + s))
    first = run.stderr.strip().splitlines()
    return run.returncode, counts, size, (first[0][:140] if first else ""), (first[-1][:160] if first else "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/report")
    parser.add_argument("--dir", default="damaged-out")
    parser.add_argument("--events", type=int, default=300_000)
    parser.add_argument("--bad-lines", type=int, default=1_800_000)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    path = lambda name: os.path.join(args.dir, name)
    cases = []
    for damage in ("open-object", "open-string", "stray-bracket"):
        with open(path(damage + ".json"), "w") as f:
            f.write(batch(args.events, damage))
        cases.append((damage, [path(damage + ".json")]))
    data = gzip.compress("\n".join(event(i) for i in range(10_104)).encode())
    with open(path("truncated.ndjson.gz"), "wb") as f:
        f.write(data[: len(data) * 9 // 10])
    with open(path("next.ndjson"), "w") as f:
        f.write("\n".join(event(i) for i in range(20_000, 20_010)))
    cases.append(("truncated-gz", [path("truncated.ndjson.gz"), path("next.ndjson")]))
    with gzip.open(path("garbage.ndjson.gz"), "wb") as f:
        f.write(b"\n".join(b"not json %d" % (i % 10) for i in range(args.bad_lines)))
    cases.append(("garbage-gz", [path("garbage.ndjson.gz")]))
    print(f"{'case':<14} {'exit':>4} {'accepted':>9} {'dupl':>5} {'rejected':>9} {'store MB':>9}  input MB")
    for name, files in cases:
        status, counts, size, first, last = ingest(args.bin, files, path(name + ".sqlite"))
        mb = sum(os.path.getsize(f) for f in files) / 1e6
        print(f"{name:<14} {status:>4} {counts.get('accepted', '-'):>9} {counts.get('duplicates', '-'):>5} "
              f"{counts.get('rejected', '-'):>9} {size / 1e6:>9.1f}  {mb:.2f}")
        if first:
            print(f"    stderr: {first}")
        if last and last != first:
            print(f"    stderr: {last}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
