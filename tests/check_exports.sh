#!/usr/bin/env bash
# The shared core exports swx_* functions and nothing else (the linker's own
# __bss_start, _edata and _end aside). usage: check_exports.sh LIB [LEAST]:
# at least LEAST swx_ symbols (default 20; the chart library exports one).
set -euo pipefail
lib=$1
least=${2:-20}
syms=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDBRV]/ {print $3}')
count=$(printf '%s\n' "$syms" | grep -c '^swx_' || true)
bad=$(printf '%s\n' "$syms" | grep -v -E '^swx_|^_init$|^_fini$|^__bss_start$|^_edata$|^_end$|^$' || true)
if [ -n "$bad" ]; then
  echo "exported symbols without the swx_ prefix:"; echo "$bad"; exit 1
fi
if [ "$count" -lt "$least" ]; then
  echo "only $count swx_ symbols exported: visibility is broken"; exit 1
fi
echo "1 passed, 0 failed: $count swx_ symbols exported, nothing else"
