#!/usr/bin/env bash
# Installs what seawx needs to build, test and run, from Debian 12's packages.
# Idempotent: when everything is already there it changes nothing and needs no
# network. python3-qgis and qgis-providers (the QGIS headless test) are the
# largest part: about 155 packages, 110 MB, under a minute to install.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libgdal-dev gdal-bin
  libcurl4-openssl-dev libxml2-dev libjson-c-dev libminizip-dev libpng-dev zlib1g-dev
  libsqlite3-dev sqlite3 libcunit1-dev libmicrohttpd-dev
  libimagequant-dev libwebp-dev libjpeg62-turbo-dev libgeos-dev python3-shapely
  curl ca-certificates openssl python3 valgrind clang-format
  python3-qgis qgis-providers
)
# The storm tests validate GeoJSON with @mapbox/geojsonhint from the npm registry.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

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
