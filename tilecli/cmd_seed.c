/* cmd_seed.c: `seawx seed`, a layer's map tiles pre-seeded into MBTiles files.
 *
 * One file per valid time. Everything the user typed is checked before any
 * request; the layer, times and style are checked against the capabilities
 * before any GetMap. Tiles are enumerated zoom by zoom in metatile blocks
 * (lib/tiles/tiles.c); a block whose tiles are all stored already is skipped, so
 * running the same command again fetches only what is missing. Each GetMap
 * covers the smallest rectangle of tiles of its block that are still needed,
 * and only the tiles of the area are stored.
 *
 * Answers of one tile are checked with libpng on checker threads (one per
 * core, at most four) and stored by the main thread; everything else, the
 * file included, stays on the main thread.
 *
 * Interrupting: the first SIGINT / SIGTERM stops new requests and lets those
 * under way finish and be stored; a second one cancels them (the fetch
 * engine's cancel flag). Either way the file is committed and closed valid.
 */
#include "cli.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "seawx/mbtiles.h"
#include "seawx/png.h"
#include "seawx/tiles.h"
#include "seawx/warp.h"
#include "seawx/wms.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Defaults chosen by measurement (bench/seed/run.sh: seawx-sim on loopback, 2 cores):
 * one tile per GetMap needs no decode and re-encode (0.45 ms CPU per tile against
 * 1.8 ms with 4x4 metatiles), and 32 requests in flight gave the best rate on
 * loopback and 91-94 % of 32 / latency with 100 ms of latency. */
#define SEED_DEFAULT_IN_FLIGHT 32
#define SEED_DEFAULT_METATILE 1
#define SEED_DEFAULT_BUFFER_NM 10.0
#define SEED_PNG_LEVEL 2          /* tiles cut from a metatile: fast, still small */
#define SEED_MAX_IMAGE 4096       /* the largest GetMap side asked for */
#define SEED_BAD_PNG_RETRIES 2    /* a 200 with a broken PNG is asked again this often */
#define SEED_GIVE_UP_FAILURES 200 /* consecutive failed requests with no success: stop */
#define SEED_FAILURES_SHOWN 10
#define SEED_MAX_FILE (64u * 1024u * 1024u)
#define SEED_MAX_CHECKERS 4       /* threads checking answers with libpng */

const cli_opt cmd_seed_opts[] = {
    {"bundle", 'b', "NAME", "the bundle of the layer (required)", 0},
    {"layer", 'l', "NAME", "the layer's full name (sof-d/20241001/00/t2m:K)", 0},
    {"variable", 'v', "VAR", "or a variable (t2m, t2m:K), with --run", 0},
    {"run", 0, "RUN", "latest (default: the newest complete run) or YYYYMMDDHH", 0},
    {"time", 't', "TIME",
     "a valid time, a comma list, start/end/period, or all (default: the layer's default)", 0},
    {"style", 's', "NAME", "a style of the layer (default: the service's)", 0},
    {"bbox", 0, "W,S,E,N", "the area in degrees; W > E crosses the antimeridian", 0},
    {"area", 0, "FILE", "the area as a GeoJSON Polygon or MultiPolygon", 0},
    {"route", 0, "FILE", "a route: GeoJSON LineString or CSV waypoints (lat,lon)", 0},
    {"buffer", 0, "NM", "nautical miles around the route, geodesic (default 10)", 0},
    {"zoom", 'z', "LEVELS", "zoom levels: 5, 3-9 or 3,5,7 (required)", 0},
    {"output", 'o', "FILE",
     "output MBTiles; {time}, {run}, {variable}, {layer}, {bundle} are replaced; "
     "{time} is needed for several times (default: {variable}-{time}.mbtiles)",
     0},
    {"tile-size", 0, "PX", "256 (default) or 512", 0},
    {"metatile", 'm', "N", "tiles per GetMap side: 1, 2, 4 or 8 (default 1)", 0},
    {"in-flight", 'j', "N", "requests under way at once (default 32)", 0},
    {"rate", 0, "PER_S", "at most this many requests started per second", 0},
    {"skip-empty", 0, NULL, "leave fully transparent tiles out (default: stored once)", 0},
    {"dry-run", 'n', NULL, "print tiles per zoom and an estimated size; fetch no map", 0},
    {"summary-json", 0, "FILE", "write a JSON summary of the run to FILE", 0},
    {"quiet", 'q', NULL, "no progress, only errors", 0},
    {0},
};

/* ---- signals ---- */

static volatile sig_atomic_t stop_soft; /* first signal: no new requests */
static volatile sig_atomic_t stop_hard; /* second: cancel those under way */

static void on_signal(int sig)
{
    (void)sig;
    if (stop_soft)
        stop_hard = 1;
    stop_soft = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the run ---- */

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
} job;

/* One tile's answer, handed to a checker thread and back. */
typedef struct answer {
    struct answer *next;
    job *j;
    void *body;
    size_t len;
    int want; /* the expected width and height */
    int bad;  /* 1: not a whole PNG of that size (why says why) */
    int empty;
    char why[512];
} answer;

/* The checkers: the libpng check of every answer is most of the seeder's CPU
 * (README "Benchmarks"), and the fetch loop runs on one thread, so answers of
 * one tile are checked on up to SEED_MAX_CHECKERS threads. Only the check runs
 * there; the main thread takes the answers back and stores them, so the file,
 * the counts and the job lists stay on one thread. */
typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t work; /* signalled when todo grows or quit is set */
    pthread_cond_t back; /* signalled when done grows */
    answer *todo, *todo_tail, *done, *done_tail;
    int pending; /* handed in and not yet taken back */
    int cap;     /* at most this many pending */
    int quit;
    int nthreads;
    pthread_t th[SEED_MAX_CHECKERS];
} pool;

typedef struct seed {
    /* what */
    swx_client *client;
    const char *bundle, *layer, *style;
    char time_s[SWX_ISO8601_LEN];
    int has_time;
    const swx_area *area;
    uint32_t zooms;
    int tile_size, metatile, warp, skip_empty;
    /* where */
    swx_mbtiles *mb;
    const char *path;
    /* enumeration */
    int zoom; /* current zoom, -1 before the first */
    swx_tile_iter *it;
    job *retry; /* jobs to ask again, first */
    job *live;
    /* counts */
    uint64_t total, done, present, stored, failed, empty, requests_made;
    uint64_t run_done; /* tiles done by this run (for the rate) */
    int consecutive_failures;
    int stop_rc; /* a permanent error that stopped the run */
    char stop_line[1024];
    int failures_shown;
    pool *checkers; /* NULL: answers are checked on the main thread */
    /* transparent tile, encoded once */
    void *empty_png;
    size_t empty_len;
    /* progress */
    int quiet, tty;
    double t0, last_progress;
    const char *label;
} seed;

static void job_free(seed *s, job *j)
{
    if (!j)
        return;
    if (j->prev)
        j->prev->next = j->next;
    else if (s->live == j)
        s->live = j->next;
    if (j->next)
        j->next->prev = j->prev;
    swx_query_free(j->q);
    free(j);
}

static int popcount64(uint64_t v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static void progress(seed *s, int final)
{
    if (s->quiet)
        return;
    double t = now_s();
    double interval = s->tty ? 0.25 : 2.0;
    if (!final && t - s->last_progress < interval)
        return;
    s->last_progress = t;
    double el = t - s->t0;
    double rate = el > 0 ? (double)s->run_done / el : 0;
    uint64_t left = s->total > s->done ? s->total - s->done : 0;
    char eta[32] = "-";
    if (rate > 0 && left) {
        long e = (long)(left / rate + 0.5);
        snprintf(eta, sizeof eta, "%ld:%02ld:%02ld", e / 3600, e / 60 % 60, e % 60);
    } else if (!left) {
        snprintf(eta, sizeof eta, "0:00:00");
    }
    /* The figures first: on a narrow terminal the line is cut at its end. */
    cli_progress(final, "%llu/%llu tiles (%.0f%%), %.0f tiles/s, ETA %s, %llu failed: %s",
                 (unsigned long long)s->done, (unsigned long long)s->total,
                 s->total ? 100.0 * (double)s->done / (double)s->total : 100.0, rate, eta,
                 (unsigned long long)s->failed, s->label);
}

/* Ends a progress line left open on the terminal, before another message. */
static void end_progress_line(seed *s)
{
    (void)s;
    cli_progress(0, NULL);
}

/* Builds the GetMap of a job. */
static int job_request(seed *s, job *j, swx_request *req)
{
    swx_getmap g = {0};
    g.bundle = s->bundle;
    g.layer = s->layer;
    g.time = s->has_time ? s->time_s : NULL;
    g.style = s->style;
    g.width = j->nx * s->tile_size;
    g.transparent = 1;
    double a, b, c, d;
    if (s->warp) {
        g.crs = "EPSG:4326";
        swx_tile_bounds_deg(j->z, j->x0, j->y0, &a, &b, &c, &d);
        g.minx = a;
        swx_tile_bounds_deg(j->z, j->x0 + (uint32_t)j->nx - 1, j->y0, &a, &b, &c, &d);
        g.maxx = c;
        g.miny = j->south;
        g.maxy = j->north;
        g.height = j->src_h;
    } else {
        g.crs = "EPSG:3857";
        swx_tile_bounds_merc(j->z, j->x0, j->y0 + (uint32_t)j->ny - 1, &a, &b, &c, &d);
        g.minx = a;
        g.miny = b;
        swx_tile_bounds_merc(j->z, j->x0 + (uint32_t)j->nx - 1, j->y0, &a, &b, &c, &d);
        g.maxx = c;
        g.maxy = d;
        g.height = j->ny * s->tile_size;
    }
    swx_query_free(j->q);
    j->q = NULL;
    return swx_wms_getmap_request(&g, req, &j->q);
}

/* The next block with tiles still missing, as a job; 0 when none is left. */
static int next_block(seed *s, job **out)
{
    *out = NULL;
    for (;;) {
        if (!s->it) {
            do
                s->zoom++;
            while (s->zoom <= SWX_TILE_MAX_ZOOM && !(s->zooms & (1u << s->zoom)));
            if (s->zoom > SWX_TILE_MAX_ZOOM)
                return 0;
            int rc = swx_tile_iter_new(&s->it, s->area, s->zoom, s->metatile);
            if (rc)
                return rc;
        }
        swx_tile_block b;
        int rc = swx_tile_iter_next(s->it, &b);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            swx_tile_iter_free(s->it);
            s->it = NULL;
            continue;
        }
        /* Drop the tiles already stored; keep the rectangle of the rest. */
        int i0 = b.n, i1 = -1, j0 = b.n, j1 = -1;
        uint64_t want = 0;
        for (int jj = 0; jj < b.n; jj++)
            for (int ii = 0; ii < b.n; ii++) {
                if (!((b.mask >> (jj * b.n + ii)) & 1))
                    continue;
                int has = swx_mbtiles_has(s->mb, b.z, b.x0 + (uint32_t)ii, b.y0 + (uint32_t)jj);
                if (has < 0)
                    return has;
                if (has) {
                    s->present++;
                    s->done++;
                    continue;
                }
                want |= 1ull << (jj * b.n + ii);
                i0 = ii < i0 ? ii : i0;
                i1 = ii > i1 ? ii : i1;
                j0 = jj < j0 ? jj : j0;
                j1 = jj > j1 ? jj : j1;
            }
        if (!want)
            continue;
        job *j = calloc(1, sizeof *j);
        if (!j)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        j->z = b.z;
        j->x0 = b.x0 + (uint32_t)i0;
        j->y0 = b.y0 + (uint32_t)j0;
        j->nx = i1 - i0 + 1;
        j->ny = j1 - j0 + 1;
        for (int jj = j0; jj <= j1; jj++)
            for (int ii = i0; ii <= i1; ii++)
                if ((want >> (jj * b.n + ii)) & 1)
                    j->mask |= 1ull << ((jj - j0) * j->nx + (ii - i0));
        if (s->warp &&
            (rc = swx_warp_4326_plan(j->z, j->y0, j->ny, s->tile_size, SEED_MAX_IMAGE, &j->south,
                                     &j->north, &j->src_h))) {
            free(j);
            return rc;
        }
        *out = j;
        return 1;
    }
}

static int pool_collect(seed *s, int limit);

static int produce(void *ud, swx_request *req, void **user)
{
    seed *s = ud;
    int crc = pool_collect(s, -1);
    if (crc)
        return crc;
    if (stop_soft || s->stop_rc)
        return 0;
    job *j = s->retry;
    if (j) {
        s->retry = j->next;
        j->next = NULL;
    } else {
        int rc = next_block(s, &j);
        if (rc <= 0)
            return rc;
    }
    j->prev = NULL;
    j->next = s->live;
    if (s->live)
        s->live->prev = j;
    s->live = j;
    int rc = job_request(s, j, req);
    if (rc) {
        job_free(s, j);
        return rc;
    }
    s->requests_made++;
    *user = j;
    return 1;
}

static int is_permanent(int rc)
{
    return rc == SWX_EAUTH || rc == SWX_EFORBIDDEN || rc == SWX_ENOTFOUND || rc == SWX_EINVAL ||
           rc == SWX_ECONFIG || rc == SWX_EIO || rc == SWX_ENOMEM;
}

static void job_failed(seed *s, job *j, const char *why)
{
    int n = popcount64(j->mask);
    s->failed += (uint64_t)n;
    s->done += (uint64_t)n;
    s->run_done += (uint64_t)n;
    if (s->failures_shown < SEED_FAILURES_SHOWN) {
        end_progress_line(s);
        cli_warn("%d tile%s from %d/%u/%u failed: %s", n, n == 1 ? "" : "s", j->z, j->x0, j->y0,
                 why);
    } else if (s->failures_shown == SEED_FAILURES_SHOWN) {
        end_progress_line(s);
        cli_warn("more tiles failed; the count is in the summary");
    }
    s->failures_shown++;
}

/* Stores one tile: the canonical empty tile for a fully transparent one. */
static int store(seed *s, int z, uint32_t x, uint32_t y, const void *png, size_t len, int empty)
{
    if (empty) {
        s->empty++;
        if (s->skip_empty)
            return 0;
        png = s->empty_png;
        len = s->empty_len;
    }
    int rc = swx_mbtiles_put(s->mb, z, x, y, png, len);
    if (!rc)
        s->stored++;
    return rc;
}

static int all_clear(const uint8_t *px, int w, int h, size_t stride)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (px[stride * (size_t)y + 4 * (size_t)x + 3])
                return 0;
    return 1;
}

/* Cuts the wanted tiles from a decoded image (nx * ts by ny * ts) and stores them. */
static int cut_and_store(seed *s, job *j, const uint8_t *px)
{
    int ts = s->tile_size;
    size_t stride = (size_t)j->nx * ts * 4;
    for (int jj = 0; jj < j->ny; jj++)
        for (int ii = 0; ii < j->nx; ii++) {
            if (!((j->mask >> (jj * j->nx + ii)) & 1))
                continue;
            const uint8_t *t = px + stride * (size_t)(jj * ts) + (size_t)ii * ts * 4;
            int empty = all_clear(t, ts, ts, stride);
            void *png = NULL;
            size_t len = 0;
            int rc = 0;
            if (!empty && (rc = swx_png_encode_rgba(t, ts, ts, stride, SEED_PNG_LEVEL, &png, &len)))
                return rc;
            rc = store(s, j->z, j->x0 + (uint32_t)ii, j->y0 + (uint32_t)jj, png, len, empty);
            free(png);
            if (rc)
                return rc;
        }
    return 0;
}

/* Stores the answer of a job. Returns 0, a negative code for a local failure
 * that must stop the run, or 1 when the image was unusable (retry). */
static int take_answer(seed *s, job *j, const swx_response *r, char *why, size_t whylen)
{
    int ts = s->tile_size;
    int want_w = j->nx * ts, want_h = s->warp ? j->src_h : j->ny * ts;
    uint8_t *px = NULL, *warped = NULL;
    int w = 0, h = 0, rc;
    if (j->nx == 1 && j->ny == 1 && !s->warp) {
        int empty = 0;
        rc = swx_png_check(r->body, r->len, &w, &h, &empty);
        if (!rc && (w != want_w || h != want_h))
            rc = swx_error_set(SWX_ESERVICE, "a %d x %d image instead of %d x %d", w, h, want_w,
                               want_h);
        if (rc) {
            snprintf(why, whylen, "%s", swx_error_last());
            return 1;
        }
        return store(s, j->z, j->x0, j->y0, r->body, r->len, empty);
    }
    rc = swx_png_decode_rgba(r->body, r->len, SEED_MAX_IMAGE, SEED_MAX_IMAGE, &px, &w, &h);
    if (!rc && (w != want_w || h != want_h))
        rc = swx_error_set(SWX_ESERVICE, "a %d x %d image instead of %d x %d", w, h, want_w,
                           want_h);
    if (rc) {
        snprintf(why, whylen, "%s", swx_error_last());
        free(px);
        return 1;
    }
    if (s->warp) {
        size_t stride = (size_t)want_w * 4;
        warped = malloc(stride * (size_t)j->ny * ts);
        if (!warped) {
            free(px);
            return swx_error_set(SWX_ENOMEM, "out of memory");
        }
        swx_warp_4326_rows(px, h, j->south, j->north, stride, warped, j->z, j->y0, j->ny, ts);
        free(px);
        px = warped;
    }
    rc = cut_and_store(s, j, px);
    free(px);
    return rc;
}

/* What follows a job's answer: t is 0 (stored), 1 (unusable: ask again or
 * count as failed) or a negative code that stops the run. */
static int settle(seed *s, job *j, int t, const char *why)
{
    if (t < 0) {
        s->stop_rc = t;
        snprintf(s->stop_line, sizeof s->stop_line, "%s", swx_error_last());
        job_free(s, j);
        return t;
    }
    if (t == 1) {
        if (++j->bad_png <= SEED_BAD_PNG_RETRIES && !stop_soft) {
            /* Ask again later: off the live list, onto the retry list. */
            if (j->prev)
                j->prev->next = j->next;
            else
                s->live = j->next;
            if (j->next)
                j->next->prev = j->prev;
            j->prev = NULL;
            j->next = s->retry;
            s->retry = j;
            return 0;
        }
        job_failed(s, j, why);
        job_free(s, j);
        return 0;
    }
    s->consecutive_failures = 0;
    int n = popcount64(j->mask);
    s->done += (uint64_t)n;
    s->run_done += (uint64_t)n;
    job_free(s, j);
    progress(s, 0);
    return 0;
}

/* ---- the checker threads ---- */

static void check_answer(answer *a)
{
    int w = 0, h = 0;
    int rc = swx_png_check(a->body, a->len, &w, &h, &a->empty);
    if (!rc && (w != a->want || h != a->want))
        rc = swx_error_set(SWX_ESERVICE, "a %d x %d image instead of %d x %d", w, h, a->want,
                           a->want);
    a->bad = rc != 0;
    if (rc)
        snprintf(a->why, sizeof a->why, "%s", swx_error_last());
}

static void *checker(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->todo && !p->quit)
            pthread_cond_wait(&p->work, &p->mu);
        if (!p->todo)
            break;
        answer *a = p->todo;
        p->todo = a->next;
        if (!p->todo)
            p->todo_tail = NULL;
        pthread_mutex_unlock(&p->mu);
        check_answer(a);
        pthread_mutex_lock(&p->mu);
        a->next = NULL;
        if (p->done_tail)
            p->done_tail->next = a;
        else
            p->done = a;
        p->done_tail = a;
        pthread_cond_signal(&p->back);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Starts up to SEED_MAX_CHECKERS threads, one per core; NULL on one core or
 * when no thread starts (answers are then checked on the main thread). The
 * threads block SIGINT and SIGTERM, which stay with the main thread. */
static pool *pool_start(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 2)
        return NULL;
    pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->back, NULL);
    int n = cores < SEED_MAX_CHECKERS ? (int)cores : SEED_MAX_CHECKERS;
    p->cap = 4 * n;
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    for (int i = 0; i < n; i++)
        if (pthread_create(&p->th[p->nthreads], NULL, checker, p) == 0)
            p->nthreads++;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!p->nthreads) {
        pthread_cond_destroy(&p->back);
        pthread_cond_destroy(&p->work);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
}

static void answer_free(answer *a)
{
    if (a) {
        free(a->body);
        free(a);
    }
}

/* Stops the threads; answers still queued are dropped (their jobs are on
 * the live list and freed with it). Accepts NULL. */
static void pool_stop(pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    answer *a = p->todo;
    p->todo = p->todo_tail = NULL;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    while (a) {
        answer *next = a->next;
        answer_free(a);
        a = next;
    }
    for (int i = 0; i < p->nthreads; i++)
        pthread_join(p->th[i], NULL);
    for (a = p->done; a;) {
        answer *next = a->next;
        answer_free(a);
        a = next;
    }
    pthread_cond_destroy(&p->back);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

/* Takes the checked answers back and stores them, after waiting until at most
 * limit answers are pending (limit < 0: take what is there, do not wait).
 * Returns 0, or a negative code that stops the run. */
static int pool_collect(seed *s, int limit)
{
    pool *p = s->checkers;
    int rc = 0;
    if (!p)
        return 0;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (limit >= 0 && !p->done && p->pending > limit)
            pthread_cond_wait(&p->back, &p->mu);
        answer *list = p->done;
        p->done = p->done_tail = NULL;
        for (answer *a = list; a; a = a->next)
            p->pending--;
        int more = limit >= 0 && p->pending > limit;
        pthread_mutex_unlock(&p->mu);
        while (list) {
            answer *a = list;
            list = a->next;
            if (!rc) {
                int t = a->bad ? 1
                               : store(s, a->j->z, a->j->x0, a->j->y0, a->body, a->len, a->empty);
                rc = settle(s, a->j, t, a->why);
            }
            answer_free(a);
        }
        if (rc || !more)
            return rc;
    }
}

/* Hands a one-tile answer to the checkers, after making room. Returns 0, or a
 * negative code that stops the run. */
static int pool_submit(seed *s, job *j, const swx_response *r)
{
    pool *p = s->checkers;
    int rc = pool_collect(s, p->cap - 1);
    if (rc)
        return rc;
    answer *a = calloc(1, sizeof *a);
    void *body = malloc(r->len ? r->len : 1);
    if (!a || !body) {
        free(a);
        free(body);
        return settle(s, j, swx_error_set(SWX_ENOMEM, "out of memory"), "");
    }
    memcpy(body, r->body, r->len);
    a->j = j;
    a->body = body;
    a->len = r->len;
    a->want = s->tile_size;
    pthread_mutex_lock(&p->mu);
    if (p->todo_tail)
        p->todo_tail->next = a;
    else
        p->todo = a;
    p->todo_tail = a;
    p->pending++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

/* Waits for every pending answer: stored, or dropped once the run has
 * stopped. Returns 0 or the code that stopped it. */
static int pool_finish(seed *s)
{
    pool *p = s->checkers;
    int rc = pool_collect(s, 0);
    if (!p)
        return rc;
    pthread_mutex_lock(&p->mu);
    while (p->pending > 0) {
        while (!p->done)
            pthread_cond_wait(&p->back, &p->mu);
        answer *list = p->done;
        p->done = p->done_tail = NULL;
        pthread_mutex_unlock(&p->mu);
        while (list) {
            answer *a = list;
            list = a->next;
            answer_free(a);
            pthread_mutex_lock(&p->mu);
            p->pending--;
            pthread_mutex_unlock(&p->mu);
        }
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return rc;
}

static int fetched(void *ud, void *user, int rc, const swx_response *r)
{
    seed *s = ud;
    job *j = user;
    char why[1024] = "";
    int crc = pool_collect(s, -1);
    if (crc) {
        job_free(s, j);
        return crc;
    }
    if (rc) {
        if (is_permanent(rc)) {
            s->stop_rc = rc;
            snprintf(s->stop_line, sizeof s->stop_line, "%s", swx_error_last());
            job_free(s, j);
            return rc;
        }
        snprintf(why, sizeof why, "%s", swx_error_last());
        job_failed(s, j, why);
        job_free(s, j);
        if (++s->consecutive_failures >= SEED_GIVE_UP_FAILURES) {
            s->stop_rc = rc;
            snprintf(s->stop_line, sizeof s->stop_line,
                     "giving up after %d failed requests in a row; the last: %s",
                     s->consecutive_failures, why);
            return rc;
        }
        progress(s, 0);
        return 0;
    }
    if (s->checkers && j->nx == 1 && j->ny == 1 && !s->warp)
        return pool_submit(s, j, r);
    int t = take_answer(s, j, r, why, sizeof why);
    return settle(s, j, t, why);
}

/* ---- setting up ---- */

/* Reads a whole file (at most SEED_MAX_FILE bytes). */
static int read_file(const char *path, char **out, size_t *len)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return swx_error_set(SWX_EIO, "cannot read %s: %s", path, strerror(errno));
    size_t cap = 65536, n = 0;
    char *b = malloc(cap + 1);
    int rc = 0;
    while (b) {
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        if (cap >= SEED_MAX_FILE) {
            rc = swx_error_set(SWX_ETOOBIG, "%s is larger than %u MiB", path, SEED_MAX_FILE >> 20);
            break;
        }
        cap *= 2;
        char *nb = realloc(b, cap + 1);
        if (!nb) {
            free(b);
            b = NULL;
        } else {
            b = nb;
        }
    }
    if (!b)
        rc = swx_error_set(SWX_ENOMEM, "out of memory reading %s", path);
    else if (!rc && ferror(f))
        rc = swx_error_set(SWX_EIO, "cannot read %s: %s", path, strerror(errno));
    fclose(f);
    if (rc) {
        free(b);
        return rc;
    }
    b[n] = '\0';
    *out = b;
    *len = n;
    return 0;
}

static int parse_double(const char *v, const char *name, double min, double max, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (errno || end == v || *end || !(d >= min && d <= max))
        return swx_error_set(SWX_EINVAL, "--%s must be a number from %g to %g, not '%s'", name,
                             min, max, v);
    *out = d;
    return 0;
}

/* Appends s to out, replacing characters unsafe in file names by '_'. */
static void put_safe(char *out, size_t cap, size_t *at, const char *s)
{
    for (; *s && *at + 1 < cap; s++)
        out[(*at)++] = (*s == '/' || *s == ':' || *s == ' ' || *s == '\\') ? '_' : *s;
    out[*at] = '\0';
}

/* The output name for one time. Returns 0, or SWX_EINVAL for an unknown
 * placeholder. */
static int expand_name(const char *tpl, const char *bundle, const char *layer, const char *var,
                       const char *run, const char *timec, char *out, size_t cap)
{
    size_t at = 0;
    out[0] = '\0';
    for (const char *p = tpl; *p;) {
        if (*p == '{') {
            const char *e = strchr(p, '}');
            if (!e)
                return swx_error_set(SWX_EINVAL, "output name '%s': '{' without '}'", tpl);
            size_t n = (size_t)(e - p - 1);
            const char *v = NULL;
            if (n == 4 && strncmp(p + 1, "time", 4) == 0)
                v = timec;
            else if (n == 3 && strncmp(p + 1, "run", 3) == 0)
                v = run;
            else if (n == 8 && strncmp(p + 1, "variable", 8) == 0)
                v = var;
            else if (n == 5 && strncmp(p + 1, "layer", 5) == 0)
                v = layer;
            else if (n == 6 && strncmp(p + 1, "bundle", 6) == 0)
                v = bundle;
            else
                return swx_error_set(SWX_EINVAL,
                                     "output name '%s': unknown placeholder {%.*s}; use {time}, "
                                     "{run}, {variable}, {layer} or {bundle}",
                                     tpl, (int)n, p + 1);
            put_safe(out, cap, &at, v ? v : "none");
            p = e + 1;
            continue;
        }
        if (at + 1 < cap) {
            out[at++] = *p;
            out[at] = '\0';
        }
        p++;
    }
    if (at + 1 >= cap)
        return swx_error_set(SWX_EINVAL, "output name '%.60s...' is too long", tpl);
    return 0;
}

/* The folder of path must exist and be writable, and path, if there, be a
 * writable file. */
static int check_output_dir(const char *path)
{
    int rc = cli_check_output_folder(path);
    if (rc)
        return rc;
    struct stat sb;
    if (stat(path, &sb) == 0 && (!S_ISREG(sb.st_mode) || access(path, R_OK | W_OK) != 0))
        return swx_error_set(SWX_EIO, "cannot write %s: it exists and is not a writable file",
                             path);
    return 0;
}

/* "20241001T000000Z" from an instant, for file names. */
static void compact_time(int64_t t, char *out, size_t n)
{
    int y, mo, d, h, mi, sec;
    swx_civil_from_time(t, &y, &mo, &d, &h, &mi, &sec);
    snprintf(out, n, "%04d%02d%02dT%02d%02d%02dZ", y, mo, d, h, mi, sec);
}

typedef struct file_result {
    char path[4096];
    char time_s[SWX_ISO8601_LEN];
    uint64_t tiles, present, stored, failed, empty;
    int64_t images;
    int done;
} file_result;

/* Writes the summary through PATH.tmp and a rename, so that a summary is
 * complete or absent; returns 0, or -1 after an error line. */
static int write_summary(const char *path, const char *bundle, const char *layer,
                         const file_result *files, size_t nfiles, uint64_t total,
                         const swx_fetch_stats *st, double seconds, int exit_code,
                         int interrupted, const char *error)
{
    char tmp[4200];
    int bad = 0;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        cli_error("cannot write the summary %s: %s", path, strerror(errno));
        return -1;
    }
    swx_jsonw *w = NULL;
    if (swx_jsonw_new(&w, f, 2) != 0) {
        bad = 1;
    } else {
        uint64_t fetched = 0, failed = 0, present = 0;
        for (size_t i = 0; i < nfiles; i++) {
            fetched += files[i].stored;
            failed += files[i].failed;
            present += files[i].present;
        }
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "bundle");
        swx_jsonw_string(w, bundle);
        swx_jsonw_key(w, "layer");
        swx_jsonw_string(w, layer);
        swx_jsonw_key(w, "tiles");
        swx_jsonw_int(w, (int64_t)total);
        swx_jsonw_key(w, "already_present");
        swx_jsonw_int(w, (int64_t)present);
        swx_jsonw_key(w, "stored");
        swx_jsonw_int(w, (int64_t)fetched);
        swx_jsonw_key(w, "failed");
        swx_jsonw_int(w, (int64_t)failed);
        swx_jsonw_key(w, "requests");
        swx_jsonw_int(w, st->requests);
        swx_jsonw_key(w, "retries");
        swx_jsonw_int(w, st->retries);
        swx_jsonw_key(w, "bytes_received");
        swx_jsonw_number(w, st->bytes, 0);
        swx_jsonw_key(w, "seconds");
        swx_jsonw_number(w, seconds, 3);
        swx_jsonw_key(w, "tiles_per_second");
        swx_jsonw_number(w, seconds > 0 ? (double)fetched / seconds : 0, 1);
        swx_jsonw_key(w, "interrupted");
        swx_jsonw_bool(w, interrupted);
        swx_jsonw_key(w, "exit_code");
        swx_jsonw_int(w, exit_code);
        swx_jsonw_key(w, "error");
        swx_jsonw_string(w, error && error[0] ? error : NULL);
        swx_jsonw_key(w, "files");
        swx_jsonw_array_begin(w);
        for (size_t i = 0; i < nfiles; i++) {
            swx_jsonw_object_begin(w);
            swx_jsonw_key(w, "path");
            swx_jsonw_string(w, files[i].path);
            swx_jsonw_key(w, "time");
            swx_jsonw_string(w, files[i].time_s[0] ? files[i].time_s : NULL);
            swx_jsonw_key(w, "tiles");
            swx_jsonw_int(w, (int64_t)files[i].tiles);
            swx_jsonw_key(w, "already_present");
            swx_jsonw_int(w, (int64_t)files[i].present);
            swx_jsonw_key(w, "stored");
            swx_jsonw_int(w, (int64_t)files[i].stored);
            swx_jsonw_key(w, "empty");
            swx_jsonw_int(w, (int64_t)files[i].empty);
            swx_jsonw_key(w, "failed");
            swx_jsonw_int(w, (int64_t)files[i].failed);
            swx_jsonw_key(w, "images");
            swx_jsonw_int(w, files[i].images);
            swx_jsonw_key(w, "complete");
            swx_jsonw_bool(w, files[i].done);
            swx_jsonw_object_end(w);
        }
        swx_jsonw_array_end(w);
        swx_jsonw_object_end(w);
        bad = swx_jsonw_finish(w) != 0;
    }
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
        cli_error("cannot write the summary %s: %s", path, strerror(errno ? errno : EIO));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Finds the layer: by name, or by variable and run. */
static int find_layer(const swx_caps *caps, const char *name, const char *var, const char *run,
                      const swx_layer **out)
{
    *out = NULL;
    if (name) {
        *out = swx_caps_find(caps, name);
        if (!*out)
            return swx_error_set(SWX_ENOTFOUND,
                                 "no layer '%s' in this bundle; 'seawx layers --bundle ...' lists "
                                 "them",
                                 name);
        return 0;
    }
    char v[256];
    snprintf(v, sizeof v, "%s", var);
    char *colon = strchr(v, ':');
    const char *unit = NULL;
    if (colon) {
        *colon = '\0';
        unit = colon + 1;
    }
    if (!run || strcmp(run, "latest") == 0)
        return swx_caps_latest(caps, v, unit, out);
    size_t n = swx_caps_runs(caps, v, unit, NULL, 0);
    const swx_layer **all = calloc(n ? n : 1, sizeof *all);
    if (!all)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    swx_caps_runs(caps, v, unit, all, n);
    for (size_t i = 0; i < n && !*out; i++) {
        const char *d = swx_layer_run_date(all[i]), *h = swx_layer_run_hour(all[i]);
        if (d && h && strlen(run) == 10 && strncmp(run, d, 8) == 0 && strcmp(run + 8, h) == 0)
            *out = all[i];
    }
    free(all);
    if (!*out)
        return swx_error_set(SWX_ENOTFOUND,
                             "variable '%s' has no run %s%s; 'seawx layers --variable %s' lists "
                             "its runs",
                             var, run, n ? "" : " (nor any run at all)", var);
    return 0;
}

static void say_time_range(const swx_timedim *td, char *out, size_t n)
{
    char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
    swx_iso8601_format(swx_timedim_first(td), a);
    swx_iso8601_format(swx_timedim_last(td), b);
    snprintf(out, n, "%zu times from %s to %s", swx_timedim_count(td), a, b);
}

/* The instants to seed, sorted; *n of them in a new array. */
static int resolve_times(const swx_layer *l, const char *arg, int64_t **out, size_t *n)
{
    const swx_timedim *td = swx_layer_time(l);
    *out = NULL;
    *n = 0;
    if (!td) {
        if (arg)
            return swx_error_set(SWX_ENOTFOUND, "layer %s has no time dimension; leave --time out",
                                 swx_layer_name(l));
        return 0;
    }
    char range[160];
    say_time_range(td, range, sizeof range);
    if (!arg) {
        *out = malloc(sizeof **out);
        if (!*out)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        (*out)[0] = swx_timedim_default(td);
        *n = 1;
        return 0;
    }
    if (strcmp(arg, "all") == 0) {
        size_t c = swx_timedim_count(td);
        if (c > 100000)
            return swx_error_set(SWX_ETOOBIG, "layer %s has %zu times; choose some with --time",
                                 swx_layer_name(l), c);
        *out = malloc((c ? c : 1) * sizeof **out);
        if (!*out)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        for (size_t i = 0; i < c; i++)
            (*out)[i] = swx_timedim_get(td, i);
        *n = c;
        return 0;
    }
    swx_timedim *want = NULL;
    int rc = swx_timedim_parse(&want, arg, strlen(arg), NULL);
    if (rc)
        return swx_error_prefix(SWX_EINVAL, "--time");
    size_t c = swx_timedim_count(want);
    if (c > 100000) {
        swx_timedim_free(want);
        return swx_error_set(SWX_ETOOBIG, "--time lists %zu times; at most 100000", c);
    }
    *out = malloc((c ? c : 1) * sizeof **out);
    if (!*out) {
        swx_timedim_free(want);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < c; i++) {
        int64_t t = swx_timedim_get(want, i);
        if (!swx_timedim_contains(td, t)) {
            char ts[SWX_ISO8601_LEN];
            swx_iso8601_format(t, ts);
            swx_timedim_free(want);
            free(*out);
            *out = NULL;
            return swx_error_set(SWX_ENOTFOUND, "layer %s has no time %s; it has %s",
                                 swx_layer_name(l), ts, range);
        }
        (*out)[i] = t;
    }
    *n = c;
    swx_timedim_free(want);
    return 0;
}

int cmd_seed(const cli_cmd *cmd, int argc, char **argv)
{
    cli_args a;
    swx_client *client = NULL;
    swx_caps *caps = NULL;
    swx_area *area = NULL;
    int64_t *times = NULL;
    size_t ntimes = 0;
    file_result *files = NULL;
    size_t nfiles = 0;
    char *text = NULL;
    int exit_code = EXIT_OK, rc;
    int interrupted = 0;
    char error_line[1024] = "";
    swx_fetch_stats stats = {0};
    double t_start = now_s();
    seed s = {0};
    struct sigaction sa_old_int, sa_old_term;
    int signals_set = 0;

    int pr = cli_parse(cmd, argc, argv, &a);
    if (pr)
        return pr > 0 ? EXIT_OK : EXIT_USAGE;
    if (a.npositional) {
        cli_error("unexpected argument '%s' (see 'seawx seed --help')", a.positional[0]);
        return EXIT_USAGE;
    }
    s.quiet = cli_has(&a, "quiet");
    cli_set_quiet(s.quiet);

    /* ---- everything typed is checked before any request ---- */
    const char *bundle = cli_get(&a, "bundle");
    const char *layer_name = cli_get(&a, "layer"), *var = cli_get(&a, "variable");
    const char *run = cli_get(&a, "run"), *time_arg = cli_get(&a, "time");
    const char *tpl = cli_get(&a, "output");
    int dry = cli_has(&a, "dry-run");
    if (!bundle) {
        cli_error("--bundle is required (see 'seawx seed --help')");
        return EXIT_USAGE;
    }
    if (swx_wms_bundle_check(bundle))
        return cli_fail(SWX_EINVAL);
    if (!!layer_name == !!var) {
        cli_error("give either --layer NAME or --variable VAR");
        return EXIT_USAGE;
    }
    if (layer_name && run) {
        cli_error("--run goes with --variable; a --layer name already names its run");
        return EXIT_USAGE;
    }
    if (run && strcmp(run, "latest") != 0) {
        int ok = strlen(run) == 10;
        for (int i = 0; ok && i < 10; i++)
            ok = run[i] >= '0' && run[i] <= '9';
        if (!ok) {
            cli_error("--run must be 'latest' or YYYYMMDDHH, not '%s'", run);
            return EXIT_USAGE;
        }
    }
    if (time_arg && strcmp(time_arg, "all") != 0) {
        swx_timedim *td = NULL;
        if (swx_timedim_parse(&td, time_arg, strlen(time_arg), NULL)) {
            swx_error_prefix(SWX_EINVAL, "--time");
            return cli_fail(SWX_EINVAL);
        }
        swx_timedim_free(td);
    }
    int nwhere = cli_has(&a, "bbox") + cli_has(&a, "area") + cli_has(&a, "route");
    if (nwhere != 1) {
        cli_error("give exactly one of --bbox, --area or --route");
        return EXIT_USAGE;
    }
    if (cli_has(&a, "buffer") && !cli_has(&a, "route")) {
        cli_error("--buffer goes with --route");
        return EXIT_USAGE;
    }
    if (!cli_get(&a, "zoom")) {
        cli_error("--zoom is required: a level, a range or a list (5, 3-9, 3,5,7)");
        return EXIT_USAGE;
    }
    if (swx_zoom_list_parse(cli_get(&a, "zoom"), &s.zooms))
        return cli_fail(SWX_EINVAL);
    long tile_size, metatile, in_flight;
    if (cli_get_int(&a, "tile-size", 256, 256, 512, &tile_size) ||
        cli_get_int(&a, "metatile", SEED_DEFAULT_METATILE, 1, 8, &metatile) ||
        cli_get_int(&a, "in-flight", SEED_DEFAULT_IN_FLIGHT, 1, 256, &in_flight))
        return EXIT_USAGE;
    if (tile_size != 256 && tile_size != 512) {
        cli_error("--tile-size must be 256 or 512");
        return EXIT_USAGE;
    }
    if (metatile != 1 && metatile != 2 && metatile != 4 && metatile != 8) {
        cli_error("--metatile must be 1, 2, 4 or 8");
        return EXIT_USAGE;
    }
    if (metatile * tile_size > SEED_MAX_IMAGE) {
        cli_error("--metatile %ld with --tile-size %ld asks for images wider than %d pixels",
                  metatile, tile_size, SEED_MAX_IMAGE);
        return EXIT_USAGE;
    }
    double rate = 0, buffer_nm = SEED_DEFAULT_BUFFER_NM;
    if (cli_get(&a, "rate") && parse_double(cli_get(&a, "rate"), "rate", 0.01, 100000, &rate))
        return cli_fail(SWX_EINVAL);
    if (cli_get(&a, "buffer") && parse_double(cli_get(&a, "buffer"), "buffer", 0, 2000, &buffer_nm))
        return cli_fail(SWX_EINVAL);
    if (!tpl)
        tpl = "{variable}-{time}.mbtiles";
    {
        char probe[4096];
        if (expand_name(tpl, bundle, "layer", "var", "2024010100", "20240101T000000Z", probe,
                        sizeof probe))
            return cli_fail(SWX_EINVAL);
        if (!dry && (rc = check_output_dir(probe)))
            return cli_fail(rc);
        const char *summary = cli_get(&a, "summary-json");
        if (!dry && summary && (rc = check_output_dir(summary)))
            return cli_fail(rc);
    }
    size_t tlen = 0;
    if (cli_has(&a, "bbox")) {
        rc = swx_area_from_bbox_text(&area, cli_get(&a, "bbox"));
    } else {
        const char *file = cli_get(&a, cli_has(&a, "area") ? "area" : "route");
        rc = read_file(file, &text, &tlen);
        if (!rc)
            rc = cli_has(&a, "area") ? swx_area_from_geojson_polygons(&area, text, tlen)
                                     : swx_area_from_route(&area, text, tlen, buffer_nm * SWX_NM_M);
        if (rc)
            swx_error_prefix(rc, "%s", file);
    }
    free(text);
    text = NULL;
    if (rc)
        return cli_fail(rc);

    /* ---- the layer, its times and style, from the capabilities ---- */
    if ((exit_code = cli_client(&a, &client)))
        goto done;
    if ((rc = swx_wms_get_caps(client, bundle, &caps))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    const swx_layer *layer = NULL;
    if ((rc = find_layer(caps, layer_name, var, run, &layer)) ||
        (rc = resolve_times(layer, time_arg, &times, &ntimes))) {
        exit_code = cli_fail(rc);
        goto done;
    }
    const char *style = cli_get(&a, "style");
    if (style) {
        int found = 0;
        for (size_t i = 0; i < swx_layer_style_count(layer) && !found; i++)
            found = strcmp(swx_layer_style(layer, i)->name, style) == 0;
        if (!found) {
            char list[600] = "";
            size_t at = 0;
            for (size_t i = 0; i < swx_layer_style_count(layer) && at < sizeof list; i++)
                at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "",
                                       swx_layer_style(layer, i)->name);
            cli_error("layer %s has no style '%s'; its styles: %s", swx_layer_name(layer), style,
                      list[0] ? list : "(none)");
            exit_code = EXIT_NOTFOUND;
            goto done;
        }
    }
    int warp = 0;
    if (!swx_layer_has_crs(layer, "EPSG:3857")) {
        if (!swx_layer_has_crs(layer, "EPSG:4326") && !swx_layer_has_crs(layer, "CRS:84")) {
            cli_error("layer %s offers neither EPSG:3857 nor EPSG:4326", swx_layer_name(layer));
            exit_code = EXIT_SERVICE;
            goto done;
        }
        warp = 1;
    }
    size_t nt = ntimes ? ntimes : 1;
    if (nt > 1 && !strstr(tpl, "{time}")) {
        cli_error("%zu times go to %zu files: put {time} in the --output name", nt, nt);
        exit_code = EXIT_USAGE;
        goto done;
    }

    /* ---- the tiles ---- */
    uint64_t per_zoom[SWX_TILE_MAX_ZOOM + 1] = {0}, per_time = 0;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
        if (s.zooms & (1u << z)) {
            if ((rc = swx_area_count(area, z, &per_zoom[z]))) {
                exit_code = cli_fail(rc);
                goto done;
            }
            per_time += per_zoom[z];
        }
    if (dry) {
        /* Requests per zoom: blocks with tiles of the area. */
        printf("layer %s, %zu time%s, tiles of %ld px, metatile %ld%s\n", swx_layer_name(layer),
               nt, nt == 1 ? "" : "s", tile_size, metatile, warp ? ", warped from EPSG:4326" : "");
        printf("%5s %12s %12s\n", "zoom", "tiles", "requests");
        uint64_t reqs = 0;
        for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
            if (!(s.zooms & (1u << z)))
                continue;
            swx_tile_iter *it = NULL;
            swx_tile_block b;
            uint64_t r = 0;
            if ((rc = swx_tile_iter_new(&it, area, z, (int)metatile))) {
                exit_code = cli_fail(rc);
                goto done;
            }
            while ((rc = swx_tile_iter_next(it, &b)) == 1)
                r++;
            swx_tile_iter_free(it);
            if (rc < 0) {
                exit_code = cli_fail(rc);
                goto done;
            }
            reqs += r;
            printf("%5d %12llu %12llu\n", z, (unsigned long long)per_zoom[z],
                   (unsigned long long)r);
        }
        /* About 12 KB per 256 px tile of a smooth field (measured on seawx-sim), x4 at 512. */
        double est = (double)per_time * nt * (tile_size == 512 ? 48.0 : 12.0) / 1024.0;
        printf("%5s %12llu %12llu\n", "all", (unsigned long long)(per_time * nt),
               (unsigned long long)(reqs * nt));
        printf("estimated size: %.1f MiB in %zu file%s (at most; identical tiles are stored once)\n",
               est, nt, nt == 1 ? "" : "s");
        if (fflush(stdout) != 0)
            exit_code = EXIT_IO;
        goto done;
    }

    files = calloc(nt, sizeof *files);
    if (!files) {
        exit_code = cli_fail(swx_error_set(SWX_ENOMEM, "out of memory"));
        goto done;
    }
    /* Every output name is known and checked before the first GetMap. */
    char run_s[16] = "";
    {
        const char *d = swx_layer_run_date(layer), *h = swx_layer_run_hour(layer);
        if (d && h)
            snprintf(run_s, sizeof run_s, "%s%s", d, h);
    }
    for (size_t i = 0; i < nt; i++) {
        char tc[32] = "notime";
        if (ntimes) {
            compact_time(times[i], tc, sizeof tc);
            swx_iso8601_format(times[i], files[i].time_s);
        }
        if ((rc = expand_name(tpl, bundle, swx_layer_name(layer), swx_layer_variable(layer),
                              run_s[0] ? run_s : NULL, tc, files[i].path, sizeof files[i].path)) ||
            (rc = check_output_dir(files[i].path))) {
            exit_code = cli_fail(rc);
            goto done;
        }
        for (size_t k = 0; k < i; k++)
            if (strcmp(files[k].path, files[i].path) == 0) {
                cli_error("two times would go to the same file %s: put {time} in --output",
                          files[i].path);
                exit_code = EXIT_USAGE;
                goto done;
            }
    }
    nfiles = nt;

    /* The canonical fully transparent tile. */
    {
        size_t px = (size_t)tile_size * (size_t)tile_size * 4;
        uint8_t *clear = calloc(1, px);
        if (!clear || (rc = swx_png_encode_rgba(clear, (int)tile_size, (int)tile_size,
                                                (size_t)tile_size * 4, 9, &s.empty_png,
                                                &s.empty_len))) {
            free(clear);
            exit_code = cli_fail(clear ? rc : swx_error_set(SWX_ENOMEM, "out of memory"));
            goto done;
        }
        free(clear);
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &sa_old_int);
    sigaction(SIGTERM, &sa, &sa_old_term);
    signals_set = 1;
    stop_soft = stop_hard = 0;

    s.client = client;
    s.bundle = bundle;
    s.layer = swx_layer_name(layer);
    s.style = style;
    s.area = area;
    s.tile_size = (int)tile_size;
    s.metatile = (int)metatile;
    s.warp = warp;
    s.skip_empty = cli_has(&a, "skip-empty");
    s.tty = isatty(STDERR_FILENO);
    s.checkers = pool_start();
    s.t0 = now_s();
    s.last_progress = s.t0;
    s.total = per_time * nt;
    double w, so, e, n;
    swx_area_bounds(area, &w, &so, &e, &n);
    if (w > e) { /* MBTiles bounds cannot cross 180 */
        w = -180;
        e = 180;
    }
    int minz = -1, maxz = 0;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
        if (s.zooms & (1u << z)) {
            if (minz < 0)
                minz = z;
            maxz = z;
        }

    for (size_t fi = 0; fi < nfiles && !stop_soft && !s.stop_rc; fi++) {
        file_result *fr = &files[fi];
        char bounds[128], center[128], minzs[16], maxzs[16], desc[512], name[300];
        snprintf(bounds, sizeof bounds, "%.6f,%.6f,%.6f,%.6f", w, so, e, n);
        double clon = (w + e) / 2, clat = (so + n) / 2;
        snprintf(center, sizeof center, "%.6f,%.6f,%d", clon, clat, minz);
        snprintf(minzs, sizeof minzs, "%d", minz);
        snprintf(maxzs, sizeof maxzs, "%d", maxz);
        const char *title = swx_layer_title(layer);
        snprintf(name, sizeof name, "%s %s", swx_layer_variable(layer),
                 fr->time_s[0] ? fr->time_s : "");
        snprintf(desc, sizeof desc, "%s, run %s, valid %s, bundle %s%s%s",
                 title ? title : swx_layer_variable(layer), run_s[0] ? run_s : "unknown",
                 fr->time_s[0] ? fr->time_s : "(no time)", bundle, style ? ", style " : "",
                 style ? style : "");
        char tsz[16];
        snprintf(tsz, sizeof tsz, "%ld", tile_size);
        swx_mbtiles_kv meta[] = {
            {"name", name},
            {"format", "png"},
            {"bounds", bounds},
            {"center", center},
            {"minzoom", minzs},
            {"maxzoom", maxzs},
            {"type", "overlay"},
            {"version", "1"},
            {"description", desc},
            {"attribution", "Weather, Ocean and Vessel Data Service"},
            {"layer", swx_layer_name(layer)},
            {"bundle", bundle},
            {"run", run_s[0] ? run_s : NULL},
            {"time", fr->time_s[0] ? fr->time_s : NULL},
            {"style", style},
            {"tile_size", tsz},
        };
        static const char *const identity[] = {"layer", "time", "style", "tile_size", NULL};
        int created = 0;
        rc = swx_mbtiles_open(&s.mb, fr->path, meta, sizeof meta / sizeof meta[0], identity, 0,
                              &created);
        if (rc) {
            exit_code = cli_fail(rc);
            break;
        }
        s.path = fr->path;
        s.has_time = fr->time_s[0] != 0;
        snprintf(s.time_s, sizeof s.time_s, "%s", fr->time_s);
        s.zoom = -1;
        s.stop_rc = 0;
        s.label = fr->path; /* read by the final progress line too, after this loop */
        uint64_t done0 = s.done, present0 = s.present, stored0 = s.stored, failed0 = s.failed,
                 empty0 = s.empty;
        swx_fetch_opts fo = {(int)in_flight, rate, &stop_hard};
        do {
            /* Answers found unusable after the last request went out are asked
             * again in another round. */
            swx_fetch_stats st = {0};
            rc = swx_fetch_run(client, &fo, produce, fetched, &s, &st);
            int frc = pool_finish(&s);
            if (!rc)
                rc = frc;
            stats.requests += st.requests;
            stats.retries += st.retries;
            stats.completed += st.completed;
            stats.failed += st.failed;
            stats.bytes += st.bytes;
        } while (!rc && s.retry && !stop_soft && !s.stop_rc);
        swx_tile_iter_free(s.it);
        s.it = NULL;
        while (s.retry) {
            job *j = s.retry;
            s.retry = j->next;
            swx_query_free(j->q);
            free(j);
        }
        while (s.live)
            job_free(&s, s.live);
        if (rc && !s.stop_rc && rc != SWX_ECANCEL) {
            s.stop_rc = rc;
            snprintf(s.stop_line, sizeof s.stop_line, "%s", swx_error_last());
        }
        fr->tiles = per_time;
        fr->present = s.present - present0;
        fr->stored = s.stored - stored0;
        fr->failed = s.failed - failed0;
        fr->empty = s.empty - empty0;
        (void)done0;
        int64_t tiles_in = 0;
        int crc = swx_mbtiles_counts(s.mb, &tiles_in, &fr->images);
        int close_rc = swx_mbtiles_close(s.mb, 1);
        s.mb = NULL;
        if (crc || close_rc) {
            exit_code = cli_fail(crc ? crc : close_rc);
            break;
        }
        fr->done = !stop_soft && !s.stop_rc && fr->failed == 0 &&
                   (uint64_t)tiles_in + (s.skip_empty ? fr->empty : 0) >= per_time;
        if (created && tiles_in == 0 && (s.stop_rc || stop_soft))
            unlink(fr->path); /* nothing stored: leave nothing behind */
    }
    progress(&s, 1);
    end_progress_line(&s);
    if (s.stop_rc) {
        cli_error("%s", s.stop_line);
        snprintf(error_line, sizeof error_line, "%s", s.stop_line);
        if (exit_code == EXIT_OK)
            exit_code = cli_exit_code(s.stop_rc);
    } else if (stop_soft) {
        interrupted = 1;
        snprintf(error_line, sizeof error_line,
                 "interrupted: %llu of %llu tiles done; run the same command again to fetch the "
                 "rest",
                 (unsigned long long)s.done, (unsigned long long)s.total);
        cli_error("%s", error_line);
        if (exit_code == EXIT_OK)
            exit_code = EXIT_INTERRUPTED;
    } else if (s.failed && exit_code == EXIT_OK) {
        snprintf(error_line, sizeof error_line,
                 "%llu of %llu tiles failed and were not stored; run the same command again to "
                 "retry them",
                 (unsigned long long)s.failed, (unsigned long long)s.total);
        cli_error("%s", error_line);
        exit_code = EXIT_PARTIAL;
    } else if (exit_code == EXIT_OK) {
        double el = now_s() - s.t0;
        cli_info("%llu tiles in %zu file%s (%llu fetched, %llu already there, %llu empty) in "
                 "%.1f s, %llu requests",
                 (unsigned long long)s.total, nfiles, nfiles == 1 ? "" : "s",
                 (unsigned long long)s.stored, (unsigned long long)s.present,
                 (unsigned long long)s.empty, el, (unsigned long long)stats.requests);
    }

done:
    pool_stop(s.checkers);
    if (signals_set) {
        sigaction(SIGINT, &sa_old_int, NULL);
        sigaction(SIGTERM, &sa_old_term, NULL);
    }
    if (cli_get(&a, "summary-json") && !dry &&
        write_summary(cli_get(&a, "summary-json"), bundle, s.layer, files, nfiles, s.total, &stats,
                      now_s() - t_start, exit_code, interrupted, error_line) &&
        exit_code == EXIT_OK)
        exit_code = EXIT_IO;
    free(s.empty_png);
    free(files);
    free(times);
    swx_area_free(area);
    swx_caps_free(caps);
    swx_client_free(client);
    return exit_code;
}
