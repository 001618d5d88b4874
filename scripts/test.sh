#!/usr/bin/env bash
# The test command: installs the dependencies, then builds three times and
# runs each test in the one stage where it adds something (the label each
# test carries in tests/CMakeLists.txt; docs/testing.md, "Which stage runs
# what", has the table and the reasons):
#   1. builds with warnings as errors into build/;
#   2. builds with AddressSanitizer and UndefinedBehaviorSanitizer (no
#      recovery) into build-asan/ and runs the tests labelled asan: the unit
#      tests, the fuzz corpora replayed, and the end-to-end tests of the seawx
#      command (GDAL's own programs in them load the plugin of step 1: an
#      uninstrumented gdalinfo cannot load an instrumented plugin);
#   3. builds what runs threads with ThreadSanitizer into build-tsan/ and runs
#      the tests labelled tsan (the worker pool, the seeder's checkers, the
#      window decoders, the disk cache, and 8 threads through GDAL);
#   4. checks that the sources are formatted as .clang-format says;
#   5. runs the tests labelled main in build/ (the GDAL plugin in GDAL's
#      programs and QGIS, the viewers, the stand-in's own products, the
#      schedulers, installing) and those labelled valgrind (the fuzz corpora
#      replayed under valgrind, for reads of uninitialised memory), ending on
#      ctest's summary.
# Any finding of a sanitizer or of valgrind fails the run.
#
# SEAWX_TEST_LOAD=N runs N busy loops beside the whole run (1: one per core),
# as a busy CI machine would: the suite must pass under that load, and its
# interrupting tests wait for observed progress, never a fixed time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SEAWX_BUILD_DIR:-$root/build}
bash "$root/scripts/install-deps.sh"

load=${SEAWX_TEST_LOAD:-0}
case "$load" in
  '' | *[!0-9]*) echo "SEAWX_TEST_LOAD must be a whole number (busy loops; 1: one per core)" >&2; exit 2 ;;
esac
[ "$load" -eq 1 ] && load=$(nproc)
hogs=()
stop_hogs() { [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null || true; }
trap stop_hogs EXIT
for _ in $(seq "$load"); do
  bash -c 'while :; do :; done' &
  hogs+=($!)
done
[ "$load" -eq 0 ] || echo "== load: $load busy loops beside the run (SEAWX_TEST_LOAD)"

echo "== build (warnings as errors): $build"
bash "$root/scripts/build.sh" -DSEAWX_WERROR=ON -DSEAWX_BUILD_TESTS=ON -DSEAWX_VALGRIND=ON

echo "== sanitizers: $root/build-asan"
SEAWX_BUILD_DIR="$root/build-asan" bash "$root/scripts/build.sh" \
  -DCMAKE_BUILD_TYPE=Debug -DSEAWX_SANITIZE=ON -DSEAWX_BUILD_TESTS=ON \
  -DSEAWX_TEST_DRIVER_PATH="$build/driver" -DSEAWX_TEST_SIM="$build/samples/seawx-sim" >/dev/null
(
  cd "$root/build-asan"
  export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1
  # fontconfig's process-wide cache, kept until exit (tests/lsan.supp says why)
  export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  ctest --output-on-failure -j2 --timeout 900 -L '^asan$'
)

echo "== ThreadSanitizer: $root/build-tsan"
# GDAL's own lock-order reports are suppressed (tests/tsan.supp says why);
# data races never are. The build runs GDAL too (the sample files).
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/tests/tsan.supp"
cmake -S "$root" -B "$root/build-tsan" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSEAWX_TSAN=ON -DSEAWX_BUILD_TESTS=ON >/dev/null
cmake --build "$root/build-tsan" -j"$(nproc)" --target seawx_tsan_tests >/dev/null
(
  cd "$root/build-tsan"
  ctest --output-on-failure -j2 --timeout 900 -L '^tsan$'
)
unset TSAN_OPTIONS

echo "== formatting"
bash "$root/scripts/check-format.sh"

echo "== the plugin, the viewers, installing, and the fuzz corpora under valgrind: $build"
cd "$build"
ctest --output-on-failure -j2 --timeout 900 -L '^(main|valgrind)$'
