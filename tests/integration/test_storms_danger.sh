#!/usr/bin/env bash
# Storm danger along the voyage, end to end: the cone, danger_area and
# wind_swath kinds of `seawx storms` against an independent computation
# (storms_danger_check.py: dense geodesic sampling, IoU >= 0.98) for the
# sample storms, one crossing 180 degrees and one with quadrants of zero
# radius; route risk against a brute-force sampling every minute; the files of
# -o DIR/ one geometry type each, opened by QGIS with no chooser and loaded by
# the .qlr with their styles; the new layers through ogr2ogr to GeoPackage;
# geojsonhint; bad input refused with nothing written.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
S=$SEAWX_CLI
py=/usr/bin/python3 # Debian's: numpy, python3-shapely, python3-qgis
E=$SEAWX_SOURCE_DIR/samples/storms/edge_storms.json
CHECK=$here/storms_danger_check.py
ALL=storm,track_point,forecast_point,forecast_line,wind_radii,cone,danger_area,wind_swath

# geojsonhint 3.0.0, shared with test_storms.sh (one install per build folder).
GJH_DIR=${SEAWX_BUILD_DIR:-$T}/geojsonhint-3.0.0
GJH=$GJH_DIR/node_modules/.bin/geojsonhint
install_geojsonhint() {
  command -v npm >/dev/null || { echo "npm is missing: run scripts/install-deps.sh"; return 1; }
  mkdir -p "$GJH_DIR"
  (
    flock 9
    [ -x "$GJH" ] || npm install --prefix "$GJH_DIR" --no-audit --no-fund --no-save --silent \
      @mapbox/geojsonhint@3.0.0 >"$T/npm.log" 2>&1 || { cat "$T/npm.log"; exit 1; }
  ) 9>"$GJH_DIR/.lock"
}
check "geojsonhint 3.0.0 installed from the npm registry" install_geojsonhint
hint() {
  "$GJH" --format json "$1" >"$T/hint.out" 2>&1 || { cat "$T/hint.out"; return 1; }
  if [ -s "$T/hint.out" ] && [ "$(tr -d ' \n' <"$T/hint.out")" != "[]" ]; then
    head -c 600 "$T/hint.out"; echo; return 1
  fi
}
check "python3 with numpy and shapely (Debian's python3-shapely)" \
  "$py" -c 'import numpy, shapely.vectorized'

# 1. The sample storms and one with zero-radius quadrants (se and sw, every
# threshold, every position), made from the Atlantic storm.
zero_storm() {
  "$py" - "$E" "$T/zero.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))[0]
s["atcf_id"], s["storm_name"] = "AL992024", "ZERO"
for p in s["observed_track"] + s["forecast_track"]:
    for r in (p.get("wind_extent_radii") or {}).values():
        r["se"] = r["sw"] = 0
json.dump([s], open(sys.argv[2], "w"))
PY
}
check "a storm with zero-radius quadrants made" zero_storm
check "danger kinds of the sample storms written" \
  "$S" storms -q --input "$E" --kinds cone,danger_area,wind_swath -o "$T/danger.geojson"
check "danger kinds of the zero-quadrant storm written" \
  "$S" storms -q --input "$T/zero.json" --kinds cone,danger_area,wind_swath -o "$T/zero.geojson"
check "danger.geojson passes geojsonhint" hint "$T/danger.geojson"
check "zero.geojson passes geojsonhint" hint "$T/zero.geojson"
iou_ok() { "$py" "$CHECK" iou "$@" >"$T/iou.txt" 2>&1 || { tail -5 "$T/iou.txt"; return 1; }; }
check "IoU >= 0.98 for every cone, danger area and swath (two storms cut at 180)" \
  sh -c "'$py' '$CHECK' iou '$E' '$T/danger.geojson' >'$T/iou1.txt' 2>&1 &&
    grep -q 'WP272024 danger_area.*cut at 180' '$T/iou1.txt' &&
    grep -q 'SP052024 wind_swath.*cut at 180' '$T/iou1.txt' || { tail -5 '$T/iou1.txt'; exit 1; }"
check "IoU >= 0.98 with zero-radius quadrants" iou_ok "$T/zero.json" "$T/zero.geojson"
cone_radii_ok() {
  "$S" storms -q --input "$E" --kinds cone --cone-radii 'NA:30,45,60,75,90,105,150,210' \
    -o "$T/cone_own.geojson" &&
    "$py" "$CHECK" iou "$E" "$T/cone_own.geojson" 30,45,60,75,90,105,150,210 >"$T/iou3.txt" &&
    grep -q 'AL092024 cone' "$T/iou3.txt"
}
check "--cone-radii: the cone follows the table given" cone_radii_ok

# 2. Route risk: a route through the Atlantic storm's winds, one far away.
printf 'lat,lon\n24.0,-79.0\n29.0,-86.0\n' >"$T/through.csv"
printf 'lat,lon\n40.0,-60.0\n44.0,-50.0\n' >"$T/away.csv"
risk_through() {
  "$S" storms -q --input "$E" --route "$T/through.csv" --depart 2024-10-08T00:00:00Z \
    --speed 10-14 --json --segments "$T/segments.geojson" >"$T/risk.json" 2>"$T/risk.err"
  local rc=$?
  [ "$rc" -eq 13 ] || { echo "exit $rc"; cat "$T/risk.err"; return 1; }
  "$py" "$CHECK" risk "$E" "$T/through.csv" 2024-10-08T00:00:00Z 10 14 "$T/risk.json"
}
check "route through the 34-kt radii: closest approach and interval as brute force; exit 13" risk_through
check "the segments at risk pass geojsonhint" hint "$T/segments.geojson"
# Across 180 (WP272024 crosses it): a stretch cut at the antimeridian ends at
# 180 and goes on at -180 at the same latitude, with no gap between them.
pacific_ok() {
  printf 'lat,lon\n19.5,174.0\n19.5,-174.0\n' >"$T/pacific.csv"
  "$S" storms -q --input "$E" --route "$T/pacific.csv" --depart 2024-10-02T06:00:00Z --speed 10-12 \
    --json --segments "$T/pacific.geojson" >/dev/null
  [ $? -eq 13 ] || return 1
  "$py" - "$T/pacific.geojson" <<'PY'
import json, sys
cut = 0
for f in json.load(open(sys.argv[1]))["features"]:
    parts = f["geometry"]["coordinates"]
    for a, b in zip(parts, parts[1:]):
        assert abs(a[-1][0]) == 180 and b[0][0] == -a[-1][0] and a[-1][1] == b[0][1], (a[-1], b[0])
        cut += 1
assert cut >= 3, cut
PY
}
check "segments across 180: each cut part ends at 180 and goes on at -180, no gap" pacific_ok
check "  and pass geojsonhint" hint "$T/pacific.geojson"
risk_timed_ok() {
  printf 'lat,lon,time\n24.0,-79.0,2024-10-08T00:00:00Z\n29.0,-86.0,2024-10-09T16:00:00Z\n' \
    >"$T/timed.csv"
  "$S" storms -q --input "$E" --route "$T/timed.csv" --json >"$T/risk_timed.json"
  [ $? -ge 11 ] && grep -q '"34kt": {' "$T/risk_timed.json"
}
check "route with waypoint times: read as seawx seed reads it" risk_timed_ok
risk_away() {
  "$S" storms -q --input "$E" --route "$T/away.csv" --depart 2024-10-08T00:00:00Z \
    --speed 12 --json >"$T/away.json" || return 1
  "$py" -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert all(s['34kt'] is None and s['danger_area'] is None for s in r['storms']), r" "$T/away.json"
}
check "route that stays away: not inside, exit 0" risk_away
table_ok() {
  "$S" storms --input "$E" --route "$T/through.csv" --depart 2024-10-08T00:00:00Z --speed 12 \
    >"$T/table.txt" 2>"$T/table.err"
  [ $? -eq 12 ] && grep -q '^AL092024 *HELGA' "$T/table.txt" &&
    grep -q 'storm-force winds' "$T/table.err"
}
check "route risk as a table on stdout, the summary on stderr" table_ok

# 3. -o DIR/: one geometry type per file, the .qlr, QGIS with no chooser.
check "storms -o DIR/ with every kind" \
  "$S" storms -q --status all --max-storms 5 --kinds "$ALL" -o "$T/dir/"
one_type_ok() {
  "$py" - "$T/dir" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.geojson")):
    types = {x["geometry"]["type"] for x in json.load(open(f))["features"] if x["geometry"]}
    assert len(types) == 1 and next(iter(types)).startswith("Multi"), (f, types)
PY
}
check "every file of DIR/ has one Multi* geometry type" one_type_ok
for f in "$T"/dir/*.geojson; do
  check "dir/$(basename "$f") passes geojsonhint" hint "$f"
done
check "the .qlr written is styles/seawx_storms.qlr" \
  cmp "$T/dir/seawx_storms.qlr" "$SEAWX_SOURCE_DIR/styles/seawx_storms.qlr"
if "$py" -c 'import qgis.core' 2>/dev/null; then
  mkdir -p "$T/home" "$T/run" && chmod 700 "$T/run"
  qgis_env() {
    HOME=$T/home XDG_CONFIG_HOME=$T/home/.config XDG_DATA_HOME=$T/home/.local/share \
      XDG_CACHE_HOME=$T/home/.cache XDG_RUNTIME_DIR=$T/run QT_QPA_PLATFORM=offscreen "$@"
  }
  check "QGIS: each file is one layer, no sublayer chooser" \
    qgis_env "$py" "$here/test_storms_qgis.py" sublayers "$T"/dir/*.geojson
  check "QGIS: the .qlr loads the 8 layers with their styles and renders them" \
    sh -c "$(declare -f qgis_env); T='$T'; qgis_env '$py' '$here/test_storms_qgis.py' qlr \
      '$T/dir/seawx_storms.qlr' 8 '$T/qlr.png' >'$T/qlr.txt' 2>&1 || { cat '$T/qlr.txt'; exit 1; }"
  check "QGIS: seawx_storms.qgs opens the 8 layers animated, 6-hour step, over the tracks' span" \
    sh -c "$(declare -f qgis_env); T='$T'; qgis_env '$py' '$here/test_storms_qgis.py' qgs \
      '$T/dir/seawx_storms.qgs' 8 >'$T/qgs.txt' 2>&1 || { cat '$T/qgs.txt'; exit 1; }"
  cat "$T/qgs.txt"
else
  echo "python3-qgis missing: QGIS checks skipped (scripts/install-deps.sh installs it)"
fi

# 4. The new layers of the driver: typed, Multi*, through ogr2ogr to GeoPackage.
export GDAL_DRIVER_PATH
gpkg_ok() {
  ogr2ogr -f GPKG "$T/danger.gpkg" "SEAWX:storms,status=all,max_storms=5" \
    cones danger_areas wind_swaths 2>"$T/gpkg.err" || { cat "$T/gpkg.err"; return 1; }
  ogrinfo -ro -so "$T/danger.gpkg" cones >"$T/g_cones.txt" &&
    ogrinfo -ro -so "$T/danger.gpkg" wind_swaths >"$T/g_sw.txt" || return 1
  grep -q 'Geometry: Multi Polygon' "$T/g_cones.txt" && grep -q 'start_time: DateTime' "$T/g_cones.txt" &&
    grep -q 'max_radius_nm: Real' "$T/g_cones.txt" && grep -q 'advisory_number: Integer' "$T/g_cones.txt" &&
    grep -q 'threshold_kt: Integer' "$T/g_sw.txt" && grep -q 'track: String' "$T/g_sw.txt" &&
    grep -q 'Geometry: Multi Polygon' "$T/g_sw.txt" &&
    [ "$(grep -c '"kind":"wind_swath"' "$T/danger.geojson")" = \
      "$(ogrinfo -ro -so "$T/danger.gpkg" wind_swaths | awk '/^Feature Count/ {print $3}')" ]
}
check "ogr2ogr SEAWX:storms cones/danger_areas/wind_swaths to GPKG: typed fields, Multi Polygon" gpkg_ok
types_ok() {
  local l
  for l in storms track_points forecast_points forecast_lines wind_radii; do
    ogrinfo -ro -so "SEAWX:storms,status=all,max_storms=5" "$l" | grep -q 'Geometry: Multi' ||
      { echo "$l"; return 1; }
  done
}
check "every SEAWX:storms layer has a Multi* geometry type" types_ok
styles_ok() {
  "$py" - "$SEAWX_SOURCE_DIR/styles" "$T/g_sw.txt" <<'PY'
import sys, xml.etree.ElementTree as ET
styles, fields = sys.argv[1], open(sys.argv[2]).read()
for layer in ("cones", "danger_areas", "wind_swaths"):
    r = ET.parse("%s/seawx_%s.qml" % (styles, layer)).getroot().find("renderer-v2")
    sld = ET.parse("%s/seawx_%s.sld" % (styles, layer)).getroot()
    assert sld.iter("{http://www.opengis.net/se}PolygonSymbolizer"), layer
    if r.get("type") == "categorizedSymbol":
        assert r.get("attr") + ":" in fields, layer
        names = {e.text for e in sld.iter("{http://www.opengis.net/ogc}PropertyName")}
        assert names == {r.get("attr")}, (layer, names)
PY
}
check "styles of the new layers: QML and SLD well-formed, on the layer's fields" styles_ok

# 5. Bad input: one line, exit 2, nothing written, nothing sent.
bad() {
  local before after rc
  before=$(wc -l <"$T/access.log")
  "$S" storms --kinds cone "$@" -o "$T/bad/" 2>"$T/bad.err"
  rc=$?
  after=$(wc -l <"$T/access.log")
  [ "$rc" -eq 2 ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] && [ ! -e "$T/bad" ] &&
    [ "$before" = "$after" ] || { echo "exit $rc"; cat "$T/bad.err"; return 1; }
}
check "--cone-radii with 7 values: exit 2" bad --cone-radii 'NA:1,2,3,4,5,6,7'
check "--cone-radii with a negative radius: exit 2" bad --cone-radii 'NA:-5,2,3,4,5,6,7,8'
check "--cone-radii with an unknown basin: exit 2" bad --cone-radii 'XX:1,2,3,4,5,6,7,8'
check "--danger-errors with 2 values: exit 2" bad --danger-errors 100,200
check "--speed without --route: exit 2" bad --speed 12
check "--route without --depart on an untimed route: exit 2" bad --route "$T/away.csv"
check "the key appears in no output" no_key_in "$T"/*.geojson "$T"/*.json "$T"/*.err "$T"/*.txt
finish
