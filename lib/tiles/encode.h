/*
 * encode.h: map tiles encoded compactly for the seeder (lib/tiles/encode.c).
 *
 * An RGBA tile becomes a 256-colour palette PNG (libimagequant), a WebP
 * (lossless, or lossy with a quality) or a JPEG (tiles without transparency
 * only). Every encoder has fixed settings and no dithering, so identical
 * pixels give identical bytes (the MBTiles file stores each image once), and
 * a fully transparent pixel stays fully transparent (JPEG refuses any
 * transparent pixel instead). The formats themselves are rows of
 * seawx/tile_format.h.
 */
#ifndef SEAWX_ENCODE_H
#define SEAWX_ENCODE_H

#include "seawx/seed.h"

#include <stddef.h>
#include <stdint.h>

/* The default qualities when none is given. */
#define SWX_JPEG_DEFAULT_QUALITY 85

/* Encodes w x h RGBA pixels (stride bytes per row) as format f; quality is
 * 0 (WebP: lossless; JPEG: the default) or 1-100 (WebP lossy, JPEG), and is
 * ignored by png8. SWX_FORMAT_PNG gives an 8-bit RGBA PNG. *out is malloc'd
 * (caller frees). JPEG refuses a tile with a transparent pixel (SWX_EINVAL). */
int swx_tile_encode(void **out, size_t *out_len, const uint8_t *rgba, int w, int h, size_t stride,
                    swx_tile_format f, int quality);

/* The value of the MBTiles `format` metadata row: "png", "webp" or "jpg". */
const char *swx_tile_format_mbtiles(swx_tile_format f);

#endif
