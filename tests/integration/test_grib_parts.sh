#!/usr/bin/env bash
# seawx grib on simply packed forecast files (template 5.0, as ECMWF's open
# data is: the stand-in with SEAWX_SIM_GRIB_PACKING=simple), where a field's
# values sit at known bytes: only the byte ranges holding the points the cut
# takes are fetched, never the whole message.
#   - the 5-day voyage of it.test_grib (1,000 nm at 6-8 kn, wind and pressure,
#     0.5 degrees, 6-hourly) on files of four fields (SEAWX_SIM_GRIB_FIELDS=4:
#     10 m wind, gust, pressure): the bytes storage sent, in its own access log,
#     are at most 10 % of the forecast files' bytes (the 21 north-atlantic files
#     of those hours, downloaded here and measured), in one request a file (its
#     byte ranges answered as multipart/byteranges), and the file's values and
#     windows pass grib_check.py against those files (ecCodes, not seawx);
#   - the --dry-run quote is the bytes the build fetches;
#   - a second build fetches nothing from storage and writes the same bytes
#     (SHA-256); another voyage from the same cache fetches its own parts and
#     passes grib_check.py too;
#   - a storage host that ignores Range (whole files), one that answers
#     several ranges with the whole file, with the first range alone or with
#     some left out, and one with 503s, dropped and cut answers: the same bytes
#     (the three of several ranges with a warning naming it).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
SIM_NOW=2026-11-27T06:00:00Z
RUN=2026-11-27T00:00:00Z
DEPART=2026-11-27T06:00:00Z
export SEAWX_SIM_GRIB_PACKING=simple SEAWX_SIM_GRIB_FIELDS=4 SEAWX_SIM_GRIB_DIR=$T/simgrib
sim_start
S=$SEAWX_CLI
cd "$T" || exit 1
printf 'lat,lon\n40.0,-60.0\n38.5,-50.0\n36.0,-40.5\n' >route.csv
voyage=(--route route.csv --depart "$DEPART" --speed 6-8 --buffer 50 --days 5 --vars wind,prmsl
  --grid 0.5 --step 6 --viewer opencpn)
storage_bytes() { awk -v from="${1:-0}" 'NR > from && $2 ~ /^127\.0\.0\.2:/ {s += $5} END {print s + 0}' access.log; }
storage_requests() { awk -v from="${1:-0}" 'NR > from && $2 ~ /^127\.0\.0\.2:/ {n++} END {print n + 0}' access.log; }
mark() { wc -l <access.log; }

"$S" grib "${voyage[@]}" --cache c1 --dry-run >quote.out 2>quote.err
quoted=$(sed -n 's/.*written; \([0-9.]*\) \(bytes\|KiB\|MiB\) to fetch.*/\1 \2/p' quote.out)
m=$(mark)
"$S" grib "${voyage[@]}" --cache c1 -o v.grb2 2>build.err
check "the voyage GRIB is written from simply packed files" test -s v.grb2
fetched=$(storage_bytes "$m")
asked=$(storage_requests "$m")
mkdir -p src
files=0
for h in $(seq 6 6 126); do
  r=$(printf 'sof-d.20261127.t00z.0p25.basic.north-atlantic.f%03d.grib2' "$h")
  "$S" forecast download "$r" -o "src/$r" -q 2>>src.err
  files=$((files + $(stat -c %s "src/$r")))
done
check "the source files are simply packed (template 5.0)" \
  sh -c "[ \"\$(grib_get -p packingType src/*.grib2 | sort -u)\" = grid_simple ]"
echo "# fetched $fetched bytes of the 21 files' $files ($(awk -v f="$fetched" -v t="$files" 'BEGIN {printf "%.1f", 100 * f / t}') %); quoted: $quoted; $(tail -1 build.err)"
check "fetched at most 10 % of the forecast files' bytes" test $((10 * fetched)) -le "$files"
check "the forecast files are of four fields" sh -c "[ \"\$(grib_count src/*.f006.grib2)\" = 4 ]"
check "one request a file, its ranges in one multipart answer ($asked requests for 21 files)" \
  sh -c "[ $asked -ge 1 ] && [ $asked -le 21 ] && ! grep -q 'one at a time' build.err"
check "--dry-run quoted the bytes the build fetched" \
  sh -c "grep -q 'fetched $quoted of' build.err"
check "values and windows right against the source files (grib_check.py, ecCodes)" \
  sh -c "/usr/bin/python3 '$here/grib_check.py' v.grb2 src route.csv $RUN $DEPART 6 8 50 0.5 1000 240 6 >check.out 2>&1"
cat check.out

m=$(mark)
"$S" grib "${voyage[@]}" --cache c1 -o v2.grb2 2>again.err
check "a second build fetches nothing from storage and writes the same bytes (SHA-256)" \
  sh -c "[ $(storage_bytes "$m") -eq 0 ] && [ \"\$(sha256sum <v.grb2)\" = \"\$(sha256sum <v2.grb2)\" ]"
# Another voyage through the same cache: further south, its own rows.
printf 'lat,lon\n33.0,-60.0\n32.0,-45.0\n' >south.csv
m=$(mark)
"$S" grib --route south.csv --depart "$DEPART" --speed 6-8 --buffer 50 --days 3 --vars wind,prmsl \
  --viewer opencpn --cache c1 -o south.grb2 2>south.err
check "another voyage from the same cache: its own parts fetched, values and windows right" \
  sh -c "[ $(storage_bytes "$m") -gt 0 ] &&
    /usr/bin/python3 '$here/grib_check.py' south.grb2 src south.csv $RUN $DEPART 6 8 50 0.5 300 240 6 >south.out 2>&1"
cat south.out

SEAWX_SIM_STORAGE_RANGE=0 sim_restart
"$S" grib "${voyage[@]}" --no-cache -o norange.grb2 2>norange.err
check "storage answering 200 to a Range: the same file, and a warning" \
  sh -c "cmp -s v.grb2 norange.grb2 && grep -q 'sent whole files for byte ranges' norange.err"
for how in whole first some; do
  SEAWX_SIM_STORAGE_RANGES=$how sim_restart
  "$S" grib "${voyage[@]}" --no-cache -o "ranges-$how.grb2" 2>"ranges-$how.err"
  check "storage answering several ranges $how: the same file, and a warning naming it" \
    sh -c "cmp -s v.grb2 ranges-$how.grb2 && grep -q 'did not answer several byte ranges in one request' ranges-$how.err"
done
sim_restart --p5xx 0.15 --pdrop 0.05 --ptrunc 0.05 --faults-on other --fault-seed 11
"$S" grib "${voyage[@]}" --no-cache -o faults.grb2 2>faults.err
rc=$?
echo "# with 503s, dropped and cut answers: exit $rc; $(tail -1 faults.err)"
check "503s, dropped connections and cut answers: the same file, or one error and no file" \
  sh -c "[ $rc -eq 0 ] && cmp -s v.grb2 faults.grb2 || { [ $rc -ne 0 ] && [ ! -e faults.grb2 ]; }"
finish
