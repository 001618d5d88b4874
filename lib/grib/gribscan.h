/*
 * gribscan.h: the GRIB2 section walker: what a message is and how long,
 * read from its first bytes, so that a file on storage can be walked with
 * small Range requests and only the messages a voyage needs fetched whole.
 *
 * It reads section 0 (edition, discipline, total length) and the headers of
 * sections 1 to 5: the reference time, the grid (template 3.0, a regular
 * latitude/longitude grid), the product (templates 4.0 and 4.8: parameter,
 * level, forecast time) and the packing's template. Decoding and encoding
 * data is ecCodes' work (gribcut.c); nothing here touches values.
 *
 * Internal to the core (lib/grib); the fuzz target tests/fuzz/fuzz_gribscan.c
 * feeds it arbitrary bytes.
 */
#ifndef SEAWX_GRIBSCAN_H
#define SEAWX_GRIBSCAN_H

#include <stddef.h>
#include <stdint.h>

/* The longest message read (a global 0.1 degree field packed at 32 bits is
 * about 26 MB). */
#define SWX_GRIB_MAX_MESSAGE (256u << 20)
/* Bytes asked for first at a message's start: enough for sections 0 to 5 of
 * every message the service sends. */
#define SWX_GRIB_HEAD_BYTES 1024u

typedef struct swx_grib_head {
    uint64_t length;  /* the whole message, "GRIB" to "7777" */
    int discipline;   /* section 0 */
    int category;     /* section 4: parameterCategory */
    int number;       /* section 4: parameterNumber */
    int pdt;          /* product definition template (0, 8, ...) */
    int surface;      /* typeOfFirstFixedSurface (255: missing) */
    double level;     /* value of the first fixed surface (0 when missing) */
    int64_t reftime;  /* section 1 reference time, seconds since 1970 */
    int64_t forecast; /* forecast time in seconds (end of the period for 4.8) */
    int grid_template;
    /* template 3.0: points and corners in degrees (longitudes 0..360) */
    uint32_t ni, nj;
    double lat1, lon1, lat2, lon2, di, dj;
    int scan;           /* scanning mode flags */
    int drt;            /* data representation template (0, 3, 40, 42, ...) */
    int bits;           /* bits per value (templates 5.0, 5.2, 5.3; 0 otherwise) */
    int escale, dscale; /* and their binary and decimal scale factors: the field's
                           values span (2^bits - 1) * 2^escale / 10^dscale */
    uint32_t npacked;   /* section 5: the number of values packed */
    /* Where the values start (section 7's data), when the bytes read reach
     * it and section 6 says no bitmap (indicator 255); 0 otherwise: only
     * then are a simply packed field's values at known bytes. */
    uint64_t data_at;
} swx_grib_head;

/* Reads the head of a GRIB2 message from its first n bytes (p). Returns 0
 * with *h filled; 1 when more bytes are needed to see through section 5
 * (*need says how many in all, at most the message's length); or
 * SWX_EPARSE with one line: not GRIB, GRIB edition 1, a length shorter
 * than its sections, a section that overruns, a reference time that is
 * not a date. what names the file in that line. */
int swx_grib_head_read(swx_grib_head *h, uint64_t *need, const uint8_t *p, size_t n,
                       const char *what);

/* Whether the n bytes at p are one whole message: "GRIB" at the start,
 * the length of section 0 equal to n, "7777" at the end. */
int swx_grib_message_whole(const uint8_t *p, size_t n);

#endif
