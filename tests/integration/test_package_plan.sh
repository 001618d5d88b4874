#!/usr/bin/env bash
# The departure plan in a voyage package (`seawx voyage --plan`) against
# seawx-sim on a fixed clock: plan.json, plan.csv and plan.png in the package,
# listed in the manifest's "plan" with bytes and SHA-256 that match the files,
# the departures and the counts of each verdict; plan.json's departures are
# those `seawx plan --json` gives for the same route, speed band, departures
# and thresholds (every figure; times of building ignored); the PNG is the
# chart's size; the dry run says the point forecasts the plan asks; bad --plan
# text and --plan with a route that has waypoint times are refused with one
# line, exit 2, nothing sent and nothing written; a budget too small for the
# plan is refused as one too small for the voyage GRIB, the package left as it
# was; departures all past the forecast's end fail the build, exit 5. With
# --storms, the plan sails through the storms that build fetched
# (HELGA on the stand-in's 2024-10-08 clock) and equals seawx plan's.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
NOW=2026-03-02T11:00:00Z
sim_start --now "$NOW"
F=$SEAWX_FIXTURES/voyage
ROUTE=$F/atlantic_1000nm.csv
cd "$T" || exit 1
"$SEAWX_CLI" layers -b maritime -v swh --latest --json >"$T/layers.json" || exit 1
first=$(python3 -c "import json; print(json.load(open('$T/layers.json'))[0]['times'][0])")
last=$(python3 -c "
import datetime as d
t = d.datetime.strptime('$first', '%Y-%m-%dT%H:%M:%SZ') + d.timedelta(hours=5 * 6)
print(t.strftime('%Y-%m-%dT%H:%M:%SZ'))")
DEPS="$first/$last/6h"
V=("$SEAWX_CLI" voyage -b maritime --route "$ROUTE" --depart "$first" --speed 6-8
  --layer swh -z 3 --now "$NOW" -q)
points() { grep -c ' /forecast/point?' "$T/access.log" || true; }
requests() { wc -l <"$T/access.log"; }
samples=$(python3 -c "
import csv, math
R, NM = 6371008.8, 1852.0
pts = [(float(r['lat']), float(r['lon'])) for r in csv.DictReader(open('$ROUTE'))]
L = 0
for (a, b), (c, d) in zip(pts, pts[1:]):
    p1, p2, dl = math.radians(a), math.radians(c), math.radians(d - b)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    L += 2 * math.asin(math.sqrt(h)) * R / NM
print(math.ceil(L / 15 - 1e-9) + 1)")
echo "# departures $DEPS, $samples sample points"

# 1. The dry run says what the plan asks.
check "dry run: the plan's point forecasts quoted, nothing built" sh -c "
  '${V[0]}' ${V[*]:1} --plan '$DEPS' -n >'$T/dry.out' 2>'$T/dry.err' &&
  grep -q -E '^plan +plan.json.* 3 +$samples ' '$T/dry.out' && [ ! -e '$T/pkg' ]"

# 2. Build with the plan.
before=$(points)
check "a package with --plan builds" "${V[@]}" --plan "$DEPS" --plan-max-wind 25kn -o "$T/pkg"
check "  one /forecast/point per sample point ($samples)" test $(($(points) - before)) -eq "$samples"
check "  plan.json, plan.csv and plan.png in the package" \
  test -s "$T/pkg/plan.json" -a -s "$T/pkg/plan.csv" -a -s "$T/pkg/plan.png"
check "  the manifest lists them, bytes and SHA-256 matching, departures and verdicts" \
  python3 - "$T/pkg" <<'PY'
import hashlib, json, os, sys, csv
d = sys.argv[1]
m = json.load(open(os.path.join(d, 'manifest.json')))
pl = m['plan']
names = [f['file'] for f in pl['files']]
assert names == ['plan.json', 'plan.csv', 'plan.png'], names
for f in pl['files']:
    b = open(os.path.join(d, f['file']), 'rb').read()
    assert f['bytes'] == len(b), (f, len(b))
    assert f['sha256'] == hashlib.sha256(b).hexdigest(), f
p = json.load(open(os.path.join(d, 'plan.json')))
deps = p['departures']
assert pl['departures'] == len(deps) == 6, (pl['departures'], len(deps))
rows = list(csv.DictReader(open(os.path.join(d, 'plan.csv'))))
assert len(rows) == 6 and [r['depart'] for r in rows] == [x['depart'] for x in deps]
count = {v: sum(1 for x in deps if x['verdict'] == v) for v in ('go', 'marginal', 'no-go')}
assert (pl['go'], pl['marginal'], pl['no_go']) == (count['go'], count['marginal'], count['no-go']), pl
assert pl['go'] + pl['marginal'] + pl['no_go'] == 6
assert pl['options']['max_wind_kn'] == 25 and pl['options']['max_gust_kn'] is None, pl['options']
assert pl['options']['min_kn'] == 6 and pl['options']['max_kn'] == 8, pl['options']
assert p['options']['max_wind_kn'] == 25 and p['options']['storms'] is False
PY
check "  the PNG is the chart's 1200x800" python3 -c "
import struct
b = open('$T/pkg/plan.png', 'rb').read(24)
assert b[:8] == b'\x89PNG\r\n\x1a\n', b[:8]
assert struct.unpack('>II', b[16:24]) == (1200, 800), struct.unpack('>II', b[16:24])"

# 3. The same plan as seawx plan gives.
check "seawx plan for the same route, speed and departures" "$SEAWX_CLI" plan --route "$ROUTE" \
  --speed 6-8 --departures "$DEPS" --max-wind 25kn --no-storms --json "$T/plan.json" -q \
  >"$T/plan.table"
check "  plan.json's departures and route equal seawx plan's" python3 - "$T/pkg/plan.json" \
  "$T/plan.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert a['departures'] == b['departures'], 'departures differ'
assert a['route'] == b['route'], 'route differs'
assert a['forecast'] == b['forecast'], (a['forecast'], b['forecast'])
for k in ('from', 'to', 'step_s', 'min_kn', 'max_kn', 'max_wind_kn', 'max_wave_m'):
    assert a['options'][k] == b['options'][k], k
assert len(a['departures']) == 6
PY

# 4. Built again: the point forecasts asked again, the plan made again.
before=$(points)
check "a second build makes the plan again" "${V[@]}" --plan "$DEPS" --plan-max-wind 25kn -o "$T/pkg"
check "  its point forecasts asked again" test $(($(points) - before)) -eq "$samples"
check "  still in the manifest" python3 -c "
import json; assert json.load(open('$T/pkg/manifest.json'))['plan']['departures'] == 6"

# 5. Refused before any request, nothing written.
bad() {
  local want=$1
  shift
  local r0
  r0=$(requests)
  "${V[@]}" -o "$T/bad" "$@" 2>"$T/bad.err"
  local rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] && grep -q -- "$want" "$T/bad.err" &&
    [ "$(requests)" -eq "$r0" ] && [ ! -e "$T/bad" ]
}
check "bad --plan text: one line, exit 2, nothing sent or written" bad '--plan' --plan 'tomorrow/6h'
check "--plan with a step of 0: refused" bad '--plan' --plan "$first/$last/0h"
check "--plan-max-wind without --plan: refused" bad 'goes with --plan' --plan-max-wind 25kn
check "--plan-max-wave in knots: refused" bad '--plan-max-wave' --plan "$DEPS" --plan-max-wave 20kn
printf 'lat,lon,time\n38.5,-9.5,%s\n40.0,-20.0,%s\n' "$first" "$last" >"$T/timed.csv"
r0=$(requests)
"$SEAWX_CLI" voyage -b maritime --route "$T/timed.csv" --layer swh -z 3 --now "$NOW" -q \
  --plan "$DEPS" -o "$T/bad" 2>"$T/timed.err"
rc=$?
check "--plan with a route that has waypoint times: one line, exit 2, nothing sent" sh -c "
  [ $rc -eq 2 ] && [ \$(wc -l <'$T/timed.err') -eq 1 ] && grep -q 'waypoint times' '$T/timed.err' &&
  [ \$(wc -l <'$T/access.log') -eq $r0 ] && [ ! -e '$T/bad' ]"

"${V[@]}" --plan 2026-04-01T00:00Z/2026-04-02T00:00Z/6h -o "$T/late" 2>"$T/late.err"
rc=$?
check "departures all past the forecast's end: exit 5, no package" sh -c "
  [ $rc -eq 5 ] && grep -q 'every departure' '$T/late.err' && [ ! -e '$T/late' ]"

# 6. A budget a byte short of the plan's files (it holds the first valid time
# at the lowest zoom, but not the plan with the route, manifest and project):
# refused as for the GRIB, the package left as it was.
old=$(readlink "$T/pkg")
size=$(python3 -c "
import json; m = json.load(open('$T/pkg/manifest.json'))
print(sum(f['bytes'] for f in m['plan']['files']))")
"${V[@]}" --plan "$DEPS" -o "$T/pkg" --budget $((size - 1)) 2>"$T/budget.err"
rc=$?
check "a budget too small for the plan: refused, the package as it was" sh -c "
  [ $rc -ne 0 ] && grep -q 'cannot hold the departure plan' '$T/budget.err' &&
  [ \"\$(readlink '$T/pkg')\" = '$old' ]"

# 7. With --storms: the plan sails through the storms that build fetched (not
# fetched twice), and equals seawx plan's with the active storms. The
# stand-in's hurricane HELGA on 2024-10-08 06Z, a route across its path: the
# first departure no-go for it.
kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
SIM_PID=
rm -f "$T/port"
HNOW=2024-10-08T06:00:00Z
sim_start --now "$HNOW"
printf 'lat,lon\n24.0,-79.0\n29.0,-86.0\n' >"$T/through.csv"
HDEPS=2024-10-08T06:00Z/2024-10-11T06:00Z/12h
s0=$(grep -c '/storm/json' "$T/access.log" || true)
check "a package with --storms and --plan builds" "$SEAWX_CLI" voyage -b maritime \
  --route "$T/through.csv" --depart "$HNOW" --speed 6-8 --layer swh -z 3 --now "$HNOW" \
  --storms active --plan "$HDEPS" -q -o "$T/hpkg" 2>"$T/hpkg.err"
check "  the storms fetched once" test $(($(grep -c '/storm/json' "$T/access.log") - s0)) -eq 1
check "seawx plan with the active storms" sh -c "'$SEAWX_CLI' plan --route '$T/through.csv' \
  --speed 6-8 --departures '$HDEPS' --json '$T/hplan.json' -q >/dev/null 2>&1"
check "  the package's plan equals it; HELGA makes the first departure no-go" python3 - \
  "$T/hpkg" "$T/hplan.json" <<'PY'
import json, os, sys
d = sys.argv[1]
a = json.load(open(os.path.join(d, 'plan.json')))
b = json.load(open(sys.argv[2]))
m = json.load(open(os.path.join(d, 'manifest.json')))
assert a['departures'] == b['departures'], 'departures differ'
assert a['storms_checked'] == b['storms_checked'] == m['plan']['storms_checked'], \
    (a['storms_checked'], b['storms_checked'], m['plan']['storms_checked'])
assert a['options']['storms'] is True
first = a['departures'][0]
assert first['verdict'] == 'no-go' and first['storm']['title'] == 'HELGA', first
assert m['plan']['no_go'] >= 1
PY
finish
