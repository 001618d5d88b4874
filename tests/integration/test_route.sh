#!/usr/bin/env bash
# `seawx route` against exact answers: route_check.py writes GRIB2 files of
# analytic fields (a uniform wind, a constant current, both) with ecCodes and
# checks each route's time against the answer it computes itself (the gauge
# of the polar's convex hull; Zermelo's constant-current time), within 0.2 %;
# then bad input (start equal to end, a polar that is not one, a start on
# land, a departure outside the forecast, a GRIB without wind, a limit no
# route keeps): one line, the documented exit code, nothing written, timed
# (ten seconds at most: never an endless search). route_land_check.py: 21 routes through island-rich waters on GSHHG
# full resolution with a margin, each leg checked against GMT's own reading
# of the same shoreline (gmt coast -M) with exact geometry: none crosses land
# or comes nearer than the margin; 12 of their straight lines cross land.
# route_storm_check.py: hurricane cases (a storm astride the way, a start
# inside a storm's 34 kt winds), the route checked minute by minute against
# the radii and the 1-2-3 danger area computed by the test itself.
# route_chart_check.py: --chart for a storm detour north of Puerto Rico, the
# PNG decoded by the test: the start and end markers, land, the storm's area
# at its nearest moment and a leg's wind colour at pixels the test places
# from the projection the PNG states.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# Debian's python3 (shapely is python3-shapely)
py=/usr/bin/python3
check "route against exact answers" $py "$here/route_check.py" "$SEAWX_CLI" "$T"
check "routes keep out of storms (a detour, a wait), minute by minute" \
  $py "$here/route_storm_check.py" "$SEAWX_CLI" "$T"
check "the route's chart: markers, land, the storm and the wind at their pixels" \
  $py "$here/route_chart_check.py" "$SEAWX_CLI" "$T"
# $SEAWX_GSHHG: another place for the coastlines (route_check.py wrote wind.grb2)
mkdir -p "$T/gshhg-empty" "$T/gshhg"
ln -sf /usr/share/gmt-gshhg/binned_GSHHS_c.nc "$T/gshhg/"
gshhg() { # DIR: a route at sea with the crude coastline read from DIR
  SEAWX_GSHHG=$1 "$SEAWX_CLI" route --no-storms --grib "$T/wind.grb2" --from=-1,-30 --to 1,-30 \
    --depart 2023-11-15T00:00Z --speed 6 --coastline c -q --json "$T/gshhg.json" >/dev/null
}
check "\$SEAWX_GSHHG names a folder holding the coastline: the route is found" gshhg "$T/gshhg"
rm -f "$T/gshhg.json"
gshhg_missing() { # one line naming the variable and the file, exit 5, nothing written
  local rc
  gshhg "$T/gshhg-empty" 2>"$T/gshhg.err"
  rc=$?
  [ "$rc" -eq 5 ] && [ "$(wc -l <"$T/gshhg.err")" -eq 1 ] && [ ! -e "$T/gshhg.json" ] &&
    grep -qF "SEAWX_GSHHG: no GSHHG coastline at $T/gshhg-empty/binned_GSHHS_c.nc" "$T/gshhg.err" ||
    { echo "  exit $rc: $(cat "$T/gshhg.err")"; return 1; }
}
check "\$SEAWX_GSHHG names a folder without it: exit 5, one line naming both, nothing written" \
  gshhg_missing
check "routes never over land (GSHHG full, GMT's shoreline)" \
  $py "$here/route_land_check.py" "$SEAWX_CLI" "$T"
finish
