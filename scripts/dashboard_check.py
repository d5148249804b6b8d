#!/usr/bin/env python3
"""Renders the dashboard (`report serve`'s `/`) in headless Chromium and checks that the page
shows the numbers the JSON API gives: the summary cards, the 7-day trend, every heatmap cell's
level and seconds, the dislike-rate rows, and the comparison against the first model (the
baseline picker's default). Saves a screenshot.

The server runs with a read token and a write-only token (`--token-file`): the page must ask for
a token when it has none, and again when it has one without the read scope. Driven over Chromium's
DevTools pipe, the read token is then typed into the page's prompt: the numbers must appear, and
stay after a reload (the page keeps the token for the session); a token given in the URL
fragment must leave the address bar.

  scripts/dashboard_check.py [--bin .build/debug/report] [--screenshot bench-out/dashboard.png]

Starts the server itself over the sample data on a free loopback port and stops it (SIGTERM)
afterwards. Exit status 0 when every number matches.
"""
import argparse
import glob
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from html.parser import HTMLParser

NOW = "2026-11-20T12:00:00Z"
SAMPLE = sorted(glob.glob("sample-data/*.ndjson*"))

class Elements(HTMLParser):
    """Every element's tag and attributes, in document order."""

    def __init__(self):
        super().__init__()
        self.elements = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    sys.exit("no chromium on PATH (apt-get install chromium)")

def browse(url, *extra):
    profile = tempfile.mkdtemp(prefix="tally-chromium-")
    try:
        return subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                               f"--user-data-dir={profile}", "--virtual-time-budget=15000", *extra, url],
                              capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)

class DevTools:
    """Headless Chromium driven over --remote-debugging-pipe (NUL-separated JSON on fds 3 and 4)."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="tally-chromium-")
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def wire():
            reading, writing = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        self.process = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                         f"--user-data-dir={self.profile}", "--remote-debugging-pipe", "about:blank"],
                                        preexec_fn=wire, close_fds=False,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buffer = b""
        self.next_id = 0
        self.session = None

    def call(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_child, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def open(self, url):
        target = self.call("Target.createTarget", {"url": url}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        return result.get("result", {}).get("value")

    def wait_for(self, expression, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except RuntimeError:  # the page is between two documents
                value = None
            if value:
                return value
            time.sleep(0.1)
        return None

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except RuntimeError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def typed_token(base, read_token, user, summary):
    """Opens the page without a token, types the read token into its prompt, checks the numbers,
    reloads (the token is kept for the session), and checks that a token given in the fragment
    is taken out of the address bar. Returns the problems."""
    problems = []
    browser = DevTools(chromium())
    try:
        browser.open(f"{base}/#user={user}&now={NOW}")
        if not browser.wait_for("document.body.dataset.ready === 'token'"):
            return ["typed token: the page did not ask for a token"]
        browser.evaluate(f"document.getElementById('token-input').value = {json.dumps(read_token)};"
                         " document.getElementById('token-form').requestSubmit(); true")
        shown = "document.body.dataset.ready === '1' && document.querySelector('[data-key=totalActiveSeconds]').dataset.value"
        if browser.wait_for(shown) != str(summary["totalActiveSeconds"]):
            problems.append(f"typed token: total {browser.evaluate(shown)!r}, API {summary['totalActiveSeconds']!r}")
        if browser.evaluate("document.getElementById('token-form').hidden") is not True:
            problems.append("typed token: the prompt stays after a good token")
        browser.evaluate("window.before = true; location.reload(); true")
        if browser.wait_for(f"!window.before && {shown}") != str(summary["totalActiveSeconds"]):
            problems.append("typed token: after a reload the page does not use the token it kept")
        browser.open(f"{base}/#token={read_token}&user={user}&now={NOW}")
        if not browser.wait_for("document.body.dataset.ready === '1'"):
            problems.append("token in the fragment: the page did not load")
        elif "token" in browser.evaluate("location.href"):
            problems.append("token in the fragment: it stays in the address bar")
    finally:
        browser.close()
    return problems

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug/report")
    parser.add_argument("--screenshot", default="bench-out/dashboard.png")
    parser.add_argument("--user", default="u-sh")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    work = tempfile.mkdtemp(prefix="tally-dashboard-")
    db = os.path.join(work, "sample.sqlite")
    subprocess.run([args.bin, "ingest", *SAMPLE, "--db", db], check=True, capture_output=True)
    read_token, write_token = secrets.token_hex(16), secrets.token_hex(16)
    token_file = os.path.join(work, "tokens")
    with open(token_file, "w") as handle:
        handle.write(f"# scopes token\nread {read_token}\nwrite {write_token}\n")
    server = subprocess.Popen([args.bin, "serve", "--db", db, "--port", "0", "--token-file", token_file], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().strip()
        if not line.startswith("listening on "):
            sys.exit(f"report serve did not start: {line!r}")
        base = line[len("listening on "):]

        def api(path):
            request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {read_token}"})
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)

        query = f"user={args.user}&now={NOW}"
        summary = api(f"/learning/summary?{query}")
        trend = api(f"/learning/trend?days=7&{query}")
        heatmap = api(f"/activity/heatmap?days=365&{query}")
        dislikes = api(f"/feed/dislike-rate?{query}")
        models = [r["modelInfo"] for r in api(f"/feed/dislike-rate?by=model&{query}")["rows"] if r.get("modelInfo") is not None]
        compare = api(f"/feed/compare?baseline={models[0]}&{query}") if models else {"rows": []}

        problems = []

        def rendered(url):
            dom = browse(url, "--dump-dom")
            if dom.returncode != 0:
                sys.exit(f"chromium failed: {dom.stderr[-2000:]}")
            parsed = Elements()
            parsed.feed(dom.stdout)
            return parsed.elements, dom.stdout

        def prompted(name, url, reason):
            elements, text = rendered(url)
            body = next((attrs for tag, attrs in elements if tag == "body"), {})
            form = next((attrs for tag, attrs in elements if attrs.get("id") == "token-form"), None)
            if body.get("data-ready") != "token" or form is None or "hidden" in form:
                problems.append(f"{name}: the page does not ask for a token (data-ready={body.get('data-ready')!r}, form {form!r})")
            if any("data-key" in attrs for tag, attrs in elements):
                problems.append(f"{name}: the page shows numbers without a read token")
            if reason not in text:
                problems.append(f"{name}: the page does not say {reason!r}")

        prompted("no token", f"{base}/#user={args.user}&now={NOW}", "needs a read token")
        prompted("write-only token", f"{base}/#token={write_token}&user={args.user}&now={NOW}", "does not have the read scope")

        problems += typed_token(base, read_token, args.user, summary)

        page = f"{base}/#token={read_token}&user={args.user}&now={NOW}"
        elements, _ = rendered(page)

        body = next((attrs for tag, attrs in elements if tag == "body"), {})
        if body.get("data-ready") != "1":
            problems.append(f"the page did not finish loading (data-ready={body.get('data-ready')!r})")

        cards = {a["data-key"]: a["data-value"] for t, a in elements if t == "div" and "data-key" in a}
        for key, value in summary.items():
            shown = cards.get(key)
            if shown != ("" if value is None else str(value)):
                problems.append(f"card {key}: page {shown!r}, API {value!r}")

        bars = [(a["data-date"], int(a["data-seconds"])) for t, a in elements if t == "rect" and "data-seconds" in a and "class" not in a]
        expected_bars = [(d["date"], d["activeSeconds"]) for d in trend["days"]]
        if bars != expected_bars:
            problems.append(f"trend bars: page {bars}, API {expected_bars}")
        total = next((a for t, a in elements if a.get("id") == "trend-total"), {})
        if total.get("data-value") != str(trend["totalActiveSeconds"]):
            problems.append(f"trend total: page {total.get('data-value')}, API {trend['totalActiveSeconds']}")

        cells = [(a["data-date"], int(a["data-level"]), int(a["data-seconds"])) for t, a in elements if a.get("class") == "day"]
        expected_cells = [(d["date"], d["level"], d["activeSeconds"]) for d in heatmap["days"]]
        if cells != expected_cells:
            wrong = [(c, e) for c, e in zip(cells, expected_cells) if c != e][:3]
            problems.append(f"heatmap: {len(cells)} cells on the page, {len(expected_cells)} in the API; first differences {wrong}")

        rows = [(a["data-model"], a["data-position"], int(a["data-exposures"]), int(a["data-dislikes"]))
                for t, a in elements if t == "tr" and "data-model" in a]
        expected_rows = [(r.get("modelInfo") or "", "" if r.get("feedPosition") is None else str(r["feedPosition"]),
                          r["exposures"], r["dislikes"]) for r in dislikes["rows"]]
        if rows != expected_rows:
            problems.append(f"dislike table: page {rows[:3]}…, API {expected_rows[:3]}…")

        def number(value):
            return "" if value is None else repr(float(value))
        shown = [(a["data-compare-model"], int(a["data-users"]), int(a["data-exposures"]), int(a["data-dislikes"]),
                  number(a["data-difference"] or None), number(a["data-low"] or None), number(a["data-high"] or None), a["data-shared"])
                 for t, a in elements if t == "tr" and "data-compare-model" in a]
        expected_compare = [(r["modelInfo"] or "", r["users"], r["exposures"], r["dislikes"], number(r.get("difference")),
                             number(r.get("differenceLow")), number(r.get("differenceHigh")),
                             "" if r.get("sharedUsers") is None else str(r["sharedUsers"])) for r in compare["rows"]]
        if shown != expected_compare:
            problems.append(f"comparison: page {shown[:2]}…, API {expected_compare[:2]}…")

        os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
        shot = browse(page, f"--screenshot={os.path.abspath(args.screenshot)}", "--window-size=1400,1000", "--hide-scrollbars")
        if shot.returncode != 0 or not os.path.exists(args.screenshot):
            problems.append(f"no screenshot: {shot.stderr[-500:]}")

        print(f"dashboard at {base}/ (asked for a token without one and with a write-only one; a typed token kept for the session): {len(cards)} cards, {len(bars)} trend bars, {len(cells)} heatmap cells, "
              f"{len(rows)} dislike rows, {len(shown)} comparison rows; screenshot {args.screenshot}")
        for problem in problems:
            print("MISMATCH", problem)
        return 1 if problems else 0
    finally:
        server.send_signal(signal.SIGTERM)
        status = server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)
        if status != 0:
            print(f"report serve exited with status {status}", file=sys.stderr)

if __name__ == "__main__":
    sys.exit(main())
