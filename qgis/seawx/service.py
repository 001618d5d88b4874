"""What the Browser lists, read through the seawx GDAL plugin (gdal_SEAWX.so).

Every answer comes from GDAL opening a SEAWX: connection string: the bundles
and variables are its subdatasets, a run's valid times its metadata, the
storms its vector layers. The plugin has no HTTP client of its own, and never
reads the API key: the GDAL plugin takes it (and the service's address) from
SEAWX_API_KEY / SEAWX_API_KEY_FILE / SEAWX_BASE_URL in QGIS's environment or
GDAL's configuration options, so no connection string made here carries it.
"""
import threading
import time

from osgeo import gdal, ogr

PREFIX = "SEAWX:"

# Point data kinds of the GDAL plugin (driver/seawx_points.cpp) and the keys
# each needs besides lat and lon; the driver has no listing of them.
POINT_KINDS = [
    ("weather", "current weather at a point", ""),
    ("forecast-latest", "forecast of the latest run at a point", "bundles=basic"),
    ("tides", "hourly tide heights at a point", ""),
    ("soil", "soil moisture at a point", ""),
]

# A bundle's listing of every run is read once a minute at most: expanding
# each variable of a bundle in the Browser reads the same listing.
LISTING_TTL = 60.0


class ServiceError(Exception):
    """One line from the GDAL plugin saying what failed (never with the key)."""


def escape(value):
    """A connection string value as the GDAL plugin writes one: '%', ',',
    '"', spaces and control characters as %XX."""
    out = bytearray()
    for b in value.encode("utf-8"):
        if b in (0x25, 0x2C, 0x22) or b <= 0x20 or b == 0x7F:
            out += b"%%%02X" % b
        else:
            out.append(b)
    return out.decode("utf-8")


def connstr(kind="", **items):
    """SEAWX:[kind,]key=value,... with the values escaped; items whose value
    is None or empty are left out, the others kept in the order given."""
    parts = [kind] if kind else []
    parts += [f"{k}={escape(str(v))}" for k, v in items.items() if v not in (None, "")]
    return PREFIX + ",".join(parts)


def _open(uri, flags):
    gdal.PushErrorHandler("CPLQuietErrorHandler")
    try:
        gdal.ErrorReset()
        ds = gdal.OpenEx(uri, flags)
        msg = gdal.GetLastErrorMsg()
    finally:
        gdal.PopErrorHandler()
    if ds is None:
        if gdal.GetDriverByName("SEAWX") is None:
            msg = ("the seawx GDAL plugin (gdal_SEAWX.so) is not installed: install the seawx "
                   "package, or set GDAL_DRIVER_PATH before QGIS starts")
        raise ServiceError(msg or f"GDAL cannot open {uri}")
    return ds


def _subdatasets(uri):
    md = _open(uri, gdal.OF_RASTER).GetMetadata("SUBDATASETS") or {}
    out = []
    for i in range(1, len(md) // 2 + 1):
        name, desc = md.get(f"SUBDATASET_{i}_NAME"), md.get(f"SUBDATASET_{i}_DESC", "")
        if name:
            out.append((name, desc))
    return out


def bundles():
    """[(bundle, connection string)] of the twelve bundles (no request)."""
    out = []
    for name, desc in _subdatasets(PREFIX):
        # "Bundle basic (WMS layers)"
        words = desc.split()
        out.append((words[1] if len(words) > 1 else name, name))
    return out


def variables(bundle):
    """[(variable, title, connection string of its latest run)]: the
    variables of a bundle ('t2m:K'), in the service's order."""
    out = []
    for name, desc in _subdatasets(connstr(bundle=bundle)):
        # "t2m:K latest - 2 metre temperature, latest complete run (now ...)"
        head, _, tail = desc.partition(" - ")
        var = head[:-len(" latest")] if head.endswith(" latest") else head
        title = "" if tail.startswith("latest complete run") else \
            tail.split(", latest complete run")[0]
        out.append((var, title, name))
    return out


_listing_lock = threading.Lock()
_listings = {}


def runs(bundle, variable):
    """[(label, connection string)] of every run of a variable, newest
    first: label 'run 2024-10-01T00Z' (' (in production)' when it is)."""
    with _listing_lock:
        hit = _listings.get(bundle)
    if hit and time.monotonic() - hit[0] < LISTING_TTL:
        entries = hit[1]
    else:
        entries = _subdatasets(connstr(bundle=bundle, runs="all"))
        with _listing_lock:
            _listings[bundle] = (time.monotonic(), entries)
    out = []
    for name, desc in entries:
        # "t2m:K run 2024-10-01T00Z - 2 metre temperature, 113 valid times"
        head, _, tail = desc.partition(" - ")
        var, sep, run = head.partition(" run ")
        if not sep or var != variable:
            continue
        label = f"run {run}"
        if tail.endswith("(in production)"):
            label += " (in production)"
        out.append((run, label, name))
    out.sort(key=lambda r: r[0], reverse=True)
    return [(label, name) for _, label, name in out]


class RunDefinition:
    """One run of a variable as the GDAL plugin describes it: its valid
    times, and its layer definition (a .qlr document, as `seawx qlr` writes
    it: one layer per valid time, each with its connection string, name,
    fixed range and legend image)."""

    def __init__(self, times, qlr):
        self.times = times
        self.qlr = qlr


def run_definition(uri, crs=None):
    """The run a connection string names (a run's, or a variable's latest),
    its layers in crs when given (the service renders in EPSG:3857 itself)."""
    if crs and "crs=" not in uri:
        uri = f"{uri},crs={escape(crs)}"
    ds = _open(uri, gdal.OF_RASTER)
    if ds.RasterCount == 0:
        raise ServiceError(f"{uri} is a listing, not a layer")
    md = ds.GetMetadata() or {}
    times = [t for t in md.get("TIMES", "").split(",") if t]
    if not times:
        raise ServiceError(f"layer {md.get('LAYER', uri)} has no valid times to step through")
    gdal.PushErrorHandler("CPLQuietErrorHandler")
    try:
        gdal.ErrorReset()
        qlr = ds.GetMetadataItem("QLR", "QGIS")
        msg = gdal.GetLastErrorMsg()
    finally:
        gdal.PopErrorHandler()
    if not qlr:
        raise ServiceError(msg or f"the GDAL plugin gives no layer definition of {uri}")
    return RunDefinition(times, qlr)


def storm_layers(uri=PREFIX + "storms"):
    """[(layer name, geometry type name, feature count)] of the storms."""
    ds = _open(uri, gdal.OF_VECTOR)
    out = []
    for i in range(ds.GetLayerCount()):
        lyr = ds.GetLayer(i)
        out.append((lyr.GetName(), ogr.GeometryTypeToName(lyr.GetGeomType()),
                    lyr.GetFeatureCount()))
    return out
