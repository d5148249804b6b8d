#!/usr/bin/env python3
"""Slowloris check of `report serve`: opens CONNECTIONS connections that send half a request head
and never finish it (or, with --slow-body, a whole POST head and then a body byte every 1.5 s),
then times a normal request while they are open, and prints the server's memory and how many
of the connections it closed.

    scripts/slowloris.py [--bin .build/release/report] [--connections 20000] [--idle-timeout 60] [--max-connections N]
                         [--slow-body] [--body-timeout S]

The connections are spread over child processes so that none needs more open files than its
limit allows; the server raises its own soft limit to the hard limit and fits --max-connections
to it (a note on stderr says so), closing the oldest headless connection when a new one comes.
"""
import argparse
import math
import multiprocessing
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HALF_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
SLOW_BODY_HEAD = b"POST /events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n["


def hold(port, count, opened, stop, slow_body):
    """Opens `count` unfinished requests, reports how many opened, keeps them (trickling a body
    byte into each every 1.5 s with `slow_body`) until `stop`."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sockets = []
    for _ in range(count):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.sendall(SLOW_BODY_HEAD if slow_body else HALF_HEAD)
            sockets.append(s)
        except OSError:
            break
    opened.put(len(sockets))
    while not stop.wait(1.5 if slow_body else None):
        for s in sockets:
            try:
                s.send(b" ", socket.MSG_DONTWAIT)
            except OSError:
                pass
    closed = 0
    for s in sockets:
        s.setblocking(False)
        try:
            if s.recv(1) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        s.close()
    opened.put(closed)


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=".build/release/report")
    parser.add_argument("--connections", type=int, default=20_000)
    parser.add_argument("--idle-timeout", default="60")
    parser.add_argument("--max-connections", help="passed to report serve (default: its own)")
    parser.add_argument("--slow-body", action="store_true", help="send whole POST heads, then a body byte every 1.5 s")
    parser.add_argument("--body-timeout", help="passed to report serve (default: its own)")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="tally-slowloris-")
    server = subprocess.Popen([args.bin, "serve", "--port", "0", "--db", os.path.join(folder, "s.sqlite"),
                               "--idle-timeout", args.idle_timeout]
                              + (["--max-connections", args.max_connections] if args.max_connections else [])
                              + (["--body-timeout", args.body_timeout] if args.body_timeout else []),
                              stdout=subprocess.PIPE, stderr=open(os.path.join(folder, "serve.log"), "w"), text=True)
    line = server.stdout.readline().strip()
    base = line.removeprefix("listening on ")
    port = int(base.rsplit(":", 1)[1])
    print(f"server {base}, pid {server.pid}, RSS {rss_mb(server.pid):.0f} MB before")

    per_process = max(1, resource.getrlimit(resource.RLIMIT_NOFILE)[1] - 200)
    processes = math.ceil(args.connections / per_process)
    opened, stop = multiprocessing.Queue(), multiprocessing.Event()
    counts = [args.connections // processes + (1 if i < args.connections % processes else 0) for i in range(processes)]
    children = [multiprocessing.Process(target=hold, args=(port, count, opened, stop, args.slow_body)) for count in counts]
    started = time.monotonic()
    for child in children:
        child.start()
    total = sum(opened.get() for _ in children)
    print(f"{total} {'slow-body' if args.slow_body else 'half-finished'} requests opened in {time.monotonic() - started:.1f} s by {processes} processes")

    started = time.monotonic()
    with urllib.request.urlopen(base + "/healthz", timeout=120) as answer:
        status = answer.status
    print(f"normal request while they are open: HTTP {status} in {(time.monotonic() - started) * 1000:.0f} ms")
    print(f"server RSS {rss_mb(server.pid):.0f} MB with them open")

    stop.set()
    closed = sum(opened.get() for _ in children)
    for child in children:
        child.join()
    print(f"closed by the server to make room (or by the idle timeout): {closed} of {total}")
    started = time.monotonic()
    server.terminate()
    code = server.wait(timeout=60)
    print(f"SIGTERM: exit {code} in {(time.monotonic() - started) * 1000:.0f} ms")
    with open(os.path.join(folder, "serve.log")) as log:
        lines = [l.strip() for l in log if "connection limit" in l or "note:" in l]
    for l in lines[:3]:
        print("log:", l)
    return 0 if status == 200 and code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
