"""py_convert.py: the obvious Python route from a /storm/json answer to GeoJSON,
for bench/storms/run.sh: json.load the whole answer, build every feature as
dicts (track LineString, track and forecast points, forecast line, 34/50/64 kt
quadrant polygons on the sphere with the same 15 degree steps), json.dump.
No antimeridian cutting: it does less than seawx, so the comparison flatters it."""
import json, math, sys

R, NM = 6371008.8, 1852.0
COLORS = {"TD": "#5ebaff", "TS": "#00faf4", "SS": "#00faf4", "TC1": "#ffffcc", "TC2": "#ffe775",
          "TC3": "#ffc140", "TC4": "#ff8f20", "TC5": "#ff6060"}

def ring(lat, lon, r):
    out = []
    la, lo = math.radians(lat), math.radians(lon)
    for q, key in enumerate(("ne", "se", "sw", "nw")):
        rad = r.get(key) or 0
        if rad <= 0:
            out.append([round(lon, 6), round(lat, 6)])
            continue
        d = rad * NM / R
        for k in range(7):
            b = math.radians(q * 90 + k * 15)
            la2 = math.asin(math.sin(la) * math.cos(d) + math.cos(la) * math.sin(d) * math.cos(b))
            lo2 = lo + math.atan2(math.sin(b) * math.sin(d) * math.cos(la), math.cos(d) - math.sin(la) * math.sin(la2))
            out.append([round(math.degrees(lo2), 6), round(math.degrees(la2), 6)])
    out.append(out[0])
    return out[::-1]

def main(src, dst):
    storms = json.load(open(src))
    feats = []
    for s in storms:
        obs, fc = s.get("observed_track") or [], s.get("forecast_track") or []
        summary = {k: v for k, v in s.items() if k not in ("observed_track", "forecast_track")}
        title = s.get("storm_name") or s["atcf_id"]
        coords = [[round(p["lon"], 6), round(p["lat"], 6)] for p in obs]
        geom = {"type": "LineString", "coordinates": coords} if len(coords) > 1 else \
               ({"type": "Point", "coordinates": coords[0]} if coords else None)
        feats.append({"type": "Feature", "properties": dict(summary, kind="storm", title=title,
                      stroke=COLORS.get(s.get("max_development_category"), "#c0c0c0")), "geometry": geom})
        for kind, track in (("track_point", obs), ("forecast_point", fc)):
            for i, p in enumerate(track):
                props = {k: v for k, v in p.items() if k != "wind_extent_radii"}
                props.update(kind=kind, atcf_id=s["atcf_id"], title=title, seq=i)
                feats.append({"type": "Feature", "properties": props,
                              "geometry": {"type": "Point", "coordinates": [round(p["lon"], 6), round(p["lat"], 6)]}})
        if fc:
            line = ([coords[-1]] if coords else []) + [[round(p["lon"], 6), round(p["lat"], 6)] for p in fc]
            feats.append({"type": "Feature", "properties": {"kind": "forecast_line", "atcf_id": s["atcf_id"]},
                          "geometry": {"type": "LineString", "coordinates": line}})
        for track in (obs, fc):
            for p in track:
                for key, r in (p.get("wind_extent_radii") or {}).items():
                    if any((r.get(q) or 0) > 0 for q in ("ne", "se", "sw", "nw")):
                        feats.append({"type": "Feature", "properties": dict(r, kind="wind_radii", atcf_id=s["atcf_id"], threshold=key),
                                      "geometry": {"type": "Polygon", "coordinates": [ring(p["lat"], p["lon"], r)]}})
    json.dump({"type": "FeatureCollection", "features": feats}, open(dst, "w"), separators=(",", ":"))

main(sys.argv[1], sys.argv[2])
