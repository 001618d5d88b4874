#!/usr/bin/env bash
# The key stays secret (issue 7). A recognisable key (and WMS Basic password)
# goes through every subcommand and every driver path that talks to the
# service, in each of the three WMS auth modes (header, query, basic), on
# success and on failure, and must then be in no stdout, stderr, output file,
# GDAL metadata, .aux.xml, VRT, cache file name or content, debug output or
# QGIS project (seawx grib, plan and qlr too), and in no request to a host
# other than the service's:
#   - seawx-sim's storage host (127.0.0.2, where downloads redirect) refuses and
#     reports any request carrying the key, and its access log shows the auth
#     form each request used;
#   - a second stand-in (capture_server.py on 127.0.0.1) plays the service and
#     redirects every request to a foreign host (capture_server.py on 127.0.0.3)
#     that records each request whole, Basic credentials decoded; a control run
#     shows that host would see the key if it were sent there.
# At the end the whole work folder is searched for the key.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
py=/usr/bin/python3 # Debian's, where python3-qgis lives
if ! "$py" -c 'import qgis.core' 2>/dev/null; then
  echo "python3-qgis missing: run scripts/install-deps.sh"
  exit 1
fi
KEY="sk-LEAKCANARY-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
PW="pw-LEAKCANARY-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
S=$SEAWX_CLI
export SEAWX_SIM_JOB_MS=600
sim_again() { # seawx-sim options...: (re)starts it; sim_start unsets the auth settings
  if [ -n "$SIM_PID" ]; then kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null; fi
  rm -f "$T/port"
  sim_start --basic-password "$PW" "$@"
  export SEAWX_VESSELS_URL=$SIM_URL SEAWX_WMS_PASSWORD=$PW
}
sim_again --deny-bundle agricultural
export SEAWX_CACHE_DIR=$T/cache GDAL_PAM_ENABLED=YES
# QGIS keeps settings and caches under the home folders: keep them here too.
mkdir -p "$T/home" "$T/run" && chmod 700 "$T/run"
export HOME=$T/home XDG_CONFIG_HOME=$T/home/.config XDG_DATA_HOME=$T/home/.local/share \
  XDG_CACHE_HOME=$T/home/.cache XDG_RUNTIME_DIR=$T/run QT_QPA_PLATFORM=offscreen

# Names of files and folders under the paths, and their contents (binary
# files too: MBTiles, GeoPackage, GeoTIFF, KMZ), that hold the key or the
# password, in plain or URL-encoded form (both canaries are URL-safe).
secrets_in() {
  { grep -r -l -a -F -e "$KEY" -e "$PW" -- "$@"; find "$@" | grep -F -e "$KEY" -e "$PW"; } 2>/dev/null
}
clean() { # PATHS...
  local hits
  hits=$(secrets_in "$@")
  [ -z "$hits" ] || { echo "  the key is in: $hits"; return 1; }
}

wrote() { # FOLDER FILES...
  local d=$1 f
  shift
  for f in "$@"; do [ -s "$d/$f" ] || { echo "  $d/$f is missing"; return 1; }; done
}

RUNS=0
BAD=0
run() { # WANT NAME CMD...  WANT: 0, "fail" (any non-zero exit) or "any"
  local want=$1 name=$2
  shift 2
  RUNS=$((RUNS + 1))
  "$@" >"$name.out" 2>"$name.err"
  local rc=$?
  if { [ "$want" = 0 ] && [ $rc -ne 0 ]; } || { [ "$want" = fail ] && [ $rc -eq 0 ]; }; then
    BAD=$((BAD + 1))
    echo "  $name: exit $rc"
    sed 's/^/    /' "$name.err" | head -3
  fi
}

soil=soil-moisture.20240115.global.nc
cwc=cwc.20240115.t00z.0p027.basic.global.grib2
fc=$("$S" forecast files --bundles basic -f json | python3 -c "import json,sys; print(json.load(sys.stdin)['data'][0]['name'])")
layer=$("$S" layers -b basic --variable t2m:K --latest --json | python3 -c "import json,sys; print(json.load(sys.stdin)[0]['name'])")
R="SEAWX:bundle=basic,variable=t2m:K,run=latest"
# seawx plan's departures: from the stand-in's newest run (its clock is fixed), 6 h apart.
dep=$(python3 -c "
import datetime as d
run = d.datetime.strptime('$SIM_NOW', '%Y-%m-%dT%H:%M:%SZ') - d.timedelta(hours=4)
run = run.replace(hour=run.hour // 6 * 6, minute=0, second=0)
print(run.strftime('%Y-%m-%dT%H:%MZ') + '/' + (run + d.timedelta(hours=6)).strftime('%Y-%m-%dT%H:%MZ') + '/6h')")
plan=("$S" plan --route "$SEAWX_FIXTURES/voyage/atlantic_1000nm.csv" --departures "$dep" --speed 8 --spacing 200)

every_path() { # MODE: every command and driver path against seawx-sim
  local m=$1
  export SEAWX_WMS_AUTH=$m
  mkdir -p "$T/$m/dl" && cd "$T/$m" || exit 1
  # seawx
  run 0 layers "$S" layers -b basic
  run 0 layers-json "$S" layers -b basic --variable t2m:K --json
  run fail layers-all "$S" layers --latest --json # agricultural: 403
  run 0 seed "$S" seed -b basic -v t2m:K --bbox 0,40,10,50 -z 2-3 -o seed.mbtiles --summary-json seed.json
  run 0 seed-dry "$S" seed -b maritime -v swh --bbox 0,40,10,50 -z 2-4 --dry-run
  run fail seed-bad "$S" seed -b basic -v t2m:K -t 1999-01-01T00:00:00Z --bbox 0,40,10,50 -z 2
  run 0 storms "$S" storms -o storms.geojson
  run 0 storms-split "$S" storms --status all --max-storms 20 -o split/
  run 0 storms-kmz "$S" storms --kmz storms.kmz
  run 0 tides "$S" tides hourly --lat 59.9 --lon 10.7 --start 2024-01-01 --hours 6 -o tides.csv
  run 0 extrema "$S" tides extrema --lat 59.9 --lon 10.7 --start 2024-03-01 --end 2024-03-03 -o extrema.geojson
  run 0 weather "$S" weather point --lat 59.9 --lon 10.7 --fields '{data{values{air_temperature}}}' -o weather.json
  run 0 forecast "$S" forecast point --lat 1.29 --lon 103.85 --bundles basic -o forecast.json
  run 0 soil "$S" soil point --lat 52.5 --lon 13.4 -f csv
  run 0 soil-history "$S" soil history --lat 52.5 --lon 13.4 --start 2024-01-01 --end 2024-01-03 -o history.json
  run 0 soil-files "$S" soil files -o soil-files.json
  run 0 weather-files "$S" weather files --regions global -f csv
  run 0 forecast-files "$S" forecast files --bundles basic -o forecast-files.geojson
  run 0 soil-download "$S" soil download $soil
  run 0 weather-download "$S" weather download $cwc --dir dl
  run 0 forecast-download "$S" forecast download "$fc" -o fc.grib2
  run fail download-404 "$S" soil download soil-moisture.20240115.mars.nc
  run 0 job "$S" soil job start --region global --start 2024-01-01 --end 2024-01-05 --poll 1 -o job.nc
  local uuid
  uuid=$(cat job.out)
  run 0 job-status "$S" soil job status "$uuid"
  run 0 job-watch "$S" soil job watch "$uuid" -o job-watch.nc
  run 0 job-download "$S" soil job download "$uuid" --dir dl
  run fail job-unknown "$S" soil job status 00000000-0000-4000-a000-000000000000
  run 0 vessels "$S" vessels -o vessels.csv
  run 0 grib "$S" grib --bbox -40,40,-38,42 --hours 0 --vars prmsl -o g.grb2.bz2
  run fail grib-norun "$S" grib --bbox -40,40,-38,42 --hours 0 --vars prmsl --run 1999-01-01T00:00:00Z -o no.grb2
  run 0 plan "${plan[@]}" --json plan.json --csv plan.csv --chart plan.png
  run fail plan-past "$S" plan --route "$SEAWX_FIXTURES/voyage/atlantic_1000nm.csv" --departures 2099-01-01T00:00Z/2099-01-01T06:00Z/6h --speed 8 --spacing 200 --json no.json
  run 0 qlr "$S" qlr --bundle basic --variable t2m:K -o q.qlr
  run fail qlr-unknown "$S" qlr --bundle basic --variable nosuch -o no.qlr
  # the raster driver: discovery, metadata, copies, statistics, VRT, cache, debug output
  run 0 gdal-root gdalinfo SEAWX:
  run 0 gdal-bundle gdalinfo SEAWX:bundle=basic
  run 0 gdal-json gdalinfo -json -mdd all "$R"
  run 0 gdal-leaf gdalinfo -mdd all "SEAWX:bundle=basic,layer=$layer"
  run 0 gdal-tif gdal_translate -outsize 512 256 "$R" out.tif
  run 0 gdal-stats gdalinfo -stats -mdd all out.tif # writes out.tif.aux.xml
  run 0 gdal-png gdal_translate -of PNG -outsize 256 128 "$R" out.png # metadata into out.png.aux.xml
  run 0 gdal-vrt gdal_translate -of VRT -outsize 256 128 "$R" out.vrt
  run 0 gdal-vrt-read gdal_translate -of PNG out.vrt vrt.png
  run 0 gdal-debug env CPL_DEBUG=ON gdal_translate -outsize 256 128 "$R,cache=no" debug.tif
  run 0 gdal-stats-pam gdalinfo -stats "SEAWX:bundle=basic,layer=$layer,width=256"
  run fail gdal-403 gdalinfo SEAWX:bundle=agricultural
  run fail gdal-401 gdal_translate --config SEAWX_API_KEY wrong-key "$R" no.tif
  # the vector drivers
  run 0 ogr-storms ogr2ogr -f GPKG storms.gpkg SEAWX:storms
  run 0 ogr-storms-debug env CPL_DEBUG=ON ogrinfo -ro -al -so "SEAWX:storms,status=all,max_storms=30" storms -where "season = 2015"
  run 0 ogr-kmz ogr2ogr -f GPKG kmz.gpkg "SEAWX:kmz,path=storms.kmz"
  run 0 ogr-tides ogr2ogr -f GPKG points.gpkg "SEAWX:tides,lat=59.9,lon=10.7,start=2024-01-01,hours=6"
  run 0 ogr-weather ogrinfo -ro -al "SEAWX:weather,lat=1,lon=2"
  run 0 ogr-forecast ogr2ogr -f GeoJSON forecast.ogr.geojson "SEAWX:forecast-latest,lat=1,lon=2,bundles=basic"
  run 0 ogr-soil ogrinfo -ro -al "SEAWX:soil-history,lat=52.5,lon=13.4,start=2024-01-01,end=2024-01-03"
  run 0 ogr-vessels ogr2ogr -f CSV vessels.ogr.csv "SEAWX:vessels,categories=capacity"
  run 0 files-list gdalinfo SEAWX:soil-moisture
  run 0 files-open gdalinfo "SEAWX:soil-moisture,file=$soil"
  run 0 files-grib gdalinfo "SEAWX:current-weather,file=$cwc"
  cd "$T" || exit 1
}

for m in header query basic; do
  RUNS=0 BAD=0
  every_path $m
  check "$m: $RUNS commands and driver paths ran as expected" test "$BAD" -eq 0
  check "$m: they wrote what they should" wrote "$T/$m" seed.mbtiles seed.json storms.kmz \
    split/wind_radii.geojson $soil dl/$cwc fc.grib2 job.nc job-watch.nc out.tif.aux.xml out.png.aux.xml out.vrt \
    storms.gpkg kmz.gpkg points.gpkg vessels.ogr.csv g.grb2.bz2 plan.json plan.csv plan.png q.qlr q.legend.png
  check "$m: the key is in no stdout, stderr or file written" clean "$T/$m"
done
check "the VRT names its source by the connection string" grep -q -F "$R" "$T/query/out.vrt"
check "the GeoTIFF carries the layer's metadata" grep -q 'LAYER=' "$T/query/gdal-stats.out"
check "the PNG's .aux.xml carries it too" grep -q '<MDI key="LAYER">' "$T/query/out.png.aux.xml"
check "the debug output shows what the storm layer sent" grep -q 'filter sent to the service' "$T/query/ogr-storms-debug.err"
check "the query mode sent the key as a parameter" grep -q 'request=GetMap.*auth=query' "$T/access.log"
check "the basic mode sent HTTP Basic" grep -q 'request=GetMap.*auth=basic' "$T/access.log"
check "the plugin's caches were filled" sh -c "find '$T/cache/tiles' -type f | grep -q . && test -s '$T/cache/files/soil-moisture/$soil'"
check "the caches hold no key, in names or contents" clean "$T/cache"

# Failing GetMaps in query mode: every error line names a URL, none the key.
sim_again --pexception 1 --faults-on getmap
mkdir -p "$T/faults" && cd "$T/faults" || exit 1
RUNS=0 BAD=0
export SEAWX_WMS_AUTH=query
run fail seed "$S" seed -b basic -v t2m:K --bbox 0,40,10,50 -z 2 --retries 0 -o f.mbtiles --summary-json f.json
run fail gdal gdal_translate "$R,cache=no,retries=0" f.tif
run fail gdal-debug env CPL_DEBUG=ON gdal_translate "$R,cache=no,retries=0" f.tif
cd "$T" || exit 1
check "query mode, failing GetMaps: all failed as expected" test "$BAD" -eq 0
check "query mode, failing GetMaps: the errors name the GetMap" grep -q 'request=GetMap' "$T/faults/seed.err"
check "query mode, failing GetMaps: no key in errors, summary or debug output" clean "$T/faults"
sim_again

# QGIS, headless, in query mode: the saved projects hold the string, no key.
mkdir -p "$T/qgis" && cd "$T/qgis" || exit 1
SEAWX_WMS_AUTH=query "$py" "$here/test_qgis.py" render "$R" "$T/qgis/r.png" "$T/qgis/p.qgz" >qgis1.out 2>qgis1.err
check "QGIS renders a layer in query mode and saves a .qgz" test $? -eq 0 -a -s p.qgz
SEAWX_WMS_AUTH=basic "$py" "$here/test_qgis.py" render "SEAWX:bundle=basic,layer=$layer,url=$SIM_URL" "$T/qgis/l.png" "$T/qgis/p.qgs" >qgis2.out 2>qgis2.err
check "QGIS renders a layer in basic mode and saves a .qgs" test $? -eq 0 -a -s p.qgs
"$py" -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
z.extractall(sys.argv[2])' p.qgz "$T/qgis/qgz"
check "the projects name the layers" sh -c "grep -q -F 'layer=$layer' p.qgs && grep -r -q -F '$R' qgz"
cd "$T" || exit 1
check "QGIS printed and saved no key (projects, settings, caches)" clean "$T/qgis" "$T/home"

# The storage host: every download reached it without the key.
storage_ok() {
  grep -E '^GET 127\.0\.0\.2:' "$T/access.log" >"$T/storage.log"
  local n
  n=$(wc -l <"$T/storage.log")
  [ "$n" -ge 18 ] || { echo "  only $n storage requests"; return 1; }
  ! grep -v ' auth=none$' "$T/storage.log" | grep -q . && ! grep -q ' 403 ' "$T/storage.log" &&
    ! grep -q 'storage host received an API key' "$T/sim.log"
}
check "the storage host got every download, none with the key" storage_ok

# A foreign host: the service stand-in redirects every request there.
cap_start() { # NAME HOST capture_server options...
  local name=$1 host=$2
  shift 2
  $py "$here/capture_server.py" "$T/$name.port" --host "$host" "$@" &
  CAP_PIDS="${CAP_PIDS:-} $!"
  for _ in $(seq 200); do [ -s "$T/$name.port" ] && break; sleep 0.025; done
  eval "URL_$name=http://$host:$(cat "$T/$name.port")"
}
cap_start foreign 127.0.0.3 --log "$T/foreign.log" --ctype text/xml --body "$SEAWX_FIXTURES/caps/nested.xml"
cap_start redirector 127.0.0.1 --redirect "$URL_foreign" --log "$T/redirector.log"
cap_start control 127.0.0.3 --log "$T/control.log" --ctype text/xml --body "$SEAWX_FIXTURES/caps/nested.xml"
mkdir -p "$T/foreign" && cd "$T/foreign" || exit 1
for m in header query basic; do
  export SEAWX_WMS_AUTH=$m SEAWX_BASE_URL=$URL_redirector SEAWX_VESSELS_URL=$URL_redirector
  RUNS=0 BAD=0
  run 0 $m-layers "$S" layers -b basic --json
  run fail $m-seed "$S" seed -b basic -v t2m:K --bbox 0,40,10,50 -z 2 -o x.mbtiles
  run fail $m-storms "$S" storms -o x.geojson
  run fail $m-tides "$S" tides hourly --lat 1 --lon 2 --start 2024-01-01
  run any $m-download "$S" soil download $soil # the foreign host's answer is saved
  run fail $m-vessels "$S" vessels
  run fail $m-grib "$S" grib --bbox -40,40,-38,42 --hours 0 --vars prmsl --retries 0 -o x.grb2
  run fail $m-plan "${plan[@]}" --retries 0 --json x.json
  run any $m-qlr "$S" qlr --bundle basic --variable t2m:K --no-legend -o x.qlr
  run 0 $m-gdal gdalinfo SEAWX:bundle=basic
  run fail $m-ogr ogrinfo -ro -al "SEAWX:tides,lat=1,lon=2,start=2024-01-01"
  run any $m-files gdalinfo "SEAWX:soil-moisture,file=soil-moisture.20240117.global.nc"
  check "$m, redirected to a foreign host: $RUNS commands ran as expected" test "$BAD" -eq 0
done
SEAWX_WMS_AUTH=query "$S" layers -b basic --base-url "$URL_control" >control.out 2>&1
cd "$T" || exit 1
for p in ${CAP_PIDS:-}; do kill "$p" && wait "$p" 2>/dev/null; done
foreign_ok() {
  local n
  n=$(grep -c -E '^GET ' "$T/foreign.log")
  [ "$n" -ge 27 ] || { echo "  only $n requests reached the foreign host"; return 1; }
  ! grep -q -i -E '^(authorization|service-api-key|decoded-basic):' "$T/foreign.log" &&
    ! grep -q -i 'service-api-key' "$T/foreign.log" && clean "$T/foreign.log"
}
check "the foreign host got every redirected request, none with the key in any form" foreign_ok
check "the redirector did see the key (it played the service)" grep -q -F "$KEY" "$T/redirector.log"
check "control: the foreign host's log would show the key if it were sent" grep -q -F "service-api-key=$KEY" "$T/control.log"
rm -f "$T/control.log" "$T/redirector.log" # they hold the key by design

check "the key and the password are nowhere in the work folder" clean "$T"
finish
