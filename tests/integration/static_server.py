#!/usr/bin/env python3
"""A minimal stand-in for some other WMS server: answers every GET with one
file's bytes as text/xml. Writes its port to PORT_FILE once listening.

usage: static_server.py FILE PORT_FILE
"""
import http.server
import os
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = open(sys.argv[1], "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "text/xml; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
tmp = sys.argv[2] + ".tmp"
with open(tmp, "w") as f:
    f.write(f"{server.server_address[1]}\n")
os.rename(tmp, sys.argv[2])
server.serve_forever()
