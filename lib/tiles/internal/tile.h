/*
 * tile.h: the tile grid's math and the enumeration of an area's tiles in
 * metatile blocks, for the seeding engine (internal; the scheme is described
 * in seawx/tiles.h).
 */
#ifndef SEAWX_TILE_H
#define SEAWX_TILE_H

#include "seawx/tiles.h"

#include <stddef.h>
#include <stdint.h>

/* A tile's bounds in EPSG:3857 metres and in degrees. */
void swx_tile_bounds_merc(double *minx, double *miny, double *maxx, double *maxy, int z, uint32_t x,
                          uint32_t y);
void swx_tile_bounds_deg(double *west, double *south, double *east, double *north, int z,
                         uint32_t x, uint32_t y);
/* The latitude of the northern edge of tile row y (fractional rows allowed). */
double swx_tile_row_lat(int z, double y);
/* The fractional tile column and row of a point (lat clamped to the Mercator range). */
void swx_tile_of_deg(double *fx, double *fy, int z, double lon, double lat);
/* The MBTiles (TMS) row of XYZ row y: 2^z - 1 - y. */
uint32_t swx_tile_tms_row(int z, uint32_t y);

/* Enumerates the area's tiles at one zoom in blocks aligned on a metatile grid:
 * each block is n x n tiles from (x0, y0), n = min(metatile, 2^z), and bit
 * (j * n + i) of mask says whether tile (x0 + i, y0 + j) belongs to the area.
 * metatile is 1, 2, 4 or 8. Blocks without any tile of the area are skipped. */
typedef struct swx_tile_block {
    int z;
    uint32_t x0, y0;
    int n;
    uint64_t mask;
} swx_tile_block;

typedef struct swx_tile_iter swx_tile_iter;
int swx_tile_iter_new(swx_tile_iter **out, const swx_area *a, int z, int metatile);
/* 1 and the next block, or 0 when there are no more. */
int swx_tile_iter_next(swx_tile_block *b, swx_tile_iter *it);
void swx_tile_iter_free(swx_tile_iter *it);

#endif
