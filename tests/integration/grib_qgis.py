"""grib_qgis.py PROJECT MANIFEST OUT_PREFIX: QGIS 3.22 opens a voyage package's
project and shows its voyage GRIB as a mesh layer with times: the layer is
valid, holds the variables as dataset groups (wind as vectors), its time
extent is the manifest's first and last valid time, the Temporal Controller's
moments pick different datasets, and two moments render different images.
Its style is the navigator's: the coloured group's legend labels are in knots
(wind, gust) or hectopascals (pressure) and each stop's value is that figure
in the file's unit (m/s by 1852/3600, Pa by 100: computed here); with wind in
the file its arrows are shown by default, drawn over the colours (the image
differs from the same moment drawn without them).
Prints one line; exits 1 on a failure."""
import json
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from qgis.core import (QgsApplication, QgsDateTimeRange, QgsMapRendererSequentialJob,  # noqa: E402
                       QgsMapSettings, QgsMeshDatasetIndex, QgsProject)
from qgis.PyQt.QtCore import QDateTime, QSize, Qt  # noqa: E402


def fail(msg):
    print("grib_qgis: FAIL: " + msg)
    sys.exit(1)


def render(layer, t, png):
    s = QgsMapSettings()
    s.setLayers([layer])
    s.setDestinationCrs(layer.crs())
    s.setExtent(layer.extent())
    s.setOutputSize(QSize(400, 200))
    s.setBackgroundColor(Qt.white)
    s.setIsTemporal(True)
    s.setTemporalRange(QgsDateTimeRange(t, t))
    job = QgsMapRendererSequentialJob(s)
    job.start()
    job.waitForFinished()
    img = job.renderedImage()
    img.save(png)
    return img


def check_style(layer, groups):
    """The coloured group's stops and labels, the arrows' group; a line."""
    rs = layer.rendererSettings()
    scalar, vector = rs.activeScalarDatasetGroup(), rs.activeVectorDatasetGroup()
    names = [n for n, _, _ in groups]
    if any(v for _, v, _ in groups) and (vector < 0 or not groups[vector][1]):
        fail("the wind's arrows are not shown by default (vector group %d of %s)" % (vector, names))
    if scalar < 0:
        fail("no group coloured by default")
    name = names[scalar]
    units = {"wind": ("kn", 1852 / 3600), "Wind speed (gust)": ("kn", 1852 / 3600),
             "Pressure reduced to MSL": ("hPa", 100.0)}
    want = next((u for k, u in units.items() if name.startswith(k)), None)
    items = rs.scalarSettings(scalar).colorRampShader().colorRampItemList()
    if len(items) < 3:
        fail("the %s ramp has %d stops" % (name, len(items)))
    labels = []
    for it in items:
        label = it.label.split()
        if want is not None:
            if len(label) < 2 or label[1] != want[0]:
                fail("%s: the legend says %r, not %s" % (name, it.label, want[0]))
            if abs(float(label[0]) * want[1] - it.value) > 1e-6 * max(1.0, abs(it.value)):
                fail("%s: the stop labelled %r is at %g in the file, not %g" %
                     (name, it.label, it.value, float(label[0]) * want[1]))
        labels.append(it.label)
    return "%s coloured, legend %s" % (name.split(" [")[0], labels)


def main():
    project, manifest, prefix = sys.argv[1:4]
    app = QgsApplication([], False)
    app.initQgis()
    if not QgsProject.instance().read(project):
        fail("QGIS cannot read " + project)
    layer = QgsProject.instance().mapLayer("voyage_grib")
    if layer is None or not layer.isValid():
        fail("no valid layer voyage_grib in the project")
    g = json.load(open(manifest))["grib"]
    groups = []
    for i in range(layer.datasetGroupCount()):
        m = layer.datasetGroupMetadata(QgsMeshDatasetIndex(i, 0))
        groups.append((m.name(), m.isVector(), layer.datasetCount(QgsMeshDatasetIndex(i, 0))))
    if "wind" in g["variables"].split(",") and not any(v for _, v, _ in groups):
        fail("no vector group (wind) among %s" % groups)
    if any(n != g["times"] for _, _, n in groups):
        fail("groups %s do not hold the manifest's %d times" % (groups, g["times"]))
    tp = layer.temporalProperties()
    ext = tp.timeExtent()
    iso = lambda q: q.toUTC().toString("yyyy-MM-ddTHH:mm:ssZ")
    if not tp.isActive() or iso(ext.begin()) != g["first_time"] or iso(ext.end()) != g["last_time"]:
        fail("time extent %s - %s (active %s), manifest %s - %s" %
             (iso(ext.begin()), iso(ext.end()), tp.isActive(), g["first_time"], g["last_time"]))
    # Two moments a day apart: different datasets, different pictures.
    t0 = ext.begin()
    t1 = t0.addSecs(24 * 3600)
    idx = [layer.activeScalarDatasetAtTime(QgsDateTimeRange(t, t)) for t in (t0, t1)]
    if not idx[0].isValid() or not idx[1].isValid() or idx[0].dataset() == idx[1].dataset():
        fail("the moments %s and %s pick datasets %s and %s" %
             (iso(t0), iso(t1), idx[0].dataset(), idx[1].dataset()))
    style = check_style(layer, groups)
    images = []
    for k, t in enumerate((t0, t1)):
        images.append(render(layer, t, "%s-%d.png" % (prefix, k)))
    if images[0] == images[1]:
        fail("the two moments render the same image")
    if any(v for _, v, _ in groups):
        rs = layer.rendererSettings()
        rs.setActiveVectorDatasetGroup(-1)
        layer.setRendererSettings(rs)
        bare = render(layer, t0, "%s-noarrows.png" % prefix)
        changed = sum(1 for x in range(400) for y in range(200)
                      if bare.pixel(x, y) != images[0].pixel(x, y))
        if changed < 200:
            fail("the wind's arrows are not drawn (%d pixels differ without them)" % changed)
        style += ", arrows drawn (%d pixels)" % changed
    # Each moment shows the grid points near the ship then: a part of the
    # voyage's extent, drawn in colour.
    drawn = [sum(1 for x in range(0, 400, 4) for y in range(0, 200, 4)
                 if img.pixelColor(x, y).name() != "#ffffff") for img in images]
    if min(drawn) < 20:
        fail("a moment draws almost nothing (%s of 5000 samples not white)" % drawn)
    print("grib_qgis: %s: %d dataset groups %s, times %s to %s, two moments render differently "
          "(%s of 5000 samples drawn); %s" % (layer.name(), len(groups), [n for n, _, _ in groups],
                                              g["first_time"], g["last_time"], drawn, style))
    app.exitQgis()


main()
