#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` in this build folder writes
# seawx_<version>_amd64.deb; `apt-get install ./seawx_*.deb` installs it (as
# root, as the test command runs, on the Debian 12 machine the tests run on);
# then GDAL finds the plugin with no GDAL_DRIVER_PATH, `man seawx-seed` shows
# the seed options, `pkg-config --cflags --libs seawx` compiles a program
# against the library, the bash completion completes; and removing the
# package leaves none of its files behind.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
  echo "test_deb: installing a package needs root (the test command runs as root)"
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
purge() { dpkg -s seawx >/dev/null 2>&1 && apt-get purge -y -q seawx >/dev/null 2>&1; true; }
trap 'purge; cleanup' EXIT
purge
(cd "$SEAWX_BUILD_DIR" && cpack -G DEB -B "$T/deb" >"$T/cpack.log" 2>&1)
deb=$(ls "$T"/deb/seawx_*_amd64.deb 2>/dev/null | head -1)
check "cpack writes seawx_<version>_amd64.deb" test -s "$deb"
dpkg-deb --info "$deb" >"$T/info.txt"
check "it declares its libraries (libgdal, libcurl, ...) as dependencies" sh -c \
  "grep -q '^ Depends:.*libgdal32' '$T/info.txt' && grep -q '^ Depends:.*libcurl4' '$T/info.txt'"
check "apt installs it" sh -c "apt-get install -y -q --no-install-recommends '$deb' >'$T/apt.log' 2>&1"
dpkg -L seawx >"$T/files.txt"
check "seawx and seawx-sim are on the PATH" sh -c "/usr/bin/seawx --version | grep -q '^seawx ' && /usr/bin/seawx-sim --help >/dev/null"
check "the plan's chart library is installed beside libseawx, and only it needs cairo" sh -c "
lib=\$(grep '/libseawx.so.0\$' '$T/files.txt') && chart=\$(grep '/libseawx_chart.so.0\$' '$T/files.txt') &&
test \"\${lib%/*}\" = \"\${chart%/*}\" && grep -q '^ Depends:.*libcairo2' '$T/info.txt' &&
readelf -d \"\$chart\" | grep -q 'NEEDED.*libcairo' && ! readelf -d \"\$lib\" | grep -q 'NEEDED.*libcairo'"
check "it recommends the coastlines seawx route reads (gmt-gshhg-full)" \
  grep -q '^ Recommends:.*gmt-gshhg-full' "$T/info.txt"
check "GDAL lists SEAWX with no GDAL_DRIVER_PATH" sh -c "env -u GDAL_DRIVER_PATH gdalinfo --formats | grep -q '^  SEAWX'"
check "the manual page of seed holds its options" sh -c \
  "zcat /usr/share/man/man1/seawx-seed.1.gz | grep -q 'bbox' && { ! command -v man >/dev/null || MANPAGER=cat man seawx-seed 2>/dev/null | grep -q -- '--bbox'; }"
check "every command has a manual page" sh -c \
  "for c in layers seed storms soil weather tides forecast vessels; do test -s /usr/share/man/man1/seawx-\$c.1.gz || exit 1; done"
cat >"$T/use.c" <<'C'
#include <seawx/iso8601.h>
#include <stdio.h>
int main(void)
{
    int64_t t;
    if (swx_iso8601_parse(&t, "2024-10-01T06:00:00Z") != 0)
        return 1;
    printf("%lld\n", (long long)t);
    return 0;
}
C
check "pkg-config --cflags --libs seawx compiles and links a program" sh -c \
  "cc -o '$T/use' '$T/use.c' \$(pkg-config --cflags --libs seawx) && '$T/use' | grep -qx 1727762400"
check "the bash completion completes a command's options" bash -c \
  "source /usr/share/bash-completion/completions/seawx && COMP_WORDS=(seawx seed --zo) && COMP_CWORD=2 && _seawx && test \"\${COMPREPLY[*]}\" = --zoom"
check "apt removes it" sh -c "apt-get purge -y -q seawx >'$T/purge.log' 2>&1"
left=$(while read -r f; do [ -f "$f" ] || [ -L "$f" ] && echo "$f"; done <"$T/files.txt")
check "no file of the package is left (${left:-none})" test -z "$left"
check "the plugin is gone from GDAL" sh -c "! env -u GDAL_DRIVER_PATH gdalinfo --formats | grep -q '^  SEAWX'"
finish
