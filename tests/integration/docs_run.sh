#!/usr/bin/env bash
# shellcheck disable=SC2317 # docs_cmd and docs_file are called by the page script it sources
# docs_run.sh: runs one page's commands (the script docs_extract.py wrote).
# Usage: bash docs_run.sh PAGE_SCRIPT RESULTS_FILE, in the page's scratch folder.
# Each command is evaluated in this one shell, so that a page's variables,
# exports and background jobs carry from one command to the next as they
# would in a reader's terminal. Writes "ok - WHERE" or "FAILED - WHERE" and
# appends P or F to RESULTS_FILE for each command.
page_script=$1
results=$2
# A pipeline fails when any of its commands does, not only the last.
set -o pipefail
log=$(mktemp "${TMPDIR:-/tmp}/seawx-docs-cmd.XXXXXX")

# docs_cmd WHERE EXPECTED_EXIT <<'END' ... END
docs_cmd() {
  local where=$1 want=$2 cmd rc first start
  cmd=$(cat)
  first=${cmd%%$'\n'*}
  start=$(date +%s.%N)
  eval "$cmd" </dev/null >"$log" 2>&1
  rc=$?
  local secs
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  if [ "$rc" -eq "$want" ]; then
    echo P >>"$results"
    echo "ok - $where (exit $rc, ${secs} s): $first"
  else
    echo F >>"$results"
    echo "FAILED - $where: exit $rc where the page says $want: $first"
    sed 's/^/    | /' "$log" | tail -n 15
  fi
}

# docs_size WHERE FILE SIZE: FILE's size is the one the page quotes, rounded
# to the digits it gives ("19 kB": 18,500 to 19,499 bytes; "<5 kB": under).
docs_size() {
  local where=$1 file=$2 size=$3 bytes
  bytes=$(stat -c %s "$file" 2>/dev/null) || bytes=-1
  if [ "$bytes" -ge 0 ] && python3 - "$bytes" "$size" <<'PY'; then
import re, sys
got, q = int(sys.argv[1]), sys.argv[2].replace(",", "")
m = re.match(r"^(<?)([0-9.]+)\s*(bytes|[kMG]i?B)$", q)
unit = {"bytes": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 1024, "kiB": 1024,
        "MiB": 1024 ** 2, "GiB": 1024 ** 3}[m.group(3)]
digits = len(m.group(2).split(".")[1]) if "." in m.group(2) else 0
v = got / unit
ok = v < float(m.group(2)) if m.group(1) else f"{v:.{digits}f}" == m.group(2)
sys.exit(0 if ok else 1)
PY
    echo P >>"$results"
    echo "ok - $where: $file is $size ($bytes bytes)"
  else
    echo F >>"$results"
    echo "FAILED - $where: the page quotes $size for $file, which is $bytes bytes"
  fi
}

# docs_file NAME <<'END' ... END: a file the page shows, for its commands.
docs_file() {
  mkdir -p "$(dirname "$1")"
  cat >"$1"
}

# shellcheck disable=SC1090
. "$page_script"
rm -f "$log"
# Whatever a page left running in the background (it started it: its jobs).
for pid in $(jobs -p); do kill "$pid" 2>/dev/null; done
wait 2>/dev/null
exit 0
