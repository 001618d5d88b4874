#!/usr/bin/env bash
# seawx vessels end to end: paged across several pages, every EVD category
# flattened into typed columns, lower tiers null, every output format.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
export SEAWX_SIM_VESSELS=8
sim_start
export SEAWX_VESSELS_URL=$SIM_URL
S=$SEAWX_CLI
py=python3
cd "$T" || exit 1

for f in json csv geojson table; do
  check "vessels as $f" sh -c "$S vessels -f $f -o v.$f 2>v.$f.err && test -s v.$f"
done
check "three pages, the next cursor repeated with the filters" sh -c "[ \$(grep -c 'GET [^ ]* /vessels?embed=enhanced_data' access.log) -eq 12 ] && [ \$(grep -c '/vessels?embed=enhanced_data&next=' access.log) -eq 8 ]"
check "progress per page" grep -q "page 3, 8 of 8 vessels" v.json.err
flat_ok() {
  $py - <<'PY'
import json
d = json.load(open("v.json"))
rows = d["data"]
assert len(rows) == 8 and d["meta"]["pages"] == "3" and d["meta"]["total"] == "8"
cats = {"capacity": 8, "history": 6, "vessel_and_trading_type": 4, "propulsions": 9,
        "registration": 3, "design": 1, "dimensions": 4}
for c, n in cats.items():
    cols = [k for k in rows[0] if k.startswith(c + "_")]
    assert len(cols) == n, (c, cols)
r = rows[0]
assert isinstance(r["capacity_dwt"], int) and rows[1]["dimensions_loa"] == 162.5
assert r["registration_ice_classed"] in (True, False) and r["history_name_date"].endswith("Z")
assert r["history_dead_year"] == 2023 and r["design_coated"] == 0
assert rows[2]["capacity_displacement"] is None          # null in the answer
assert all(v is None for k, v in rows[4].items() if "_" in k and k.split("_")[0] in
           ("capacity", "history", "vessel", "propulsions", "registration", "design", "dimensions"))
PY
}
check "every category flattened into typed columns" flat_ok
check "CSV read back by ogr2ogr" sh -c "ogr2ogr -f GeoJSON v.csv.json v.csv -oo AUTODETECT_TYPE=YES 2>/dev/null && $py -c \"import json; d=json.load(open('v.csv.json')); assert len(d['features'])==8\""
check "GeoJSON read back by ogr2ogr" sh -c "ogr2ogr -f CSV v.geo.csv v.geojson 2>/dev/null && [ \$(( \$(wc -l <v.geo.csv) - 1 )) -eq 8 ]"
check "one category" sh -c "$S vessels --categories dimensions --limit 5 -f csv -o d.csv 2>/dev/null && head -1 d.csv | tr -d '\\r' | grep -qx 'id,imo,mmsi,name,dimensions_air_draught,dimensions_draught,dimensions_ktm,dimensions_loa' && grep -q 'embed=enhanced_data.dimensions&limit=5' access.log"
check "--pages stops early" sh -c "$S vessels --limit 2 --pages 2 -f json 2>/dev/null | $py -c 'import json,sys; assert len(json.load(sys.stdin)[\"data\"])==4'"
check "bad category refused before sending" sh -c "$S vessels --categories capacity,engines 2>e.err; [ \$? -eq 2 ] && grep -q 'categories must be a comma list' e.err"
check "no key in outputs" no_key_in v.json v.csv v.geojson v.table
kill "$SIM_PID" 2>/dev/null
wait "$SIM_PID" 2>/dev/null
rm -f "$T/port" # sim_start waits for a fresh port file

# A Standard-tier key: extended fields are absent, and come out null, not errors.
export SEAWX_SIM_VESSELS_TIER=standard
sim_start
export SEAWX_VESSELS_URL=$SIM_URL
std_ok() {
  $S vessels -f json -o std.json 2>std.err || return 1
  $py - <<'PY'
import json
rows = json.load(open("std.json"))["data"]
assert len(rows) == 8
r = rows[0]
assert r["capacity_dwt"] is not None and r["history_built_year"] is not None
assert r["vessel_and_trading_type_vessel_type"] is not None
assert r["capacity_net_tonnage"] is None and r["propulsions_mco"] is None
assert r["registration_ice_classed"] is None and r["dimensions_loa"] is None
PY
}
check "lower tier: extended fields null" std_ok
check "no Vessels API address: exit 3" sh -c "SEAWX_VESSELS_URL= $S vessels 2>n.err; [ \$? -eq 3 ] && grep -q SEAWX_VESSELS_URL n.err"
finish
