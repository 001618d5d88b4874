# lib.sh: what the end-to-end tests share. Source it; it starts nothing by itself.
#   sim_start [seawx-sim options]   starts seawx-sim on a free loopback port:
#                                   sets SIM_URL, SIM_PORT, SIM_PID, and exports
#                                   SEAWX_BASE_URL / SEAWX_API_KEY for the CLI
#   check NAME CMD...               runs CMD, counts a pass when it exits 0
#   finish                          prints "N passed, N failed" and exits
#   wait_until SECONDS CMD...       runs CMD every 20 ms until it succeeds
#   progress_or_exit PID SECONDS CMD...
#                                   the same, but gives up (status 1) as soon as
#                                   PID has ended: how a test that interrupts a
#                                   run waits for that run's observed progress
set -u
: "${SEAWX_SIM:?run through ctest}" "${SEAWX_CLI:?run through ctest}"
T=$(mktemp -d /tmp/seawx-it.XXXXXX)
KEY="it-key-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
PASSED=0
FAILED=0
SIM_PID=

# SEAWX_KEEP_TEST_DIR=1 keeps the test's folder (files, screenshots, logs) and
# names it at the end, to look at what a failing test saw.
cleanup() {
  [ -n "$SIM_PID" ] && kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
  if [ "${SEAWX_KEEP_TEST_DIR:-0}" = 1 ]; then
    echo "# kept: $T"
  else
    rm -rf "$T"
  fi
}
trap cleanup EXIT

# The stand-in's clock, fixed for the whole test (every start of it) unless a
# test gives its own --now: the newest run, the current hour of the point
# data and the file listings cannot change half-way through a test that
# happens to run across an hour or a run's release.
SIM_NOW=${SIM_NOW:-$(date -u +%Y-%m-%dT%H:%M:00Z)}
sim_start() {
  local now=(--now "$SIM_NOW")
  case " $* " in *" --now "*) now=() ;; esac
  "$SEAWX_SIM" --port 0 --port-file "$T/port" --key "$KEY" --access-log "$T/access.log" \
    "${now[@]}" "$@" 2>"$T/sim.log" &
  SIM_PID=$!
  for _ in $(seq 200); do [ -s "$T/port" ] && break; sleep 0.025; done
  if [ ! -s "$T/port" ]; then echo "seawx-sim did not start:"; cat "$T/sim.log"; exit 1; fi
  SIM_PORT=$(cat "$T/port")
  SIM_URL=http://127.0.0.1:$SIM_PORT
  export SEAWX_BASE_URL=$SIM_URL SEAWX_API_KEY=$KEY
  unset SEAWX_API_KEY_FILE SEAWX_WMS_AUTH SEAWX_WMS_PASSWORD
}

# The stand-in stopped and started again with other options (its faults,
# its storage's answers), on a port of its own.
sim_restart() {
  kill "$SIM_PID" 2>/dev/null && wait "$SIM_PID" 2>/dev/null
  rm -f "$T/port"
  sim_start "$@"
}

# A test that interrupts, kills or cancels waits for observed progress (rows
# in the access log, the size of a .part, tiles in a file), never a fixed
# time, so that it holds on a busy machine. SECONDS only bounds a run that is
# broken: it is never the wait a test expects.
wait_until() {
  local limit=$1 t0=$SECONDS
  shift
  until "$@"; do
    [ $((SECONDS - t0)) -ge "$limit" ] && return 1
    sleep 0.02
  done
}
progress_or_exit() {
  local pid=$1 limit=$2 t0=$SECONDS
  shift 2
  until "$@"; do
    kill -0 "$pid" 2>/dev/null || return 1
    [ $((SECONDS - t0)) -ge "$limit" ] && return 1
    sleep 0.02
  done
  kill -0 "$pid" 2>/dev/null
}

# GetMaps the stand-in has answered so far (its access log).
getmaps() { grep -c 'request=GetMap' "$T/access.log" || true; }

check() {
  local name=$1
  shift
  if "$@"; then
    PASSED=$((PASSED + 1))
    echo "ok - $name"
  else
    FAILED=$((FAILED + 1))
    echo "FAILED - $name"
  fi
}

# The key must never show up in what a command printed.
no_key_in() {
  ! grep -q -F -- "$KEY" "$@"
}

finish() {
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ]
  exit
}

# maplibre_npm DIR: maplibre-gl 6.17.0 and playwright-core 1.65.1 from the npm
# registry into DIR, once per build folder (the MapLibre tests share it).
maplibre_npm() {
  command -v npm >/dev/null || { echo "npm is missing: run scripts/install-deps.sh"; return 1; }
  mkdir -p "$1"
  (
    flock 9
    [ -f "$1/node_modules/maplibre-gl/package.json" ] &&
      [ -f "$1/node_modules/playwright-core/package.json" ] ||
      npm install --prefix "$1" --no-audit --no-fund --no-save --silent \
        maplibre-gl@6.17.0 playwright-core@1.65.1 >"$T/npm.log" 2>&1 || { cat "$T/npm.log"; exit 1; }
  ) 9>"$1/.lock"
  [ "$(node -p "require('$1/node_modules/maplibre-gl/package.json').version")" = 6.17.0 ]
}
