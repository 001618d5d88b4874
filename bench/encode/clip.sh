#!/usr/bin/env bash
# bench/encode/clip.sh: what `seawx seed --clip` costs and saves, on seawx-sim
# (loopback only), basic t2m:K, over three kinds of area: a polygon (5
# vertices), a route corridor (60 nm) and a bbox. Each area is seeded in png
# and png8, without and with --clip, into a fresh file: CPU of seawx (user +
# system, GNU time, one run; seawx-sim's rendering is not in it) and the bytes
# of the tiles stored (before deduplication), clipped against unclipped.
# Settings: SEAWX_BUILD (default <repo>/build). Writes the table to stdout and
# to bench/encode/last-run-clip.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${SEAWX_BUILD:-$repo/build}
cli=${SEAWX_CLI:-$build/tilecli/seawx}
sim=${SEAWX_SIM:-$build/samples/seawx-sim}
for p in "$cli" "$sim"; do
  [ -x "$p" ] || { echo "bench/encode: $p is missing: build first (SEAWX_BUILD)" >&2; exit 1; }
done
W=$(mktemp -d /tmp/seawx-bench-clip.XXXXXX)
sim_pid=
cleanup() {
  [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null && wait "$sim_pid" 2>/dev/null
  rm -rf "$W"
}
trap cleanup EXIT
key="bench-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
"$sim" --port 0 --port-file "$W/port" --key "$key" 2>"$W/sim.log" &
sim_pid=$!
for _ in $(seq 200); do [ -s "$W/port" ] && break; sleep 0.025; done
export SEAWX_BASE_URL=http://127.0.0.1:$(cat "$W/port") SEAWX_API_KEY=$key

echo '{"type":"Polygon","coordinates":[[[-20,40],[10,38],[15,60],[-5,62],[-20,40]]]}' >"$W/poly.json"
printf '50.0,-5.0\n45.0,-10.0\n40,-12\n' >"$W/route.csv"
areas=(
  "polygon (5 vertices), zooms 4-8|--area $W/poly.json -z 4-8"
  "route corridor, 60 nm, zooms 5-9|--route $W/route.csv --buffer 60 -z 5-9"
  "bbox 60° x 35°, zooms 4-7|--bbox -30,30,30,65 -z 4-7"
)
# run ARGS...: "cpu_seconds tiles bytes" of one seed into a fresh file.
run() {
  rm -f "$W/b.mbtiles"
  local t
  t=$({ /usr/bin/time -f "%U %S" "$cli" seed -b basic -v t2m:K -q -o "$W/b.mbtiles" "$@" >/dev/null; } 2>&1 | tail -n 1)
  echo "$(echo "$t" | awk '{printf "%.2f", $1 + $2}') $(sqlite3 "$W/b.mbtiles" 'select count(*), sum(length(tile_data)) from tiles' | tr '|' ' ')"
}
out="$W/table.md"
{
  echo "| area | tiles | png | png \`--clip\` | png8 | png8 \`--clip\` | bytes \`--clip\` / without, png, png8 |"
  echo "|---|---:|---:|---:|---:|---:|---|"
  for a in "${areas[@]}"; do
    name=${a%%|*}
    read -r -a args <<<"${a#*|}"
    read -r c1 n b1 <<<"$(run "${args[@]}")"
    read -r c2 _ b2 <<<"$(run "${args[@]}" --clip)"
    read -r c3 _ b3 <<<"$(run "${args[@]}" --format png8)"
    read -r c4 _ b4 <<<"$(run "${args[@]}" --format png8 --clip)"
    echo "| $name | $n | $c1 s | $c2 s | $c3 s | $c4 s | $((100 * b2 / b1)) %, $((100 * b4 / b3)) % |"
  done
} >"$out"
cat "$out"
{
  echo "# bench/encode/clip.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
  echo
  cat "$out"
} >"$here/last-run-clip.md"
