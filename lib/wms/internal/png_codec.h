/*
 * png_codec.h (not png.h, which is libpng's): PNG images as the service sends them, checked and
 * decoded with libpng; and RGBA images encoded back (tiles cut from a metatile).
 *
 * Decoding never trusts the file: dimensions are checked against the caller's
 * limits before anything is allocated, every row is read (a truncated or
 * corrupt image is an error, not a partly grey tile), and libpng's errors
 * become SWX_EPARSE with its message.
 */
#ifndef SEAWX_PNG_H
#define SEAWX_PNG_H

#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes any PNG (palette, grey, RGB, 16-bit, with or without alpha) into
 * 8-bit RGBA, rows top to bottom, width * 4 bytes each. Refuses images wider
 * than max_w or taller than max_h (0: 16384). *rgba is malloc'd (caller frees);
 * on failure it is NULL. */
int swx_png_decode_rgba(uint8_t **rgba, int *w, int *h, const void *data, size_t len, int max_w,
                        int max_h);

/* Decodes a PNG that must be exactly w x h pixels into the caller's RGBA
 * pixels, rows stride bytes apart (a place in a larger image): no copy. An
 * image of another size is SWX_ESERVICE ("image is W x H, not the w x h asked
 * for"), before any pixel is written; a damaged one may leave some rows
 * written. */
int swx_png_decode_rgba_into(uint8_t *dst, size_t stride, int w, int h, const void *data,
                             size_t len);

/* Decodes fully to check that the image is whole and valid, without keeping
 * the pixels; writes its size. Also tells (if not NULL) whether every pixel is
 * fully transparent. */
int swx_png_check(int *w, int *h, int *all_transparent, const void *data, size_t len);

/* Encodes w x h RGBA pixels (stride bytes per row) as an 8-bit RGBA PNG;
 * level is the zlib level 0-9. *out is malloc'd (caller frees). */
int swx_png_encode_rgba(void **out, size_t *out_len, const uint8_t *rgba, int w, int h,
                        size_t stride, int level);

#ifdef __cplusplus
}
#endif
#endif
