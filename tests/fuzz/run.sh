#!/usr/bin/env bash
# Fuzzes every target for MINUTES each (default 2) with libFuzzer, clang and
# AddressSanitizer + UndefinedBehaviorSanitizer, growing corpus/<name>/ in place.
# A crash is kept as corpus/<name>/crash-* (commit it once fixed: ctest replays
# it from then on). Prints executions and findings per target, and appends them
# to tests/fuzz/ledger.tsv, whose totals (every run ever recorded) close the
# report: the executions each target has had over the project's life.
#   usage: tests/fuzz/run.sh [MINUTES] [TARGET...]
#          tests/fuzz/run.sh --report      (the ledger's totals only)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
minutes=${1:-2}
[ "$minutes" = --report ] || secs=${FUZZ_SECONDS:-$((minutes * 60))}  # FUZZ_SECONDS overrides, for short runs
shift || true
build=$root/build-fuzz
ledger=$root/tests/fuzz/ledger.tsv

report() {
  echo "life totals (tests/fuzz/ledger.tsv):"
  awk -F'\t' 'NR > 1 { e[$2] += $3; f[$2] += $4; s[$2] += $5 }
    END { for (t in e) printf "  %-18s %12d execs %3d findings %7.1f min\n", t, e[t], f[t], s[t] / 60 }' \
    "$ledger" | sort
}
if [ "$minutes" = --report ]; then report; exit 0; fi
command -v clang >/dev/null || { echo "run.sh: needs clang (apt-get install clang)"; exit 1; }
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSEAWX_SANITIZE=ON -DSEAWX_FUZZ=ON >/dev/null || exit 1
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$root"/tests/fuzz/fuzz_*.c; do t=$(basename "$f" .c); targets+=("${t#fuzz_}"); done
fi
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null || exit 1
printf '%-18s %12s %8s %s\n' target executions findings corpus
status=0
for t in "${targets[@]}"; do
  corpus=$root/tests/fuzz/corpus/$t
  mkdir -p "$corpus"
  log=$build/fuzz_$t.log
  (cd "$corpus" && ASAN_OPTIONS=detect_leaks=1 "$build/tests/fuzz/fuzz_$t" -max_total_time=$secs \
    -timeout=10 -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$corpus/" "$corpus" >"$log" 2>&1)
  rc=$?
  execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  found=$(ls "$corpus"/crash-* "$corpus"/leak-* "$corpus"/timeout-* "$corpus"/oom-* 2>/dev/null | wc -l)
  # Keep the corpus small: only inputs that add coverage (crashers stay).
  if [ "$found" -eq 0 ]; then
    rm -rf "$build/merge-$t" && mkdir -p "$build/merge-$t"
    if "$build/tests/fuzz/fuzz_$t" -merge=1 -max_len=65536 "$build/merge-$t" "$corpus" \
      >>"$log" 2>&1; then
      find "$corpus" -maxdepth 1 -type f -delete && cp "$build/merge-$t"/* "$corpus"/
    fi
  fi
  [ $rc -ne 0 ] && status=1
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$t" "${execs:-0}" "$found" "$secs" \
    >>"$ledger"
  printf '%-18s %12s %8s %s\n' "$t" "${execs:-?}" "$found" "$(ls "$corpus" | wc -l) files"
done
report
exit $status
