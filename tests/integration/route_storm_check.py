"""seawx route keeps out of storms: on hurricane cases written here (a storm
JSON as the service answers /storm/json, and a GRIB2 forecast of a steady
wind, route_fields.py), the route seawx writes is checked minute by minute
against each storm's 34 kt radii (by quadrant) and its 1-2-3 danger area,
computed here from their definitions (seawx/storm_danger.h's words: the
centre on the great circle between fixes, radii linear in time, danger =
track error at the lead + the largest 34 kt radius), without seawx's code.

  - a detour: a storm sits across the straight way; without storms the route
    passes inside its area, with them it goes round, never inside, later;
  - a wait: the start is inside a storm's 34 kt winds at the departure; the
    command says no route and names the storm, and with --wait leaves later,
    never inside;
  - bad input: --storms of junk, --wait with --no-storms.

usage: route_storm_check.py SEAWX WORKDIR
"""
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from route_geo import bearing, check, finish, gc, iso, slerp, storm_json, ts  # noqa: E402
import route_fields  # noqa: E402

SEAWX, T = sys.argv[1], sys.argv[2]
T0 = 1728345600  # 2024-10-08T00:00:00Z: the storms' last observed fix
TIMES = [T0 + 3 * 3600 * k for k in range(41)]  # 120 h
GRID = (18.0, -70.0, 32.0, -48.0, 0.5)
ERRORS = (20.0, 40.0, 60.0)  # --danger-errors of the cases
FROM, TO = (25.0, -63.0), (25.0, -55.0)


def error_at(lead):
    """The 1-2-3 track error: 0 at lead 0, linear through 24/48/72 h, the last
    slope beyond."""
    leads = (24.0, 48.0, 72.0)
    if lead <= 0:
        return 0.0
    h0, e0 = 0.0, 0.0
    for L, e in zip(leads, ERRORS):
        if lead <= L:
            return e0 + (e - e0) * (lead - h0) / (L - h0)
        h0, e0 = L, e
    return ERRORS[2] + (ERRORS[2] - ERRORS[1]) / 24.0 * (lead - 72.0)


def state(fixes, t):
    """Centre, 34 kt radii and danger radius at t; None outside the track."""
    ts = [T0 + h * 3600 for h, *_ in fixes]
    if t < ts[0] or t > ts[-1]:
        return None
    i = max(k for k in range(len(ts)) if ts[k] <= t)
    j = min(i + 1, len(ts) - 1)
    f = 0.0 if j == i else (t - ts[i]) / (ts[j] - ts[i])
    c = slerp(fixes[i][1:3], fixes[j][1:3], f)
    r = [a + (b - a) * f for a, b in zip(fixes[i][3], fixes[j][3])]
    lead = (t - T0) / 3600.0
    danger = error_at(lead) + max(r) if lead >= 0 else 0.0
    return c, r, danger


def inside(fixes, p, t):
    """(inside, clearance nm) of place p at t."""
    s = state(fixes, t)
    if s is None:
        return False, math.inf
    c, r, danger = s
    d = gc(c, p)
    q = min(3, int(bearing(c, p) // 90)) if d > 0 else 0
    reach = max(danger, r[q])
    return d <= reach, d - reach


def route_points(path):
    with open(path) as f:
        fc = json.load(f)
    pts = []
    for ft in fc["features"]:
        lon, lat = ft["geometry"]["coordinates"][:2]
        pts.append((ts(ft["properties"]["time"]), lat, lon))
    return pts


def minutes_inside(pts, fixes):
    """Minutes of the route inside the storm's area (every whole minute and
    every point), and the least clearance."""
    bad, least = 0, math.inf
    for (ta, la, loa), (tb, lb, lob) in zip(pts, pts[1:]):
        moments = [ta] + [60.0 * m for m in range(math.floor(ta / 60) + 1, math.ceil(tb / 60))] + [tb]
        for t in moments:
            f = (t - ta) / (tb - ta) if tb > ta else 0.0
            ins, cl = inside(fixes, slerp((la, loa), (lb, lob), f), t)
            bad += ins
            least = min(least, cl)
    return bad, least


def run(args):
    p = subprocess.run([SEAWX, "route"] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def route(name, storms, extra=()):
    out = os.path.join(T, name)
    args = ["--grib", GRIB, "--from", "%g,%g" % FROM, "--to", "%g,%g" % TO, "--depart", iso(T0),
            "--speed", "6", "--coastline", "c", "--geojson", out + ".geojson",
            "--json", out + ".json", "-q"]
    args += ["--no-storms"] if storms is None else ["--storms", storms, "--danger-errors",
                                                     ",".join("%g" % e for e in ERRORS)]
    rc, so, se = run(args + list(extra))
    if rc != 0:
        return rc, se, None, None
    with open(out + ".json") as f:
        return rc, se, json.load(f), route_points(out + ".geojson")


GRIB = os.path.join(T, "storm_wind.grb2")
route_fields.write(GRIB, GRID, TIMES, {"wind": lambda la, lo, t: (0.0, -12.0)})

# ---- a detour: a storm drifting north at 2 kn, astride the straight way ----
DETOUR = [(h, 24.8 + h * 2 / 60.0, -59.0, (60, 50, 30, 40)) for h in (-12, -6, 0, 12, 24, 36, 48, 72, 96, 120)]
path = os.path.join(T, "detour_storm.json")
with open(path, "w") as f:
    json.dump([storm_json("AL152024", "DETOURA", DETOUR, T0)], f)

rc, se, free, free_pts = route("free", None)
check("detour: without storms, a route", rc == 0, se.strip())
if free_pts:
    bad, least = minutes_inside(free_pts, DETOUR)
    check("detour: without storms, the route passes inside the storm's area (%d minutes)" % bad,
          bad > 60)
rc, se, kept, kept_pts = route("detour", path)
check("detour: with the storm, a route", rc == 0, se.strip())
if kept_pts and free:
    bad, least = minutes_inside(kept_pts, DETOUR)
    check("detour: not one minute inside the 34 kt radii or the danger area "
          "(%d minutes checked, least clearance %.2f nm)" % ((kept_pts[-1][0] - kept_pts[0][0]) / 60, least),
          bad == 0 and least >= 0)
    check("detour: it goes round (%.1f h against %.1f h straight on)" % (kept["hours"], free["hours"]),
          kept["hours"] > free["hours"] * 1.01)
    near = (kept.get("storms") or {}).get("nearest") or {}
    check("detour: the JSON names the storm that came nearest, outside its area",
          near.get("title") == "DETOURA" and near.get("clear_nm", -1) >= 0
          and abs(near["clear_nm"] - least) <= 0.2, json.dumps(near))

# ---- a wait: the start inside the 34 kt winds of a storm moving east at 12 kn ----
WAIT = [(h, 25.0, -61.9 + h * 12 / (60.0 * math.cos(math.radians(25))), (80, 80, 80, 80))
        for h in (-6, 0, 6, 12, 24, 36, 48, 72, 96, 120)]
path = os.path.join(T, "wait_storm.json")
with open(path, "w") as f:
    json.dump([storm_json("AL162024", "WAITY", WAIT, T0)], f)
rc, _, se = run(["--grib", GRIB, "--from", "%g,%g" % FROM, "--to", "%g,%g" % TO, "--depart",
                    iso(T0), "--speed", "6", "--coastline", "c", "--storms", path,
                    "--danger-errors", "20,40,60", "--json", os.path.join(T, "nowait.json")])
check("wait: without --wait, exit 14 naming the storm and --wait",
      rc == 14 and "WAITY" in se and "inside" in se and "--wait" in se
      and not os.path.exists(os.path.join(T, "nowait.json")), se.strip())
rc, se, waited, w_pts = route("wait", path, ["--wait", "24"])
check("wait: with --wait 24, a route", rc == 0, se.strip())
if w_pts:
    bad, least = minutes_inside(w_pts, WAIT)
    check("wait: it leaves later (%s, %.0f h after the departure asked)" % (waited["depart"], waited.get("waited_h", 0)),
          w_pts[0][0] > T0 and waited.get("waited_h", 0) > 0)
    check("wait: not one minute inside (least clearance %.2f nm)" % least, bad == 0 and least >= 0)

# ---- bad input ----
junk = os.path.join(T, "storms_junk.json")
with open(junk, "w") as f:
    f.write("{not json")
rc, so, se = run(["--grib", GRIB, "--from", "25,-63", "--to", "25,-55", "--depart", iso(T0),
                  "--speed", "6", "--storms", junk])
check("bad input: --storms of junk: one line naming the file, exit 7 (as seawx storms --input)",
      rc == 7 and se.count("\n") == 1 and "storms_junk.json" in se, se.strip())
rc, so, se = run(["--grib", GRIB, "--from", "25,-63", "--to", "25,-55", "--speed", "6", "--no-storms", "--wait", "6"])
check("bad input: --wait with --no-storms: exit 2", rc == 2 and "--no-storms" in se, se.strip())

finish()
