#!/usr/bin/env bash
# make_archive.sh: writes the synthetic storm archive seawx-sim serves (about
# 3,500 storms and 150,000 positions of seasons 1990-2022, with wind radii from
# 2004, plus the five edge-case storms) as one /storm/json answer, about 40 MiB:
#   samples/storms/make_archive.sh > archive.json
# The archive is built in code (samples/sim/storm_data.c) and is deterministic,
# so it is generated, not stored. edge_storms.json and edge_storms.kml beside
# this script are what seawx-sim answers for the five edge cases
# (/storm/json?status=all&limit=5 and the KML inside /storm/kmz).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c11 -D_DEFAULT_SOURCE -I"$root/samples/sim" "$root/bench/storms/gen_archive.c" \
  "$root/samples/sim/storm_data.c" "$root/samples/sim/buf.c" "$root/samples/sim/timestamp.c" \
  -lm -o "$tmp/gen_archive"
"$tmp/gen_archive"
