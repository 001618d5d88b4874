#!/usr/bin/env bash
# The forecast page of the docs (docs/maplibre/forecast.html, served as it is
# in the repository) in MapLibre GL JS 6.17.0 in headless Chromium (Debian's,
# driven by playwright-core 1.65.1): two valid times of one layer, each seeded
# to its own file with its TileJSON (`seawx tilejson`), and the layer's legend
# (`seawx legend`), given to the page in the reverse of their time order. The
# page orders them by valid time, labels each with its valid time, and shows
# each time's tiles pixel for pixel; "next" and the slider step between them;
# the legend is drawn 1:1 (maplibre/shot_time.js, maplibre/check_time.py).
# shellcheck disable=SC2034 # lib.sh reads it: the stand-in's clock
SIM_NOW=2024-10-01T12:00:00Z
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
S=$SEAWX_CLI
CHROMIUM=${SEAWX_CHROMIUM:-/usr/bin/chromium}
PAGE=$(cd "$here/../.." && pwd)/docs/maplibre/forecast.html

NPM_DIR=${SEAWX_BUILD_DIR:-$T}/npm-maplibre
check "maplibre-gl 6.17.0 and playwright-core installed from the npm registry" maplibre_npm "$NPM_DIR"
check "chromium is installed (scripts/install-deps.sh)" test -x "$CHROMIUM"
check "the forecast page is in the repository" test -f "$PAGE"

# Two valid times of one layer, 6 h apart, and the layer's legend. The area
# covers the zoom 4 tiles of the view below whole (x 6-9, y 4-5).
W=$T/www
mkdir -p "$W"
area=(-b maritime -v swh --bbox -25,40,25,65 -z 3-5 -q)
check "first valid time seeded" "$S" seed "${area[@]}" --time 2024-10-01T12:00:00Z \
  -o "$W/swh-20241001T120000Z.mbtiles"
check "second valid time seeded" "$S" seed "${area[@]}" --time 2024-10-01T18:00:00Z \
  -o "$W/swh-20241001T180000Z.mbtiles"
check "legend written" "$S" legend -b maritime -v swh -o "$W/swh-legend.png"
# MapLibre beside the page, as the docs say; the page is the repository's file.
cp -r "$NPM_DIR/node_modules/maplibre-gl/dist" "$W/maplibre"
ln -s "$PAGE" "$W/forecast.html"

python3 "$here/tile_server.py" "$W" "$T/tport" 2>"$T/tiles.log" &
TILE_PID=$!
trap 'kill $TILE_PID 2>/dev/null; cleanup' EXIT
wait_until 30 test -s "$T/tport" || { echo "tile server did not start"; cat "$T/tiles.log"; exit 1; }
TURL=http://127.0.0.1:$(cat "$T/tport")
for t in 120000 180000; do
  check "tilejson of ${t:0:2}:00Z" "$S" tilejson "$W/swh-20241001T${t}Z.mbtiles" \
    --url "$TURL/tiles/swh-20241001T${t}Z/{z}/{x}/{y}" -o "$W/swh-20241001T${t}Z.json"
done
check "the page served is the repository's" cmp -s "$PAGE" <(curl -sf "$TURL/forecast.html")

# Map zoom 3 draws the 256-pixel tiles of zoom 4 at 1:1; the view's centre is
# the corner of zoom 4 tiles 7-8 and 4-5 (lon 0, lat 55.7766), so that each
# screen pixel is one tile pixel. The times are given latest first.
LAT=$(python3 -c "import math; print(repr(math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * 5 / 16))))))")
URL="$TURL/forecast.html?tilejson=swh-20241001T180000Z.json,swh-20241001T120000Z.json"
URL+="&legend=swh-legend.png&lon=0&lat=$LAT&zoom=3"
shot() {
  node "$here/maplibre/shot_time.js" "$NPM_DIR/node_modules/playwright-core" "$CHROMIUM" \
    "$URL" "$T/time" "$T/profile" 2>"$T/time.err" || { cat "$T/time.err"; return 1; }
}
check "the page shows the first time, then the second (next), then the first (slider)" shot
check "times in order, labels, each time's tiles drawn 1:1, the legend" \
  python3 "$here/maplibre/check_time.py" "$T/time" "$W/swh-20241001T120000Z.mbtiles" \
  "$W/swh-20241001T180000Z.mbtiles" "$W/swh-legend.png"
check "MapLibre loaded itself from beside the page (module and worker)" \
  sh -c "grep -qx /maplibre/maplibre-gl.mjs '$W/requests.log' &&
    grep -qx /maplibre/maplibre-gl-worker.mjs '$W/requests.log'"
check "both times' zoom 4 tiles fetched" \
  sh -c "grep -q '^/tiles/swh-20241001T120000Z/4/' '$W/requests.log' &&
    grep -q '^/tiles/swh-20241001T180000Z/4/' '$W/requests.log'"
[ -n "${SEAWX_KEEP_SHOTS:-}" ] && cp "$T"/time-*.png "$SEAWX_KEEP_SHOTS"/
finish
