"""A run of a variable as a layer-tree group on QGIS's time slider.

The group is the GDAL plugin's layer definition of the run (its metadata
item QLR of domain QGIS, written by the library as `seawx qlr` writes its
file, lib/wms/wms_qlr.c): named after the variable and the run ("swh
(Significant wave height), run 2024-10-01 00Z"), one SEAWX raster layer per
valid time, earliest on top, each named after its variable and time first
("swh 2024-10-01 06Z (Significant wave height)"), showing that time through
its connection string with a fixed temporal range from its time to the next
and the service's value legend as its legend image. Here the group is only
added to the project, and the project's and the Temporal Controller's range
and step set to it, which a layer definition cannot hold.
"""
import uuid
from datetime import datetime, timedelta, timezone

from qgis.core import (QgsDateTimeRange, QgsInterval, QgsProject, QgsRasterLayer,
                       QgsReadWriteContext, QgsTemporalNavigationObject, QgsUnitTypes)
from qgis.PyQt.QtXml import QDomDocument

from .service import ServiceError


def parse(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def step_of(times):
    """The smallest spacing of the valid times (an hour with one time)."""
    ts = [parse(t) for t in times]
    steps = [b - a for a, b in zip(ts, ts[1:]) if b > a]
    return min(steps) if steps else timedelta(hours=1)


def frame_duration(step):
    """The Temporal Controller's step in the unit a user reads it in: whole
    hours as hours ("1 hours", "3 hours"), anything else in minutes or
    seconds; the controller shows the interval's own unit."""
    secs = step.total_seconds()
    if secs % 3600 == 0:
        return QgsInterval(secs / 3600, QgsUnitTypes.TemporalHours)
    if secs % 60 == 0:
        return QgsInterval(secs / 60, QgsUnitTypes.TemporalMinutes)
    return QgsInterval(secs, QgsUnitTypes.TemporalSeconds)


def _children(parent, tag):
    out, e = [], parent.firstChildElement(tag)
    while not e.isNull():
        out.append(e)
        e = e.nextSiblingElement(tag)
    return out


def read_definition(qlr):
    """(group name, [(layer, legend open)]) of a layer definition of one
    group of rasters. Each layer gets an id of its own, so that the same run
    can be added twice."""
    doc = QDomDocument()
    if not doc.setContent(qlr)[0]:
        raise ServiceError("the GDAL plugin's layer definition is not XML")
    root = doc.documentElement()
    groups = _children(root.firstChildElement("layer-tree-group"), "layer-tree-group")
    if len(groups) != 1:
        raise ServiceError(f"the layer definition holds {len(groups)} groups, not one")
    opened = {e.attribute("id"): e.attribute("expanded") == "1"
              for e in _children(groups[0], "layer-tree-layer")}
    out = []
    for elem in _children(root.firstChildElement("maplayers"), "maplayer"):
        id_text = elem.firstChildElement("id").firstChild().toText()
        lid = id_text.data()
        id_text.setData(f"{lid}_{uuid.uuid4().hex[:8]}")
        lyr = QgsRasterLayer()
        if not lyr.readLayerXml(elem, QgsReadWriteContext()):
            raise ServiceError("QGIS cannot open "
                               f"{elem.firstChildElement('datasource').text()}")
        out.append((lyr, opened.get(lid, False)))
    return groups[0].attribute("name"), out


def add_time_group(run, project=None, parent=None, navigation=None):
    """Adds the group of a run (a service.RunDefinition) at the top of parent
    (the project's layer tree by default) and returns it. The project's
    temporal range becomes the group's and its step the run's; with
    navigation (the Temporal Controller's QgsTemporalNavigationObject, in
    QGIS's window) the controller is set to step through it frame by frame
    and the group is ticked; without, the group comes unticked, as the
    definition's (with temporal navigation off QGIS draws every layer of a
    ticked group)."""
    project = project or QgsProject.instance()
    parent = parent or project.layerTreeRoot()
    name, layers = read_definition(run.qlr)
    if not layers:
        raise ServiceError(f"the layer definition of '{name}' holds no layer")
    group = parent.insertGroup(0, name)
    for lyr, opened in layers:
        project.addMapLayer(lyr, False)
        group.addLayer(lyr).setExpanded(opened)

    ranges = [lyr.temporalProperties().fixedTemporalRange() for lyr, _ in layers]
    whole = QgsDateTimeRange(ranges[0].begin(), ranges[-1].end())
    step = step_of(run.times)
    ts = project.timeSettings()
    ts.setTemporalRange(whole)
    ts.setTimeStepUnit(QgsUnitTypes.TemporalHours)
    ts.setTimeStep(step.total_seconds() / 3600.0)
    if navigation is not None:
        navigation.setTemporalExtents(whole)
        navigation.setFrameDuration(frame_duration(step))
        navigation.setNavigationMode(QgsTemporalNavigationObject.Animated)
        navigation.setCurrentFrameNumber(0)
    group.setItemVisibilityChecked(navigation is not None)
    return group
