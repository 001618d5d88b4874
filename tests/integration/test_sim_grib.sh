#!/usr/bin/env bash
# The stand-in's forecast and current-weather files are real GRIB2 (made with
# ecCodes from the fields of its WMS maps): downloaded through the CLI, read by
# ecCodes (grib_get, libeccodes from python3) and GDAL; values equal the stand-in's
# fields at the grid points; the same name twice is the same bytes; the storage
# host answers Range with 206, or 200 when SEAWX_SIM_STORAGE_RANGE=0.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# A cache of its own: the files below are made afresh by this test.
export SEAWX_SIM_GRIB_DIR=$T/grib
sim_start
S=$SEAWX_CLI
PY=python3
cd "$T" || exit 1

"$S" forecast files --bundles basic,maritime,wind --regions global,europe -f json -o fc.json 2>fc.err
"$S" weather files -f json -o cwc.json 2>cwc.err
pick() { $PY -c "import json,sys; print(next(r['name'] for r in json.load(open(sys.argv[1]))['data'] if r['name'].endswith(sys.argv[2])))" "$@"; }
basic=$(pick fc.json .basic.global.f003.grib2)
mar=$(pick fc.json .maritime.global.f051.grib2)
wind=$(pick fc.json .wind.europe.f126.grib2)
cwc=$(pick cwc.json .grib2)
check "the listing names a file of each bundle and region" test -n "$basic" -a -n "$mar" -a -n "$wind" -a -n "$cwc"

# ---- download through the CLI ----
t0=$(date +%s%N)
check "basic global f003 downloaded" sh -c "$S forecast download $basic -o basic.grib2 2>basic.err"
t1=$(date +%s%N)
echo "# made and downloaded one global basic file ($(stat -c %s basic.grib2) bytes) in $(((t1 - t0) / 1000000)) ms"
check "maritime global f051 downloaded" sh -c "$S forecast download $mar -o mar.grib2 2>mar.err"
check "wind europe f126 downloaded" sh -c "$S forecast download $wind -o wind.grib2 2>wind.err"
check "current weather downloaded" sh -c "$S weather download $cwc -o cwc.grib2 2>cwc.dl.err"

# ---- what ecCodes sees: parameters, levels, reference time, step, packing ----
run_date=$(echo "$basic" | cut -d. -f2)
run_time=$((10#$(echo "$basic" | sed 's/.*\.t\([0-9][0-9]\)z\..*/\1/') * 100))
cwc_date=$(echo "$cwc" | cut -d. -f2)
cwc_time=$((10#$(echo "$cwc" | sed 's/.*\.t\([0-9][0-9]\)z\..*/\1/') * 100))
keys=shortName,discipline,parameterCategory,parameterNumber,typeOfFirstFixedSurface:l,level,dataDate,dataTime,stepRange,packingType
messages() { grib_get -p "$keys" "$1" | tr -s ' ' | sed 's/ *$//'; }
expect() { # FILE DATE TIME then one "SHORTNAME D C N SURFACE LEVEL STEP" per message
  local f=$1 d=$2 t=$3 line want=""
  shift 3
  for line in "$@"; do
    set -- $line
    want="$want$1 $2 $3 $4 $5 $6 $d $t $7 grid_complex
"
  done
  [ "$(messages "$f")" = "$(printf %s "$want")" ] || {
    echo "  got:"
    messages "$f"
    echo "  wanted:"
    printf %s "$want"
    return 1
  }
}
# tp is 0/1/8 (what GDAL, grib_pi and XyGrib call APCP): ecCodes names it only
# for NCEP's centre, so its shortName reads "unknown" here.
check "basic: 10u 10v i10fg prmsl 2t tp, run time, step 3, complex packing" \
  expect basic.grib2 "$run_date" "$run_time" "10u 0 2 2 103 10 3" "10v 0 2 3 103 10 3" \
  "i10fg 0 2 22 103 10 3" "prmsl 0 3 1 101 0 3" "2t 0 0 0 103 2 3" "unknown 0 1 8 1 0 0-3"
check "maritime: swh mwd mwp, step 51" \
  expect mar.grib2 "$run_date" "$run_time" "swh 10 0 3 1 0 51" "mwd 10 0 14 1 0 51" \
  "mwp 10 0 15 1 0 51"
check "wind: 10u 10v i10fg 100u 100v, step 126" \
  expect wind.grib2 "$run_date" "$run_time" "10u 0 2 2 103 10 126" "10v 0 2 3 103 10 126" \
  "i10fg 0 2 22 103 10 126" "100u 0 2 2 103 100 126" "100v 0 2 3 103 100 126"
check "current weather: the basic fields and prate at the hour, step 0" \
  expect cwc.grib2 "$cwc_date" "$cwc_time" "10u 0 2 2 103 10 0" "10v 0 2 3 103 10 0" \
  "i10fg 0 2 22 103 10 0" "prmsl 0 3 1 101 0 0" "2t 0 0 0 103 2 0" "prate 0 1 7 1 0 0"
check "tp is an accumulation (statistical process 1) over 3 hours" \
  test "$(grib_get -w parameterNumber=8 -p typeOfStatisticalProcessing,lengthOfTimeRange,indicatorOfUnitForTimeRange basic.grib2)" = "1 3 1"
check "grib_ls lists every message of every file" sh -c \
  "grib_ls basic.grib2 mar.grib2 wind.grib2 cwc.grib2 | grep -q '^20 of 20 total messages in 4 files'"

# ---- what GDAL sees ----
elements() { gdalinfo "$1" | sed -n 's/^ *GRIB_ELEMENT=//p' | tr '\n' ' '; }
check "GDAL: basic bands" test "$(elements basic.grib2)" = "UGRD VGRD GUST PRMSL TMP APCP03 "
check "GDAL: maritime bands, land as no-data" sh -c \
  "[ \"\$(gdalinfo mar.grib2 | sed -n 's/^ *GRIB_ELEMENT=//p' | tr '\n' ' ')\" = 'HTSGW WWSDIR MWSPER ' ] && gdalinfo mar.grib2 | grep -q 'NoData Value=9999'"
check "GDAL: wind europe is the regional box 25W..45E, 30N..72N" sh -c \
  "gdalinfo wind.grib2 | grep -q '^Size is 281, 169' && gdalinfo wind.grib2 | grep -q '^Origin = (-25.125000000000000,72.125000000000000)'"
check "GDAL: global files are 1440 x 721" sh -c \
  "gdalinfo basic.grib2 | grep -q '^Size is 1440, 721' && gdalinfo cwc.grib2 | grep -q '^Size is 1440, 721'"
t2m_ok() { # band 5: GDAL shows temperatures in degrees C, converted from the file's K
  gdalinfo -stats basic.grib2 | awk -F= '/^Band 5 / { b = 1 } /^Band 6 / { b = 0 }
    b && /GRIB_UNIT=\[C\]/ { c = 1 } b && /STATISTICS_MEAN=/ { m = $2 }
    END { exit !(c && m > -30 && m < 30) }'
}
check "GDAL: 2 m temperature reads as a sensible temperature (degrees C)" t2m_ok

# ---- values: physical ranges, and the stand-in's own fields at grid points ----
values_ok() {
  $PY - "$SIM_URL" basic.grib2 mar.grib2 wind.grib2 cwc.grib2 <<'PY'
# ecCodes' C library through ctypes: Debian 12's python3-eccodes cannot be
# installed beside libcurl4-openssl-dev (its python3-ecmwflibs pulls in
# libcurl4-gnutls-dev), so the check reads the files with libeccodes itself.
import ctypes, datetime, json, random, sys, urllib.request
from ctypes import byref, c_char_p, c_double, c_int, c_long, c_size_t, c_void_p

ec = ctypes.CDLL("libeccodes.so.0")
libc = ctypes.CDLL(None)
libc.fopen.restype, libc.fopen.argtypes = c_void_p, [c_char_p, c_char_p]
libc.fclose.argtypes = [c_void_p]
ec.codes_handle_new_from_file.restype = c_void_p
ec.codes_handle_new_from_file.argtypes = [c_void_p, c_void_p, c_int, ctypes.POINTER(c_int)]
ec.codes_handle_delete.argtypes = [c_void_p]
for fn in ("codes_get_long", "codes_get_double", "codes_get_size"):
    getattr(ec, fn).argtypes = [c_void_p, c_char_p, c_void_p]
for fn in ("codes_get_string", "codes_get_double_array"):
    getattr(ec, fn).argtypes = [c_void_p, c_char_p, c_void_p, c_void_p]
PRODUCT_GRIB = 1

def get_long(h, k):
    v = c_long()
    assert ec.codes_get_long(h, k.encode(), byref(v)) == 0, k
    return v.value

def get_double(h, k):
    v = c_double()
    assert ec.codes_get_double(h, k.encode(), byref(v)) == 0, k
    return v.value

def get_string(h, k):
    buf, n = ctypes.create_string_buffer(256), c_size_t(256)
    assert ec.codes_get_string(h, k.encode(), buf, byref(n)) == 0, k
    return buf.value.decode()

def messages(path):
    f = libc.fopen(path.encode(), b"rb")
    err = c_int()
    while True:
        h = ec.codes_handle_new_from_file(None, f, PRODUCT_GRIB, byref(err))
        if not h:
            break
        n = c_size_t()
        assert ec.codes_get_size(h, b"values", byref(n)) == 0
        vals = (c_double * n.value)()
        assert ec.codes_get_double_array(h, b"values", vals, byref(n)) == 0
        yield h, vals
        ec.codes_handle_delete(h)
    libc.fclose(f)

url = sys.argv[1]
ranges = {"10u": (-60, 60), "10v": (-60, 60), "100u": (-80, 80), "100v": (-80, 80),
          "i10fg": (0, 90), "prmsl": (90000, 110000), "2t": (200, 330), "unknown": (0, 200),
          "prate": (0, 0.05), "swh": (0, 25), "mwd": (0, 360.05), "mwp": (1, 30)}
rng = random.Random(25)
compared = 0
for path in sys.argv[2:]:
    for h, vals in messages(path):
        sn = get_string(h, "shortName")
        miss = get_double(h, "missingValue")
        present = [v for v in vals if v != miss]
        lo, hi = ranges[sn]
        assert len(present) > 0.25 * len(vals), (path, sn, "mostly missing")
        assert lo <= min(present) and max(present) <= hi, (path, sn, min(present), max(present))
        mean = sum(present) / len(present)
        if sn == "2t":
            assert 250 < mean < 300, ("2t mean", mean)
        if sn == "prmsl":
            assert 99000 < mean < 103000, ("prmsl mean", mean)
        ni, nj = get_long(h, "Ni"), get_long(h, "Nj")
        lat0 = get_double(h, "latitudeOfFirstGridPointInDegrees")
        lon0 = get_double(h, "longitudeOfFirstGridPointInDegrees")
        di = get_double(h, "iDirectionIncrementInDegrees")
        dj = get_double(h, "jDirectionIncrementInDegrees")
        d = get_long(h, "decimalScaleFactor")
        date, time = get_long(h, "dataDate"), get_long(h, "dataTime")
        ref = datetime.datetime.strptime("%08d%04d" % (date, time), "%Y%m%d%H%M")
        valid = ref + datetime.timedelta(hours=get_long(h, "endStep"))
        param = "tp" if sn == "unknown" else sn
        for _ in range(6):
            i, j = rng.randrange(ni), rng.randrange(nj)
            lon = (lon0 + i * di) % 360
            lat = lat0 - j * dj
            q = "%s/_sim/field?param=%s&lon=%.2f&lat=%.2f&time=%s&run=%s" % (
                url, param, lon if lon < 180 else lon - 360, lat,
                valid.strftime("%Y-%m-%dT%H:%M:%SZ"), ref.strftime("%Y-%m-%dT%H:%M:%SZ"))
            want = json.load(urllib.request.urlopen(q))["value"]
            got = vals[j * ni + i]
            if want is None:
                assert got == miss, (path, sn, lon, lat, "land should be missing", got)
                continue
            step = 10.0 ** -d
            assert abs(got - want) <= 0.5 * step * 1.001 + 1e-6 * abs(want), \
                (path, sn, lon, lat, got, want)
            compared += 1
assert compared >= 80, compared
print("  compared %d grid points with the stand-in's fields" % compared)
PY
}
check "values in physical ranges (K, Pa, m s-1), equal to the stand-in's fields" values_ok

# ---- the same name twice: the same bytes, also when made afresh ----
again_ok() {
  rm -f "$SEAWX_SIM_GRIB_DIR/$basic" || return 1
  "$S" forecast download "$basic" -o basic2.grib2 2>basic2.err &&
    [ -s "$SEAWX_SIM_GRIB_DIR/$basic" ] && cmp -s basic.grib2 basic2.grib2 &&
    "$S" forecast download "$basic" -o basic3.grib2 2>basic3.err && cmp -s basic.grib2 basic3.grib2
}
check "the same hour asked twice (made again, then cached) is byte-identical" again_ok
both_ok() { # two requests at once for a file not made yet
  local f4
  f4=$(pick fc.json .basic.global.f004.grib2)
  [ ! -e "$SEAWX_SIM_GRIB_DIR/$f4" ] || return 1
  "$S" forecast download "$f4" -o p1.grib2 2>p1.err &
  local p1=$!
  "$S" forecast download "$f4" -o p2.grib2 2>p2.err
  wait "$p1" || return 1
  cmp -s p1.grib2 p2.grib2 && cmp -s p1.grib2 "$SEAWX_SIM_GRIB_DIR/$f4" &&
    grib_ls p1.grib2 | grep -q '^6 of 6 messages'
}
check "two requests at once for a new file both get the same whole file" both_ok
check "the cache holds whole files only (no temporaries left)" sh -c "! ls '$SEAWX_SIM_GRIB_DIR' | grep -q '\.tmp$'"

# ---- Range on the storage host ----
storage_url() { curl -s -o /dev/null -w '%{redirect_url}' -H "service-api-key: $KEY" "$SIM_URL/forecast/file/$1"; }
range_ok() {
  loc=$(storage_url "$basic")
  case $loc in http://127.0.0.2:*) ;; *) return 1 ;; esac
  code=$(curl -s -r 0-15 -D r.hdr -o r.bin -w '%{http_code}' "$loc")
  [ "$code" = 206 ] && [ "$(stat -c %s r.bin)" -eq 16 ] && [ "$(head -c 4 r.bin)" = GRIB ] &&
    grep -qi "^Content-Range: bytes 0-15/$(stat -c %s basic.grib2)" r.hdr &&
    cmp -s r.bin <(head -c 16 basic.grib2)
}
check "Range 0-15 on the storage URL: 206, GRIB at byte 0" range_ok
tail_ok() {
  loc=$(storage_url "$mar")
  code=$(curl -s -r -4 -o t.bin -w '%{http_code}' "$loc")
  [ "$code" = 206 ] && [ "$(cat t.bin)" = 7777 ]
}
check "a suffix range gives the end section 7777" tail_ok

kill "$SIM_PID" && wait "$SIM_PID" 2>/dev/null
rm -f port
SEAWX_SIM_STORAGE_RANGE=0 sim_start
norange_ok() {
  loc=$(storage_url "$basic")
  code=$(curl -s -r 0-15 -D n.hdr -o n.bin -w '%{http_code}' "$loc")
  [ "$code" = 200 ] && cmp -s n.bin basic.grib2 && ! grep -qi '^Content-Range' n.hdr
}
check "with SEAWX_SIM_STORAGE_RANGE=0 the same request is a 200 with the whole file" norange_ok
fallback_ok() {
  head -c 100000 basic.grib2 >fb.grib2.part
  "$S" forecast download "$basic" -o fb.grib2 2>fb.err && cmp -s fb.grib2 basic.grib2 && [ ! -e fb.grib2.part ]
}
check "a resumed download where Range is ignored still ends byte-identical" fallback_ok

# ---- the key never reached the storage host ----
storage_ok() {
  grep -E "^GET 127\.0\.0\.2:" access.log >storage.log
  [ "$(wc -l <storage.log)" -ge 8 ] && ! grep -v "auth=none" storage.log | grep -q . &&
    ! grep -q " 403 " storage.log
}
check "the storage host received no key" storage_ok
check "no key in the access log or outputs" no_key_in access.log ./*.err
finish
