#!/usr/bin/env bash
# QGIS, headless, renders a map of six SEAWX layers from five bundles with
# parallel rendering on, twenty times in a row (tests/integration/
# qgis_parallel.py): no crash, no error, every frame pixel-equal to the first;
# the first equals a map of the same layers rendered one after another.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
py=/usr/bin/python3 # Debian's, where python3-qgis lives
if ! "$py" -c 'import qgis.core' 2>/dev/null; then
  echo "python3-qgis missing: run scripts/install-deps.sh"
  exit 1
fi
sim_start
mkdir -p "$T/home" "$T/run" && chmod 700 "$T/run"
export HOME=$T/home XDG_CONFIG_HOME=$T/home/.config XDG_DATA_HOME=$T/home/.local/share \
  XDG_CACHE_HOME=$T/home/.cache XDG_RUNTIME_DIR=$T/run QT_QPA_PLATFORM=offscreen \
  SEAWX_CACHE_DIR=$T/cache
layers=(
  "SEAWX:bundle=basic,variable=t2m:K,run=latest"
  "SEAWX:bundle=maritime,variable=swh:m,run=latest"
  "SEAWX:bundle=maritime-atmos,variable=pmsl:Pa,run=latest"
  "SEAWX:bundle=clouds,variable=tcc:%25,run=latest"
  "SEAWX:bundle=precipitation,variable=tp:mm,run=latest"
  "SEAWX:bundle=basic,variable=t2m:K,run=latest,crs=EPSG:3857"
)
"$py" "$here/qgis_parallel.py" 20 "$T/parallel.png" "${layers[@]}" >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out"
head -5 "$T/err"
check "six layers, parallel rendering, 20 frames: no error" test $rc -eq 0
check "every frame equals the first" grep -q 'frames=20 layers=6 equal=20' "$T/out"
# The same map rendered in one thread, one layer after another, from a cold cache.
rm -rf "$T/cache"
QGIS_PARALLEL=0 "$py" - "$T/sequential.png" "${layers[@]}" >"$T/seq.out" 2>"$T/seq.err" <<'PY'
import sys
from qgis.core import (QgsApplication, QgsCoordinateReferenceSystem, QgsMapRendererSequentialJob,
                       QgsMapSettings, QgsProject, QgsRasterLayer, QgsRectangle)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QColor
app = QgsApplication([], False)
app.initQgis()
layers = []
for i, conn in enumerate(sys.argv[2:]):
    layer = QgsRasterLayer(conn, f"seawx{i}", "gdal")
    assert layer.isValid(), conn
    layer.setOpacity(0.5)
    layers.append(layer)
QgsProject.instance().addMapLayers(layers)
ms = QgsMapSettings()
ms.setLayers(layers)
ms.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:4326"))
ms.setExtent(QgsRectangle(-180, -90, 180, 90))
ms.setOutputSize(QSize(1024, 512))
ms.setBackgroundColor(QColor(0, 0, 0, 0))
job = QgsMapRendererSequentialJob(ms)
job.start()
job.waitForFinished()
assert not job.errors(), [e.message for e in job.errors()]
assert job.renderedImage().save(sys.argv[1], "PNG")
del job, ms, layers
QgsProject.instance().clear()
app.exitQgis()
PY
check "one thread, one layer after another: no error" test $? -eq 0 -a -s "$T/sequential.png"
check "one thread, one layer after another: the same picture" "$SEAWX_RASTERCMP" "$T/parallel.png" "$T/sequential.png"
check "the key is in nothing QGIS printed" no_key_in "$T/out" "$T/err" "$T/seq.out" "$T/seq.err"
finish
