"""seawx route against exact answers, through GRIB files this test writes
(route_fields.py) and the real command. Every answer is computed here,
without seawx: the gauge of the polar's convex hull for a uniform wind (the
reachable set after t is t*K), Zermelo's closed form for a constant current,
and t*(K(w - c) + c) for wind and current (the polar sees the wind over
water). Then bad input: each refused with one line and its exit code,
nothing written; the time each took is printed (held to ten seconds, so
that a busy machine passes and an endless search does not).

usage: route_check.py SEAWX WORKDIR
"""
import json
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from route_geo import R_NM, check, finish  # noqa: E402,F401
from route_exact import displacement, gauge_time, hull_points, zermelo  # noqa: E402
import route_fields  # noqa: E402

SEAWX, T = sys.argv[1], sys.argv[2]
DEPART = 1700006400  # 2023-11-15T00:00:00Z
TIMES = [DEPART + 3 * 3600 * k for k in range(25)]  # 72 h, every 3 h
GRID = (-4.0, -34.0, 4.0, -26.0, 0.25)


from route_polar import TWA, TWS, SPEED, polar_file, polar_speed  # noqa: E402,F401


def run(args, expect=0):
    t0 = time.monotonic()
    # the storms are route_storm_check.py's: these fields have none, and no
    # service is asked
    p = subprocess.run([SEAWX, "route", "--no-storms"] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def route_hours(name, grib, frm, to, boat, extra=()):
    out = os.path.join(T, name + ".json")
    args = ["--grib", grib, "--from", "%g,%g" % frm, "--to", "%g,%g" % to,
            "--depart", "2023-11-15T00:00Z", "--coastline", "c", "--json", out,
            "--gpx", os.path.join(T, name + ".gpx"), "-q"] + boat + list(extra)
    rc, so, se, _ = run(args)
    if rc != 0:
        check(name + ": seawx route exits 0", False, se.strip())
        return None
    with open(out) as f:
        return json.load(f)["hours"]


def within(name, got, want, tol):
    if got is None:
        return
    err = abs(got - want) / want
    check("%s: %.4f h, exact %.4f h (%.3f %%)" % (name, got, want, 100 * err), err <= tol)


polar = os.path.join(T, "polar.txt")
polar_file(polar)

# Uniform wind: 12 kn from the north (blowing toward the south).
w = (0.0, -12.0)
g_wind = os.path.join(T, "wind.grb2")
route_fields.write(g_wind, GRID, TIMES, {"wind": lambda la, lo, t: w})
K = hull_points(w)
for name, a, b in (("upwind (tacking)", (-1.0, -30.0), (1.0, -30.0)),
                   ("beam reach", (0.0, -31.0), (0.0, -29.0)),
                   ("downwind (gybing)", (1.0, -30.0), (-1.0, -30.0)),
                   ("close reach NE", (-0.8, -30.8), (0.6, -29.2))):
    want = gauge_time(displacement(a, b), K)
    within("uniform wind, " + name, route_hours(name.split()[0], g_wind, a, b,
                                                ["--polar", polar]), want, 0.002)

# A constant current under motor: Zermelo's closed form.
c = (1.2, 0.6)
g_cur = os.path.join(T, "current.grb2")
route_fields.write(g_cur, GRID, TIMES, {"wind": lambda la, lo, t: (0.0, 0.0),
                                        "current": lambda la, lo, t: c})
for name, a, b in (("across", (-1.0, -30.0), (1.0, -30.0)),
                   ("against", (0.0, -29.0), (0.0, -30.8))):
    want = zermelo(displacement(a, b), 6.0, c)
    within("constant current, motor 6 kn, " + name,
           route_hours("cur_" + name, g_cur, a, b, ["--speed", "6"]), want, 0.002)

# Wind and current: the polar fed the wind over water, t*(K(w - c) + c).
g_wc = os.path.join(T, "wind_current.grb2")
route_fields.write(g_wc, GRID, TIMES, {"wind": lambda la, lo, t: w,
                                       "current": lambda la, lo, t: c})
Kwc = hull_points((w[0] - c[0], w[1] - c[1]))
for name, a, b in (("upwind", (-1.0, -30.0), (1.0, -30.0)),
                   ("reach west", (0.0, -29.0), (0.3, -30.8))):
    want = gauge_time(displacement(a, b), Kwc, c)
    within("wind and current, " + name,
           route_hours("wc_" + name.split()[0], g_wc, a, b, ["--polar", polar]), want, 0.002)

# Bad input: one line, the documented exit code, timed, nothing written.
g_waves = os.path.join(T, "waves.grb2")
route_fields.write(g_waves, GRID, TIMES[:3], {"wave": lambda la, lo, t: 2.0})
not_polar = os.path.join(T, "not_polar.txt")
with open(not_polar, "w") as f:
    f.write("this is not a polar\n1 2 3\n")
# Waypoints (--route FILE): under motor at 6 kn the fastest way through
# each waypoint in turn is the great circle to each; the time is their sum
# over 6 kn, and the route passes every waypoint.
WP = [(0.0, -30.0), (1.0, -29.5), (0.0, -28.5), (-0.5, -29.5)]
wp_file = os.path.join(T, "waypoints.csv")
with open(wp_file, "w") as f:
    f.write("lat,lon\n" + "".join("%g,%g\n" % p for p in WP))


def gc_nm(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * R_NM * math.asin(math.sqrt(h))


wp_json = os.path.join(T, "wp.json")
wp_geo = os.path.join(T, "wp.geojson")
rc, so, se, _ = run(["--grib", g_wind, "--route", wp_file, "--depart", "2023-11-15T00:00Z",
                     "--speed", "6", "--coastline", "c", "--json", wp_json, "--geojson", wp_geo,
                     "-q"])
if rc != 0:
    check("waypoints: seawx route exits 0", False, se.strip())
else:
    exact = sum(gc_nm(a, b) for a, b in zip(WP, WP[1:])) / 6.0
    within("waypoints, motor 6 kn through 4 waypoints", json.load(open(wp_json))["hours"], exact,
           0.002)
    pts = [ft["geometry"]["coordinates"] for ft in json.load(open(wp_geo))["features"]]
    miss = [max(0.0, min(gc_nm(w, (c[1], c[0])) for c in pts)) for w in WP]
    check("waypoints: the route passes every waypoint (farthest %.4f nm)" % max(miss),
          max(miss) < 0.01)
rc, so, se, _ = run(["--grib", g_wind, "--route", wp_file, "--from", "0,-30", "--speed", "6"])
check("waypoints: --route with --from refused, exit 2", rc == 2 and "--route" in se, se.strip())

base = ["--grib", g_wind, "--coastline", "c", "--depart", "2023-11-15T00:00Z"]
cases = [
    ("start equal to end", base + ["--from", "0,-30", "--to", "0,-30", "--speed", "6"], 2),
    ("a polar that is not one", base + ["--from", "0,-30", "--to", "1,-30", "--polar",
                                        not_polar], 2),
    ("a start on land (Africa)", ["--grib", g_wind, "--coastline", "c", "--from", "15,20",
                                  "--to", "0,-30", "--speed", "6"], 2),
    ("a start on land at full resolution (Tenerife)", ["--grib", g_wind, "--from",
                                                       "28.27,-16.64", "--to", "27.5,-17.5",
                                                       "--speed", "6"], 2),
    ("an end on land at full resolution (Tenerife)", ["--grib", g_wind, "--from", "28.0,-17.0",
                                                     "--to", "28.27,-16.64", "--speed", "6"], 2),
    ("a departure outside the forecast", ["--grib", g_wind, "--coastline", "c", "--from",
                                          "0,-30", "--to", "1,-30", "--speed", "6",
                                          "--depart", "2024-01-01T00:00Z"], 2),
    ("a GRIB without wind", ["--grib", g_waves, "--coastline", "c", "--from", "0,-30", "--to",
                             "1,-30", "--speed", "6"], 2),
    ("hexadecimal position", base + ["--from", "0x1,-30", "--to", "1,-30", "--speed", "6"], 2),
    ("two outputs naming one file", base + ["--from", "0,-30", "--to", "1,-30", "--speed", "6",
                                            "--geojson", os.path.join(T, "same"),
                                            "--isochrones", os.path.join(T, "same")], 2),
    ("a limit no route keeps", base + ["--from", "-1,-30", "--to", "1,-30", "--polar", polar,
                                       "--max-wind", "5kn"], 14),
]
for name, args, want in cases:
    outs = [os.path.join(T, "bad.gpx"), os.path.join(T, "bad.json")]
    rc, so, se, secs = run(args + ["--gpx", outs[0], "--json", outs[1]])
    lines = [line for line in se.splitlines() if line.strip()]
    ok = rc == want and len(lines) == 1 and not any(os.path.exists(o) for o in outs)
    # The time is printed, not held to a second: a busy machine (the
    # sanitizers, the test command's load) may take longer; ten seconds
    # still tells an answer from an endless search.
    check("%s: exit %d, one line, nothing written (%.2f s)" % (name, rc, secs),
          ok and secs < 10.0, "| ".join(lines))

finish()
