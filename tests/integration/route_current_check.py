"""route_current_check.py: the currents a route met, read again by the test.

  route_current_check.py ROUTE.geojson FORECAST.grb2

Every point of the route at one of the forecast's valid times: its
current_kn and current_toward_deg against the test's own bilinear reading
of the file's ocu and ocv at that point and time (grib_get and grib_get_data,
apart from seawx), within 0.05 kn and 5 degrees; at least 8 such points, and the route
meets at least 1 kn (it crosses the Gulf Stream)."""
import json
import math
import subprocess
import sys

KN = 3600.0 / 1852.0


def fail(msg):
    print("route_current_check: FAIL: " + msg)
    sys.exit(1)


def fields(path, name):
    """{(validityDate, validityTime): {(lat, lon in -180..180): value, None
    where missing}} of every message named name."""
    run = lambda *a: subprocess.run(a, capture_output=True, text=True, check=True).stdout
    times = [tuple(line.split()) for line in
             run("grib_get", "-w", "shortName=" + name, "-p", "validityDate,validityTime",
                 path).splitlines()]
    out = run("grib_get_data", "-m", "9999", "-w", "shortName=" + name, path)
    blocks, grid = [], None
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "Latitude":
            grid = {}
            blocks.append(grid)
            continue
        if len(f) != 3:
            continue
        lat, lon, v = float(f[0]), float(f[1]), float(f[2])
        lon = lon - 360 if lon > 180 else lon
        grid[(round(lat, 3), round(lon, 3))] = None if v == 9999 else v
    if len(blocks) != len(times):
        fail("%s: %d messages, %d grids" % (name, len(times), len(blocks)))
    return {(d, int(hhmm)): g for (d, hhmm), g in zip(times, blocks)}


def bilinear(grid, lat, lon, step=0.25):
    la0 = math.floor(lat / step) * step
    lo0 = math.floor(lon / step) * step
    fy, fx = (lat - la0) / step, (lon - lo0) / step
    vals = []
    for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        v = grid.get((round(la0 + dy * step, 3), round(lo0 + dx * step, 3)))
        if v is None:
            return None
        vals.append(v)
    return ((1 - fy) * ((1 - fx) * vals[0] + fx * vals[1]) +
            fy * ((1 - fx) * vals[2] + fx * vals[3]))


def main():
    route, grib = sys.argv[1], sys.argv[2]
    points = [f["properties"] for f in json.load(open(route))["features"]]
    ocu, ocv = fields(grib, "ocu"), fields(grib, "ocv")
    checked, strongest = 0, 0.0
    for p in points:
        t = p["time"]  # 2026-11-27T09:00:00Z
        hh, mm = int(t[11:13]), int(t[14:16])
        if mm != 0 or hh % 3 != 0 or t[17:19] != "00":
            continue
        date = t[0:4] + t[5:7] + t[8:10]
        if (date, hh * 100) not in ocu or (date, hh * 100) not in ocv:
            continue
        u = bilinear(ocu[(date, hh * 100)], p["lat"], p["lon"])
        v = bilinear(ocv[(date, hh * 100)], p["lat"], p["lon"])
        if u is None or v is None:
            continue
        kn = math.hypot(u, v) * KN
        toward = math.degrees(math.atan2(u, v)) % 360
        got_kn, got_dir = p["current_kn"], p["current_toward_deg"]
        print("# %s %.4f,%.4f: current %.2f kn toward %.0f (test), %.2f kn toward %s (seawx)"
              % (t, p["lat"], p["lon"], kn, toward, got_kn, got_dir))
        if abs(kn - got_kn) > 0.05:
            fail("%s: %.2f kn, the file's %.2f kn" % (t, got_kn, kn))
        turn = abs((toward - got_dir + 180) % 360 - 180)
        if kn > 0.2 and turn > 5:
            fail("%s: toward %s, the file's %.0f" % (t, got_dir, toward))
        checked += 1
        strongest = max(strongest, kn)
    if checked < 8:
        fail("only %d points at the forecast's times" % checked)
    if strongest < 1.0:
        fail("the strongest current met is %.2f kn: the route misses the stream" % strongest)
    print("route_current_check: %d points, currents as the file's, up to %.2f kn"
          % (checked, strongest))


main()
