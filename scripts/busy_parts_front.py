#!/usr/bin/env python3
"""An HTTP front on a ClickHouse server whose parts look busy to `OPTIMIZE`: every request is
passed through unchanged, except the first --busy `OPTIMIZE` statements, which are answered as a
server answers while a background merge holds the parts: 200 and nothing merged, or, with
`optimize_throw_if_noop=1` among the URL's settings, its error `Code: 388` (the 18.16 wording).
The tests use it to show that the backend never trusts an `OPTIMIZE` that did nothing.

    scripts/busy_parts_front.py --upstream http://127.0.0.1:18123 --busy 2 [--port 0]

Prints `listening on PORT` once it accepts requests; stops on SIGTERM.
"""
import argparse
import http.client
import http.server
import sys
import threading
import urllib.parse

NOOP_ERROR = (b"Code: 388, e.displayText() = DB::Exception: Cannot select parts for optimization: "
              b"Entire partition 202611 is currently merging, e.what() = DB::Exception\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--busy", type=int, default=1, help="how many OPTIMIZE statements merge nothing")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    upstream = urllib.parse.urlsplit(args.upstream)
    busy = {"left": args.busy}
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def answer(self, status, body, headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.close_connection = True

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            params = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            sql = params.get("query", [None])[0]
            if sql is None:
                sql = body.decode("utf-8", "replace")
            if sql.lstrip().upper().startswith("OPTIMIZE"):
                with lock:
                    noop = busy["left"] > 0
                    busy["left"] -= noop
                if noop:
                    if params.get("optimize_throw_if_noop", ["0"])[0] == "1":
                        return self.answer(500, NOOP_ERROR)
                    return self.answer(200, b"")
            connection = http.client.HTTPConnection(upstream.hostname, upstream.port or 80, timeout=600)
            headers = {name: value for name, value in self.headers.items()
                       if name.lower() in ("content-type", "content-encoding")}
            connection.request("POST", self.path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            connection.close()
            self.answer(response.status, data, [(name, value) for name, value in response.getheaders()
                                                if name.lower() in ("content-type", "x-clickhouse-format")])

        do_GET = do_POST

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening on {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
