/*
 * seawx/grib.h: a voyage GRIB: the service's forecast GRIB2 files cut to
 * where a ship can be, as small as a satellite link wants.
 *
 * The forecast files (seawx/files.h, one per run, bundle, region and
 * forecast hour) are global or regional grids, megabytes each. A voyage GRIB
 * takes from them only what the voyage needs:
 *   - the run (the newest listed, or the one asked for) and its forecast
 *     hours every step_h hours whose valid times the ship can be at sea (a
 *     voyage: from the last time at or before departure to the first at or
 *     after the latest arrival), or the hours asked for (a box);
 *   - the smallest listed region whose grid holds the area;
 *   - in each file, only the messages of the asked variables: the file is
 *     walked message by message with small Range requests (section 0 gives
 *     each message's length, sections 1-5 what it holds), then those
 *     messages are fetched whole, in parallel; a storage host that answers
 *     200 to a Range request gives the whole file, and it is read from that;
 *   - message heads and messages are kept in a disk cache by file and byte
 *     range (file names carry the run, so an entry never goes stale): a
 *     second build on the same run fetches nothing.
 * Then each field is cut, with ecCodes, to a regular latitude/longitude
 * grid of grid_deg degrees (a multiple of the source spacing, nodes on
 * source nodes: values are the source's, never interpolated):
 *   SWX_GRIB_CUT_WINDOW  per valid time, a grid holding just that time's
 *                        area (the buffered stretch of route where the ship
 *                        can be then: seawx/voyage.h), points outside it
 *                        missing (a GRIB2 bitmap);
 *   SWX_GRIB_CUT_ROUTE   one grid holding every time's area, each time's
 *                        points outside its own area missing;
 *   SWX_GRIB_CUT_BOX     a fixed box, every point kept (as Saildocs sends).
 * A grid point belongs to an area when the area comes within one grid step
 * of it (the square of side 2 * grid_deg centred on it meets the area): a
 * viewer interpolating anywhere in the area finds all four corners.
 * Each field is one message (OpenCPN's GRIB plugin reads one field a
 * message), GRIB2 (or GRIB1: edition), packed simply or, from 4,096 points,
 * with complex packing (template 5.2) when smaller, to the precision of its
 * variable (docs/grib.md gives the table).
 *
 * The API key goes to the service only, never to the storage host (the
 * HTTP engine's rule).
 */
#ifndef SEAWX_GRIB_H
#define SEAWX_GRIB_H

#include "seawx/diskcache.h"
#include "seawx/http.h"
#include "seawx/visibility.h"
#include "seawx/voyage.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum swx_grib_cut {
    SWX_GRIB_CUT_WINDOW = 0,
    SWX_GRIB_CUT_ROUTE,
    SWX_GRIB_CUT_BOX,
} swx_grib_cut;

/* "window", "route", "box"; SWX_EINVAL with one line otherwise. */
SWX_API int swx_grib_cut_parse(swx_grib_cut *out, const char *text);

/* The viewers a voyage GRIB is opened in (grib_viewers.c says what each
 * does with which form): OpenCPN's GRIB plugin and XyGrib read each
 * message's own grid and open a .bz2; QGIS (MDAL) and GDAL take the first
 * message's grid for every time and open the plain file only. */
#define SWX_GRIB_VIEWER_OPENCPN 0x1u
#define SWX_GRIB_VIEWER_XYGRIB 0x2u
#define SWX_GRIB_VIEWER_QGIS 0x4u
#define SWX_GRIB_VIEWER_GDAL 0x8u
#define SWX_GRIB_VIEWER_ALL 0xfu

/* "opencpn", "xygrib", "qgis", "gdal" or "any" (all four) into *out;
 * SWX_EINVAL with one line otherwise. */
SWX_API int swx_grib_viewer_parse(unsigned *out, const char *text);

/* The form for the viewers that will open the file: viewers (0: any) that
 * open its container (bzip2 or not; with no viewer named, a .bz2 is for
 * those that open it). With cut_given 0, *cut holds the smallest cut for
 * the area (window for a voyage, box for a box) and becomes the smallest
 * that every one of them draws right at every time (a window cut becomes
 * the route cut where QGIS or GDAL may open the file). With cut_given 1,
 * *cut is checked: SWX_EINVAL naming the viewer and why, when a named
 * viewer cannot open the container or one of them would draw a time in the
 * wrong place. */
SWX_API int swx_grib_form_pick(swx_grib_cut *cut, int cut_given, int bzip2, unsigned viewers);

/* The variables, by the names sailors use (docs/grib.md): wind (10 m
 * components), gust, prmsl, temp (2 m), rain (3 h total), waves (height,
 * direction, period), wind100 (100 m components). Checks a comma list
 * ("wind,prmsl"): SWX_EINVAL naming an unknown or repeated name. */
SWX_API int swx_grib_vars_check(const char *vars);
/* The default variables. */
#define SWX_GRIB_DEFAULT_VARS "wind,prmsl"
#define SWX_GRIB_DEFAULT_GRID 0.5
#define SWX_GRIB_DEFAULT_STEP 6

typedef struct swx_grib_spec {
    const char *vars;         /* NULL: SWX_GRIB_DEFAULT_VARS */
    double grid_deg;          /* 0: SWX_GRIB_DEFAULT_GRID */
    int step_h;               /* hours between valid times; 0: SWX_GRIB_DEFAULT_STEP */
    swx_grib_cut cut;         /* window (default), route or box */
    const swx_voyage *voyage; /* the window and route cuts: a voyage with its sailing */
    double buffer_m;          /* around the route */
    /* the box cut: degrees, west > east across 180 */
    double west, south, east, north;
    /* the box cut: forecast hours, "0-120" or "0,24,48,72" (NULL: every
     * step_h hours of the run); a voyage takes the hours it is at sea */
    const char *hours;
    /* a voyage: valid times at most this many hours after departure (the
     * last frame's window still ends where the list of the run's times puts
     * it); 0: while the ship can be at sea */
    int max_hours;
    /* a voyage: valid times whose window ended before now are left out (a
     * package refreshed under way); 0: none */
    int64_t now;
    int64_t run;        /* the run's reference time; 0: the newest listed */
    const char *region; /* NULL: the smallest listed region that holds the area */
    /* 1: the file is compressed with bzip2 (a .grb2.bz2, which OpenCPN's GRIB
     * plugin and XyGrib open as it is): a third of the size, since the
     * messages' heads repeat; ecCodes and GDAL need it decompressed */
    int bzip2;
    /* 2 (0: the default) or 1: GRIB1 as Saildocs sends it, each message about
     * 90 bytes of heads instead of 180 (WMO table 2 codes; no gust) */
    int edition;
    /* more variables, written only when every file of the run holds them
     * (the router's currents: the service's files may carry none); one that
     * a file lacks is left out whole and named in the result's left_out */
    const char *if_held;
} swx_grib_spec;

/* Progress: stage "index" (files walked), "cut" (fields cut from the
 * messages the cache holds) or "fetch" (messages fetched, each cut as it
 * comes: no message is held longer), with done and total; non-zero stops
 * the work with SWX_ECANCEL. */
typedef int (*swx_grib_progress_fn)(void *ud, const char *stage, size_t done, size_t total);

typedef struct swx_grib_opts {
    swx_diskcache *cache; /* may be NULL: nothing kept */
    int in_flight;        /* requests at once; 0: 8 */
    swx_grib_progress_fn progress;
    void *ud;
    volatile sig_atomic_t *cancel;
} swx_grib_opts;

typedef struct swx_grib_result {
    int64_t run;                     /* the run's reference time */
    char region[64];                 /* the region of the files read */
    size_t files;                    /* forecast files read from */
    size_t times;                    /* valid times in the file */
    int64_t first, last;             /* the first and last valid time */
    int ends_early;                  /* the voyage goes on after the run's last hour */
    size_t messages;                 /* fields written (or to be written) */
    int64_t bytes;                   /* the file's size; a quote: an estimate, the most */
    int64_t bytes_low;               /* a quote: the least it may be (complex packing) */
    int64_t fetched;                 /* bytes fetched from storage */
    int64_t to_fetch;                /* a quote: bytes a build would fetch */
    int64_t from_cache;              /* bytes of messages taken from the cache */
    int64_t files_bytes;             /* the whole size of the forecast files read from */
    long requests;                   /* requests sent to storage (and the service) */
    int range_ignored;               /* the storage host answered a Range with the whole file */
    int ranges_one_by_one;           /* it did not answer several ranges in one request: they
                                        were asked for one at a time */
    char left_out[64];               /* the spec's if_held variables left out, comma-separated */
    double west, south, east, north; /* the extent of the grids written */
} swx_grib_result;

/* Builds the file at path (an atomic file: swx_atomicfile_target's rules;
 * nothing is written on a failure). res may be NULL. */
SWX_API int swx_grib_build(swx_grib_result *res, swx_client *c, const swx_grib_spec *spec,
                           const char *path, const swx_grib_opts *opts);
/* The same without writing: walks the files (small requests, kept in the
 * cache) and tells the bytes a build would fetch and about how big its
 * file would be. */
SWX_API int swx_grib_quote(swx_grib_result *res, swx_client *c, const swx_grib_spec *spec,
                           const swx_grib_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
