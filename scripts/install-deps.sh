#!/usr/bin/env bash
# Installs what seawx needs to build, test and run, from Debian 12's packages.
# Idempotent: when everything is already there it changes nothing and needs no
# network. python3-qgis and qgis-providers (the QGIS headless test) are the
# largest part: about 155 packages, 110 MB, under a minute to install;
# chromium (the MapLibre test) about 130 MB to download, 420 MB installed.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libgdal-dev gdal-bin
  libcurl4-openssl-dev libxml2-dev libjson-c-dev libminizip-dev libpng-dev zlib1g-dev
  libsqlite3-dev sqlite3 libcunit1-dev libmicrohttpd-dev
  # ecCodes: seawx-sim writes its GRIB2 files with it; the tests read them with
  # grib_ls/grib_get and with libeccodes from python3 (ctypes). Not Debian 12's
  # python3-eccodes: through python3-ecmwflibs it needs libcurl4-gnutls-dev,
  # which apt installs in place of libcurl4-openssl-dev.
  libeccodes-dev libeccodes-tools
  # bzip2: a voyage GRIB compressed for the satellite link (seawx grib -o F.grb2.bz2)
  libbz2-dev bzip2
  libimagequant-dev libwebp-dev libjpeg62-turbo-dev libgeos-dev python3-shapely
  # numpy: the route reference and the voyage GRIB check (test-only)
  python3-numpy
  # The departure plan's chart (seawx plan --chart): cairo, and the DejaVu
  # fonts it writes with.
  libcairo2-dev fonts-dejavu-core
  # The router's land: GSHHG coastlines in GMT's binned netCDF form, read
  # with libnetcdf; ncdump (netcdf-bin) shows their variables. The full
  # resolution (41 MB) is alone in gmt-gshhg-full, the high one in
  # gmt-gshhg-high (8 MB); a package's coast.geojson takes the intermediate,
  # low or crude ones of gmt-gshhg-low (4 MB).
  libnetcdf-dev netcdf-bin gmt-gshhg-full gmt-gshhg-high gmt-gshhg-low
  # it.test_route checks every leg against GMT's own reading of the same
  # shoreline (gmt coast -M): a test tool only, seawx never runs GMT.
  gmt
  curl ca-certificates openssl python3 valgrind clang-format
  python3-qgis qgis-providers
  # The sharded-seed tests: a single-node Slurm cluster (daemons started by the
  # test itself), and the Kubernetes manifests read as YAML.
  slurmctld slurmd munge slurm-client python3-yaml
  chromium iproute2 xvfb xdotool
  # The voyage GRIB: XyGrib opens it under Xvfb (it.test_grib_viewers); CDO is
  # the peer tool bench/grib/run.sh measures it against.
  xygrib cdo
  # it.test_grib_viewers: ImageMagick's import screenshots XyGrib's screen.
  imagemagick
  # it.test_opencpn_time reads OpenCPN's GRIB time label and Chart Info by OCR.
  tesseract-ocr
  # it.test_grib_forms measures a voyage GRIB's peak memory with GNU time.
  time
)
# The viewer tests: MapLibre GL JS in Debian's chromium (it.test_maplibre),
# Signal K in a network namespace of its own (it.test_signalk, `ip` from
# iproute2), and OpenCPN 5.10 under Xvfb (it.test_opencpn: xdotool answers its
# first-start dialog; OpenCPN itself comes from Debian's bookworm-backports,
# below: about 65 MB to download). Their npm packages (maplibre-gl,
# playwright-core, signalk-server, @signalk/charts-plugin, Node 22) are pinned
# in those tests and installed into the build folder on their first run.
# The storm tests validate GeoJSON with @mapbox/geojsonhint from the npm registry.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
opencpn_missing=
dpkg-query -W -f='${Status}' opencpn 2>/dev/null | grep -q "install ok installed" || opencpn_missing=1
if [ ${#missing[@]} -eq 0 ] && [ -z "$opencpn_missing" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}${opencpn_missing:+ opencpn}; run as root (or with sudo)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if [ -n "$opencpn_missing" ] && ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "install-deps: adding Debian's bookworm-backports suite (for opencpn)" >&2
  cat >/etc/apt/sources.list.d/bookworm-backports.sources <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
apt-get update -q >/dev/null
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ -n "$opencpn_missing" ]; then
  echo "install-deps: installing opencpn from bookworm-backports" >&2
  apt-get install -y -q --no-install-recommends -t bookworm-backports opencpn >/dev/null
fi
