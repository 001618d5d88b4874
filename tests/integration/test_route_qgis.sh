#!/usr/bin/env bash
# `seawx route` through the service's forecast (the stand-in's GRIB2 files,
# fetched as seawx grib --bbox fetches them) from Lisbon to Madeira by a
# polar, then its outputs in QGIS (route_qgis.py, headless): the route's
# points one layer with every value as in the file, the isochrones a line
# layer with increasing times, the GPX one route with the same points and
# times, and the map drawn with the route where QGIS puts it. A second route
# over the same waters fetches no forecast message again (the cache). Five
# 500 nm passages against the test's own shortest-time search. seawx plan
# --routed: each departure's own route is seawx route's for it; seawx voyage
# --routed: the package follows seawx route's track; seawx fleet's routed
# ships too, the forecast fetched once for the fleet.
here=$(cd "$(dirname "$0")" && pwd)
SIM_NOW=2026-11-28T09:40:00Z
. "$here/lib.sh"
sim_start
S=$SEAWX_CLI
py=/usr/bin/python3
cd "$T" || exit 1
cat >cruiser.pol <<'POL'
TWA\TWS	6	10	16	25
45	4.6	6.2	7.0	7.2
60	5.5	6.9	7.5	7.8
90	5.6	7.2	8.0	8.6
120	5.2	7.0	8.1	9.5
150	4.0	5.9	7.4	8.8
180	3.3	5.0	6.7	7.9
POL
export SEAWX_CACHE_DIR=$T/cache
route=("$S" route --from 38.6,-9.6 --to 32.6,-17.0 --polar cruiser.pol --speed 5 --motor-below 6kn
  --depart 2026-11-28T12:00Z -q)
check "a route through the service's forecast" \
  "${route[@]}" --gpx r.gpx --geojson r.geojson --isochrones iso.geojson --json r.json \
  --track track.geojson
# The route found as a timed track: seawx grib --route builds the forecast
# along it, its valid times from the departure to the arrival, each point of
# the route in the grid of the valid time nearest it (read with ecCodes'
# grib_ls).
check "the track drives seawx grib --route: times and grid cover the route" sh -c "
  '$S' grib --route track.geojson --vars wind -q -o along.grb2 &&
  grib_ls -p validityDate,validityTime,latitudeOfFirstGridPointInDegrees,latitudeOfLastGridPointInDegrees,longitudeOfFirstGridPointInDegrees,longitudeOfLastGridPointInDegrees along.grb2 >along.txt &&
  '$py' - <<'EOF2'
import json, datetime as d
pts = json.load(open('r.geojson'))['features']
t = lambda s: d.datetime.strptime(s, '%Y-%m-%dT%H:%M:%SZ').replace(tzinfo=d.timezone.utc)
rows = [r for r in (l.split() for l in open('along.txt')) if len(r) == 6 and len(r[0]) == 8 and r[0].isdigit()]
assert rows, 'no message listed'
valid = sorted(d.datetime.strptime(r[0] + r[1].zfill(4), '%Y%m%d%H%M').replace(tzinfo=d.timezone.utc) for r in rows)
dep, arr = t(pts[0]['properties']['time']), t(pts[-1]['properties']['time'])
assert valid[0] <= dep and valid[-1] >= arr - d.timedelta(hours=3), (valid[0], valid[-1], dep, arr)
# each point in the grid of the valid time nearest it (the window cut: each
# time its own stretch of the route)
for f in pts:
    lon, lat = f['geometry']['coordinates'][:2]
    when = t(f['properties']['time'])
    best = min(abs((v - when).total_seconds()) for v in valid)
    for r in rows:
        v = d.datetime.strptime(r[0] + r[1].zfill(4), '%Y%m%d%H%M').replace(tzinfo=d.timezone.utc)
        if abs((v - when).total_seconds()) != best:
            continue
        la0, la1, lo0, lo1 = map(float, r[2:6])
        w_, e_ = (lo0 + 180) % 360 - 180, (lo1 + 180) % 360 - 180
        assert min(la0, la1) - 1e-6 <= lat <= max(la0, la1) + 1e-6, (f['properties']['time'], lat, la0, la1)
        assert w_ - 1e-6 <= lon <= e_ + 1e-6, (f['properties']['time'], lon, w_, e_)
print(len(rows), 'messages from', valid[0], 'to', valid[-1], 'for', dep, 'to', arr)
EOF2"
ranges() { grep -c ' 206 ' "$T/access.log" || true; }
before=$(ranges)
check "the same waters again: no forecast message fetched again" \
  sh -c '"$@" --json r2.json >/dev/null && [ "$(grep -c " 206 " "'"$T"'/access.log" || true)" = "'"$before"'" ]' \
  _ "${route[@]}"
# The cache keeps the fields packed again, a few units of their last digit
# off what was fetched (the truth issue's "the values cached must be the
# values fetched"): the route from it is the same within a minute, not bit
# for bit, until that is fixed.
check "the same route from the cache (arrival within a minute)" "$py" -c "
import json, datetime as d
a, b = (json.load(open(f)) for f in ('r.json', 'r2.json'))
t = lambda s: d.datetime.strptime(s, '%Y-%m-%dT%H:%M:%SZ')
assert abs((t(a['arrive']) - t(b['arrive'])).total_seconds()) <= 60, (a['arrive'], b['arrive'])
assert abs(a['distance_nm'] - b['distance_nm']) < 1, (a['distance_nm'], b['distance_nm'])"
# Against an independent reference (route_reference.py): 5 open-water
# passages of 500 nm or more through the stand-in's north Atlantic forecast
# for five days, each no more than 1 % slower than the test's own mesh
# search, and arriving when seawx says once replayed through the forecast.
check "5 passages against an independent shortest-time search, and replayed" sh -c "
  '$S' grib --bbox -32,26,-10,44 --hours 0-120 --vars wind --grid 0.25 --step 3 -q -o box.grb2 &&
  '$py' '$here/route_reference.py' '$S' box.grb2 '$T' first"
# seawx plan --routed: each departure also sailed on its own route, which is
# the route seawx route finds for that departure (same arrival, distance and
# strongest wind), in the JSON, the CSV and the table alike; a wind limit no
# route keeps gives each departure "no route" and why, the plan still made.
printf 'lat,lon\n38.6,-9.6\n32.6,-17.0\n' >lm.csv
plan=("$S" plan --route lm.csv --departures 2026-11-28T12:00Z/2026-11-29T12:00Z/12h
  --polar cruiser.pol --speed 5 -q)
check "seawx plan --routed through the service's forecast" \
  sh -c "$(printf "'%s' " "${plan[@]}") --routed --json p.json --csv p.csv --table >p.txt"
routed_same() {
  local d
  for d in 2026-11-28T12:00Z 2026-11-29T00:00Z 2026-11-29T12:00Z; do
    "$S" route --route lm.csv --polar cruiser.pol --speed 5 --motor-floor --depart "$d" -q \
      --json "rt-$d.json" >/dev/null || return 1
  done
  "$py" - <<'EOF2'
import csv, json
p = json.load(open('p.json'))
rows = {r['depart']: r for r in csv.DictReader(open('p.csv'))}
table = open('p.txt').read()
assert p['options']['routed'] is True and 'routed arrival' in table.splitlines()[0]
assert len(p['departures']) == 3, len(p['departures'])
for dep in p['departures']:
    d = dep['depart']
    x = dep['routed']
    r = json.load(open('rt-%sZ.json' % d[:16]))
    print('#', d, 'plan --routed', x['arrive'], x['distance_nm'], 'seawx route', r['arrive'], r['distance_nm'])
    assert x['found'] and r['found'], (x, r)
    assert x['arrive'] == r['arrive'], (x['arrive'], r['arrive'])
    assert abs(x['distance_nm'] - r['distance_nm']) < 0.01, (x['distance_nm'], r['distance_nm'])
    assert abs(x['hours'] - r['hours']) < 0.001 and abs(x['max_wind_kn'] - r['max_tws_kn']) <= 0.05
    c = rows[d]
    assert c['routed_found'] == '1' and c['routed_arrive'] == x['arrive'], c
    assert abs(float(c['routed_distance_nm']) - x['distance_nm']) < 0.01, c
    # the table: the routed arrival on the departure's row
    short = d[5:10] + ' ' + d[11:16]
    line = next(l for l in table.splitlines() if l.startswith(short))
    assert x['arrive'][5:10] + ' ' + x['arrive'][11:16] + 'Z' in line, line
EOF2
}
check "... each departure's route is seawx route's for it (JSON, CSV, table)" routed_same
no_route() {
  "${plan[@]}" --routed --max-wind 4kn --json p4.json >/dev/null 2>p4.err || return 1
  "$py" - <<'EOF2'
import json
p = json.load(open('p4.json'))
for dep in p['departures']:
    x = dep['routed']
    assert not x['found'] and x['arrive'] is None and 'limit' in x['reason'], x
    assert dep['verdict'] == 'no-go', dep['verdict']
print('#', p['departures'][0]['routed']['reason'])
EOF2
}
check "... a wind limit no route keeps: no route, and why, each departure" no_route
bad_plan() { # one line, exit 2, nothing sent
  local n rc
  n=$(wc -l <"$T/access.log")
  "${plan[@]}" "$@" >bad.out 2>bad.err
  rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l <bad.err)" -eq 1 ] && [ "$(wc -l <"$T/access.log")" -eq "$n" ] ||
    { echo "  exit $rc: $(cat bad.err)"; return 1; }
  echo "# $(cat bad.err)"
}
check "... --land-margin without --routed: refused" bad_plan --land-margin 2
printf 'lat,lon\n38.6,-9.6\n38.75,-9.15\n' >onland.csv
check "... --routed with a waypoint on land: refused, naming it" sh -c "
  '$S' plan --route onland.csv --departures 2026-11-28T12:00Z/2026-11-29T12:00Z/12h --speed 5 \
    --routed -q 2>onland.err; [ \$? -eq 2 ] && grep -q 'waypoint 2 ' onland.err"
# seawx voyage --routed: the package along the route seawx route finds (its
# route.geojson the track's points and times), the storms and forecast as
# for seawx route; refusals before anything is sent, and a route the
# forecast cannot hold: exit 14, no package.
voyage=("$S" voyage --bundle maritime --layer swh --zoom 3-4 --route lm.csv
  --depart 2026-11-28T12:00Z -q)
check "seawx voyage --routed: a package along the route found" sh -c "
  $(printf "'%s' " "${voyage[@]}") --speed 6 --routed -o vpkg 2>vpkg.err &&
  '$S' route --route lm.csv --speed 6 --depart 2026-11-28T12:00Z -q --track vtrack.geojson >/dev/null"
check "... its route.geojson is seawx route's track: points and times" "$py" -c "
import json
t = json.load(open('vtrack.geojson'))
p = json.load(open('vpkg/route.geojson'))['features'][0]
tc, pc = t['geometry']['coordinates'], p['geometry']['coordinates']
assert len(tc) == len(pc) > 2, (len(tc), len(pc))
assert all(abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6 for a, b in zip(tc, pc))
assert t['properties']['times'] == p['properties']['times'], (t['properties']['times'][:3], p['properties']['times'][:3])
print('#', len(pc), 'points, arriving', p['properties']['times'][-1])"
bad_voyage() { # one line, exit 2, nothing sent, no package
  local n rc
  n=$(wc -l <"$T/access.log")
  "${voyage[@]}" --speed 6 -o badpkg "$@" >bad.out 2>bad.err
  rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l <bad.err)" -eq 1 ] && [ "$(wc -l <"$T/access.log")" -eq "$n" ] &&
    [ ! -e badpkg ] || { echo "  exit $rc: $(cat bad.err)"; return 1; }
  echo "# $(cat bad.err)"
}
check "... --polar without --routed: refused" bad_voyage --polar cruiser.pol
check "... --routed with --plan: refused" bad_voyage --routed --plan 2026-11-28T12:00Z/2026-11-29T12:00Z/6h
check "... --routed with a polar that is not one: refused" bad_voyage --routed --polar lm.csv
no_voyage_route() {
  "${voyage[@]}" --speed 1 --routed -o slowpkg 2>slow.err
  local rc=$?
  [ "$rc" -eq 14 ] && [ ! -e slowpkg ] && grep -q "no route: the forecast ends" slow.err ||
    { echo "  exit $rc: $(cat slow.err)"; return 1; }
}
check "... a route the forecast cannot hold (1 kn): exit 14, no package" no_voyage_route
# seawx fleet with routed ships: each routed ship's package follows the route
# seawx route finds for it (under motor; by its polar with the motoring
# floor), a ship without "routed" its route as drawn; two routed ships on one
# lane fetch the forecast once: as many storage requests and bytes as one
# route alone (fresh caches both).
printf 'lat,lon\n38.6,-9.6\n28.6,-15.2\n' >lc.csv
cat >fleet.json <<'JSON'
{"bundle": "maritime", "layers": ["swh:zoom=3-4"],
 "ships": [
  {"name": "aurora", "route": "lm.csv", "routed": true, "depart": "2026-11-28T12:00:00Z", "speed": 6},
  {"name": "borealis", "route": "lc.csv", "routed": true, "polar": "cruiser.pol",
   "depart": "2026-11-28T18:00:00Z", "speed": 5},
  {"name": "castor", "route": "lm.csv", "depart": "2026-11-28T12:00:00Z", "speed": 6}
 ]}
JSON
check "seawx fleet with routed ships" sh -c "
  SEAWX_CACHE_DIR='$T/fcache' '$S' fleet fleet.json -o fl -q 2>fl.err &&
  '$S' route --route lm.csv --speed 6 --depart 2026-11-28T12:00Z -q --track fa.geojson >/dev/null &&
  '$S' route --route lc.csv --polar cruiser.pol --speed 5 --motor-floor \
    --depart 2026-11-28T18:00Z -q --track fb.geojson >/dev/null"
# The fleet's forecast is one box over both ships' areas, packed on its own
# lattice (a simply packed field's reference value is its box's least
# value): the winds differ from seawx route's own box by less than 0.05 m/s,
# so the sailing ship's route agrees within a minute and 0.5 nm, the
# motoring one's exactly.
check "... each routed ship's package follows seawx route's track; the other its own" "$py" -c "
import json, math, datetime as d
t_ = lambda s: d.datetime.strptime(s, '%Y-%m-%dT%H:%M:%SZ')
for ship, track, exact in (('aurora', 'fa.geojson', 1), ('borealis', 'fb.geojson', 0)):
    t = json.load(open(track))
    p = json.load(open('fl/%s/route.geojson' % ship))['features'][0]
    tt, pt = t['properties']['times'], p['properties']['times']
    tc, pc = t['geometry']['coordinates'], p['geometry']['coordinates']
    if exact:
        assert tt == pt, ship
        assert all(abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6 for a, b in zip(tc, pc)), ship
    else:
        assert len(tt) == len(pt) and abs((t_(tt[-1]) - t_(pt[-1])).total_seconds()) <= 60, (tt[-1], pt[-1])
        far = max(60 * math.hypot(a[1] - b[1], (a[0] - b[0]) * math.cos(math.radians(a[1])))
                  for a, b in zip(tc, pc))
        assert far <= 0.5, (ship, far)
    print('#', ship, len(pt), 'points, arriving', pt[-1], 'seawx route', tt[-1])
c = json.load(open('fl/castor/route.geojson'))['features'][0]
assert len(c['geometry']['coordinates']) == 2 and 'times' not in c['properties'], c['properties']"
storage() { # requests and bytes of storage's 206 answers in the access log from line $1 on
  tail -n +"$1" "$T/access.log" | awk '$4 == 206 { n++; b += $5 } END { print n + 0, b + 0 }'
}
once() {
  cat >lane.json <<'JSON'
{"bundle": "maritime", "layers": ["swh:zoom=3"],
 "ships": [
  {"name": "one", "route": "lm.csv", "routed": true, "depart": "2026-11-28T12:00:00Z", "speed": 6},
  {"name": "two", "route": "lm.csv", "routed": true, "depart": "2026-11-29T00:00:00Z", "speed": 7}
 ]}
JSON
  local l0 l1 fleet alone
  l0=$(($(wc -l <"$T/access.log") + 1))
  SEAWX_CACHE_DIR="$T/lane1" "$S" fleet lane.json -o lane -q 2>lane.err || return 1
  l1=$(($(wc -l <"$T/access.log") + 1))
  fleet=$(storage "$l0")
  SEAWX_CACHE_DIR="$T/lane2" "$S" route --route lm.csv --speed 6 --depart 2026-11-28T12:00Z -q \
    --json lane.json.route >/dev/null || return 1
  alone=$(storage "$l1")
  echo "# storage (206 answers, bytes): fleet of two $fleet, one route alone $alone"
  [ "$fleet" = "$alone" ] && [ "${fleet%% *}" -gt 0 ]
}
check "... two routed ships on one lane: the forecast fetched once" once
bad_fleet() { # $1: the fleet file, $2: a word of the one line; exit 2, nothing sent
  local n rc
  n=$(wc -l <"$T/access.log")
  "$S" fleet "$1" -o badfl "${@:3}" >bad.out 2>bad.err
  rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l <bad.err)" -eq 1 ] && grep -q "$2" bad.err &&
    [ "$(wc -l <"$T/access.log")" -eq "$n" ] || { echo "  exit $rc: $(cat bad.err)"; return 1; }
  echo "# $(cat bad.err)"
}
check "... sharded with routed ships and no run: refused" bad_fleet fleet.json '"run"' --shard 1/2
# with the run named (the one box.grb2 above was cut from), each of two
# shards routes every ship and deals each to exactly one shard
shards_once() {
  local run k
  run=$(grib_get -w count=1 -p dataDate,dataTime box.grb2 | awk '{printf "%s%02d", $1, $2 / 100}')
  "$py" -c "import json; f = json.load(open('fleet.json')); f['run'] = '$run'; json.dump(f, open('fleet_run.json', 'w'))"
  for k in 1 2; do
    "$S" fleet fleet_run.json -n --shard $k/2 -q 2>"shard$k.err" |
      awk 'NF == 5 && $2 ~ /^[0-9]+$/ {print $1}' >"shard$k" || return 1
  done
  echo "# run $run: shard 1: $(tr '\n' ' ' <shard1)| shard 2: $(tr '\n' ' ' <shard2)"
  [ "$(cat shard1 shard2 | sort | tr '\n' ' ')" = "aurora borealis castor " ] && [ -s shard1 ] && [ -s shard2 ]
}
check "... sharded with the run named: each ship in exactly one shard" shards_once
cat >onland.json <<'JSON'
{"bundle": "maritime", "layers": ["swh"],
 "ships": [{"name": "stranded", "route": "onland.csv", "routed": true,
            "depart": "2026-11-28T12:00:00Z", "speed": 6}]}
JSON
check "... a routed ship's waypoint on land: refused, naming the ship" bad_fleet onland.json \
  'stranded: waypoint 2'
cat >nopolar.json <<'JSON'
{"bundle": "maritime", "layers": ["swh"],
 "ships": [{"name": "drifter", "route": "lm.csv", "polar": "cruiser.pol",
            "depart": "2026-11-28T12:00:00Z", "speed": 6}]}
JSON
check "... a polar without routed: refused" bad_fleet nopolar.json 'polar goes with'
if "$py" -c 'import qgis.core' 2>/dev/null; then
  mkdir -p "$T/home" "$T/run" && chmod 700 "$T/run"
  check "the route, its isochrones and its GPX in QGIS" \
    env HOME="$T/home" XDG_RUNTIME_DIR="$T/run" QT_QPA_PLATFORM=offscreen \
    "$py" "$here/route_qgis.py" r.geojson iso.geojson r.gpx r.json route.png
else
  echo "FAILED - python3-qgis missing (scripts/install-deps.sh installs it)"
  FAILED=$((FAILED + 1))
fi
finish
