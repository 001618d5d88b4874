"""grib_centres_check.py: the values of voyage GRIBs cut from forecast files
that two centres encoded differently, checked with libeccodes through ctypes
(as route_fields.py writes files), not with seawx's code.

  grib_centres_check.py OUT SRC_DIR [OUT SRC_DIR ...]

Each OUT (GRIB1 or GRIB2) was cut from the files of SRC_DIR (whole forecast
files, names ending .fHHH.grib2). For every field of OUT: the source
message of the same quantity and forecast hour is found, and every value of
OUT equals the source's at the same point within half the packing step of
OUT (2^E 10^-D / 2). Then the OUT files are compared with each other: the
same quantities at the same hours and points, the same values within one
packing step. Prints one summary line; exits 1 on the first failure.
"""
import ctypes
import ctypes.util
import glob
import math
import os
import re
import sys

_lib = ctypes.CDLL(ctypes.util.find_library("eccodes") or "libeccodes.so.0")
_libc = ctypes.CDLL(None)
_libc.fopen.restype = ctypes.c_void_p
_libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
_libc.fclose.argtypes = [ctypes.c_void_p]
_lib.codes_handle_new_from_file.restype = ctypes.c_void_p
_lib.codes_handle_new_from_file.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                                            ctypes.POINTER(ctypes.c_int)]
_lib.codes_handle_delete.argtypes = [ctypes.c_void_p]
_lib.codes_get_long.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_long)]
_lib.codes_get_double.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                  ctypes.POINTER(ctypes.c_double)]
_lib.codes_get_string.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                                  ctypes.POINTER(ctypes.c_size_t)]
_lib.codes_get_size.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)]
_lib.codes_get_double_array.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                        ctypes.POINTER(ctypes.c_double),
                                        ctypes.POINTER(ctypes.c_size_t)]
PRODUCT_GRIB = 1
# ecCodes' names of the two encodings of mean sea-level pressure: the same
# quantity (the identity itself is checked by the test's grib_get lines)
SAME = {"msl": "pressure", "prmsl": "pressure"}


def fail(msg):
    print("grib_centres_check: FAIL: " + msg)
    sys.exit(1)


def _long(h, key):
    v = ctypes.c_long()
    return v.value if _lib.codes_get_long(h, key.encode(), ctypes.byref(v)) == 0 else None


def _double(h, key):
    v = ctypes.c_double()
    if _lib.codes_get_double(h, key.encode(), ctypes.byref(v)) != 0:
        fail("ecCodes cannot read " + key)
    return v.value


def _string(h, key):
    buf = ctypes.create_string_buffer(128)
    n = ctypes.c_size_t(128)
    if _lib.codes_get_string(h, key.encode(), buf, ctypes.byref(n)) != 0:
        return "?"
    return buf.value.decode()


def _array(h, key):
    n = ctypes.c_size_t()
    if _lib.codes_get_size(h, key.encode(), ctypes.byref(n)) != 0:
        fail("ecCodes cannot size " + key)
    arr = (ctypes.c_double * n.value)()
    if _lib.codes_get_double_array(h, key.encode(), arr, ctypes.byref(n)) != 0:
        fail("ecCodes cannot read " + key)
    return list(arr)


def messages(path):
    """[{name, hour, step, points: {(lat, lon): value}}] of a GRIB file."""
    out = []
    f = _libc.fopen(path.encode(), b"rb")
    if not f:
        fail("cannot open " + path)
    err = ctypes.c_int()
    while True:
        h = _lib.codes_handle_new_from_file(None, f, PRODUCT_GRIB, ctypes.byref(err))
        if not h:
            break
        name = _string(h, "shortName")
        lats, lons, vals = _array(h, "latitudes"), _array(h, "longitudes"), _array(h, "values")
        missing = _double(h, "missingValue")
        e, d = _long(h, "binaryScaleFactor") or 0, _long(h, "decimalScaleFactor") or 0
        pts = {}
        for la, lo, v in zip(lats, lons, vals):
            if v != missing:
                pts[(round(la, 4), round(lo % 360, 4))] = v
        out.append({"name": SAME.get(name, name), "raw": name, "hour": _long(h, "endStep"),
                    "step": math.pow(2, e) / math.pow(10, d), "points": pts})
        _lib.codes_handle_delete(h)
    _libc.fclose(f)
    if err.value != 0:
        fail("%s: ecCodes error %d" % (path, err.value))
    return out


def sources(src_dir, hour, cache={}):
    if hour not in cache:
        files = [p for p in glob.glob(os.path.join(src_dir, "*.grib2"))
                 if re.search(r"\.f%03d\.grib2$" % hour, p)]
        msgs = []
        for p in files:
            msgs += messages(p)
        cache[hour] = msgs
    return cache[hour]


def check_against_source(out, src_dir):
    fields = messages(out)
    if not fields:
        fail(out + " holds no message")
    n = 0
    srccache = {}
    for m in fields:
        srcs = [s for s in sources(src_dir, m["hour"], srccache) if s["name"] == m["name"]]
        if not srcs:
            fail("%s: no source message of %s at hour %d" % (out, m["raw"], m["hour"]))
        src = srcs[0]["points"]
        for pt, v in m["points"].items():
            if pt not in src:
                fail("%s: %s at %s is no node of the source" % (out, m["raw"], pt))
            if abs(v - src[pt]) > m["step"] / 2 + 1e-9 * abs(v):
                fail("%s: %s hour %d at %s: %r, source %r (half step %g)"
                     % (out, m["raw"], m["hour"], pt, v, src[pt], m["step"] / 2))
            n += 1
    return fields, n


def main():
    args = sys.argv[1:]
    if len(args) < 2 or len(args) % 2:
        fail("usage: grib_centres_check.py OUT SRC_DIR [OUT SRC_DIR ...]")
    done = []
    total = 0
    for out, src in zip(args[0::2], args[1::2]):
        fields, n = check_against_source(out, src)
        done.append((out, fields))
        total += n
    first_name, first = done[0]
    key = lambda m: (m["name"], m["hour"])
    for name, fields in done[1:]:
        a = {key(m): m for m in first}
        b = {key(m): m for m in fields}
        if sorted(a) != sorted(b):
            fail("%s and %s hold other fields: %s / %s" % (first_name, name, sorted(a), sorted(b)))
        for k in a:
            pa, pb = a[k]["points"], b[k]["points"]
            if sorted(pa) != sorted(pb):
                fail("%s and %s: %s hour %d on other points" % (first_name, name, k[0], k[1]))
            step = max(a[k]["step"], b[k]["step"])
            for pt in pa:
                if abs(pa[pt] - pb[pt]) > step + 1e-9 * abs(pa[pt]):
                    fail("%s and %s: %s hour %d at %s: %r and %r"
                         % (first_name, name, k[0], k[1], pt, pa[pt], pb[pt]))
    print("grib_centres_check: %d files, %d fields each, %d values within half a packing "
          "step of their source, the same across files" % (len(done), len(first), total))


main()
