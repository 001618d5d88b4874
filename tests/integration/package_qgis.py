"""QGIS, headless, opens a voyage package's project (what
tests/integration/test_qgis_package.sh runs in Debian's python3, python3-qgis).

  package_qgis.py PACKAGE VARIABLE OUT_DIR

Reads PACKAGE/project.qgs; checks that the default view holds the route,
that the land (GSHHG, coast.geojson) is under every layer and right at four
points,
that every file of the manifest is a valid raster layer in the group of its
variable with the fixed temporal range the manifest gives, and the route is
there; that the Temporal Controller (QGIS's own panel, made before the project
is read, as QGIS's window makes it) opens in animated navigation and that each
of its frames over the project's range shows exactly one file of each
variable's group (none past the end of that variable's files), and that the
first two frames render as their one file of VARIABLE alone; then renders the project at the first two valid times of
VARIABLE through the temporal range of the map settings, as the Temporal
Controller does, and each of those two files alone: each pair must be the
same pixels, and the two times must differ. Prints what it found; exits
non-zero with one line on stderr when something is wrong.
"""
import json
import os
import sys

from qgis.core import (QgsApplication, QgsDateTimeRange, QgsGeometry, QgsMapRendererSequentialJob,
                       QgsMapSettings, QgsPointXY, QgsProject, QgsRasterLayer, QgsRectangle,
                       QgsCoordinateReferenceSystem, QgsTemporalNavigationObject, QgsWkbTypes)
from qgis.gui import QgsTemporalControllerWidget
from qgis.PyQt.QtCore import QDateTime, QSize, Qt
from qgis.PyQt.QtGui import QColor


def fail(msg):
    print(f"package_qgis.py: {msg}", file=sys.stderr)
    sys.exit(1)


def qdt(s):
    return QDateTime.fromString(s, Qt.ISODate)


def render(layers, extent, at=None, frame=None):
    ms = QgsMapSettings()
    ms.setLayers(layers)
    ms.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
    ms.setExtent(extent)
    ms.setOutputSize(QSize(256, 256))
    ms.setBackgroundColor(QColor(0, 0, 0, 0))
    if at is not None or frame is not None:
        ms.setIsTemporal(True)
        ms.setTemporalRange(frame if frame is not None else QgsDateTimeRange(at, at))
    job = QgsMapRendererSequentialJob(ms)
    job.start()
    job.waitForFinished()
    if job.errors():
        fail("rendering failed: " + "; ".join(e.message for e in job.errors()))
    return job.renderedImage()


def check_frames(nav, root, by_source, manifest, var, out):
    """The Temporal Controller as the project opens it: animated, and one
    file of each group in each frame."""
    if nav.navigationMode() != QgsTemporalNavigationObject.Animated:
        fail(f"the Temporal Controller opens in mode {nav.navigationMode()}, not animated: "
             "QGIS draws every file at once")
    groups, spans = {}, {}
    for f in manifest["files"]:
        groups.setdefault(f["variable"], []).append(by_source[f["path"]])
        lo, hi = spans.get(f["variable"], (qdt(f["shown_from"]), qdt(f["shown_until"])))
        spans[f["variable"]] = (min(lo, qdt(f["shown_from"])), max(hi, qdt(f["shown_until"])))
    n = nav.totalFrameCount()
    if n < 2:
        fail(f"the Temporal Controller has {n} frames")
    for k in range(n):
        frame = nav.dateTimeRangeForFrameNumber(k)
        for v, layers in groups.items():
            shown = [lyr.name() for lyr in layers
                     if lyr.temporalProperties().isVisibleInTemporalRange(frame)]
            # A frame past the end of a variable's files (a budget can stop
            # one layer a valid time before another) shows none of them.
            lo, hi = spans[v]
            want = 0 if frame.begin() > hi or frame.end() < lo else 1
            if len(shown) != want:
                fail(f"frame {k} ({frame.begin().toString(Qt.ISODate)} to "
                     f"{frame.end().toString(Qt.ISODate)}) shows {len(shown)} files of {v}: "
                     f"{shown}")
    group = [t.layer() for t in root.findGroup(var).findLayers()]
    shots = []
    for k in (0, 1):
        frame = nav.dateTimeRangeForFrameNumber(k)
        one = [lyr for lyr in groups[var] if lyr.temporalProperties().isVisibleInTemporalRange(frame)]
        ext = one[0].extent()
        c = ext.center()
        half = min(ext.width(), ext.height()) / 4
        ext = QgsRectangle(c.x() - half, c.y() - half, c.x() + half, c.y() + half)
        whole = render(group, ext, frame=frame)
        alone = render(one, ext)
        whole.save(os.path.join(out, f"frame-{k}.png"))
        alone.save(os.path.join(out, f"frame-{k}-alone.png"))
        if whole != alone:
            fail(f"frame {k} is not the picture of {one[0].name()} alone")
        shots.append(whole)
    if shots[0] == shots[1]:
        fail("frames 0 and 1 render the same pixels")
    step = nav.frameDuration()
    print(f"the Temporal Controller opens animated: {n} frames of {step.hours():g} h, "
          f"each with one file of each of {len(groups)} groups (while the group has files); "
          "frames 0 and 1 render their files")


def check_land(p, root, by_source, manifest, pkg):
    """The land: GSHHG's coastline in the manifest and the project, as a
    polygon layer under every other layer, holding a point inland of Lisbon
    (39.0 N 8.5 W) and Madeira (32.75 N 17.0 W), not the sea between them
    (36.0 N 12.0 W) nor off Lisbon (38.6 N 9.7 W)."""
    coast = manifest.get("coastline")
    if not coast or coast.get("file") != "coast.geojson":
        fail(f"the manifest lists no coastline: {coast}")
    if os.path.getsize(os.path.join(pkg, "coast.geojson")) != coast["bytes"]:
        fail("coast.geojson is not the size the manifest gives")
    land = by_source.get("coast.geojson")
    if land is None or land.geometryType() != QgsWkbTypes.PolygonGeometry:
        fail("the project has no land polygon layer from coast.geojson")
    order = [t.layer().id() for t in root.findLayers()]
    if order[-1] != land.id():
        fail("the land is not the last layer of the tree (drawn under the others)")
    geom = QgsGeometry.unaryUnion([f.geometry() for f in land.getFeatures()])
    for lat, lon, want in ((39.0, -8.5, True), (32.75, -17.0, True), (36.0, -12.0, False),
                           (38.6, -9.7, False)):
        if geom.contains(QgsGeometry.fromPointXY(QgsPointXY(lon, lat))) != want:
            fail(f"the land {'misses' if want else 'covers'} {lat} N {-lon} W")
    print(f"land: {coast['resolution']} GSHHG, {coast['bytes']} bytes, under every layer; "
          "Portugal and Madeira land, the sea between them not")


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    pkg, var, out = sys.argv[1:]
    manifest = json.load(open(os.path.join(pkg, "manifest.json")))
    app = QgsApplication([], True)
    app.initQgis()
    try:
        p = QgsProject.instance()
        controller = QgsTemporalControllerWidget()
        if not p.read(os.path.join(pkg, "project.qgs")):
            fail(f"cannot read the project: {p.error()}")
        root = p.layerTreeRoot()
        by_source = {}
        for layer in p.mapLayers().values():
            if not layer.isValid():
                fail(f"layer {layer.name()} did not load from {layer.source()}")
            if not layer.crs().isValid():
                fail(f"layer {layer.name()} has no valid CRS ({layer.crs().authid() or 'none'})")
            by_source[os.path.basename(layer.source().split("|")[0])] = layer
        if "route.geojson" not in by_source or \
                root.findLayer(by_source["route.geojson"].id()) is None:
            fail("the route is not in the project's layer tree")
        check_land(p, root, by_source, manifest, pkg)
        # The project's CRS is the tiles' (else QGIS opens it with none, and
        # the route in degrees misses the rasters in metres).
        if p.crs().authid() != "EPSG:3857":
            fail(f"the project's CRS is '{p.crs().authid()}', not EPSG:3857")
        # The view opens on the route.
        view = p.viewSettings().defaultViewExtent()
        route_ext = by_source["route.geojson"].extent()  # degrees
        if view.isEmpty() or view.crs().authid() != "EPSG:3857":
            fail("the project has no default view in EPSG:3857")
        c = route_ext.center()
        x, y = c.x() * 20037508.34 / 180, view.center().y()
        if not (view.xMinimum() < x < view.xMaximum()):
            fail(f"the default view {view.toString()} misses the route at {c.x()}")
        for f in manifest["files"]:
            layer = by_source.get(f["path"])
            if layer is None or not isinstance(layer, QgsRasterLayer):
                fail(f"{f['path']} is not a raster layer of the project")
            tp = layer.temporalProperties()
            r = tp.fixedTemporalRange()
            if not tp.isActive() or r.begin() != qdt(f["shown_from"]) or \
                    r.end() != qdt(f["shown_until"]):
                fail(f"{f['path']}: temporal range {r.begin().toString(Qt.ISODate)} to "
                     f"{r.end().toString(Qt.ISODate)}, not {f['shown_from']} to {f['shown_until']}")
            # What the Layers panel shows: the variable and the valid time
            # first, "swh 2026-03-02 12Z".
            when = f["time"][:10] + " " + f["time"][11:13] + "Z" if f["time"][14:19] == "00:00" \
                else f["time"][:10] + " " + f["time"][11:16] + "Z"
            node = root.findLayer(layer.id())
            if layer.name() != f"{f['variable']} {when}" or node.name() != layer.name():
                fail(f"{f['path']} is named '{layer.name()}' ('{node.name()}' in the Layers "
                     f"panel), not '{f['variable']} {when}'")
            group = root.findLayer(layer.id()).parent()
            if group.name() != f["variable"]:
                fail(f"{f['path']} is in group '{group.name()}', not '{f['variable']}'")
        check_frames(controller.temporalController(), root, by_source, manifest, var, out)
        files = [f for f in manifest["files"] if f["variable"] == var]
        if len(files) < 2:
            fail(f"fewer than two files of {var}")
        # Every layer of the variable's group, as QGIS shows the group.
        group = root.findGroup(var)
        rasters = [t.layer() for t in group.findLayers()]
        # A small extent on the first file's tiles, inside the second's too.
        a, b = by_source[files[0]["path"]], by_source[files[1]["path"]]
        e = a.extent().intersect(b.extent())
        c = e.center()
        half = min(e.width(), e.height()) / 4
        ext = QgsRectangle(c.x() - half, c.y() - half, c.x() + half, c.y() + half)
        shots = []
        for f, layer in ((files[0], a), (files[1], b)):
            at = qdt(f["shown_from"]).addSecs(60)
            whole = render(rasters, ext, at)
            alone = render([layer], ext)
            whole.save(os.path.join(out, f"project-{f['time']}.png"))
            alone.save(os.path.join(out, f"file-{f['time']}.png"))
            if whole != alone:
                fail(f"at {f['time']} the project does not show {f['path']} alone")
            shots.append(whole)
            print(f"{f['time']}: the project shows {f['path']}")
        if shots[0] == shots[1]:
            fail("the two valid times render the same pixels")
        print(f"{len(manifest['files'])} files, each a layer with the manifest's temporal range; "
              f"{len(rasters)} layers of {var}")
    finally:
        QgsProject.instance().clear()
        app.exitQgis()


if __name__ == "__main__":
    main()
