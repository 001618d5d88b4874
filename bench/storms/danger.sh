#!/usr/bin/env bash
# danger.sh: cones, 1-2-3 danger areas and wind swaths for the whole synthetic
# storm archive (gen_archive.c: about 3,500 storms and 150,000 positions) with
# `seawx storms --kinds cone,danger_area,wind_swath`, against the obvious
# Python route (py_danger.py, shapely from Debian's python3-shapely). Reports
# CPU time, wall time and peak memory (GNU time) of each, once, and the ratio.
# Targets for seawx: under 2 s and at least 20 times faster than Python.
#   bench/storms/danger.sh [BUILD_DIR]        (default: build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
seawx=$build/tilecli/seawx
work=$(mktemp -d /tmp/seawx-bench-danger.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -x "$seawx" ] || { echo "danger.sh: build seawx first ($seawx)"; exit 1; }
[ -x /usr/bin/time ] || { echo "danger.sh: GNU time is needed: bash $here/install-peers.sh"; exit 1; }

. "$here/archive.sh"
build_archive
echo "input: $(sed 's/^gen_archive: //' "$work/gen.log")"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-36s %8s %8s %9s %9s\n' tool "wall s" "cpu s" "peak MiB" features
declare -A CPU
run() {
  local name=$1 out=$2
  shift 2
  /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" ||
    { echo "$name failed:"; cat "$work/err"; return 0; }
  read -r wall user sys kb <"$work/t"
  CPU[$name]=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  printf '%-36s %8.2f %8.2f %9.1f %9d\n' "$name" "$wall" "${CPU[$name]}" \
    "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" "$(grep -o '"kind": *"[a-z_]*"' "$out" | wc -l)"
}
run "seawx storms (cone,danger,swath)" "$work/seawx.geojson" \
  "$seawx" storms -q --input "$work/archive.json" --kinds cone,danger_area,wind_swath \
  -o "$work/seawx.geojson"
if /usr/bin/python3 -c 'import shapely' 2>/dev/null; then
  run "python shapely (cone,danger,swath)" "$work/py.geojson" \
    /usr/bin/python3 "$here/py_danger.py" "$work/archive.json" "$work/py.geojson"
else
  echo "python3-shapely missing: skipped"
fi
a="seawx storms (cone,danger,swath)" b="python shapely (cone,danger,swath)"
awk -v c="${CPU[$a]}" 'BEGIN { printf "seawx: %.2f s CPU (target < 2 s: %s)\n", c, (c < 2 ? "met" : "missed") }'
if [ -n "${CPU[$b]:-}" ]; then
  awk -v s="${CPU[$a]}" -v q="${CPU[$b]}" \
    'BEGIN { printf "python / seawx: %.1fx the CPU time (target >= 20x: %s)\n", q / s, (q / s >= 20 ? "met" : "missed") }'
fi
