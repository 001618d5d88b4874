#!/usr/bin/env bash
# bench/encode/run.sh: what each tile encoding of `seawx seed --format` costs
# and saves, on four kinds of layer of seawx-sim (loopback only):
#   smooth     basic t2m:K, style temp:K/nearest          a smooth colour ramp
#   contours   basic t2m:K, style temp:K/nearestcontour   the same ramp with contours
#   classes    precipitation ptype                        stepped classes
#   sea        maritime swh:m                             land fully transparent
# Each layer is seeded over the same area and zooms in png (the service's
# bytes, the reference), png8, webp (lossless), webp --quality 80, webp
# --quality 60 and jpeg (layers without transparency only). Reported per
# layer and encoding:
#   bytes per tile (mean over the tiles of the file, before deduplication) and
#   their share of the service's PNG;
#   PSNR over the pixels visible in the service's tiles, and the largest
#   per-channel error, against the decoded service tiles (every tile of the
#   highest zoom, through GDAL's MBTiles driver, tests/tools/rastercmp --psnr);
#   CPU per tile of seawx (user + system, GNU time) and the extra CPU per tile
#   of encoding against the png run (seawx-sim's rendering is not in it).
# Each seed runs BENCH_REPEAT times (default 3) into a fresh file; the median
# CPU is reported. Settings: SEAWX_BUILD (default <repo>/build), BENCH_BBOX
# (default -20,35,20,60), BENCH_ZOOMS (default 3-7), BENCH_KEEP=1 keeps the
# work folder. Writes the table to stdout and to bench/encode/last-run.md, keeping
# the sections measured by hand below it (from its first "## " heading on).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${SEAWX_BUILD:-$repo/build}
cli=${SEAWX_CLI:-$build/tilecli/seawx}
sim=${SEAWX_SIM:-$build/samples/seawx-sim}
cmp=${SEAWX_RASTERCMP:-$build/tests/rastercmp}
bbox=${BENCH_BBOX:--20,35,20,60}
zooms=${BENCH_ZOOMS:-3-7}
repeat=${BENCH_REPEAT:-3}
for p in "$cli" "$sim" "$cmp"; do
  [ -x "$p" ] || { echo "bench/encode: $p is missing: build first (SEAWX_BUILD)" >&2; exit 1; }
done
W=$(mktemp -d /tmp/seawx-bench-encode.XXXXXX)
sim_pid=
cleanup() {
  [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null && wait "$sim_pid" 2>/dev/null
  [ "${BENCH_KEEP:-0}" = 1 ] && echo "bench/encode: kept $W" >&2 || rm -rf "$W"
}
trap cleanup EXIT
key="bench-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
"$sim" --port 0 --port-file "$W/port" --key "$key" 2>"$W/sim.log" &
sim_pid=$!
for _ in $(seq 200); do [ -s "$W/port" ] && break; sleep 0.025; done
export SEAWX_BASE_URL=http://127.0.0.1:$(cat "$W/port") SEAWX_API_KEY=$key

layers=(
  "smooth|-b basic -v t2m:K -s temp:K/nearest"
  "contours|-b basic -v t2m:K -s temp:K/nearestcontour"
  "classes|-b precipitation -v ptype"
  "sea|-b maritime -v swh:m"
)
encodings=("png|" "png8|--format png8" "webp|--format webp" "webp q80|--format webp --quality 80"
  "webp q60|--format webp --quality 60" "jpeg|--format jpeg")
zmax=${zooms##*-}

out="$W/table.md"
{
  echo "Area $bbox, zooms $zooms, 256 px tiles, median CPU of $repeat runs, $(nproc) cores."
  echo
  echo "| layer | encoding | bytes/tile | of png | PSNR dB | max err | CPU ms/tile | encode ms/tile |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
} >"$out"
for l in "${layers[@]}"; do
  lname=${l%%|*}
  largs=${l#*|}
  png_cpu=
  png_bytes=
  for e in "${encodings[@]}"; do
    ename=${e%%|*}
    eargs=${e#*|}
    tag="$lname-${ename// /}"
    cpus=()
    ok=1
    for r in $(seq "$repeat"); do
      rm -f "$W/$tag.mbtiles"
      # shellcheck disable=SC2086
      if ! /usr/bin/time -f "%U %S" -o "$W/$tag.time" "$cli" seed $largs --bbox "$bbox" \
        -z "$zooms" -q $eargs -o "$W/$tag.mbtiles" 2>"$W/$tag.err"; then
        ok=0
        break
      fi
      cpus+=("$(awk '{printf "%.3f", $1 + $2}' "$W/$tag.time")")
    done
    if [ "$ok" = 0 ]; then
      echo "| $lname | $ename | refused: $(tail -1 "$W/$tag.err" | sed 's/^seawx: error: //') ||||||" >>"$out"
      continue
    fi
    cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    tiles=$(sqlite3 "$W/$tag.mbtiles" 'select count(*) from map')
    bytes=$(sqlite3 "$W/$tag.mbtiles" 'select sum(length(tile_data)) from tiles')
    gdal_translate -q "$W/$tag.mbtiles" "$W/$tag.tif"
    if [ "$ename" = png ]; then
      png_cpu=$cpu
      png_bytes=$bytes
      q="| ref | ref"
    else
      q=$("$cmp" --psnr 0 "$W/$lname-png.tif" "$W/$tag.tif" |
        awk '{printf "| %s | %s", ($2 >= 99 ? "exact" : $2), $10}' | tr -d ,)
    fi
    awk -v l="$lname" -v e="$ename" -v t="$tiles" -v b="$bytes" -v pb="$png_bytes" \
      -v c="$cpu" -v pc="$png_cpu" -v q="$q" 'BEGIN {
        printf "| %s | %s | %.0f | %.0f %% %s | %.2f | %.2f |\n", l, e, b / t, 100 * b / pb, q,
          1000 * c / t, 1000 * (c - pc) / t }' >>"$out"
  done
done
echo "PSNR and largest error over zoom $zmax (every tile); bytes/tile over all zooms." >>"$out"
cat "$out"
# Sections measured by hand (from the first "## " heading on) stay below the table.
hand=$(sed -n '/^## /,$p' "$here/last-run.md" 2>/dev/null || true)
cp "$out" "$here/last-run.md"
[ -z "$hand" ] || printf '\n%s\n' "$hand" >>"$here/last-run.md"
