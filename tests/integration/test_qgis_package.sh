#!/usr/bin/env bash
# QGIS, headless (Debian's python3-qgis, offscreen), opens a voyage package's
# project (seawx voyage): the land (GSHHG) under everything, right at four
# points, and coarser under a small budget; every file is a raster layer in its variable's
# group with the fixed temporal range the manifest gives, the route is on
# top, every frame of the Temporal Controller over the project's range shows
# exactly one file of each variable, rendering the project at two frames and
# at two valid times gives the files' pixels, and the project holds no key.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
py=/usr/bin/python3 # Debian's, where python3-qgis lives
if ! "$py" -c 'import qgis.core' 2>/dev/null; then
  echo "python3-qgis missing: run scripts/install-deps.sh"
  exit 1
fi
NOW=2026-03-02T11:00:00Z
sim_start --now "$NOW"
mkdir -p "$T/home" "$T/run" "$T/shots" && chmod 700 "$T/run"
export HOME=$T/home XDG_CONFIG_HOME=$T/home/.config XDG_DATA_HOME=$T/home/.local/share \
  XDG_CACHE_HOME=$T/home/.cache XDG_RUNTIME_DIR=$T/run QT_QPA_PLATFORM=offscreen
cd "$T" || exit 1
"$SEAWX_CLI" layers -b maritime -v swh --latest --json >"$T/layers.json" || exit 1
first=$(python3 -c "import json; print(json.load(open('$T/layers.json'))[0]['times'][0])")
check "package builds (png8 and png layers)" "$SEAWX_CLI" voyage -b maritime \
  --route "$SEAWX_FIXTURES/voyage/atlantic_1000nm.csv" --depart "$first" --speed 10-12 \
  --layer swh:format=png8 --layer sst:format=png -z 3-4 --now "$NOW" -q -o "$T/pkg"
check "QGIS opens the project; two valid times show their two files" \
  "$py" "$here/package_qgis.py" "$T/pkg" swh "$T/shots"
check "the project holds no key" no_key_in "$T/pkg/project.qgs" "$T/pkg/manifest.json"
check "the project names the files relatively, no absolute path" sh -c "! grep -q '$T' '$T/pkg/project.qgs'"
# The land within a budget: a tenth of it at most, coarser GSHHG when needed.
"$SEAWX_CLI" voyage -b maritime --route "$SEAWX_FIXTURES/voyage/atlantic_1000nm.csv" --depart "$first" \
  --speed 10-12 --layer swh -z 3 --now "$NOW" --budget 150kB -q -o "$T/small" 2>"$T/small.err"
check "under a 150 kB budget: the land at most 15 kB, coarser than intermediate" python3 -c "
import json, os, sys
c = json.load(open('$T/small/manifest.json'))['coastline']
sys.exit(not (c['bytes'] <= 15000 and c['resolution'] in ('low', 'crude')
              and os.path.getsize('$T/small/coast.geojson') == c['bytes']))"
# No GSHHG: the package all the same, without land, and a warning that says why.
SEAWX_GSHHG=$T/no-gshhg "$SEAWX_CLI" voyage -b maritime --route "$SEAWX_FIXTURES/voyage/atlantic_1000nm.csv" \
  --depart "$first" --speed 10-12 --layer swh -z 3 --now "$NOW" -q -o "$T/noland" 2>"$T/noland.err"
check "no GSHHG: the package, no land in it, a warning naming gmt-gshhg-full" sh -c "
  [ -s '$T/noland/project.qgs' ] && [ ! -e '$T/noland/coast.geojson' ] &&
  ! grep -q coast '$T/noland/project.qgs' '$T/noland/manifest.json' &&
  grep -q 'warning: no coastline in the project: .*gmt-gshhg-full' '$T/noland.err'"
finish
