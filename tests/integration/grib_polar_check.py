"""grib_polar_check.py: independent check of a voyage GRIB near a pole.

Written apart from lib/: the file is read with the ecCodes command-line tools
(grib_get, grib_get_data), the source forecast files with libeccodes through
ctypes (a whole global field at once, grib_source.py); the route is sampled
along its great circles by spherical interpolation, distances are haversine.

  grib_polar_check.py OUT SRC_DIR ROUTE_CSV BUFFER_NM RUN_YYYYMMDD

OUT is the voyage GRIB, SRC_DIR holds the whole global forecast files it was
cut from (as the service names them), ROUTE_CSV has lat,lon columns (an
empty file for a box: its values only). Checks:
  - the grids' north edge (the highest over the messages) is at least the
    route's northernmost latitude plus the buffer, clamped at 90 (and the
    same for the south edge near the south pole);
  - a grid whose row reaches a pole goes all the way round (Ni x step = 360);
  - every grid node within BUFFER_NM of the route has a value in at least
    one message of each variable (the rows and longitudes near the route are
    held, across the pole too);
  - every value equals the source file's at that node, same variable and
    hour, within half the packing step.
Nodes and values are those of the rows beyond 84 degrees of latitude.
Prints one summary line; exits 1 on the first failure.
"""
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grib_source  # noqa: E402

NM = 1852.0
R = 6371008.8
MISSING = "MISSING"
HALF_STEP = {"10u": 0.05, "10v": 0.05, "i10fg": 0.05, "prmsl": 5.0, "tp": 0.05}
POLAR = 84.0  # the source rows read: beyond this latitude


def fail(msg):
    print("grib_polar_check: FAIL: " + msg)
    sys.exit(1)


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def points(path, where):
    """{(lat*100, lon*100 in 0..360): value or None} of one message, rows beyond POLAR."""
    out = {}
    for line in run("grib_get_data", "-m", MISSING, "-w", where, path).splitlines()[1:]:
        f = line.split()
        if len(f) != 3 or f[0] == "Latitude" or abs(float(f[0])) < POLAR - 1e-9:
            continue
        key = (round(float(f[0]) * 100), round(float(f[1]) % 360 * 100))
        out[key] = None if f[2] == MISSING else float(f[2])
    return out


def unit(lat, lon):
    p, l = math.radians(lat), math.radians(lon)
    return (math.cos(p) * math.cos(l), math.cos(p) * math.sin(l), math.sin(p))


def route_samples(path, n=200):
    with open(path) as f:
        rows = [line.strip().split(",") for line in f if line.strip()]
    wp = [(float(r[0]), float(r[1])) for r in rows[1:]]
    out = []
    if not wp:
        return out
    for (la0, lo0), (la1, lo1) in zip(wp, wp[1:]) if len(wp) > 1 else [(wp[0], wp[0])]:
        a, b = unit(la0, lo0), unit(la1, lo1)
        w = math.acos(max(-1.0, min(1.0, sum(x * y for x, y in zip(a, b)))))
        for k in range(n + 1):
            t = k / n
            if w < 1e-12:
                p = a
            else:
                p = [(math.sin((1 - t) * w) * x + math.sin(t * w) * y) / math.sin(w)
                     for x, y in zip(a, b)]
            out.append((math.degrees(math.asin(max(-1.0, min(1.0, p[2])))),
                        math.degrees(math.atan2(p[1], p[0]))))
    return out


def haversine(la0, lo0, la1, lo1):
    p0, p1 = math.radians(la0), math.radians(la1)
    dp, dl = p1 - p0, math.radians(lo1 - lo0)
    h = math.sin(dp / 2) ** 2 + math.cos(p0) * math.cos(p1) * math.sin(dl / 2) ** 2
    return 2 * R * math.asin(math.sqrt(min(1.0, h)))


def main():
    out, src_dir, route_csv, buffer_nm, day = sys.argv[1:6]
    buffer_m = float(buffer_nm) * NM
    bdeg = math.degrees(buffer_m / R)
    samples = route_samples(route_csv)
    keys = "shortName,step,Ni,Nj,latitudeOfFirstGridPointInDegrees," \
           "latitudeOfLastGridPointInDegrees,iDirectionIncrementInDegrees"
    msgs = []
    for line in run("grib_get", "-p", keys, out).splitlines():
        f = line.split()
        msgs.append((f[0], int(f[1]), int(f[2]), int(f[3]), float(f[4]), float(f[5]),
                     float(f[6])))
    if not msgs:
        fail("no message in " + out)
    north = max(m[4] for m in msgs)
    south = min(m[5] for m in msgs)
    top = max((s[0] for s in samples), default=0.0)
    bottom = min((s[0] for s in samples), default=0.0)
    want_n = min(90.0, top + bdeg)
    want_s = max(-90.0, bottom - bdeg)
    if samples and top > 0 and north < want_n - 1e-9:
        fail("the grids reach %g N; the route and its buffer reach %g N" % (north, want_n))
    if samples and bottom < 0 and south > want_s + 1e-9:
        fail("the grids reach %g; the route and its buffer reach %g" % (south, want_s))
    for name, step, ni, nj, lat1, lat2, di in msgs:
        if samples and (abs(lat1) == 90 or abs(lat2) == 90) and abs(ni * di - 360) > 1e-6:
            fail("%s at +%d h reaches a pole on %d x %g degrees, not the whole circle"
                 % (name, step, ni, di))
    grid = msgs[0][6]
    # the nodes within the buffer of the route
    near = set()
    lat = math.floor(min(90.0, top + bdeg) / grid) * grid if top > 0 else -90.0
    while samples and lat >= max(-90.0, bottom - bdeg) - 1e-9:
        if abs(lat) >= POLAR - 1e-9:
            for i in range(int(round(360 / grid))):
                lon = i * grid
                if min(haversine(lat, lon, sl, so) for sl, so in samples) <= buffer_m - 1.0:
                    near.add((round(lat * 100), round(lon * 100)))
        lat -= grid
    compared = 0
    names = sorted({m[0] for m in msgs})
    for name in names:
        held = set()
        for step in sorted({m[1] for m in msgs if m[0] == name}):
            got = points(out, "shortName=%s,step=%d" % (name, step))
            srcf = os.path.join(src_dir, "sof-d.%s.t00z.0p25.basic.global.f%03d.grib2"
                                % (day, step))
            ref = grib_source.field(srcf, name)
            for k, v in got.items():
                if v is None:
                    continue
                held.add(k)
                r = ref(k[0] / 100, k[1] / 100)
                if r is None:
                    fail("%s +%d h at %s: no source value" % (name, step, k))
                if abs(v - r) > HALF_STEP.get(name, 0.05) + 1e-9:
                    fail("%s +%d h at %g,%g: %g, the source has %g"
                         % (name, step, k[0] / 100, k[1] / 100, v, r))
                compared += 1
        lost = near - held
        if lost:
            k = sorted(lost)[0]
            fail("%s: %d nodes within the buffer have no value (%g,%g first)"
                 % (name, len(lost), k[0] / 100, k[1] / 100))
    print("grib_polar_check: ok: grids %g..%g (route and buffer %g..%g), %d messages, "
          "%d nodes within the buffer held, %d values equal the source's"
          % (south, north, want_s, want_n, len(msgs), len(near), compared))


main()
