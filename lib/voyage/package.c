/* package.c: voyage packages (seawx/package.h): several layers along one
 * voyage, ordered by need, under a budget, into a version folder swapped in
 * atomically, with a manifest and a QGIS project. */
#define _GNU_SOURCE
#include "seawx/package.h"

#include "package_int.h"
#include "jsonr.h"
#include "package_int.h"
#include "seawx/error.h"
#include "seawx/readfile.h"
#include "seawx/iso8601.h"
#include "seawx/jsonw.h"
#include "seawx/wms_select.h"
#include "sha256.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The fixed cost of an MBTiles file written by the engine (schema, metadata
 * and the first pages of each table and index, 4 KiB pages), measured; and
 * the least a tile can add (the smallest pages seen for an empty tile). */
#define FILE_BYTES 28672.0
#define MIN_TILE_BYTES 40.0
/* Bytes per tile before anything is measured: a 256 px tile of a smooth
 * field of seawx-sim with its SQLite pages. */
#define GUESS_TILE_BYTES 14000.0
/* The route, manifest and project: room kept for them under a budget. */
#define EXTRA_FIXED 12288.0
#define EXTRA_PER_FILE 2560.0
#define SAMPLE_POINTS 8
#define MAX_MANIFEST (16u << 20)
#define MANIFEST_FORMAT "seawx-package"

typedef struct pkg_file {
    char name[96];
    char identity[SWX_SHA256_HEX_LEN];
    int zooms_done;
    int failed;
    int copied;
    int present; /* on disk in the folder being built */
    uint64_t tiles;
    uint64_t size;
} pkg_file;

typedef struct pkg_layer {
    swx_package_layer spec;
    swx_seed_opts so;
    swx_seed_plan *plan;
    char safe[64];
    size_t first; /* the files before it are past */
    size_t nfiles;
    int nzooms;
    pkg_file *files;
    double bpt[SWX_TILE_MAX_ZOOM + 1]; /* measured bytes per tile */
    swx_seed *seed;
    swx_seed_counts c;
} pkg_layer;

struct swx_package {
    swx_package_opts o;
    const swx_caps *caps;
    pkg_layer *layers;
    size_t n;
    double route_bytes;
    swx_package_storms storm_opts; /* query NULL: no storms */
    swx_pkg_storms *storms;
};

/* ---- what users type ---- */

int swx_package_layer_parse(swx_package_layer *out, const char *spec)
{
    memset(out, 0, sizeof *out);
    out->format = -1;
    out->quality = -1;
    if (!spec || !*spec)
        return swx_error_set(SWX_EINVAL, "an empty layer; give VAR[:style=S][:zoom=Z][:format=F]");
    const char *p = spec;
    const char *colon = strchr(p, ':');
    size_t vn = colon ? (size_t)(colon - p) : strlen(p);
    /* A unit: the part after the variable, when it has no '='. */
    if (colon) {
        const char *next = strchr(colon + 1, ':');
        size_t un = next ? (size_t)(next - colon - 1) : strlen(colon + 1);
        if (!memchr(colon + 1, '=', un)) {
            vn += 1 + un;
            colon = next;
        }
    }
    if (vn == 0 || vn >= sizeof out->variable)
        return swx_error_set(SWX_EINVAL, "layer '%.80s': no variable, or too long", spec);
    memcpy(out->variable, p, vn);
    out->variable[vn] = '\0';
    for (size_t i = 0; i < vn; i++)
        if (out->variable[i] == '/' || out->variable[i] == ' ' || out->variable[i] == '=')
            return swx_error_set(SWX_EINVAL, "layer '%.80s': '%s' is not a variable", spec,
                                 out->variable);
    while (colon) {
        const char *k = colon + 1;
        const char *next = strchr(k, ':');
        /* A style name may hold ':' ("temp:F/nearest"): it runs to the next
         * ":name=" that is an option. */
        const char *eq = strchr(k, '=');
        size_t kn = eq && (!next || eq < next) ? (size_t)(eq - k) : 0;
        if (!kn)
            return swx_error_set(SWX_EINVAL, "layer '%.80s': '%.*s' is not NAME=VALUE", spec,
                                 (int)(next ? (size_t)(next - k) : strlen(k)), k);
        const char *v = eq + 1;
        if (kn == 5 && strncmp(k, "style", 5) == 0) {
            const char *e = v;
            for (;;) {
                e = strchr(e, ':');
                if (!e || strncmp(e + 1, "zoom=", 5) == 0 || strncmp(e + 1, "format=", 7) == 0 ||
                    strncmp(e + 1, "quality=", 8) == 0 || strncmp(e + 1, "style=", 6) == 0)
                    break;
                e++;
            }
            next = e;
        }
        size_t len = next ? (size_t)(next - v) : strlen(v);
        char val[160];
        if (len == 0 || len >= sizeof val)
            return swx_error_set(SWX_EINVAL, "layer '%.80s': %.*s has no value, or a too long one",
                                 spec, (int)kn, k);
        memcpy(val, v, len);
        val[len] = '\0';
        int rc = 0;
        if (kn == 5 && strncmp(k, "style", 5) == 0) {
            snprintf(out->style, sizeof out->style, "%s", val);
        } else if (kn == 4 && strncmp(k, "zoom", 4) == 0) {
            rc = swx_zoom_list_parse(&out->zooms, val);
        } else if (kn == 6 && strncmp(k, "format", 6) == 0) {
            swx_tile_format f;
            rc = swx_tile_format_parse(&f, val);
            out->format = (int)f;
        } else if (kn == 7 && strncmp(k, "quality", 7) == 0) {
            char *e;
            long q = strtol(val, &e, 10);
            if (*e || q < 1 || q > 100)
                rc = swx_error_set(SWX_EINVAL, "quality must be from 1 to 100, not '%s'", val);
            out->quality = (int)q;
        } else {
            return swx_error_set(SWX_EINVAL,
                                 "layer '%.80s': unknown option '%.*s'; use style, zoom, format "
                                 "or quality",
                                 spec, (int)kn, k);
        }
        if (rc)
            return swx_error_prefix(SWX_EINVAL, "layer '%.80s'", spec);
        colon = next;
    }
    return 0;
}

int swx_size_parse(uint64_t *out, const char *text)
{
    *out = 0;
    if (!text || !*text)
        return swx_error_set(SWX_EINVAL, "an empty size; give bytes or 20MB, 1.5MiB, 800kB");
    char *e;
    errno = 0;
    double v = strtod(text, &e);
    if (e == text || errno || !(v > 0) || text[0] == '-' || text[0] == '+' || text[0] == ' ' ||
        text[0] == '\t')
        return swx_error_set(SWX_EINVAL, "'%.40s' is not a size (20MB, 1.5MiB, 800kB)", text);
    static const struct {
        const char *unit;
        double mul;
    } units[] = {{"", 1},    {"B", 1},    {"k", 1e3},           {"kB", 1e3},
                 {"K", 1e3}, {"KB", 1e3}, {"Ki", 1024.0},       {"KiB", 1024.0},
                 {"M", 1e6}, {"MB", 1e6}, {"Mi", 1048576.0},    {"MiB", 1048576.0},
                 {"G", 1e9}, {"GB", 1e9}, {"Gi", 1073741824.0}, {"GiB", 1073741824.0}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(e, units[i].unit) == 0) {
            double b = floor(v * units[i].mul);
            if (b < 1 || b > 1e15)
                return swx_error_set(SWX_EINVAL, "size '%.40s' is out of range", text);
            *out = (uint64_t)b;
            return 0;
        }
    return swx_error_set(SWX_EINVAL,
                         "'%.40s': unknown unit '%s'; use B, kB, MB, GB, KiB, MiB or GiB", text, e);
}

/* ---- files and folders ---- */

/* snprintf into a path buffer; a path too long is cut (and then not found or
 * refused by the system), which never happens below PATH_MAX. */
static void pathf(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void pathf(char *out, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, n, fmt, ap);
    va_end(ap);
}

/* The folder of path and its last name. */
static int split_path(char *dir, size_t dn, char *base, size_t bn, const char *path)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    const char *slash = NULL;
    for (size_t i = 0; i < len; i++)
        if (path[i] == '/')
            slash = path + i;
    size_t b0 = slash ? (size_t)(slash - path) + 1 : 0;
    if (len - b0 == 0 || len - b0 >= bn || b0 >= dn || (len - b0 == 1 && path[b0] == '.') ||
        (len - b0 == 2 && strncmp(path + b0, "..", 2) == 0))
        return swx_error_set(SWX_EINVAL, "'%.200s' cannot be a package's name", path);
    memcpy(base, path + b0, len - b0);
    base[len - b0] = '\0';
    if (!slash)
        snprintf(dir, dn, ".");
    else if (slash == path)
        snprintf(dir, dn, "/");
    else
        snprintf(dir, dn, "%.*s", (int)(slash - path), path);
    return 0;
}

/* N of a version folder ".BASE.vN", or -1. */
static long version_of(const char *name, const char *base)
{
    size_t bl = strlen(base);
    if (name[0] != '.' || strncmp(name + 1, base, bl) != 0 || strncmp(name + 1 + bl, ".v", 2) != 0)
        return -1;
    const char *d = name + bl + 3;
    char *e;
    if (*d < '0' || *d > '9')
        return -1;
    long n = strtol(d, &e, 10);
    return *e || n < 0 ? -1 : n;
}

/* 1 when dir holds a package's manifest. */
static int is_package_dir(const char *dir)
{
    char mp[PATH_MAX], *text = NULL;
    size_t len;
    pathf(mp, sizeof mp, "%s/manifest.json", dir);
    if (swx_read_file(&text, &len, mp, MAX_MANIFEST))
        return 0;
    json_object *j = NULL;
    int ok = 0;
    if (swx_jsonr_parse(&j, text, len, "manifest") == 0) {
        const char *f = swx_jsonr_str(swx_jsonr_path(j, "format", NULL));
        ok = f && strcmp(f, MANIFEST_FORMAT) == 0;
        json_object_put(j);
    }
    free(text);
    return ok;
}

int swx_package_path_check(const char *path)
{
    char dir[PATH_MAX], base[256];
    int rc = split_path(dir, sizeof dir, base, sizeof base, path);
    if (rc)
        return rc;
    struct stat sb;
    if (lstat(path, &sb) != 0) {
        if (errno != ENOENT)
            return swx_error_set(SWX_EIO, "cannot look at %s: %s", path, strerror(errno));
        if (access(dir, W_OK | X_OK) != 0)
            return swx_error_set(SWX_EIO, "cannot write in %s: %s", dir, strerror(errno));
        return 0;
    }
    char target[PATH_MAX];
    ssize_t tn = S_ISLNK(sb.st_mode) ? readlink(path, target, sizeof target - 1) : -1;
    if (tn > 0)
        target[tn] = '\0';
    if (tn <= 0 || version_of(target, base) < 0 || !is_package_dir(path))
        return swx_error_set(SWX_EINVAL,
                             "%s exists and is not a voyage package; give a new name, or remove "
                             "it",
                             path);
    if (access(dir, W_OK | X_OK) != 0)
        return swx_error_set(SWX_EIO, "cannot write in %s: %s", dir, strerror(errno));
    return 1;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static void rm_tree(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = NULL;
    int rc = 0;
    char buf[65536];
    if (!in) {
        rc = swx_error_set(SWX_EIO, "cannot read %s: %s", from, strerror(errno));
        goto done;
    }
    if (!(out = fopen(to, "wb"))) {
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", to, strerror(errno));
        goto done;
    }
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            break;
    if (ferror(in) || ferror(out))
        rc = swx_error_set(SWX_EIO, "cannot copy %s to %s", from, to);
done:
    if (in)
        fclose(in);
    if (out && fclose(out) != 0 && !rc)
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", to, strerror(errno));
    if (rc && out)
        unlink(to);
    return rc;
}

static uint64_t file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

int swx_package_file_sha256(char hex[SWX_SHA256_HEX_LEN], const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return swx_error_set(SWX_EIO, "cannot read %s: %s", path, strerror(errno));
    swx_sha256_ctx c;
    swx_sha256_init(&c);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        swx_sha256_update(&c, buf, n);
    int err = ferror(f);
    fclose(f);
    if (err)
        return swx_error_set(SWX_EIO, "cannot read %s", path);
    uint8_t d[SWX_SHA256_LEN];
    swx_sha256_final(d, &c);
    for (int i = 0; i < SWX_SHA256_LEN; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    return 0;
}

static void compact_time(char *out, size_t n, int64_t t)
{
    int y, mo, d, h, mi, s;
    swx_civil_from_time(&y, &mo, &d, &h, &mi, &s, t);
    snprintf(out, n, "%04d%02d%02dT%02d%02d%02dZ", y, mo, d, h, mi, s);
}

/* ---- planning ---- */

void swx_package_free(swx_package *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++) {
        swx_seed_free(p->layers[i].seed);
        swx_seed_plan_free(p->layers[i].plan);
        free(p->layers[i].files);
    }
    free(p->layers);
    swx_pkg_storms_free(p->storms);
    free(p);
}

const swx_package_opts *swx_package_options(const swx_package *p)
{
    return &p->o;
}

const swx_seed_plan *swx_package_plan(const swx_package *p, size_t i, size_t *first)
{
    *first = p->layers[i].first;
    return p->layers[i].plan;
}

size_t swx_package_layer_count(const swx_package *p)
{
    return p->n;
}

const swx_layer *swx_package_wms_layer(const swx_package *p, size_t i)
{
    return swx_seed_plan_layer(p->layers[i].plan);
}

size_t swx_package_file_count(const swx_package *p, size_t i)
{
    return p->layers[i].nfiles - p->layers[i].first;
}

int64_t swx_package_file_time(const swx_package *p, size_t i, size_t f)
{
    return swx_seed_plan_time(p->layers[i].plan, p->layers[i].first + f);
}

static int lowest_zoom(uint32_t zooms)
{
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
        if (zooms & (1u << z))
            return z;
    return -1;
}

/* The window of file f ends half way to the next valid time (never, for
 * the last one). */
static int window_over(const swx_seed_plan *plan, size_t f, int64_t now)
{
    size_t n = swx_seed_plan_file_count(plan);
    if (f + 1 >= n)
        return 0;
    int64_t a = swx_seed_plan_time(plan, f), b = swx_seed_plan_time(plan, f + 1);
    return a + (b - a) / 2 <= now;
}

/* What identifies a file's content: the same identity, the same tiles. */
static void file_identity(swx_package *p, pkg_layer *L, size_t f)
{
    char buf[2048];
    const swx_voyage *v = p->o.voyage;
    int64_t dep = 0;
    double arr = 0, vmin, vmax;
    swx_voyage_span(&dep, &arr, v);
    swx_voyage_speed(&vmin, &vmax, v);
    size_t nf = swx_seed_plan_file_count(L->plan);
    int64_t t = swx_seed_plan_time(L->plan, f);
    int64_t prev = f ? swx_seed_plan_time(L->plan, f - 1) : INT64_MIN;
    int64_t next = f + 1 < nf ? swx_seed_plan_time(L->plan, f + 1) : INT64_MIN;
    swx_sha256_ctx c;
    swx_sha256_init(&c);
    int n =
        snprintf(buf, sizeof buf, "%s\n%s\n%s\n%lld %lld %lld\n%d %d %d %u\n%.3f %lld %.6f %.6f\n",
                 p->o.bundle, swx_layer_name(swx_seed_plan_layer(L->plan)), L->spec.style,
                 (long long)prev, (long long)t, (long long)next, L->spec.format, L->spec.quality,
                 p->o.tile_size, L->spec.zooms, p->o.buffer_m, (long long)dep, vmin, vmax);
    swx_sha256_update(&c, buf, (size_t)n);
    for (size_t i = 0; i < swx_voyage_waypoint_count(v); i++) {
        double lon, lat;
        int64_t wt;
        swx_voyage_waypoint(&lon, &lat, &wt, v, i);
        n = snprintf(buf, sizeof buf, "%.9f %.9f %lld\n", lon, lat, (long long)wt);
        swx_sha256_update(&c, buf, (size_t)n);
    }
    uint8_t d[SWX_SHA256_LEN];
    swx_sha256_final(d, &c);
    for (int i = 0; i < SWX_SHA256_LEN; i++)
        snprintf(L->files[f].identity + 2 * i, 3, "%02x", d[i]);
}

static double route_geojson_bytes(const swx_voyage *v)
{
    return 400.0 + 90.0 * (double)swx_voyage_waypoint_count(v);
}

double swx_package_quote_extra(const swx_package *p)
{
    size_t files = 0;
    for (size_t i = 0; i < p->n; i++)
        files += swx_package_file_count(p, i);
    return EXTRA_FIXED + p->route_bytes + EXTRA_PER_FILE * (double)files;
}

int swx_package_new(swx_package **out, const swx_caps *caps, const swx_package_opts *o)
{
    swx_package *p = NULL;
    int rc = 0;
    *out = NULL;
    if (!o->nlayers || o->nlayers > SWX_PACKAGE_MAX_LAYERS)
        return swx_error_set(SWX_EINVAL, "a package has 1 to %d layers, not %zu",
                             SWX_PACKAGE_MAX_LAYERS, o->nlayers);
    if (!o->voyage)
        return swx_error_set(SWX_EINVAL, "a package needs a voyage");
    p = calloc(1, sizeof *p);
    if (!p || !(p->layers = calloc(o->nlayers, sizeof *p->layers))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    p->o = *o;
    p->caps = caps;
    p->route_bytes = route_geojson_bytes(o->voyage);
    size_t kept_total = 0;
    for (size_t i = 0; i < o->nlayers; i++) {
        pkg_layer *L = &p->layers[i];
        L->spec = o->layers[i];
        p->n = i + 1;
        size_t k = 0;
        for (const char *c = L->spec.variable; *c && k + 1 < sizeof L->safe; c++)
            L->safe[k++] = *c == ':' ? '_' : *c;
        L->safe[k] = '\0';
        for (size_t j = 0; j < i; j++)
            if (strcmp(p->layers[j].safe, L->safe) == 0) {
                rc = swx_error_set(SWX_EINVAL, "layer %s is given twice", L->spec.variable);
                goto done;
            }
        for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
            L->nzooms += (L->spec.zooms >> z) & 1;
        swx_seed_opts so = {0};
        so.bundle = o->bundle;
        so.variable = L->spec.variable;
        so.run = o->run;
        so.times = "all";
        so.style = L->spec.style[0] ? L->spec.style : NULL;
        so.zooms = L->spec.zooms;
        so.tile_size = o->tile_size;
        so.metatile = 1;
        so.format = (swx_tile_format)L->spec.format;
        so.quality = L->spec.quality < 0 ? 0 : L->spec.quality;
        so.voyage = o->voyage;
        so.buffer_m = o->buffer_m;
        L->so = so;
        if ((rc = swx_seed_plan_new(&L->plan, caps, &L->so)))
            goto done;
        L->nfiles = swx_seed_plan_file_count(L->plan);
        while (L->first < L->nfiles && window_over(L->plan, L->first, o->now))
            L->first++;
        kept_total += L->nfiles - L->first;
        if (!(L->files = calloc(L->nfiles ? L->nfiles : 1, sizeof *L->files))) {
            rc = swx_error_set(SWX_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t f = 0; f < L->nfiles; f++) {
            char tc[32];
            compact_time(tc, sizeof tc, swx_seed_plan_time(L->plan, f));
            pathf(L->files[f].name, sizeof L->files[f].name, "%s-%s.mbtiles", L->safe, tc);
            file_identity(p, L, f);
        }
        for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
            L->bpt[z] = 0;
    }
    if (!kept_total) {
        char a[SWX_ISO8601_LEN];
        swx_iso8601_format(a, o->now);
        rc = swx_error_set(SWX_ENOTFOUND,
                           "every valid time of the voyage is past at %s; the voyage is over", a);
        goto done;
    }
    if (o->budget) {
        /* The least the first valid time at the lowest zoom can take. */
        double least = EXTRA_FIXED + p->route_bytes;
        int zlow = 99;
        for (size_t i = 0; i < p->n; i++) {
            pkg_layer *L = &p->layers[i];
            if (L->first >= L->nfiles)
                continue;
            int z = lowest_zoom(L->spec.zooms);
            zlow = z < zlow ? z : zlow;
            least += FILE_BYTES + EXTRA_PER_FILE +
                     MIN_TILE_BYTES * (double)swx_seed_plan_tiles(L->plan, L->first, z);
        }
        if (least > (double)o->budget) {
            rc = swx_error_set(SWX_EINVAL,
                               "a budget of %llu bytes cannot hold even the first valid time at "
                               "zoom %d (at least %.0f bytes in %zu layer%s)",
                               (unsigned long long)o->budget, zlow, least, p->n,
                               p->n == 1 ? "" : "s");
            goto done;
        }
    }
done:
    if (rc) {
        swx_package_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* ---- the quote ---- */

/* A small box around a point, as GeoJSON. */
static int sample_area(swx_area **out, double lon, double lat)
{
    char text[512];
    double d = 0.001;
    double w = lon - d < -180 ? lon : lon - d, e = lon + d > 180 ? lon : lon + d;
    int n = snprintf(text, sizeof text,
                     "{\"type\":\"Polygon\",\"coordinates\":[[[%.6f,%.6f],[%.6f,%.6f],[%.6f,%.6f],"
                     "[%.6f,%.6f],[%.6f,%.6f]]]}",
                     w, lat - d, e, lat - d, e, lat + d, w, lat + d, w, lat - d);
    return swx_area_from_geojson_polygons(out, text, (size_t)n);
}

/* Sample k of SAMPLE_POINTS: the tile at each zoom where the ship is half
 * way along its stretch at a valid time spread over the layer's files, into
 * its own file; adds the bytes each zoom added and its tiles. */
static int sample_one(double *bytes, uint64_t *tiles, swx_package *p, pkg_layer *L, swx_client *c,
                      const int64_t *times, size_t nt, size_t f, const char *path)
{
    swx_area *area = NULL;
    swx_seed_plan *sp = NULL;
    swx_seed *seed = NULL;
    double from, to, lon, lat;
    char ts[SWX_ISO8601_LEN];
    int rc = swx_voyage_stretch(&from, &to, p->o.voyage, times, nt, f);
    if (rc < 0)
        return rc;
    swx_voyage_point(&lon, &lat, p->o.voyage, rc == 1 ? (from + to) / 2 : 0);
    swx_iso8601_format(ts, times[f]);
    swx_seed_opts so = L->so;
    so.voyage = NULL;
    so.times = ts;
    if ((rc = sample_area(&area, lon, lat)))
        goto done;
    so.area = area;
    swx_seed_run_opts ro = {8, 0, NULL, NULL, NULL, NULL, NULL, NULL};
    if ((rc = swx_seed_plan_new(&sp, p->caps, &so)) || (rc = swx_seed_new(&seed, c, sp, &ro)))
        goto done;
    double before = FILE_BYTES;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
        if (!(L->spec.zooms & (1u << z)))
            continue;
        swx_seed_file_result r;
        if ((rc = swx_seed_file_zoom(&r, seed, 0, z, path)))
            goto done;
        double size = (double)file_size(path);
        bytes[z] += size - before;
        tiles[z] += r.stored + r.present;
        before = size;
    }
done:
    swx_seed_free(seed);
    swx_seed_plan_free(sp);
    swx_area_free(area);
    return rc;
}

int swx_package_quote_layer(swx_package_quote *out, swx_package *p, swx_client *c, size_t i)
{
    pkg_layer *L = &p->layers[i];
    int64_t *times = NULL;
    char dir[] = "/tmp/seawx-quote.XXXXXX", path[64];
    double bytes[SWX_TILE_MAX_ZOOM + 1] = {0};
    uint64_t tiles[SWX_TILE_MAX_ZOOM + 1] = {0};
    int have_dir = 0, rc;
    memset(out, 0, sizeof *out);
    out->files = L->nfiles - L->first;
    for (size_t f = L->first; f < L->nfiles; f++)
        for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
            if (!(L->spec.zooms & (1u << z)))
                continue;
            uint64_t r = 0;
            if ((rc = swx_seed_plan_requests(&r, L->plan, f, z)))
                return rc;
            out->requests += r;
            out->tiles += swx_seed_plan_tiles(L->plan, f, z);
        }
    if (!out->files)
        return 0;
    if (!(times = malloc(L->nfiles * sizeof *times)))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (size_t f = 0; f < L->nfiles; f++)
        times[f] = swx_seed_plan_time(L->plan, f);
    if (!mkdtemp(dir)) {
        rc = swx_error_set(SWX_EIO, "cannot make a folder in /tmp: %s", strerror(errno));
        goto done;
    }
    have_dir = 1;
    for (int k = 0; k < SAMPLE_POINTS; k++) {
        size_t f = L->first + (size_t)((k + 0.5) * (double)out->files / SAMPLE_POINTS);
        pathf(path, sizeof path, "%s/sample%d.mbtiles", dir, k);
        if ((rc = sample_one(bytes, tiles, p, L, c, times, L->nfiles, f, path)))
            goto done;
    }
    double last = 0;
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++) {
        if (!(L->spec.zooms & (1u << z)))
            continue;
        out->tile_bytes[z] = tiles[z] ? bytes[z] / (double)tiles[z] : 0;
        if (out->tile_bytes[z] < MIN_TILE_BYTES)
            out->tile_bytes[z] = last > 0 ? last : MIN_TILE_BYTES;
        last = out->tile_bytes[z];
    }
    out->bytes = FILE_BYTES * (double)out->files;
    for (size_t f = L->first; f < L->nfiles; f++)
        for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
            if (L->spec.zooms & (1u << z))
                out->bytes += out->tile_bytes[z] * (double)swx_seed_plan_tiles(L->plan, f, z);
    memcpy(L->bpt, out->tile_bytes, sizeof L->bpt);
done:
    free(times);
    if (have_dir)
        rm_tree(dir);
    return rc;
}

/* ---- writing the package's own files ---- */

static void xml_put(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

/* The route, RFC 7946: positions as given, split at 180 where a leg crosses
 * it (a MultiLineString), with the voyage's times and speeds. */
static int write_route(const char *path, const swx_package *p)
{
    const swx_voyage *v = p->o.voyage;
    FILE *f = fopen(path, "w");
    if (!f)
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
    size_t n = swx_voyage_waypoint_count(v);
    int crosses = 0;
    for (size_t i = 1; i < n; i++) {
        double a, b, lat;
        int64_t t;
        swx_voyage_waypoint(&a, &lat, &t, v, i - 1);
        swx_voyage_waypoint(&b, &lat, &t, v, i);
        crosses |= fabs(b - a) > 180;
    }
    fprintf(f,
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{");
    int64_t dep;
    double arr, vmin, vmax;
    swx_voyage_span(&dep, &arr, v);
    swx_voyage_speed(&vmin, &vmax, v);
    char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
    swx_iso8601_format(a, dep);
    swx_iso8601_format(b, (int64_t)ceil(arr));
    fprintf(f, "\"depart\":\"%s\",\"arrive_latest\":\"%s\",\"length_nm\":%.1f,\"buffer_nm\":%.1f",
            a, b, swx_voyage_length(v) / SWX_NM_M, p->o.buffer_m / SWX_NM_M);
    if (vmin > 0)
        fprintf(f, ",\"speed_kn\":[%g,%g]", vmin, vmax);
    if (swx_voyage_timed(v)) {
        fprintf(f, ",\"times\":[");
        for (size_t i = 0; i < n; i++) {
            double lon, lat;
            int64_t t;
            swx_voyage_waypoint(&lon, &lat, &t, v, i);
            swx_iso8601_format(a, t);
            fprintf(f, "%s\"%s\"", i ? "," : "", a);
        }
        fprintf(f, "]");
    }
    fprintf(f, "},\"geometry\":{\"type\":\"%s\",\"coordinates\":[%s",
            crosses ? "MultiLineString" : "LineString", crosses ? "[" : "");
    double plon = 0, plat = 0;
    for (size_t i = 0; i < n; i++) {
        double lon, lat;
        int64_t t;
        swx_voyage_waypoint(&lon, &lat, &t, v, i);
        if (i && fabs(lon - plon) > 180) {
            /* The crossing, on the straight line in longitude, latitude. */
            double l2 = lon + (lon < plon ? 360 : -360);
            double edge = l2 > plon ? 180 : -180;
            double fr = (edge - plon) / (l2 - plon);
            double yl = plat + fr * (lat - plat);
            fprintf(f, ",[%.6f,%.6f]],[[%.6f,%.6f]", edge, yl, -edge, yl);
        }
        fprintf(f, "%s[%.6f,%.6f]", i ? "," : "", lon, lat);
        plon = lon;
        plat = lat;
    }
    fprintf(f, "%s]}}]}\n", crosses ? "]" : "");
    if (ferror(f) | (fclose(f) != 0))
        return swx_error_set(SWX_EIO, "cannot write %s", path);
    return 0;
}

/* A file's fixed temporal range: its valid time until one second before the
 * next file of its layer (QGIS takes a raster's range as inclusive at its
 * end); the last one as long as the step before it, or an hour. */
static int64_t range_end(const pkg_layer *L, size_t f, size_t last)
{
    int64_t t = swx_seed_plan_time(L->plan, f);
    if (f + 1 <= last)
        return swx_seed_plan_time(L->plan, f + 1) - 1;
    if (f > L->first)
        return t + (t - swx_seed_plan_time(L->plan, f - 1)) - 1;
    return t + 3600 - 1;
}

/* The last file of layer L in the package, or SIZE_MAX when it has none. */
static size_t last_present(const pkg_layer *L)
{
    size_t last = SIZE_MAX;
    for (size_t f = L->first; f < L->nfiles; f++)
        if (L->files[f].present)
            last = f;
    return last;
}

static const char merc_srs[] =
    "<spatialrefsys><proj4>+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 "
    "+k=1 +units=m +nadgrids=@null +wktext +no_defs</proj4><srsid>3857</srsid><srid>3857</srid>"
    "<authid>EPSG:3857</authid><description>WGS 84 / Pseudo-Mercator</description>"
    "<projectionacronym>merc</projectionacronym><ellipsoidacronym>EPSG:7030</ellipsoidacronym>"
    "<geographicflag>false</geographicflag></spatialrefsys>";
static const char wgs_srs[] =
    "<spatialrefsys><proj4>+proj=longlat +datum=WGS84 +no_defs</proj4><srsid>3452</srsid>"
    "<srid>4326</srid><authid>EPSG:4326</authid><description>WGS 84</description>"
    "<projectionacronym>longlat</projectionacronym><ellipsoidacronym>EPSG:7030</ellipsoidacronym>"
    "<geographicflag>true</geographicflag></spatialrefsys>";

static void layer_id(char *out, size_t n, const pkg_layer *L, size_t f)
{
    char tc[32];
    compact_time(tc, sizeof tc, swx_seed_plan_time(L->plan, f));
    snprintf(out, n, "%s_%s", L->safe, tc);
}

/* The route's extent in Web Mercator metres with a margin of a fifth; a
 * route across 180 runs on east of it (x beyond the world's edge, as QGIS
 * draws it). */
static void view_extent(double *x0, double *y0, double *x1, double *y1, const swx_voyage *v)
{
    const double R = 6378137.0, D = M_PI / 180.0;
    double w = 1e9, e = -1e9, s = 90, n = -90, prev = 0, shift = 0;
    for (size_t i = 0; i < swx_voyage_waypoint_count(v); i++) {
        double lon, lat;
        int64_t t;
        swx_voyage_waypoint(&lon, &lat, &t, v, i);
        if (i && lon + shift - prev < -180)
            shift += 360;
        else if (i && lon + shift - prev > 180)
            shift -= 360;
        lon += shift;
        prev = lon;
        w = lon < w ? lon : w;
        e = lon > e ? lon : e;
        s = lat < s ? lat : s;
        n = lat > n ? lat : n;
    }
    s = s < -85 ? -85 : s;
    n = n > 85 ? 85 : n;
    *x0 = R * w * D;
    *x1 = R * e * D;
    *y0 = R * log(tan(M_PI / 4 + s * D / 2));
    *y1 = R * log(tan(M_PI / 4 + n * D / 2));
    double mx = (*x1 - *x0) / 5 + 50000, my = (*y1 - *y0) / 5 + 50000;
    *x0 -= mx;
    *x1 += mx;
    *y0 -= my;
    *y1 += my;
}

static int write_project(const char *path, const swx_package *p)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
    int64_t t0 = INT64_MAX, t1 = INT64_MIN, step = INT64_MAX;
    for (size_t i = 0; i < p->n; i++) {
        const pkg_layer *L = &p->layers[i];
        size_t last = last_present(L);
        for (size_t k = L->first; last != SIZE_MAX && k <= last; k++) {
            if (!L->files[k].present)
                continue;
            int64_t t = swx_seed_plan_time(L->plan, k), e = range_end(L, k, last) + 1;
            t0 = t < t0 ? t : t0;
            t1 = e > t1 ? e : t1;
            step = e - t < step ? e - t : step;
        }
    }
    if (t0 == INT64_MAX)
        t0 = t1 = 0;
    long hours = step == INT64_MAX ? 1 : (long)(step / 3600);
    hours = hours < 1 ? 1 : hours;
    char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
    fprintf(f, "<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>\n"
               "<qgis projectname=\"");
    xml_put(f, "voyage package");
    fprintf(f,
            "\" version=\"3.22.0\">\n  <homePath path=\"\"/>\n  <title>voyage package</title>\n"
            "  <projectCrs>%s</projectCrs>\n  <layer-tree-group>\n",
            merc_srs);
    fprintf(f, "    <layer-tree-layer checked=\"Qt::Checked\" name=\"route\" expanded=\"1\" "
               "providerKey=\"ogr\" id=\"voyage_route\" source=\"./route.geojson\"/>\n");
    if (p->storms)
        swx_pkg_storms_tree(f, p->storms);
    for (size_t i = 0; i < p->n; i++) {
        const pkg_layer *L = &p->layers[i];
        fprintf(f, "    <layer-tree-group checked=\"Qt::Checked\" name=\"");
        xml_put(f, L->spec.variable);
        fprintf(f, "\" expanded=\"1\">\n");
        for (size_t k = L->first; k < L->nfiles; k++) {
            if (!L->files[k].present)
                continue;
            char id[160];
            layer_id(id, sizeof id, L, k);
            swx_iso8601_format(a, swx_seed_plan_time(L->plan, k));
            fprintf(f, "      <layer-tree-layer checked=\"Qt::Checked\" name=\"");
            xml_put(f, L->spec.variable);
            fprintf(f, " %s\" expanded=\"0\" providerKey=\"gdal\" id=\"%s\" source=\"./%s\"/>\n", a,
                    id, L->files[k].name);
        }
        fprintf(f, "    </layer-tree-group>\n");
    }
    fprintf(f, "  </layer-tree-group>\n  <projectlayers>\n");
    fprintf(f,
            "    <maplayer type=\"vector\" geometry=\"Line\" wkbType=\"LineString\">\n"
            "      <id>voyage_route</id>\n      <datasource>./route.geojson</datasource>\n"
            "      <layername>route</layername>\n      <srs>%s</srs>\n"
            "      <provider encoding=\"UTF-8\">ogr</provider>\n"
            "      <renderer-v2 type=\"singleSymbol\" symbollevels=\"0\" enableorderby=\"0\">"
            "<symbols><symbol type=\"line\" name=\"0\" alpha=\"1\" clip_to_extent=\"1\">"
            "<layer class=\"SimpleLine\" enabled=\"1\" locked=\"0\" pass=\"0\">"
            "<Option type=\"Map\"><Option type=\"QString\" name=\"line_color\" "
            "value=\"220,20,60,255\"/><Option type=\"QString\" name=\"line_width\" "
            "value=\"0.8\"/></Option></layer></symbol></symbols></renderer-v2>\n"
            "    </maplayer>\n",
            wgs_srs);
    if (p->storms)
        swx_pkg_storms_layers(f, p->storms, wgs_srs);
    for (size_t i = 0; i < p->n; i++) {
        const pkg_layer *L = &p->layers[i];
        size_t last = last_present(L);
        for (size_t k = L->first; k < L->nfiles; k++) {
            if (!L->files[k].present)
                continue;
            char id[160];
            layer_id(id, sizeof id, L, k);
            swx_iso8601_format(a, swx_seed_plan_time(L->plan, k));
            swx_iso8601_format(b, range_end(L, k, last));
            fprintf(f,
                    "    <maplayer type=\"raster\">\n      <id>%s</id>\n"
                    "      <datasource>./%s</datasource>\n      <layername>",
                    id, L->files[k].name);
            xml_put(f, L->spec.variable);
            fprintf(f,
                    " %s</layername>\n      <srs>%s</srs>\n      <provider>gdal</provider>\n"
                    "      <temporal enabled=\"1\" mode=\"0\" fetchMode=\"0\">\n"
                    "        <fixedRange><start>%s</start><end>%s</end></fixedRange>\n"
                    "      </temporal>\n    </maplayer>\n",
                    a, merc_srs, a, b);
        }
    }
    swx_iso8601_format(a, t0);
    swx_iso8601_format(b, t1);
    double x0, y0, x1, y1;
    view_extent(&x0, &y0, &x1, &y1, p->o.voyage);
    fprintf(f,
            "  </projectlayers>\n  <mapcanvas name=\"theMapCanvas\" annotationsVisible=\"1\">\n"
            "    <units>meters</units>\n    <extent><xmin>%.1f</xmin><ymin>%.1f</ymin>"
            "<xmax>%.1f</xmax><ymax>%.1f</ymax></extent>\n    <rotation>0</rotation>\n"
            "    <destinationsrs>%s</destinationsrs>\n  </mapcanvas>\n"
            "  <ProjectViewSettings UseProjectScales=\"0\" rotation=\"0\">\n"
            "    <DefaultViewExtent xmin=\"%.1f\" ymin=\"%.1f\" xmax=\"%.1f\" ymax=\"%.1f\">%s"
            "</DefaultViewExtent>\n  </ProjectViewSettings>\n",
            x0, y0, x1, y1, merc_srs, x0, y0, x1, y1, merc_srs);
    fprintf(f,
            "  <properties>\n    <Paths><Absolute type=\"bool\">false"
            "</Absolute></Paths>\n"
            /* Without ProjectionsEnabled QGIS ignores <projectCrs> and opens
             * the project with no CRS: the route (degrees) and the rasters
             * (metres) would not line up. */
            "    <SpatialRefSys><ProjectionsEnabled type=\"int\">1</ProjectionsEnabled>"
            "</SpatialRefSys>\n  </properties>\n"
            "  <ProjectTimeSettings timeStep=\"%ld\" timeStepUnit=\"h\" frameRate=\"1\" "
            "cumulativeTemporalRange=\"0\">\n    <TemporalRange><start>%s</start><end>%s</end>"
            "</TemporalRange>\n  </ProjectTimeSettings>\n</qgis>\n",
            hours, a, b);
    if (ferror(f) | (fclose(f) != 0))
        return swx_error_set(SWX_EIO, "cannot write %s", path);
    return 0;
}

static void jsonw_zooms(swx_jsonw *w, uint32_t zooms)
{
    swx_jsonw_array_begin(w);
    for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
        if (zooms & (1u << z))
            swx_jsonw_int(w, z);
    swx_jsonw_array_end(w);
}

static int write_manifest(const char *dir, const swx_package *p, const swx_package_result *res,
                          const char *cut_layer, int64_t cut_time, int cut_zoom)
{
    char path[PATH_MAX];
    pathf(path, sizeof path, "%s/manifest.json", dir);
    FILE *f = fopen(path, "w");
    swx_jsonw *w = NULL;
    int rc = 0;
    if (!f)
        return swx_error_set(SWX_EIO, "cannot write %s: %s", path, strerror(errno));
    if ((rc = swx_jsonw_new(&w, f, 2))) {
        fclose(f);
        return rc;
    }
    const swx_voyage *v = p->o.voyage;
    int64_t dep;
    double arr, vmin, vmax;
    swx_voyage_span(&dep, &arr, v);
    swx_voyage_speed(&vmin, &vmax, v);
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
    swx_jsonw_key(w, "files");
    swx_jsonw_array_begin(w);
    for (size_t i = 0; i < p->n && !rc; i++) {
        const pkg_layer *L = &p->layers[i];
        size_t last = last_present(L);
        for (size_t k = L->first; k < L->nfiles && !rc; k++) {
            const pkg_file *pf = &L->files[k];
            if (!pf->present)
                continue;
            char fp[PATH_MAX], hex[SWX_SHA256_HEX_LEN];
            pathf(fp, sizeof fp, "%s/%s", dir, pf->name);
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
            swx_jsonw_time(w, swx_seed_plan_time(L->plan, k));
            swx_jsonw_key(w, "shown_until");
            swx_jsonw_time(w, range_end(L, k, last));
            swx_jsonw_key(w, "tiles");
            swx_jsonw_int(w, (int64_t)pf->tiles);
            swx_jsonw_key(w, "bytes");
            swx_jsonw_int(w, (int64_t)file_size(fp));
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
    if (!rc && p->storms) {
        swx_jsonw_key(w, "storms");
        rc = swx_pkg_storms_manifest(w, p->storms, dir);
    }
    swx_jsonw_object_end(w);
    int wrc = swx_jsonw_finish(w);
    int crc = fclose(f);
    if (!rc && (wrc || crc))
        rc = swx_error_set(SWX_EIO, "cannot write %s", path);
    return rc;
}

/* ---- building ---- */

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
    pathf(from, sizeof from, "%s/%s", c->old_dir, name);
    pathf(to, sizeof to, "%s/%s", c->part, name);
    if ((c->rc = copy_file(from, to)))
        return c->rc;
    pf->copied = 1;
    pf->present = 1;
    c->copied++;
    return 0;
}

/* Files of the current version complete with the same identity, copied. A
 * manifest that cannot be read gives nothing to take: everything is fetched. */
static int copy_unchanged(swx_package *p, const char *old_dir, const char *part, size_t *copied)
{
    char mp[PATH_MAX];
    copy_ud c = {p, old_dir, part, 0, 0};
    pathf(mp, sizeof mp, "%s/manifest.json", old_dir);
    read_listing(mp, "manifest", copy_listed, &c);
    *copied += c.copied;
    return c.rc;
}

/* resume.json in the folder of an interrupted build: its files and their
 * identities, so that the next build continues them. */
static int write_resume(const char *part, const swx_package *p)
{
    char path[PATH_MAX];
    pathf(path, sizeof path, "%s/resume.json", part);
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

static int resume_part(swx_package *p, const char *part)
{
    char rp[PATH_MAX];
    pathf(rp, sizeof rp, "%s/resume.json", part);
    if (read_listing(rp, "resume", mark_present, p)) {
        rm_tree(part); /* none, or what a build that was killed left */
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
            pathf(q, sizeof q, "%s/%s", part, de->d_name);
            rm_tree(q);
        }
    }
    closedir(d);
    return 0;
}

/* ---- storms (package_storms.c) ---- */

int swx_package_set_storms(swx_package *p, const swx_package_storms *s)
{
    swx_pkg_storms *n = NULL;
    int rc = swx_pkg_storms_new(&n, s);
    if (rc)
        return rc;
    swx_pkg_storms_free(p->storms);
    p->storms = n;
    p->storm_opts = *s;
    return 0;
}

const swx_package_storms *swx_package_storms_of(const swx_package *p)
{
    return p->storms ? &p->storm_opts : NULL;
}

const swx_voyage *swx_package_voyage_of(const swx_package *p)
{
    return p->o.voyage;
}

const swx_risk_report *swx_package_storm_risk(const swx_package *p)
{
    return p->storms ? swx_pkg_storms_risk(p->storms) : NULL;
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

/* The package's size: its files, and the room for route, manifest and project. */
static double package_bytes(const swx_package *p, size_t *nfiles)
{
    double b = EXTRA_FIXED + p->route_bytes;
    size_t n = 0;
    if (p->storms)
        b += (double)swx_pkg_storms_bytes(p->storms) + swx_pkg_storms_extra(p->storms);
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

int swx_package_build(swx_package_result *res, swx_package *p, swx_client *c,
                      const swx_package_run_opts *o)
{
    char dir[PATH_MAX], base[256], old_target[PATH_MAX] = "", old_dir[PATH_MAX] = "";
    char part[PATH_MAX] = "", final_dir[PATH_MAX], link_tmp[PATH_MAX], fp[PATH_MAX];
    char bak[PATH_MAX];
    unit *units = NULL;
    size_t nunits = 0;
    layer_ud *uds = NULL;
    build_ctx b;
    int rc, made_part = 0;
    const char *cut_layer = NULL;
    int64_t cut_time = 0;
    int cut_zoom = -1;
    memset(res, 0, sizeof *res);
    memset(&b, 0, sizeof b);
    b.p = p;
    b.o = o;
    if ((rc = split_path(dir, sizeof dir, base, sizeof base, p->o.path)))
        return rc;
    int state = swx_package_path_check(p->o.path);
    if (state < 0)
        return state;
    long version = 1;
    if (state == 1) {
        ssize_t tn = readlink(p->o.path, old_target, sizeof old_target - 1);
        if (tn > 0) {
            old_target[tn] = '\0';
            version = version_of(old_target, base) + 1;
            pathf(old_dir, sizeof old_dir, "%s/%s", dir, old_target);
        }
    }
    res->version = (int)version;
    pathf(final_dir, sizeof final_dir, "%s/.%s.v%ld", dir, base, version);
    pathf(part, sizeof part, "%s.part", final_dir);
    rm_tree(final_dir);
    if ((rc = resume_part(p, part)))
        goto done;
    made_part = 1;
    pathf(fp, sizeof fp, "%s/route.geojson", part);
    if ((rc = write_route(fp, p)))
        goto done;
    p->route_bytes = (double)file_size(fp);
    if (old_dir[0] && (rc = copy_unchanged(p, old_dir, part, &res->copied)))
        goto done;
    if ((rc = build_storms(res, p, c, part)))
        goto done;

    /* The steps, in the order the ship needs them. */
    for (size_t i = 0; i < p->n; i++)
        nunits += (p->layers[i].nfiles - p->layers[i].first) * (size_t)p->layers[i].nzooms;
    units = calloc(nunits ? nunits : 1, sizeof *units);
    uds = calloc(p->n, sizeof *uds);
    if (!units || !uds) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    nunits = 0;
    for (size_t i = 0; i < p->n; i++) {
        pkg_layer *L = &p->layers[i];
        for (size_t f = L->first; f < L->nfiles; f++) {
            /* Without a budget nothing is cut: a file's zooms in one step. */
            for (int z = 0; z <= SWX_TILE_MAX_ZOOM; z++)
                if ((L->spec.zooms & (1u << z)) &&
                    (p->o.budget || z == lowest_zoom(L->spec.zooms))) {
                    unit u = {swx_seed_plan_time(L->plan, f), p->o.budget ? z : -1, i, f};
                    units[nunits++] = u;
                }
            b.pr.total += swx_seed_plan_tiles(L->plan, f, -1);
            if (L->files[f].present) {
                pathf(fp, sizeof fp, "%s/%s", part, L->files[f].name);
                L->files[f].size = file_size(fp);
            }
        }
        uds[i].b = &b;
        uds[i].layer = i;
        swx_seed_run_opts ro = {o->in_flight, 0,         on_stop, o->cancel,
                                on_progress,  on_failed, &uds[i], o->share};
        swx_seed_free(L->seed);
        L->seed = NULL;
        memset(&L->c, 0, sizeof L->c);
        if ((rc = swx_seed_new(&L->seed, c, L->plan, &ro)))
            goto done;
    }
    qsort(units, nunits, sizeof *units, unit_cmp);

    size_t done_units = 0;
    for (size_t k = 0; k < nunits; k++) {
        unit *u = &units[k];
        pkg_layer *L = &p->layers[u->layer];
        pkg_file *pf = &L->files[u->file];
        if (o->stop && o->stop(o->ud)) {
            res->interrupted = 1;
            break;
        }
        b.pr.variable = L->spec.variable;
        b.pr.time = u->t;
        b.pr.zoom = u->z;
        pathf(fp, sizeof fp, "%s/%s", part, pf->name);
        pathf(bak, sizeof bak, "%s.before", fp);
        uint64_t ntiles = swx_seed_plan_tiles(L->plan, u->file, u->z < 0 ? -1 : u->z);
        double per = u->z >= 0 && L->bpt[u->z] > 0 ? L->bpt[u->z] : GUESS_TILE_BYTES;
        double est = per * (double)ntiles + (pf->present ? 0 : FILE_BYTES + EXTRA_PER_FILE);
        double now_bytes = package_bytes(p, NULL);
        b.pr.bytes = (uint64_t)now_bytes;
        int backup = 0;
        if (p->o.budget && pf->present && now_bytes + 2 * est + 8192 > (double)p->o.budget) {
            if ((rc = copy_file(fp, bak))) {
                unlink(bak);
                break; /* the file is as it was: kept for the next build below */
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
             * short is kept for the next build (below), which continues it. */
            pf->size = file_size(fp);
            pf->present = pf->size > 0;
        }
        if (rc == SWX_ECANCEL || (o->cancel && *o->cancel)) {
            res->interrupted = 1;
            rc = 0;
            break;
        }
        if (rc)
            break;
        if (!r.complete && o->stop && o->stop(o->ud)) {
            res->interrupted = 1;
            break;
        }
        double grew = (double)pf->size - (double)size_before - (was_present ? 0 : FILE_BYTES);
        if (u->z >= 0 && r.stored > 0 && grew > 0)
            L->bpt[u->z] = grew / (double)r.stored;
        if (p->o.budget && package_bytes(p, NULL) > (double)p->o.budget) {
            /* Too large: this step is taken back, and the build ends here. */
            if (backup) {
                if (rename(bak, fp) != 0) {
                    rc = swx_error_set(SWX_EIO, "cannot put back %s: %s", fp, strerror(errno));
                    goto done;
                }
                pf->size = file_size(fp);
            } else {
                unlink(fp);
                pf->present = 0;
                pf->size = 0;
                pf->zooms_done = 0;
            }
            res->cut = 1;
            cut_layer = L->spec.variable;
            cut_time = u->t;
            cut_zoom = u->z;
            break;
        }
        if (backup)
            unlink(bak);
        pf->zooms_done = u->z < 0 ? L->nzooms : pf->zooms_done + 1;
        if (!r.complete)
            pf->failed = 1;
        done_units = k + 1;
    }
    if (rc) {
        /* What was fetched stays for the next build, beside the package, as
         * for a build that was stopped; the error keeps its cause. */
        char why[400];
        snprintf(why, sizeof why, "%s", swx_error_last());
        size_t kept = 0;
        for (size_t i = 0; i < p->n; i++)
            for (size_t f = p->layers[i].first; f < p->layers[i].nfiles; f++)
                kept += p->layers[i].files[f].present;
        if (kept && write_resume(part, p) == 0) {
            made_part = 0;
            rc = swx_error_set(
                rc, "%s; what was fetched is kept in %s for the next build to continue", why, part);
        }
        goto done;
    }
    /* Valid times complete in every layer, from the first. */
    {
        size_t k = 0;
        while (k < nunits) {
            size_t e = k;
            while (e < nunits && units[e].t == units[k].t)
                e++;
            if (e > done_units)
                break;
            int ok = 1;
            for (size_t q = k; q < e; q++) {
                const pkg_file *pf = &p->layers[units[q].layer].files[units[q].file];
                ok &= !pf->failed;
            }
            if (!ok)
                break;
            res->complete_times++;
            k = e;
        }
    }
    if (res->interrupted) {
        /* What was fetched stays for the next build, beside the package. */
        if (write_resume(part, p) == 0) {
            made_part = 0;
            rc = swx_error_set(SWX_ECANCEL,
                               "stopped; the package was left as it was, and what was fetched is "
                               "kept in %s for the next build",
                               part);
        } else {
            rc = swx_error_set(SWX_ECANCEL, "stopped; the package was left as it was");
        }
        goto done;
    }
    if (res->cut) {
        char a[SWX_ISO8601_LEN], last[160] = "nothing";
        swx_iso8601_format(a, cut_time);
        if (done_units) {
            const unit *lu = &units[done_units - 1];
            char lt[SWX_ISO8601_LEN];
            swx_iso8601_format(lt, lu->t);
            snprintf(last, sizeof last, "%s %s zoom %d", p->layers[lu->layer].spec.variable, lt,
                     lu->z);
        }
        snprintf(res->cut_line, sizeof res->cut_line,
                 "the budget of %llu bytes stopped the package before %s %s zoom %d; the last "
                 "complete step was %s, and %zu valid time%s are complete in every layer",
                 (unsigned long long)p->o.budget, cut_layer, a, cut_zoom, last, res->complete_times,
                 res->complete_times == 1 ? "" : "s");
        if (!done_units) {
            rc = swx_error_set(SWX_EINVAL,
                               "a budget of %llu bytes cannot hold even the first valid time at "
                               "zoom %d",
                               (unsigned long long)p->o.budget, cut_zoom);
            goto done;
        }
    }
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
        res->requests += L->c.requests;
        res->shared += L->c.shared;
    }
    pathf(fp, sizeof fp, "%s/project.qgs", part);
    if ((rc = write_project(fp, p)) ||
        (rc = write_manifest(part, p, res, cut_layer, cut_time, cut_zoom)))
        goto done;
    {
        double total = 0;
        const char *names[] = {"route.geojson", "project.qgs", "manifest.json"};
        for (size_t i = 0; i < 3; i++) {
            pathf(fp, sizeof fp, "%s/%s", part, names[i]);
            total += (double)file_size(fp);
        }
        total += (double)res->storm_bytes;
        for (size_t i = 0; i < p->n; i++)
            for (size_t f = p->layers[i].first; f < p->layers[i].nfiles; f++)
                if (p->layers[i].files[f].present)
                    total += (double)p->layers[i].files[f].size;
        res->bytes = (uint64_t)total;
        if (p->o.budget && total > (double)p->o.budget) {
            rc = swx_error_set(SWX_EIO, "the package came to %.0f bytes, over the budget of %llu",
                               total, (unsigned long long)p->o.budget);
            goto done;
        }
    }
    /* In place: the version folder, then the link swapped over PATH. */
    if (rename(part, final_dir) != 0) {
        rc = swx_error_set(SWX_EIO, "cannot rename %s: %s", part, strerror(errno));
        goto done;
    }
    made_part = 0;
    pathf(part, sizeof part, "%s", final_dir);
    pathf(link_tmp, sizeof link_tmp, "%s/.%s.link", dir, base);
    unlink(link_tmp);
    char target[300];
    pathf(target, sizeof target, ".%s.v%ld", base, version);
    if (symlink(target, link_tmp) != 0 || rename(link_tmp, p->o.path) != 0) {
        rc = swx_error_set(SWX_EIO, "cannot put the package in place at %s: %s", p->o.path,
                           strerror(errno));
        unlink(link_tmp);
        rm_tree(final_dir);
        goto done;
    }
    /* The version before stays for readers that began on it; older ones go. */
    for (long v = version - 2; v >= 1; v--) {
        char old[PATH_MAX];
        pathf(old, sizeof old, "%s/.%s.v%ld", dir, base, v);
        if (access(old, F_OK) != 0)
            break;
        rm_tree(old);
    }
done:
    if (made_part)
        rm_tree(part);
    for (size_t i = 0; i < p->n; i++) {
        swx_seed_free(p->layers[i].seed);
        p->layers[i].seed = NULL;
    }
    free(units);
    free(uds);
    return rc;
}
