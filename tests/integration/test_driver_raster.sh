#!/usr/bin/env bash
# The GDAL plugin's raster side against seawx-sim: discovery, georeferencing,
# pixels equal to the service's own GetMap, parallel reads, the disk cache, and
# one clear error for each kind of bad input.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
export SEAWX_CACHE_DIR=$T/cache GDAL_PAM_ENABLED=NO
cmp=$SEAWX_RASTERCMP

check "gdalinfo --formats lists SEAWX" sh -c "gdalinfo --formats | grep -q 'SEAWX -raster,vector-'"
check "driver metadata: connection prefix, open options" sh -c \
  "gdalinfo --format SEAWX | grep -q 'Connection prefix: SEAWX:' && gdalinfo --format SEAWX | grep -q 'alt_config_option=.SEAWX_BASE_URL'"
# The help link: QGIS writes the help topic into its Options box as
# <a href="https://gdal.org/TOPIC">; parsed as Qt parses that label, the link
# must open seawx's README at its QGIS section, not a page of gdal.org.
help_link() {
  QT_QPA_PLATFORM=offscreen /usr/bin/python3 - "$(gdalinfo --format SEAWX | sed -n 's/^ *Help Topic: //p')" <<'PY'
import sys
from qgis.PyQt.QtGui import QGuiApplication, QTextDocument
app = QGuiApplication([])
d = QTextDocument()
d.setHtml('Consult <a href="https://gdal.org/%s">SEAWX driver help page</a> for detailed '
          'explanations on options' % sys.argv[1])
it = d.begin().begin()
while not it.atEnd():
    f = it.fragment()
    if f.charFormat().isAnchor():
        print(f.charFormat().anchorHref())
    it += 1
PY
}
link=$(help_link 2>/dev/null)
check "QGIS's help link opens seawx's README at its QGIS section ($link)" sh -c \
  "case '$link' in file://*/README.md#qgis) grep -q '^### QGIS' '$(echo "$link" | sed 's|^file://||; s|#qgis$||')' ;; *) false ;; esac"

# The open options come from the core's descriptions, by scope: the raster
# side (gdalinfo, QGIS's raster source) lists the WMS layers' and the service's
# options with the twelve bundles, the vector side the storms' and the service's.
gdalinfo --format SEAWX >"$T/format-raster.txt" 2>&1
ogrinfo --format SEAWX >"$T/format-vector.txt" 2>&1
check "raster open options: BUNDLE offers the twelve bundles" test "$(sed -n '/name="BUNDLE"/,/<\/Option>/p' "$T/format-raster.txt" | grep -c '<Value>')" -eq 12
check "raster open options: numbers and defaults as described" sh -c \
  "grep -q 'name=\"MAX_CONNECTIONS\" type=\"int\" default=\"32\"' '$T/format-raster.txt' && grep -q 'name=\"CACHE\" type=\"boolean\" default=\"YES\"' '$T/format-raster.txt' && grep -q 'name=\"TIMEOUT\" type=\"int\" default=\"120\"' '$T/format-raster.txt'"
check "raster open options list no storm or KMZ option" sh -c \
  "! grep -q -E 'name=\"(STATUS|CATEGORY|MAX_STORMS|PATH)\"' '$T/format-raster.txt'"
check "vector open options: the storms' and the service's, no WMS option" sh -c \
  "grep -q 'name=\"STATUS\"' '$T/format-vector.txt' && grep -q 'name=\"PATH\"' '$T/format-vector.txt' && grep -q 'name=\"RETRIES\"' '$T/format-vector.txt' && ! grep -q 'name=\"BUNDLE\"' '$T/format-vector.txt'"

# Discovery: bundles (no network needed), then the layers of one bundle.
env -u SEAWX_BASE_URL -u SEAWX_API_KEY gdalinfo SEAWX: >"$T/root.txt" 2>&1
check "SEAWX: lists the twelve bundles" test "$(grep -c 'SUBDATASET_[0-9]*_NAME=SEAWX:bundle=' "$T/root.txt")" -eq 12
gdalinfo SEAWX:bundle=basic >"$T/basic.txt" 2>"$T/basic.err"
check "SEAWX:bundle=basic opens" test $? -eq 0
"$SEAWX_CLI" layers --bundle basic --json >"$T/basic.json"
leaves=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$T/basic.json")
vars=$(python3 -c "import json,sys; print(len({(o['variable'],o['unit']) for o in json.load(open(sys.argv[1]))}))" "$T/basic.json")
subs=$(grep -c 'SUBDATASET_[0-9]*_NAME=' "$T/basic.txt")
check "by default one subdataset per variable, its latest run ($subs = $vars)" test "$subs" -eq "$vars"
check "each named 'VARIABLE latest' before ' - ' (QGIS's layer name)" grep -q 'SUBDATASET_[0-9]*_DESC=t2m:K latest - .*latest complete run (now 20' "$T/basic.txt"
gdalinfo SEAWX:bundle=basic,runs=all >"$T/basic_all.txt" 2>"$T/basic_all.err"
subs=$(grep -c 'SUBDATASET_[0-9]*_NAME=' "$T/basic_all.txt")
check "runs=all: one subdataset per leaf and one latest per variable ($subs = $leaves + $vars)" test "$subs" -eq $((leaves + vars))
check "runs=all: descriptions are readable" grep -q 'SUBDATASET_[0-9]*_DESC=t2m:K run 20[0-9-]*T[0-9][0-9]Z - .*valid times' "$T/basic_all.txt"
distinct() { # every layer name QGIS would show (the text before " - ") differs
  grep -o 'SUBDATASET_[0-9]*_DESC=.*' "$1" | sed 's/^SUBDATASET_[0-9]*_DESC=//; s/ - .*//' | sort | uniq -d | grep -q . && return 1
  return 0
}
check "the names QGIS shows are distinct, by default and with runs=all" sh -c "$(declare -f distinct); distinct '$T/basic.txt' && distinct '$T/basic_all.txt'"

# A layer, by the name GDAL listed.
sub=$(grep -m1 'SUBDATASET_[0-9]*_NAME=SEAWX:bundle=basic,.*layer=.*t2m:K' "$T/basic_all.txt" | sed 's/^ *SUBDATASET_[0-9]*_NAME=//')
gdalinfo -json "$sub" >"$T/layer.json" 2>"$T/layer.err"
check "a listed layer opens" test $? -eq 0
layer_ok() {
  python3 - "$T/layer.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["size"] == [46080, 23040], d["size"]
assert [b["colorInterpretation"] for b in d["bands"]] == ["Red", "Green", "Blue", "Alpha"]
assert all(b["block"] == [256, 256] for b in d["bands"])
assert [o["size"] for o in d["bands"][0]["overviews"]] == [[46080 >> k, 23040 >> k] for k in range(1, 8)]
gt = d["geoTransform"]
assert gt == [-180.0, 1 / 128, 0.0, 90.0, 0.0, -1 / 128], gt
assert "4326" in d["coordinateSystem"]["wkt"]
md = d["metadata"][""]
for k in ("PRODUCT", "BUNDLE", "RUN", "VARIABLE", "UNIT", "TIME", "TIMES", "STYLE", "STYLES", "LAYER"):
    assert k in md, k
assert md["VARIABLE"] == "t2m" and md["UNIT"] == "K" and md["BUNDLE"] == "basic"
assert md["TIME"] in md["TIMES"].split(",")
PY
}
check "layer: 46080x23040 RGBA (1/128 degree), 256 blocks, 7 overviews, geotransform, metadata" layer_ok
check "latest entry resolves" sh -c "gdalinfo 'SEAWX:bundle=basic,variable=t2m:K,run=latest' | grep -q 'Size is 46080, 23040'"
check "open options work like connection string keys" sh -c \
  "gdalinfo SEAWX: -oo BUNDLE=basic -oo VARIABLE=t2m:K -oo WIDTH=720 | grep -q 'Size is 720, 360'"

# Pixels: a window through the driver equals the service's GetMap of it.
getmap() { # CRS BBOX W H OUT  (BBOX in the request's axis order)
  curl -sf -H "service-api-key: $KEY" -o "$5" \
    "$SIM_URL/ows/wms?service=WMS&request=GetMap&version=1.3.0&product=sof-d&bundle=basic&layers=$layer&styles=&crs=$1&bbox=$2&width=$3&height=$4&format=image/png&transparent=TRUE&time=$time"
}
layer=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['metadata']['']['LAYER'])" "$T/layer.json")
time=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['metadata']['']['TIME'])" "$T/layer.json")
# Window: columns 300..1000, rows 100..500 of the 0.25-degree grid (overview level 5).
gdal_translate -q -projwin -105 65 70 -35 -outsize 700 400 "$sub" "$T/win4326.tif" 2>"$T/tr.err"
check "gdal_translate -projwin -outsize to GeoTIFF (EPSG:4326)" test -s "$T/win4326.tif"
getmap EPSG:4326 "-35,-105,65,70" 700 400 "$T/ref4326.png"
check "EPSG:4326 pixels equal the service's GetMap" "$cmp" "$T/win4326.tif" "$T/ref4326.png"
gt_ok() { # FILE EPSG X0 RX Y0 RY
  python3 - "$@" <<'PY'
import json, subprocess, sys
f, epsg, x0, rx, y0, ry = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
d = json.loads(subprocess.check_output(["gdalinfo", "-json", f]))
gt = d["geoTransform"]
for got, want in ((gt[0], x0), (gt[1], rx), (gt[3], y0), (gt[5], ry)):
    assert abs(got - want) <= 1e-6 * max(1, abs(want)), (gt, x0, rx, y0, ry)
assert f'ID["EPSG",{epsg}]' in d["coordinateSystem"]["wkt"].replace(" ", "").replace("\n", "")
PY
}
check "EPSG:4326 geotransform" gt_ok "$T/win4326.tif" 4326 -105 0.25 65 -0.25

sub3857="SEAWX:bundle=basic,layer=$layer,time=$time,crs=EPSG:3857"
R=20037508.342789244
gdalinfo "$sub3857" >"$T/3857.txt" 2>&1
check "EPSG:3857 layer: 46080x46080" grep -q 'Size is 46080, 46080' "$T/3857.txt"
# Columns 256..767, rows 512..1023 of the 1440-pixel square (overview level 5).
read x0 y0 x1 y1 < <(python3 -c "
R=$R; r=2*R/1440
print(-R+256*r, R-512*r, -R+768*r, R-1024*r)")
gdal_translate -q -projwin "$x0" "$y0" "$x1" "$y1" -outsize 512 512 "$sub3857" "$T/win3857.tif" 2>>"$T/tr.err"
getmap EPSG:3857 "$x0,$y1,$x1,$y0" 512 512 "$T/ref3857.png"
check "EPSG:3857 pixels equal the service's GetMap" "$cmp" "$T/win3857.tif" "$T/ref3857.png"
check "EPSG:3857 geotransform" gt_ok "$T/win3857.tif" 3857 "$x0" "$(python3 -c "print(2*$R/1440)")" "$y0" "-$(python3 -c "print(2*$R/1440)")"

# Parallel reads, progress, and the disk cache.
before=$(grep -c 'request=GetMap' "$T/access.log")
gdal_translate "SEAWX:bundle=basic,layer=$layer,width=4096" "$T/big.tif" >"$T/progress.txt" 2>&1
check "a 4096x2048 read completes with progress" grep -q '100 - done' "$T/progress.txt"
fetched=$(( $(grep -c 'request=GetMap' "$T/access.log") - before ))
# A copy reads swaths of whole rows from the top: it fetches them, and the rows
# after them that a third of GDAL's block cache holds, as one window in strips
# of about 256 Ki pixels sent at once (8 Mi pixels: 32 strips of 4096 x 64).
check "a copy fetches the raster as 32 strips (fetched $fetched)" test "$fetched" -eq 32
gdal_translate -q "SEAWX:bundle=basic,layer=$layer,width=4096" "$T/big2.tif"
refetched=$(( $(grep -c 'request=GetMap' "$T/access.log") - before - fetched ))
check "a second read comes from the disk cache (fetched $refetched)" test "$refetched" -eq 0
check "cached read is identical" "$cmp" "$T/big.tif" "$T/big2.tif"
gdal_translate -q "SEAWX:bundle=basic,layer=$layer,width=4096,cache=no" "$T/big3.tif"
check "cache=no fetches again" test "$(( $(grep -c 'request=GetMap' "$T/access.log") - before - fetched ))" -eq 32
check "the cache holds no key" sh -c "! grep -r -q -F '$KEY' '$T/cache' && ! find '$T/cache' | grep -q -F '$KEY'"
# The cache's size limit, as a configuration option: the same read into a
# 1 MB cache leaves it within the limit (plus the sixteenth written between looks).
full_kb=$(du -sk "$T/cache/tiles" | cut -f1)
gdal_translate -q --config SEAWX_CACHE_DIR "$T/small-cache" --config SEAWX_CACHE_MAX_MB 1 \
  "SEAWX:bundle=basic,layer=$layer,width=4096" "$T/big4.tif"
small_b=$(find "$T/small-cache" -name '*.swx' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
check "SEAWX_CACHE_MAX_MB=1 keeps the cache within 1 MiB ($small_b bytes; unlimited: $full_kb KiB)" \
  sh -c "[ $full_kb -gt 2048 ] && [ $small_b -gt 0 ] && [ $small_b -le $((1048576 + 65536 + 300000)) ]"
check "a read through a small cache is identical" "$cmp" "$T/big.tif" "$T/big4.tif"
gdalinfo --config SEAWX_CACHE_MAX_MB lots "SEAWX:bundle=basic,layer=$layer,width=64" \
  >"$T/lots.txt" 2>&1
check "a cache size that is not a number warns once, naming the variable, and the layer opens" \
  sh -c "[ \$(grep -c 'Warning.*SEAWX_CACHE_MAX_MB: a cache size must be a whole number of megabytes, not .lots.; the cache keeps its default of 1024 MB' '$T/lots.txt') -eq 1 ] && grep -q '^Size is 64, 32' '$T/lots.txt'"
check "overview read uses overview GetMaps" sh -c \
  "gdal_translate -q -outsize 512 256 'SEAWX:bundle=basic,layer=$layer,cache=no' '$T/small.tif' && tail -n 2 '$T/access.log' | grep -q 'width=[0-9]*&height='"

# Bad input: one clear GDAL error, no output file.
bad() { # NAME PATTERN CONNECTION [gdal_translate args]
  local name=$1 pattern=$2 conn=$3
  shift 3
  rm -f "$T/bad.tif"
  gdal_translate -q "$@" "$conn" "$T/bad.tif" >"$T/bad.out" 2>"$T/bad.err"
  local rc=$?
  [ "$rc" -ne 0 ] || { echo "  $name: succeeded"; return 1; }
  [ ! -e "$T/bad.tif" ] || { echo "  $name: left $T/bad.tif"; return 1; }
  grep -q -E -- "$pattern" "$T/bad.err" || { echo "  $name: $(cat "$T/bad.err")"; return 1; }
  no_key_in "$T/bad.err" "$T/bad.out"
}
check "unknown bundle" bad bundle "unknown bundle 'nope': valid bundles are basic" "SEAWX:bundle=nope,variable=t2m"
check "unknown layer" bad layer "layer 'sof-d/19990101/00/t2m:K' is not in bundle basic" "SEAWX:bundle=basic,layer=sof-d/19990101/00/t2m:K"
check "unknown variable" bad variable "variable 'nope' is not in bundle basic; its variables are" "SEAWX:bundle=basic,variable=nope"
check "bad time lists the nearest" bad time "is not a valid time of layer .*nearest: " "SEAWX:bundle=basic,layer=$layer,time=1999-01-01T00:00:00Z"
check "unknown style lists the styles" bad style "style 'nope' is not a style of layer .*styles are" "SEAWX:bundle=basic,layer=$layer,style=nope"
up=$("$SEAWX_CLI" layers -b upper-air --latest --json | python3 -c "import json,sys; print(json.load(sys.stdin)[0]['name'])")
check "CRS the layer does not advertise" bad crs "does not advertise EPSG:3857; it offers" "SEAWX:bundle=upper-air,layer=$up,crs=EPSG:3857"
check "size over the limit" bad size "over the limit" "SEAWX:bundle=basic,layer=$layer,width=5000000"
check "blocksize over the limit" bad blocksize "block size 1024 is not 256 or 512" "SEAWX:bundle=basic,layer=$layer,blocksize=1024"
check "no key" bad nokey "no API key: set SEAWX_API_KEY" "SEAWX:bundle=basic,layer=$layer" --config SEAWX_API_KEY ""
check "wrong key" bad wrongkey "HTTP 401.*SEAWX_API_KEY" "SEAWX:bundle=basic,layer=$layer" --config SEAWX_API_KEY wrong-key
check "key in the connection string is refused" bad keyincs "does not belong in a connection string" "SEAWX:bundle=basic,key=abc"
check "unknown option" bad option "unknown option 'colour'" "SEAWX:bundle=basic,colour=red"
check "update mode refused" sh -c "'$cmp' --open-update 'SEAWX:bundle=basic,layer=$layer' | grep -q 'read-only'"
# A vector source asked for in update mode (QGIS asks so first for every
# vector layer) opens read-only, quietly, and refuses every write.
check "storms opened for update: read-only, no error, no write" /usr/bin/python3 -c "
from osgeo import gdal, ogr
gdal.PushErrorHandler('CPLQuietErrorHandler')
ds = gdal.OpenEx('SEAWX:storms', gdal.OF_VECTOR | gdal.OF_UPDATE)
assert ds is not None and gdal.GetLastErrorMsg() == '', gdal.GetLastErrorMsg()
assert ds.GetLayerCount() == 8 and not ds.TestCapability(ogr.ODsCCreateLayer)
for i in range(ds.GetLayerCount()):
    lyr = ds.GetLayer(i)
    for c in (ogr.OLCSequentialWrite, ogr.OLCRandomWrite, ogr.OLCDeleteFeature, ogr.OLCCreateField):
        assert not lyr.TestCapability(c), (lyr.GetName(), c)
    assert lyr.CreateFeature(ogr.Feature(lyr.GetLayerDefn())) != 0, lyr.GetName()
assert ds.CreateLayer('x') is None
assert gdal.OpenEx('SEAWX:bundle=basic', gdal.OF_RASTER | gdal.OF_UPDATE) is None
assert 'read-only' in gdal.GetLastErrorMsg()
"

# The value legend: LEGEND_URL (no key) in the metadata; `seawx legend` checks
# what it is given before sending anything, and names what is wrong.
check "LEGEND_URL names GetLegendGraphic of the layer's style, without the key" sh -c \
  "grep -q 'LEGEND_URL=.*request=GetLegendGraphic.*&style=' '$T/3857.txt' && ! grep -q -F '$KEY' '$T/3857.txt'"
# The layer definition of the run (domain QGIS, item QLR), which the QGIS
# plugin adds: the document `seawx qlr` writes for the same run, style and
# CRS, its legend image the plugin's file of the LEGEND domain.
qlr_same() { # CONNECTION, then seawx qlr's options
  local conn=$1
  shift
  "$SEAWX_CLI" qlr "$@" -o "$T/same.qlr" 2>"$T/same.err" || return 1
  /usr/bin/python3 - "$conn" "$T/same.qlr" "$KEY" <<'PY'
import os, re, sys
from osgeo import gdal
conn, path, key = sys.argv[1:]
ds = gdal.Open(conn)
assert "QGIS" in ds.GetMetadataDomainList()
mine = ds.GetMetadataItem("QLR", "QGIS")
legend = ds.GetMetadataItem("FILE", "LEGEND")
assert mine == ds.GetMetadata("QGIS")["QLR"]
assert key not in mine and os.path.isfile(legend), legend
assert mine.count('legendPlaceholderImage="%s"' % legend) == int(ds.GetMetadataItem("TIME_COUNT"))
cli = open(path).read()
unify = lambda doc: re.sub(r'legendPlaceholderImage="[^"]*"', "L", doc)
assert unify(mine) == unify(cli), "the plugin's definition differs from seawx qlr's"
PY
}
check "the GDAL plugin's layer definition of a run is seawx qlr's" \
  qlr_same "SEAWX:bundle=basic,variable=t2m:K" -b basic -v t2m:K
style=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['metadata']['']['STYLES'].split(',')[-1])" "$T/layer.json")
check "... with the connection's style ($style) and CRS named in each layer" \
  qlr_same "SEAWX:bundle=basic,variable=t2m:K,crs=EPSG:3857,style=$style" -b basic -v t2m:K \
  --crs EPSG:3857 -s "$style"
legend_rc() { "$SEAWX_CLI" legend "$@" >"$T/lg.out" 2>"$T/lg.err"; echo $?; }
check "seawx legend: a 300 x 20 PNG when asked" sh -c \
  "[ $(legend_rc -b basic -l "$layer" --width 300 --height 20 -o "$T/lg.png") -eq 0 ] && python3 -c 'import struct,sys; d=open(sys.argv[1],\"rb\").read(24); assert d[:8]==b\"\\x89PNG\\r\\n\\x1a\\n\" and struct.unpack(\">II\",d[16:24])==(300,20)' '$T/lg.png'"
check "seawx legend: no output is a usage error (2)" test "$(legend_rc -b basic -v t2m:K)" -eq 2
check "seawx legend: width over 1024 is a usage error (2)" test "$(legend_rc -b basic -v t2m:K --width 2000 -o "$T/lg2.png")" -eq 2
check "seawx legend: unknown variable (5), naming the variables" sh -c \
  "[ $(legend_rc -b basic -v nope -o "$T/lg2.png") -eq 5 ] && grep -q 'its variables are' '$T/lg.err' && [ ! -e '$T/lg2.png' ]"
check "seawx legend: unknown style (5), naming the styles" sh -c \
  "[ $(legend_rc -b basic -v t2m:K -s nope -o "$T/lg2.png") -eq 5 ] && grep -q 'styles are' '$T/lg.err'"
check "seawx legend: a rejected key (4), not in the message" sh -c \
  "[ \$(SEAWX_API_KEY=wrong-key '$SEAWX_CLI' legend -b basic -v t2m:K -o '$T/lg2.png' 2>'$T/lg.err'; echo \$?) -eq 4 ] && ! grep -q wrong-key '$T/lg.err'"

# The names are connection strings, not files: with PAM on (GDAL's default),
# listing, reading and computing statistics leave no SEAWX:*.aux.xml behind.
mkdir -p "$T/pam"
(cd "$T/pam" && unset GDAL_PAM_ENABLED && gdalinfo SEAWX: && gdalinfo SEAWX:bundle=basic &&
  gdalinfo -stats "SEAWX:bundle=basic,layer=$layer,width=512") >/dev/null 2>&1
check "no .aux.xml is written into the working folder" test -z "$(ls -A "$T/pam")"

# Blocks the service refuses or fails: the read fails with the service's own
# message and leaves no file; transient faults are retried and change nothing.
# seawx-sim's faults hit GetMap only (--faults-on getmap), so opening works.
sim_faulty() { sim_restart --faults-on getmap "$@"; }
sim_faulty --pexception 1
check "a WMS exception on every GetMap fails the read with its message" bad exception \
  "SEAWX: .*temporarily unable to render" "SEAWX:bundle=basic,layer=$layer,time=$time,cache=no,retries=1"
check "one refused block is enough (a 256x256 window)" bad exception1 \
  "SEAWX: .*temporarily unable to render" "SEAWX:bundle=basic,layer=$layer,time=$time,cache=no,retries=1" \
  -srcwin 256 256 256 256
sim_faulty --p5xx 1
check "HTTP 503 on every GetMap fails the read with its message" bad 503 \
  "SEAWX: .*503.*Service temporarily unavailable" "SEAWX:bundle=basic,layer=$layer,time=$time,cache=no,retries=1"
sim_faulty --p429 1 --retry-after 1
check "HTTP 429 on every GetMap fails the read with its message" bad 429 \
  "SEAWX: .*429.*Rate limit quota violation" "SEAWX:bundle=basic,layer=$layer,time=$time,cache=no,retries=0"
sim_faulty --p5xx 0.05 --p429 0.02 --retry-after 1 --fault-seed 7
seen=$(wc -l <"$T/access.log")
gdal_translate -q "SEAWX:bundle=basic,layer=$layer,time=$time,width=4096,cache=no" "$T/faulty.tif" \
  >"$T/faulty.txt" 2>&1
check "with 5 % 503 and 2 % 429 on GetMap a 4096x2048 read completes" test $? -eq 0 -a -s "$T/faulty.tif"
check "and its pixels equal the fault-free read" "$cmp" "$T/big.tif" "$T/faulty.tif"
refused=$(tail -n +$((seen + 1)) "$T/access.log" | grep 'request=GetMap' | grep -c -E ' (429|503) [0-9]+ auth=')
check "the service did refuse some of those GetMaps ($refused), which were retried" test "$refused" -gt 0
check "the key is in no output" no_key_in "$T"/*.txt "$T"/*.err "$T"/*.json
finish
