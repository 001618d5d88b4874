#!/usr/bin/python3
"""bench/grib/compare.py A B: the fields of two GRIB files (either edition)
compared point by point, read with the ecCodes tools only (grib_get for
each message's variable, valid time and precision, grib_get_data for its
points). Messages are matched by variable (shortName; GRIB1's msl, WMO table 2
code 2, is GRIB2's prmsl) and valid time, points by latitude and longitude:
both files must hold the same messages and points, each point missing in
both or present in both with values apart by at most half the precision
step of A (10^-decimalScaleFactor: the precision A was packed to), plus
ecCodes' printing error. Prints one line; exit status 1 on a mismatch."""
import subprocess
import sys

KEYS = "shortName,shortName,validityDate,validityTime,decimalScaleFactor"


def fields(path):
    heads = subprocess.run(["grib_get", "-p", KEYS, path], check=True, capture_output=True,
                           text=True).stdout.split("\n")
    heads = [h.split() for h in heads if h.strip()]
    data = subprocess.run(["grib_get_data", "-m", "nan", "-F", "%.10g", path], check=True,
                          capture_output=True, text=True).stdout.split("\n")
    pts, out = None, []
    for line in data:
        if line.startswith("Latitude"):
            pts = {}
            out.append(pts)
        elif line.strip():
            la, lo, v = line.split()[:3]
            pts[(round(float(la), 3), round(float(lo) % 360, 3))] = float(v)
    assert len(out) == len(heads), (path, len(out), len(heads))
    alias = {"msl": "prmsl"}
    return {(alias.get(h[0], h[0]), h[2], h[3]): (alias.get(h[1], h[1]), int(h[4]), p)
            for h, p in zip(heads, out)}


def main():
    a, b = fields(sys.argv[1]), fields(sys.argv[2])
    worst, npts, nmiss, bad = {}, 0, 0, []
    for key, (name, dsf, pa) in a.items():
        if key not in b:
            bad.append("%s at %s %s: not in %s" % (name, key[1], key[2], sys.argv[2]))
            continue
        pb = b[key][2]
        tol = 0.5 * 10.0 ** -dsf * 1.001 + 1e-9
        for ll, va in pa.items():
            vb = pb.get(ll)
            if vb is None:
                bad.append("%s: point %s not in %s" % (name, ll, sys.argv[2]))
                continue
            if va != va or vb != vb:
                if (va != va) != (vb != vb):
                    bad.append("%s %s %s: missing in one file only" % (name, key[1], ll))
                nmiss += va != va
                continue
            d = abs(va - vb)
            worst[name] = max(worst.get(name, 0.0), d)
            npts += 1
            if d > tol + 1e-6 * abs(va):
                bad.append("%s %s %s: %g against %g" % (name, key[1], ll, va, vb))
    for key, (name, _, pb) in b.items():
        if key not in a:
            bad.append("%s at %s %s: not in %s" % (name, key[1], key[2], sys.argv[1]))
        elif len(pb) != len(a[key][2]):
            bad.append("%s at %s %s: %d points against %d" % (name, key[1], key[2],
                                                              len(a[key][2]), len(pb)))
    diffs = ", ".join("%s %.3g" % kv for kv in sorted(worst.items()))
    print("%d messages, %d points (%d missing in both) compared; largest difference: %s; %s"
          % (len(a), npts, nmiss, diffs,
             "all within half the precision step" if not bad else
             "%d MISMATCHES, first: %s" % (len(bad), bad[0])))
    sys.exit(1 if bad else 0)


main()
