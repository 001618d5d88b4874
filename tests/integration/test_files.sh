#!/usr/bin/env bash
# File listings and downloads (soil moisture NetCDF, current-weather and
# forecast GRIB2), the storage redirect without the key, resumed downloads,
# and historical region jobs from start to downloaded file.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# A job is pending for its first 3 s and complete after 9 s: long enough that
# a busy machine still sees it pending when section 4 asks and watches it.
export SEAWX_SIM_STORAGE_CUT=1 SEAWX_SIM_JOB_MS=9000
sim_start
S=$SEAWX_CLI
py=python3
cd "$T" || exit 1

# 1. Listings with realistic names, every format.
for src in "soil files" "weather files --regions global,europe" "forecast files --bundles basic,wind"; do
  name=$(echo "$src" | cut -d' ' -f1)
  for f in json csv geojson table; do
    check "$name listing as $f" sh -c "$S $src -f $f -o $name.list.$f 2>$name.err && test -s $name.list.$f"
  done
  check "$name listing CSV read by ogr2ogr" sh -c "ogr2ogr -f GeoJSON $name.list.csv.json $name.list.csv 2>/dev/null"
done
names_ok() {
  $py - <<'PY'
import json, re
soil = json.load(open("soil.list.json"))
assert soil["meta"]["count"] == "29" and len(soil["data"]) == 29
assert all(re.fullmatch(r"soil-moisture\.\d{8}\.global\.nc", r["name"]) for r in soil["data"])
assert all(r["format"] == "netcdf" and r["time"].endswith("T00:00:00Z") for r in soil["data"])
w = json.load(open("weather.list.json"))["data"]
assert len(w) == 48 and {r["region"] for r in w} == {"global", "europe"}
assert all(re.fullmatch(r"cwc\.\d{8}\.t\d\dz\.0p027\.basic\.(global|europe)\.grib2", r["name"]) for r in w)
f = json.load(open("forecast.list.json"))["data"]
hours = list(range(0, 121)) + list(range(123, 241, 3))  # hourly to 120 h, 3-hourly to 240 h
assert len(f) == 2 * len(hours) and {r["bundle"] for r in f} == {"basic", "wind"}
assert sorted({r["forecast_hour"] for r in f}) == hours
PY
}
check "listings carry the service's names, dates, regions, bundles" names_ok

# 2. Downloads follow the redirect to the storage host, which got no key.
soil=$($py -c "import json; print(json.load(open('soil.list.json'))['data'][-1]['name'])")
cwc=$($py -c "import json; print(json.load(open('weather.list.json'))['data'][0]['name'])")
fc=$($py -c "import json; print(json.load(open('forecast.list.json'))['data'][1]['name'])")
check "soil file downloaded" sh -c "$S soil download $soil 2>soil.dl.err"
check "weather file downloaded into --dir" sh -c "mkdir -p dl && $S weather download $cwc --dir dl 2>cwc.dl.err"
check "forecast file downloaded to -o" sh -c "$S forecast download $fc -o fc.grib2 2>fc.dl.err"
check "progress and result on stderr" grep -q "written to $soil" soil.dl.err
check "no partial files left" sh -c "! ls *.part dl/*.part 2>/dev/null | grep -q ."
storage_ok() {
  # Every storage request (127.0.0.2) came without the key, and was answered.
  grep -E "^GET 127\.0\.0\.2:" access.log >storage.log
  [ "$(wc -l <storage.log)" -ge 3 ] && ! grep -v "auth=none" storage.log | grep -q . &&
    ! grep -q " 403 " storage.log
}
check "the storage host received no key" storage_ok
check "the service saw the key, the redirect was a 302" grep -q "/soil-moisture/region/$soil 302 .* auth=header" access.log
check "no key in access log or outputs" no_key_in access.log soil.dl.err cwc.dl.err
# The first whole-file answer of each file was cut short: the client resumed
# with a Range request and got 206.
check "cut transfer resumed with a range (206)" grep -q "/files/soil-moisture/$soil?.* 206 " access.log
check "NetCDF file opens in GDAL with its four variables" sh -c "gdalinfo $soil | grep -c 'SUBDATASET_[0-9]_NAME=NETCDF:.*:soil_' | grep -qx 4"
# The GRIB2 files hold the fields of their bundle, one per band, on the global
# 0.25 degree grid (test_sim_grib.sh looks into them further).
elements() { gdalinfo "$1" | sed -n 's/^ *GRIB_ELEMENT=//p' | tr '\n' ' '; }
check "current-weather GRIB2 opens in GDAL with its 6 fields" \
  test "$(elements "dl/$cwc")" = "UGRD VGRD GUST PRMSL TMP PRATE "
check "forecast GRIB2 (basic, f001) has wind, gust, pressure, temperature, rain" \
  test "$(elements fc.grib2)" = "UGRD VGRD GUST PRMSL TMP APCP01 "
check "forecast GRIB2 is global at 0.25 degree" sh -c "gdalinfo fc.grib2 | grep -q '^Size is 1440, 721'"

# 3. An interrupted download left FILE.part: the same command resumes it.
resume_ok() {
  head -c 5000 "$soil" >again.nc.part
  $S soil download "$soil" -o again.nc 2>again.err || return 1
  grep -q "resumed after 4.9 KiB" again.err && cmp -s again.nc "$soil" && [ ! -e again.nc.part ]
}
check "partial download resumed by the same command" resume_ok
check "unknown file: exit 5, nothing left" sh -c "$S soil download soil-moisture.20240115.mars.nc -o x.nc 2>x.err; [ \$? -eq 5 ] && [ ! -e x.nc ] && [ ! -e x.nc.part ] && grep -q 'HTTP 404' x.err"
check "bad file name refused before sending" sh -c "$S soil download '../etc/passwd' 2>y.err; [ \$? -eq 2 ] && grep -q 'file must be a file name' y.err"

# 4. A historical region job: start, watch (pending, then an unlisted status,
#    then complete) with a progress line, download.
job_ok() {
  $S soil job start --region global --start 2024-01-01 --end 2024-01-31 --poll 1 -o job.nc >job.out 2>job.err || return 1
  uuid=$(cat job.out)
  echo "$uuid" | grep -Eq '^[0-9a-f-]{36}$' && grep -q "job $uuid: complete" job.err &&
    grep -q "started (pending)" job.err && gdalinfo job.nc | grep -q soil_moisture_40_100cm &&
    grep -q "/soil-moisture/historical/download/$uuid 302" access.log
}
check "job lifecycle from start to downloaded file" job_ok
watch_ok() {
  $S soil job start --region europe --start 2024-02-01 --end 2024-02-10 --no-wait >job2.out 2>job2.err || return 1
  uuid=$(cat job2.out)
  [ "$($S soil job status "$uuid")" = pending ] || return 1
  # Interrupted while watching: exit 130 and the way to resume.
  # Interrupted once it has asked for the job's status (the access log shows
  # its request: it is in its watch loop, past starting up).
  asked=$(grep -c "/status/$uuid " access.log)
  $S soil job watch "$uuid" --poll 1 -o job2.nc 2>job2w.err &
  pid=$!
  progress_or_exit $pid 120 eval '[ "$(grep -c "/status/$uuid " access.log)" -gt "$asked" ]' || return 1
  kill -INT $pid
  wait $pid
  [ $? -eq 130 ] && grep -q "resume with: seawx soil job watch $uuid" job2w.err && [ ! -e job2.nc ] || return 1
  $S soil job watch "$uuid" --poll 1 -o job2.nc 2>job2r.err && grep -q "complete" job2r.err &&
    gdalinfo job2.nc | grep -q soil_temperature_0_10cm
}
check "watching a job resumes by its uuid after an interruption" watch_ok
check "unknown job: exit 5" sh -c "$S soil job status 00000000-0000-4000-a000-000000000000 2>/dev/null; [ \$? -eq 5 ]"
check "bad uuid refused before sending" sh -c "$S soil job watch not-a-uuid 2>z.err; [ \$? -eq 2 ] && grep -q 'job must be a job uuid' z.err"
check "job end before start refused" sh -c "$S soil job start --region global --start 2024-02-01 --end 2024-01-01 2>z.err; [ \$? -eq 2 ] && grep -q 'end (2024-01-01T00:00:00Z) must be after start' z.err"
finish
