#!/usr/bin/env bash
# Ocean currents in a voyage GRIB, for the route search: with
# SEAWX_SIM_GRIB_CURRENTS=1 the stand-in's maritime files also hold the
# surface current (ocu, ocv: WMO discipline 10, category 1, numbers 2 and
# 3, depth below sea level 0), and `seawx grib --vars wind,currents` builds a
# voyage GRIB that holds them, cut to its grid, in m/s to 0.01, missing over
# land. Without the switch the maritime files hold swh, mwd, mwp only.
# seawx route fetches the currents where the files hold them: each point's
# current is the file's (route_current_check.py reads it apart from seawx);
# where they hold none the route is searched without, and says so. The
# analytic switch (SEAWX_SIM_ANALYTIC): a uniform wind and current in the
# stand-in's files, and routes through them against exact answers.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
export SEAWX_SIM_GRIB_DIR=$T/grib SEAWX_SIM_GRIB_CURRENTS=1
SIM_NOW=2026-11-27T02:00:00Z
sim_start
S=$SEAWX_CLI
cd "$T" || exit 1

"$S" forecast files --bundles maritime --regions north-atlantic -f json -o fc.json 2>fc.err
mar=$(python3 -c "import json,sys; print(next(r['name'] for r in json.load(open('fc.json'))['data'] if r['name'].endswith('.maritime.north-atlantic.f012.grib2')))")
check "the listing names a maritime file" test -n "$mar"
check "maritime north-atlantic f012 downloaded" sh -c "$S forecast download $mar -o mar.grib2 2>mar.err"
keys=shortName,discipline,parameterCategory,parameterNumber,typeOfFirstFixedSurface:l,level,stepRange
got=$(grib_get -p "$keys" mar.grib2 | tr -s ' ' | sed 's/ *$//')
want="swh 10 0 3 1 0 12
mwd 10 0 14 1 0 12
mwp 10 0 15 1 0 12
ocu 10 1 2 160 0 12
ocv 10 1 3 160 0 12"
check "maritime with currents: swh mwd mwp ocu ocv" test "$got" = "$want"
[ "$got" = "$want" ] || printf 'got:\n%s\n' "$got"

# the values at grid nodes are the stand-in's own currents there (its
# /_sim/field), to the file's precision: the Gulf Stream off Cape Hatteras,
# the gyre's south, the trades' belt, and land near Ottawa (missing)
field_ok() {
  local run valid lat lon got want bad=0
  run=$(grib_get -w count=1 -p dataDate,dataTime mar.grib2 |
    awk '{printf "%s-%s-%sT%02d:00:00Z", substr($1,1,4), substr($1,5,2), substr($1,7,2), $2/100}')
  valid=$(date -u -d "${run%Z} UTC + 12 hours" +%Y-%m-%dT%H:%M:%SZ)
  for p in "ocu 37.00 -70.00" "ocv 37.00 -70.00" "ocu 36.25 -72.50" "ocv 20.00 -40.00" \
    "ocu 12.50 -30.00" "ocv 45.00 -75.00"; do
    set -- $p
    got=$(grib_get_data -m 9999 -w shortName="$1" mar.grib2 | awk -v la="$2" -v lo="$3" \
      'NR > 1 && ($1 - la)^2 < 1e-6 && (($2 - lo)^2 < 1e-6 || ($2 - lo - 360)^2 < 1e-6) {
        print ($3 == 9999 ? "missing" : $3); exit }')
    [ -n "$got" ] || { echo "  $p: no such node"; bad=1; continue; }
    want=$(python3 -c "import json,urllib.request,sys; v=json.load(urllib.request.urlopen(sys.argv[1]))['value']; print('missing' if v is None else v)" \
      "$SIM_URL/_sim/field?param=$1&lon=$3&lat=$2&time=$valid&run=$run")
    echo "# $1 at $2,$3: $got in the file, $want the stand-in's"
    if [ "$want" = missing ]; then
      [ "$got" = missing ] || { echo "  $p: $got, land should be missing"; bad=1; }
    else
      awk -v g="$got" -v w="$want" 'BEGIN { exit !(g - w <= 0.005001 && w - g <= 0.005001) }' ||
        { echo "  $p: $got in the file, $want the stand-in's"; bad=1; }
    fi
  done
  return $bad
}
check "currents at grid nodes equal the stand-in's field, to 0.01 m/s" field_ok

# ---- a voyage GRIB of wind and currents ----
cat >route.csv <<'CSV'
lat,lon
28.1,-15.4
20.0,-35.0
14.0,-61.0
CSV
check "seawx grib --vars wind,currents" sh -c "$S grib --route route.csv \
  --depart 2026-11-27T06:00:00Z --speed 6-8 --buffer 100 --days 2 --vars wind,currents \
  --grid 0.5 --step 6 --cache c1 -o v.grb2 2>v.err"
cat v.err
# every message: its parameter, and of the currents the range of the values
# at sea and the share missing (land: the Canaries, Cape Verde, the Antilles)
cur_ok() {
  grib_get -p discipline,parameterCategory,parameterNumber,typeOfFirstFixedSurface:l,decimalScaleFactor,min,max,numberOfMissing,numberOfDataPoints v.grb2 >msgs.txt || return 1
  awk '
    { n[$1 " " $2 " " $3]++ }
    $1 == 10 {
      if ($4 != 160 || $5 != 2) { print "surface or precision: " $0; bad = 1 }
      if ($6 < -1.5 || $7 > 1.5) { print "range: " $0; bad = 1 }
      if ($6 >= $7) { print "a constant: " $0; bad = 1 }
      if ($8 == 0 || $8 >= $9) { print "land missing, sea present: " $0; bad = 1 }
    }
    END {
      k = 0
      for (p in n) { k++; if (n[p] != n["0 2 2"]) { print "times of " p; bad = 1 } }
      if (k != 4 || !n["10 1 2"] || !n["10 1 3"] || !n["0 2 3"]) { print "parameters"; bad = 1 }
      exit bad
    }' msgs.txt
}
check "the voyage GRIB holds wind and currents, currents at sea in -1.5..1.5 m/s" cur_ok

# ---- seawx route through the service's currents ----
# A motor route across the Gulf Stream: the forecast it fetches holds the
# currents, and each point's current is the file's at that point and time,
# read by the test (route_current_check.py); the stream carries the boat.
route=("$S" route --from 36.0,-74.5 --to 38.5,-66.0 --speed 6 --depart 2026-11-27T06:00Z
  --no-storms --coastline c)
check "seawx route through the service's forecast with currents" \
  sh -c "$(printf "'%s' " "${route[@]}") --cache rc --save-grib rc.grb2 --geojson rc.geojson \
    --json rc.json >rc.out 2>rc.err"
nmsg() { grib_get -w shortName="$1" -p shortName "$2" | wc -l; } # messages named $1 in $2
check "the route's forecast holds the currents: ocu and ocv at every time of its wind" \
  test "$(nmsg ocu rc.grb2) $(nmsg ocv rc.grb2)" = "$(nmsg 10u rc.grb2) $(nmsg 10u rc.grb2)" -a \
  "$(nmsg ocu rc.grb2)" -gt 0
check "each point's current is the file's there and then (test's own reading)" \
  /usr/bin/python3 "$here/route_current_check.py" rc.geojson rc.grb2

# ---- without the switch: the maritime files as before, and one line ----
kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
SIM_PID=
rm -f "$T/port"
unset SEAWX_SIM_GRIB_CURRENTS
sim_start
check "without the switch: maritime f012 downloaded" \
  sh -c "$S forecast download $mar -o mar0.grib2 2>mar0.err"
check "without the switch: swh mwd mwp only" \
  test "$(grib_get -p shortName mar0.grib2 | tr -s ' \n' ' ')" = "swh mwd mwp "
"$S" grib --route route.csv --depart 2026-11-27T06:00:00Z --speed 6-8 --buffer 100 --days 2 \
  --vars wind,currents --grid 0.5 --step 6 --cache c2 -o none.grb2 2>none.err
rc=$?
check "seawx grib --vars currents where the files hold none: refused in one line" \
  sh -c "[ $rc -ne 0 ] && grep -q 'holds no ocean current (u)' none.err && [ ! -e none.grb2 ]"
tail -1 none.err
# the route without currents: found, one line saying so, no current met,
# and (the stream no longer carrying it) later than with them
check "seawx route where the files hold no currents: found" \
  sh -c "$(printf "'%s' " "${route[@]}") --cache r0 --save-grib r0.grb2 --geojson r0.geojson \
    --json r0.json >r0.out 2>r0.err"
check "... says the service's forecast holds no ocean currents, in one line" \
  test "$(grep -c "the service's forecast holds no ocean currents" r0.err)" -eq 1
check "... its forecast holds none" test "$(nmsg ocu r0.grb2)" -eq 0 -a "$(nmsg 10u r0.grb2)" -gt 0
check "... and no point meets one" sh -c "
  /usr/bin/python3 -c \"import json; p=[f['properties'] for f in json.load(open('r0.geojson'))['features']]; assert all(x['current_kn'] == 0 for x in p)\""
check "... and arrives later than the route the stream carried" /usr/bin/python3 -c "
import json
w, wo = json.load(open('rc.json')), json.load(open('r0.json'))
print('# hours with currents', w['hours'], 'without', wo['hours'])
assert w['hours'] < wo['hours']"
# ---- the analytic switch: a uniform wind and current, exact answers ----
# SEAWX_SIM_ANALYTIC: every forecast file's 10 m wind and surface current
# the values given and no storm's vortex; seawx grib cuts them from the
# stand-in's files and seawx route through that file takes the exact time
# route_analytic_check.py computes apart from seawx (within 0.2 %).
kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
SIM_PID=
rm -f "$T/port"
export SEAWX_SIM_GRIB_CURRENTS=1 SEAWX_SIM_ANALYTIC='wind=0,-6.1733;current=0.6,0.3'
export SEAWX_SIM_GRIB_DIR=$T/grib-analytic
SIM_NOW=2023-11-15T02:00:00Z
sim_start
check "seawx grib of the analytic fields (wind, currents, 36 h)" sh -c "
  SEAWX_CACHE_DIR='$T/cache-analytic' '$S' grib --bbox -33,-3,-27,3 --hours 0-36 \
    --vars wind,currents --grid 0.25 --step 3 -q -o analytic.grb2 2>analytic.err"
check "the stand-in's analytic fields: seawx route against exact answers" \
  /usr/bin/python3 "$here/route_analytic_check.py" "$S" analytic.grb2 "$T" 0,-6.1733 0.6,0.3
unset SEAWX_SIM_ANALYTIC
check "no key in the access log or outputs" no_key_in access.log ./*.err
finish
