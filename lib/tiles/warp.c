/* warp.c: EPSG:4326 rows into Web Mercator rows (see seawx/warp.h). */
#include "warp.h"

#include "seawx/error.h"
#include "seawx/tiles.h"
#include "tile.h"

#include <math.h>
#include <string.h>

int swx_warp_4326_plan(double *south, double *north, int *src_h, int z, uint32_t y0, int rows,
                       int tile_size, int max_h)
{
    if (z < 0 || z > SWX_TILE_MAX_ZOOM || rows <= 0 || tile_size <= 0 || max_h <= 0)
        return swx_error_set(SWX_EINVAL, "invalid warp request");
    *north = swx_tile_row_lat(z, y0);
    *south = swx_tile_row_lat(z, (double)y0 + rows);
    int n = rows * tile_size;
    /* The thinnest Mercator pixel row is the one nearest a pole. */
    double top = *north - swx_tile_row_lat(z, y0 + 1.0 / tile_size);
    double bottom = swx_tile_row_lat(z, (double)y0 + rows - 1.0 / tile_size) - *south;
    double thin = top < bottom ? top : bottom;
    double h = ceil((*north - *south) / thin - 1e-9);
    if (h < n)
        h = n;
    if (h > max_h)
        h = max_h;
    *src_h = (int)h;
    return 0;
}

void swx_warp_4326_rows(uint8_t *dst, const uint8_t *src, int src_h, double south, double north,
                        size_t stride, int z, uint32_t y0, int rows, int tile_size)
{
    int n = rows * tile_size;
    double span = north - south;
    for (int r = 0; r < n; r++) {
        double lat = swx_tile_row_lat(z, (double)y0 + (r + 0.5) / tile_size);
        long s = (long)floor((north - lat) / span * src_h);
        if (s < 0)
            s = 0;
        if (s >= src_h)
            s = src_h - 1;
        memcpy(dst + stride * (size_t)r, src + stride * (size_t)s, stride);
    }
}
