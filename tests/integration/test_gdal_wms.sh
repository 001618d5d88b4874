#!/usr/bin/env bash
# GDAL's own WMS driver reads seawx-sim: proof that the stand-in speaks WMS as a
# real client understands it (capabilities into subdatasets, GetMap into pixels).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start --basic-password "pw-$KEY"
command -v gdalinfo >/dev/null || { echo "gdalinfo missing: run scripts/install-deps.sh"; exit 1; }
export GDAL_HTTP_TIMEOUT=60 CPL_VSIL_CURL_ALLOWED_EXTENSIONS= GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR

# The key goes as HTTP Basic credentials, so that it is in no URL GDAL prints.
export GDAL_HTTP_AUTH=BASIC GDAL_HTTP_USERPWD="$KEY:pw-$KEY"
# TRANSPARENT=TRUE makes GDAL ask for PNG with alpha (its default is 3-band JPEG).
url="WMS:$SIM_URL/ows/wms?product=sof-d&bundle=basic&TRANSPARENT=TRUE"
gdalinfo "$url" >"$T/info.txt" 2>"$T/info.err"
check "gdalinfo WMS: on the capabilities succeeds" test $? -eq 0
n=$(grep -c 'SUBDATASET_[0-9]*_NAME=' "$T/info.txt")
curl -sf --compressed -H "service-api-key: $KEY" \
  "$SIM_URL/ows/wms?service=WMS&request=GetCapabilities&product=sof-d&bundle=basic" -o "$T/caps.xml"
want=$(python3 "$here/caps_leaves.py" caps "$T/caps.xml" | wc -l)
check "GDAL lists subdatasets ($n of $want leaves)" test "$n" -ge "$want" -a "$want" -gt 20
# GDAL percent-encodes the layer names inside its subdataset names.
check "subdatasets name the service's layers" grep -q -i 'SUBDATASET_[0-9]*_NAME=WMS:.*sof-d%2F[0-9]\{8\}%2F[0-9][0-9]%2Ft2m' "$T/info.txt"

# Read one layer through GetMap.
sub=$(grep -m1 'SUBDATASET_[0-9]*_NAME=WMS:.*t2m' "$T/info.txt" | sed 's/^ *SUBDATASET_[0-9]*_NAME=//')
gdal_translate -q -of PNG -outsize 512 256 "$sub" "$T/t2m.png" 2>"$T/tr.err"
check "gdal_translate reads a layer through GetMap" test -s "$T/t2m.png"
gdalinfo -stats "$T/t2m.png" >"$T/png.txt" 2>/dev/null
check "the image has 4 bands" test "$(grep -c '^Band ' "$T/png.txt")" -eq 4
check "the image is not blank" sh -c "grep -A12 '^Band 1' '$T/png.txt' | grep -q 'STATISTICS_STDDEV=[1-9]'"
check "GDAL sent GetMap requests" grep -q -i 'request=GetMap' "$T/access.log"
check "the key is in no GDAL output" no_key_in "$T/info.txt" "$T/info.err" "$T/tr.err" "$T/access.log"
finish
