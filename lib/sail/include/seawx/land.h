/*
 * seawx/land.h: land for the router: GSHHG's coastline (Debian's
 * gmt-gshhg-full, GMT's binned netCDF form) read for a voyage's area, with a
 * safety margin.
 *
 * Land is everything GSHHG puts inside a shoreline: lakes (level 2), the
 * islands in them and their ponds count as land too (a boat at sea cannot
 * reach a lake, and a start or end in one is refused at once); Antarctica's
 * coast is its ice front. Positions are degrees, latitude north and
 * longitude east; a leg is the straight line between its ends in longitude
 * and latitude, the shorter way round (a leg across 180 stays short).
 * Distances to land are measured in a local plane (east-west scaled by the
 * cosine of the leg's middle latitude; 1 nm = 1/60 degree of latitude):
 * against the sphere this errs by less than 0.5 % for legs under 20 nm
 * below 60 degrees of latitude.
 *
 * The queries read the opened land and change nothing: any number of
 * threads may ask one swx_land at once.
 */
#ifndef SEAWX_LAND_H
#define SEAWX_LAND_H

#include "seawx/visibility.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct swx_land swx_land;

typedef struct swx_land_opts {
    /* The GSHHG file, or a folder holding binned_GSHHS_<res>.nc; NULL:
     * /usr/share/gmt-gshhg (front ends pass $SEAWX_GSHHG here). */
    const char *path;
    char resolution; /* 'f' full (also for 0), 'h', 'i', 'l' or 'c' (crude) */
    /* The voyage's area, degrees; west > east crosses 180. Queries outside
     * it answer "not at sea". */
    double south, west, north, east;
    double margin_nm; /* safety margin around land, >= 0 */
} swx_land_opts;

/* Reads the coastline of the area. 0, or a negative SWX_E* code and one
 * line: SWX_ENOTFOUND for a missing file (naming gmt-gshhg-full),
 * SWX_EPARSE for a file that is not GSHHG's binned form, SWX_EINVAL for a
 * bad area, margin or resolution, SWX_ETOOBIG for an area too large. */
SWX_API int swx_land_open(swx_land **out, const swx_land_opts *o);
SWX_API void swx_land_free(swx_land *land);

/* 1 when the position is on land or within the margin of it, or outside
 * the area; 0 at sea. */
SWX_API int swx_land_at(const swx_land *land, double lat, double lon);

/* 1 when the leg stays at sea and farther than the margin from land all
 * along; 0 when it touches land or the margin, or leaves the area. */
SWX_API int swx_land_leg_clear(const swx_land *land, double lat0, double lon0, double lat1,
                               double lon1);

/* The land polygons read, for charts and checks: closed rings (first point
 * repeated last) of lon/lat pairs, cut at GSHHG's bins (1 degree at full
 * resolution), so that a large island is several rings sharing edges.
 * Longitudes are continuous over the area: east of 180 when it crosses 180.
 * level: 1 (land; lakes are inside it). */
SWX_API size_t swx_land_rings(const swx_land *land);
SWX_API const double *swx_land_ring(const swx_land *land, size_t i, size_t *npoints, int *level);

/* The size of the mask's cells in degrees (1 arc-minute, coarser for
 * large areas so that the mask keeps under 8 million cells). */
SWX_API double swx_land_cell_deg(const swx_land *land);

#ifdef __cplusplus
}
#endif
#endif
