#!/usr/bin/env bash
# The seawx QGIS plugin: the zip the build writes unpacked into a fresh QGIS
# profile's plugin folder and loaded by headless QGIS (Debian's python3-qgis,
# offscreen); its Browser entry lists the bundles, a variable's runs and the
# storms through the GDAL plugin; a double-click on a run adds one layer per
# valid time with its fixed range, the same group `seawx qlr` writes; two
# frames of the time slider are two different pictures, each pixel for pixel
# the service's GetMap of its time, and fetch their own times only; the
# storms come styled on the slider; the saved project, the zip and the
# installed plugin hold no key; the install tree carries the plugin where
# QGIS's system plugins live.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
py=/usr/bin/python3 # Debian's, where python3-qgis lives
if ! "$py" -c 'import qgis.core' 2>/dev/null; then
  echo "python3-qgis missing: run scripts/install-deps.sh"
  exit 1
fi
zip=$SEAWX_BUILD_DIR/seawx-qgis-plugin.zip
# The key in none of the files or folders given, all of which exist (grep's
# status 1: read everything, found nothing).
no_key_in_files() {
  grep -rqF -- "$KEY" "$@"
  [ $? -eq 1 ]
}
sim_start --now 2024-10-01T12:00:00Z
mkdir -p "$T/home" "$T/run" "$T/work" "$T/shots" && chmod 700 "$T/run"
export HOME=$T/home XDG_CONFIG_HOME=$T/home/.config XDG_DATA_HOME=$T/home/.local/share \
  XDG_CACHE_HOME=$T/home/.cache XDG_RUNTIME_DIR=$T/run QT_QPA_PLATFORM=offscreen \
  SEAWX_CACHE_DIR=$T/cache
cd "$T/work" || exit 1

# 1. The zip: seawx/ at its root, as QGIS's plugin manager wants it.
check "the build wrote seawx-qgis-plugin.zip" test -s "$zip"
"$py" -m zipfile -l "$zip" >"$T/zip.txt"
check "its root is the folder seawx/ with metadata.txt and __init__.py" \
  sh -c "! awk 'NR > 1 { print \$1 }' '$T/zip.txt' | grep -v '^seawx/' | grep -q . &&
    grep -q '^seawx/metadata.txt ' '$T/zip.txt' && grep -q '^seawx/__init__.py ' '$T/zip.txt'"
plugins=$XDG_DATA_HOME/QGIS/QGIS3/profiles/default/python/plugins
mkdir -p "$plugins" && "$py" -m zipfile -e "$zip" "$plugins"
check "unpacked into a fresh profile's plugin folder" test -s "$plugins/seawx/metadata.txt"
version=$("$SEAWX_CLI" --version | cut -d' ' -f2)
check "its metadata names seawx's version ($version) and QGIS 3.22" sh -c \
  "grep -qx 'version=$version' '$plugins/seawx/metadata.txt' &&
    grep -qx 'qgisMinimumVersion=3.22' '$plugins/seawx/metadata.txt'"

# 2. The install tree, staged (DESTDIR: the GDAL plugin's folder is an
# absolute path, GDAL's own): QGIS's system plugin folder under the prefix,
# the same files as the zip.
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:[A-Z]*=//p' "$SEAWX_BUILD_DIR/CMakeCache.txt")
inst=$T/stage$prefix/share/qgis/python/plugins
DESTDIR=$T/stage cmake --install "$SEAWX_BUILD_DIR" >"$T/install.log" 2>&1
check "cmake --install (DESTDIR) writes nothing outside the staging folder" sh -c \
  "grep -qE '^-- (Installing|Up-to-date): ' '$T/install.log' &&
    ! grep -E '^-- (Installing|Up-to-date): ' '$T/install.log' | grep -v -F ': $T/stage/'"
check "cmake --install puts the plugin into share/qgis/python/plugins/seawx, the zip's files" \
  diff -r "$inst/seawx" "$plugins/seawx"

# 3. What the plugin must show: the latest complete run of maritime's swh,
# the number of swh's runs, and the .qlr `seawx qlr` writes of that run.
"$SEAWX_CLI" layers -b maritime -v swh --latest --json >"$T/latest.json" || exit 1
"$py" -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))[0], open(sys.argv[2], "w"))' \
  "$T/latest.json" "$T/swh.json" || exit 1
"$SEAWX_CLI" layers -b maritime -v swh --json >"$T/all.json" || exit 1
nruns=$("$py" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$T/all.json")
"$SEAWX_CLI" qlr -b maritime -v swh --no-legend -o "$T/swh.qlr" 2>/dev/null
check "seawx qlr writes the run's layer definition" test -s "$T/swh.qlr"

# 4. QGIS loads the plugin; the Browser, a double-click on the run, frames
# 1 and 2 of a 4 x 3 degree view of the North Atlantic at 512 x 384 pixels.
seen=$(wc -l <"$T/access.log")
t0=$SECONDS
"$py" "$here/test_qgis_plugin.py" "$plugins" maritime "$T/swh.json" "$nruns" "$T/swh.qlr" \
  "$T/shots" -30 40 -26 43 512 384 1 2 >"$T/plugin.txt" 2>"$T/plugin.err"
check "QGIS loads the plugin: Browser, time group, frames, storms, unload" test $? -eq 0
cat "$T/plugin.txt" "$T/plugin.err"
check "QGIS opened the storm layers with no error (update mode served read-only)" \
  sh -c "! grep -q 'read-only' '$T/plugin.err'"
echo "# QGIS loaded the plugin, listed, added and rendered in $((SECONDS - t0)) s"
times_fetched=$(tail -n +$((seen + 1)) "$T/access.log" | grep 'request=GetMap' |
  grep -o 'time=[^& ]*' | sort -u)
want=$(grep '^frame' "$T/plugin.txt" | cut -d' ' -f3 | sed 's/:/%3A/g; s/^/time=/' | sort -u)
want_plain=$(grep '^frame' "$T/plugin.txt" | cut -d' ' -f3 | sed 's/^/time=/' | sort -u)
check "adding the group and rendering frames 1 and 2 fetched blocks of their two times only" \
  sh -c "[ -n '$times_fetched' ] && { [ '$times_fetched' = '$want' ] || [ '$times_fetched' = '$want_plain' ]; }"
echo "# QGIS sent $(tail -n +$((seen + 1)) "$T/access.log" | grep -c 'request=GetCapabilities') GetCapabilities and $(tail -n +$((seen + 1)) "$T/access.log" | grep -c 'request=GetMap') GetMaps"
# The service's GetMap of the view at a frame's time: the plugin's own
# request (product, layer, style) for the view's bbox and size.
getmap_query=$(grep 'request=GetMap' "$T/access.log" | tail -1 | grep -o 'service=WMS[^ ]*' |
  sed 's/&bbox=[^&]*//; s/&width=[^&]*//; s/&height=[^&]*//; s/&time=[^&]*//')
for k in 1 2; do
  at=$(grep "^frame $k " "$T/plugin.txt" | cut -d' ' -f3)
  curl -sf -H "service-api-key: $KEY" -o "$T/getmap-$k.png" \
    "$SIM_URL/ows/wms?$getmap_query&bbox=40,-30,43,-26&width=512&height=384&time=$at"
  check "frame $k (${at:-none}) is pixel-equal to the service's GetMap of that time" \
    "$SEAWX_RASTERCMP" "$T/shots/frame-$k.png" "$T/getmap-$k.png"
done

# 5. The key: in no file the plugin, QGIS or the build wrote.
check "the saved project holds no key" no_key_in_files "$T/shots/plugin.qgs"
check "the project names no API key item" \
  sh -c "[ -s '$T/shots/plugin.qgs' ] && ! grep -qiE '[,:](key|api_key|apikey)=' '$T/shots/plugin.qgs'"
check "the key is in no file of the profile, the zip, the install tree, the legends or the output" \
  no_key_in_files "$T/home" "$zip" "$inst" "$T/plugin.txt" "$T/plugin.err" "$T/cache/legends"
finish
