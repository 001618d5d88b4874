#!/usr/bin/env python3
"""A stand-in for hosts other than the service, for the bad-input, key and TLS
tests: it records every request it gets, whole, and answers each one the same
way. Writes its port to PORT_FILE once listening.

usage: capture_server.py PORT_FILE [options]
  --host ADDR          address to listen on (default 127.0.0.1)
  --log FILE           append each request: its request line, every header, and
                       the user:password of a Basic Authorization header decoded
  --status N           the answer's status (default 200)
  --ctype TYPE         the answer's Content-Type (default text/plain)
  --body FILE          the answer's body (default: "ok")
  --redirect BASE      answer 302 with Location BASE + the request's path and query
  --tls CERT KEY       serve HTTPS with this certificate and private key (PEM)
"""
import argparse
import base64
import http.server
import os
import ssl
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port_file")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--log")
    ap.add_argument("--status", type=int, default=200)
    ap.add_argument("--ctype", default="text/plain")
    ap.add_argument("--body")
    ap.add_argument("--redirect")
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    o = ap.parse_args()
    body = open(o.body, "rb").read() if o.body else b"ok"

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def record(self):
            if not o.log:
                return
            lines = [self.requestline]
            for k, v in self.headers.items():
                lines.append(f"{k}: {v}")
                if k.lower() == "authorization" and v.lower().startswith("basic "):
                    try:
                        lines.append("decoded-basic: " + base64.b64decode(v[6:]).decode("latin-1"))
                    except ValueError:
                        lines.append("decoded-basic: (undecodable)")
            with open(o.log, "a") as f:
                f.write("\n".join(lines) + "\n\n")

        def do_GET(self):
            self.record()
            if o.redirect:
                self.send_response(302)
                self.send_header("Location", o.redirect + self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(o.status)
            self.send_header("Content-Type", o.ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_POST = do_GET

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer((o.host, 0), Handler)
    if o.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(o.tls[0], o.tls[1])
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    tmp = o.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"{server.server_address[1]}\n")
    os.rename(tmp, o.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
