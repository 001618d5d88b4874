"""seawx route --chart: the router's chart, read back by its pixels.

A storm drifts north astride the way from north of Puerto Rico eastward
(the detour of route_storm_check.py, moved where there is land); the wind
strengthens eastward, so the route's legs take several colours. The test
writes the storm JSON and a GRIB2 forecast (route_fields.py), runs seawx
route with --chart, decodes the PNG itself (zlib only), reads the map's
projection from its tEXt chunk "seawx:map" and checks, at pixels it places
itself from positions it knows:
  - the start and the end: the start marker's or the end marker's colour;
  - Puerto Rico's interior (land the test knows): the land colour;
  - a place inside the storm's 34 kt winds at the moment the JSON says it
    came nearest (the storm's centre then computed here from its fixes, the
    place 40 % of its smallest 34 kt radius out): the storm's colour over
    the sea, composited here from the colours chart_route.c documents;
  - a leg's middle: the colour of its wind's bin (the wind computed here);
and that --chart naming the file of another output is refused, and that a
chart is not written when there is no route. A route through a waypoint at
--chart-size 800x600: the PNG that size, the waypoint's diamond (white,
ringed in ink) where the projection puts it.

usage: route_chart_check.py SEAWX WORKDIR
"""
import json
import math
import os
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from route_geo import R_NM, check, finish, iso, slerp, storm_json, ts  # noqa: E402
import route_fields  # noqa: E402

SEAWX, T = sys.argv[1], sys.argv[2]
T0 = 1728345600  # 2024-10-08T00:00:00Z: the storm's last observed fix
TIMES = [T0 + 3 * 3600 * k for k in range(41)]  # 120 h
GRID = (12.0, -74.0, 28.0, -50.0, 0.5)
ERRORS = (20.0, 40.0, 60.0)
FROM, TO = (19.3, -66.5), (19.3, -58.5)
PUERTO_RICO = (18.20, -66.45)  # the island's mountainous interior, 20 nm from any shore
# chart_route.c's colours
SEA, LAND, START, END, STORM = 0xeef4f9, 0xe3d6b4, 0x2e7d32, 0x111111, 0xc2185b
STORM_DANGER_A, STORM_R34_A = 0.22, 0.45
BINS = [(0, 0x29b6f6), (10, 0x43a047), (15, 0xfdd835), (20, 0xfb8c00), (25, 0xe53935), (30, 0x6a1b9a)]


def wind(la, lo, t):
    """From the north, 6 kn at 67 W growing 2.2 kn a degree eastward."""
    return (0.0, -max(4.0, 6.0 + 2.2 * (lo + 67.0)))


def destination(p, brg, d_nm):
    la, lo, b, d = math.radians(p[0]), math.radians(p[1]), math.radians(brg), d_nm / R_NM
    la2 = math.asin(math.sin(la) * math.cos(d) + math.cos(la) * math.sin(d) * math.cos(b))
    lo2 = lo + math.atan2(math.sin(b) * math.sin(d) * math.cos(la), math.cos(d) - math.sin(la) * math.sin(la2))
    return math.degrees(la2), math.degrees(lo2)


def centre_at(fixes, t):
    """The storm's centre and 34 kt radii at t: on the great circle between
    fixes, radii linear."""
    ts = [T0 + h * 3600 for h, *_ in fixes]
    i = max(k for k in range(len(ts)) if ts[k] <= t)
    j = min(i + 1, len(ts) - 1)
    f = 0.0 if j == i else (t - ts[i]) / (ts[j] - ts[i])
    return slerp(fixes[i][1:3], fixes[j][1:3], f), [a + (b - a) * f for a, b in zip(fixes[i][3], fixes[j][3])]


def png_read(path):
    """(width, height, rows of RGB bytes, {tEXt keyword: text}) of an 8-bit
    RGB or RGBA, non-interlaced PNG."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, text = 8, b"", {}
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        crc = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]
        assert zlib.crc32(kind + body) & 0xffffffff == crc, "bad CRC in " + kind.decode()
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype, interlace)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"tEXt":
            k, _, v = body.partition(b"\0")
            text[k.decode("latin-1")] = v.decode("latin-1")
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ft == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif ft == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(v for i, v in enumerate(line) if i % 4 != 3))
        prev = line
    return w, h, rows, text


def projection(text):
    """The map's projection from the tEXt chunk: a function (lat, lon) -> pixel."""
    words = text.split()
    assert words[0] == "equirectangular", text
    v = {k: float(x) for k, x in (w.split("=") for w in words[1:])}

    def px(lat, lon):
        lon = v["west"] + (lon - v["west"]) % 360.0
        x = v["x0"] + (lon - v["west"]) / (v["east"] - v["west"]) * (v["x1"] - v["x0"])
        y = v["y0"] + (v["north"] - lat) / (v["north"] - v["south"]) * (v["y1"] - v["y0"])
        return int(math.floor(x)), int(math.floor(y))
    return px, v


def rgb(c):
    return ((c >> 16) & 255, (c >> 8) & 255, c & 255)


def over(under, c, a):
    return tuple(u * (1 - a) + s * a for u, s in zip(under, rgb(c)))


def share_near(rows, x, y, want, tol=6, r=2):
    """The share of the (2r+1)^2 pixels round (x, y) within tol of want."""
    hit = tot = 0
    for yy in range(y - r, y + r + 1):
        for xx in range(x - r, x + r + 1):
            p = rows[yy][3 * xx:3 * xx + 3]
            tot += 1
            hit += all(abs(a - b) <= tol for a, b in zip(p, want))
    return hit / tot


def pixel(rows, x, y):
    return tuple(rows[y][3 * x:3 * x + 3])


def run(args):
    p = subprocess.run([SEAWX, "route"] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


GRIB = os.path.join(T, "chart_wind.grb2")
route_fields.write(GRIB, GRID, TIMES, {"wind": wind})
STORM_FIXES = [(h, 19.1 + h * 2 / 60.0, -62.5, (60, 50, 30, 40))
               for h in (-12, -6, 0, 12, 24, 36, 48, 72, 96, 120)]
storms = os.path.join(T, "chart_storm.json")
with open(storms, "w") as f:
    json.dump([storm_json("AL172024", "CHARTA", STORM_FIXES, T0)], f)
base = ["--grib", GRIB, "--from", "%g,%g" % FROM, "--to", "%g,%g" % TO, "--depart", iso(T0),
        "--speed", "6", "--coastline", "i", "--storms", storms, "--danger-errors",
        ",".join("%g" % e for e in ERRORS), "-q"]
chart, js, gj = (os.path.join(T, "chart" + e) for e in (".png", ".json", ".geojson"))
rc, so, se = run(base + ["--chart", chart, "--json", js, "--geojson", gj])
check("chart: a route, and its chart written", rc == 0 and os.path.exists(chart), se.strip())
if rc == 0 and os.path.exists(chart):
    with open(js) as f:
        summary = json.load(f)
    with open(gj) as f:
        pts = [(ft["geometry"]["coordinates"][1], ft["geometry"]["coordinates"][0],
                ft["properties"]["tws_kn"]) for ft in json.load(f)["features"]]
    w, h, rows, text = png_read(chart)
    check("chart: 1200x900 pixels", (w, h) == (1200, 900), "%dx%d" % (w, h))
    check("chart: the projection in a tEXt chunk", "seawx:map" in text, repr(list(text)))
    px, v = projection(text["seawx:map"])
    mid = math.radians((v["north"] + v["south"]) / 2)
    aspect = (v["east"] - v["west"]) * math.cos(mid) / (v["north"] - v["south"])
    check("chart: a nautical mile as long across as up the map (%.4f, %.4f)"
          % (aspect, (v["x1"] - v["x0"]) / (v["y1"] - v["y0"])),
          abs(aspect / ((v["x1"] - v["x0"]) / (v["y1"] - v["y0"])) - 1) < 1e-6)
    for name, pos, colour in (("start", FROM, START), ("end", TO, END)):
        x, y = px(*pos)
        check("chart: the %s's pixel (%d, %d) has its marker's colour" % (name, x, y),
              share_near(rows, x, y, rgb(colour), 6, 1) >= 0.9, str(pixel(rows, x, y)))
    x, y = px(*PUERTO_RICO)
    check("chart: Puerto Rico's interior (%d, %d) is land" % (x, y),
          v["south"] < PUERTO_RICO[0] and share_near(rows, x, y, rgb(LAND)) >= 0.6,
          str(pixel(rows, x, y)))
    x, y = px(*destination(FROM, 0, 20))
    check("chart: the sea 20 nm north of the start (%d, %d) is plain" % (x, y),
          share_near(rows, x, y, rgb(SEA), 3, 1) >= 0.5, str(pixel(rows, x, y)))
    near = (summary.get("storms") or {}).get("nearest") or {}
    check("chart: the JSON names the storm that came nearest", near.get("title") == "CHARTA",
          json.dumps(near))
    if near.get("time"):
        t = ts(near["time"])
        c, r34 = centre_at(STORM_FIXES, t)
        inside = destination(c, 45, 0.4 * min(r34))
        x, y = px(*inside)
        want = over(over(rgb(SEA), STORM, STORM_DANGER_A), STORM, STORM_R34_A)
        check("chart: inside the storm's 34 kt winds at %s (%d, %d): the storm's colour"
              % (near["time"], x, y), share_near(rows, x, y, want, 4) >= 0.6,
              "%s, want %s" % (pixel(rows, x, y), tuple(round(a) for a in want)))
    # the middle of the longest leg: its wind's bin colour
    k = max(range(len(pts) - 1), key=lambda i: (pts[i + 1][0] - pts[i][0]) ** 2
            + (pts[i + 1][1] - pts[i][1]) ** 2)
    m = slerp(pts[k][:2], pts[k + 1][:2], 0.5)
    kn = math.hypot(*wind(pts[k][0], pts[k][1], 0))
    colour = [c for lo, c in BINS if kn >= lo][-1]
    x, y = px(*m)
    check("chart: the longest leg's middle (%d, %d) in its wind's colour (%.1f kn)" % (x, y, kn),
          share_near(rows, x, y, rgb(colour), 6, 1) >= 0.5, str(pixel(rows, x, y)))

# ---- through a waypoint, at another size ----
# --route FILE through a waypoint north-east of Puerto Rico, no storms,
# --chart-size 800x600: the PNG that size, the waypoint's pixel white (its
# diamond) ringed in ink, the start and end in their colours.
WAYPOINT = (20.6, -62.5)
WHITE, INK = 0xffffff, 0x212121
route_csv = os.path.join(T, "chart_route.csv")
with open(route_csv, "w") as f:
    f.write("lat,lon\n%g,%g\n%g,%g\n%g,%g\n" % (FROM + WAYPOINT + TO))
chart2 = os.path.join(T, "chart2.png")
rc, so, se = run(["--grib", GRIB, "--route", route_csv, "--depart", iso(T0), "--speed", "6",
                  "--coastline", "i", "--no-storms", "-q", "--chart", chart2,
                  "--chart-size", "800x600"])
check("chart: through a waypoint, 800x600, written", rc == 0 and os.path.exists(chart2), se.strip())
if rc == 0 and os.path.exists(chart2):
    w, h, rows, text = png_read(chart2)
    check("chart: 800x600 pixels", (w, h) == (800, 600), "%dx%d" % (w, h))
    px, v = projection(text["seawx:map"])
    x, y = px(*WAYPOINT)
    check("chart: the waypoint's pixel (%d, %d) is its diamond's white" % (x, y),
          share_near(rows, x, y, rgb(WHITE), 6, 1) >= 0.9, str(pixel(rows, x, y)))
    # above and below it (the route comes in and leaves sideways)
    col = [pixel(rows, x, y + dy) for dy in range(-14, 15)]
    inked = [max(p) < 110 for p in col]
    check("chart: the diamond ringed in ink above and below it",
          any(inked[:14]) and any(inked[15:]), str(col))
    for name, pos, colour in (("start", FROM, START), ("end", TO, END)):
        x, y = px(*pos)
        check("chart 800x600: the %s's pixel (%d, %d) has its marker's colour" % (name, x, y),
              share_near(rows, x, y, rgb(colour), 6, 1) >= 0.9, str(pixel(rows, x, y)))
rc, so, se = run(base + ["--chart-size", "800x600"])
check("chart: --chart-size without --chart: exit 2, one line",
      rc == 2 and "--chart-size" in se and se.count("\n") == 1, se.strip())
rc, so, se = run(base + ["--chart", chart2, "--chart-size", "100x600"])
check("chart: --chart-size 100x600: exit 2, one line",
      rc == 2 and "--chart-size" in se and se.count("\n") == 1, se.strip())

# ---- refused ----
rc, so, se = run(base + ["--chart", js, "--json", js])
check("chart: naming the JSON's file too: exit 2, one line", rc == 2 and "--chart" in se
      and se.count("\n") == 1, se.strip())
nochart = os.path.join(T, "nochart.png")
rc, so, se = run(["--grib", GRIB, "--from", "%g,%g" % FROM, "--to", "%g,%g" % TO, "--depart",
                  iso(T0), "--speed", "6", "--coastline", "i", "--max-wind", "5kn", "--no-storms",
                  "--chart", nochart, "-q"])
check("chart: no route (every wind past --max-wind): exit 14, no chart",
      rc == 14 and not os.path.exists(nochart), se.strip())

finish()
