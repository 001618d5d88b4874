#!/usr/bin/python3
"""bench/grib/grib1.py IN.grb2 OUT.grb1 RULES: what a GRIB2 file of wind and
pressure would weigh as GRIB1 written with WMO table 2 codes (33/34 u and v
at 10 m above ground, level type 105; 2 PRMSL at mean sea level, 102), as
the GRIB1 files sailors get from NCEP and Saildocs carry: each GRIB2 message
becomes one message of ecCodes' GRIB1 sample (regular_ll_sfc_grib1) with the
same grid, times, missing points (a bitmap), decimal precision and simple
packing. Written with the ecCodes tools only (grib_get, grib_get_data for
the values, grib_filter for the messages): a rules file per run."""
import subprocess
import sys

SAMPLE = "/usr/share/eccodes/samples/regular_ll_sfc_grib1.tmpl"
# GRIB2 (discipline, category, number, first surface) -> GRIB1 (parameter,
# level type, level)
WMO = {(0, 2, 2, 103): (33, 105, 10), (0, 2, 3, 103): (34, 105, 10),
       (0, 3, 1, 101): (2, 102, 0)}
KEYS = ("discipline,parameterCategory,parameterNumber,typeOfFirstFixedSurface:l,"
        "Ni,Nj,latitudeOfFirstGridPointInDegrees,longitudeOfFirstGridPointInDegrees,"
        "latitudeOfLastGridPointInDegrees,longitudeOfLastGridPointInDegrees,"
        "iDirectionIncrementInDegrees,jDirectionIncrementInDegrees,"
        "dataDate,dataTime,endStep,decimalScaleFactor,numberOfMissing")
MISSING = "9999"


def main():
    src, out, rules = sys.argv[1:4]
    heads = subprocess.run(["grib_get", "-p", KEYS, src], check=True, capture_output=True,
                           text=True).stdout.split("\n")
    heads = [h.split() for h in heads if h.strip()]
    data = subprocess.run(["grib_get_data", "-m", MISSING, "-F", "%.10g", src], check=True,
                          capture_output=True, text=True).stdout.split("\n")
    fields, cur = [], None
    for line in data:
        if line.startswith("Latitude"):
            cur = []
            fields.append(cur)
        elif line.strip():
            cur.append(line.split()[2])
    assert len(fields) == len(heads), (len(fields), len(heads))
    r = []
    for h, vals in zip(heads, fields):
        (disc, cat, num, surf, ni, nj, la1, lo1, la2, lo2, di, dj, date, time, step, dsf,
         nmiss) = h
        param, lt, lev = WMO[(int(disc), int(cat), int(num), int(surf))]
        assert len(vals) == int(ni) * int(nj), (len(vals), ni, nj)
        r.append(f"""set deleteLocalDefinition = 1; set table2Version = 3; set indicatorOfParameter = {param};
set indicatorOfTypeOfLevel = {lt}; set level = {lev};
set dataDate = {date}; set dataTime = {time};
set unitOfTimeRange = 1; set timeRangeIndicator = 0; set P1 = {step}; set P2 = 0;
set Ni = {ni}; set Nj = {nj}; set jScansPositively = 0;
set latitudeOfFirstGridPointInDegrees = {la1}; set longitudeOfFirstGridPointInDegrees = {lo1};
set latitudeOfLastGridPointInDegrees = {la2}; set longitudeOfLastGridPointInDegrees = {lo2};
set iDirectionIncrementInDegrees = {di}; set jDirectionIncrementInDegrees = {dj};
set packingType = "grid_simple"; set bitmapPresent = {1 if int(nmiss) else 0};
set missingValue = {MISSING}; set decimalScaleFactor = {dsf};
set values = {{{",".join(vals)}}};
write "{out}";
""")
    with open(rules, "w") as f:
        f.write("".join(r))
    open(out, "wb").close()
    subprocess.run(["grib_filter", rules, SAMPLE], check=True)


main()
