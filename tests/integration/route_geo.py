"""route_geo.py: what the route tests share, written apart from lib/: the
check line and its count, great-circle distance, bearing and interpolation on
the sphere (radius 6,371,008.8 m, as the tests' answers are computed), ISO
times, and a storm answer (/storm/json) written from a few fixes."""
import datetime
import math
import sys

R_NM = 6371008.8 / 1852.0
failed = 0


def check(name, ok, detail=""):
    """One line per check: ok or FAIL, the name and what was seen."""
    global failed
    print(("ok    " if ok else "FAIL  ") + name + (("  " + detail) if detail else ""))
    if not ok:
        failed += 1


def finish():
    """The count of failures, and the exit: 1 when any check failed."""
    print("%d failed" % failed)
    sys.exit(1 if failed else 0)


def gc(a, b):
    """Great-circle distance in nm between (lat, lon) a and b (haversine)."""
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * R_NM * math.asin(min(1.0, math.sqrt(h)))


def bearing(a, b):
    """Initial great-circle bearing from a to b, degrees true."""
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    y = math.sin(lo2 - lo1) * math.cos(la2)
    x = math.cos(la1) * math.sin(la2) - math.sin(la1) * math.cos(la2) * math.cos(lo2 - lo1)
    return math.degrees(math.atan2(y, x)) % 360


def slerp(a, b, f):
    """The point a fraction f of the way from a to b along the great circle."""
    def vec(p):
        la, lo = math.radians(p[0]), math.radians(p[1])
        return (math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la))
    va, vb = vec(a), vec(b)
    w = math.acos(max(-1.0, min(1.0, sum(x * y for x, y in zip(va, vb)))))
    if w < 1e-12:
        return a
    k1, k2 = math.sin((1 - f) * w) / math.sin(w), math.sin(f * w) / math.sin(w)
    v = [k1 * x + k2 * y for x, y in zip(va, vb)]
    return (math.degrees(math.asin(max(-1, min(1, v[2])))), math.degrees(math.atan2(v[1], v[0])))


def iso(t):
    """Unix seconds as ISO 8601 UTC."""
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def ts(s):
    """ISO 8601 (Z) as Unix seconds."""
    return datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()


def storm_json(sid, name, fixes, t0):
    """A /storm/json answer of one active storm. fixes: (hours from t0, lat,
    lon, (ne, se, sw, nw) 34 kt radii); hours <= 0 are observed, the rest
    forecast."""
    obs, fc = [], []
    for h, lat, lon, r in fixes:
        p = {"lat": lat, "lon": lon, "category_code": "TC2", "max_sustained_wind": 90,
             "wind_extent_radii": {"34kts": dict(zip(("ne", "se", "sw", "nw"), r), wind_speed=34)}}
        if h <= 0:
            p["time"] = iso(t0 + h * 3600)
            obs.append(p)
        else:
            p["forecast_time"] = iso(t0 + h * 3600)
            p["forecast_hour"] = h
            fc.append(p)
    return {"atcf_id": sid, "storm_name": name, "basin": "NA", "season": 2024, "is_active": True,
            "observed_track": obs, "forecast_track": fc}
