#!/usr/bin/env python3
"""Measures a streamed `GET /sql` answer: bytes, time to the first byte and to the last, the
server's peak RSS and the most answer bytes it held at once (`/metrics`), with the limits off and
with the default ones, and how soon clients that leave endless answers free both /sql threads.

    scripts/sql_stream_memory.py [--bin .build/release/report] [--rows 2000000] [--width 100]
"""
import argparse
import os
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from hostile_inputs import rss_mb  # the server's peak RSS in MB


def rows_sql(rows, width):
    return (f"WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i<{rows}) "
            f"SELECT i, printf('%{width}d', i) AS t FROM c")


def metric(base, name):
    with urllib.request.urlopen(base + "/metrics") as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return int(line.split()[1])
    return None


def stream(base, sql):
    """Reads the whole answer; returns (status, bytes, seconds to the first byte, seconds, last 120 bytes)."""
    started = time.monotonic()
    first, total, tail = None, 0, b""
    with urllib.request.urlopen(base + "/sql?q=" + urllib.parse.quote(sql), timeout=600) as r:
        while chunk := r.read(1 << 16):
            first = first or time.monotonic() - started
            total += len(chunk)
            tail = (tail + chunk)[-120:]
        return r.status, total, first, time.monotonic() - started, tail


def serve(binary, db, *flags):
    server = subprocess.Popen([binary, "serve", "--port", "0", "--db", db, "--allow-sql", *flags],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return server, server.stdout.readline().strip().removeprefix("listening on ")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=".build/release/report")
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--width", type=int, default=100)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tally-sqlstream-")
    db = os.path.join(folder, "s.sqlite")
    seed = os.path.join(folder, "seed.ndjson")
    with open(seed, "w") as f:
        f.write('{"eventId":"e0","userId":"u","materialId":"m","eventType":"heartbeat","clientTimestampMs":1700000000000,"activeSecondsDelta":5}\n')
    subprocess.run([args.bin, "ingest", seed, "--db", db], check=True, capture_output=True)

    for label, flags in [("limits off", ["--sql-max-bytes", "0", "--sql-max-rows", "0", "--sql-timeout", "600"]),
                         ("default limits", [])]:
        server, base = serve(args.bin, db, *flags)
        try:
            status, total, first, seconds, tail = stream(base, rows_sql(args.rows, args.width))
            print(f"{label}: {args.rows} rows of {args.width} characters: HTTP {status}, {total / 1e6:.1f} MB, "
                  f"first byte {first:.2f} s, last {seconds:.1f} s; server peak RSS {rss_mb(server.pid):.0f} MB, "
                  f"most answer bytes held at once {metric(base, 'tally_sql_answer_bytes_held_max')}; ends {tail[-90:]!r}")
        finally:
            server.terminate()
            server.wait(timeout=120)

    server, base = serve(args.bin, db, "--sql-max-bytes", "0", "--sql-max-rows", "0", "--sql-timeout", "600")
    try:
        host, port = base.removeprefix("http://").split(":")
        endless = urllib.parse.quote("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c")
        clients = [socket.create_connection((host, int(port))) for _ in range(2)]
        received = 0
        for client in clients:
            client.sendall(f"GET /sql?q={endless} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            got = 0
            while got < 1 << 20:
                got += len(client.recv(1 << 16))
            received += got
        try:
            urllib.request.urlopen(base + "/sql?q=SELECT%201")
            print("both /sql threads were expected to be busy")
        except urllib.error.HTTPError as e:
            print(f"two endless answers streaming: the next /sql answered {e.code}")
        for client in clients:
            client.close()
        left = time.monotonic()
        status = 503
        while status == 503 and time.monotonic() - left < 60:
            try:
                with urllib.request.urlopen(base + "/sql?q=SELECT%201") as r:
                    status = r.status
            except urllib.error.HTTPError as e:
                status = e.code
        print(f"their clients left after {received >> 10} KiB: the next /sql answered {status} "
              f"{time.monotonic() - left:.2f} s later (--sql-timeout 600)")
    finally:
        server.terminate()
        server.wait(timeout=120)


if __name__ == "__main__":
    main()
