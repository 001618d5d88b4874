#!/usr/bin/env bash
# bench/fleet/run.sh: a fleet of 100 ships on overlapping lanes against
# seawx-sim with injected latency: the GetMaps of one `seawx fleet` run
# against the sum of each ship's own `seawx voyage` run (target: at most
# half), and the wall time of both. The fleet is generated here,
# deterministically: 5 lanes of about 200 nm (one across 180), 20 ships a
# lane departing over 12 hours at 9-14 kn (some with a band of 2 kn), waypoints
# off the lane by up to 0.1 degrees, swh at zooms 3-5 and, for every fifth
# ship, sst at zoom 3 too.
#
# The sum of per-ship runs is the dry run's count (each ship alone); a
# sample of ships is also built alone for real: their GetMaps must be the
# dry run's, their packages equal to the fleet's (tiles, via sqlite), and
# their time gives the estimate of the 100 runs' wall time.
# Writes bench/fleet/last-run.md.
#   SEAWX_BUILD   the build folder (default: <repo>/build); SEAWX_CLI, SEAWX_SIM override
#   LATENCY_MS    latency added to every answer (default 20)
#   SAMPLE        ships built alone for real (default 5)
#   SHIPS         ships in the fleet (default 100)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${SEAWX_BUILD:-$top/build}
CLI=${SEAWX_CLI:-$BUILD/tilecli/seawx}
SIM=${SEAWX_SIM:-$BUILD/samples/seawx-sim}
LATENCY_MS=${LATENCY_MS:-20}
SAMPLE=${SAMPLE:-5}
SHIPS=${SHIPS:-100}
NOW=2026-03-02T11:00:00Z
T=$(mktemp -d /tmp/seawx-bench-fleet.XXXXXX)
"$SIM" --port 0 --port-file "$T/port" --key bench-key --latency "$LATENCY_MS" --now "$NOW" \
  --access-log "$T/access.log" 2>"$T/sim.log" &
sim=$!
trap 'kill $sim 2>/dev/null; wait $sim 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 200); do [ -s "$T/port" ] && break; sleep 0.025; done
export SEAWX_BASE_URL=http://127.0.0.1:$(cat "$T/port") SEAWX_API_KEY=bench-key
getmaps() { grep -c 'request=GetMap' "$T/access.log" || true; }
now() { date +%s.%N; }

# The fleet, and one line per ship for its own seawx voyage run.
python3 - "$T" "$SHIPS" <<'PY'
import json, random, sys
t, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(15)
lanes = [  # (lat, lon) waypoints, about 200 nm each
    [(38.5, -9.5), (37.2, -12.0), (36.0, -14.0)],
    [(49.8, -5.5), (48.9, -8.5), (48.0, -10.5)],
    [(36.0, 14.5), (35.0, 17.5), (34.2, 19.8)],
    [(30.0, 178.0), (30.6, 179.9), (31.0, -178.0)],
    [(1.2, 104.0), (2.5, 102.0), (3.8, 100.2)],
]
ships, solo = [], []
for i in range(n):
    lane = lanes[i % len(lanes)]
    pts = [(la + rnd.uniform(-0.1, 0.1), lo + rnd.uniform(-0.1, 0.1)) for la, lo in lane]
    pts = [(la, lo - 360 if lo > 180 else lo + 360 if lo < -180 else lo) for la, lo in pts]
    if rnd.random() < 0.5:
        pts.reverse()
    csv = "lat,lon\n" + "".join("%.4f,%.4f\n" % p for p in pts)
    dep = "2026-03-02T%02d:00:00Z" % (11 + rnd.randrange(0, 13))
    v = rnd.choice([9, 10, 11, 12, 13, 14])
    speed = "%d-%d" % (v - 1, v + 1) if rnd.random() < 0.4 else str(v)
    layers = ["swh", "sst:zoom=3"] if i % 5 == 0 else ["swh"]
    name = "ship%03d" % i
    ships.append({"name": name, "route_csv": csv, "depart": dep, "speed": speed, "layers": layers})
    open("%s/%s.csv" % (t, name), "w").write(csv)
    solo.append("\t".join([name, dep, speed, " ".join(layers)]))
json.dump({"bundle": "maritime", "zoom": "3-5", "format": "png8", "ships": ships},
          open(t + "/fleet.json", "w"), indent=1)
open(t + "/solo.txt", "w").write("\n".join(solo) + "\n")
PY

"$CLI" fleet --now "$NOW" -n "$T/fleet.json" >"$T/dry.out"
alone=$(awk -F': ' '/^getmaps, each ship alone/ {print $2}' "$T/dry.out")
shared=$(awk '/^getmaps, the fleet shared/ {print $5}' "$T/dry.out")

g0=$(getmaps)
t0=$(now)
"$CLI" fleet --now "$NOW" -q "$T/fleet.json" -o "$T/fleet" 2>"$T/fleet.err"
t1=$(now)
sent=$(($(getmaps) - g0))
dups=$(grep 'request=GetMap' "$T/access.log" | awk '{print $3}' | sort | uniq -d | wc -l)
files=$(find "$T/fleet/" -name '*.mbtiles' | wc -l)

# A sample of ships alone, for real (every (SHIPS / SAMPLE)th ship).
step=$((SHIPS / SAMPLE))
sample_s=0 sample_g=0 sample_dry=0 equal=0 taken=0
while IFS=$'\t' read -r name dep speed layers; do
  i=$((10#${name#ship}))
  [ $((i % step)) -eq 0 ] && [ "$taken" -lt "$SAMPLE" ] || continue
  largs=()
  for l in $layers; do largs+=(--layer "$l"); done
  g=$(getmaps)
  s0=$(now)
  "$CLI" voyage -b maritime --route "$T/$name.csv" --depart "$dep" --speed "$speed" "${largs[@]}" \
    -z 3-5 --format png8 --now "$NOW" -q -o "$T/solo/$name" </dev/null
  s1=$(now)
  sample_s=$(python3 -c "print($sample_s + $s1 - $s0)")
  sample_g=$((sample_g + $(getmaps) - g))
  sample_dry=$((sample_dry + $(awk -v n="$name" '$1 == n {print $4}' "$T/dry.out")))
  if python3 - "$T/fleet/$name" "$T/solo/$name" <<'PY'; then equal=$((equal + 1)); fi
import glob, os, sqlite3, sys
def tiles(d):
    r = {}
    for f in sorted(glob.glob(d + "/*.mbtiles")):
        c = sqlite3.connect(f)
        r[os.path.basename(f)] = sorted(c.execute("select zoom_level, tile_column, tile_row, hex(tile_data) from tiles"))
    return r
sys.exit(0 if tiles(sys.argv[1]) == tiles(sys.argv[2]) else 1)
PY
  taken=$((taken + 1))
done < <(mkdir -p "$T/solo"; cat "$T/solo.txt")

out=$top/bench/fleet/last-run.md
python3 - "$alone" "$shared" "$sent" "$dups" "$t0" "$t1" "$sample_s" "$sample_g" "$sample_dry" \
  "$taken" "$equal" "$files" "$LATENCY_MS" "$SHIPS" >"$out" <<'PY'
import sys, datetime
(alone, shared, sent, dups), (t0, t1, ss), (sg, sd, taken, equal, files, lat, ships) = \
    map(int, sys.argv[1:5]), map(float, sys.argv[5:8]), map(int, sys.argv[8:15])
fleet_s = t1 - t0
est = ss / sg * alone if sg else 0
print("# Fleet seeding (%s, seawx-sim with %d ms latency, 32 GetMaps in flight)" % (
    datetime.date.today().isoformat(), lat))
print()
print("%d ships on 5 overlapping lanes of about 200 nm (one across 180), generated by"
      " bench/fleet/run.sh; maritime swh zooms 3-5 png8, every fifth ship sst zoom 3 too;"
      " %d MBTiles files in all." % (ships, files))
print()
print("| | GetMaps | wall time |")
print("|---|---|---|")
print("| each ship alone (sum of %d seawx voyage runs) | %d (dry run) | %.0f s (estimated from the sample) |" % (ships, alone, est))
print("| one seawx fleet run | %d sent (dry run said %d), %d asked twice | %.1f s |" % (sent, shared, dups, fleet_s))
print("| fleet / alone | %.1f %% | %.1f %% |" % (100.0 * sent / alone, 100.0 * fleet_s / est if est else 0))
print()
print("Sample: %d ships built alone for real: %d GetMaps (their dry-run counts: %d), %.1f s;"
      " %d of %d packages hold the same files and tiles as the fleet's." % (taken, sg, sd, ss, equal, taken))
print()
print("Command: `nice bash bench/fleet/run.sh` (LATENCY_MS, SAMPLE, SHIPS override).")
PY
cat "$out"
[ "$dups" -eq 0 ] && [ "$equal" -eq "$taken" ] && [ "$sample_g" -eq "$sample_dry" ] && [ $((sent * 2)) -le "$alone" ]
