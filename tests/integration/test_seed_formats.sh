#!/usr/bin/env bash
# `seawx seed --format`: each encoding seeds, its MBTiles `format` row matches
# the tiles, GDAL's MBTiles driver opens png8, webp and jpeg files and decodes
# pixels close to the service's PNG (exact where the encoding is lossless),
# transparent pixels stay transparent; --viewer refuses what it cannot show
# before any request (the access log); a file begun in one encoding resumes in
# it and is never continued in another; jpeg refuses a layer with transparency.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
cd "$T" || exit 1
R=$SEAWX_RASTERCMP
meta() { sqlite3 "$1" "select value from metadata where name='$2'"; }
magic() { sqlite3 "$1" "select hex(substr(tile_data,1,4)) from tiles limit 1"; }

smooth=(seed -b basic -v t2m:K --bbox -10,45,10,60 -z 3-5 -q)
sea=(seed -b maritime -v swh:m --bbox -5,42,20,55 -z 4-6 -q)

for f in png png8 webp jpeg; do
  check "$f: seeds" "$SEAWX_CLI" "${smooth[@]}" --format "$f" -o "$T/t-$f.mbtiles" \
    --summary-json "$T/t-$f.json"
done
check "png8: webp lossy seeds" "$SEAWX_CLI" "${smooth[@]}" --format webp --quality 75 \
  -o "$T/t-webpq.mbtiles"
check "format rows: png, png, webp, jpg, webp" test \
  "$(meta t-png.mbtiles format) $(meta t-png8.mbtiles format) $(meta t-webp.mbtiles format) $(meta t-jpeg.mbtiles format) $(meta t-webpq.mbtiles format)" = "png png webp jpg webp"
check "tiles: PNG, PNG, RIFF, JPEG" test \
  "$(magic t-png8.mbtiles) $(magic t-webp.mbtiles) $(magic t-jpeg.mbtiles)" = "89504E47 52494646 FFD8FFE0"
check "scheme row for OpenCPN: tms" test "$(meta t-png8.mbtiles scheme)" = tms
check "png8 tiles are palette PNGs" test "$(sqlite3 t-png8.mbtiles "select count(*) from images where hex(substr(tile_data,26,1))<>'03'")" = 0
check "encoding rows" test "$(meta t-png8.mbtiles encoding)|$(meta t-webp.mbtiles encoding)|$(meta t-webpq.mbtiles encoding)|$(meta t-jpeg.mbtiles encoding)|$(meta t-png.mbtiles encoding)" = "png8|webp lossless|webp quality 75|jpeg quality 85|"
check "summary: bytes stored below bytes received" python3 -c "
import json; s=json.load(open('$T/t-png8.json'))
assert s['format']=='png8' and 0 < s['bytes_of_tiles_stored'] < s['bytes_of_tiles_received'], s"

# GDAL 3.6's MBTiles driver reads the files; pixels against the service's PNG.
for f in png png8 webp webpq jpeg; do
  gdal_translate -q "t-$f.mbtiles" "t-$f.tif" 2>"$T/gdal-$f.err"
done
check "GDAL: png8 equals the service's tiles within 38 dB" "$R" --psnr 38 t-png.tif t-png8.tif
check "GDAL: lossless webp decodes pixel-exact" "$R" --psnr 99 t-png.tif t-webp.tif
check "GDAL: lossy webp within 35 dB" "$R" --psnr 35 t-png.tif t-webpq.tif
check "GDAL: jpeg within 35 dB" "$R" --psnr 35 t-png.tif t-jpeg.tif

# Large transparent areas (land): transparent stays transparent.
check "sea layer: png seeds" "$SEAWX_CLI" "${sea[@]}" -o "$T/s-png.mbtiles"
check "sea layer: png8 seeds" "$SEAWX_CLI" "${sea[@]}" --format png8 -o "$T/s-png8.mbtiles"
check "sea layer: webp seeds" "$SEAWX_CLI" "${sea[@]}" --format webp -o "$T/s-webp.mbtiles"
gdal_translate -q s-png.mbtiles s-png.tif
gdal_translate -q s-png8.mbtiles s-png8.tif
gdal_translate -q s-webp.mbtiles s-webp.tif
check "sea layer: png8 tiles deduplicated (land tiles stored once)" test \
  "$(sqlite3 s-png8.mbtiles 'select count(*) from images')" -lt "$(sqlite3 s-png8.mbtiles 'select count(*) from map')"
check "sea layer: png8 keeps the service's distinct images apart, no more" test \
  "$(sqlite3 s-png8.mbtiles 'select count(*) from images')" -le "$(sqlite3 s-png.mbtiles 'select count(*) from images')"
check "sea layer: png8 close, land still transparent" "$R" --psnr 38 s-png.tif s-png8.tif
check "sea layer: webp exact, land still transparent" "$R" --psnr 99 s-png.tif s-webp.tif
"$SEAWX_CLI" "${sea[@]}" --format jpeg -o "$T/s-jpeg.mbtiles" 2>"$T/jpeg.err"
rc=$?
check "sea layer: jpeg refused (exit 2, one line)" test "$rc" -eq 2 -a "$(wc -l <"$T/jpeg.err")" -eq 1
check "sea layer: jpeg says why" grep -q 'JPEG has no transparency' "$T/jpeg.err"
check "sea layer: no jpeg file left" test ! -e "$T/s-jpeg.mbtiles"

# --viewer: refused before any request.
: >"$T/access.log"
"$SEAWX_CLI" "${smooth[@]}" --viewer opencpn --format webp -o "$T/v.mbtiles" 2>"$T/v.err"
rc=$?
check "opencpn + webp: exit 2" test "$rc" -eq 2
check "opencpn + webp: one line saying why" sh -c "test \$(wc -l <'$T/v.err') -eq 1 && grep -q 'OpenCPN decodes PNG and JPEG' '$T/v.err'"
check "opencpn + webp: no request at all" test ! -s "$T/access.log"
"$SEAWX_CLI" "${smooth[@]}" --viewer qgis --format webp -o "$T/v.mbtiles" 2>/dev/null
check "qgis + webp: exit 2" test $? -eq 2
"$SEAWX_CLI" "${smooth[@]}" --format png8 --quality 50 -o "$T/v.mbtiles" 2>/dev/null
check "png8 + --quality: exit 2" test $? -eq 2
"$SEAWX_CLI" "${smooth[@]}" --format gif -o "$T/v.mbtiles" 2>/dev/null
check "--format gif: exit 2" test $? -eq 2
check "nothing was requested" test ! -s "$T/access.log"
check "opencpn alone: png8" "$SEAWX_CLI" "${smooth[@]}" --viewer opencpn -o "$T/v-o.mbtiles"
check "opencpn alone: png8 file" test "$(meta v-o.mbtiles encoding)" = png8
check "maplibre + webp: seeds" "$SEAWX_CLI" "${smooth[@]}" --viewer maplibre --format webp \
  -o "$T/v-m.mbtiles"
check "dry run: the estimate names the encoding" sh -c "'$SEAWX_CLI' ${smooth[*]} --format png8 -n | grep -q 'as png8'"

# Resume in the same encoding; another encoding is refused before any GetMap.
: >"$T/access.log"
check "png8 resumed with zoom 6 added" "$SEAWX_CLI" seed -b basic -v t2m:K --bbox -10,45,10,60 \
  -z 3-6 -q --format png8 -o "$T/t-png8.mbtiles" --summary-json "$T/r.json"
check "resumed: only zoom 6 fetched" python3 -c "
import json; s=json.load(open('$T/r.json'))
assert s['already_present'] == $(sqlite3 t-png.mbtiles 'select count(*) from map') and s['stored'] == $(getmaps), s"
: >"$T/access.log"
"$SEAWX_CLI" "${smooth[@]}" --format webp -o "$T/t-png.mbtiles" 2>"$T/c.err"
check "png file continued as webp: refused" test $? -ne 0
check "png file continued as webp: says encoding" grep -q "encoding" "$T/c.err"
"$SEAWX_CLI" "${smooth[@]}" -o "$T/t-png8.mbtiles" 2>"$T/c2.err"
check "png8 file continued as png: refused" test $? -ne 0
"$SEAWX_CLI" "${smooth[@]}" --format webp --quality 60 -o "$T/t-webp.mbtiles" 2>/dev/null
check "lossless webp file continued as lossy: refused" test $? -ne 0
check "refused runs fetched no map" test "$(getmaps)" = 0
check "png file untouched" test "$(sqlite3 t-png.mbtiles 'select count(*) from map')" -gt 0
check "no key in output" no_key_in "$T"/*.err
finish
