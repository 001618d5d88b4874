"""grib_source.py: a forecast file's field read whole with libeccodes
(through ctypes, apart from lib/), for the GRIB checks: the value at a grid
node by (lat, lon), as the file holds it.

  field(path, name)       -> at(lat, lon): value, or None (no such node, or missing)
  field_or_none(path, name): the same, or None when the file has no such field
"""
import ctypes
import ctypes.util
import struct
import sys


def fail(msg):
    print("grib_source: FAIL: " + msg)
    sys.exit(1)


_lib = ctypes.CDLL(ctypes.util.find_library("eccodes") or "libeccodes.so.0")
_lib.codes_handle_new_from_message.restype = ctypes.c_void_p
_lib.codes_handle_new_from_message.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
_lib.codes_get_long.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_long)]
_lib.codes_get_double.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                  ctypes.POINTER(ctypes.c_double)]
_lib.codes_get_string.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                                  ctypes.POINTER(ctypes.c_size_t)]
_lib.codes_set_double.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_double]
_lib.codes_get_double_array.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                        ctypes.POINTER(ctypes.c_double),
                                        ctypes.POINTER(ctypes.c_size_t)]
_lib.codes_handle_delete.argtypes = [ctypes.c_void_p]


def field_or_none(path, name):
    """The message named name of a GRIB2 file: a function (lat, lon) -> value
    or None; None when the file holds no such message."""
    data = open(path, "rb").read()
    at = 0
    while at + 16 <= len(data):
        if data[at:at + 4] != b"GRIB":
            fail("%s: no GRIB message at byte %d" % (path, at))
        length = struct.unpack(">Q", data[at + 8:at + 16])[0]
        msg = data[at:at + length]
        at += length
        h = _lib.codes_handle_new_from_message(None, msg, len(msg))
        buf = ctypes.create_string_buffer(64)
        size = ctypes.c_size_t(64)
        _lib.codes_get_string(h, b"shortName", buf, ctypes.byref(size))
        if buf.value.decode() != name:
            _lib.codes_handle_delete(h)
            continue
        g = {}
        for k in ("Ni", "Nj", "jScansPositively"):
            v = ctypes.c_long()
            _lib.codes_get_long(h, k.encode(), ctypes.byref(v))
            g[k] = v.value
        for k in ("latitudeOfFirstGridPointInDegrees", "longitudeOfFirstGridPointInDegrees",
                  "iDirectionIncrementInDegrees", "jDirectionIncrementInDegrees"):
            v = ctypes.c_double()
            _lib.codes_get_double(h, k.encode(), ctypes.byref(v))
            g[k] = v.value
        _lib.codes_set_double(h, b"missingValue", 9.999e20)
        n = ctypes.c_size_t(g["Ni"] * g["Nj"])
        vals = (ctypes.c_double * n.value)()
        if _lib.codes_get_double_array(h, b"values", vals, ctypes.byref(n)) != 0:
            fail("%s: %s: cannot decode" % (path, name))
        _lib.codes_handle_delete(h)

        def at_node(lat, lon, g=g, vals=vals):
            fj = (lat - g["latitudeOfFirstGridPointInDegrees"]) / g["jDirectionIncrementInDegrees"]
            fj = fj if g["jScansPositively"] else -fj
            fi = ((lon - g["longitudeOfFirstGridPointInDegrees"]) % 360) / \
                g["iDirectionIncrementInDegrees"]
            j, i = round(fj), round(fi) % g["Ni"]
            if abs(fj - round(fj)) > 1e-6 or abs(fi - round(fi)) > 1e-6 or not 0 <= j < g["Nj"]:
                return None
            v = vals[j * g["Ni"] + i]
            return None if v > 1e20 else v
        return at_node
    return None


def field(path, name):
    """As field_or_none, failing when the file holds no such message."""
    at = field_or_none(path, name)
    if at is None:
        fail("%s: no %s message" % (path, name))
    return at
