"""Independent checks of `seawx storms` danger products and route risk, for
tests/integration/test_storms_danger.sh. Nothing here calls seawx: the storms
are read from the same JSON and every shape is recomputed from its definition
by dense sampling on the sphere (numpy, shapely from Debian's python3-shapely
only to test points against the polygons seawx wrote).

  storms_danger_check.py iou STORMS.json OUT.geojson [CONE_NA_RADII]
      every cone, danger_area and wind_swath feature of OUT against the set of
      points within the radius of the centre at some moment, centre moving on
      the great circle between fixes and radii changing linearly: the
      intersection over union of the two (area-weighted on a grid) >= 0.98.
  storms_danger_check.py risk STORMS.json ROUTE.csv DEPART VMIN VMAX REPORT.json
      closest approach within 1 nm and 10 min of a brute-force sampling of
      ship and storm every minute (both ends of the speed band), and the first
      and last minute inside the 34-kt radii within 2 minutes.
"""
import json
import math
import sys
from datetime import datetime, timezone

import numpy as np
from shapely.geometry import shape
from shapely import vectorized

R_NM = 6371008.8 / 1852.0
NHC = {"NA": [26, 39, 53, 67, 81, 99, 145, 205], "EP": [25, 38, 51, 63, 78, 86, 110, 137]}
CONE_LEADS = [12, 24, 36, 48, 60, 72, 96, 120]
ERR_LEADS, ERRS = [24, 48, 72], [100, 200, 300]


def ts(s):
    if s is None:
        return None
    s = s.replace("Z", "+00:00")
    d = datetime.fromisoformat(s)
    if d.tzinfo is None:
        d = d.replace(tzinfo=timezone.utc)
    return d.timestamp()


def radii(p):
    out = [[0.0] * 4 for _ in range(3)]
    w = p.get("wind_extent_radii") or {}
    for t, key in enumerate(("34kts", "50kts", "64kts")):
        r = w.get(key)
        if not r:
            continue
        for q, k in enumerate(("ne", "se", "sw", "nw")):
            v = r.get(k)
            out[t][q] = float(v) if isinstance(v, (int, float)) and v > 0 else 0.0
    return out


def timeline(s):
    fixes, last = [], None
    for p in s.get("observed_track") or []:
        t = ts(p.get("time"))
        if t is None or (fixes and t <= fixes[-1]["t"]):
            continue
        fixes.append(dict(t=t, lon=p["lon"], lat=p["lat"], fc=False, r=radii(p)))
        last = t
    for p in s.get("forecast_track") or []:
        t = ts(p.get("forecast_time"))
        if t is None or (fixes and t <= fixes[-1]["t"]):
            continue
        h = p.get("forecast_hour")
        lead = float(h) if h is not None else (t - last) / 3600 if last else 0
        fixes.append(dict(t=t, lon=p["lon"], lat=p["lat"], fc=True, lead=lead, r=radii(p)))
    for f in fixes:
        if not f["fc"]:
            f["lead"] = (f["t"] - last) / 3600 if last else float("nan")
    return fixes


def interp_table(leads, vals, h, extend):
    if h <= 0:
        return 0.0
    h0, v0 = 0.0, 0.0
    for L, v in zip(leads, vals):
        if h <= L:
            return v0 + (v - v0) * (h - h0) / (L - h0)
        h0, v0 = L, v
    if not extend:
        return vals[-1]
    slope = (vals[-1] - vals[-2]) / (leads[-1] - leads[-2])
    return vals[-1] + slope * (h - leads[-1])


def vec(lon, lat):
    lon, lat = np.radians(lon), np.radians(lat)
    return np.stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)], -1)


def slerp(a, b, f):
    va, vb = vec(a[0], a[1]), vec(b[0], b[1])
    w = math.acos(max(-1.0, min(1.0, float(np.dot(va, vb)))))
    if w < 1e-12:
        return a
    v = (math.sin((1 - f) * w) * va + math.sin(f * w) * vb) / math.sin(w)
    return (math.degrees(math.atan2(v[1], v[0])), math.degrees(math.asin(max(-1, min(1, v[2])))))


def chain(s, kind, track, thr, cone_na):
    """Sample centres, radii (per quadrant) of a product chain."""
    f = timeline(s)
    if kind == "wind_swath" and track == "observed":
        ch = [x for x in f if not x["fc"]]
    else:
        i = next((k for k, x in enumerate(f) if x["fc"]), None)
        if i is None:
            return []
        ch = f[max(i - 1, 0):]
    basin = "EP" if (s.get("subbasin") == "CP" or s.get("basin") == "EP") else s.get("basin")
    # other basins take the Atlantic defaults; --cone-radii NA:... names the Atlantic only
    table = cone_na if cone_na and basin == "NA" else NHC.get(basin, NHC["NA"])
    rad = []
    for x in ch:
        lead = x["lead"] if x["fc"] else 0.0
        if kind == "wind_swath":
            rad.append(x["r"][thr])
        elif kind == "cone":
            rad.append([interp_table(CONE_LEADS, table, lead, False)] * 4)
        else:
            rad.append([interp_table(ERR_LEADS, ERRS, lead, True) + max(x["r"][0])] * 4)
    out = []
    if len(ch) == 1:
        return [((ch[0]["lon"], ch[0]["lat"]), rad[0])]
    for i in range(len(ch) - 1):
        a, b = (ch[i]["lon"], ch[i]["lat"]), (ch[i + 1]["lon"], ch[i + 1]["lat"])
        # steps of at most a tenth of the smallest radius > 0 of the two ends, and of
        # 1 nm where quadrants differ: the radial edges between them sweep
        # sideways, and sampled shapes would leave a sawtooth of that depth
        rmin = min([r for r in rad[i] + rad[i + 1] if r > 0] or [1.0])
        step = rmin / 10 if len(set(rad[i])) == 1 and len(set(rad[i + 1])) == 1 else min(rmin / 10, 1.0)
        K = max(10, min(600, math.ceil(gc_nm(a, b) / step)))
        for k in range(K + (i == len(ch) - 2)):
            fr = k / K
            c = slerp(a, b, fr)
            out.append((c, [ra + (rb - ra) * fr for ra, rb in zip(rad[i], rad[i + 1])]))
    return out


def truth_mask(samples, glon, glat):
    g = vec(glon, glat)
    inside = np.zeros(glon.shape, bool)
    p2 = np.radians(glat)
    for (clon, clat), r in samples:
        if max(r) <= 0:
            continue
        c = vec(clon, clat)
        d = np.arccos(np.clip(g @ c, -1, 1)) * R_NM
        p1, dl = math.radians(clat), np.radians(glon - clon)
        brg = np.degrees(np.arctan2(np.sin(dl) * np.cos(p2),
                                    math.cos(p1) * np.sin(p2) -
                                    math.sin(p1) * np.cos(p2) * np.cos(dl))) % 360
        q = np.minimum((brg // 90).astype(int), 3)
        rr = np.asarray(r)[q]
        inside |= (d <= rr) & (rr > 0)
    return inside


def unwrap_geom(geom, ref):
    """Parts of a MultiPolygon shifted by 360 to lie near longitude ref."""
    from shapely.affinity import translate
    from shapely.ops import unary_union
    parts = []
    for p in geom.geoms:
        cx = p.representative_point().x
        k = round((ref - cx) / 360)
        parts.append(translate(p, 360 * k, 0) if k else p)
    return unary_union(parts)


def cmd_iou(storms_path, out_path, cone_na=None):
    storms = {s["atcf_id"]: s for s in json.load(open(storms_path))}
    cone_na = [float(x) for x in cone_na.split(",")] if cone_na else None
    feats = [f for f in json.load(open(out_path))["features"]
             if f["properties"]["kind"] in ("cone", "danger_area", "wind_swath")]
    if not feats:
        raise SystemExit("no danger features")
    worst = 1.0
    for f in feats:
        p = f["properties"]
        kind, s = p["kind"], storms[p["atcf_id"]]
        thr = {34: 0, 50: 1, 64: 2}.get(p.get("threshold_kt"), 0)
        samples = chain(s, kind, p.get("track"), thr, cone_na)
        ref = samples[0][0][0]
        got = unwrap_geom(shape(f["geometry"]), ref)
        # the grid: the output's bounds and the samples' reach, unwrapped near ref
        lons = [ref + ((c[0] - ref + 180) % 360) - 180 for c, _ in samples]
        lats = [c[1] for c, _ in samples]
        reach = max(max(r) for _, r in samples) / 60 + 1
        x0, y0, x1, y1 = got.bounds
        x0, x1 = min(x0, min(lons) - reach * 2), max(x1, max(lons) + reach * 2)
        y0, y1 = max(-89, min(y0, min(lats) - reach)), min(89, max(y1, max(lats) + reach))
        gx, gy = np.meshgrid(np.linspace(x0, x1, 200), np.linspace(y0, y1, 200))
        want = truth_mask([((ref + ((c[0] - ref + 180) % 360) - 180, c[1]), r)
                           for c, r in samples], gx, gy)
        have = vectorized.contains(got, gx, gy)
        w = np.cos(np.radians(gy))
        iou = float((w * (want & have)).sum() / (w * (want | have)).sum())
        worst = min(worst, iou)
        crosses = any(abs(x) == 180 for poly in f["geometry"]["coordinates"]
                      for ring in poly for x, _ in ring)
        print(f"{p['atcf_id']} {kind} {p.get('track', '')} {p.get('threshold_kt', '')}: "
              f"IoU {iou:.4f}{' (cut at 180)' if crosses else ''}")
        if iou < 0.98:
            raise SystemExit(f"IoU {iou:.4f} < 0.98 for {p['atcf_id']} {kind}")
    print(f"{len(feats)} features, lowest IoU {worst:.4f}")


def route_points(path):
    pts = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#") or line[0].isalpha():
            continue
        lat, lon = (float(x) for x in line.split(",")[:2])
        pts.append((lon, lat))
    return pts


def gc_nm(a, b):
    return math.acos(max(-1.0, min(1.0, float(np.dot(vec(*a), vec(*b)))))) * R_NM


def ship_at(pts, legs, s):
    for (a, b), L in zip(zip(pts, pts[1:]), legs):
        if s <= L or (a, b) == (pts[-2], pts[-1]):
            return slerp(a, b, min(1.0, s / L) if L else 0)
        s -= L
    return pts[-1]


def cmd_risk(storms_path, route, depart, vmin, vmax, report_path):
    pts = route_points(route)
    legs = [gc_nm(a, b) for a, b in zip(pts, pts[1:])]
    length = sum(legs)
    t_dep, vmin, vmax = ts(depart), float(vmin), float(vmax)
    report = {s["atcf_id"]: s for s in json.load(open(report_path))["storms"]}
    checked = 0
    for s in json.load(open(storms_path)):
        f = timeline(s)
        if not f:
            continue
        t0, t1 = max(f[0]["t"], t_dep), min(f[-1]["t"], t_dep + length / vmin * 3600)
        if t1 < t0:
            assert s["atcf_id"] not in report, s["atcf_id"]
            continue
        best, inside34 = (1e9, None), []
        t, i = t0, 0
        while t <= t1 + 1e-6:
            while i + 1 < len(f) and f[i + 1]["t"] < t:
                i += 1
            a, b = f[i], f[min(i + 1, len(f) - 1)]
            w = (t - a["t"]) / (b["t"] - a["t"]) if b["t"] > a["t"] else 0
            c = slerp((a["lon"], a["lat"]), (b["lon"], b["lat"]), w)
            r34 = [ra + (rb - ra) * w for ra, rb in zip(a["r"][0], b["r"][0])]
            for v in {vmin, vmax}:
                sh = ship_at(pts, legs, min(length, max(0.0, v * (t - t_dep) / 3600)))
                d = gc_nm(c, sh)
                if d < best[0]:
                    best = (d, t)
                p1, p2 = math.radians(c[1]), math.radians(sh[1])
                dl = math.radians(sh[0] - c[0])
                brg = math.degrees(math.atan2(math.sin(dl) * math.cos(p2), math.cos(p1) *
                                              math.sin(p2) - math.sin(p1) * math.cos(p2) *
                                              math.cos(dl))) % 360
                q = min(int(brg // 90), 3)
                if r34[q] > 0 and d <= r34[q]:
                    inside34.append(t)
            t = t + 60 if t < t1 and t + 60 <= t1 else (t1 if t < t1 else t1 + 1)
        rep = report[s["atcf_id"]]
        got_nm, got_t = rep["closest_approach"]["nm"], ts(rep["closest_approach"]["time"])
        print(f"{s['atcf_id']}: closest {got_nm:.2f} nm at {rep['closest_approach']['time']}; "
              f"brute force {best[0]:.2f} nm, {abs(got_t - best[1]) / 60:.0f} min apart")
        if abs(got_nm - best[0]) > 1 or abs(got_t - best[1]) > 600:
            raise SystemExit(f"{s['atcf_id']}: closest approach off")
        r = rep["34kt"]
        if inside34:
            if not r or abs(ts(r["first"]) - min(inside34)) > 120 or \
                    abs(ts(r["last"]) - max(inside34)) > 120:
                raise SystemExit(f"{s['atcf_id']}: 34-kt interval {r} vs brute force "
                                 f"{min(inside34)}..{max(inside34)}")
            print(f"  inside 34 kt {r['first']}..{r['last']} (brute force agrees)")
        elif r:
            raise SystemExit(f"{s['atcf_id']}: reported inside 34 kt, brute force never")
        checked += 1
    print(f"{checked} storms checked")


if __name__ == "__main__":
    cmds = {"iou": cmd_iou, "risk": cmd_risk}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    cmds[sys.argv[1]](*sys.argv[2:])
