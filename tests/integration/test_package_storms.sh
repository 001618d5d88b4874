#!/usr/bin/env bash
# Storms in a voyage package (`seawx voyage --storms`) against seawx-sim: a
# route through the sample Atlantic hurricane (HELGA, observed to
# 2024-10-08T06Z, forecast to 10-11) with the stand-in's clock at
# 2024-10-08T06Z, so that its valid times (from the 2024-10-07T18Z run) and
# the storm's forecast overlap the voyage. The package holds one file per
# storm kind, the risk report and the stretches at risk, listed in the
# manifest with their bytes and SHA-256; the report is the one `seawx storms
# --route --json` prints for the same voyage; one warning names the storm and
# the exit status stays 0; the dry run quotes the storms; a budget counts
# them first; a refresh fetches them again; own cone radii and 1-2-3 errors
# give the files seawx storms writes with them, recorded in the manifest;
# QGIS opens the project with the storm layers styled in a "Storms" group; no
# key in any file; bad settings are refused before any request.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
NOW=2024-10-08T06:00:00Z
sim_start --now "$NOW"
py=/usr/bin/python3 # Debian's, where python3-qgis lives
chk="python3 $here/package_check.py"
cd "$T" || exit 1
printf 'lat,lon\n24.0,-79.0\n29.0,-86.0\n' >"$T/through.csv"
VOY=(--route "$T/through.csv" --depart "$NOW" --speed 10-14)
V=("$SEAWX_CLI" voyage -b maritime "${VOY[@]}" --layer swh -z 3 --now "$NOW" --storms active)
storm_requests() { grep -c '/storm/json' "$T/access.log" || true; }

# 1. Quote and build.
check "dry run quotes the storms" sh -c "'${V[0]}' ${V[*]:1} -n >'$T/dry.out' &&
  grep -q '^storms .* 10 ' '$T/dry.out' && [ ! -e '$T/pkg' ]"
s0=$(storm_requests)
"${V[@]}" -o "$T/pkg" 2>"$T/build.err"
rc=$?
check "a storm on the route: the package is built, exit 0" test $rc -eq 0
check "  one warning names the storm and the worst level" sh -c "
  [ \$(grep -c 'warning: storm' '$T/build.err') -eq 1 ] &&
  grep -q 'warning: storm AL092024 (HELGA): the voyage meets its 64-kt winds' '$T/build.err'"
check "  the storms fetched once" test $(($(storm_requests) - s0)) -eq 1
check "manifest matches every file, storm files included" $chk manifest "$T/pkg"
check "a file per storm kind, the report and the stretches at risk" python3 -c "
import json; m = json.load(open('$T/pkg/manifest.json'))['storms']
kinds = [f['kind'] for f in m['files']]
assert kinds == ['storms', 'track_points', 'forecast_points', 'forecast_lines', 'wind_radii',
                 'cones', 'danger_areas', 'wind_swaths', 'risk_report', 'risk_segments'], kinds
assert all(f['path'] == f['kind'] + '.geojson' for f in m['files'][:8])
r = m['risk']
assert r['worst'] == '64kt' and r['worst_storm'] == 'AL092024', r
assert [s['atcf_id'] for s in r['storms']] == ['AL092024'] and 10 < r['storms'][0]['closest_approach_nm'] < 14, r
for f in m['files'][:8]:
    g = json.load(open('$T/pkg/' + f['path']))
    assert len(g['features']) == f['features'], f
    types = {x['geometry']['type'] for x in g['features'] if x['geometry']}
    assert len(types) <= 1 and all(t.startswith('Multi') for t in types), (f['path'], types)
"
"$SEAWX_CLI" storms -q "${VOY[@]}" --json --segments "$T/seg.geojson" >"$T/risk.json"
check "the risk report is the one seawx storms --route --json prints" \
  cmp "$T/risk.json" "$T/pkg/storm_risk.json"
check "  and the stretches at risk its --segments" cmp "$T/seg.geojson" "$T/pkg/storm_risk_segments.geojson"
check "the storm files are those seawx storms -o DIR/ writes" sh -c "
  '$SEAWX_CLI' storms -q --kinds storm,track_point,forecast_point,forecast_line,wind_radii,cone,danger_area,wind_swath -o '$T/dir/' &&
  for f in '$T'/dir/*.geojson; do cmp \"\$f\" '$T/pkg/'\$(basename \"\$f\") || exit 1; done"
check "the key is in no file of the package" no_key_in "$T"/.pkg.v1/*

# 2. A budget counts the storms first.
sb=$(python3 -c "import json; print(sum(f['bytes'] for f in json.load(open('$T/pkg/manifest.json'))['storms']['files']))")
"${V[@]}" -o "$T/tiny" --budget $((sb / 2)) 2>"$T/tiny.err"
rc=$?
check "a budget that cannot hold the storms: exit 2, nothing left" sh -c "[ $rc -eq 2 ] &&
  grep -q 'cannot hold the storms' '$T/tiny.err' && [ ! -e '$T/tiny' ] && ! ls -d '$T'/.tiny* 2>/dev/null"
budget=$((sb + 300000))
check "a budget the storms and a few valid times fit: cut, storms whole" sh -c "
  '${V[0]}' ${V[*]:1} -q -o '$T/cut' --budget $budget 2>'$T/cut.err' &&
  grep -q 'stopped the package before' '$T/cut.err' && $chk manifest '$T/cut' &&
  [ \$(du -b --apparent-size -c '$T'/cut/* | tail -1 | cut -f1) -le $budget ] &&
  python3 -c \"import json; m = json.load(open('$T/cut/manifest.json'))
assert m['cut'] and len(m['storms']['files']) == 10 and m['complete_times'] >= 1, m['complete_times']\""

# 3. A refresh fetches the storms again.
s0=$(storm_requests)
check "refresh: a new version with the storms fetched again" sh -c "
  '${V[0]}' ${V[*]:1} -q -o '$T/pkg' 2>/dev/null && [ \"\$(readlink '$T/pkg')\" = .pkg.v2 ] &&
  [ \$((\$(grep -c /storm/json '$T/access.log') - $s0)) -eq 1 ] && $chk manifest '$T/pkg'"

# 3b. Own cone radii and 1-2-3 errors: the storm files are what seawx storms
# writes with the same settings, not the defaults, and the manifest says so.
CONE='*:30,45,60,75,90,105,150,210'
check "own danger settings: the package built" "${V[@]}" -q -o "$T/own" --cone-radii "$CONE" \
  --danger-errors 50,100,150
check "  cones and danger areas as seawx storms writes them with those settings" sh -c "
  '$SEAWX_CLI' storms -q --kinds cone,danger_area --cone-radii '$CONE' --danger-errors 50,100,150 \
    -o '$T/owndir/' && cmp '$T/owndir/cones.geojson' '$T/own/cones.geojson' &&
  cmp '$T/owndir/danger_areas.geojson' '$T/own/danger_areas.geojson' &&
  ! cmp -s '$T/own/cones.geojson' '$T/pkg/cones.geojson' &&
  ! cmp -s '$T/own/danger_areas.geojson' '$T/pkg/danger_areas.geojson'"
"$SEAWX_CLI" storms -q "${VOY[@]}" --json --danger-errors 50,100,150 --cone-radii "$CONE" >"$T/own_risk.json"
check "  the risk report with those settings" cmp "$T/own_risk.json" "$T/own/storm_risk.json"
check "  the manifest records them" python3 -c "
import json; d = json.load(open('$T/own/manifest.json'))['storms']['danger']
assert d['danger_errors_nm'] == [50, 100, 150], d
assert all(d['cone_radii_nm'][b][-1]['radii'][0] == 30 for b in ('NA', 'EP', 'WP')), d
d0 = json.load(open('$T/pkg/manifest.json'))['storms']['danger']
assert d0['danger_errors_nm'] == [100, 200, 300] and d0['cone_radii_nm']['NA'][0]['radii'][0] == 26, d0"
check "  refreshed without them: the cones, danger areas and risk report of the defaults" sh -c "
  '${V[0]}' ${V[*]:1} -q -o '$T/own' 2>/dev/null && [ \"\$(readlink '$T/own')\" = .own.v2 ] &&
  cmp '$T/own/cones.geojson' '$T/pkg/cones.geojson' &&
  cmp '$T/own/danger_areas.geojson' '$T/pkg/danger_areas.geojson' &&
  cmp '$T/own/storm_risk.json' '$T/pkg/storm_risk.json' && $chk manifest '$T/own'"

# 4. QGIS opens the project with the storm layers styled.
if "$py" -c 'import qgis.core' 2>/dev/null; then
  mkdir -p "$T/home" "$T/run" && chmod 700 "$T/run"
  check "QGIS: route, Storms, rasters; every storm layer valid and styled" env HOME="$T/home" \
    XDG_CONFIG_HOME="$T/home/.config" XDG_DATA_HOME="$T/home/.local/share" \
    XDG_CACHE_HOME="$T/home/.cache" XDG_RUNTIME_DIR="$T/run" QT_QPA_PLATFORM=offscreen \
    "$py" "$here/package_storms_qgis.py" "$T/pkg"
else
  check "python3-qgis installed (scripts/install-deps.sh)" false
fi

# 5. A bad selection is refused before any request.
bad_storms() {
  local n0
  n0=$(wc -l <"$T/access.log")
  "$SEAWX_CLI" voyage -b maritime "${VOY[@]}" --layer swh -o "$T/bad" --storms "$1" 2>"$T/bad.err"
  [ $? -eq 2 ] && [ "$(wc -l <"$T/access.log")" -eq "$n0" ] && [ ! -e "$T/bad" ] &&
    grep -q -- '--storms' "$T/bad.err"
}
check "--storms sometimes: exit 2, nothing sent" bad_storms sometimes
check "--storms region=XX: exit 2, nothing sent" bad_storms region=XX
bad_danger() { # WANT ARGS...: refused with WANT in the one line, exit 2, nothing sent or left
  local n0 want=$1
  shift
  n0=$(wc -l <"$T/access.log")
  "$SEAWX_CLI" voyage -b maritime "${VOY[@]}" --layer swh -o "$T/bad" "$@" 2>"$T/bad.err"
  [ $? -eq 2 ] && [ "$(wc -l <"$T/access.log")" -eq "$n0" ] && [ ! -e "$T/bad" ] &&
    ! ls -d "$T"/.bad* 2>/dev/null && [ "$(wc -l <"$T/bad.err")" -eq 1 ] && grep -q -- "$want" "$T/bad.err"
}
check "--cone-radii with 2 values: exit 2, nothing sent" \
  bad_danger '--cone-radii entry 1: 2 values, not 8' --storms active --cone-radii 'NA:1,2'
check "--danger-errors negative: exit 2, nothing sent" \
  bad_danger '--danger-errors' --storms active --danger-errors=-1,200,300
check "--cone-radii without --storms: exit 2, nothing sent" \
  bad_danger 'go with --storms' --cone-radii "$CONE"
finish
