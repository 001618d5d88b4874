#!/usr/bin/env bash
# run.sh: a long seed through a faulty service, killed every few minutes and
# resumed, as a shore server runs one overnight. seawx-sim answers with the
# faults of tests/integration/test_soak.sh (5 % 503, 2 % 429 with Retry-After,
# 1 % cut bodies, 1 % 200 exceptions, 1 % dropped connections); `seawx seed` is
# SIGKILLed at a random moment between KILL_MIN and KILL_MAX seconds after each
# start and started again with the same command, until a run ends by itself.
#
# Reports: tiles, runs, kills, wall time, the peak RSS of each run (it must stay
# flat: the seeder's memory does not grow with the tiles already done), and at
# the end the file's integrity_check, its tile count against the dry run's, no
# side file, and SAMPLE tiles drawn at random equal to a fault-free GetMap of
# their bounds (from a second, fault-free seawx-sim).
#
#   bench/soak/run.sh                (1,230,782 tiles: hours on 2 cores)
#   SOAK_BBOX=-20,35,20,60 SOAK_ZOOMS=0-9 KILL_MIN=5 KILL_MAX=15 bench/soak/run.sh   (a short check)
# Settings: SOAK_BBOX, SOAK_ZOOMS, KILL_MIN, KILL_MAX (seconds), SAMPLE (tiles
# checked, default 2000), SEAWX_BUILD (default build/), SOAK_DIR (work folder,
# default a new one under /tmp, kept). Loopback only; the test command never
# runs this.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${SEAWX_BUILD:-$top/build}
CLI=$BUILD/tilecli/seawx
SIM=$BUILD/samples/seawx-sim
BBOX=${SOAK_BBOX:--60,20,30,70}
ZOOMS=${SOAK_ZOOMS:-0-12}
KILL_MIN=${KILL_MIN:-120}
KILL_MAX=${KILL_MAX:-300}
SAMPLE=${SAMPLE:-2000}
W=${SOAK_DIR:-$(mktemp -d /tmp/seawx-soak.XXXXXX)}
KEY=soak-key
mkdir -p "$W"
[ -x "$CLI" ] && [ -x "$SIM" ] || { echo "run.sh: build seawx first ($BUILD)"; exit 1; }
log() { echo "soak: $*"; }

start_sim() { # NAME [options]: a seawx-sim on a free loopback port; prints its URL
  local name=$1
  shift
  rm -f "$W/$name.port"
  "$SIM" --host 127.0.0.1 --port 0 --port-file "$W/$name.port" --key "$KEY" "$@" \
    >"$W/$name.log" 2>&1 &
  echo $! >"$W/$name.pid"
  for _ in $(seq 200); do [ -s "$W/$name.port" ] && break; sleep 0.05; done
  echo "http://127.0.0.1:$(cat "$W/$name.port")"
}
FAULTY=$(start_sim faulty --faults-on getmap --p5xx 0.05 --p429 0.02 --retry-after 1 \
  --ptrunc 0.01 --pexception 0.01 --pdrop 0.01 --fault-seed 7)
CLEAN=$(start_sim clean)
trap 'kill $(cat "$W"/*.pid) 2>/dev/null' EXIT

seed=("$CLI" seed -b basic -v t2m:K --bbox "$BBOX" -z "$ZOOMS" -o "$W/soak.mbtiles")
# The valid time is pinned to the layer's default at the start: a soak runs
# past the hour, when the default moves on and a resumed seed would rightly
# refuse a file of another time.
SEAWX_BASE_URL=$CLEAN SEAWX_API_KEY=$KEY "$CLI" seed -q -b basic -v t2m:K --bbox 0,0,1,1 -z 0 \
  -o "$W/probe.mbtiles" || { log "the probe seed failed"; exit 1; }
vt=$(sqlite3 "$W/probe.mbtiles" "SELECT value FROM metadata WHERE name = 'time'")
rm -f "$W/probe.mbtiles"
seed+=(-t "$vt")
total=$(SEAWX_BASE_URL=$FAULTY SEAWX_API_KEY=$KEY "${seed[@]}" --dry-run | awk '$1 == "all" { print $2 }')
log "$total tiles (basic t2m:K at $vt, $BBOX, zooms $ZOOMS), a kill every $KILL_MIN-$KILL_MAX s, work in $W"

runs=0 kills=0 t0=$(date +%s) peaks=""
while :; do
  runs=$((runs + 1))
  SEAWX_BASE_URL=$FAULTY SEAWX_API_KEY=$KEY "${seed[@]}" -q 2>>"$W/seed.err" &
  pid=$!
  limit=$((KILL_MIN + RANDOM % (KILL_MAX - KILL_MIN + 1)))
  start=$(date +%s) peak=0
  while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ "${rss:-0}" -gt "$peak" ] && peak=$rss
    if [ $(($(date +%s) - start)) -ge "$limit" ]; then
      kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
      break
    fi
    sleep 1
  done
  wait "$pid" 2>/dev/null
  rc=$?
  have=$(sqlite3 "$W/soak.mbtiles" 'SELECT count(*) FROM map' 2>/dev/null || echo 0)
  peaks="$peaks $((peak / 1024))"
  log "run $runs: exit $rc after $(($(date +%s) - start)) s, $have of $total tiles, peak $((peak / 1024)) MiB"
  [ "$rc" -eq 0 ] && break
  [ "$rc" -ne 137 ] && [ "$rc" -ne 1 ] && { log "run $runs failed (exit $rc):"; tail -3 "$W/seed.err"; exit 1; }
done
secs=$(($(date +%s) - t0))

ic=$(sqlite3 "$W/soak.mbtiles" 'PRAGMA integrity_check')
have=$(sqlite3 "$W/soak.mbtiles" 'SELECT count(*) FROM map')
side=$(ls "$W"/soak.mbtiles-* 2>/dev/null | wc -l)
python3 "$top/tests/integration/seed_check.py" sample "$W/soak.mbtiles" "$CLEAN" "$KEY" "$SAMPLE" \
  >"$W/sample.txt"
src=$?
echo
echo "| tiles | runs | kills | wall | tiles/s | peak RSS per run (MiB) | integrity | side files | sampled tiles equal to GetMap |"
echo "|---|---|---|---|---|---|---|---|---|"
echo "| $have of $total | $runs | $kills | $secs s | $((have / (secs > 0 ? secs : 1))) | $(echo $peaks | tr ' ' ',') | $ic | $side | $(tail -1 "$W/sample.txt") |"
[ "$ic" = ok ] && [ "$have" -eq "$total" ] && [ "$side" -eq 0 ] && [ "$src" -eq 0 ]
