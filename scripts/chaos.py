#!/usr/bin/env python3
"""Chaos run of the whole chain: the events of `report simulate` are uploaded to `report serve`
through a proxy that drops connections mid-body, delays, and answers 503 at random, while the
server is killed (-9) and restarted at random moments. Uploaders resend a batch until it is
acknowledged; at the end every report of the served store must equal the same report of a clean
`report ingest` of the simulation's files (its ground truth): each event stored exactly once.

    scripts/chaos.py [--bin .build/debug/report] [--seed 1] [--duration 30] [--users 4] [--days 30]

Once every batch is acknowledged and until --duration is over, the uploaders resend batches that
were already acknowledged (as a device that lost its acknowledgements would); every such resend
answered 200 must accept nothing. The proxy also loses some answers: it forwards the whole
request and closes the client's connection before the answer, so the server stored a batch the
uploader will send again.

Exits 0 when every report and every table matches, 1 otherwise; prints the seed, what the proxy
and the killer did, and the first difference (the work folder is kept then). The seed fixes the
simulation, the order of the events and the proxy's and the killer's draws; which request a
kill lands on still depends on thread timing.
"""
import argparse
import glob
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

NOW = "2026-11-20T12:00:00Z"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`report serve` on a fixed port, killed with SIGKILL and restarted on demand."""

    def __init__(self, binary, db, port, log):
        self.binary, self.db, self.port, self.log = binary, db, port, log
        self.process = None
        self.lock = threading.Lock()

    def start(self):
        with self.lock:
            self.process = subprocess.Popen([self.binary, "serve", "--db", self.db, "--port", str(self.port)],
                                            stdout=subprocess.PIPE, stderr=self.log, text=True)
            line = self.process.stdout.readline()
            if not line.startswith("listening on"):
                raise SystemExit(f"report serve did not start: {line!r}")

    def kill(self):
        with self.lock:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self):
        with self.lock:
            self.process.terminate()
            return self.process.wait(timeout=60)


class Proxy(threading.Thread):
    """HTTP proxy in front of the server: per request, after a random delay, answer 503, drop the
    connection halfway through the body, forward it whole but lose the answer, or forward it."""

    def __init__(self, upstream, rng, drop, unavailable, lose_answer, max_delay):
        super().__init__(daemon=True)
        self.upstream, self.rng, self.max_delay = upstream, rng, max_delay
        self.drop, self.unavailable, self.lose_answer = drop, unavailable, lose_answer
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.counts = {"forwarded": 0, "dropped mid-body": 0, "503": 0, "answer lost": 0}

    def count(self, outcome):
        with self.lock:
            self.counts[outcome] += 1

    def run(self):
        while True:
            client, _ = self.listener.accept()
            threading.Thread(target=self.handle, args=(client,), daemon=True).start()

    def handle(self, client):
        try:
            with client:
                request = read_request(client)
                if request is None:
                    return
                with self.lock:
                    draw, delay = self.rng.random(), self.rng.random() * self.max_delay
                time.sleep(delay)
                if draw < self.unavailable:
                    self.count("503")
                    client.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    return
                with socket.create_connection(("127.0.0.1", self.upstream), timeout=60) as upstream:
                    if draw < self.unavailable + self.drop:
                        self.count("dropped mid-body")
                        upstream.sendall(request[: len(request) - max(1, (len(request) - request.index(b"\r\n\r\n")) // 2)])
                        return
                    upstream.sendall(request)
                    if draw < self.unavailable + self.drop + self.lose_answer:
                        self.count("answer lost")
                        upstream.recv(1)
                        return
                    self.count("forwarded")
                    while chunk := upstream.recv(65536):
                        client.sendall(chunk)
        except OSError:
            pass


def read_request(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    lines = head.split(b"\r\n")
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        body += chunk
    lines = [l for l in lines if not l.lower().startswith(b"connection:")] + [b"Connection: close"]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def post(base, batch):
    """One POST of a batch: its answer when it is 200 with every event accounted for, else None."""
    try:
        request = urllib.request.Request(base + "/events", data="\n".join(batch).encode(), method="POST",
                                         headers={"Content-Type": "application/x-ndjson"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            result = json.load(answer)
        if result["accepted"] + len(result["duplicates"]) + len(result["rejected"]) == len(batch):
            return result
    except (urllib.error.URLError, OSError, ValueError, KeyError):
        pass
    return None


def upload(base, batches, rng, stats, stats_lock, deadline, chaos_ends):
    """Posts each batch until it is acknowledged, then resends acknowledged batches until the
    chaos ends: a resend answered 200 must accept nothing."""
    for batch in batches:
        delay = 0.05
        while post(base, batch) is None:
            if time.monotonic() > deadline:
                raise SystemExit("uploads did not finish before the deadline")
            with stats_lock:
                stats["retries"] += 1
            time.sleep(delay)
            delay = min(1.0, delay * 2)
        with stats_lock:
            stats["acknowledged"] += 1
    while batches and time.monotonic() < chaos_ends:
        result = post(base, rng.choice(batches))
        with stats_lock:
            if result is None:
                stats["resends unanswered"] += 1
            else:
                stats["resends"] += 1
                stats["accepted again"] += result["accepted"]
        if result is None:
            time.sleep(0.05)


def tables(db):
    """Every table's rows in a canonical order, but the migrations' (they hold when they ran)."""
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        names = [row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'tally_migrations' ORDER BY name")]
        return {name: sorted(map(repr, connection.execute(f'SELECT * FROM "{name}"'))) for name in names}
    finally:
        connection.close()


def reports(binary, db, users):
    """Every report as JSON, for everyone and for each user."""
    questions = [["summary"], ["trend", "--days", "30"], ["heatmap", "--days", "60"], ["continue"],
                 ["dislike-rate"], ["exposures", "--by", "model"], ["exposures", "--by", "day"],
                 ["latency", "--event", "view_loaded", "--field", "load_duration_ms", "--by", "app_version"],
                 ["sql", "SELECT count(*) AS n FROM reading_events"], ["sql", "SELECT count(*) AS n FROM feedback_events"]]
    answers = {}
    for user in [None] + users:
        for question in questions:
            arguments = [binary] + question + ["--db", db, "--format", "json", "--now", NOW]
            if user and question[0] != "sql":
                arguments += ["--user", user]
            result = subprocess.run(arguments, capture_output=True, text=True)
            answers[(user, " ".join(question))] = (result.returncode, result.stdout)
    return answers


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=".build/debug/report")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--duration", type=float, default=30, help="seconds of chaos (kills) before the uploads may settle")
    parser.add_argument("--users", type=int, default=4)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--uploaders", type=int, default=4)
    parser.add_argument("--keep", action="store_true", help="keep the work folder even when every report matches")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="tally-chaos-")
    log = open(os.path.join(work, "serve.log"), "w")

    subprocess.run([args.bin, "simulate", "--users", str(args.users), "--days", str(args.days), "--seed", str(args.seed),
                    "--out", os.path.join(work, "sim")], check=True, capture_output=True)
    files = sorted(glob.glob(os.path.join(work, "sim", "*.ndjson")))
    truth = os.path.join(work, "truth.sqlite")
    subprocess.run([args.bin, "ingest", *files, "--db", truth], check=True, capture_output=True)
    lines = [line for name in files for line in open(name).read().splitlines() if line.strip()]
    rng.shuffle(lines)
    batches = [lines[i:i + args.batch] for i in range(0, len(lines), args.batch)]

    server = Server(args.bin, os.path.join(work, "served.sqlite"), free_port(), log)
    server.start()
    proxy = Proxy(server.port, random.Random(args.seed + 1), drop=0.2, unavailable=0.1, lose_answer=0.05, max_delay=0.05)
    proxy.start()
    base = f"http://127.0.0.1:{proxy.port}"

    stats = {"acknowledged": 0, "retries": 0, "kills": 0, "resends": 0, "resends unanswered": 0, "accepted again": 0}
    stats_lock = threading.Lock()
    started = time.monotonic()
    chaos_ends = started + args.duration
    deadline = chaos_ends + 600
    uploaders = [threading.Thread(target=upload, args=(base, batches[i::args.uploaders], random.Random(args.seed * 100 + i),
                                                       stats, stats_lock, deadline, chaos_ends))
                 for i in range(args.uploaders)]
    for uploader in uploaders:
        uploader.start()
    while time.monotonic() < chaos_ends and any(u.is_alive() for u in uploaders):
        time.sleep(rng.uniform(0.2, 2.0))
        server.kill()
        stats["kills"] += 1
        server.start()
    for uploader in uploaders:
        uploader.join()
    print(f"seed {args.seed}: {len(lines)} events in {len(batches)} batches, all acknowledged; "
          f"{time.monotonic() - started:.1f} s, {stats['retries']} retries, {stats['kills']} kill -9s; "
          f"{stats['resends']} resends of acknowledged batches answered ({stats['resends unanswered']} not), "
          f"{stats['accepted again']} events accepted again; proxy {proxy.counts}")
    code = server.stop()

    users = sorted({json.loads(line).get("userId") for line in lines if json.loads(line).get("userId")})
    served = os.path.join(work, "served.sqlite")
    expected, actual = reports(args.bin, truth, users), reports(args.bin, served, users)
    different = [key for key in expected if expected[key] != actual[key]]
    expected_tables, actual_tables = tables(truth), tables(served)
    different_tables = [name for name in expected_tables if expected_tables[name] != actual_tables.get(name)]
    if different or different_tables or stats["accepted again"] or code != 0:
        print(f"FAIL: {len(different)} of {len(expected)} reports and {len(different_tables)} of {len(expected_tables)} "
              f"tables differ, {stats['accepted again']} events accepted again, server exit {code}; work folder {work}")
        if different:
            key = different[0]
            print(f"  {key}:\n  expected {expected[key][1][:400]}\n  actual   {actual[key][1][:400]}")
        for name in different_tables[:3]:
            missing = set(expected_tables[name]) - set(actual_tables.get(name, []))
            extra = set(actual_tables.get(name, [])) - set(expected_tables[name])
            print(f"  table {name}: {len(missing)} rows missing, {len(extra)} extra, e.g. {sorted(missing or extra)[:1]}")
        return 1
    print(f"every report equals the ground truth ({len(expected)} reports: for everyone and for each of {len(users)} users) "
          f"and so does every table ({len(expected_tables)} tables)")
    if args.keep:
        print(f"work folder {work}")
    else:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
