#!/usr/bin/env bash
# bench/grib/run.sh: the voyage GRIB (`seawx grib`) in one run against seawx-sim
# (started here on a free loopback port, clock at 2026-11-27T06:00:00Z, its
# GRIB2 files made afresh in a folder of this run):
#  1. sizes of the must-show case (the route 40N 60W, 38.5N 50W, 36N
#     40.5W, about 1,000 nm; 6-8 kn from 06:00Z, 50 nm buffer,
#     5 days, wind + prmsl, 0.5 degrees, 6-hourly): the window cut, the
#     route cut and a Saildocs-style box holding the whole route (its bounds
#     plus the buffer, the same variables, grid and hours), each as GRIB2,
#     bzip2 -9 and GRIB1: converted by `grib_set -s edition=1` where ecCodes
#     can (the parameters it cannot are named) and written from ecCodes'
#     GRIB1 sample with WMO table 2 codes (bench/grib/grib1.py);
#  2. bytes fetched from storage (the sim's access log: lines of the storage
#     host 127.0.0.2, bytes in field 5) against the whole forecast files the
#     build reads, regional (the default) and global (--region global), and
#     a second build on the same cache (must fetch 0 bytes);
#  3. the cut and pack from files on disk against CDO: `seawx grib --cut box`
#     with every message in its cache against `cdo sellonlatbox, selname,
#     samplegrid 2, mergetime, -f grb2` over the downloaded whole files (the
#     same box, variables, hours and 0.5-degree nodes); both outputs compared
#     point by point (bench/grib/compare.py); wall and CPU time over RUNS
#     alternating rounds after one warm-up of each, medians, and the ratio
#     per round. The window cut's time is given too.
#  4. simply packed files of four fields (a second seawx-sim with
#     SEAWX_SIM_GRIB_PACKING=simple SEAWX_SIM_GRIB_FIELDS=4): the bytes and
#     requests storage served for the same voyage, its ranges in one request a
#     file (multipart/byteranges) against one range a request (storage that
#     answers only the first of several), and the peak resident size of a
#     10-day Pacific voyage with waves from the global files (the service's
#     own packing), fetching and from the cache (GNU time).
# Writes bench/grib/last-run.md.
#   SEAWX_BUILD   the build folder (default: <repo>/build); SEAWX_CLI, SEAWX_SIM override
#   RUNS          timed rounds (default 7)
#   PROFILE=1     also record the warm box build with perf and print where its time goes
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${SEAWX_BUILD:-$top/build}
CLI=${SEAWX_CLI:-$BUILD/tilecli/seawx}
SIM=${SEAWX_SIM:-$BUILD/samples/seawx-sim}
RUNS=${RUNS:-7}
HERE=$top/bench/grib
for tool in cdo grib_set grib_filter grib_get_data bzip2 python3; do
  command -v $tool >/dev/null || { echo "bench/grib/run.sh needs $tool (Debian: cdo, libeccodes-tools, bzip2)" >&2; exit 2; }
done
NOW=2026-11-27T06:00:00Z
T=$(mktemp -d /tmp/seawx-bench-grib.XXXXXX)
export SEAWX_SIM_GRIB_DIR=$T/simgrib
"$SIM" --port 0 --port-file "$T/port" --key bench-key --now "$NOW" --access-log "$T/access.log" \
  2>"$T/sim.log" &
sim=$!
trap 'kill $sim 2>/dev/null; wait $sim 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 200); do [ -s "$T/port" ] && break; sleep 0.025; done
export SEAWX_BASE_URL=http://127.0.0.1:$(cat "$T/port") SEAWX_API_KEY=bench-key
unset SEAWX_CACHE_DIR
cd "$T"
printf 'lat,lon\n40,-60\n38.5,-50\n36,-40.5\n' >route.csv
VOY=(--route route.csv --depart "$NOW" --speed 6-8 --buffer 50 --days 5 --vars wind,prmsl
  --grid 0.5 --step 6 --viewer opencpn)
log_lines() { wc -l <access.log; }
# storage FROM TO bytes|requests|service: what the access log holds after its
# line FROM up to line TO: bytes the storage host sent (field 5 of its
# lines), its requests, or requests to the service
storage() {
  awk -v a="$1" -v b="$2" -v what="$3" 'NR > a && NR <= b {
      st = $2 ~ /^127\.0\.0\.2:/
      if (st) { s += $5; n++ } else m++
    } END { print what == "bytes" ? s + 0 : what == "requests" ? n + 0 : m + 0 }' access.log
}

# ---- 2. bytes fetched: a cold build of the window cut, regional then global ----
l0=$(log_lines)
"$CLI" grib "${VOY[@]}" --cache cache -o window.grb2 -q 2>window.err
l1=$(log_lines)
"$CLI" grib "${VOY[@]}" --cache cache -o window2.grb2 -q 2>window2.err
l2=$(log_lines)
"$CLI" grib "${VOY[@]}" --region global --cache cache-global -o window-global.grb2 -q 2>global.err
l3=$(log_lines)
"$CLI" grib "${VOY[@]}" --region global --cache cache-global -o window-global2.grb2 -q 2>global2.err
l4=$(log_lines)
cmp -s window.grb2 window2.grb2 || { echo "the second build differs from the first" >&2; exit 1; }
cmp -s window-global.grb2 window-global2.grb2 || { echo "the second global build differs" >&2; exit 1; }
fetch_na=$(storage "$l0" "$l1" bytes) req_na=$(storage "$l0" "$l1" requests)
fetch_na2=$(storage "$l1" "$l2" bytes) svc_na2=$(storage "$l1" "$l2" service)
fetch_gl=$(storage "$l2" "$l3" bytes) req_gl=$(storage "$l2" "$l3" requests)
fetch_gl2=$(storage "$l3" "$l4" bytes) svc_gl2=$(storage "$l3" "$l4" service)
# The whole files the builds read: every forecast hour of the voyage, downloaded.
run=$(sed -n -E 's/.*\(run ([0-9T:-]+Z).*/\1/p' window.err)
first=$(sed -n -E 's/.* times from ([0-9T:-]+Z) to.*/\1/p' window.err)
last=$(sed -n -E 's/.* times from [0-9T:-]+Z to ([0-9T:-]+Z).*/\1/p' window.err)
read -r h0 h1 <<<"$(python3 -c "
import datetime as d, sys
p = lambda s: d.datetime.strptime(s, '%Y-%m-%dT%H:%M:%SZ')
r, a, b = p('$run'), p('$first'), p('$last')
print((a - r) // d.timedelta(hours=1), (b - r) // d.timedelta(hours=1))")"
ymd=${run:0:4}${run:5:2}${run:8:2}
mkdir -p na gl
for h in $(seq "$h0" 6 "$h1"); do
  for reg in north-atlantic global; do
    n=$(printf 'sof-d.%s.t%sz.0p25.basic.%s.f%03d.grib2' "$ymd" "${run:11:2}" "$reg" "$h")
    d=na
    [ $reg = global ] && d=gl
    "$CLI" forecast download "$n" -o "$d/$n" -q
  done
done
whole_na=$(cat na/*.grib2 | wc -c)
whole_gl=$(cat gl/*.grib2 | wc -c)
nfiles=$(ls na | wc -l)

# ---- 1. sizes ----
"$CLI" grib "${VOY[@]}" --cut route --cache cache -o route.grb2 -q 2>route.err
# The box: the route's bounds plus the buffer (geodesic, 50 nm around every
# point of the great-circle legs), outward to the 0.5-degree nodes.
read -r W S E N <<<"$(python3 - <<'PY'
import math
R = 6371008.8
pts = [(40, -60), (38.5, -50), (36, -40.5)]
def vec(la, lo):
    la, lo = math.radians(la), math.radians(lo)
    return (math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la))
def ll(v):
    return math.degrees(math.asin(v[2])), math.degrees(math.atan2(v[1], v[0]))
def slerp(a, b, t):
    w = math.acos(sum(x * y for x, y in zip(a, b)))
    return tuple((math.sin((1 - t) * w) * x + math.sin(t * w) * y) / math.sin(w) for x, y in zip(a, b))
d = 50 * 1852 / R
w = s = 1e9
e = n = -1e9
for (a, b) in zip(pts, pts[1:]):
    for k in range(201):
        la, lo = ll(slerp(vec(*a), vec(*b), k / 200))
        p1, l1 = math.radians(la), math.radians(lo)
        for br in range(0, 360):
            t = math.radians(br)
            p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(t))
            l2 = l1 + math.atan2(math.sin(t) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
            y, x = math.degrees(p2), math.degrees(l2)
            w, e, s, n = min(w, x), max(e, x), min(s, y), max(n, y)
g = 0.5
print("%g %g %g %g" % (math.floor(w / g) * g, math.floor(s / g) * g, math.ceil(e / g) * g, math.ceil(n / g) * g))
PY
)"
"$CLI" grib --bbox "$W,$S,$E,$N" --hours "$h0-$h1" --vars wind,prmsl --grid 0.5 --step 6 \
  --cache cache -o box.grb2 -q 2>box.err
for c in window route box; do
  bzip2 -9 -k -c $c.grb2 >$c.grb2.bz2
  python3 "$HERE/grib1.py" $c.grb2 $c.wmo.grb1 $c.rules >/dev/null
  bzip2 -9 -k -c $c.wmo.grb1 >$c.wmo.grb1.bz2
  python3 "$HERE/compare.py" $c.grb2 $c.wmo.grb1 >$c.wmo.cmp || { cat $c.wmo.cmp; exit 1; }
  # ecCodes' own conversion, parameter by parameter
  : >$c.ed1.grb1
  : >$c.ed1.src.grb2
  for sn in $(grib_get -p shortName $c.grb2 | sort -u); do
    grib_copy -w shortName=$sn $c.grb2 $c.$sn.grb2
    if grib_set -s edition=1 $c.$sn.grb2 $c.$sn.grb1 2>$c.$sn.ed1.err; then
      cat $c.$sn.grb1 >>$c.ed1.grb1
      cat $c.$sn.grb2 >>$c.ed1.src.grb2
      echo "$sn" >>$c.ed1.ok
    else
      echo "$sn: $(grep -m1 'no match' $c.$sn.ed1.err | sed 's/^ECCODES ERROR *: *//')" >>$c.ed1.fail
    fi
  done
  bzip2 -9 -k -c $c.ed1.grb1 >$c.ed1.grb1.bz2
  bzip2 -9 -k -c $c.ed1.src.grb2 >$c.ed1.src.grb2.bz2
  python3 "$HERE/compare.py" $c.ed1.src.grb2 $c.ed1.grb1 >$c.ed1.cmp || { cat $c.ed1.cmp; exit 1; }
done
size() { stat -c %s "$1"; }
pct() { python3 -c "print('%.1f %%' % (100 * $1 / $2))"; }

# ---- 3. speed against CDO, from files on disk ----
CDO=(cdo -s -O -f grb2 -samplegrid,2 -sellonlatbox,"$W,$E,$S,$N" -selname,10u,10v,prmsl -mergetime)
SBOX=("$CLI" grib --bbox "$W,$S,$E,$N" --hours "$h0-$h1" --vars wind,prmsl --grid 0.5 --step 6
  --cache cache -o box-t.grb2 -q)
SWIN=("$CLI" grib "${VOY[@]}" --cache cache -o window-t.grb2 -q)
"${CDO[@]}" na/*.grib2 cdo.grb2
python3 "$HERE/compare.py" box.grb2 cdo.grb2 >cdo.cmp || { cat cdo.cmp; exit 1; }
timed() { # LABEL CMD...: appends "LABEL wall_s cpu_s" to times
  local label=$1 t0 t1
  shift
  t0=$(date +%s%N)
  /usr/bin/time -f "%U %S" -o cpu.txt "$@" >/dev/null 2>>timed.err
  t1=$(date +%s%N)
  echo "$label $(((t1 - t0) / 1000)) $(awk '{ printf "%.2f", $1 + $2 }' cpu.txt)" >>times.txt
}
: >times.txt
for r in $(seq 0 "$RUNS"); do # round 0 is the warm-up
  timed "box$r" "${SBOX[@]}"
  timed "cdo$r" "${CDO[@]}" na/*.grib2 cdo-t.grb2
  timed "window$r" "${SWIN[@]}"
done
cmp -s box.grb2 box-t.grb2 && cmp -s window.grb2 window-t.grb2 ||
  { echo "a timed build differs from the first" >&2; exit 1; }
"${SBOX[@]}" 2>box-again.err && grep -q 'fetched 0 bytes' box-again.err ||
  { echo "the timed box build fetched from storage" >&2; exit 1; }
read -r box_w box_c cdo_w cdo_c win_w win_c ratio ratio_cpu ratio_win <<<"$(python3 - <<'PY'
import statistics as st
rows = [l.split() for l in open("times.txt")]
def get(kind, col):
    return [float(r[col]) / (1e6 if col == 1 else 1) for r in rows
            if r[0].rstrip("0123456789") == kind and r[0][len(kind):] != "0"]
def fmt(v):
    return "%.2f (%.2f-%.2f)" % (st.median(v), min(v), max(v))
bw, cw, ww = get("box", 1), get("cdo", 1), get("window", 1)
bc, cc, wc = get("box", 2), get("cdo", 2), get("window", 2)
r = [c / b for b, c in zip(bw, cw)]
rc = [c / max(b, 0.01) for b, c in zip(bc, cc)]
rw = [c / w for w, c in zip(ww, cw)]
print(" ".join(x.replace(" ", "_") for x in (fmt(bw), "%.2f" % st.median(bc), fmt(cw),
      "%.2f" % st.median(cc), fmt(ww), "%.2f" % st.median(wc),
      "%.1f" % st.median(r), "%.1f" % st.median(rc), "%.1f" % st.median(rw))))
PY
)"
u() { echo "${1//_/ }"; }

# ---- 4. simply packed files of four fields: parts, requests, memory ----
simple_run() { # MODE OUT: the voyage against a simply packed seawx-sim whose
  # storage answers several ranges as MODE; prints "bytes requests"
  rm -f port4
  SEAWX_SIM_GRIB_PACKING=simple SEAWX_SIM_GRIB_FIELDS=4 SEAWX_SIM_STORAGE_RANGES=$1 \
    SEAWX_SIM_GRIB_DIR=$T/simgrib4 "$SIM" --port 0 --port-file port4 --key bench-key --now "$NOW" \
    --access-log "access4-$1.log" 2>sim4.log &
  local pid=$!
  for _ in $(seq 200); do [ -s port4 ] && break; sleep 0.025; done
  SEAWX_BASE_URL=http://127.0.0.1:$(cat port4) "$CLI" grib "${VOY[@]}" --cache "cache4-$1" --dry-run >/dev/null 2>&1
  local l
  l=$(wc -l <"access4-$1.log")
  SEAWX_BASE_URL=http://127.0.0.1:$(cat port4) "$CLI" grib "${VOY[@]}" --cache "cache4-$1" -o "$2" -q 2>"$2.err"
  awk -v a="$l" 'NR > a && $2 ~ /^127\.0\.0\.2:/ { s += $5; n++ } END { print s + 0, n + 0 }' "access4-$1.log"
  if [ ! -s files4.bytes ]; then
    for h in $(seq "$h0" 6 "$h1"); do
      n=$(printf 'sof-d.%s.t%sz.0p25.basic.north-atlantic.f%03d.grib2' "$ymd" "${run:11:2}" "$h")
      SEAWX_BASE_URL=http://127.0.0.1:$(cat port4) "$CLI" forecast download "$n" -o "f4-$n" -q
    done
    cat f4-*.grib2 | wc -c >files4.bytes
  fi
  kill $pid
  wait $pid 2>/dev/null || true
}
read -r s4_bytes s4_req <<<"$(simple_run multipart simple-multi.grb2)"
read -r s4_bytes1 s4_req1 <<<"$(simple_run first simple-single.grb2)"
cmp -s simple-multi.grb2 simple-single.grb2 || { echo "the two simply packed builds differ" >&2; exit 1; }
files4=$(cat files4.bytes)
printf 'lat,lon\n35,140\n30,170\n25,-160\n21,-158\n' >long.csv
LONG=(--route long.csv --depart "$NOW" --speed 6-8 --days 10 --vars wind,prmsl,waves --cache cache-long -q)
/usr/bin/time -f %M -o long1.kb "$CLI" grib "${LONG[@]}" -o long1.grb2 2>long1.err
/usr/bin/time -f %M -o long2.kb "$CLI" grib "${LONG[@]}" -o long2.grb2 2>long2.err
cmp -s long1.grb2 long2.grb2 || { echo "the long voyage from the cache differs" >&2; exit 1; }
long_fetched=$(du -sb cache-long | cut -f1)

out=$top/bench/grib/last-run.md
{
  echo "# Voyage GRIB ($(date -u +%Y-%m-%d), seawx-sim, run $run)"
  echo
  echo "Route 40N 60W, 38.5N 50W, 36N 40.5W (about 1,000 nm), 6-8 kn from $first, 50 nm buffer,"
  echo "5 days (forecast hours $h0-$h1, $nfiles times), wind + prmsl, 0.5 degrees, 6-hourly;"
  echo "box $W,$S,$E,$N (the route's bounds plus the buffer, on 0.5-degree nodes)."
  echo
  echo "## Sizes (bytes)"
  echo
  echo "| file | window cut | route cut | box | window / box |"
  echo "|---|---|---|---|---|"
  row() { # LABEL SUFFIX
    local w r b
    w=$(size window$2) r=$(size route$2) b=$(size box$2)
    echo "| $1 | $w | $r | $b | $(pct "$w" "$b") |"
  }
  row "GRIB2 (seawx grib)" .grb2
  row "GRIB2, bzip2 -9" .grb2.bz2
  row "GRIB1, WMO table 2 (from the GRIB1 sample)" .wmo.grb1
  row "GRIB1, WMO table 2, bzip2 -9" .wmo.grb1.bz2
  row "GRIB2, $(paste -sd+ window.ed1.ok) only" .ed1.src.grb2
  row "GRIB1 by grib_set edition=1 ($(paste -sd+ window.ed1.ok))" .ed1.grb1
  row "GRIB1 by grib_set edition=1, bzip2 -9" .ed1.grb1.bz2
  echo
  echo "Messages: window $(grib_count window.grb2), route $(grib_count route.grb2), box $(grib_count box.grb2)."
  echo "grib_set -s edition=1 converts $(paste -sd, window.ed1.ok);"
  echo "fails: $(paste -sd';' window.ed1.fail 2>/dev/null || echo none)."
  echo "GRIB1 (WMO) against the GRIB2 window: $(cat window.wmo.cmp)"
  echo "GRIB1 (edition=1) against its GRIB2: $(cat window.ed1.cmp)"
  echo
  for c in window route box; do
    grib_get -p totalLength,section6Length,section7Length $c.grb2 | awk -v c=$c '
      { t += $1; b += $2; d += $3; n++ }
      END { printf "- GRIB2 %s: %d bytes = %d of section heads (%.0f a message, %.0f %%), %d of section 6 (bitmap), %d of section 7 (packed values)\n",
            c, t, t - b - d, (t - b - d) / n, 100 * (t - b - d) / t, b, d }'
  done
  echo
  w=$(size window.grb2) b=$(size box.grb2)
  echo "Target: window <= 15 kB and <= 40 % of the box: $w bytes ($(python3 -c "print('%.1f' % ($w / 1024))") KiB), $(pct "$w" "$b") of the box."
  echo
  echo "## Bytes fetched from storage (access log, storage host)"
  echo
  echo "| region | whole files ($nfiles) | fetched, first build | share | storage requests | second build (same cache) |"
  echo "|---|---|---|---|---|---|"
  echo "| $(sed -n -E 's/.*run [^,]+, ([a-z-]+) files.*/\1/p' window.err) (default) | $whole_na | $fetch_na | $(pct "$fetch_na" "$whole_na") | $req_na | $fetch_na2 bytes, $svc_na2 request to the service (the listing) |"
  echo "| global (--region global) | $whole_gl | $fetch_gl | $(pct "$fetch_gl" "$whole_gl") | $req_gl | $fetch_gl2 bytes, $svc_gl2 request to the service |"
  echo
  echo "seawx's own summary: $(sed -n -E 's/.*(fetched .* requests).*/\1/p' window.err) (regional); $(sed -n -E 's/.*(fetched .* requests).*/\1/p' global.err) (global)."
  echo
  echo "## Simply packed files of four fields: only the rows needed"
  echo
  echo "The same voyage against files of four fields (10 m wind, gust, pressure), simply"
  echo "packed (template 5.0, as ECMWF's open data is): $nfiles files, $files4 bytes. The build"
  echo "after a --dry-run (which walks the files and keeps their heads), storage's access log:"
  echo
  echo "| storage answers | bytes served | share of the files | requests |"
  echo "|---|---|---|---|"
  echo "| several ranges in one request (multipart/byteranges) | $s4_bytes | $(pct "$s4_bytes" "$files4") | $s4_req |"
  echo "| the first range only (one range a request) | $s4_bytes1 | $(pct "$s4_bytes1" "$files4") | $s4_req1 |"
  echo
  echo "Target: at most 10 % of the files' bytes. Both files identical (cmp)."
  echo
  echo "## Memory: a 10-day Pacific voyage with waves (global files, the service's packing)"
  echo
  echo "35N 140E to 21N 158W, 6-8 kn, 10 days, wind, prmsl and waves: $(grib_count long1.grb2) fields,"
  echo "$(size long1.grb2) bytes written; the cache holds $long_fetched bytes after it."
  echo "Peak resident size (GNU time): **$(tail -1 long1.kb) kB** fetching, **$(tail -1 long2.kb) kB** from the cache"
  echo "(target 128 MB); the two files identical."
  echo
  echo "## Cut and pack from files on disk, against CDO $(cdo --version 2>&1 | sed -n -E 's/.*version ([0-9.]+).*/\1/p' | head -1)"
  echo
  echo "seawx: every message in its cache (--cache, a second build); CDO: the $nfiles whole"
  echo "north-atlantic files, downloaded. $RUNS rounds after a warm-up, medians (min-max)."
  echo
  echo '```'
  echo "seawx grib --bbox $W,$S,$E,$N --hours $h0-$h1 --vars wind,prmsl --grid 0.5 --step 6 --cache DIR -o box.grb2"
  echo "${CDO[*]} na/*.grib2 cdo.grb2"
  echo '```'
  echo
  echo "| tool | wall s | CPU s | output bytes |"
  echo "|---|---|---|---|"
  echo "| seawx grib --cut box (warm cache) | $(u "$box_w") | $box_c | $(size box.grb2) |"
  echo "| cdo | $(u "$cdo_w") | $cdo_c | $(size cdo.grb2) |"
  echo "| seawx grib, window cut (warm cache) | $(u "$win_w") | $win_c | $(size window.grb2) |"
  echo
  echo "CDO / seawx box: **${ratio}x** wall (median of the rounds' ratios), ${ratio_cpu}x CPU; CDO / seawx window: ${ratio_win}x wall."
  echo "Values: $(cat cdo.cmp)"
} >"$out"
cat "$out"

if [ "${PROFILE:-0}" = 1 ]; then
  # Instructions, not time: the same on a busy machine. Shares are of the whole run.
  set +o pipefail # head ends the reports early
  valgrind --tool=callgrind --callgrind-out-file=cg.out "${SBOX[@]}" 2>/dev/null
  {
    echo
    echo '## Profile'
    echo
    echo '```'
    echo "Profile of the warm box build (valgrind --tool=callgrind, inclusive share of instructions):"
    callgrind_annotate --auto=no --inclusive=yes cg.out 2>/dev/null | grep -E '^ *[0-9,]+ \( *[0-9.]+%\)' |
      grep -E 'PROGRAM TOTALS|swx_grib_build|grib_cut.c|codes_(get_double_array|handle_clone|handle_new_from_message|set_string|set_double_array|set_long|handle_delete|set_double) ' |
      grep -v '=>' | head -12
    echo "Called from swx__grib_cut:"
    callgrind_annotate --auto=no --tree=calling --inclusive=yes cg.out 2>/dev/null |
      awk '/\*  .*grib_cut.c:swx__grib_cut/ { on = 1; next } on && /^$/ { exit } on' | head -10
    echo '```'
  } | sed "s|$top/||g" | tee -a "$out"
fi
