#!/usr/bin/env bash
# bench/driver/run.sh: gdal_translate of one layer as a 4096 x 2048 raster
# (EPSG:4326, 256-pixel blocks, one valid time, PNG from the service) through
# the SEAWX plugin and through GDAL's own WMS driver, against seawx-sim with
# injected latency on every answer. Runs alternate (SEAWX, then WMS at each
# connection count, SEAWX, ...) after one untimed warm-up of each; prints the
# median wall time and peak memory of each, their ratios side by side, and
# whether the pixels are identical; writes the table to last-run.md.
#
#   bash bench/driver/run.sh [--runs N] [--latency MS] [--wms-connections N[,N...]]
#
# Needs a build (scripts/build.sh; SEAWX_BUILD_DIR, default build/) with the
# tests' rastercmp. --wms-connections sets GDAL WMS's MaxConnections, one
# configuration per value (default: GDAL's own default, 2); the disk caches of
# both drivers are off.
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
  *) echo "usage: $0 [--runs N] [--latency MS] [--wms-connections N[,N...]]" >&2; exit 2 ;;
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
# One WMS description per connection count ("" for GDAL's default).
IFS=, read -r -a conns <<<"${wms_conn:-}"
[ ${#conns[@]} -gt 0 ] || conns=("")
for c in "${conns[@]}"; do
  conn=${c:+<MaxConnections>$c</MaxConnections>}
  # (GDAL recognises the file only when it starts with <GDAL_WMS>: the comment goes.)
  sed -e '/^<!--/,/-->$/d' -e "s|@PORT@|$port|" -e "s|@LAYER@|$layer|" -e "s|@TIME@|$time|" \
    -e "s|@CONN@|$conn|" "$here/gdal_wms.xml.in" >"$T/wms${c:-default}.xml"
done

run() { # SOURCE OUT
  python3 "$here/measure.py" gdal_translate -q "$1" "$2"
}
echo "layer $layer, time $time, latency ${latency} ms, seawx-sim on port $port"
run "$seawx" "$T/seawx.tif" >/dev/null # warm-up (and seawx-sim's render cache)
for c in "${conns[@]}"; do run "$T/wms${c:-default}.xml" "$T/wms${c:-default}.tif" >/dev/null; done
: >"$T/times.txt"
for i in $(seq "$runs"); do
  for d in seawx "${conns[@]/#/wms}"; do
    [ "$d" = wms ] && d=wmsdefault
    src=$seawx
    [ "$d" != seawx ] && src=$T/$d.xml
    rm -f "$T/$d.tif"
    read -r wall rss rc < <(run "$src" "$T/$d.tif")
    [ "$rc" -eq 0 ] || { echo "run.sh: $d run $i failed (exit $rc)" >&2; exit 1; }
    echo "$d $wall $rss" >>"$T/times.txt"
    printf '  run %d %-10s %6.2f s  %7.1f MiB\n' "$i" "$d" "$wall" "$(awk "BEGIN { print $rss / 1024 }")"
  done
done
identical=0
: >"$T/pixels.txt"
for c in "${conns[@]}"; do
  same=$("$cmp" "$T/seawx.tif" "$T/wms${c:-default}.tif") || identical=1
  echo "wms${c:-default} $same" >>"$T/pixels.txt"
done
python3 - "$T/times.txt" "$T/pixels.txt" "$runs" "$latency" "$here/last-run.md" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
pixels = dict(l.rstrip("\n").split(" ", 1) for l in open(sys.argv[2]))
runs, latency, out = sys.argv[3], sys.argv[4], sys.argv[5]
med = lambda d: statistics.median(float(r[1]) for r in rows if r[0] == d)
rss = lambda d: max(int(r[2]) for r in rows if r[0] == d) / 1024
lines = [
    f"# GDAL plugin: gdal_translate 4096 x 2048 through SEAWX and GDAL's WMS driver "
    f"({runs} runs, medians, latency {latency} ms)",
    "",
    "| GDAL WMS `MaxConnections` | SEAWX | GDAL WMS | ratio | peak memory SEAWX / WMS | pixels |",
    "|---|---|---|---|---|---|",
]
for d in pixels:
    c = d[3:] if d != "wmsdefault" else "2 (GDAL's default)"
    r = med("seawx") / med(d)
    lines.append(f"| {c} | {med('seawx'):.2f} s | {med(d):.2f} s | **{r:.2f}** "
                 f"({'met' if r <= 0.5 else 'MISSED'}) | {rss('seawx'):.0f} / {rss(d):.0f} MiB "
                 f"| {pixels[d]} |")
lines += ["", "SEAWX keeps 32 GetMaps in flight (its default); target: ratio <= 0.50."]
text = "\n".join(lines) + "\n"
print(text, end="")
open(out, "w").write(text)
PY
exit "$identical" # 1 when the two drivers read different pixels
