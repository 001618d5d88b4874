"""seed_check.py: independent checks of `seawx seed` output for test_seed*.sh.

Tile math, PNG decoding and the route buffer are written here from scratch,
apart from lib/, so that the tests compare two computations.
  count FILE Z0 Z1 W S E N       tiles per zoom equal the closed-form count
  meta FILE                      metadata rows, application_id, journal mode
  compare FILE URL KEY Z0 Z1     one tile per zoom equals GetMap of its bounds
  route FILE GEOJSON NM Z0 Z1    the stored set equals the buffered route's
  dups ACCESSLOG                 no GetMap asked twice
  differ FILE1 FILE2             two files whose tiles differ
  sample FILE URL KEY N [SEED]   N tiles drawn at random equal GetMap of their bounds
  warp FILE URL KEY Z0 Z1 [exact|near]
                                 tiles of a layer without EPSG:3857 equal an
                                 EPSG:4326 GetMap resampled here, row by row
"""
import json, math, sqlite3, struct, sys, urllib.request, zlib

R = 6371008.8


def tile_of(z, lon, lat):
    lat = max(min(lat, 85.05112877980659), -85.05112877980659)
    n = 2 ** z
    fx = (lon + 180) / 360 * n
    fy = (1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * n
    return fx, fy


def row_lat(z, y):
    return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / 2 ** z))))


def box_tiles(z, w, s, e, n):
    fx0, fy0 = tile_of(z, w, n)
    fx1, fy1 = tile_of(z, e, s)
    ys = range(math.floor(fy0), math.ceil(fy1))
    if e > w:
        xs = list(range(math.floor(fx0), math.ceil(fx1)))
    else:
        xs = sorted(set(list(range(math.floor(fx0), 2 ** z)) + list(range(0, math.ceil(fx1)))))
    return {(z, x, y) for x in xs for y in ys}


def stored(path):
    db = sqlite3.connect(path)
    rows = db.execute("SELECT zoom_level, tile_column, tile_row FROM tiles").fetchall()
    db.close()
    return {(z, x, 2 ** z - 1 - r) for z, x, r in rows}


def png_rgba(data):
    """8-bit RGB / RGBA, non-interlaced PNG to (w, h, bytes RGBA)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        ln, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + ln]
        if typ == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and inter == 0, (depth, ctype, inter)
        elif typ == b"IDAT":
            idat += body
        pos += 12 + ln
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(idat)
    stride = w * bpp
    out = bytearray()
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if bpp == 4:
            out += line
        else:
            for i in range(w):
                out += line[3 * i:3 * i + 3] + b"\xff"
    return w, h, bytes(out)


def cmd_count(path, z0, z1, w, s, e, n):
    got = stored(path)
    ok = True
    for z in range(int(z0), int(z1) + 1):
        want = box_tiles(z, float(w), float(s), float(e), float(n))
        have = {t for t in got if t[0] == z}
        if want != have:
            print(f"zoom {z}: {len(have)} tiles stored, {len(want)} expected; "
                  f"missing {sorted(want - have)[:5]} extra {sorted(have - want)[:5]}")
            ok = False
    return ok


def cmd_meta(path):
    db = sqlite3.connect(path)
    meta = dict(db.execute("SELECT name, value FROM metadata"))
    need = ["name", "format", "bounds", "center", "minzoom", "maxzoom", "type", "version",
            "description", "attribution", "layer", "run", "time"]
    missing = [k for k in need if not meta.get(k)]
    appid = db.execute("PRAGMA application_id").fetchone()[0]
    jm = db.execute("PRAGMA journal_mode").fetchone()[0]
    ic = db.execute("PRAGMA integrity_check").fetchone()[0]
    ok = not missing and appid == 0x4D504258 and jm == "delete" and ic == "ok" and meta["format"] == "png"
    if not ok:
        print("metadata missing", missing, "application_id", hex(appid), "journal", jm, "integrity", ic)
    return ok


def getmap(url, key, layer, bundle, t, bbox, w, h, crs="EPSG:3857"):
    q = (f"{url}/ows/wms?service=WMS&request=GetMap&version=1.3.0&product=sof-d&bundle={bundle}"
         f"&layers={layer}&styles=&crs={crs}&bbox={','.join(repr(v) for v in bbox)}"
         f"&width={w}&height={h}&format=image/png&transparent=TRUE&time={t}")
    req = urllib.request.Request(q, headers={"service-api-key": key})
    for attempt in range(40):  # the server may be injecting faults
        try:
            body = urllib.request.urlopen(req, timeout=30).read()
            png_rgba(body)
            return body
        except Exception:
            if attempt == 39:
                raise
    return None


def cmd_compare(path, url, key, z0, z1):
    db = sqlite3.connect(path)
    meta = dict(db.execute("SELECT name, value FROM metadata"))
    ok = True
    half = 20037508.342789244
    for z in range(int(z0), int(z1) + 1):
        row = db.execute("SELECT tile_column, tile_row, tile_data FROM tiles WHERE zoom_level=? "
                         "ORDER BY tile_column DESC, tile_row LIMIT 1", (z,)).fetchone()
        if not row:
            print(f"zoom {z}: no tile"); ok = False; continue
        x, tms, data = row
        y = 2 ** z - 1 - tms  # TMS row flipped back to XYZ
        size = 2 * half / 2 ** z
        bbox = (-half + x * size, half - (y + 1) * size, -half + (x + 1) * size, half - y * size)
        ref = getmap(url, key, meta["layer"], meta["bundle"], meta["time"], bbox, 256, 256)
        a, b = png_rgba(data), png_rgba(ref)
        if a != b:
            diff = sum(1 for i in range(0, len(a[2]), 4) if a[2][i:i + 4] != b[2][i:i + 4])
            print(f"zoom {z} tile {x},{y}: {diff} pixels differ from GetMap of its bounds")
            ok = False
        # A tile whose row is not flipped would be another tile: it must differ
        # from its vertical neighbour's GetMap where the field changes.
    return ok


def merc_rows_from_4326(src, src_h, north, south, z, y0, stride):
    """Nearest-neighbour rows: Mercator pixel row r of tile row y0 at zoom z takes
    the EPSG:4326 source row under the latitude of its centre."""
    out = bytearray()
    for r in range(256):
        lat = row_lat(z, y0 + (r + 0.5) / 256)
        s = min(max(math.floor((north - lat) / (north - south) * src_h), 0), src_h - 1)
        out += src[s * stride:(s + 1) * stride]
    return bytes(out)


def cmd_warp(path, url, key, z0, z1, mode="exact"):
    """The northernmost tile stored at each zoom (where Mercator stretches rows
    most) against an EPSG:4326 GetMap of its longitudes and latitudes, resampled
    here. exact: the source is as tall as warp.h says (no source row taller than
    the thinnest Mercator row of the tile), and every pixel must match. near: a
    source 2048 rows tall, independent of any plan; pixels must match within a
    small colour difference, and must be farther from a plain linear stretch."""
    db = sqlite3.connect(path)
    meta = dict(db.execute("SELECT name, value FROM metadata"))
    ok = True
    for z in range(int(z0), int(z1) + 1):
        n = 2 ** z
        row = db.execute("SELECT tile_column, tile_row, tile_data FROM tiles WHERE zoom_level=? "
                         "ORDER BY tile_row DESC, tile_column LIMIT 1", (z,)).fetchone()
        if not row:
            print(f"zoom {z}: no tile"); ok = False; continue
        x, tms, data = row
        y = n - 1 - tms
        west, east = x * 360 / n - 180, (x + 1) * 360 / n - 180
        north, south = row_lat(z, y), row_lat(z, y + 1)
        if mode == "exact":
            top = north - row_lat(z, y + 1 / 256)
            bottom = row_lat(z, y + 1 - 1 / 256) - south
            h = min(max(math.ceil((north - south) / min(top, bottom) - 1e-9), 256), 4096)
        else:
            h = 2048
        # WMS 1.3.0 EPSG:4326: latitude first.
        ref = getmap(url, key, meta["layer"], meta["bundle"], meta["time"],
                     (south, west, north, east), 256, h, crs="EPSG:4326")
        sw, sh, src = png_rgba(ref)
        tw, th, got = png_rgba(data)
        assert (sw, sh, tw, th) == (256, h, 256, 256), (sw, sh, tw, th)
        want = merc_rows_from_4326(src, h, north, south, z, y, 1024)
        if mode == "exact":
            diff = sum(1 for i in range(0, len(got), 4) if got[i:i + 4] != want[i:i + 4])
            if diff:
                print(f"zoom {z} tile {x},{y}: {diff} of 65536 pixels differ from the resampled "
                      f"EPSG:4326 GetMap ({h} rows)")
                ok = False
            continue
        # Linear rows (no warp), the wrong answer the warp must beat.
        lin = b"".join(src[min(h - 1, (r * h) // 256) * 1024:(min(h - 1, (r * h) // 256) + 1) * 1024]
                       for r in range(256))
        def err(a, b):
            return sum(abs(a[i] - b[i]) for i in range(len(a))) / len(a)
        e_w, e_l = err(got, want), err(got, lin)
        if e_w > 2.0 or (z >= 2 and e_w * 4 > e_l):
            print(f"zoom {z} tile {x},{y}: mean difference {e_w:.2f} from the warped source, "
                  f"{e_l:.2f} from a linear stretch")
            ok = False
    return ok


def vec(lon, lat):
    lo, la = math.radians(lon), math.radians(lat)
    return (math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la))


def hav(lon1, lat1, lon2, lat2):
    dl, dp = math.radians(lon2 - lon1), math.radians(lat2 - lat1)
    h = math.sin(dp / 2) ** 2 + math.cos(math.radians(lat1)) * math.cos(math.radians(lat2)) * math.sin(dl / 2) ** 2
    return 2 * math.asin(math.sqrt(min(1, h)))


def point_tile(lon, lat, w, s, e, n):
    """Spherical distance (radians) from a point to a lon/lat rectangle."""
    if (lon - w) % 360 <= e - w:
        return math.radians(lat - n) if lat > n else math.radians(s - lat) if lat < s else 0.0
    best = 10.0
    for m in (w, e):
        d = (lon - m + 540) % 360 - 180
        c = 10.0
        if abs(d) < 90:
            latc = math.degrees(math.atan(math.tan(math.radians(lat)) / math.cos(math.radians(d))))
            if s <= latc <= n:
                c = math.asin(abs(math.cos(math.radians(lat)) * math.sin(math.radians(d))))
        best = min(best, c, hav(lon, lat, m, s), hav(lon, lat, m, n))
    return best


def cmd_route(path, geojson, nm, z0, z1):
    coords = json.load(open(geojson))["coordinates"]
    d = float(nm) * 1852 / R
    samples = []
    for (lo1, la1), (lo2, la2) in zip(coords, coords[1:]):
        a, b = vec(lo1, la1), vec(lo2, la2)
        ln = hav(lo1, la1, lo2, la2)
        m = int(ln * R / 1000) + 1  # every kilometre along the great circle
        for j in range(m + 1):
            t = j / m
            s0, s1 = math.sin((1 - t) * ln) / math.sin(ln), math.sin(t * ln) / math.sin(ln)
            p = [s0 * a[k] + s1 * b[k] for k in range(3)]
            samples.append((math.degrees(math.atan2(p[1], p[0])), math.degrees(math.asin(p[2]))))
    want, unsure = set(), set()
    tol = 30 / R
    for z in range(int(z0), int(z1) + 1):
        n = 2 ** z
        best = {}
        dd = math.degrees(d) + 0.01
        for lon, lat in samples:
            _, fy0 = tile_of(z, 0, lat + dd)
            _, fy1 = tile_of(z, 0, lat - dd)
            ml = min(89, max(abs(lat - dd), abs(lat + dd)))
            dlon = min(180, dd / math.cos(math.radians(ml)))
            tw = 360 / n
            c0, c1 = math.floor((lon - dlon + 180) / tw) - 1, math.floor((lon + dlon + 180) / tw) + 1
            cols = range(n) if c1 - c0 + 1 >= n else [c % n for c in range(c0, c1 + 1)]
            for y in range(max(0, math.floor(fy0) - 1), min(n, math.floor(fy1) + 2)):
                s, no = row_lat(z, y + 1), row_lat(z, y)
                for x in cols:
                    w = x * tw - 180
                    v = point_tile(lon, lat, w, s, no, w + tw) if False else point_tile(lon, lat, w, s, w + tw, no)
                    if v < best.get((z, x, y), 10):
                        best[(z, x, y)] = v
        for t, v in best.items():
            if abs(v - d) < tol:
                unsure.add(t)
            elif v <= d:
                want.add(t)
    have = stored(path)
    have_judged = have - unsure
    if want != have_judged or len(unsure) > 2:
        print(f"route: {len(have)} stored, {len(want)} expected, {len(unsure)} too close to call; "
              f"missing {sorted(want - have_judged)[:5]} extra {sorted(have_judged - want)[:5]}")
        return False
    crosses = {x for (z, x, y) in want if z == int(z1)}
    n = 2 ** int(z1)
    if not (0 in crosses and n - 1 in crosses):
        print("route: the expected set does not reach both sides of 180")
        return False
    print(f"route: {len(want)} tiles as computed independently")
    return True


def cmd_dups(log):
    seen, dup = {}, 0
    for line in open(log):
        if "request=GetMap" not in line:
            continue
        q = line.split()[2]
        seen[q] = seen.get(q, 0) + 1
    dup = [q for q, c in seen.items() if c > 1]
    if dup:
        print(f"{len(dup)} GetMap requests sent more than once, e.g. {dup[0][:200]}")
    return not dup and len(seen) > 0


def cmd_differ(a, b):
    ta = dict(((z, x, y), d) for z, x, y, d in sqlite3.connect(a).execute("SELECT * FROM tiles"))
    tb = dict(((z, x, y), d) for z, x, y, d in sqlite3.connect(b).execute("SELECT * FROM tiles"))
    ok = ta.keys() == tb.keys() and len(ta) > 0 and sum(ta[k] != tb[k] for k in ta) > len(ta) // 2
    if not ok:
        print(f"{len(ta)} and {len(tb)} tiles, {sum(ta[k] != tb.get(k) for k in ta)} differ")
    return ok


def cmd_sample(path, url, key, n, seed="1"):
    """N stored tiles drawn at random (every zoom weighted by its tiles) each
    equal the service's GetMap of the tile's bounds, pixel for pixel."""
    import random
    rnd = random.Random(int(seed))
    db = sqlite3.connect(path)
    meta = dict(db.execute("SELECT name, value FROM metadata"))
    total = db.execute("SELECT count(*) FROM tiles").fetchone()[0]
    # seawx's files: a tile drawn by rowid of `map` (an OFFSET into the view
    # reads every row before it: minutes per draw in a million-tile file)
    has_map = db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'map' AND type = 'table'").fetchone()[0]
    lo, hi = db.execute("SELECT min(rowid), max(rowid) FROM map").fetchone() if has_map else (0, 0)
    half = 20037508.342789244
    bad = 0
    for _ in range(int(n)):
        if has_map and total:
            z, x, tms, tid = db.execute("SELECT zoom_level, tile_column, tile_row, tile_id FROM map "
                                        "WHERE rowid >= ? ORDER BY rowid LIMIT 1",
                                        (rnd.randint(lo, hi),)).fetchone()
            data = db.execute("SELECT tile_data FROM images WHERE tile_id = ?", (tid,)).fetchone()[0]
        else:
            z, x, tms, data = db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles "
                                         "LIMIT 1 OFFSET ?", (rnd.randrange(total),)).fetchone()
        y = 2 ** z - 1 - tms
        size = 2 * half / 2 ** z
        bbox = (-half + x * size, half - (y + 1) * size, -half + (x + 1) * size, half - y * size)
        ref = getmap(url, key, meta["layer"], meta["bundle"], meta["time"], bbox, 256, 256)
        if png_rgba(data) != png_rgba(ref):
            print(f"tile {z}/{x}/{y} differs from GetMap of its bounds")
            bad += 1
    print(f"{n} tiles of {total} drawn at random: {bad} differ from GetMap of their bounds")
    return bad == 0 and total > 0


if __name__ == "__main__":
    fn = globals()["cmd_" + sys.argv[1]]
    sys.exit(0 if fn(*sys.argv[2:]) else 1)
