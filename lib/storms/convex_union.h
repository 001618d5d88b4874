/*
 * convex_union.h: the union of many convex polygons in a plane (internal to
 * the storms domain; see convex_union.c for why it is not GEOS's).
 */
#ifndef SWX_CONVEX_UNION_H
#define SWX_CONVEX_UNION_H

#include <stddef.h>

typedef struct swx_cu swx_cu;

int swx_cu_new(swx_cu **out);
void swx_cu_free(swx_cu *u);
/* Forgets the polygons added (keeps the memory). */
void swx_cu_reset(swx_cu *u);
/* Adds a convex polygon of n >= 3 vertices (pairs, counter-clockwise, not
 * closed). Returns 0 or SWX_ENOMEM. */
int swx_cu_add(swx_cu *u, const double *xy, size_t n);
/* The union of the polygons added: npolys polygons of poly_rings[i] rings
 * each (the outer ring counter-clockwise, then its holes clockwise), the
 * rings of ring_len[k] vertices (not closed) one after the other in xy.
 * Returns 0, SWX_ENOMEM, or 1 when the boundary could not be traced without
 * doubt (a point where two pieces of the union only touch, say): the caller
 * then merges the polygons another way. The arrays live until the next call. */
int swx_cu_union(swx_cu *u, size_t *npolys, const size_t **poly_rings, const size_t **ring_len,
                 const double **xy);

#endif
