"""The demo's QGIS step (scripts/demo.sh, step 5e): the seawx QGIS plugin
loaded by QGIS's own loader from a profile's plugin folder, its Browser entry
walked, a variable's newest run added with a double-click as a group on the
time slider, and two frames of that slider rendered.

  demo_qgis_plugin.py PLUGINS BUNDLE VARIABLE OUT

Runs in Debian's python3 with python3-qgis (QT_QPA_PLATFORM=offscreen); the
service's address and key come from the environment, as for the GDAL plugin.
"""
import os
import sys

plugins, bundle, variable, out = sys.argv[1:5]

from qgis.core import (QgsApplication, QgsDataItem, QgsMapRendererParallelJob, QgsMapSettings,
                       QgsProject, QgsRectangle, QgsTemporalNavigationObject)
from qgis.PyQt.QtCore import QSize, Qt

app = QgsApplication([], True)
app.initQgis()
import qgis.utils  # noqa: E402
from qgis.gui import QgsDataItemGuiContext, QgsGui, QgsMapCanvas  # noqa: E402


class Iface:
    """The part of QGIS's window the plugin asks for: the map canvas and its
    Temporal Controller."""

    def __init__(self):
        self.canvas = QgsMapCanvas()
        self.nav = QgsTemporalNavigationObject(self.canvas)
        self.canvas.setTemporalController(self.nav)

    def mapCanvas(self):  # noqa: N802
        return self.canvas

    def mainWindow(self):  # noqa: N802
        return None


iface = qgis.utils.iface = Iface()
sys.path.insert(0, plugins)
qgis.utils.plugin_paths = [plugins]
qgis.utils.updateAvailablePlugins()
if not qgis.utils.loadPlugin("seawx") or not qgis.utils.startPlugin("seawx"):
    sys.exit("the seawx plugin did not load")
print(f"plugin seawx {qgis.utils.pluginMetadata('seawx', 'version')} loaded")
provider = [p for p in QgsApplication.dataItemProviderRegistry().providers()
            if p.name() == "seawx"][0]
gui = [p for p in QgsGui.dataItemGuiProviderRegistry().providers() if p.name() == "seawx"][0]

root = provider.createDataItem("", None)
top = root.createChildren()
print(f"Browser > {root.name()}: " + ", ".join(k.name() for k in top))
b = [k for k in top if k.name() == bundle][0]
variables = b.createChildren()
print(f"Browser > {root.name()} > {bundle}: " + ", ".join(v.name() for v in variables[:4]) + ", ...")
v = [x for x in variables if x.name().split(" ")[0] == variable][0]
runs = v.createChildren()
print(f"Browser > ... > {v.name()}: {len(runs)} runs, " + ", ".join(r.name() for r in runs[:3]) + ", ...")
run = [r for r in runs if "production" not in r.name()][0]  # the newest complete run
if not gui.handleDoubleClick(run, QgsDataItemGuiContext()):
    sys.exit("a double-click on the run added nothing")

project = QgsProject.instance()
group = project.layerTreeRoot().findGroups()[0]
layers = [n.layer() for n in group.findLayers()]
print(f"double-click on '{run.name()}': group '{group.name()}', {len(layers)} layers: "
      + "; ".join(lyr.name() for lyr in layers[:2]) + "; ...")
if len(layers) < 2:
    sys.exit("the group has fewer than two layers")
nav = iface.nav
print(f"Temporal Controller: {nav.totalFrameCount()} frames of "
      f"{nav.frameDuration().seconds() / 3600:g} h, animated: "
      f"{nav.navigationMode() == QgsTemporalNavigationObject.Animated}")
for k in (1, min(24, nav.totalFrameCount() - 1)):
    frame = nav.dateTimeRangeForFrameNumber(k)
    shown = [lyr for lyr in layers if lyr.temporalProperties().isVisibleInTemporalRange(frame)]
    ms = QgsMapSettings()
    ms.setLayers(shown)
    ms.setDestinationCrs(shown[0].crs())
    ms.setExtent(QgsRectangle(-30, 30, 10, 60))
    ms.setOutputSize(QSize(480, 360))
    ms.setIsTemporal(True)
    ms.setTemporalRange(frame)
    job = QgsMapRendererParallelJob(ms)
    job.start()
    job.waitForFinished()
    png = os.path.join(out, f"frame-{k}.png")
    job.renderedImage().save(png)
    print(f"frame {k} ({frame.begin().toString(Qt.ISODate)}): '{shown[0].name()}' -> "
          f"{os.path.basename(png)}, {os.path.getsize(png)} bytes")
project.write(os.path.join(out, "slider.qgs"))
qgis.utils.unloadPlugin("seawx")
app.exitQgis()
