#!/usr/bin/env bash
# `seawx seed --clip` and the metadata viewers read: pixels outside a bbox,
# polygon or route corridor are fully transparent; tiles wholly inside keep
# the service's bytes (png) and only those across the edge are encoded again;
# a clipped file is never continued unclipped; jpeg is refused before any
# request; name, scale and TileJSON (`seawx tilejson`).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
cd "$T" || exit 1
S=$SEAWX_CLI
meta() { sqlite3 "$1" "select value from metadata where name='$2'"; }
# pixel FILE Z X Y PX PY: the RGBA of one pixel of a stored tile (XYZ row).
pixel() {
  sqlite3 "$1" "select writefile('$T/px.png', tile_data) from tiles where zoom_level=$2 and tile_column=$3 and tile_row=(1<<$2)-1-$4" >/dev/null
  # A palette PNG is expanded to RGBA first.
  gdal_translate -q -of PNG -expand rgba "$T/px.png" "$T/px4.png" 2>/dev/null || cp "$T/px.png" "$T/px4.png"
  gdallocationinfo -valonly "$T/px4.png" "$5" "$6" | tr '\n' ' ' | sed 's/ $//'
}

box=(seed -b basic -v t2m:K --bbox -30,30,30,65 -z 5-6 -q)
check "bbox: clipped png seeds" "$S" "${box[@]}" --clip -o clip.mbtiles
check "bbox: unclipped png seeds" "$S" "${box[@]}" -o plain.mbtiles
same() { sqlite3 clip.mbtiles "attach 'plain.mbtiles' as o; select sum(a.tile_id = b.tile_id), sum(a.tile_id <> b.tile_id), count(*) from map a join o.map b using (zoom_level, tile_column, tile_row)"; }
IFS='|' read -r kept changed both <<<"$(same)"
check "bbox: every tile wholly inside keeps the service's bytes ($kept of $both)" \
  test "$kept" -gt 0 -a "$changed" -gt 0 -a "$both" = "$(sqlite3 plain.mbtiles 'select count(*) from map')"
# Only edge tiles differ: those whose column or row is the first or last of its zoom.
edge_only() {
  sqlite3 clip.mbtiles "attach 'plain.mbtiles' as o;
    with e as (select zoom_level z, min(tile_column) c0, max(tile_column) c1, min(tile_row) r0,
               max(tile_row) r1 from map group by 1)
    select count(*) from map a join o.map b using (zoom_level, tile_column, tile_row)
    join e on e.z = a.zoom_level where a.tile_id <> b.tile_id and a.tile_column not in (c0, c1)
    and a.tile_row not in (r0, r1)" | grep -qx 0
}
check "bbox: only tiles across the edge were encoded again" edge_only
# Zoom 5 tile 13/10 spans 33.75 W..22.5 W: its column 85 (30.01 W..29.97 W) meets the box.
check "bbox: the pixel west of 30 W is fully transparent" test "$(pixel clip.mbtiles 5 13 10 84 128)" = "0 0 0 0"
check "bbox: the pixel at 30 W is kept" test "$(pixel clip.mbtiles 5 13 10 85 128)" = "$(pixel plain.mbtiles 5 13 10 85 128)"
check "bbox: the clip row names the area" sh -c "echo '$(meta clip.mbtiles clip)' | grep -Eqx 'area [0-9a-f]{16}'"
check "bbox: an unclipped file has no clip row" test -z "$(meta plain.mbtiles clip)"

cat >poly.json <<'J'
{"type":"Polygon","coordinates":[[[-20,40],[10,38],[15,60],[-5,62],[-20,40]]]}
J
printf '50.0,-5.0\n45.0,-10.0\n40,-12\n' >route.csv
check "polygon: clipped png8 seeds" "$S" seed -b basic -v t2m:K --area poly.json -z 4-6 -q --clip \
  --format png8 -o poly.mbtiles
check "route: clipped webp seeds" "$S" seed -b basic -v t2m:K --route route.csv --buffer 60 -z 5-7 \
  -q --clip --format webp -o route.mbtiles --metatile 2
# Zoom 4 tile 7/5 spans 22.5 W..0, 41.0 N..55.8 N: its pixel 17,193 (21 W, 45 N) is west of
# the polygon's edge from (20 W, 40 N) to (5 W, 62 N), its pixel 128,193 (11 W, 45 N) inside.
check "polygon: a pixel outside the polygon is transparent" test "$(pixel poly.mbtiles 4 7 5 17 193)" = "0 0 0 0"
check "polygon: a pixel inside is opaque" test "$(pixel poly.mbtiles 4 7 5 128 193 | cut -d' ' -f4)" = 255
check "GDAL opens the clipped files" sh -c "gdalinfo poly.mbtiles >/dev/null && gdalinfo route.mbtiles >/dev/null"

: >"$T/access.log"
"$S" "${box[@]}" -o clip.mbtiles 2>c.err
check "a clipped file continued unclipped: refused" test $? -ne 0
check "a clipped file continued unclipped: says clip" grep -q "clip" c.err
"$S" "${box[@]}" --clip -o plain.mbtiles 2>/dev/null
check "an unclipped file continued clipped: refused" test $? -ne 0
"$S" "${box[@]}" --clip --format jpeg -o j.mbtiles 2>j.err
check "--clip with jpeg: exit 2" test $? -eq 2
check "--clip with jpeg: one line saying why" sh -c "test \$(wc -l <j.err) -eq 1 && grep -q 'JPEG has no transparency' j.err"
check "refused runs fetched no map" test "$(getmaps)" = 0
check "resumed clipped: nothing fetched again" "$S" "${box[@]}" --clip -o clip.mbtiles
check "resumed clipped: no map asked for" test "$(getmaps)" = 0
# What a file was clipped to is its identity: continued with another area (a
# wider buffer around the same route, another bbox) it is refused, as another
# encoding is, and nothing in it changes.
sum0=$(sha256sum <route.mbtiles)
"$S" seed -b basic -v t2m:K --route route.csv --buffer 70 -z 5-7 -q --clip --format webp \
  -o route.mbtiles --metatile 2 2>b.err
rc=$?
check "a clipped file continued with a wider buffer: exit 2, one line naming clip" \
  sh -c "[ $rc -eq 2 ] && [ \$(wc -l <b.err) -eq 1 ] && grep -q \"holds clip 'area [0-9a-f]*', not 'area \" b.err"
"$S" seed -b basic -v t2m:K --bbox -30,30,31,65 -z 5-6 -q --clip -o clip.mbtiles 2>/dev/null
check "a clipped file continued with another bbox: refused" test $? -eq 2
check "refused: the files unchanged, no map asked for" \
  sh -c "[ \"\$(sha256sum <route.mbtiles)\" = '$sum0' ] && [ $(getmaps) -eq 0 ]"
check "the same route and buffer continue it" "$S" seed -b basic -v t2m:K --route route.csv --buffer 60 \
  -z 5-7 -q --clip --format webp -o route.mbtiles --metatile 2

# Metadata: a short name, the full one in description, the scale of the deepest zoom.
check "name: variable and valid time, short" sh -c \
  "meta() { sqlite3 clip.mbtiles \"select value from metadata where name='\$1'\"; }; n=\$(meta name); echo \"\$n\" | grep -Eqx 't2m [0-9]{1,2} [A-Z][a-z]{2} [0-9]{2}:[0-9]{2}Z' && test \${#n} -le 20"
check "description: title, run, valid time and bundle" sh -c "sqlite3 clip.mbtiles \"select value from metadata where name='description'\" | grep -q '^2 metre temperature, run [0-9]\{10\}, valid .*, bundle basic$'"
check "scale: zoom 6 at the equator, 1:8735660" test "$(meta clip.mbtiles scale)" = 8735660
check "scale: 512-pixel tiles halve it" sh -c "'$S' seed -b basic -v t2m:K --bbox 0,40,5,45 -z 3 --tile-size 512 -q -o t512.mbtiles && test \"\$(sqlite3 t512.mbtiles \"select value from metadata where name='scale'\")\" = 34942642"

# TileJSON.
check "tilejson: written" "$S" tilejson clip.mbtiles --url 'http://127.0.0.1:8080/clip/{z}/{x}/{y}.png' -o clip.json
check "tilejson: the file's metadata, tileSize, xyz" python3 -c "
import json, sqlite3
j = json.load(open('clip.json')); m = dict(sqlite3.connect('clip.mbtiles').execute('select name, value from metadata'))
assert j['tilejson'] == '3.0.0' and j['tiles'] == ['http://127.0.0.1:8080/clip/{z}/{x}/{y}.png'], j
assert j['name'] == m['name'] and j['description'] == m['description'] and j['format'] == 'png', j
assert j['bounds'] == [-30, 30, 30, 65] and j['minzoom'] == 5 and j['maxzoom'] == 6, j
assert j['tileSize'] == 256 and j['scheme'] == 'xyz' and j['center'] == [0, 47.5, 5], j
assert json.load(open('/dev/stdin'))['tileSize'] == 512
" < <("$S" tilejson t512.mbtiles --url '{z}/{x}/{y}')
"$S" tilejson clip.mbtiles >/dev/null 2>u.err
check "tilejson: --url required (exit 2)" test $? -eq 2
"$S" tilejson route.csv --url '{z}/{x}/{y}' >/dev/null 2>n.err
check "tilejson: not an MBTiles file (exit 2, one line)" test $? -eq 2 -a "$(wc -l <n.err)" -eq 1
"$S" tilejson missing.mbtiles --url '{z}/{x}/{y}' >/dev/null 2>m.err
check "tilejson: a missing file (exit 8)" test $? -eq 8
check "tilejson: no file left by a failed run" test ! -e bad.json

# The centre of an area across 180 is its middle going east from its west
# edge (170.5 to -171.3: 179.6), in the metadata and the TileJSON; not 0.
check "antimeridian bbox: seeds" "$S" seed -b basic -v t2m:K --bbox 170.5,-20.2,-171.3,10.1 -z 0-1 -q -o am.mbtiles
check "antimeridian bbox: centre 179.6,-5.05 in the metadata" test "$(sqlite3 am.mbtiles "select value from metadata where name='center'")" = "179.600000,-5.050000,0"
check "antimeridian bbox: centre [179.6, -5.05, 0] in the TileJSON" python3 -c "
import json, sys; j = json.load(sys.stdin); assert j['center'] == [179.6, -5.05, 0], j['center']
" < <("$S" tilejson am.mbtiles --url '{z}/{x}/{y}')
check "Pacific route: seeds" "$S" seed -b basic -v t2m:K --route "$SEAWX_FIXTURES/voyage/pacific_180.csv" -z 0-1 -q -o pac.mbtiles
check "Pacific route: the centre is on the route's side of 180 (170 E to 165 W)" python3 -c "
import sqlite3
c = sqlite3.connect('pac.mbtiles').execute(\"select value from metadata where name='center'\").fetchone()[0]
lon, lat = map(float, c.split(',')[:2])
assert lon >= 169 or lon <= -164, c
assert 29 < lat < 36, c"
check "no key in output" no_key_in "$T"/*.err
finish
