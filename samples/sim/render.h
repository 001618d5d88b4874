/* render.h: turns a layer, a window and a size into RGBA pixels.
 *
 * Rendering goes by bands of rows so that memory stays bounded whatever the
 * image size: begin once, ask for rows top to bottom, end. Pixel (i, j), row 0 at
 * the top, is the colour of the field at the pixel centre
 *   x = minx + (i + 0.5) * (maxx - minx) / width
 *   y = miny + (height - 1 - j + 0.5) * (maxy - miny) / height
 * converted to longitude and latitude and snapped to 1e-9 degree, so the same
 * geographic pixel centre has the same colour in any request. */
#ifndef SIM_RENDER_H
#define SIM_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "catalog.h"
#include "field.h"

struct sim_render_spec {
    const struct sim_variable *var;
    enum sim_renderer renderer;
    enum sim_crs crs;
    /* Window with x east, y north: degrees for EPSG:4326 and CRS:84 (whatever the
     * axis order of the request), metres for EPSG:3857. */
    double minx, miny, maxx, maxy;
    unsigned width, height;
    struct sim_when when;
    int transparent; /* 0: no-data pixels become opaque bg */
    uint8_t bg[3];
};

struct sim_render;

int sim_render_begin(const struct sim_render_spec *spec, struct sim_render **out);
/* Writes rows row0 .. row0 + nrows - 1 as RGBA (width * 4 bytes per row) into rgba. */
int sim_render_rows(struct sim_render *r, unsigned row0, unsigned nrows, uint8_t *rgba);
void sim_render_end(struct sim_render *r);

/* Pixels of a legend: the ramp of var from left (lo) to right (hi). */
void sim_render_legend_row(const struct sim_variable *var, unsigned width, uint8_t *rgba);

/* Inverse spherical Mercator (EPSG:3857 metres to degrees). */
double sim_mercator_lon(double x);
double sim_mercator_lat(double y);
#define SIM_MERCATOR_MAX 20037508.342789244

#endif
