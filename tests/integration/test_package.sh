#!/usr/bin/env bash
# Voyage packages (`seawx voyage`) against seawx-sim on a fixed clock: a
# package of two layers along the Atlantic route (6-8 kn) matches its
# manifest (files, bytes, SHA-256, tiles) and the dry run's quote within 25 %
# per layer; --budget is never exceeded and leaves a package complete for a
# prefix of the valid times; building again for the same run fetches only
# what is missing; after the stand-in publishes a newer run (restarted on the
# same port, its clock 6 hours later) a refresh rebuilds from it, leaves out
# the past times and replaces the package whole while a reader checks it;
# waypoint times across the antimeridian; bad input refused before any
# GetMap, leaving nothing behind. (QGIS opens packages in test_qgis_package.sh.)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
NOW0=2026-03-02T11:00:00Z
NOW1=2026-03-02T17:00:00Z
sim_start --now "$NOW0"
chk="python3 $here/package_check.py"
F=$SEAWX_FIXTURES/voyage
cd "$T" || exit 1
"$SEAWX_CLI" layers -b maritime -v swh --latest --json >"$T/layers.json" || exit 1
first=$(python3 -c "import json; print(json.load(open('$T/layers.json'))[0]['times'][0])")
V=("$SEAWX_CLI" voyage -b maritime --route "$F/atlantic_1000nm.csv" --depart "$first" --speed 6-8
  --layer swh --layer sst:zoom=3 -z 3-4 --format png --now "$NOW0" -q)

# 1. Quote, build, manifest.
check "dry run quotes each layer" sh -c "'${V[0]}' ${V[*]:1} -n >'$T/dry.out' && grep -q '^swh ' '$T/dry.out' &&
  grep -q '^sst ' '$T/dry.out' && grep -q '^all ' '$T/dry.out' && [ ! -e '$T/pkg' ]"
# The quote fetches samples for seconds: SIGINT stops it, once its first
# sample GetMap was answered (observed), even from a script's background job,
# which starts with SIGINT ignored.
g0=$(getmaps)
"${V[@]}" -n >"$T/dry_int.out" 2>"$T/dry_int.err" &
dry_pid=$!
check "dry run: a sample GetMap answered" progress_or_exit "$dry_pid" 300 eval '[ "$(getmaps)" -gt "$g0" ]'
kill -INT "$dry_pid"
wait "$dry_pid"
dry_rc=$?
check "dry run interrupted: exit 130, one line, no estimate" sh -c "[ $dry_rc -eq 130 ] &&
  [ \$(wc -l <'$T/dry_int.err') -eq 1 ] && grep -q 'interrupted: the quote was stopped' '$T/dry_int.err' &&
  ! grep -q '^estimated size' '$T/dry_int.out'" || cat "$T/dry_int.err"
before=$(getmaps)
check "package builds" "${V[@]}" -o "$T/pkg"
built=$(($(getmaps) - before))
check "a link to its version folder" test "$(readlink "$T/pkg")" = .pkg.v1
check "manifest matches the files" $chk manifest "$T/pkg"
check "one GetMap per tile (metatile 1)" python3 -c "
import json; m = json.load(open('$T/pkg/manifest.json'))
assert sum(f['tiles'] for f in m['files']) == $built, $built"
check "quote within 25 % of each layer's size" $chk quote "$T/dry.out" "$T/pkg" 25
check "route.geojson holds the waypoints" $chk route "$T/pkg" "$F/atlantic_1000nm.csv"
check "past valid times left out" python3 -c "
import json; m = json.load(open('$T/pkg/manifest.json'))
assert min(f['time'] for f in m['files']) == '2026-03-02T11:00:00Z', min(f['time'] for f in m['files'])"
check "the key is in no file of the package" no_key_in "$T"/.pkg.v1/*

# 2. A budget: never exceeded, complete for a prefix of the valid times.
budget=700000
check "budget cuts the package and says where" sh -c "'${V[0]}' ${V[*]:1} -o '$T/cut' --budget 700kB \
  2>'$T/cut.err' && grep -q 'stopped the package before' '$T/cut.err'"
check "budget never exceeded, prefix complete" $chk budget "$T/cut" $budget "$T/pkg"
check "manifest of the cut package" $chk manifest "$T/cut"
# The same run again without a budget: the complete files are kept, only the rest fetched.
want=$(python3 -c "
import json; c = json.load(open('$T/cut/manifest.json')); p = json.load(open('$T/pkg/manifest.json'))
kept = {f['path'] for f in c['files'] if f['complete']}
print(sum(f['tiles'] for f in p['files'] if f['path'] not in kept))")
before=$(getmaps)
check "building again fetches only what is missing" "${V[@]}" -o "$T/cut"
check "  ($want GetMaps, the tiles the cut package lacked)" test $(($(getmaps) - before)) -eq "$want"
check "  and the package is whole, as the one built in one go" sh -c "$chk manifest '$T/cut' &&
  python3 -c \"import json; a, b = (json.load(open('$T/%s/manifest.json' % n)) for n in ('cut', 'pkg'))
k = lambda m: [(f['path'], f['tiles'], f['complete']) for f in m['files']]
assert k(a) == k(b) and a['cut'] is None\""

# Departing a day after now: the package starts at the frame shown at
# departure; the valid times before it (the ship in port) are left out.
later=$(python3 -c "import datetime as d; t = d.datetime.strptime('$first', '%Y-%m-%dT%H:%M:%SZ') + d.timedelta(hours=24); print(t.strftime('%Y-%m-%dT%H:%M:%SZ'))")
check "a later departure builds" "$SEAWX_CLI" voyage -b maritime --route "$F/atlantic_1000nm.csv" --depart "$later" \
  --speed 6-8 --layer swh -z 3 --now "$NOW0" -q -o "$T/later"
check "  its first file is the valid time at departure, none before" python3 -c "
import json; m = json.load(open('$T/later/manifest.json')); t = sorted(f['time'] for f in m['files'])
assert t[0] == '$later', (t[0], '$later')"

# What a viewer shows at every moment covers where the ship can be then: a
# fast ship (18-22 kn) in a narrow corridor (1 nm) at zooms 7-8, 3000 random
# (file, moment in its shown range, reachable position) pairs, checked apart
# from lib/ (voyage_check.py): each file is shown over the moments nearest its
# valid time, the window its tiles cover.
check "a narrow, fast package builds" "$SEAWX_CLI" voyage -b maritime --route "$F/atlantic_1000nm.csv" \
  --depart "$later" --speed 18-22 --buffer 1 --layer swh -z 7-8 --now "$NOW0" -q -o "$T/fast"
check "  every moment shown covers where the ship can be" python3 "$here/voyage_check.py" package \
  "$T/fast" "$F/atlantic_1000nm.csv" 7 8 3000 "$later" 18 22

# Interrupted (SIGINT): the package as it was, what was fetched kept for the next build.
g0=$(getmaps)
"${V[@]}" --in-flight 2 -o "$T/int" 2>"$T/int.err" &
int_pid=$!
progress_or_exit "$int_pid" 300 eval '[ "$(ls "$T"/.int.v1.part/*.mbtiles 2>/dev/null | wc -l)" -ge 6 ]'
kill -INT "$int_pid"
wait "$int_pid"
int_rc=$?
check "interrupted: exit 130, no package, the fetched files kept" sh -c "[ $int_rc -eq 130 ] && [ ! -e '$T/int' ] &&
  [ -f '$T/.int.v1.part/resume.json' ] && grep -q 'run the same command again to continue' '$T/int.err'"
g1=$(getmaps)
check "the same command continues" "${V[@]}" -o "$T/int"
check "  fetching only what the interrupted build had not" python3 -c "
import json; m = json.load(open('$T/int/manifest.json')); n = sum(f['tiles'] for f in m['files'])
assert $(getmaps) - $g1 < n and $(getmaps) - $g0 <= n + 2, ($g0, $g1, $(getmaps), n)"
check "  to the same package" $chk manifest "$T/int"

# Two builds of one package at once: the second is refused at once with one
# line (exit 8), touching nothing; the first ends whole, its lock let go.
"${V[@]}" --in-flight 2 -o "$T/two" 2>"$T/two1.err" &
two_pid=$!
check "two builds: the first is under way (a file in its .part)" progress_or_exit "$two_pid" 300 \
  eval '[ "$(ls "$T"/.two.v1.part/*.mbtiles 2>/dev/null | wc -l)" -ge 1 ]'
"${V[@]}" -o "$T/two/" 2>"$T/two2.err"
two_rc=$?
check "  the second is refused: exit 8, one line naming the package" sh -c "[ $two_rc -eq 8 ] &&
  [ \$(wc -l <'$T/two2.err') -eq 1 ] && grep -q 'is being built by another run right now' '$T/two2.err'" ||
  cat "$T/two2.err"
wait "$two_pid"
check "  the first completes, whole, with no resume.json in it" sh -c "[ $? -eq 0 ] &&
  $chk manifest '$T/two' >/dev/null && [ ! -e '$T/two/resume.json' ]"
check "  and lets its lock go" test ! -e "$T/.two.lock"

# 3. Refresh after a newer run: the stand-in restarted 6 hours later.
run0=$(python3 -c "import json; print(json.load(open('$T/pkg/manifest.json'))['layers'][0]['run'])")
kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
mv "$T/access.log" "$T/access0.log"
"$SEAWX_SIM" --port "$SIM_PORT" --port-file "$T/port1" --key "$KEY" --access-log "$T/access.log" \
  --now "$NOW1" 2>"$T/sim1.log" &
SIM_PID=$!
for _ in $(seq 200); do [ -s "$T/port1" ] && break; sleep 0.025; done
V1=("${V[@]/#$NOW0/$NOW1}")
rm -f "$T/stop"
$chk reader "$T/pkg" "$T/stop" >"$T/reader.out" 2>&1 &
reader=$!
check "refresh builds from the newer run" "${V1[@]}" -o "$T/pkg"
sleep 0.3
touch "$T/stop"
wait "$reader"
reader_rc=$?
cat "$T/reader.out"
check "a reader during the refresh saw the old or the new package, whole" test "$reader_rc" -eq 0
refreshed=$(getmaps)
check "the new run, past times left out" python3 -c "
import json; m = json.load(open('$T/pkg/manifest.json'))
assert m['version'] == 2 and all(l['run'] != '$run0' for l in m['layers']), m['layers']
assert all(f['run'] != '$run0' for f in m['files'])
assert min(f['time'] for f in m['files']) == '2026-03-02T17:00:00Z', min(f['time'] for f in m['files'])
assert $refreshed == sum(f['tiles'] for f in m['files'])"
check "manifest of the refreshed package" $chk manifest "$T/pkg"
check "the version before kept for its readers" test -f "$T/.pkg.v1/manifest.json"
before=$(getmaps)
check "refresh with no newer run" "${V1[@]}" -o "$T/pkg"
check "  fetches nothing (every file complete for its run and time)" test "$(getmaps)" -eq "$before"
check "  and removes the version before last" sh -c "[ ! -e '$T/.pkg.v1' ] && [ -d '$T/.pkg.v2' ] &&
  [ \"\$(readlink '$T/pkg')\" = .pkg.v3 ]"

# 4. Waypoint times across the antimeridian (10 kn from the first valid time).
python3 - "$F/pacific_180.csv" "$first" >"$T/timed.csv" <<'PY'
import datetime, math, sys
R = 6371008.8
rows = [l.strip().split(",") for l in open(sys.argv[1]) if l.strip()][1:]
t0 = datetime.datetime.strptime(sys.argv[2], "%Y-%m-%dT%H:%M:%SZ") + datetime.timedelta(hours=20)
print("lat,lon,eta")
d = 0.0
for i, (la, lo) in enumerate(rows):
    if i:
        pa, pb = math.radians(float(rows[i - 1][0])), math.radians(float(la))
        dl = math.radians(float(lo) - float(rows[i - 1][1]))
        h = math.sin((pb - pa) / 2) ** 2 + math.cos(pa) * math.cos(pb) * math.sin(dl / 2) ** 2
        d += 2 * R * math.asin(math.sqrt(h))
    t = t0 + datetime.timedelta(seconds=round(d / (10 * 1852 / 3600)))
    print("%s,%s,%s" % (la, lo, t.strftime("%Y-%m-%dT%H:%M:%SZ")))
PY
check "waypoint times across 180" "$SEAWX_CLI" voyage -b maritime --route "$T/timed.csv" --layer swh \
  -z 3-4 --format png --now "$NOW1" -q -o "$T/pac"
check "  manifest matches" $chk manifest "$T/pac"
check "  route split at 180" $chk route "$T/pac" "$T/timed.csv"
check "  a file holds tiles on both sides of 180" sh -c "for f in '$T'/pac/*.mbtiles; do
  [ \"\$(sqlite3 \"\$f\" 'select count(distinct tile_column) from tiles where zoom_level = 4 and tile_column in (0, 15)')\" = 2 ] && exit 0; done; exit 1"

# 5. Bad input: one line, the documented exit, no GetMap, nothing left behind.
mkdir -p "$T/bad" "$T/bad/notpkg"
printf 'lat,lon,eta\n30,-20,2026-03-03T00:00:00Z\n31,-21,2026-03-02T23:00:00Z\n' >"$T/bad/back.csv"
printf 'lat,lon,eta\n30,-20,2030-03-03T00:00:00Z\n31,-21,2030-03-04T00:00:00Z\n' >"$T/bad/late.csv"
B=("$SEAWX_CLI" voyage -b maritime --layer swh -z 3 --now "$NOW1")
A=(--route "$F/atlantic_1000nm.csv")
refused() { # NAME EXIT PATTERN ARGS...: one line naming the problem, that exit, no GetMap
  local name=$1 code=$2 pat=$3
  shift 3
  local g0 listing
  g0=$(getmaps)
  listing=$(ls -A "$T/bad")
  "${B[@]}" "$@" >"$T/bad.out" 2>"$T/bad.err"
  local rc=$?
  check "refused: $name (exit $code)" sh -c "[ $rc -eq $code ] && [ \$(wc -l <'$T/bad.err') -eq 1 ] &&
    grep -q -- '$pat' '$T/bad.err' && [ $(getmaps) -eq $g0 ] && [ \"\$(ls -A '$T/bad')\" = '$listing' ]" ||
    cat "$T/bad.err"
}
refused "departure not ISO 8601" 2 "not an ISO 8601" "${A[@]}" --depart tomorrow --speed 7 -o "$T/bad/p"
refused "speed zero" 2 "speed" "${A[@]}" --depart "$first" --speed 0 -o "$T/bad/p"
refused "MIN above MAX" 2 "speed" "${A[@]}" --depart "$first" --speed 8-6 -o "$T/bad/p"
refused "waypoint times not increasing" 2 "time" --route "$T/bad/back.csv" -o "$T/bad/p"
refused "times outside the valid times" 5 "outside the valid times" --route "$T/bad/late.csv" -o "$T/bad/p"
refused "budget too small for the first time" 2 "cannot hold even the first valid time" "${A[@]}" \
  --depart "$first" --speed 7 --budget 20kB -o "$T/bad/p"
refused "a folder that is not a package" 2 "is not a voyage package" "${A[@]}" --depart "$first" \
  --speed 7 -o "$T/bad/notpkg"
refused "a layer option unknown" 2 "unknown option" "${A[@]}" --depart "$first" --speed 7 \
  --layer sst:colour=red -o "$T/bad/p"
refused "an unknown variable" 5 "nope" "${A[@]}" --depart "$first" --speed 7 --layer nope -o "$T/bad/p"
check "the key is in no output" no_key_in "$T"/pkg/* "$T"/cut/* "$T"/pac/* "$T/dry.out" "$T/cut.err"
finish
