/* legend.h: GetLegendGraphic's image (legend.c). */
#ifndef SIM_LEGEND_H
#define SIM_LEGEND_H

#include "catalog.h"

#include <stddef.h>

/* The size when none is asked, and the LegendURL's in the capabilities. */
#define SIM_LEGEND_WIDTH 256
#define SIM_LEGEND_HEIGHT 40

/* The legend of var, W x H pixels, as a PNG (*data malloc'd, *len bytes):
 * the style's colour ramp, and from 64 x 32 on, ticks, values and the unit
 * under it. 0, or -1 when out of memory. */
int sim_legend_png(const struct sim_variable *var, unsigned W, unsigned H, char **data,
                   size_t *len);

#endif
