#!/usr/bin/env bash
# The bad-input matrix (issue 7): wrong and missing keys, unknown names, every
# malformed parameter, hostile files, unwritable outputs and a service that
# answers garbage, across the CLI and the GDAL plugin. One row per case:
#
#   row NAME EXIT SENT PATTERN -- COMMAND...
#
# EXIT is the exit code of docs/design.md for `seawx`, or "gdal" for GDAL's programs
# (which exit 1 whatever the cause). SENT is "no" when nothing may reach any
# server (bad input is refused before any request), "any" otherwise. PATTERN is
# an extended regex the one error line must match. Every command runs in a
# fresh output folder (its working folder, where every -o points) that also
# holds a read-only folder ro/ and a folder adir/. For every row:
#   - seawx: exactly one line on stderr, "seawx: error: ..." matching PATTERN,
#     nothing on stdout, and exactly the exit code;
#   - GDAL: a non-zero exit, exactly one "ERROR n:" line on stderr, carrying
#     SEAWX's message that matches PATTERN, and no "Warning" line (the rest of
#     what GDAL prints on a failed open, "gdalinfo failed - unable to open" or
#     ogr2ogr's list of drivers tried, is GDAL's own and not counted);
#   - both: the output folder and the plugin's cache are exactly as before (no
#     output, temporary, .part or .aux.xml file), the key is in nothing printed,
#     and with SENT=no neither seawx-sim nor any stand-in server saw a request.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
S=$SEAWX_CLI
F=$SEAWX_FIXTURES
B=$F/badinput
py=python3
mkdir -p "$T/in" "$T/cache"
export SEAWX_CACHE_DIR=$T/cache
unset GDAL_PAM_ENABLED # GDAL's default: a stray .aux.xml would show

# Root ignores file modes: drop the capabilities that let it, so that a
# read-only folder is read-only to the command too.
unpriv() {
  if [ "$(id -u)" -eq 0 ]; then
    setpriv --bounding-set -dac_override,-dac_read_search,-fowner -- "$@"
  else
    "$@"
  fi
}

requests() { cat "$T/access.log" "$T"/srv-*.log 2>/dev/null | grep -c -E '^(GET|POST|HEAD|PUT|DELETE) '; }

snapshot() {
  (cd "$T/out" && find . -printf '%p %y %s %m\n' | sort)
  (cd "$T/cache" && find . -type f -printf '%p %s\n' | sort) # folders may be made
}

ROWS=0
row() { # NAME EXIT SENT PATTERN -- CMD...
  local name=$1 want=$2 sent=$3 pattern=$4
  shift 5
  ROWS=$((ROWS + 1))
  rm -rf "$T/out"
  mkdir -p "$T/out/ro" "$T/out/adir"
  chmod 555 "$T/out/ro"
  local before reqs why=
  before=$(snapshot)
  reqs=$(requests)
  (cd "$T/out" && "$@" >"$T/row.out" 2>"$T/row.err")
  local rc=$?
  if [ "$want" = gdal ]; then
    local nerr
    nerr=$(grep -c '^ERROR [0-9]*: ' "$T/row.err")
    if [ "$rc" -eq 0 ]; then why="exit 0"
    elif [ "$nerr" -ne 1 ]; then why="$nerr ERROR lines"
    elif ! grep '^ERROR' "$T/row.err" | grep -q -E -- "^ERROR [0-9]+: SEAWX.*$pattern"; then
      why="the ERROR line lacks '$pattern'"
    elif grep -q '^Warning' "$T/row.err"; then why="a warning"
    fi
  else
    if [ "$rc" -ne "$want" ]; then why="exit $rc, not $want"
    elif [ -s "$T/row.out" ]; then why="printed to stdout"
    elif [ "$(wc -l <"$T/row.err")" -ne 1 ]; then why="$(wc -l <"$T/row.err") lines on stderr"
    elif ! grep -q -E -- "^seawx: error: .*$pattern" "$T/row.err"; then why="the line lacks '$pattern'"
    fi
  fi
  if [ -z "$why" ] && [ "$sent" = no ] && [ "$(requests)" -ne "$reqs" ]; then
    why="$(($(requests) - reqs)) request(s) sent"
  fi
  if [ -z "$why" ] && [ "$(snapshot)" != "$before" ]; then
    why="files left: $(diff <(echo "$before") <(snapshot) | grep '^>' | tr '\n' ' ')"
  fi
  if [ -z "$why" ] && ! no_key_in "$T/row.out" "$T/row.err"; then why="the key was printed"; fi
  chmod 755 "$T/out/ro"
  if [ -z "$why" ]; then
    PASSED=$((PASSED + 1))
    echo "ok - $name"
  else
    FAILED=$((FAILED + 1))
    echo "FAILED - $name: $why"
    sed 's/^/    /' "$T/row.err" | head -5
  fi
}

# A stand-in for the service answering garbage: every request gets the same
# answer (capture_server.py), each server logs to its own srv-NAME.log.
srv_start() { # NAME capture_server options...
  local name=$1
  shift
  rm -f "$T/srv-$name.port"
  $py "$here/capture_server.py" "$T/srv-$name.port" --log "$T/srv-$name.log" "$@" &
  SRV_PIDS="${SRV_PIDS:-} $!"
  for _ in $(seq 200); do [ -s "$T/srv-$name.port" ] && break; sleep 0.025; done
  eval "URL_$name=http://127.0.0.1:$(cat "$T/srv-$name.port")"
}
srv_stop_all() { for p in ${SRV_PIDS:-}; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done; SRV_PIDS=; }
sim_restart_vessels() {
  sim_restart "$@"
  export SEAWX_VESSELS_URL=$SIM_URL
}

# ---- hostile files made at test time (the rest are fixtures) ----
# Junk from a fixed seed, so a run is repeatable: bytes from /dev/urandom
# once began with a newline, the route reader rightly skipped the blank
# first line, and the row expecting 'line 1' failed one run in ~100.
# The first byte is 0xff: not blank, not '#', not JSON, not a zip.
$py -c "import random,sys; r=random.Random(20261123); sys.stdout.buffer.write(b'\\xff'+bytes(r.randrange(256) for _ in range(4095)))" >"$T/in/junk.bin"
: >"$T/in/empty"
$py -c "print('[' * 100000)" >"$T/in/deep.geojson"
"$S" storms --input "$F/storms/edge.json" -q -o "$T/in/storms.geojson" # needs no service
sim_start
export SEAWX_VESSELS_URL=$SIM_URL
"$S" storms --kmz "$T/in/good.kmz" -q || { echo "cannot fetch a KMZ from seawx-sim"; exit 1; }
$py - "$T/in" "$T/in/good.kmz" "$F/storms/doctype.kml" <<'PY'
import struct, sys, zipfile
d, good, doctype = sys.argv[1:]
kml = zipfile.ZipFile(good).read(zipfile.ZipFile(good).namelist()[0])
def kmz(name, entries):
    with zipfile.ZipFile(f"{d}/{name}.kmz", "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in entries:
            z.writestr(n, data)
kmz("bomb", [("doc.kml", b"\0" * (64 << 20))])        # 64 MiB squeezed 1000 times
kmz("escape", [("../../evil.kml", kml)])
kmz("absolute", [("/etc/evil.kml", kml)])
kmz("many", [(f"f{i}.txt", b"x") for i in range(1001)] + [("doc.kml", kml)])
kmz("nokml", [("readme.txt", b"hello")])
kmz("doctype", [("doc.kml", open(doctype, "rb").read())])
# Declares 1 KiB in both headers, inflates to 8 MiB.
kmz("lying", [("doc.kml", b" " * (8 << 20))])
b = bytearray(open(f"{d}/lying.kmz", "rb").read())
for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
    struct.pack_into("<I", b, b.find(sig) + off, 1024)
open(f"{d}/lying.kmz", "wb").write(b)
open(f"{d}/truncated.kmz", "wb").write(open(good, "rb").read()[:2500])
PY
inputs=$(ls -A "$T/in")
layer=$("$S" layers -b basic --variable t2m:K --latest --json | $py -c "import json,sys; print(json.load(sys.stdin)[0]['name'])")
uuid0=00000000-0000-4000-a000-000000000000
soilfile=soil-moisture.20240115.global.nc
seed=("$S" seed -b basic -v t2m:K)
bbox=(--bbox 0,40,10,50 -z 3)

echo "# configuration and the key"
row "wrong key: layers"              4 any 'HTTP 401.*SEAWX_API_KEY' -- env SEAWX_API_KEY=wrong-key "$S" layers -b basic
row "wrong key: seed"                4 any 'HTTP 401' -- env SEAWX_API_KEY=wrong-key "${seed[@]}" "${bbox[@]}" -o s.mbtiles
row "wrong key: storms -o FILE"      4 any 'HTTP 401' -- env SEAWX_API_KEY=wrong-key "$S" storms -o s.geojson
row "wrong key: storms -o DIR/"      4 any 'HTTP 401' -- env SEAWX_API_KEY=wrong-key "$S" storms -o split/
row "wrong key: storms --kmz"        4 any 'HTTP 401' -- env SEAWX_API_KEY=wrong-key "$S" storms --kmz s.kmz
row "wrong key: tides -o"            4 any 'HTTP 401' -- env SEAWX_API_KEY=wrong-key "$S" tides hourly --lat 1 --lon 2 --start 2024-01-01 -o t.json
row "wrong key: soil download"       4 any 'HTTP 401' -- env SEAWX_API_KEY=wrong-key "$S" soil download $soilfile
row "wrong key: vessels"             4 any 'HTTP 401' -- env SEAWX_API_KEY=wrong-key "$S" vessels -o v.csv
row "no key: layers"                 3 no 'no API key' -- env -u SEAWX_API_KEY "$S" layers -b basic
row "no key: seed"                   3 no 'no API key' -- env -u SEAWX_API_KEY "${seed[@]}" "${bbox[@]}" -o s.mbtiles
row "no key: soil job start"         3 no 'no API key' -- env -u SEAWX_API_KEY "$S" soil job start --region global --start 2024-01-01 --end 2024-01-02 -o j.nc
row "no service address"             3 no 'SEAWX_BASE_URL' -- env -u SEAWX_BASE_URL "$S" storms -o s.geojson
row "address not http(s)"            3 no 'http:// or https://' -- "$S" layers --base-url ftp://127.0.0.1/
row "no Vessels API address"         3 no 'SEAWX_VESSELS_URL' -- env -u SEAWX_VESSELS_URL "$S" vessels
row "unknown WMS auth mode"          3 no "unknown WMS auth mode 'magic'" -- "$S" layers --wms-auth magic
row "basic auth without password"    3 no 'SEAWX_WMS_PASSWORD' -- env SEAWX_WMS_AUTH=basic "$S" layers -b basic
row "key file missing"               3 no 'cannot read the API key file .*/nokey: No such file' -- env -u SEAWX_API_KEY "$S" layers --key-file "$T/in/nokey"
row "key file empty"                 3 no 'key file .* is empty' -- env -u SEAWX_API_KEY SEAWX_API_KEY_FILE="$T/in/empty" "$S" layers
row "key with a line break"          3 no 'line break' -- env SEAWX_API_KEY="$(printf 'a\nb')" "$S" layers -b basic

echo "# unknown names"
row "unknown command"                2 no "unknown command 'frobnicate'" -- "$S" frobnicate
row "unknown option"                 2 no "unknown option '--colour'" -- "$S" storms --colour red
row "unknown bundle"                 2 no "unknown bundle 'nope'.*valid bundles" -- "$S" layers -b basic -b nope
row "unknown variable"               5 any "no variable 'nope' in bundle basic" -- "$S" layers -b basic --variable nope
row "seed: unknown layer"            5 any "layer 'sof-d/19990101/00/t2m:K' is not in bundle basic; its variables are .*'seawx layers --bundle basic' lists them" -- "$S" seed -b basic -l sof-d/19990101/00/t2m:K "${bbox[@]}"
row "seed: unknown run"              5 any "no run 1999010100 of t2m:K in bundle basic; runs are 20" -- "${seed[@]}" --run 1999010100 "${bbox[@]}"
row "seed: unknown time"             5 any "time 1999-01-01T00:00:00Z is not a valid time of layer .*; nearest: 20" -- "${seed[@]}" -t 1999-01-01T00:00:00Z "${bbox[@]}"
row "seed: unknown style"            5 any "style 'nope' is not a style of layer .*; styles are " -- "${seed[@]}" -s nope "${bbox[@]}"
row "seed: several times, no {time}" 2 any "put \{time\} in the --output name" -- "${seed[@]}" -t all "${bbox[@]}" -o one.mbtiles
row "unknown file"                   5 any 'HTTP 404' -- "$S" soil download soil-moisture.20240115.mars.nc -o x.nc
row "unknown job"                    5 any 'HTTP 404' -- "$S" soil job status $uuid0

echo "# malformed parameters"
row "bbox of three numbers"          2 no "bbox '1,2,3' is not" -- "${seed[@]}" --bbox 1,2,3 -z 3
row "bbox latitude over 90"          2 no 'latitudes must be within -90 to 90' -- "${seed[@]}" --bbox 0,40,10,95 -z 3
row "bbox of nan"                    2 no "bbox 'nan,0,10,10'" -- "${seed[@]}" --bbox nan,0,10,10 -z 3
row "zoom over 24"                   2 no "zoom '3-40' is not" -- "${seed[@]}" --bbox 0,40,10,50 -z 3-40
row "zoom not a number"              2 no "zoom 'x' is not" -- "${seed[@]}" --bbox 0,40,10,50 -z x
row "no zoom"                        2 no 'zoom is required' -- "${seed[@]}" --bbox 0,40,10,50
row "time syntax"                    2 no "'notatime' is not an ISO 8601 time" -- "${seed[@]}" -t notatime "${bbox[@]}"
row "run syntax"                     2 no "--run: run '2024' is neither 'latest', YYYYMMDDHH nor an ISO 8601 instant" -- "${seed[@]}" --run 2024 "${bbox[@]}"
row "tile size"                      2 no 'tile-size must be 256 or 512' -- "${seed[@]}" --tile-size 300 "${bbox[@]}"
row "metatile"                       2 no 'metatile must be 1, 2, 4 or 8' -- "${seed[@]}" -m 3 "${bbox[@]}"
row "in-flight limit"                2 no 'in-flight must be a whole number from 1 to 256' -- "${seed[@]}" -j 1000 "${bbox[@]}"
row "rate"                           2 no 'rate must be a number' -- "${seed[@]}" --rate -1 "${bbox[@]}"
row "buffer without route"           2 no 'buffer goes with --route' -- "${seed[@]}" --buffer 5 "${bbox[@]}"
row "buffer over the limit"          2 no 'buffer must be a number from 0 to 2000' -- "${seed[@]}" --route "$B/route_bad.csv" --buffer 5000 -z 3
row "timeout 0"                      2 no 'timeout must be a whole number from 1' -- "$S" layers -b basic --timeout 0
row "retries not a number"           2 no "retries must be a whole number from 0 to 100, not 'x'" -- "$S" layers --retries x
row "storms: status"                 2 no "unknown status 'bogus'" -- "$S" storms --status bogus -o s.geojson
row "storms: category"               2 no "unknown category 'TC9'" -- "$S" storms -c TC9
row "storms: region"                 2 no "unknown region 'XX'" -- "$S" storms -r XX
row "storms: period of one time"     2 no "period '2024-01-01' is not two ISO 8601 times" -- "$S" storms -p 2024-01-01
row "storms: period backwards"       2 no 'ends before it starts' -- "$S" storms -p 2024-02-01T00:00:00Z/2024-01-01T00:00:00Z
row "storms: limit"                  2 no 'limit must be a whole number from 1 to 100' -- "$S" storms --limit 101
row "storms: intensity"              2 no 'intensity must be a wind speed' -- "$S" storms --intensity -5
row "storms: ATCF id"                2 no "'BAD' is not an ATCF id" -- "$S" storms --id BAD
row "storms: kinds"                  2 no "bad kinds 'storm,bogus'" -- "$S" storms -k storm,bogus
row "storms: --kmz with -o"          2 no 'takes no --output' -- "$S" storms --kmz s.kmz -o s.geojson
row "storms: --kmz with --route"     2 no 'takes no --route' -- "$S" storms --kmz s.kmz --route r.csv
row "storms: --segments, no --route" 2 no '--segments goes with --route' -- "$S" storms --segments s.geojson
row "storms: --input with a filter"  2 no 'filters go to the service: it takes no --region' -- "$S" storms --input s.json -r NA
row "latitude out of range"          2 no 'lat must be a number from -90 to 90' -- "$S" tides hourly --lat 91 --lon 0
row "longitude not a number"         2 no "lon must be a number from -180 to 180, not 'abc'" -- "$S" soil point --lat 0 --lon abc
row "date that does not exist"       2 no "start must be an ISO 8601 time" -- "$S" tides hourly --lat 0 --lon 0 --start 2024-02-30
row "end before start"               2 no 'must be after start' -- "$S" soil history --lat 0 --lon 0 --start 2024-01-05 --end 2024-01-01
row "time range backwards"           2 no 'is not after its start' -- "$S" weather point --lat 1 --lon 2 -t 2024-01-02T00:00:00Z/2024-01-01T00:00:00Z
row "hours over 240"                 2 no 'from 1 to 240' -- "$S" tides hourly --lat 0 --lon 0 --hours 241
row "before the tide archive"        2 no '1990-01-01 to 2025-12-31' -- "$S" tides hourly --lat 0 --lon 0 --start 1989-12-31
row "tides without a start, now past the archive" 2 no 'without a start, tides begin now .* past the tide archive' -- "$S" tides hourly --lat 0 --lon 0
row "forecast bundle"                2 no 'bundles must be a comma list' -- "$S" forecast point --lat 0 --lon 0 --bundles basic,surf
row "unit system"                    2 no 'units must be si or us' -- "$S" weather point --lat 0 --lon 0 --units metric
row "field mask"                     2 no 'malformed field mask at character' -- "$S" weather point --lat 0 --lon 0 --fields '{data{values}'
row "empty field mask"               2 no 'field mask is empty' -- "$S" weather point --lat 0 --lon 0 --fields ''
row "output format"                  2 no 'format must be one of json, csv, geojson, table' -- "$S" tides hourly --lat 0 --lon 0 --start 2024-01-01 -f xml
row "file name escaping"             2 no "file must be a file name from the listing" -- "$S" soil download ../../etc/passwd
row "job uuid"                       2 no 'job must be a job uuid' -- "$S" soil job watch not-a-uuid
row "job region"                     2 no "'a b' is not a valid region" -- "$S" soil job start --region 'a b' --start 2024-01-01 --end 2024-01-02
row "job poll interval"              2 no 'poll must be a whole number from 1 to 3600' -- "$S" soil job watch $uuid0 --poll 0
row "vessels: categories"            2 no 'categories must be a comma list' -- "$S" vessels -c bogus
row "vessels: page size"             2 no 'limit must be a whole number from 1 to 1000' -- "$S" vessels --limit 5000
row "vessels: filter"                2 no "filter must be NAME=VALUE, not 'noequals'" -- "$S" vessels --filter noequals

echo "# malformed and hostile files"
row "area: a Point"                  2 no 'a Point geometry; expected Polygon' -- "${seed[@]}" --area "$B/area_point.geojson" -z 3
row "area: longitude 500"            2 no 'position 500,0 is not a longitude, latitude pair' -- "${seed[@]}" --area "$B/area_range.geojson" -z 3
row "area: truncated"                2 no 'area file is not valid JSON: it ends too early' -- "${seed[@]}" --area "$B/area_truncated.geojson" -z 3
row "area: nested 100000 deep"       2 no 'area file is not valid JSON: nesting too deep' -- "${seed[@]}" --area "$T/in/deep.geojson" -z 3
row "area: binary junk"              2 no 'area file is not valid JSON: ' -- "${seed[@]}" --area "$T/in/junk.bin" -z 3
row "area: empty file"               2 no 'area file is not valid JSON: it ends too early' -- "${seed[@]}" --area "$T/in/empty" -z 3
row "area: a folder"                 8 no 'Is a directory' -- "${seed[@]}" --area "$T/in" -z 3
row "area: missing"                  8 no 'No such file' -- "${seed[@]}" --area "$T/in/none.geojson" -z 3
row "route: CSV with a bad line"     2 no "line 3: 'abc,30' is not a latitude, longitude pair" -- "${seed[@]}" --route "$B/route_bad.csv" -z 3
row "route: latitude 95"             2 no "line 2: '95,20' is not a latitude" -- "${seed[@]}" --route "$B/route_lat95.csv" -z 3
row "route: a Polygon"               2 no 'a Polygon geometry; expected LineString' -- "${seed[@]}" --route "$B/route_polygon.geojson" -z 3
row "route: empty file"              2 no 'route file: empty' -- "${seed[@]}" --route "$T/in/empty" -z 3
row "route: binary junk"             2 no 'route file line 1' -- "${seed[@]}" --route "$T/in/junk.bin" -z 3
mkdir -p "$T/in2"
# A binary file's bytes are quoted as \xHH, never raw; a well-formed UTF-8
# character (a name in another script) is kept.
printf '\x89PNG\r\x1b[2J\x80\xff,\x01\x7f\xc3\xa9\n' >"$T/in2/binary_route.csv"
row "route: binary, quoted"          2 no "route file line 1: '.x89PNG .x1b.2J.x80.xff,.x01.x7fé' is not a latitude" -- "${seed[@]}" --route "$T/in2/binary_route.csv" -z 3
check "route: binary, the line is printable UTF-8" python3 -c "
import sys, unicodedata; t = open('$T/row.err', 'rb').read().decode('utf-8').rstrip('\\n')
assert all(unicodedata.category(c)[0] != 'C' for c in t), t"
row "route: a key twice"             2 no "route file is not valid JSON: the key 'coordinates' appears twice" -- "${seed[@]}" --route "$B/route_dup_key.geojson" -z 3
row "fleet: a key twice"             2 no "the fleet file is not valid JSON: the key 'bundle' appears twice" -- "$S" fleet -n "$B/fleet_dup_key.json"
# A UTF-8 byte order mark (Excel, Notepad) before a CSV or JSON file is read past.
printf '\xef\xbb\xbflat,lon\n40.5,10.5\n41.5,11.5\n' >"$T/in2/bom.csv"
printf '\xef\xbb\xbf{"type": "LineString", "coordinates": [[10.5, 40.5], [11.5, 41.5]]}' >"$T/in2/bom.geojson"
printf '\xef\xbb\xbf{"type": "Polygon", "coordinates": [[[10, 40], [11, 40], [11, 41], [10, 40]]]}' >"$T/in2/bom_area.geojson"
for f in bom.csv bom.geojson; do
  check "route with a byte order mark ($f): read" sh -c "'$S' seed -b basic -v t2m:K --route '$T/in2/$f' -z 0-2 -n >/dev/null 2>'$T/bom.err'"
done
check "area with a byte order mark: read" sh -c "'$S' seed -b basic -v t2m:K --area '$T/in2/bom_area.geojson' -z 0-2 -n >/dev/null"
row "voyage: departure not ISO 8601" 2 no "--depart 'tomorrow' is not an ISO 8601 instant" -- "${seed[@]}" --route "$B/voyage_ok.csv" --depart tomorrow --speed 7 -z 3
row "voyage: speed of zero"          2 no "--speed: speed '0': a speed must be above 0 knots" -- "${seed[@]}" --route "$B/voyage_ok.csv" --depart 2026-01-01T00:00:00Z --speed 0 -z 3
row "voyage: MIN above MAX"          2 no "--speed: speed '8-6': the lower speed comes first" -- "${seed[@]}" --route "$B/voyage_ok.csv" --depart 2026-01-01T00:00:00Z --speed 8-6 -z 3
row "voyage: speed not a number"     2 no "--speed: speed 'fast' is not KN or MIN-MAX in knots" -- "${seed[@]}" --route "$B/voyage_ok.csv" --depart 2026-01-01T00:00:00Z --speed fast -z 3
row "voyage: departure, no speed"    2 no 'a voyage needs both --depart TIME and --speed KN' -- "${seed[@]}" --route "$B/voyage_ok.csv" --depart 2026-01-01T00:00:00Z -z 3
row "voyage: speed without route"    2 no '--depart and --speed go with --route' -- "${seed[@]}" --speed 7 --depart 2026-01-01T00:00:00Z "${bbox[@]}"
row "voyage: times not increasing"   2 no "line 4: time 2030-01-01T06:00:00Z is not after the one before; waypoint times must increase" -- "${seed[@]}" --route "$B/voyage_times_back.csv" -z 3
row "voyage: times and --speed"      2 no 'the route gives waypoint times; a departure and a speed go with a route without them' -- "${seed[@]}" --route "$B/voyage_times_1990.csv" --depart 2026-01-01T00:00:00Z --speed 7 -z 3
row "voyage: times outside the layer's" 5 any 'the voyage \(1990-01-01T00:00:00Z to 1990-01-02T06:00:00Z\) is outside the valid times of layer ' -- "${seed[@]}" --route "$B/voyage_times_1990.csv" -t all -z 3
row "storm JSON: truncated"          7 no 'ends early|not closed|truncated' -- "$S" storms -i "$F/storms/truncated.json" -o s.geojson
row "storm JSON: malformed"          7 no 'malformed storm JSON' -- "$S" storms -i "$F/storms/malformed.json" -o s.geojson
row "storm JSON: an object"          7 no 'not an array of storms' -- "$S" storms -i "$B/storms_truncated_object.json" -o split/
row "storm JSON: binary junk"        7 no 'malformed storm JSON at byte 1' -- "$S" storms -i "$T/in/junk.bin" -o s.geojson
row "storm JSON: empty file"         7 no 'ends early' -- "$S" storms -i "$T/in/empty"
row "storm JSON: missing"            8 no 'cannot open' -- "$S" storms -i "$T/in/none.json" -o s.geojson
row "storm JSON: GeoJSON instead"    7 no 'storm' -- "$S" storms -i "$T/in/storms.geojson" -o s.geojson

echo "# unwritable outputs"
row "seed: folder missing"           8 no 'folder nope does not exist' -- "${seed[@]}" "${bbox[@]}" -o nope/s.mbtiles
row "seed: -o is a folder"           8 no 'cannot write adir: it is a folder' -- "${seed[@]}" "${bbox[@]}" -o adir
row "seed: read-only folder"         8 no 'folder ro is not writable' -- unpriv "${seed[@]}" "${bbox[@]}" -o ro/s.mbtiles
row "seed: summary folder missing"   8 no 'cannot write nope/s.json' -- "${seed[@]}" "${bbox[@]}" -o s.mbtiles --summary-json nope/s.json
row "storms: folder missing"         8 no 'cannot write nope/s.geojson' -- "$S" storms -o nope/s.geojson
row "storms: read-only folder"       8 no 'cannot write ro/s.geojson: folder ro is not writable' -- unpriv "$S" storms -o ro/s.geojson
row "storms: DIR/ in read-only"      8 no 'cannot create folder ro/split/' -- unpriv "$S" storms -o ro/split/
row "storms: --kmz folder missing"   8 no 'cannot write nope/s.kmz: folder nope does not exist' -- "$S" storms --kmz nope/s.kmz
row "storms: --kmz is a folder"      8 no 'cannot write adir: it is a folder' -- "$S" storms --kmz adir
row "tides: folder missing"          8 no 'cannot write nope/t.json: folder nope does not exist' -- "$S" tides hourly --lat 1 --lon 2 --start 2024-01-01 -o nope/t.json
row "tides: -o is a folder"          8 no 'cannot write adir: it is a folder' -- "$S" tides hourly --lat 1 --lon 2 --start 2024-01-01 -o adir
row "weather: read-only folder"      8 no 'folder ro is not writable' -- unpriv "$S" weather point --lat 1 --lon 2 -o ro/w.csv
row "files list: folder missing"     8 no 'folder nope does not exist' -- "$S" forecast files -o nope/f.json
row "vessels: read-only folder"      8 no 'folder ro is not writable' -- unpriv "$S" vessels -o ro/v.json
row "download: -o is a folder"       8 no 'cannot write adir: it is a folder' -- "$S" soil download $soilfile -o adir
row "download: --dir missing"        8 no 'folder nope does not exist' -- "$S" weather download cwc.20240115.t00z.0p027.basic.global.grib2 --dir nope
row "download: read-only --dir"      8 no 'folder ro is not writable' -- unpriv "$S" soil download $soilfile --dir ro
row "job: result folder missing"     8 no 'cannot write nope/j.nc' -- "$S" soil job start --region global --start 2024-01-01 --end 2024-01-02 -o nope/j.nc

echo "# seawx grib, plan and qlr"
A=$F/voyage/atlantic_1000nm.csv
cp "$A" "$T/out-route.csv" 2>/dev/null
gbox=("$S" grib --bbox -40,40,-38,42 --hours 0 --vars prmsl --no-cache)
gvoy=("$S" grib --route "$A" --depart 2026-01-01T00:00:00Z --speed 6-8 --days 1 --vars prmsl --no-cache)
pl=("$S" plan --route "$A" --speed 6 --spacing 200 --no-storms)
dep=2026-01-01T00:00Z/2026-01-01T12:00Z/6h
row "grib: no --output"              2 no 'output is required' -- "${gbox[@]}"
row "grib: unknown variable"         2 no "nosuch" -- "$S" grib --bbox -40,40,-38,42 --hours 0 --vars wind,nosuch --no-cache -o g.grb2
# (the files' spacing is read from their heads: asked of the service)
row "grib: grid not a multiple"      2 any "not a multiple of the forecast files' spacing" -- "${gbox[@]}" --grid 0.3 -o g.grb2
row "grib: --hours with a route"     2 no '--hours goes with --bbox' -- "${gvoy[@]}" --hours 0 -o g.grb2
row "grib: box across a pole"        2 no 'a box cannot cross a pole' -- "$S" grib --bbox -40,80,-38,95 --hours 0 --no-cache -o g.grb2
row "grib: route and box"            2 no 'one of them' -- "${gvoy[@]}" --bbox -40,40,-38,42 -o g.grb2
row "grib: --compress"               2 no "--compress 'zip'" -- "${gbox[@]}" --compress zip -o g.grb2
row "grib: route missing"            8 no 'none.csv' -- "$S" grib --route "$T/in/none.csv" --depart 2026-01-01T00:00:00Z --speed 6 --no-cache -o g.grb2
row "grib: route of junk"            2 no 'junk.bin' -- "$S" grib --route "$T/in/junk.bin" --depart 2026-01-01T00:00:00Z --speed 6 --no-cache -o g.grb2
row "grib: -o is a folder"           8 no 'cannot write adir: it is a folder' -- "${gbox[@]}" -o adir
row "grib: read-only folder"         8 no 'cannot write ro/g.grb2: folder ro is not writable' -- unpriv "${gbox[@]}" -o ro/g.grb2
row "grib: -o its route"             2 no 'an input of the same run' -- "$S" grib --route ../out-route.csv --depart 2026-01-01T00:00:00Z --speed 6 --no-cache -o ../out-route.csv
row "grib: a voyage over before the run" 2 any 'the voyage \(2024-01-01T00:00:00Z to 2024-01-07T22:08:45Z\) ended before the run.s first forecast hour' -- "$S" grib --route "$A" --depart 2024-01-01T00:00:00Z --speed 6-8 --days 1 --vars prmsl --no-cache -o g.grb2
row "grib: run not listed"           5 any '1999' -- "${gbox[@]}" --run 1999-01-01T00:00:00Z -o g.grb2
row "plan: departures malformed"     2 no 'departures' -- "${pl[@]}" --departures tomorrow
row "plan: step of zero"             2 no 'step' -- "${pl[@]}" --departures 2026-01-01T00:00Z/2026-01-02T00:00Z/0h
row "plan: FROM after TO"            2 no 'departures' -- "${pl[@]}" --departures 2026-01-02T00:00Z/2026-01-01T00:00Z/6h
row "plan: limit without its unit"   2 no 'max-wind' -- "${pl[@]}" --departures $dep --max-wind 25
row "plan: no speed, no polar"       2 no 'a plan needs --speed' -- "$S" plan --route "$A" --departures $dep
row "plan: route with times"         2 no 'waypoint times' -- "$S" plan --route "$B/voyage_times_1990.csv" --departures $dep --speed 6
row "plan: route missing"            8 no 'none.csv' -- "$S" plan --route "$T/in/none.csv" --departures $dep --speed 6
row "plan: --from junk"              2 no '--from' -- "${pl[@]}" --departures $dep --from "$T/in/junk.bin"
row "plan: --chart -"                2 no '--chart needs a file name' -- "${pl[@]}" --departures $dep --chart -
# numbers are decimal everywhere: hexadecimal, inf and nan refused
row "plan: hexadecimal threshold"    2 no "--max-gust '0x20kn' is not a decimal number" -- "${pl[@]}" --departures $dep --max-gust 0x20kn
row "plan: hexadecimal step"         2 no "--departures '0x6h' is not a decimal number" -- "${pl[@]}" --departures 2026-01-01T00:00Z/2026-01-01T12:00Z/0x6h
row "voyage: hexadecimal threshold"  2 no "--plan-max-wave '0x3m' is not a decimal number" -- "$S" voyage -b maritime --route "$A" --depart 2026-01-01T00:00:00Z --speed 6 -l swh -z 1 --plan $dep --plan-max-wave 0x3m -o v
row "voyage: hexadecimal budget"     2 no "--budget: '0x10MB' is not a size" -- "$S" voyage -b maritime --route "$A" --depart 2026-01-01T00:00:00Z --speed 6 -l swh -z 1 --budget 0x10MB -o v
row "grib: hexadecimal box"          2 no "--bbox '0x10,40,12,42'" -- "$S" grib --bbox 0x10,40,12,42 --hours 0 --vars prmsl --no-cache -o g.grb2
row "grib: hexadecimal --grid"      2 no "--grid must be a number from 0.01 to 10, not '0x1'" -- "${gbox[@]}" --grid 0x1 -o g.grb2
row "grib: infinite box"             2 no "--bbox 'inf,40,12,42'" -- "$S" grib --bbox inf,40,12,42 --hours 0 --vars prmsl --no-cache -o g.grb2
row "plan: --json is a folder"       8 no 'cannot write adir: it is a folder' -- "${pl[@]}" --departures $dep --json adir
row "plan: --chart read-only"        8 no 'cannot write ro/p.png: folder ro is not writable' -- unpriv "${pl[@]}" --departures $dep --chart ro/p.png
row "plan: --csv its route"          2 no 'an input of the same run' -- "$S" plan --route ../out-route.csv --speed 6 --spacing 200 --no-storms --departures $dep --csv ../out-route.csv
row "plan: past the forecast's end"  5 any "forecast" -- "${pl[@]}" --departures 2099-01-01T00:00Z/2099-01-01T06:00Z/6h --json p.json
row "qlr: no --output"               2 no 'give --bundle' -- "$S" qlr --bundle basic --variable t2m:K
row "qlr: unknown bundle"            2 no "nope" -- "$S" qlr --bundle nope --variable t2m:K -o q.qlr
row "qlr: --run with --layer"        2 no '--run goes with --variable' -- "$S" qlr --bundle basic --layer x --run 2024100100 -o q.qlr
row "qlr: bad --run"                 2 no "run" -- "$S" qlr --bundle basic --variable t2m:K --run yesterday -o q.qlr
row "qlr: --legend -"                2 no '--legend needs a file' -- "$S" qlr --bundle basic --variable t2m:K --legend - -o q.qlr
row "qlr: --legend and --no-legend"  2 no 'not both' -- "$S" qlr --bundle basic --variable t2m:K --legend l.png --no-legend -o q.qlr
row "qlr: -o is a folder"            8 no 'cannot write adir: it is a folder' -- "$S" qlr --bundle basic --variable t2m:K -o adir
row "qlr: read-only folder"          8 no 'cannot write ro/q.qlr: folder ro is not writable' -- unpriv "$S" qlr --bundle basic --variable t2m:K -o ro/q.qlr
row "qlr: legend in a read-only folder" 8 no 'cannot write ro/l.png: folder ro is not writable' -- unpriv "$S" qlr --bundle basic --variable t2m:K --legend ro/l.png -o q.qlr
row "qlr: unknown variable"          5 any "nosuch" -- "$S" qlr --bundle basic --variable nosuch -o q.qlr
check "grib, plan: the route they were told to write over is unchanged" cmp -s "$A" "$T/out-route.csv"

# A device or a pipe as -o is written, never replaced by a regular file.
mkfifo "$T/fifo"
timeout 20 cat "$T/fifo" >"$T/fifo.got" &
reader=$!
"$S" tides hourly --lat 1 --lon 2 --start 2024-01-01 --hours 2 -f csv -o "$T/fifo" 2>"$T/fifo.err"
fifo_rc=$?
wait $reader
check "-o a pipe: written through, still a pipe" sh -c "[ $fifo_rc -eq 0 ] && [ -p '$T/fifo' ] && grep -q '^lat,lon' '$T/fifo.got' && [ ! -e '$T/fifo.tmp' ]"

echo "# the GDAL plugin"
G="SEAWX:bundle=basic,layer=$layer"
row "gdal: unknown bundle"           gdal no "unknown bundle 'nope'" -- gdalinfo "SEAWX:bundle=nope,variable=t2m"
row "gdal: unknown layer"            gdal any "layer 'sof-d/19990101/00/t2m:K' is not in bundle basic" -- gdalinfo "SEAWX:bundle=basic,layer=sof-d/19990101/00/t2m:K"
row "gdal: unknown variable"         gdal any "variable 'nope' is not in bundle basic" -- gdalinfo "SEAWX:bundle=basic,variable=nope"
row "gdal: unknown time"             gdal any 'is not a valid time of layer .*nearest' -- gdal_translate "$G,time=1999-01-01T00:00:00Z" x.tif
row "gdal: unknown style"            gdal any "style 'nope' is not a style of layer" -- gdal_translate "$G,style=nope" x.tif
row "gdal: unsupported CRS"          gdal any "CRS 'EPSG:2154' is not supported" -- gdalinfo "$G,crs=EPSG:2154"
row "gdal: size over the limit"      gdal any 'over the limit' -- gdal_translate "$G,width=5000000" x.tif
row "gdal: block size"               gdal any 'block size 1024 is not 256 or 512' -- gdalinfo "$G,blocksize=1024"
row "gdal: timeout not a number"     gdal no "timeout must be a whole number from 1 to 86400, not 'abc'" -- gdalinfo "$G,timeout=abc"
row "gdal: max_connections 0"        gdal no 'max_connections must be a whole number from 1 to 256' -- gdal_translate "$G,max_connections=0" x.tif
row "gdal: width with junk"          gdal no "width must be a whole number .* not '12abc'" -- gdalinfo "$G,width=12abc"
row "gdal: res nan"                  gdal no "res must be a positive pixel size" -- gdalinfo "$G,res=nan"
row "gdal: cache maybe"              gdal no "cache must be yes or no, not 'maybe'" -- gdalinfo "$G,cache=maybe"
row "gdal: retries in open options"  gdal no "retries must be a whole number from 0 to 100, not '-5'" -- gdalinfo "$G" -oo RETRIES=-5
row "gdal: key= refused"             gdal no 'does not belong in a connection string' -- gdalinfo "SEAWX:bundle=basic,key=abc"
row "gdal: unknown option"           gdal no "unknown option 'colour'" -- gdalinfo "SEAWX:bundle=basic,colour=red"
row "gdal: bad % escape"             gdal no "bad % escape" -- gdalinfo "SEAWX:bundle=basic,variable=%ZZ"
row "gdal: unknown kind"             gdal no "unknown dataset kind 'nonsense'" -- gdalinfo "SEAWX:nonsense"
row "gdal: no key"                   gdal no 'no API key' -- gdal_translate --config SEAWX_API_KEY "" "$G" x.tif
row "gdal: wrong key"                gdal any 'HTTP 401.*SEAWX_API_KEY' -- gdal_translate --config SEAWX_API_KEY wrong-key "$G" x.tif
row "gdal: overviews refused"        gdal any 'BuildOverviews\(\) not supported' -- gdaladdo "$G" 2
row "ogr: storms status"             gdal no "unknown status 'bogus'" -- ogr2ogr -f GPKG x.gpkg "SEAWX:storms,status=bogus"
row "ogr: storms max_storms"         gdal no "max_storms must be a whole number of storms, not 'abc'" -- ogr2ogr -f GPKG x.gpkg "SEAWX:storms,max_storms=abc"
row "ogr: storms wrong option"       gdal no "unknown option 'colour'" -- ogrinfo -ro "SEAWX:storms,colour=red"
row "ogr: tides latitude"            gdal no "lat must be a number from -90 to 90, not '91'" -- ogr2ogr -f GPKG x.gpkg "SEAWX:tides,lat=91,lon=0"
row "ogr: tides hours"               gdal no 'hours .* must be a whole number from 1 to 240' -- ogrinfo -ro "SEAWX:tides,lat=1,lon=2,hours=abc"
row "ogr: weather field mask"        gdal no 'malformed field mask' -- ogrinfo -ro "SEAWX:weather,lat=1,lon=2,fields={data"
row "ogr: vessels page size"         gdal no 'limit must be a whole number from 1 to 1000' -- ogr2ogr -f CSV x.csv "SEAWX:vessels,limit=abc"
row "ogr: tides wrong key"           gdal any 'HTTP 401' -- ogr2ogr --config SEAWX_API_KEY wrong-key -f GPKG x.gpkg "SEAWX:tides,lat=1,lon=2,start=2024-01-01"
row "ogr: storms wrong key"          gdal any 'HTTP 401' -- ogr2ogr --config SEAWX_API_KEY wrong-key -f GPKG x.gpkg "SEAWX:storms"
row "files: name escaping"           gdal no 'file must be a file name from the listing' -- gdalinfo "SEAWX:soil-moisture,file=../../etc/passwd"
row "files: unknown file"            gdal any 'HTTP 404' -- gdalinfo "SEAWX:soil-moisture,file=soil-moisture.20240115.mars.nc"
row "files: option of another kind"  gdal no 'time is not a parameter of soil-moisture file listings' -- gdalinfo "SEAWX:soil-moisture,time=xx"
row "kmz: zip bomb"                  gdal no "inflates [0-9]+ times \(more than 200\): a zip bomb" -- ogrinfo -ro "SEAWX:kmz,path=$T/in/bomb.kmz"
row "kmz: size declared falsely"     gdal no 'fails its CRC check|inflates past its declared size' -- ogrinfo -ro -al "SEAWX:kmz,path=$T/in/lying.kmz"
row "kmz: entry escaping (..)"       gdal no "'../../evil.kml' points outside the archive" -- ogr2ogr -f GPKG x.gpkg "SEAWX:kmz,path=$T/in/escape.kmz"
row "kmz: absolute entry"            gdal no "'/etc/evil.kml' points outside the archive" -- ogrinfo -ro "SEAWX:kmz,path=$T/in/absolute.kmz"
row "kmz: 1002 entries"              gdal no 'more than a KMZ may hold' -- ogrinfo -ro "SEAWX:kmz,path=$T/in/many.kmz"
row "kmz: no KML inside"             gdal no 'holds no .kml document' -- ogrinfo -ro "SEAWX:kmz,path=$T/in/nokml.kmz"
row "kmz: KML with a DOCTYPE"        gdal no "malformed storm KML: entity declarations are not allowed \\(line 2, entity 'a'\\)" -- ogrinfo -ro "SEAWX:kmz,path=$T/in/doctype.kmz"
row "kmz: truncated"                 gdal no 'not a zip archive \(or a truncated one\)' -- ogrinfo -ro "SEAWX:kmz,path=$T/in/truncated.kmz"
row "kmz: empty file"                gdal no 'not a zip archive' -- ogrinfo -ro "SEAWX:kmz,path=$T/in/empty"
row "kmz: binary junk"               gdal no 'not a zip archive' -- ogr2ogr -f GPKG x.gpkg "SEAWX:kmz,path=$T/in/junk.bin"
row "kmz: missing"                   gdal no 'cannot open .*No such file' -- ogrinfo -ro "SEAWX:kmz,path=$T/in/none.kmz"
row "kmz: no path"                   gdal no 'kmz needs the file: SEAWX:kmz,path=' -- ogrinfo -ro "SEAWX:kmz"

echo "# a service answering garbage"
sim_restart_vessels --pexception 1
row "exception: layers"              7 any 'with an exception: temporarily unable to render \(2 attempts\)' -- "$S" layers -b basic --retries 1
row "exception: seed"                7 any 'with an exception' -- "${seed[@]}" "${bbox[@]}" --retries 1 -o s.mbtiles
row "exception: storms"              7 any 'with an exception' -- "$S" storms --retries 1 -o split/
row "exception: gdal_translate"      gdal any 'with an exception' -- gdal_translate "$G,retries=1" x.tif
sim_restart_vessels --ptrunc 1
row "truncated: layers"              6 any 'broke off: transfer closed with [0-9]+ bytes remaining' -- "$S" layers -b basic --retries 1
row "truncated: storms"              6 any 'broke off' -- "$S" storms --retries 1 -o s.geojson
row "truncated: storms --kmz"        6 any 'broke off' -- "$S" storms --kmz s.kmz --retries 1
row "truncated: tides"               6 any 'broke off' -- "$S" tides hourly --lat 1 --lon 2 --start 2024-01-01 --retries 1 -o t.csv
row "truncated: vessels"             6 any 'broke off' -- "$S" vessels --retries 1 -o v.json
row "truncated: soil download"       6 any 'broke off' -- "$S" soil download $soilfile --retries 1
row "truncated: job start"           6 any 'broke off' -- "$S" soil job start --region global --start 2024-01-01 --end 2024-01-02 --retries 1 -o j.nc
row "truncated: gdal_translate"      gdal any 'broke off' -- gdal_translate "$G,retries=1" x.tif
row "truncated: ogr2ogr tides"       gdal any 'broke off' -- ogr2ogr -f GPKG x.gpkg "SEAWX:tides,lat=1,lon=2,start=2024-01-01,retries=1"
row "truncated: ogr2ogr storms"      gdal any 'broke off' -- ogr2ogr -f GeoJSON x.geojson "SEAWX:storms,retries=1"
row "truncated: files listing"       gdal any 'broke off' -- gdalinfo "SEAWX:soil-moisture,retries=1"
sim_restart_vessels

srv_start html --ctype 'text/html; charset=utf-8' --body "$F/errors/html_page.html"
srv_start html500 --status 500 --ctype text/html --body "$F/errors/html_page.html"
srv_start junk --ctype application/json --body "$T/in/junk.bin"
srv_start badxml --ctype text/xml --body "$F/caps/malformed.xml"
srv_start bomb --ctype text/xml --body "$F/caps/bomb.xml"
srv_start xxe --ctype text/xml --body "$F/caps/xxe.xml"
srv_start notcaps --ctype text/xml --body "$F/caps/not_caps.xml"
row "HTML page: layers"              7 any 'expected text/xml.* but got text/html' -- "$S" layers -b basic --base-url "$URL_html"
row "HTML page: seed"                7 any 'but got text/html' -- "${seed[@]}" "${bbox[@]}" --base-url "$URL_html" -o s.mbtiles
row "HTML page: storms"              7 any 'expected application/json .* but got text/html' -- "$S" storms --base-url "$URL_html" -o s.geojson
row "HTML page: storms --kmz"        7 any 'answered with a web page \(text/html' -- "$S" storms --base-url "$URL_html" --kmz s.kmz
row "HTML page: tides"               7 any 'but got text/html' -- "$S" tides hourly --lat 1 --lon 2 --start 2024-01-01 --base-url "$URL_html" -o t.json
row "HTML page: soil download"       7 any 'answered with a web page \(text/html' -- "$S" soil download $soilfile --base-url "$URL_html"
row "HTML page: forecast download"   7 any 'answered with a web page' -- "$S" forecast download x.grib2 --base-url "$URL_html" -o f.grib2
row "HTML page: gdalinfo layers"     gdal any 'but got text/html' -- gdalinfo "SEAWX:bundle=basic,url=$URL_html"
row "HTML page: gdal files"          gdal any 'answered with a web page' -- gdalinfo "SEAWX:soil-moisture,file=soil-moisture.20240116.global.nc,url=$URL_html"
row "HTML 500: layers"               6 any 'HTTP 500 from .*\(2 attempts\)' -- "$S" layers -b basic --base-url "$URL_html500" --retries 1
row "HTML 500: vessels"              6 any 'HTTP 500' -- env SEAWX_VESSELS_URL="$URL_html500" "$S" vessels --retries 1 -o v.json
row "junk JSON: storms"              7 any 'malformed storm JSON at byte 1' -- "$S" storms --base-url "$URL_junk" -o split/
row "junk JSON: tides"               7 any 'the point answer is not valid JSON' -- "$S" tides hourly --lat 1 --lon 2 --start 2024-01-01 --base-url "$URL_junk" -o t.json
row "junk JSON: files listing"       7 any 'the file listing is not valid JSON' -- "$S" soil files --base-url "$URL_junk" -o f.json
row "junk JSON: job"                 7 any 'the job answer is not valid JSON' -- "$S" soil job start --region global --start 2024-01-01 --end 2024-01-02 --base-url "$URL_junk"
row "junk JSON: vessels"             7 any 'the vessels page is not valid JSON' -- env SEAWX_VESSELS_URL="$URL_junk" "$S" vessels -o v.json
row "capabilities: malformed XML"    7 any 'malformed capabilities: line' -- "$S" layers -b basic --base-url "$URL_badxml"
row "capabilities: entity bomb"      7 any 'entity declarations are not allowed' -- "$S" layers -b basic --base-url "$URL_bomb"
row "capabilities: XXE"              7 any 'entity declarations are not allowed' -- "${seed[@]}" "${bbox[@]}" --base-url "$URL_xxe"
row "capabilities: not WMS"          7 any 'not a WMS capabilities document' -- "$S" layers -b basic --base-url "$URL_notcaps"
row "capabilities: gdal, bomb"       gdal any 'entity declarations are not allowed' -- gdal_translate "SEAWX:bundle=basic,variable=t2m:K,url=$URL_bomb" x.tif

# A file host that answers a Range with no progress (hostile_storage.py, in
# front of seawx-sim): one line, exit 7, and at most --retries + 1 requests
# for the file, never the same request without end.
hostile_start() { # MODE
  rm -f "$T/srv-hostile-$1.port"
  $py "$here/hostile_storage.py" "$T/srv-hostile-$1.port" "$SIM_URL" "$1" --log "$T/srv-hostile-$1.log" &
  SRV_PIDS="${SRV_PIDS:-} $!"
  for _ in $(seq 200); do [ -s "$T/srv-hostile-$1.port" ] && break; sleep 0.025; done
  eval "URL_$1=http://127.0.0.1:$(cat "$T/srv-hostile-$1.port")"
}
file_asks() { grep -c ' /forecast/file/' "$T/srv-hostile-$1.log"; }
for mode in empty206 short206 416; do hostile_start "$mode"; done
row "storage: 206 of no byte"        7 any '206 with no byte \(bytes 0--1/9808380\): no progress \(3 attempts\)' -- "${gbox[@]}" --base-url "$URL_empty206" --retries 2 -o g.grb2
check "storage: 206 of no byte: the range asked 3 times, no more" test "$(file_asks empty206)" -eq 3
row "storage: 206 of one byte"       7 any 'answered bytes 0-0 for bytes 0-1023: no progress' -- "${gbox[@]}" --base-url "$URL_short206" --retries 2 -o g.grb2
check "storage: 206 of one byte: the range asked 3 times, no more" test "$(file_asks short206)" -eq 3
row "storage: 416"                   7 any 'HTTP 416 from .*: the byte range asked is not in the file' -- "${gbox[@]}" --base-url "$URL_416" -o g.grb2
# A listing that names first a region not asked for, with hour 0 only: the
# run's hours come from the region that lists the most, not the first named.
hostile_start extraregion
check "a listing naming another region first: the voyage GRIB is built" \
  "$S" grib -q --route "$A" --depart "$SIM_NOW" --speed 6-8 --days 1 --vars prmsl --no-cache \
  --base-url "$URL_extraregion" -o "$T/extra.grb2"
srv_stop_all

check "$ROWS rows run (at least 100)" test "$ROWS" -ge 100
check "nothing was written into the inputs' folder" test "$(ls -A "$T/in")" = "$inputs"
check "seawx-sim was never sent the key where it should not be" sh -c "! grep -q 'storage host received an API key' '$T/sim.log'"
# (The stand-ins' logs are left out: they played the service, and the key is
# in the requests they were sent.)
key_nowhere() {
  local hits
  hits=$(grep -r -l -F --exclude='srv-*.log' -- "$KEY" "$T")
  [ -z "$hits" ] || { echo "  the key is in: $hits"; return 1; }
}
check "the key is nowhere in the work folder" key_nowhere
finish
