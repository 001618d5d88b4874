/* fleet_build.c: building a fleet (seawx/fleet.h): every ship's package
 * planned before any GetMap, the ships dealt to shards, and their packages
 * built one after another, earliest departure first, through one share of
 * the service's answers, which is removed once every package is complete. */
#define _GNU_SOURCE
#include "seawx/fleet.h"

#include "seawx/diskcache.h"
#include "seawx/error.h"
#include "seawx/lockfile.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FLEET_PATH_MAX 4200

struct swx_fleet_plan {
    const swx_fleet *fleet;
    size_t n;
    int shards;
    char dir[4096];
    swx_package **pkgs;
    char (*paths)[FLEET_PATH_MAX]; /* the packages' paths, borrowed by them */
    int *shard_of;
    int64_t *depart;
};

int swx_fleet_check_folder(const swx_fleet *f, const char *dir)
{
    struct stat st;
    char path[FLEET_PATH_MAX];
    if (!dir || stat(dir, &st) != 0)
        return 0;
    for (size_t i = 0; i < swx_fleet_ship_count(f); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, swx_fleet_ship_at(f, i)->name);
        int rc = swx_package_path_check(path);
        if (rc < 0)
            return swx_error_prefix(rc, "ship %zu (%s)", i + 1, swx_fleet_ship_at(f, i)->name);
    }
    return 0;
}

void swx_fleet_plan_free(swx_fleet_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; p->pkgs && i < p->n; i++)
        swx_package_free(p->pkgs[i]);
    free(p->pkgs);
    free(p->paths);
    free(p->shard_of);
    free(p->depart);
    free(p);
}

int swx_fleet_plan_new(swx_fleet_plan **out, const swx_fleet *f, const swx_caps *caps,
                       const swx_fleet_plan_opts *o)
{
    swx_fleet_plan *p = NULL;
    int rc = 0;
    *out = NULL;
    size_t n = swx_fleet_ship_count(f);
    if (o->dir && strlen(o->dir) + SWX_FLEET_NAME_MAX + 32 >= sizeof p->dir)
        return swx_error_set(SWX_EINVAL, "the fleet's folder is too long");
    if (!(p = calloc(1, sizeof *p)) || !(p->pkgs = calloc(n, sizeof *p->pkgs)) ||
        !(p->paths = calloc(n, sizeof *p->paths)) ||
        !(p->shard_of = calloc(n, sizeof *p->shard_of)) ||
        !(p->depart = calloc(n, sizeof *p->depart))) {
        swx_fleet_plan_free(p);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    p->fleet = f;
    p->n = n;
    p->shards = o->shards;
    snprintf(p->dir, sizeof p->dir, "%s", o->dir && o->dir[0] ? o->dir : ".");
    for (size_t i = 0; i < n; i++) {
        const swx_fleet_ship *s = swx_fleet_ship_at(f, i);
        snprintf(p->paths[i], sizeof p->paths[i], "%s/%s", p->dir, s->name);
        swx_package_opts po = {
            .bundle = swx_fleet_bundle(f),
            .run = swx_fleet_run(f),
            .path = p->paths[i],
            .voyage = s->voyage,
            .buffer_m = s->buffer_m,
            .layers = s->layers,
            .nlayers = s->nlayers,
            .tile_size = swx_fleet_tile_size(f),
            .budget = s->budget,
            .now = o->now,
            .gshhg = o->gshhg,
        };
        if ((rc = swx_package_new(&p->pkgs[i], caps, &po))) {
            swx_error_prefix(rc, "ship %zu (%s)%s", i + 1, s->name,
                             rc == SWX_EINVAL && s->budget ? ": budget" : "");
            goto done;
        }
        if (o->grib && (rc = swx_package_set_grib(p->pkgs[i], o->grib))) {
            swx_error_prefix(rc, "ship %zu (%s): GRIB", i + 1, s->name);
            goto done;
        }
        double arr;
        swx_voyage_span(&p->depart[i], &arr, s->voyage);
    }
    if (o->shards && (rc = swx_fleet_deal(p->shard_of, p->pkgs, n, o->shards)))
        goto done;
done:
    if (rc) {
        swx_fleet_plan_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

const swx_package *swx_fleet_plan_package(const swx_fleet_plan *p, size_t i)
{
    return p->pkgs[i];
}

int swx_fleet_plan_shard(const swx_fleet_plan *p, size_t i)
{
    return p->shard_of[i];
}

/* ---- the build ---- */

/* Ships in the order they are built: earliest departure first, then as in
 * the file. */
typedef struct order {
    size_t i;
    int64_t depart;
} order;

static int order_cmp(const void *a, const void *b)
{
    const order *x = a, *y = b;
    if (x->depart != y->depart)
        return x->depart < y->depart ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* The ship under way, for the package's callbacks. */
typedef struct ship_ud {
    const swx_fleet_build_opts *o;
    swx_fleet_progress at;
} ship_ud;

static int ship_stop(void *ud)
{
    ship_ud *s = ud;
    return s->o->stop ? s->o->stop(s->o->ud) : 0;
}

static void ship_progress(void *ud, const swx_package_progress *pr)
{
    ship_ud *s = ud;
    s->at.package = pr;
    if (s->o->progress)
        s->o->progress(s->o->ud, &s->at);
    s->at.package = NULL;
}

static void ship_failed(void *ud, int z, uint32_t x, uint32_t y, int n, const char *why)
{
    ship_ud *s = ud;
    if (s->o->failed)
        s->o->failed(s->o->ud, &s->at, z, x, y, n, why);
}

/* The key, the configuration or the service: every other ship would fail
 * the same way. */
static int fails_every_ship(int rc)
{
    return rc == SWX_EAUTH || rc == SWX_EFORBIDDEN || rc == SWX_ECONFIG || rc == SWX_ENET ||
           rc == SWX_EHTTP || rc == SWX_ERATE;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(p);
    return 0;
}

/* Builds ship i's package; 1 when the fleet stops here. */
static int build_ship(int *first_rc, swx_fleet_result *res, swx_fleet_plan *p, size_t i,
                      swx_client *c, swx_diskcache *share, const swx_fleet_build_opts *o)
{
    const swx_fleet_ship *s = swx_fleet_ship_at(p->fleet, i);
    ship_ud ud = {o, {res->built + res->failed_ships + 1, res->ships, s->name, NULL}};
    swx_package_run_opts ro = {.in_flight = o->in_flight,
                               .stop = ship_stop,
                               .cancel = o->cancel,
                               .progress = ship_progress,
                               .failed = ship_failed,
                               .ud = &ud,
                               .share = share};
    swx_fleet_ship_result r = {.index = i, .ship = s->name, .k = ud.at.k, .n = ud.at.n};
    r.rc = swx_package_build(&r.res, p->pkgs[i], c, &ro);
    res->requests += r.res.requests;
    res->shared += r.res.shared;
    int stopped = r.rc == SWX_ECANCEL || r.res.interrupted;
    if (r.rc && !stopped)
        swx_error_prefix(r.rc, "ship %zu (%s)", i + 1, s->name);
    if (o->ship_done)
        o->ship_done(o->ud, &r);
    if (stopped) {
        res->interrupted = 1;
        return 1;
    }
    if (r.rc) {
        if (!*first_rc)
            *first_rc = r.rc;
        res->failed_ships++;
        return fails_every_ship(r.rc);
    }
    res->partial += r.res.failed;
    res->files += r.res.files;
    res->tiles += r.res.tiles;
    res->built++;
    return 0;
}

int swx_fleet_build(swx_fleet_result *res, swx_fleet_plan *p, swx_client *c,
                    const swx_fleet_build_opts *o)
{
    swx_diskcache *share = NULL;
    order *ord = NULL;
    swx_lockfile lock = SWX_LOCKFILE_INIT;
    int rc = 0, first_rc = 0;
    memset(res, 0, sizeof *res);
    /* Two fleets on one folder would build the same ships at once: the
     * second is refused before it makes or touches anything in it. */
    if ((rc = swx_lockfile_take(&lock, p->dir, p->dir)))
        return rc;
    if (mkdir(p->dir, 0777) != 0 && errno != EEXIST) {
        rc = swx_error_set(SWX_EIO, "cannot create %s: %s", p->dir, strerror(errno));
        goto done;
    }
    if (p->shards)
        snprintf(res->share_dir, sizeof res->share_dir, "%s/.fleet-share.%d-of-%d", p->dir,
                 o->shard, p->shards);
    else
        snprintf(res->share_dir, sizeof res->share_dir, "%s/.fleet-share", p->dir);
    if ((rc = swx_diskcache_open(&share, res->share_dir, o->share_max)))
        goto done;
    if (!(ord = calloc(p->n ? p->n : 1, sizeof *ord))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < p->n; i++)
        ord[i] = (order){i, p->depart[i]};
    qsort(ord, p->n, sizeof *ord, order_cmp);
    for (size_t k = 0; k < p->n; k++)
        res->ships += !p->shards || p->shard_of[ord[k].i] == o->shard;
    for (size_t k = 0; k < p->n; k++) {
        size_t i = ord[k].i;
        if (p->shards && p->shard_of[i] != o->shard)
            continue;
        if (build_ship(&first_rc, res, p, i, c, share, o))
            break;
    }
    if (res->interrupted)
        rc = swx_error_set(SWX_ECANCEL, "interrupted: %zu of %zu ships built", res->built,
                           res->ships);
    else
        rc = first_rc;
    /* Every package complete: the shared answers have served. */
    if (!rc && !res->partial) {
        swx_diskcache_free(share);
        share = NULL;
        nftw(res->share_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
done:
    swx_diskcache_free(share);
    free(ord);
    swx_lockfile_release(&lock);
    return rc;
}
