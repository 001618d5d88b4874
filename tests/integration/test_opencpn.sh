#!/usr/bin/env bash
# A seeded file in OpenCPN 5.10 (Debian's bookworm-backports, installed by
# scripts/install-deps.sh): OpenCPN, started under Xvfb in a network namespace
# of its own (loopback only) with the file's folder as its one chart
# directory and --rebuild_chart_db, lists the file in its chart database
# (chartlist.dat) with the file's bounds. Its first start shows a welcome
# dialog that waits for OK: xdotool presses it.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sim_start
S=$SEAWX_CLI
for p in opencpn Xvfb xdotool unshare; do
  check "$p is installed (scripts/install-deps.sh)" command -v "$p"
done

mkdir -p "$T/charts" "$T/home/.opencpn"
check "file seeded for OpenCPN" "$S" seed -b maritime -v swh:m --bbox -5,42,20,55 -z 4-6 -q \
  --viewer opencpn -o "$T/charts/swh.mbtiles"
printf '[Settings]\nShowWelcome=0\n[ChartDirectories]\nChartDir1=%s\n' "$T/charts" \
  >"$T/home/.opencpn/opencpn.conf"
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
sleep 1
kill -9 \$op \$xp 2>/dev/null
wait \$op \$xp 2>/dev/null
true
IN
check "OpenCPN ran under Xvfb in a namespace with loopback only" timeout -s KILL 120 unshare -n bash "$T/in-ns.sh"
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
