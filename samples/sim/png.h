/* png.h: streaming RGBA 8-bit PNG encoder into memory (libpng).
 *
 * Rows are fed in bands as they are rendered; the compressed image grows in a
 * bounded buffer. Fast settings (zlib level 1-3, one cheap filter): the
 * simulator must never be the bottleneck of a benchmark. */
#ifndef SIM_PNG_H
#define SIM_PNG_H

#include <stddef.h>
#include <stdint.h>

struct sim_png;

/* limit: largest encoded size accepted. */
int sim_png_begin(struct sim_png **out, unsigned width, unsigned height, size_t limit);
int sim_png_rows(struct sim_png *p, const uint8_t *rgba, unsigned nrows);
/* Finishes the image and hands the bytes over (free() them). */
int sim_png_end(struct sim_png *p, char **data, size_t *len);
/* Accepts NULL; releases an unfinished encoder. */
void sim_png_free(struct sim_png *p);

#endif
