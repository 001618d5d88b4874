#!/usr/bin/env bash
# The stand-in's point forecasts are its forecast files read at a point: fetched
# through the CLI (seawx forecast point/latest, JSON and CSV) at a sea and a land
# grid node and at a sea and a land point between nodes, they have the files'
# run, one record per listed forecast hour, and at every time the files' values
# (downloaded with seawx forecast download, read with grib_ls): at a node within
# the packing precision, between nodes within the four surrounding nodes; over
# land the wave values are null, as the files have them missing.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# A cache of its own: the files below are made afresh by this test.
export SEAWX_SIM_GRIB_DIR=$T/grib
sim_start
S=$SEAWX_CLI
PY=/usr/bin/python3
cd "$T" || exit 1

bundles=basic,maritime,wind
region=caribbean # 8..32 N, 90..55 W: sea, islands and the coast of South America
# name lat lon node(1: a grid node)
points=("sea-node 15 -70 1" "land-node 9 -65 1" "sea-between 20.1 -60.15 0" "land-between 9.13 -66.07 0")

check "forecast files listed" sh -c "$S forecast files --bundles $bundles --regions $region -f json -o fc.json 2>fc.err"

t0=$(date +%s%N)
check "point forecast of all the run's times (JSON)" sh -c \
  "$S forecast point --lat 15 --lon -70 --bundles $bundles -f json -o timing.json 2>timing.err"
t1=$(date +%s%N)
echo "# one point, three bundles, $($PY -c "import json,sys; print(len(json.load(open(sys.argv[1]))['data']))" timing.json) times: $(((t1 - t0) / 1000000)) ms through the CLI, $(curl -s -o /dev/null -w '%{size_download} bytes in %{time_total} s' -H "service-api-key: $KEY" "$SIM_URL/forecast/point?lat=15&lon=-70&bundles=$bundles") from the stand-in"

for p in "${points[@]}"; do
  set -- $p
  check "$1: forecast point, JSON and CSV" sh -c \
    "$S forecast point --lat $2 --lon $3 --bundles $bundles -f json -o $1.json 2>$1.err &&
     $S forecast point --lat $2 --lon $3 --bundles $bundles -f csv -o $1.csv 2>>$1.err &&
     test ! -s $1.err"
done
check "forecast latest: the same records as forecast point" sh -c \
  "$S forecast latest --lat 15 --lon -70 --bundles $bundles -f json -o latest.json 2>latest.err &&
   $PY -c 'import json,sys; a,b=(json.load(open(f))[\"data\"] for f in sys.argv[1:]); assert a==b' latest.json sea-node.json"
check "--units us: the same values converted" sh -c \
  "$S forecast point --lat 15 --lon -70 --bundles basic,maritime,wind --units us -f json -o us.json 2>us.err"
us_ok() {
  $PY - sea-node.json us.json <<'PY'
import json, sys
si, us = (json.load(open(f))["data"] for f in sys.argv[1:])
conv = {"air_temperature": (1.8, 32, 0.02), "dew_point_temperature": (1.8, 32, 0.02),
        "eastward_wind": (2.236936, 0, 0.02), "wind_speed_of_gust": (2.236936, 0, 0.02),
        "air_pressure_at_mean_sea_level": (0.000295300, 0, 1e-4),
        "precipitation_amount": (0.0393701, 0, 1e-4),
        "sea_surface_wave_significant_height": (3.28084, 0, 0.005),
        "sea_surface_wave_mean_period": (1, 0, 0), "wind_speed_100m": (2.236936, 0, 0.02)}
assert len(si) == len(us)
for a, b in zip(si, us):
    for k, (f, o, tol) in conv.items():
        if a[k] is None:
            assert b[k] is None, k
            continue
        assert abs(a[k] * f + o - b[k]) <= tol, (k, a[k], b[k])
PY
}
check "--units us: degF, mph, inHg, in, ft" us_ok

# ---- the files: every listed hour of the three bundles, through the CLI ----
$PY -c "import json; [print(r['name']) for r in json.load(open('fc.json'))['data']]" >names
mkdir -p files
t0=$(date +%s)
check "every listed file downloaded ($(wc -l <names) files)" sh -c \
  "xargs -P 2 -I{} $S forecast download {} --dir files <names 2>dl.err && test \$(ls files | wc -l) -eq \$(wc -l <names)"
echo "# downloaded $(ls files | wc -l) files in $(($(date +%s) - t0)) s"

# The grid points at and around each point: grib_get -i reads a grid index of
# every message of every file (grib_ls -l, the nearest points, is 6 times slower).
grid_keys=Ni,Nj,latitudeOfFirstGridPointInDegrees,longitudeOfFirstGridPointInDegrees,iDirectionIncrementInDegrees,jDirectionIncrementInDegrees,jScansPositively
check "one grid in every file" test "$(grib_get -p $grid_keys files/*.grib2 | sort -u | wc -l)" -eq 1
grib_get -p $grid_keys "files/$(head -1 names)" | head -1 >grid
nodes() { # NAME LAT LON NODE: "index lat lon" of the node, or of the 4 around
  $PY - "$@" <<'PY'
import math, sys
ni, nj, lat0, lon0, di, dj, jpos = (float(x) for x in open("grid").read().split())
assert jpos == 0  # rows north to south
lat, lon, node = float(sys.argv[2]), float(sys.argv[3]), sys.argv[4] == "1"
y, x = (lat0 - lat) / dj, ((lon - lon0) % 360) / di
js = [round(y)] if node else [math.floor(y), math.floor(y) + 1]
is_ = [round(x)] if node else [math.floor(x), math.floor(x) + 1]
for j in js:
    for i in is_:
        assert 0 <= j < nj and 0 <= i < ni
        if node:
            assert abs(j - y) < 1e-9 and abs(i - x) < 1e-9, "not a grid node"
        print(int(j * ni + i), lat0 - j * dj, (lon0 + i * di + 180) % 360 - 180)
PY
}
for p in "${points[@]}"; do
  set -- $p
  nodes "$@" >"$1.nodes"
done
cut -d' ' -f1 ./*.nodes | sort -un >indexes
check "grib_get read the files at $(wc -l <indexes) grid points" sh -c \
  "xargs -P 2 -I{} sh -c 'grib_get -F \" %.10g\" -i {} -p shortName,parameterNumber,decimalScaleFactor,dataDate,dataTime,endStep files/*.grib2 >at.{}' <indexes"

compare() { # NAME LAT LON NODE
  $PY - fc.json "$1.json" "$1.csv" "$1.nodes" "$2" "$3" "$4" <<'PY'
import csv, datetime, json, math, sys
listing, pt, pcsv, nodes = (sys.argv[1:5])
lat, lon, node = float(sys.argv[5]), float(sys.argv[6]), sys.argv[7] == "1"
listing = json.load(open(listing))["data"]
rows = json.load(open(pt))["data"]
MISSING = 9999.0

# times: the listing's run and hours, once per bundle
runs = {r["time"] for r in listing}
assert len(runs) == 1, runs
run = runs.pop()
hours = sorted({r["forecast_hour"] for r in listing})
for b in ("basic", "maritime", "wind"):
    assert sorted(r["forecast_hour"] for r in listing if r["bundle"] == b) == hours, b
assert len(rows) == len(hours), (len(rows), len(hours))
ref = datetime.datetime.strptime(run, "%Y-%m-%dT%H:%M:%SZ")
for r, h in zip(rows, hours):
    assert r["issuance_time"] == run, (r["issuance_time"], run)
    assert r["valid_time"] == (ref + datetime.timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert (r["lat"], r["lon"]) == (lat, lon)
by_hour = dict(zip(hours, rows))

# CSV: the same cells, a null an empty cell (never 0)
with open(pcsv) as f:
    crow = list(csv.DictReader(f))
assert len(crow) == len(rows)
for c, r in zip(crow, rows):
    for k, v in r.items():
        if v is None:
            assert c[k] == "", (k, c[k])
        elif isinstance(v, (int, float)):
            assert abs(float(c[k]) - v) < 1e-9, (k, c[k], v)

# The files at the grid points: (shortName, number, hour) -> [value per point]
corners = [(int(i), float(a), float(o)) for i, a, o in (l.split() for l in open(nodes))]
assert len(corners) == (1 if node else 4)
files, scale, UNSET = {}, {}, object()
for c, (idx, _, _) in enumerate(corners):
    for line in open("at.%d" % idx):
        sn, num, d, date, time, step, v = line.split()
        assert "%08d%04d" % (int(date), int(time)) == ref.strftime("%Y%m%d%H%M"), line
        key = (sn, int(num), int(step))
        v = None if float(v) == MISSING else float(v)
        vals = files.setdefault(key, [UNSET] * len(corners))
        # 10 m wind is in the basic and the wind files: the same values
        assert vals[c] is UNSET or vals[c] == v, ("two files differ", key, vals[c], v)
        vals[c] = v
        scale[key[:2]] = int(d)
assert {k[2] for k in files} == set(hours)
assert all(v is not UNSET for vals in files.values() for v in vals)

def bilinear(vals):
    lats = sorted({a for _, a, _ in corners}); lons = sorted({o for _, _, o in corners})
    assert lats[0] < lat < lats[1] and lons[0] < lon < lons[1], corners
    fy = (lat - lats[0]) / (lats[1] - lats[0]); fx = (lon - lons[0]) / (lons[1] - lons[0])
    return sum((fy if a == lats[1] else 1 - fy) * (fx if o == lons[1] else 1 - fx) * v
               for (_, a, o), v in zip(corners, vals))

def tol(d, v, dec, k=1):
    # packing: half a step of the decimal scale (k of them for a value made of
    # several), the reference value a float; the point's decimals
    return k * (0.5 * 10.0 ** -d * 1.001 + 1e-4) + 1e-6 * abs(v) + 0.5 * 10.0 ** -dec

def angle(a):
    return (a + 180) % 360 - 180

worst, compared, missing = {}, 0, 0
def check(name, got, vals, t, circular=False):
    global compared
    if circular:
        vals = [got + angle(v - got) for v in vals]
    if node:
        diff = got - vals[0]
        assert abs(diff) <= t, (name, got, vals[0], t)
    else:
        # a smooth field between its four nodes, which hold it within the packing
        assert min(vals) - t <= got <= max(vals) + t, (name, got, vals, t)
        diff = got - bilinear(vals)
    worst[name] = max(worst.get(name, 0), abs(diff))
    compared += 1

# file parameter -> point variable (SI): offset, decimals written
names = {("2t", 0): ("air_temperature", -273.15, 2), ("10u", 2): ("eastward_wind", 0, 2),
         ("10v", 3): ("northward_wind", 0, 2), ("i10fg", 22): ("wind_speed_of_gust", 0, 2),
         ("prmsl", 1): ("air_pressure_at_mean_sea_level", 0, 1),
         ("unknown", 8): ("precipitation_amount", 0, 3),
         ("swh", 3): ("sea_surface_wave_significant_height", 0, 3),
         ("mwd", 14): ("sea_surface_wave_from_direction", 0, 2),
         ("mwp", 15): ("sea_surface_wave_mean_period", 0, 2)}
for (sn, num, h), vals in sorted(files.items()):
    if sn in ("100u", "100v"):
        continue
    name, off, dec = names[(sn, num)]
    got = by_hour[h][name]
    if any(v is None for v in vals):
        # the files have nothing there (land for a wave parameter): nor has the point
        assert all(v is None for v in vals), (name, vals, "a point between land and sea")
        assert got is None, (name, h, got)
        missing += 1
        continue
    assert got is not None, (name, h)
    vals = [v + off for v in vals]
    check(name, got, vals, tol(scale[(sn, num)], max(map(abs, vals)), dec), "direction" in name)
# precipitation at the run's own time: no message in the file, null at the point
assert ("unknown", 8, 0) not in files and by_hour[0]["precipitation_amount"] is None

for h in hours:
    us, vs, d = files[("100u", 2, h)], files[("100v", 3, h)], scale[("100u", 2)]
    speeds = [math.hypot(u, v) for u, v in zip(us, vs)]
    check("wind_speed_100m", by_hour[h]["wind_speed_100m"], speeds, tol(d, max(speeds), 2, 1.5))
    if min(speeds) > 1:  # a direction is as good as its components
        dirs = [math.degrees(math.atan2(-u, -v)) % 360 for u, v in zip(us, vs)]
        t = math.degrees(math.atan(1.5 * (0.5 * 10.0 ** -d + 1e-4) / min(speeds))) + 0.005
        check("wind_direction_100m", by_hour[h]["wind_direction_100m"], dirs, t, True)

assert set(k[:2] for k in files) == set(names) | {("100u", 2), ("100v", 3)}
assert compared + missing >= 9 * len(hours), (compared, missing)
print("  %s: %d values at %d times, %d missing in both; max |point - %s|: %s" % (
    pt.replace(".json", ""), compared, len(hours), missing,
    "file" if node else "bilinear of the 4 nodes",
    ", ".join("%s %.3g" % kv for kv in sorted(worst.items()))))
PY
}
for p in "${points[@]}"; do
  set -- $p
  check "$1 ($2, $3): the files' run, hours and values at every time" compare "$1" "$2" "$3" "$4"
done

land_ok() { # the land points are land and the sea points sea, in the files and the points
  $PY - sea-node.json land-node.json sea-between.json land-between.json <<'PY'
import json, sys
for f, land in zip(sys.argv[1:], (0, 1, 0, 1)):
    rows = json.load(open(f))["data"]
    for r in rows:
        for k in ("sea_surface_wave_significant_height", "sea_surface_wave_from_direction",
                  "sea_surface_wave_mean_period", "sea_surface_temperature"):
            assert (r[k] is None) == bool(land), (f, k, r[k])
        for k in ("air_temperature", "eastward_wind", "wind_speed_of_gust", "wind_speed_100m"):
            assert isinstance(r[k], (int, float)), (f, k, r[k])
PY
}
check "waves and sea temperature null over land (not 0), numbers over sea" land_ok
check "no key in outputs or the logs" no_key_in ./*.json ./*.csv ./*.err access.log
finish
