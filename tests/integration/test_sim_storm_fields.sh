#!/usr/bin/env bash
# The stand-in's forecasts carry its active storms: at 2024-10-08T06 HELGA is
# an active hurricane, and the caribbean forecast file of 12 UTC that day (the
# 00 UTC run, hour 12) holds it as its advisory has it then. The storm's
# position, maximum wind, pressure and 34 kt radii at 12 UTC are interpolated
# by sim_storm_fields_check.py from the /storm/json answer (between the fixes
# of 06 and 18 UTC), and the file is read with ecCodes:
#   - at each quadrant's 34 kt radius, along its diagonal, the 10 m wind is
#     34 kt within 15 %; at half the radius it is faster than 34 kt; 200 nm
#     beyond the radius it is slower;
#   - the fastest wind within 100 nm is the advisory's maximum within 20 %;
#     gusts are faster, the sea is 8 to 16 m high there;
#   - prmsl at the node nearest the centre is the advisory's within 10 hPa;
#   - the flow turns counter-clockwise (north of the equator);
#   - the point forecasts at two nodes (the fastest one, one at the NE 34 kt
#     radius) are the file's values within a packing step;
# the same of TAKARA (its centre across 180 degrees) and VAIANA (south of the
# equator: clockwise) in the global files; and in November 2026, far from any
# storm's track, the file has no 34 kt wind and no pressure below 985 hPa.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# A cache of its own: the files below are made afresh by this test.
export SEAWX_SIM_GRIB_DIR=$T/grib
SIM_NOW=2024-10-08T06:00:00Z
sim_start
S=$SEAWX_CLI
PY=/usr/bin/python3
CHECK=$here/sim_storm_fields_check.py
VALID=2024-10-08T12:00:00Z
cd "$T" || exit 1

check "HELGA from /storm/json" sh -c \
  "curl -sf -H 'service-api-key: $KEY' '$SIM_URL/storm/json?id=AL092024' -o helga.json &&
   $PY -c 'import json,sys; s=json.load(open(sys.argv[1])); assert s[0][\"is_active\"]' helga.json"
for b in basic maritime; do
  check "the $b file of $VALID downloaded" sh -c \
    "$S forecast download sof-d.20241008.t00z.0p25.$b.caribbean.f012.grib2 -o $b.grib2 -q 2>$b.err"
done
storm() {
  $PY "$CHECK" helga.json "$VALID" basic.grib2 maritime.grib2 nodes >storm.out 2>&1
  local rc=$?
  cat storm.out
  return $rc
}
check "the file holds HELGA as the advisory has it" storm

points() {
  local n=0 files=()
  while read -r lat lon; do
    n=$((n + 1))
    "$S" forecast point --lat "$lat" --lon "$lon" --bundles basic,maritime -f json \
      -o "p$n.json" 2>"p$n.err" || { cat "p$n.err"; return 1; }
    files+=("p$n.json")
  done <nodes
  [ "$n" -eq 2 ] || return 1
  $PY "$CHECK" --points nodes basic.grib2 maritime.grib2 "$VALID" "${files[@]}"
}
check "the point forecasts in the storm are the file's values" points

restart() { # NOW: the stand-in again, its clock at NOW
  kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
  rm -f "$T/port"
  SIM_NOW=$1
  sim_start
}

# the same checks of the global file across 180 degrees (TAKARA) and south of
# the equator (VAIANA, clockwise), 18 UTC (06 UTC run, hour 12)
other() { # NAME ID RUN_DAY
  curl -sf -H "service-api-key: $KEY" "$SIM_URL/storm/json?id=$2" -o "$1.json" &&
    for b in basic maritime; do
      "$S" forecast download "sof-d.$3.t06z.0p25.$b.global.f012.grib2" -o "$1-$b.grib2" -q ||
        return 1
    done &&
    $PY "$CHECK" "$1.json" "${3:0:4}-${3:4:2}-${3:6:2}T18:00:00Z" "$1-basic.grib2" \
      "$1-maritime.grib2" "$1.nodes" >"$1.out" 2>&1
  local rc=$?
  cat "$1.out"
  return $rc
}
restart 2024-10-03T12:00:00Z
check "TAKARA across 180 degrees, as its advisory has it" other takara WP272024 20241003
restart 2024-02-01T12:00:00Z
check "VAIANA south of the equator, as its advisory has it" other vaiana SP052024 20240201

# far from any storm's time: nothing of a storm
restart 2026-11-27T06:00:00Z
check "a file far from any storm's time: no storm in it" sh -c \
  "$S forecast download sof-d.20261127.t00z.0p25.basic.caribbean.f012.grib2 -o calm.grib2 -q 2>calm.err &&
   $PY '$CHECK' --calm calm.grib2"
finish
