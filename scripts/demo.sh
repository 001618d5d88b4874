#!/usr/bin/env bash
# The demo: installs the dependencies, builds, starts seawx-sim on a free
# loopback port and shows the product working against it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" >/dev/null
build=${SEAWX_BUILD_DIR:-$root/build}
seawx=$build/tilecli/seawx
sim=$build/samples/seawx-sim

work=$(mktemp -d /tmp/seawx-demo.XXXXXX)
key=demo-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
"$sim" --port 0 --port-file "$work/port" --key "$key" 2>"$work/sim.log" &
sim_pid=$!
trap 'kill $sim_pid 2>/dev/null; wait $sim_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || { echo "seawx-sim did not start" >&2; cat "$work/sim.log" >&2; exit 1; }

export SEAWX_BASE_URL=http://127.0.0.1:$(cat "$work/port")
export SEAWX_API_KEY=$key
step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "$2"; }

step "1. Every bundle's variables, newest complete run" "seawx layers --latest"
"$seawx" layers --latest

step "2. Every run of one variable" "seawx layers --bundle maritime --variable swh"
"$seawx" layers --bundle maritime --variable swh

step "3. The same as JSON" "seawx layers --bundle basic --variable t2m:K --latest --json"
"$seawx" layers --bundle basic --variable t2m:K --latest --json | head -n 30
echo "  ..."

step "4. A wrong key: one clear line, exit code 4" "SEAWX_API_KEY=wrong seawx layers --bundle basic"
set +e
SEAWX_API_KEY=wrong "$seawx" layers --bundle basic
echo "exit code: $?"
set -e
echo
echo "Demo finished against seawx-sim at $SEAWX_BASE_URL."
