#!/usr/bin/env bash
# `seawx seed` against a faulty seawx-sim: 429 with Retry-After, 5xx, dropped
# connections, truncated bodies and exceptions are retried; nothing broken is
# stored; the result equals a clean seed.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start --p429 0.1 --retry-after 1 --p5xx 0.1 --pdrop 0.05 --ptrunc 0.1 --pexception 0.05 --fault-seed 7
chk="python3 $here/seed_check.py"
cd "$T" || exit 1
check "seeds through faults" sh -c "'$SEAWX_CLI' seed -b basic -v t2m:K --bbox -10,40,5,55 -z 0-6 -m 2 \
  -o '$T/f.mbtiles' --summary-json '$T/f.json' 2>'$T/f.err'"
check "every tile stored" $chk count "$T/f.mbtiles" 0 6 -10 40 5 55
check "tiles equal GetMap of their bounds" $chk compare "$T/f.mbtiles" "$SIM_URL" "$KEY" 0 6
check "retries were needed" python3 -c "import json; s=json.load(open('$T/f.json')); assert s['retries']>0, s"
finish
