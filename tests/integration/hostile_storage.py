#!/usr/bin/env python3
"""A hostile file host in front of seawx-sim: every request is passed on to
the stand-in and its answer passed back, except the forecast files'
(/forecast/file/...), which get the hostile answer MODE. Counts and logs every
request (its request line and its Range header), so that a test can bound how
many a command sent. Writes its port to PORT_FILE once listening.

usage: hostile_storage.py PORT_FILE SIM_URL MODE [--log FILE]
  MODE empty206   206 with an empty body and the Content-Range of no byte at
                  the start asked ("bytes S-(S-1)/9808380")
       short206   206 with the first byte asked only ("bytes S-S/9808380")
       416        416 Range Not Satisfiable ("bytes */9808380")
       extraregion    the forecast files pass; the file listing holds no global
                  files and names first a region not asked for, with hour 0
                  only (arctic)
"""
import argparse
import http.client
import http.server
import json
import os
import re
import sys
import urllib.parse

TOTAL = 9808380


def extra_region(body):
    """The listing with, first, hour 0 of each run and bundle in region arctic."""
    doc = json.loads(body)
    extra = []
    for name in doc.get("files", []):
        p = name.split(".")  # sof-d.DATE.tHHz.RES.BUNDLE.REGION.fNNN.grib2
        if len(p) == 8:
            p[5], p[6] = "arctic", "f000"
            if ".".join(p) not in extra:
                extra.append(".".join(p))
    doc["files"] = extra + [f for f in doc["files"] if ".global." not in f]
    if "meta" in doc:
        doc["meta"]["count"] = len(doc["files"])
    return json.dumps(doc).encode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port_file")
    ap.add_argument("sim_url")
    ap.add_argument("mode", choices=["empty206", "short206", "416", "extraregion"])
    ap.add_argument("--log")
    o = ap.parse_args()
    sim = urllib.parse.urlsplit(o.sim_url)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def record(self):
            if o.log:
                with open(o.log, "a") as f:
                    f.write(f"{self.requestline} range={self.headers.get('Range', '-')}\n")

        def answer(self, status, headers, body):
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def hostile(self):
            m = re.match(r"bytes=(\d+)-", self.headers.get("Range", ""))
            start = int(m.group(1)) if m else 0
            ctype = ("Content-Type", "application/octet-stream")
            if o.mode == "empty206":
                self.answer(206, [ctype, ("Content-Range", f"bytes {start}-{start - 1}/{TOTAL}")], b"")
            elif o.mode == "short206":
                self.answer(206, [ctype, ("Content-Range", f"bytes {start}-{start}/{TOTAL}")], b"G")
            else:
                self.answer(416, [("Content-Range", f"bytes */{TOTAL}")], b"")

        def do_GET(self):
            self.record()
            if self.path.startswith("/forecast/file/") and o.mode != "extraregion":
                return self.hostile()
            conn = http.client.HTTPConnection(sim.hostname, sim.port, timeout=60)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
            conn.request("GET", self.path, headers=headers)
            r = conn.getresponse()
            body = r.read()
            keep = [(k, v) for k, v in r.getheaders()
                    if k.lower() not in ("content-length", "connection", "transfer-encoding")]
            conn.close()
            if o.mode == "extraregion" and self.path.startswith("/forecast/file?") and r.status == 200:
                body = extra_region(body)
            self.answer(r.status, keep, body)

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    tmp = o.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"{srv.server_address[1]}\n")
    os.replace(tmp, o.port_file)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
