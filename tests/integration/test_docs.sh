#!/usr/bin/env bash
# The docs test: every command shown in README.md and docs/*.md runs against
# seawx-sim, so the pages cannot drift from the program. The convention (how
# a page marks a command that fails on purpose, a block that cannot run here,
# a file it shows) is in docs/testing.md, "The docs test", and at the top of
# docs_extract.py, which reads the pages.
#
# Each page runs in its own scratch folder holding the sample files the pages
# name (tests/fixtures/seed, voyage, fleet; samples/storms), against a fresh
# seawx-sim on a loopback port, with `seawx` and `seawx-sim` on PATH, so the
# documented lines run unchanged. A command that exits otherwise than the page
# says fails the test; so does an option given to `seawx CMD` (in any block,
# skipped ones and synopses too) that `seawx CMD --help` does not list.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=${SEAWX_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
started=$(date +%s)

mkdir -p "$T/bin" "$T/pages" "$T/cache"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$SEAWX_CLI" >"$T/bin/seawx"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$SEAWX_SIM" >"$T/bin/seawx-sim"
chmod +x "$T/bin/seawx" "$T/bin/seawx-sim"
export PATH="$T/bin:$PATH"
export SEAWX_CACHE_DIR="$T/cache"

python3 "$here/docs_extract.py" "$root" "$T/pages" || {
  echo "FAILED - the pages could not be read"
  FAILED=$((FAILED + 1))
  finish
}

# 0. The README opens on the two commands a newcomer runs first.
first=$(awk '/^```sh/ { f = 1; next } f && /^```/ { exit } f && !/^#/ { print $1, $2 }' "$root/README.md")
check "the README's first commands are 'bash scripts/demo.sh' and 'bash scripts/test.sh'" \
  test "$first" = $'bash scripts/demo.sh\nbash scripts/test.sh'

# 1. Options: every option a page gives a seawx command is one its --help lists.
: >"$T/bad_options"
while IFS=$'\t' read -r where prog opt; do
  help="$T/help.$(echo "$prog" | tr ' ' _)"
  if [ ! -f "$help" ]; then
    # shellcheck disable=SC2086
    $prog --help 2>&1 | grep -E '^[[:space:]]+-' | grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' |
      tr -d ' ,' | sort -u >"$help"
  fi
  grep -qxF -- "$opt" "$help" || echo "$where: $prog $opt is not an option of '$prog --help'" >>"$T/bad_options"
done <"$T/pages/options.tsv"
n_opts=$(wc -l <"$T/pages/options.tsv")
check "every option named in the pages ($n_opts) is one that --help lists" test ! -s "$T/bad_options"
sed 's/^/    /' "$T/bad_options"

check "every link between the pages finds its file and heading" test ! -s "$T/pages/bad_links.txt"
sed 's/^/    /' "$T/pages/bad_links.txt"

# The architecture page against the build: every folder of lib/, every library
# lib/CMakeLists.txt links, and the seawx_domain lines the pages quote.
python3 "$here/design_check.py" "$root" >"$T/design_drift" 2>&1 || true
check "docs/design.md names every folder of lib/ and every library it links; quoted build lines are the build's" \
  test ! -s "$T/design_drift"
sed 's/^/    /' "$T/design_drift"

# docs/testing.md's table of stages against the labels ctest gives the tests.
(cd "$SEAWX_BUILD_DIR" && ctest --show-only=json-v1) >"$T/ctest.json" 2>"$T/ctest.err" &&
  python3 "$here/stage_check.py" "$root/docs/testing.md" "$T/ctest.json" >"$T/stage_drift" 2>&1
stage_rc=$?
check "docs/testing.md's stage table agrees with the stage each test runs in" test "$stage_rc" -eq 0
sed 's/^/    /' "$T/stage_drift" "$T/ctest.err" 2>/dev/null

# 2. Commands: each page against its own stand-in, in its own scratch folder.
: >"$T/results"
while IFS=$'\t' read -r name now page; do
  [ -s "$T/pages/$name.sh" ] || continue
  dir="$T/pages/$name.d"
  mkdir -p "$dir/build"
  cp "$SEAWX_FIXTURES"/seed/*.geojson "$SEAWX_FIXTURES"/seed/*.csv "$SEAWX_FIXTURES"/voyage/*.csv \
    "$SEAWX_FIXTURES"/fleet/* "$root"/samples/storms/edge_storms.json "$dir/"
  # `export GDAL_DRIVER_PATH=$PWD/build/driver`, as the GDAL page shows it.
  ln -s "$GDAL_DRIVER_PATH" "$dir/build/driver"
  rm -f "$T/port"
  sim_start --now "$now"
  export SEAWX_VESSELS_URL=$SIM_URL
  echo "# $page (seawx-sim at $now)"
  (cd "$dir" && bash "$here/docs_run.sh" "$T/pages/$name.sh" "$T/results")
  kill "$SIM_PID" 2>/dev/null
  wait "$SIM_PID" 2>/dev/null
  SIM_PID=
done <"$T/pages/pages.txt"

ran=$(wc -l <"$T/results")
PASSED=$((PASSED + $(grep -c P "$T/results" || true)))
FAILED=$((FAILED + $(grep -c F "$T/results" || true)))
n_skipped=$(wc -l <"$T/pages/skipped.txt")
echo "# skipped, as their pages mark them ($n_skipped):"
while IFS=$'\t' read -r where first reason; do
  echo "skip - $where: $first ($reason)"
done <"$T/pages/skipped.txt"
check "the pages show commands to run" test "$ran" -gt 0
echo "# $ran documented commands run, $n_skipped skipped, $n_opts options checked, $(($(date +%s) - started)) s"
finish
