#!/usr/bin/env python3
"""A tiny tile server on loopback for the viewer tests: serves the files of
ROOT as they are (links followed), and the tiles of ROOT/NAME.mbtiles at /tiles/NAME/Z/X/Y
(XYZ rows, flipped to the file's TMS rows), 204 for a tile the file lacks, as
tile servers do. Every request's path is appended to ROOT/requests.log.
Writes its port to PORT_FILE once listening.

usage: tile_server.py ROOT PORT_FILE
"""
import http.server
import mimetypes
import os
import re
import sqlite3
import sys

ROOT = os.path.realpath(sys.argv[1])
TILE = re.compile(r"^/tiles/([A-Za-z0-9_-]+)/(\d+)/(\d+)/(\d+)(\.\w+)?$")
MAGIC = [(b"\x89PNG", "image/png"), (b"RIFF", "image/webp"), (b"\xff\xd8", "image/jpeg")]


class Handler(http.server.BaseHTTPRequestHandler):
    def send(self, code, body=b"", ctype="application/octet-stream"):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        with open(os.path.join(ROOT, "requests.log"), "a") as log:
            log.write(path + "\n")
        m = TILE.match(path)
        if m:
            name, z, x, y = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
            db = sqlite3.connect(f"file:{ROOT}/{name}.mbtiles?mode=ro", uri=True)
            row = db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? "
                             "AND tile_row=?", (z, x, (1 << z) - 1 - y)).fetchone()
            db.close()
            if not row:
                return self.send(204)
            data = bytes(row[0])
            ctype = next((t for mg, t in MAGIC if data.startswith(mg)), "application/octet-stream")
            return self.send(200, data, ctype)
        # Not resolved: a link the test put in ROOT (to a page of the
        # repository) is served; ".." cannot leave ROOT.
        full = os.path.normpath(os.path.join(ROOT, path.lstrip("/")))
        if not full.startswith(ROOT + os.sep) or not os.path.isfile(full):
            return self.send(404, b"not found", "text/plain")
        ctype = mimetypes.guess_type(full)[0] or "application/octet-stream"
        if full.endswith(".mjs"):
            ctype = "text/javascript"
        with open(full, "rb") as f:
            self.send(200, f.read(), ctype)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
tmp = sys.argv[2] + ".tmp"
with open(tmp, "w") as f:
    f.write(f"{server.server_address[1]}\n")
os.rename(tmp, sys.argv[2])
server.serve_forever()
