#!/usr/bin/env bash
# Every GRIB form `seawx grib` writes by default where QGIS or GDAL may open it,
# opened in both and read value by value against ecCodes' own tools
# (grib_forms_check.py: three nodes of every message, every valid time):
#   - a voyage (2 days east from 40N 60W at 6-8 kn) as GRIB2 and as GRIB1, with
#     the default variables and with all of them, and one across 180 from the
#     global files (where the stand-in's calm area south of 32N gives fields of
#     one value throughout: written so that GDAL reads them as ecCodes does);
#   - a box as GRIB2 and GRIB1;
#   - the same voyage for --viewer qgis and for --viewer gdal.
# Each has one grid for every time (a window cut, a grid a time, is drawn by
# both on its first time's grid: the check fails on it, as it did on the old
# default). The forms for OpenCPN and XyGrib (--viewer opencpn or xygrib, a
# .bz2, which QGIS and GDAL cannot open) stay the smallest: the window cut. A
# window cut asked for where QGIS or GDAL may open the file, or a .bz2 for them,
# is refused with exit 2 and nothing written.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
SIM_NOW=2026-11-27T06:00:00Z
sim_start
S=$SEAWX_CLI
py=/usr/bin/python3 # Debian's, where python3-qgis and python3-gdal live
export QT_QPA_PLATFORM=offscreen
cd "$T" || exit 1
for p in grib_get grib_get_data; do
  check "$p is installed (scripts/install-deps.sh)" sh -c 'command -v "$0" >/dev/null' "$p"
done

printf 'lat,lon\n40,-60\n38.5,-50\n36,-40.5\n' >route.csv
printf 'lat,lon\n20,170\n22,-175\n24,-165\n' >pacific.csv
voyage=(--route route.csv --depart 2026-11-27T12:00:00Z --speed 6-8 --days 2 --cache "$T/cache" -q)
all=(--vars wind,gust,prmsl,temp,rain,waves)
box=(--bbox -65,30,-35,45 --hours 6-30 --cache "$T/cache" -q)
grids() { grib_get -w shortName=10u -p Ni,Nj,latitudeOfFirstGridPointInDegrees,longitudeOfFirstGridPointInDegrees "$1" | sort -u | wc -l; }
opened() { # FILE: written, one grid, the same in ecCodes, GDAL and QGIS
  [ -s "$1" ] && [ "$(grids "$1")" = 1 ] && $py "$here/grib_forms_check.py" "$1" >"$1.check" 2>&1
  local rc=$?
  tail -1 "$1.check"
  return $rc
}
write() { # FILE ARGS...: seawx grib ARGS -o FILE
  local f=$1
  shift
  "$S" grib "$@" -o "$f" 2>"$f.err"
}

write v.grb2 "${voyage[@]}"
check "a voyage, default: GRIB2 QGIS and GDAL draw right at every time" opened v.grb2
write v.grb "${voyage[@]}"
check "a voyage as GRIB1, default: QGIS and GDAL draw right at every time" opened v.grb
write all.grb2 "${voyage[@]}" "${all[@]}"
check "a voyage with every variable: QGIS and GDAL draw right at every time" opened all.grb2
write all.grb "${voyage[@]}" --vars wind,prmsl,temp,rain,waves # GRIB1 has no gust
check "a voyage with every variable as GRIB1: QGIS and GDAL draw right at every time" opened all.grb
write pacific.grb2 --route pacific.csv --depart 2026-11-27T12:00:00Z --speed 8-10 --days 2 --cache "$T/cache" -q
check "a voyage across 180: QGIS and GDAL draw right at every time" opened pacific.grb2
write box.grb2 "${box[@]}"
check "a box: QGIS and GDAL draw right at every time" opened box.grb2
write box.grb "${box[@]}"
check "a box as GRIB1: QGIS and GDAL draw right at every time" opened box.grb
write q.grb2 "${voyage[@]}" --viewer qgis
check "--viewer qgis: QGIS and GDAL draw right at every time" opened q.grb2
write g.grb "${voyage[@]}" --viewer gdal
check "--viewer gdal (GRIB1): QGIS and GDAL draw right at every time" opened g.grb

# Memory: a 10-day Pacific voyage with waves from the global files (240
# messages, 190 MiB fetched) is cut as its messages come, never all held:
# its peak resident size is at most 128 MB, fetched and from the cache, and
# the second file is the first byte for byte.
printf 'lat,lon\n35,140\n30,170\n25,-160\n21,-158\n' >long.csv
long=(--route long.csv --depart 2026-11-27T06:00:00Z --speed 6-8 --days 10 --vars wind,prmsl,waves --cache "$T/cache" -q)
/usr/bin/time -f %M -o long1.kb "$S" grib "${long[@]}" -o long1.grb2 2>long1.err
/usr/bin/time -f %M -o long2.kb "$S" grib "${long[@]}" -o long2.grb2 2>long2.err
echo "# 10-day Pacific voyage with waves: peak $(tail -1 long1.kb) kB fetching, $(tail -1 long2.kb) kB from the cache"
check "a 10-day voyage with waves: at most 128 MB at its peak, fetching and from the cache, the same bytes" \
  sh -c "[ -s long1.grb2 ] && cmp -s long1.grb2 long2.grb2 && [ $(tail -1 long1.kb) -le 128000 ] && [ $(tail -1 long2.kb) -le 128000 ]"

# The forms for the programs on board: the window cut, a grid a time.
write o.grb2 "${voyage[@]}" --viewer opencpn
write x.grb2 "${voyage[@]}" --viewer xygrib
write z.grb2.bz2 "${voyage[@]}"
bunzip2 -c z.grb2.bz2 >z.grb2
check "--viewer opencpn: the window cut (grids differ), smaller than the default" \
  sh -c "[ $(grids o.grb2) -gt 1 ] && [ $(stat -c %s o.grb2) -lt $(stat -c %s v.grb2) ]"
check "--viewer xygrib: the window cut" cmp -s o.grb2 x.grb2
check "a .bz2 (OpenCPN and XyGrib open it; QGIS and GDAL do not): the window cut" cmp -s o.grb2 z.grb2
check "the window cut fails the QGIS and GDAL check (what the check catches)" \
  sh -c "! $py '$here/grib_forms_check.py' o.grb2 >o.check 2>&1"
tail -1 o.check

# Refused: exit 2, one line naming the viewer, nothing written.
refused() { # FILE WORD ARGS...: exit 2, one line holding WORD, no FILE
  local f=$1 word=$2 rc
  shift 2
  "$S" grib "$@" -o "$f" >/dev/null 2>"$f.err"
  rc=$?
  echo "# $(cat "$f.err")"
  [ $rc = 2 ] && [ ! -e "$f" ] && [ "$(wc -l <"$f.err")" = 1 ] && grep -q "$word" "$f.err"
}
check "--cut window where QGIS or GDAL may open the file: refused" refused w.grb2 QGIS "${voyage[@]}" --cut window
check "--cut window --viewer gdal: refused" refused wg.grb2 GDAL "${voyage[@]}" --cut window --viewer gdal
check "--viewer qgis and a .bz2: refused" refused q.grb2.bz2 "cannot open a bzip2" "${voyage[@]}" --viewer qgis
check "--viewer gdal --compress bzip2: refused" refused gz.grb2 "cannot open a bzip2" "${voyage[@]}" --viewer gdal --compress bzip2
check "an unknown --viewer: refused" refused u.grb2 "opencpn, xygrib, qgis, gdal or any" "${voyage[@]}" --viewer navionics
check "--cut window --viewer opencpn: written" write ow.grb2 "${voyage[@]}" --cut window --viewer opencpn
check "--cut route --viewer opencpn: written, one grid" \
  sh -c "'$S' grib $(printf "'%s' " "${voyage[@]}") --cut route --viewer opencpn -o or.grb2 2>/dev/null && cmp -s or.grb2 v.grb2"
finish
