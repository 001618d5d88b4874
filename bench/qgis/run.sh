#!/usr/bin/env bash
# bench/qgis/run.sh: QGIS renders the same layer through the SEAWX plugin and
# through QGIS's own WMS provider (HTTP Basic auth, which the interface allows),
# the SEAWX layer both as Add Raster Layer makes it and as the QGIS plugin and
# `seawx qlr` give it (render.py says how they differ),
# against one seawx-sim with injected latency on every answer: three views of
# a canvas in EPSG:4326 (the world, a sea region, a stretch of coast at full
# resolution), each cold (a new QGIS, empty caches) and warm (the same view
# again in that QGIS). Prints the median seconds of each and the ratios
# SEAWX / WMS, writes them to bench/qgis/last-run.md, and says whether the
# two pictures are pixel-identical.
#
#   bash bench/qgis/run.sh [--runs N] [--latency MS]
#
# Needs a build (scripts/build.sh; SEAWX_BUILD_DIR, default build/) with the
# tests' rastercmp, and Debian's python3-qgis (scripts/install-deps.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${SEAWX_BUILD_DIR:-$root/build}
runs=3 latency=50
while [ $# -gt 0 ]; do
  case $1 in
  --runs) runs=$2; shift 2 ;;
  --latency) latency=$2; shift 2 ;;
  *) echo "usage: $0 [--runs N] [--latency MS]" >&2; exit 2 ;;
  esac
done
sim=$build/samples/seawx-sim cmp=$build/tests/rastercmp py=/usr/bin/python3
for f in "$sim" "$cmp" "$build/driver/gdal_SEAWX.so"; do
  [ -e "$f" ] || { echo "run.sh: $f missing: build first (scripts/build.sh)" >&2; exit 1; }
done
"$py" -c 'import qgis.core' 2>/dev/null || { echo "run.sh: python3-qgis missing" >&2; exit 1; }

T=$(mktemp -d /tmp/seawx-bench-qgis.XXXXXX)
key="bench-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
sim_pid=
trap '[ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null; rm -rf "$T"' EXIT
"$sim" --port 0 --port-file "$T/port" --key "$key" --basic-password pw --latency "$latency" \
  --access-log "$T/access.log" 2>"$T/sim.log" &
sim_pid=$!
for _ in $(seq 200); do [ -s "$T/port" ] && break; sleep 0.025; done
port=$(cat "$T/port")
export GDAL_DRIVER_PATH=$build/driver SEAWX_BASE_URL=http://127.0.0.1:$port SEAWX_API_KEY=$key
export QT_QPA_PLATFORM=offscreen GDAL_PAM_ENABLED=NO

# The latest complete run of t2m, at its default time for both (QGIS's WMS
# provider sends a time only for WMS-T layers set up with a temporal range).
layer=$(gdalinfo -json "SEAWX:bundle=basic,variable=t2m:K,run=latest" |
  "$py" -c 'import json, sys; print(json.load(sys.stdin)["metadata"][""]["LAYER"])')
style=$(gdalinfo "SEAWX:bundle=basic,layer=$layer" | sed -n 's/^ *STYLE=//p')
seawx="SEAWX:bundle=basic,layer=$layer"
wms_url="http://127.0.0.1:$port/ows/wms?product=sof-d&bundle=basic"
# Canvas sizes on the grid's levels (1/4, 1/16 and 1/128 degree a pixel), so
# that both pictures are the service's GetMap of the view, pixel for pixel.
views=(
  "world -180,-90,180,90,1440,720"
  "region -60,20,0,60,960,640"
  "coast 1,47,5,50,512,384"
)

one() { # KIND VIEW PNG: a new QGIS with a new home and empty caches
  local home
  home=$(mktemp -d "$T/home.XXXXXX")
  mkdir -m 700 "$home/run"
  if [ "$1" != wms ]; then
    HOME=$home XDG_RUNTIME_DIR=$home/run SEAWX_CACHE_DIR=$home/cache \
      nice "$py" "$here/render.py" "$1" "$seawx" "$2" "$3"
  else
    HOME=$home XDG_RUNTIME_DIR=$home/run \
      nice "$py" "$here/render.py" wms "$wms_url" "$layer" "$style" "" "$key" pw "$2" "$3"
  fi 2>>"$T/qgis.err"
}

echo "layer $layer, style $style, latency ${latency} ms, seawx-sim on port $port"
one seawx "${views[0]#* }" "$T/warmup.png" >/dev/null # seawx-sim's render cache, page cache
: >"$T/times.txt"
for v in "${views[@]}"; do
  name=${v%% *} spec=${v#* }
  for i in $(seq "$runs"); do
    for d in seawx plugin wms; do
      before=$(grep -c 'request=GetMap\|REQUEST=GetMap' "$T/access.log" || true)
      read -r _ open _ cold _ warm < <(one "$d" "$spec" "$T/$name-$d.png")
      after=$(grep -c 'request=GetMap\|REQUEST=GetMap' "$T/access.log" || true)
      echo "$name $d $open $cold $warm $((after - before))" >>"$T/times.txt"
      printf '  %-6s run %d %-5s open %5.2f s  cold %5.2f s  warm %5.2f s  %3d GetMaps\n' \
        "$name" "$i" "$d" "$open" "$cold" "$warm" "$((after - before))"
    done
  done
  for d in seawx plugin; do
    same=$("$cmp" "$T/$name-$d.png" "$T/$name-wms.png" | head -1) || true
    echo "$name $d pixels: $same" >>"$T/pixels.txt"
  done
done
"$py" - "$T/times.txt" "$T/pixels.txt" "$runs" "$latency" "$here/last-run.md" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
pixels = dict(l.rstrip("\n").split(" pixels: ", 1) for l in open(sys.argv[2]))
runs, latency, out = sys.argv[3], sys.argv[4], sys.argv[5]
med = lambda name, d, k: statistics.median(float(r[k]) for r in rows if r[0] == name and r[1] == d)
gm = lambda name, d: statistics.median(int(r[5]) for r in rows if r[0] == name and r[1] == d)
paths = {"seawx": "Add Raster Layer", "plugin": "QGIS plugin / .qlr"}
lines = [
    f"# QGIS: SEAWX plugin against QGIS's WMS provider ({runs} runs, medians, latency {latency} ms)",
    "",
    "SEAWX is timed as a layer added through Add Raster Layer (QGIS reads band statistics",
    "and keeps a contrast enhancement) and as the QGIS plugin and `seawx qlr` give it (no",
    "contrast enhancement). Ratios are SEAWX / WMS.",
    "",
    "| view | SEAWX layer | GetMaps SEAWX / WMS | open SEAWX / WMS | cold SEAWX / WMS | cold ratio "
    "| warm SEAWX / WMS | warm ratio | pixels |",
    "|---|---|---|---|---|---|---|---|---|",
]
for name in dict.fromkeys(r[0] for r in rows):
    for d in ("seawx", "plugin"):
        o = (med(name, d, 2), med(name, "wms", 2))
        c = (med(name, d, 3), med(name, "wms", 3))
        w = (med(name, d, 4), med(name, "wms", 4))
        lines.append(f"| {name} | {paths[d]} | {gm(name, d)} / {gm(name, 'wms')} "
                     f"| {o[0]:.2f} / {o[1]:.2f} s | {c[0]:.2f} / {c[1]:.2f} s | **{c[0] / c[1]:.2f}** "
                     f"| {w[0]:.2f} / {w[1]:.2f} s | **{w[0] / w[1]:.2f}** "
                     f"| {pixels.get(f'{name} {d}', '?')} |")
text = "\n".join(lines) + "\n"
print(text, end="")
open(out, "w").write(text)
PY
