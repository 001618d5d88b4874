#!/usr/bin/env bash
# Installs what seawx needs to build, test and run, from Debian 12's packages.
# Idempotent: when everything is already there it changes nothing and needs no
# network.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libgdal-dev gdal-bin
  libcurl4-openssl-dev libxml2-dev libjson-c-dev libminizip-dev libpng-dev zlib1g-dev
  libsqlite3-dev sqlite3 libcunit1-dev libmicrohttpd-dev
  curl ca-certificates python3
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}; run as root (or with sudo)" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
