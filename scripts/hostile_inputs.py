#!/usr/bin/env python3
"""Replays the hostile inputs that `docs/security.md` bounds and prints, for each, the outcome,
the wall time and the peak resident memory of `report`:

    scripts/hostile_inputs.py [--bin .build/release/report]

- an ad hoc statement whose one step builds a 200 MB string (`report sql`, and `GET /sql`);
- `GET /sql?q=SELECT zeroblob(200000000)`;
- a 1,830-byte gzip(gzip(1 GiB of newlines)) body, and 36 MiB of events in a gzip-inside-gzip body;
- 20 rejected lines of `{` + 10 MiB of `x` (gzip -9): the store's growth;
- 5,000 gzipped lines followed by `garbage\\n`, and 60,000 followed by 512 NUL bytes.
"""
import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

BOMB_SQL = ("WITH RECURSIVE c(i,x) AS (SELECT 0,hex(zeroblob(100000000)) UNION ALL SELECT i+1,"
            "CASE WHEN i%2 THEN upper(x) ELSE lower(x) END FROM c WHERE i<30) SELECT max(length(x)) FROM c")


def run(args, **kw):
    """Runs `report`; returns (exit status, stderr's last line, seconds, peak RSS MB of children so far)."""
    started = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, **kw)
    seconds = time.monotonic() - started
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    last = (p.stderr.strip().splitlines() or [""])[-1][:160]
    return p.returncode, last, seconds, rss


def reading(i):
    return json.dumps({"eventId": f"e{i}", "userId": "u", "materialId": "m", "eventType": "heartbeat",
                       "clientTimestampMs": 1_700_000_000_000 + i, "activeSecondsDelta": 5, "clientTimezoneOffsetMinutes": 0})


def request(base, path, body=None, headers=None):
    started = time.monotonic()
    try:
        with urllib.request.urlopen(urllib.request.Request(base + path, data=body, headers=headers or {}), timeout=300) as r:
            status, text = r.status, r.read()[:120]
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read()[:160]
    return status, text, time.monotonic() - started


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=".build/release/report")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tally-hostile-")
    db = os.path.join(folder, "s.sqlite")
    seed = os.path.join(folder, "seed.ndjson")
    with open(seed, "w") as f:
        f.write(reading(0) + "\n")
    subprocess.run([args.bin, "ingest", seed, "--db", db], check=True, capture_output=True)

    code, last, seconds, rss = run([args.bin, "sql", BOMB_SQL, "--db", db, "--sql-timeout", "1"])
    print(f"report sql <200 MB upper()> --sql-timeout 1: exit {code} in {seconds:.1f} s, peak RSS {rss:.0f} MB: {last}")

    # Rejected lines: 20 lines of '{' + 10 MiB of 'x', gzip -9.
    path = os.path.join(folder, "long.ndjson.gz")
    with gzip.open(path, "wb", compresslevel=9) as f:
        for _ in range(20):
            f.write(b"{" + b"x" * (10 << 20) + b"\n")
    before = os.path.getsize(db)
    code, last, seconds, _ = run([args.bin, "ingest", path, "--db", db])
    subprocess.run(["sqlite3", db, "PRAGMA wal_checkpoint(TRUNCATE)"], capture_output=True)
    print(f"20 rejected lines of 10 MiB ({os.path.getsize(path) // 1024} KB gzip): exit {code} in {seconds:.1f} s, "
          f"store {before // 1024} KB -> {os.path.getsize(db) // 1024} KB")

    for name, count, tail in [("garbage", 5000, b"garbage\n"), ("NUL padding", 60000, b"\0" * 512)]:
        path = os.path.join(folder, f"{count}.ndjson.gz")
        with open(path, "wb") as f:
            f.write(gzip.compress("\n".join(reading(10_000_000 * (2 if count == 5000 else 3) + i) for i in range(count)).encode() + b"\n") + tail)
        p = subprocess.run([args.bin, "ingest", path, "--db", db], capture_output=True, text=True)
        print(f"{count} gzipped lines + {name}: exit {p.returncode}, {p.stdout.strip()[:80]} | {p.stderr.strip().splitlines()[0][:150]}")

    server = subprocess.Popen([args.bin, "serve", "--port", "0", "--db", db, "--allow-sql", "--sql-timeout", "2"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = server.stdout.readline().strip().removeprefix("listening on ")
    try:
        for label, sql in [("upper() of 200 MB", BOMB_SQL), ("zeroblob(200000000)", "SELECT zeroblob(200000000)"),
                           ("zeroblob(1e9)", "SELECT zeroblob(1000000000)")]:
            status, text, seconds = request(base, "/sql?q=" + urllib.parse.quote(sql))
            print(f"GET /sql {label} (--sql-timeout 2): HTTP {status} in {seconds:.1f} s: {text[:110]!r}")
        bomb = gzip.compress(gzip.compress(b"\n" * (1 << 30), 9), 9)
        for path in ["/events", "/learning/reading-events/batch", "/?query=INSERT%20INTO%20events%20FORMAT%20JSONEachRow"]:
            status, text, seconds = request(base, path, bomb, {"Content-Encoding": "gzip"})
            print(f"POST {path} gzip(gzip(1 GiB of newlines)), {len(bomb)} bytes: HTTP {status} in {seconds:.1f} s")
        events = "\n".join(reading(20_000_000 + i) for i in range(250_000)).encode()
        nested = gzip.compress(gzip.compress(events, 9), 9)
        status, text, seconds = request(base, "/events", nested, {"Content-Encoding": "gzip"})
        print(f"POST /events gzip(gzip({len(events) >> 20} MiB of events)), {len(nested) // 1024} KB: HTTP {status} in {seconds:.1f} s")
        print(f"server peak RSS {rss_mb(server.pid):.0f} MB")
    finally:
        started = time.monotonic()
        server.terminate()
        code = server.wait(timeout=120)
        print(f"SIGTERM: exit {code} in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
