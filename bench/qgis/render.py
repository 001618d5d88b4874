"""bench/qgis/render.py: one QGIS (Debian's python3-qgis, offscreen) that opens one
layer and renders one view twice, timing each step; run by bench/qgis/run.sh.

  render.py seawx CONNECTION VIEW PNG
  render.py plugin CONNECTION VIEW PNG
  render.py wms URL LAYER STYLE TIME USER PASSWORD VIEW PNG

VIEW is XMIN,YMIN,XMAX,YMAX,WIDTH,HEIGHT in EPSG:4326. Prints one line:
"open SECONDS cold SECONDS warm SECONDS" (cold: the first render after opening,
with empty caches; warm: the same view again in the same QGIS), and writes the
cold render to PNG.

"seawx" is the layer a user adds through Layer > Add Raster Layer
(QgsRasterLayer: QGIS reads the band statistics at once and stretches through
its contrast enhancement); "plugin" is the layer of the same time as the QGIS
plugin adds it, from the GDAL plugin's layer definition of the run, which
`seawx qlr` writes too (a <maplayer> with no renderer: QGIS's multiband
renderer on the RGBA bands with no contrast enhancement), without its time
range; its opening time holds reading that definition.
"""
import os
import sys
import time

from qgis.core import (QgsApplication, QgsCoordinateReferenceSystem, QgsDataSourceUri,
                       QgsMapRendererSequentialJob, QgsMapSettings, QgsRasterLayer,
                       QgsRectangle)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QColor

from osgeo import gdal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "qgis"))
from seawx import service, timegroup  # noqa: E402 (the plugin's own layers)


def render(layer, view):
    x0, y0, x1, y1, w, h = view
    ms = QgsMapSettings()
    ms.setLayers([layer])
    ms.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    ms.setExtent(QgsRectangle(x0, y0, x1, y1))
    ms.setOutputSize(QSize(int(w), int(h)))
    ms.setBackgroundColor(QColor(0, 0, 0, 0))
    job = QgsMapRendererSequentialJob(ms)
    t0 = time.monotonic()
    job.start()
    job.waitForFinished()
    dt = time.monotonic() - t0
    if job.errors():
        sys.exit(f"render.py: {'; '.join(e.message for e in job.errors())}")
    return dt, job.renderedImage()


def plugin_layer(conn):
    """The layer of the connection's time as the QGIS plugin adds it
    (qgis/seawx/timegroup.py), with no time range."""
    when = gdal.Open(conn).GetMetadataItem("TIME")
    _, layers = timegroup.read_definition(service.run_definition(conn).qlr)
    for layer, _ in layers:
        if f"time={when}" in layer.source():
            layer.temporalProperties().setIsActive(False)
            return layer
    sys.exit(f"render.py: no layer of {when} in the plugin's group of {conn}")


def main():
    kind = sys.argv[1]
    app = QgsApplication([], False)
    app.initQgis()
    t0 = time.monotonic()
    if kind == "seawx":
        conn, view, png = sys.argv[2:5]
        layer = QgsRasterLayer(conn, "seawx", "gdal")
    elif kind == "plugin":
        conn, view, png = sys.argv[2:5]
        layer = plugin_layer(conn)
    else:
        url, name, style, when, user, password, view, png = sys.argv[2:10]
        uri = QgsDataSourceUri()
        # The service's bundle and the valid time ride in the endpoint's
        # address: QGIS appends its own GetMap parameters to it.
        uri.setParam("url", f"{url}&TIME={when}")
        uri.setParam("layers", name)
        uri.setParam("styles", style)
        uri.setParam("format", "image/png")
        uri.setParam("crs", "EPSG:4326")
        uri.setParam("dpiMode", "7")
        uri.setParam("contextualWMSLegend", "0")
        uri.setUsername(user)
        uri.setPassword(password)
        layer = QgsRasterLayer(bytes(uri.encodedUri()).decode(), "wms", "wms")
    if not layer.isValid():
        sys.exit(f"render.py: the layer did not load: {layer.error().summary()}")
    t_open = time.monotonic() - t0
    v = [float(x) for x in view.split(",")]
    cold, img = render(layer, v)
    warm, _ = render(layer, v)
    img.save(png, "PNG")
    print(f"open {t_open:.3f} cold {cold:.3f} warm {warm:.3f}")
    del layer
    app.exitQgis()


if __name__ == "__main__":
    main()
