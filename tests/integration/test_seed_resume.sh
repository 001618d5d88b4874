#!/usr/bin/env bash
# `seawx seed` interrupted and resumed: SIGTERM mid-run, then the same command:
# the set is complete, integrity_check says ok, and no tile was fetched twice
# (per seawx-sim's access log). Then SIGKILL mid-run: the file is still valid and
# the next run completes it. Then faults: retries and broken answers.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start --latency 40
chk="python3 $here/seed_check.py"
cd "$T" || exit 1
args=(seed -b basic -v t2m:K --bbox -30,30,30,65 -z 0-7 -m 1 -j 4)

"$SEAWX_CLI" "${args[@]}" -o "$T/r.mbtiles" 2>"$T/r1.err" &
pid=$!
# Interrupted once 150 of its GetMaps were answered (observed, not timed).
check "SIGTERM lands mid-run (150 GetMaps answered)" progress_or_exit "$pid" 300 eval '[ "$(getmaps)" -ge 150 ]'
kill -TERM "$pid"
wait "$pid"
rc=$?
check "SIGTERM: exit 130" test "$rc" -eq 130
check "SIGTERM: says how to resume" grep -q 'run the same command again' "$T/r1.err"
check "interrupted file passes integrity_check" sh -c "test \"\$(sqlite3 '$T/r.mbtiles' 'PRAGMA integrity_check')\" = ok"
n1=$(sqlite3 "$T/r.mbtiles" 'select count(*) from map')
check "interrupted file holds some tiles, not all ($n1)" test "$n1" -gt 0 -a "$n1" -lt 1500
check "resume completes" sh -c "'$SEAWX_CLI' ${args[*]} -o '$T/r.mbtiles' --summary-json '$T/r2.json' 2>'$T/r2.err'"
check "resumed: the complete set" $chk count "$T/r.mbtiles" 0 7 -30 30 30 65
check "resumed: integrity_check ok, metadata" $chk meta "$T/r.mbtiles"
check "resumed: skipped what was there" python3 -c "import json; s=json.load(open('$T/r2.json')); assert s['already_present']==$n1, s"
check "no tile fetched twice" $chk dups "$T/access.log"

: >"$T/access.log"
"$SEAWX_CLI" "${args[@]}" -o "$T/k.mbtiles" 2>/dev/null &
pid=$!
check "SIGKILL lands mid-run (150 GetMaps answered)" progress_or_exit "$pid" 300 eval '[ "$(getmaps)" -ge 150 ]'
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "SIGKILL: the file is valid" sh -c "test \"\$(sqlite3 '$T/k.mbtiles' 'PRAGMA integrity_check')\" = ok"
check "SIGKILL: the next run completes it" sh -c "'$SEAWX_CLI' ${args[*]} -q -o '$T/k.mbtiles'"
check "SIGKILL: the complete set" $chk count "$T/k.mbtiles" 0 7 -30 30 30 65
check "SIGKILL: finished clean" $chk meta "$T/k.mbtiles"
finish
