#!/usr/bin/env bash
# One cache folder shared by several processes, as gdal_translate jobs in a
# script and QGIS sessions share it: four gdal_translate processes at once,
# two of them on the same layer, with a 1 MB limit, so that each process
# prunes entries the others are reading and writing. Every output must equal
# a cache-off read pixel for pixel, no temporary file may be left, and the
# entries must end within the limit plus a sixteenth of it per process: a
# process prunes down to three quarters once it has written a sixteenth, and
# the others may write while it measures.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
cd "$T" || exit 1
export SEAWX_CACHE_DIR=$T/cache SEAWX_CACHE_MAX_MB=1
srcs=(
  "SEAWX:bundle=basic,variable=t2m:K,width=2048"
  "SEAWX:bundle=basic,variable=t2m:K,width=2048"
  "SEAWX:bundle=maritime,variable=swh:m,width=2048"
  "SEAWX:bundle=basic,variable=t2m:K,crs=EPSG:3857,width=1536"
)
# The reference: each source read with the cache off.
for i in "${!srcs[@]}"; do
  gdal_translate -q -of GTiff "${srcs[$i]},cache=no" "ref$i.tif" || { echo "reference $i failed"; exit 1; }
done
# Three rounds of four processes at once on the shared folder.
ok=1
for round in 1 2 3; do
  pids=()
  for i in "${!srcs[@]}"; do
    gdal_translate -q -of GTiff "${srcs[$i]}" "out$round-$i.tif" 2>"err$round-$i" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || ok=0; done
done
check "twelve gdal_translate runs, four at a time, all succeeded" test $ok -eq 1
for round in 1 2 3; do
  for i in "${!srcs[@]}"; do
    check "round $round, source $i: equal to the cache-off read" "$SEAWX_RASTERCMP" "ref$i.tif" "out$round-$i.tif"
  done
done
check "nothing printed an error" sh -c "! cat err* | grep -q ."
size=$(find cache -type f -name '*.swx' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
check "the cache's entries ended within the 1 MiB limit + 4/16 ($size bytes)" test "$size" -gt 0 -a "$size" -le $((1048576 + 4 * 65536))
check "no temporary file left in the cache" sh -c "! find cache -name '*.tmp' | grep -q ."
finish
