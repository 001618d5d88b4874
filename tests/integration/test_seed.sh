#!/usr/bin/env bash
# `seawx seed` end to end against seawx-sim: tile counts against independent
# tile math, GDAL opens the file, metadata, tiles equal GetMap of their bounds
# (TMS rows), a route across 180, two times, bad input, permanent errors.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start --deny-bundle agricultural
chk="python3 $here/seed_check.py"
F=$SEAWX_FIXTURES/seed
cd "$T" || exit 1

# 1. A bbox at zooms 0-5.
check "bbox 0-5 seeds" sh -c "'$SEAWX_CLI' seed -b basic -v t2m:K --bbox -10,40,5,55 -z 0-5 -m 2 \
  -o '$T/box-{time}.mbtiles' --summary-json '$T/box.json' 2>'$T/box.err'"
box=$(ls "$T"/box-*.mbtiles | head -1)
check "tile count per zoom equals the tile math" $chk count "$box" 0 5 -10 40 5 55
check "metadata, application_id, rollback journal, integrity" $chk meta "$box"
check "no -wal, -shm or -journal left" sh -c "! ls '$box'-* 2>/dev/null | grep -q ."
check "GDAL's MBTiles driver opens it" sh -c "gdalinfo '$box' | grep -q 'Driver: MBTiles'"
check "a tile at each zoom equals GetMap of its bounds (rows TMS-flipped)" \
  $chk compare "$box" "$SIM_URL" "$KEY" 0 5
check "progress and summary on stderr" grep -q '19/19 tiles' "$T/box.err"
check "not a terminal: plain lines, no carriage return or escape" sh -c "! grep -q \"\$(printf '[\\r\\033]')\" '$T/box.err'"
# On a terminal (script(1) gives it one) the progress line rewrites itself.
check "on a terminal: one progress line rewritten in place" sh -c "script -qec \"'$SEAWX_CLI' seed -b basic -v t2m:K \
  --bbox -10,40,5,55 -z 0-5 -o '$T/tty.mbtiles'\" /dev/null >'$T/tty.out' 2>&1 &&
  grep -q \"\$(printf '\\rseawx: ')\" '$T/tty.out' && grep -q \"\$(printf '\\033\\[K')\" '$T/tty.out' &&
  grep -q '19/19 tiles' '$T/tty.out'"
check "summary JSON" python3 -c "import json,sys; s=json.load(open('$T/box.json')); assert s['tiles']==19 and s['stored']==19 and s['failed']==0 and s['exit_code']==0 and s['files'][0]['complete']"
check "the key is in no output" no_key_in "$T/box.err" "$T/box.json" "$box"

# The same with one tile per GetMap and 512-pixel tiles.
check "metatile 1 seeds" sh -c "'$SEAWX_CLI' seed -b basic -v t2m:K --bbox -10,40,5,55 -z 2-4 -m 1 -q \
  -o '$T/m1.mbtiles' 2>'$T/m1.err'"
check "metatile 1: the same tile set" $chk count "$T/m1.mbtiles" 2 4 -10 40 5 55
check "--quiet prints nothing" test ! -s "$T/m1.err"
check "512-pixel tiles seed" sh -c "'$SEAWX_CLI' seed -b maritime -v swh --bbox 170,-20,-170,10 -z 1-4 \
  --tile-size 512 -q -o '$T/x512.mbtiles'"
check "across 180: the tile math of a crossing bbox" $chk count "$T/x512.mbtiles" 1 4 170 -20 -170 10

# 2. A route across 180 with a 50 nm buffer.
check "route across 180 seeds" sh -c "'$SEAWX_CLI' seed -b basic -v t2m:K --route '$F/route_180.geojson' \
  --buffer 50 -z 0-7 -m 4 -q -o '$T/route.mbtiles'"
check "route: exactly the tiles an independent computation expects" \
  $chk route "$T/route.mbtiles" "$F/route_180.geojson" 50 0 7
check "route from CSV waypoints: the same tiles" sh -c "'$SEAWX_CLI' seed -b basic -v t2m:K \
  --route '$F/route_180.csv' --buffer 50 -z 0-7 -q -o '$T/route_csv.mbtiles' && \
  [ \"\$(sqlite3 '$T/route.mbtiles' 'select zoom_level,tile_column,tile_row from map order by 1,2,3' | md5sum)\" = \
    \"\$(sqlite3 '$T/route_csv.mbtiles' 'select zoom_level,tile_column,tile_row from map order by 1,2,3' | md5sum)\" ]"
check "area polygon seeds" sh -c "'$SEAWX_CLI' seed -b basic -v t2m:K --area '$F/area_north_sea.geojson' \
  -z 3-6 -q -o '$T/area.mbtiles'"

# 3. Two times, two files with different contents.
times=$("$SEAWX_CLI" layers -b basic -v t2m:K --latest --json | python3 -c "import json,sys; l=json.load(sys.stdin)[0]; print(l['times'][3]+','+l['times'][9])")
check "two times seed" sh -c "'$SEAWX_CLI' seed -b basic -v t2m:K --time '$times' --bbox -10,40,5,55 -z 0-4 -q \
  -o '$T/two-{time}.mbtiles'"
check "two files" test "$(ls "$T"/two-*.mbtiles | wc -l)" -eq 2
check "with different contents" $chk differ $(ls "$T"/two-*.mbtiles)
check "several times without {time} are refused" sh -c "! '$SEAWX_CLI' seed -b basic -v t2m:K --time '$times' \
  --bbox -10,40,5,55 -z 0-2 -o '$T/same.mbtiles' 2>/dev/null && test ! -e '$T/same.mbtiles'"
check "another time into an existing file is refused" sh -c "! '$SEAWX_CLI' seed -b basic -v t2m:K \
  --time '${times%%,*}' --bbox -10,40,5,55 -z 0-2 -q -o '$box' 2>'$T/mix.err' && grep -q 'already holds' '$T/mix.err'"

# 4. Bad input: one line, non-zero exit, no GetMap, no file.
bad() {
  local want=$1
  shift
  local before after
  before=$(getmaps)
  "$SEAWX_CLI" seed "$@" -o "$T/bad.mbtiles" 2>"$T/bad.err"
  local rc=$?
  after=$(getmaps)
  [ "$rc" -eq "$want" ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] && [ "$before" = "$after" ] &&
    [ ! -e "$T/bad.mbtiles" ] || { echo "exit $rc, want $want: $(cat "$T/bad.err")"; return 1; }
}
echo '{"type":"Polygon","coordinates":[[[0,0],[1,1]]]}' >"$T/bad_area.json"
printf 'lat,lon\n40,170\n95,10\n' >"$T/bad_route.csv"
check "malformed bbox" bad 2 -b basic -v t2m:K --bbox 10,40,5 -z 0-3
check "bbox with minlat > maxlat" bad 2 -b basic -v t2m:K --bbox 0,50,5,40 -z 0-3
check "malformed zoom" bad 2 -b basic -v t2m:K --bbox 0,40,5,50 -z 9-3
check "malformed area file" bad 2 -b basic -v t2m:K --area "$T/bad_area.json" -z 0-3
check "malformed route file" bad 2 -b basic -v t2m:K --route "$T/bad_route.csv" -z 0-3
check "missing route file" bad 8 -b basic -v t2m:K --route "$T/nope.csv" -z 0-3
check "a time the layer does not have" bad 5 -b basic -v t2m:K --time 1999-01-01T00:00:00Z --bbox 0,40,5,50 -z 0-3
check "an unknown variable" bad 5 -b basic -v nosuch --bbox 0,40,5,50 -z 0-3
check "an unknown style" bad 5 -b basic -v t2m:K --style nope/nearest --bbox 0,40,5,50 -z 0-3
check "an output folder that does not exist" sh -c "'$SEAWX_CLI' seed -b basic -v t2m:K --bbox 0,40,5,50 -z 0-3 \
  -o '$T/no/such/dir/x.mbtiles' 2>'$T/dir.err'; test \$? -eq 8 && grep -q 'does not exist' '$T/dir.err'"
check "a bundle outside the subscription stops at once (403)" bad 4 -b agricultural -v t2m --bbox 0,40,5,50 -z 0-3
check "a rejected key stops at once (401)" sh -c "SEAWX_API_KEY=wrong '$SEAWX_CLI' seed -b basic -v t2m:K \
  --bbox 0,40,5,50 -z 0-3 -o '$T/k.mbtiles' 2>'$T/k.err'; test \$? -eq 4 && test ! -e '$T/k.mbtiles' && grep -q 401 '$T/k.err'"

# 5. --dry-run counts the tiles, measures the size on sample tiles (at most 8
# one-tile GetMaps a zoom, in a temporary file removed after) and writes no
# file. Its estimate is held against the bytes the same seed then writes:
# within 10 %, inside the range it gives (a constant per tile quoted 13.6 MiB
# for 7.4 MiB written).
mkdir -p "$T/tmp"
before=$(getmaps)
check "dry run prints the tiles per zoom" sh -c "TMPDIR='$T/tmp' '$SEAWX_CLI' seed -b basic -v t2m:K \
  --bbox -10,40,5,55 -z 0-5 -n -o '$T/dry.mbtiles' | grep -qE '^ +all +19 '"
check "dry run: at most 8 one-tile GetMaps a zoom, no file, no sample left" sh -c "
  test \$(grep request=GetMap '$T/access.log' | tail -n +\$(($before + 1)) | grep -ci 'width=256&height=256') -eq \
    \$((\$(grep -c request=GetMap '$T/access.log') - $before)) &&
  test \$((\$(grep -c request=GetMap '$T/access.log') - $before)) -le 48 &&
  test ! -e '$T/dry.mbtiles' && test -z \"\$(ls -A '$T/tmp')\""
quote_holds() {
  local name=$1
  shift
  "$SEAWX_CLI" seed "$@" -n -o "$T/$name-{time}.mbtiles" >"$T/$name.dry" &&
    "$SEAWX_CLI" seed "$@" -q -o "$T/$name-{time}.mbtiles" || return 1
  python3 - "$T/$name.dry" "$T"/"$name"-*.mbtiles <<'PY'
import os, re, sys
line = [l for l in open(sys.argv[1]) if l.startswith("estimated size")][0]
about, low, high = (float(x) for x in re.search(
    r"about ([0-9.]+) MiB \(likely ([0-9.]+) to ([0-9.]+)\)", line).groups())
written = sum(os.path.getsize(f) for f in sys.argv[2:]) / 1048576
print("# %s: quoted %.2f MiB (%.2f to %.2f), written %.2f MiB (%+.1f %%)"
      % (os.path.basename(sys.argv[1]), about, low, high, written, 100 * (about / written - 1)))
assert abs(about / written - 1) <= 0.10 and low <= written <= high, line
PY
}
check "dry run's size: within 10 % of a box's png tiles, and inside its range" \
  quote_holds q1 -b basic -v t2m:K --bbox -20,35,20,60 -z 0-7
swh_times=$("$SEAWX_CLI" layers -b maritime -v swh --latest --json | python3 -c "import json,sys; l=json.load(sys.stdin)[0]; print(','.join(l['times'][0:12:3]))")
check "dry run's size: within 10 % of a sea layer's webp tiles over land and sea, 4 times" \
  quote_holds q2 -b maritime -v swh --bbox -20,35,20,60 -z 2-7 --format webp --time "$swh_times"
# 6. One grammar for the run, as the plugin's run=: YYYYMMDDHH or an ISO 8601 instant.
run1=$("$SEAWX_CLI" layers -b basic -v t2m:K --json | python3 -c "import json,sys; print(sorted({l['run'] for l in json.load(sys.stdin)})[0])")
runh=$(echo "$run1" | sed 's/[-:]//g; s/T\([0-9][0-9]\).*/\1/')
check "--run as an ISO 8601 instant seeds that run ($run1)" sh -c "'$SEAWX_CLI' seed -b basic -v t2m:K --run '$run1' \
  --bbox 0,40,5,50 -z 2 -q -o '$T/iso.mbtiles' && sqlite3 '$T/iso.mbtiles' \"select value from metadata where name='run'\" | grep -qx '$runh'"
check "--run YYYYMMDDHH: the same layer" sh -c "'$SEAWX_CLI' seed -b basic -v t2m:K --run '$runh' \
  --bbox 0,40,5,50 -z 2 -q -o '$T/hh.mbtiles' && test \"\$(sqlite3 '$T/iso.mbtiles' \"select value from metadata where name='layer'\")\" = \"\$(sqlite3 '$T/hh.mbtiles' \"select value from metadata where name='layer'\")\""
check "the plugin's run= opens the same run" sh -c "gdalinfo 'SEAWX:bundle=basic,variable=t2m:K,run=$run1' 2>/dev/null | grep -q 'LAYER=.*/$(echo $runh | cut -c1-8)/$(echo $runh | cut -c9-10)/t2m:K'"
finish
