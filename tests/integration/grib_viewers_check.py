"""Checks of a voyage GRIB as viewers show it: what tests/integration/test_grib_viewers.sh
runs in Debian's python3 (python3-qgis, PyQt5). Each command prints what it found and
exits non-zero with one line on stderr when something is wrong.

  grib_viewers_check.py wind SHOTS REFS MIN_PIXELS MOVES [MIN_INSIDE]
      SHOTS and REFS are comma-separated screenshots of one viewer, one per valid
      time: SHOTS of the file with wind, REFS of the same view of a file without
      wind (pressure only, same grids). Wind is drawn at a time where the screenshot
      differs from its reference in at least MIN_PIXELS pixels that the reference
      shows as open sea or as the file's area (its two most common colours that are
      neither dark nor grey), not
      counting dark or grey ones (isobars, labels); at least MIN_INSIDE (default
      0.8) of them inside the file's area, as XyGrib shades it. MOVES=east: the drawn wind's centre moves east (right) from
      each time to the next, as the ship does; MOVES=any: no condition.

  grib_viewers_check.py same A B [ROWS]
      the two screenshots are the same, pixel for pixel (their first ROWS rows)

  grib_viewers_check.py qgis FILE PNG_PREFIX HOURS
      QGIS (MDAL) loads FILE as a mesh layer: its dataset groups "wind" (vector)
      and pressure carry the valid times HOURS (comma-separated forecast hours
      after the run), the layer's time extent spans them, and rendering wind
      then pressure at the first three times with a temporal map range (as the
      Temporal Controller does) draws something different at each time, where
      the file has data; images PNG_PREFIX-wind-H.png and PNG_PREFIX-prmsl-H.png.
      Prints what the GDAL raster provider makes of the same file.

  grib_viewers_check.py mesh-extent FILE
      prints the mesh layer's extent and vertex count (W S E N N)
"""
import sys

from qgis.core import (QgsApplication, QgsDateTimeRange, QgsMapRendererSequentialJob,
                       QgsMapSettings, QgsMeshDatasetIndex, QgsMeshLayer, QgsRasterLayer)
from qgis.PyQt.QtCore import QSize, Qt
from qgis.PyQt.QtGui import QColor, QImage


def fail(msg):
    print(f"grib_viewers_check.py: {msg}", file=sys.stderr)
    sys.exit(1)


def load(path):
    im = QImage(path)
    if im.isNull():
        fail(f"cannot read {path}")
    return im


def pixels(im):
    """The image as a list of rows of 0xRRGGBB."""
    return [[im.pixel(x, y) & 0xFFFFFF for x in range(im.width())] for y in range(im.height())]


def dark(c):
    return ((c >> 16) & 255) + ((c >> 8) & 255) + (c & 255) < 240


def coloured(c):
    """Neither dark nor grey: the sea and the file's area, not the panels around the map."""
    ch = ((c >> 16) & 255, (c >> 8) & 255, c & 255)
    return not dark(c) and max(ch) - min(ch) > 40


def wind_pixels(shot, ref):
    """Pixels drawn over the sea or the file's area that the reference lacks:
    (count, share inside the file's area, mean x)."""
    a, b = pixels(shot), pixels(ref)
    counts = {}
    for row in b:
        for c in row:
            counts[c] = counts.get(c, 0) + 1
    common = sorted((c for c in counts if coloured(c)), key=counts.get, reverse=True)[:2]
    # The file's area is the lighter of the two (XyGrib shades it over the sea).
    area = max(common, key=lambda c: ((c >> 16) & 255) + ((c >> 8) & 255) + (c & 255))
    n = inside = sx = 0
    for y, (ra, rb) in enumerate(zip(a, b)):
        for x, (ca, cb) in enumerate(zip(ra, rb)):
            if ca != cb and cb in common and coloured(ca):
                n += 1
                inside += cb == area
                sx += x
    return n, (inside / n if n else 0.0), (sx / n if n else 0.0)


def cmd_wind(shots, refs, min_pixels, moves, min_inside="0.8"):
    shots, refs = shots.split(","), refs.split(",")
    if len(shots) != len(refs) or not shots:
        fail("as many screenshots as references, at least one")
    xs = []
    for s, r in zip(shots, refs):
        n, share, mx = wind_pixels(load(s), load(r))
        print(f"{s}: {n} wind pixels, {share:.1%} inside the file's area, centre x {mx:.0f}")
        if n < int(min_pixels):
            fail(f"{s}: {n} wind pixels, fewer than {min_pixels}: no wind drawn")
        if share < float(min_inside):
            fail(f"{s}: only {share:.1%} of the wind drawn inside the file's area")
        xs.append(mx)
    if moves == "east" and any(b <= a for a, b in zip(xs, xs[1:])):
        fail(f"the wind drawn does not move east from time to time: centres {xs}")


def render(layer, t, png):
    e = layer.extent()
    e.scale(1.1)
    ms = QgsMapSettings()
    ms.setLayers([layer])
    ms.setDestinationCrs(layer.crs())
    ms.setExtent(e)
    ms.setOutputSize(QSize(720, max(1, round(720 * e.height() / e.width()))))
    ms.setBackgroundColor(QColor(0, 0, 0, 0))
    ms.setIsTemporal(True)
    ms.setTemporalRange(QgsDateTimeRange(t, t))
    job = QgsMapRendererSequentialJob(ms)
    job.start()
    job.waitForFinished()
    if job.errors():
        fail("rendering failed: " + "; ".join(x.message for x in job.errors()))
    im = job.renderedImage()
    if not im.save(png, "PNG"):
        fail(f"cannot write {png}")
    opaque = [(x, c) for row in pixels_argb(im) for x, c in row if c >> 24]
    return im, len(opaque), (sum(x for x, _ in opaque) / len(opaque) if opaque else 0.0)


def pixels_argb(im):
    return [[(x, im.pixel(x, y)) for x in range(im.width())] for y in range(im.height())]


def cmd_qgis(path, prefix, hours):
    hours = [float(h) for h in hours.split(",")]
    layer = QgsMeshLayer(path, "voyage", "mdal")
    if not layer.isValid():
        fail(f"QGIS cannot load {path} as a mesh: {layer.error().summary()}")
    dp = layer.dataProvider()
    groups = {dp.datasetGroupMetadata(g).name(): g for g in range(dp.datasetGroupCount())}
    print(f"mesh: {dp.vertexCount()} vertices, extent {layer.extent().toString(2)}, "
          f"groups {sorted(groups)}")
    wind = next((g for n, g in groups.items() if n.split(" ")[0] == "wind"), None)
    prmsl = next((g for n, g in groups.items() if n.startswith("Pressure reduced to MSL")), None)
    if wind is None or prmsl is None:
        fail(f"no wind or pressure dataset group: {sorted(groups)}")
    if not dp.datasetGroupMetadata(wind).isVector():
        fail("the wind group is not a vector")
    for g in (wind, prmsl):
        got = [dp.datasetMetadata(QgsMeshDatasetIndex(g, d)).time() for d in range(dp.datasetCount(g))]
        if got != hours:
            fail(f"group {dp.datasetGroupMetadata(g).name()}: dataset times {got}, not {hours}")
    tp = layer.temporalProperties()
    ref = tp.referenceTime()
    ext = tp.timeExtent()
    first, last = ref.addSecs(int(hours[0] * 3600)), ref.addSecs(int(hours[-1] * 3600))
    print(f"time extent {ext.begin().toString(Qt.ISODate)} .. {ext.end().toString(Qt.ISODate)}, "
          f"reference {ref.toString(Qt.ISODate)}")
    if not tp.isActive() or ext.begin() != first or ext.end() != last:
        fail(f"time extent {ext.begin().toString(Qt.ISODate)}..{ext.end().toString(Qt.ISODate)}, "
             f"not {first.toString(Qt.ISODate)}..{last.toString(Qt.ISODate)}")
    for name, g in (("wind", wind), ("prmsl", prmsl)):
        rs = layer.rendererSettings()
        rs.setActiveScalarDatasetGroup(g)
        layer.setRendererSettings(rs)
        images, xs = [], []
        for h in hours[:3]:
            t = ref.addSecs(int(h * 3600))
            png = f"{prefix}-{name}-{int(h)}.png"
            im, n, mx = render(layer, t, png)
            total = im.width() * im.height()
            print(f"{png}: {name} at {t.toString(Qt.ISODate)}: {n} of {total} pixels drawn, "
                  f"centre x {mx:.0f}")
            if n < 0.01 * total:
                fail(f"{png}: {name} hardly drawn ({n} of {total} pixels)")
            if any(im == other for other in images):
                fail(f"{png}: {name} drawn the same as at an earlier time")
            images.append(im)
            xs.append(mx)
        if any(b <= a for a, b in zip(xs, xs[1:])):
            fail(f"{name}: what is drawn does not move east from time to time: centres {xs}")
    raster = QgsRasterLayer(path, "voyage", "gdal")
    print(f"GDAL raster: valid {raster.isValid()}, {raster.bandCount()} bands, temporal "
          f"capabilities {raster.dataProvider().temporalCapabilities().hasTemporalCapabilities()}")


def cmd_same(a, b, rows=None):
    a_im, b_im = load(a), load(b)
    if rows is not None:
        a_im, b_im = a_im.copy(0, 0, a_im.width(), int(rows)), b_im.copy(0, 0, b_im.width(), int(rows))
    if a_im != b_im:
        fail(f"{a} and {b} differ")


def cmd_mesh_extent(path):
    layer = QgsMeshLayer(path, "voyage", "mdal")
    if not layer.isValid():
        fail(f"QGIS cannot load {path} as a mesh")
    e = layer.extent()
    print(f"{e.xMinimum():g} {e.yMinimum():g} {e.xMaximum():g} {e.yMaximum():g} "
          f"{layer.dataProvider().vertexCount()}")


def main():
    app = QgsApplication([], False)
    app.initQgis()
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "wind":
        cmd_wind(*args)
    elif cmd == "qgis":
        cmd_qgis(*args)
    elif cmd == "same":
        cmd_same(*args)
    elif cmd == "mesh-extent":
        cmd_mesh_extent(*args)
    else:
        fail(f"unknown command {cmd}")
    app.exitQgis()


if __name__ == "__main__":
    main()
