"""seawx route never crosses land: 21 routes through island-rich waters (the
Solent, the Cyclades, the Bahamas, the Azores, the Canaries, Tahiti to
Tonga, the Grenadines) motoring through a calm, on GSHHG full resolution with
a margin, each leg checked against the shoreline that GMT's own reader
(`gmt coast -M`, not seawx's land index) gives for the same GSHHG file, with
exact geometry (shapely): no leg may cross a shoreline nor come nearer it
than the margin (less 1 % for the local projection's error). A route's
straight line crossing land shows the route had to go round.

usage: route_land_check.py SEAWX WORKDIR
"""
import json
import math
import os
import subprocess
import sys

from shapely.geometry import LineString

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import route_fields  # noqa: E402

SEAWX, T = sys.argv[1], sys.argv[2]
DEPART = 1700006400  # 2023-11-15T00:00:00Z
failed = 0

# (name, from (lat, lon), to (lat, lon), margin nm)
ROUTES = [
    ("Solent: the Needles to Spithead", (50.65, -1.65), (50.76, -1.10), 0.2),
    ("Solent: the Needles to south of Wight", (50.65, -1.65), (50.60, -1.05), 0.5),
    ("Solent: Spithead to Poole Bay", (50.76, -1.10), (50.66, -1.85), 0.2),
    ("Cyclades: Piraeus to Mykonos", (37.85, 23.55), (37.30, 25.15), 1.0),
    ("Cyclades: Mykonos to Santorini", (37.30, 25.15), (36.30, 25.30), 1.0),
    ("Cyclades: Kea to Milos", (38.00, 24.60), (36.90, 24.20), 0.5),
    ("Cyclades: across to Samos", (36.50, 24.70), (37.70, 26.50), 1.0),
    ("Cyclades: Serifos to Amorgos", (37.30, 24.60), (36.70, 25.60), 0.5),
    ("Bahamas: Nassau to Exuma Sound", (25.15, -77.35), (24.40, -76.40), 1.0),
    ("Bahamas: Nassau to the Gulf Stream", (25.15, -77.35), (26.60, -79.10), 1.0),
    ("Bahamas: Exuma Sound to Long Island", (24.40, -76.40), (23.50, -75.50), 0.5),
    ("Bahamas: the Abacos to Nassau", (26.20, -77.00), (25.15, -77.35), 0.5),
    ("Azores: Terceira to Sao Miguel", (38.70, -27.60), (37.60, -25.90), 1.0),
    ("Azores: Faial to Graciosa", (38.40, -28.90), (38.80, -27.00), 0.5),
    ("Azores: Flores to Faial", (39.50, -31.30), (38.35, -28.80), 1.0),
    ("Tahiti to Moorea", (-17.45, -149.65), (-17.60, -149.95), 0.3),
    ("Tahiti to Tonga", (-17.40, -149.60), (-20.90, -175.20), 2.0),
    ("Tonga: Vava'u to Ha'apai", (-18.60, -174.10), (-19.80, -174.50), 0.5),
    ("Canaries: Tenerife to Gran Canaria", (28.00, -16.90), (28.10, -15.30), 1.0),
    ("Canaries: La Palma to Gran Canaria", (28.70, -18.15), (27.90, -15.30), 1.0),
    ("Grenadines: Grenada to St Vincent", (12.60, -61.60), (13.30, -61.00), 0.5),
]


def check(name, ok, detail=""):
    global failed
    print(("ok    " if ok else "FAIL  ") + name + (("  " + detail) if detail else ""))
    if not ok:
        failed += 1


def box(a, b, pad):
    return (min(a[0], b[0]) - pad, min(a[1], b[1]) - pad,
            max(a[0], b[0]) + pad, max(a[1], b[1]) + pad)


def shoreline(s, w, n, e):
    """GMT's full-resolution shoreline pieces in the box: lists of (lon, lat)."""
    out = subprocess.run(["gmt", "coast", "-R%g/%g/%g/%g" % (w, e, s, n), "-Df", "-W", "-M"],
                         capture_output=True, text=True, check=True).stdout
    pieces, cur = [], []
    for line in out.splitlines():
        if line.startswith(">"):
            if len(cur) > 1:
                pieces.append(cur)
            cur = []
        elif line.strip():
            x, y = line.split()[:2]
            cur.append((float(x), float(y)))
    if len(cur) > 1:
        pieces.append(cur)
    return [(min(p[0] for p in c), min(p[1] for p in c), max(p[0] for p in c),
             max(p[1] for p in c), c) for c in pieces]


def project(pts, lat0):
    k = math.cos(math.radians(lat0))
    return [(lon * 60.0 * k, lat * 60.0) for lon, lat in pts]


def leg_findings(a, b, coast, margin):
    """(crosses, nearest nm) of the leg a-b (lon, lat) against the shoreline."""
    lat0 = (a[1] + b[1]) / 2
    pad = margin / 60.0 / max(0.2, math.cos(math.radians(lat0))) + 0.01
    w, e = min(a[0], b[0]) - pad, max(a[0], b[0]) + pad
    s, n = min(a[1], b[1]) - pad, max(a[1], b[1]) + pad
    leg = LineString(project([a, b], lat0))
    crosses, nearest = False, math.inf
    for x0, y0, x1, y1, c in coast:
        if x1 < w or x0 > e or y1 < s or y0 > n:
            continue
        line = LineString(project(c, lat0))
        if leg.intersects(line):
            crosses = True
        nearest = min(nearest, leg.distance(line))
    return crosses, nearest


detoured = 0
for name, a, b, margin in ROUTES:
    s, w, n, e = box(a, b, 4.0)
    grib = os.path.join(T, "calm.grb2")
    hours = int(math.ceil(1.8 * 60 * math.degrees(math.acos(min(1.0, (
        math.sin(math.radians(a[0])) * math.sin(math.radians(b[0])) +
        math.cos(math.radians(a[0])) * math.cos(math.radians(b[0])) *
        math.cos(math.radians(b[1] - a[1])))))) / 6.0)) + 24
    times = [DEPART + 6 * 3600 * k for k in range(hours // 6 + 2)]
    route_fields.write(grib, (math.floor(s), math.floor(w), math.ceil(n), math.ceil(e), 0.5),
                       times, {"wind": lambda la, lo, t: (0.0, 0.0)})
    out = os.path.join(T, "route.geojson")
    p = subprocess.run([SEAWX, "route", "--no-storms", "--grib", grib, "--from", "%g,%g" % a, "--to",
                        "%g,%g" % b, "--depart", "2023-11-15T00:00Z", "--speed", "6",
                        "--land-margin", str(margin), "--geojson", out, "-q"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        check(name + ": a route", False, p.stderr.strip())
        continue
    with open(out) as f:
        line = [ft["geometry"]["coordinates"] for ft in json.load(f)["features"]]
    cs, cw, cn, ce = box(a, b, 1.0)
    coast = shoreline(cs, cw, cn, ce)
    bad, nearest = 0, math.inf
    for p0, p1 in zip(line, line[1:]):
        crosses, d = leg_findings(tuple(p0), tuple(p1), coast, margin)
        bad += crosses or d < margin * 0.99
        nearest = min(nearest, d)
    straight, _ = leg_findings((a[1], a[0]), (b[1], b[0]), coast, 0)
    detoured += straight
    check("%s: %d legs, none across land nor within %.1f nm (nearest %.2f nm)%s" %
          (name, len(line) - 1, margin, nearest, "; the straight line crosses land" if straight
           else ""), bad == 0 and len(line) > 1)
check("%d of %d straight lines cross land (at least 12)" % (detoured, len(ROUTES)), detoured >= 12)
print("%d failed" % failed)
sys.exit(1 if failed else 0)
