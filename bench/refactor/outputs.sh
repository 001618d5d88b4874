#!/usr/bin/env bash
# outputs.sh BUILD_DIR OUT_DIR: the outputs of the voyage products (voyage
# packages with storms and their risk report, a fleet, storm risk along a
# route with its segments, a voyage seed, merged shards) made by one build
# against seawx-sim on a fixed clock, written to OUT_DIR together with
# OUT_DIR/sums.txt, one "sha256  path" line per output. Run it on two builds
# and diff the two sums.txt: a refactoring that changes no behaviour gives the
# same lines.
#
# What legitimately differs between two runs is normalised before hashing:
# an MBTiles file is hashed as its sorted tiles and metadata (its bytes follow
# the order the tiles came in, which threads decide), and a manifest drops the
# bytes and SHA-256 of its MBTiles files for the same reason.
set -euo pipefail
[ $# -eq 2 ] || {
  echo "usage: $0 BUILD_DIR OUT_DIR" >&2
  exit 2
}
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
sim=$build/samples/seawx-sim
cli=$build/tilecli/seawx
for b in "$sim" "$cli"; do [ -x "$b" ] || {
  echo "$b: not found; build first" >&2
  exit 1
}; done
fx=$root/tests/fixtures
rm -rf "${out:?}"/*
work=$(mktemp -d /tmp/seawx-outputs.XXXXXX)
sim_pid=
trap '[ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null; rm -rf "$work"' EXIT

# One stand-in per clock; the CLI sees it through the environment.
sim_start() {
  [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null && wait "$sim_pid" 2>/dev/null
  rm -f "$work/port"
  "$sim" --port 0 --port-file "$work/port" --key outputs-key --now "$1" 2>"$work/sim.log" &
  sim_pid=$!
  for _ in $(seq 400); do [ -s "$work/port" ] && break; sleep 0.025; done
  [ -s "$work/port" ] || {
    cat "$work/sim.log" >&2
    exit 1
  }
  export SEAWX_BASE_URL=http://127.0.0.1:$(cat "$work/port") SEAWX_API_KEY=outputs-key
  unset SEAWX_API_KEY_FILE SEAWX_WMS_AUTH SEAWX_WMS_PASSWORD SEAWX_CACHE_DIR
}

# Each command's stdout, stderr and exit status are outputs too (the folders of this
# run named OUT and WORK, the time a command took T, the MiB of MBTiles files
# M).
run() {
  local name=$1
  shift
  set +e
  "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
  echo "exit $?" >>"$out/$name.stdout"
  set -e
  sed -i -E -e "s|$out|OUT|g" -e "s|$work|WORK|g" -e 's/in [0-9.]+ s$/in T s/' -e 's/[0-9.]+ MiB/M MiB/' \
    "$out/$name.stdout" "$out/$name.stderr"
}

# 1. A voyage package through the sample Atlantic hurricane, with storms.
now=2024-10-08T06:00:00Z
sim_start "$now"
printf 'lat,lon\n24.0,-79.0\n29.0,-86.0\n' >"$work/through.csv"
voy=(--route "$work/through.csv" --depart "$now" --speed 10-14)
run voyage_storms_dry "$cli" voyage -b maritime "${voy[@]}" --layer swh -z 3 --now "$now" \
  --storms active -n
run voyage_storms "$cli" voyage -b maritime "${voy[@]}" --layer swh -z 3 --now "$now" \
  --storms active -q -o "$out/voyage_storms"
# 2. Storm risk along the same route, and the storm files of -o DIR/.
run storms_risk "$cli" storms -q "${voy[@]}" --json --segments "$out/storms_segments.geojson"
run storms_risk_text "$cli" storms -q "${voy[@]}"
mkdir -p "$out/storms_dir"
run storms_dir "$cli" storms -q --kinds \
  storm,track_point,forecast_point,forecast_line,wind_radii,cone,danger_area,wind_swath \
  -o "$out/storms_dir/"
run storms_edge_risk "$cli" storms -q --input "$root/samples/storms/edge_storms.json" \
  --route "$work/through.csv" --depart 2024-10-08T00:00:00Z --speed 10-14 --json \
  --segments "$out/storms_edge_segments.geojson"

# 3. A voyage package of two layers, a voyage seed, a fleet.
now=2026-03-02T11:00:00Z
sim_start "$now"
first=$("$cli" layers -b maritime -v swh --latest --json |
  python3 -c "import json, sys; print(json.load(sys.stdin)[0]['times'][0])")
pkg=(voyage -b maritime --route "$fx/voyage/atlantic_1000nm.csv" --depart "$first" --speed 6-8
  --layer swh --layer sst:zoom=3 -z 3-4 --format png --now "$now")
run package_dry "$cli" "${pkg[@]}" -n
run package "$cli" "${pkg[@]}" -q -o "$out/package"
run seed_voyage_dry "$cli" seed -b maritime -v swh -t all -z 3-5 --buffer 50 \
  --route "$fx/voyage/atlantic_1000nm.csv" --depart "$first" --speed 6-8 -n
run seed_voyage "$cli" seed -b maritime -v swh -t all -z 3-5 --buffer 50 -q \
  --route "$fx/voyage/atlantic_1000nm.csv" --depart "$first" --speed 6-8 \
  -o "$out/seed-{time}.mbtiles" --summary-json "$work/seed_summary.json"
run fleet_dry "$cli" fleet --now "$now" -n "$fx/fleet/six.json"
run fleet "$cli" fleet --now "$now" -q "$fx/fleet/six.json" -o "$out/fleet"
run fleet_shard_dry "$cli" fleet --now "$now" -n --shard 2/3 "$fx/fleet/six.json"
run fleet_again "$cli" fleet --now "$now" "$fx/fleet/six.json" -o "$out/fleet"
# Refusals: their lines and exit codes.
run voyage_webp "$cli" voyage -b maritime --route "$fx/voyage/atlantic_1000nm.csv" --depart "$first" \
  --speed 6-8 --layer swh --format webp --now "$now" -n
: >"$work/a_file"
run fleet_not_folder "$cli" fleet --now "$now" "$fx/fleet/six.json" -o "$work/a_file"
run fleet_missing "$cli" fleet --now "$now" "$work/none.json" -o "$work/none"
printf '{"bundle": "maritime", "ships": [{"name": "x", "route": "lane_a.csv"}]}' >"$work/bad.json"
run fleet_bad "$cli" fleet --now "$now" "$work/bad.json" -o "$work/none"

# 4. Shards of a seed, merged.
now=2026-03-01T06:00:00Z
sim_start "$now"
S=(seed -b basic -v t2m:K --bbox -30,30,30,65 -z 0-5 -m 2 -q)
for k in 1 2 3; do run "shard_$k" "$cli" "${S[@]}" --shard "$k/3" -o "$work/p.{shard}.mbtiles"; done
run merge "$cli" merge -q --json --shards 3 -o "$out/merged.mbtiles" "$work/p.{shard}.mbtiles"

# Hash everything, normalised.
cd "$out"
python3 - >"$out/sums.txt" <<'PY'
import hashlib, json, os, sqlite3

def mbtiles(path):
    c = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    h = hashlib.sha256()
    for row in sorted(c.execute("select name, value from metadata")):
        h.update(repr(row).encode())
    for z, x, y, d in sorted(c.execute("select zoom_level, tile_column, tile_row, tile_data from tiles")):
        h.update(repr((z, x, y, hashlib.sha256(d).hexdigest())).encode())
    c.close()
    return h.hexdigest()

def manifest(path):
    m = json.load(open(path))
    def strip(o):
        if isinstance(o, dict):
            if str(o.get("path", "")).endswith(".mbtiles"):
                o.pop("bytes", None); o.pop("sha256", None)
            for v in o.values():
                strip(v)
        elif isinstance(o, list):
            for v in o:
                strip(v)
    strip(m)
    return hashlib.sha256(json.dumps(m, sort_keys=True).encode()).hexdigest()

for d, dirs, files in sorted(os.walk(".")):
    dirs.sort()
    for l in dirs:
        if os.path.islink(os.path.join(d, l)):
            print("%s  %s" % (hashlib.sha256(os.readlink(os.path.join(d, l)).encode()).hexdigest(),
                              os.path.join(d, l)[2:] + " (link)"))
    for f in sorted(files):
        p = os.path.join(d, f)[2:]
        if p == "sums.txt" or p.endswith("-journal"):
            continue
        if f.endswith(".mbtiles"):
            s = mbtiles(p)
        elif f == "manifest.json":
            s = manifest(p)
        else:
            s = hashlib.sha256(open(p, "rb").read()).hexdigest()
        print("%s  %s" % (s, p))
PY
echo "$(wc -l <"$out/sums.txt") outputs hashed into $out/sums.txt"
