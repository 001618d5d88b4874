/*
 * seawx/sphere.h: the Earth as a sphere, for every geodesic distance the
 * library computes (routes, voyages, storm radii and their danger areas),
 * and the nautical mile they are given in. One definition, so that a route's
 * length and a storm's radius agree to the metre.
 */
#ifndef SEAWX_SPHERE_H
#define SEAWX_SPHERE_H

#define SWX_EARTH_RADIUS_M 6371008.8 /* mean radius (IUGG) for geodesic distances */
#define SWX_NM_M 1852.0              /* one nautical mile in metres */
/* The sphere of Web Mercator (EPSG:3857), for map coordinates only. */
#define SWX_MERC_RADIUS_M 6378137.0

#endif
