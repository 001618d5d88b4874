"""QGIS, headless, on the folder `seawx storms -o DIR/` writes: what
tests/integration/test_storms_danger.sh runs in Debian's python3 (python3-qgis).
Prints what it found; exits non-zero with one line on stderr when something is
wrong.

  test_storms_qgis.py sublayers FILE...      each file is one layer: QGIS asks
                                             no sublayer question
  test_storms_qgis.py qlr QLR N PNG          the .qlr loads N valid layers, each
                                             with the renderer of its .qml and
                                             following the time slider (as in a
                                             voyage package's project); QGIS's
                                             Temporal Controller starts on the
                                             first fix and, at the 6-hour step
                                             the .qlr asks for, each fix starts
                                             a frame; renders them all to PNG
  test_storms_qgis.py qgs QGS N              the project opens with the N
                                             layers of the .qlr, valid and
                                             styled, in EPSG:4326, the Temporal
                                             Controller animated, a 6-hour step,
                                             its range from the first to the
                                             last time of the tracks written,
                                             each fix a frame start
"""
import json
import os
import sys

from qgis.core import (Qgis, QgsApplication, QgsInterval, QgsLayerDefinition, QgsTemporalNavigationObject,
                       QgsMapRendererSequentialJob, QgsMapSettings, QgsProject,
                       QgsProviderRegistry, QgsRectangle, QgsVectorLayer, QgsWkbTypes)
from qgis.gui import QgsTemporalControllerWidget
from qgis.PyQt.QtCore import QDateTime, QSize, Qt
from qgis.PyQt.QtGui import QColor

from package_storms_qgis import check_temporal

# The renderer each layer's .qml gives.
RENDERERS = {"storms": "categorizedSymbol", "track_points": "categorizedSymbol",
             "forecast_points": "categorizedSymbol", "forecast_lines": "categorizedSymbol",
             "wind_radii": "categorizedSymbol", "wind_swaths": "categorizedSymbol",
             "cones": "singleSymbol", "danger_areas": "singleSymbol"}


def fail(msg):
    print(f"test_storms_qgis.py: {msg}", file=sys.stderr)
    sys.exit(1)


def cmd_sublayers(*files):
    meta = QgsProviderRegistry.instance().providerMetadata("ogr")
    for f in files:
        # What the browser and "Add Vector Layer" ask OGR: more than one
        # sublayer (one per geometry type of a mixed file) opens the chooser.
        subs = meta.querySublayers(f, Qgis.SublayerQueryFlag.ResolveGeometryType)
        kinds = [QgsWkbTypes.displayString(s.wkbType()) for s in subs]
        print(f"{f}: {len(subs)} sublayer(s) {kinds}")
        if len(subs) != 1:
            fail(f"{f} gives {len(subs)} sublayers {kinds}: QGIS would ask which to add")
        layer = QgsVectorLayer(f, "x", "ogr")
        if not layer.isValid() or not QgsWkbTypes.isMultiType(layer.wkbType()):
            fail(f"{f}: not a valid layer of a Multi* type ({layer.wkbType()})")


def check_controller(nav, qlr):
    """The Temporal Controller after the .qlr came in: its range the storms'
    span; with the step the .qlr's comment asks for (6 hours) every fix of
    the observed tracks starts a frame (the last may end the last one)."""
    text = open(qlr).read()
    if "a step of 6 hours" not in text:
        fail(f"{qlr} does not tell the Temporal Controller's step")
    times = sorted({f["properties"]["time"] for f in
                    json.load(open(os.path.join(os.path.dirname(qlr), "track_points.geojson")))
                    ["features"]})
    rng = nav.temporalExtents()
    begin = rng.begin().toString(Qt.ISODate).replace("Z", "")
    if not times or begin != times[0].replace("Z", ""):
        fail(f"the Temporal Controller starts at {begin}, not at the first fix {times[:1]}")
    hourly = nav.totalFrameCount()
    nav.setFrameDuration(QgsInterval(6 * 3600))
    # the last fix ends the range: the last frame ends on it
    starts = {rng.end().toSecsSinceEpoch()}
    for k in range(nav.totalFrameCount()):
        starts.add(nav.dateTimeRangeForFrameNumber(k).begin().toSecsSinceEpoch())
    off = [t for t in times
           if QDateTime.fromString(t, Qt.ISODate).toSecsSinceEpoch() not in starts]
    if off:
        fail(f"with a 6-hour step no frame starts at the fixes {off[:3]}")
    print(f"Temporal Controller: {rng.begin().toString(Qt.ISODate)} to "
          f"{rng.end().toString(Qt.ISODate)}, {hourly} frames of 1 h, "
          f"{nav.totalFrameCount()} of 6 h, each of the {len(times)} fixes' times a frame start")


def cmd_qlr(qlr, n, png):
    p = QgsProject.instance()
    qlr = os.path.abspath(qlr)
    controller = QgsTemporalControllerWidget()
    ok, err = QgsLayerDefinition.loadLayerDefinition(qlr, p, p.layerTreeRoot())
    if not ok:
        fail(f"the layer definition did not load: {err}")
    check_controller(controller.temporalController(), qlr)
    layers = list(p.mapLayers().values())
    print(f"{len(layers)} layers: " + ", ".join(sorted(l.name() for l in layers)))
    if len(layers) != int(n):
        fail(f"{qlr} loaded {len(layers)} layers, not {n}")
    extent = QgsRectangle()
    for layer in layers:
        want = RENDERERS.get(layer.name())
        got = layer.renderer().type() if layer.isValid() else None
        print(f"{layer.name()}: valid={layer.isValid()} features={layer.featureCount()} "
              f"renderer={got} geometry={QgsWkbTypes.displayString(layer.wkbType())}")
        if not layer.isValid():
            fail(f"{layer.name()} did not load from {layer.source()}")
        if got != want:
            fail(f"{layer.name()} has renderer {got}, not {want} from its .qml")
        frames = check_temporal(layer, os.path.join(os.path.dirname(qlr),
                                                     layer.name() + ".geojson"), layer.name())
        print(f"{layer.name()}: time slider checked at {frames} frames")
        if layer.featureCount() > 0:
            extent.combineExtentWith(layer.extent())
    order = [l.name() for l in p.layerTreeRoot().layerOrder()]
    ms = QgsMapSettings()
    ms.setLayers(p.layerTreeRoot().layerOrder())
    ms.setDestinationCrs(layers[0].crs())
    ms.setExtent(extent)
    ms.setOutputSize(QSize(1200, max(200, round(1200 * extent.height() / extent.width()))))
    ms.setBackgroundColor(QColor(255, 255, 255, 255))
    job = QgsMapRendererSequentialJob(ms)
    job.start()
    job.waitForFinished()
    if job.errors():
        fail("rendering failed: " + "; ".join(e.message for e in job.errors()))
    if not job.renderedImage().save(png, "PNG"):
        fail(f"cannot write {png}")
    img = job.renderedImage()
    painted = sum(1 for y in range(0, img.height(), 4) for x in range(0, img.width(), 4)
                  if img.pixel(x, y) & 0xFFFFFF != 0xFFFFFF)
    print(f"drawn: {' > '.join(order)}; {painted} painted samples")
    if painted < 200:
        fail(f"{png} is nearly empty ({painted} painted samples)")


def track_times(folder):
    """Every time of the tracks written, observed and forecast, from the
    GeoJSON files (not from what seawx computed)."""
    times = set()
    for name, key in (("track_points.geojson", "time"), ("forecast_points.geojson", "forecast_time")):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            for f in json.load(open(path))["features"]:
                if f["properties"].get(key):
                    times.add(QDateTime.fromString(f["properties"][key], Qt.ISODate)
                              .toSecsSinceEpoch())
    return sorted(times)


def cmd_qgs(qgs, n):
    p = QgsProject.instance()
    qgs = os.path.abspath(qgs)
    controller = QgsTemporalControllerWidget()
    if not p.read(qgs):
        fail(f"cannot read {qgs}: {p.error()}")
    layers = list(p.mapLayers().values())
    print(f"{len(layers)} layers: " + ", ".join(sorted(l.name() for l in layers)))
    if len(layers) != int(n):
        fail(f"{qgs} opened {len(layers)} layers, not {n}")
    for layer in layers:
        want = RENDERERS.get(layer.name())
        if not layer.isValid() or layer.renderer().type() != want:
            fail(f"{layer.name()}: valid {layer.isValid()}, not styled as its .qml ({want})")
        if not layer.temporalProperties().isActive():
            fail(f"{layer.name()} does not follow the time slider")
        if not layer.crs().isValid():
            fail(f"{layer.name()} has no valid CRS ({layer.crs().authid() or 'none'})")
    if p.crs().authid() != "EPSG:4326":
        fail(f"the project's CRS is {p.crs().authid()!r}, not EPSG:4326")
    nav = controller.temporalController()
    if nav.navigationMode() != QgsTemporalNavigationObject.Animated:
        fail(f"the Temporal Controller opens in mode {nav.navigationMode()}, not animated")
    step = nav.frameDuration()
    if abs(step.seconds() - 6 * 3600) > 0.5:
        fail(f"the Temporal Controller's step is {step.seconds()} s, not 6 hours")
    times = track_times(os.path.dirname(qgs))
    rng = p.timeSettings().temporalRange()
    b, e = rng.begin().toSecsSinceEpoch(), rng.end().toSecsSinceEpoch()
    if not times or (b, e) != (times[0], times[-1]):
        fail(f"the range is {rng.begin().toString(Qt.ISODate)} to {rng.end().toString(Qt.ISODate)}"
             f", not the tracks' first to last time")
    starts = {e}
    for k in range(nav.totalFrameCount()):
        starts.add(nav.dateTimeRangeForFrameNumber(k).begin().toSecsSinceEpoch())
    obs = [t for t in track_times_observed(os.path.dirname(qgs)) if t not in starts]
    if obs:
        fail(f"no frame starts at the fixes {obs[:3]}")
    print(f"project: {len(layers)} styled layers, animated, {nav.totalFrameCount()} frames of 6 h "
          f"from {rng.begin().toString(Qt.ISODate)} to {rng.end().toString(Qt.ISODate)}")


def track_times_observed(folder):
    return sorted({QDateTime.fromString(f["properties"]["time"], Qt.ISODate).toSecsSinceEpoch()
                   for f in json.load(open(os.path.join(folder, "track_points.geojson")))
                   ["features"]})


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("sublayers", "qlr", "qgs"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    app = QgsApplication([], True)
    app.initQgis()
    try:
        if sys.argv[1] == "sublayers":
            cmd_sublayers(*sys.argv[2:])
        elif sys.argv[1] == "qlr" and len(sys.argv) == 5:
            cmd_qlr(*sys.argv[2:])
        elif sys.argv[1] == "qgs" and len(sys.argv) == 4:
            cmd_qgs(*sys.argv[2:])
        else:
            print(__doc__, file=sys.stderr)
            sys.exit(2)
    finally:
        QgsProject.instance().clear()
        app.exitQgis()


if __name__ == "__main__":
    main()
