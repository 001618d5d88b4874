/* storm_data.h: the storms seawx-sim serves, and their JSON and KML forms.
 *
 * Two sets, both built in code so that nothing large is stored in the tree:
 *   - five hand-made storms for the edge cases: an Atlantic hurricane with a
 *     forecast track and wind radii (AL092024 HELGA), a West Pacific typhoon
 *     whose track, forecast and radii cross 180 degrees (WP272024 TAKARA), an
 *     inactive storm with null advisory fields and no forecast (EP142023
 *     OTILDA), an unnamed depression with a single position (NI032024), and a
 *     South Pacific cyclone moving west across 180 degrees (SP052024 VAIANA);
 *   - a deterministic archive of past seasons: about 3,500 storms
 *     and 150,000 positions, with wind radii from 2004 on (as the agencies
 *     report them), for paging and for the benchmark; seasons 1990-2022.
 * Numbers are written with %.10g in both forms, so that JSON and KML read back
 * the same. The data is read-only once built. */
#ifndef SIM_STORM_DATA_H
#define SIM_STORM_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define SIM_STORM_NULL_TIME INT64_MIN

struct sim_storm_radii {
    int present;
    double speed, q[4]; /* ne, se, sw, nw in nautical miles */
};

struct sim_storm_pos {
    double lat, lon;
    const char *cat, *basin, *subbasin;
    double gust, wind, mslp, dir, speed; /* NaN: null */
    int radii_mode;                      /* 0: no member, 1: {} or thresholds */
    struct sim_storm_radii r[3];         /* 34, 50, 64 kt */
    int64_t time;                        /* observed time, or forecast time */
    int fh;                              /* forecast hour; -1 on the observed track */
};

struct sim_storm {
    char id[16];
    char name[24];
    const char *basin, *subbasin;
    int season;
    int active;
    int adv;          /* -1: null */
    int64_t adv_time; /* SIM_STORM_NULL_TIME: null */
    int max_cat;      /* rank 0..12 */
    double max_wind, min_mslp;
    char start[11], end[11]; /* end may be "ongoing" */
    int64_t t_start, t_end;  /* for period filters; t_end INT64_MAX when ongoing */
    struct sim_storm_pos *obs, *fc;
    size_t nobs, nfc;
};

struct sim_storm_set {
    struct sim_storm *storms;
    size_t n;
    size_t npositions;
    struct sim_storm_pos *pos; /* every position, owned */
};

/* Builds the hand-made storms, then the archive when archive is non-zero.
 * Returns 0 or -1 (out of memory). */
int sim_storm_set_build(struct sim_storm_set *set, int archive);
void sim_storm_set_free(struct sim_storm_set *set);

/* Category codes in order of intensity; the rank of a code or -1. */
const char *sim_storm_cat_code(int rank);
int sim_storm_cat_rank(const char *code);

/* Data filters: which tracks are written. */
enum { SIM_DF_ALL = 0, SIM_DF_ANALYSIS = 1, SIM_DF_FORECAST = 2 };

/* One storm summary object as the service writes it. */
int sim_storm_json(struct sim_buf *b, const struct sim_storm *s, int data_filter);
/* A KML document of the storms (typed values in ExtendedData). */
int sim_storm_kml(struct sim_buf *b, const struct sim_storm *const *list, size_t n,
                  int data_filter);

#endif
