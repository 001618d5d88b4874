#!/usr/bin/env bash
# QGIS, headless (Debian's python3-qgis, offscreen), reads layers through the
# SEAWX plugin by their connection strings: renders them (the same pixels GDAL
# reads), saves projects that hold no key, and reads the projects back from the
# strings alone.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
py=/usr/bin/python3 # Debian's, where python3-qgis lives
if ! "$py" -c 'import qgis.core' 2>/dev/null; then
  echo "python3-qgis missing: run scripts/install-deps.sh"
  exit 1
fi
sim_start
# QGIS writes settings, profiles and caches under the home folders: keep them here.
mkdir -p "$T/home" "$T/run" "$T/work" && chmod 700 "$T/run"
export HOME=$T/home XDG_CONFIG_HOME=$T/home/.config XDG_DATA_HOME=$T/home/.local/share \
  XDG_CACHE_HOME=$T/home/.cache XDG_RUNTIME_DIR=$T/run QT_QPA_PLATFORM=offscreen \
  SEAWX_CACHE_DIR=$T/cache
unset GDAL_PAM_ENABLED # as users have it: QGIS computes statistics, GDAL would save them
cd "$T/work" || exit 1
qgis() { "$py" "$here/test_qgis.py" "$@"; }

# The project file as text: a .qgs as it is, a .qgz unzipped (every member).
project_text() {
  case $1 in
  *.qgz) "$py" -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for n in z.namelist(): sys.stdout.buffer.write(z.read(n))' "$1" ;;
  *) cat "$1" ;;
  esac
}
# The layer's datasource in the project is the connection string, exactly.
datasource_is() { # PROJECT CONNECTION
  project_text "$1" >"$T/project.txt" &&
    "$py" - "$T/project.txt" "$2" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
sources = [e.text for e in root.iter("datasource") if e.text]
assert sources == [sys.argv[2]], sources
PY
}
no_key_in_project() { project_text "$1" >"$T/project.txt" && no_key_in "$T/project.txt"; }

# 1. The latest run of a variable; the service's address from SEAWX_BASE_URL.
conn="SEAWX:bundle=basic,variable=t2m:K,run=latest"
qgis render "$conn" "$T/latest.png" "$T/latest.qgz" >"$T/render1.txt" 2>"$T/render1.err"
check "QGIS loads $conn and renders it" test $? -eq 0 -a -s "$T/latest.png"
check "the layer is 4 bands, 46080x23040, EPSG:4326, through GDAL" \
  grep -q 'provider=gdal bands=4 size=46080x23040 crs=EPSG:4326' "$T/render1.txt"
check "the rendered PNG is not empty" qgis pixels "$T/latest.png" 0.95 200
gdal_translate -q -of PNG -outsize 720 360 "$conn" "$T/latest_gdal.png"
check "QGIS shows the pixels GDAL reads" "$SEAWX_RASTERCMP" "$T/latest.png" "$T/latest_gdal.png"
check "the .qgz project names the layer by its connection string" datasource_is "$T/latest.qgz" "$conn"
check "the .qgz project holds no key" no_key_in_project "$T/latest.qgz"
check "no file was written beside the layer (no SEAWX:*.aux.xml)" \
  test -z "$(find "$T/work" -mindepth 1 | head -1)"
qgis reopen "$T/latest.qgz" "$T/latest2.png" >"$T/reopen1.txt" 2>"$T/reopen1.err"
check "the project reopens in a new QGIS and the layer loads again" test $? -eq 0
check "the reopened layer renders the same" "$SEAWX_RASTERCMP" "$T/latest.png" "$T/latest2.png"

# 2. One leaf layer by its full name (with '/' and ':'), at one time, in Web
# Mercator, and the service's address in the string: SEAWX_BASE_URL unset.
gdalinfo SEAWX:bundle=maritime,runs=all >"$T/maritime.txt"
layer=$(grep -m1 -o 'layer=[^,]*swh[^,]*' "$T/maritime.txt" | sed 's/^layer=//')
gdalinfo -json "SEAWX:bundle=maritime,layer=$layer" >"$T/leaf.json"
time=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['metadata']['']['TIMES'].split(',')[2])" "$T/leaf.json")
conn2="SEAWX:bundle=maritime,layer=$layer,time=$time,crs=EPSG:3857,url=$SIM_URL"
(
  unset SEAWX_BASE_URL
  qgis render "$conn2" "$T/leaf.png" "$T/leaf.qgs" >"$T/render2.txt" 2>"$T/render2.err"
)
check "QGIS loads a leaf by name, with url= and no SEAWX_BASE_URL" test $? -eq 0 -a -s "$T/leaf.png"
check "the leaf is in EPSG:3857" grep -q 'crs=EPSG:3857' "$T/render2.txt"
# Sea-only variable: land is transparent, so fewer opaque pixels.
check "the rendered PNG is not empty" qgis pixels "$T/leaf.png" 0.3 200
check "the .qgs project names the layer by its connection string" datasource_is "$T/leaf.qgs" "$conn2"
check "the .qgs project holds no key" no_key_in_project "$T/leaf.qgs"
(
  unset SEAWX_BASE_URL
  qgis reopen "$T/leaf.qgs" "$T/leaf2.png" >"$T/reopen2.txt" 2>"$T/reopen2.err"
)
check "that project reopens from the string alone" test $? -eq 0
check "and renders the same" "$SEAWX_RASTERCMP" "$T/leaf.png" "$T/leaf2.png"

# 3. Without a key QGIS gets GDAL's error, not a crash.
(
  unset SEAWX_API_KEY
  qgis render "$conn" "$T/nokey.png" "$T/nokey.qgz" >"$T/nokey.txt" 2>"$T/nokey.err"
)
check "without a key the layer does not load, with the reason" sh -c \
  "grep -q 'did not load' '$T/nokey.err' && grep -q 'no API key' '$T/nokey.err'"

check "QGIS sent GetMap requests" grep -q 'request=GetMap' "$T/access.log"
check "the key is in nothing QGIS printed or saved" sh -c \
  "! grep -r -q -F -- '$KEY' '$T'/*.txt '$T'/*.err '$T'/*.qgs '$T/work' '$T/home'"
finish
