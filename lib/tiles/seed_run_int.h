/*
 * seed_run_int.h: what the seeding engine's files share (seed.c: the jobs
 * and their answers; seed_check.c: the checker threads; seed_run.c: the seed
 * and its files); not public.
 *
 * Threads: the calling thread runs the fetch engine's loop, builds every
 * request and owns the file, the counts and the job lists; checker threads
 * turn each answer into the tiles to store (check it with libpng, which is
 * most of the seeder's CPU with png (docs/benchmarks.md); or decode, warp,
 * cut and encode it) and hand them back.
 */
#ifndef SEAWX_SEED_RUN_INT_H
#define SEAWX_SEED_RUN_INT_H

#include "seawx/iso8601.h"
#include "seawx/seed.h"

#include "http_core.h"
#include "mbtiles.h"
#include "pool.h"
#include "shard.h"
#include "tile.h"

#include <stddef.h>
#include <stdint.h>

/* Defaults chosen by measurement (bench/seed/run.sh: seawx-sim on loopback, 2 cores):
 * one tile per GetMap needs no decode and re-encode (0.45 ms CPU per tile against
 * 1.8 ms with 4x4 metatiles), and 32 requests in flight gave the best rate on
 * loopback and 91-94 % of 32 / latency with 100 ms of latency. */
#define SEED_DEFAULT_IN_FLIGHT 32
#define SEED_PNG_LEVEL 2          /* tiles cut from a metatile: fast, still small */
#define SEED_BAD_PNG_RETRIES 2    /* a 200 with a broken PNG is asked again this often */
#define SEED_GIVE_UP_FAILURES 200 /* consecutive failed requests with no success: stop */
#define SEED_MAX_CHECKERS 4       /* threads checking answers with libpng */

typedef struct job {
    struct job *prev, *next; /* live jobs, freed after the run whatever happened */
    int z;
    uint32_t x0, y0; /* first tile of the requested rectangle */
    int nx, ny;      /* its size in tiles */
    uint64_t mask;   /* bit (j * nx + i): tile (x0 + i, y0 + j) is wanted */
    int bad_png;     /* answers that were not a valid PNG */
    swx_query *q;
    double south, north; /* warp: the source latitudes */
    int src_h;
    char *share_key; /* with a share: the GetMap's address without the key */
    int from_share;  /* the answer came from the share, not the service */
} job;

/* One tile made from an answer: its bytes (the answer's own when the
 * service's PNG is stored as it is) or fully transparent. */
typedef struct out_tile {
    int i, j; /* within the job's rectangle */
    int empty;
    void *data;
    size_t len;
} out_tile;

/* One answer, handed to a checker thread and back. What the checker needs of
 * the job is copied here: the job itself stays the calling thread's. */
typedef struct answer {
    swx_pool_item link; /* first: the checkers hand answers back as this */
    job *j;
    void *body;
    size_t len;
    int owned; /* body is malloc'd (a copy); else borrowed from the response */
    /* the job and the seed, copied */
    int z, nx, ny, src_h, ts, warp, quality;
    swx_tile_format format;
    uint32_t x0, y0;
    const swx_area *clip; /* NULL: no clipping; else the file's area (read only) */
    uint64_t mask;
    double south, north;
    /* the result */
    int bad; /* 1: not a whole PNG of the size asked for (why says why) */
    int rc;  /* a local failure (memory, an encoder's refusal) that stops the run */
    out_tile tiles[64];
    int ntiles;
    char why[512];
} answer;

struct swx_seed {
    const swx_seed_plan *plan;
    swx_seed_run_opts o;
    /* what */
    swx_client *client;
    const char *bundle, *layer, *style;
    char time_s[SWX_ISO8601_LEN];
    int has_time;
    const swx_area *area;
    const swx_shard_part *part; /* a shard's blocks, or NULL */
    uint32_t zooms;
    uint32_t only; /* the zooms of the file being run: all, or one (swx_seed_file_zoom) */
    int tile_size, metatile, warp, skip_empty, clip;
    swx_tile_format format;
    int quality;
    /* where */
    swx_mbtiles *mb;
    /* enumeration */
    int zoom; /* current zoom, -1 before the first */
    swx_tile_iter *it;
    job *retry; /* jobs to ask again, first */
    job *live;
    /* counts */
    swx_seed_counts c;
    swx_fetch_stats stats;
    int consecutive_failures;
    int stopping; /* the front end asked to stop */
    int stop_rc;  /* a permanent error that stopped the seed */
    char stop_line[1024];
    /* The checkers: answers are checked, and decoded, cut and encoded where
     * need be, on up to SEED_MAX_CHECKERS threads (lib/util/pool.h); this
     * thread takes them back and stores their tiles, so the file, the counts
     * and the job lists stay on one thread. NULL: answers are checked here. */
    swx_pool *checkers;
    int checkers_cap; /* at most this many answers pending */
    /* transparent tile, encoded once */
    void *empty_png;
    size_t empty_len;
};

/* seed.c: the jobs and their answers. */
int swx__seed_stopping(swx_seed *s);
void swx__seed_notify(swx_seed *s);
void swx__seed_job_free(swx_seed *s, job *j);
void swx__seed_job_failed(swx_seed *s, job *j, const char *why);
/* The fetch engine's producer (swx_fetch_run): the GetMap of the next job. */
int swx__seed_produce(void *ud, swx_request *req, void **user);
answer *swx__seed_answer_new(swx_seed *s, job *j, const swx_response *r, int copy);
void swx__seed_answer_free(answer *a);
/* On a checker thread, or on the calling thread when there are none. */
void swx__seed_process_answer(answer *a);
int swx__seed_store_answer(swx_seed *s, answer *a);
int swx__seed_settle(swx_seed *s, job *j, int t, const char *why);

/* seed_check.c: the checker threads. */
void swx__seed_checkers_start(swx_seed *s);
int swx__seed_pool_collect(swx_seed *s, int limit);
int swx__seed_pool_finish(swx_seed *s);
/* The fetch engine's callback (swx_fetch_run): a job's answer, or why it
 * failed. */
int swx__seed_fetched(void *ud, void *user, int rc, const swx_response *r);

#endif
