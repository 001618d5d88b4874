/*
 * route.h: routes read from files users give, with optional per-waypoint
 * times (internal; the formats are described in seawx/tiles.h and
 * seawx/voyage.h). One reader for the route areas (area_read.c) and the
 * voyages (voyage.c).
 *
 * A route is one or more lines of positions in degrees, as given (longitudes
 * from -360 to 360, not wrapped). Times, when the file gives them, are one
 * per position, strictly increasing, and only on a route of one line.
 */
#ifndef SEAWX_ROUTE_H
#define SEAWX_ROUTE_H

#include <stddef.h>
#include <stdint.h>

typedef struct swx_route {
    double *lon, *lat; /* n positions */
    int64_t *t;        /* n times (seconds since 1970), or NULL */
    size_t n;
    size_t *start; /* first position of each line; a line ends where the next starts */
    size_t nlines;
    int csv; /* read from CSV (a file that does not start with '{') */
} swx_route;

/* Reads a GeoJSON or CSV route. SWX_EINVAL names the first problem in words
 * a user can act on ("route file line 4: ..."), SWX_ETOOBIG a file or a
 * route beyond the limits of area.h. */
int swx_route_read(swx_route **out, const char *text, size_t len);
void swx_route_free(swx_route *r);

#endif
