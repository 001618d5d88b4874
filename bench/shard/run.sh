#!/usr/bin/env bash
# bench/shard/run.sh: sharded seeding's throughput against seawx-sim with
# injected latency, for N = 1, 2, 4 and 8 shards run at once on this machine
# (as an array job's tasks would on one node), each with the same requests in
# flight; then the merge. Latency-bound work should scale with N: the load on
# the service is N x in-flight GetMaps. Every merged file is checked equal to
# the one-shard run's (tiles and images). Writes bench/shard/last-run.md.
#   SEAWX_BUILD   the build folder (default: <repo>/build); SEAWX_CLI, SEAWX_SIM override
#   LATENCY_MS    latency added to every answer (default 100)
#   IN_FLIGHT     GetMaps in flight per shard (default 4)
#   ZOOMS         zoom levels (default 0-7: 629 tiles)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${SEAWX_BUILD:-$top/build}
CLI=${SEAWX_CLI:-$BUILD/tilecli/seawx}
SIM=${SEAWX_SIM:-$BUILD/samples/seawx-sim}
LATENCY_MS=${LATENCY_MS:-100}
IN_FLIGHT=${IN_FLIGHT:-4}
ZOOMS=${ZOOMS:-0-7}
T=$(mktemp -d /tmp/seawx-bench-shard.XXXXXX)
"$SIM" --port 0 --port-file "$T/port" --key bench-key --latency "$LATENCY_MS" \
  --now 2026-03-01T06:00:00Z 2>"$T/sim.log" &
sim=$!
trap 'kill $sim 2>/dev/null; wait $sim 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 200); do [ -s "$T/port" ] && break; sleep 0.025; done
export SEAWX_BASE_URL=http://127.0.0.1:$(cat "$T/port") SEAWX_API_KEY=bench-key
args=(seed -b basic -v t2m:K --bbox -30,30,30,65 -z "$ZOOMS" -m 1 -j "$IN_FLIGHT" -q)
now() { date +%s.%N; }
fp() { sqlite3 "$1" "SELECT hex(sha3_query('SELECT zoom_level, tile_column, tile_row, tile_id FROM map ORDER BY 1, 2, 3')), (SELECT count(*) FROM images)"; }

out=$top/bench/shard/last-run.md
rows=()
base_rate=
ref=
for n in 1 2 4 8; do
  mkdir -p "$T/$n"
  t0=$(now)
  pids=()
  for k in $(seq 1 "$n"); do
    "$CLI" "${args[@]}" --shard "$k/$n" -o "$T/$n/part.{shard}.mbtiles" \
      --summary-json "$T/$n/s$k.json" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  t1=$(now)
  "$CLI" merge -q --shards "$n" -o "$T/$n/merged.mbtiles" "$T/$n/part.{shard}.mbtiles"
  t2=$(now)
  f=$(fp "$T/$n/merged.mbtiles")
  [ -n "$ref" ] || ref=$f
  same=no
  [ "$f" = "$ref" ] && same=yes
  row=$(python3 - "$T/$n" "$n" "$t0" "$t1" "$t2" "$same" "${base_rate:-0}" <<'PY'
import json, glob, sys
d, n, t0, t1, t2, same, base = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:6]), sys.argv[6], float(sys.argv[7])
s = [json.load(open(p)) for p in sorted(glob.glob(d + "/s*.json"))]
tiles = sum(x["stored"] for x in s)
reqs = sum(x["requests"] for x in s)
per = [x["tiles"] for x in s]
secs = t1 - t0
rate = tiles / secs
print("%d|%d|%d|%.2f|%.0f|%s|%.2f|%.2f|%s|%.3f" % (n, tiles, reqs, secs, rate,
      "%.2f" % (rate / base) if base else "1.00", max(per) / (sum(per) / n), t2 - t1, same, rate))
PY
)
  base_rate=${base_rate:-${row##*|}}
  rows+=("${row%|*}")
done
{
  echo "# Sharded seeding ($(date -u +%Y-%m-%d), seawx-sim with ${LATENCY_MS} ms latency, ${IN_FLIGHT} GetMaps in flight per shard)"
  echo
  echo "basic t2m:K, bbox -30,30,30,65, zooms $ZOOMS, one tile a GetMap; the N shards run at once"
  echo "on this machine ($(nproc) cores); seconds until the last one ended, then the merge."
  echo
  echo "| shards | tiles | GetMaps | seconds | tiles/s | vs 1 shard | largest shard / mean | merge s | merged = 1 shard's |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
  echo
  echo "Command: \`nice bash bench/shard/run.sh\` (LATENCY_MS, IN_FLIGHT, ZOOMS override)."
} >"$out"
cat "$out"
