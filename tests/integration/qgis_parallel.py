"""QGIS, headless, renders a map of several SEAWX layers with parallel
rendering (each layer in its own worker thread, each opening its own GDAL
dataset, as the desktop does) again and again; what
tests/integration/test_qgis_parallel.sh runs in Debian's python3.

  qgis_parallel.py FRAMES PNG CONNECTION...

Every frame must render without an error and equal the first one pixel for
pixel; the first is saved to PNG. Prints one line: frames, layers, equal.
"""
import sys

from qgis.core import (QgsApplication, QgsCoordinateReferenceSystem, QgsMapRendererParallelJob,
                       QgsMapSettings, QgsProject, QgsRasterLayer, QgsRectangle)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QColor


def fail(msg):
    print(f"qgis_parallel.py: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    frames, png, conns = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    app = QgsApplication([], False)
    app.initQgis()
    layers = []
    for i, conn in enumerate(conns):
        layer = QgsRasterLayer(conn, f"seawx{i}", "gdal")
        if not layer.isValid():
            fail(f"{conn} did not load: {layer.error().summary()}")
        layer.setOpacity(0.5)  # every layer shows through the ones above it
        layers.append(layer)
    # The project owns the layers, as in the desktop, and frees them before QGIS
    # exits: layers still alive after exitQgis() crash QGIS at exit whatever their
    # provider (seen with plain GeoTIFF layers too).
    QgsProject.instance().addMapLayers(layers)
    ms = QgsMapSettings()
    ms.setLayers(layers)
    ms.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
    ms.setExtent(QgsRectangle(-180, -90, 180, 90))
    ms.setOutputSize(QSize(1024, 512))
    ms.setBackgroundColor(QColor(0, 0, 0, 0))
    ms.setFlag(QgsMapSettings.RenderMapTile, False)
    first = None
    equal = 0
    for n in range(frames):
        job = QgsMapRendererParallelJob(ms)
        job.start()
        job.waitForFinished()
        errors = [f"{e.layerID}: {e.message}" for e in job.errors()]
        if errors:
            fail(f"frame {n}: rendering failed: {'; '.join(errors)}")
        img = job.renderedImage()
        if first is None:
            first = img
            if not img.save(png, "PNG"):
                fail(f"cannot write {png}")
            equal += 1
        elif img == first:
            equal += 1
        else:
            print(f"frame {n} differs from the first", file=sys.stderr)
    print(f"frames={frames} layers={len(layers)} equal={equal} "
          f"threads={QgsApplication.maxThreads()}")
    del first, img, job, ms, layers
    QgsProject.instance().clear()
    app.exitQgis()
    return 0 if equal == frames else 1


if __name__ == "__main__":
    sys.exit(main())
