"""A run of a variable as a layer-tree group on QGIS's time slider.

The group is the one `seawx qlr` writes (lib/wms/wms_qlr.c), built in the
project instead of a file: named after the variable and the run
("swh (Significant wave height), run 2024-10-01 00Z"), one SEAWX raster layer
per valid time, earliest on top, each named after its variable and time
first ("swh 2024-10-01 06Z (Significant wave height)") and showing that time
through its connection string
(SEAWX:bundle=maritime,variable=swh:m,run=2024-10-01T00:00:00Z,time=...),
with a fixed temporal range from its time to the next (ranges()), and the
service's value legend as its legend image.
"""
import uuid
from datetime import datetime, timedelta, timezone

from qgis.core import (QgsCoordinateReferenceSystem, QgsDateTimeRange, QgsInterval, QgsProject,
                       QgsRasterLayer, QgsReadWriteContext, QgsTemporalNavigationObject,
                       QgsUnitTypes)
from qgis.PyQt.QtCore import QDateTime, Qt
from qgis.PyQt.QtXml import QDomDocument

from .service import ServiceError, connstr


def parse(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def qdatetime(t):
    return QDateTime.fromString(iso(t), Qt.ISODate)


def ranges(times):
    """[start, end] of each valid time, both ends included: from one second
    after the time (the first from the time itself) to one second before the
    next; the last lasts the step before it (an hour when there is one time).
    QGIS 3.22 counts a layer in a frame when the layer's range starts at the
    frame's (excluded) end: ranges that started on the valid times would draw,
    and fetch, two layers in every frame."""
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
        out.append((start, max(start, end)))
    return out


def short_time(t):
    """'2024-10-01 06Z', or '2024-10-01 06:30Z' off the hour."""
    if t.minute == 0 and t.second == 0:
        return t.strftime("%Y-%m-%d %HZ")
    return t.strftime("%Y-%m-%d %H:%MZ")


def label(info):
    """'swh (Significant wave height)', or 'swh' with no other title."""
    if info.title and info.title != info.variable:
        return f"{info.variable} ({info.title})"
    return info.variable


def group_name(info):
    if info.run:
        return f"{label(info)}, run {short_time(parse(info.run))}"
    return label(info)


def layer_name(info, t):
    """'swh 2024-10-01 06Z (Significant wave height)': what tells the layers
    apart first, as the narrow Layers panel cuts names off at the right."""
    name = f"{info.variable} {short_time(parse(t))}"
    if info.title and info.title != info.variable:
        name += f" ({info.title})"
    return name


def source(info, t, crs=None, url=None):
    """The connection string of valid time t: the run named (the group keeps
    showing that run when a newer one comes), or the layer's full name for a
    layer outside the service's naming."""
    var = f"{info.variable}:{info.unit}" if info.unit else info.variable
    if info.product and info.run:
        sel = {"variable": var, "run": info.run}
    else:
        sel = {"layer": info.layer}
    return connstr(bundle=info.bundle, **sel, time=t, crs=crs, url=url)


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


def maplayer_xml(layer_id, datasource, name, authid, rg=None, legend=None):
    """A GDAL raster layer as `seawx qlr` writes it: a <maplayer> with its
    source, name, CRS, legend image and fixed range (rg: start and end, or
    None for none), and no renderer. QGIS reads it as it reads the .qlr, then
    draws the service's colours as they are, and opening the layer sends no
    GetMap (a layer made by QgsRasterLayer(uri) reads pixels at once to
    stretch its colours). bench/qgis times layers made from it."""
    doc = QDomDocument()
    ml = doc.createElement("maplayer")
    doc.appendChild(ml)
    ml.setAttribute("type", "raster")
    if legend:
        ml.setAttribute("legendPlaceholderImage", legend)

    def child(parent, tag, text=None):
        e = doc.createElement(tag)
        parent.appendChild(e)
        if text is not None:
            e.appendChild(doc.createTextNode(text))
        return e
    child(ml, "id", layer_id)
    child(ml, "datasource", datasource)
    child(ml, "layername", name)
    # QGIS's own <spatialrefsys>: 3.22 takes an authid alone for no CRS
    QgsCoordinateReferenceSystem(authid).writeXml(child(ml, "srs"), doc)
    child(ml, "provider", "gdal")
    if rg is not None:
        temporal = child(ml, "temporal")
        temporal.setAttribute("enabled", "1")
        temporal.setAttribute("mode", "0")
        temporal.setAttribute("fetchMode", "0")
        fixed = child(temporal, "fixedRange")
        child(fixed, "start", iso(rg[0]))
        child(fixed, "end", iso(rg[1]))
    return doc


def _layer_xml(info, t, rg, crs):
    """The layer of valid time t, shown from rg[0] to rg[1]."""
    stamp = "".join(c for c in t if c.isdigit() or c in "TZ")
    var = "".join(c if c.isalnum() else "_" for c in info.variable)
    return maplayer_xml(f"seawx_{var}_{stamp}_{uuid.uuid4().hex[:8]}", source(info, t, crs=crs),
                        layer_name(info, t),
                        "EPSG:3857" if crs and ("3857" in crs or "900913" in crs)
                        else "EPSG:4326",
                        rg=rg, legend=info.legend)


def add_time_group(info, project=None, parent=None, navigation=None, crs=None):
    """Adds the group of a run (a service.RunInfo) at the top of parent (the
    project's layer tree by default) and returns it. The project's temporal
    range becomes the group's and its step the run's; with navigation (the
    Temporal Controller's QgsTemporalNavigationObject, in QGIS's window) the
    controller is set to step through it frame by frame and the group is
    ticked; without, the group comes unticked, as `seawx qlr`'s does (with
    temporal navigation off QGIS draws every layer of a ticked group)."""
    project = project or QgsProject.instance()
    parent = parent or project.layerTreeRoot()
    rgs = ranges(info.times)
    layers = []
    for t, rg in zip(info.times, rgs):
        lyr = QgsRasterLayer()
        if not lyr.readLayerXml(_layer_xml(info, t, rg, crs).documentElement(),
                                QgsReadWriteContext()):
            raise ServiceError(f"QGIS cannot open {source(info, t, crs=crs)}")
        layers.append(lyr)
    group = parent.insertGroup(0, group_name(info))
    for i, lyr in enumerate(layers):
        project.addMapLayer(lyr, False)
        node = group.addLayer(lyr)
        # One ramp open in the Layers panel, not one per time.
        node.setExpanded(i == 0)

    whole = QgsDateTimeRange(qdatetime(rgs[0][0]), qdatetime(rgs[-1][1]))
    step = step_of(info.times)
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
