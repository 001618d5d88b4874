/* landmask.h: a crude but recognisable land-sea mask.
 *
 * A small embedded table of coarse coastline polygons (tens of vertices per
 * continent, big islands, and the Caspian / Black Sea / Hudson Bay as holes) is
 * scan-converted once at start-up into a bit raster of 1/16 degree cells
 * (5760 x 2880 bits, 2 MiB). Lookups are then two index computations and a bit
 * test, cheap enough for every pixel of every image. */
#ifndef SIM_LANDMASK_H
#define SIM_LANDMASK_H

#include <stddef.h>
#include <stdint.h>

#define SIM_LAND_CELLS_PER_DEG 16
#define SIM_LAND_W (360 * SIM_LAND_CELLS_PER_DEG)
#define SIM_LAND_H (180 * SIM_LAND_CELLS_PER_DEG)

/* Builds the raster; returns 0 or -1 (out of memory). Call once, before threads. */
int sim_landmask_init(void);
void sim_landmask_free(void);

/* Column of a longitude (wrapped into -180..180) and row of a latitude (clamped). */
uint32_t sim_landmask_col(double lon);
uint32_t sim_landmask_row(double lat);
int sim_landmask_at(uint32_t row, uint32_t col);
/* The bits of a raster row: cell col is bit (col & 7) of byte (col >> 3). */
const uint8_t *sim_landmask_row_bits(uint32_t row);
int sim_landmask_is_land(double lon, double lat);

#endif
