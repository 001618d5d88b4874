/*
 * grib_priv.h: what the voyage GRIB's modules share: the variables table
 * (grib_vars.c), the grids a build writes (grib_plan.c; the build's own job,
 * files and messages are grib_int.h's), and cutting and packing with ecCodes
 * (grib_cut.c).
 */
#ifndef SEAWX_GRIB_PRIV_H
#define SEAWX_GRIB_PRIV_H

#include "grib_vars.h"
#include "gribscan.h"
#include "seawx/grib.h"
#include "seawx/tiles.h"

#include <stddef.h>
#include <stdint.h>

/* Whether a message's head is this parameter, in any centre's encoding. */
int swx__grib_is(const gparam *p, const swx_grib_head *h);
/* The parameter of a quantity (enum swx_gq), or NULL. */
const gparam *swx__grib_param_of(int q);
/* Whether two heads are of the same field (parameter, level, times, grid),
 * whatever their packing. */
int swx__grib_is_same(const swx_grib_head *a, const swx_grib_head *b);

/* A grid written: nodes lon0 + i * step, lat0 - j * step (north to south). */
typedef struct ggrid {
    double lon0, lat0, step; /* lon0 in -180..540 (continuous across 180) */
    uint32_t ni, nj;
} ggrid;

/* Cuts the message (whole, len bytes) to grid g, points whose square of side
 * 2 * step does not meet area (NULL: every point kept) missing, packed to
 * p's precision, as GRIB2 (edition 2) or GRIB1 (edition 1); with simple
 * non-NULL, *simple (malloc'd, *simple_len bytes) also receives the whole
 * source field packed simply at its own precision, which decodes several
 * times faster than complex packing (what the cache keeps for the next cut); appends the new
 * message to *out (realloc'd, *out_len). what names the file in error lines. */
int swx__grib_cut(uint8_t **out, size_t *out_len, size_t *out_cap, const uint8_t *msg, size_t len,
                  const ggrid *g, const swx_area *area, const gparam *p, int edition,
                  uint8_t **simple, size_t *simple_len, const char *what);

/* Sends ecCodes' messages to the next error line instead of stderr (once
 * per process; clears this thread's last message). */
void swx__grib_init(void);

/* The source values a cut to g (points whose square does not meet area
 * left out) takes, as *runs (malloc'd): pairs of indices in the source's
 * order of values, first and one past the last, ascending. Returns the
 * number of runs, or -1 for a grid whose points this does not place (the
 * field is then fetched whole). */
long swx__grib_needed(uint64_t **runs, const swx_grib_head *h, const ggrid *g,
                      const swx_area *area);

/* An estimate of a cut message's size, written to values of 10^-dscale
 * in GRIB edition (1 or 2),
 * from its source head (the span of its values, its packing) and the points
 * it keeps: the most, and in *low the least it may be. */
int64_t swx__grib_estimate(const swx_grib_head *h, const ggrid *g, uint64_t kept, int bitmap,
                           int dscale, int edition, int64_t *low);

/* The points of g the area keeps (all when area is NULL). */
uint64_t swx__grib_kept(const ggrid *g, const swx_area *area);

#endif
