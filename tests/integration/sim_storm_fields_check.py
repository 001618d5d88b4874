#!/usr/bin/python3
"""sim_storm_fields_check.py: a storm's advisory against a forecast file's fields.

Usage: sim_storm_fields_check.py STORM_JSON VALID_ISO BASIC.grib2 MARITIME.grib2 OUT_NODES
       sim_storm_fields_check.py --points NODES BASIC.grib2 MARITIME.grib2 VALID_ISO P1.json ...
       sim_storm_fields_check.py --calm BASIC.grib2

The storm's state at the valid time is interpolated here, linearly between the
fixes around it (observed track, then the forecast track): centre, maximum
wind, pressure and the 34 kt radius of each quadrant. The files are read with
ecCodes' grib_get_data. Distances are great-circle, in nautical miles. Each
check prints one line; the exit status is the number of failed checks.
"""
import datetime
import json
import math
import subprocess
import sys

import numpy as np

KT = 0.514444  # m/s per knot
R_NM = 3440.065  # earth radius, nm
QUADS = ("ne", "se", "sw", "nw")
failed = 0


def say(ok, what):
    global failed
    failed += 0 if ok else 1
    print(("ok   " if ok else "FAIL ") + what)


def parse_time(s):
    s = s.replace("+00:00", "").rstrip("Z")
    return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)


def fixes(storm):
    out = []
    for p in storm["observed_track"]:
        out.append((parse_time(p["time"]), p))
    for p in storm["forecast_track"]:
        t = parse_time(p["forecast_time"])
        if not out or t > out[-1][0]:
            out.append((t, p))
    return out


def state(storm, valid):
    fx = fixes(storm)
    for (t0, a), (t1, b) in zip(fx, fx[1:]):
        if t0 <= valid <= t1:
            f = (valid - t0).total_seconds() / (t1 - t0).total_seconds()
            lerp = lambda x, y: x + f * (y - x)
            dlon = (b["lon"] - a["lon"] + 180) % 360 - 180
            r34 = {}
            for q in QUADS:
                ra = a["wind_extent_radii"]["34kts"][q]
                rb = b["wind_extent_radii"]["34kts"][q]
                r34[q] = lerp(ra, rb)
            mslp = None
            if a["min_mslp"] is not None and b["min_mslp"] is not None:
                mslp = lerp(a["min_mslp"], b["min_mslp"])
            return {"lat": lerp(a["lat"], b["lat"]), "lon": a["lon"] + f * dlon,
                    "wind": lerp(a["max_sustained_wind"], b["max_sustained_wind"]),
                    "mslp": mslp, "r34": r34}
    raise SystemExit("the valid time is outside the storm's track")


def read(path, short_name):
    out = subprocess.run(["grib_get_data", "-F", "%.10g", "-w", "shortName=" + short_name, path],
                         check=True, capture_output=True, text=True).stdout.split("\n")
    rows = [l.split() for l in out[1:] if l.strip()]
    a = np.array([[float(x) for x in r] for r in rows])
    lat, lon, v = a[:, 0], (a[:, 1] + 180) % 360 - 180, a[:, 2]
    lats, lons = np.unique(lat), np.unique(lon)
    grid = np.full((len(lats), len(lons)), np.nan)
    grid[np.searchsorted(lats, lat), np.searchsorted(lons, lon)] = np.where(v == 9999, np.nan, v)
    return lats, lons, grid


def dest(lat, lon, bearing, d):
    """The point d nm from (lat, lon) along bearing (degrees), great circle."""
    p1, l1, b, a = math.radians(lat), math.radians(lon), math.radians(bearing), d / R_NM
    p2 = math.asin(math.sin(p1) * math.cos(a) + math.cos(p1) * math.sin(a) * math.cos(b))
    l2 = l1 + math.atan2(math.sin(b) * math.sin(a) * math.cos(p1),
                         math.cos(a) - math.sin(p1) * math.sin(p2))
    return math.degrees(p2), (math.degrees(l2) + 180) % 360 - 180


def dist_bearing(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    c = math.sin(p1) * math.sin(p2) + math.cos(p1) * math.cos(p2) * math.cos(dl)
    d = math.acos(max(-1, min(1, c))) * R_NM
    b = math.atan2(math.sin(dl) * math.cos(p2),
                   math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl))
    return d, math.degrees(b) % 360


def bilinear(field, lat, lon):
    lats, lons, g = field
    dx = lons[1] - lons[0]
    j = np.searchsorted(lats, lat) - 1
    i = int(math.floor((lon - lons[0]) / dx))
    if len(lons) * dx >= 360 - 1e-6:  # a global grid: across 180 too
        i %= len(lons)
    i1 = (i + 1) % len(lons)
    fy = (lat - lats[j]) / (lats[j + 1] - lats[j])
    fx = ((lon - lons[i]) % 360) / dx
    return ((1 - fy) * ((1 - fx) * g[j, i] + fx * g[j, i1]) +
            fy * ((1 - fx) * g[j + 1, i] + fx * g[j + 1, i1]))


def nodes_within(field, lat, lon, d):
    lats, lons, g = field
    out = []
    for j, a in enumerate(lats):
        if abs(a - lat) * 60 > d:
            continue
        for i, o in enumerate(lons):
            r, b = dist_bearing(lat, lon, a, o)
            if r <= d:
                out.append((r, b, a, o, g[j, i]))
    return out


def storm_checks(storm_json, valid_iso, basic, maritime, nodes_out):
    storm = json.load(open(storm_json))[0]
    s = state(storm, parse_time(valid_iso))
    print("# %s at %s: %.3f %.3f, %.1f kt, %s hPa, r34 %s" % (
        storm["storm_name"], valid_iso, s["lat"], s["lon"], s["wind"], s["mslp"],
        {q: round(r, 1) for q, r in s["r34"].items()}))
    u, v = read(basic, "10u"), read(basic, "10v")
    ws = (u[0], u[1], np.hypot(u[2], v[2]))
    p = read(basic, "prmsl")
    gust, swh = read(basic, "i10fg"), read(maritime, "swh")
    kt = lambda x: x / KT
    for k, q in enumerate(QUADS):
        r34 = s["r34"][q]
        at = kt(bilinear(ws, *dest(s["lat"], s["lon"], 45 + 90 * k, r34)))
        say(abs(at - 34) <= 0.15 * 34, "%s: %.1f kt at the 34 kt radius (%.0f nm)" % (q, at, r34))
        half = kt(bilinear(ws, *dest(s["lat"], s["lon"], 45 + 90 * k, r34 / 2)))
        say(half > 34, "%s: %.1f kt at half the radius" % (q, half))
        out = kt(bilinear(ws, *dest(s["lat"], s["lon"], 45 + 90 * k, r34 + 200)))
        say(out < 34, "%s: %.1f kt 200 nm beyond the radius" % (q, out))
    near = nodes_within(ws, s["lat"], s["lon"], 100)
    top = kt(max(n[4] for n in near))
    say(abs(top - s["wind"]) <= 0.2 * s["wind"],
        "the fastest wind within 100 nm: %.1f kt (advisory %.1f)" % (top, s["wind"]))
    gtop = kt(np.nanmax([n[4] for n in nodes_within(gust, s["lat"], s["lon"], 100)]))
    say(gtop >= 1.1 * top, "gusts within 100 nm up to %.1f kt" % gtop)
    wtop = np.nanmax([n[4] for n in nodes_within(swh, s["lat"], s["lon"], 100)])
    say(8 <= wtop <= 16, "significant wave height within 100 nm up to %.1f m" % wtop)
    if s["mslp"] is not None:
        centre = min(nodes_within(p, s["lat"], s["lon"], 20), key=lambda n: n[0])
        say(abs(centre[4] / 100 - s["mslp"]) <= 10,
            "prmsl %.1f hPa at the node %.1f nm from the centre (advisory %.1f)" % (
                centre[4] / 100, centre[0], s["mslp"]))
    # cyclonic: r x V > 0 north of the equator, < 0 south, at 30..80 nm
    sign = 1 if s["lat"] >= 0 else -1
    cross = []
    for r, b, a, o, _ in nodes_within(u, s["lat"], s["lon"], 80):
        if r < 30:
            continue
        x, y = r * math.sin(math.radians(b)), r * math.cos(math.radians(b))
        uu, vv = bilinear(u, a, o), bilinear(v, a, o)
        cross.append(sign * (x * vv - y * uu))
    share = sum(c > 0 for c in cross) / len(cross)
    say(share >= 0.95, "cyclonic at %.0f %% of %d nodes 30-80 nm out" % (100 * share, len(cross)))
    # the nodes the point forecasts are asked at: the fastest one, one near NE r34
    top_node = max(near, key=lambda n: n[4])
    ne = dest(s["lat"], s["lon"], 45, s["r34"]["ne"])
    ne_node = min(nodes_within(ws, ne[0], ne[1], 20), key=lambda n: n[0])
    with open(nodes_out, "w") as f:
        for n in (top_node, ne_node):
            f.write("%.4f %.4f\n" % (n[2], n[3]))


def point_checks(nodes, basic, maritime, valid_iso, points):
    # within a packing step: 10^-decimalScaleFactor of the files
    pairs = [("10u", basic, "eastward_wind", 0.1), ("10v", basic, "northward_wind", 0.1),
             ("i10fg", basic, "wind_speed_of_gust", 0.1),
             ("prmsl", basic, "air_pressure_at_mean_sea_level", 10),
             ("swh", maritime, "sea_surface_wave_significant_height", 0.01)]
    fields = {sn: read(path, sn) for sn, path, _, _ in pairs}
    valid = parse_time(valid_iso)
    for (lat, lon), pt in zip((map(float, l.split()) for l in open(nodes)), points):
        rec = [r for r in json.load(open(pt))["data"] if parse_time(r["valid_time"]) == valid]
        say(len(rec) == 1, "%s: a record at %s" % (pt, valid_iso))
        if len(rec) != 1:
            continue
        for sn, _, name, tol in pairs:
            lats, lons, g = fields[sn]
            node = g[np.argmin(abs(lats - lat)), np.argmin(abs(lons - lon))]
            got = rec[0][name]
            say(got is not None and abs(got - node) <= tol + 1e-6 * abs(node),
                "%s at %.2f %.2f: point %s, file %.3f" % (name, lat, lon, got, node))


def calm_checks(basic):
    u, v = read(basic, "10u"), read(basic, "10v")
    top = np.nanmax(np.hypot(u[2], v[2])) / KT
    low = np.nanmin(read(basic, "prmsl")[2]) / 100
    say(top < 34, "no storm: the fastest wind in the file %.1f kt" % top)
    say(low > 985, "no storm: the lowest pressure in the file %.1f hPa" % low)


if __name__ == "__main__":
    if sys.argv[1] == "--points":
        point_checks(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:])
    elif sys.argv[1] == "--calm":
        calm_checks(sys.argv[2])
    else:
        storm_checks(*sys.argv[1:6])
    sys.exit(min(failed, 100))
