#!/usr/bin/env bash
# perf.sh OLD_BUILD NEW_BUILD: the speed of two builds of seawx side by side, to
# show that a refactoring kept it (within 5 %). Each round measures, for both
# builds in turn (old then new in odd rounds, new then old in even ones: A B B A,
# so that a drift of the machine's load weighs on both alike), each command
# against a freshly started seawx-sim of its own build on 127.0.0.1 with a fixed
# clock (--now):
#   seed    seawx seed as bench/seed/run.sh measures it: basic t2m:K, the latest
#           run's default time, area -20,35,20,60, zooms 0-9, the stand-in's
#           image cache off (every GetMap rendered);
#   storms  seawx storms --kinds cone,danger_area,wind_swath on the synthetic
#           archive, as bench/storms/danger.sh (read from a file: the stand-in
#           is started but not asked);
#   fleet   seawx fleet on bench/fleet's generated fleet (fleet.py), SHIPS ships,
#           20 ms of latency added by the stand-in, as bench/fleet/run.sh.
# Wall time and CPU time (user + system of seawx, GNU time) of each run; the
# report gives each measure's median per build and the ratio new / old, marks a
# ratio over 1.05, and checks that both builds' outputs hold the same tiles
# (fleet folders and seeds, via sqlite) and the same storm features. Writes
# bench/refactor/last-perf.md (PERF_OUT overrides) and prints it.
#   ROUNDS      rounds (default 5)
#   SHIPS       ships in the fleet (default 20)
#   LATENCY_MS  the stand-in's added latency for the fleet (default 20)
#   BBOX, ZOOMS the seed's area and zooms (default -20,35,20,60 and 0-9)
#   NOW         the stand-ins' clock and the fleet's --now (default
#               2026-03-02T23:00:00Z: every ship of fleet.py has left by then,
#               so that trees from before packages started at departure (they
#               also packed the valid times a ship spent in port) build the
#               same tiles as later ones; bench/fleet's 11:00 would not)
# Exit 0 when every run succeeded and the outputs agree, whatever the ratios;
# 1 when a run failed or the two builds' outputs differ; 2 on bad use.
set -euo pipefail
[ $# -eq 2 ] || {
  echo "usage: $0 OLD_BUILD NEW_BUILD" >&2
  exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
declare -A BUILD
BUILD[old]=$(cd "$1" && pwd)
BUILD[new]=$(cd "$2" && pwd)
for b in old new; do
  for p in samples/seawx-sim tilecli/seawx; do
    [ -x "${BUILD[$b]}/$p" ] || {
      echo "perf.sh: ${BUILD[$b]}/$p is missing; build seawx and seawx-sim first" >&2
      exit 2
    }
  done
done
[ -x /usr/bin/time ] || {
  echo "perf.sh: GNU time is needed (bash bench/storms/install-peers.sh)" >&2
  exit 2
}
CMDLINE="bench/refactor/perf.sh $*"
for v in NOW ZOOMS BBOX LATENCY_MS SHIPS ROUNDS; do
  [ -z "${!v+x}" ] || CMDLINE="$v=${!v} $CMDLINE"
done
ROUNDS=${ROUNDS:-5}
SHIPS=${SHIPS:-20}
LATENCY_MS=${LATENCY_MS:-20}
BBOX=${BBOX:--20,35,20,60}
ZOOMS=${ZOOMS:-0-9}
NOW=${NOW:-2026-03-02T23:00:00Z}
OUT=${PERF_OUT:-$here/last-perf.md}
KEY="perf-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
START=$(date +%s)
STARTED=$(date -u +%Y-%m-%dT%H:%MZ)
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

W=$(mktemp -d /tmp/seawx-perf.XXXXXX)
SIM_PID=
cleanup() {
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
  [ "${PERF_KEEP:-0}" = 1 ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
log() { echo "perf.sh: $*" >&2; }

# sim_up BUILD [options]: a fresh seawx-sim of that build on a free loopback port.
sim_up() {
  local b=$1
  shift
  rm -f "$W/port"
  "${BUILD[$b]}/samples/seawx-sim" --host 127.0.0.1 --port 0 --port-file "$W/port" --key "$KEY" \
    --now "$NOW" "$@" 2>>"$W/sim-$b.log" &
  SIM_PID=$!
  for _ in $(seq 400); do [ -s "$W/port" ] && break; sleep 0.025; done
  [ -s "$W/port" ] || {
    log "seawx-sim ($b) did not start"
    cat "$W/sim-$b.log" >&2
    exit 1
  }
  export SEAWX_BASE_URL=http://127.0.0.1:$(cat "$W/port") SEAWX_API_KEY=$KEY
  unset SEAWX_API_KEY_FILE SEAWX_WMS_AUTH SEAWX_WMS_PASSWORD SEAWX_CACHE_DIR
}
sim_down() {
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
  SIM_PID=
}

# digest PATH: one hash of the tiles of the MBTiles files at PATH (a file or a
# folder, searched below), each file by its path under PATH and its sorted
# (zoom, column, row, SHA-256 of the data); the order tiles were stored in,
# which threads decide, does not count.
digest() {
  python3 - "$1" <<'PY'
import hashlib, os, sqlite3, sys
top = sys.argv[1]
files = [top] if os.path.isfile(top) else sorted(
    os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs if f.endswith(".mbtiles"))
h = hashlib.sha256()
n = 0
for f in files:
    c = sqlite3.connect("file:%s?mode=ro" % f, uri=True)
    h.update(os.path.relpath(f, top).encode())
    for z, x, y, d in sorted(c.execute("select zoom_level, tile_column, tile_row, tile_data from tiles")):
        h.update(repr((z, x, y, hashlib.sha256(d).hexdigest())).encode())
        n += 1
    c.close()
print("%s %d %d" % (h.hexdigest()[:16], len(files), n))
PY
}

# The inputs, made once and shared by both builds: the storm archive
# (bench/storms/archive.sh) and the fleet (bench/fleet/fleet.py).
(here=$root/bench/storms work=$W && . "$root/bench/storms/archive.sh" && build_archive)
log "storm archive: $(sed 's/^gen_archive: //' "$W/gen.log")"
mkdir -p "$W/fleet-in"
python3 "$root/bench/fleet/fleet.py" "$W/fleet-in" "$SHIPS"
late=$(python3 -c 'import json, sys
print(sum(s["depart"] > sys.argv[2] for s in json.load(open(sys.argv[1]))["ships"]))' \
  "$W/fleet-in/fleet.json" "$NOW")
[ "$late" = 0 ] || log "$late ships depart after $NOW: builds that differ on valid times before departure will differ"

# The seed's layer and time, as bench/seed/run.sh picks them: each build asks
# its own stand-in, and both must agree.
declare -A LT
for b in old new; do
  sim_up "$b" --cache-mb 0
  LT[$b]=$("${BUILD[$b]}/tilecli/seawx" layers -b basic -v t2m:K --latest --json |
    python3 -c "import json,sys; l=json.load(sys.stdin)[0]; print(l['name'], l['default_time'])")
  sim_down
done
[ -n "${LT[new]}" ] && [ "${LT[old]}" = "${LT[new]}" ] || {
  log "the builds disagree on the seed's layer and time: '${LT[old]}' and '${LT[new]}'"
  exit 1
}
read -r LAYER TIME <<<"${LT[new]}"
log "seed: $LAYER at $TIME, area $BBOX, zooms $ZOOMS; fleet: $SHIPS ships, ${LATENCY_MS} ms latency"

# run_one ROUND MEASURE BUILD: one timed run, a row of results.tsv
# (round, measure, build, wall s, cpu s, exit, output digest).
run_one() {
  local r=$1 m=$2 b=$3 cli=${BUILD[$3]}/tilecli/seawx out sim_opts=() cmd=()
  out=$W/$m-$b-$r
  case $m in
  seed)
    sim_opts=(--cache-mb 0)
    cmd=("$cli" seed -b basic --layer "$LAYER" --time "$TIME" --bbox "$BBOX" -z "$ZOOMS" -q
      -o "$out.mbtiles")
    ;;
  storms)
    cmd=("$cli" storms -q --input "$W/archive.json" --kinds cone,danger_area,wind_swath
      -o "$out.geojson")
    ;;
  fleet)
    sim_opts=(--latency "$LATENCY_MS")
    cmd=("$cli" fleet --now "$NOW" -q "$W/fleet-in/fleet.json" -o "$out")
    ;;
  esac
  sim_up "$b" "${sim_opts[@]}"
  local rc=0
  /usr/bin/time -f '%e %U %S' -o "$W/time" "${cmd[@]}" >"$W/$m-$b-$r.out" 2>"$W/$m-$b-$r.err" || rc=$?
  sim_down
  local wall cpu dig
  # GNU time's last line (a line before it says a non-zero exit).
  read -r wall cpu < <(tail -n 1 "$W/time" | awk '{ printf "%s %.2f\n", $1, $2 + $3 }')
  if [ "$rc" != 0 ]; then
    log "round $r, $m, $b: exit $rc"
    tail -n 5 "$W/$m-$b-$r.err" >&2
    dig=failed
  else
    case $m in
    storms) dig="$(sha256sum <"$out.geojson" | cut -c1-16) 1 $(grep -o '"kind": *"[a-z_]*"' "$out.geojson" | wc -l)" ;;
    seed) dig=$(digest "$out.mbtiles" 2>/dev/null || echo unreadable) ;;
    fleet) dig=$(digest "$out" 2>/dev/null || echo unreadable) ;;
    esac
  fi
  rm -rf "$out" "$out.mbtiles" "$out.geojson"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$m" "$b" "$wall" "$cpu" "$rc" "$dig" >>"$W/results.tsv"
  log "round $r/$ROUNDS, $m, $b: ${wall} s wall, ${cpu} s CPU, exit $rc, output $dig"
}

: >"$W/results.tsv"
for r in $(seq "$ROUNDS"); do
  order=(old new)
  [ $((r % 2)) -eq 0 ] && order=(new old)
  for m in seed storms fleet; do
    for b in "${order[@]}"; do run_one "$r" "$m" "$b"; done
  done
done

LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
ELAPSED=$(($(date +%s) - START))
status=0
python3 - "$W/results.tsv" >"$W/report.md" <<PY || status=$?
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
old, new = "${BUILD[old]}", "${BUILD[new]}"
print("# seawx before and after a refactoring: speed, $STARTED")
print()
print("\`$CMDLINE\`")
print()
print("- old: \`%s\`, new: \`%s\` (each with its own seawx-sim)" % (old, new))
print("- machine: $(nproc) cores; load average before: $LOAD_BEFORE, after: $LOAD_AFTER;"
      " the script took $ELAPSED s")
print("- $ROUNDS rounds, builds in A B B A order; stand-ins on 127.0.0.1 with --now $NOW")
print("- seed: \`seawx seed -b basic --layer $LAYER --time $TIME --bbox $BBOX -z $ZOOMS\`,"
      " seawx-sim --cache-mb 0")
print("- storms: \`seawx storms --input archive.json --kinds cone,danger_area,wind_swath\`,"
      " the synthetic archive of bench/storms ($(sed 's/^gen_archive: //' "$W/gen.log"))")
print("- fleet: \`seawx fleet --now $NOW fleet.json -o DIR\`, bench/fleet/fleet.py's fleet of"
      " $SHIPS ships, seawx-sim --latency $LATENCY_MS")
print()
print("Medians of the rounds; CPU is user + system of seawx. \"per round\" is the median of"
      " each round's own new / old, which a drift of the load between rounds moves less.")
print()
print("| measure | old median | new median | new / old | per round | rounds (old / new) |")
print("|---|---|---|---|---|---|")
over = []
bad = []
for m in ("seed", "storms", "fleet"):
    for col, unit, name in ((3, "s", "wall"), (4, "s", "CPU")):
        v = {b: {int(r[0]): float(r[col]) for r in rows if r[1] == m and r[2] == b and r[5] == "0"}
             for b in ("old", "new")}
        if not v["old"] or not v["new"]:
            print("| %s %s | - | - | - | - | failed |" % (m, name))
            continue
        mo, mn = statistics.median(v["old"].values()), statistics.median(v["new"].values())
        ratio = mn / mo if mo else float("nan")
        pr = [v["new"][k] / v["old"][k] for k in v["old"] if k in v["new"] and v["old"][k]]
        per = statistics.median(pr) if pr else float("nan")
        mark = " **over 1.05**" if ratio > 1.05 else ""
        if mark:
            over.append("%s %s" % (m, name))
        print("| %s %s | %.2f %s | %.2f %s | %.3f%s | %.3f | %s / %s |" % (
            m, name, mo, unit, mn, unit, ratio, mark, per,
            " ".join("%.2f" % v["old"][k] for k in sorted(v["old"])),
            " ".join("%.2f" % v["new"][k] for k in sorted(v["new"]))))
print()
for m, what in (("seed", "tiles"), ("storms", "features"), ("fleet", "tiles")):
    ds = {}
    for r in rows:
        if r[1] == m:
            ds.setdefault(r[2], set()).add(r[6])
    fails = sum(1 for r in rows if r[1] == m and r[5] != "0")
    same = ds.get("old") == ds.get("new") and len(ds.get("old", ())) == 1 and not fails
    if not same:
        bad.append(m)
    d = sorted(ds.get("new", {"?"}))[0].split()
    desc = ("%s %s" % (d[2], what) if m == "storms" else "%s file%s, %s %s" % (d[1], "" if d[1] == "1" else "s", d[2], what)) if len(d) == 3 else d[0]
    print("- %s outputs: %s (%s; digest of %s)" % (
        m, "the same in every run of both builds" if same else
        "**DIFFER** (old %s, new %s, %d failed runs)" % (sorted(ds.get("old", ())), sorted(ds.get("new", ())), fails),
        desc, "sorted tiles via sqlite" if what == "tiles" else "the GeoJSON bytes"))
print()
print("Verdict: %s." % ("every ratio within 1.05" if not over else "over 1.05: " + ", ".join(over)))
sys.exit(1 if bad else 0)
PY
cp "$W/report.md" "$OUT"
cat "$OUT"
exit $status
