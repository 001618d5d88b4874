"""QGIS, headless, through the SEAWX plugin: what tests/integration/test_qgis.sh
runs in Debian's python3 (python3-qgis). Each command prints what it found and
exits non-zero with one line on stderr when something is wrong.

  test_qgis.py render CONNECTION PNG PROJECT   load the layer by its connection
                                               string, render it, save a project
  test_qgis.py reopen PROJECT PNG              read the project back, render again
  test_qgis.py pixels PNG MIN_SHARE MIN_COLOURS
                                               the image is not empty: at least
                                               MIN_SHARE of its pixels are opaque
                                               and they have MIN_COLOURS colours
  test_qgis.py sublayers CONNECTION            what QGIS's chooser offers: one
                                               line per entry, name TAB uri
  test_qgis.py view CONNECTION XMIN YMIN XMAX YMAX WIDTH HEIGHT PNG
                                               render that extent (layer CRS) at
                                               that size, as a map canvas does
  test_qgis.py panel CONNECTION PNG CROP      the Layers panel with the layer's
                                               legend image, grabbed to PNG; the
                                               image found in it as it is, to CROP
  test_qgis.py legend CONNECTION PNG           the layer with the plugin's legend
                                               (LEGEND domain, FILE) as its legend
                                               image: QGIS's legend drawn to PNG,
                                               checked to show the legend's colours
"""
import sys

from qgis.core import (QgsApplication, QgsMapRendererSequentialJob, QgsMapSettings,
                       QgsProject, QgsProviderRegistry, QgsRasterLayer, QgsRectangle)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QColor, QImage

WIDTH = 720  # the height follows the layer's shape


def fail(msg):
    print(f"test_qgis.py: {msg}", file=sys.stderr)
    sys.exit(1)


def render(layer, png, e=None, size=None):
    """Renders the layer in its own CRS to png: its full extent WIDTH pixels
    wide, or extent e at size (width, height)."""
    if e is None:
        e = layer.extent()
        size = (WIDTH, round(WIDTH * e.height() / e.width()))
    ms = QgsMapSettings()
    ms.setLayers([layer])
    ms.setDestinationCrs(layer.crs())
    ms.setExtent(e)
    ms.setOutputSize(QSize(*size))
    ms.setBackgroundColor(QColor(0, 0, 0, 0))
    job = QgsMapRendererSequentialJob(ms)
    job.start()
    job.waitForFinished()
    errors = [e.message for e in job.errors()]
    if errors:
        fail(f"rendering failed: {'; '.join(errors)}")
    if not job.renderedImage().save(png, "PNG"):
        fail(f"cannot write {png}")


def describe(layer):
    print(f"source={layer.source()}")
    print(f"provider={layer.providerType()} bands={layer.bandCount()} "
          f"size={layer.width()}x{layer.height()} crs={layer.crs().authid()}")


def cmd_render(conn, png, project):
    layer = QgsRasterLayer(conn, "seawx", "gdal")
    if not layer.isValid():
        fail(f"the layer did not load: {layer.error().summary()}")
    describe(layer)
    render(layer, png)
    p = QgsProject.instance()
    p.addMapLayer(layer)
    if not p.write(project):
        fail(f"cannot save the project {project}: {p.error()}")


def cmd_reopen(project, png):
    p = QgsProject.instance()
    if not p.read(project):
        fail(f"cannot read the project {project}: {p.error()}")
    layers = list(p.mapLayers().values())
    if len(layers) != 1:
        fail(f"the project holds {len(layers)} layers, not 1")
    layer = layers[0]
    if not layer.isValid():
        fail(f"the layer did not load again from {layer.source()}: {layer.error().summary()}")
    describe(layer)
    render(layer, png)


def cmd_sublayers(conn):
    subs = QgsProviderRegistry.instance().querySublayers(conn)
    if not subs:
        fail(f"QGIS finds no sublayers in {conn}")
    for d in subs:
        print(f"{d.name()}\t{d.uri()}")


def cmd_view(conn, xmin, ymin, xmax, ymax, width, height, png):
    layer = QgsRasterLayer(conn, "seawx", "gdal")
    if not layer.isValid():
        fail(f"the layer did not load: {layer.error().summary()}")
    describe(layer)
    render(layer, png, QgsRectangle(float(xmin), float(ymin), float(xmax), float(ymax)),
           (int(width), int(height)))


def legend_tree(conn):
    """The plugin's layer with its legend file (LEGEND domain, FILE) as its
    legend image, in a layer tree and its model: layer, file, tree, model
    (the caller keeps the layer alive longer than the tree and the model)."""
    from osgeo import gdal
    from qgis.core import QgsLayerTree, QgsLayerTreeModel
    layer = QgsRasterLayer(conn, "seawx", "gdal")
    if not layer.isValid():
        fail(f"the layer did not load: {layer.error().summary()}")
    ds = gdal.Open(conn)
    legend_file = ds.GetMetadataItem("FILE", "LEGEND") if ds else None
    if not legend_file:
        fail(f"the plugin gives no legend file for {conn}")
    layer.setLegendPlaceholderImage(legend_file)
    root = QgsLayerTree()
    root.addLayer(layer)
    return layer, legend_file, root, QgsLayerTreeModel(root)


def cmd_legend(conn, png):
    from qgis.core import QgsLegendRenderer, QgsLegendSettings, QgsRenderContext
    from qgis.PyQt.QtGui import QPainter
    layer, legend_file, root, model = legend_tree(conn)
    print(f"legend_file={legend_file}")
    renderer = QgsLegendRenderer(model, QgsLegendSettings())
    dpmm = 96 / 25.4
    size_mm = renderer.minimumSize()
    img = QImage(round(size_mm.width() * dpmm), round(size_mm.height() * dpmm),
                 QImage.Format_ARGB32)
    img.fill(QColor(255, 255, 255, 255))
    painter = QPainter(img)
    ctx = QgsRenderContext.fromQPainter(painter)
    ctx.setScaleFactor(dpmm)
    renderer.drawLegend(ctx)
    painter.end()
    if not img.save(png, "PNG"):
        fail(f"cannot write {png}")
    del renderer, model, root  # before the layer they point to
    # QGIS draws the legend image scaled: find the row with the most colours,
    # and check that it shows a ramp of the legend's own colours.
    src = QImage(legend_file).convertToFormat(QImage.Format_ARGB32)
    ramp = [QColor(src.pixel(x, src.height() // 2)) for x in range(src.width())]

    def near(c):
        return min(max(abs(c.red() - r.red()), abs(c.green() - r.green()),
                       abs(c.blue() - r.blue())) for r in ramp) <= 16
    best = max(range(img.height()), key=lambda y: len({img.pixel(x, y) for x in range(img.width())}))
    row = [QColor(img.pixel(x, best)) for x in range(img.width())]
    shown = [c for c in row if (c.red(), c.green(), c.blue()) != (255, 255, 255)]
    colours = {c.rgb() for c in shown}
    close = sum(near(c) for c in shown) / max(1, len(shown))
    print(f"legend {img.width()}x{img.height()}: a row of {len(colours)} colours, "
          f"{close:.2f} of them the legend's")
    if len(colours) < 20 or close < 0.9:
        fail(f"QGIS's legend does not show the legend image ({len(colours)} colours, "
             f"{close:.2f} of them the legend's)")


def cmd_panel(conn, png, crop):
    """QGIS's Layers panel as a user sees it: the layer with the plugin's
    legend file as its legend image, the view grabbed to PNG; the legend
    image found in it pixel for pixel (QGIS shows it at its own size, not
    scaled) and cut out to CROP for legend_check.py to read."""
    from qgis.gui import QgsLayerTreeView
    layer, legend_file, root, model = legend_tree(conn)
    view = QgsLayerTreeView()
    view.setModel(model)
    view.expandAll()
    view.resize(480, 240)
    view.show()
    QgsApplication.processEvents()
    shot = view.viewport().grab().toImage().convertToFormat(QImage.Format_RGB32)
    if not shot.save(png, "PNG"):
        fail(f"cannot write {png}")
    src = QImage(legend_file).convertToFormat(QImage.Format_RGB32)
    w, h = src.width(), src.height()
    first = [src.pixel(x, 0) for x in range(w)]
    for y in range(shot.height() - h + 1):
        for x in range(shot.width() - w + 1):
            if shot.pixel(x, y) == first[0] and all(shot.pixel(x + i, y) == first[i] for i in range(w)):
                cut = shot.copy(x, y, w, h)
                same = all(cut.pixel(i, j) == src.pixel(i, j) for j in range(h) for i in range(w))
                if same and cut.save(crop, "PNG"):
                    print(f"the legend image {w}x{h} at ({x}, {y}) of the panel's {shot.width()}x"
                          f"{shot.height()}, pixel for pixel")
                    del view, model, root
                    return
    fail(f"the panel does not show the legend image {w}x{h} as it is")


def cmd_pixels(png, min_share, min_colours):
    img = QImage(png)
    if img.isNull():
        fail(f"cannot read {png}")
    img = img.convertToFormat(QImage.Format_ARGB32)
    opaque, colours = 0, set()
    for y in range(img.height()):
        for x in range(img.width()):
            argb = img.pixel(x, y)
            if argb >> 24 == 255:
                opaque += 1
                colours.add(argb)
    share = opaque / (img.width() * img.height())
    print(f"{img.width()}x{img.height()} opaque={share:.3f} colours={len(colours)}")
    if share < float(min_share) or len(colours) < int(min_colours):
        fail(f"{png} looks empty: {share:.3f} opaque (want {min_share}), {len(colours)} colours "
             f"(want {min_colours})")


def main():
    commands = {"render": (cmd_render, 3), "reopen": (cmd_reopen, 2), "pixels": (cmd_pixels, 3),
                "sublayers": (cmd_sublayers, 1), "view": (cmd_view, 8), "legend": (cmd_legend, 2),
                "panel": (cmd_panel, 3)}
    if len(sys.argv) < 2 or sys.argv[1] not in commands or \
            len(sys.argv) != 2 + commands[sys.argv[1]][1]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    fn = commands[sys.argv[1]][0]
    app = QgsApplication([], sys.argv[1] == "panel")  # widgets only where drawn
    app.initQgis()
    try:
        fn(*sys.argv[2:])
    finally:
        QgsProject.instance().clear()
        app.exitQgis()


if __name__ == "__main__":
    main()
