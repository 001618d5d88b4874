"""py_danger.py: the obvious Python route to storm cones, 1-2-3 danger areas
and wind swaths, for bench/storms/danger.sh: json.load the /storm/json
answer; for each storm and product, geodesic circles or quadrant sectors at
every fix (10 degree steps, as seawx), the convex hull of each consecutive
pair (shapely), their unary_union, json.dump. No antimeridian cutting and no
runs: it does less than seawx, so the comparison flatters it."""
import json, math, sys
from shapely.geometry import MultiPoint, mapping
from shapely.ops import unary_union

R, NM = 6371008.8, 1852.0
CONE = [26, 39, 53, 67, 81, 99, 145, 205]
LEADS = [12, 24, 36, 48, 60, 72, 96, 120]


def dest(lat, lon, b, r_nm):
    la, lo, d = math.radians(lat), math.radians(lon), r_nm * NM / R
    la2 = math.asin(math.sin(la) * math.cos(d) + math.cos(la) * math.sin(d) * math.cos(b))
    lo2 = lo + math.atan2(math.sin(b) * math.sin(d) * math.cos(la),
                          math.cos(d) - math.sin(la) * math.sin(la2))
    return (math.degrees(lo2), math.degrees(la2))


def shape_pts(lat, lon, r, q):
    if r <= 0:
        return [(lon, lat)]
    if q < 0:
        return [dest(lat, lon, math.radians(k * 10), r) for k in range(36)]
    return [(lon, lat)] + [dest(lat, lon, math.radians(q * 90 + k * 10), r) for k in range(10)]


def chain(fixes, radii, q):
    hulls = []
    for i in range(len(fixes) - 1):
        (la1, lo1), (la2, lo2) = fixes[i], fixes[i + 1]
        if radii[i] <= 0 and radii[i + 1] <= 0:
            continue
        pts = shape_pts(la1, lo1, radii[i], q) + shape_pts(la2, lo2, radii[i + 1], q)
        hulls.append(MultiPoint(pts).convex_hull)
    return hulls


def cone_r(h):
    h0, v0 = 0, 0
    for L, v in zip(LEADS, CONE):
        if h <= L:
            return v0 + (v - v0) * (h - h0) / (L - h0)
        h0, v0 = L, v
    return CONE[-1]


def radius(p, key, q):
    r = ((p.get("wind_extent_radii") or {}).get(key) or {}).get(("ne", "se", "sw", "nw")[q])
    return r if isinstance(r, (int, float)) and r > 0 else 0


def main(src, dst):
    out = []
    for s in json.load(open(src)):
        obs, fc = s.get("observed_track") or [], s.get("forecast_track") or []
        tracks = {"observed": obs}
        if fc:
            tracks["forecast"] = obs[-1:] + fc
            fx = [(p["lat"], p["lon"]) for p in tracks["forecast"]]
            leads = [0] + [p.get("forecast_hour") or 0 for p in fc]
            r34 = [max(radius(p, "34kts", q) for q in range(4)) for p in tracks["forecast"]]
            for kind, rr in (("cone", [cone_r(h) for h in leads]),
                             ("danger_area", [min(h, 72) / 24 * 100 + max(0, h - 72) / 24 * 100
                                              + r for h, r in zip(leads, r34)])):
                u = unary_union(chain(fx, rr, -1))
                out.append({"type": "Feature", "properties": {"kind": kind, "atcf_id": s["atcf_id"]},
                            "geometry": mapping(u)})
        for name, tr in tracks.items():
            fx = [(p["lat"], p["lon"]) for p in tr]
            for key in ("34kts", "50kts", "64kts"):
                hulls = []
                for q in range(4):
                    hulls += chain(fx, [radius(p, key, q) for p in tr], q)
                if hulls:
                    out.append({"type": "Feature",
                                "properties": {"kind": "wind_swath", "atcf_id": s["atcf_id"],
                                               "track": name, "threshold_kt": int(key[:2])},
                                "geometry": mapping(unary_union(hulls))})
    json.dump({"type": "FeatureCollection", "features": out}, open(dst, "w"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
