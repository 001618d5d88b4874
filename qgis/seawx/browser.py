"""The service in QGIS's Browser panel.

    seawx
      basic, maritime, ...          the bundles
        t2m:K (2 metre temperature) its variables (double-click: the latest run)
          run 2024-10-01T00Z        every run (double-click: add as time group)
      Storms                        the storms' layers (double-click: styled, on the slider)
        cones, danger_areas, ...
      Point data                    weather, tides, ... at a point; vessels

Each item keeps the connection string it stands for in its path
("seawx:/run/SEAWX:bundle=...") so that the actions find it again whatever
object QGIS hands back.
"""
from qgis.core import (Qgis, QgsApplication, QgsDataCollectionItem, QgsDataItem,
                       QgsDataItemProvider, QgsDataProvider, QgsErrorItem, QgsLayerItem,
                       QgsProject)
from qgis.gui import QgsDataItemGuiProvider
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QAction, QApplication, QInputDialog

from . import service, storms, timegroup

ROOT = "seawx:"
PROVIDER = "seawx"


def _icon(name):
    return QgsApplication.getThemeIcon(name)


def _errors(parent, fn):
    """fn()'s children in the order given (the service's, runs newest
    first; the Browser sorts by name otherwise), or one error item with the
    GDAL plugin's message."""
    try:
        items = fn()
    except service.ServiceError as e:
        return [QgsErrorItem(parent, str(e), parent.path() + "/error")]
    for i, item in enumerate(items):
        item.setSortKey(f"{i:05d}")
    return items


class _Leaf(QgsDataItem):
    """An item without children (no expansion arrow)."""

    def __init__(self, parent, name, path, icon):
        super().__init__(Qgis.BrowserItemType.Custom, parent, name, path, PROVIDER)
        self.setIcon(_icon(icon))
        self.setState(Qgis.BrowserItemState.Populated)
        self.setCapabilitiesV2(Qgis.BrowserItemCapabilities())


class RunItem(_Leaf):
    def __init__(self, parent, label, uri):
        super().__init__(parent, label, f"{ROOT}/run/{uri}", "/mIconRaster.svg")
        self.setToolTip(f"{uri}\nDouble-click: add as time group")


class VariableItem(QgsDataCollectionItem):
    def __init__(self, parent, bundle, var, title, uri):
        name = f"{var} ({title})" if title and title != var else var
        super().__init__(parent, name, f"{ROOT}/variable/{uri}", PROVIDER)
        self.bundle, self.var = bundle, var
        self.setIcon(_icon("/mIconRasterGroup.svg"))
        self.setToolTip(f"{uri}\nDouble-click: add the latest run as time group")

    def createChildren(self):  # noqa: N802
        return _errors(self, lambda: [RunItem(self, label, uri)
                                      for label, uri in service.runs(self.bundle, self.var)])


class BundleItem(QgsDataCollectionItem):
    def __init__(self, parent, bundle):
        super().__init__(parent, bundle, f"{ROOT}/bundle/{bundle}", PROVIDER)
        self.bundle = bundle
        self.setIcon(_icon("/mIconFolder.svg"))

    def createChildren(self):  # noqa: N802
        return _errors(self, lambda: [VariableItem(self, self.bundle, var, title, uri)
                                      for var, title, uri in service.variables(self.bundle)])


class StormLayerItem(_Leaf):
    def __init__(self, parent, name, geom, count):
        super().__init__(parent, f"{name} ({count})", f"{ROOT}/storm/{name}",
                         "/mIconPolygonLayer.svg" if "Polygon" in geom else
                         "/mIconLineLayer.svg" if "Line" in geom else "/mIconPointLayer.svg")
        self.setToolTip(f"{service.PREFIX}storms|layername={name}: {geom}, {count} features")


class StormsItem(QgsDataCollectionItem):
    def __init__(self, parent):
        super().__init__(parent, "Storms", f"{ROOT}/storms", PROVIDER)
        self.setIcon(_icon("/mIconFolder.svg"))
        self.setToolTip("Active storms; double-click: every layer, styled, on the time slider")

    def createChildren(self):  # noqa: N802
        return _errors(self, lambda: [StormLayerItem(self, *row)
                                      for row in service.storm_layers()])


class PointKindItem(_Leaf):
    def __init__(self, parent, kind, text):
        super().__init__(parent, f"{kind}: {text}", f"{ROOT}/point/{kind}",
                         "/mIconPointLayer.svg")
        self.setToolTip("Double-click: ask for a position, add the answer as a point layer")


class PointsItem(QgsDataCollectionItem):
    def __init__(self, parent):
        super().__init__(parent, "Point data", f"{ROOT}/points", PROVIDER)
        self.setIcon(_icon("/mIconFolder.svg"))

    def createChildren(self):  # noqa: N802
        def children():
            items = [PointKindItem(self, kind, text) for kind, text, _ in service.POINT_KINDS]
            return items + [QgsLayerItem(self, "vessels", f"{ROOT}/vessels",
                                         service.PREFIX + "vessels",
                                         Qgis.BrowserLayerType.Point, "ogr")]
        return _errors(self, children)


class RootItem(QgsDataCollectionItem):
    def __init__(self, parent):
        super().__init__(parent, "seawx", ROOT, PROVIDER)
        self.setIcon(_icon("/mIconWms.svg"))
        self.setToolTip("Weather, Ocean and Vessel Data Service (through the seawx GDAL plugin)")

    def createChildren(self):  # noqa: N802
        def children():
            items = [BundleItem(self, b) for b, _ in service.bundles()]
            return items + [StormsItem(self), PointsItem(self)]
        return _errors(self, children)


class SeawxItemProvider(QgsDataItemProvider):
    """The root of the service in the Browser."""

    def name(self):
        return "seawx"

    def dataProviderKey(self):  # noqa: N802
        return "gdal"

    def capabilities(self):
        return QgsDataProvider.Net

    def createDataItem(self, path, parentItem):  # noqa: N802
        if not path:
            return RootItem(parentItem)
        return None


# ---- what the items do ----

def item_target(item):
    """(what, value) an item of this plugin stands for, from its path; None
    for the others."""
    path = item.path() if item is not None else ""
    if not path.startswith(ROOT + "/"):
        return None
    what, _, value = path[len(ROOT) + 1:].partition("/")
    return what, value


def add_run(uri, project=None, navigation=None, crs=None):
    """Adds the time group of the run a connection string names."""
    return timegroup.add_time_group(service.run_definition(uri, crs=crs), project=project,
                                    navigation=navigation)


class SeawxGuiProvider(QgsDataItemGuiProvider):
    """Double-click and context menu of the items: a run (or a variable's
    latest run) added as a time group, the storms styled on the slider."""

    def __init__(self, iface=None):
        super().__init__()
        self.iface = iface

    def name(self):
        return "seawx"

    def _navigation(self):
        canvas = self.iface.mapCanvas() if self.iface else None
        nav = canvas.temporalController() if canvas else None
        return nav if hasattr(nav, "setNavigationMode") else None

    def _crs(self):
        # The service renders in a Web Mercator project's CRS itself.
        authid = QgsProject.instance().crs().authid()
        return "EPSG:3857" if authid == "EPSG:3857" else None

    def _run(self, what, value, context):
        QApplication.setOverrideCursor(Qt.WaitCursor)
        try:
            if what in ("run", "variable"):
                add_run(value, navigation=self._navigation(), crs=self._crs())
            elif what == "storms":
                storms.add_storms()
            elif what == "storm":
                storms.add_storms(only=[value])
            elif what == "point":
                self._add_point(value)
        except service.ServiceError as e:
            bar = context.messageBar() if context else None
            if bar:
                bar.pushWarning("seawx", str(e))
        finally:
            QApplication.restoreOverrideCursor()

    def _add_point(self, kind):
        extra = {}
        for name, _, keys in service.POINT_KINDS:
            if name == kind:
                extra.update(kv.split("=", 1) for kv in keys.split(",") if kv)
        parent = self.iface.mainWindow() if self.iface else None
        QApplication.restoreOverrideCursor()
        text, ok = QInputDialog.getText(parent, "seawx", f"{kind}: latitude, longitude (degrees)")
        QApplication.setOverrideCursor(Qt.WaitCursor)
        if not ok or "," not in text:
            return
        lat, lon = (v.strip() for v in text.split(",", 1))
        storms.add_point_layer(kind, lat, lon, **extra)

    def handleDoubleClick(self, item, context):  # noqa: N802
        target = item_target(item)
        if target is None or target[0] not in ("run", "variable", "storms", "storm", "point"):
            return False
        self._run(*target, context)
        return True

    def populateContextMenu(self, item, menu, selectedItems, context):  # noqa: N802
        target = item_target(item)
        if target is None:
            return
        what, value = target
        text = {"run": "Add as Time Group", "variable": "Add Latest Run as Time Group",
                "storms": "Add Storms (Styled, on the Time Slider)",
                "storm": "Add Styled, on the Time Slider",
                "point": "Add at a Position..."}.get(what)
        if text:
            action = QAction(text, menu)
            action.triggered.connect(lambda: self._run(what, value, context))
            menu.addAction(action)
