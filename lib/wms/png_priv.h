/*
 * png_priv.h: lib/wms/png.c's check through libpng alone, for the tests and the
 * fuzz target that hold swx_png_check()'s direct path to libpng's verdict.
 */
#ifndef SWX_PNG_PRIV_H
#define SWX_PNG_PRIV_H

#include <stddef.h>

/* swx_png_check() without the direct path: every image decoded by libpng. */
int swx_png_check_libpng(int *w, int *h, int *all_transparent, const void *data, size_t len);

#endif
