"""seawx route against an independent reference, through the stand-in's
forecast (a GRIB2 file seawx grib fetched from seawx-sim, read here with
ecCodes' grib_get_data): on 5 open-water passages of at least 500 nm,

  - the reference: a time-dependent shortest-time search written here, not
    seawx's: Dijkstra over a 0.25 degree mesh with 32 move directions (every
    step (i, j) with |i|, |j| <= 3 and no common factor), each edge sailed
    at the polar's speed (route_polar.py) in the wind interpolated in space
    and time, marched an hour at a time; tacking and gybing come from the
    mesh's own zigzags. seawx's time must be at most 1 % longer.
  - the replay: seawx's route (its points, times dropped) sailed here
    through the same forecast, each leg in the time the convex hull of the
    polar takes at the wind of its start and its end; the arrival must be
    within 1 % of seawx's.

usage: route_reference.py SEAWX GRIB WORKDIR DEPART|first
"""
import json
import math
import os
import subprocess
import sys
from datetime import datetime, timezone
import heapq

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from route_geo import bearing, check, finish, gc, ts  # noqa: E402
from route_polar import polar_file, polar_speed  # noqa: E402

SEAWX, GRIB, T, DEPART = sys.argv[1:5]
KN = 3600.0 / 1852.0  # knots per m/s
MESH = 0.25
# open water (no island within a degree of the great circle), within the
# stand-in's north Atlantic files, each at least 500 nm on the great circle
PASSAGES = [((42.0, -14.0), (36.0, -22.0)), ((43.0, -28.0), (37.0, -20.0)),
            ((40.0, -20.0), (32.0, -24.0)), ((34.0, -12.0), (42.0, -18.0)),
            ((44.0, -21.0), (37.0, -14.0))]


# ---- the forecast, as ecCodes reads it ----
def read_grib(path):
    out = subprocess.run(["grib_get_data", "-p", "validityDate,validityTime,shortName", path],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    fields = {}
    for line in out:
        p = line.split()
        if len(p) != 6 or p[0] == "Latitude":
            continue
        t = datetime.strptime(p[3] + p[4].zfill(4), "%Y%m%d%H%M").replace(tzinfo=timezone.utc)
        fields.setdefault((t.timestamp(), p[5]), []).append(
            (float(p[0]), (float(p[1]) + 180) % 360 - 180, float(p[2])))
    times = sorted({t for t, _ in fields})
    lats = sorted({la for la, _, _ in fields[(times[0], "10u")]})
    lons = sorted({lo for _, lo, _ in fields[(times[0], "10u")]})
    ji = {la: j for j, la in enumerate(lats)}
    ii = {lo: i for i, lo in enumerate(lons)}
    u = np.full((len(times), len(lats), len(lons)), np.nan)
    v = np.full_like(u, np.nan)
    for k, t in enumerate(times):
        for name, arr in (("10u", u), ("10v", v)):
            for la, lo, val in fields[(t, name)]:
                arr[k, ji[la], ii[lo]] = val * KN
    return np.array(times), np.array(lats), np.array(lons), u, v


TIMES, LATS, LONS, U, V = read_grib(GRIB)
STEP = LATS[1] - LATS[0]


def wind(lat, lon, t):
    """(u, v) in knots: bilinear in space, linear in time."""
    fk = (t - TIMES[0]) / (TIMES[1] - TIMES[0])
    k = min(max(int(math.floor(fk)), 0), len(TIMES) - 2)
    fk -= k
    fj = (lat - LATS[0]) / STEP
    fi = (lon - LONS[0]) / STEP
    j, i = min(max(int(fj), 0), len(LATS) - 2), min(max(int(fi), 0), len(LONS) - 2)
    fj, fi = min(max(fj - j, 0.0), 1.0), min(max(fi - i, 0.0), 1.0)
    res = []
    for a in (U, V):
        c = a[k:k + 2, j:j + 2, i:i + 2]
        s = c[:, 0, 0] * (1 - fj) * (1 - fi) + c[:, 0, 1] * (1 - fj) * fi + \
            c[:, 1, 0] * fj * (1 - fi) + c[:, 1, 1] * fj * fi
        res.append(s[0] * (1 - fk) + s[1] * fk)
    return res


def twa(w, hdg):
    """The true wind's speed and angle to a heading (degrees)."""
    tws = math.hypot(w[0], w[1])
    frm = math.degrees(math.atan2(-w[0], -w[1]))
    return tws, abs((hdg - frm + 180) % 360 - 180)


# ---- the reference: a time-dependent Dijkstra over a mesh ----
MOVES = [(i, j) for i in range(-3, 4) for j in range(-3, 4)
         if (i, j) != (0, 0) and math.gcd(abs(i), abs(j)) == 1]


def sail_edge(p, q, t):
    """The arrival along the great circle p to q leaving at t: marched in
    steps of at most an hour, each at the polar's speed in the wind of its
    start (the heading's angle to it); inf in a calm."""
    d, hdg = gc(p, q), bearing(p, q)
    done = 0.0
    while done < d:
        f = done / d
        v = polar_speed(*twa(wind(p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1]), t), hdg))
        if v < 0.05:
            return math.inf
        step = min(1.0, (d - done) / v)
        done += v * step
        t += step * 3600
    return t


def reference(a, b, t0):
    # a degree round the passage, within the forecast's grid
    s = max(min(a[0], b[0]) - 1.0, min(a[0], b[0]) - MESH * math.floor((min(a[0], b[0]) - LATS[0]) / MESH))
    n = min(max(a[0], b[0]) + 1.0, LATS[-1])
    w = max(min(a[1], b[1]) - 1.0, min(a[1], b[1]) - MESH * math.floor((min(a[1], b[1]) - LONS[0]) / MESH))
    e = min(max(a[1], b[1]) + 1.0, LONS[-1])
    nj, ni = int(round((n - s) / MESH)) + 1, int(round((e - w) / MESH)) + 1
    node = lambda j, i: (s + j * MESH, w + i * MESH)  # noqa: E731
    start = (int(round((a[0] - s) / MESH)), int(round((a[1] - w) / MESH)))
    goal = (int(round((b[0] - s) / MESH)), int(round((b[1] - w) / MESH)))
    best = {start: t0}
    heap = [(t0, start)]
    while heap:
        t, (j, i) = heapq.heappop(heap)
        if (j, i) == goal:
            return (t - t0) / 3600
        if t > best.get((j, i), math.inf):
            continue
        p = node(j, i)
        for dj, di in MOVES:
            jj, ii = j + dj, i + di
            if not (0 <= jj < nj and 0 <= ii < ni):
                continue
            q = node(jj, ii)
            arr = sail_edge(p, q, t)
            if arr < best.get((jj, ii), math.inf):
                best[(jj, ii)] = arr
                heapq.heappush(heap, (arr, (jj, ii)))
    return math.inf


# ---- the replay: seawx's route sailed through the same forecast ----
ANG = np.radians(np.arange(0, 360, 1.0))
NORMALS = np.stack([np.sin(np.radians(np.arange(0, 360, 0.5))),
                    np.cos(np.radians(np.arange(0, 360, 0.5)))], 1)


def hull_time(d, w):
    """Hours to cover the displacement d (east, north nm) through water with
    the convex hull of the polar at wind w: the largest n.d / h(n)."""
    tws = math.hypot(*w)
    frm = math.atan2(-w[0], -w[1])
    ang = np.degrees(np.abs((ANG - frm + math.pi) % (2 * math.pi) - math.pi))
    spd = np.array([polar_speed(tws, x) for x in ang])
    pts = np.stack([spd * np.sin(ANG), spd * np.cos(ANG)], 1)
    h = (NORMALS @ pts.T).max(1)
    nd = NORMALS @ np.array(d)
    ok = nd > 0
    if np.any(h[ok] <= 0):
        return math.inf
    return float((nd[ok] / h[ok]).max())


def replay(points, t0):
    t = t0
    for p, q in zip(points, points[1:]):
        dist, brg = gc(p, q), math.radians(bearing(p, q))
        d = (dist * math.sin(brg), dist * math.cos(brg))
        h0 = hull_time(d, wind(p[0], p[1], t))
        w0, w1 = wind(p[0], p[1], t), wind(q[0], q[1], t + h0 * 3600)
        t += hull_time(d, ((w0[0] + w1[0]) / 2, (w0[1] + w1[1]) / 2)) * 3600
    return t


polar = os.path.join(T, "ref_polar.txt")
polar_file(polar)
if DEPART == "first":  # the forecast's first valid time
    DEPART = datetime.fromtimestamp(TIMES[0], timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
t0 = ts(DEPART)
for k, (a, b) in enumerate(PASSAGES):
    name = "passage %d, %.1f %.1f to %.1f %.1f (%.0f nm)" % (k + 1, a[0], a[1], b[0], b[1], gc(a, b))
    check(name + ": at least 500 nm", gc(a, b) >= 500)
    out = os.path.join(T, "ref%d" % k)
    p = subprocess.run([SEAWX, "route", "--grib", GRIB, "--from", "%g,%g" % a, "--to", "%g,%g" % b,
                        "--polar", polar, "--depart", DEPART, "--no-storms", "--coastline", "c",
                        "--json", out + ".json", "--geojson", out + ".geojson", "-q"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        check(name + ": seawx route exits 0", False, p.stderr.strip())
        continue
    got = json.load(open(out + ".json"))["hours"]
    ref = reference(a, b, t0)
    check("%s: seawx %.2f h, reference %.2f h (%+.2f %%)" % (name, got, ref, 100 * (got / ref - 1)),
          got <= ref * 1.01)
    pts = [(f["geometry"]["coordinates"][1], f["geometry"]["coordinates"][0])
           for f in json.load(open(out + ".geojson"))["features"]]
    back = (replay(pts, t0) - t0) / 3600
    check("%s: replayed through the forecast, %.2f h (%+.2f %% of seawx's)" % (name, back, 100 * (back / got - 1)),
          abs(back / got - 1) <= 0.01)
finish()
