"""route_analytic_check.py: seawx route against exact answers through the
stand-in's own forecast files, served under its analytic switch
(SEAWX_SIM_ANALYTIC: a uniform wind and current) and cut by seawx grib.

  route_analytic_check.py SEAWX GRIB WORKDIR WIND_U,WIND_V CURRENT_U,CURRENT_V

(m/s, toward east and north, as the switch was given). Every node of every
message of GRIB holds the switch's values (to the file's precision); a route
by the polar from 1 S to 1 N at 30 W takes the time of the polar's hull fed
the wind over water, and one under motor at 6 kn Zermelo's, each within
0.2 % (route_exact.py, apart from seawx)."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from route_exact import displacement, gauge_time, hull_points, zermelo  # noqa: E402
from route_geo import check, finish  # noqa: E402
from route_polar import polar_file  # noqa: E402

SEAWX, GRIB, T = sys.argv[1], sys.argv[2], sys.argv[3]
KN = 3600.0 / 1852.0
wind = tuple(float(x) * KN for x in sys.argv[4].split(","))
cur = tuple(float(x) * KN for x in sys.argv[5].split(","))
FROM, TO = (-1.0, -30.0), (1.0, -30.0)

# the file: every node the switch's value
out = subprocess.run(["grib_get", "-p", "shortName,min,max", GRIB], capture_output=True,
                     text=True, check=True).stdout.split("\n")
want = {"10u": wind[0] / KN, "10v": wind[1] / KN, "ocu": cur[0] / KN, "ocv": cur[1] / KN}
seen = {}
for line in out:
    f = line.split()
    if len(f) == 3 and f[0] in want:
        seen[f[0]] = seen.get(f[0], 0) + 1
        ok = all(abs(float(v) - want[f[0]]) <= 0.005 for v in f[1:])
        if not ok:
            check("%s: %s to %s, the switch's %g" % (f[0], f[1], f[2], want[f[0]]), False)
check("every message of wind and current the switch's value (%s)" % seen,
      len(seen) == 4 and min(seen.values()) >= 8)


def hours(name, boat):
    js = os.path.join(T, name + ".json")
    p = subprocess.run([SEAWX, "route", "--grib", GRIB, "--from", "%g,%g" % FROM, "--to",
                        "%g,%g" % TO, "--depart", "2023-11-15T00:00Z", "--no-storms",
                        "--coastline", "c", "--json", js, "-q"] + boat,
                       capture_output=True, text=True)
    if p.returncode != 0:
        check(name + ": seawx route exits 0", False, p.stderr.strip())
        return None
    with open(js) as f:
        return json.load(f)["hours"]


def within(name, got, exact):
    if got is None:
        return
    err = abs(got - exact) / exact
    check("%s: %.4f h, exact %.4f h (%.3f %%)" % (name, got, exact, 100 * err), err <= 0.002)


polar = os.path.join(T, "analytic_polar.txt")
polar_file(polar)
d = displacement(FROM, TO)
within("the stand-in's uniform wind and current, upwind by the polar",
       hours("analytic_polar", ["--polar", polar]),
       gauge_time(d, hull_points((wind[0] - cur[0], wind[1] - cur[1])), cur))
within("the stand-in's uniform current, motor 6 kn (Zermelo)",
       hours("analytic_motor", ["--speed", "6"]), zermelo(d, 6.0, cur))
finish()
