#!/usr/bin/env bash
# One SIGINT or SIGTERM to each long command (seed, voyage, fleet, grib, plan,
# storms, soil download, merge) mid-fetch, against one stand-in slowed by its
# --latency and --storage-rate: exit 130 within a second of the signal, the
# documented leftovers, and the same command again gives the bytes of an
# uninterrupted run (signals_check.py). Each signal follows observed
# progress, never a fixed time.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
SIM_NOW=2026-03-02T11:00:00Z
cd "$T" || exit 1
mkdir files
cp "$SEAWX_BUILD_DIR"/samples/files/* files/
head -c $((2 << 20)) /dev/urandom >files/soil-moisture.nc # what the storage host serves
export SEAWX_SIM_FILES_DIR=$T/files
export SIM_NOW
# Answers slower than the second allowed: what the first signal leaves under
# way must be cancelled in time (seed, voyage, fleet).
sim_start --latency 1500
check "seed, voyage, fleet: one signal each, exit 130 within a second" \
  python3 "$here/signals_check.py" "$T" slow
kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
rm -f "$T/port"
sim_start --latency 100 --storage-rate 1024
check "grib, plan, storms, soil, merge: one signal each, exit 130 within a second" \
  python3 "$here/signals_check.py" "$T" fast
check "no key in what was printed" no_key_in "$T"/*.err
finish
