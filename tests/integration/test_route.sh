#!/usr/bin/env bash
# `seawx route` against exact answers: route_check.py writes GRIB2 files of
# analytic fields (a uniform wind, a constant current, both) with ecCodes and
# checks each route's time against the answer it computes itself (the gauge
# of the polar's convex hull; Zermelo's constant-current time), within 0.2 %;
# then bad input (start equal to end, a polar that is not one, a start on
# land, a departure outside the forecast, a GRIB without wind, a limit no
# route keeps): one line, the documented exit code, within a second, nothing
# written.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
check "route against exact answers" python3 "$here/route_check.py" "$SEAWX_CLI" "$T"
finish
