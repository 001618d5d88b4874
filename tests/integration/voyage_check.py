"""voyage_check.py: independent check of a voyage seeded by `seawx seed`.

Written apart from lib/: distances with the haversine formula, points along
a leg with the navigator's destination formula, the windows of the valid
times from their definition, tiles from the Web Mercator formulas.

  voyage_check.py LAYERS_JSON ROUTE_CSV GLOB Z0 Z1 PAIRS band DEPART VMIN VMAX
  voyage_check.py LAYERS_JSON ROUTE_CSV GLOB Z0 Z1 PAIRS timed
  voyage_check.py package PKG_DIR ROUTE_CSV Z0 Z1 PAIRS DEPART VMIN VMAX

LAYERS_JSON is `seawx layers --json` (the files' layer's valid times),
ROUTE_CSV has lat,lon[,eta] columns, GLOB the seeded files. Checks that the
files are exactly the valid times whose window starts before the latest
arrival, and that for PAIRS random (valid time, position the ship can reach
in that time's window) every tile holding the position at every zoom is in
that time's file. The package form checks a voyage package the same way by
what a viewer shows: for PAIRS random (file, moment in the range the
manifest and the QGIS project show it, position the ship can reach then),
every tile holding the position at every zoom is in that file.
"""
import datetime, glob, json, math, random, sqlite3, sys

R = 6371008.8
KN = 1852.0 / 3600.0


def iso(s):
    return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()


def haversine(a, b):
    (lo1, la1), (lo2, la2) = a, b
    p1, p2 = math.radians(la1), math.radians(la2)
    dp, dl = p2 - p1, math.radians(lo2 - lo1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * R * math.asin(math.sqrt(h))


def toward(a, b, d):
    (lo1, la1), (lo2, la2) = a, b
    p1, p2, dl = math.radians(la1), math.radians(la2), math.radians(lo2 - lo1)
    brg = math.atan2(math.sin(dl) * math.cos(p2),
                     math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl))
    dr = d / R
    p = math.asin(math.sin(p1) * math.cos(dr) + math.cos(p1) * math.sin(dr) * math.cos(brg))
    l = math.radians(lo1) + math.atan2(math.sin(brg) * math.sin(dr) * math.cos(p1),
                                       math.cos(dr) - math.sin(p1) * math.sin(p))
    return (math.degrees(l) + 540) % 360 - 180, math.degrees(p)


def tile(z, lon, lat):
    n = 2 ** z
    x = int((lon + 180) / 360 * n) % n
    y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    return x, y


def read_tiles(path):
    db = sqlite3.connect(path)
    meta = dict(db.execute("SELECT name, value FROM metadata"))
    tiles = {(z, x, 2 ** z - 1 - r) for z, x, r in
             db.execute("SELECT zoom_level, tile_column, tile_row FROM tiles")}
    db.close()
    return meta, tiles


def package(pkg, route_csv, z0, z1, pairs, depart, vmin, vmax):
    point, length, _, _ = route(route_csv)
    vmin, vmax, depart = vmin * KN, vmax * KN, iso(depart)
    m = json.load(open(pkg + "/manifest.json"))
    rnd = random.Random(20261127)
    for _ in range(pairs):
        f = rnd.choice(m["files"])
        tau = rnd.uniform(iso(f["shown_from"]), iso(f["shown_until"]))
        s0 = min(max(vmin * (tau - depart), 0), length)
        s1 = min(max(vmax * (tau - depart), 0), length)
        lon, lat = point(rnd.uniform(s0, s1))
        tiles = read_tiles(pkg + "/" + f["path"])[1]
        for z in range(z0, z1 + 1):
            x, y = tile(z, lon, lat)
            assert (z, x, y) in tiles, "shown at %s, the ship can be at %.4f,%.4f: tile %d/%d/%d not in %s" % (
                datetime.datetime.fromtimestamp(tau, datetime.timezone.utc), lat, lon, z, x, y,
                f["path"])
    print("%d files; %d (moment shown, position) pairs: every tile present" % (len(m["files"]), pairs))


def route(route_csv):
    lines = [l.split("#")[0].strip() for l in open(route_csv)]
    lines = [l for l in lines if l]
    head = [h.strip().lower() for h in lines[0].split(",")]
    rows = [dict(zip(head, (c.strip() for c in l.split(",")))) for l in lines[1:]]
    pts = [(float(r["lon"]), float(r["lat"])) for r in rows]
    cum = [0.0]
    for a, b in zip(pts, pts[1:]):
        cum.append(cum[-1] + haversine(a, b))
    length = cum[-1]

    def point(s):
        s = min(max(s, 0.0), length)
        k = 0
        while k + 2 < len(pts) and s > cum[k + 1]:
            k += 1
        if len(pts) == 1:
            return pts[0]
        return toward(pts[k], pts[k + 1], s - cum[k])
    return point, length, rows, cum


def main():
    if sys.argv[1] == "package":
        pkg, route_csv = sys.argv[2:4]
        z0, z1, pairs = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
        return package(pkg, route_csv, z0, z1, pairs, sys.argv[7], float(sys.argv[8]),
                       float(sys.argv[9]))
    layers, route_csv, pattern = sys.argv[1:4]
    z0, z1, pairs = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
    mode = sys.argv[7]
    point, length, rows, cum = route(route_csv)

    if mode == "band":
        depart, vmin, vmax = iso(sys.argv[8]), float(sys.argv[9]) * KN, float(sys.argv[10]) * KN
        arrival = depart + length / vmin

        def reach(tau):
            return (min(max(vmin * (tau - depart), 0), length),
                    min(max(vmax * (tau - depart), 0), length))
    else:
        ts = [iso(r.get("eta") or r["time"]) for r in rows]
        depart, arrival = ts[0], ts[-1]

        def reach(tau):
            if tau <= ts[0]:
                return 0.0, 0.0
            if tau >= ts[-1]:
                return length, length
            k = max(i for i in range(len(ts)) if ts[i] <= tau)
            s = cum[k] + (cum[k + 1] - cum[k]) * (tau - ts[k]) / (ts[k + 1] - ts[k])
            return s, s

    files = {}
    for path in glob.glob(pattern):
        meta, tiles = read_tiles(path)
        files[iso(meta["time"])] = (path, tiles, meta["layer"])
    assert files, "no files"
    layer = next(iter(files.values()))[2]
    valid = sorted(iso(t) for l in json.load(open(layers)) if l["name"] == layer for t in l["times"])
    assert valid, "layer %s not in %s" % (layer, layers)
    win = []
    for i, t in enumerate(valid):
        w0 = (valid[i - 1] + t) / 2 if i else -math.inf
        w1 = (t + valid[i + 1]) / 2 if i + 1 < len(valid) else math.inf
        win.append((t, w0, w1))
    want = [t for t, w0, _ in win if w0 < arrival]
    assert sorted(files) == want, "files for %d times, expected %d (%d valid)" % (
        len(files), len(want), len(valid))
    rnd = random.Random(20261123)
    kept = [w for w in win if w[0] in files]
    for _ in range(pairs):
        t, w0, w1 = rnd.choice(kept)
        lo = w0 if w0 > -math.inf else depart - 3 * 3600
        hi = w1 if w1 < math.inf else max(arrival, lo) + 3 * 3600
        tau = rnd.uniform(lo, hi)
        s0, s1 = reach(tau)
        lon, lat = point(rnd.uniform(s0, s1))
        path, tiles = files[t][0], files[t][1]
        for z in range(z0, z1 + 1):
            x, y = tile(z, lon, lat)
            assert (z, x, y) in tiles, "position %.4f,%.4f at %s: tile %d/%d/%d not in %s" % (
                lat, lon, datetime.datetime.fromtimestamp(tau, datetime.timezone.utc), z, x, y,
                path)
    print("%d files of %d valid times; %d (time, position) pairs: every tile present" % (
        len(files), len(valid), pairs))


if __name__ == "__main__":
    main()
