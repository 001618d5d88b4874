/*
 * grib_int.h: what the parts of a voyage GRIB's build share (grib.c, the job
 * and the entry points; grib_plan.c; grib_fetch.c; grib_cache.c): the job,
 * its valid times, its forecast files and their messages. Private to
 * lib/grib; what the domain's other modules share is grib_priv.h's.
 */
#ifndef SEAWX_GRIB_INT_H
#define SEAWX_GRIB_INT_H

#include "grib_priv.h"

#include <stddef.h>
#include <stdint.h>

/* Valid times a voyage GRIB holds at most. */
#define MAX_TIMES 512
/* Rounds of Range requests a file's walk may take (two a message at most): a
 * bound, so that no answer can keep a walk asking without end. */
#define SWX_GRIB_MAX_ROUNDS 100000

typedef struct gmsg {
    uint64_t off;
    swx_grib_head h;
    uint8_t *head; /* the first bytes, as the walk read them (for the cache) */
    size_t head_len;
    int wanted;
    size_t param;    /* wanted: the job's parameter it is (the time is its file's) */
    uint8_t *data;   /* the whole message once fetched, until it is cut */
    size_t data_len; /* its length: the message's, or the simply packed copy's */
    int simple;      /* data is the cache's simply packed copy of the field */
    /* a build: the field cut from it, as soon as it is here (a message is
     * never held longer: a 10-day voyage's messages are hundreds of MB) */
    uint8_t *cut;
    size_t cut_len;
    int is_cut;
    /* a simply packed field fetched in parts (grib_partial.c): the byte
     * ranges holding the values the cut takes, offsets in the message;
     * data is then the message with those ranges filled, zeros elsewhere */
    struct gpart *parts;
    size_t nparts, parts_left;
} gmsg;

typedef struct gpart {
    uint64_t off, len;
    int done;
} gpart;

typedef struct gfile {
    char *id;
    const char *bundle;
    size_t t; /* the valid time's index */
    int64_t size;
    gmsg *msgs;
    size_t n, cap;
    int walked;
    uint64_t next;  /* where the walk goes on */
    uint64_t ask;   /* bytes to ask for there */
    uint8_t *whole; /* the whole file, when storage ignored a Range */
    size_t whole_len;
} gfile;

typedef struct gtime {
    int64_t valid;
    int fh;
    swx_area *area; /* NULL: every point (the box cut) */
    ggrid grid;
} gtime;

typedef struct gjob {
    swx_client *c;
    const swx_grib_spec *spec;
    swx_grib_opts o;
    const gparam *params[GRIB_MAX_PARAMS];
    size_t nparams;
    size_t nrequired; /* params[nrequired..] are the spec's if_held */
    const char *bundles[4];
    size_t nbundles;
    double grid;
    gtime times[MAX_TIMES];
    size_t ntimes;
    gfile *files;
    size_t nfiles, files_cap;
    swx_grib_result res;
    /* fetch rounds */
    size_t cursor, sub;
    int round_rc;
    size_t progress_done, progress_total;
    const char *stage;
    int building;  /* a build (not a quote): messages are cut as they come */
    int one_range; /* storage did not answer several ranges in one request */
} gjob;

/* ---- the job (grib.c) ---- */

/* Hands the stage's progress to the caller's callback; SWX_ECANCEL when it
 * or the cancel flag says stop. */
int swx__grib_report(gjob *j);
/* Appends the message at off (head h, its first head_len bytes at head,
 * kept at most to the message's length) to f. */
int swx__grib_file_push(gfile *f, uint64_t off, const swx_grib_head *h, const uint8_t *head,
                        size_t head_len);
/* Frees what f holds (not f itself). */
void swx__grib_file_clear(gfile *f);
/* A build: cuts m (of f), whose data is here, to its time's grid and lets
 * the data go; the cache keeps the field's simply packed copy. */
int swx__grib_cut_msg(gjob *j, gfile *f, gmsg *m);

/* ---- the cache (grib_cache.c) ---- */

/* Keeps f's index (its message heads) in the cache, when there is one; a
 * cache that cannot be written is no error. */
int swx__grib_index_put(gjob *j, const gfile *f);
/* Fills f (walked) from its cached index, when the cache holds a sound one;
 * otherwise leaves f to be walked. */
void swx__grib_index_get(gjob *j, gfile *f);
/* The cache keys of m, a message of f: the field's simply packed copy, the
 * message as fetched. 0, or -1 when key (n bytes) is too short. */
int swx__grib_field_key(char *key, size_t n, const gfile *f, const gmsg *m);
int swx__grib_msg_key(char *key, size_t n, const gfile *f, const gmsg *m);

/* ---- fields fetched in parts (grib_partial.c) ---- */

struct swx_response;

/* Plans m's parts when it is simply packed without a bitmap and the cut of
 * its time takes a small share of it (nothing otherwise: it is fetched
 * whole); then takes the parts the cache holds (into data, a build; counted
 * only, a quote): *cached and *to_fetch say how many bytes. */
int swx__grib_parts_begin(gjob *j, gfile *f, gmsg *m, int64_t *cached, int64_t *to_fetch);
/* A part fetched (r answers part k of m with its bytes); when the last is
 * in, a build cuts m. */
int swx__grib_part_done(gjob *j, gfile *f, gmsg *m, size_t k, const struct swx_response *r);
/* Part k of m from its bytes (the part's length), however they came. */
int swx__grib_part_take(gjob *j, gfile *f, gmsg *m, size_t k, const uint8_t *bytes);
/* Every part still wanted of every message of f, from the whole file (len
 * bytes), which the storage host sent for a Range it ignored. */
int swx__grib_parts_from_file(gjob *j, gfile *f, const uint8_t *body, size_t len);
/* The requests still to make for m: its parts left, or 1 for a whole
 * message not held. */
size_t swx__grib_requests_left(const gmsg *m);

/* ---- walking and fetching (grib_fetch.c) ---- */

/* One round of at most cap parallel requests: the next head of each file
 * not walked yet (fetch 0), or each wanted message neither held nor cut yet
 * (fetch 1; in a build, each is cut as it comes). */
int swx__grib_fetch_round(gjob *j, int fetch, size_t cap);
/* Walks every file of the job (stage "index"): from its cached index, or
 * by rounds until each is walked. */
int swx__grib_fetch_walk(gjob *j);

/* ---- planning (grib_plan.c) ---- */

/* Checks the spec, reads the listing and fills the job: the run, the valid
 * times, their grids and areas, the region and the files. */
int swx__grib_plan(gjob *j);

#endif
