#!/usr/bin/env bash
# The departure plan's chart is the only code that draws: cairo, and
# fontconfig through it, are loaded by libseawx_chart alone, which libseawx
# opens when a chart is asked for. usage: check_no_cairo.sh CHART_LIB FILE...
# CHART_LIB must need cairo (so that this check can see it); no FILE may, not
# as a direct dependency (readelf -d) nor through another library (ldd).
set -euo pipefail
chart=$1
shift
pass=0 fail=0
needs() { readelf -d "$1" | grep -E 'NEEDED.*\[(libcairo|libfontconfig|libpixman)' || true; }
loads() { ldd "$1" | grep -E '^\s*libcairo' || true; }
if [ -n "$(needs "$chart")" ]; then
  pass=$((pass + 1))
else
  echo "FAIL: $chart does not list libcairo: this check would see nothing"; fail=$((fail + 1))
fi
for f in "$@"; do
  bad="$(needs "$f")$(loads "$f")"
  if [ -z "$bad" ]; then
    pass=$((pass + 1))
  else
    echo "FAIL: $f needs cairo:"; echo "$bad"; fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
