/*
 * land_bins.h: GSHHG's binned coastline, one bin at a time, turned into land
 * polygons (private to lib/sail: land_read.c fills a bin from the netCDF
 * file, land.c holds the rings; the fuzz target feeds bins from bytes).
 *
 * The binned form (GMT's binned_GSHHS_<res>.nc) cuts the world into square
 * bins of bin_size minutes, numbered row by row from 90N southwards and
 * column by column eastwards from 0E. A bin holds shoreline segments whose
 * points are offsets from its south-west corner in 1/65535 of the bin's
 * side (stored as signed shorts, read as unsigned). A segment either is a
 * closed ring inside the bin, or enters the bin at one side and leaves at
 * another (its first and last points on those sides). Sides go
 * counter-clockwise from the south-west corner: 0 south, 1 east, 2 north,
 * 3 west; 4 means "closed". Each segment's info word packs
 *   npoints << 9 | level << 6 | entry side << 3 | exit side
 * and the bin's node word packs the levels of its corners, 3 bits each:
 *   SW << 9 | SE << 6 | NE << 3 | NW.
 * Levels: 0 sea, 1 land, 2 lake, 3 island in a lake, 4 pond; 6 marks
 * Antarctica's grounding line, which the ice front (level 1) encloses.
 *
 * Lakes and what lies in them count as land here: a boat at sea cannot
 * reach them, and a start or end in one is then refused at once. So only
 * level 1 segments are kept and corner levels are clamped to 1.
 */
#ifndef SEAWX_LAND_BINS_H
#define SEAWX_LAND_BINS_H

#include <stddef.h>
#include <stdint.h>

#define SWX__GSHHG_MAX_DELTA 65535
/* More points than this in one opened area is refused (about 140 MB). */
#define SWX__LAND_MAX_POINTS (8u * 1000u * 1000u)

/* One bin as read from the file: its segments' arrays, points relative to
 * the first one given (seg_start[i] indexes dx/dy). */
typedef struct swx__gshhg_bin {
    int bin_size;       /* minutes, divides 10800 */
    int index;          /* row * (21600 / bin_size) + column */
    unsigned node_info; /* corner levels, see above */
    int nseg;
    const int32_t *seg_info;
    const int32_t *seg_start;
    size_t npts;
    const int16_t *dx, *dy;
} swx__gshhg_bin;

/* Closed rings of land (first point repeated last), lon/lat pairs. coast[k]
 * is 1 when the edge from point k to point k+1 is shoreline, 0 when it runs
 * along a bin's edge (land on both sides once the next bin is there too). */
typedef struct swx__land_rings {
    double *xy;
    unsigned char *coast;
    size_t npts, cap;
    size_t *start; /* ring i is points start[i] .. start[i+1]-1 */
    size_t nrings, rcap;
} swx__land_rings;

/* Appends the land polygons of one bin, longitudes shifted by shift_deg (a
 * multiple of 360), to r. 0, or SWX_EPARSE for a bin that is not GSHHG's
 * (one line), SWX_ETOOBIG past SWX__LAND_MAX_POINTS, SWX_ENOMEM. */
int swx__land_bin_rings(swx__land_rings *r, const swx__gshhg_bin *bin, int shift_deg);

void swx__land_rings_free(swx__land_rings *r);

/* Reads the bins of a GSHHG binned file (land_read.c) that overlap the box
 * south..north, west..east (degrees, west < east, longitudes of any turn:
 * a bin is taken at every multiple of 360 that puts it in the box) into r;
 * *bin_size gets the file's bin size in minutes. Errors: SWX_ENOTFOUND for
 * a missing file (naming the package), SWX_EPARSE for another file. */
int swx__land_read(swx__land_rings *r, int *bin_size, const char *path, double south, double north,
                   double west, double east);

#endif
