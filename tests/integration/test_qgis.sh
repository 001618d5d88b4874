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

# 3. QGIS's chooser (the sublayers it offers for a bundle): one entry per
# variable, its latest run, with distinct names; with runs=all every run too.
"$SEAWX_CLI" layers --bundle basic --json >"$T/basic.json"
read -r leaves vars < <("$py" -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d), len({(o['variable'],o['unit']) for o in d}))" "$T/basic.json")
qgis sublayers SEAWX:bundle=basic >"$T/subs.txt" 2>"$T/subs.err"
check "the chooser offers one entry per variable for SEAWX:bundle=basic ($(wc -l <"$T/subs.txt") = $vars)" \
  test "$(wc -l <"$T/subs.txt")" -eq "$vars"
check "each named 'VARIABLE latest', all distinct" sh -c \
  "grep -q '^t2m:K latest	SEAWX:bundle=basic,variable=t2m:K,run=latest\$' '$T/subs.txt' && [ -z \"\$(cut -f1 '$T/subs.txt' | sort | uniq -d)\" ]"
qgis sublayers SEAWX:bundle=basic,runs=all >"$T/subs_all.txt" 2>"$T/subs_all.err"
check "runs=all: every run too ($(wc -l <"$T/subs_all.txt") = $leaves + $vars), names still distinct" sh -c \
  "[ $(wc -l <"$T/subs_all.txt") -eq $((leaves + vars)) ] && [ -z \"\$(cut -f1 '$T/subs_all.txt' | sort | uniq -d)\" ]"

# The opaque land-sea mask (no time dimension) is offered after everything
# else, with runs=all after every run of the others: QGIS stacks what it adds
# from the chooser in the chooser's order, the first on top.
qgis sublayers SEAWX:bundle=maritime,runs=all >"$T/subs_m.txt" 2>"$T/subs_m.err"
first_lsm=$(cut -f1 "$T/subs_m.txt" | grep -n '^lsm ' | head -1 | cut -d: -f1)
check "maritime, runs=all: the land-sea mask's entries come last (from entry ${first_lsm:-none} of $(wc -l <"$T/subs_m.txt"))" sh -c \
  "[ -n '$first_lsm' ] && ! tail -n +$first_lsm '$T/subs_m.txt' | cut -f1 | grep -qv '^lsm ' && head -n $((${first_lsm:-1} - 1)) '$T/subs_m.txt' | grep -q ' run '"

# 4. The fine default grid (1/128 degree, 256-pixel blocks of 2 degrees) as a
# map canvas meets it: a view is the service's GetMap of the canvas, in strips
# of about 256 Ki pixels sent at once, not the blocks around it. Each view
# starts from an empty cache, so that the service's access log shows every
# GetMap the view needed.
getmaps_since() { tail -n +$(($1 + 1)) "$T/access.log" | grep 'request=GetMap' | grep -o 'bbox=[^&]*&width=[0-9]*&height=[0-9]*'; }
# Opening the layer reads the coarsest overview (360 x 180: two blocks).
coarsest='^bbox=-90,-180,90,76&width=256&height=180$|^bbox=-90,76,90,180&width=104&height=180$'
seen=$(wc -l <"$T/access.log")
SEAWX_CACHE_DIR=$T/cache-view qgis view "$conn" 1 47 5 50 512 384 "$T/view.png" >"$T/view.txt" 2>"$T/view.err"
check "a 4 x 3 degree view at full resolution (512 x 384 pixels) renders" test $? -eq 0 -a -s "$T/view.png"
getmaps_since "$seen" | grep -v -E "$coarsest" | sort >"$T/view.getmaps"
# Lon 1..5, lat 47..50 at full resolution: QGIS reads the source pixels the
# canvas touches, one column and row beyond its edges included (513 x 385).
echo 'bbox=46.9921875,1,50,5.0078125&width=513&height=385' >"$T/view.want"
check "it fetched its own window in one GetMap ($(wc -l <"$T/view.getmaps") GetMaps)" \
  cmp -s "$T/view.getmaps" "$T/view.want"
layer_name=$(grep -m1 -o 'layers=[^&]*' "$T/access.log" | tail -1 | cut -d= -f2)
view_time=$(tail -n 1 "$T/access.log" | grep -o 'time=[^ &]*' | cut -d= -f2)
curl -sf -H "service-api-key: $KEY" -o "$T/view_ref.png" \
  "$SIM_URL/ows/wms?service=WMS&request=GetMap&version=1.3.0&product=sof-d&bundle=basic&layers=$layer_name&styles=&crs=EPSG:4326&bbox=47,1,50,5&width=512&height=384&format=image/png&transparent=TRUE&time=$view_time"
check "and the view is pixel-equal to the service's GetMap of it" "$SEAWX_RASTERCMP" "$T/view.png" "$T/view_ref.png"
seen=$(wc -l <"$T/access.log")
SEAWX_CACHE_DIR=$T/cache-world qgis view "$conn" -180 -90 180 90 1000 500 "$T/world.png" >"$T/world.txt" 2>"$T/world.err"
check "a world view 1000 pixels wide renders" test $? -eq 0 -a -s "$T/world.png"
getmaps_since "$seen" | grep -v -E "$coarsest" >"$T/world.getmaps"
# QGIS opens the dataset again in its rendering thread: the capabilities are
# fetched once and reused (SEAWX_CAPS_TTL).
caps_n=$(tail -n +$((seen + 1)) "$T/access.log" | grep -c 'request=GetCapabilities')
check "one GetCapabilities for the QGIS that opened and rendered the layer ($caps_n)" test "$caps_n" -eq 1
res_of() { # the pixel sizes (degrees) of the GetMaps in a file, one per line, distinct
  "$py" -c 'import re, sys
for l in open(sys.argv[1]):
    s, w, n, e, W, H = map(float, re.match(r"bbox=([-\d.]+),([-\d.]+),([-\d.]+),([-\d.]+)&width=(\d+)&height=(\d+)", l).groups())
    print((e - w) / W, (n - s) / H)' "$1" | sort -u
}
# 1000 x 500 is between two overviews (0.25 and 0.5 degree): the service
# renders it at the canvas's own 0.36 degree, two strips of 1000 x 250.
check "it fetched the canvas in 2 GetMaps besides the opening two, at the canvas's 0.36 degree" sh -c \
  "[ $(wc -l <"$T/world.getmaps") -eq 2 ] && [ '$(res_of "$T/world.getmaps")' = '0.36 0.36' ]"

# 5. The value legend: the plugin fetches the style's legend graphic into the
# cache folder (metadata domain LEGEND, item FILE); QGIS shows it as the
# layer's legend image; `seawx legend` writes the same PNG.
qgis legend "$conn" "$T/legend.png" >"$T/legend.txt" 2>"$T/legend.err"
check "QGIS's legend shows the service's legend graphic ($(grep -o 'a row of.*' "$T/legend.txt"))" \
  test $? -eq 0 -a -s "$T/legend.png"
legend_file=$(sed -n 's/^legend_file=//p' "$T/legend.txt")
check "the legend file is in the cache folder" sh -c "case '$legend_file' in '$T/cache/legends/'*.png) test -s '$legend_file' ;; *) false ;; esac"
"$SEAWX_CLI" legend -b basic -v t2m:K -o "$T/legend_cli.png" 2>"$T/legend_cli.err"
check "seawx legend writes the same PNG" cmp -s "$T/legend_cli.png" "$legend_file"
# In QGIS's Layers panel the legend image is shown as it is, and a navigator
# reads its values and unit there (legend_check.py: tesseract, ticks, scale).
qgis panel "$conn" "$T/panel.png" "$T/panel_legend.png" >"$T/panel.txt" 2>"$T/panel.err"
cat "$T/panel.txt" "$T/panel.err"
"$SEAWX_CLI" legend -b basic -v t2m:K --height 16 -o "$T/legend_strip.png" 2>>"$T/legend_cli.err"
check "QGIS's Layers panel shows the legend's values and unit K (read by OCR)" \
  sh -c "[ -s '$T/panel_legend.png' ] && '$py' '$here/legend_check.py' '$T/panel_legend.png' K '$T/legend_strip.png'"

# 6. Without a key QGIS gets GDAL's error, not a crash.
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
