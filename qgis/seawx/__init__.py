"""seawx: the Weather, Ocean and Vessel Data Service in QGIS's Browser panel,
through the seawx GDAL plugin (see docs/qgis-plugin.md)."""


def classFactory(iface):  # noqa: N802 (the name QGIS calls)
    from .plugin import SeawxPlugin
    return SeawxPlugin(iface)
