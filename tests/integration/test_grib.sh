#!/usr/bin/env bash
# seawx grib: a voyage GRIB cut from the stand-in's forecast GRIB2 files.
#   - a 1,000 nm route at 6-8 kn, 50 nm buffer, 5 days, wind and pressure at
#     0.5 degrees every 6 hours: at most 15 kB, and at most 40 % of a
#     Saildocs-style box holding the route (same variables, grid and hours);
#   - only the messages it needs are fetched (the access log): at most 10 %
#     of the global files of those hours, and no more than the wanted
#     messages plus their heads; the quote of --dry-run is what the build
#     fetches; a second build on the same run fetches nothing;
#   - values: grib_check.py (ecCodes' tools, not seawx's code) finds every
#     point inside each time's window with a value, every point outside
#     missing, and 1,000 random values equal to the source file's within
#     half the packing step; the box file fails that check;
#   - storage that ignores Range, 503s, dropped connections and cut answers
#     give the same bytes; bad input is one line, a documented exit and no
#     file; Ctrl-C leaves nothing; the key never reaches storage or a file.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
SIM_NOW=2026-11-27T06:00:00Z
RUN=2026-11-27T00:00:00Z
DEPART=2026-11-27T06:00:00Z
sim_start
S=$SEAWX_CLI
cd "$T" || exit 1

# about 1,000 nm across the North Atlantic
cat >route.csv <<'EOF'
lat,lon
40.0,-60.0
38.5,-50.0
36.0,-40.5
EOF
voyage=(--route route.csv --depart "$DEPART" --speed 6-8 --buffer 50 --days 5 --vars wind,prmsl
  --grid 0.5 --step 6 --viewer opencpn)
storage_bytes() { awk -v from="${1:-0}" 'NR > from && $2 ~ /^127\.0\.0\.2:/ {s += $5} END {print s + 0}' access.log; }
storage_lines() { awk -v from="${1:-0}" 'NR > from && $2 ~ /^127\.0\.0\.2:/' access.log | wc -l; }
mark() { wc -l <access.log; }

# ---- the quote, then the build it quoted ----
m=$(mark)
"$S" grib "${voyage[@]}" --cache c1 --dry-run >quote.out 2>quote.err
check "--dry-run exits 0 and quotes the size and the bytes to fetch" \
  grep -q '^about .* written; .* to fetch of ' quote.out
check "--dry-run writes no file" test ! -e v.grb2
heads=$(storage_bytes "$m")
echo "# dry run: $(cat quote.out | tr '\n' ' ') ($heads bytes of message heads fetched)"
check "--dry-run fetches message heads only (< 256 KiB)" test "$heads" -lt 262144
quoted=$(sed -n 's/.*written; \([0-9.]*\) \(bytes\|KiB\|MiB\) to fetch.*/\1 \2/p' quote.out)

m=$(mark)
"$S" grib "${voyage[@]}" --cache c1 -o v.grb2 2>build.err
rc=$?
check "the voyage GRIB is built (exit 0)" test "$rc" -eq 0
fetched=$(storage_bytes "$m")
size=$(stat -c %s v.grb2 2>/dev/null || echo 0)
echo "# window cut: $size bytes, $(grib_count v.grb2 2>/dev/null) messages; fetched $fetched bytes; $(tail -1 build.err)"
check "the file is at most 15 kB (SailMail over Pactor-2/3: 10/30 kB a file)" test "$size" -gt 0 -a "$size" -le 15360
check "the build fetches what the quote said ($quoted)" sh -c "
  case '$quoted' in
    *' MiB') awk -v q='${quoted% *}' -v f=$fetched 'BEGIN {exit !(f >= (q - 0.05) * 1048576 && f <= (q + 0.05) * 1048576)}' ;;
    *' KiB') awk -v q='${quoted% *}' -v f=$fetched 'BEGIN {exit !(f >= (q - 0.05) * 1024 && f <= (q + 0.05) * 1024)}' ;;
    *) test '${quoted% *}' = $fetched ;;
  esac"
check "grib_ls reads 21 times x 3 fields, one field a message" \
  sh -c "[ \$(grib_count v.grb2) -eq 63 ] && [ \"\$(grib_get -p shortName v.grb2 | sort -u | tr '\n' ' ')\" = '10u 10v prmsl ' ]"
check "gdalinfo opens it" sh -c "gdalinfo v.grb2 >gdalinfo.out 2>&1 && grep -q 'Driver: GRIB' gdalinfo.out"

m=$(mark)
"$S" grib "${voyage[@]}" --cache c1 -o v2.grb2 2>again.err
check "a second build on the same run fetches 0 bytes from storage" test "$(storage_bytes "$m")" -eq 0
check "and writes the same bytes" cmp -s v.grb2 v2.grb2
"$S" grib "${voyage[@]}" --cache c1 -o v.grb2.bz2 2>bz2.err
bz=$(stat -c %s v.grb2.bz2 2>/dev/null || echo 0)
echo "# compressed with bzip2: $bz bytes"
check "-o NAME.bz2: the same file through bzip2, at most 10 kB (Pactor-2)" \
  sh -c "bunzip2 -c v.grb2.bz2 | cmp -s - v.grb2 && [ $bz -gt 0 ] && [ $bz -le 10240 ]"
"$S" grib "${voyage[@]}" --cache c1 -o v.grb 2>g1.err
g1=$(stat -c %s v.grb 2>/dev/null || echo 0)
echo "# as GRIB1 (-o v.grb): $g1 bytes; $(grib_ls -p edition,centre,indicatorOfParameter,indicatorOfTypeOfLevel:l v.grb | sed -n 3p)"
check "-o NAME.grb: GRIB1 (WMO table 2: 33/34 at 10 m, 2 at mean sea level), at most 10 kB" \
  sh -c "[ \"\$(grib_get -p edition v.grb | sort -u)\" = 1 ] && [ \$(grib_count v.grb) -eq 63 ] &&
         [ \"\$(grib_get -p indicatorOfParameter v.grb | sort -u | tr '\n' ' ')\" = '2 33 34 ' ] &&
         [ $g1 -gt 0 ] && [ $g1 -le 10240 ]"

# ---- against the whole files: what a download would take ----
# Each forecast file's size, asked of storage with a one-byte range (the
# service redirects; storage gets no key).
file_size() {
  local loc
  loc=$(curl -s -o /dev/null -w '%{redirect_url}' -H "service-api-key: $KEY" "$SIM_URL/forecast/file/$1")
  curl -s -r 0-0 -D - -o /dev/null "$loc" | tr -d '\r' | sed -n 's|^[Cc]ontent-[Rr]ange: bytes 0-0/||p'
}
global=0
regional=0
mkdir -p src
for h in $(seq 6 6 126); do
  g=$(printf 'sof-d.20261127.t00z.0p25.basic.global.f%03d.grib2' "$h")
  r=$(printf 'sof-d.20261127.t00z.0p25.basic.north-atlantic.f%03d.grib2' "$h")
  global=$((global + $(file_size "$g")))
  "$S" forecast download "$r" -o "src/$r" -q 2>>src.err
  regional=$((regional + $(stat -c %s "src/$r")))
done
wanted=$(for f in src/*.grib2; do grib_get -w shortName=10u/10v/prmsl -p totalLength "$f"; done | awk '{s += $1} END {print s + 0}')
messages=$(for f in src/*.grib2; do grib_count "$f"; done | awk '{s += $1} END {print s + 0}')
echo "# fetched $((fetched + heads)) bytes: $(awk -v f=$((fetched + heads)) -v g=$global 'BEGIN {printf "%.1f", 100 * f / g}') % of the 21 global files ($global bytes), $(awk -v f=$((fetched + heads)) -v r=$regional 'BEGIN {printf "%.1f", 100 * f / r}') % of the 21 north-atlantic files read from ($regional bytes); wanted messages $wanted bytes"
check "fetched at most 10 % of the global forecast files of those hours" \
  test $((10 * (fetched + heads))) -le "$global"
check "fetched no message it did not need (wanted messages + 1 KiB heads)" \
  test "$fetched" -eq "$wanted" -a "$heads" -le $((messages * 1024 + 4 * 6 * 1024))
check "the storage host never got the key (every storage request without it)" \
  sh -c "! awk '\$2 ~ /^127\\.0\\.0\\.2:/ && \$NF != \"auth=none\"' access.log | grep -q ."

# ---- values and windows, checked apart from seawx ----
check "values equal the source's; inside each window present, outside missing" \
  sh -c "/usr/bin/python3 '$here/grib_check.py' v.grb2 src route.csv $RUN $DEPART 6 8 50 0.5 1000 240 6 >check.out 2>&1"
cat check.out
"$S" grib --bbox -61.2,35,-39.3,41 --hours 6-126 --vars wind,prmsl --cache c1 -o box.grb2 2>box.err
box=$(stat -c %s box.grb2 2>/dev/null || echo 0)
echo "# Saildocs-style box -61.2,35,-39.3,41, same hours: $box bytes; the window cut is $(awk -v a="$size" -v b="$box" 'BEGIN {printf "%.0f", 100 * a / b}') % of it"
check "the window cut is at most 40 % of the box" test "$box" -gt 0 -a $((100 * size)) -le $((40 * box))
boxz=$(bzip2 -9 -c box.grb2 | wc -c)
echo "# compressed with bzip2: window $bz bytes, box $boxz bytes ($(awk -v a="$bz" -v b="$boxz" 'BEGIN {printf "%.0f", 100 * a / b}') %)"
check "compressed, the window cut is at most 40 % of the compressed box" test $((100 * bz)) -le $((40 * boxz))
check "the check can fail: the box file has values outside the windows" \
  sh -c "! /usr/bin/python3 '$here/grib_check.py' box.grb2 src route.csv $RUN $DEPART 6 8 50 0.5 10 240 6 >boxcheck.out 2>&1 && grep -q 'outside the window, and has a value' boxcheck.out"
"$S" grib "${voyage[@]}" --cut route --cache c1 -o route.grb2 2>routecut.err
echo "# route cut (one grid, a bitmap per time): $(stat -c %s route.grb2) bytes"
check "the GRIB1 file passes the same check" \
  sh -c "/usr/bin/python3 '$here/grib_check.py' v.grb src route.csv $RUN $DEPART 6 8 50 0.5 300 240 6 >g1check.out 2>&1"
"$S" grib --bbox -61.2,35,-39.3,41 --hours 6-126 --vars wind,prmsl --cache c1 -o box.grb 2>box1.err
box1=$(stat -c %s box.grb 2>/dev/null || echo 0)
echo "# GRIB1: window $g1 bytes, box $box1 ($(awk -v a="$g1" -v b="$box1" 'BEGIN {printf "%.0f", 100 * a / b}') %)"
check "as GRIB1, the window cut is at most 40 % of the box" test "$box1" -gt 0 -a $((100 * g1)) -le $((40 * box1))
check "the route cut passes the same check" \
  sh -c "/usr/bin/python3 '$here/grib_check.py' route.grb2 src route.csv $RUN $DEPART 6 8 50 0.5 300 240 6 >routecheck.out 2>&1"

# ---- the size --dry-run quotes holds the file written: within 10 %, or the
# range it gives ("about A to B written": the values decide it) ----
holds() { # QUOTE_OUT FILE
  python3 - "$1" "$(stat -c %s "$2" 2>/dev/null || echo 0)" <<'PY'
import re, sys
q, size = open(sys.argv[1]).read(), int(sys.argv[2])
u = {"bytes": 1, "KiB": 1024, "MiB": 1048576}
n = r"([0-9.]+) (bytes|KiB|MiB)"
m = re.search(rf"about (?:{n} to )?{n} written", q)
hi = float(m.group(3)) * u[m.group(4)]
lo = float(m.group(1)) * u[m.group(2)] if m.group(1) else None
ok = size > 0 and (lo <= size <= hi * 1.0005 if lo is not None else abs(hi - size) <= 0.1 * size)
print(f"# quoted {m.group(0)!r}, wrote {size} bytes: {'held' if ok else 'NOT held'}")
sys.exit(0 if ok else 1)
PY
}
quote_case() { # NAME FILE ARGS...: quotes, builds, checks
  local name=$1 file=$2
  shift 2
  "$S" grib "$@" --cache c1 --dry-run -o "$file" >"quote-$file.out" 2>/dev/null
  "$S" grib "$@" --cache c1 -o "$file" 2>/dev/null
  check "the --dry-run size holds the file: $name" holds "quote-$file.out" "$file"
}
quote_case "the voyage, window cut" qv.grb2 "${voyage[@]}"
quote_case "the voyage, route cut" qr.grb2 "${voyage[@]}" --cut route
quote_case "the voyage as GRIB1" qv.grb "${voyage[@]}"
quote_case "the Saildocs-style box" qb.grb2 --bbox -61.2,35,-39.3,41 --hours 6-126 --vars wind,prmsl
quote_case "a global box at 1 degree (complex packing)" qg.grb2 --bbox -180,-80,180,80 --hours 0-12 \
  --grid 1 --vars wind,prmsl --region global

# Across 180: a Pacific route, from the global files (no region holds it).
printf 'lat,lon\n20,170\n22,-175\n24,-165\n' >pacific.csv
"$S" grib --route pacific.csv --depart "$DEPART" --speed 8-10 --days 2 --cache c1 -o pacific.grb2 2>pacific.err
mkdir -p srcg
for h in $(seq 6 6 54); do
  g=$(printf 'sof-d.20261127.t00z.0p25.basic.global.f%03d.grib2' "$h")
  "$S" forecast download "$g" -o "srcg/$g" -q 2>>src.err
done
check "a route across 180: global files, grids continuous across it, values and windows right" \
  sh -c "grep -q 'global files' pacific.err &&
         /usr/bin/python3 '$here/grib_check.py' pacific.grb2 srcg pacific.csv $RUN $DEPART 8 10 50 0.5 300 240 6 >paccheck.out 2>&1"
cat paccheck.out

# ---- storage that ignores Range, faults ----
SEAWX_SIM_STORAGE_RANGE=0 sim_restart
"$S" grib "${voyage[@]}" --no-cache -o norange.grb2 2>norange.err
check "storage answering 200 to a Range: the same file, and a warning" \
  sh -c "cmp -s v.grb2 norange.grb2 && grep -q 'sent whole files for byte ranges' norange.err"
check "storage answering 200 to a Range: the summary gives no share of the wrong base" \
  sh -c "grep -q 'fetched .* (whole files) in' norange.err && ! grep -q '%)' norange.err"
sim_restart --p5xx 0.15 --pdrop 0.05 --ptrunc 0.05 --faults-on other --fault-seed 11
"$S" grib "${voyage[@]}" --no-cache -o faults.grb2 2>faults.err
rc=$?
echo "# with 503s, dropped and cut answers: exit $rc; $(tail -1 faults.err)"
check "503s, dropped connections and cut answers: the same file, or one error and no file" \
  sh -c "[ $rc -eq 0 ] && cmp -s v.grb2 faults.grb2 || { [ $rc -ne 0 ] && [ ! -e faults.grb2 ]; }"
# Damaged storage: one line naming the file, exit 7, nothing written.
for damage in html short template; do
  SEAWX_SIM_GRIB_DAMAGE=$damage sim_restart
  rm -f damaged.grb2
  "$S" grib "${voyage[@]}" --no-cache -q -o damaged.grb2 2>damaged.err
  rc=$?
  echo "# storage serving '$damage' files: exit $rc: $(cat damaged.err)"
  check "storage serving damaged files ($damage): exit 7, one line naming the file, nothing written" \
    sh -c "[ $rc -eq 7 ] && [ \$(wc -l <damaged.err) -eq 1 ] && grep -q 'sof-d\\.' damaged.err && [ ! -e damaged.grb2 ] && ! ls | grep -q '\\.tmp\$'"
done
sim_restart

# ---- Ctrl-C while fetching: nothing written; the next run finishes ----
m=$(mark)
"$S" grib "${voyage[@]}" --cache c2 --in-flight 1 -o int.grb2 2>int.err &
pid=$!
progress_or_exit "$pid" 120 sh -c "[ \$(awk -v from=$m 'NR > from && \$2 ~ /^127\\.0\\.0\\.2:/' access.log | wc -l) -ge 40 ]"
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
check "interrupted: exit 130, no file and no temporary left" \
  sh -c "[ $rc -eq 130 ] && [ ! -e int.grb2 ] && ! ls | grep -q '\\.tmp\$'"
"$S" grib "${voyage[@]}" --cache c2 -o int.grb2 2>int2.err
check "run again, it finishes with the same bytes" cmp -s v.grb2 int.grb2

# ---- outputs ----
check "-o /dev/null is written through (a stream), and stays a device" \
  sh -c "'$S' grib ${voyage[*]} --cache c1 -o /dev/null 2>/dev/null && [ -c /dev/null ]"
mkdir -p adir
"$S" grib "${voyage[@]}" --cache c1 -o adir 2>dir.err
rc=$?
check "-o a folder: exit 8, one line" sh -c "[ $rc -eq 8 ] && [ \$(wc -l <dir.err) -eq 1 ]"

# ---- bad input: one line, the documented exit, no file ----
bad() { # NAME EXIT PATTERN ARGS...
  local name=$1 want=$2 pat=$3 rc
  shift 3
  rm -f bad.grb2
  "$S" grib "$@" -o bad.grb2 >bad.out 2>bad.err
  rc=$?
  if [ "$rc" -eq "$want" ] && [ ! -e bad.grb2 ] && [ "$(wc -l <bad.err)" -eq 1 ] && grep -q -- "$pat" bad.err; then
    return 0
  fi
  echo "  exit $rc (wanted $want): $(cat bad.err)"
  return 1
}
check "an unknown variable: exit 2" bad unknown 2 "unknown variable 'snow'" \
  --route route.csv --depart "$DEPART" --speed 6-8 --vars wind,snow
m=$(mark)
check "a grid not a multiple of 0.25: exit 2" bad grid 2 "not a multiple of the forecast files' spacing" \
  --route route.csv --depart "$DEPART" --speed 6-8 --grid 0.3 --cache c-grid
# The spacing is in the listed files' names (0p25): refused from the listing,
# before any file is read.
# (the stand-in logs a request once answered: wait for the listing's line)
wait_until 10 sh -c "[ \$(wc -l <access.log) -gt $m ]"
check "a grid not a multiple: nothing asked but the listing" sh -c \
  "awk -v from=$m 'NR > from' access.log >grid.log && test -s grid.log &&
   ! grep -v -E '^GET [^ ]+ /forecast/file\\?' grid.log"
check "hours past the run: exit 2" bad hours 2 "past the run's last forecast hour (240)" \
  --bbox -61,35,-39,41 --hours 0-300 --cache c1
check "a run not listed: exit 5" bad run 5 "no forecast file of the run of 2026-11-20" \
  "${voyage[@]}" --run 2026-11-20T00:00:00Z --cache c1
check "a box across a pole: exit 2" bad pole 2 "cannot cross a pole" --bbox 0,80,10,95
check "gust as GRIB1: exit 2 (no WMO code)" bad gust1 2 "has no code in GRIB1" \
  --route route.csv --depart "$DEPART" --speed 6-8 --vars wind,gust --edition 1
printf '\377\376junk\000\n' >junk.csv
check "a route that is not a route: exit 2" bad route 2 "junk.csv" --route junk.csv \
  --depart "$DEPART" --speed 6
check "--days past 16: exit 2" bad days 2 "days" "${voyage[@]}" --days 17
check "--hours with a route: exit 2" bad hoursroute 2 "hours" "${voyage[@]}" --hours 0-24
check "a voyage departing after the run's last hour: exit 2" bad late 2 "departs after the run's last forecast hour" \
  --route route.csv --depart 2026-12-20T00:00:00Z --speed 6 --cache c1

# ---- in a voyage package, and for a fleet ----
"$S" voyage -b maritime --route route.csv --depart "$DEPART" --speed 6-8 --buffer 50 --layer swh \
  --zoom 3 --grib wind,prmsl --cache c1 --now "$SIM_NOW" -o pkg -q 2>pkg.err
rc=$?
check "seawx voyage --grib: the package holds voyage.grb2, listed in its manifest (bytes, SHA-256, times)" \
  sh -c "[ $rc -eq 0 ] && python3 -c \"
import hashlib, json, subprocess, sys
m = json.load(open('pkg/manifest.json'))['grib']
b = open('pkg/voyage.grb2', 'rb').read()
n = int(subprocess.run(['grib_count', 'pkg/voyage.grb2'], capture_output=True, text=True).stdout)
ok = (m['file'] == 'voyage.grb2' and m['bytes'] == len(b) and m['sha256'] == hashlib.sha256(b).hexdigest()
      and m['fields'] == n == 3 * m['times'] and m['variables'] == 'wind,prmsl' and m['run'] == '$RUN')
sys.exit(0 if ok else 1)\""
check "QGIS 3.22 shows the package's GRIB as a mesh layer and steps through its times" \
  sh -c "QT_QPA_PLATFORM=offscreen /usr/bin/python3 '$here/grib_qgis.py' pkg/project.qgs pkg/manifest.json '$T/qgis' >qgis.out 2>qgis.err"
cat qgis.out
"$S" voyage -b maritime --route route.csv --depart "$DEPART" --speed 6-8 --buffer 50 --layer swh \
  --zoom 3 --grib prmsl --cache c1 --now "$SIM_NOW" -o pkgp -q 2>pkgp.err
check "QGIS colours a pressure-only GRIB in hectopascals" \
  sh -c "QT_QPA_PLATFORM=offscreen /usr/bin/python3 '$here/grib_qgis.py' pkgp/project.qgs pkgp/manifest.json '$T/qgisp' >qgisp.out 2>qgisp.err && grep -q \"'1000 hPa'\" qgisp.out"
cat qgisp.out
"$S" voyage -b maritime --route route.csv --depart "$DEPART" --speed 6-8 --buffer 50 --layer swh \
  --zoom 3 --grib wind,prmsl --grib-cut window --cache c1 --now "$SIM_NOW" -o pkgwin -q 2>pkgwin.err
check "--grib-cut window: in the package and its manifest, left out of the project (grids per time)" \
  sh -c "[ -s pkgwin/voyage.grb2 ] && grep -q '\"cut\": \"window\"' pkgwin/manifest.json && ! grep -q voyage_grib pkgwin/project.qgs"
"$S" voyage -b maritime --route route.csv --depart "$DEPART" --speed 6-8 --buffer 50 --layer swh \
  --zoom 3 --grib wind,prmsl --cache c1 --now "$SIM_NOW" --budget 20kB -o pkgsmall -q 2>small.err
rc=$?
check "a budget that cannot hold the GRIB: exit 2, no package" \
  sh -c "[ $rc -eq 2 ] && grep -q 'cannot hold' small.err && [ ! -e pkgsmall ]"
printf '{"bundle": "maritime", "layers": ["swh"], "zoom": "3", "buffer_nm": 50, "ships": [
  {"name": "one", "route": "route.csv", "depart": "%s", "speed": "6-8"},
  {"name": "two", "route": "route.csv", "depart": "%s", "speed": "6-8"}]}\n' "$DEPART" "$DEPART" >fleet.json
m=$(mark)
"$S" grib --route route.csv --depart "$DEPART" --speed 6-8 --vars wind,prmsl --cut route --cache c3 -o alone.grb2 -q 2>alone.err
alone=$(storage_bytes "$m")
m=$(mark)
"$S" fleet fleet.json --grib wind,prmsl --cache c4 --now "$SIM_NOW" -o fleet -q 2>fleet.err
rc=$?
both=$(storage_bytes "$m")
echo "# a fleet of two ships on one voyage fetched $both bytes from storage; one ship alone $alone"
check "seawx fleet --grib: each ship's package has it, and each message is fetched once for the fleet" \
  sh -c "[ $rc -eq 0 ] && cmp -s fleet/one/voyage.grb2 fleet/two/voyage.grb2 && cmp -s fleet/one/voyage.grb2 alone.grb2 && [ $both -eq $alone ]"

# ---- the key ----
check "the key is in no file written and no message printed" \
  sh -c "! grep -rqaF -- '$KEY' v.grb2 c1 c2 ./*.err ./*.out"
finish
