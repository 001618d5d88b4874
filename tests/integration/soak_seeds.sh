#!/usr/bin/env bash
# soak_seeds.sh: test_soak.sh's seed under faults, over many fault seeds, beside
# busy loops, to find a race that one seed a run does not. Each seed's run must
# store all 4,349 tiles, equal to a fault-free seed made once, and every GetMap
# the stand-in faulted must have been asked again (test_soak.sh's checks).
#
#   tests/integration/soak_seeds.sh [FIRST [COUNT]]      (defaults 1 and 200)
# Settings: SOAK_BUILD (default build-asan/, the sanitizer build; build/ works
# too), SOAK_LOAD busy loops beside the runs (default one per core, as
# SEAWX_TEST_LOAD=1 in scripts/test.sh), SOAK_DIR (kept, default a new folder
# under /tmp). Prints a line a seed and a summary; exits 1 when any seed failed,
# its log kept in SOAK_DIR. Loopback only; the test command never runs this.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
FIRST=${1:-1}
COUNT=${2:-200}
BUILD=${SOAK_BUILD:-$top/build-asan}
LOAD=${SOAK_LOAD:-$(nproc)}
W=${SOAK_DIR:-$(mktemp -d /tmp/seawx-soak-seeds.XXXXXX)}
mkdir -p "$W"
export SEAWX_CLI=$BUILD/tilecli/seawx SEAWX_SIM=$top/build/samples/seawx-sim
export SEAWX_RASTERCMP=$BUILD/tests/tools/rastercmp
[ -x "$SEAWX_CLI" ] && [ -x "$SEAWX_SIM" ] || { echo "soak_seeds.sh: build seawx first ($BUILD and build/)"; exit 1; }
export LSAN_OPTIONS=suppressions=$top/tests/lsan.supp ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

busy=()
for _ in $(seq "$LOAD"); do
  (while :; do :; done) &
  busy+=($!)
done
trap 'kill "${busy[@]}" 2>/dev/null' EXIT

echo "soak_seeds: fault seeds $FIRST..$((FIRST + COUNT - 1)), $SEAWX_CLI, $LOAD busy loops, logs in $W"
failed=0 t0=$SECONDS
for seed in $(seq "$FIRST" $((FIRST + COUNT - 1))); do
  s0=$SECONDS
  SEAWX_KEEP_TEST_DIR=1 SOAK_FAULT_SEED=$seed SOAK_SEED_ONLY=1 SOAK_REF=$W/ref.mbtiles \
    bash "$here/test_soak.sh" >"$W/seed-$seed.log" 2>&1
  rc=$?
  kept=$(sed -n 's/^# kept: //p' "$W/seed-$seed.log")
  line=$(grep -m1 '^# seed:' "$W/seed-$seed.log")
  asked=$(grep -o 'asked again, nothing else twice ([0-9]* = [0-9]* + [0-9]*)' "$W/seed-$seed.log" | grep -o '+ [0-9]*' | tr -d '+ ')
  if [ "$rc" -eq 0 ]; then
    echo "seed $seed: ok, ${asked:-?} faulted GetMaps asked again, $((SECONDS - s0)) s (${line#\# seed: })"
    rm -f "$W/seed-$seed.log"
    [ -n "$kept" ] && rm -rf "$kept"
  else
    failed=$((failed + 1))
    echo "seed $seed: FAILED (log $W/seed-$seed.log, folder $kept): $(grep -m3 '^FAILED' "$W/seed-$seed.log" | tr '\n' ' ')"
    # the seeder's own words for what failed (a tile's last error and its tries)
    grep -h 'failed:' "$kept/f.err" 2>/dev/null | sed 's/^/    /' | cut -c1-300
  fi
done
echo "soak_seeds: $COUNT seeds, $failed failed, $((SECONDS - t0)) s"
[ "$failed" -eq 0 ]
