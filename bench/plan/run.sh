#!/usr/bin/env bash
# bench/plan/run.sh: the departure planner (`seawx plan`) in one run against
# seawx-sim (started here on a free loopback port, clock at 2024-10-01T12:00Z),
# over tests/fixtures/voyage/atlantic_1000nm.csv (about 1,000 nm, 68 sample
# points at the default 15 nm), departures 6 h apart from the newest run:
#  1. requests to the service (the sim's access log) against the sample
#     points, for 1, 5, 28 and 120 departures at 6-8 kn with the storms: the
#     count must not grow with the departures (120 departures reach past the
#     forecast's end: those are left out, the requests stay the same);
#  2. the plan's CPU time once the forecast is in (`--timing`, median of RUNS
#     runs; the target is under 0.2 s, and the table says whether it is met)
#     and the wall time of the whole command, for 28 departures with a 6-8 kn
#     band and with a polar (tests/fixtures/plan/cruiser.pol, 4 kn under
#     engine), each with the storms and without (--no-storms);
#  3. the peer: the naive way with the tools a user has, one
#     `seawx forecast point -b basic,maritime` per sample point per departure
#     (the same points, bundles and units as the plan asks), one after the
#     other as a shell loop runs them, for the 28 departures: requests and wall
#     time against the plan's (and that before sailing a single ship).
# Writes bench/plan/last-run.md.
#   SEAWX_BUILD   the build folder (default: <repo>/build); SEAWX_CLI, SEAWX_SIM override
#   RUNS          timed runs per case (default 5)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${SEAWX_BUILD:-$top/build}
CLI=${SEAWX_CLI:-$BUILD/tilecli/seawx}
SIM=${SEAWX_SIM:-$BUILD/samples/seawx-sim}
RUNS=${RUNS:-5}
ROUTE=$top/tests/fixtures/voyage/atlantic_1000nm.csv
POLAR=$top/tests/fixtures/plan/cruiser.pol
NOW=2024-10-01T12:00:00Z
T=$(mktemp -d /tmp/seawx-bench-plan.XXXXXX)
"$SIM" --port 0 --port-file "$T/port" --key bench-key --now "$NOW" --access-log "$T/access.log" \
  2>"$T/sim.log" &
sim=$!
trap 'kill $sim 2>/dev/null; wait $sim 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 200); do [ -s "$T/port" ] && break; sleep 0.025; done
[ -s "$T/port" ] || { echo "seawx-sim did not start" >&2; cat "$T/sim.log" >&2; exit 1; }
export SEAWX_BASE_URL=http://127.0.0.1:$(cat "$T/port") SEAWX_API_KEY=bench-key
unset SEAWX_CACHE_DIR
cd "$T"
: >access.log

# The first departure: the stand-in's newest run (4 hours before its clock,
# on a 6-hour boundary); departure N is 6 (N - 1) hours after it.
from=$(python3 -c "
import datetime as d
run = d.datetime.strptime('$NOW', '%Y-%m-%dT%H:%M:%SZ') - d.timedelta(hours=4)
print(run.replace(hour=run.hour // 6 * 6, minute=0, second=0).strftime('%Y-%m-%dT%H:%MZ'))")
to() { python3 -c "
import datetime as d
t = d.datetime.strptime('$from', '%Y-%m-%dT%H:%MZ') + d.timedelta(hours=6 * ($1 - 1))
print(t.strftime('%Y-%m-%dT%H:%MZ'))"; }

# The access log's lines, once the sim has written those of the requests
# answered (it logs a request after answering it): read until two reads agree.
lines() {
  local a b
  b=$(wc -l <access.log)
  while :; do sleep 0.05; a=$b; b=$(wc -l <access.log); [ "$a" = "$b" ] && break; done
  echo "$b"
}
# what FROM TO: requests to /forecast/point, to /storm/json, or all of them,
# between line FROM (excluded) and TO of the log
count() {
  awk -v a="$2" -v b="$3" -v what="$1" 'NR > a && NR <= b {
      n++; if ($0 ~ / \/forecast\/point\?/) p++; if ($0 ~ / \/storm\/json/) s++
    } END { print what == "point" ? p + 0 : what == "storm" ? s + 0 : n + 0 }' access.log
}
now_s() { date +%s.%N; }
median() { sort -g | awk '{v[NR] = $1} END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cpu_ms() { sed -n -E 's/.*took ([0-9.]+) ms of CPU.*/\1/p' "$1"; }

band=("$CLI" plan --route "$ROUTE" --speed 6-8 --max-wind 25kn --max-gust 35kn --max-wave 3m
  --max-upwind 24)
polar=("$CLI" plan --route "$ROUTE" --polar "$POLAR" --speed 4 --max-wind 25kn --max-gust 35kn
  --max-wave 3m --max-upwind 24)

# ---- 1. requests against the departures ----
declare -A P S A W K N
for n in 1 5 28 120; do
  l0=$(lines)
  t0=$(now_s)
  "${band[@]}" --departures "$from/$(to $n)/6h" --json "p$n.json" --timing -q >"p$n.out" 2>"p$n.err"
  t1=$(now_s)
  l1=$(lines)
  P[$n]=$(count point "$l0" "$l1") S[$n]=$(count storm "$l0" "$l1") A[$n]=$(count all "$l0" "$l1")
  W[$n]=$(python3 -c "print('%.2f' % ($t1 - $t0))")
  read -r K[$n] N[$n] < <(python3 -c "
import json; p = json.load(open('p$n.json'))
print(len(p['departures']), len(p['route']['samples']))")
done
samples=${N[28]}
for n in 1 5 120; do
  [ "${P[$n]}" = "${P[28]}" ] || { echo "the requests grew with the departures: ${P[$n]} for $n, ${P[28]} for 28" >&2; exit 1; }
done
[ "${P[28]}" = "$samples" ] || { echo "${P[28]} point requests for $samples sample points" >&2; exit 1; }

# ---- 2. CPU time after the fetch, and wall time, band and polar ----
d28="$from/$(to 28)/6h"
cases="band band-nostorms polar polar-nostorms"
for c in $cases; do : >"$c.cpu"; : >"$c.wall"; done
for _ in $(seq "$RUNS"); do
  for c in $cases; do
    case $c in band*) cmd=("${band[@]}") ;; *) cmd=("${polar[@]}") ;; esac
    case $c in *-nostorms) cmd+=(--no-storms) ;; esac
    t0=$(now_s)
    "${cmd[@]}" --departures "$d28" --json "$c.json" --timing -q >"$c.out" 2>"$c.err"
    t1=$(now_s)
    cpu=$(cpu_ms "$c.err")
    [ -n "$cpu" ] || { echo "no timing line from $c" >&2; cat "$c.err" >&2; exit 1; }
    echo "$cpu" >>"$c.cpu"
    python3 -c "print($t1 - $t0)" >>"$c.wall"
  done
done
declare -A CPU WALL INFO
for c in $cases; do
  CPU[$c]=$(median <"$c.cpu") WALL[$c]=$(median <"$c.wall")
  INFO[$c]=$(sed -n -E 's/^seawx: timing: (.*)/\1/p' "$c.err")
done
bwall=${WALL[band]}

# ---- 3. the peer: one point forecast per sample point per departure ----
python3 -c "
import json
for s in json.load(open('p28.json'))['route']['samples']:
    print(s['lat'], s['lon'])" >points.txt
l0=$(lines)
t0=$(now_s)
for _ in $(seq 28); do
  while read -r lat lon; do
    "$CLI" forecast point --lat "$lat" --lon "$lon" -b basic,maritime -u si -o naive.json -q
  done <points.txt
done
t1=$(now_s)
l1=$(lines)
np=$(count point "$l0" "$l1") na=$(count all "$l0" "$l1")
nwall=$(python3 -c "print('%.2f' % ($t1 - $t0))")
[ "$np" = $((samples * 28)) ] || { echo "the peer asked $np point forecasts, not $((samples * 28))" >&2; exit 1; }

out=$top/bench/plan/last-run.md
{
  echo "# Departure plan: requests and time ($(date -u +%Y-%m-%d), seawx-sim, atlantic_1000nm, 6 h apart)"
  echo
  echo "\`bash bench/plan/run.sh\` on the shared 2-core machine (load $(cut -d' ' -f1 /proc/loadavg)),"
  echo "seawx $(git -C "$top" rev-parse --short HEAD). The route: $samples sample points at"
  echo "15 nm; first departure $from (the stand-in's newest run, clock $NOW)."
  echo
  echo "## Requests against the departures (6-8 kn, storms on)"
  echo
  echo "| departures asked | planned | /forecast/point | sample points | /storm/json | all requests | wall s |"
  echo "|---|---|---|---|---|---|---|"
  for n in 1 5 28 120; do
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$n" "${K[$n]}" "${P[$n]}" "${N[$n]}" "${S[$n]}" \
      "${A[$n]}" "${W[$n]}"
  done
  echo
  echo "The departures at or after the forecast's end are left out of the plan"
  echo "(\"planned\" counts those kept); the requests do not change."
  echo
  echo "## CPU time after the fetch (28 departures; median of $RUNS runs; target under 200 ms)"
  echo
  echo "| ship | storms | --timing, ms of CPU | target | wall s, whole command |"
  echo "|---|---|---|---|---|"
  for c in $cases; do
    case $c in band*) ship="band 6-8 kn (two ships per departure)" ;;
      *) ship="polar cruiser.pol, 4 kn under engine" ;; esac
    case $c in *-nostorms) st="--no-storms" ;; *) st="on, $(sed -n -E 's/.*\(([0-9]+) storms?\).*/\1/p' <<<"${INFO[$c]}") active" ;; esac
    met=$(python3 -c "print('met' if ${CPU[$c]} < 200 else '**not met**')")
    printf '| %s | %s | %.1f | %s | %.2f |\n' "$ship" "$st" "${CPU[$c]}" "$met" "${WALL[$c]}"
  done
  echo

  echo "## Against the naive way (28 departures)"
  echo
  echo "One \`seawx forecast point --lat --lon -b basic,maritime -u si\` per sample point per"
  echo "departure, in a shell loop (the point forecasts only: nothing sailed yet)."
  echo
  echo "| way | /forecast/point | all requests | wall s |"
  echo "|---|---|---|---|"
  printf '| seawx plan (band, storms) | %s | %s | %.2f |\n' "${P[28]}" "${A[28]}" "$bwall"
  printf '| forecast point per sample per departure | %s | %s | %s |\n' "$np" "$na" "$nwall"
  printf '| ratio, naive / plan | %.1fx | %.1fx | %.1fx |\n' \
    "$(python3 -c "print($np / ${P[28]})")" "$(python3 -c "print($na / ${A[28]})")" \
    "$(python3 -c "print($nwall / $bwall)")"
} >"$out"
cat "$out"
