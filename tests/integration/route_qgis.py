"""QGIS, headless, on what `seawx route` writes (test_route_qgis.sh runs it in
Debian's python3, python3-qgis). Prints what it found; exits non-zero with
one line on stderr when something is wrong.

  route_qgis.py ROUTE.geojson ISO.geojson ROUTE.gpx ROUTE.json PNG

- the route's GeoJSON is one layer (QGIS asks no sublayer question) of
  points, as many as the JSON summary counts, its "time" a date-time, and
  every figure QGIS reads equal, value by value, to the file's own;
- the isochrones are one layer of lines with a date-time "time", each line's
  time later than the one before;
- the GPX opens as GDAL's routes/route_points: one route, its points with
  their times, in the GeoJSON's places;
- the three drawn together to PNG: the route's points are drawn (pixels of
  their colour where the map puts them).
"""
import json
import sys

from qgis.core import (Qgis, QgsApplication, QgsMapRendererSequentialJob, QgsMapSettings,
                       QgsMarkerSymbol, QgsProviderRegistry, QgsSingleSymbolRenderer,
                       QgsVectorLayer, QgsWkbTypes, QgsPointXY, QgsCoordinateReferenceSystem)
from qgis.PyQt.QtCore import QSize, QVariant
from qgis.PyQt.QtGui import QColor


def fail(msg):
    print(f"route_qgis.py: {msg}", file=sys.stderr)
    sys.exit(1)


def main(route, iso, gpx, summary, png):
    meta = QgsProviderRegistry.instance().providerMetadata("ogr")
    for f in (route, iso):
        subs = meta.querySublayers(f, Qgis.SublayerQueryFlag.ResolveGeometryType)
        if len(subs) != 1:
            fail(f"{f} gives {len(subs)} sublayers: QGIS would ask which to add")
    points = QgsVectorLayer(route, "route", "ogr")
    if not points.isValid() or QgsWkbTypes.geometryType(points.wkbType()) != QgsWkbTypes.PointGeometry:
        fail(f"{route}: not a valid point layer")
    want = json.load(open(summary))
    feats = json.load(open(route))["features"]
    if points.featureCount() != want["points"] or len(feats) != want["points"]:
        fail(f"{points.featureCount()} points in QGIS, {want['points']} in the summary")
    if points.fields().field("time").type() != QVariant.DateTime:
        fail("the route's 'time' is not a date-time in QGIS")
    bad = 0
    for qf, jf in zip(points.getFeatures(), feats):
        p = qf.geometry().asPoint()
        jp = jf["properties"]
        bad += abs(p.x() - jf["geometry"]["coordinates"][0]) > 1e-9
        bad += abs(p.y() - jf["geometry"]["coordinates"][1]) > 1e-9
        for k in ("tws_kn", "sog_kn", "boat_speed_kn", "cog_deg"):
            if jp[k] is not None and abs(qf[k] - jp[k]) > 1e-9:
                bad += 1
        if qf["time"].toString("yyyy-MM-ddTHH:mm:ssZ") != jp["time"]:
            bad += 1
    if bad:
        fail(f"{bad} values differ between QGIS and the file")
    print(f"route: {points.featureCount()} points, every value as in the file")

    lines = QgsVectorLayer(iso, "isochrones", "ogr")
    if not lines.isValid() or QgsWkbTypes.geometryType(lines.wkbType()) != QgsWkbTypes.LineGeometry:
        fail(f"{iso}: not a valid line layer")
    if lines.fields().field("time").type() != QVariant.DateTime:
        fail("the isochrones' 'time' is not a date-time in QGIS")
    times = [f["time"] for f in lines.getFeatures()]
    if len(times) < 3 or any(b <= a for a, b in zip(times, times[1:])):
        fail("the isochrones' times do not increase")
    print(f"isochrones: {len(times)} lines, times increasing")

    rpts = QgsVectorLayer(gpx + "|layername=route_points", "gpx", "ogr")
    routes = QgsVectorLayer(gpx + "|layername=routes", "gpx", "ogr")
    if not rpts.isValid() or routes.featureCount() != 1:
        fail(f"{gpx}: not one route in QGIS")
    if rpts.featureCount() != want["points"]:
        fail(f"{gpx}: {rpts.featureCount()} route points, not {want['points']}")
    far = 0
    for qf, jf in zip(rpts.getFeatures(), feats):
        p = qf.geometry().asPoint()
        far += abs(p.x() - jf["geometry"]["coordinates"][0]) > 1e-6
        far += abs(p.y() - jf["geometry"]["coordinates"][1]) > 1e-6
        far += qf["time"].toString("yyyy-MM-ddTHH:mm:ssZ") != jf["properties"]["time"]
    if far:
        fail(f"{gpx}: {far} route point positions or times differ from the GeoJSON's")
    print(f"gpx: one route of {rpts.featureCount()} points with their times")

    sym = QgsMarkerSymbol.createSimple({"name": "circle", "color": "255,0,0", "size": "3",
                                        "outline_style": "no"})
    points.setRenderer(QgsSingleSymbolRenderer(sym))
    ms = QgsMapSettings()
    ms.setLayers([points, lines])
    ms.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    ext = lines.extent()
    ext.combineExtentWith(points.extent())
    ext.scale(1.1)
    ms.setExtent(ext)
    ms.setOutputSize(QSize(800, 600))
    ms.setBackgroundColor(QColor(255, 255, 255))
    job = QgsMapRendererSequentialJob(ms)
    job.start()
    job.waitForFinished()
    img = job.renderedImage()
    img.save(png)
    hits = 0
    for f in list(points.getFeatures())[:: max(1, points.featureCount() // 20)]:
        q = ms.mapToPixel().transform(QgsPointXY(f.geometry().asPoint()))
        c = QColor(img.pixel(int(q.x()), int(q.y())))
        hits += c.red() > 200 and c.green() < 80 and c.blue() < 80
    checked = len(list(points.getFeatures())[:: max(1, points.featureCount() // 20)])
    if hits < checked:
        fail(f"{checked - hits} of {checked} route points not drawn where QGIS puts them")
    print(f"drawn: {png}, {hits} of {checked} points checked in place")


if __name__ == "__main__":
    app = QgsApplication([], False)
    app.initQgis()
    main(*sys.argv[1:6])
    app.exitQgis()
