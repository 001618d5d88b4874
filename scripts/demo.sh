#!/usr/bin/env bash
# The demo: installs the dependencies, builds, starts seawx-sim on a free
# loopback port and shows the product working against it.
set -eu  # no pipefail: the demo cuts long listings short with head
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" >/dev/null
build=${SEAWX_BUILD_DIR:-$root/build}
seawx=$build/tilecli/seawx
sim=$build/samples/seawx-sim

work=$(mktemp -d /tmp/seawx-demo.XXXXXX)
key=demo-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
"$sim" --port 0 --port-file "$work/port" --key "$key" --access-log "$work/sim-access.log" \
  2>"$work/sim.log" &
sim_pid=$!
trap 'kill $sim_pid 2>/dev/null; wait $sim_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || { echo "seawx-sim did not start" >&2; cat "$work/sim.log" >&2; exit 1; }

export SEAWX_BASE_URL=http://127.0.0.1:$(cat "$work/port")
export SEAWX_API_KEY=$key
step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "$2"; }

step "1. Every bundle's variables, newest complete run" "seawx layers --latest"
"$seawx" layers --latest

step "2. Every run of one variable" "seawx layers --bundle maritime --variable swh"
"$seawx" layers --bundle maritime --variable swh

step "3. The same as JSON" "seawx layers --bundle basic --variable t2m:K --latest --json"
"$seawx" layers --bundle basic --variable t2m:K --latest --json | head -n 30
echo "  ..."

export GDAL_DRIVER_PATH=$build/driver SEAWX_CACHE_DIR=$work/cache
step "4. GDAL sees the service: the bundles, then one bundle's layers" \
  "gdalinfo SEAWX: ; gdalinfo SEAWX:bundle=maritime"
gdalinfo SEAWX: | grep SUBDATASET_ | head -n 4
echo "  ..."
gdalinfo SEAWX:bundle=maritime | grep SUBDATASET_ | head -n 6
echo "  ..."

step "5. A layer to GeoTIFF with gdal_translate (blocks fetched in parallel, with progress)" \
  "gdal_translate SEAWX:bundle=basic,variable=t2m:K,width=2880 t2m.tif"
gdal_translate "SEAWX:bundle=basic,variable=t2m:K,width=2880" "$work/t2m.tif"
gdalinfo "$work/t2m.tif" | grep -E '^Size is|^Origin|^Pixel Size|TIME=|VARIABLE=|RUN='

step "5b. QGIS, headless: the layer by its connection string, rendered; the project keeps no key" \
  "QgsRasterLayer('SEAWX:bundle=basic,variable=t2m:K,run=latest', 'seawx', 'gdal') -> t2m.png, t2m.qgz"
mkdir -p "$work/q"
(cd "$work/q" && HOME=$work/q XDG_RUNTIME_DIR=$work/q QT_QPA_PLATFORM=offscreen \
  /usr/bin/python3 "$root/tests/integration/test_qgis.py" render \
  "SEAWX:bundle=basic,variable=t2m:K,run=latest" "$work/t2m.png" "$work/t2m.qgz" 2>/dev/null)
/usr/bin/python3 - "$work/t2m.qgz" "$key" <<'PY'
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
text = b"".join(z.read(n) for n in z.namelist()).decode("utf-8", "replace")
print("project datasource:", ", ".join(sorted(set(re.findall(r"<datasource>(SEAWX:[^<]*)", text)))))
print("key in the project:", "yes" if sys.argv[2] in text else "no")
PY
echo "rendered map: t2m.png, $(stat -c %s "$work/t2m.png") bytes"

step "5c. QGIS zoomed in on the fine default grid (1/128 degree): the view itself is fetched, as one GetMap" \
  "QgsRasterLayer('SEAWX:bundle=basic,variable=t2m:K', ...) -> a 4 x 3 degree view at 512 x 384 pixels"
getmaps() { grep -c 'request=GetMap' "$work/sim-access.log" 2>/dev/null || true; }
before=$(getmaps)
(cd "$work/q" && HOME=$work/q XDG_RUNTIME_DIR=$work/q QT_QPA_PLATFORM=offscreen SEAWX_CACHE_DIR=$work/cache-view \
  /usr/bin/python3 "$root/tests/integration/test_qgis.py" view "SEAWX:bundle=basic,variable=t2m:K" \
  1 47 5 50 512 384 "$work/t2m-coast.png" 2>/dev/null | sed 's/^/  /')
sleep 0.3 # seawx-sim logs a request once it has answered
echo "rendered view: t2m-coast.png, $(stat -c %s "$work/t2m-coast.png") bytes;" \
  "GetMaps sent: $(($(getmaps) - before)) (2 of the coarsest overview at open, 1 of the view)"

step "5d. The value legend: seawx legend, and the plugin's LEGEND metadata for QGIS's legend image" \
  "seawx legend --bundle basic --variable t2m:K -o t2m-legend.png; gdalinfo -mdd LEGEND SEAWX:bundle=basic,variable=t2m:K"
"$seawx" legend --bundle basic --variable t2m:K -o "$work/t2m-legend.png"
gdalinfo -mdd LEGEND "SEAWX:bundle=basic,variable=t2m:K" | grep -A1 -E '^Metadata \(LEGEND\)|LEGEND_URL' | cut -c1-110
(cd "$work/q" && HOME=$work/q XDG_RUNTIME_DIR=$work/q QT_QPA_PLATFORM=offscreen \
  /usr/bin/python3 "$root/tests/integration/test_qgis.py" legend "SEAWX:bundle=basic,variable=t2m:K" \
  "$work/t2m-qgis-legend.png" 2>/dev/null | sed 's/^/  QGIS: /')

step "5e. The forecast on QGIS's time slider: the seawx QGIS plugin (the zip QGIS's plugin manager installs), its Browser entry, a run added with a double-click, two frames; and seawx qlr for QGIS without the plugin" \
  "unzip seawx-qgis-plugin.zip -d profile/python/plugins; Browser > seawx > maritime > swh > newest run"
mkdir -p "$work/q/plugins" "$work/slider"
/usr/bin/python3 -m zipfile -e "$build/seawx-qgis-plugin.zip" "$work/q/plugins"
(cd "$work/q" && HOME=$work/q XDG_RUNTIME_DIR=$work/q QT_QPA_PLATFORM=offscreen \
  /usr/bin/python3 "$root/scripts/demo_qgis_plugin.py" "$work/q/plugins" maritime swh:m "$work/slider" \
  2>/dev/null | cut -c1-160 | sed 's/^/  /')
echo "key in the saved project: $(grep -c "$key" "$work/slider/slider.qgs" || true) times"
echo "\$ seawx qlr --bundle maritime --variable swh:m -o swh.qlr"
"$seawx" qlr --bundle maritime --variable swh:m -o "$work/swh.qlr"
echo "swh.qlr: $(grep -c '<maplayer ' "$work/swh.qlr") layers, each with its fixed time range; key in it: $(grep -c "$key" "$work/swh.qlr" || true) times"

step "6. Tiles for a ship going offline: the North Sea, zooms 2-7, into MBTiles" \
  "seawx seed --bundle maritime --variable swh --bbox -5,50,10,62 --zoom 2-7 -o swh-{time}.mbtiles"
(cd "$work" && "$seawx" seed --bundle maritime --variable swh --bbox -5,50,10,62 --zoom 2-7 \
  -o 'swh-{time}.mbtiles' --summary-json seed.json)
mb=$(ls "$work"/swh-*.mbtiles | head -n 1)
sqlite3 "$mb" "select name, value from metadata where name in ('name','bounds','minzoom','maxzoom','format')"
echo "tiles stored: $(sqlite3 "$mb" 'select count(*) from tiles'), distinct images: $(sqlite3 "$mb" 'select count(*) from images')"

step "6b. A layer without EPSG:3857 (upper air): fetched in EPSG:4326 and warped into tiles" \
  "seawx seed --bundle upper-air --variable t850:K --bbox -30,45,10,75 --zoom 0-5 -o t850-{time}.mbtiles"
(cd "$work" && "$seawx" seed --bundle upper-air --variable t850:K --bbox -30,45,10,75 --zoom 0-5 \
  -o 't850-{time}.mbtiles')
gdalinfo "$(ls "$work"/t850-*.mbtiles | head -n 1)" | grep -E 'Driver|Size is'

step "6c. A flaky link (5 % 503, 2 % 429, 1 % cut, 1 % exceptions, 1 % dropped, 50 ms): Ctrl-C, then the same command" \
  "seawx seed --bundle basic --variable t2m:K --bbox -5,50,10,62 --zoom 2-9 -o flaky.mbtiles   # twice"
"$sim" --port 0 --port-file "$work/port2" --key "$key" --latency 50 --p5xx 0.05 --p429 0.02 \
  --retry-after 1 --ptrunc 0.01 --pexception 0.01 --pdrop 0.01 --faults-on getmap 2>"$work/sim2.log" &
sim2_pid=$!
trap 'kill $sim_pid $sim2_pid 2>/dev/null; wait $sim_pid $sim2_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$work/port2" ] && break; sleep 0.05; done
flaky=("$seawx" seed --base-url "http://127.0.0.1:$(cat "$work/port2")" --bundle basic --variable t2m:K
  --bbox -5,50,10,62 --zoom 2-9 -o "$work/flaky.mbtiles" --summary-json "$work/flaky.json")
"${flaky[@]}" &
seed_pid=$!
sleep 1.5
kill -INT "$seed_pid" 2>/dev/null || true
set +e
wait "$seed_pid"
echo "first run: exit code $? (interrupted; the file is valid: $(sqlite3 "$work/flaky.mbtiles" 'pragma integrity_check'))"
set -e
"${flaky[@]}"
python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print("second run (--summary-json):", ", ".join("%s %s" % (k, s[k]) for k in ("tiles", "already_present", "stored", "failed", "requests", "retries")))' "$work/flaky.json"
kill "$sim2_pid" 2>/dev/null; wait "$sim2_pid" 2>/dev/null || true; sim2_pid=

step "6d. The same area in every viewer on board: png8 (OpenCPN, QGIS, Signal K, MapLibre), clipped to the area, and the TileJSON MapLibre needs" \
  "seawx seed --bundle maritime --variable swh --bbox -5,50,10,62 --zoom 2-7 --viewer any --clip -o board.mbtiles"
"$seawx" seed --bundle maritime --variable swh --bbox -5,50,10,62 --zoom 2-7 --viewer any --clip \
  -o "$work/board.mbtiles" --summary-json "$work/board.json"
sqlite3 "$work/board.mbtiles" "select name, value from metadata where name in ('name','description','scale','format','clip')"
echo "$(du -k "$work/board.mbtiles" | cut -f1) kB, against $(du -k "$mb" | cut -f1) kB for the service's tiles in step 6"
echo "\$ seawx tilejson board.mbtiles --url 'https://charts.example/board/{z}/{x}/{y}'"
"$seawx" tilejson "$work/board.mbtiles" --url 'https://charts.example/board/{z}/{x}/{y}' |
  python3 -c 'import json, sys; j = json.load(sys.stdin); print({k: j[k] for k in ("name", "tileSize", "bounds", "minzoom", "maxzoom", "format", "tiles")})'

step "6e. The forecast in a web map: two valid times, their TileJSONs (tiles from Signal K's charts plugin on board), the legend, and seawx's MapLibre page that steps through them" \
  "seawx seed ... --time T -o swh-T.mbtiles; seawx tilejson swh-T.mbtiles --url http://SK:3000/signalk/chart-tiles/swh-T/{z}/{x}/{y}; seawx legend -b maritime -v swh"
mkdir -p "$work/web"
first=
# The newest run's 7th and 13th valid times (6 h apart).
for t in $("$seawx" layers --bundle maritime --variable swh --latest --json |
  python3 -c 'import json, sys; t = json.load(sys.stdin)[0]["times"]; print(t[6], t[12])'); do
  f=swh-$(echo "$t" | tr -d ':-')
  "$seawx" seed --bundle maritime --variable swh --bbox -5,50,10,62 --zoom 3-5 --viewer any --clip \
    --time "$t" -q -o "$work/web/$f.mbtiles"
  "$seawx" tilejson "$work/web/$f.mbtiles" \
    --url "http://192.168.1.10:3000/signalk/chart-tiles/$f/{z}/{x}/{y}" -o "$work/web/$f.json"
  first=${first:+$first,}$f.json
done
"$seawx" legend --bundle maritime --variable swh -o "$work/web/swh-legend.png"
cp "$root/docs/maplibre/forecast.html" "$work/web/"
ls "$work/web"
echo "with MapLibre's dist/ as web/maplibre/, served over HTTP: forecast.html?tilejson=$first&legend=swh-legend.png"

step "7. A voyage across the date line, 50 nm corridor: what would be fetched" \
  "seawx seed --bundle basic --variable t2m:K --route route.csv --buffer 50 --zoom 3-8 --dry-run"
printf 'lat,lon\n35.6,139.8\n45.0,170.0\n52.0,-170.0\n47.6,-122.3\n' >"$work/route.csv"
"$seawx" seed --bundle basic --variable t2m:K --route "$work/route.csv" --buffer 50 --zoom 3-8 --dry-run

step "7b. A voyage, Lisbon to the Canaries and on (997 nm at 6-8 kn): each valid time gets only the stretch the ship can be on" \
  "seawx seed --bundle maritime --variable swh --route voyage.csv --buffer 50 --depart TIME --speed 6-8 --time all --zoom 3-6 --dry-run"
printf 'lat,lon\n38.5,-9.5\n36,-14\n33,-20\n30.5,-27\n' >"$work/voyage.csv"
depart=$("$seawx" layers --bundle maritime --variable swh --latest --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["times"][0])')
"$seawx" seed --bundle maritime --variable swh --route "$work/voyage.csv" --buffer 50 \
  --depart "$depart" --speed 6-8 --time all --zoom 3-6 --dry-run |
  awk 'NR <= 9 || /^all|corridor|estimated/ {print} NR == 10 {print "..."}'
echo "\$ seawx seed ... -o 'voyage/swh-{time}.mbtiles'   # the same voyage, seeded: the size against the estimate"
mkdir -p "$work/voyage"
"$seawx" seed --bundle maritime --variable swh --route "$work/voyage.csv" --buffer 50 \
  --depart "$depart" --speed 6-8 --time all --zoom 3-6 -o "$work/voyage/swh-{time}.mbtiles"
echo "$(ls "$work/voyage" | wc -l) files, $(du -cb "$work"/voyage/*.mbtiles | tail -1 | awk '{printf "%.1f MiB", $1 / 1048576}') written"

step "7c. A voyage package for a shore office: wave height, sea temperature and the active storms, quoted, built under 2 MB, opened in QGIS over GSHHG's land" \
  "seawx voyage --bundle maritime --route voyage.csv --depart TIME --speed 10-12 --layer swh --layer sst:zoom=3-4 --zoom 3-5 --storms active --budget 2MB -o package"
"$seawx" voyage --bundle maritime --route "$work/voyage.csv" --depart "$depart" --speed 10-12 \
  --layer swh --layer sst:zoom=3-4 --zoom 3-5 --storms active --dry-run
"$seawx" voyage --bundle maritime --route "$work/voyage.csv" --depart "$depart" --speed 10-12 \
  --layer swh --layer sst:zoom=3-4 --zoom 3-5 --storms active --budget 2MB -q -o "$work/package"
ls -l "$work/package"
ls "$work/package/" | head -4
echo "... $(ls "$work/package/" | wc -l) files, $(du -sbL "$work/package" | cut -f1) bytes"
python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['storms']
print('storms:', s['storms'], 'fetched,', len(s['files']), 'files (' + ', '.join(f['path'] for f in s['files'][:3]) + ', ...); worst on the route:', s['risk']['worst'] or 'none (the stand-in\'s storms are of 2024)')" \
  "$work/package/manifest.json"
if /usr/bin/python3 -c 'import qgis.core' 2>/dev/null; then
  echo "\$ QGIS opens package/project.qgs: each file a layer with its valid time, two times rendered"
  mkdir -p "$work/qhome/run" "$work/shots" && chmod 700 "$work/qhome/run"
  HOME=$work/qhome XDG_RUNTIME_DIR=$work/qhome/run QT_QPA_PLATFORM=offscreen \
    /usr/bin/python3 "$root/tests/integration/package_qgis.py" "$work/package" swh "$work/shots"
fi

step "7d. Beyond one machine: step 6's seed in 4 shards run apart (as a Slurm or Kubernetes array would), then merged" \
  "seawx seed ... --shard K/4 -o 'shards/swh-{time}.shard-{shard}.mbtiles'; seawx merge --shards 4 -o merged.mbtiles 'shards/...{shard}.mbtiles'"
# The layer and time of step 6's file, so that the shards seed the same.
six=$(ls "$work"/swh-*.mbtiles | head -1)
layer6=$(sqlite3 "$six" "SELECT value FROM metadata WHERE name = 'layer'")
time6=$(sqlite3 "$six" "SELECT value FROM metadata WHERE name = 'time'")
mkdir -p "$work/shards"
shard_pids=()
for k in 1 2 3 4; do
  "$seawx" seed --bundle maritime --layer "$layer6" --time "$time6" --bbox -5,50,10,62 --zoom 2-7 \
    --shard "$k/4" -o "$work/shards/swh-{time}.shard-{shard}.mbtiles" -q &
  shard_pids+=($!)
done
for p in "${shard_pids[@]}"; do wait "$p"; done
ls "$work/shards"
name=$(basename "$six" .mbtiles)
echo "\$ seawx merge --shards 4 -o merged.mbtiles 'shards/$name.shard-{shard}.mbtiles'   # with shard 3 away"
mv "$work/shards/$name.shard-3-of-4.mbtiles" "$work/shard3.away"
rc=0
"$seawx" merge --shards 4 -o "$work/merged.mbtiles" "$work/shards/$name.shard-{shard}.mbtiles" || rc=$?
echo "exit code $rc: the shards to run again are listed above, on stdout"
mv "$work/shard3.away" "$work/shards/$name.shard-3-of-4.mbtiles"
echo "\$ seawx merge --shards 4 -o merged.mbtiles 'shards/$name.shard-{shard}.mbtiles'"
"$seawx" merge --shards 4 -o "$work/merged.mbtiles" "$work/shards/$name.shard-{shard}.mbtiles"
q="SELECT hex(sha3_query('SELECT zoom_level, tile_column, tile_row, tile_id FROM map ORDER BY 1, 2, 3'))"
if [ "$(sqlite3 "$work/merged.mbtiles" "$q")" = "$(sqlite3 "$six" "$q")" ]; then
  echo "the merged file holds the same tiles and images as step 6's single run"
else
  echo "the merged file differs from step 6's single run" >&2
  exit 1
fi

step "7e. A fleet: three ships, two on one lane, every ship's package built in one run that asks for each map once" \
  "seawx fleet fleet.json --dry-run; seawx fleet fleet.json -o fleet"
printf 'lat,lon\n38.5,-9.5\n36,-14\n' >"$work/lane.csv"
cat >"$work/fleet.json" <<JSON
{"bundle": "maritime", "layers": ["swh"], "zoom": "3-5",
 "ships": [
  {"name": "aurora", "route": "lane.csv", "depart": "$depart", "speed": "10-12",
   "layers": ["swh", "sst:zoom=3"]},
  {"name": "borealis", "route": "lane.csv", "depart": "$depart", "speed": 9},
  {"name": "castor", "route_csv": "lat,lon\\n36,-14\\n33,-20\\n", "depart": "$depart", "speed": 12}
 ]}
JSON
cat "$work/fleet.json"
"$seawx" fleet "$work/fleet.json" --dry-run
g0=$(grep -c 'request=GetMap' "$work/sim-access.log" || true)
"$seawx" fleet "$work/fleet.json" -o "$work/fleet"
g1=$(grep -c 'request=GetMap' "$work/sim-access.log" || true)
ls -l "$work/fleet"
repeated=$(grep 'request=GetMap' "$work/sim-access.log" | tail -n $((g1 - g0)) | awk '{print $3}' |
  sort | uniq -d | wc -l)
echo "$((g1 - g0)) GetMaps for the fleet, $repeated of them asked twice"

export SEAWX_VESSELS_URL=$SEAWX_BASE_URL
step "8. Active storms as GeoJSON: tracks, forecasts, wind radii, cut at 180 degrees" \
  "seawx storms -o storms.geojson"
"$seawx" storms -o "$work/storms.geojson"
python3 -c "import json,sys,collections; f=json.load(open(sys.argv[1]))['features']; print(dict(collections.Counter(x['properties']['kind'] for x in f)))" "$work/storms.geojson"

step "9. Every North Atlantic storm since 1990 into a GeoPackage, typed fields" \
  "ogr2ogr -f GPKG atlantic.gpkg SEAWX:storms,status=all,region=NA,period=1990-01-01T00:00:00Z/2024-12-31T23:59:59Z"
ogr2ogr -f GPKG "$work/atlantic.gpkg" "SEAWX:storms,status=all,region=NA,period=1990-01-01T00:00:00Z/2024-12-31T23:59:59Z"
ogrinfo -ro -so "$work/atlantic.gpkg" storms | grep -E 'Feature Count|max_sustained_wind|advisory_issuance_time|is_active'

step "10. The service's storm KMZ opened as the same layers" \
  "seawx storms --kmz storms.kmz; ogrinfo SEAWX:kmz,path=storms.kmz"
"$seawx" storms --kmz "$work/storms.kmz"
ogrinfo -ro -so "SEAWX:kmz,path=$work/storms.kmz" | tail -n 5

step "10b. Where not to be: forecast cones, 1-2-3 danger areas, wind swaths; one file per kind, a QGIS layer definition and a project on the time slider" \
  "seawx storms --kinds storm,forecast_line,cone,danger_area,wind_swath -o storms/"
"$seawx" storms --kinds storm,forecast_line,cone,danger_area,wind_swath -o "$work/storms/"
ls "$work/storms"
grep -o '<ProjectTimeSettings timeStep="[0-9]*" timeStepUnit="[a-z]*"\|<TemporalRange>.*</TemporalRange>\|NavigationMode type="int">[0-9]' \
  "$work/storms/seawx_storms.qgs"

step "10c. Route risk: Florida Straits to the Gulf coast, departing 2024-10-08 00:00Z at 10-14 kn, against the active storms" \
  "seawx storms --route gulf.csv --depart 2024-10-08T00:00:00Z --speed 10-14 --segments at_risk.geojson; echo exit \$?"
printf 'lat,lon\n24.0,-79.0\n29.0,-86.0\n' >"$work/gulf.csv"
rc=0
"$seawx" storms --route "$work/gulf.csv" --depart 2024-10-08T00:00:00Z --speed 10-14 \
  --segments "$work/at_risk.geojson" || rc=$?
echo "exit $rc (10 danger area, 11/12/13: 34/50/64-kt winds)"

step "11. Tides at Oslo, hourly" "seawx tides hourly --lat 59.91 --lon 10.75 --start 2024-01-15 --hours 12"
"$seawx" tides hourly --lat 59.91 --lon 10.75 --start 2024-01-15 --hours 12 -f table

step "12. Current weather, reduced to two fields by an X-Fields mask" \
  "seawx weather point --lat 59.91 --lon 10.75 --fields '{data{values{air_temperature,wind_speed}}}'"
"$seawx" weather point --lat 59.91 --lon 10.75 --fields '{data{values{air_temperature,wind_speed}}}' -f table

step "13. A historical soil-moisture job, from start to a NetCDF file GDAL reads" \
  "seawx soil job start --region global --start 2024-01-01 --end 2024-01-31 -o job.nc"
"$seawx" soil job start --region global --start 2024-01-01 --end 2024-01-31 -o "$work/job.nc"
gdalinfo "$work/job.nc" | grep 'SUBDATASET_.*_NAME' | head -n 4

step "13b. The service's forecast GRIB2: a maritime file of the North Atlantic, its messages (wave height, direction, period), read by ecCodes and GDAL" \
  "seawx forecast files --bundles maritime --regions north-atlantic ; seawx forecast download NAME"
fc=$("$seawx" forecast files --bundles maritime --regions north-atlantic -f json |
  python3 -c "import json, sys; print([f['name'] for f in json.load(sys.stdin)['data'] if f['name'].endswith('.f024.grib2')][0])")
"$seawx" forecast download "$fc" -o "$work/$fc" -q
grib_ls -p shortName,dataDate,dataTime,stepRange,packingType,Ni,Nj "$work/$fc"
gdalinfo "$work/$fc" | grep -E 'GRIB_(ELEMENT|COMMENT)=' | head -n 6

step "13c. A voyage GRIB for the routing software on board (OpenCPN, XyGrib) and QGIS: 5 days of wind and pressure, per time only where the ship can be; one grid every viewer draws right, a grid a time for OpenCPN alone" \
  "seawx grib --route voyage.csv --depart TIME --speed 6-8 --days 5 -o voyage.grb2 (after its --dry-run), then as GRIB1 compressed (.grb.bz2), --viewer opencpn, and a Saildocs-style box"
gdepart=$(date -u +%Y-%m-%dT%H:00:00Z)
"$seawx" grib --route "$work/voyage.csv" --depart "$gdepart" --speed 6-8 --days 5 --dry-run
"$seawx" grib --route "$work/voyage.csv" --depart "$gdepart" --speed 6-8 --days 5 -o "$work/voyage.grb2"
"$seawx" grib --route "$work/voyage.csv" --depart "$gdepart" --speed 6-8 --days 5 -o "$work/voyage.grb.bz2"
"$seawx" grib --route "$work/voyage.csv" --depart "$gdepart" --speed 6-8 --days 5 --viewer opencpn -o "$work/voyage-ocpn.grb2" -q
"$seawx" grib --route "$work/voyage.csv" --depart "$gdepart" --speed 6-8 --days 5 --cut window -o "$work/refused.grb2" ||
  echo "  (refused: QGIS and GDAL would draw a grid a time in the wrong place)"
"$seawx" grib --bbox -28.5,29.5,-8,40 --hours 0-120 --vars wind,prmsl -o "$work/box.grb2" -q
grib_ls -p shortName,dataDate,dataTime,stepRange,Ni,Nj,numberOfMissing,packingType,totalLength "$work/voyage.grb2" | head -n 8
echo "  ..."
printf '  voyage.grb2 (one grid: OpenCPN, XyGrib, QGIS, GDAL) %s bytes, voyage-ocpn.grb2 (a grid a time) %s bytes, voyage.grb.bz2 (GRIB1, bzip2, a grid a time) %s bytes; a Saildocs-style box of hours 0-120 %s bytes\n' \
  "$(stat -c %s "$work/voyage.grb2")" "$(stat -c %s "$work/voyage-ocpn.grb2")" "$(stat -c %s "$work/voyage.grb.bz2")" "$(stat -c %s "$work/box.grb2")"

step "13d. Which day to leave: 28 departures 6 h apart from now on step 7b's voyage at 6-8 kn, sailed through the forecast along it and past the storms, best first" \
  "seawx plan --route voyage.csv --departures FROM/TO/6h --speed 6-8 --max-wind 25kn --max-wave 4m --best --chart plan.png"
# A week of departures from the next 6-hour mark of step 13c's clock (the hour now).
read -r pfrom pto < <(python3 -c "
import datetime as d
t = d.datetime.strptime('$gdepart', '%Y-%m-%dT%H:%M:%SZ')
t += d.timedelta(hours=-t.hour % 6)
print(t.strftime('%Y-%m-%dT%H:%MZ'), (t + d.timedelta(hours=27 * 6)).strftime('%Y-%m-%dT%H:%MZ'))")
"$seawx" plan --route "$work/voyage.csv" --departures "$pfrom/$pto/6h" --speed 6-8 \
  --max-wind 25kn --max-wave 4m --best --chart "$work/plan.png"
python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); print('the chart: plan.png, %d x %d pixels, %s bytes' % (struct.unpack('>II', d[16:24]) + (sys.argv[2],)))" \
  "$work/plan.png" "$(stat -c %s "$work/plan.png")"

step "13e. Which way: the fastest route from Lisbon to Madeira through the forecast, by a polar, never over land" \
  "seawx route --from 38.6,-9.6 --to 32.6,-17.0 --polar cruiser.pol --speed 5 --motor-below 6kn --gpx madeira.gpx --isochrones iso.geojson --chart madeira.png"
cat >"$work/cruiser.pol" <<'POL'
TWA\TWS	6	10	16	25
45	4.6	6.2	7.0	7.2
60	5.5	6.9	7.5	7.8
90	5.6	7.2	8.0	8.6
120	5.2	7.0	8.1	9.5
150	4.0	5.9	7.4	8.8
180	3.3	5.0	6.7	7.9
POL
"$seawx" route --from 38.6,-9.6 --to 32.6,-17.0 --polar "$work/cruiser.pol" --speed 5 \
  --motor-below 6kn --gpx "$work/madeira.gpx" --isochrones "$work/iso.geojson" \
  --chart "$work/madeira.png" | tail -n 6
printf '  madeira.gpx: a route of %s points; iso.geojson: %s isochrones; madeira.png: %s bytes\n' \
  "$(grep -c '<rtept' "$work/madeira.gpx")" "$(grep -o '"LineString"' "$work/iso.geojson" | wc -l)" \
  "$(stat -c %s "$work/madeira.png")"

step "13f. Which day and which way: three departures 12 h apart from Lisbon to Madeira, each also sailed on its own fastest route" \
  "seawx plan --route madeira.csv --departures FROM/TO/12h --polar cruiser.pol --speed 5 --routed"
printf 'lat,lon\n38.6,-9.6\n32.6,-17.0\n' >"$work/madeira.csv"
rto=$(python3 -c "
import datetime as d
print((d.datetime.strptime('$pfrom', '%Y-%m-%dT%H:%MZ') + d.timedelta(hours=24)).strftime('%Y-%m-%dT%H:%MZ'))")
"$seawx" plan --route "$work/madeira.csv" --departures "$pfrom/$rto/12h" --polar "$work/cruiser.pol" \
  --speed 5 --routed

step "13g. A package along the fastest route: the route found from Lisbon to Madeira, then the package built along it" \
  "seawx voyage --bundle maritime --route madeira.csv --depart TIME --speed 6 --routed --layer swh --zoom 3-4 -o madeira-pkg"
"$seawx" voyage --bundle maritime --route "$work/madeira.csv" --depart "$pfrom" --speed 6 --routed \
  --layer swh --zoom 3-4 -o "$work/madeira-pkg" -q
python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))['features'][0]
t = p['properties']['times']
print('  madeira-pkg/route.geojson: the route found, %d points from %s to %s' % (len(t), t[0], t[-1]))" \
  "$work/madeira-pkg/route.geojson"

step "14. Vessels' enhanced data, paged and flattened" "seawx vessels --categories capacity,dimensions"
"$seawx" vessels --categories capacity,dimensions -f table | head -n 8

step "15. Files and point series in GDAL" \
  "gdalinfo SEAWX:soil-moisture ; ogrinfo SEAWX:tide-extrema,lat=59.91,lon=10.75,start=2024-01-15,end=2024-01-17"
gdalinfo SEAWX:soil-moisture | grep SUBDATASET_ | head -n 4
ogrinfo -ro -al -q "SEAWX:tide-extrema,lat=59.91,lon=10.75,start=2024-01-15,end=2024-01-17" | head -n 12

step "16. A wrong key: one clear line, exit code 4" "SEAWX_API_KEY=wrong seawx layers --bundle basic"
set +e
SEAWX_API_KEY=wrong "$seawx" layers --bundle basic
echo "exit code: $?"
set -e
echo
echo "Demo finished against seawx-sim at $SEAWX_BASE_URL."
