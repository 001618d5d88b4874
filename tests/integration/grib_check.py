"""grib_check.py: independent check of a voyage GRIB written by `seawx grib`.

Written apart from lib/: the file is read with the ecCodes command-line tools
(grib_ls, grib_copy, grib_get_data), the source forecast files whole with
libeccodes (grib_source.py); the
windows of the valid times come from their definition, distances and points
along the route from voyage_check.py (the haversine and the navigator's
destination formulas).

  grib_check.py OUT SRC_DIR ROUTE_CSV RUN DEPART VMIN VMAX BUFFER_NM GRID PAIRS HOURS STEP

OUT is the voyage GRIB, SRC_DIR holds the whole forecast files it was cut
from (as the service names them), ROUTE_CSV has lat,lon columns, RUN and
DEPART are ISO 8601, HOURS the run's last forecast hour and STEP the hours
between valid times. Checks, for every field of the file:
  - it is a field of the run at one of its hours, on a grid of GRID degrees
    whose nodes are the source's nodes;
  - every grid point within BUFFER_NM of the stretch of route where the ship
    can be in that time's window has a value, and every point farther than
    the buffer plus a grid cell's diagonal is missing (the bitmap);
and, for PAIRS random (field, grid point inside the window), that the value
equals the source file's value at that point within half the packing step.
Prints one summary line; exits 1 on the first failure.
"""
import datetime, os, random, subprocess, sys, tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grib_source  # noqa: E402
from voyage_check import KN, R, iso, route  # noqa: E402 (the same formulas)

NM = 1852.0
MISSING = "MISSING"
# half the packing step of each variable (docs/grib.md): 10^-D / 2
# GRIB1 names (WMO table 2 as ecCodes reads it) of the source's GRIB2 fields
ALIAS = {"msl": "prmsl", "mdps": "mwd", "mpps": "mwp"}
HALF_STEP = {"10u": 0.05, "10v": 0.05, "i10fg": 0.05, "prmsl": 5.0, "2t": 0.05, "tp": 0.05,
             "swh": 0.05, "mwd": 0.5, "mwp": 0.5}


def fail(msg):
    print("grib_check: FAIL: " + msg)
    sys.exit(1)


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def read_points(path, where=None):
    """{(lat, lon): value or None} of one message (lon in 0..360)."""
    cmd = ["grib_get_data", "-m", MISSING]
    if where:
        cmd += ["-w", where]
    cmd.append(path)
    out = {}
    for line in run(*cmd).splitlines()[1:]:
        f = line.split()
        if len(f) != 3 or f[0] == "Latitude":
            continue
        key = (round(float(f[0]) * 100), round(float(f[1]) % 360 * 100))
        out[key] = None if f[2] == MISSING else float(f[2])
    return out


def hav(p, q):
    """voyage_check's haversine on numpy arrays of (lon, lat), broadcast."""
    p1, p2 = np.radians(p[..., 1]), np.radians(q[..., 1])
    dp, dl = p2 - p1, np.radians(q[..., 0] - p[..., 0])
    h = np.sin(dp / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dl / 2) ** 2
    return 2 * R * np.arcsin(np.sqrt(h))


def main():
    (out, src_dir, route_csv, run_iso, depart_iso, vmin, vmax, buffer_nm, grid, pairs, hours,
     step) = sys.argv[1:13]
    t_run, depart = iso(run_iso), iso(depart_iso)
    vmin, vmax, buf = float(vmin) * KN, float(vmax) * KN, float(buffer_nm) * NM
    grid, pairs, hours, step = float(grid), int(pairs), int(hours), int(step)
    point_at, length, _, _ = route(route_csv)
    valid = [t_run + h * 3600 for h in range(0, hours + 1, step)]

    def stretch(i):
        a = (valid[i - 1] + valid[i]) / 2 if i > 0 else None
        b = (valid[i] + valid[i + 1]) / 2 if i + 1 < len(valid) else None
        s0 = 0.0 if a is None else min(length, max(0.0, vmin * (a - depart)))
        s1 = length if b is None else min(length, max(0.0, vmax * (b - depart)))
        n = max(2, int((s1 - s0) / (NM / 2)) + 2)
        return [point_at(s0 + (s1 - s0) * k / (n - 1)) for k in range(n)]

    tmp = tempfile.mkdtemp(prefix="grib_check.")
    listing = run("grib_ls", "-p", "shortName,dataDate,dataTime,stepRange,Ni,Nj,"
                  "iDirectionIncrementInDegrees,jDirectionIncrementInDegrees", out).splitlines()
    fields = []
    for line in listing:
        f = line.split()
        if len(f) != 8 or f[0] == "shortName" or "messages" in f:
            continue
        fields.append(f)
    if not fields:
        fail("no field in " + out)
    run("grib_copy", out, os.path.join(tmp, "[count].grb"))
    src_cache = {}
    candidates = []
    checked_in = checked_out = 0
    for k, (name, ddate, dtime, srange, ni, nj, di, dj) in enumerate(fields, 1):
        name = ALIAS.get(name, name)
        date = datetime.datetime.strptime(ddate + dtime.zfill(4), "%Y%m%d%H%M").replace(
            tzinfo=datetime.timezone.utc).timestamp()
        if date != t_run:
            fail("field %d (%s) is of the run of %s %s" % (k, name, ddate, dtime))
        fh = int(srange.split("-")[-1])
        if abs(float(di) - grid) > 1e-6 or abs(float(dj) - grid) > 1e-6:
            fail("field %d (%s) has a grid of %s x %s degrees" % (k, name, di, dj))
        t = t_run + fh * 3600
        if t not in valid:
            fail("field %d (%s) is valid at hour %d, not one of every %d" % (k, name, fh, step))
        i = valid.index(t)
        line = stretch(i)
        pts_k = read_points(os.path.join(tmp, "%d.grb" % k))
        if len(pts_k) != int(ni) * int(nj):
            fail("field %d has %d points for %s x %s" % (k, len(pts_k), ni, nj))
        keys = list(pts_k)
        for la, lo in keys:
            lat, lon = la / 100.0, lo / 100.0
            if abs(lat / 0.25 - round(lat / 0.25)) > 1e-6 or abs(lon / 0.25 - round(lon / 0.25)) > 1e-6:
                fail("field %d: point %g,%g is not a source node" % (k, lat, lon))
        ps = np.array([((lo / 100.0 + 180) % 360 - 180, la / 100.0) for la, lo in keys])
        # each point's distance to the nearest point of the stretch, and a
        # grid cell's diagonal there: to (lon + grid, lat + grid)
        q = np.asarray(line, dtype=float)[None, :, :]
        ds = np.concatenate([hav(ps[i:i + 1000, None, :], q).min(axis=1)
                             for i in range(0, len(ps), 1000)]) if len(ps) else np.zeros(0)
        corner = np.stack([ps[:, 0] + grid, np.minimum(90, ps[:, 1] + grid)], axis=1)
        diags = hav(ps, corner)
        for (la, lo), d, diag in zip(keys, ds, diags):
            v, lat, lon = pts_k[(la, lo)], la / 100.0, lo / 100.0
            if d <= buf - NM:
                checked_in += 1
                if v is None:
                    fail("field %d (%s, hour %d): point %g,%g is %.1f nm from the ship's "
                         "stretch, inside the %.0f nm window, and missing" %
                         (k, name, fh, lat, lon, d / NM, buf / NM))
                candidates.append((k, name, fh, la, lo, v))
            elif d > buf + diag + NM:
                checked_out += 1
                if v is not None:
                    fail("field %d (%s, hour %d): point %g,%g is %.1f nm from the stretch, "
                         "outside the window, and has a value" % (k, name, fh, lat, lon, d / NM))
    if not candidates:
        fail("no grid point inside any window")
    random.seed(7)
    picks = [random.choice(candidates) for _ in range(pairs)]
    worst = 0.0
    for k, name, fh, la, lo, v in picks:
        key = (name, fh)
        if key not in src_cache:
            names = [f for f in os.listdir(src_dir) if f.endswith(".f%03d.grib2" % fh)]
            found = None
            for f in names:
                found = grib_source.field_or_none(os.path.join(src_dir, f), name)
                if found:
                    break
            if found is None:
                fail("no source file of hour %d holds %s" % (fh, name))
            src_cache[key] = found
        src = src_cache[key](la / 100.0, lo / 100.0)
        if src is None:
            fail("source of %s hour %d has no value at %g,%g" % (name, fh, la / 100.0, lo / 100.0))
        err = abs(src - v)
        worst = max(worst, err / HALF_STEP[name])
        if err > HALF_STEP[name] * (1 + 1e-6) + 1e-9:
            fail("%s hour %d at %g,%g: %g in the file, %g in the source (more than %g apart)" %
                 (name, fh, la / 100.0, lo / 100.0, v, src, HALF_STEP[name]))
    print("grib_check: %d fields; %d points inside windows all with values, %d outside all "
          "missing; %d random values equal the source's within half a packing step (worst "
          "%.2f of it)" % (len(fields), checked_in, checked_out, pairs, worst))


if __name__ == "__main__":
    main()
