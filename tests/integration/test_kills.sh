#!/usr/bin/env bash
# SIGKILL at random moments of observed progress, twenty times, then the same
# command to the end. A kill lands when the run has made a random amount of
# progress that this test watches (GetMaps answered in seawx-sim's access log,
# bytes in the download's .part), never after a fixed time, so that the kills
# land mid-work however busy the machine is; one run in eight is killed at
# once after it starts (the start phase).
#  a. `seawx seed` of 4349 tiles, killed after 1 to 299 of its GetMaps were
#     answered (seawx-sim answers after 100 ms), or at once: the kills land in
#     the start, the first requests, or mid-fetch with commits behind them,
#     and the seed is not over before the twentieth: after each kill a copy of
#     the file (with its -journal) passes integrity_check; the final file is
#     complete, passes integrity_check, has no side file, and holds exactly
#     the tiles and metadata of an uninterrupted run (no row may differ: the
#     metadata come from the command and the capabilities alone).
#  b. `seawx soil download` of an 8 MiB file that the storage host sends at
#     1 MiB/s, killed after its .part grew by 16 to 400 KiB, or at once: every
#     run after the first asks for the rest with a Range and gets 206, the
#     final file is byte-identical to the service's, no .part is left, and the
#     bytes sent in all are the file plus little more.
# The progress targets come from bash's RANDOM seeded with KILL_SEED (printed).
# Each part reports how many kills landed mid-work, and asserts most did.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
chk="python3 $here/soak_check.py"
NOW=2024-10-01T06:30:00Z
KILL_SEED=${KILL_SEED:-$$}
RANDOM=$KILL_SEED
KILLS=20
cd "$T" || exit 1
echo "# kill seed $KILL_SEED (KILL_SEED=$KILL_SEED to repeat the moments)"

# ---- a. the seeder ----
sim_start --now "$NOW" --latency 100
ARGS=(seed -b basic -v t2m:K --bbox -20,35,20,60 -z 0-9 -q)
TILES=4349
# The uninterrupted run, with more requests in flight (the answers do not
# depend on it) so that it takes a few seconds despite the latency.
"$SEAWX_CLI" "${ARGS[@]}" -j 256 -o ref.mbtiles 2>ref.err
check "uninterrupted seed" test $? -eq 0
g0=$(grep -c 'request=GetMap' access.log)

# seawx-sim logs a request when its answer ends, up to the latency after a
# kill: before each run, and before counting, let the log settle.
settle() {
  local a b
  b=$(wc -l <access.log)
  while sleep 0.3; a=$b; b=$(wc -l <access.log); [ "$a" != "$b" ]; do :; done
}
kills=0 runs=0 mid=0 snaps_ok=1 moments="" before=0 withjournal=0
mkdir snap
while [ "$kills" -lt "$KILLS" ] && [ "$runs" -lt $((KILLS * 2)) ]; do
  settle
  g=$(getmaps)
  k=$((RANDOM % 8 == 0 ? 0 : 1 + RANDOM % 299)) # GetMaps answered before the kill
  "$SEAWX_CLI" "${ARGS[@]}" -o k.mbtiles 2>>k.err &
  pid=$!
  runs=$((runs + 1))
  [ "$k" -eq 0 ] || progress_or_exit "$pid" 300 eval '[ "$(getmaps)" -ge $((g + k)) ]'
  if kill -KILL "$pid" 2>/dev/null; then
    kills=$((kills + 1))
    wait "$pid" 2>/dev/null
    got=$(($(getmaps) - g))
    [ "$got" -gt 0 ] && mid=$((mid + 1))
    # What a resumed run finds: the file and its -journal as the kill left them,
    # inspected on a copy so that the check itself recovers nothing.
    rm -f snap/*
    cp k.mbtiles* snap/ 2>/dev/null
    if [ -e snap/k.mbtiles ]; then
      [ -e snap/k.mbtiles-journal ] && withjournal=$((withjournal + 1))
      ic=$(sqlite3 snap/k.mbtiles 'PRAGMA integrity_check' 2>&1)
      # Killed before its tables were committed, the file is an empty database.
      n=$(sqlite3 snap/k.mbtiles "SELECT CASE WHEN (SELECT count(*) FROM sqlite_master WHERE name = 'map')
                                  THEN (SELECT count(*) FROM map) ELSE 0 END" 2>&1)
    else
      ic=ok n=0
    fi
    [ "$ic" = ok ] || { snaps_ok=0; echo "  after kill $kills: integrity_check: $ic"; }
    moments="$moments $k/$got:$n"
    before=$n
  else
    wait "$pid"
    echo "  run $runs ended by itself before $k GetMaps (exit $?)"
  fi
done
echo "# seed kills (GetMaps aimed at/answered before the kill:tiles in the file after it):$moments"
echo "# $mid of $kills kills landed mid-fetch (GetMaps answered); $withjournal left a -journal to roll back"
check "twenty kills landed while the seeder ran ($kills of $runs runs)" test "$kills" -eq "$KILLS" -a "$runs" -eq "$KILLS"
check "most kills landed mid-fetch ($mid of $kills)" test "$mid" -ge $((KILLS / 2))
check "after every kill the file passes integrity_check" test "$snaps_ok" -eq 1
check "the kills left the seed unfinished ($before of $TILES tiles)" test "$before" -lt "$TILES"
settle
g1=$(grep -c 'request=GetMap' access.log)
"$SEAWX_CLI" "${ARGS[@]}" -o k.mbtiles --summary-json final.json 2>final.err
check "the same command completes it" test $? -eq 0
g2=$(grep -c 'request=GetMap' access.log)
echo "# GetMaps: uninterrupted $g0; killed runs $((g1 - g0)); final run $((g2 - g1)) ($(( g2 - g0 - TILES )) tiles fetched again)"
check "final run fetched only what was missing" python3 -c "
import json; s = json.load(open('final.json'))
assert s['already_present'] == $before and s['stored'] == $TILES - $before and s['requests'] == $((g2 - g1)), s"
check "identical to the uninterrupted run: tiles and every metadata row" $chk same ref.mbtiles k.mbtiles
check "as many distinct images as the uninterrupted run (none orphaned)" test \
  "$(sqlite3 k.mbtiles 'SELECT count(*) FROM images')" -eq "$(sqlite3 ref.mbtiles 'SELECT count(*) FROM images')"
check "every image a whole PNG under its SHA-256" $chk pngs k.mbtiles
check "integrity_check ok, rollback journal mode" test \
  "$(sqlite3 k.mbtiles 'PRAGMA integrity_check; PRAGMA journal_mode' | tr '\n' ' ')" = "ok delete "
check "no -wal, -shm or -journal file left" test -z "$(ls k.mbtiles-* 2>/dev/null)"

# ---- b. downloads ----
kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
rm -f port
mkdir files
cp "$SEAWX_BUILD_DIR"/samples/files/* files/
head -c $((8 << 20)) /dev/urandom >files/soil-moisture.nc # what the storage host serves
SIZE=$((8 << 20))
want=$(sha256sum <files/soil-moisture.nc)
export SEAWX_SIM_FILES_DIR=$T/files
sim_start --storage-rate 1024
NAME=soil-moisture.20240115.global.nc
storage() { grep "^GET 127\.0\.0\.2:[0-9]* /files/" access.log; }

kills=0 runs=0 grew=0 fresh=0 resumed=0 shrank=0 moments=""
: >access.log
while [ "$kills" -lt "$KILLS" ] && [ "$runs" -lt $((KILLS * 2)) ]; do
  s0=$(stat -c %s dl.nc.part 2>/dev/null || echo 0)
  k=$((RANDOM % 8 == 0 ? 0 : 16 + RANDOM % 385)) # KiB the .part grows by before the kill
  [ "$s0" -eq 0 ] && fresh=$((fresh + 1))
  "$SEAWX_CLI" soil download "$NAME" -o dl.nc -q 2>>dl.err &
  pid=$!
  runs=$((runs + 1))
  [ "$k" -eq 0 ] ||
    progress_or_exit "$pid" 300 eval '[ "$(stat -c %s dl.nc.part 2>/dev/null || echo 0)" -ge $((s0 + k * 1024)) ]'
  if kill -KILL "$pid" 2>/dev/null; then
    kills=$((kills + 1))
    wait "$pid" 2>/dev/null
  else
    wait "$pid"
    echo "  run $runs ended by itself before its .part grew by $k KiB (exit $?)"
  fi
  s1=$(stat -c %s dl.nc.part 2>/dev/null || echo 0)
  [ "$s1" -gt "$s0" ] && [ "$s1" -lt "$SIZE" ] && grew=$((grew + 1))
  [ "$s1" -gt "$s0" ] && [ "$s0" -gt 0 ] && resumed=$((resumed + 1))
  [ "$s1" -lt "$s0" ] && shrank=1
  moments="$moments ${k}K:$((s1 / 1024))K"
done
echo "# download kills (KiB aimed at:KiB in dl.nc.part after it):$moments"
echo "# $grew of $kills kills landed mid-download (the .part grew)"
check "twenty kills landed while downloading ($kills of $runs runs)" test "$kills" -eq "$KILLS" -a "$runs" -eq "$KILLS"
check "the partial file grew in most runs ($grew of $runs) and never shrank" test "$grew" -ge 10 -a "$shrank" -eq 0
"$SEAWX_CLI" soil download "$NAME" -o dl.nc 2>dl.final.err
check "the same command completes the download" test $? -eq 0
check "and says it resumed" grep -q "resumed after" dl.final.err
# Only a run that found no partial data may have been sent the whole file (200);
# every other storage answer is a 206 to a Range (the log is written when an
# answer ends, so its order need not follow the runs').
n200=$(storage | grep -c ' 200 ')
nother=$(storage | grep -v -c ' 20[06] ')
check "whole-file answers only to runs without partial data ($n200 <= $fresh), all others 206" \
  test "$n200" -le "$fresh" -a "$nother" -eq 0 -a "$(storage | grep -c ' 206 ')" -ge $((resumed + 1))
check "byte-identical to the service's file (sha256)" test "$(sha256sum <dl.nc)" = "$want"
check "no .part left" test ! -e dl.nc.part
sent=$(storage | awk '{ s += $5 } END { print s + 0 }')
answers=$(storage | awk '{ print $4 }' | sort | uniq -c | tr -s ' \n' ' ')
echo "# storage answers:$answers; bytes sent $sent for a file of $SIZE ($((sent - SIZE)) sent again)"
check "bytes sent in all under 1.5 times the file ($sent)" test "$sent" -lt $((SIZE * 3 / 2))

# A transfer longer than --timeout is not cut while data flows (the timeout
# bounds a stalled transfer): one request, no resume needed.
: >access.log
rm -f one.nc
"$SEAWX_CLI" soil download "$NAME" -o one.nc --timeout 2 --retries 0 -q 2>one.err
check "an 8 s download with --timeout 2 --retries 0 completes" test $? -eq 0 -a "$(sha256sum <one.nc)" = "$want"
check "in one storage request" test "$(storage | wc -l)" -eq 1
check "the key is in no output" no_key_in ./*.err
finish
