#!/usr/bin/env python3
"""A ClickHouse HTTP server for tests, over chDB: the current ClickHouse engine (chdb-core, 26.x)
in this process, behind the part of ClickHouse's HTTP interface the Tally backend and SDK use.

  pip install chdb-core
  scripts/chdb_server.py --path DIR [--port 18126]     serves on 127.0.0.1 until stopped (SIGTERM)
  TALLY_CLICKHOUSE_URL=http://127.0.0.1:18126 swift test --filter TallyClickHouseTests

The data lives in DIR (one chDB session, kept between runs). What it serves, as clickhouse-server
does:
- GET or POST `/?query=…` (or the SQL as the body, or `query=` and the body together: an INSERT's
  rows), answering in the format the statement names (TabSeparated by default);
- `database=` (the statement's current database) and every other URL parameter as a setting of
  that statement alone (`readonly`, `max_execution_time`, `insert_distributed_sync`, …), set in
  the order given;
- `Content-Encoding: gzip` bodies; external data (`multipart/form-data`, one part per table,
  its columns in `NAME_structure`, its format in `NAME_format`, TabSeparated by default);
- errors as status 4xx/5xx chosen from the code as ClickHouse does, with the body
  `Code: N. DB::Exception: … (NAME) (version V)` and the header `X-ClickHouse-Exception-Code`.
A chDB session runs one statement at a time, so requests wait their turn; `readonly` cannot be
taken back within a session, so a statement run with it reopens the session afterwards.
"""
import argparse
import gzip
import os
import re
import signal
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

from chdb import session as chdb_session

# HTTP statuses by error code, as clickhouse-server's exceptionCodeToHTTPStatus chooses them.
STATUS_BY_CODE = {
    194: 401,
    192: 403, 193: 403, 497: 403, 512: 403, 516: 403,
    6: 400, 8: 400, 15: 400, 25: 400, 26: 400, 27: 400, 36: 400, 38: 400, 41: 400, 44: 400, 51: 400,
    52: 400, 53: 400, 62: 400, 72: 400, 117: 400, 167: 400, 168: 400, 223: 400, 321: 400, 376: 400,
    427: 400, 441: 400, 676: 400, 677: 400,
    46: 404, 47: 404, 50: 404, 56: 404, 58: 404, 60: 404, 63: 404, 73: 404, 78: 404, 81: 404, 115: 404,
    336: 404, 511: 404,
    48: 501, 76: 503, 159: 408, 209: 503, 439: 503,
}
CODE = re.compile(r"Code: (\d+)")
# An INSERT whose rows come as the body: the statement ends with the rows' format.
INSERT_WITH_ROWS = re.compile(r"^\s*INSERT\s+INTO\s.*?\sFORMAT\s+\w+\s*$", re.IGNORECASE | re.DOTALL)
# Parameters that are not settings.
NOT_SETTINGS = {"query", "database", "user", "password", "default_format", "query_id", "session_id",
                "compress", "decompress", "enable_http_compression"}


class Engine:
    """The chDB session, its current database and the settings in force; one statement at a time."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.version = ""
        self.open()
        self.version = self.session.query("SELECT version()", "TabSeparated").bytes().decode().strip()

    def open(self):
        self.session = chdb_session.Session(self.path)
        self.settings = {}

    def run(self, sql):
        """Runs one statement; returns its output bytes or raises RuntimeError with ClickHouse's text."""
        try:
            return self.session.query(sql, "TabSeparated").bytes()
        except Exception as error:  # chDB raises its own error types; the text carries the code
            # A failed statement's partial output would come first in the next answer: read it now.
            try:
                self.session.query("SELECT 1", "TabSeparated")
            except Exception:
                pass
            text = str(error)
            if not CODE.match(text):
                text = "Code: 1001. DB::Exception: " + text + " (STD_EXCEPTION)"
            raise RuntimeError(text) from None

    def answer(self, sql, database, settings, tables, rows_file):
        """Runs `sql` in `database` with `settings` (name, value pairs), the external `tables`
        (name, structure, format, file) created first and dropped after; `rows_file` holds an INSERT's rows."""
        with self.lock:
            self.run("USE " + quote_name(database or "default"))
            readonly = False
            wanted = dict(settings)
            for name in [name for name in self.settings if name not in wanted]:
                self.run("SET " + quote_name(name) + " = DEFAULT")
                del self.settings[name]
            for name, value in settings:
                if name == "readonly":
                    readonly = value not in ("", "0")
                    continue
                if self.settings.get(name) != value:
                    self.run("SET " + quote_name(name) + " = " + literal(value))
                    self.settings[name] = value
            made = []
            try:
                for name, structure, form, path in tables:
                    self.run("CREATE TEMPORARY TABLE " + quote_name(name) + " (" + structure + ") ENGINE = Memory")
                    made.append(name)
                    self.run("INSERT INTO " + quote_name(name) + " FROM INFILE " + literal(path) + " FORMAT " + format_name(form))
                if readonly:
                    self.run("SET readonly = " + literal(dict(settings)["readonly"]))
                if rows_file is not None:
                    head, form = re.match(r"^(.*\s)(FORMAT\s+\w+)\s*$", sql, re.IGNORECASE | re.DOTALL).groups()
                    sql = head + "FROM INFILE " + literal(rows_file) + " " + form
                return self.run(sql)
            finally:
                if readonly:
                    self.session.close()
                    self.open()
                else:
                    for name in made:
                        try:
                            self.run("DROP TEMPORARY TABLE IF EXISTS " + quote_name(name))
                        except RuntimeError:
                            pass


def format_name(name):
    """`name` when it can name a format (a word), else a ValueError (answered as a parse error)."""
    if not re.fullmatch(r"\w+", name):
        raise ValueError("not a format name: " + name)
    return name


def quote_name(name):
    return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`"


def literal(value):
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def multipart(body, content_type):
    """The parts of a multipart/form-data body: {name: bytes}."""
    boundary = re.search(r'boundary="?([^";]+)"?', content_type).group(1).encode()
    parts = {}
    for chunk in body.split(b"--" + boundary)[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, content = chunk.partition(b"\r\n\r\n")
        name = re.search(rb'name="([^"]*)"', head)
        if name:
            parts[name.group(1).decode()] = content[:-2] if content.endswith(b"\r\n") else content
    return parts


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    engine = None
    scratch = None

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        self.handle_query(b"")

    def do_POST(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = bytearray()
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                body += self.rfile.read(size)
                self.rfile.readline()
                if size == 0:
                    break
            body = bytes(body)
        else:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding", "").lower() == "gzip":
            body = gzip.decompress(body)
        self.handle_query(body)

    def handle_query(self, body):
        url = urlsplit(self.path)
        parameters = parse_qsl(url.query, keep_blank_values=True)
        given = dict(parameters)
        sql = given.get("query", "")
        if url.path == "/ping" or (not sql and not body):
            return self.reply(200, b"Ok.\n")
        content_type = self.headers.get("Content-Type", "")
        external, rows_file, files = [], None, []
        try:
            if content_type.startswith("multipart/form-data"):
                for name, content in multipart(body, content_type).items():
                    files.append(self.scratch_file(content))
                    external.append((name, given.get(name + "_structure", ""), given.get(name + "_format", "TabSeparated"), files[-1]))
                structures = {name + suffix for name, _, _, _ in external for suffix in ("_structure", "_format")}
            else:
                structures = set()
                if sql and body and INSERT_WITH_ROWS.match(sql):
                    rows_file = self.scratch_file(body)
                    files.append(rows_file)
                elif body:
                    sql = sql + ("\n" if sql else "") + body.decode("utf-8")
            settings = [(name, value) for name, value in parameters
                        if name not in NOT_SETTINGS and name not in structures]
            output = self.engine.answer(sql, given.get("database"), settings, external, rows_file)
            self.reply(200, output)
        except (RuntimeError, ValueError) as error:  # ValueError: a body that is not UTF-8 text, or gzip
            text = str(error) if isinstance(error, RuntimeError) else "Code: 27. DB::Exception: " + str(error) + " (CANNOT_PARSE_INPUT_ASSERTION_FAILED)"
            code = int(CODE.match(text).group(1))
            self.reply(STATUS_BY_CODE.get(code, 500), (text + " (version " + self.engine.version + ")\n").encode(),
                       {"X-ClickHouse-Exception-Code": str(code)})
        finally:
            for path in files:
                os.unlink(path)

    def scratch_file(self, content):
        handle, path = tempfile.mkstemp(dir=self.scratch)
        with os.fdopen(handle, "wb") as out:
            out.write(content)
        return path

    def reply(self, status, body, headers=None):
        self.send_response(status)
        self.send_header("Content-Type", "text/tab-separated-values; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", required=True, help="folder of the chDB data (made if missing)")
    parser.add_argument("--port", type=int, default=18126)
    arguments = parser.parse_args()
    os.makedirs(arguments.path, exist_ok=True)
    Handler.engine = Engine(os.path.join(arguments.path, "data"))
    Handler.scratch = tempfile.mkdtemp(dir=arguments.path, prefix="bodies-")
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print("chDB " + Handler.engine.version + " on http://127.0.0.1:" + str(arguments.port), file=sys.stderr, flush=True)
    server.serve_forever()
    Handler.engine.session.close()


if __name__ == "__main__":
    main()
