#!/usr/bin/env bash
# The library names no front end's flags: a message that points to a setting
# takes its word from the front end (seawx/setting.h, or an options struct's
# names as swx_seed_names), so that GDAL's users read GDAL's options and the
# command line's read its flags. Fails on a string literal in lib/ that holds
# "--" and a letter (comments are not read). usage: check_lib_words.sh SRC
set -euo pipefail
src=$1
found=$(grep -rnE --include='*.c' '"([^"\\]|\\.)*--[a-z]' "$src/lib" |
  grep -vE '^[^:]+:[0-9]+:\s*(/\*|\*|//)' || true)
if [ -n "$found" ]; then
  echo "FAIL: a front end's flag in the library's words (take it from seawx/setting.h):"
  echo "$found"
  exit 1
fi
# The check must see what it looks for: a flag in a string is found.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
mkdir -p "$probe/lib"
printf 'static const char *m = "use --insecure";\n' >"$probe/lib/p.c"
grep -rqE --include='*.c' '"([^"\\]|\\.)*--[a-z]' "$probe/lib" || { echo "FAIL: the check sees nothing"; exit 1; }
echo "ok - no string in lib/ names a front end's flag"
