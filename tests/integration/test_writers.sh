#!/usr/bin/env bash
# Every command that writes a file, pointed at what is not a plain new file.
# What each does (swx_atomicfile_target() in lib/util/atomicfile.h decides it
# once for every writer):
#   - a character device (a node made here with mknod, and /dev/null) or a
#     link to one: a stream format (TileJSON, GeoJSON, KMZ, PNG, the seed's
#     --summary-json, tables) is written through and the device stays a
#     device; an MBTiles file (seed, merge) or a resumable download is refused
#     with one line and exit 2, the device untouched;
#   - a link to a regular file: the file it names is replaced (or continued,
#     for a seed), the link stays a link; a link to nothing: one line, exit 2;
#   - a folder where a file is expected: one line, exit 8, the folder as it was;
#   - an input of the same run (the route, the storms' answer, the MBTiles a
#     TileJSON describes, a shard of a merge, the fleet file), even under
#     another name: one line, exit 2, the input unchanged;
#   - a read-only place (a read-only mount when run as root, as in CI; a
#     folder without write permission otherwise): one line, exit 8, nothing
#     created.
# seawx voyage and seawx fleet write folders: a path that is not a package
# (voyage) or not a folder (fleet) is refused with one line and exit 2.
# seawx grib (-o), seawx plan (--json, --csv, --chart) and seawx qlr (-o, and
# its legend PNG beside it) follow the same rules: their formats are streams
# (a qlr to a device has no legend beside it, there being no folder for one).
# Each run is small (a 2-degree box, zooms 0-1, one forecast hour, a 70 nm
# route sampled every 50 nm). Cost: about 20 s (a first run on a machine
# whose stand-in has not yet made the 2026-03-01 GRIB files: a few more).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# A writer that regressed would replace the machine's /dev/null by a file:
# it is checked after every use and put back at once (as root), the check
# failing, so that one broken build cannot leave CI without /dev/null.
devnull_ok() {
  [ -c /dev/null ] && return 0
  echo "# /dev/null was replaced by a $(stat -c %F /dev/null): put back"
  [ "$(id -u)" -eq 0 ] && rm -f /dev/null && mknod -m 666 /dev/null c 1 3
  return 1
}
RO=
ro_cleanup() {
  devnull_ok
  [ -n "$RO" ] && umount "$RO" 2>/dev/null
  cleanup
}
trap ro_cleanup EXIT
sim_start --now 2026-03-01T06:00:00Z
cd "$T" || exit 1
S=$SEAWX_CLI
E=$SEAWX_SOURCE_DIR/samples/storms/edge_storms.json
SEED=("$S" seed -q -b basic -v t2m:K --bbox 10,40,12,42 -z 0-1)
GRIB=("$S" grib -q --bbox 10,40,12,42 --hours 0 --vars prmsl --cache gc)
# seawx plan prints its table on stdout besides the files: kept in plan.out.
plan_() { "$S" plan -q --route route.csv --departures 2026-03-01T06:00Z/2026-03-01T12:00Z/6h \
  --speed 8 --spacing 50 --no-storms "$@" >plan.out; }
PLAN=(plan_)
QLR=("$S" qlr --bundle basic --variable t2m:K)

# The targets.
if [ "$(id -u)" -eq 0 ]; then
  mknod "$T/dev" c 1 3 || { echo "mknod failed as root"; exit 1; }
  DEVS=("$T/dev" /dev/null)
  mkdir ro
  if mount -t tmpfs -o ro,size=64k tmpfs "$T/ro"; then
    RO=$T/ro
  else
    echo "cannot mount a read-only tmpfs as root"
    exit 1
  fi
else
  DEVS=(/dev/null)
  mkdir ro && chmod 555 ro
fi
ln -s "${DEVS[0]}" devlink
mkdir adir
touch adir/keep
ln -s nothing-here dangling
printf 'lat,lon\n40.5,10.5\n41.5,11.5\n' >route.csv

is_dev() {
  if [ "$1" = /dev/null ]; then devnull_ok; else [ -c "$1" ]; fi
}
unchanged() { cmp -s "$1" "$2"; }

# refused NAME EXIT PATTERN CMD...: exit EXIT, one line matching PATTERN.
refused() {
  local name=$1 want=$2 pat=$3
  shift 3
  "$@" >out.txt 2>err.txt
  local got=$? kept=0
  devnull_ok || kept=1
  check "$name: exit $want ($got), one line" sh -c "[ $kept -eq 0 ] && [ $got -eq $want ] && [ \$(wc -l <err.txt) -eq 1 ] && grep -Eq -- '$pat' err.txt" ||
    sed 's/^/#   /' err.txt
}

echo "# character devices"
for d in "${DEVS[@]}" "$T/devlink"; do
  refused "seed -o $d" 2 'character device, and this output must be a regular file' "${SEED[@]}" -o "$d"
  check "  $d is still a character device" is_dev "$d"
  refused "merge -o $d" 2 'character device' "$S" merge -q --shards 2 -o "$d" 'none.{shard}.mbtiles'
  check "  $d is still a character device" is_dev "$d"
  refused "soil download -o $d" 2 'character device' "$S" soil download soil-moisture.20240115.global.nc -o "$d"
  check "  $d is still a character device, no .part beside it" sh -c "[ -c '$d' ] && [ ! -e '$d.part' ]"
done
check "no GetMap and no download for the refusals" test ! -s access.log
"${SEED[@]}" -o s.mbtiles
check "a small seed for the rest" test -s s.mbtiles
for d in "${DEVS[@]}" "$T/devlink"; do
  check "tilejson -o $d: written through" "$S" tilejson -u 'http://x/{z}/{x}/{y}.png' -o "$d" s.mbtiles
  check "  still a character device" is_dev "$d"
  check "seed --summary-json $d: accepted" "${SEED[@]}" -o s.mbtiles --summary-json "$d"
  check "  still a character device" is_dev "$d"
  check "storms -i -o $d: written through" "$S" storms -q -i "$E" -o "$d"
  check "  still a character device" is_dev "$d"
  check "storms --segments $d: written through" "$S" storms -q -i "$E" --route route.csv --depart 2024-10-08T00:00:00Z --speed 10 --segments "$d" >/dev/null
  check "  still a character device" is_dev "$d"
  check "storms --kmz $d: written through" "$S" storms -q --kmz "$d"
  check "  still a character device" is_dev "$d"
  check "legend -o $d: written through" "$S" legend -b basic -v t2m:K -o "$d"
  check "  still a character device" is_dev "$d"
  check "tides -o $d: written through" "$S" tides hourly -q --lat 1 --lon 2 --start 2024-01-01 --hours 2 -f csv -o "$d"
  check "  still a character device" is_dev "$d"
  refused "voyage -o $d" 2 'is not a voyage package' "$S" voyage -q -b maritime --route route.csv --depart 2026-03-01T06:00:00Z --speed 8 -l swh -z 1 -o "$d"
  check "  still a character device" is_dev "$d"
  refused "fleet -o $d" 2 'is not a folder' "$S" fleet -q "$SEAWX_FIXTURES/fleet/six.json" -o "$d"
  check "  still a character device" is_dev "$d"
  check "grib -o $d: written through" "${GRIB[@]}" -o "$d"
  check "  still a character device, no temporary beside it" sh -c "[ -c '$d' ] && ! ls '$(dirname "$d")' | grep -q '^$(basename "$d")\..*\.tmp\$'"
  for o in json csv chart; do
    check "plan --$o $d: written through" "${PLAN[@]}" --"$o" "$d"
    check "  still a character device" is_dev "$d"
  done
  check "qlr -o $d: written through, no legend beside it" sh -c "\"\$@\" -o '$d' && [ ! -e '$d.legend.png' ] && [ ! -e '$d.legend' ]" _ "${QLR[@]}"
  check "  still a character device" is_dev "$d"
done
# /proc/self/fd/1 is a link to the command's stdout: the TileJSON goes there.
ln -s /proc/self/fd/1 stdoutlink
"$S" tilejson -u 'http://x/{z}/{x}/{y}.png' -o stdoutlink s.mbtiles >tj.out 2>err.txt
check "tilejson -o a link to /proc/self/fd/1: on stdout, the link kept" sh -c "[ -L stdoutlink ] && grep -q tilejson tj.out"

echo "# links"
cp s.mbtiles real.mbtiles
ln -s real.mbtiles link.mbtiles
check "seed -o a link to an MBTiles file: continued" "${SEED[@]}" -o link.mbtiles
check "  the link is still a link to it" sh -c "[ -L link.mbtiles ] && [ \"\$(readlink link.mbtiles)\" = real.mbtiles ] && [ -f real.mbtiles ]"
for w in tj seg st lg csv; do echo old >"real.$w"; ln -s "real.$w" "link.$w"; done
check "tilejson -o a link: the file it names replaced" "$S" tilejson -u 'http://x/{z}/{x}/{y}.png' -o link.tj s.mbtiles
check "  link kept, file written" sh -c "[ -L link.tj ] && grep -q tilejson real.tj"
check "storms -o a link: the file it names replaced" "$S" storms -q -i "$E" -o link.st
check "  link kept, file written" sh -c "[ -L link.st ] && grep -q FeatureCollection real.st"
check "seed --summary-json a link: the file it names replaced" "${SEED[@]}" -o s.mbtiles --summary-json link.seg
check "  link kept, file written" sh -c "[ -L link.seg ] && grep -q '\"bundle\"' real.seg"
check "legend -o a link: the file it names replaced" "$S" legend -b basic -v t2m:K -o link.lg
check "  link kept, a PNG written" sh -c "[ -L link.lg ] && head -c 4 real.lg | grep -q PNG"
check "tides -o a link: the file it names replaced" "$S" tides hourly -q --lat 1 --lon 2 --start 2024-01-01 --hours 2 -o link.csv
check "  link kept, file written" sh -c "[ -L link.csv ] && ! grep -qx old real.csv"
for w in grb2 pj pc png qlr; do echo old >"real.$w"; ln -s "real.$w" "link.$w"; done
check "grib -o a link: the file it names replaced" "${GRIB[@]}" -o link.grb2
check "  link kept, a GRIB written" sh -c "[ -L link.grb2 ] && head -c 4 real.grb2 | grep -q GRIB"
check "plan --json a link: the file it names replaced" "${PLAN[@]}" --json link.pj
check "  link kept, file written" sh -c "[ -L link.pj ] && grep -q '\"departures\"' real.pj"
check "plan --csv a link: the file it names replaced" "${PLAN[@]}" --csv link.pc
check "  link kept, file written" sh -c "[ -L link.pc ] && ! grep -qx old real.pc && [ -s real.pc ]"
check "plan --chart a link: the file it names replaced" "${PLAN[@]}" --chart link.png
check "  link kept, a PNG written" sh -c "[ -L link.png ] && head -c 4 real.png | grep -q PNG"
check "qlr -o a link: the file it names replaced" "${QLR[@]}" -o link.qlr
check "  link kept, file written, its legend beside it" sh -c "[ -L link.qlr ] && grep -q '<maplayer ' real.qlr && ls | grep -q '\.legend\.png\$'"
check "  no temporary left" sh -c "[ -z \"\$(ls | grep '\.tmp\$')\" ]"
"$S" seed -q -b basic -v t2m:K --bbox 10,40,12,42 -z 0-1 --shard 1/2 -o 'p.{shard}.mbtiles' &&
  "$S" seed -q -b basic -v t2m:K --bbox 10,40,12,42 -z 0-1 --shard 2/2 -o 'p.{shard}.mbtiles'
cp s.mbtiles merged.mbtiles
ln -s merged.mbtiles mlink
check "merge -o a link: the file it names replaced" "$S" merge -q --shards 2 -o mlink 'p.{shard}.mbtiles'
check "  link kept, no temporary left" sh -c "[ -L mlink ] && [ -f merged.mbtiles ] && [ -z \"\$(ls | grep '\\.tmp\$')\" ]"
refused "seed -o a link to nothing" 2 'link to a file that does not exist' "${SEED[@]}" -o dangling
refused "tilejson -o a link to nothing" 2 'link to a file that does not exist' "$S" tilejson -u 'http://x/{z}/{x}/{y}.png' -o dangling s.mbtiles
refused "grib -o a link to nothing" 2 'link to a file that does not exist' "${GRIB[@]}" -o dangling
refused "plan --json a link to nothing" 2 'link to a file that does not exist' "${PLAN[@]}" --json dangling
refused "plan --chart a link to nothing" 2 'link to a file that does not exist' "${PLAN[@]}" --chart dangling
refused "qlr -o a link to nothing" 2 'link to a file that does not exist' "${QLR[@]}" -o dangling
check "  the dangling link is still one, nothing created" sh -c "[ -L dangling ] && [ ! -e nothing-here ] && [ ! -e dangling.legend.png ]"

echo "# folders"
for c in "seed" "merge" "tilejson" "summary" "kmz" "legend" "download" "segments" "grib" "plan-json" "plan-csv" "plan-chart" "qlr" "qlr-legend"; do
  case $c in
  seed) refused "seed -o a folder" 8 'cannot write adir: it is a folder' "${SEED[@]}" -o adir ;;
  merge) refused "merge -o a folder" 8 'cannot write adir: it is a folder' "$S" merge --shards 2 -o adir 'p.{shard}.mbtiles' ;;
  tilejson) refused "tilejson -o a folder" 8 'cannot write adir: it is a folder' "$S" tilejson -u 'http://x/{z}/{x}/{y}.png' -o adir s.mbtiles ;;
  summary) refused "seed --summary-json a folder" 8 'cannot write adir: it is a folder' "${SEED[@]}" -o s.mbtiles --summary-json adir ;;
  kmz) refused "storms --kmz a folder" 8 'cannot write adir: it is a folder' "$S" storms --kmz adir ;;
  legend) refused "legend -o a folder" 8 'cannot write adir: it is a folder' "$S" legend -b basic -v t2m:K -o adir ;;
  download) refused "weather download -o a folder" 8 'cannot write adir: it is a folder' "$S" weather download cwc.20240115.t00z.0p027.basic.global.grib2 -o adir ;;
  segments) refused "storms --segments a folder" 8 'cannot write adir: it is a folder' "$S" storms -i "$E" --route route.csv --depart 2024-10-08T00:00:00Z --speed 10 --segments adir ;;
  grib) refused "grib -o a folder" 8 'cannot write adir: it is a folder' "${GRIB[@]}" -o adir ;;
  plan-json) refused "plan --json a folder" 8 'cannot write adir: it is a folder' "${PLAN[@]}" --json adir ;;
  plan-csv) refused "plan --csv a folder" 8 'cannot write adir: it is a folder' "${PLAN[@]}" --csv adir ;;
  plan-chart) refused "plan --chart a folder" 8 'cannot write adir: it is a folder' "${PLAN[@]}" --chart adir ;;
  qlr) refused "qlr -o a folder" 8 'cannot write adir: it is a folder' "${QLR[@]}" -o adir ;;
  qlr-legend) refused "qlr --legend a folder" 8 'cannot write adir: it is a folder' "${QLR[@]}" -o q.qlr --legend adir ;;
  esac
  check "  the folder as it was" sh -c "[ -d adir ] && [ \"\$(ls adir)\" = keep ]"
done
refused "voyage -o a folder" 2 'is not a voyage package' "$S" voyage -q -b maritime --route route.csv --depart 2026-03-01T06:00:00Z --speed 8 -l swh -z 1 -o adir
check "  the folder as it was" sh -c "[ -d adir ] && [ \"\$(ls adir)\" = keep ]"

echo "# an input of the same run"
cp route.csv route.keep
refused "seed -o its --route" 2 'an input of the same run' "$S" seed -q -b basic -v t2m:K -z 0-1 --route route.csv -o route.csv
ln -s route.csv rlink
refused "seed --summary-json its --route by a link" 2 'same file as route.csv, an input' \
  "$S" seed -q -b basic -v t2m:K -z 0-1 --route route.csv -o s2.mbtiles --summary-json rlink
refused "storms --segments its --route" 2 'an input of the same run' "$S" storms -i "$E" --route route.csv --depart 2024-10-08T00:00:00Z --speed 10 --segments route.csv
refused "voyage -o its --route" 2 'is not a voyage package' "$S" voyage -q -b maritime --route route.csv --depart 2026-03-01T06:00:00Z --speed 8 -l swh -z 1 -o route.csv
refused "grib -o its --route" 2 'an input of the same run' "$S" grib -q --route route.csv --depart 2026-03-01T06:00:00Z --speed 8 --days 1 --vars prmsl --cache gc -o route.csv
refused "grib -o its --route by a link" 2 'same file as route.csv, an input' "$S" grib -q --route route.csv --depart 2026-03-01T06:00:00Z --speed 8 --days 1 --vars prmsl --cache gc -o rlink
refused "plan --json its --route" 2 'an input of the same run' "${PLAN[@]}" --json route.csv
refused "plan --csv its --route by a link" 2 'same file as route.csv, an input' "${PLAN[@]}" --csv rlink
refused "plan --chart its --route" 2 'an input of the same run' "${PLAN[@]}" --chart route.csv
check "  the route unchanged" unchanged route.csv route.keep
"${GRIB[@]}" -o g.grb2
cp g.grb2 g.keep
refused "plan --json its --from GRIB" 2 'an input of the same run' "${PLAN[@]}" --from g.grb2 --json g.grb2
check "  the GRIB unchanged" unchanged g.grb2 g.keep

echo "# two outputs, one file: refused before any request, nothing written"
sent=$(wc -l <access.log)
refused "plan --json and --csv one file" 2 '--json and --csv name the same file \(a\.out\)' "${PLAN[@]}" --json a.out --csv a.out
: >b.out
ln -s b.out blink
refused "plan --json and --chart by a link" 2 '--json and --chart name the same file \(b\.out, blink\)' "${PLAN[@]}" --json b.out --chart blink
mkdir -p sub && ln -s sub sublink
refused "plan --csv and --chart through a linked folder" 2 '--csv and --chart name the same file' "${PLAN[@]}" --csv sub/c.out --chart sublink/c.out
refused "storms --segments its own -o" 2 '--output and --segments name the same file' "$S" storms -i "$E" --route route.csv --depart 2024-10-08T00:00:00Z --speed 10 -o seg.geojson --segments ./seg.geojson
: >seg2.geojson
ln -s seg2.geojson seglink
refused "storms --segments a link to its -o" 2 '--output and --segments name the same file' "$S" storms -i "$E" --route route.csv --depart 2024-10-08T00:00:00Z --speed 10 -o seg2.geojson --segments seglink
check "  nothing sent, no file written" sh -c "[ \$(wc -l <access.log) -eq $sent ] && [ ! -e a.out ] && [ ! -s b.out ] && [ ! -e sub/c.out ] && [ ! -e seg.geojson ] && [ ! -s seg2.geojson ]"
"${QLR[@]}" --no-legend -o q.qlr
ln -s q.qlr qlink
cp q.qlr q.keep
refused "qlr --legend its own -o by a link" 2 'name the same file' "${QLR[@]}" -o q.qlr --legend qlink
check "  the .qlr unchanged" unchanged q.qlr q.keep
refused "seed --summary-json its own -o" 2 "would replace the seed.s file s.mbtiles" "${SEED[@]}" -o s.mbtiles --summary-json s.mbtiles
ln -s s.mbtiles slink
refused "seed --summary-json a link to its own -o" 2 "would replace the seed.s file s.mbtiles" "${SEED[@]}" -o s.mbtiles --summary-json slink
check "  the MBTiles still one" sh -c "[ \"\$(sqlite3 s.mbtiles 'pragma integrity_check')\" = ok ]"
cp "$E" storms.json
cp storms.json storms.keep
refused "storms -o its --input" 2 'an input of the same run' "$S" storms -i storms.json -o storms.json
check "  the input unchanged" unchanged storms.json storms.keep
cp s.mbtiles s.keep
refused "tilejson -o the MBTiles it reads" 2 'an input of the same run' "$S" tilejson -u 'http://x/{z}/{x}/{y}.png' -o s.mbtiles s.mbtiles
check "  the MBTiles unchanged" unchanged s.mbtiles s.keep
cp p.1-of-2.mbtiles p1.keep
refused "merge -o one of its shards" 2 'an input of the same run' "$S" merge --shards 2 -o p.1-of-2.mbtiles 'p.{shard}.mbtiles'
ln p.1-of-2.mbtiles hard.mbtiles
refused "merge -o a hard link to a shard" 2 'same file as p.1-of-2.mbtiles' "$S" merge -o hard.mbtiles p.1-of-2.mbtiles p.2-of-2.mbtiles
check "  the shard unchanged" unchanged p.1-of-2.mbtiles p1.keep
cp "$SEAWX_FIXTURES/fleet/six.json" "$SEAWX_FIXTURES"/fleet/lane_?.csv .
mv six.json fleet.json
cp fleet.json fleet.keep
refused "fleet -o its fleet file" 2 'is not a folder' "$S" fleet -q fleet.json -o fleet.json
check "  the fleet file unchanged" unchanged fleet.json fleet.keep

echo "# a read-only place"
before=$(ls -A ro | wc -l)
refused "seed -o in a read-only place" 8 'not writable' "${SEED[@]}" -o ro/s.mbtiles
refused "merge -o in a read-only place" 8 'not writable' "$S" merge --shards 2 -o ro/m.mbtiles 'p.{shard}.mbtiles'
refused "tilejson -o in a read-only place" 8 'not writable' "$S" tilejson -u 'http://x/{z}/{x}/{y}.png' -o ro/t.json s.mbtiles
refused "seed --summary-json in a read-only place" 8 'not writable' "${SEED[@]}" -o s.mbtiles --summary-json ro/s.json
refused "storms -o in a read-only place" 8 'not writable' "$S" storms -i "$E" -o ro/s.geojson
refused "storms --kmz in a read-only place" 8 'not writable' "$S" storms --kmz ro/s.kmz
refused "storms --segments in a read-only place" 8 'not writable' "$S" storms -i "$E" --route route.csv --depart 2024-10-08T00:00:00Z --speed 10 --segments ro/seg.geojson
refused "legend -o in a read-only place" 8 'not writable' "$S" legend -b basic -v t2m:K -o ro/l.png
refused "forecast download -o in a read-only place" 8 'not writable' "$S" forecast download x.grib2 -o ro/f.grib2
refused "voyage -o in a read-only place" 8 'cannot write in' "$S" voyage -q -b maritime --route route.csv --depart 2026-03-01T06:00:00Z --speed 8 -l swh -z 1 -o ro/pkg
refused "fleet -o in a read-only place" 8 'not writable' "$S" fleet -q fleet.json -o ro/fleet
refused "grib -o in a read-only place" 8 'not writable' "${GRIB[@]}" -o ro/g.grb2
refused "plan --json in a read-only place" 8 'not writable' "${PLAN[@]}" --json ro/p.json
refused "plan --csv in a read-only place" 8 'not writable' "${PLAN[@]}" --csv ro/p.csv
refused "plan --chart in a read-only place" 8 'not writable' "${PLAN[@]}" --chart ro/p.png
refused "qlr -o in a read-only place" 8 'not writable' "${QLR[@]}" -o ro/q.qlr
refused "qlr --legend in a read-only place" 8 'not writable' "${QLR[@]}" -o q2.qlr --legend ro/l.png
check "  qlr left no .qlr beside it" test ! -e q2.qlr
check "  nothing was created there" test "$(ls -A ro | wc -l)" -eq "$before"
check "no key in what was printed" no_key_in err.txt out.txt
finish
