"""The plugin object QGIS starts: registers the Browser entry and its actions
in initGui() and takes them away in unload()."""
from qgis.core import QgsApplication

from .browser import SeawxGuiProvider, SeawxItemProvider


class SeawxPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.provider = None
        self.gui_provider = None

    def initGui(self):  # noqa: N802 (the name QGIS calls)
        self.provider = SeawxItemProvider()
        QgsApplication.dataItemProviderRegistry().addProvider(self.provider)
        try:
            from qgis.gui import QgsGui
            self.gui_provider = SeawxGuiProvider(self.iface)
            QgsGui.dataItemGuiProviderRegistry().addProvider(self.gui_provider)
        except (ImportError, AttributeError):
            self.gui_provider = None

    def unload(self):
        if self.gui_provider is not None:
            from qgis.gui import QgsGui
            QgsGui.dataItemGuiProviderRegistry().removeProvider(self.gui_provider)
            self.gui_provider = None
        if self.provider is not None:
            QgsApplication.dataItemProviderRegistry().removeProvider(self.provider)
            self.provider = None
