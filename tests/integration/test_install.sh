#!/usr/bin/env bash
# cmake --install into a staging folder (DESTDIR): the programs, the library and
# its headers, the GDAL plugin in GDAL's plugin folder, the styles and the
# samples; and each works from there.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${SEAWX_BUILD_DIR:?run through ctest}" "${SEAWX_SOURCE_DIR:?run through ctest}"
cache() { sed -n "s/^$1:[A-Z]*=//p" "$SEAWX_BUILD_DIR/CMakeCache.txt"; }
prefix=$(cache CMAKE_INSTALL_PREFIX)
libdir=$(cache CMAKE_INSTALL_LIBDIR)
plugindir=$(cache SEAWX_GDAL_PLUGIN_DIR)
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
S=$T/stage
unset GDAL_DRIVER_PATH # the staged plugin must be found where it was put

DESTDIR=$S cmake --install "$SEAWX_BUILD_DIR" >"$T/install.txt" 2>&1
check "cmake --install to DESTDIR succeeds" test $? -eq 0
check "nothing was installed outside the staging folder" sh -c \
  "! grep -E '^-- (Installing|Up-to-date): ' '$T/install.txt' | grep -v -F ': $S/'"

check "bin/seawx" test -x "$S$prefix/bin/seawx"
check "bin/seawx-sim" test -x "$S$prefix/bin/seawx-sim"
check "the staged seawx runs (finds libseawx beside it)" sh -c \
  "'$S$prefix/bin/seawx' --help >/dev/null"
uses=$(ldd "$S$prefix/bin/seawx" | sed -n 's/.*libseawx[^ ]* => \([^ ]*\).*/\1/p')
check "the staged seawx uses the staged libseawx ($uses)" \
  test "$(readlink -f "$uses")" = "$(readlink -f "$S$libdir/libseawx.so")"
check "the staged seawx-sim runs" sh -c "'$S$prefix/bin/seawx-sim' --help >/dev/null"

check "libseawx.so, with its version links" sh -c \
  "test -L '$S$libdir/libseawx.so' && test -e '$S$libdir/libseawx.so.0' && readlink -f '$S$libdir/libseawx.so' | grep -q 'libseawx.so.[0-9]*\.[0-9]*\.[0-9]*$'"
missing=
for h in "$SEAWX_SOURCE_DIR"/lib/*/include/seawx/*.h; do
  [ -f "$S$prefix/include/seawx/$(basename "$h")" ] || missing="$missing $(basename "$h")"
done
check "every public header in include/seawx/${missing:+ (missing:$missing)}" test -z "$missing"
check "no private header installed" sh -c \
  "test \$(ls '$S$prefix/include/seawx' | wc -l) -eq \$(ls '$SEAWX_SOURCE_DIR'/lib/*/include/seawx/*.h | wc -l)"
# A program built against the staged headers and library only.
cat >"$T/use.c" <<'C'
#include <seawx/iso8601.h>
#include <stdio.h>
int main(void)
{
    int64_t t;
    char s[SWX_ISO8601_LEN];
    if (swx_iso8601_parse(&t, "2024-10-01T06:30:00+00:00") != 0)
        return 1;
    swx_iso8601_format(s, t);
    puts(s);
    return 0;
}
C
cc -std=c11 -Wall -Werror -I"$S$prefix/include" -o "$T/use" "$T/use.c" -L"$S$libdir" -lseawx \
  2>"$T/cc.err"
check "a program compiles and links against the staged headers and libseawx" test $? -eq 0
check "and runs with it" sh -c \
  "LD_LIBRARY_PATH='$S$libdir' '$T/use' | grep -q -x '2024-10-01T06:30:00Z'"

# The plugin: in GDAL's own plugin folder (the folder libgdal loads from when
# GDAL_DRIVER_PATH is not set), self-contained, and loadable from there.
gdal_lib=$(ldd "$(command -v gdalinfo)" | sed -n 's/.*libgdal\.so[^ ]* => \([^ ]*\).*/\1/p')
gdal_plugins=$(dirname "$(readlink -f "$gdal_lib")")/gdalplugins
check "gdal_SEAWX.so is in SEAWX_GDAL_PLUGIN_DIR ($plugindir)" test -f "$S$plugindir/gdal_SEAWX.so"
check "gdal_SEAWX.so needs no libseawx (the core is linked in)" sh -c \
  "! ldd '$S$plugindir/gdal_SEAWX.so' | grep -q libseawx"
check "gdal_SEAWX.so exports GDALRegister_SEAWX and no swx_ symbol" sh -c \
  "nm -D --defined-only '$S$plugindir/gdal_SEAWX.so' | grep -q ' GDALRegister_SEAWX\$' &&
   ! nm -D --defined-only '$S$plugindir/gdal_SEAWX.so' | grep -q ' swx_'"
check "GDAL loads the staged plugin from its folder" sh -c \
  "GDAL_DRIVER_PATH='$S$plugindir' gdalinfo --formats | grep -q 'SEAWX -raster,vector-'"
# A fresh configure's default is GDAL's own folder, whatever the prefix.
cmake -S "$SEAWX_SOURCE_DIR" -B "$T/cfg" -DSEAWX_BUILD_TESTS=OFF -DCMAKE_INSTALL_PREFIX=/opt/seawx \
  >"$T/cfg.txt" 2>&1
default=$(sed -n 's/^SEAWX_GDAL_PLUGIN_DIR:[A-Z]*=//p' "$T/cfg/CMakeCache.txt")
check "the default SEAWX_GDAL_PLUGIN_DIR is GDAL's plugin folder ($default = $gdal_plugins)" \
  test -n "$default" -a "$default" = "$gdal_plugins"

# Styles and samples: every file of the source folders (but the simulator's
# sources and build files), under share/seawx/.
same_files() { # SRC DST [find exclusions...]
  local src=$1 dst=$2
  shift 2
  [ -d "$dst" ] || { echo "  $dst missing"; return 1; }
  (cd "$src" && find . -type f ! -name .gitkeep "$@" | sort) >"$T/want.txt"
  (cd "$dst" && find . -type f | sort) >"$T/got.txt"
  diff "$T/want.txt" "$T/got.txt" >/dev/null || { diff "$T/want.txt" "$T/got.txt" | head; return 1; }
  while read -r f; do cmp -s "$src/$f" "$dst/$f" || { echo "  $f differs"; return 1; }; done <"$T/want.txt"
}
check "styles in share/seawx/styles" same_files "$SEAWX_SOURCE_DIR/styles" "$S$prefix/share/seawx/styles"
check "samples in share/seawx/samples (without the simulator's sources)" same_files \
  "$SEAWX_SOURCE_DIR/samples" "$S$prefix/share/seawx/samples" ! -path './sim/*' ! -name CMakeLists.txt
finish
