"""The storms and the point data as vector layers of the GDAL plugin.

The storms come styled and on the time slider as in seawx's storm layer
definition (styles/seawx_storms.qlr, shipped in this plugin's styles/
folder): each layer takes the .qml of its name for its symbols and the
<temporal> element of its name in the .qlr for its time fields, so the
Temporal Controller shows each storm, fix and cone at its time.
"""
import os

from qgis.core import QgsProject, QgsReadWriteContext, QgsVectorLayer
from qgis.PyQt.QtXml import QDomDocument

from . import service

STYLES = os.path.join(os.path.dirname(__file__), "styles")


def _styles_dir():
    """The plugin's own copy (the package's and the zip's), else the one the
    seawx package installs (/usr/share/seawx/styles beside
    /usr/share/qgis/python/plugins), else the source tree's."""
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (STYLES, os.path.join(here, *[os.pardir] * 4, "seawx", "styles"),
                 os.path.join(here, os.pardir, os.pardir, "styles")):
        if os.path.exists(os.path.join(path, "seawx_storms.qlr")):
            return os.path.normpath(path)
    return STYLES


def _definition():
    """(document, {layer name: its <maplayer> element}) of seawx_storms.qlr,
    in its order; the document must outlive the elements."""
    path = os.path.join(_styles_dir(), "seawx_storms.qlr")
    doc = QDomDocument()
    try:
        with open(path, "rb") as f:
            if not doc.setContent(f.read())[0]:
                return doc, {}
    except OSError:
        return doc, {}
    out = {}
    nodes = doc.documentElement().firstChildElement("maplayers").elementsByTagName("maplayer")
    for i in range(nodes.count()):
        elem = nodes.at(i).toElement()
        out[elem.firstChildElement("layername").text()] = elem
    return doc, out


def add_storms(only=None, uri=service.PREFIX + "storms", project=None):
    """Adds the storm layers (or those named in only) as one group
    'seawx storms' at the top of the project, styled and on the time slider;
    returns the group."""
    project = project or QgsProject.instance()
    names = [name for name, _, _ in service.storm_layers(uri)]
    if only:
        names = [n for n in names if n in only]
    _doc, definition = _definition()
    order = [n for n in definition if n in names] + [n for n in names if n not in definition]
    group = project.layerTreeRoot().insertGroup(0, "seawx storms")
    for name in order:
        lyr = QgsVectorLayer(f"{uri}|layername={name}", name, "ogr")
        qml = os.path.join(_styles_dir(), f"seawx_{name}.qml")
        if os.path.exists(qml):
            lyr.loadNamedStyle(qml)
        elem = definition.get(name)
        if elem is not None:
            lyr.temporalProperties().readXml(elem, QgsReadWriteContext())
        project.addMapLayer(lyr, False)
        group.addLayer(lyr)
    return group


def add_point_layer(kind, lat, lon, project=None, **extra):
    """Adds the answer of one point query (SEAWX:weather,lat=..,lon=..) as a
    point layer; returns it."""
    project = project or QgsProject.instance()
    uri = service.connstr(kind, lat=lat, lon=lon, **extra)
    lyr = QgsVectorLayer(uri, f"{kind} {lat},{lon}", "ogr")
    if not lyr.isValid():
        raise service.ServiceError(f"{uri} did not open: {lyr.error().summary()}")
    project.addMapLayer(lyr)
    return lyr
