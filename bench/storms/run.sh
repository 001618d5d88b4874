#!/usr/bin/env bash
# run.sh: converts a synthetic storm archive (about 3,500 storms and 150,000
# positions with wind radii: the archive seawx-sim serves, written by
# gen_archive.c as one /storm/json answer) to GeoJSON with `seawx storms
# --input`, and the same JSON by the obvious Python route (py_convert.py) and
# by jq (jq_convert.jq, tracks and points only). Reports wall time, CPU time and
# peak memory (GNU time) of each, and the ratios. Targets for seawx: under one
# second and peak memory under twice the input size.
#   bench/storms/run.sh [BUILD_DIR]        (default: build)
# Peers come from install-peers.sh; a missing one is skipped.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
seawx=$build/tilecli/seawx
work=$(mktemp -d /tmp/seawx-bench-storms.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -x "$seawx" ] || { echo "run.sh: build seawx first ($seawx)"; exit 1; }
[ -x /usr/bin/time ] || { echo "run.sh: GNU time is needed: bash $here/install-peers.sh"; exit 1; }

. "$here/archive.sh"
build_archive
in_mb=$(awk -v b="$(stat -c %s "$work/archive.json")" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "input: $(cat "$work/gen.log" | sed 's/^gen_archive: //'), $in_mb MiB of JSON"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# run NAME OUTPUT CMD...: best of 3 runs by CPU time.
printf '%-34s %8s %8s %9s %9s\n' tool "wall s" "cpu s" "peak MiB" "out MiB"
declare -A CPU PEAK
run() {
  local name=$1 out=$2 best_cpu= best_line=
  shift 2
  for _ in 1 2 3; do
    /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" ||
      { echo "$name failed:"; cat "$work/err"; return 0; }
    read -r wall user sys kb <"$work/t"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    if [ -z "$best_cpu" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then
      best_cpu=$cpu
      best_line=$(awk -v n="$name" -v w="$wall" -v c="$cpu" -v k="$kb" -v o="$(stat -c %s "$out")" \
        'BEGIN { printf "%-34s %8.2f %8.2f %9.1f %9.1f", n, w, c, k / 1024, o / 1048576 }')
      PEAK[$name]=$kb
    fi
  done
  CPU[$name]=$best_cpu
  echo "$best_line"
}
run "seawx storms (all kinds)" "$work/seawx.geojson" \
  "$seawx" storms -q --input "$work/archive.json" -o "$work/seawx.geojson"
run "seawx storms (tracks, points)" "$work/seawx_pts.geojson" \
  "$seawx" storms -q --input "$work/archive.json" --kinds storm,track_point,forecast_point \
  -o "$work/seawx_pts.geojson"
if command -v python3 >/dev/null; then
  run "python json (all kinds)" "$work/py.geojson" \
    python3 "$here/py_convert.py" "$work/archive.json" "$work/py.geojson"
else
  echo "python3 missing: skipped"
fi
if command -v jq >/dev/null; then
  run "jq (tracks, points)" "$work/jq.geojson" \
    sh -c "jq -c -f '$here/jq_convert.jq' '$work/archive.json' >'$work/jq.geojson'"
else
  echo "jq missing: skipped"
fi
echo
in_kb=$(( $(stat -c %s "$work/archive.json") / 1024 ))
a="seawx storms (all kinds)"
awk -v c="${CPU[$a]}" -v p="${PEAK[$a]}" -v i="$in_kb" 'BEGIN {
  printf "seawx, all kinds: %.2f s CPU (target < 1 s: %s), peak %.1f MiB = %.2f x input (target < 2: %s)\n",
    c, (c < 1 ? "met" : "missed"), p / 1024, p / i, (p / i < 2 ? "met" : "missed") }'
if [ -n "${CPU[python json (all kinds)]:-}" ]; then
  awk -v s="${CPU[$a]}" -v q="${CPU[python json (all kinds)]}" -v ps="${PEAK[$a]}" \
    -v pq="${PEAK[python json (all kinds)]}" \
    'BEGIN { printf "python / seawx: %.1fx the CPU time, %.1fx the peak memory\n", q / s, pq / ps }'
fi
b="seawx storms (tracks, points)"
if [ -n "${CPU[jq (tracks, points)]:-}" ]; then
  awk -v s="${CPU[$b]}" -v q="${CPU[jq (tracks, points)]}" -v ps="${PEAK[$b]}" \
    -v pq="${PEAK[jq (tracks, points)]}" \
    'BEGIN { printf "jq / seawx (tracks, points): %.1fx the CPU time, %.1fx the peak memory\n", q / s, pq / ps }'
fi
