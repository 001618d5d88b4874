#!/usr/bin/env bash
# seawx grib in polar waters: GRIB is latitude/longitude, so a voyage GRIB
# reaches the poles (tiles keep Web Mercator's 85.0511).
#   - voyages across 85 N, along 86 N and touching 89.9 N, cut from the
#     stand-in's global 0.25-degree files (which run from 90 N to 90 S):
#     grib_polar_check.py (ecCodes, not seawx's code) finds the grids' north
#     edge at or above the route's northernmost latitude plus the buffer
#     (clamped at 90), a grid reaching the pole the whole circle round, every
#     node within the buffer (across the pole too) with a value, and every
#     value equal to the source file's within half the packing step;
#   - a box up to 90 N holds the pole's row;
#   - a route beyond 90 is refused as before; seeding tiles of the polar
#     routes is refused in Web Mercator's words, as before.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
SIM_NOW=2026-11-27T06:00:00Z
DEPART=2026-11-27T06:00:00Z
sim_start
S=$SEAWX_CLI
cd "$T" || exit 1

# the source files of the hours the voyages take (a day from 06 h, every 6 hours)
mkdir -p src
for h in 6 12 18 24 30; do
  f=$(printf 'sof-d.20261127.t00z.0p25.basic.global.f%03d.grib2' "$h")
  "$S" forecast download "$f" -o "src/$f" -q 2>>src.err
done
check "the stand-in's global files run from 90 N to 90 S" sh -c \
  "[ \"\$(grib_get -p latitudeOfFirstGridPointInDegrees,latitudeOfLastGridPointInDegrees src/*f006.grib2 | sort -u)\" = '90 -90' ]"

printf 'lat,lon\n84.5,-20.0\n86.0,10.0\n' >across.csv
printf 'lat,lon\n86.0,-20.0\n86.0,10.0\n' >north86.csv
printf 'lat,lon\n88.0,-30.0\n89.9,0.0\n' >pole.csv
voyage=(--depart "$DEPART" --speed 6-8 --buffer 50 --vars wind --grid 0.5 --step 6 --days 1 --viewer opencpn)

polar() { # NAME ROUTE CUT: builds NAME.grb2 and checks it against the source
  local name=$1 route=$2 cut=$3
  "$S" grib --route "$route" "${voyage[@]}" --cut "$cut" -o "$name.grb2" 2>"$name.err" || {
    echo "  $(tail -1 "$name.err")"
    return 1
  }
  echo "# $name ($cut cut): $(grib_get -p step,Ni,Nj,latitudeOfFirstGridPointInDegrees,latitudeOfLastGridPointInDegrees "$name.grb2" | sort -u | tr '\n' ';')"
  python3 "$here/grib_polar_check.py" "$name.grb2" src "$route" 50 20261127 >"$name.out" 2>&1
  local rc=$?
  cat "$name.out"
  return $rc
}
check "a voyage across 85 N: its grids hold its rows and the source's values" \
  polar across across.csv window
check "a voyage along 86 N: its grids hold its rows and the source's values" \
  polar north86 north86.csv window
check "a voyage touching 89.9 N (route cut): the grid reaches 90, the whole circle" \
  polar pole pole.csv route
check "the same voyage, a grid each time (window cut)" polar pole-w pole.csv window
check "the pole's grid: 720 x 0.5 degrees from 180 E" sh -c \
  "grib_get -p Ni,latitudeOfFirstGridPointInDegrees,longitudeOfFirstGridPointInDegrees pole.grb2 | sort -u | grep -qx '720 90 180'"

# Svalbard northwards with rain, a field of zeros up there: with buffers of
# 250 to 400 nm ecCodes could not pack it with complex packing, and the run
# ended with exit 7 blaming the service. Every buffer builds, and the values
# are the source's.
printf 'lat,lon\n78.2,15.6\n81.5,20.0\n' >svalbard.csv
arctic() { # BUFFER
  local b=$1
  "$S" grib --route svalbard.csv --depart "$DEPART" --speed 6-8 --buffer "$b" --vars wind,prmsl,rain \
    --grid 0.25 --step 6 --days 1 -o "arctic$b.grb2" 2>"arctic$b.err" || {
    echo "  $(tail -1 "arctic$b.err")"
    return 1
  }
  python3 "$here/grib_polar_check.py" "arctic$b.grb2" src svalbard.csv "$b" 20261127 >"arctic$b.out" 2>&1
  local rc=$?
  cat "arctic$b.out"
  return $rc
}
for b in 200 250 300 400 600; do
  check "Svalbard to 81.5 N with rain, buffer $b nm: built, the source's values" arctic "$b"
done

"$S" grib --bbox 0,86,20,90 --hours 6 --vars wind --grid 0.5 -o box.grb2 2>box.err
check "a box up to 90 N: 41 x 9 points from 90 N to 86 N" sh -c \
  "[ \"\$(grib_get -p Ni,Nj,latitudeOfFirstGridPointInDegrees,latitudeOfLastGridPointInDegrees box.grb2 | sort -u)\" = '41 9 90 86' ]"
check "and its values are the source's" sh -c \
  "python3 '$here/grib_polar_check.py' box.grb2 src /dev/null 0 20261127 >box.out 2>&1 || { cat box.out; false; }"

bad() { # NAME EXIT PATTERN COMMAND ARGS...: one line, the exit, no file
  local name=$1 want=$2 pat=$3 rc
  shift 3
  "$S" "$@" >"$name.out" 2>"$name.err"
  rc=$?
  if [ "$rc" -eq "$want" ] && [ "$(wc -l <"$name.err")" -eq 1 ] && grep -q -- "$pat" "$name.err" &&
    [ ! -e "$name.grb2" ]; then
    return 0
  fi
  echo "  exit $rc (wanted $want): $(cat "$name.err")"
  return 1
}
printf 'lat,lon\n89.0,0.0\n90.5,10.0\n' >beyond.csv
check "a route beyond 90 N: exit 2" bad beyond 2 "is not a latitude, longitude pair" \
  grib --route beyond.csv "${voyage[@]}" -o beyond.grb2
check "seeding tiles along 86 N: refused in Web Mercator's words, exit 2" bad seed86 2 \
  "outside Web Mercator's latitudes" seed -b basic -v t2m:K --route north86.csv --buffer 50 \
  --zoom 0-2 --dry-run -o seed86.mbtiles
check "seeding tiles to the pole: the same" bad seedpole 2 "outside Web Mercator's latitudes" \
  seed -b basic -v t2m:K --route pole.csv --buffer 50 --zoom 0-2 --dry-run -o seedpole.mbtiles
finish
