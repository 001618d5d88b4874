/*
 * seawx/warp.h: EPSG:4326 images resampled into Web Mercator tiles.
 *
 * For layers that do not offer EPSG:3857: an image in EPSG:4326 covering the
 * same longitudes as a block of Mercator tiles has the same columns (both are
 * linear in longitude), so only rows move. Each Mercator pixel row takes the
 * source row under its centre's latitude (nearest neighbour, as GDAL's "near"
 * resampling would). The source height is chosen so that a source row is never
 * taller than the thinnest Mercator row of the block, so no Mercator row is
 * starved of its own source row.
 */
#ifndef SEAWX_WARP_H
#define SEAWX_WARP_H

#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* For rows tile rows from y0 at zoom z, tile_size pixels each: the latitudes
 * the source image must span and its height (at most max_h). */
int swx_warp_4326_plan(double *south, double *north, int *src_h, int z, uint32_t y0, int rows,
                       int tile_size, int max_h);

/* Fills dst (rows * tile_size rows of stride bytes) from src (src_h rows of the
 * same stride, spanning south..north as planned). */
void swx_warp_4326_rows(uint8_t *dst, const uint8_t *src, int src_h, double south, double north,
                        size_t stride, int z, uint32_t y0, int rows, int tile_size);

#ifdef __cplusplus
}
#endif
#endif
