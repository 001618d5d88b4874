"""A .qlr of `seawx qlr`, checked as XML and in QGIS, headless (what
tests/integration/test_qlr.sh runs in Debian's python3 with python3-qgis).

  qlr_qgis.py xml QLR LAYERS_JSON BUNDLE [LEGEND]
      The document alone (no QGIS): one group named after the variable and
      the run, one layer per valid time of the run in LAYERS_JSON (one layer
      object of `seawx layers --json`), in time order, each named after its
      variable and time first (then its title), the plugin's connection string of its time (no key item),
      provider gdal, a fixed temporal range from its time to one second
      before the next (see ranges()); the legend image (LEGEND, an absolute path) on every
      layer, or none when LEGEND is not given.
  qlr_qgis.py frames QLR LAYERS_JSON OUT_DIR W S E N PX PY K1 K2 [LEGEND]
      QGIS loads the .qlr into a project: one group, unticked (its layers
      ticked: nothing drawn until the user ticks it), every layer valid, a
      raster of provider gdal with its temporal range and LEGEND as its legend
      image, whose legend in the Layers panel is that image. Then a temporal navigation object (what the Temporal Controller
      drives) set to the group's range with the run's step: each frame shows
      exactly one layer, the last valid time at or before it; it renders frames K1
      and K2 of the view W,S,E,N (degrees) at PX x PY pixels with every layer
      of the group; each frame must equal that time's layer rendered alone,
      and the two frames must differ. Writes OUT_DIR/frame-K.png and
      alone-K.png, and prints one line per frame: "frame K TIME".

Prints what it found; exits non-zero with one line on stderr when something
is wrong.
"""
import json
import os
import sys
import xml.etree.ElementTree as ET
from urllib.parse import unquote
from datetime import datetime, timedelta, timezone


def fail(msg):
    print(f"qlr_qgis.py: {msg}", file=sys.stderr)
    sys.exit(1)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def ranges(times):
    """[start, end] of each valid time, both inclusive, as the .qlr must say:
    from a second after the time (the first from the time itself) to a second
    before the next, so that QGIS 3.22 finds one layer in each of the Temporal
    Controller's frames (it counts a layer starting at a frame's open end)."""
    ts = [parse(t) for t in times]
    out = []
    for i, t in enumerate(ts):
        start = t if i == 0 else t + timedelta(seconds=1)
        if i + 1 < len(ts):
            end = ts[i + 1] - timedelta(seconds=1)
        elif i > 0:
            end = t + (t - ts[i - 1]) - timedelta(seconds=1)
        else:
            end = t + timedelta(seconds=3599)
        out.append((start, end))
    return out


def short(t):
    return t.strftime("%Y-%m-%d %HZ") if t.minute == 0 and t.second == 0 else \
        t.strftime("%Y-%m-%d %H:%MZ")


def connstr_items(s):
    if not s.startswith("SEAWX:"):
        fail(f"datasource {s} is not a SEAWX connection string")
    items = {}
    for it in s[len("SEAWX:"):].split(","):
        k, _, v = it.partition("=")
        items[k.lower()] = unquote(v)
    return items


def check_xml(path, layer, bundle, legend):
    root = ET.parse(path).getroot()
    if root.tag != "qlr":
        fail(f"the root element is {root.tag}, not qlr")
    top = root.find("layer-tree-group")
    groups = top.findall("layer-tree-group")
    if len(groups) != 1:
        fail(f"{len(groups)} groups, not one")
    group = groups[0]
    run = parse(layer["run"])
    want_group = f"{layer['variable']} ({layer['title']}), run {short(run)}"
    if group.get("name") != want_group:
        fail(f"the group is named '{group.get('name')}', not '{want_group}'")
    tree = group.findall("layer-tree-layer")
    maps = root.find("maplayers").findall("maplayer")
    times = layer["times"]
    if len(tree) != len(times) or len(maps) != len(times):
        fail(f"{len(tree)} layers in the tree and {len(maps)} map layers for {len(times)} times")
    unit = f":{layer['unit']}" if layer["unit"] else ""
    for i, ((start, end), tl, ml) in enumerate(zip(ranges(times), tree, maps)):
        name = f"{layer['variable']} {short(parse(times[i]))} ({layer['title']})"
        if tl.get("name") != name or ml.findtext("layername") != name:
            fail(f"layer {i} is named '{tl.get('name')}' / '{ml.findtext('layername')}', "
                 f"not '{name}'")
        if tl.get("id") != ml.findtext("id"):
            fail(f"layer {i}: the tree's id {tl.get('id')} is not the map layer's")
        src = ml.findtext("datasource")
        if tl.get("source") != src or tl.get("providerKey") != "gdal" or \
                ml.findtext("provider") != "gdal" or ml.get("type") != "raster":
            fail(f"layer {i}: not a gdal raster of one source")
        items = connstr_items(src)
        want = {"bundle": bundle, "variable": layer["variable"] + unit,
                "run": layer["run"], "time": times[i]}
        if items != want:
            fail(f"layer {i}: connection string {src}, not the items {want}")
        temporal = ml.find("temporal")
        if temporal is None or temporal.get("enabled") != "1" or temporal.get("mode") != "0":
            fail(f"layer {i}: no fixed temporal range")
        fr = temporal.find("fixedRange")
        if fr.findtext("start") != iso(start) or fr.findtext("end") != iso(end):
            fail(f"layer {i}: range {fr.findtext('start')} to {fr.findtext('end')}, not "
                 f"{iso(start)} to {iso(end)}")
        if ml.get("legendPlaceholderImage") != legend:
            fail(f"layer {i}: legend image {ml.get('legendPlaceholderImage')}, not {legend}")
    print(f"'{group.get('name')}': {len(times)} layers, {times[0]} to {times[-1]}, "
          f"ranges from each time to the next, connection strings without key, legend {legend}")


def frames(path, layer, out, view, size, ks, legend):
    from qgis.core import (QgsApplication, QgsCoordinateReferenceSystem, QgsDateTimeRange,
                           QgsImageLegendNode, QgsInterval, QgsLayerDefinition,
                           QgsLayerTreeModel, QgsMapRendererSequentialJob,
                           QgsMapSettings, QgsProject, QgsRasterLayer, QgsRectangle,
                           QgsTemporalNavigationObject)
    from qgis.PyQt.QtCore import QDateTime, QSize, Qt
    from qgis.PyQt.QtGui import QColor

    def qdt(s):
        return QDateTime.fromString(s, Qt.ISODate)

    def render(layers, at=None):
        ms = QgsMapSettings()
        ms.setLayers(layers)
        ms.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
        ms.setExtent(QgsRectangle(*view))
        ms.setOutputSize(QSize(*size))
        ms.setBackgroundColor(QColor(0, 0, 0, 0))
        if at is not None:
            ms.setIsTemporal(True)
            ms.setTemporalRange(at)
        job = QgsMapRendererSequentialJob(ms)
        job.start()
        job.waitForFinished()
        if job.errors():
            fail("rendering failed: " + "; ".join(e.message for e in job.errors()))
        return job.renderedImage()

    app = QgsApplication([], False)
    app.initQgis()
    try:
        p = QgsProject.instance()
        root = p.layerTreeRoot()
        ok, err = QgsLayerDefinition.loadLayerDefinition(path, p, root)
        if not ok:
            fail(f"QGIS cannot load {path}: {err}")
        groups = root.findGroups()
        if len(groups) != 1:
            fail(f"{len(groups)} groups in the project, not one")
        # The group unticked, its layers ticked: nothing drawn until the
        # user ticks the group (with temporal navigation on).
        if groups[0].itemVisibilityChecked() or root.checkedLayers():
            fail("the group is ticked: QGIS would draw every valid time at once")
        tree = groups[0].findLayers()
        if not all(node.itemVisibilityChecked() for node in tree):
            fail("a layer of the group is unticked: the Temporal Controller would never show it")
        times = layer["times"]
        if len(tree) != len(times):
            fail(f"the group has {len(tree)} layers for {len(times)} valid times")
        layers = []
        for t, rg, node in zip(times, ranges(times), tree):
            lyr = node.layer()
            if lyr is None or not lyr.isValid() or not isinstance(lyr, QgsRasterLayer):
                fail(f"the layer of {t} did not load: {node.name()}")
            # QGIS's own test for "Layer has no coordinate reference system set!"
            if not lyr.crs().isValid():
                fail(f"the layer of {t} has no valid CRS ({lyr.crs().authid() or 'none'})")
            # What the Layers panel shows, variable and time first: a narrow
            # panel still tells the layers apart.
            lead = f"{layer['variable']} {short(parse(t))}"
            if not lyr.name().startswith(lead) or not node.name().startswith(lead):
                fail(f"the layer of {t} is named '{lyr.name()}', not '{lead} ...'")
            if lyr.providerType() != "gdal" or f"time={t}" not in lyr.source():
                fail(f"the layer of {t} is {lyr.providerType()}: {lyr.source()}")
            tp = lyr.temporalProperties()
            r = tp.fixedTemporalRange()
            if not tp.isActive() or r.begin() != qdt(iso(rg[0])) or r.end() != qdt(iso(rg[1])):
                fail(f"the layer of {t}: range {r.begin().toString(Qt.ISODate)} to "
                     f"{r.end().toString(Qt.ISODate)}")
            if lyr.legendPlaceholderImage() != (legend or ""):
                fail(f"the layer of {t} has the legend image '{lyr.legendPlaceholderImage()}'")
            layers.append(lyr)
        if legend:
            # The Layers panel's legend of a layer: the image, from the file.
            model = QgsLayerTreeModel(root)
            nodes = model.layerLegendNodes(tree[0], True)
            if len(nodes) != 1 or not isinstance(nodes[0], QgsImageLegendNode):
                fail(f"the legend of the first layer is {nodes}, not the image")
            image = nodes[0].data(Qt.DecorationRole)
            if image is None or image.isNull() or image.width() != 256:
                fail("the legend image did not load")
            print(f"every layer's legend is {legend} ({image.width()} x {image.height()})")
        # The Temporal Controller's navigation over the group's whole range,
        # one frame per step of the run.
        first, last = ranges(times)[0][0], ranges(times)[-1][1]
        step = min(parse(b) - parse(a) for a, b in zip(times, times[1:]))
        nav = QgsTemporalNavigationObject()
        nav.setTemporalExtents(QgsDateTimeRange(qdt(iso(first)), qdt(iso(last))))
        nav.setFrameDuration(QgsInterval(step.total_seconds()))
        nav.setNavigationMode(QgsTemporalNavigationObject.Animated)
        # Every frame at the run's (smallest) step shows one layer: the last
        # valid time at or before the frame's start (a 3-hourly time for three
        # frames of an hour).
        nframes = nav.totalFrameCount()
        for k in range(nframes):
            frame = nav.dateTimeRangeForFrameNumber(k)
            begin = parse(frame.begin().toString(Qt.ISODate).replace("+00:00", "Z"))
            want = max(i for i, t in enumerate(times) if parse(t) <= begin)
            shown = [i for i, lyr in enumerate(layers)
                     if lyr.temporalProperties().isVisibleInTemporalRange(frame)]
            if shown != [want]:
                fail(f"frame {k} ({iso(begin)}) shows the layers of "
                     f"{[times[i] for i in shown]}, not {times[want]}")
        print(f"step {step}: each of {nframes} frames shows one layer, its own time's")
        shots = []
        for k in ks:
            frame = nav.dateTimeRangeForFrameNumber(k)
            at = frame.begin().toString(Qt.ISODate).replace("+00:00", "Z")
            if at not in times:
                fail(f"frame {k} starts at {at}, not a valid time")
            shown = [lyr for lyr in layers
                     if lyr.temporalProperties().isVisibleInTemporalRange(frame)]
            if [lyr.id() for lyr in shown] != [layers[times.index(at)].id()]:
                fail(f"frame {k} ({at}) shows {[lyr.name() for lyr in shown]}")
            whole = render(layers, frame)
            alone = render([layers[times.index(at)]])
            whole.save(os.path.join(out, f"frame-{k}.png"))
            alone.save(os.path.join(out, f"alone-{k}.png"))
            if whole != alone:
                fail(f"frame {k} ({at}) is not the picture of its layer alone")
            shots.append(whole)
            print(f"frame {k} {at}")
        if shots[0] == shots[1]:
            fail("the two frames render the same pixels")
        print(f"{len(layers)} layers loaded in one group, frames {ks[0]} and {ks[1]} differ")
    finally:
        QgsProject.instance().clear()
        app.exitQgis()


def main():
    a = sys.argv[1:]
    if len(a) >= 4 and a[0] == "xml":
        check_xml(a[1], json.load(open(a[2])), a[3], a[4] if len(a) > 4 else None)
    elif len(a) in (12, 13) and a[0] == "frames":
        frames(a[1], json.load(open(a[2])), a[3], [float(v) for v in a[4:8]],
               (int(a[8]), int(a[9])), [int(a[10]), int(a[11])], a[12] if len(a) > 12 else None)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
