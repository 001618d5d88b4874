"""QGIS, headless, opens a voyage package built with --storms (what
tests/integration/test_package_storms.sh runs in Debian's python3, python3-qgis).

  package_storms_qgis.py PACKAGE

Reads PACKAGE/project.qgs; checks that the layer tree holds the route, then a
"Storms" group, then the rasters' groups; that every storm file of the
manifest is a valid vector layer of that group with the renderer of its .qml
(the route at risk a single symbol) and as many features as the manifest
says; and renders the storm layers once. Prints what it found; exits non-zero
with one line on stderr when something is wrong.
"""
import datetime
import json
import os
import sys

from qgis.core import (QgsApplication, QgsDateTimeRange, QgsExpression, QgsFeatureRequest,
                       QgsMapRendererSequentialJob, QgsMapSettings, QgsProject, QgsVectorLayer,
                       QgsVectorLayerTemporalContext)
from qgis.PyQt.QtCore import QDateTime, QSize, Qt

# The renderer each kind's .qml gives (as test_storms_qgis.py).
RENDERERS = {"storms": "categorizedSymbol", "track_points": "categorizedSymbol",
             "forecast_points": "categorizedSymbol", "forecast_lines": "categorizedSymbol",
             "wind_radii": "categorizedSymbol", "wind_swaths": "categorizedSymbol",
             "cones": "singleSymbol", "danger_areas": "singleSymbol",
             "risk_segments": "singleSymbol"}


# How each kind follows the time slider: (start field, end field or None,
# hours an instant stays, whether the layer accumulates); "swath": each swath
# from its own time, the observed one from its end_time (when the track it
# sums is known) for five days, the forecast one from its start_time (the
# advisory's last fix) to its end_time.
TEMPORAL = {"storms": ("first_time", "last_time", 0, False),
            "track_points": ("time", None, 0, True),
            "forecast_points": ("forecast_time", "valid_until", 0, False),
            "wind_radii": ("time", "valid_until", 0, False),
            "forecast_lines": ("start_time", "end_time", 0, False),
            "cones": ("start_time", "end_time", 0, False),
            "danger_areas": ("start_time", "end_time", 0, False),
            "wind_swaths": "swath",
            "risk_segments": None}  # shown at every time, as the route


def epoch(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def check_temporal(layer, path, kind):
    """QGIS's filter at a few one-minute frames against the spans read here."""
    tp = layer.temporalProperties()
    if TEMPORAL[kind] is None:
        if tp.isActive():
            fail(f"{path}: has time settings; it should show at every time")
        return 0
    if not tp.isActive():
        fail(f"{path}: no time settings; the layer ignores the time slider")
    spans = []
    acc = False
    for feat in json.load(open(path))["features"]:
        p = feat["properties"]
        if TEMPORAL[kind] == "swath":
            if p["track"] == "observed":
                t0 = epoch(p["end_time"])
                t1 = t0 + 120 * 3600
            else:
                t0, t1 = epoch(p["start_time"]), epoch(p["end_time"])
        else:
            start, end, hold, acc = TEMPORAL[kind]
            t0 = epoch(p[start])
            t1 = epoch(p[end]) if end else t0 + hold * 3600
        spans.append((t0, t1))
    if not spans:
        return 0
    lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
    # Half an hour past whole hours: no frame edge meets a feature's time.
    probes = [lo - 86400 + 1800, hi + 86400 + 1800]
    for a, z in sorted(set(spans))[:: max(1, len(spans) // 4)][:4]:
        probes += [a + 1800, z + 1800] + ([z - 1800] if z - a > 3600 else [])
    if TEMPORAL[kind] == "swath":
        # Inside each track's span too, where a swath over its whole span
        # showed winds still to come.
        for feat in json.load(open(path))["features"]:
            p = feat["properties"]
            probes += [epoch(p["start_time"]) + 1800, epoch(p["end_time"]) - 1800]
    ctx = QgsVectorLayerTemporalContext()
    ctx.setLayer(layer)
    for t in probes:
        b = QDateTime.fromSecsSinceEpoch(int(t), Qt.UTC)
        rng = QgsDateTimeRange(b, b.addSecs(60))
        filt = tp.createFilterString(ctx, rng)
        shown = list(layer.getFeatures(QgsFeatureRequest(QgsExpression(filt))))
        got = len(shown)
        for f in shown if TEMPORAL[kind] == "swath" else []:
            own = f["end_time"] if f["track"] == "observed" else f["start_time"]
            own = own.toSecsSinceEpoch() if hasattr(own, "toSecsSinceEpoch") else epoch(own)
            if own > t + 60:
                span = [v.toString(Qt.ISODate) if hasattr(v, "toString") else v
                        for v in (f["start_time"], f["end_time"])]
                fail(f"{path} at {b.toString(Qt.ISODate)}: the {f['track']} swath of "
                     f"{f['title']} ({span[0]} to {span[1]}) shows before its time")
        want = sum(1 for a, z in spans if a <= t + 60 and (acc or z >= t))
        if got != want:
            fail(f"{path} at {b.toString(Qt.ISODate)}: QGIS shows {got} features, "
                 f"{want} have a time that meets the frame (filter {filt})")
    return len(probes)


def fail(msg):
    print(f"package_storms_qgis.py: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    pkg = sys.argv[1]
    manifest = json.load(open(os.path.join(pkg, "manifest.json")))
    storms = manifest.get("storms")
    if not storms:
        fail("the manifest lists no storms")
    app = QgsApplication([], False)
    app.initQgis()
    try:
        p = QgsProject.instance()
        if not p.read(os.path.join(pkg, "project.qgs")):
            fail(f"cannot read the project: {p.error()}")
        root = p.layerTreeRoot()
        top = [c.name() for c in root.children()]
        raster_groups = sorted({f["variable"] for f in manifest["files"]})
        # the land (GSHHG) last, under everything, when the package has it
        land = ["land"] if manifest.get("coastline") else []
        if top[:2] != ["route", "Storms"] or sorted(top[2:len(top) - len(land)]) != raster_groups \
                or top[len(top) - len(land):] != land:
            fail(f"layer tree {top}: not the route, Storms, then {raster_groups}, then {land}")
        group = root.findGroup("Storms")
        by_source = {os.path.basename(t.layer().source().split("|")[0]): t.layer()
                     for t in group.findLayers()}
        layers = []
        for f in storms["files"]:
            if f["kind"] == "risk_report":
                continue
            layer = by_source.get(f["path"])
            if layer is None or not isinstance(layer, QgsVectorLayer):
                fail(f"{f['path']} is not a vector layer of the Storms group")
            if not layer.isValid() or not layer.crs().isValid():
                fail(f"{f['path']} did not load, or has no valid CRS")
            got, want = layer.renderer().type(), RENDERERS[f["kind"]]
            if got != want:
                fail(f"{f['path']} has renderer {got}, not {want}")
            if f["features"] is not None and layer.featureCount() != f["features"]:
                fail(f"{f['path']}: {layer.featureCount()} features, the manifest says "
                     f"{f['features']}")
            frames = check_temporal(layer, os.path.join(pkg, f["path"]), f["kind"])
            print(f"{f['path']}: {layer.featureCount()} features, renderer {got}, "
                  f"time slider checked at {frames} frames")
            layers.append(layer)
        ms = QgsMapSettings()
        ms.setLayers(layers)
        ms.setDestinationCrs(layers[0].crs())
        ext = layers[0].extent()
        for layer in layers[1:]:
            ext.combineExtentWith(layer.extent())
        ms.setExtent(ext)
        ms.setOutputSize(QSize(256, 256))
        job = QgsMapRendererSequentialJob(ms)
        job.start()
        job.waitForFinished()
        if job.errors():
            fail("rendering failed: " + "; ".join(e.message for e in job.errors()))
        print(f"{len(layers)} storm layers styled in the Storms group, rendered")
    finally:
        QgsProject.instance().clear()
        app.exitQgis()


if __name__ == "__main__":
    main()
