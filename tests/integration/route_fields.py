"""Analytic forecast fields written as GRIB2 with ecCodes (libeccodes through
ctypes), for the route tests: the test knows every value the file holds, so
the exact answer is computed here, without seawx.

write(path, box, times, fields): box = (south, west, north, east, step_deg);
times = unix seconds (valid times, the first is the reference time);
fields = {"wind": f(lat, lon, t) -> (u_kn, v_kn), "current": ..., "wave": f -> m}.
Wind is 10 m u/v (0,2,2 / 0,2,3 at 10 m above ground), in m/s; current the
WMO ocean current components (10,1,2 / 10,1,3 at the surface), in m/s;
waves significant height (10,0,3).
"""
import ctypes
import ctypes.util
import datetime

KN = 1852.0 / 3600.0  # m/s per knot

_lib = ctypes.CDLL(ctypes.util.find_library("eccodes") or "libeccodes.so.0")
_lib.codes_grib_handle_new_from_samples.restype = ctypes.c_void_p
_lib.codes_grib_handle_new_from_samples.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_lib.codes_set_long.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_long]
_lib.codes_set_double.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_double]
_lib.codes_set_double_array.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                        ctypes.POINTER(ctypes.c_double), ctypes.c_size_t]
_lib.codes_get_message.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                                   ctypes.POINTER(ctypes.c_size_t)]
_lib.codes_handle_delete.argtypes = [ctypes.c_void_p]


def _check(rc, what):
    if rc != 0:
        raise RuntimeError("ecCodes: %s failed (%d)" % (what, rc))


def _message(grid, ref, hour, code, level, values):
    south, west, north, east, step = grid
    ni = int(round((east - west) / step)) + 1
    nj = int(round((north - south) / step)) + 1
    h = _lib.codes_grib_handle_new_from_samples(None, b"GRIB2")
    if not h:
        raise RuntimeError("ecCodes: no GRIB2 sample")
    d = datetime.datetime.fromtimestamp(ref, datetime.timezone.utc)
    longs = [("centre", 98), ("dataDate", int(d.strftime("%Y%m%d"))),
             ("dataTime", int(d.strftime("%H%M"))), ("gridDefinitionTemplateNumber", 0),
             ("Ni", ni), ("Nj", nj), ("iScansNegatively", 0), ("jScansPositively", 1),
             ("productDefinitionTemplateNumber", 0),
             ("discipline", code[0]), ("parameterCategory", code[1]),
             ("parameterNumber", code[2]), ("typeOfFirstFixedSurface", level[0]),
             ("indicatorOfUnitOfTimeRange", 1), ("forecastTime", hour),
             ("bitsPerValue", 24)]
    for k, v in longs:
        _check(_lib.codes_set_long(h, k.encode(), v), k)
    if level[0] == 103:
        _check(_lib.codes_set_long(h, b"scaleFactorOfFirstFixedSurface", 0), "scale")
        _check(_lib.codes_set_long(h, b"scaledValueOfFirstFixedSurface", level[1]), "level")
    doubles = [("latitudeOfFirstGridPointInDegrees", south),
               ("longitudeOfFirstGridPointInDegrees", west % 360),
               ("latitudeOfLastGridPointInDegrees", north),
               ("longitudeOfLastGridPointInDegrees", east % 360),
               ("iDirectionIncrementInDegrees", step), ("jDirectionIncrementInDegrees", step)]
    for k, v in doubles:
        _check(_lib.codes_set_double(h, k.encode(), v), k)
    arr = (ctypes.c_double * len(values))(*values)
    _check(_lib.codes_set_double_array(h, b"values", arr, len(values)), "values")
    buf = ctypes.c_void_p()
    size = ctypes.c_size_t()
    _check(_lib.codes_get_message(h, ctypes.byref(buf), ctypes.byref(size)), "message")
    data = ctypes.string_at(buf, size.value)
    _lib.codes_handle_delete(h)
    return data


def _grid_values(grid, fn):
    south, west, north, east, step = grid
    ni = int(round((east - west) / step)) + 1
    nj = int(round((north - south) / step)) + 1
    return [[fn(south + j * step, west + i * step) for i in range(ni)] for j in range(nj)]


def write(path, grid, times, fields):
    ref = times[0]
    with open(path, "wb") as out:
        for t in times:
            hour = int(round((t - ref) / 3600))
            if "wind" in fields:
                uv = _grid_values(grid, lambda la, lo: fields["wind"](la, lo, t))
                for comp, code in ((0, (0, 2, 2)), (1, (0, 2, 3))):
                    vals = [row[i][comp] * KN for row in uv for i in range(len(row))]
                    out.write(_message(grid, ref, hour, code, (103, 10), vals))
            if "current" in fields:
                uv = _grid_values(grid, lambda la, lo: fields["current"](la, lo, t))
                for comp, code in ((0, (10, 1, 2)), (1, (10, 1, 3))):
                    vals = [row[i][comp] * KN for row in uv for i in range(len(row))]
                    out.write(_message(grid, ref, hour, code, (1, 0), vals))
            if "wave" in fields:
                hs = _grid_values(grid, lambda la, lo: fields["wave"](la, lo, t))
                vals = [v for row in hs for v in row]
                out.write(_message(grid, ref, hour, (10, 0, 3), (1, 0), vals))
