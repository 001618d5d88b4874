/*
 * danger_geometry_int.h: what the files of the danger geometry share
 * (internal to storms): the work space, its local frames, shapes and hulls
 * (danger_geometry.c), the output rings (danger_rings.c), the merge in one
 * plane (plane_merge.c) and the chains (danger_chain.c). See
 * danger_geometry.c for how a product is built; the rest of the storms
 * folder sees only storm_danger_int.h.
 */
#ifndef SWX_DANGER_GEOMETRY_INT_H
#define SWX_DANGER_GEOMETRY_INT_H

#define GEOS_USE_ONLY_R_API
#include "convex_union.h"
#include "storm_danger_int.h"

#include <geos_c.h>
#include <math.h>
#include <stddef.h>

#define DEG (M_PI / 180.0)

#define CIRCLE_STEPS 36 /* 10 degrees */
#define QUAD_STEPS 9    /* 10 degrees */
#define TANGENT_STEP (1.0 * DEG)

/* A local frame: the unit vector of a centre and its east and north. */
struct frame {
    double u[3], e[3], n[3];
};

/* The work space: scratch arrays kept from one product to the next, and the
 * output of the last product built. */
struct swx_danger_ws {
    GEOSContextHandle_t geos;
    double *pts; /* shape points in the plane, pairs */
    size_t npts, cpts;
    double *hull; /* pairs */
    size_t chull;
    double *ring; /* lon/lat pairs of one hull on the sphere */
    size_t cring;
    GEOSGeometry **polys;
    size_t npolys, cpolys;
    /* the output */
    double *xy;
    size_t n, cap;
    size_t *parts;
    size_t nparts, pcap;
    size_t *rings; /* rings per polygon */
    size_t nrings, rcap;
    char geos_msg[160];
    /* runs: the merged hull and the hulls of its links */
    double *rh;
    size_t crh;
    double *ph;
    size_t cph;
    size_t ph_off[64];
    /* the merge in one plane (plane_merge.c) */
    swx_cu *cu;
    double *mxy; /* rings on the sphere, closed, lon unwrapped */
    size_t nmxy, cmxy;
    size_t *mlen;
    size_t cmlen;
    struct frame *fr; /* the chain's frames */
    size_t cfr;
    double *sp; /* the chain's shapes, sorted, one after the other */
    size_t csp;
    size_t *soff;
    size_t csoff;
    int geos_only;    /* merge every chain with GEOS (tests) */
    size_t fallbacks; /* chains merged with GEOS after the plane merge gave up */
};

/* A link longer than LINK_MAX_DEG (a storm never moves so far between two
 * fixes) is left out, and a run reaches at most RUN_MAX_DEG from its first
 * fix: shapes then stay well inside the gnomonic plane's hemisphere. */
#define LINK_MAX_DEG 40.0
#define RUN_MAX_DEG 20.0

/* danger_geometry.c */
/* Grows an array of elem-sized items to hold n. */
int swx_danger_grow(void **p, size_t *cap, size_t n, size_t elem);
void swx_danger_frame_at(struct frame *f, double lon, double lat);
/* The points of one shape: a circle (q < 0) or the sector of quadrant q,
 * with the centre; radius 0 gives the centre only. */
int swx_danger_put_shape(swx_danger_ws *w, const struct frame *cf, const struct frame *pf, int q,
                         double r_nm);
/* Sorts n points (pairs) by x, then y, with tmp room for n more. */
void swx_danger_sort_xy(double *p, double *tmp, size_t n);
/* The counter-clockwise hull of w->pts into w->hull (sorted: the points are
 * in order already), and with the points sorted first. */
int swx_danger_monotone_hull(swx_danger_ws *w, size_t *nh, int sorted);
int swx_danger_convex_hull(swx_danger_ws *w, size_t *nh);
/* The n points of one shape into out in order by x, then y; 0 when they
 * turn out not to be in order. */
int swx_danger_shape_sorted(double *out, const double *p, size_t n);
/* Merges the sorted points a (na) and b (nb) into w->pts. */
int swx_danger_merge_sorted(swx_danger_ws *w, const double *a, size_t na, const double *b,
                            size_t nb);
/* Extra vertices of a hull edge of plane length len (at most 1000). */
size_t swx_danger_edge_steps(double len);
/* The hull as a polygon in longitudes unwrapped near ref, gathered for the
 * GEOS union. */
int swx_danger_hull_polygon(swx_danger_ws *w, const struct frame *pf, size_t nh, double ref);
/* One link of a chain: the hull of the shapes at two centres, or the shape
 * alone when b is NULL. */
int swx_danger_link(swx_danger_ws *w, const double *a, double ra, const double *b, double rb,
                    int q);
/* Drops the polygons gathered for the GEOS union. */
void swx_danger_drop_polys(swx_danger_ws *w);

/* danger_rings.c */
void swx_danger_out_reset(swx_danger_ws *w);
/* Adds a ring of n pairs (closed), shifted by -shift in longitude. */
int swx_danger_out_ring(swx_danger_ws *w, const double *r, size_t n, double shift, int hole,
                        int *kept);
/* The bands of longitude that minx..maxx (unwrapped) touches. */
void swx_danger_bands(int *j0, int *j1, double minx, double maxx);
/* The merged polygons u into the output, cut at the antimeridian. */
int swx_danger_cut_output(swx_danger_ws *w, const GEOSGeometry *u);
/* Unions the links gathered and cuts the union at the antimeridian. */
int swx_danger_finish_union(swx_danger_ws *w);

/* plane_merge.c */
/* A chain merged in one plane; *done 0 when the chain is not for this
 * method (GEOS merges it then). */
int swx_danger_fast_chain(swx_danger_ws *w, const double *c, const double *r, size_t n, int nq,
                          int *done);

#endif
