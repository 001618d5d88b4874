#!/usr/bin/env bash
# Fleets (`seawx fleet`) against seawx-sim on a fixed clock: six ships on two
# lanes (one across 180), their routes as files, inline GeoJSON and inline
# CSV, one with two layers, one in png8. The dry run's shared count is what
# the run sends, and the stand-in's access log shows no GetMap twice; every
# ship's package holds the same files and tiles as its own `seawx voyage`
# run (sqlite queries); building again fetches nothing; an interrupted run
# keeps what it fetched and the same command continues, asking nothing twice;
# shards deal every ship to exactly one shard, ships of a lane together; bad
# fleet files are refused before any GetMap with one line, leaving nothing
# behind.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
NOW=2026-03-02T11:00:00Z
sim_start --now "$NOW"
F=$SEAWX_FIXTURES/fleet
FLEET=$F/six.json
cd "$T" || exit 1
S=("$SEAWX_CLI" fleet --now "$NOW" -q)

# 1. The dry run: per ship and shared, no GetMap.
check "dry run counts each ship alone and the fleet shared" sh -c "'${S[0]}' fleet --now $NOW -n '$FLEET' \
  >'$T/dry.out' && grep -q '^a1 ' '$T/dry.out' && grep -q '^b3 ' '$T/dry.out' &&
  grep -q '^getmaps, the fleet shared: ' '$T/dry.out' && [ ! -e '$T/fleet' ]"
check "no GetMap for a dry run" test "$(getmaps)" -eq 0
# A fleet file saved with a UTF-8 byte order mark reads as the same fleet.
mkdir "$T/bom" && cp "$F"/lane_?.csv "$T/bom/" && { printf '\xef\xbb\xbf'; cat "$FLEET"; } >"$T/bom/six.json"
check "a fleet file with a byte order mark: the same dry run" sh -c "'${S[0]}' fleet --now $NOW -n '$T/bom/six.json' >'$T/bom.out' && cmp -s '$T/bom.out' '$T/dry.out'"
alone=$(awk -F': ' '/^getmaps, each ship alone/ {print $2}' "$T/dry.out")
shared=$(awk '/^getmaps, the fleet shared/ {print $5}' "$T/dry.out")
echo "# GetMaps: each ship alone $alone, the fleet shared $shared"
check "the fleet shares at most half of the ships' GetMaps" test $((shared * 2)) -le "$alone"

# 2. The fleet: every distinct GetMap once.
check "fleet builds" "${S[@]}" "$FLEET" -o "$T/fleet"
check "  sending the dry run's shared count" test "$(getmaps)" -eq "$shared"
check "  no GetMap twice in the access log" sh -c "[ -z \"\$(grep 'request=GetMap' '$T/access.log' |
  awk '{print \$3}' | sed 's/&key=[^&]*//' | sort | uniq -d)\" ]"
check "  the shared answers removed once every package is complete" test ! -e "$T/fleet/.fleet-share"
check "  the key is in no file of the fleet" sh -c "! grep -r -q -F -- '$KEY' '$T/fleet'/.??*"

# 3. Each ship's package is its own `seawx voyage` run.
python3 - "$FLEET" >"$T/solo.txt" <<'PY' || exit 1
import json, sys
f = json.load(open(sys.argv[1]))
for s in f["ships"]:
    layers = s.get("layers", f["layers"])
    route = s["route"] if isinstance(s.get("route"), str) else "@" + s["name"]
    print("\t".join([s["name"], route, s["depart"], str(s["speed"]),
                     str(s.get("buffer_nm", 10)), " ".join(layers)]))
    if route.startswith("@"):
        with open(route[1:] + ".route", "w") as o:
            if "route_csv" in s:
                o.write(s["route_csv"])
            else:
                json.dump(s["route"], o)
PY
mkdir -p "$T/solo"
before=$(getmaps)
while IFS=$'\t' read -r name route depart speed buffer layers; do
  case $route in @*) route=$T/${route#@}.route ;; *) route=$F/$route ;; esac
  largs=()
  for l in $layers; do largs+=(--layer "$l"); done
  check "$name alone: seawx voyage builds" "$SEAWX_CLI" voyage -b maritime --route "$route" \
    --depart "$depart" --speed "$speed" --buffer "$buffer" "${largs[@]}" -z 3-4 --format png \
    --now "$NOW" -q -o "$T/solo/$name" </dev/null
done <"$T/solo.txt"
echo "# GetMaps of the six ships alone: $(($(getmaps) - before)) (dry run: $alone)"
check "the ships alone send what the dry run counted" test $(($(getmaps) - before)) -eq "$alone"
check "every ship's package: the same files, tiles and manifest as its own run" python3 - "$T" <<'PY'
import glob, json, os, sqlite3, sys
t = sys.argv[1]
def tiles(path):
    c = sqlite3.connect(path)
    r = sorted(c.execute("select zoom_level, tile_column, tile_row, hex(tile_data) from tiles"))
    c.close()
    return r
def manifest(d):
    m = json.load(open(os.path.join(d, "manifest.json")))
    # Bytes and SHA-256 of an MBTiles file follow the order its tiles came in.
    for f in m["files"]:
        f.pop("bytes"); f.pop("sha256")
    return m
bad = []
for d in sorted(glob.glob(t + "/solo/*")):
    name = os.path.basename(d)
    a, b = os.path.join(t, "fleet", name), d
    fa, fb = sorted(os.listdir(a)), sorted(os.listdir(b))
    if fa != fb:
        bad.append("%s: files %s" % (name, set(fa) ^ set(fb)))
        continue
    for f in fa:
        if f.endswith(".mbtiles") and tiles(os.path.join(a, f)) != tiles(os.path.join(b, f)):
            bad.append("%s: tiles of %s" % (name, f))
        elif f in ("route.geojson", "project.qgs") and open(os.path.join(a, f)).read() != \
                open(os.path.join(b, f)).read().replace("/solo/" + name, "/fleet/" + name):
            bad.append("%s: %s" % (name, f))
    if manifest(a) != manifest(b):
        bad.append("%s: manifest" % name)
assert len(glob.glob(t + "/solo/*")) == 6 and not bad, bad
PY

# 4. Building again: every file is kept, nothing fetched.
before=$(getmaps)
check "building the fleet again" "${S[@]}" "$FLEET" -o "$T/fleet"
check "  fetches nothing (every file kept from the version before)" test "$(getmaps)" -eq "$before"
check "  and swaps every package to its second version" sh -c "for s in a1 a2 a3 b1 b2 b3; do
  [ \"\$(readlink '$T/fleet/'\$s)\" = .\$s.v2 ] || exit 1; done"

# Interrupted (SIGINT): the share kept; the same command continues, asking nothing twice.
g0=$(getmaps)
"${S[@]}" -j 2 "$FLEET" -o "$T/int" 2>"$T/int.err" &
int_pid=$!
progress_or_exit "$int_pid" 300 eval '[ "$(ls "$T"/int/.a1.v1.part/*.mbtiles 2>/dev/null | wc -l)" -ge 4 ]'
kill -INT "$int_pid"
wait "$int_pid"
int_rc=$?
check "interrupted: exit 130, the share kept, no ship's package made" sh -c "[ $int_rc -eq 130 ] &&
  [ -d '$T/int/.fleet-share' ] && [ ! -e '$T/int/a1' ] && grep -q 'run the same command again' '$T/int.err'"
g1=$(getmaps)
# -q keeps the summary (its help says so), and the summary counts the GetMaps
# the interrupted run sent (the access log's), not 0.
sent=$(sed -n 's/.*tiles; \([0-9]*\) GetMaps sent.*/\1/p' "$T/int.err")
check "interrupted, -q: the summary counts the GetMaps sent (${sent:-none} of $((g1 - g0)))" \
  test "${sent:-x}" = $((g1 - g0)) -a $((g1 - g0)) -gt 0
check "the same command continues" "${S[@]}" "$FLEET" -o "$T/int"
check "  fetching only what the interrupted run had not" test $(($(getmaps) - g0)) -eq "$shared"
check "  and no GetMap of either run twice" sh -c "[ -z \"\$(grep 'request=GetMap' '$T/access.log' |
  tail -n $(($(getmaps) - g0)) | awk '{print \$3}' | sort | uniq -d)\" ] && [ $g1 -gt $g0 ]"

# Two fleets on one folder at once: the second is refused with one line.
"${S[@]}" -j 2 "$FLEET" -o "$T/twice" 2>"$T/twice1.err" &
tw_pid=$!
check "two fleets: the first is under way" progress_or_exit "$tw_pid" 300 \
  eval '[ -n "$(ls "$T"/twice/.a1.v1.part/*.mbtiles 2>/dev/null)" ]'
"${S[@]}" "$FLEET" -o "$T/twice" 2>"$T/twice2.err"
tw_rc=$?
check "  the second is refused: exit 8, one line" sh -c "[ $tw_rc -eq 8 ] && [ \$(wc -l <'$T/twice2.err') -eq 1 ] &&
  grep -q 'is being built by another run right now' '$T/twice2.err'" || cat "$T/twice2.err"
wait "$tw_pid"
check "  the first completes every ship, its locks let go" sh -c "[ $? -eq 0 ] &&
  for s in a1 a2 a3 b1 b2 b3; do [ -L '$T/twice/'\$s ] || exit 1; done &&
  [ -z \"\$(find '$T' -maxdepth 2 -name '*.lock')\" ]"

# 5. Shards by ship: every ship in exactly one shard, the same deal in each;
# ships that share maps dealt together.
for k in 1 2 3; do "${S[@]}" -n --shard $k/3 "$FLEET" | awk 'NF == 5 && $2 ~ /^[0-9]+$/ {print $1}' >"$T/shard$k"; done
check "shards 1-3 of 3 deal each ship to exactly one" sh -c "cat '$T'/shard? | sort | uniq -u | wc -l |
  grep -qx 6 && [ \"\$(cat '$T'/shard? | wc -l)\" = 6 ] && [ -s '$T/shard1' ] && [ -s '$T/shard3' ]"

two=0
for k in 1 2; do
  two=$((two + $("${S[@]}" -n --shard $k/2 "$FLEET" | awk '/^getmaps, the fleet shared/ {print $5}')))
done
check "2 shards keep each lane together: they share as much as one run ($two GetMaps)" test "$two" -eq "$shared"

# 6. Bad fleet files: one line, no GetMap, nothing left behind.
bad() { # NAME EXIT-CODE PATTERN JSON
  printf '%s' "$4" >"$T/bad.json"
  local g0 rc
  g0=$(getmaps)
  "${S[@]}" "$T/bad.json" -o "$T/badout" 2>"$T/bad.err"
  rc=$?
  check "refused: $1 (exit $2, one line, no GetMap, nothing written)" sh -c "[ $rc -eq $2 ] &&
    [ \$(wc -l <'$T/bad.err') -eq 1 ] && grep -q -- '$3' '$T/bad.err' && [ ! -e '$T/badout' ] &&
    [ $(getmaps) -eq $g0 ]" || cat "$T/bad.err"
}
ok_ship='"name": "x", "route": "'$F'/lane_a.csv", "depart": "2026-03-02T11:00:00Z"'
bad "not JSON" 2 'not valid JSON' '{"bundle": "maritime", "ships": ['
bad "no ships" 2 'ships must be an array' '{"bundle": "maritime", "layers": ["swh"]}'
bad "a misspelt field" 2 "ship 1 (x): unknown field .sped." '{"bundle": "maritime", "layers": ["swh"], "ships": [{'"$ok_ship"', "sped": 7}]}'
bad "a name that is a path" 2 'ship 1: name must be' '{"bundle": "maritime", "layers": ["swh"], "ships": [{"name": "../x", "route_csv": "lat,lon\n1,2\n3,4\n"}]}'
bad "a name twice" 2 "ship 2 (x): the name is ship 1.s too" '{"bundle": "maritime", "layers": ["swh"], "ships": [{'"$ok_ship"', "speed": 7}, {'"$ok_ship"', "speed": 8}]}'
bad "a bad speed" 2 'ship 1 (x): speed' '{"bundle": "maritime", "layers": ["swh"], "ships": [{'"$ok_ship"', "speed": "fast"}]}'
bad "a bad layer" 2 'ship 1 (x): layers\[0\]' '{"bundle": "maritime", "layers": ["swh:zoom=40"], "ships": [{'"$ok_ship"', "speed": 7}]}'
bad "a missing route file" 8 'ship 1 (y): route: cannot read' '{"bundle": "maritime", "layers": ["swh"], "ships": [{"name": "y", "route": "nowhere.csv", "depart": "2026-03-02T11:00:00Z", "speed": 7}]}'
bad "an unknown variable" 5 'ship 1 (x)' '{"bundle": "maritime", "layers": ["nosuchvar"], "ships": [{'"$ok_ship"', "speed": 7}]}'
bad "a voyage before every valid time" 5 'ship 2 (z)' '{"bundle": "maritime", "layers": ["swh"], "ships": [{'"$ok_ship"', "speed": 7}, {"name": "z", "route": "'$F'/lane_a.csv", "depart": "2020-01-01T00:00:00Z", "speed": 7}]}'
# The documented limits plus one: user input, so exit 2 (not 7, which says the
# service answered with something unusable).
ships10001=$(python3 -c "print(','.join('{\"name\": \"s%d\", \"route_csv\": \"lat,lon\\\\n1,2\\\\n3,4\\\\n\", \"speed\": 7}' % i for i in range(10001)))")
bad "10,001 ships" 2 'at most 10000 ships in a fleet, not 10001' '{"bundle": "maritime", "layers": ["swh"], "ships": ['"$ships10001"']}'
python3 -c "import sys; sys.stdout.write('{\"bundle\": \"maritime\", \"layers\": [\"swh\"], \"x\": \"' + 'a' * (16 << 20) + '\"}')" >"$T/big.json"
"${S[@]}" "$T/big.json" -o "$T/badout" 2>"$T/big.err"
rc=$?
check "refused: a fleet file over 16 MiB (exit 2, one line)" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/big.err') -eq 1 ] &&
  grep -q 'larger than 16 MiB' '$T/big.err' && [ ! -e '$T/badout' ]" || cat "$T/big.err"
finish
