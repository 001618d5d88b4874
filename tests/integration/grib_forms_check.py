"""grib_forms_check.py FILE: a GRIB as QGIS and GDAL read it, value by value,
against ecCodes' own tools. Run in Debian's python3 (python3-qgis, python3-gdal)
by tests/integration/test_grib_forms.sh.

For every message of FILE (one field at one valid time), ecCodes' grib_get and
grib_get_data (not seawx's code) give the variable, the valid time and every
grid node with its value; three nodes holding a value are taken (the first,
the middle and the last), and at each:
  - GDAL (the GRIB driver, as `gdalinfo` and QGIS's raster provider read it):
    the band of that message, with that valid time, holds the same value at
    the pixel of that node;
  - QGIS (the MDAL mesh provider, as *Add Mesh Layer* reads it): the dataset
    group of that variable (named as GDAL names the band) has a dataset at that valid time, the mesh has a
    vertex at that node, and its value there is the same (for wind, the
    vector's x for 10u and y for 10v).
Temperatures are compared in degrees Celsius, as GDAL gives them. "Same" is within a millionth of the value as the file holds it (GDAL decodes
packed values in single precision). Prints one line a message; exits 1 with the first
difference on stderr.
"""
import datetime
import subprocess
import sys

from osgeo import gdal
from qgis.core import QgsApplication, QgsMesh, QgsMeshDatasetIndex, QgsMeshLayer

gdal.UseExceptions()
MISSING = 9.99e20


def fail(msg):
    print(f"grib_forms_check.py: {msg}", file=sys.stderr)
    sys.exit(1)


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def messages(path):
    """[(shortName, valid datetime UTC, [(lat, lon, value) of the nodes with a value])]"""
    heads = run("grib_get", "-p", "shortName,validityDate,validityTime", path).split("\n")
    out = []
    for i, line in enumerate(h for h in heads if h.strip()):
        name, date, hhmm = line.split()
        valid = datetime.datetime.strptime(f"{date}{int(hhmm):04d}", "%Y%m%d%H%M").replace(
            tzinfo=datetime.timezone.utc)
        nodes = []
        data = run("grib_get_data", "-m", str(MISSING), "-F", "%.10g", "-w", f"count={i + 1}", path)
        for row in data.split("\n")[1:]:
            f = row.split()
            if len(f) == 3 and float(f[2]) != MISSING:
                nodes.append((float(f[0]), float(f[1]), float(f[2])))
        if not nodes:
            fail(f"message {i + 1} ({name}) holds no value")
        out.append((name, valid, nodes))
    return out


def same(a, b, size):
    """b is a within a millionth of the size of the value as the file holds it
    (GDAL decodes packed values in single precision)."""
    return b is not None and abs(a - b) <= 1e-6 * max(1.0, abs(size))


def lon_in(lon, lo, hi):
    """lon, or lon +- 360, inside [lo, hi]; None when none is."""
    for x in (lon, lon - 360, lon + 360):
        if lo - 1e-6 <= x <= hi + 1e-6:
            return x
    return None


class Gdal:
    def __init__(self, path):
        self.ds = gdal.Open(path)
        self.gt = self.ds.GetGeoTransform()

    def at(self, band, valid, lat, lon):
        b = self.ds.GetRasterBand(band)
        t = int(b.GetMetadataItem("GRIB_VALID_TIME").split()[0])
        if t != int(valid.timestamp()):
            fail(f"GDAL band {band}: valid time {t}, not {int(valid.timestamp())}")
        gt, w, h = self.gt, self.ds.RasterXSize, self.ds.RasterYSize
        x = lon_in(lon, gt[0], gt[0] + gt[1] * w)
        if x is None:
            return None
        col = round((x - gt[0]) / gt[1] - 0.5)
        row = round((lat - gt[3]) / gt[5] - 0.5)
        if not (0 <= col < w and 0 <= row < h):
            return None
        v = b.ReadAsArray(col, row, 1, 1)[0][0]
        nd = b.GetNoDataValue()
        return None if nd is not None and v == nd else float(v)


class Mesh:
    def __init__(self, path):
        self.layer = QgsMeshLayer(path, "grib", "mdal")
        if not self.layer.isValid():
            fail(f"QGIS cannot load {path} as a mesh: {self.layer.error().summary()}")
        self.dp = self.layer.dataProvider()
        mesh = QgsMesh()
        self.dp.populateMesh(mesh)
        self.vertex = {}
        xs = [mesh.vertex(i).x() for i in range(mesh.vertexCount())]
        self.lo, self.hi = min(xs), max(xs)
        for i in range(mesh.vertexCount()):
            v = mesh.vertex(i)
            self.vertex[(round(v.y(), 4), round(v.x(), 4))] = i
        ref = self.layer.temporalProperties().referenceTime()
        self.ref = ref.toSecsSinceEpoch()
        self.groups = {self.dp.datasetGroupMetadata(g).name(): g
                       for g in range(self.dp.datasetGroupCount())}

    def group(self, comment):
        """The dataset group of a field GDAL names by comment (its band's
        GRIB_COMMENT, which MDAL names its groups after; the wind's two
        components make one vector group, "wind"), and the part of its value."""
        part = "s"
        if comment.startswith("u-component of wind"):
            comment, part = "wind", "x"
        elif comment.startswith("v-component of wind"):
            comment, part = "wind", "y"
        g = next((g for n, g in self.groups.items() if n.split(" [")[0] == comment.split(" [")[0]),
                 None)
        if g is None:
            fail(f"QGIS shows no dataset group for {comment}: {sorted(self.groups)}")
        return g, part

    def at(self, name, comment, valid, lat, lon):
        g, part = self.group(comment)
        hours = (valid.timestamp() - self.ref) / 3600
        d = next((d for d in range(self.dp.datasetCount(g))
                  if abs(self.dp.datasetMetadata(QgsMeshDatasetIndex(g, d)).time() - hours) < 1e-6),
                 None)
        if d is None:
            fail(f"QGIS's {name} has no dataset at {valid.isoformat()}")
        x = lon_in(lon, self.lo, self.hi)
        i = self.vertex.get((round(lat, 4), round(x, 4))) if x is not None else None
        if i is None:
            return None
        v = self.dp.datasetValue(QgsMeshDatasetIndex(g, d), i)
        return {"x": v.x(), "y": v.y(), "s": v.scalar()}[part]


def main():
    path = sys.argv[1]
    app = QgsApplication([], False)
    app.initQgis()
    msgs = messages(path)
    g, m = Gdal(path), Mesh(path)
    if g.ds.RasterCount != len(msgs):
        fail(f"GDAL reads {g.ds.RasterCount} bands, ecCodes {len(msgs)} messages")
    for k, (name, valid, nodes) in enumerate(msgs):
        picks = [nodes[0], nodes[len(nodes) // 2], nodes[-1]]
        band = g.ds.GetRasterBand(k + 1)
        comment = band.GetMetadataItem("GRIB_COMMENT")
        # GDAL gives temperatures in degrees Celsius (its GRIB_NORMALIZE_UNITS)
        offset = -273.15 if band.GetMetadataItem("GRIB_UNIT") == "[C]" else 0.0
        for lat, lon, v0 in picks:
            v = v0 + offset
            gv, mv = g.at(k + 1, valid, lat, lon), m.at(name, comment, valid, lat, lon)
            if not same(v, gv, v0):
                fail(f"{path}: {name} at {valid:%Y-%m-%d %HZ}, {lat:g} {lon:g}: ecCodes {v:g}, "
                     f"GDAL {gv}")
            if not same(v, mv, v0):
                fail(f"{path}: {name} at {valid:%Y-%m-%d %HZ}, {lat:g} {lon:g}: ecCodes {v:g}, "
                     f"QGIS {mv}")
        print(f"{name} {valid:%Y-%m-%d %HZ}: " +
              ", ".join(f"{lat:g} {lon:g} = {v:g}" for lat, lon, v in picks) + " in GDAL and QGIS")
    print(f"{path}: {len(msgs)} messages, 3 nodes each, the same in ecCodes, GDAL and QGIS")
    del g, m  # the layer goes before QGIS does
    app.exitQgis()


if __name__ == "__main__":
    main()
