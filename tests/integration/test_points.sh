#!/usr/bin/env bash
# seawx soil/weather/tides/forecast point commands end to end against
# seawx-sim, in every output format; CSV and GeoJSON read back by ogr2ogr;
# bad input refused with one line before anything is sent.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
S=$SEAWX_CLI
py=python3

# Each query, each format.
queries=(
  "tides hourly --lat 59.9 --lon 10.7 --start 2024-01-01T00:00:00Z --hours 48"
  "tides extrema --lat -33.86 --lon 151.21 --start 2024-03-01 --end 2024-03-07 --units us"
  "soil point --lat 52.5 --lon 13.4 --time 2024-01-15T06:00:00Z"
  "soil history --lat 52.5 --lon 13.4 --start 2024-01-01 --end 2024-01-10"
  "weather point --lat 59.9 --lon 10.7 --units us --tz Europe/Oslo"
  "weather point --lat 59.9 --lon 10.7 --time 2024-01-01T00:00:00Z/2024-01-01T05:00:00Z"
  "forecast point --lat 1.29 --lon 103.85 --bundles basic,maritime"
  "forecast latest --lat 1.29 --lon 103.85 --bundles wind"
)
rows_want=(48 7 1 10 1 6 161 161) # forecasts: every hour of the run with a file (f000..f120, 3-hourly to f240)
i=0
for q in "${queries[@]}"; do
  n=${rows_want[$i]}
  i=$((i + 1))
  name=$(echo "$q" | cut -d' ' -f1-2 | tr ' ' _)$i
  for f in json csv geojson table; do
    check "$name: --format $f" sh -c "$S $q --format $f -o '$T/$name.$f' 2>'$T/$name.$f.err'"
    check "$name: $f has nothing on stderr" test ! -s "$T/$name.$f.err"
  done
  check "$name: JSON has $n rows" $py -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['data'])==$n, len(d['data'])" "$T/$name.json"
  check "$name: CSV read back by ogr2ogr" sh -c "ogr2ogr -f GeoJSON '$T/$name.csv.json' '$T/$name.csv' -oo X_POSSIBLE_NAMES=lon -oo Y_POSSIBLE_NAMES=lat -oo AUTODETECT_TYPE=YES 2>/dev/null"
  check "$name: CSV points where the answer is" $py - "$T/$name.csv.json" "$T/$name.json" $n <<'PY'
import json, sys
g = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2]))
assert len(g["features"]) == int(sys.argv[3])
for f, r in zip(g["features"], d["data"]):
    x, y = f["geometry"]["coordinates"][:2]
    assert abs(x - r["lon"]) < 1e-9 and abs(y - r["lat"]) < 1e-9
PY
  check "$name: GeoJSON read back by ogr2ogr" sh -c "ogr2ogr -f CSV '$T/$name.geo.csv' '$T/$name.geojson' -lco GEOMETRY=AS_XY 2>/dev/null && test \$(( \$(wc -l <'$T/$name.geo.csv') - 1 )) -eq $n"
  check "$name: table has its rows line" grep -q "^($n rows\?)$" "$T/$name.table"
  check "$name: no key in outputs" no_key_in "$T/$name".*
done

# Values as the interface says: tides in feet with us, typed fields in GeoJSON.
units_ok() {
  $py - "$T/tides_extrema2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["meta"]["unit_system"] == "us" and d["meta"]["height_unit"] == "ft"
r = d["data"][0]
assert r["date"] == "2024-03-01" and r["high_time"].endswith("Z")
assert r["high_tide_height"] > r["low_tide_height"]
PY
}
check "extrema in feet, one row per day" units_ok
si_us() {
  $S weather point --lat 10 --lon 20 --time 2024-01-01T12:00:00Z -f json >"$T/si.json" &&
    $S weather point --lat 10 --lon 20 --time 2024-01-01T12:00:00Z --units us -f json >"$T/us.json" &&
    $py - "$T/si.json" "$T/us.json" <<'PY'
import json, sys
si = json.load(open(sys.argv[1]))["data"][0]; us = json.load(open(sys.argv[2]))["data"][0]
assert abs(us["air_temperature"] - (si["air_temperature"] * 9 / 5 + 32)) < 0.05
assert abs(us["wind_speed"] - si["wind_speed"] * 2.236936) < 0.05
assert us["relative_humidity"] == si["relative_humidity"]
PY
}
check "unit systems convert values" si_us

# --fields reduces the answer to the named fields, and the mask reaches the service.
fields_ok() {
  $S weather point --lat 59.9 --lon 10.7 --fields '{data{values{air_temperature,wind_speed}}}' -f json >"$T/masked.json" || return 1
  $py - "$T/masked.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
row = d["data"][0]
assert set(row) == {"lat", "lon", "air_temperature", "wind_speed"}, set(row)
PY
}
check "--fields keeps only the named fields" fields_ok
check "--fields CSV header" sh -c "$S weather point --lat 1 --lon 2 --fields '{data{values{wind_direction}}}' -f csv | head -1 | tr -d '\\r' | grep -qx 'lat,lon,wind_direction'"

# Bad input: one line naming the parameter and its range, exit 2, nothing sent.
before=$(wc -l <"$T/access.log")
bad() {
  local want=$1
  shift
  "$S" "$@" >"$T/bad.out" 2>"$T/bad.err"
  local rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] && grep -q -- "$want" "$T/bad.err" && [ ! -s "$T/bad.out" ] ||
    { echo "rc=$rc"; cat "$T/bad.err"; return 1; }
}
check "lat out of range" bad "lat must be a number from -90 to 90" tides hourly --lat 91 --lon 0
check "lon out of range" bad "lon must be a number from -180 to 180" soil point --lat 0 --lon=-181
check "malformed time" bad "time must be an ISO 8601 time" soil point --lat 0 --lon 0 --time 2024-13-01
check "end before start" bad "end (2024-01-01T00:00:00Z) must be after start" soil history --lat 0 --lon 0 --start 2024-01-05 --end 2024-01-01
check "forecast_hours over 240" bad "from 1 to 240" tides hourly --lat 0 --lon 0 --hours 241
check "before the tide archive" bad "1990-01-01 to 2025-12-31" tides hourly --lat 0 --lon 0 --start 1989-12-31
check "after the tide archive" bad "1990-01-01 to 2025-12-31" tides extrema --lat 0 --lon 0 --start 2025-12-30 --end 2026-01-02
check "unknown bundle" bad "bundles must be a comma list of basic, maritime" forecast point --lat 0 --lon 0 --bundles basic,surf
check "unknown unit system" bad "units must be si or us" weather point --lat 0 --lon 0 --units metric
check "malformed field mask" bad "malformed field mask at character" weather point --lat 0 --lon 0 --fields '{data{values}'
check "parameter of another query" bad "hours is not a parameter of tide-extrema" tides extrema --lat 0 --lon 0 --start 2024-01-01 --end 2024-01-02 --hours 5
check "unknown format" bad "format must be one of json, csv, geojson, table" tides hourly --lat 0 --lon 0 --start 2024-01-01 --format xml
check "no request was sent for bad input" test "$(wc -l <"$T/access.log")" -eq "$before"
check "no partial output file" test ! -e "$T/none.json"

# Errors of the service: one line, exit code of docs/design.md ("Exit codes").
svc_err() {
  SEAWX_API_KEY=wrong "$S" tides hourly --lat 0 --lon 0 --start 2024-01-01 >/dev/null 2>"$T/401.err"
  [ $? -eq 4 ] && grep -q "HTTP 401" "$T/401.err" && [ "$(wc -l <"$T/401.err")" -eq 1 ] && ! grep -q wrong "$T/401.err"
}
check "wrong key: exit 4, one line, key not shown" svc_err
finish
