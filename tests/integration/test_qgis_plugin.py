"""The seawx QGIS plugin in headless QGIS (what tests/integration/test_qgis_plugin.sh
runs in Debian's python3 with python3-qgis, QT_QPA_PLATFORM=offscreen).

  test_qgis_plugin.py PLUGINS BUNDLE LAYERS_JSON RUNS QLR OUT W S E N PX PY K1 K2

PLUGINS is the plugin folder of a fresh QGIS profile holding seawx/ (the zip
unpacked, or the install tree's); QGIS's own plugin loader (qgis.utils) loads
and starts it. Then, through the plugin's Browser provider only:
  - the root lists the twelve bundles, the storms and the point data;
  - BUNDLE lists its variables, the variable of LAYERS_JSON (one layer object
    of `seawx layers --json`: the latest complete run) lists RUNS runs, that
    run among them;
  - a double-click on that run (the plugin's GUI provider) adds one group: one
    layer per valid time, distinct names leading with the variable and the time, each a valid
    gdal raster with its fixed range (qlr_qgis.ranges), the service's legend
    image; the project's temporal range is the group's and its step the run's;
  - the group is the one `seawx qlr` wrote to QLR: same group name, layer
    names, connection strings and ranges;
  - frames K1 and K2 of the project's navigation, rendered over the view
    W,S,E,N (degrees) at PX x PY with every layer of the group, each show its
    own time's layer only, differ, and are written to OUT/frame-K.png; prints
    "frame K TIME" for each (the shell compares them with the service's GetMap);
  - the storms' layers listed and added styled, on the time slider;
  - the project saved as OUT/plugin.qgs (the shell looks for the key in it);
  - unloading the plugin takes the provider away.
Exits non-zero with one line on stderr when something is wrong.
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qlr_qgis import connstr_items, iso, parse, ranges, short  # noqa: E402


def fail(msg):
    print(f"test_qgis_plugin.py: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    a = sys.argv[1:]
    if len(a) != 14:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    plugins, bundle, layer_json, nruns, qlr, out = a[0], a[1], a[2], int(a[3]), a[4], a[5]
    view, size, ks = [float(v) for v in a[6:10]], (int(a[10]), int(a[11])), [int(a[12]), int(a[13])]
    layer = json.load(open(layer_json))

    from qgis.core import (QgsApplication, QgsCoordinateReferenceSystem,
                           QgsInterval, QgsLayerDefinition, QgsMapRendererParallelJob,
                           QgsMapSettings, QgsProject, QgsRasterLayer, QgsRectangle,
                           QgsTemporalNavigationObject, QgsUnitTypes, QgsVectorLayer)
    from qgis.PyQt.QtCore import QDateTime, QSize, Qt
    from qgis.PyQt.QtGui import QColor

    app = QgsApplication([], True)
    app.initQgis()
    try:
        import qgis.utils
        from qgis.gui import QgsDataItemGuiContext, QgsGui, QgsMapCanvas

        class Iface:
            """What the plugin asks of QGIS's window: the map canvas, whose
            temporal controller is the Temporal Controller's navigation."""

            def __init__(self):
                self.canvas = QgsMapCanvas()
                self.nav = QgsTemporalNavigationObject(self.canvas)
                self.canvas.setTemporalController(self.nav)

            def mapCanvas(self):  # noqa: N802
                return self.canvas

            def mainWindow(self):  # noqa: N802
                return None
        iface = qgis.utils.iface = Iface()

        # QGIS's own loader, from the profile's plugin folder only (which
        # QGIS puts on Python's path at start).
        sys.path.insert(0, plugins)
        qgis.utils.plugin_paths = [plugins]
        qgis.utils.updateAvailablePlugins()
        if "seawx" not in qgis.utils.available_plugins:
            fail(f"QGIS finds no seawx plugin in {plugins}: {qgis.utils.available_plugins}")
        if not qgis.utils.loadPlugin("seawx") or not qgis.utils.startPlugin("seawx"):
            fail("QGIS cannot load or start the seawx plugin")
        module = sys.modules["seawx"]
        if not os.path.abspath(module.__file__).startswith(os.path.abspath(plugins)):
            fail(f"the plugin came from {module.__file__}, not {plugins}")
        print(f"plugin seawx {qgis.utils.pluginMetadata('seawx', 'version')} loaded from "
              f"{os.path.dirname(module.__file__)}")

        providers = [p for p in QgsApplication.dataItemProviderRegistry().providers()
                     if p.name() == "seawx"]
        guis = [p for p in QgsGui.dataItemGuiProviderRegistry().providers()
                if p.name() == "seawx"]
        if len(providers) != 1 or len(guis) != 1:
            fail(f"{len(providers)} Browser providers and {len(guis)} GUI providers named seawx")
        provider, gui = providers[0], guis[0]

        def children(item):
            kids = item.createChildren()
            errors = [k.name() for k in kids if type(k).__name__ == "QgsErrorItem"]
            if errors:
                fail(f"'{item.name()}' lists an error: {errors[0]}")
            return kids

        # The Browser panel's model shows it among its roots.
        from qgis.core import QgsBrowserModel
        model = QgsBrowserModel()
        model.initialize()
        shown = [model.data(model.index(i, 0)) for i in range(model.rowCount())]
        if "seawx" not in shown:
            fail(f"the Browser's roots are {shown}, without seawx")

        root = provider.createDataItem("", None)
        if root is None:
            fail("the provider gives no root item")
        top = children(root)
        names = [k.name() for k in top]
        bundles = names[:-2]
        if len(bundles) != 12 or bundle not in bundles or names[-2:] != ["Storms", "Point data"]:
            fail(f"the root lists {names}")
        # The Browser sorts by sort key: the service's order, not the names'.
        keys = [k.sortKey() for k in top]
        if keys != sorted(keys) or len(set(keys)) != len(keys):
            fail(f"the root's entries sort as {keys}")
        print(f"Browser root '{root.name()}': {len(bundles)} bundles ({', '.join(bundles)}), "
              "Storms, Point data")

        # A key the service rejects, then none: the bundle shows the GDAL
        # plugin's one line in place of its variables, never the key.
        from osgeo import gdal
        for bad, says in (("rejected-" + os.environ["SEAWX_API_KEY"][::-1], "rejected"),
                          ("", "no API key")):
            gdal.SetConfigOption("SEAWX_API_KEY", bad)
            try:
                kids = top[names.index(bundle)].createChildren()
            finally:
                gdal.SetConfigOption("SEAWX_API_KEY", None)
            if len(kids) != 1 or type(kids[0]).__name__ != "QgsErrorItem" or \
                    says not in kids[0].name() or (bad and bad in kids[0].name()) or \
                    os.environ["SEAWX_API_KEY"] in kids[0].name():
                fail(f"with the key '{bad and 'a wrong one'}', {bundle} lists "
                     f"{[k.name() for k in kids]}")
            print(f"with {'a wrong key' if bad else 'no key'}: '{kids[0].name()}'")

        var = layer["variable"] + (f":{layer['unit']}" if layer["unit"] else "")
        bitem = top[names.index(bundle)]
        variables = children(bitem)
        vitems = [v for v in variables if v.name().split(" ")[0] == var]
        if len(vitems) != 1:
            fail(f"{bundle} lists {[v.name() for v in variables]}, not {var} once")
        runs = children(vitems[0])
        run_label = f"run {layer['run'][:13]}Z"
        if len(runs) != nruns:
            fail(f"{var} lists {len(runs)} runs, not {nruns}: {[r.name() for r in runs]}")
        ritems = [r for r in runs if r.name() == run_label]
        if len(ritems) != 1:
            fail(f"{var} lists {[r.name() for r in runs]}, not '{run_label}' once")
        print(f"{bundle}: {len(variables)} variables; {vitems[0].name()}: {len(runs)} runs, "
              f"{', '.join(r.name() for r in runs[:3])}, ...")

        # A double-click on the run, as in QGIS's Browser panel.
        project = QgsProject.instance()
        if not gui.handleDoubleClick(ritems[0], QgsDataItemGuiContext()):
            fail("a double-click on a run does nothing")
        groups = project.layerTreeRoot().findGroups()
        if len(groups) != 1:
            fail(f"{len(groups)} groups in the project after the double-click")
        group = groups[0]
        times = layer["times"]
        want_group = f"{layer['variable']} ({layer['title']}), run {short(parse(layer['run']))}"
        if group.name() != want_group:
            fail(f"the group is named '{group.name()}', not '{want_group}'")
        nodes = group.findLayers()
        if len(nodes) != len(times):
            fail(f"{len(nodes)} layers for {len(times)} valid times")
        layers = [n.layer() for n in nodes]
        lnames = [lyr.name() for lyr in layers]
        if len(set(lnames)) != len(lnames):
            fail("two layers have the same name")
        legend = None
        for t, (start, end), lyr in zip(times, ranges(times), layers):
            want_name = f"{layer['variable']} {short(parse(t))} ({layer['title']})"
            if lyr.name() != want_name:
                fail(f"the layer of {t} is named '{lyr.name()}', not '{want_name}'")
            if not isinstance(lyr, QgsRasterLayer) or not lyr.isValid() or \
                    lyr.providerType() != "gdal":
                fail(f"the layer of {t} is not a valid gdal raster: {lyr.source()}")
            # QGIS's own test for "Layer has no coordinate reference system set!"
            if not lyr.crs().isValid() or lyr.crs().authid() != "EPSG:4326":
                fail(f"the layer of {t} has no valid CRS ({lyr.crs().authid() or 'none'})")
            items = connstr_items(lyr.source())
            want = {"bundle": bundle, "variable": var, "run": layer["run"], "time": t}
            if items != want:
                fail(f"the layer of {t}: connection string {lyr.source()}, not {want}")
            tp = lyr.temporalProperties()
            r = tp.fixedTemporalRange()
            if not tp.isActive() or tp.mode() != tp.ModeFixedTemporalRange or \
                    r.begin() != QDateTime.fromString(iso(start), Qt.ISODate) or \
                    r.end() != QDateTime.fromString(iso(end), Qt.ISODate) or \
                    not r.includeBeginning() or not r.includeEnd():
                fail(f"the layer of {t}: range {r.begin().toString(Qt.ISODate)} to "
                     f"{r.end().toString(Qt.ISODate)}, not {iso(start)} to {iso(end)}")
            legend = legend or lyr.legendPlaceholderImage()
            if lyr.legendPlaceholderImage() != legend or not os.path.isfile(legend):
                fail(f"the layer of {t} has the legend image '{lyr.legendPlaceholderImage()}'")
        if [n.isExpanded() for n in nodes[:2]] != [True, False]:
            fail("the first layer's legend should be open and the others folded")
        print(f"'{group.name()}': {len(layers)} layers, '{lnames[0]}' to '{lnames[-1]}', "
              f"fixed ranges from each time to the next, legend {os.path.basename(legend)}")

        ts = project.timeSettings()
        whole = ts.temporalRange()
        first, last = ranges(times)[0][0], ranges(times)[-1][1]
        step = min(parse(b) - parse(a) for a, b in zip(times, times[1:]))
        if whole.begin() != QDateTime.fromString(iso(first), Qt.ISODate) or \
                whole.end() != QDateTime.fromString(iso(last), Qt.ISODate) or \
                abs(QgsInterval(ts.timeStep(), ts.timeStepUnit()).seconds() -
                    step.total_seconds()) > 0.5:
            fail(f"the project's time range {whole} step {ts.timeStep()} {ts.timeStepUnit()}")
        print(f"project time range {iso(first)} to {iso(last)}, step {step}")
        # The Temporal Controller set to step through the group, which is
        # ticked: with animated navigation each frame draws one layer.
        ctl = iface.nav
        if ctl.temporalExtents() != whole or \
                abs(ctl.frameDuration().seconds() - step.total_seconds()) > 0.5 or \
                ctl.navigationMode() != QgsTemporalNavigationObject.Animated or \
                ctl.currentFrameNumber() != 0 or not group.itemVisibilityChecked() or \
                ctl.frameDuration().originalUnit() != QgsUnitTypes.TemporalHours or \
                ctl.frameDuration().originalDuration() != step.total_seconds() / 3600:
            fail(f"the Temporal Controller: {ctl.temporalExtents()}, frames of "
                 f"{ctl.frameDuration().seconds()} s (shown as {ctl.frameDuration().originalDuration()} "
                 f"in unit {ctl.frameDuration().originalUnit()}), mode {ctl.navigationMode()}, frame "
                 f"{ctl.currentFrameNumber()}; group ticked {group.itemVisibilityChecked()}")
        print(f"Temporal Controller: animated, {ctl.totalFrameCount()} frames of "
              f"{ctl.frameDuration().originalDuration():g} hours, the group ticked")

        # The .qlr of `seawx qlr`: the same group.
        other = QgsProject()
        ok, err = QgsLayerDefinition.loadLayerDefinition(qlr, other, other.layerTreeRoot())
        if not ok:
            fail(f"QGIS cannot load {qlr}: {err}")
        qgroups = other.layerTreeRoot().findGroups()
        if len(qgroups) != 1 or qgroups[0].name() != group.name():
            fail(f"the .qlr's groups are {[g.name() for g in qgroups]}, not '{group.name()}'")
        qlayers = [n.layer() for n in qgroups[0].findLayers()]

        def describe(lyr):
            r = lyr.temporalProperties().fixedTemporalRange()
            return (lyr.name(), connstr_items(lyr.source()), r.begin(), r.end(),
                    lyr.temporalProperties().isActive())
        if len(qlayers) != len(layers):
            fail(f"the .qlr has {len(qlayers)} layers, the plugin's group {len(layers)}")
        for i, (mine, theirs) in enumerate(zip(layers, qlayers)):
            if describe(mine) != describe(theirs):
                fail(f"layer {i} differs from the .qlr's: {describe(mine)} against "
                     f"{describe(theirs)}")
        other.clear()
        print(f"the same {len(qlayers)} layers, names, connection strings and ranges as "
              f"{os.path.basename(qlr)}")

        # Two frames of the navigation the Temporal Controller runs on the
        # project's range and step.
        nav = QgsTemporalNavigationObject()
        nav.setTemporalExtents(whole)
        nav.setFrameDuration(QgsInterval(ts.timeStep(), ts.timeStepUnit()))
        nav.setNavigationMode(QgsTemporalNavigationObject.Animated)
        shots = []
        for k in ks:
            frame = nav.dateTimeRangeForFrameNumber(k)
            at = frame.begin().toString(Qt.ISODate).replace("+00:00", "Z")
            shown = [lyr for lyr in layers
                     if lyr.temporalProperties().isVisibleInTemporalRange(frame)]
            if at not in times or [lyr.id() for lyr in shown] != [layers[times.index(at)].id()]:
                fail(f"frame {k} ({at}) shows {[lyr.name() for lyr in shown]}")
            ms = QgsMapSettings()
            ms.setLayers(layers)
            ms.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
            ms.setExtent(QgsRectangle(*view))
            ms.setOutputSize(QSize(*size))
            ms.setBackgroundColor(QColor(0, 0, 0, 0))
            ms.setIsTemporal(True)
            ms.setTemporalRange(frame)
            job = QgsMapRendererParallelJob(ms)
            job.start()
            job.waitForFinished()
            if job.errors():
                fail("rendering failed: " + "; ".join(e.message for e in job.errors()))
            image = job.renderedImage()
            image.save(os.path.join(out, f"frame-{k}.png"))
            shots.append(image)
            print(f"frame {k} {at}")
        if shots[0] == shots[1]:
            fail("the two frames render the same pixels")

        # The storms, listed and added styled on the time slider.
        sitems = children(top[names.index("Storms")])
        if not sitems:
            fail("the storms list no layer")
        if not gui.handleDoubleClick(top[names.index("Storms")], QgsDataItemGuiContext()):
            fail("a double-click on Storms does nothing")
        sgroup = project.layerTreeRoot().findGroup("seawx storms")
        slayers = [n.layer() for n in sgroup.findLayers()] if sgroup else []
        if len(slayers) != len(sitems):
            fail(f"{len(slayers)} storm layers added for {len(sitems)} listed")
        styles = os.path.join(plugins, "seawx", "styles")
        for lyr in slayers:
            # Styled: the renderer of the layer's .qml (categorized, graduated...).
            with open(os.path.join(styles, f"seawx_{lyr.name()}.qml")) as f:
                qml = f.read()
            kind = re.search(r'<renderer-v2 [^>]*type="([^"]+)"', qml).group(1)
            if not isinstance(lyr, QgsVectorLayer) or not lyr.isValid() or \
                    not lyr.temporalProperties().isActive() or lyr.renderer() is None or \
                    lyr.renderer().type() != kind or not lyr.crs().isValid():
                fail(f"the storm layer {lyr.name()} is not valid, styled ({kind}), on the "
                     f"slider and in a valid CRS ({lyr.crs().authid() or 'none'})")
        print(f"storms: {len(slayers)} layers ({', '.join(s.name() for s in sitems)}), styled, "
              "on the time slider")

        # Point data: the kinds listed, one added at a position.
        kinds = children(top[names.index("Point data")])
        if "vessels" not in [k.name() for k in kinds] or len(kinds) < 2:
            fail(f"the point data lists {[k.name() for k in kinds]}")
        point = sys.modules["seawx.storms"].add_point_layer("weather", "59.91", "10.75")
        if not point.isValid() or point.featureCount() < 1:
            fail(f"the weather at 59.91,10.75 did not load: {point.source()}")
        print(f"point data: {', '.join(k.name() for k in kinds)}; weather at 59.91,10.75: "
              f"{point.featureCount()} feature(s)")

        # A double-click on the variable: its latest complete run, the same
        # group; in a Web Mercator project the service renders in its CRS.
        project.setCrs(QgsCoordinateReferenceSystem("EPSG:3857"))
        if not gui.handleDoubleClick(vitems[0], QgsDataItemGuiContext()):
            fail("a double-click on a variable does nothing")
        latest = project.layerTreeRoot().children()[0]
        if latest.name() != group.name() or len(latest.findLayers()) != len(times):
            fail(f"the variable's latest run added '{latest.name()}' with "
                 f"{len(latest.findLayers())} layers")
        for node, t in zip(latest.findLayers(), times):
            lyr = node.layer()
            items = connstr_items(lyr.source())
            if items.get("crs") != "EPSG:3857" or items.get("time") != t or \
                    lyr.crs().authid() != "EPSG:3857" or not lyr.crs().isValid() or \
                    not lyr.isValid():
                fail(f"in a Web Mercator project the layer of {t} is {lyr.source()} in "
                     f"{lyr.crs().authid()}")
        project.setCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
        print(f"the variable's double-click adds its latest run: '{latest.name()}', in a Web "
              "Mercator project with crs=EPSG:3857")

        # Without QGIS's window (no Temporal Controller to set) the group
        # comes unticked, as the .qlr's: QGIS would draw every time at once.
        alone = QgsProject()
        g = sys.modules["seawx.browser"].add_run(ritems[0].path().split("/run/", 1)[1],
                                                 project=alone)
        if g.itemVisibilityChecked() or len(g.findLayers()) != len(times):
            fail("without a Temporal Controller the group should come unticked")
        alone.clear()

        saved = os.path.join(out, "plugin.qgs")
        if not project.write(saved):
            fail(f"QGIS cannot save {saved}")

        qgis.utils.unloadPlugin("seawx")
        if [p for p in QgsApplication.dataItemProviderRegistry().providers()
                if p.name() == "seawx"]:
            fail("the Browser provider is still there after the plugin was unloaded")
        print("unloaded: the Browser provider is gone")
    finally:
        import qgis.utils
        if "seawx" in qgis.utils.active_plugins:
            qgis.utils.unloadPlugin("seawx")
        QgsProject.instance().clear()
        app.exitQgis()


if __name__ == "__main__":
    main()
