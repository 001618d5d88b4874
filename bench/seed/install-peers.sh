#!/usr/bin/env bash
# install-peers.sh: installs what bench/seed/run.sh compares `seawx seed` with,
# from Debian's mirror: mapcache_seed (mapcache-tools), mapproxy-seed (mapproxy),
# wrk, GDAL's command-line tools, GNU time, sqlite3 and python3. Run as root.
# The test command never calls this; run.sh skips a peer that is missing.
set -eu
need=()
for p in mapcache-tools mapproxy wrk gdal-bin time sqlite3 python3; do
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
