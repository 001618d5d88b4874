/* package_build.c: building a voyage package: the steps in the order the
 * ship needs them, under a budget, into a version folder swapped in
 * atomically; a build stopped or failed keeps what it fetched for the next. */
#define _GNU_SOURCE
#include "package_priv.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "seawx/lockfile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct unit {
    int64_t t;
    int z;
    size_t layer, file;
} unit;

static int unit_cmp(const void *a, const void *b)
{
    const unit *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->z != y->z)
        return x->z < y->z ? -1 : 1;
    if (x->layer != y->layer)
        return x->layer < y->layer ? -1 : 1;
    return 0;
}

typedef struct build_ctx {
    swx_package *p;
    const swx_package_run_opts *o;
    swx_package_progress pr;
    uint64_t base_done; /* present tiles of copied files, settled before */
} build_ctx;

typedef struct layer_ud {
    build_ctx *b;
    size_t layer;
} layer_ud;

static void report(build_ctx *b)
{
    if (!b->o->progress)
        return;
    uint64_t done = 0, fetched = 0, req = 0;
    for (size_t i = 0; i < b->p->n; i++) {
        done += b->p->layers[i].c.done;
        fetched += b->p->layers[i].c.stored;
        req += b->p->layers[i].c.requests;
    }
    b->pr.done = done;
    b->pr.fetched = fetched;
    b->pr.requests = req;
    b->o->progress(b->o->ud, &b->pr);
}

static void on_progress(void *ud, const swx_seed_counts *c)
{
    layer_ud *u = ud;
    u->b->p->layers[u->layer].c = *c;
    report(u->b);
}

static void on_failed(void *ud, int z, uint32_t x, uint32_t y, int n, const char *why)
{
    layer_ud *u = ud;
    if (u->b->o->failed)
        u->b->o->failed(u->b->o->ud, z, x, y, n, why);
}

static int on_stop(void *ud)
{
    layer_ud *u = ud;
    return u->b->o->stop ? u->b->o->stop(u->b->o->ud) : 0;
}

/* The storms, fetched anew and written before any tile: a ship needs them
 * more than the last valid time. A budget that cannot hold them with the
 * route is refused before any GetMap. */
static int build_storms(swx_package_result *res, swx_package *p, swx_client *c, const char *part)
{
    if (!p->storms)
        return 0;
    int rc = swx_pkg_storms_write(p->storms, c, p->o.voyage, part);
    if (rc)
        return rc;
    res->storms = swx_pkg_storms_count(p->storms);
    res->storm_bytes = swx_pkg_storms_bytes(p->storms);
    double need =
        EXTRA_FIXED + p->route_bytes + (double)res->storm_bytes + swx_pkg_storms_extra(p->storms);
    if (p->o.budget && need > (double)p->o.budget)
        return swx_error_set(SWX_EINVAL,
                             "a budget of %llu bytes cannot hold the storms (%llu bytes in %zu "
                             "files) with the route, manifest and project",
                             (unsigned long long)p->o.budget, (unsigned long long)res->storm_bytes,
                             swx_pkg_storms_files(p->storms));
    return 0;
}

/* The voyage GRIB, made next: the routing software's data before the maps. */
static int build_grib(swx_package_result *res, swx_package *p, swx_client *c, const char *part,
                      const swx_package_run_opts *o)
{
    if (!p->grib)
        return 0;
    int rc = swx_pkg_grib_write(p, c, part, o ? o->cancel : NULL);
    if (rc)
        return rc;
    res->grib_bytes = swx_pkg_grib_bytes(p);
    double need = EXTRA_FIXED + p->route_bytes + (double)res->storm_bytes +
                  (double)res->grib_bytes + (p->storms ? swx_pkg_storms_extra(p->storms) : 0);
    if (p->o.budget && need > (double)p->o.budget)
        return swx_error_set(SWX_EINVAL,
                             "a budget of %llu bytes cannot hold the voyage GRIB (%llu bytes) with "
                             "the route, storms, manifest and project",
                             (unsigned long long)p->o.budget, (unsigned long long)res->grib_bytes);
    return 0;
}

/* The departure plan, made after the storms it sails through and the GRIB. */
static int build_plan(swx_package_result *res, swx_package *p, swx_client *c, const char *part,
                      const swx_package_run_opts *o)
{
    if (!p->planf)
        return 0;
    int rc = swx_pkg_plan_write(p, c, part, o ? o->cancel : NULL);
    if (rc)
        return rc;
    res->plan_bytes = swx_pkg_plan_bytes(p);
    swx_pkg_plan_counts(p, res->plan_count);
    double need = EXTRA_FIXED + p->route_bytes + (double)res->storm_bytes +
                  (double)res->grib_bytes + (double)res->plan_bytes +
                  (p->storms ? swx_pkg_storms_extra(p->storms) : 0);
    if (p->o.budget && need > (double)p->o.budget)
        return swx_error_set(SWX_EINVAL,
                             "a budget of %llu bytes cannot hold the departure plan (%llu bytes "
                             "in 3 files) with the route, storms, GRIB, manifest and project",
                             (unsigned long long)p->o.budget, (unsigned long long)res->plan_bytes);
    return 0;
}

/* The package's size: its files, and the room for route, manifest and project. */
static double package_bytes(const swx_package *p, size_t *nfiles)
{
    double b = EXTRA_FIXED + p->route_bytes;
    size_t n = 0;
    if (p->storms)
        b += (double)swx_pkg_storms_bytes(p->storms) + swx_pkg_storms_extra(p->storms);
    b += (double)swx_pkg_grib_bytes(p);
    b += (double)swx_pkg_plan_bytes(p);
    for (size_t i = 0; i < p->n; i++)
        for (size_t f = p->layers[i].first; f < p->layers[i].nfiles; f++)
            if (p->layers[i].files[f].present) {
                b += (double)p->layers[i].files[f].size + EXTRA_PER_FILE;
                n++;
            }
    if (nfiles)
        *nfiles = n;
    return b;
}

/* One build: its folders, its steps in order, where the budget cut it. */
typedef struct build_run {
    swx_package *p;
    const swx_package_run_opts *o;
    swx_package_result *res;
    build_ctx ctx;
    char dir[PATH_MAX], base[256], part[PATH_MAX], final_dir[PATH_MAX];
    long version;
    int made_part; /* part is this build's, removed unless kept */
    unit *units;
    size_t nunits, done_units;
    layer_ud *uds;
    const char *cut_layer;
    int64_t cut_time;
    int cut_zoom;
    swx_lockfile lock; /* one build of this package at a time */
} build_run;

/* How a step ends the loop of steps. */
enum { STEP_ON, STEP_END, STEP_FAIL };

/* The folder of this build (a new version beside the current one), with the
 * route, the unchanged files of the current version and the storms. */
static int open_folder(build_run *B, swx_client *c)
{
    swx_package *p = B->p;
    char old_target[PATH_MAX] = "", old_dir[PATH_MAX] = "", fp[PATH_MAX];
    int rc;
    if ((rc = swx_pkg_split_path(B->dir, sizeof B->dir, B->base, sizeof B->base, p->o.path)))
        return rc;
    /* Two builds of one package would share its .part folder and swap each
     * other's versions in: the second is refused before it touches either. */
    if ((rc = swx_lockfile_take(&B->lock, p->o.path, p->o.path)))
        return rc;
    int state = swx_package_path_check(p->o.path);
    if (state < 0)
        return state;
    B->version = 1;
    if (state == 1) {
        ssize_t tn = readlink(p->o.path, old_target, sizeof old_target - 1);
        if (tn > 0) {
            old_target[tn] = '\0';
            B->version = swx_pkg_version_of(old_target, B->base) + 1;
            swx_pkg_pathf(old_dir, sizeof old_dir, "%s/%s", B->dir, old_target);
        }
    }
    B->res->version = (int)B->version;
    swx_pkg_pathf(B->final_dir, sizeof B->final_dir, "%s/.%s.v%ld", B->dir, B->base, B->version);
    swx_pkg_pathf(B->part, sizeof B->part, "%s.part", B->final_dir);
    swx_pkg_rm_tree(B->final_dir);
    if ((rc = swx_pkg_resume_part(p, B->part)))
        return rc;
    B->made_part = 1;
    swx_pkg_pathf(fp, sizeof fp, "%s/route.geojson", B->part);
    if ((rc = swx_pkg_write_route(fp, p)))
        return rc;
    if ((rc = swx_pkg_coast_write(p, B->part)))
        return rc;
    p->route_bytes = (double)swx_pkg_file_size(fp) + (double)swx_pkg_coast_bytes(p);
    B->res->coast_bytes = swx_pkg_coast_bytes(p);
    snprintf(B->res->coast_note, sizeof B->res->coast_note, "%s", p->coast_note);
    if (old_dir[0] && (rc = swx_pkg_copy_unchanged(p, old_dir, B->part, &B->res->copied)))
        return rc;
    if ((rc = build_storms(B->res, p, c, B->part)))
        return rc;
    if ((rc = build_grib(B->res, p, c, B->part, B->o)))
        return rc;
    return build_plan(B->res, p, c, B->part, B->o);
}

/* The steps, in the order the ship needs them, and a seed per layer. */
static int plan_steps(build_run *B, swx_client *c)
{
    swx_package *p = B->p;
    const swx_package_run_opts *o = B->o;
    char fp[PATH_MAX];
    int rc;
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++)
        n += (p->layers[i].nfiles - p->layers[i].first) * (size_t)p->layers[i].nzooms;
    B->units = calloc(n ? n : 1, sizeof *B->units);
    B->uds = calloc(p->n, sizeof *B->uds);
    if (!B->units || !B->uds)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (size_t i = 0; i < p->n; i++) {
        pkg_layer *L = &p->layers[i];
        for (size_t f = L->first; f < L->nfiles; f++) {
            /* Without a budget nothing is cut: a file's zooms in one step. */
            for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
                if ((L->spec.zooms & (1u << z)) &&
                    (p->o.budget || z == swx_pkg_lowest_zoom(L->spec.zooms))) {
                    unit u = {swx_seed_plan_time(L->plan, f), p->o.budget ? z : -1, i, f};
                    B->units[B->nunits++] = u;
                }
            B->ctx.pr.total += swx_seed_plan_tiles(L->plan, f, -1);
            if (L->files[f].present) {
                swx_pkg_pathf(fp, sizeof fp, "%s/%s", B->part, L->files[f].name);
                L->files[f].size = swx_pkg_file_size(fp);
            }
        }
        B->uds[i].b = &B->ctx;
        B->uds[i].layer = i;
        swx_seed_run_opts ro = {.in_flight = o->in_flight,
                                .stop = on_stop,
                                .cancel = o->cancel,
                                .progress = on_progress,
                                .failed = on_failed,
                                .ud = &B->uds[i],
                                .share = o->share};
        swx_seed_free(L->seed);
        L->seed = NULL;
        memset(&L->c, 0, sizeof L->c);
        if ((rc = swx_seed_new(&L->seed, c, L->plan, &ro)))
            return rc;
    }
    qsort(B->units, B->nunits, sizeof *B->units, unit_cmp);
    return 0;
}

/* The budget was passed by step u: the step is taken back (the file as it
 * was before it, from bak, or none) and the build ends here. */
static int take_back(build_run *B, const unit *u, int backup, const char *fp, const char *bak,
                     int *end)
{
    pkg_layer *L = &B->p->layers[u->layer];
    pkg_file *pf = &L->files[u->file];
    if (backup) {
        if (rename(bak, fp) != 0) {
            *end = STEP_FAIL;
            return swx_error_set(SWX_EIO, "cannot put back %s: %s", fp, strerror(errno));
        }
        pf->size = swx_pkg_file_size(fp);
    } else {
        unlink(fp);
        pf->present = 0;
        pf->size = 0;
        pf->zooms_done = 0;
    }
    B->res->cut = 1;
    B->cut_layer = L->spec.variable;
    B->cut_time = u->t;
    B->cut_zoom = u->z;
    *end = STEP_END;
    return 0;
}

/* Step k: one file at one zoom (or all its zooms). *end says whether the
 * steps go on; a stop leaves res->interrupted set and returns 0. */
static int run_step(build_run *B, size_t k, int *end)
{
    swx_package *p = B->p;
    const swx_package_run_opts *o = B->o;
    const unit *u = &B->units[k];
    pkg_layer *L = &p->layers[u->layer];
    pkg_file *pf = &L->files[u->file];
    char fp[PATH_MAX], bak[PATH_MAX];
    int rc;
    *end = STEP_END;
    if (o->stop && o->stop(o->ud)) {
        B->res->interrupted = 1;
        return 0;
    }
    B->ctx.pr.variable = L->spec.variable;
    B->ctx.pr.time = u->t;
    B->ctx.pr.zoom = u->z;
    swx_pkg_pathf(fp, sizeof fp, "%s/%s", B->part, pf->name);
    swx_pkg_pathf(bak, sizeof bak, "%s.before", fp);
    uint64_t ntiles = swx_seed_plan_tiles(L->plan, u->file, u->z < 0 ? -1 : u->z);
    double per = u->z >= 0 && L->bpt[u->z] > 0 ? L->bpt[u->z] : GUESS_TILE_BYTES;
    double est = per * (double)ntiles + (pf->present ? 0 : FILE_BYTES + EXTRA_PER_FILE);
    double now_bytes = package_bytes(p, NULL);
    B->ctx.pr.bytes = (uint64_t)now_bytes;
    int backup = 0;
    if (p->o.budget && pf->present && now_bytes + 2 * est + 8192 > (double)p->o.budget) {
        if ((rc = swx_pkg_copy_file(fp, bak))) {
            unlink(bak);
            return rc; /* the file is as it was: kept for the next build */
        }
        backup = 1;
    }
    int was_present = pf->present;
    uint64_t size_before = pf->size;
    swx_seed_file_result r;
    rc = swx_seed_file_zoom(&r, L->seed, u->file, u->z, fp);
    if (rc && backup) {
        /* A budget step that was stopped or failed is put back as it was. */
        if (rename(bak, fp) != 0) {
            unlink(fp);
            pf->present = 0;
        }
    } else {
        /* Done, stopped, or a write or the service failed: the engine
         * leaves the file valid with every batch it committed; one cut
         * short is kept for the next build, which continues it. */
        pf->size = swx_pkg_file_size(fp);
        pf->present = pf->size > 0;
    }
    if (rc == SWX_ECANCEL || (o->cancel && *o->cancel)) {
        B->res->interrupted = 1;
        return 0;
    }
    if (rc)
        return rc;
    if (!r.complete && o->stop && o->stop(o->ud)) {
        B->res->interrupted = 1;
        return 0;
    }
    double grew = (double)pf->size - (double)size_before - (was_present ? 0 : FILE_BYTES);
    if (u->z >= 0 && r.stored > 0 && grew > 0)
        L->bpt[u->z] = grew / (double)r.stored;
    if (p->o.budget && package_bytes(p, NULL) > (double)p->o.budget)
        return take_back(B, u, backup, fp, bak, end);
    if (backup)
        unlink(bak);
    pf->zooms_done = u->z < 0 ? L->nzooms : pf->zooms_done + 1;
    if (!r.complete)
        pf->failed = 1;
    B->done_units = k + 1;
    *end = STEP_ON;
    return 0;
}

/* A step failed: what was fetched stays for the next build, beside the
 * package, as for a build that was stopped; the error keeps its cause. */
static int keep_failed(build_run *B, int rc)
{
    const swx_package *p = B->p;
    char why[400];
    snprintf(why, sizeof why, "%s", swx_error_last());
    size_t kept = 0;
    for (size_t i = 0; i < p->n; i++)
        for (size_t f = p->layers[i].first; f < p->layers[i].nfiles; f++)
            kept += p->layers[i].files[f].present;
    if (kept && swx_pkg_write_resume(B->part, p) == 0) {
        B->made_part = 0;
        rc = swx_error_set(rc, "%s; what was fetched is kept in %s for the next build to continue",
                           why, B->part);
    }
    return rc;
}

/* Stopped: what was fetched stays for the next build, beside the package. */
static int keep_stopped(build_run *B)
{
    if (swx_pkg_write_resume(B->part, B->p) == 0) {
        B->made_part = 0;
        return swx_error_set(SWX_ECANCEL,
                             "stopped; the package was left as it was, and what was fetched is "
                             "kept in %s for the next build",
                             B->part);
    }
    return swx_error_set(SWX_ECANCEL, "stopped; the package was left as it was");
}

/* Valid times complete in every layer, from the first. */
static size_t complete_times(const build_run *B)
{
    size_t k = 0, n = 0;
    while (k < B->nunits) {
        size_t e = k;
        while (e < B->nunits && B->units[e].t == B->units[k].t)
            e++;
        if (e > B->done_units)
            break;
        int ok = 1;
        for (size_t q = k; q < e; q++) {
            const unit *u = &B->units[q];
            ok &= !B->p->layers[u->layer].files[u->file].failed;
        }
        if (!ok)
            break;
        n++;
        k = e;
    }
    return n;
}

/* The line that says where the budget cut the package; a cut before any
 * step is an error. */
static int cut_line(build_run *B)
{
    const swx_package *p = B->p;
    swx_package_result *res = B->res;
    char a[SWX_ISO8601_LEN], last[160] = "nothing";
    swx_iso8601_format(a, B->cut_time);
    if (B->done_units) {
        const unit *lu = &B->units[B->done_units - 1];
        char lt[SWX_ISO8601_LEN];
        swx_iso8601_format(lt, lu->t);
        snprintf(last, sizeof last, "%s %s zoom %d", p->layers[lu->layer].spec.variable, lt, lu->z);
    }
    snprintf(res->cut_line, sizeof res->cut_line,
             "the budget of %llu bytes stopped the package before %s %s zoom %d; the last "
             "complete step was %s, and %zu valid time%s are complete in every layer",
             (unsigned long long)p->o.budget, B->cut_layer, a, B->cut_zoom, last,
             res->complete_times, res->complete_times == 1 ? "" : "s");
    if (!B->done_units)
        return swx_error_set(SWX_EINVAL,
                             "a budget of %llu bytes cannot hold even the first valid time at "
                             "zoom %d",
                             (unsigned long long)p->o.budget, B->cut_zoom);
    return 0;
}

/* Each file's tiles (its zooms done), and the result's counts. */
static void count_result(build_run *B)
{
    swx_package *p = B->p;
    swx_package_result *res = B->res;
    for (size_t i = 0; i < p->n; i++) {
        pkg_layer *L = &p->layers[i];
        for (size_t f = L->first; f < L->nfiles; f++) {
            pkg_file *pf = &L->files[f];
            if (!pf->present)
                continue;
            pf->tiles = 0;
            for (int z = 0, zi = 0; z <= SWX_TILE_MAX_ZOOM; z++)
                if ((L->spec.zooms & (1u << z)) && zi++ < pf->zooms_done)
                    pf->tiles += swx_seed_plan_tiles(L->plan, f, z);
            res->files++;
            res->tiles += pf->tiles;
        }
        res->fetched += L->c.stored;
        res->failed += L->c.failed;
    }
}

/* project.qgs and manifest.json, and the package's bytes against the budget. */
static int write_own_files(build_run *B)
{
    const swx_package *p = B->p;
    swx_package_result *res = B->res;
    char fp[PATH_MAX];
    int rc;
    swx_pkg_pathf(fp, sizeof fp, "%s/project.qgs", B->part);
    if ((rc = swx_pkg_write_project(fp, p)) ||
        (rc = swx_pkg_write_manifest(B->part, p, res, B->cut_layer, B->cut_time, B->cut_zoom)))
        return rc;
    double total = 0;
    const char *names[] = {"route.geojson", "project.qgs", "manifest.json"};
    for (size_t i = 0; i < 3; i++) {
        swx_pkg_pathf(fp, sizeof fp, "%s/%s", B->part, names[i]);
        total += (double)swx_pkg_file_size(fp);
    }
    total += (double)swx_pkg_coast_bytes(p);
    total += (double)res->storm_bytes;
    total += (double)res->grib_bytes;
    total += (double)res->plan_bytes;
    for (size_t i = 0; i < p->n; i++)
        for (size_t f = p->layers[i].first; f < p->layers[i].nfiles; f++)
            if (p->layers[i].files[f].present)
                total += (double)p->layers[i].files[f].size;
    res->bytes = (uint64_t)total;
    if (p->o.budget && total > (double)p->o.budget)
        return swx_error_set(SWX_EIO, "the package came to %.0f bytes, over the budget of %llu",
                             total, (unsigned long long)p->o.budget);
    return 0;
}

/* In place: the version folder, then the link swapped over PATH. The
 * version before stays for readers that began on it; older ones go. */
static int swap_in(build_run *B)
{
    const swx_package *p = B->p;
    char link_tmp[PATH_MAX], target[300];
    if (rename(B->part, B->final_dir) != 0)
        return swx_error_set(SWX_EIO, "cannot rename %s: %s", B->part, strerror(errno));
    B->made_part = 0;
    swx_pkg_pathf(B->part, sizeof B->part, "%s", B->final_dir);
    swx_pkg_pathf(link_tmp, sizeof link_tmp, "%s/.%s.link", B->dir, B->base);
    unlink(link_tmp);
    swx_pkg_pathf(target, sizeof target, ".%s.v%ld", B->base, B->version);
    if (symlink(target, link_tmp) != 0 || rename(link_tmp, p->o.path) != 0) {
        int rc = swx_error_set(SWX_EIO, "cannot put the package in place at %s: %s", p->o.path,
                               strerror(errno));
        unlink(link_tmp);
        swx_pkg_rm_tree(B->final_dir);
        return rc;
    }
    for (long v = B->version - 2; v >= 1; v--) {
        char old[PATH_MAX];
        swx_pkg_pathf(old, sizeof old, "%s/.%s.v%ld", B->dir, B->base, v);
        if (access(old, F_OK) != 0)
            break;
        swx_pkg_rm_tree(old);
    }
    return 0;
}

int swx_package_build(swx_package_result *res, swx_package *p, swx_client *c,
                      const swx_package_run_opts *o)
{
    build_run B;
    int rc, end = STEP_ON;
    memset(res, 0, sizeof *res);
    memset(&B, 0, sizeof B);
    B.p = p;
    B.o = o;
    B.res = res;
    B.ctx.p = p;
    B.ctx.o = o;
    B.cut_zoom = -1;
    B.lock = (swx_lockfile)SWX_LOCKFILE_INIT;
    if ((rc = open_folder(&B, c)) || (rc = plan_steps(&B, c)))
        goto done;
    for (size_t k = 0; k < B.nunits && end == STEP_ON; k++)
        rc = run_step(&B, k, &end);
    if (end == STEP_FAIL)
        goto done;
    if (rc) {
        rc = keep_failed(&B, rc);
        goto done;
    }
    res->complete_times = complete_times(&B);
    if (res->interrupted) {
        rc = keep_stopped(&B);
        goto done;
    }
    if (res->cut && (rc = cut_line(&B)))
        goto done;
    count_result(&B);
    if ((rc = write_own_files(&B)) || (rc = swap_in(&B)))
        goto done;
done:
    /* The GetMaps sent are counted whatever the end: a build stopped or
     * failed half way sent them too (a fleet's summary adds them up). */
    for (size_t i = 0; i < p->n; i++) {
        res->requests += p->layers[i].c.requests;
        res->shared += p->layers[i].c.shared;
    }
    if (B.made_part)
        swx_pkg_rm_tree(B.part);
    for (size_t i = 0; i < p->n; i++) {
        swx_seed_free(p->layers[i].seed);
        p->layers[i].seed = NULL;
    }
    free(B.units);
    free(B.uds);
    swx_lockfile_release(&B.lock);
    return rc;
}
