#!/usr/bin/env bash
# bench/seed/run.sh: `seawx seed` against the tools people use today, on one
# machine, against seawx-sim on loopback (nothing leaves 127.0.0.1).
#
#   bash bench/seed/install-peers.sh     # once, as root: mapcache-tools, mapproxy, wrk, ...
#   bash bench/seed/run.sh               # about 13 minutes on 2 cores
#
# One run measures, for the same layer, time, area and zooms:
#   seawx seed (its defaults, and with 4x4 metatiles), mapcache_seed (its
#   default of one tile per GetMap, and 4x4 metatiles), mapproxy-seed,
#   gdal_translate -of MBTiles (GDAL's WMS driver) + gdaladdo, and wrk's request
#   ceiling on the GetMap URLs that seawx seed sent, right after each seawx seed.
# Each tool gets a freshly started seawx-sim with its image cache off, so that
# every GetMap is rendered, as the service would. The whole round is repeated
# (BENCH_REPEAT, 3) and each tool's median run by wall time is reported, so
# that other load on the machine weighs less. Reported per tool: useful
# tiles per second (the tiles the area needs / wall time), CPU seconds per 1000
# useful tiles (user + system of the tool and its children), peak memory (the
# largest sum of RSS over the tool's processes, sampled every 0.1 s, or GNU
# time's maximum RSS if larger), requests sent and pixels rendered per useful
# pixel (metatile overshoot), and seawx-sim's own CPU per 1000 tiles. Then:
#   - the peak memory of a seed of more than 100,000 tiles (BENCH_BIG=0 skips it);
#   - throughput with 100 ms of injected latency against in-flight cap / latency
#     (seawx-sim's cache warmed first, so that the figure is the client's).
#
# Settings (environment):
#   SEAWX_BUILD   the build folder (default: <repo>/build); SEAWX_CLI, SEAWX_SIM override
#   BENCH_BBOX    W,S,E,N (default -20,35,20,60)     BENCH_Z0, BENCH_Z1 (default 0, 9)
#   BENCH_REPEAT  rounds (default 3)
#   BENCH_MAPCACHE_N, BENCH_MAPPROXY_N, BENCH_GDAL_N: mapcache_seed threads (16),
#                 mapproxy-seed processes (8), GDAL WMS connections (8): each
#                 peer's best of 4, 8 and 16 measured on this machine (with 32
#                 threads mapcache_seed aborts: its SQLite cache cannot open the file)
#   BENCH_LIMIT   seconds allowed per tool (default 600)
#   BENCH_BIG     1 (default) runs the 100,000-tile seed; BENCH_LATENCY=0 skips the latency part
#   BENCH_WARM=1  seawx-sim's cache on and filled by an untimed pass of the same
#                 tool first: the figures are the seeders' own, rendering left out
#                 (wrk then measures serving from the cache)
#   SEAWX_CLI_ALT another seawx build to measure beside SEAWX_CLI (seawx-alt)
#   BENCH_KEEP=1  keeps the work folder (configurations, logs, MBTiles files)
#   BENCH_OUT     where results.md and results.tsv go (default /tmp/seawx-bench-seed)
# Missing peers are skipped with a note. The test command never runs this.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${SEAWX_BUILD:-$top/build}
CLI=${SEAWX_CLI:-$BUILD/tilecli/seawx}
SIM=${SEAWX_SIM:-$BUILD/samples/seawx-sim}
BBOX=${BENCH_BBOX:--20,35,20,60}
Z0=${BENCH_Z0:-0}
Z1=${BENCH_Z1:-9}
REPEAT=${BENCH_REPEAT:-3}
WARM=${BENCH_WARM:-0}
SIM_CACHE="--cache-mb 0"
[ "$WARM" = 1 ] && SIM_CACHE="--cache-mb 1024"
MAPCACHE_N=${BENCH_MAPCACHE_N:-16}
MAPPROXY_N=${BENCH_MAPPROXY_N:-8}
GDAL_N=${BENCH_GDAL_N:-8}
LIMIT=${BENCH_LIMIT:-600}
BIG=${BENCH_BIG:-1}
BIG_BBOX=${BENCH_BIG_BBOX:--25,30,25,65}
BIG_Z=${BENCH_BIG_ZOOM:-0-11}
OUT=${BENCH_OUT:-/tmp/seawx-bench-seed}
IN_FLIGHT=32 # seawx seed's default, used for wrk's connections too
KEY="bench-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"

for p in "$CLI" "$SIM"; do
  [ -x "$p" ] || { echo "run.sh: $p is missing; build first (cmake --build build)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "run.sh: GNU time is missing; run install-peers.sh" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "run.sh: sqlite3 is missing; run install-peers.sh" >&2; exit 2; }

W=$(mktemp -d /tmp/seawx-bench.XXXXXX)
mkdir -p "$OUT"
SIM_PID=
MEASURED=
cleanup() {
  # The tool under measure runs in a session of its own: end that session.
  [ -n "$MEASURED" ] && pkill -TERM -s "$MEASURED" 2>/dev/null
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
  [ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "run.sh: $*" >&2; }

# sim_up [options]: a fresh seawx-sim on a free loopback port.
sim_up() {
  rm -f "$W/port"
  : >"$W/access.log"
  "$SIM" --host 127.0.0.1 --port 0 --port-file "$W/port" --key "$KEY" --access-log "$W/access.log" \
    "$@" 2>>"$W/sim.log" &
  SIM_PID=$!
  for _ in $(seq 400); do [ -s "$W/port" ] && break; sleep 0.025; done
  [ -s "$W/port" ] || { log "seawx-sim did not start"; cat "$W/sim.log" >&2; exit 1; }
  PORT=$(cat "$W/port")
  export SEAWX_BASE_URL=http://127.0.0.1:$PORT SEAWX_API_KEY=$KEY
}
sim_down() {
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
  SIM_PID=
}
# seawx-sim's CPU seconds so far.
sim_cpu() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$SIM_PID/stat"
}

# measure NAME: runs the script $W/NAME.sh under GNU time in a session of its
# own, with a memory sampler; writes NAME.time, NAME.peak (KiB), NAME.simcpu,
# NAME.rc, NAME.urls (the GetMaps seawx-sim saw).
measure() {
  local name=$1
  local c0 c1
  c0=$(sim_cpu)
  setsid /usr/bin/time -v -o "$W/$name.time" timeout "$LIMIT" bash "$W/$name.sh" \
    >"$W/$name.out" 2>"$W/$name.err" &
  local pid=$! peak=0 s
  MEASURED=$pid
  while kill -0 "$pid" 2>/dev/null; do
    s=$(ps -o rss= -s "$pid" 2>/dev/null | awk '{ t += $1 } END { print t + 0 }')
    [ "$s" -gt "$peak" ] && peak=$s
    sleep 0.1
  done
  wait "$pid"
  echo $? >"$W/$name.rc"
  MEASURED=
  c1=$(sim_cpu)
  echo "$peak" >"$W/$name.peak"
  echo "$c0 $c1" | awk '{ printf "%.3f\n", $2 - $1 }' >"$W/$name.simcpu"
  # GetMaps seen by the server, and their pixels.
  grep -i 'request=GetMap' "$W/access.log" | awk '{ print $3 }' >"$W/$name.urls"
}

# The tiles the area needs at each zoom, by the closed form (not by seawx).
need_tiles() {
  python3 - "$1" "$2" "$3" <<'EOF'
import math, sys
w, s, e, n = map(float, sys.argv[1].split(","))
def tile(z, lon, lat):
    k = 2 ** z
    y = (1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * k
    return (lon + 180) / 360 * k, y
t = 0
for z in range(int(sys.argv[2]), int(sys.argv[3]) + 1):
    x0, y0 = tile(z, w, n)
    x1, y1 = tile(z, e, s)
    t += (math.ceil(x1) - math.floor(x0)) * (math.ceil(y1) - math.floor(y0))
print(t)
EOF
}

# 3857 metres of the bbox, snapped outwards to the tile grid of zoom z1.
merc_extent() {
  python3 - "$1" "$2" <<'EOF'
import math, sys
w, s, e, n = map(float, sys.argv[1].split(","))
z = int(sys.argv[2])
H = 20037508.342789244
def m(lon, lat):
    return lon / 180 * H, math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / math.pi * H
x0, y0 = m(w, s)
x1, y1 = m(e, n)
t = 2 * H / 2 ** z
sx0 = -H + math.floor((x0 + H) / t + 1e-9) * t
sx1 = -H + math.ceil((x1 + H) / t - 1e-9) * t
sy0 = -H + math.floor((y0 + H) / t + 1e-9) * t
sy1 = -H + math.ceil((y1 + H) / t - 1e-9) * t
print(f"{x0!r},{y0!r},{x1!r},{y1!r} {sx0!r} {sy1!r} {sx1!r} {sy0!r}")
EOF
}

# field NAME KEY: a value from GNU time's report.
tfield() { grep -F "$2" "$W/$1.time" | head -1 | sed 's/.*: //'; }
wall_s() {
  tfield "$1" "Elapsed (wall clock)" | awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }'
}

NEED=$(need_tiles "$BBOX" "$Z0" "$Z1")
read -r MERC SX0 SY1 SX1 SY0 <<<"$(merc_extent "$BBOX" "$Z1")"
log "area $BBOX, zooms $Z0-$Z1: $NEED tiles; work folder $W"

# The layer and time: basic t2m:K, latest run, its default time.
sim_up --cache-mb 0
read -r LAYER TIME <<<"$("$CLI" layers -b basic -v t2m:K --latest --json |
  python3 -c "import json,sys; l=json.load(sys.stdin)[0]; print(l['name'], l['default_time'])")"
sim_down
[ -n "$LAYER" ] || { log "could not list the layer"; exit 1; }
log "layer $LAYER, time $TIME"

fill() { # fill TEMPLATE OUTFILE MBTILES: placeholders filled in
  sed -e "s|@PORT@|$PORT|g" -e "s|@KEY@|$KEY|g" -e "s|@LAYER@|$LAYER|g" -e "s|@TIME@|$TIME|g" \
    -e "s|@OUT@|$3|g" -e "s|@DIR@|$W|g" -e "s|@LOCKDIR@|$W/locks|g" -e "s|@BBOX@|$BBOX|g" \
    -e "s|@Z0@|$Z0|g" -e "s|@Z1@|$Z1|g" -e "s|@SIZE@|$((256 << Z1))|g" -e "s|@CONN@|$GDAL_N|g" \
    "$here/$1" >"$2"
}

# q ARGS...: the arguments quoted for a script line.
q() { printf '%q ' "$@"; }
TOOLS=()
declare -A SHOWN
# tool NAME DISPLAY-CMD: NAME is measured each round; prepare_NAME writes its
# configuration and prints the script that measure runs.
tool() {
  TOOLS+=("$1")
  SHOWN[$1]=$2
}
prepare_seawx() {
  q "$CLI" seed -b basic --layer "$LAYER" --time "$TIME" --bbox "$BBOX" -z "$Z0-$Z1" -q \
    -o "$W/$1.mbtiles"
  echo
}
prepare_seawx-m4() {
  q "$CLI" seed -b basic --layer "$LAYER" --time "$TIME" --bbox "$BBOX" -z "$Z0-$Z1" -m 4 -q \
    -o "$W/$1.mbtiles"
  echo
}
tool seawx "seawx seed -b basic --layer L --time T --bbox $BBOX -z $Z0-$Z1 -o seawx.mbtiles"
tool seawx-m4 "seawx seed -b basic --layer L --time T --bbox $BBOX -z $Z0-$Z1 -m 4 -o seawx.mbtiles"
# SEAWX_CLI_ALT: another build of seawx (a change under trial), measured too.
if [ -n "${SEAWX_CLI_ALT:-}" ]; then
  prepare_seawx-alt() {
    q "$SEAWX_CLI_ALT" seed -b basic --layer "$LAYER" --time "$TIME" --bbox "$BBOX" -z "$Z0-$Z1" -q \
      -o "$W/$1.mbtiles"
    echo
  }
  tool seawx-alt "$SEAWX_CLI_ALT seed (same options as seawx)"
fi

# mapcache_seed: MapCache's default of one tile per GetMap, and 4x4 metatiles
# (-M 4,4) as its sample configuration suggests for WMS sources.
if command -v mapcache_seed >/dev/null; then
  prepare_mapcache() {
    mkdir -p "$W/locks"
    fill mapcache.xml.in "$W/$1.xml" "$W/$1.mbtiles"
    q mapcache_seed -c "$W/$1.xml" -t seed -g GoogleMapsCompatible -z "$Z0,$Z1" -e "$MERC" \
      -n "$MAPCACHE_N" -q "${@:2}"
    echo
  }
  prepare_mapcache-m4() { prepare_mapcache "$1" -M 4,4; }
  tool mapcache "mapcache_seed -c mapcache.xml -t seed -g GoogleMapsCompatible -z $Z0,$Z1 -e <bbox in EPSG:3857> -n $MAPCACHE_N"
  tool mapcache-m4 "mapcache_seed -c mapcache.xml -t seed -g GoogleMapsCompatible -z $Z0,$Z1 -e <bbox in EPSG:3857> -n $MAPCACHE_N -M 4,4"
else
  log "mapcache_seed is not installed (bench/seed/install-peers.sh): skipped"
fi

# mapproxy-seed (MapProxy's defaults: 4x4 metatiles, an 80-pixel meta buffer).
if command -v mapproxy-seed >/dev/null; then
  prepare_mapproxy() {
    fill mapproxy.yaml.in "$W/$1.yaml" "$W/$1.mbtiles"
    fill mapproxy-seed.yaml.in "$W/$1-seed.yaml" ""
    q mapproxy-seed -f "$W/$1.yaml" -s "$W/$1-seed.yaml" -c "$MAPPROXY_N" --seed ALL -q -q
    echo
  }
  tool mapproxy "mapproxy-seed -f mapproxy.yaml -s mapproxy-seed.yaml -c $MAPPROXY_N --seed ALL"
else
  log "mapproxy-seed is not installed (bench/seed/install-peers.sh): skipped"
fi

# gdal_translate -of MBTiles over the WMS driver at the top zoom, then gdaladdo
# for the zooms below it (computed from the top zoom, not fetched).
# gdal_wms.xml.in describes seawx-sim in EPSG:3857 at the resolution of the top
# zoom, in 256-pixel blocks on the tile grid; the key goes in a header file
# named by GDAL_HTTP_HEADER_FILE (GDAL would not take a comment in that file).
if command -v gdal_translate >/dev/null && command -v gdaladdo >/dev/null; then
  LEVELS=()
  f=1
  for _ in $(seq "$Z0" $((Z1 - 1))); do f=$((f * 2)); LEVELS+=("$f"); done
  prepare_gdal() {
    fill gdal_wms.xml.in "$W/$1.xml" ""
    printf 'service-api-key: %s\n' "$KEY" >"$W/gdal_headers"
    echo "set -e"
    echo "export GDAL_HTTP_HEADER_FILE=$(q "$W/gdal_headers")"
    q gdal_translate -q -of MBTiles -co TILE_FORMAT=PNG -projwin "$SX0" "$SY1" "$SX1" "$SY0" \
      "$W/$1.xml" "$W/$1.mbtiles"
    echo
    [ ${#LEVELS[@]} -eq 0 ] || { q gdaladdo -q -r average "$W/$1.mbtiles" "${LEVELS[@]}"; echo; }
  }
  tool gdal "gdal_translate -of MBTiles -co TILE_FORMAT=PNG -projwin <zoom-$Z1 tiles of the bbox> gdal_wms.xml gdal.mbtiles && gdaladdo -r average gdal.mbtiles ${LEVELS[*]} (MaxConnections $GDAL_N)"
else
  log "GDAL's tools are not installed: skipped"
fi
HAVE_WRK=0
command -v wrk >/dev/null && HAVE_WRK=1 || log "wrk is not installed (bench/seed/install-peers.sh): skipped"

# The rounds. Each run: a fresh seawx-sim, the tool under measure, a row in
# results.tsv; after seawx seed, wrk on the same GetMap paths.
: >"$W/results.tsv"
: >"$W/wrk.tsv"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for rep in $(seq "$REPEAT"); do
  for t in "${TOOLS[@]}"; do
    run=$t.$rep
    sim_up $SIM_CACHE
    "prepare_$t" "$run" >"$W/$run.sh"
    log "round $rep/$REPEAT, $t: ${SHOWN[$t]}"
    if [ "$WARM" = 1 ]; then # an untimed pass fills seawx-sim's cache
      timeout "$LIMIT" bash "$W/$run.sh" >/dev/null 2>&1
      rm -f "$W/$run.mbtiles"
      : >"$W/access.log"
    fi
    measure "$run"
    [ "$t" = seawx ] && [ "$WARM" = 1 ] || sim_down
    wall=$(wall_s "$run")
    cpu=$(echo "$(tfield "$run" "User time") $(tfield "$run" "System time")" | awk '{ print $1 + $2 }')
    rss=$(tfield "$run" "Maximum resident set size")
    peak=$(cat "$W/$run.peak")
    [ "$rss" -gt "$peak" ] && peak=$rss
    stored=$(sqlite3 "$W/$run.mbtiles" 'select count(*) from tiles' 2>/dev/null || echo 0)
    pix=$(python3 "$here/report.py" pixels "$W/$run.urls")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$rep" "$(cat "$W/$run.rc")" "$wall" \
      "$cpu" "$peak" "$stored" "$(wc -l <"$W/$run.urls")" "$pix" "$(cat "$W/$run.simcpu")" \
      >>"$W/results.tsv"
    if [ "$(cat "$W/$run.rc")" != 0 ]; then
      log "$t exited $(cat "$W/$run.rc"):"
      tail -n 5 "$W/$run.err" "$W/$run.out" >&2
    fi
    if [ "$t" = seawx ]; then
      [ "$rep" = 1 ] && cp "$W/$run.urls" "$W/getmap_paths.txt"
      if [ "$HAVE_WRK" = 1 ]; then
        [ "$WARM" = 1 ] || sim_up $SIM_CACHE # warm: the seawx-sim seawx seed filled
        URLS=$W/getmap_paths.txt KEY=$KEY timeout 60 wrk -t2 -c"$IN_FLIGHT" -d10s \
          -s "$here/wrk_urls.lua" "http://127.0.0.1:$PORT" >"$W/wrk.$rep.out" 2>&1
      fi
      sim_down
      if [ "$HAVE_WRK" = 1 ]; then
        rps=$(awk '/Requests\/sec/ { print $2 }' "$W/wrk.$rep.out")
        non2xx=$(awk '/Non-2xx/ { print $NF }' "$W/wrk.$rep.out")
        log "round $rep/$REPEAT, wrk: ${rps:-?} requests/s${non2xx:+, $non2xx non-2xx answers}"
        printf '%s\t%s\t%s\n' "$rep" "${rps:-0}" "${non2xx:-0}" >>"$W/wrk.tsv"
      fi
    fi
    rm -f "$W/$run.mbtiles"
  done
done

{
  echo "# seawx seed benchmark, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); load average before: $LOAD_BEFORE, after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "Layer $LAYER at $TIME, area $BBOX, zooms $Z0-$Z1: $NEED tiles needed."
  if [ "$WARM" = 1 ]; then
    echo "seawx-sim on 127.0.0.1, image cache on and filled by an untimed pass of the same tool (rendering left out), one fresh instance per run;"
  else
    echo "seawx-sim on 127.0.0.1, image cache off (every GetMap rendered), one fresh instance per run;"
  fi
  echo "each tool's median of $REPEAT runs by wall time."
  echo
  python3 "$here/report.py" table "$W/results.tsv" "$W/wrk.tsv" "$NEED"
} >"$W/table.md"

# 6. The peak memory of a seed of more than 100,000 tiles.
if [ "$BIG" = 1 ]; then
  bz0=${BIG_Z%-*}
  bz1=${BIG_Z#*-}
  BIG_NEED=$(need_tiles "$BIG_BBOX" "$bz0" "$bz1")
  sim_up --cache-mb 0
  log "big: seawx seed --bbox $BIG_BBOX -z $BIG_Z ($BIG_NEED tiles)"
  q "$CLI" seed -b basic --layer "$LAYER" --time "$TIME" --bbox "$BIG_BBOX" -z "$BIG_Z" -q \
    -o "$W/big.mbtiles" >"$W/big.sh"
  measure big
  sim_down
  bw=$(wall_s big)
  brss=$(tfield big "Maximum resident set size")
  bstored=$(sqlite3 "$W/big.mbtiles" 'select count(*) from tiles' 2>/dev/null || echo 0)
  bsize=$(du -m "$W/big.mbtiles" | cut -f1)
  {
    echo
    echo "## A seed of $BIG_NEED tiles"
    echo
    echo "\`seawx seed -b basic --layer L --time T --bbox $BIG_BBOX -z $BIG_Z\`: exit $(cat "$W/big.rc"), $bstored tiles stored ($bsize MiB), ${bw} s,"
    echo "$(echo "$BIG_NEED $bw" | awk '{ printf "%.0f", $1 / $2 }') tiles/s, peak memory **$(echo "$brss" | awk '{ printf "%.1f", $1 / 1024 }') MiB** (target under 64 MiB)."
  } >>"$W/table.md"
  rm -f "$W/big.mbtiles"
fi

# 7. 100 ms of injected latency: throughput against in-flight cap / latency.
if [ "${BENCH_LATENCY:-1}" = 1 ]; then
LBBOX=${BENCH_LATENCY_BBOX:--10,40,10,60}
LNEED=$(need_tiles "$LBBOX" 0 9)
sim_up --latency 100
log "latency 100 ms: warming seawx-sim's cache ($LNEED tiles)"
"$CLI" seed -b basic --layer "$LAYER" --time "$TIME" --bbox "$LBBOX" -z 0-9 -q -j 64 -o "$W/warm.mbtiles"
{
  echo
  echo "## 100 ms of injected latency"
  echo
  echo "seawx-sim --latency 100 (cache warmed by a first pass, so that rendering is out of the figure), area $LBBOX, zooms 0-9, $LNEED tiles, one GetMap per tile."
  echo
  echo "| --in-flight | wall s | requests/s | cap / latency | ratio |"
  echo "|---|---|---|---|---|"
} >>"$W/table.md"
for j in 8 32 64; do
  rm -f "$W/lat.mbtiles"
  t0=$(date +%s.%N)
  "$CLI" seed -b basic --layer "$LAYER" --time "$TIME" --bbox "$LBBOX" -z 0-9 -q -j "$j" \
    -o "$W/lat.mbtiles" --summary-json "$W/lat.json"
  t1=$(date +%s.%N)
  python3 - "$W/lat.json" "$t0" "$t1" "$j" >>"$W/table.md" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
j = int(sys.argv[4])
rps = s["requests"] / wall
cap = j / 0.1
print(f"| {j} | {wall:.1f} | {rps:.0f} | {cap:.0f} | **{rps / cap:.0%}** |")
EOF
done
sim_down
fi

{
  echo
  echo "Commands (L = the layer, T = the time above; configurations in bench/seed/):"
  echo
  for t in "${TOOLS[@]}"; do echo "- $t: \`${SHOWN[$t]}\`"; done
  [ "$HAVE_WRK" = 1 ] && echo "- wrk: \`wrk -t2 -c$IN_FLIGHT -d10s -s bench/seed/wrk_urls.lua http://127.0.0.1:PORT\` over the GetMap paths seawx seed sent"
} >>"$W/table.md"
cp "$W/table.md" "$OUT/results.md"
cp "$W/results.tsv" "$OUT/results.tsv"
cp "$W/wrk.tsv" "$OUT/wrk.tsv"
cat "$OUT/results.md"
log "results in $OUT/results.md"
