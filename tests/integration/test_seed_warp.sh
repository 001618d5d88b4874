#!/usr/bin/env bash
# `seawx seed` of a layer that does not offer EPSG:3857 (the upper-air bundle):
# the seeder asks for EPSG:4326 and warps rows into Web Mercator. Sample tiles
# are checked against an EPSG:4326 GetMap resampled by seed_check.py's own code,
# exactly (the source height warp.h documents) and within a small difference
# (a source of another height, which a plain linear stretch must not match).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
chk="python3 $here/seed_check.py"
cd "$T" || exit 1

check "upper-air does not advertise EPSG:3857" sh -c "'$SEAWX_CLI' layers -b upper-air -v t850:K --latest --json |
  python3 -c \"import json,sys; l=json.load(sys.stdin)[0]; assert 'EPSG:3857' not in l['crs'] and 'EPSG:4326' in l['crs'], l['crs']\""
check "dry run says it warps" sh -c "'$SEAWX_CLI' seed -b upper-air -v t850:K --bbox -30,45,10,75 -z 0-5 -n \
  -o '$T/dry.mbtiles' | grep -q 'warped from EPSG:4326'"
check "upper-air seeds" sh -c "'$SEAWX_CLI' seed -b upper-air -v t850:K --bbox -30,45,10,75 -z 0-5 \
  -o '$T/ua.mbtiles' --summary-json '$T/ua.json' 2>'$T/ua.err'"
check "the tile count equals the tile math" $chk count "$T/ua.mbtiles" 0 5 -30 45 10 75
check "metadata, integrity, rollback journal" $chk meta "$T/ua.mbtiles"
check "only EPSG:4326 GetMaps were sent" sh -c "grep 'request=GetMap' '$T/access.log' | grep -qi 'crs=EPSG:4326' &&
  ! grep 'request=GetMap' '$T/access.log' | grep -qi 'crs=EPSG:3857'"
check "tiles equal the EPSG:4326 GetMap resampled independently (exact)" \
  $chk warp "$T/ua.mbtiles" "$SIM_URL" "$KEY" 0 5 exact
check "tiles are near a finer source and far from a linear stretch" \
  $chk warp "$T/ua.mbtiles" "$SIM_URL" "$KEY" 0 5 near

# Metatiles: one EPSG:4326 GetMap for 4x4 tiles, cut after warping.
check "upper-air seeds with 4x4 metatiles" sh -c "'$SEAWX_CLI' seed -b upper-air -v t850:K --bbox -30,45,10,75 \
  -z 0-5 -m 4 -q -o '$T/ua4.mbtiles'"
check "metatiles: the same tile set" $chk count "$T/ua4.mbtiles" 0 5 -30 45 10 75
check "metatiles: near a finer source, far from a linear stretch" \
  $chk warp "$T/ua4.mbtiles" "$SIM_URL" "$KEY" 0 5 near
check "the key is in no output" no_key_in "$T/ua.err" "$T/ua.json" "$T/ua.mbtiles" "$T/ua4.mbtiles"
finish
