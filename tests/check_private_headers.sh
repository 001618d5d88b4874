#!/usr/bin/env bash
# check_private_headers.sh BUILD_DIR SOURCE_DIR: the header rule of
# lib/CMakeLists.txt holds. In BUILD_DIR, a tiles file reading wms's internal
# interface compiles (the control), a tiles file reading a private header of
# wms does not, nor does a front end reading the HTTP engine's internal
# interface; and no file of lib/ reaches another folder's header by a path
# ("../wms/png_priv.h"), which would go round the include paths.
set -u
build=$1 src=$2
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if cmake --build "$build" --target probe_internal_header >"$out" 2>&1; then
  echo "ok - a tiles file reads wms/internal/wms_request.h"
else
  echo "not ok - the control failed to compile:"
  tail -20 "$out"
  fail=1
fi
refused() { # target header what
  if cmake --build "$build" --target "$1" >"$out" 2>&1; then
    echo "not ok - $3 compiled"
    fail=1
  elif grep -q "$2: No such file" "$out"; then
    echo "ok - $3 is refused ($2: No such file or directory)"
  else
    echo "not ok - $3 failed for another reason:"
    tail -20 "$out"
    fail=1
  fi
}
refused probe_private_header png_priv.h "a tiles file reading wms's private png_priv.h"
refused probe_frontend_header http_core.h "a front end reading net/internal/http_core.h"
paths=$(grep -rnE '^#include "(\.\./|[a-z]+/(internal/)?[a-z_]+\.h")' "$src/lib" --include='*.c' --include='*.h' |
  grep -v '"seawx/')
if [ -n "$paths" ]; then
  echo "not ok - files of lib/ reach headers by a path:"
  echo "$paths"
  fail=1
else
  echo "ok - no file of lib/ reaches a header by a path"
fi
[ $fail -eq 0 ] && echo "4 passed, 0 failed" || echo "some checks failed"
exit $fail
