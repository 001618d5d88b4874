#!/usr/bin/env bash
# The GDAL plugin's point, time-series and vessel layers (ogrinfo, ogr2ogr)
# and the service's files as raster subdatasets (gdalinfo).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
export SEAWX_VESSELS_URL=$SIM_URL SEAWX_CACHE_DIR=$T/cache
py=python3
cd "$T" || exit 1

check "tides layer: typed fields" sh -c "ogrinfo -ro -so -al 'SEAWX:tides,lat=59.9,lon=10.7,start=2024-01-01,hours=24' >t.info 2>t.err && grep -q 'Feature Count: 24' t.info && grep -q 'valid_time: DateTime' t.info && grep -q 'tide_height: Real' t.info && grep -q 'Geometry: Point' t.info && grep -q 'HEIGHT_UNIT=m' t.info"
check "tides layer to GeoJSON with ogr2ogr" sh -c "ogr2ogr -f GeoJSON t.geojson 'SEAWX:tides,lat=59.9,lon=10.7,start=2024-01-01,hours=24' 2>/dev/null"
tides_match() {
  "$SEAWX_CLI" tides hourly --lat 59.9 --lon 10.7 --start 2024-01-01 --hours 24 -f json >t.json || return 1
  $py - <<'PY'
import json
g = json.load(open("t.geojson"))["features"]; d = json.load(open("t.json"))["data"]
assert len(g) == 24
for f, r in zip(g, d):
    assert abs(f["properties"]["tide_height"] - r["tide_height"]) < 1e-9
    assert f["properties"]["valid_time"].replace("/", "-").startswith(r["valid_time"][:10])
    assert f["geometry"]["coordinates"] == [10.7, 59.9]
PY
}
check "layer and CLI agree" tides_match
check "extrema layer: one feature a day, Date field" sh -c "ogrinfo -ro -so -al 'SEAWX:tide-extrema,lat=1,lon=2,start=2024-03-01,end=2024-03-05,units=us' | grep -q 'date: Date' && ogrinfo -ro -so -al 'SEAWX:tide-extrema,lat=1,lon=2,start=2024-03-01,end=2024-03-05' | grep -q 'Feature Count: 5'"
check "weather layer with a field mask (%2C in the string)" sh -c "ogrinfo -ro -so -al 'SEAWX:weather,lat=1,lon=2,fields={data{values{air_temperature%2Cwind_speed}}}' >w.info && grep -q 'air_temperature: Real' w.info && ! grep -q relative_humidity w.info"
check "forecast layer by bundles" sh -c "ogrinfo -ro -so -al 'SEAWX:forecast,lat=1,lon=2,bundles=solar' | grep -q 'global_horizontal_irradiance: Real'"
check "soil layer" sh -c "ogrinfo -ro -al -q 'SEAWX:soil,lat=52.5,lon=13.4,time=2024-01-15' | grep -q 'soil_moisture_0_10cm (Real)'"
check "vessels layer: every page, typed" sh -c "ogrinfo -ro -so -al SEAWX:vessels >v.info && grep -q 'Feature Count: 7' v.info && grep -q 'capacity_dwt: Integer64' v.info && grep -q 'registration_ice_classed: Integer(Boolean)' v.info && grep -q 'Geometry: None' v.info"
check "bad latitude: one error, nothing sent" sh -c "n=\$(wc -l <access.log); ! ogrinfo -ro 'SEAWX:tides,lat=91,lon=0' >/dev/null 2>b.err && grep -q 'lat must be a number from -90 to 90' b.err && [ \$(wc -l <access.log) -eq \$n ]"
check "unknown option named" sh -c "! ogrinfo -ro 'SEAWX:tides,lat=1,lon=0,depth=3' >/dev/null 2>o.err && grep -q \"takes no option 'depth'\" o.err"

# Files as raster subdatasets.
check "gdalinfo SEAWX:soil-moisture lists the files" sh -c "gdalinfo SEAWX:soil-moisture >s.info && [ \$(grep -c 'SUBDATASET_[0-9]*_NAME=SEAWX:soil-moisture,file=soil-moisture\\.[0-9]\\{8\\}\\.global\\.nc' s.info) -eq 29 ]"
sub=$(grep SUBDATASET_1_NAME s.info | cut -d= -f2-)
check "a downloaded soil-moisture subdataset shows its variables" sh -c "gdalinfo '$sub' >sub.info && grep -q 'Driver: netCDF' sub.info && [ \$(grep -c 'NETCDF:.*:soil_' sub.info) -eq 4 ]"
check "the file sits in the cache, whole" sh -c "ls cache/files/soil-moisture/*.nc >/dev/null && ! ls cache/files/soil-moisture/*.part 2>/dev/null | grep -q ."
check "one variable opens by name" sh -c "gdalinfo '$sub,variable=soil_temperature_0_10cm' | grep -q 'Size is 180, 90'"
check "a second open uses the cached file" sh -c "n=\$(grep -c '/files/soil-moisture/' access.log); gdalinfo '$sub' >/dev/null && [ \$(grep -c '/files/soil-moisture/' access.log) -eq \$n ]"
check "current-weather files as GRIB2 subdatasets" sh -c "c=\$(gdalinfo SEAWX:current-weather | grep SUBDATASET_1_NAME | cut -d= -f2-) && gdalinfo \"\$c\" | grep -q 'Driver: GRIB'"
nothing_left() {
  mkdir -p "$T/cwd" && cd "$T/cwd" || return 1
  gdalinfo SEAWX:soil-moisture >/dev/null 2>&1
  ogrinfo -ro -so SEAWX:storms >/dev/null 2>&1
  ogrinfo -ro -so "SEAWX:tides,lat=59.91,lon=10.75,start=2024-01-15T00:00:00Z,hours=6" >/dev/null 2>&1
  local left
  left=$(ls -A)
  cd "$T" || return 1
  [ -z "$left" ] || { echo "  left behind: $left"; return 1; }
}
check "opening datasets leaves no .aux.xml or other file in the working folder" nothing_left
check "storage host received no key" sh -c "! grep -E '^GET 127\\.0\\.0\\.2:' access.log | grep -v 'auth=none' | grep -q ."
finish
