#!/usr/bin/env bash
# The GDAL plugin's reads of a window that is not block-aligned, or that is
# resampled: the service's GetMap of that window at the asked size, sent as a
# few strips at once (counted in seawx-sim's access log), pixel-equal to one
# GetMap of the whole window, and read again from the cache (the disk's in a
# new process, memory in the same one) without a request.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
export SEAWX_CACHE_DIR=$T/cache GDAL_PAM_ENABLED=NO GDAL_DRIVER_PATH=$SEAWX_BUILD_DIR/driver
cmp=$SEAWX_RASTERCMP
py=/usr/bin/python3

gdalinfo -json "SEAWX:bundle=basic,variable=t2m:K,run=latest" >"$T/layer.json"
read -r layer time < <("$py" -c '
import json, sys
md = json.load(open(sys.argv[1]))["metadata"][""]
print(md["LAYER"], md["TIME"])' "$T/layer.json")
conn="SEAWX:bundle=basic,layer=$layer,time=$time"
# The 46080 x 23040 grid of 1/128 degree: the bbox of a window of its pixels,
# in WMS 1.3.0's EPSG:4326 order (latitude first).
bbox() { # XOFF YOFF XSIZE YSIZE
  "$py" -c 'import sys
x, y, w, h = map(int, sys.argv[1:])
r = 1 / 128
print(f"{90 - (y + h) * r!r},{-180 + x * r!r},{90 - y * r!r},{-180 + (x + w) * r!r}")' "$@"
}
getmap() { # BBOX W H OUT
  curl -sf -H "service-api-key: $KEY" -o "$4" \
    "$SIM_URL/ows/wms?service=WMS&request=GetMap&version=1.3.0&product=sof-d&bundle=basic&layers=$layer&styles=&crs=EPSG:4326&bbox=$1&width=$2&height=$3&format=image/png&transparent=TRUE&time=$time"
}
# The GetMaps answered since line SEEN of the access log, as bbox and size.
getmaps_since() {
  tail -n +$(($1 + 1)) "$T/access.log" | grep 'request=GetMap' |
    grep -o 'bbox=[^&]*&width=[0-9]*&height=[0-9]*' | sort
}
# Whether the GetMaps in FILE are at most MAX strips that tile the window
# BBOX (s,w,n,e) at W x H pixels exactly: its full width, rows stacked from
# its top to its bottom, each at the window's resolution.
tiles() { # FILE BBOX W H MAX
  "$py" - "$@" <<'PY'
import re, sys
f, bbox, W, H, most = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
S, Wd, N, E = map(float, bbox.split(","))
got = []
for l in open(f):
    s, w, n, e, gw, gh = re.match(r"bbox=([-\d.e]+),([-\d.e]+),([-\d.e]+),([-\d.e]+)&width=(\d+)&height=(\d+)", l).groups()
    got.append((float(n), float(s), float(w), float(e), int(gw), int(gh)))
got.sort(reverse=True)
assert 0 < len(got) <= most, f"{len(got)} GetMaps"
top, rows, tol = N, 0, 1e-9 * max(1, abs(N))
for n, s, w, e, gw, gh in got:
    assert abs(w - Wd) < tol and abs(e - E) < tol and gw == W, (w, e, gw)
    assert abs(n - top) < tol, ("gap or overlap", n, top)
    assert abs((n - s) / gh - (N - S) / H) < 1e-12, ("resolution", n, s, gh)
    top, rows = s, rows + gh
assert abs(top - S) < tol and rows == H, (top, rows)
PY
}
tiles_exactly() { [ "$(wc -l <"$1")" -eq "$5" ] && tiles "$@"; } # as tiles, exactly MAX

# 1. gdal_translate -srcwin of an odd window at full resolution (700 x 500
# pixels from column 23171, row 5123: across 4 x 3 blocks, aligned to none).
seen=$(wc -l <"$T/access.log")
gdal_translate -q -srcwin 23171 5123 700 500 "$conn" "$T/srcwin.tif" 2>"$T/srcwin.err"
check "gdal_translate -srcwin of an odd window" test $? -eq 0 -a -s "$T/srcwin.tif"
b=$(bbox 23171 5123 700 500)
getmaps_since "$seen" >"$T/srcwin.getmaps"
# (gdal_translate reads it in swaths, each the window's next rows: a GetMap each.)
check "it sent a few GetMaps that tile the window exactly ($(wc -l <"$T/srcwin.getmaps"))" \
  tiles "$T/srcwin.getmaps" "$b" 700 500 4
getmap "$b" 700 500 "$T/srcwin_ref.png"
check "its pixels equal the service's GetMap of the window" "$cmp" "$T/srcwin.tif" "$T/srcwin_ref.png"
seen=$(wc -l <"$T/access.log")
gdal_translate -q -srcwin 23171 5123 700 500 "$conn" "$T/srcwin2.tif"
check "the same read again (a new process) sends nothing" test "$(getmaps_since "$seen" | wc -l)" -eq 0
check "and reads the same pixels from the disk cache" "$cmp" "$T/srcwin2.tif" "$T/srcwin.tif"

# 2. -outsize of an odd window (3003 x 1502 pixels as 1001 x 500): the
# service renders it at that size, not a power-of-two overview resampled.
seen=$(wc -l <"$T/access.log")
gdal_translate -q -srcwin 10001 3001 3003 1502 -outsize 1001 500 "$conn" "$T/outsize.tif" \
  2>"$T/outsize.err"
check "gdal_translate -srcwin -outsize of an odd window" test $? -eq 0 -a -s "$T/outsize.tif"
b=$(bbox 10001 3001 3003 1502)
getmaps_since "$seen" >"$T/outsize.getmaps"
check "it sent a few GetMaps that tile the window at 1001 x 500 ($(wc -l <"$T/outsize.getmaps"))" \
  tiles "$T/outsize.getmaps" "$b" 1001 500 4
getmap "$b" 1001 500 "$T/outsize_ref.png"
check "its pixels equal the service's GetMap of the window at 1001 x 500" \
  "$cmp" "$T/outsize.tif" "$T/outsize_ref.png"
seen=$(wc -l <"$T/access.log")
gdal_translate -q -srcwin 10001 3001 3003 1502 -outsize 1001 500 "$conn" "$T/outsize2.tif"
check "the same read again sends nothing" test "$(getmaps_since "$seen" | wc -l)" -eq 0

# 3. A read as QGIS makes it for a canvas of lon -60..0, lat 20..60 at 960 x
# 640: band by band, the source pixels the canvas touches (one column and row
# beyond its edges included, 7681 x 5121) at the canvas's size, twice.
qgis_like() { # OUT: reads 4 bands twice; writes the first read as a PNG
  "$py" - "$conn" "$1" <<'PY'
import sys
from osgeo import gdal
ds = gdal.Open(sys.argv[1])
reads = [[ds.GetRasterBand(b).ReadRaster(15360, 3840, 7681, 5121, 960, 640)
          for b in range(1, 5)] for _ in range(2)]
assert reads[0] == reads[1], "the second read differs"
out = gdal.GetDriverByName("MEM").Create("", 960, 640, 4)
for b in range(1, 5):
    out.GetRasterBand(b).WriteRaster(0, 0, 960, 640, reads[0][b - 1])
gdal.GetDriverByName("PNG").CreateCopy(sys.argv[2], out)
PY
}
seen=$(wc -l <"$T/access.log")
qgis_like "$T/canvas.png" 2>"$T/canvas.err"
check "a QGIS-like read of a canvas between two overviews" test $? -eq 0 -a -s "$T/canvas.png"
getmaps_since "$seen" >"$T/canvas.getmaps"
# 960 x 640 goes as 3 strips of about 256 Ki pixels, sent at once.
check "it sent the canvas's 3 strips, once for the 4 bands read twice ($(wc -l <"$T/canvas.getmaps") GetMaps)" \
  tiles_exactly "$T/canvas.getmaps" "20,-60,60,0" 960 640 3
getmap "20,-60,60,0" 960 640 "$T/canvas_ref.png"
check "its pixels equal the service's GetMap of the canvas" "$cmp" "$T/canvas.png" "$T/canvas_ref.png"
seen=$(wc -l <"$T/access.log")
qgis_like "$T/canvas2.png" 2>>"$T/canvas.err"
check "the same read again (a new process) sends nothing" test "$(getmaps_since "$seen" | wc -l)" -eq 0
check "and reads the same pixels" "$cmp" "$T/canvas2.png" "$T/canvas.png"

check "the cache holds no key" sh -c "! grep -r -q -F '$KEY' '$T/cache' && ! find '$T/cache' | grep -q -F '$KEY'"
check "the key is in no output" no_key_in "$T"/*.err
finish
