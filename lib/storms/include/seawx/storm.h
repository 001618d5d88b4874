/*
 * seawx/storm.h: tropical cyclones from /storm/json (and, through kmz.h, from
 * /storm/kmz): the storm model, ATCF ids, category order, queries and paging.
 *
 * The model keeps every field of the interface's storm summary and track
 * position. Nulls stay nulls: a string that was null or missing is NULL, a
 * number is NaN, an integer or a time is SWX_STORM_NULL. A storm is parsed
 * from one JSON object at a time, so that an archive of any length is read in
 * memory bounded by its largest storm (SWX_STORM_MAX_BYTES).
 */
#ifndef SEAWX_STORM_H
#define SEAWX_STORM_H

#include "seawx/http.h"
#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWX_STORM_JSON_PATH "/storm/json"
#define SWX_STORM_KMZ_PATH "/storm/kmz"
/* The integer and time null. */
#define SWX_STORM_NULL INT64_MIN
/* Largest single storm object accepted (one element of the response array). */
#define SWX_STORM_MAX_BYTES (64u << 20)
/* Largest number of positions in one track. */
#define SWX_STORM_MAX_POSITIONS 100000
/* The API's page size limits. */
#define SWX_STORM_LIMIT_MAX 100

/* Categories in the interface's order of increasing intensity: the rank is
 * the index (XX = 0 ... TC5 = 12); -1 is null or an unknown code. */
enum { SWX_STORM_NCATEGORIES = 13 };
SWX_API const char *swx_storm_category_code(int rank); /* "TC3"; NULL out of range */
/* The rank of a code (case-insensitive), or -1. */
SWX_API int swx_storm_category_rank(const char *code);

/* ATCF id "BBXXYYYY": basin letters, storm number, season year. Returns 0, or
 * SWX_EINVAL naming the id; basin receives two upper-case letters. */
SWX_API int swx_storm_atcf_parse(char basin[3], int *number, int *year, const char *id);

/* Wind radii thresholds, in the order of the arrays below. */
enum { SWX_STORM_R34 = 0, SWX_STORM_R50 = 1, SWX_STORM_R64 = 2, SWX_STORM_NRADII = 3 };

/* Quadrants in ring order: ne, se, sw, nw. */
typedef struct swx_storm_radii {
    int present;       /* the threshold's key was in wind_extent_radii */
    double wind_speed; /* knots, NaN when null */
    double r[4];       /* nautical miles ne, se, sw, nw; NaN when null */
} swx_storm_radii;

/* One track position. Observed positions have time; forecast positions have
 * forecast_time and forecast_hour. Strings are NULL when null. */
typedef struct swx_storm_pos {
    double lat, lon; /* lon normalised to [-180, 180) */
    const char *category_code;
    int category; /* rank, -1 when null or unknown */
    const char *basin, *subbasin;
    double wind_gusts, max_sustained_wind, min_mslp, movement_direction, movement_speed;
    int has_radii_object; /* wind_extent_radii was an object (maybe empty) */
    swx_storm_radii radii[SWX_STORM_NRADII];
    int64_t time;          /* observed valid time, or SWX_STORM_NULL */
    int64_t forecast_time; /* forecast valid time, or SWX_STORM_NULL */
    int64_t forecast_hour; /* or SWX_STORM_NULL */
} swx_storm_pos;

/* One storm summary with its tracks. Read-only for users: the readers of this
 * module and of kmz.h build each storm and hand it to an swx_storm_fn, and
 * free it after the call (swx_storm_list_add keeps copies, freed by
 * swx_storm_list_clear). */
typedef struct swx_storm {
    const char *atcf_id;
    const char *storm_name; /* "" until named, NULL when null */
    const char *basin, *subbasin;
    int64_t season;
    int is_active; /* 1, 0, or -1 when null */
    int64_t advisory_number;
    int64_t advisory_issuance_time;
    const char *max_development_category;
    int max_category; /* rank of max_development_category, -1 when null */
    double max_sustained_wind, min_mslp;
    const char *start_date; /* dates_active.start, "YYYY-MM-DD" */
    const char *end_date;   /* dates_active.end: a date or "ongoing" */
    /* From the ATCF id: basin letters ("" when the id does not parse). */
    char atcf_basin[3];
    int atcf_number, atcf_year; /* 0 when the id does not parse */
    size_t nobserved, nforecast;
    swx_storm_pos *observed, *forecast;
    void *priv_; /* string storage */
} swx_storm;

/* Called once per storm, in document order. The storm is only valid during the
 * call. Return 0 to go on, a negative code to stop (it is returned). */
typedef int (*swx_storm_fn)(void *ud, const swx_storm *s);

/* Reads a whole file ("-" for stdin) holding a JSON array of storms (a saved
 * /storm/json answer) with the streaming reader, handing each storm to fn:
 * memory stays bounded by the largest storm. */
SWX_API int swx_storm_read_file(const char *path, swx_storm_fn fn, void *ud);

/* A selection of storms: every filter of /storm/json and /storm/kmz. NULL and
 * intensity < 0 mean "not given". */
typedef struct swx_storm_query {
    const char *status;      /* active (service default), inactive, all */
    const char *id;          /* ATCF id */
    const char *name;        /* storm name, case-insensitive */
    const char *category;    /* minimum category code */
    double intensity;        /* minimum sustained wind, knots; < 0: not given */
    const char *region;      /* basin or sub-basin code */
    const char *period;      /* "start/end", two ISO 8601 instants */
    const char *data_filter; /* all, analysis, forecast */
    int limit;               /* page size 1..100; 0: 100 */
    long offset;             /* first storm; >= 0 */
    long max_storms;         /* stop after this many storms; 0: no cap */
} swx_storm_query;

/* A query with nothing given (intensity -1). */
SWX_API void swx_storm_query_init(swx_storm_query *q);
/* The filters a query takes from text, named as the service's parameters:
 * status, id, name, category, intensity, region, period, data_filter, limit,
 * offset, max_storms (NULL-terminated). Front ends name their options after
 * these (the CLI with '-' for '_'). */
SWX_API const char *const *swx_storm_query_keys(void);
/* Sets one filter from the text a user gave, the one reading of it that
 * every front end shares. Strings are not copied: value must outlive q.
 * Numbers are read here; SWX_EINVAL leaves a line that starts with key as
 * given ("limit must be a whole number from 1 to 100, not '500'"), so a front
 * end can put its own spelling before it ("--"). The string filters are checked
 * by swx_storm_query_check(), which a front end calls once all are set. */
SWX_API int swx_storm_query_set(swx_storm_query *q, const char *key, const char *value);
/* Checks every filter; SWX_EINVAL naming the first bad value. */
SWX_API int swx_storm_query_check(const swx_storm_query *q);

/* Fetches every storm the query selects, page after page (limit/offset)
 * until a page comes back short, and hands each to fn. Each page is read as
 * it arrives (swx_http_get_sink) by one streaming reader, so the JSON held at
 * once is bounded by the largest storm, not by a page. A page that breaks off
 * is asked for again; the storms its broken answer already handed to fn are
 * skipped by their place in the page, never handed on twice (paging by offset
 * already takes the service's answer to be stable). pages receives the number
 * of pages read (may be NULL). */
SWX_API int swx_storm_fetch(int *pages, swx_client *c, const swx_storm_query *q, swx_storm_fn fn,
                            void *ud);

/* Downloads the KMZ of the query's selection (one request: limit/offset as
 * given) into path through the HTTP engine's download path, never whole in
 * memory: into an atomic file beside a regular path (a failure leaves the old
 * file or none), through an unnamed temporary for a device or a pipe. An
 * answer that is not a zip is SWX_ESERVICE and writes nothing. */
SWX_API int swx_storm_fetch_kmz(swx_client *c, const swx_storm_query *q, const char *path);

/* A growable list of storms, for readers that keep what they read. */
typedef struct swx_storm_list {
    swx_storm **items;
    size_t count, cap;
} swx_storm_list;
/* An swx_storm_fn that appends a copy of each storm to a list (ud). */
SWX_API int swx_storm_list_add(void *list, const swx_storm *s);
SWX_API void swx_storm_list_clear(swx_storm_list *l);

#ifdef __cplusplus
}
#endif
#endif
