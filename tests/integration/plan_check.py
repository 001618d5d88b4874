"""Independent recomputation of `seawx plan`, for tests/integration/test_plan.sh.
Nothing here calls seawx or its library: the route is sampled again from its
CSV, the point forecasts are asked of seawx-sim again (urllib, loopback), the
storms are read from the same JSON with storms_danger_check.py's timeline, and
every ship is sailed again minute by minute.

  plan_check.py check PLAN.json ROUTE.csv [POLAR]
      every figure of every departure of PLAN.json (arrival, maxima, hours above
      the thresholds, upwind hours, storm approach and hours) against this
      computation: within 1 % or one time step (SWX_PLAN_STEP_S, 10 min).
      The stand-in is SEAWX_BASE_URL with SEAWX_API_KEY; the plan's options
      are read from PLAN.json's "options".
  plan_check.py chart PLAN.json CHART.png WIDTH HEIGHT
      the chart read back (zlib and struct, no imaging library): its size, a
      colour bar right of the grid running from the ramp's calm blue to its
      storm purple, the key's three verdict swatches, and the verdict row's
      boxes, left to right, in the JSON's verdicts (departure order).
  plan_check.py storm PLAN.json ROUTE.csv
      the storm figures of every departure (closest approach, hours from the
      first to the last moment inside the danger area and inside the 34 kt
      radii) against a brute force: both ships of the band and the storm's
      centre and radii (storms_danger_check.py's timeline, the danger area
      the 1-2-3 rule's) every minute; closest approach within 1 nm (or 1 %),
      hours within 1 % or one time step. The storms are asked of the stand-in
      again (/storm/json).
  plan_check.py arrive PLAN_A.json ROUTE_A.csv PLAN_B.json ROUTE_B.csv POLAR
      departure 0 of two plans sailed by the same polar (a route and its
      reverse, say) sailed again here: each arrival, and the difference of
      the two voyages' durations (A minus B, hours), within 1 % or one time
      step of seawx's.

The model (seawx/plan.h, docs/plan.md):
- sample points every spacing nm along the great-circle legs, the last
  waypoint always one; a value between sample points is that of the nearest
  along the route; linear in time between valid times (wind as u and v,
  wave direction as its unit vector);
- a speed band sails two ships, the slowest and the fastest; a polar sails one,
  its speed that of the polar's convex hull (tacking or gybing where the
  curve does not pay) at the true wind speed and angle it meets
  (bilinear, never below the motoring speed);
- a figure of a band is the worse of its two ships.
"""
import json
import math
import os
import sys
import urllib.request
import subprocess
from datetime import datetime, timezone

R_NM = 6371008.8 / 1852.0
MS_TO_KN = 3600.0 / 1852.0
STEP = 600.0  # SWX_PLAN_STEP_S


def ts(s):
    if s is None:
        return None
    d = datetime.fromisoformat(s.replace("Z", "+00:00"))
    if d.tzinfo is None:
        d = d.replace(tzinfo=timezone.utc)
    return d.timestamp()


# ---- the sphere ----

def vec(lon, lat):
    lo, la = math.radians(lon), math.radians(lat)
    return (math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la))


def unvec(v):
    x, y, z = v
    return (math.degrees(math.atan2(y, x)), math.degrees(math.atan2(z, math.hypot(x, y))))


def gc_nm(a, b):
    va, vb = vec(*a), vec(*b)
    d = sum(p * q for p, q in zip(va, vb))
    c = (va[1] * vb[2] - va[2] * vb[1], va[2] * vb[0] - va[0] * vb[2], va[0] * vb[1] - va[1] * vb[0])
    return math.atan2(math.sqrt(sum(x * x for x in c)), d) * R_NM


def slerp(a, b, f):
    va, vb = vec(*a), vec(*b)
    om = math.acos(max(-1.0, min(1.0, sum(p * q for p, q in zip(va, vb)))))
    if om < 1e-12:
        return a
    sa, sb = math.sin((1 - f) * om) / math.sin(om), math.sin(f * om) / math.sin(om)
    return unvec(tuple(sa * p + sb * q for p, q in zip(va, vb)))


def bearing(a, b):
    p1, p2 = math.radians(a[1]), math.radians(b[1])
    dl = math.radians(b[0] - a[0])
    return math.degrees(math.atan2(math.sin(dl) * math.cos(p2),
                                   math.cos(p1) * math.sin(p2) -
                                   math.sin(p1) * math.cos(p2) * math.cos(dl))) % 360


class Route:
    def __init__(self, path):
        self.pts = []
        for line in open(path, encoding="utf-8-sig"):
            line = line.strip()
            if not line or line.startswith("#") or line[0].isalpha():
                continue
            lat, lon = (float(x) for x in line.split(",")[:2])
            self.pts.append((lon, lat))
        self.legs = [gc_nm(a, b) for a, b in zip(self.pts, self.pts[1:])]
        self.length = sum(self.legs)

    def at(self, s):
        """(lon, lat, course) at s nm along the route."""
        s = max(0.0, min(self.length, s))
        for i, L in enumerate(self.legs):
            if s <= L or i == len(self.legs) - 1:
                a, b = self.pts[i], self.pts[i + 1]
                f = min(1.0, s / L) if L else 0.0
                p = slerp(a, b, f)
                # the course is the bearing of the leg at p, toward its end
                # the course: the bearing of the leg at p toward its end (at the
                # end itself, the final bearing of the leg)
                c = bearing(p, b) if gc_nm(p, b) > 1e-6 else (bearing(b, a) + 180) % 360
                return p[0], p[1], c
            s -= L
        return self.pts[-1][0], self.pts[-1][1], 0.0

    def samples(self, spacing):
        n = int(math.floor(self.length / spacing + 1e-9))
        out = [k * spacing for k in range(n + 1)]
        if self.length - out[-1] > 1e-6:
            out.append(self.length)
        return out


# ---- the forecast at the sample points ----

VARS = {"u": "eastward_wind", "v": "northward_wind", "gust": "wind_speed_of_gust",
        "swh": "sea_surface_wave_significant_height", "mwd": "sea_surface_wave_from_direction"}


def fetch_point(lon, lat):
    base, key = os.environ["SEAWX_BASE_URL"], os.environ["SEAWX_API_KEY"]
    url = f"{base}/forecast/point?lat={lat:.6f}&lon={lon:.6f}&bundles=basic,maritime"
    rq = urllib.request.Request(url, headers={"service-api-key": key})
    with urllib.request.urlopen(rq, timeout=120) as r:
        doc = json.load(r)
    rows = []
    for rec in doc["data"]:
        vals = rec.get("values") or {}
        rows.append((ts(rec["times"]["valid_time"]),
                     {k: (float(vals[n]) if isinstance(vals.get(n), (int, float)) else None)
                      for k, n in VARS.items()}))
    rows.sort(key=lambda r: r[0])
    return rows


class Forecast:
    def __init__(self, route, s, pts):
        self.route = route
        self.s = s
        self.pts = pts
        # the course at a sample point: the initial bearing to the next one
        # (at the last, that of the one before it to it)
        self.course = [bearing(pts[k], pts[k + 1]) for k in range(len(pts) - 1)]
        self.course.append(bearing(pts[-2], pts[-1]) if len(pts) > 1 else 0.0)
        self.series = [fetch_point(lon, lat) for lon, lat in self.pts]

    def nearest(self, s):
        # the nearest sample point along the route (a tie goes to the first)
        best, bi = None, 0
        for i, x in enumerate(self.s):
            d = abs(x - s)
            if best is None or d < best - 1e-9:
                best, bi = d, i
        return bi

    def at(self, s, t):
        """dict of values at s nm and time t (None where missing or outside)."""
        rows = self.series[self.nearest(s)]
        if t < rows[0][0] or t > rows[-1][0]:
            return None
        lo, hi = 0, len(rows) - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if rows[mid][0] <= t:
                lo = mid
            else:
                hi = mid
        (t0, a), (t1, b) = rows[lo], rows[hi]
        w = (t - t0) / (t1 - t0) if t1 > t0 else 0.0
        out = {}
        for k in ("u", "v", "gust", "swh"):
            out[k] = None if a[k] is None or b[k] is None else a[k] + (b[k] - a[k]) * w
        if a["mwd"] is None or b["mwd"] is None:
            out["mwd"] = None
        else:
            x = (1 - w) * math.sin(math.radians(a["mwd"])) + w * math.sin(math.radians(b["mwd"]))
            y = (1 - w) * math.cos(math.radians(a["mwd"])) + w * math.cos(math.radians(b["mwd"]))
            out["mwd"] = math.degrees(math.atan2(x, y)) % 360
        return out


# ---- polars ----

class Polar:
    def __init__(self, path):
        rows = [r for r in (l.replace(";", " ").replace(",", " ").replace("\t", " ").split()
                            for l in open(path, encoding="utf-8-sig")) if r]
        self.tws = [float(x) for x in rows[0][1:]]
        self.twa = [float(r[0]) for r in rows[1:]]
        self.v = [[float(x) for x in r[1:]] for r in rows[1:]]

    @staticmethod
    def _find(xs, x):
        if x <= xs[0]:
            return 0, 0.0
        if x >= xs[-1]:
            return len(xs) - 2, 1.0
        for i in range(len(xs) - 1):
            if xs[i] <= x <= xs[i + 1]:
                return i, (x - xs[i]) / (xs[i + 1] - xs[i])
        return len(xs) - 2, 1.0

    def speed(self, tws, twa):
        twa = abs(((twa + 180) % 360) - 180)
        if twa < self.twa[0]:
            return 0.0
        i, fa = self._find(self.twa, twa)
        j, fs = self._find(self.tws, min(tws, self.tws[-1]))
        if tws < self.tws[0]:  # below the first column: linear to 0 at 0 kn
            j, fs = 0, 0.0
            scale = tws / self.tws[0] if self.tws[0] > 0 else 1.0
        else:
            scale = 1.0
        v00, v01 = self.v[i][j], self.v[i][j + 1]
        v10, v11 = self.v[i + 1][j], self.v[i + 1][j + 1]
        v0 = v00 + (v01 - v00) * fs
        v1 = v10 + (v11 - v10) * fs
        return (v0 + (v1 - v0) * fa) * scale

    # What the boat makes good along a direction twa off the wind, tacking or
    # gybing where the curve does not pay (seawx/plan.h, swx_polar_hull_speed):
    # the radius there of the convex hull of the polar curve, both tacks and
    # the boat at rest, the curve taken every 0.5 degree and at the table's
    # angles; hulls at wind speeds 0.25 kn apart, linear in between.
    HULL_STEP = 0.25

    def _hull(self, k):
        if not hasattr(self, "_hulls"):
            self._hulls = {}
        if k in self._hulls:
            return self._hulls[k]
        tws = k * self.HULL_STEP
        angles = sorted(set([a * 0.5 for a in range(361)] + self.twa))
        pts = {(0.0, 0.0)}
        for a in angles:
            v = self.speed(tws, a)
            x, y = v * math.cos(math.radians(a)), v * math.sin(math.radians(a))
            pts.add((x, y))
            pts.add((x, -y))
        pts = sorted(pts)

        def cross(o, a, b):
            return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
        lower, upper = [], []
        for q in pts:
            while len(lower) >= 2 and cross(lower[-2], lower[-1], q) <= 0:
                lower.pop()
            lower.append(q)
        for q in reversed(pts):
            while len(upper) >= 2 and cross(upper[-2], upper[-1], q) <= 0:
                upper.pop()
            upper.append(q)
        hull = lower[:-1] + upper[:-1]
        self._hulls[k] = hull
        return hull

    def _radius(self, k, twa):
        hull = self._hull(k)
        dx, dy = math.cos(math.radians(twa)), math.sin(math.radians(twa))
        best = 0.0
        for i in range(len(hull)):
            a, b = hull[i], hull[(i + 1) % len(hull)]
            ex, ey = b[0] - a[0], b[1] - a[1]
            den = dx * ey - dy * ex
            if abs(den) < 1e-15:
                continue
            t = (a[0] * ey - a[1] * ex) / den  # along the ray
            u = (a[0] * dy - a[1] * dx) / den  # along the edge
            if t > best and -1e-12 <= u <= 1 + 1e-12:
                best = t
        return best

    def made_good(self, tws, twa):
        twa = abs(((twa + 180) % 360) - 180)
        x = tws / self.HULL_STEP
        k = int(math.floor(x))
        f = x - k
        r0 = self._radius(k, twa)
        return r0 if f == 0 else r0 + (self._radius(k + 1, twa) - r0) * f


# ---- a ship ----

def twa_of(vals, course):
    wind_from = math.degrees(math.atan2(-vals["u"], -vals["v"])) % 360
    d = abs(((wind_from - course + 180) % 360) - 180)
    return d


def hi(a, b):
    return b if a is None or b > a else a


def worst(xs):
    xs = [x for x in xs if x is not None]
    return max(xs) if xs else None


def sail(fc, depart, speed_fn, opts, motor=0.0):
    """One ship, as docs/plan.md describes it: looked at every STEP seconds from
    departure, each moment standing for the STEP seconds after it (the last for
    what is left of the voyage), and once more on arrival for the maxima only.
    speed_fn(s, t, vals, course) in knots; where the forecast says nothing (a
    moment outside its valid times, or no wind) the ship makes the motoring
    speed; a moment outside the forecast counts for nothing and makes the
    voyage partial. Returns its figures."""
    L = fc.route.length
    t, s = depart, 0.0
    fig = {"max_wind_kn": None, "max_gust_kn": None, "max_wave_m": None, "hours_wind": 0.0,
           "hours_gust": 0.0, "hours_wave": 0.0, "hours_upwind": 0.0, "partial": False,
           "track": [], "arrive": None}
    thr = opts

    def meet(vals, course, hours):
        if vals["u"] is not None and vals["v"] is not None:
            w = math.hypot(vals["u"], vals["v"]) * MS_TO_KN
            fig["max_wind_kn"] = hi(fig["max_wind_kn"], w)
            if thr.get("max_wind_kn") and w > thr["max_wind_kn"]:
                fig["hours_wind"] += hours
            if w > 0 and twa_of(vals, course) < thr.get("upwind_angle_deg", 50.0):
                fig["hours_upwind"] += hours
        if vals["gust"] is not None:
            g = vals["gust"] * MS_TO_KN
            fig["max_gust_kn"] = hi(fig["max_gust_kn"], g)
            if thr.get("max_gust_kn") and g > thr["max_gust_kn"]:
                fig["hours_gust"] += hours
        if vals["swh"] is not None:
            fig["max_wave_m"] = hi(fig["max_wave_m"], vals["swh"])
            if thr.get("max_wave_m") and vals["swh"] > thr["max_wave_m"]:
                fig["hours_wave"] += hours

    while s < L - 1e-9:
        if t - depart > 60 * 86400:
            return fig
        course = fc.course[fc.nearest(s)]
        vals = fc.at(s, t)
        fig["track"].append((t, s))
        v = motor
        if vals is not None and vals["u"] is not None and vals["v"] is not None:
            v = speed_fn(s, t, vals, course)
        if v <= 0:
            return fig  # becalmed without an engine: no arrival
        dt = min(STEP, (L - s) / v * 3600)
        if vals is None:
            fig["partial"] = True
        else:
            meet(vals, course, dt / 3600)
        t += dt
        s = L if dt < STEP else s + v * dt / 3600
    fig["track"].append((t, L))
    vals = fc.at(L, t)
    if vals is None:
        fig["partial"] = True
    else:
        meet(vals, fc.course[-1], 0.0)
    fig["arrive"] = t
    return fig


def load_plan(path):
    return json.load(open(path))


def ships(plan, fc, polar):
    o = plan["options"]
    if polar is not None:
        motor = o.get("motor_kn") or o.get("min_kn") or 0.0

        def fn(s, t, vals, course):
            tws = math.hypot(vals["u"], vals["v"]) * MS_TO_KN
            return max(polar.made_good(tws, twa_of(vals, course)), motor)
        return [(fn, motor)]
    lo, hi = float(o["min_kn"]), float(o["max_kn"])
    return [(lambda s, t, vals, c, v=hi: v, hi), (lambda s, t, vals, c, v=lo: v, lo)]


LARGEST = {}  # figure name: the largest difference seen


def close(name, got, want, tol_rel=0.01, tol_abs=0.0):
    if got is None or want is None:
        return got is None and want is None, f"{name}: {got} vs {want}"
    LARGEST[name] = max(LARGEST.get(name, 0.0), abs(got - want))
    ok = abs(got - want) <= max(tol_rel * abs(want), tol_abs)
    return ok, f"{name}: seawx {got:.3f}, recomputed {want:.3f}"


def verdict_of(fig, storm, o):
    """The verdict (docs/plan.md) from figures; the storm rules from storm
    (the plan's storm object, or None). Also whether a figure lies within 1 %
    of a limit it is compared with (where the two computations may differ)."""
    near = False

    def over(x, lim, frac=1.0, strict=True):
        nonlocal near
        if not lim or x is None:
            return False
        if abs(x - frac * lim) <= 0.01 * lim:
            near = True
        return x > frac * lim if strict else x >= frac * lim
    lims = [("max_wind_kn", "max_wind_kn"), ("max_gust_kn", "max_gust_kn"),
            ("max_wave_m", "max_wave_m"), ("hours_upwind", "max_upwind_h")]
    v = "go"
    if storm and (storm["r34_h"] > 0 or storm["danger_area_h"] > 0):
        v = "no-go"
    elif any([over(fig[k], o.get(l)) for k, l in lims]):
        v = "no-go"
    elif storm and storm["cpa_nm"] < 200:
        v = "marginal"
    elif any([over(fig[k], o.get(l), 0.8, False) for k, l in lims]) or fig["partial"]:
        v = "marginal"
    return v, near


def cmd_check(plan_path, route_path, polar_path=None):
    plan = load_plan(plan_path)
    o = plan["options"]
    route = Route(route_path)
    polar = Polar(polar_path) if polar_path else None
    got = plan["route"]["samples"]
    spacing = got[1]["nm"] - got[0]["nm"] if len(got) > 1 else route.length
    mine = route.samples(spacing)
    if len(got) != len(mine):
        raise SystemExit(f"{len(got)} sample points, recomputed {len(mine)}")
    for g, x in zip(got, mine):
        lon, lat, _ = route.at(x)
        if abs(g["nm"] - x) > 0.01 or gc_nm((g["lon"], g["lat"]), (lon, lat)) > 0.01:
            raise SystemExit(f"sample point at {g['nm']} nm: {g} vs {x:.3f} {lon:.5f},{lat:.5f}")
    fc = Forecast(route, [g["nm"] for g in got], [(g["lon"], g["lat"]) for g in got])
    for g, c in zip(got, fc.course):
        if abs(((g["course_deg"] - c + 180) % 360) - 180) > 0.01:
            raise SystemExit(f"course at {g['nm']} nm: seawx {g['course_deg']}, recomputed {c:.4f}")
    print(f"{len(got)} sample points and courses agree ({route.length:.1f} nm, every "
          f"{spacing:g} nm); {len(fc.series[0])} valid times")
    bad, n = 0, 0
    hstep = STEP / 3600
    for dep in plan["departures"]:
        d = ts(dep["depart"])
        figs = [sail(fc, d, fn, o, motor) for fn, motor in ships(plan, fc, polar)]
        partial = any(f["partial"] for f in figs)
        checks = []
        if any(f["arrive"] is None for f in figs):
            checks.append((dep["arrive_late"] is None, f"arrive_late: seawx {dep['arrive_late']}, "
                           "recomputed none"))
        else:
            early = min(f["arrive"] for f in figs)
            late = max(f["arrive"] for f in figs)
            checks.append(close("arrive_early h", (ts(dep["arrive_early"]) - d) / 3600,
                                (early - d) / 3600, 0.01, hstep))
            checks.append(close("arrive_late h", (ts(dep["arrive_late"]) - d) / 3600,
                                (late - d) / 3600, 0.01, hstep))
        checks.append((bool(dep.get("partial")) == partial,
                       f"partial: seawx {dep.get('partial')}, recomputed {partial}"))
        for k in ("max_wind_kn", "max_gust_kn", "max_wave_m"):
            checks.append(close(k, dep[k], worst(f[k] for f in figs), 0.01, 0.05))
        for k in ("hours_wind", "hours_gust", "hours_wave", "hours_upwind"):
            checks.append(close(k, dep[k], max(f[k] for f in figs), 0.01, hstep))
        mine = {k: worst(f[k] for f in figs) for k in ("max_wind_kn", "max_gust_kn", "max_wave_m")}
        mine["hours_upwind"] = max(f["hours_upwind"] for f in figs)
        mine["partial"] = partial
        v, near = verdict_of(mine, dep.get("storm"), o)
        checks.append((v == dep["verdict"] or near,
                       f"verdict: seawx {dep['verdict']} ({dep['reason']}), recomputed {v}"))
        n += 1
        for ok, msg in checks:
            if not ok:
                bad += 1
                print(f"departure {dep['depart']}: {msg}")
    print(f"{n} departures recomputed, {bad} figures off; the largest differences: " +
          ", ".join(f"{k} {v:.3g}" for k, v in LARGEST.items()))
    if bad:
        raise SystemExit(1)


def cmd_arrive(plan_a, route_a, plan_b, route_b, polar_path):
    polar = Polar(polar_path)
    hstep = STEP / 3600
    dur = []
    for plan_path, route_path in ((plan_a, route_a), (plan_b, route_b)):
        plan = load_plan(plan_path)
        route = Route(route_path)
        got = plan["route"]["samples"]
        fc = Forecast(route, [g["nm"] for g in got], [(g["lon"], g["lat"]) for g in got])
        dep = plan["departures"][0]
        d = ts(dep["depart"])
        (fn, motor), = ships(plan, fc, polar)
        fig = sail(fc, d, fn, plan["options"], motor)
        if fig["arrive"] is None or dep["arrive_early"] is None:
            raise SystemExit(f"{plan_path}: arrival seawx {dep['arrive_early']}, recomputed none")
        g, w = (ts(dep["arrive_early"]) - d) / 3600, (fig["arrive"] - d) / 3600
        ok, msg = close("voyage h", g, w, 0.01, hstep)
        print(f"{plan_path}: {route.length:.1f} nm from {dep['depart']}, {msg}, "
              f"upwind {dep['hours_upwind']:.1f} h (recomputed {fig['hours_upwind']:.1f})")
        if not ok:
            raise SystemExit(msg)
        dur.append((g, w))
    dg, dw = dur[0][0] - dur[1][0], dur[0][1] - dur[1][1]
    ok, msg = close("A minus B h", dg, dw, 0.01, hstep)
    print(msg)
    if not ok:
        raise SystemExit(msg)


# ---- storms ----

def storm_brute(s, route, t_dep, speeds):
    """(cpa nm, danger-area hours, 34 kt hours) of the ships at speeds (kn)
    from t_dep against storm s, sampled every minute while the storm's
    timeline and the slowest ship's voyage overlap."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    from storms_danger_check import timeline, interp_table, ERR_LEADS, ERRS
    f = timeline(s)
    if not f:
        return None
    first_fc = next((k for k, x in enumerate(f) if x["fc"]), None)
    t_chain = f[max(first_fc - 1, 0)]["t"] if first_fc is not None else None
    L = route.length
    t0, t1 = max(f[0]["t"], t_dep), min(f[-1]["t"], t_dep + L / min(speeds) * 3600)
    if t1 < t0:
        return None
    best = 1e9
    ins = {"danger": [], "r34": []}
    t, i = t0, 0
    while t <= t1 + 1e-6:
        while i + 1 < len(f) and f[i + 1]["t"] < t:
            i += 1
        a, b = f[i], f[min(i + 1, len(f) - 1)]
        w = (t - a["t"]) / (b["t"] - a["t"]) if b["t"] > a["t"] else 0
        c = slerp((a["lon"], a["lat"]), (b["lon"], b["lat"]), w)
        r34 = [ra + (rb - ra) * w for ra, rb in zip(a["r"][0], b["r"][0])]
        rdz = None
        if t_chain is not None and t >= t_chain:
            la = a["lead"] if a["fc"] else 0.0
            lb = b["lead"] if b["fc"] else 0.0
            ra = interp_table(ERR_LEADS, ERRS, la, True) + max(a["r"][0])
            rb = interp_table(ERR_LEADS, ERRS, lb, True) + max(b["r"][0])
            rdz = ra + (rb - ra) * w
        for v in speeds:
            lon, lat, _ = route.at(min(L, max(0.0, v * (t - t_dep) / 3600)))
            d = gc_nm(c, (lon, lat))
            best = min(best, d)
            q = min(int(bearing(c, (lon, lat)) // 90), 3)
            if r34[q] > 0 and d <= r34[q]:
                ins["r34"].append(t)
            if rdz is not None and d <= rdz:
                ins["danger"].append(t)
        t = t + 60 if t < t1 and t + 60 <= t1 else (t1 if t < t1 else t1 + 1)
    hours = {k: (max(x) - min(x)) / 3600 if x else 0.0 for k, x in ins.items()}
    return best, hours["danger"], hours["r34"]


def cmd_storm(plan_path, route_path):
    plan = load_plan(plan_path)
    o = plan["options"]
    if o.get("polar"):
        raise SystemExit("storm: a band or a speed, not a polar")
    route = Route(route_path)
    base, key = os.environ["SEAWX_BASE_URL"], os.environ["SEAWX_API_KEY"]
    rq = urllib.request.Request(f"{base}/storm/json?limit=100", headers={"service-api-key": key})
    with urllib.request.urlopen(rq, timeout=120) as r:
        storms = {x["atcf_id"]: x for x in json.load(r)}
    speeds = sorted({float(o["min_kn"]), float(o["max_kn"] or o["min_kn"])})
    bad = 0
    hstep = STEP / 3600
    for dep in plan["departures"]:
        st = dep["storm"]
        if st is None:
            continue
        got = storm_brute(storms[st["atcf_id"]], route, ts(dep["depart"]), speeds)
        cpa, dz, r34 = got
        checks = [close("cpa_nm", st["cpa_nm"], cpa, 0.01, 1.0),
                  close("danger_area_h", st["danger_area_h"], dz, 0.01, hstep),
                  close("r34_h", st["r34_h"], r34, 0.01, hstep)]
        print(f"{dep['depart']} {st['title']}: cpa {st['cpa_nm']:.1f} nm (brute force {cpa:.1f}), "
              f"danger area {st['danger_area_h']:.2f} h ({dz:.2f}), 34 kt {st['r34_h']:.2f} h "
              f"({r34:.2f}); {dep['verdict']}")
        for ok, msg in checks:
            if not ok:
                bad += 1
                print(f"departure {dep['depart']}: {msg}")
    print("the largest differences: " + ", ".join(f"{k} {v:.3g}" for k, v in LARGEST.items()))
    if bad:
        raise SystemExit(f"{bad} storm figures off")


# ---- the chart ----

def png_read(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG."""
    import struct
    import zlib
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SystemExit(f"{path}: depth {depth}, colour type {ctype}: not read here")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
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
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


VERDICT_RGB = {"go": (0x2e, 0x9e, 0x44), "marginal": (0xf0, 0xa4, 0x00), "no-go": (0xd7, 0x30, 0x1f)}


def cmd_chart(plan_path, png_path, width, height):
    plan = load_plan(plan_path)
    w, h, px = png_read(png_path)
    if (w, h) != (int(width), int(height)):
        raise SystemExit(f"chart {w}x{h}, asked {width}x{height}")
    colour = {v: k for k, v in VERDICT_RGB.items()}
    # the verdict row: the pixel row with the most verdict-coloured pixels
    counts = [sum(1 for p in row if p in colour) for row in px]
    vy = max(range(h), key=lambda y: counts[y])
    boxes, x = [], 0
    while x < w:
        if px[vy][x] in colour:
            c, x0 = px[vy][x], x
            while x < w and px[vy][x] == c:
                x += 1
            boxes.append((colour[c], x0, x))
        else:
            x += 1
    want = [d["verdict"] for d in plan["departures"]]
    got = [b[0] for b in boxes]
    if got != want:
        raise SystemExit(f"verdict row at y={vy}: {len(got)} boxes {got}, JSON {want}")
    gx1 = boxes[-1][2]
    # the key: each verdict's swatch below the verdict row
    below = {px[y][x] for y in range(vy + 1 + max(3, h // 100), h) for x in range(w)}
    missing = [k for k, v in VERDICT_RGB.items() if v not in below]
    if missing:
        raise SystemExit(f"the key lacks the swatches of {missing}")

    # the colour bar: right of the grid, a column of coloured pixels, calm blue
    # at one end and purple at the other

    def near(p, q, tol=40):
        return sum(abs(a - b) for a, b in zip(p, q)) <= tol

    def coloured(p):
        return max(p) - min(p) > 25

    bar = None
    for x in range(gx1 + 1, w):
        col = [px[y][x] for y in range(vy)]
        n = sum(1 for p in col if coloured(p))
        if n > vy * 0.3 and any(near(p, (0x6a, 0x1b, 0x9a)) for p in col) and \
                any(near(p, (0xe3, 0xf2, 0xfd)) for p in col):
            bar = (x, n)
            break
    if bar is None:
        raise SystemExit("no colour bar right of the grid")
    best = chart_best(plan, px, boxes, vy, png_path)
    print(f"chart {w}x{h}: {len(boxes)} verdict boxes at y={vy} match the JSON "
          f"({got.count('go')} go, {got.count('marginal')} marginal, {got.count('no-go')} no-go); "
          f"colour bar at x={bar[0]} ({bar[1]} coloured pixels tall); key swatches present; {best}")


def best_of(deps):
    """The best departure by the rule docs/plan.md gives for --best, apart
    from seawx: go, then marginal, judged over the whole voyage; then go and
    marginal judged on the part the forecast covers; the lighter strongest
    wind, then the earlier. None when every departure is no-go."""
    ok = [d for d in deps if d["verdict"] != "no-go"]
    if not ok:
        return None
    wind = lambda d: d["max_wind_kn"] if d["max_wind_kn"] is not None else float("inf")
    return min(ok, key=lambda d: (2 * bool(d["partial"]) + (d["verdict"] == "marginal"), wind(d),
                                  d["depart"]))


def chart_best(plan, px, boxes, vy, png_path):
    """The best departure marked (its box outlined in ink, a mark over its
    column above the grid, nowhere else), a letter under each marginal and
    no-go and none under a go, and the title's words read by tesseract: the
    best departure's date with its month and year, or that none is go."""
    deps = plan["departures"]
    best = best_of(deps)
    ink = lambda p: max(p) < 90
    # above the grid: the grid's top edge is the first frame row above vy in
    # the middle of the first box; the mark is within 14 pixels above it
    xc0 = (boxes[0][1] + boxes[0][2]) // 2
    y = vy
    while y > 0 and px[y][xc0] != (0x61, 0x61, 0x61):
        y -= 1
    y -= 1
    while y > 0 and px[y][xc0] != (0x61, 0x61, 0x61):
        y -= 1
    top = y
    marked = [i for i, (_, x0, x1) in enumerate(boxes)
              if any(ink(px[yy][x]) for yy in range(max(0, top - 14), top - 1)
                     for x in range((x0 + x1) // 2 - 1, (x0 + x1) // 2 + 2))]
    want = [deps.index(best)] if best else []
    if marked != want:
        raise SystemExit(f"the best departure's mark is over columns {marked}, not {want}")
    # the outline: ink on the box's own row just inside its left edge
    outlined = [i for i, (_, x0, x1) in enumerate(boxes)
                if any(ink(px[yy][x0 + 2]) for yy in range(vy - 3, vy + 4))]
    if outlined != want:
        raise SystemExit(f"outlined verdict boxes {outlined}, not the best {want}")
    # the letters: ink below a box (its bottom found by its colour ending)
    for i, (v, x0, x1) in enumerate(boxes):
        yb = vy
        while px[yb + 1][(x0 + x1) // 2] == px[vy][(x0 + x1) // 2]:
            yb += 1
        while ink(px[yb + 1][(x0 + x1) // 2]):  # the best one's outline
            yb += 1
        lettered = any(ink(px[yy][x]) for yy in range(yb + 2, yb + 22) for x in range(x0, x1))
        if lettered != (v != "go"):
            raise SystemExit(f"departure {i} ({v}): a letter under it {lettered}")
    # the title's lines, above the grid, enlarged smoothly: a small chart's
    # text is a few pixels high
    big = png_path + ".ocr.png"
    subprocess.run(["convert", png_path, "-crop", f"{len(px[0])}x{top - 16}+0+0", "+repage",
                    "-filter", "Lanczos", "-resize", "300%", "-colorspace", "Gray", big],
                   check=True)
    text = subprocess.run(["tesseract", big, "-", "--psm", "6"], capture_output=True,
                          text=True).stdout
    flat = " ".join(text.split())
    if best:
        t = datetime.strptime(best["depart"], "%Y-%m-%dT%H:%M:%SZ")
        when = t.strftime("%d %b %Y")
        if "Best departure" not in flat or when not in flat:
            raise SystemExit(f"tesseract does not read 'Best departure' and '{when}' in: {flat[:300]}")
        return f"best departure {best['depart']} marked, read as '{when}'"
    if "No departure is go" not in flat:
        raise SystemExit(f"tesseract does not read 'No departure is go' in: {flat[:300]}")
    return "no departure is go or marginal, and the chart says so"


if __name__ == "__main__":
    cmds = {"check": cmd_check, "arrive": cmd_arrive, "chart": cmd_chart, "storm": cmd_storm}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    cmds[sys.argv[1]](*sys.argv[2:])
