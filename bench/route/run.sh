#!/usr/bin/env bash
# bench/route/run.sh: the route search (seawx/route.h, lib/sail/route.c) on
# the crossing Las Palmas (28.1N 15.3W, just off the harbour) to St Lucia
# (14.0N 61.1W, off Castries), about 2,700 nm, with a cruising polar
# (tests/fixtures/route/polar.txt) through route_bench.c's synthetic 0.25
# degree 3-hourly forecast (trades, a low moving east along 36N, a 1 kn
# westward current band on 15N; no network):
#  1. CPU seconds of the search and peak RSS of the process (getrusage, one
#     process per case, one thread), for the defaults and finer and coarser
#     steps, without land and with GSHHG's full-resolution land
#     (/usr/share/gmt-gshhg/binned_GSHHS_f.nc, 1 nm margin; reading it is
#     timed apart), and with a hurricane across the route (route_storms.c:
#     its 34 kt radii and 1-2-3 danger area, every minute of every leg; a
#     storm JSON written below, a Cape Verde storm moving north-west at 5 kn
#     from 14N 18W across the way over the first five days: the route goes
#     round its danger area, about a day longer); the target (issue 35): at most 10 s and
#     512 MiB, 20 % more with storms; "vs finest" is the time against the finest search's
#     (the first row without land, the second with);
#  2. the halving table on Bryson and Ho's sheared current (exact time
#     2 h / V): time step, heading step halved and the sector divided by
#     2^1.5 at each row; each row's error must be at most half the last's.
# The peers (OpenCPN's weather_routing_pi, qtVlm) are not installable on
# this machine (no packages, GUI-only): the comparison is with their
# documented figures (docs/benchmarks.md, "Routing").
# Writes bench/route/last-run.md.
#   SEAWX_BUILD  the build folder with libseawx (default: <repo>/build)
#   GSHHG        the full-resolution file (default: the Debian path)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${SEAWX_BUILD:-$top/build}
GSHHG=${GSHHG:-/usr/share/gmt-gshhg/binned_GSHHS_f.nc}
POLAR=$top/tests/fixtures/route/polar.txt
T=$(mktemp -d /tmp/seawx-bench-route.XXXXXX)
trap 'rm -rf "$T"' EXIT
lib=$(dirname "$(find "$BUILD/lib" -name 'libseawx.so' | head -1)")
[ -n "$lib" ] || { echo "no libseawx.so under $BUILD/lib: build seawx_shared" >&2; exit 1; }
inc=()
for d in "$top"/lib/*/include; do inc+=(-I"$d"); done
cc -O2 -std=c11 "${inc[@]}" "$top/bench/route/route_bench.c" -L"$lib" -Wl,-rpath,"$lib" \
  -lseawx -lm -o "$T/route_bench"
B=$T/route_bench
out=$top/bench/route/last-run.md
{
  echo "# bench/route: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, one thread"
  echo
  echo "| case | land | hours | vs finest | search CPU s | land read CPU s | peak RSS MiB | legs | points |"
  echo "|---|---|---|---|---|---|---|---|---|"
} >"$out"
fine_no=""
fine_yes=""
row() { # name, land (yes/no), options...
  local name=$1 land=$2
  shift 2
  local extra=()
  [ "$land" = yes ] && extra=(--land "$GSHHG")
  local line
  line=$("$B" crossing "$POLAR" "$@" "${extra[@]}")
  echo "$name ($land land): $line" >&2
  set -- $line
  [ "$1" = hours ] || { echo "| $name | $land | $line |||||||" >>"$out"; return; }
  local h=$2 ref
  [ "$land" = yes ] && { [ -n "$fine_yes" ] || fine_yes=$h; ref=$fine_yes; }
  [ "$land" = no ] && { [ -n "$fine_no" ] || fine_no=$h; ref=$fine_no; }
  local rel
  rel=$(python3 -c "print('%+.3f %%' % (100 * ($h - $ref) / $ref))")
  echo "| $name | $land | $h | $rel | $6 | $8 | ${10} | ${12} | ${14} |" >>"$out"
}
row "finest afforded: 3 h, 2 deg, 0.75 nm sectors" no --step 10800 --heading 2 --sector 0.75
row "finest afforded: 3 h, 2 deg, 0.75 nm sectors" yes --step 10800 --heading 2 --sector 0.75
row "defaults (6 h offshore, 3 deg, 2.25 nm sectors)" no
row "defaults, 2 threads" no --threads 2
row "defaults" yes
# The hurricane: as /storm/json answers, its last observed fix at the
# departure (route_bench.c's T0, 2027-01-15T08:00Z), forecast every 12 h to
# 120 h.
python3 - "$T/storm.json" <<'EOF'
import json, math, sys, datetime as d
t0 = 1800000000
def iso(h):
    return d.datetime.fromtimestamp(t0 + h * 3600, d.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
fixes = []
for h in (-12, -6, 0, 12, 24, 36, 48, 60, 72, 96, 120):
    # a Cape Verde storm: 5 kn toward the north-west from 14N 18W
    lat = 14 + 5 * h * math.cos(math.radians(315)) / 60
    lon = -18 + 5 * h * math.sin(math.radians(315)) / (60 * math.cos(math.radians(lat)))
    r = {"34kts": {"ne": 120, "se": 100, "sw": 80, "nw": 100}}
    p = {"lat": round(lat, 2), "lon": round(lon, 2), "wind_extent_radii": r}
    p.update({"time": iso(h)} if h <= 0 else {"forecast_time": iso(h), "forecast_hour": h})
    fixes.append((h, p))
s = {"atcf_id": "AL992027", "storm_name": "BENCH", "basin": "NA", "season": 2027,
     "observed_track": [p for h, p in fixes if h <= 0],
     "forecast_track": [p for h, p in fixes if h > 0]}
json.dump([s], open(sys.argv[1], "w"))
EOF
row "defaults, a hurricane across the route" no --storm "$T/storm.json"
row "defaults, a hurricane" yes --storm "$T/storm.json"
row "1 h everywhere, 3 deg, 2.25 nm" no --step 3600
row "3 h, 3 deg, 2.25 nm" no --step 10800 --sector 2.25
{
  echo
  echo "Halving (Bryson and Ho's sheared current, motor 6 kn, 115 nm):"
  echo
  "$B" halving
} >>"$out"
cat "$out"
