#!/usr/bin/env bash
# `seawx plan` against seawx-sim: the Atlantic route (997 nm) from 28
# departures 6 h apart at 6-7 kn. One /forecast/point request per sample
# point, counted in the stand-in's access log against the number of sample
# points worked out here from the route (every 15 nm and its end), the same
# for 5 departures; every request at a sample point the JSON lists; the JSON's
# figures sane (departures 6 h apart, arrivals from the length, maxima and
# hours within bounds, a verdict each, cells per sample point); --best,
# --csv, a polar; departures all after the forecast's end refused after one
# request (exit 5); bad input refused with one line, exit 2, nothing sent and
# nothing written; Ctrl-C during the fetch stops with nothing written.
# --chart: the PNG read back (size, colour bar, key, the verdict boxes in the
# JSON's order). plan_check.py recomputes without seawx every figure of 28
# departures at 6-8 kn with every limit and of a polar plan; hurricane HELGA
# (the stand-in on 2024-10-08) makes the departure that meets it no-go and
# its storm figures agree with a brute force; a polar into the wind arrives
# later than before it by what plan_check.py's own sailing gives.
here=$(cd "$(dirname "$0")" && pwd)
# The stand-in's clock fixed: its forecast is a function of the run and the
# valid time, and the --best checks below need departures that the forecast
# covers only in part to be go or marginal, which holds at some times of day
# and not at others (on the real clock the test failed from about 16Z).
SIM_NOW=2026-11-27T14:40:00Z
. "$here/lib.sh"
sim_start
S=$SEAWX_CLI
F=$SEAWX_FIXTURES
ROUTE=$F/voyage/atlantic_1000nm.csv
cd "$T" || exit 1
points() { grep -c ' /forecast/point?' "$T/access.log" || true; }
requests() { wc -l <"$T/access.log"; }

# The first departure: the stand-in's newest run time (its clock is fixed).
from=$(python3 -c "
import datetime as d
now = d.datetime.strptime('$SIM_NOW', '%Y-%m-%dT%H:%M:%SZ')
run = now - d.timedelta(hours=4)
run = run.replace(hour=run.hour // 6 * 6, minute=0, second=0)
print(run.strftime('%Y-%m-%dT%H:%MZ'))")
to=$(python3 -c "
import datetime as d
print((d.datetime.strptime('$from', '%Y-%m-%dT%H:%MZ') + d.timedelta(hours=27 * 6)).strftime('%Y-%m-%dT%H:%MZ'))")
to5=$(python3 -c "
import datetime as d
print((d.datetime.strptime('$from', '%Y-%m-%dT%H:%MZ') + d.timedelta(hours=4 * 6)).strftime('%Y-%m-%dT%H:%MZ'))")
# The route's length on the sphere and its sample points, worked out here.
read -r length samples < <(python3 -c "
import csv, math
R, NM = 6371008.8, 1852.0
pts = [(float(r['lat']), float(r['lon'])) for r in csv.DictReader(open('$ROUTE'))]
L = 0
for (a, b), (c, d) in zip(pts, pts[1:]):
    p1, p2, dl = math.radians(a), math.radians(c), math.radians(d - b)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    L += 2 * math.asin(math.sqrt(h)) * R / NM
print('%.4f %d' % (L, math.ceil(L / 15 - 1e-9) + 1))")
echo "# route $length nm, $samples sample points; departures $from to $to every 6 h"

d28="$from/$to/6h"
plan=("$S" plan --route "$ROUTE" --speed 6-7 --max-wind 20kn --max-wave 3m --max-upwind 30)
before=$(points)
check "28 departures: planned" "${plan[@]}" --departures "$from/$to/6h" --json "$T/p28.json" \
  --csv "$T/p28.csv" --timing 2>"$T/p28.err"
p28=$(($(points) - before))
cat "$T/p28.err"
check "one /forecast/point request per sample point ($samples)" test "$p28" -eq "$samples"
before=$(points)
check "5 departures: planned" "${plan[@]}" --departures "$from/$to5/6h" --json "$T/p5.json" -q
check "5 departures: the same requests" test $(($(points) - before)) -eq "$samples"
check "a timing line" grep -q -E '^seawx: timing: the plan of [0-9]+ departures x [0-9]+ sample points' \
  "$T/p28.err"

# The JSON: what an independent recomputation needs, and sane.
check "JSON fields present and sane" python3 - "$T/p28.json" "$T/access.log" "$length" "$samples" "$from" <<'EOF'
import json, sys, math, datetime as d
p = json.load(open(sys.argv[1]))
log = open(sys.argv[2]).read()
L, ns = float(sys.argv[3]), int(sys.argv[4])
t0 = d.datetime.strptime(sys.argv[5], '%Y-%m-%dT%H:%MZ').replace(tzinfo=d.timezone.utc)
def ts(s):
    return d.datetime.strptime(s, '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=d.timezone.utc)
s = p['route']['samples']
assert len(s) == ns, (len(s), ns)
assert abs(p['route']['length_nm'] - L) < 0.01, (p['route']['length_nm'], L)
assert abs(s[0]['lat'] - 38.5) < 1e-9 and abs(s[0]['lon'] + 9.5) < 1e-9
assert abs(s[-1]['lat'] - 30.5) < 1e-9 and abs(s[-1]['lon'] + 27) < 1e-9
for j, x in enumerate(s):
    assert abs(x['nm'] - (j * 15 if j < ns - 1 else L)) < 1e-3, (j, x)
    assert 0 <= x['course_deg'] < 360
    q = '/forecast/point?lat=%.5f&lon=%.5f&bundles=basic,maritime' % (x['lat'], x['lon'])
    assert q in log, q
o = p['options']
assert o['min_kn'] == 6 and o['max_kn'] == 7 and o['step_s'] == 21600
assert abs(o['max_wind_kn'] - 20) < 1e-9 and o['max_wave_m'] == 3 and o['max_upwind_h'] == 30
assert o['upwind_angle_deg'] == 50 and o['step_track_s'] == 600
f = p['forecast']
last = ts(f['last'])
deps = p['departures']
assert len(deps) + p['departures_left_out'] == 28, (len(deps), p['departures_left_out'])
assert len(deps) >= 1
for i, r in enumerate(deps):
    dep = ts(r['depart'])
    assert dep == t0 + d.timedelta(hours=6 * i), (i, r['depart'])
    assert dep < last
    early = (ts(r['arrive_early']) - dep).total_seconds() / 3600
    late = (ts(r['arrive_late']) - dep).total_seconds() / 3600
    assert abs(early - L / 7) < 1 / 3600 + 1e-6 and abs(late - L / 6) < 1 / 3600 + 1e-6, (early, late)
    assert r['partial'] == (ts(r['arrive_late']) > last)
    # the stand-in serves wind and waves; each departure meets some
    assert 0 < r['max_wind_kn'] < 100 and 0 < r['max_wave_m'] < 30, r
    assert r['max_gust_kn'] is None or 0 < r['max_gust_kn'] < 150
    for k in ('hours_wind', 'hours_wave', 'hours_upwind', 'hours_gust'):
        assert 0 <= r[k] <= L / 6 + 1e-6, (k, r[k])
    # hours above a limit mean a maximum above it (not the other way round:
    # the moment of arrival counts for the maxima only)
    assert r['hours_wind'] == 0 or r['max_wind_kn'] > 20
    assert r['hours_wave'] == 0 or r['max_wave_m'] > 3
    assert r['verdict'] in ('go', 'marginal', 'no-go')
    assert (r['reason'] is None) == (r['verdict'] == 'go')
    if r['max_wind_kn'] > 20 or r['max_wave_m'] > 3 or r['hours_upwind'] > 30:
        assert r['verdict'] == 'no-go', r
    elif r['partial'] and r['storm'] is None:
        assert r['verdict'] == 'marginal', r
    c = r['cells']
    assert len(c['wind_kn']) == ns and len(c['wave_m']) == ns and len(c['storm']) == ns
    assert c['wind_kn'][0] is not None and c['wave_m'][0] is not None
    assert all(w is None or 0 <= w < 100 for w in c['wind_kn'])
    assert all(x in (0, 1) for x in c['storm'])
print('%d departures planned, %d left out' % (len(deps), p['departures_left_out']))
EOF
check "CSV: a header and one row per departure" python3 -c "
import csv, json
rows = list(csv.DictReader(open('$T/p28.csv')))
p = json.load(open('$T/p28.json'))
assert len(rows) == len(p['departures'])
assert [r['depart'] for r in rows] == [r['depart'] for r in p['departures']]
assert all(r['verdict'] in ('go', 'marginal', 'no-go') for r in rows)"
check "--best: the same departures; go, marginal (judged whole, then in part), no-go last" sh -c "
'${plan[0]}' plan --route '$ROUTE' --speed 6-7 --max-wind 20kn --max-wave 3m --max-upwind 30 \
  --departures '$from/$to/6h' --best --json - -q >'$T/best.json' && python3 -c \"
import json
a = json.load(open('$T/p28.json'))['departures']; b = json.load(open('$T/best.json'))['departures']
rank = {'go': 0, 'marginal': 1, 'no-go': 2}
assert sorted(r['depart'] for r in a) == sorted(r['depart'] for r in b)
key = [(rank[r['verdict']] == 2, r['partial'], rank[r['verdict']]) for r in b]
assert key == sorted(key), key\""
# Departures the forecast covers in part come after every go and marginal it
# covers whole, and before every no-go: at 6-8 kn with 27 kn as the limit,
# the middle departures meet 28 kn over the whole voyage (no-go) and the late
# ones sail past the forecast's end with less.
check "--best: go and marginal judged whole, then judged in part, then every no-go" sh -c "
'$S' plan --route '$ROUTE' --speed 6-8 --max-wind 27kn --departures '$from/$to/6h' --no-storms \
  --best --json - -q >'$T/best_partial.json' && python3 -c \"
import json
b = json.load(open('$T/best_partial.json'))['departures']
rank = {'go': 0, 'marginal': 1, 'no-go': 2}
key = [(v == 2, p, v) for p, v in ((r['partial'], rank[r['verdict']]) for r in b)]
assert key == sorted(key), key
assert (True, False, 2) in key and any(p and v < 2 for n, p, v in key), key
print('%d complete, %d partial' % (sum(not p for n, p, v in key), sum(p for n, p, v in key)))\""
# In the table, a departure judged on part of the voyage says so on its line,
# whatever rule decided its verdict.
check "the table: every departure the forecast covers in part says so, no other" sh -c "
'$S' plan --route '$ROUTE' --speed 6-8 --max-wind 27kn --departures '$from/$to/6h' --no-storms \
  --best -q >'$T/best_partial.txt' &&
test \$(grep -c 'forecast ends before arrival\|does not cover the whole voyage' '$T/best_partial.txt') -eq \
  \$(python3 -c \"import json; print(sum(r['partial'] for r in json.load(open('$T/best_partial.json'))['departures']))\") &&
test \$(grep -c 'forecast ends before arrival\|does not cover the whole voyage' '$T/best_partial.txt') -gt 0"
# The table is the output unless --json or --csv writes a file; --table asks
# for it too.
check "--json FILE: nothing on stdout, the summary on stderr" sh -c "
'$S' plan --route '$ROUTE' --speed 6-7 --departures '$from/$to5/6h' --no-storms -q \
  --json '$T/quiet.json' >'$T/quiet.out' 2>'$T/quiet.err' && test -s '$T/quiet.json' &&
  ! test -s '$T/quiet.out' && grep -q '^seawx: 5 departures: ' '$T/quiet.err'"
check "--csv FILE --table: the table as well" sh -c "
'$S' plan --route '$ROUTE' --speed 6-7 --departures '$from/$to5/6h' --no-storms -q \
  --csv '$T/quiet.csv' --table >'$T/quiet.out' && test -s '$T/quiet.csv' &&
  test \$(grep -c -E '^[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}Z ' '$T/quiet.out') -eq 5"
check "the terminal table: a line per departure" sh -c "
'${plan[0]}' plan --route '$ROUTE' --speed 6-7 --departures '$from/$to5/6h' --no-storms -q \
  >'$T/table.out' && test \$(grep -c -E '^[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}Z ' '$T/table.out') -eq 5"
check "a polar: one track, arrival from the wind met" sh -c "
'${plan[0]}' plan --route '$ROUTE' --polar '$F/plan/cruiser.pol' --speed 3 --departures \
  '$from/$to5/6h' --no-storms -q --json '$T/polar.json' && python3 -c \"
import json
for r in json.load(open('$T/polar.json'))['departures']:
    assert r['arrive_early'] == r['arrive_late'] and r['arrive_early'] is not None, r\""

# The chart, and the plan recomputed independently (plan_check.py: the route
# sampled again, the point forecasts asked again, each ship sailed again): 28
# departures at 6-8 kn with every limit, then a polar. Requests counted before
# the recomputation asks its own.
PC=$SEAWX_SOURCE_DIR/tests/integration/plan_check.py
py=/usr/bin/python3 # Debian's (numpy for storms_danger_check.py)
lim=(--max-wind 30kn --max-gust 45kn --max-wave 5m --max-upwind 200)
before=$(points)
check "28 departures at 6-8 kn with a chart: planned" "$S" plan --route "$ROUTE" --speed 6-8 \
  "${lim[@]}" --departures "$d28" --json "$T/c28.json" --chart "$T/c28.png" -q
check "6-8 kn: one /forecast/point request per sample point" test $(($(points) - before)) -eq "$samples"
check "the chart: 1200x800, a colour bar, a key, the verdicts in the JSON's order" \
  "$py" "$PC" chart "$T/c28.json" "$T/c28.png" 1200 800
check "--chart-by waves --chart-size 640x480" "$S" plan --route "$ROUTE" --speed 6-8 "${lim[@]}" \
  --departures "$from/$to5/6h" --json "$T/c5.json" --chart "$T/c5.png" --chart-by waves \
  --chart-size 640x480 -q
check "the small chart read back" "$py" "$PC" chart "$T/c5.json" "$T/c5.png" 640 480
check "every figure of the 28 departures recomputed" "$py" "$PC" check "$T/c28.json" "$ROUTE"
check "a polar plan recomputed" sh -c "'$S' plan --route '$ROUTE' --polar '$F/plan/cruiser.pol' \
  --speed 3 ${lim[*]} --departures '$from/$to/24h' -q --json '$T/cp.json' &&
  '$py' '$PC' check '$T/cp.json' '$ROUTE' '$F/plan/cruiser.pol'"

# Departures all after the forecast's end: refused after the first point.
before=$(points)
late=$(python3 -c "
import json, datetime as d
t = d.datetime.strptime(json.load(open('$T/p28.json'))['forecast']['last'], '%Y-%m-%dT%H:%M:%SZ')
print((t + d.timedelta(hours=6)).strftime('%Y-%m-%dT%H:%MZ'))")
"$S" plan --route "$ROUTE" --speed 6 --departures "$late/$late/6h" --json "$T/late.json" \
  2>"$T/late.err"
rc=$?
check "after the forecast's end: exit 5" test "$rc" -eq 5
check "after the forecast's end: one line that says so" grep -q \
  "error: the forecast ends at .*: every departure (from .*) is at or after it" "$T/late.err"
check "after the forecast's end: one request, nothing written" sh -c \
  "test $(($(points) - before)) -eq 1 && ! test -e '$T/late.json'"

printf 'TWA\\TWS 6 10\n60 5 6\n45 4 5\n' >"$T/bad.pol"
refuse() {
  local name=$1 want=$2
  shift 2
  local n0
  n0=$(requests)
  "$S" plan --route "$ROUTE" --json "$T/bad.json" "$@" >"$T/bad.out" 2>"$T/bad.err"
  local rc=$?
  if [ "$rc" -ne 2 ] || [ "$(wc -l <"$T/bad.err")" -ne 1 ] || ! grep -q -- "$want" "$T/bad.err" ||
    [ "$(requests)" -ne "$n0" ] || [ -e "$T/bad.json" ] || [ -s "$T/bad.out" ]; then
    echo "# $name: exit $rc, $(($(requests) - n0)) requests:"
    cat "$T/bad.err"
    return 1
  fi
}
# --from: the forecast from a voyage GRIB (seawx grib), nothing asked for
# it: with --no-storms no request at all. The first cell of the first
# departure is the wind at the grid node nearest to the first waypoint at the
# first valid time, as ecCodes' grib_ls finds it.
"$S" grib --route "$ROUTE" --depart "$from" --speed 6-7 --vars wind,gust,prmsl,waves --cut route \
  --no-cache -q -o "$T/v.grb2" || echo "# seawx grib failed"
n0=$(requests)
check "--from GRIB: planned" "$S" plan --route "$ROUTE" --speed 6-7 --departures "$from/$to5/6h" \
  --from "$T/v.grb2" --no-storms -q --json "$T/grib.json"
check "--from GRIB: no request" test "$(requests)" -eq "$n0"
check "--from GRIB: the nearest node's wind, as grib_ls finds it" python3 - "$T/grib.json" "$T/v.grb2" <<'EOF2'
import json, math, subprocess, sys
p = json.load(open(sys.argv[1]))
assert p['forecast']['source'] == 'grib'
t = p['forecast']['first']
date, hhmm = t[:10].replace('-', ''), str(int(t[11:13] + t[14:16]))
s0 = p['route']['samples'][0]
out = subprocess.run(['grib_ls', '-l', '%f,%f,1' % (s0['lat'], s0['lon']), '-p', 'shortName',
                      '-w', 'validityDate=%s,validityTime=%s' % (date, hhmm), sys.argv[2]],
                     capture_output=True, text=True, check=True).stdout.split('\n')
vals = {}
for line in out:
    f = line.split()
    if len(f) == 2 and f[0] in ('10u', '10v'):
        vals[f[0]] = float(f[1])
want = math.hypot(vals['10u'], vals['10v']) / (1852 / 3600)
got = p['departures'][0]['cells']['wind_kn'][0]
assert p['departures'][0]['depart'] == t, (p['departures'][0]['depart'], t)
assert abs(got - want) < 0.01, (got, want)
assert all(r['max_gust_kn'] is not None for r in p['departures'])
print('first cell %.3f kn, grib_ls %.3f kn' % (got, want))
EOF2
printf 'not a grib\n' >"$T/bad.grb2"
check "refused: --from a file that is not GRIB" refuse grib "--from .*bad.grb2: not a GRIB file" \
  --speed 6 --departures "$d28" --from "$T/bad.grb2" --no-storms

# Bad input: one line, exit 2, nothing sent, nothing written.
check "refused: departures not ISO 8601" refuse iso "is not an ISO 8601 instant" --speed 6 \
  --departures "next-monday/$to/6h"
check "refused: a zero step" refuse step "step '0h'" --speed 6 --departures "$from/$to/0h"
check "refused: FROM after TO" refuse order "FROM is after TO" --speed 6 --departures "$to/$from/6h"
check "refused: more than 500 departures" refuse many "more than the 500" --speed 6 \
  --departures "$from/$to/10m"
check "refused: a bad polar (line and column)" refuse polar "polar line 3, column 1: '45' does not increase" \
  --polar "$T/bad.pol" --departures "$d28"
check "refused: a wind threshold without its unit" refuse unit "--max-wind '25' needs its unit" \
  --speed 6 --departures "$d28" --max-wind 25
check "refused: a wave threshold in a speed unit" refuse wave "--max-wave '3kn' needs its unit: m or ft" \
  --speed 6 --departures "$d28" --max-wave 3kn
check "refused: no speed and no polar" refuse speed "needs --speed" --departures "$d28"
check "refused: a bad speed" refuse speed2 "speed" --speed 7-6 --departures "$d28"
check "refused: a bad chart size" refuse size "--chart-size '12x8'" --speed 6 \
  --departures "$d28" --chart "$T/bad.png" --chart-size 12x8
check "refused: --chart-by something else" refuse by "--chart-by 'rain': wind or waves" \
  --speed 6 --departures "$d28" --chart "$T/bad.png" --chart-by rain
check "refused: --table with --csv - (both to stdout)" refuse table \
  "--table and --csv - cannot both go to stdout" --speed 6 --departures "$d28" --csv - --table
check "refused: a chart into a missing folder, before anything is sent" sh -c "
n0=\$(wc -l <'$T/access.log'); '$S' plan --route '$ROUTE' --speed 6 --departures '$d28' \
  --chart '$T/nowhere/p.png' 2>'$T/bad.err'; rc=\$?
test \$rc -eq 8 && test \$(wc -l <'$T/access.log') -eq \$n0 && grep -q nowhere '$T/bad.err'"
check "nothing sent for bad input" test ! -e "$T/bad.json"

# A hold-out storm end to end: the stand-in's Gulf of Mexico hurricane HELGA
# on 2024-10-08 06Z, a route across its path. The first departures meet it
# (no-go, HELGA named in the JSON and the table); two days later the ship
# passes behind it. Every storm figure against plan_check.py's brute force.
kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
SIM_PID=
rm -f "$T/port"
sim_start --now 2024-10-08T06:00:00Z
printf 'lat,lon\n24.0,-79.0\n29.0,-86.0\n' >"$T/through.csv"
check "HELGA: planned" sh -c "'$S' plan --route '$T/through.csv' --speed 6-8 \
  --departures 2024-10-08T06:00Z/2024-10-11T06:00Z/12h --json '$T/helga.json' \
  --csv '$T/helga.csv' --chart '$T/helga.png' --table -q >'$T/helga.txt'"
check "HELGA: the first departure no-go for it, in the JSON and the table" "$py" - "$T/helga.json" \
  "$T/helga.txt" <<'EOF3'
import json, sys
d = json.load(open(sys.argv[1]))["departures"]
first = d[0]
assert first["verdict"] == "no-go" and first["storm"]["title"] == "HELGA", first
assert first["storm"]["atcf_id"] == "AL092024" and "HELGA" in first["reason"], first
assert first["storm"]["r34_h"] > 0, first
line = [l for l in open(sys.argv[2]) if l.startswith("10-08 06:00Z")][0]
assert "HELGA" in line and "no-go" in line, line
miss = [r for r in d if r["depart"] >= "2024-10-09T06:00:00Z" and r["verdict"] != "no-go"]
assert miss, [(r["depart"], r["verdict"], r["reason"]) for r in d]
m = miss[0]
assert m["storm"] is None or (m["storm"]["r34_h"] == 0 and m["storm"]["danger_area_h"] == 0
                              and m["storm"]["cpa_nm"] >= 200), m
assert m["reason"] is None or "HELGA" not in m["reason"], m
print("%s: no-go (%s, %.1f nm); %s: %s (%s)" % (first["depart"], first["reason"],
      first["storm"]["cpa_nm"], m["depart"], m["verdict"],
      "cpa %.1f nm" % m["storm"]["cpa_nm"] if m["storm"] else "no storm"))
EOF3
check "HELGA: closest approach and hours inside as a brute force" "$py" "$PC" storm \
  "$T/helga.json" "$T/through.csv"
check "HELGA: the chart's verdicts" "$py" "$PC" chart "$T/helga.json" "$T/helga.png" 1200 800
# RFC 4180 as every CSV of seawx: a field quoted only when it holds a comma,
# a quote or a line end (or starts or ends with a space).
check "HELGA: the CSV quotes only what must be" "$py" - "$T/helga.csv" "$T/helga.json" <<'EOF4'
import csv, json, sys
text = open(sys.argv[1], newline="").read()
rows = list(csv.DictReader(text.splitlines()))
d = json.load(open(sys.argv[2]))["departures"]
assert [r["reason"] for r in rows] == [x["reason"] or "" for x in d], rows
first = text.splitlines()[1]
assert ",AL092024,HELGA," in first and first.endswith(",no-go,inside the 34 kt winds of HELGA"), first
for line, r in zip(text.splitlines()[1:], rows):
    quoted = '"' in line
    assert quoted == any(c in r["reason"] for c in ',"'), line
print("%d rows, %d with a quoted reason" % (len(rows), sum('"' in l for l in text.splitlines())))
EOF4

# Polars: the same boat into the wind and before it. The first 609 nm of the
# Atlantic route (from Lisbon, into the north-easterlies' reach) and the same
# route reversed, from 2024-10-08 00Z (the stand-in's clock as above, so the
# weather is the same on every day the test runs): the boat facing headwinds
# arrives later, by what plan_check.py's own sailing gives.
printf 'lat,lon\n38.5,-9.5\n36,-14\n33,-20\n' >"$T/fwd.csv"
printf 'lat,lon\n33,-20\n36,-14\n38.5,-9.5\n' >"$T/rev.csv"
for r in fwd rev; do
  "$S" plan --route "$T/$r.csv" --polar "$F/plan/cruiser.pol" --speed 3 --no-storms -q \
    --departures 2024-10-08T00:00Z/2024-10-08T00:00Z/6h --json "$T/$r.json" >/dev/null ||
    echo "# the $r plan failed"
done
check "polar: into the wind later than before it, more hours upwind" "$py" -c "
import json, datetime as d
def h(p):
    r = json.load(open(p))['departures'][0]
    f = lambda s: d.datetime.strptime(s, '%Y-%m-%dT%H:%M:%SZ')
    return (f(r['arrive_early']) - f(r['depart'])).total_seconds() / 3600, r['hours_upwind']
(a, ua), (b, ub) = h('$T/fwd.json'), h('$T/rev.json')
print('into the wind %.2f h (%.1f h upwind), before it %.2f h (%.1f h upwind)' % (a, ua, b, ub))
assert a > b + 6 and ua > ub, (a, ua, b, ub)"
check "polar: the difference of arrival as plan_check.py sails it" "$py" "$PC" arrive \
  "$T/fwd.json" "$T/fwd.csv" "$T/rev.json" "$T/rev.csv" "$F/plan/cruiser.pol"

# Ctrl-C while the forecast is fetched: exit 130, nothing written. A slow
# stand-in, one request at a time; the interrupt follows observed requests.
kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
SIM_PID=
rm -f "$T/port"
: >"$T/access.log"
sim_start --latency 300
"$S" plan --route "$ROUTE" --speed 6-7 --departures "$d28" --in-flight 1 --json "$T/int.json" \
  2>"$T/int.err" &
pid=$!
if progress_or_exit "$pid" 120 sh -c "test \$(grep -c ' /forecast/point?' '$T/access.log') -ge 3"; then
  kill -INT "$pid"
fi
wait "$pid"
rc=$?
check "Ctrl-C: exit 130" test "$rc" -eq 130
check "Ctrl-C: says so, nothing written" sh -c "grep -q 'interrupted: nothing written' '$T/int.err' &&
  ! test -e '$T/int.json'"
check "Ctrl-C: the fetch stopped early" test "$(points)" -lt "$samples"
check "no key in what was printed" no_key_in "$T/p28.err" "$T/late.err" "$T/int.err" "$T/bad.err"
finish
