#!/usr/bin/env bash
# The test command: installs the dependencies, builds with warnings as errors,
# and runs every test (unit and end to end) with ctest, ending on its summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" -DSEAWX_WERROR=ON -DSEAWX_BUILD_TESTS=ON
cd "${SEAWX_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j2 --timeout 900
