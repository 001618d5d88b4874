#!/usr/bin/env bash
# A disk that fills up part-way: a seed, a file download, a storm
# conversion, a voyage package and a voyage GRIB into a small tmpfs this test mounts (root
# only, as the test command runs). Each must end with one error line naming
# the file and the cause, exit 8, and leave no output that looks complete and
# is not: the MBTiles file valid and resumable with no side file beside it,
# the download's FILE.part kept, no storm file at all, no package but its
# .part folder with what was fetched. Then, with room again, the
# same command completes and the result equals a run on a roomy disk.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
  echo "test_full_disk: mounting a small tmpfs needs root (the test command runs as root)"
  exit 1
fi
sim_start
S=$SEAWX_CLI
D=$T/small
mkdir -p "$D" "$T/roomy"
cleanup_mount() { umount "$D" 2>/dev/null; }
trap 'cleanup_mount; cleanup' EXIT
small() { umount "$D" 2>/dev/null; mount -t tmpfs -o "size=$1" tmpfs "$D"; }
room() { mount -o remount,size=256m "$D"; }
# The command after $1 (the disk's size) and $2 (its stderr) on a small disk; rc is its exit.
on_small() {
  small "$1"
  local err=$2
  shift 2
  "$@" 2>"$err"
  rc=$?
  cat "$err"
}
one_line() { test "$(wc -l <"$1")" -eq 1; }
side_files() { ls "$D" | grep -E -- '-(wal|shm|journal)$|\.tmp$' || true; }

# 1. Seeding: about 8 MB of tiles into 6 MB, so that several batches are
# committed before the disk fills; progress lines on (not a terminal).
seed=("$S" seed -b basic -v t2m:K --bbox -20,35,20,60 -z 0-8)
on_small 6m "$T/seed.err" "${seed[@]}" -o "$D/s.mbtiles"
check "seed on a full disk: exit 8" test $rc -eq 8
check "seed: one error line, last, naming the file and the cause" sh -c \
  "test \$(grep -c 'error' '$T/seed.err') -eq 1 && tail -1 '$T/seed.err' | grep 'seawx: error: ' | grep 's.mbtiles' | grep -qiE 'full|space'"
check "seed: the file is there and valid" sh -c "test -s '$D/s.mbtiles' && sqlite3 '$D/s.mbtiles' 'pragma integrity_check' | grep -qx ok"
check "seed: no -wal, -shm, -journal or temporary beside it" test -z "$(side_files)"
stored=$(sqlite3 "$D/s.mbtiles" 'select count(*) from tiles' 2>/dev/null || echo 0)
check "seed: the tiles committed before the disk filled are in the file ($stored)" test "$stored" -gt 0
room
"${seed[@]}" -o "$D/s.mbtiles" 2>"$T/seed2.err"
check "seed: with room again the same command completes" test $? -eq 0
"${seed[@]}" -o "$T/roomy/s.mbtiles" 2>/dev/null
tiles() { sqlite3 "$1" "select zoom_level, tile_column, tile_row, hex(tile_data) from tiles order by 1, 2, 3" | sha256sum; }
check "seed: the result equals a run on a roomy disk" test "$(tiles "$D/s.mbtiles")" = "$(tiles "$T/roomy/s.mbtiles")"

# 2. A download: the 265 KB soil file into 128 KB.
soil=$("$S" soil files -f json | python3 -c "import json,sys; print(json.load(sys.stdin)['data'][-1]['name'])")
on_small 128k "$T/dl.err" "$S" soil download "$soil" -o "$D/soil.nc"
check "download on a full disk: exit 8" test $rc -eq 8
check "download: one line naming the file and the cause" sh -c \
  "test \$(wc -l <'$T/dl.err') -eq 1 && grep -q 'soil.nc' '$T/dl.err' && grep -qiE 'space|full' '$T/dl.err'"
check "download: no soil.nc, its .part kept" sh -c "test ! -e '$D/soil.nc' && test -s '$D/soil.nc.part'"
room
"$S" soil download "$soil" -o "$D/soil.nc" 2>"$T/dl2.err"
check "download: with room again it resumes and completes" test $? -eq 0
"$S" soil download "$soil" -o "$T/roomy/soil.nc" 2>/dev/null
check "download: byte-identical to a download on a roomy disk" cmp "$D/soil.nc" "$T/roomy/soil.nc"

# 3. A storm conversion: every storm since 1990 into 512 KB.
storms=("$S" storms --status all --period 1990-01-01T00:00:00Z/2024-12-31T23:59:59Z)
on_small 512k "$T/st.err" "${storms[@]}" -o "$D/storms.geojson"
check "storms on a full disk: exit 8" test $rc -eq 8
check "storms: one line naming the file and the cause" sh -c \
  "test \$(wc -l <'$T/st.err') -eq 1 && grep -q 'storms.geojson' '$T/st.err' && grep -qiE 'space|full' '$T/st.err'"
check "storms: no output file and no temporary left" test -z "$(ls "$D" | grep storms)"
room
"${storms[@]}" -o "$D/storms.geojson" 2>/dev/null
check "storms: with room again the same command completes" test $? -eq 0
"${storms[@]}" -o "$T/roomy/storms.geojson" 2>/dev/null
check "storms: byte-identical to a conversion on a roomy disk" cmp "$D/storms.geojson" "$T/roomy/storms.geojson"

# 4. A voyage package: about 7 MB into 3 MB. No package appears; what was
# fetched stays in the version folder's .part with its resume.json, and the
# same command, with room, continues it instead of fetching it all again.
first=$("$S" layers -b maritime -v swh --latest --json | python3 -c "import json,sys; print(json.load(sys.stdin)[0]['times'][0])")
voyage=("$S" voyage -q -b maritime --route "$SEAWX_FIXTURES/voyage/atlantic_1000nm.csv" --depart "$first"
  --speed 6-8 --layer swh -z 3-5 --format png --now "$SIM_NOW")
on_small 3m "$T/pkg.err" "${voyage[@]}" -o "$D/pkg"
check "package on a full disk: exit 8" test $rc -eq 8
check "package: one line naming the file, the cause and the folder kept" sh -c \
  "test \$(wc -l <'$T/pkg.err') -eq 1 && grep -q 'swh-.*mbtiles' '$T/pkg.err' && grep -qiE 'space|full' '$T/pkg.err' &&
  grep -q 'kept in $D/.pkg.v1.part' '$T/pkg.err'"
check "package: no package appears" test ! -e "$D/pkg"
check "package: the .part keeps its resume.json and valid files, no side file" sh -c "
  test -s '$D/.pkg.v1.part/resume.json' && ls '$D/.pkg.v1.part' | grep -q 'mbtiles\$' &&
  ! ls '$D/.pkg.v1.part' | grep -qE -- '-(wal|shm|journal)\$|\.before\$' &&
  for f in '$D'/.pkg.v1.part/*.mbtiles; do sqlite3 \"\$f\" 'pragma integrity_check' | grep -qx ok || exit 1; done"
room
before=$(getmaps)
"${voyage[@]}" -o "$D/pkg" 2>"$T/pkg2.err"
check "package: with room again the same command completes" test $? -eq 0
resumed=$(($(getmaps) - before))
before=$(getmaps)
"${voyage[@]}" -o "$T/roomy/pkg" 2>/dev/null
whole=$(($(getmaps) - before))
check "package: the second run fetched only what was missing ($resumed of $whole GetMaps)" \
  test "$resumed" -gt 0 -a "$resumed" -lt "$whole"
same_pkg() {
  local f
  test "$(ls "$D/pkg" | grep -c mbtiles)" -eq "$(ls "$T/roomy/pkg" | grep -c mbtiles)" || return 1
  for f in "$T"/roomy/pkg/*.mbtiles; do
    test "$(tiles "$f")" = "$(tiles "$D/pkg/$(basename "$f")")" || return 1
  done
}
check "package: every file's tiles equal a build on a roomy disk" same_pkg
check "package: nothing left beside it but the package and its version" test "$(ls -A "$D" | grep pkg | tr '\n' ' ')" = ".pkg.v1 pkg "

# 5. A GRIB and a plan's chart that do not fit: the line gives the cause.
grib=("$S" grib --bbox -60,20,0,60 --hours 0,6 --vars wind,prmsl --no-cache -q)
on_small 16k "$T/grib.err" "${grib[@]}" -o "$D/v.grb2"
check "grib on a full disk: exit 8, one line naming the file and the cause" sh -c \
  "[ $rc -eq 8 ] && [ \$(wc -l <'$T/grib.err') -eq 1 ] && grep -q 'cannot write $D/v.grb2: No space left on device' '$T/grib.err'"
check "grib: no file and no temporary left" test -z "$(ls "$D" | grep grb2)"
finish
