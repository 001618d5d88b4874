#!/usr/bin/env bash
# bench/driver/run.sh: gdal_translate of one layer as a 4096 x 2048 raster
# (EPSG:4326, 256-pixel blocks, one valid time, PNG from the service) through
# the SEAWX plugin and through GDAL's own WMS driver, against seawx-sim with
# injected latency on every answer. Runs alternate (SEAWX, WMS, SEAWX, ...)
# after one untimed warm-up of each; prints the median wall time and peak
# memory of each, their ratio, and whether the pixels are identical.
#
#   bash bench/driver/run.sh [--runs N] [--latency MS] [--wms-connections N]
#
# Needs a build (scripts/build.sh; SEAWX_BUILD_DIR, default build/) with the
# tests' rastercmp. --wms-connections sets GDAL WMS's MaxConnections (default:
# GDAL's own default, 2); the disk caches of both drivers are off.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${SEAWX_BUILD_DIR:-$root/build}
runs=3 latency=50 wms_conn=
while [ $# -gt 0 ]; do
  case $1 in
  --runs) runs=$2; shift 2 ;;
  --latency) latency=$2; shift 2 ;;
  --wms-connections) wms_conn=$2; shift 2 ;;
  *) echo "usage: $0 [--runs N] [--latency MS] [--wms-connections N]" >&2; exit 2 ;;
  esac
done
sim=$build/samples/seawx-sim cmp=$build/tests/rastercmp
for f in "$sim" "$cmp" "$build/driver/gdal_SEAWX.so"; do
  [ -e "$f" ] || { echo "run.sh: $f missing: build first (scripts/build.sh)" >&2; exit 1; }
done

T=$(mktemp -d /tmp/seawx-bench-driver.XXXXXX)
key="bench-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
sim_pid=
trap '[ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null; rm -rf "$T"' EXIT
"$sim" --port 0 --port-file "$T/port" --key "$key" --basic-password "pw" \
  --latency "$latency" 2>"$T/sim.log" &
sim_pid=$!
for _ in $(seq 200); do [ -s "$T/port" ] && break; sleep 0.025; done
port=$(cat "$T/port")

export GDAL_DRIVER_PATH=$build/driver SEAWX_BASE_URL=http://127.0.0.1:$port SEAWX_API_KEY=$key
export GDAL_PAM_ENABLED=NO
# GDAL's WMS driver sends the key as HTTP Basic credentials (seawx-sim takes
# key:password); SEAWX sends its default service-api-key header.
export GDAL_HTTP_AUTH=BASIC GDAL_HTTP_USERPWD="$key:pw"

# The latest complete run of t2m at its default time, named in full for both.
gdalinfo -json "SEAWX:bundle=basic,variable=t2m:K,run=latest" >"$T/info.json"
read -r layer time < <(python3 -c '
import json, sys
md = json.load(open(sys.argv[1]))["metadata"][""]
print(md["LAYER"], md["TIME"])' "$T/info.json")
seawx="SEAWX:bundle=basic,layer=$layer,time=$time,width=4096,cache=no"
conn=${wms_conn:+<MaxConnections>$wms_conn</MaxConnections>}
# (GDAL recognises the file only when it starts with <GDAL_WMS>: the comment goes.)
sed -e '/^<!--/,/-->$/d' -e "s|@PORT@|$port|" -e "s|@LAYER@|$layer|" -e "s|@TIME@|$time|" -e "s|@CONN@|$conn|" \
  "$here/gdal_wms.xml.in" >"$T/wms.xml"

run() { # NAME SOURCE OUT
  python3 "$here/measure.py" gdal_translate -q "$2" "$3"
}
echo "layer $layer, time $time, latency ${latency} ms, seawx-sim on port $port"
run seawx "$seawx" "$T/seawx.tif" >/dev/null # warm-up (and seawx-sim's render cache)
run wms "$T/wms.xml" "$T/wms.tif" >/dev/null
: >"$T/times.txt"
for i in $(seq "$runs"); do
  for d in seawx wms; do
    src=$seawx
    [ "$d" = wms ] && src=$T/wms.xml
    rm -f "$T/$d.tif"
    read -r wall rss rc < <(run "$d" "$src" "$T/$d.tif")
    [ "$rc" -eq 0 ] || { echo "run.sh: $d run $i failed (exit $rc)" >&2; exit 1; }
    echo "$d $wall $rss" >>"$T/times.txt"
    printf '  run %d %-5s %6.2f s  %7.1f MiB\n' "$i" "$d" "$wall" "$(awk "BEGIN { print $rss / 1024 }")"
  done
done
identical=0
same=$("$cmp" "$T/seawx.tif" "$T/wms.tif") || identical=1
python3 - "$T/times.txt" "$same" "${wms_conn:-2 (GDAL default)}" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
med = {d: statistics.median(float(r[1]) for r in rows if r[0] == d) for d in ("seawx", "wms")}
rss = {d: max(int(r[2]) for r in rows if r[0] == d) / 1024 for d in ("seawx", "wms")}
print(f"SEAWX      median {med['seawx']:.2f} s, peak {rss['seawx']:.0f} MiB (32 GetMaps in flight, its default)")
print(f"GDAL WMS   median {med['wms']:.2f} s, peak {rss['wms']:.0f} MiB (MaxConnections {sys.argv[3]})")
ratio = med["seawx"] / med["wms"]
print(f"ratio SEAWX / WMS = {ratio:.2f} (target <= 0.50: {'met' if ratio <= 0.5 else 'MISSED'})")
print(f"pixels: {sys.argv[2]}")
PY
exit "$identical" # 1 when the two drivers read different pixels
