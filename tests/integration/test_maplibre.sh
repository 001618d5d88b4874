#!/usr/bin/env bash
# Seeded files in MapLibre GL JS (maplibre-gl 6.17.0 from the npm registry) in
# headless Chromium (Debian's chromium, driven by playwright-core 1.65.1), from
# the TileJSON `seawx tilejson` writes and a tile server on loopback
# (tile_server.py): a webp file's tiles are shown; a file seeded with --clip
# paints nothing outside its bounds, and the same file seeded without it does
# (the control). Screenshots are checked pixel by pixel (maplibre/check.py).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
S=$SEAWX_CLI
CHROMIUM=${SEAWX_CHROMIUM:-/usr/bin/chromium}

NPM_DIR=${SEAWX_BUILD_DIR:-$T}/npm-maplibre
check "maplibre-gl 6.17.0 and playwright-core installed from the npm registry" maplibre_npm "$NPM_DIR"
check "chromium is installed (scripts/install-deps.sh)" test -x "$CHROMIUM"

# Three files of the same area: webp; png clipped; png as the service gives it.
area=(-b basic -v t2m:K --bbox -10,45,10,60 -z 3-5 -q)
W=$T/www
mkdir -p "$W"
check "webp file seeded for MapLibre" "$S" seed "${area[@]}" --viewer maplibre --format webp \
  -o "$W/webp.mbtiles"
check "clipped file seeded" "$S" seed "${area[@]}" --clip -o "$W/clip.mbtiles"
check "unclipped file seeded" "$S" seed "${area[@]}" -o "$W/plain.mbtiles"
cp -r "$NPM_DIR/node_modules/maplibre-gl/dist" "$W/maplibre"
cp "$here/maplibre/index.html" "$W/"

python3 "$here/tile_server.py" "$W" "$T/tport" 2>"$T/tiles.log" &
TILE_PID=$!
trap 'kill $TILE_PID 2>/dev/null; cleanup' EXIT
for _ in $(seq 200); do [ -s "$T/tport" ] && break; sleep 0.025; done
TURL=http://127.0.0.1:$(cat "$T/tport")
for f in webp clip plain; do
  "$S" tilejson "$W/$f.mbtiles" --url "$TURL/tiles/$f/{z}/{x}/{y}" -o "$W/$f.json"
done
check "tilejson: tileSize 256 and the file's bounds" python3 -c "
import json; j=json.load(open('$W/clip.json'))
assert j['tileSize']==256 and j['bounds']==[-10,45,10,60] and j['minzoom']==3 and j['maxzoom']==5 and j['format']=='png', j"

shot() {
  node "$here/maplibre/shot.js" "$NPM_DIR/node_modules/playwright-core" "$CHROMIUM" \
    "$TURL/index.html?tilejson=$1.json&lon=0&lat=52.5&zoom=3" "$T/$1.png" "$T/$1.result.json" \
    "$T/profile-$1" 2>"$T/$1.err" || { cat "$T/$1.err"; return 1; }
}
for f in webp clip plain; do
  check "$f: MapLibre drew it in headless Chromium" shot "$f"
done
check "webp: the tiles are shown over the whole seeded area" \
  python3 "$here/maplibre/check.py" "$T/webp.png" "$T/webp.result.json" --any
check "clip: nothing painted outside the bounds" \
  python3 "$here/maplibre/check.py" "$T/clip.png" "$T/clip.result.json" --clipped
check "unclipped control: tiles paint beyond the bounds" \
  python3 "$here/maplibre/check.py" "$T/plain.png" "$T/plain.result.json" --unclipped
check "MapLibre asked for 256-pixel tiles (zoom 4 at map zoom 3)" \
  grep -q '^/tiles/webp/4/' "$W/requests.log"
check "MapLibre fetched the webp tiles" test "$(grep -c '^/tiles/webp/' "$W/requests.log")" -ge 4
[ -n "${SEAWX_KEEP_SHOTS:-}" ] && cp "$T"/*.png "$SEAWX_KEEP_SHOTS"/
finish
