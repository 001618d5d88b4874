#!/usr/bin/env bash
# A seeded file in OpenCPN 5.10 (Debian's bookworm-backports, installed by
# scripts/install-deps.sh): OpenCPN, started under Xvfb in a network namespace
# of its own (loopback only) with the file's folder as its one chart
# directory and --rebuild_chart_db, lists the file in its chart database
# (chartlist.dat) with the file's bounds. Its first start shows a welcome
# dialog that waits for OK: xdotool presses it. The same start loads a route
# seawx route wrote as GPX from OpenCPN's layers folder: one route, its
# points drawn where the test places them from the GPX's coordinates.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
S=$SEAWX_CLI
for p in opencpn Xvfb xdotool unshare import convert; do
  check "$p is installed (scripts/install-deps.sh)" command -v "$p"
done

mkdir -p "$T/charts" "$T/home/.opencpn"
check "file seeded for OpenCPN" "$S" seed -b maritime -v swh:m --bbox -5,42,20,55 -z 4-6 -q \
  --viewer opencpn -o "$T/charts/swh.mbtiles"
# A route for OpenCPN: seawx route through the Cyclades (motor, through a
# uniform wind the test writes with ecCodes), its GPX in OpenCPN's layers
# folder, the chart view set on it: OpenCPN loads it as one route and draws
# its points where the test computes them (opencpn_route_check.py).
mkdir -p "$T/home/.opencpn/layers"
check "a route's GPX from seawx route" sh -c "
  /usr/bin/python3 -c \"
import sys, calendar
sys.path.insert(0, '$here')
import route_fields
t0 = calendar.timegm((2026, 11, 28, 0, 0, 0))
route_fields.write('$T/aegean.grb2', (34, 21, 40, 29, 0.25), [t0 + 3 * 3600 * k for k in range(17)],
                   {'wind': lambda la, lo, t: (0.0, -10.0)})\" &&
  '$S' route --grib '$T/aegean.grb2' --from 37.85,23.55 --to 37.0,25.8 --speed 6 \
    --depart 2026-11-28T00:00Z --no-storms -q --gpx '$T/home/.opencpn/layers/aegean.gpx' >/dev/null"
# the view: the route's box in the middle of the canvas (OpenCPN's Mercator)
read -r vlat vlon vppm < <(/usr/bin/python3 -c "
import math, re
R = 6378137 * 0.9996
p = [(float(a), float(b)) for a, b in
     re.findall(r'<rtept lat=\"([-0-9.]+)\" lon=\"([-0-9.]+)\"', open('$T/home/.opencpn/layers/aegean.gpx').read())]
m = lambda la: R * math.log(math.tan(math.pi / 4 + math.radians(la) / 2))
la0, la1 = min(a for a, b in p), max(a for a, b in p)
lo0, lo1 = min(b for a, b in p), max(b for a, b in p)
lat = math.degrees(2 * math.atan(math.exp((m(la0) + m(la1)) / 2 / R)) - math.pi / 2)
print('%.6f %.6f %.8f' % (lat, (lo0 + lo1) / 2, min(520 / (math.radians(lo1 - lo0) * R), 330 / (m(la1) - m(la0)))))")
printf '[Settings]\nShowWelcome=0\nShowLayers=1\n[ChartDirectories]\nChartDir1=%s\n[Canvas]\nCanvasConfig=0\n[Canvas/CanvasConfig1]\ncanvasVPLatLon=%s,%s\ncanvasVPScale=%s\n' \
  "$T/charts" "$vlat" "$vlon" "$vppm" >"$T/home/.opencpn/opencpn.conf"
cat >"$T/in-ns.sh" <<IN
ip link set lo up 2>/dev/null || true
export HOME='$T/home'
# A free display number, told by Xvfb itself.
Xvfb -displayfd 3 -screen 0 1024x700x24 -nolisten tcp >/dev/null 2>&1 3>'$T/display' &
xp=\$!
for _ in \$(seq 100); do [ -s '$T/display' ] && break; sleep 0.05; done
export DISPLAY=:\$(cat '$T/display')
opencpn --rebuild_chart_db >'$T/opencpn.out' 2>&1 &
op=\$!
# The welcome dialog of a first start: OK.
for _ in \$(seq 300); do
  xdotool search --name '^Welcome to OpenCPN' >/dev/null 2>&1 && break
  sleep 0.1
done
sleep 1
xdotool key --clearmodifiers Return >/dev/null 2>&1
for _ in \$(seq 300); do
  grep -q 'swh.mbtiles' '$T/home/.opencpn/chartlist.dat' 2>/dev/null && break
  sleep 0.1
done
# the route layer loaded, then the screen once it stays the same over three
# looks half a second apart (the status bar, whose mark turns, left out)
for _ in \$(seq 300); do
  grep -q 'Loaded GPX file' '$T/home/.opencpn/opencpn.log' 2>/dev/null && break
  sleep 0.1
done
same=0
import -window root '$T/a.png' && convert '$T/a.png' -crop 1024x467+0+0 '$T/a.ppm'
for _ in \$(seq 120); do
  sleep 0.5
  import -window root '$T/b.png' && convert '$T/b.png' -crop 1024x467+0+0 '$T/b.ppm' || continue
  if cmp -s '$T/a.ppm' '$T/b.ppm'; then
    same=\$((same + 1))
    [ \$same -ge 2 ] && mv '$T/b.png' '$T/route.png' && break
  else
    same=0
    mv '$T/b.ppm' '$T/a.ppm'
  fi
done
kill -9 \$op \$xp 2>/dev/null
wait \$op \$xp 2>/dev/null
true
IN
check "OpenCPN ran under Xvfb in a namespace with loopback only" timeout -s KILL 120 unshare -n bash "$T/in-ns.sh"
check "OpenCPN's log: the route's GPX loaded as one item (its one route)" \
  grep -q "Loaded GPX file $T/home/.opencpn/layers/aegean.gpx with 1 items" \
  "$T/home/.opencpn/opencpn.log"
check "OpenCPN draws the route's points where the GPX puts them" \
  /usr/bin/python3 "$here/opencpn_route_check.py" "$T/route.png" \
  "$T/home/.opencpn/layers/aegean.gpx" "$vlat" "$vlon" "$vppm"
check "OpenCPN's log: the file added as a chart" \
  grep -q "Adding chart file: $T/charts/swh.mbtiles" "$T/home/.opencpn/opencpn.log"
# chartlist.dat (version V018) holds each chart's path, then its extent as
# 32-bit floats, north, south, east, west.
check "chartlist.dat: the file with its bounds (55 N, 42 N, 20 E, 5 W)" python3 -c "
import struct
d = open('$T/home/.opencpn/chartlist.dat', 'rb').read()
assert d[:4] == b'V018', d[:4]
i = d.index(b'$T/charts/swh.mbtiles') + len(b'$T/charts/swh.mbtiles') + 1
floats = [struct.unpack('<f', d[k:k + 4])[0] for k in range(i, i + 40)]
want = [55.0, 42.0, 20.0, -5.0]
assert any([round(v, 3) for v in floats[k:k + 13:4]] == want for k in range(len(floats) - 12)), floats
"
check "no key in OpenCPN's files" no_key_in "$T/home/.opencpn/opencpn.conf" "$T/home/.opencpn/opencpn.log"
finish
