#!/usr/bin/env bash
# `seawx storms` and the SEAWX:storms / SEAWX:kmz datasets end to end against
# seawx-sim: GeoJSON that @mapbox/geojsonhint 3.0.0 accepts and GDAL reads back
# with the same counts, the edge cases, paging, typed fields through ogr2ogr,
# the KMZ giving the same features as the JSON, and bad input refused.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
py=python3
S=$SEAWX_CLI

# geojsonhint 3.0.0 from the npm registry, installed once per build folder
# (later versions pull a dependency from outside the registry).
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
  [ "$(node -p "require('$GJH_DIR/node_modules/@mapbox/geojsonhint/package.json').version")" = 3.0.0 ]
}
check "geojsonhint 3.0.0 installed from the npm registry" install_geojsonhint
# No errors and no warnings (winding included): geojsonhint prints nothing.
hint() {
  [ -x "$GJH" ] || return 1
  "$GJH" --format json "$1" >"$T/hint.out" 2>&1 || { cat "$T/hint.out"; return 1; }
  if [ -s "$T/hint.out" ] && [ "$(tr -d ' \n' <"$T/hint.out")" != "[]" ]; then
    head -c 600 "$T/hint.out"; echo; return 1
  fi
}

# 1. The five edge storms (the first of status=all) in one FeatureCollection.
check "storms: edge storms written" sh -c "'$S' storms --status all --max-storms 5 -o '$T/edge.geojson' 2>'$T/edge.err'"
check "storms: summary on stderr, nothing else" grep -q '^seawx: 5 storms' "$T/edge.err"
check "edge.geojson passes geojsonhint (no errors, no winding warnings)" hint "$T/edge.geojson"
edge_ok() {
  $py - "$T/edge.geojson" <<'PY'
import datetime, json, math, sys
def bad_const(c): raise ValueError("non-JSON number " + c)
d = json.load(open(sys.argv[1]), parse_constant=bad_const)
assert d["type"] == "FeatureCollection"
F = d["features"]
by = lambda kind, sid=None: [f for f in F if f["properties"]["kind"] == kind and (sid is None or f["properties"]["atcf_id"] == sid)]
def coords(g):
    t, c = g["type"], g["coordinates"]
    if t == "Point": return [c]
    if t in ("LineString",): return c
    if t in ("MultiLineString", "Polygon"): return [p for part in c for p in part]
    if t == "MultiPolygon": return [p for poly in c for ring in poly for p in ring]
    raise AssertionError(t)
def decimals(x):
    s = repr(float(x))
    return len(s.split(".")[1]) if "." in s and "e" not in s else 0
for f in F:
    g = f["geometry"]
    if g is None: continue
    pts = coords(g)
    assert pts, "empty geometry"
    for x, y in pts:
        assert -180 <= x <= 180 and -90 <= y <= 90 and math.isfinite(x) and math.isfinite(y)
        assert decimals(x) <= 6 and decimals(y) <= 6, (x, y)
    if g["type"] == "LineString": assert len(g["coordinates"]) >= 2
    if g["type"] == "MultiLineString": assert all(len(p) >= 2 for p in g["coordinates"])
    for k, v in f["properties"].items():
        assert not (isinstance(v, float) and not math.isfinite(v)), k
# Atlantic hurricane: every kind.
assert len(by("storm", "AL092024")) == 1 and len(by("track_point", "AL092024")) == 12
assert len(by("forecast_point", "AL092024")) == 8 and len(by("forecast_line", "AL092024")) == 1
fp = by("forecast_point", "AL092024")[1]["properties"]
assert fp["forecast_hour"] == 12 and fp["forecast_time"].endswith("Z")
# A fix stands until the next later fix along the track (observed, then
# forecast), the last one 12 h: the time slider always shows one position.
def iso(t): return t and datetime.datetime.fromisoformat(t.replace("Z", "+00:00"))
for sid in sorted({f["properties"]["atcf_id"] for f in F}):
    track = [("o", iso(f["properties"]["time"])) for f in by("track_point", sid)]
    track += [("f", iso(f["properties"]["forecast_time"])) for f in by("forecast_point", sid)]
    def until(kind, t, seq):
        start = seq + 1 if kind == "o" else len(by("track_point", sid)) + seq + 1
        later = [u for _, u in track[start:] if u and u > t]
        return later[0] if later else t + datetime.timedelta(hours=12)
    for f in by("forecast_point", sid):
        q = f["properties"]
        assert iso(q["valid_until"]) == until("f", iso(q["forecast_time"]), q["seq"]), q
    for f in by("wind_radii", sid):
        q = f["properties"]
        k = "f" if q["track"] == "forecast" else "o"
        assert iso(q["valid_until"]) == until(k, iso(q["time"]), q["seq"]), q
fps = by("forecast_point", "AL092024")
assert all(a["properties"]["valid_until"] == b["properties"]["forecast_time"]
           for a, b in zip(fps, fps[1:]))
radii = by("wind_radii", "AL092024")
assert {r["properties"]["threshold_kt"] for r in radii} == {34, 50, 64}
assert all(r["properties"]["fill"] and r["properties"]["fill-opacity"] == 0.25 for r in radii)
assert by("storm", "AL092024")[0]["properties"]["stroke"] == "#ff6060"   # TC5
# Typhoon across 180: the track and some radii are cut.
assert by("storm", "WP272024")[0]["geometry"]["type"] == "MultiLineString"
assert any(r["geometry"]["type"] == "MultiPolygon" for r in by("wind_radii", "WP272024"))
parts = by("storm", "WP272024")[0]["geometry"]["coordinates"]
assert parts[0][-1][0] == 180 and parts[1][0][0] == -180 and parts[0][-1][1] == parts[1][0][1]
assert by("storm", "SP052024")[0]["geometry"]["type"] == "MultiLineString"
# Inactive storm: nulls kept, no forecast features.
o = by("storm", "EP142023")[0]["properties"]
assert o["advisory_number"] is None and o["advisory_issuance_time"] is None and o["is_active"] is False
assert not by("forecast_point", "EP142023") and not by("forecast_line", "EP142023")
# Unnamed depression, one position: a Point titled by its id, nulls kept.
n = by("storm", "NI032024")[0]
assert n["geometry"]["type"] == "Point" and n["properties"]["title"] == "NI032024"
assert n["properties"]["storm_name"] == ""
tp = by("track_point", "NI032024")[0]["properties"]
assert tp["wind_gusts"] is None and tp["min_mslp"] is None and tp["movement_speed"] is None
assert not by("wind_radii", "NI032024") and not by("forecast_line", "NI032024")
PY
}
check "edge cases: points, cuts, nulls, titles, empty forecasts, decimals" edge_ok

# 2. GDAL reads the file back with the same counts.
count_json() { $py -c "import json,sys; print(len(json.load(open(sys.argv[1]))['features']))" "$1"; }
count_ogr() { ogrinfo -ro -so -al "$1" 2>/dev/null | awk '/^Feature Count: / { n += $3 } END { print n + 0 }'; }
readback_ok() { [ "$(count_json "$T/edge.geojson")" = "$(count_ogr "$T/edge.geojson")" ]; }
check "GDAL reads edge.geojson back with the same feature count" readback_ok

# 3. One file per kind; each valid and read back; the same counts as the single file.
check "storms -o DIR/ writes five files" sh -c "'$S' storms -q --status all --max-storms 5 -o '$T/split/' && ls '$T/split'/*.geojson | wc -l | grep -qx 5"
for k in storms track_points forecast_points forecast_lines wind_radii; do
  check "split $k.geojson passes geojsonhint" hint "$T/split/$k.geojson"
  kind=${k%s}; [ "$k" = wind_radii ] && kind=wind_radii
  split_ok() {
    local want got
    want=$($py -c "import json,sys; print(sum(f['properties']['kind']==sys.argv[2] for f in json.load(open(sys.argv[1]))['features']))" "$T/edge.geojson" "$kind")
    got=$(count_ogr "$T/split/$k.geojson")
    [ "$want" = "$got" ] && [ "$want" -gt 0 ]
  }
  check "split $k.geojson: GDAL count = kind count of the single file" split_ok
done
kinds_ok() {
  "$S" storms -q --status all --max-storms 5 --kinds storm,wind_radii -o "$T/kinds.geojson" &&
    $py -c "import json,sys; assert {f['properties']['kind'] for f in json.load(open(sys.argv[1]))['features']} == {'storm','wind_radii'}" "$T/kinds.geojson"
}
check "--kinds storm,wind_radii writes only those" kinds_ok

# 4. Paging: pages of 10 until a short page; the same storms as one page of 100.
page_ok() {
  local before after n1 n2
  "$S" storms -q --status all --region NA --period 1990-01-01T00:00:00Z/1991-12-31T00:00:00Z \
    --kinds storm -o "$T/p100.geojson" || return 1
  before=$(grep -c '/storm/json' "$T/access.log")
  "$S" storms -q --status all --region NA --period 1990-01-01T00:00:00Z/1991-12-31T00:00:00Z \
    --kinds storm --limit 10 -o "$T/p10.geojson" || return 1
  after=$(grep -c '/storm/json' "$T/access.log")
  n1=$(count_json "$T/p100.geojson"); n2=$(count_json "$T/p10.geojson")
  [ "$n1" = "$n2" ] && [ "$n1" -gt 10 ] && [ $((after - before)) -eq $((n1 / 10 + 1)) ] &&
    grep '/storm/json' "$T/access.log" | tail -1 | grep -q 'offset='
}
check "paging with limit/offset until a short page" page_ok
archive_ok() {
  "$S" storms --status inactive --region WP --kinds storm -o "$T/wp.geojson" 2>"$T/wp.err" &&
    [ "$(count_json "$T/wp.geojson")" -gt 1000 ] && grep -q 'requests)' "$T/wp.err"
}
check "more than 100 storms: every page fetched" archive_ok

# 5. The driver: typed fields, ogr2ogr to GeoPackage, the same counts.
export GDAL_DRIVER_PATH
gpkg_ok() {
  ogr2ogr -f GPKG "$T/edge.gpkg" "SEAWX:storms,status=all,max_storms=5" \
    storms track_points forecast_points forecast_lines wind_radii 2>"$T/gpkg.err" || { cat "$T/gpkg.err"; return 1; }
  ogrinfo -ro -so "$T/edge.gpkg" storms >"$T/gpkg_storms.txt" || return 1
  ogrinfo -ro -so "$T/edge.gpkg" track_points >"$T/gpkg_tp.txt" || return 1
  grep -q 'advisory_issuance_time: DateTime' "$T/gpkg_storms.txt" &&
    grep -q 'is_active: Integer(Boolean)' "$T/gpkg_storms.txt" &&
    grep -q 'season: Integer' "$T/gpkg_storms.txt" && grep -q 'start_date: Date' "$T/gpkg_storms.txt" &&
    grep -q 'max_sustained_wind: Real' "$T/gpkg_tp.txt" && grep -q 'time: DateTime' "$T/gpkg_tp.txt" &&
    grep -q 'category_code: String' "$T/gpkg_tp.txt" && grep -q 'EPSG.*4326' "$T/gpkg_tp.txt" &&
    [ "$(count_ogr "$T/edge.gpkg")" = "$(count_json "$T/edge.geojson")" ]
}
check "ogr2ogr -f GPKG SEAWX:storms: typed fields, same counts" gpkg_ok
# The QGIS and SLD styles: well-formed, and categorised on a field the layer has.
styles_ok() {
  local layer
  for layer in storms track_points forecast_points forecast_lines wind_radii; do
    ogrinfo -ro -so "$T/edge.gpkg" "$layer" >"$T/fields_$layer.txt" || return 1
  done
  $py - "$SEAWX_SOURCE_DIR/styles" "$T" <<'PY'
import sys, xml.etree.ElementTree as ET
styles, t = sys.argv[1], sys.argv[2]
for layer in ("storms", "track_points", "forecast_points", "forecast_lines", "wind_radii"):
    fields = open("%s/fields_%s.txt" % (t, layer)).read()
    qml = ET.parse("%s/seawx_%s.qml" % (styles, layer)).getroot()
    r = qml.find("renderer-v2")
    assert r.get("type") == "categorizedSymbol" and (r.get("attr") + ":") in fields, layer
    values = [c.get("value") for c in r.find("categories")]
    sld = ET.parse("%s/seawx_%s.sld" % (styles, layer)).getroot()
    ns = {"ogc": "http://www.opengis.net/ogc"}
    names = {e.text for e in sld.iter("{http://www.opengis.net/ogc}PropertyName")}
    assert names == {r.get("attr")}, (layer, names)
    if layer != "wind_radii":
        assert {"TD", "TS", "TC1", "TC5"} <= set(values), layer
    else:
        assert {"34", "50", "64"} <= set(values)
PY
}
check "styles: QML and SLD for each layer, on its fields" styles_ok
nulls_ok() {
  ogrinfo -ro -q "$T/edge.gpkg" -sql "SELECT advisory_number FROM storms WHERE atcf_id = 'EP142023'" |
    grep -q 'advisory_number (Integer) = (null)'
}
check "nulls stay null through the driver" nulls_ok
pushdown_ok() {
  local n
  n=$(ogrinfo -ro -q "SEAWX:storms" storms -where "is_active = 0 AND basin = 'EP' AND season = 2001" |
    grep -c '^OGRFeature')
  [ "$n" -gt 5 ] && tail -1 "$T/access.log" | grep '/storm/json' | grep 'status=inactive' |
    grep 'region=EP' | grep -q 'period=2000-07-01'
}
check "attribute filter sent to the service (status, region, period)" pushdown_ok

# 6. The KMZ: the prefix form opens it with the same features as the JSON.
check "storms --kmz downloads the KMZ" sh -c "'$S' storms -q --status all --limit 5 --kmz '$T/edge.kmz' && unzip -l '$T/edge.kmz' | grep -q seawx_storms.kml"
same_ok() {
  ogrinfo -ro -al -q "SEAWX:kmz,path=$T/edge.kmz" >"$T/kmz.txt" 2>&1 &&
    ogrinfo -ro -al -q "SEAWX:storms,status=all,limit=5,max_storms=5" >"$T/api.txt" 2>&1 &&
    [ "$(grep -c '^OGRFeature' "$T/kmz.txt")" -gt 100 ] && cmp -s "$T/kmz.txt" "$T/api.txt"
}
check "SEAWX:kmz,path=... gives the same features as SEAWX:storms" same_ok
hostile_kmz() {
  $py - "$T" <<'PY'
import sys, zipfile
t = sys.argv[1]
with zipfile.ZipFile(t + "/bomb.kmz", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("doc.kml", b"\0" * (80 << 20))
with zipfile.ZipFile(t + "/escape.kmz", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("doc.kml", "<kml/>")
    z.writestr("../../../tmp/evil.kml", "<kml/>")
open(t + "/cut.kmz", "wb").write(open(t + "/edge.kmz", "rb").read()[:3000])
PY
}
check "hostile KMZ files made" hostile_kmz
refused() {
  ! ogrinfo -ro -so "SEAWX:kmz,path=$T/$1" >"$T/refused.out" 2>&1 && grep -q "$2" "$T/refused.out"
}
check "a zip bomb is refused" refused bomb.kmz "zip bomb"
check "a path-escape KMZ is refused" refused escape.kmz "outside the archive"
check "a truncated KMZ is refused" refused cut.kmz "not a KMZ"

# 7. Bad input: one line, a non-zero exit, no file, nothing sent.
bad_cli() {
  local want=$1 out=$2; shift 2
  local before after
  before=$(wc -l <"$T/access.log")
  "$S" storms "$@" -o "$T/$out" 2>"$T/bad.err"
  local rc=$?
  after=$(wc -l <"$T/access.log")
  [ "$rc" -eq "$want" ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] && [ ! -e "$T/$out" ] &&
    ! ls "$T/$out".part* >/dev/null 2>&1 && ! ls "$T/$out".*.tmp >/dev/null 2>&1 &&
    [ "$before" = "$after" ]
}
check "unknown status: exit 2, nothing sent, no file" bad_cli 2 b1.geojson --status closed
check "unknown category: exit 2" bad_cli 2 b2.geojson --category H5
check "unknown region: exit 2" bad_cli 2 b3.geojson --region XX
check "bad period: exit 2" bad_cli 2 b4.geojson --period 2024-01-01
check "limit 101: exit 2" bad_cli 2 b5.geojson --limit 101
check "bad kinds: exit 2" bad_cli 2 b6.geojson --kinds storm,radar
check "malformed JSON input: exit 7, no file" bad_cli 7 b7.geojson --input "$SEAWX_FIXTURES/storms/malformed.json"
check "truncated JSON input: exit 7, no file" bad_cli 7 b8.geojson --input "$SEAWX_FIXTURES/storms/truncated.json"
check "empty name refused: no file" sh -c "! '$S' storms --name '' -o '$T/b9.geojson' 2>/dev/null && [ ! -e '$T/b9.geojson' ]"
check "wrong key: exit 4, no file" sh -c "SEAWX_API_KEY=wrong '$S' storms -o '$T/b10.geojson' 2>'$T/b10.err'; [ \$? -eq 4 ] && grep -q 401 '$T/b10.err' && [ ! -e '$T/b10.geojson' ]"
check "-o /dev/null is written, not replaced" sh -c "'$S' storms -q -o /dev/null && [ -c /dev/null ]"

# 8. Pages read as they arrive: a page that breaks off half way is asked for
# again, and the storms it already gave are not written twice.
storms_in() { $py -c "import json,sys; print(sum(f['properties']['kind'] == 'storm' for f in json.load(open(sys.argv[1]))['features']))" "$1"; }
broken_pages_ok() {
  local pid port="" rc
  "$SEAWX_SIM" --port 0 --port-file "$T/port_trunc" --key "$KEY" --ptrunc 0.3 \
    --faults-on other --fault-seed 11 --access-log "$T/access_trunc.log" 2>"$T/sim_trunc.log" &
  pid=$!
  for _ in $(seq 200); do [ -s "$T/port_trunc" ] && break; sleep 0.025; done
  port=$(cat "$T/port_trunc" 2>/dev/null)
  [ -n "$port" ] || { kill "$pid"; return 1; }
  "$S" storms -q --status inactive --region WP --limit 50 -o "$T/wp_whole.geojson" &&
    "$S" storms -q --status inactive --region WP --limit 50 --retries 20 \
      --base-url "http://127.0.0.1:$port" -o "$T/wp_broken.geojson"
  rc=$?
  kill "$pid"
  wait "$pid" 2>/dev/null
  [ "$rc" -eq 0 ] && cmp -s "$T/wp_whole.geojson" "$T/wp_broken.geojson" &&
    [ "$(grep -c '/storm/json' "$T/access_trunc.log")" -gt "$(($(storms_in "$T/wp_whole.geojson") / 50 + 1))" ]
}
check "pages that break off are asked again: the same GeoJSON, no storm twice" broken_pages_ok
check "the key appears in no output" no_key_in "$T"/*.geojson "$T"/*.err "$T"/*.txt
finish
