#!/usr/bin/env bash
# The forecast through time in OpenCPN 5.10: its GRIB plugin with a voyage
# GRIB. `seawx grib` cuts a 2-day voyage eastwards from 40N 60W (the window
# cut, --viewer opencpn); OpenCPN, under Xvfb in a network namespace of its own
# (loopback only), opens it with the GRIB plugin (the plugin's tool pressed
# with xdotool, as in test_grib_viewers) and is zoomed out twice so that the
# file's area is a part of the chart. The plugin's control bar (its own
# window, moved below OpenCPN's) is driven with its own buttons: Next, then
# Previous. Checks, on screenshots taken once the screen has settled:
# - Next draws the second valid time: the chart differs from the first time's
#   where the plugin draws the file's wind (a few hundred pixels, in a box
#   that is a small part of the chart: land and open sea elsewhere are
#   unchanged), and the control bar's time label changes;
# - Previous draws the first time again, chart and label pixel for pixel;
# - read by tesseract-ocr, the label shows each time as the file's
#   valid time ("Sat 28-Nov-2026 06:00 UTC").
# And the forecast as MBTiles charts, one file per valid time: three files of
# one layer and area (`seawx seed --viewer opencpn --time`) in OpenCPN's chart
# directory show as three alike keys of its chart bar. OpenCPN's log adds the
# three; the pointer on each key shows its Chart Info window, which (read by
# tesseract-ocr, which scripts/install-deps.sh installs) names the
# file's valid time from its `name` ("swh 28 Nov 06:00Z"); a click on the
# first key hides that chart and another valid time is drawn, on the second
# key the third time, and the first key again draws the first chart on top
# again.
# Screenshots stay in the test's folder ($T/opencpn, $T/mbtiles) while it runs.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
S=$SEAWX_CLI
py=/usr/bin/python3 # Debian's, where PIL lives
check_py=$here/opencpn_time_check.py
for p in opencpn Xvfb xdotool import convert unshare grib_get; do
  check "$p is installed (scripts/install-deps.sh)" sh -c 'command -v "$0" >/dev/null' "$p"
done
cd "$T" || exit 1

printf 'lat,lon\n40,-60\n38.5,-50\n36,-40.5\n' >route.csv
depart=$(date -u -d @$((($(date -u -d "$SIM_NOW" +%s) / 21600 + 2) * 21600)) +%Y-%m-%dT%H:%M:%SZ)
check "voyage GRIB (window cut) written" sh -c '"$0" grib --viewer opencpn --route route.csv --depart "$1" --speed 6-8 --days 2 --cache "$2" -o voyage.grb2 2>grib.err' \
  "$S" "$depart" "$T/cache"
# The file's first two valid times, as the plugin's label writes them.
label() { date -u -d "$1 $(printf %04d "$2" | sed 's/../&:/')" '+%a %d-%b-%Y %H:%M UTC'; }
mapfile -t vt < <(grib_get -w shortName=10u -p validityDate,validityTime voyage.grb2 | head -2)
v0=$(label ${vt[0]}) v1=$(label ${vt[1]})
echo "# valid times: $v0, $v1"
field() { grib_get_data -w shortName=10u,validityTime="$1" voyage.grb2 | md5sum; }
check "the file's wind differs between its first two valid times" \
  test "$(field "${vt[0]#* }")" != "$(field "${vt[1]#* }")"

# ---- OpenCPN ----
# xstart.sh, opencpn_drive.sh and settle.sh, sourced by the scripts below
# with $out set.
# xstart.sh (tests/integration/xstart.sh, with $xbase set): Xvfb on a
# display of its own, answering, as $xp and $DISPLAY.
cp "$here/xstart.sh" xstart.sh
cp "$here/opencpn_drive.sh" opencpn_drive.sh
cat >settle.sh <<'IN'
# The screen without the status bar (its activity mark turns every second).
look() {
  import -window root "$1.png" && convert "$1.png" -fill black -draw 'rectangle 0,467 1023,499' "$1.ppm"
}
# settled NAME: the screen once it has stayed the same over three looks half a
# second apart and differs from the last one kept ($last): NAME.png.
last=
settled() {
  local t0=$SECONDS same=0
  look "$out/a"
  while [ $((SECONDS - t0)) -lt 60 ]; do
    sleep 0.5
    look "$out/b"
    if cmp -s "$out/a.ppm" "$out/b.ppm"; then
      same=$((same + 1))
      if [ $same -ge 2 ] && { [ -z "$last" ] || ! cmp -s "$out/b.ppm" "$last.ppm"; }; then
        mv "$out/b.png" "$out/$1.png" && mv "$out/b.ppm" "$out/$1.ppm" && last=$out/$1 && return 0
      fi
    else
      same=0
      mv "$out/b.png" "$out/a.png"
      mv "$out/b.ppm" "$out/a.ppm"
    fi
  done
  echo "  the screen did not settle on something new for $1"
  return 1
}
IN
mkdir -p opencpn
cat >opencpn.sh <<'IN'
# opencpn.sh FILE OUT: OpenCPN shows FILE with its GRIB plugin; OUT/t0.png is
# the screen at the first valid time, OUT/t1.png after Next, OUT/t2.png after
# Previous. Runs in a network namespace of its own.
f=$1 out=$2
ip link set lo up 2>/dev/null || true
export HOME=$out/home
mkdir -p "$HOME/.opencpn" "$HOME/grib"
cp "$f" "$HOME/grib/voyage.grb2"
printf '[Settings]\nShowWelcome=0\n[PlugIns/libgrib_pi.so]\nbEnabled=1\n[PlugIns/GRIB]\nLoadLastOpenFile=0\nZoomToCenterAtInit=1\n[Directories]\nGRIBDirectory=%s\n' \
  "$HOME/grib" >"$HOME/.opencpn/opencpn.conf"
xbase=$out/x
. "$(dirname "$0")/xstart.sh" || exit 1
# OpenCPN's start and the GRIB tool pressed until the plugin's control bar
# names the file (tests/integration/opencpn_drive.sh).
. "$(dirname "$0")/opencpn_drive.sh"
ocpn_drive 120 3 "$out/opencpn.out" ocpn_grib_bar
. "$(dirname "$0")/settle.sh"
ok=0
if [ -n "$bar" ]; then
  # The control bar (a window of its own, over the chart's toolbar) below the
  # 716x490 main window: Previous at 25,519, the time label at 58-258,505-535,
  # Next at 311,519. The zoom-out button at 519,440 (twice).
  xdotool windowmove --sync "$bar" 0 500 >/dev/null 2>&1
  xdotool mousemove 1000 690 >/dev/null 2>&1 # the pointer off the chart
  settled open &&
    xdotool mousemove 519 440 click 1 mousemove 1000 690 >/dev/null 2>&1 && settled zoom1 &&
    xdotool mousemove 519 440 click 1 mousemove 1000 690 >/dev/null 2>&1 && settled t0 &&
    xdotool mousemove 311 519 click 1 mousemove 1000 690 >/dev/null 2>&1 && settled t1 &&
    xdotool mousemove 25 519 click 1 mousemove 1000 690 >/dev/null 2>&1 && settled t2 && ok=1
fi
[ $starts -le 1 ] || echo "  OpenCPN started $starts times"
[ $ok = 1 ] || {
  echo "  the GRIB plugin's control bar: ${bar:-none}; OpenCPN started $starts times, $(kill -0 $op 2>/dev/null && echo running || echo gone)"
  tail -5 "$out/opencpn.out"
  echo "  windows: $(xdotool search --name . getwindowname %@ 2>/dev/null | sort -u | head -8 | tr '\n' '|')"
  tail -5 "$HOME/.opencpn/opencpn.log" 2>/dev/null
}
kill -9 $op 2>/dev/null
kill $xp 2>/dev/null
wait $op $xp 2>/dev/null
rm -f "$out"/a.* "$out"/b.* "$out/x.display"
[ $ok = 1 ]
IN
t0=$(date +%s%N)
check "OpenCPN's GRIB plugin showed the file, then Next, then Previous, under Xvfb (loopback only)" \
  timeout -s KILL 150 unshare -n bash opencpn.sh "$T/voyage.grb2" "$T/opencpn"
t1=$(date +%s%N)
echo "# OpenCPN: opened, zoomed out, stepped twice in $(((t1 - t0) / 1000000)) ms"
chart=0,0,716,466   # OpenCPN's chart, above its status bar
timelabel=58,505,258,535 # the plugin's time label
check "Next: the chart at the second valid time differs from the first where the wind is drawn" \
  $py "$check_py" differ opencpn/t0.png opencpn/t1.png $chart 200 0.25
check "Next: the plugin's time label changes" \
  $py "$check_py" differ opencpn/t0.png opencpn/t1.png $timelabel 20 1
check "Previous: the first valid time again, the chart pixel for pixel" \
  $py "$check_py" same opencpn/t0.png opencpn/t2.png $chart
check "Previous: the first valid time's label again, pixel for pixel" \
  $py "$check_py" same opencpn/t0.png opencpn/t2.png $timelabel
# The label read as text by tesseract-ocr.
ocr() {
  # enlarged smoothly (Lanczos), in grey: digits enlarged as blocks of pixels
  # (-scale) read "18:00" as "16:00"
  convert "$1" -crop 200x30+58+505 +repage -filter Lanczos -resize 400% -colorspace Gray "$1.label.png" &&
    tesseract "$1.label.png" - --psm 7 2>/dev/null | tr -s ' \n' ' ' | sed 's/ $//'
}
if command -v tesseract >/dev/null; then
  r0=$(ocr opencpn/t0.png) r1=$(ocr opencpn/t1.png)
  echo "# the plugin's time label reads: '$r0', then '$r1'"
  check "the plugin's label shows the file's first valid time ($v0)" test "$r0" = "$v0"
  check "after Next, the plugin's label shows the file's second valid time ($v1)" test "$r1" = "$v1"
else
  check "tesseract-ocr is installed (scripts/install-deps.sh), to read the time label" false
fi
# ---- The MBTiles charts, one per valid time ----
# Three files of one layer and area at three valid times, the files' folder
# OpenCPN's one chart directory, the view on their area. The chart bar shows
# one key per file, alike; the pointer on a key shows OpenCPN's Chart Info
# window with the file's path and its `name` (the layer and the valid time).
# A click on a key hides that chart (and a second click shows it again): the
# canvas draws the first key's chart over the others, so hiding it shows the
# next one's.
mkdir -p charts
tn=()
for i in 0 1 2; do
  read -r d h < <(grib_get -w shortName=10u -p validityDate,validityTime voyage.grb2 | sed -n "$((i + 1))p")
  tn[i]=$(date -u -d "$d $(printf %04d "$h" | sed 's/../&:/')" +%Y-%m-%dT%H:%M:%SZ)
  check "swh at ${tn[i]} seeded for OpenCPN" "$S" seed -b maritime -v swh:m --bbox -5,42,20,55 -z 4-5 -q \
    --viewer opencpn --time "${tn[i]}" -o "charts/swh-$(date -u -d "${tn[i]}" +%Y%m%dT%H%MZ).mbtiles"
done
cat >charts.sh <<'IN'
# charts.sh DIR OUT: OpenCPN with DIR as its chart directory; OUT/base.png the
# screen with every chart shown, OUT/key1.png .. key3.png with the pointer on
# each key of the chart bar, OUT/hide1.png after a click on the first key,
# OUT/hide2.png after one on the second, OUT/show1.png after the first again.
dir=$1 out=$2
ip link set lo up 2>/dev/null || true
export HOME=$out/home
mkdir -p "$HOME/.opencpn"
printf '[Settings]\nShowWelcome=0\n[Settings/GlobalState]\nVPLatLon="48.5,7.5"\nVPScale=0.00025\nOwnShipLatLon="48.5,7.5"\n[ChartDirectories]\nChartDir1=%s\n' \
  "$dir" >"$HOME/.opencpn/opencpn.conf"
xbase=$out/x
. "$(dirname "$0")/xstart.sh" || exit 1
# OpenCPN started (tests/integration/opencpn_drive.sh) until its log has
# added the three charts.
. "$(dirname "$0")/opencpn_drive.sh"
added=0
three_added() {
  added=$(grep -c 'Adding chart file' "$HOME/.opencpn/opencpn.log" 2>/dev/null)
  [ "$added" = 3 ]
}
ocpn_drive 90 3 "$out/opencpn.out" three_added --rebuild_chart_db
. "$(dirname "$0")/settle.sh"
ok=0
# The chart bar's three keys in the 716x490 main window: at y 456, x 70, 215,
# 355. Between them the pointer rests on the chart (600,200), where OpenCPN
# sees it leave the chart bar (and clears the chart's highlight).
if [ "$added" = 3 ]; then
  xdotool mousemove 600 200 >/dev/null 2>&1
  settled base &&
    xdotool mousemove 70 456 >/dev/null 2>&1 && settled key1 &&
    xdotool mousemove 215 456 >/dev/null 2>&1 && settled key2 &&
    xdotool mousemove 355 456 >/dev/null 2>&1 && settled key3 &&
    xdotool mousemove 70 456 click 1 mousemove 600 200 >/dev/null 2>&1 && settled hide1 &&
    xdotool mousemove 215 456 click 1 mousemove 600 200 >/dev/null 2>&1 && settled hide2 &&
    xdotool mousemove 70 456 click 1 mousemove 600 200 >/dev/null 2>&1 && settled show1 && ok=1
fi
[ $starts -le 1 ] || echo "  OpenCPN started $starts times"
[ $ok = 1 ] || {
  echo "  charts added: $added; OpenCPN started $starts times, $(kill -0 $op 2>/dev/null && echo running || echo gone)"
  tail -5 "$out/opencpn.out"
  tail -5 "$HOME/.opencpn/opencpn.log" 2>/dev/null
}
kill -9 $op 2>/dev/null
kill $xp 2>/dev/null
wait $op $xp 2>/dev/null
rm -f "$out"/a.* "$out"/b.* "$out/x.display"
[ $ok = 1 ]
IN
mkdir -p mbtiles
t0=$(date +%s%N)
check "OpenCPN showed the three charts, each key pointed at and clicked, under Xvfb (loopback only)" \
  timeout -s KILL 150 unshare -n bash charts.sh "$T/charts" "$T/mbtiles"
t1=$(date +%s%N)
echo "# OpenCPN: three charts, three keys pointed at, three clicks in $(((t1 - t0) / 1000000)) ms"
check "OpenCPN's log: the three files added as charts" \
  test "$(grep -c "Adding chart file: $T/charts/swh-" mbtiles/home/.opencpn/opencpn.log)" = 3
canvas=0,0,716,418 # the chart above its zoom buttons (shown when the pointer moves) and the chart bar
check "a click on the first key: another valid time drawn" \
  $py "$check_py" differ mbtiles/base.png mbtiles/hide1.png $canvas 1000 1
check "a click on the second key: the third valid time drawn" \
  $py "$check_py" differ mbtiles/hide1.png mbtiles/hide2.png $canvas 1000 1
# Not pixel for pixel: along the coast, where the tiles turn transparent,
# OpenCPN's blending lets a little of the charts below show through.
check "the first key again: the first chart drawn over the others again (but for at most 1 % of the pixels)" \
  $py "$check_py" near mbtiles/base.png mbtiles/show1.png $canvas 3000
if command -v tesseract >/dev/null; then
  names=
  for k in 1 2 3; do
    $py "$check_py" infobox mbtiles/key$k.png mbtiles/key$k.info.png >/dev/null &&
      n=$(tesseract mbtiles/key$k.info.png - --psm 6 2>/dev/null | sed -n 's/^ *Name: *//p' | head -1)
    echo "# key $k: Chart Info names '$n'"
    names+="$n|"
  done
  want=$(for t in "${tn[@]}"; do date -u -d "$t" '+swh %-d %b %H:%MZ'; done | sort | paste -sd'|')
  check "the keys' Chart Info windows name the three valid times ($want)" \
    test "$(tr '|' '\n' <<<"${names%|}" | sort | paste -sd'|')" = "$want"
else
  check "tesseract-ocr is installed (scripts/install-deps.sh), to read the Chart Info windows" false
fi
check "no key in OpenCPN's settings or logs, or in the outputs" \
  no_key_in grib.err opencpn/opencpn.out opencpn/home/.opencpn/opencpn.conf opencpn/home/.opencpn/opencpn.log \
  mbtiles/opencpn.out mbtiles/home/.opencpn/opencpn.conf mbtiles/home/.opencpn/opencpn.log
finish
