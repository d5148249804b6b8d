#!/usr/bin/env python3
"""Checks `report serve`'s `GET /metrics` with Prometheus' own text parser (the prometheus-client
package's `text_string_to_metric_families`): starts a server with scoped tokens (`--token-file`)
over an empty store, makes requests whose counts are known (reports, a 401, a 403, uploads with
an accepted, a duplicate and a rejected event, a refused ad hoc statement), then parses the
exposition and checks every family and the counts those requests must have left.

  scripts/metrics_check.py [--bin .build/debug/report]

Exit status 0 when the exposition parses and every check holds.
"""
import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "prometheus-client"], check=True)
    from prometheus_client.parser import text_string_to_metric_families

READING = '{{"eventId":"{id}","userId":"u","materialId":"m","eventType":"heartbeat","clientTimestampMs":1795176000000,"activeSecondsDelta":{delta}}}'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/report")
    args = parser.parse_args()
    tokens = {scope: secrets.token_hex(16) for scope in ("read", "write", "sql", "metrics")}
    work = tempfile.mkdtemp(prefix="tally-metrics-")
    token_file = os.path.join(work, "tokens")
    with open(token_file, "w") as handle:
        handle.writelines(f"{scope} {token}\n" for scope, token in tokens.items())
    server = subprocess.Popen([args.bin, "serve", "--db", os.path.join(work, "s.sqlite"), "--port", "0",
                               "--token-file", token_file, "--allow-sql"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        if not line.startswith("listening on "):
            sys.exit(f"report serve did not start: {line!r}")
        base = line[len("listening on "):]

        def call(path, scope=None, body=None):
            headers = {"Authorization": f"Bearer {tokens[scope]}"} if scope else {}
            request = urllib.request.Request(base + path, data=body.encode() if body else None, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status, response.read().decode(), response.headers.get("Content-Type")
            except urllib.error.HTTPError as error:
                return error.code, error.read().decode(), error.headers.get("Content-Type")

        expected = [
            (call("/learning/summary?now=2026-11-20T12:00:00Z", "read")[0], 200),
            (call("/learning/summary?now=2026-11-20T12:00:00Z", "read")[0], 200),
            (call("/learning/summary")[0], 401),
            (call("/learning/summary", "write")[0], 403),
            (call("/metrics", "read")[0], 403),
            (call("/events", "write", READING.format(id="e1", delta=5))[0], 200),
            (call("/events", "write", READING.format(id="e1", delta=5) + "\n" + READING.format(id="e2", delta=-3))[0], 200),
            (call("/sql?q=ATTACH%20'x'%20AS%20x", "sql")[0], 400),
        ]
        problems = [f"request {i}: status {got}, expected {want}" for i, (got, want) in enumerate(expected) if got != want]
        status, text, content_type = call("/metrics", "metrics")
        if status != 200 or not content_type.startswith("text/plain; version=0.0.4"):
            sys.exit(f"GET /metrics: {status} {content_type}: {text[:300]}")
        families = {family.name: family for family in text_string_to_metric_families(text)}

        def value(name, sample_name=None, **labels):
            family = families.get(name)
            for sample in family.samples if family else []:
                if sample.name == (sample_name or name) and all(sample.labels.get(k) == v for k, v in labels.items()):
                    return sample.value
            return None

        wanted_types = {"tally_http_requests": "counter", "tally_http_request_duration_seconds": "histogram",
                        "tally_events": "counter", "tally_sql_statements_stopped": "counter",
                        "tally_connections_open": "gauge", "tally_connections_evicted": "counter", "tally_store_size_bytes": "gauge"}
        for name, kind in wanted_types.items():
            if name not in families:
                problems.append(f"no family {name}")
            elif families[name].type != kind:
                problems.append(f"{name} is a {families[name].type}, expected a {kind}")
        checks = [
            (value("tally_http_requests", "tally_http_requests_total", route="/learning/summary", method="GET", status="200"), 2),
            (value("tally_http_requests", "tally_http_requests_total", route="/learning/summary", method="GET", status="401"), 1),
            (value("tally_http_requests", "tally_http_requests_total", route="/learning/summary", method="GET", status="403"), 1),
            (value("tally_http_requests", "tally_http_requests_total", route="/events", method="POST", status="200"), 2),
            (value("tally_http_request_duration_seconds", "tally_http_request_duration_seconds_count", route="/learning/summary"), 4),
            (value("tally_http_request_duration_seconds", "tally_http_request_duration_seconds_bucket", route="/learning/summary", le="+Inf"), 4),
            (value("tally_events", "tally_events_total", family="reading", outcome="accepted"), 1),
            (value("tally_events", "tally_events_total", family="reading", outcome="duplicate"), 1),
            (sum(s.value for s in families["tally_events"].samples if s.labels.get("outcome") == "rejected") if "tally_events" in families else None, 1),
            (value("tally_sql_statements_stopped", "tally_sql_statements_stopped_total", limit="read-only"), 1),
            (value("tally_sql_statements_stopped", "tally_sql_statements_stopped_total", limit="sql-timeout"), 0),
            (value("tally_connections_evicted", "tally_connections_evicted_total"), 0),
        ]
        for i, (got, want) in enumerate(checks):
            if got != want:
                problems.append(f"check {i}: {got}, expected {want}")
        if not (value("tally_connections_open") or 0) >= 1:
            problems.append(f"tally_connections_open is {value('tally_connections_open')}, expected at least this connection")
        if not (value("tally_store_size_bytes") or 0) > 0:
            problems.append(f"tally_store_size_bytes is {value('tally_store_size_bytes')}, expected the store's size")
        buckets = [s for s in families["tally_http_request_duration_seconds"].samples
                   if s.name.endswith("_bucket") and s.labels["route"] == "/learning/summary"]
        if [s.value for s in buckets] != sorted(s.value for s in buckets):
            problems.append("histogram buckets are not cumulative")
        print(f"/metrics: {len(families)} families, {sum(len(f.samples) for f in families.values())} samples parsed by prometheus_client")
        for problem in problems:
            print("PROBLEM", problem)
        return 1 if problems else 0
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
