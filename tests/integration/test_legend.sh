#!/usr/bin/env bash
# The value legend as a navigator reads it: `seawx legend` writes the service's
# legend graphic, which the stand-in draws as WMS servers do (the style's colour
# ramp, ticks, values and the unit). legend_check.py reads each back: the strip
# is the ramp alone (the same layer's legend asked 16 pixels high, too small for
# words), tesseract reads at least three round, evenly spaced values and the
# unit under it, and each value's tick sits on one linear scale. For t2m:K
# (K), swh (m) and t2m:C at 400 x 60 (C); the default size is the one the
# capabilities' LegendURL gives.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
S=$SEAWX_CLI
py=/usr/bin/python3 # Debian's, where PyQt5 lives
export QT_QPA_PLATFORM=offscreen
cd "$T" || exit 1
for p in tesseract convert; do
  check "$p is installed (scripts/install-deps.sh)" sh -c 'command -v "$0" >/dev/null' "$p"
done
legend() { # NAME BUNDLE VAR UNIT [SIZE ARGS...]
  local name=$1 bundle=$2 var=$3 unit=$4
  shift 4
  "$S" legend -b "$bundle" -v "$var" "$@" -o "$name.png" 2>"$name.err" &&
    "$S" legend -b "$bundle" -v "$var" --height 16 "${@:1:2}" -o "$name.strip.png" 2>>"$name.err" &&
    $py "$here/legend_check.py" "$name.png" "$unit" "$name.strip.png" >"$name.out" 2>&1
  local rc=$?
  cat "$name.out"
  return $rc
}
check "t2m:K: the ramp, its values and K" legend k basic t2m:K K
check "swh: the ramp, its values and m" legend m maritime swh m
check "t2m:C at 400 x 60: the ramp, its values and C" legend c basic t2m:C C --width 400 --height 60
caps_size=$(curl -s -H "service-api-key: $KEY" "$SIM_URL/ows/wms?service=WMS&request=GetCapabilities&version=1.3.0&product=sof-d&bundle=basic" |
  grep -o '<LegendURL width="[0-9]*" height="[0-9]*"' | head -1 | sed 's/[^0-9 ]//g' | tr -s ' ' | sed 's/^ //')
check "the default size is the capabilities' LegendURL size ($caps_size)" sh -c \
  "[ -n '$caps_size' ] && [ \"\$(identify -format '%w %h' k.png)\" = '$caps_size' ]"
check "a legend too small for words (63 x 40): the strip alone, the ramp's colours" sh -c \
  "'$S' legend -b basic -v t2m:K --width 63 --height 40 -o small.png 2>/dev/null &&
   [ \"\$(convert small.png -format %c histogram:info:- | wc -l)\" -gt 20 ] &&
   ! $py '$here/legend_check.py' small.png K small.png >/dev/null 2>&1"
finish
