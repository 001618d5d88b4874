#!/usr/bin/env bash
# bench/voyage/run.sh: what a voyage saves against the whole corridor, in
# tiles, per scenario of tests/integration/test_voyage.sh (seawx-sim, maritime
# swh, zooms 3-8, 50 nm buffer, every valid time). The counts are the dry
# run's, which the test holds equal to the tiles a seed fetches. Writes
# bench/voyage/last-run.md.
#   SEAWX_BUILD   the build folder (default: <repo>/build); SEAWX_CLI, SEAWX_SIM override
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${SEAWX_BUILD:-$top/build}
CLI=${SEAWX_CLI:-$BUILD/tilecli/seawx}
SIM=${SEAWX_SIM:-$BUILD/samples/seawx-sim}
F=$top/tests/fixtures/voyage
T=$(mktemp -d /tmp/seawx-bench-voyage.XXXXXX)
"$SIM" --port 0 --port-file "$T/port" --key bench-key 2>"$T/sim.log" &
sim=$!
trap 'kill $sim 2>/dev/null; wait $sim 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 200); do [ -s "$T/port" ] && break; sleep 0.025; done
export SEAWX_BASE_URL=http://127.0.0.1:$(cat "$T/port") SEAWX_API_KEY=bench-key
seed=("$CLI" seed -b maritime -v swh -t all -z 3-8 --buffer 50 -n)
all() { awk '$1 == "all" {print $(NF - 1)}'; }
out=$top/bench/voyage/last-run.md
{
  echo "# Voyage against corridor ($(date -u +%Y-%m-%d), seawx-sim, maritime swh, zooms 3-8, 50 nm)"
  echo
  echo "| route | run | speed | valid times kept / asked | voyage tiles | corridor, same times | share | corridor, all asked | share |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for sc in "atlantic_1000nm latest 6-8" "atlantic_1000nm latest 7" "pacific_180 latest 6-8" \
            "atlantic_1000nm 00 6-8"; do
    set -- $sc
    runarg=()
    [ "$2" = latest ] || runarg=(--run "$("$CLI" layers -b maritime -v swh --json |
      python3 -c "import json,sys; print([l for l in json.load(sys.stdin) if l['run'][11:13] == '$2'][0]['name'].split('/')[1] + '$2')")")
    dep=$("$CLI" layers -b maritime -v swh --json | python3 -c "
import json, sys
ls = json.load(sys.stdin)
l = [l for l in ls if l['latest']][0] if '$2' == 'latest' else [l for l in ls if l['run'][11:13] == '$2'][0]
print(l['times'][0])")
    "${seed[@]}" "${runarg[@]}" --route "$F/$1.csv" --depart "$dep" --speed "$3" >"$T/v.out"
    "${seed[@]}" "${runarg[@]}" --route "$F/$1.csv" >"$T/s.out"
    v=$(all <"$T/v.out")
    kept=$(head -1 "$T/v.out" | sed -E 's/.*, ([0-9]+) times?,.*/\1/')
    asked=$(head -1 "$T/s.out" | sed -E 's/.*, ([0-9]+) times?,.*/\1/')
    same=$(sed -n -E 's/^the whole corridor for the same [0-9]+ times?: ([0-9]+) tiles.*/\1/p' "$T/v.out")
    whole=$(all <"$T/s.out")
    printf '| %s | %s | %s kn | %s / %s | %s | %s | %.1f %% | %s | %.1f %% |\n' "$1" "$2" "$3" \
      "$kept" "$asked" "$v" "$same" "$(python3 -c "print(100 * $v / $same)")" "$whole" \
      "$(python3 -c "print(100 * $v / $whole)")"
  done
} >"$out"
cat "$out"
