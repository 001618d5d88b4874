/* package_manifest.c: the listings of a voyage package: manifest.json, the
 * resume.json an interrupted build leaves, and reading either back to find
 * the files a build need not fetch again. */
#define _GNU_SOURCE
#include "package_priv.h"
#include "seawx/error.h"
#include "jsonr.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "seawx/readfile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void jsonw_zooms(swx_jsonw *w, uint32_t zooms)
{
    swx_jsonw_array_begin(w);
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
        if (zooms & (1u << z))
            swx_jsonw_int(w, z);
    swx_jsonw_array_end(w);
}

/* The manifest's "voyage". */
static void manifest_voyage(swx_jsonw *w, const swx_package *p)
{
    const swx_voyage *v = p->o.voyage;
    int64_t dep;
    double arr, vmin, vmax;
    swx_voyage_span(&dep, &arr, v);
    swx_voyage_speed(&vmin, &vmax, v);
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "route");
    swx_jsonw_string(w, "route.geojson");
    swx_jsonw_key(w, "length_nm");
    swx_jsonw_number(w, swx_voyage_length(v) / SWX_NM_M, 1);
    swx_jsonw_key(w, "depart");
    swx_jsonw_time(w, dep);
    swx_jsonw_key(w, "arrive_latest");
    swx_jsonw_time(w, (int64_t)ceil(arr));
    swx_jsonw_key(w, "speed_kn");
    if (vmin > 0) {
        swx_jsonw_array_begin(w);
        swx_jsonw_number(w, vmin, 2);
        swx_jsonw_number(w, vmax, 2);
        swx_jsonw_array_end(w);
    } else {
        swx_jsonw_null(w);
    }
    swx_jsonw_key(w, "waypoint_times");
    swx_jsonw_bool(w, swx_voyage_timed(v));
    swx_jsonw_key(w, "buffer_nm");
    swx_jsonw_number(w, p->o.buffer_m / SWX_NM_M, 2);
    swx_jsonw_object_end(w);
}

/* The manifest's "layers". */
static void manifest_layers(swx_jsonw *w, const swx_package *p)
{
    swx_jsonw_array_begin(w);
    for (size_t i = 0; i < p->n; i++) {
        const pkg_layer *L = &p->layers[i];
        const swx_layer *ly = swx_seed_plan_layer(L->plan);
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "variable");
        swx_jsonw_string(w, L->spec.variable);
        swx_jsonw_key(w, "layer");
        swx_jsonw_string(w, swx_layer_name(ly));
        swx_jsonw_key(w, "run");
        swx_jsonw_string(w, swx_seed_plan_run(L->plan));
        swx_jsonw_key(w, "style");
        swx_jsonw_string(w, L->spec.style[0] ? L->spec.style : NULL);
        swx_jsonw_key(w, "zooms");
        jsonw_zooms(w, L->spec.zooms);
        swx_jsonw_key(w, "format");
        swx_jsonw_string(w, swx_tile_format_name((swx_tile_format)L->spec.format));
        swx_jsonw_key(w, "quality");
        swx_jsonw_int(w, L->spec.quality < 0 ? 0 : L->spec.quality);
        swx_jsonw_key(w, "tile_size");
        swx_jsonw_int(w, p->o.tile_size);
        swx_jsonw_object_end(w);
    }
    swx_jsonw_array_end(w);
}

/* The manifest's "files": each file present, hashed. */
static int manifest_files(swx_jsonw *w, const swx_package *p, const char *dir)
{
    int rc = 0;
    swx_jsonw_array_begin(w);
    for (size_t i = 0; i < p->n && !rc; i++) {
        const pkg_layer *L = &p->layers[i];
        for (size_t k = L->first; k < L->nfiles && !rc; k++) {
            const pkg_file *pf = &L->files[k];
            if (!pf->present)
                continue;
            char fp[PATH_MAX], hex[SWX_SHA256_HEX_LEN];
            swx_pkg_pathf(fp, sizeof fp, "%s/%s", dir, pf->name);
            if ((rc = swx_package_file_sha256(hex, fp)))
                break;
            int complete = pf->zooms_done == L->nzooms && !pf->failed;
            swx_jsonw_object_begin(w);
            swx_jsonw_key(w, "path");
            swx_jsonw_string(w, pf->name);
            swx_jsonw_key(w, "variable");
            swx_jsonw_string(w, L->spec.variable);
            swx_jsonw_key(w, "run");
            swx_jsonw_string(w, swx_seed_plan_run(L->plan));
            swx_jsonw_key(w, "time");
            swx_jsonw_time(w, swx_seed_plan_time(L->plan, k));
            swx_jsonw_key(w, "shown_from");
            swx_jsonw_time(w, swx_pkg_range_start(L, k));
            swx_jsonw_key(w, "shown_until");
            swx_jsonw_time(w, swx_pkg_range_end(L, k));
            swx_jsonw_key(w, "tiles");
            swx_jsonw_int(w, (int64_t)pf->tiles);
            swx_jsonw_key(w, "bytes");
            swx_jsonw_int(w, (int64_t)swx_pkg_file_size(fp));
            swx_jsonw_key(w, "sha256");
            swx_jsonw_string(w, hex);
            swx_jsonw_key(w, "complete");
            swx_jsonw_bool(w, complete);
            swx_jsonw_key(w, "zooms_complete");
            swx_jsonw_array_begin(w);
            int zi = 0;
            for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
                if (L->spec.zooms & (1u << z)) {
                    if (zi++ < pf->zooms_done)
                        swx_jsonw_int(w, z);
                }
            swx_jsonw_array_end(w);
            swx_jsonw_key(w, "identity");
            swx_jsonw_string(w, complete ? pf->identity : NULL);
            swx_jsonw_object_end(w);
        }
    }
    swx_jsonw_array_end(w);
    return rc;
}

int swx_pkg_write_manifest(const char *dir, const swx_package *p, const swx_package_result *res,
                           const char *cut_layer, int64_t cut_time, int cut_zoom)
{
    char path[PATH_MAX];
    swx_pkg_pathf(path, sizeof path, "%s/manifest.json", dir);
    FILE *f = fopen(path, "w");
    swx_jsonw *w = NULL;
    int rc = 0;
    if (!f)
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
    if ((rc = swx_jsonw_new(&w, f, 2))) {
        fclose(f);
        return rc;
    }
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "format");
    swx_jsonw_string(w, MANIFEST_FORMAT);
    swx_jsonw_key(w, "format_version");
    swx_jsonw_int(w, 1);
    swx_jsonw_key(w, "version");
    swx_jsonw_int(w, res->version);
    swx_jsonw_key(w, "built_at");
    swx_jsonw_time(w, p->o.now);
    swx_jsonw_key(w, "bundle");
    swx_jsonw_string(w, p->o.bundle);
    swx_jsonw_key(w, "voyage");
    manifest_voyage(w, p);
    swx_jsonw_key(w, "budget");
    if (p->o.budget)
        swx_jsonw_int(w, (int64_t)p->o.budget);
    else
        swx_jsonw_null(w);
    swx_jsonw_key(w, "cut");
    if (res->cut) {
        swx_jsonw_object_begin(w);
        swx_jsonw_key(w, "layer");
        swx_jsonw_string(w, cut_layer);
        swx_jsonw_key(w, "time");
        swx_jsonw_time(w, cut_time);
        swx_jsonw_key(w, "zoom");
        swx_jsonw_int(w, cut_zoom);
        swx_jsonw_key(w, "line");
        swx_jsonw_string(w, res->cut_line);
        swx_jsonw_object_end(w);
    } else {
        swx_jsonw_null(w);
    }
    swx_jsonw_key(w, "complete_times");
    swx_jsonw_int(w, (int64_t)res->complete_times);
    swx_jsonw_key(w, "layers");
    manifest_layers(w, p);
    swx_jsonw_key(w, "files");
    rc = manifest_files(w, p, dir);
    if (!rc && p->storms) {
        swx_jsonw_key(w, "storms");
        rc = swx_pkg_storms_manifest(w, p->storms, dir);
    }
    if (!rc && swx_pkg_coast_bytes(p)) {
        swx_jsonw_key(w, "coastline");
        swx_pkg_coast_manifest(w, p);
    }
    if (!rc && swx_pkg_grib_bytes(p)) {
        swx_jsonw_key(w, "grib");
        swx_pkg_grib_manifest(w, p);
    }
    if (!rc && swx_pkg_plan_bytes(p)) {
        swx_jsonw_key(w, "plan");
        swx_pkg_plan_manifest(w, p);
    }
    swx_jsonw_object_end(w);
    errno = 0;
    int wrc = swx_jsonw_finish(w);
    int crc = fclose(f);
    if (!rc && (wrc || crc))
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
    return rc;
}

int swx_package_listing_read(const char *text, size_t len, const char *what,
                             swx_package_listing_fn fn, void *ud)
{
    json_object *j = NULL;
    int rc = swx_jsonr_parse(&j, text, len, what);
    if (rc)
        return rc;
    if (!json_object_is_type(j, json_type_object)) {
        json_object_put(j);
        return swx_error_set(SWX_EPARSE, "%s: not a JSON object", what);
    }
    json_object *files = swx_jsonr_path(j, "files", NULL);
    size_t nf =
        files && json_object_is_type(files, json_type_array) ? json_object_array_length(files) : 0;
    for (size_t k = 0; k < nf && !rc; k++) {
        json_object *e = json_object_array_get_idx(files, k);
        const char *name = swx_jsonr_str(swx_jsonr_path(e, "path", NULL));
        const char *id = swx_jsonr_str(swx_jsonr_path(e, "identity", NULL));
        if (!name || !id || !*name || !*id || strchr(name, '/') || strcmp(name, ".") == 0 ||
            strcmp(name, "..") == 0)
            continue;
        rc = fn(ud, name, id);
    }
    json_object_put(j);
    return rc;
}

/* The file of this package with that name and identity, or NULL. */
static pkg_file *file_named(swx_package *p, const char *name, const char *identity)
{
    for (size_t i = 0; i < p->n; i++)
        for (size_t f = p->layers[i].first; f < p->layers[i].nfiles; f++) {
            pkg_file *pf = &p->layers[i].files[f];
            if (strcmp(pf->name, name) == 0 && strcmp(pf->identity, identity) == 0)
                return pf;
        }
    return NULL;
}

/* The listing at path (manifest.json or resume.json), walked with fn; an
 * error when it cannot be read or is not a listing. */
static int read_listing(const char *path, const char *what, swx_package_listing_fn fn, void *ud)
{
    char *text = NULL;
    size_t len;
    int rc = swx_read_file(&text, &len, path, MAX_MANIFEST);
    if (!rc)
        rc = swx_package_listing_read(text, len, what, fn, ud);
    free(text);
    return rc;
}

typedef struct copy_ud {
    swx_package *p;
    const char *old_dir, *part;
    size_t copied;
    int rc; /* a copy that failed */
} copy_ud;

static int copy_listed(void *ud, const char *name, const char *identity)
{
    copy_ud *c = ud;
    pkg_file *pf = file_named(c->p, name, identity);
    if (!pf)
        return 0;
    char from[PATH_MAX], to[PATH_MAX];
    swx_pkg_pathf(from, sizeof from, "%s/%s", c->old_dir, name);
    swx_pkg_pathf(to, sizeof to, "%s/%s", c->part, name);
    if ((c->rc = swx_pkg_copy_file(from, to)))
        return c->rc;
    pf->copied = 1;
    pf->present = 1;
    c->copied++;
    return 0;
}

/* Files of the current version complete with the same identity, copied. A
 * manifest that cannot be read gives nothing to take: everything is fetched. */
int swx_pkg_copy_unchanged(swx_package *p, const char *old_dir, const char *part, size_t *copied)
{
    char mp[PATH_MAX];
    copy_ud c = {p, old_dir, part, 0, 0};
    swx_pkg_pathf(mp, sizeof mp, "%s/manifest.json", old_dir);
    read_listing(mp, "manifest", copy_listed, &c);
    *copied += c.copied;
    return c.rc;
}

/* resume.json in the folder of an interrupted build: its files and their
 * identities, so that the next build continues them. */
int swx_pkg_write_resume(const char *part, const swx_package *p)
{
    char path[PATH_MAX];
    swx_pkg_pathf(path, sizeof path, "%s/resume.json", part);
    FILE *f = fopen(path, "w");
    swx_jsonw *w = NULL;
    if (!f)
        return SWX_EIO;
    if (swx_jsonw_new(&w, f, 0)) {
        fclose(f);
        unlink(path);
        return SWX_ENOMEM;
    }
    swx_jsonw_object_begin(w);
    swx_jsonw_key(w, "files");
    swx_jsonw_array_begin(w);
    for (size_t i = 0; i < p->n; i++)
        for (size_t k = p->layers[i].first; k < p->layers[i].nfiles; k++) {
            const pkg_file *pf = &p->layers[i].files[k];
            if (!pf->present)
                continue;
            swx_jsonw_object_begin(w);
            swx_jsonw_key(w, "path");
            swx_jsonw_string(w, pf->name);
            swx_jsonw_key(w, "identity");
            swx_jsonw_string(w, pf->identity);
            swx_jsonw_object_end(w);
        }
    swx_jsonw_array_end(w);
    swx_jsonw_object_end(w);
    int rc = swx_jsonw_finish(w);
    int crc = fclose(f);
    if (rc || crc) {
        unlink(path);
        return SWX_EIO;
    }
    return 0;
}

/* The folder of this build: made anew, or the one an interrupted build left
 * (with its resume.json), keeping the files of the same identity (the
 * engine continues them) and removing everything else in it. */
static int mark_present(void *ud, const char *name, const char *identity)
{
    pkg_file *pf = file_named(ud, name, identity);
    if (pf)
        pf->present = 1;
    return 0;
}

int swx_pkg_resume_part(swx_package *p, const char *part)
{
    char rp[PATH_MAX];
    swx_pkg_pathf(rp, sizeof rp, "%s/resume.json", part);
    if (read_listing(rp, "resume", mark_present, p)) {
        swx_pkg_rm_tree(part); /* none, or what a build that was killed left */
        if (mkdir(part, 0777) != 0)
            return swx_error_set(SWX_EIO, "cannot make %s: %s", part, strerror(errno));
        return 0;
    }
    unlink(rp);
    /* Everything else goes. */
    DIR *d = opendir(part);
    if (!d)
        return swx_error_set(SWX_EIO, "cannot read %s: %s", part, strerror(errno));
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        int keep = 0;
        for (size_t i = 0; i < p->n && !keep; i++)
            for (size_t f = p->layers[i].first; f < p->layers[i].nfiles && !keep; f++)
                keep = p->layers[i].files[f].present &&
                       strcmp(p->layers[i].files[f].name, de->d_name) == 0;
        if (!keep) {
            char q[PATH_MAX];
            swx_pkg_pathf(q, sizeof q, "%s/%s", part, de->d_name);
            swx_pkg_rm_tree(q);
        }
    }
    closedir(d);
    return 0;
}
