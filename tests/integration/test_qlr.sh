#!/usr/bin/env bash
# seawx qlr: the QGIS layer definition of one run of a variable, one SEAWX
# layer per valid time with a fixed temporal range. The document checked as
# XML (qlr_qgis.py xml), then loaded by headless QGIS (Debian's python3-qgis,
# offscreen): one group, every layer valid, and two frames of the Temporal
# Controller's navigation each equal to its time's layer alone and to the
# service's GetMap of that time, the two different, each frame fetching only
# its own time; the key in no file; mistakes refused with nothing written.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
py=/usr/bin/python3 # Debian's, where python3-qgis lives
if ! "$py" -c 'import qgis.core' 2>/dev/null; then
  echo "python3-qgis missing: run scripts/install-deps.sh"
  exit 1
fi
sim_start --now 2024-10-01T12:00:00Z
mkdir -p "$T/home" "$T/run" "$T/work" "$T/shots" && chmod 700 "$T/run"
export HOME=$T/home XDG_CONFIG_HOME=$T/home/.config XDG_DATA_HOME=$T/home/.local/share \
  XDG_CACHE_HOME=$T/home/.cache XDG_RUNTIME_DIR=$T/run QT_QPA_PLATFORM=offscreen \
  SEAWX_CACHE_DIR=$T/cache
cd "$T/work" || exit 1

"$SEAWX_CLI" layers -b maritime -v swh --latest --json >"$T/layers.json" || exit 1
"$py" -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))[0], open(sys.argv[2], "w"))' \
  "$T/layers.json" "$T/swh.json" || exit 1
ntimes=$("$py" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["times"]))' "$T/swh.json")

# 1. The latest run, the legend beside it.
"$SEAWX_CLI" qlr --bundle maritime --variable swh -o swh.qlr 2>"$T/qlr.err"
check "seawx qlr writes swh.qlr and swh.legend.png" \
  test $? -eq 0 -a -s swh.qlr -a -s swh.legend.png
check "it says what it wrote in one line, without the key" \
  sh -c "[ \$(wc -l <'$T/qlr.err') -eq 1 ] && ! grep -qF -- '$KEY' '$T/qlr.err'"
check "the .qlr is one group of $ntimes layers, each its time's connection string and range" \
  "$py" "$here/qlr_qgis.py" xml swh.qlr "$T/swh.json" maritime "$T/work/swh.legend.png"
"$SEAWX_CLI" legend --bundle maritime --variable swh -o "$T/legend.png" 2>/dev/null
check "the legend beside it is the style's legend (seawx legend)" cmp -s swh.legend.png "$T/legend.png"
check "the key is in neither file" no_key_in swh.qlr swh.legend.png
check "the .qlr names no API key item" sh -c "! grep -qiE '[,:](key|api_key|apikey)=' swh.qlr"
for auth in query; do # basic needs a password the stand-in is started with: test_key_leak
  "$SEAWX_CLI" qlr -b maritime -v swh --wms-auth "$auth" -o "$T/auth-$auth.qlr" >"$T/auth.out" 2>&1
  check "with --wms-auth $auth too, the same document and no key anywhere" \
    sh -c "cmp -s '$T/auth-$auth.qlr' swh.qlr || { sed 's#$T/auth-$auth.legend.png#$T/work/swh.legend.png#' '$T/auth-$auth.qlr' | cmp -s - swh.qlr; }" &&
    check "  (key in no output: $auth)" no_key_in "$T/auth-$auth.qlr" "$T/auth-$auth.legend.png" "$T/auth.out"
done

# 2. A named run, to stdout, without a legend; --run latest is the same run.
run=$("$py" -c 'import json, sys; r = json.load(open(sys.argv[1]))["run"]
print(r[0:4] + r[5:7] + r[8:10] + r[11:13])' "$T/swh.json")
"$SEAWX_CLI" qlr -b maritime -v swh --run "$run" --no-legend -o - >"$T/stdout.qlr" 2>"$T/stdout.err"
check "--run $run --no-legend -o - prints the document" test $? -eq 0 -a -s "$T/stdout.qlr"
check "the same layers, without a legend image" \
  "$py" "$here/qlr_qgis.py" xml "$T/stdout.qlr" "$T/swh.json" maritime
"$SEAWX_CLI" qlr -b maritime -v swh --run latest --legend "$T/leg2.png" -o "$T/latest.qlr" 2>/dev/null
check "--run latest and --legend FILE: the same document but for the legend's path" \
  sh -c "sed 's#$T/leg2.png#$T/work/swh.legend.png#' '$T/latest.qlr' | cmp -s - swh.qlr"

# 3. QGIS loads it; the navigation's frames 1 and 2, a 4 x 3 degree view of
# the North Atlantic at 512 x 384 pixels. Each frame fetches its own time.
seen=$(wc -l <"$T/access.log")
t0=$SECONDS
"$py" "$here/qlr_qgis.py" frames swh.qlr "$T/swh.json" "$T/shots" -30 40 -26 43 512 384 1 2 \
  "$T/work/swh.legend.png" \
  >"$T/frames.txt" 2>"$T/frames.err"
check "QGIS loads the group with the legend, each frame shows one layer, frames 1 and 2 their own" \
  test $? -eq 0
cat "$T/frames.txt" "$T/frames.err"
echo "# QGIS loaded and rendered in $((SECONDS - t0)) s"
times_fetched=$(tail -n +$((seen + 1)) "$T/access.log" | grep 'request=GetMap' |
  grep -o 'time=[^& ]*' | sort -u)
want=$(grep '^frame' "$T/frames.txt" | cut -d' ' -f3 | sed 's/:/%3A/g; s/^/time=/' | sort -u)
want_plain=$(grep '^frame' "$T/frames.txt" | cut -d' ' -f3 | sed 's/^/time=/' | sort -u)
check "loading $ntimes layers and rendering fetched blocks of the two frames' times only" \
  sh -c "[ -n '$times_fetched' ] && { [ '$times_fetched' = '$want' ] || [ '$times_fetched' = '$want_plain' ]; }"
echo "# QGIS sent $(tail -n +$((seen + 1)) "$T/access.log" | grep -c 'request=GetCapabilities') GetCapabilities and $(tail -n +$((seen + 1)) "$T/access.log" | grep -c 'request=GetMap') GetMaps"
# The service's GetMap of the view at a frame's time: the plugin's own
# request (product, layer, style) for the view's bbox and size.
getmap_query=$(grep 'request=GetMap' "$T/access.log" | tail -1 | grep -o 'service=WMS[^ ]*' |
  sed 's/&bbox=[^&]*//; s/&width=[^&]*//; s/&height=[^&]*//; s/&time=[^&]*//')
for k in 1 2; do
  at=$(grep "^frame $k " "$T/frames.txt" | cut -d' ' -f3)
  curl -sf -H "service-api-key: $KEY" -o "$T/getmap-$k.png" \
    "$SIM_URL/ows/wms?$getmap_query&bbox=40,-30,43,-26&width=512&height=384&time=$at"
  check "frame $k ($at) is pixel-equal to the service's GetMap of that time" \
    "$SEAWX_RASTERCMP" "$T/shots/frame-$k.png" "$T/getmap-$k.png"
done

# 4. Mistakes: one line, the documented exit code, nothing written; a typed
# mistake sends nothing.
refused() { # EXIT ARGS...: exits EXIT with one line and writes nothing
  local want=$1
  shift
  rm -rf "$T/bad" && mkdir "$T/bad"
  (cd "$T/bad" && "$SEAWX_CLI" qlr "$@" >"$T/bad.out" 2>"$T/bad.err")
  local rc=$?
  [ "$rc" -eq "$want" ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] && [ ! -s "$T/bad.out" ] &&
    [ -z "$(ls -A "$T/bad")" ] || {
    echo "exit $rc: $(cat "$T/bad.err")"
    return 1
  }
}
before=$(wc -l <"$T/access.log")
check "an unknown bundle: exit 2" refused 2 -b nosuch -v swh -o x.qlr
check "a malformed run: exit 2" refused 2 -b maritime -v swh --run yesterday -o x.qlr
check "no --output: exit 2" refused 2 -b maritime -v swh
check "--legend with --no-legend: exit 2" refused 2 -b maritime -v swh --legend l.png --no-legend -o x.qlr
check "-o to a folder that does not exist: exit 8" refused 8 -b maritime -v swh -o nodir/x.qlr
check "the typed mistakes sent nothing" test "$(wc -l <"$T/access.log")" -eq "$before"
check "an unknown variable: exit 5, naming the bundle's variables" refused 5 -b maritime -v nosuch -o x.qlr
check "the message lists the bundle's variables" grep -q 'variables are .*swh' "$T/bad.err"
check "a run the service does not have: exit 5" refused 5 -b maritime -v swh --run 2001010100 -o x.qlr
check "a style the layer does not have: exit 5" refused 5 -b maritime -v swh --style nosuch -o x.qlr
mkdir "$T/adir"
check "-o a folder: exit 8" refused 8 -b maritime -v swh -o "$T/adir"
check "  the folder left empty" test -z "$(ls -A "$T/adir")"
echo old >"$T/real.qlr" && ln -s real.qlr "$T/link.qlr"
"$SEAWX_CLI" qlr -b maritime -v swh -o "$T/link.qlr" 2>/dev/null
check "-o a link: the file it names replaced, the link kept" \
  sh -c "[ -L '$T/link.qlr' ] && grep -q '<qlr>' '$T/real.qlr' && [ -s '$T/link.legend.png' ]"
"$SEAWX_CLI" qlr -b maritime -v swh -o /dev/null 2>"$T/devnull.err"
check "-o /dev/null: written through, no legend beside it" \
  sh -c "[ -c /dev/null ] && [ ! -e /dev/null.legend.png ] && ! grep -q legend '$T/devnull.err'"
ln -s "$T/nowhere/x.qlr" "$T/dangling.qlr"
"$SEAWX_CLI" qlr -b maritime -v swh -o "$T/dangling.qlr" 2>"$T/dangling.err"
check "-o through a dangling link: exit 2, the link left as it was" \
  test $? -eq 2 -a -L "$T/dangling.qlr" -a ! -e "$T/dangling.legend.png"
finish
