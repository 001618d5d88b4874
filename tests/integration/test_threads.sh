#!/usr/bin/env bash
# SEAWX rasters read through GDAL from 8 threads at once for STRESS_SECONDS
# (default 30): two layers, the same layer twice, the cache on and off, a
# 2 MB cache limit so that entries are pruned while other threads read them.
# Every window must equal the single-threaded read (tests/stress/
# stress_threads.c). The test command runs it under ThreadSanitizer,
# where any data race fails it. The plugin is this build's own, so that an
# instrumented program loads an instrumented plugin.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${SEAWX_STRESS_THREADS:?run through ctest}"
sim_start
export GDAL_DRIVER_PATH=$SEAWX_BUILD_DIR/driver SEAWX_CACHE_DIR=$T/cache SEAWX_CACHE_MAX_MB=2
secs=${STRESS_SECONDS:-30}
check "8 threads for ${secs} s: every window equals the single-threaded read" \
  sh -c "'$SEAWX_STRESS_THREADS' '$secs' 8 >'$T/out' 2>'$T/err'; rc=\$?; cat '$T/out'; head -20 '$T/err'; exit \$rc"
check "no sanitizer or race report" sh -c "! grep -qE 'ThreadSanitizer|AddressSanitizer|runtime error' '$T/err'"
check "the cache was used and stayed near its limit" sh -c \
  "test -d '$T/cache' && test \$(du -sk '$T/cache' | cut -f1) -lt 4096"
check "the key is in no output" no_key_in "$T/out" "$T/err"
finish
