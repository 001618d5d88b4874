#!/usr/bin/env bash
# install-peers.sh: installs what bench/storms/run.sh compares `seawx storms`
# with, from Debian's mirror: jq, python3, GNU time and a C compiler (for the
# archive generator). Run as root. The test command never calls this; run.sh
# skips a peer that is missing.
set -eu
need=()
for p in jq python3 time gcc; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
done
if [ ${#need[@]} -eq 0 ]; then
  echo "install-peers: everything is installed"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}"
echo "install-peers: installed ${need[*]}"
