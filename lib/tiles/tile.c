/*
 * tile.c: the Web Mercator tile grid (tile bounds in degrees and metres, the
 * tile of a position, TMS rows) and zoom level lists.
 */
#include "tile.h"
#include "tile.h"

#include "seawx/error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEG (M_PI / 180.0)

static double pow2(int z)
{
    return ldexp(1.0, z);
}

double swx_tile_row_lat(int z, double y)
{
    double n = M_PI * (1.0 - 2.0 * y / pow2(z));
    return atan(sinh(n)) / DEG;
}

void swx_tile_bounds_deg(double *west, double *south, double *east, double *north, int z,
                         uint32_t x, uint32_t y)
{
    double n = pow2(z);
    *west = (double)x / n * 360.0 - 180.0;
    *east = (double)(x + 1) / n * 360.0 - 180.0;
    *north = swx_tile_row_lat(z, y);
    *south = swx_tile_row_lat(z, (double)y + 1);
}

void swx_tile_bounds_merc(double *minx, double *miny, double *maxx, double *maxy, int z, uint32_t x,
                          uint32_t y)
{
    double size = 2.0 * SWX_MERC_HALF / pow2(z);
    *minx = -SWX_MERC_HALF + (double)x * size;
    *maxx = -SWX_MERC_HALF + (double)(x + 1) * size;
    *maxy = SWX_MERC_HALF - (double)y * size;
    *miny = SWX_MERC_HALF - (double)(y + 1) * size;
}

void swx_tile_of_deg(double *fx, double *fy, int z, double lon, double lat)
{
    if (lat > SWX_MERC_MAX_LAT)
        lat = SWX_MERC_MAX_LAT;
    if (lat < -SWX_MERC_MAX_LAT)
        lat = -SWX_MERC_MAX_LAT;
    double n = pow2(z);
    *fx = (lon + 180.0) / 360.0 * n;
    *fy = (1.0 - asinh(tan(lat * DEG)) / M_PI) / 2.0 * n;
}

uint32_t swx_tile_tms_row(int z, uint32_t y)
{
    return (uint32_t)((1ull << z) - 1 - y);
}

/* ---- zoom lists ---- */

int swx_zoom_list_parse(uint32_t *zooms, const char *text)
{
    const char *p = text;
    *zooms = 0;
    if (!*p)
        goto bad;
    while (*p) {
        char *end;
        if (!isdigit((unsigned char)*p))
            goto bad;
        long a = strtol(p, &end, 10), b = a;
        if (*end == '-') {
            p = end + 1;
            if (!isdigit((unsigned char)*p))
                goto bad;
            b = strtol(p, &end, 10);
        }
        if (a < 0 || b > SWX_TILE_MAX_ZOOM || a > b)
            goto bad;
        for (long z = a; z <= b; z++)
            *zooms |= 1u << z;
        p = end;
        if (*p == ',')
            p++;
        else if (*p)
            goto bad;
    }
    return 0;
bad:
    *zooms = 0;
    return swx_error_set(SWX_EINVAL,
                         "zoom '%.40s' is not a level, a range or a list (5, 3-9, 3,5,7) within "
                         "0-%d",
                         text, SWX_TILE_MAX_ZOOM);
}
