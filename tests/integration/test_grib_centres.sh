#!/usr/bin/env bash
# seawx grib on forecast files that encode the same weather as ECMWF does and
# as NCEP does (the stand-in's SEAWX_SIM_GRIB_CENTRE=ecmwf and =ncep; ECMWF
# writes mean sea-level pressure as msl, 0/3/0 on the mean sea level, NCEP as
# prmsl, 0/3/1):
#   - `--vars wind,prmsl` builds from both, each field keeping its centre's
#     identity (GRIB2: centre and codes as the file had them; GRIB1: ECMWF's
#     table 128 code 151, WMO table 2 code 2), and grib_centres_check.py
#     (libeccodes through ctypes, not seawx's code) finds every value within
#     half the packing step of its source and the two files the same;
#   - a variable of which a file holds no encoding seawx knows (ECMWF's
#     precipitation in metres): one line naming what the file holds, exit 5,
#     no file.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
SIM_NOW=2026-11-27T06:00:00Z
S=$SEAWX_CLI
cd "$T" || exit 1
box=(--bbox -30,40,-20,46 --hours 0-12 --step 6 --grid 0.5 --vars wind,prmsl)

for centre in ecmwf ncep; do
  mkdir -p "src-$centre"
  export SEAWX_SIM_GRIB_CENTRE=$centre SEAWX_SIM_GRIB_DIR=$T/src-$centre
  rm -f port
  sim_start
  "$S" grib "${box[@]}" --cache "cache-$centre" -o "$centre.grb2" 2>"$centre.err"
  check "$centre: seawx grib --vars wind,prmsl exits 0" test $? -eq 0
  "$S" grib "${box[@]}" --cache "cache-$centre" -o "$centre.grb" 2>"$centre-1.err"
  check "$centre: the same as GRIB1 exits 0" test $? -eq 0
  if [ "$centre" = ecmwf ]; then
    "$S" grib "${box[@]/wind,prmsl/wind,rain}" --cache cache-rain -o rain.grb2 2>rain.err
    rc=$?
    echo "# $(grep 'error:' rain.err)"
    check "ecmwf: --vars rain (tp in metres, 0/1/193): exit 5" test "$rc" -eq 5
    check "one line naming the cause and what the file holds" sh -c \
      "[ \$(grep -c 'error:' rain.err) -eq 1 ] && grep 'error:' rain.err | grep -q 'holds no total precipitation (it holds: .*10u.*msl.*0\.1\.193)\$'"
    check "and no file" test ! -e rain.grb2
  fi
  kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
  SIM_PID=
done
unset SEAWX_SIM_GRIB_CENTRE SEAWX_SIM_GRIB_DIR

ident() { grib_get -p centre,discipline,parameterCategory,parameterNumber,shortName "$@" | sort -u | tr '\n' ';'; }
echo "# ecmwf.grb2: $(ident ecmwf.grb2)"
echo "# ncep.grb2: $(ident ncep.grb2)"
check "the ECMWF source's pressure stays ECMWF's msl (ecmf 0/3/0)" \
  sh -c "grib_get -w shortName=msl -p centre,discipline,parameterCategory,parameterNumber ecmwf.grb2 | sort -u | grep -qx 'ecmf 0 3 0'"
check "the NCEP source's stays NCEP's prmsl (kwbc 0/3/1)" \
  sh -c "grib_get -w shortName=prmsl -p centre,discipline,parameterCategory,parameterNumber ncep.grb2 | sort -u | grep -qx 'kwbc 0 3 1'"
check "both hold 3 times x 3 fields" \
  sh -c "[ \$(grib_count ecmwf.grb2) -eq 9 ] && [ \$(grib_count ncep.grb2) -eq 9 ]"
g1() { grib_get -p centre,table2Version,indicatorOfParameter,indicatorOfTypeOfLevel:l "$1" | sort -u | tr '\n' ';'; }
echo "# ecmwf.grb: $(g1 ecmwf.grb)"
echo "# ncep.grb: $(g1 ncep.grb)"
check "GRIB1 from ECMWF: pressure as ECMWF's table 128 code 151" \
  sh -c "g1=\$(grib_get -p centre,table2Version,indicatorOfParameter ecmwf.grb | sort -u); echo \"\$g1\" | grep -qx 'ecmf 128 151' && echo \"\$g1\" | grep -qx 'ecmf 3 33'"
check "GRIB1 from NCEP: pressure as WMO table 2 code 2 at mean sea level" \
  sh -c "grib_get -p centre,table2Version,indicatorOfParameter,indicatorOfTypeOfLevel:l ncep.grb | sort -u | grep -qx 'kwbc 3 2 102'"
check "every value within half the packing step of its source, the same from both centres" \
  sh -c "python3 '$here/grib_centres_check.py' ecmwf.grb2 src-ecmwf ncep.grb2 src-ncep >check.out 2>&1"
cat check.out
check "the same for the GRIB1 files" \
  sh -c "python3 '$here/grib_centres_check.py' ecmwf.grb src-ecmwf ncep.grb src-ncep >check1.out 2>&1"
cat check1.out
finish
