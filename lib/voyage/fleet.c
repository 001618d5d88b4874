/* fleet.c: fleets (seawx/fleet.h): the fleet file, the deal of ships to
 * shards, and the count of GetMaps a fleet shares. */
#include "seawx/fleet.h"

#include "jsonr.h"
#include "buf.h"
#include "package_int.h"
#include "seawx/error.h"
#include "seawx/readfile.h"
#include "seawx/shard.h"
#include "seawx/iso8601.h"
#include "seawx/plan.h"
#include "seawx/wms.h"
#include "seed_plan.h"
#include "sha256.h"
#include "tile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLEET_MAX_ROUTE (16u * 1024u * 1024u)
#define FLEET_DEFAULT_ZOOMS "3-6"
#define FLEET_DEFAULT_BUFFER_NM 10.0
#define FLEET_COUNT_MAX (1u << 26)

struct swx_fleet {
    char bundle[128];
    char run[64]; /* "": the newest complete run */
    int tile_size;
    swx_fleet_ship *ships;
    size_t nships;
};

/* The fleet-wide defaults while parsing. */
typedef struct defaults {
    json_object *layers;
    uint32_t zooms;
    int format;
    int quality;
    double buffer_nm;
    uint64_t budget;
} defaults;

void swx_fleet_free(swx_fleet *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->nships; i++) {
        swx_voyage_free(f->ships[i].voyage);
        swx_polar_free(f->ships[i].polar);
    }
    free(f->ships);
    free(f);
}

const char *swx_fleet_bundle(const swx_fleet *f)
{
    return f->bundle;
}

const char *swx_fleet_run(const swx_fleet *f)
{
    return f->run[0] ? f->run : NULL;
}

int swx_fleet_tile_size(const swx_fleet *f)
{
    return f->tile_size;
}

size_t swx_fleet_ship_count(const swx_fleet *f)
{
    return f->nships;
}

const swx_fleet_ship *swx_fleet_ship_at(const swx_fleet *f, size_t i)
{
    return i < f->nships ? &f->ships[i] : NULL;
}

int swx_fleet_set_voyage(swx_fleet *f, size_t i, swx_voyage *v)
{
    if (i >= f->nships || !v)
        return swx_error_set(SWX_EINVAL, "no ship %zu in the fleet", i + 1);
    swx_voyage_free(f->ships[i].voyage);
    f->ships[i].voyage = v;
    return 0;
}

/* ---- parsing ---- */

/* A number field (a JSON number) within [lo, hi]. */
static int get_number(double *out, json_object *v, const char *field, double lo, double hi)
{
    if (!swx_jsonr_num(out, v) || !isfinite(*out) || *out < lo || *out > hi)
        return swx_error_set(SWX_EINVAL, "%s must be a number from %g to %g", field, lo, hi);
    return 0;
}

static const char *get_string(json_object *v)
{
    return swx_jsonr_str(v);
}

/* A size field: a string ("20MB") or a number of bytes. */
static int get_size(uint64_t *out, json_object *v, const char *field)
{
    double d;
    const char *s = get_string(v);
    if (s)
        return swx_size_parse(out, s) ? swx_error_prefix(SWX_EINVAL, "%s", field) : 0;
    if (swx_jsonr_num(&d, v) && d >= 1 && d <= 1e18 && d == floor(d)) {
        *out = (uint64_t)d;
        return 0;
    }
    return swx_error_set(SWX_EINVAL, "%s must be a size: \"20MB\", \"1.5MiB\" or bytes", field);
}

/* The layers of a ship: an array of 1 to SWX_PACKAGE_MAX_LAYERS specs, with
 * the fleet's zooms, format and quality where a spec gives none (as seawx
 * voyage does with its options). */
static int get_layers(swx_fleet_ship *s, json_object *arr, const defaults *d)
{
    if (!arr || !json_object_is_type(arr, json_type_array))
        return swx_error_set(SWX_EINVAL,
                             "layers must be an array of layer specs (\"swh:zoom=3-6\")");
    size_t n = json_object_array_length(arr);
    if (swx_package_layer_count_check(n))
        return swx_error_prefix(SWX_EINVAL, "layers");
    for (size_t i = 0; i < n; i++) {
        swx_package_layer *l = &s->layers[i];
        const char *spec = get_string(json_object_array_get_idx(arr, i));
        char what[32];
        if (!spec)
            return swx_error_set(SWX_EINVAL, "layers[%zu] must be a string", i);
        if (swx_package_layer_parse(l, spec))
            return swx_error_prefix(SWX_EINVAL, "layers[%zu]", i);
        snprintf(what, sizeof what, "layers[%zu]", i);
        if (swx_package_layer_complete(l, d->zooms, d->format, d->quality, what))
            return SWX_EINVAL;
    }
    s->nlayers = n;
    return 0;
}

/* The file field (route, polar) rel, relative to base_dir. */
static int read_route(char **out, size_t *len, const char *base_dir, const char *rel,
                      const char *field)
{
    char path[4096];
    *out = NULL;
    *len = 0;
    if (!*rel)
        return swx_error_set(SWX_EINVAL, "%s is an empty file name", field);
    int n = rel[0] == '/' || !base_dir || !*base_dir
                ? snprintf(path, sizeof path, "%s", rel)
                : snprintf(path, sizeof path, "%s/%s", base_dir, rel);
    if (n < 0 || (size_t)n >= sizeof path)
        return swx_error_set(SWX_EINVAL, "%s: the file name is too long", field);
    int rc = swx_read_file(out, len, path, FLEET_MAX_ROUTE);
    return rc ? swx_error_prefix(rc, "%s", field) : 0;
}

/* "polar": a polar file (relative to base_dir) into s->polar. */
static int read_polar(swx_fleet_ship *s, json_object *v, const char *base_dir)
{
    const char *rel = get_string(v);
    char *text = NULL;
    size_t len = 0;
    if (!rel)
        return swx_error_set(SWX_EINVAL, "polar must be a polar file's name");
    int rc = read_route(&text, &len, base_dir, rel, "polar");
    if (!rc && (rc = swx_polar_parse(&s->polar, text, len)))
        swx_error_prefix(rc, "polar %.200s", rel);
    free(text);
    return rc;
}

static int name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > SWX_FLEET_NAME_MAX || s[0] == '.')
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

/* One ship; its errors without the ship's prefix (the caller adds it). */
static int parse_ship(swx_fleet_ship *s, json_object *o, const defaults *d, const char *base_dir)
{
    json_object *route = NULL, *route_csv = NULL, *layers = d->layers;
    const char *depart_s = NULL, *speed_s = NULL;
    char speed_buf[64];
    double buffer_nm = d->buffer_nm, num;
    char *text = NULL;
    size_t tlen = 0;
    int rc = 0;
    s->budget = d->budget;
    json_object_object_foreach(o, key, v)
    {
        if (strcmp(key, "name") == 0)
            continue;
        if (strcmp(key, "route") == 0)
            route = v;
        else if (strcmp(key, "route_csv") == 0)
            route_csv = v;
        else if (strcmp(key, "layers") == 0)
            layers = v;
        else if (strcmp(key, "depart") == 0) {
            if (!(depart_s = get_string(v)))
                return swx_error_set(SWX_EINVAL, "depart must be an ISO 8601 instant");
        } else if (strcmp(key, "speed") == 0) {
            if (!(speed_s = get_string(v))) {
                if (!swx_jsonr_num(&num, v))
                    return swx_error_set(SWX_EINVAL, "speed must be knots: 12 or \"10-14\"");
                snprintf(speed_buf, sizeof speed_buf, "%.17g", num);
                speed_s = speed_buf;
            }
        } else if (strcmp(key, "buffer_nm") == 0) {
            if ((rc = get_number(&buffer_nm, v, "buffer_nm", 0, 2000)))
                return rc;
        } else if (strcmp(key, "budget") == 0) {
            if ((rc = get_size(&s->budget, v, "budget")))
                return rc;
        } else if (strcmp(key, "routed") == 0) {
            if (!json_object_is_type(v, json_type_boolean))
                return swx_error_set(SWX_EINVAL, "routed must be true or false");
            s->routed = json_object_get_boolean(v);
        } else if (strcmp(key, "polar") == 0) {
            if (s->polar)
                return swx_error_set(SWX_EINVAL, "polar is given twice");
            if ((rc = read_polar(s, v, base_dir)))
                return rc;
        } else {
            return swx_error_set(SWX_EINVAL,
                                 "unknown field '%.40s' (a ship has name, route or route_csv, "
                                 "depart, speed, layers, buffer_nm, budget, routed, polar)",
                                 key);
        }
    }
    if (!layers)
        return swx_error_set(SWX_EINVAL, "no layers: give the fleet's \"layers\" or the ship's");
    if ((rc = get_layers(s, layers, d)))
        return rc;
    s->buffer_m = buffer_nm * SWX_NM_M;
    if (!!route == !!route_csv)
        return swx_error_set(SWX_EINVAL, "give one route: \"route\" (a file or GeoJSON) or "
                                         "\"route_csv\"");
    if (route_csv) {
        const char *t = get_string(route_csv);
        if (!t)
            return swx_error_set(SWX_EINVAL, "route_csv must be a string of CSV lines");
        rc = swx_voyage_from_route(&s->voyage, t, strlen(t));
    } else if (get_string(route)) {
        if ((rc = read_route(&text, &tlen, base_dir, get_string(route), "route")))
            return rc;
        rc = swx_voyage_from_route(&s->voyage, text, tlen);
    } else if (json_object_is_type(route, json_type_object)) {
        const char *t = json_object_to_json_string_ext(route, JSON_C_TO_STRING_PLAIN);
        rc = t ? swx_voyage_from_route(&s->voyage, t, strlen(t))
               : swx_error_set(SWX_ENOMEM, "out of memory");
    } else {
        rc = swx_error_set(SWX_EINVAL, "route must be a file name or a GeoJSON object");
    }
    free(text);
    if (rc)
        return swx_error_prefix(rc, "route");
    if (!!depart_s != !!speed_s)
        return swx_error_set(SWX_EINVAL, "a voyage needs both depart and speed (or a route with "
                                         "waypoint times)");
    swx_voyage_sailing sail = {.given = depart_s != NULL};
    if (depart_s && swx_iso8601_parse(&sail.depart, depart_s))
        return swx_error_set(SWX_EINVAL,
                             "depart '%.60s' is not an ISO 8601 instant (2026-03-01T06:00:00Z)",
                             depart_s);
    if (speed_s && swx_speed_parse(&sail.min_kn, &sail.max_kn, speed_s))
        return swx_error_prefix(SWX_EINVAL, "speed");
    if (s->polar && !s->routed)
        return swx_error_set(SWX_EINVAL, "polar goes with \"routed\": true (the route search's "
                                         "boat)");
    if (s->routed && !depart_s)
        return swx_error_set(SWX_EINVAL, "routed needs depart and speed and a route without "
                                         "waypoint times (the route found gives its own)");
    return swx_voyage_set_sailing(s->voyage, &sail);
}

/* The fleet's own fields; the defaults they set. */
static int parse_top(swx_fleet *f, defaults *d, json_object *root, json_object **ships)
{
    const char *zoom_s = FLEET_DEFAULT_ZOOMS, *format_s = NULL;
    char names[128];
    double num;
    int rc;
    *ships = NULL;
    json_object_object_foreach(root, key, v)
    {
        const char *s = get_string(v);
        if (strcmp(key, "ships") == 0) {
            *ships = v;
        } else if (strcmp(key, "bundle") == 0) {
            if (!s || strlen(s) >= sizeof f->bundle)
                return swx_error_set(SWX_EINVAL, "bundle must be a bundle's name");
            snprintf(f->bundle, sizeof f->bundle, "%s", s);
        } else if (strcmp(key, "run") == 0) {
            if (!s || strlen(s) >= sizeof f->run)
                return swx_error_set(SWX_EINVAL, "run must be latest, YYYYMMDDHH or an ISO 8601 "
                                                 "instant");
            snprintf(f->run, sizeof f->run, "%s", strcmp(s, "latest") == 0 ? "" : s);
        } else if (strcmp(key, "layers") == 0) {
            d->layers = v;
        } else if (strcmp(key, "zoom") == 0) {
            if (!s)
                return swx_error_set(SWX_EINVAL, "zoom must be a string: \"5\", \"3-9\" or "
                                                 "\"3,5,7\"");
            zoom_s = s;
        } else if (strcmp(key, "format") == 0) {
            if (!(format_s = s))
                return swx_error_set(SWX_EINVAL, "format must be %s",
                                     swx_tile_format_names(names, sizeof names, 0,
                                                           SWX_PACKAGE_VIEWERS,
                                                           SWX_PACKAGE_DEFAULT_FORMAT));
        } else if (strcmp(key, "quality") == 0) {
            if ((rc = get_number(&num, v, "quality", 1, 100)))
                return rc;
            d->quality = (int)num;
        } else if (strcmp(key, "buffer_nm") == 0) {
            if ((rc = get_number(&d->buffer_nm, v, "buffer_nm", 0, 2000)))
                return rc;
        } else if (strcmp(key, "budget") == 0) {
            if ((rc = get_size(&d->budget, v, "budget")))
                return rc;
        } else if (strcmp(key, "tile_size") == 0) {
            /* A number, whole: anything else is no size (0). */
            int ts = swx_jsonr_num(&num, v) && num >= 0 && num <= 4096 && num == floor(num)
                         ? (int)num
                         : 0;
            if ((rc = swx_tile_size_check(ts, "tile_size")))
                return rc;
            f->tile_size = ts;
        } else {
            return swx_error_set(SWX_EINVAL,
                                 "unknown field '%.40s' (a fleet has bundle, run, layers, zoom, "
                                 "format, quality, buffer_nm, budget, tile_size, ships)",
                                 key);
        }
    }
    if (!f->bundle[0])
        return swx_error_set(SWX_EINVAL, "no bundle: the fleet needs \"bundle\"");
    if (swx_wms_bundle_check(f->bundle))
        return swx_error_prefix(SWX_EINVAL, "bundle");
    if (swx_zoom_list_parse(&d->zooms, zoom_s))
        return swx_error_prefix(SWX_EINVAL, "zoom");
    swx_tile_format fmt = SWX_PACKAGE_DEFAULT_FORMAT;
    if (format_s && swx_tile_format_parse(&fmt, format_s))
        return swx_error_prefix(SWX_EINVAL, "format");
    d->format = (int)fmt;
    if ((rc = swx_package_quality_check((int)fmt, d->quality)))
        return rc;
    if (!*ships || !json_object_is_type(*ships, json_type_array) ||
        json_object_array_length(*ships) < 1)
        return swx_error_set(SWX_EINVAL, "ships must be an array of at least one ship");
    if (json_object_array_length(*ships) > SWX_FLEET_MAX_SHIPS)
        return swx_error_set(SWX_EINVAL, "at most %d ships in a fleet, not %zu",
                             SWX_FLEET_MAX_SHIPS, json_object_array_length(*ships));
    return 0;
}

int swx_fleet_parse(swx_fleet **out, const char *text, size_t len, const char *base_dir)
{
    json_object *root = NULL, *ships = NULL;
    swx_fleet *f = NULL;
    defaults d = {NULL, 0, SWX_PACKAGE_DEFAULT_FORMAT, 0, FLEET_DEFAULT_BUFFER_NM, 0};
    int rc = 0;
    *out = NULL;
    if (len > SWX_FLEET_MAX_BYTES)
        return swx_error_set(SWX_EINVAL, "a fleet file is at most %u MiB",
                             SWX_FLEET_MAX_BYTES >> 20);
    if (swx_jsonr_parse(&root, text, len, "the fleet file")) {
        /* A fleet file is the user's input: not valid JSON is a usage error. */
        char line[512];
        snprintf(line, sizeof line, "%s", swx_error_last());
        return swx_error_set(SWX_EINVAL, "%s", line);
    }
    if (!json_object_is_type(root, json_type_object)) {
        rc = swx_error_set(SWX_EINVAL, "a fleet file is one JSON object with bundle and ships");
        goto done;
    }
    if (!(f = calloc(1, sizeof *f))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    f->tile_size = 256;
    if ((rc = parse_top(f, &d, root, &ships)))
        goto done;
    size_t n = json_object_array_length(ships);
    if (!(f->ships = calloc(n, sizeof *f->ships))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        swx_fleet_ship *s = &f->ships[i];
        json_object *o = json_object_array_get_idx(ships, i);
        f->nships = i + 1;
        if (!json_object_is_type(o, json_type_object)) {
            rc = swx_error_set(SWX_EINVAL, "ship %zu: a ship is a JSON object", i + 1);
            goto done;
        }
        const char *name = get_string(swx_jsonr_path(o, "name", NULL));
        if (!name || !name_ok(name)) {
            rc = swx_error_set(SWX_EINVAL,
                               "ship %zu: name must be 1 to %d of A-Z a-z 0-9 . _ - (not "
                               "starting with '.'): it names the ship's package folder",
                               i + 1, SWX_FLEET_NAME_MAX);
            goto done;
        }
        snprintf(s->name, sizeof s->name, "%s", name);
        for (size_t j = 0; j < i; j++)
            if (strcmp(f->ships[j].name, s->name) == 0) {
                rc = swx_error_set(SWX_EINVAL, "ship %zu (%s): the name is ship %zu's too", i + 1,
                                   s->name, j + 1);
                goto done;
            }
        if ((rc = parse_ship(s, o, &d, base_dir))) {
            rc = swx_error_prefix(rc, "ship %zu (%s)", i + 1, s->name);
            goto done;
        }
    }
done:
    json_object_put(root);
    if (rc) {
        swx_fleet_free(f);
        return rc;
    }
    *out = f;
    return 0;
}

int swx_fleet_read(swx_fleet **out, const char *path)
{
    char dir[4096];
    char *text = NULL;
    *out = NULL;
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    size_t got = 0;
    int rc = swx_read_file(&text, &got, path, SWX_FLEET_MAX_BYTES);
    if (rc)
        return rc;
    if ((rc = swx_fleet_parse(out, text, got, dir)))
        rc = swx_error_prefix(rc, "%s", path);
    free(text);
    return rc;
}

/* ---- counting shared GetMaps ---- */

struct swx_fleet_count {
    uint64_t *slots; /* 0: empty; a key hashed to 0 is stored as 1 */
    size_t cap, n;
};

int swx_fleet_count_new(swx_fleet_count **out)
{
    swx_fleet_count *c = calloc(1, sizeof *c);
    *out = NULL;
    if (!c || !(c->slots = calloc(c->cap = 1024, sizeof *c->slots))) {
        free(c);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    *out = c;
    return 0;
}

void swx_fleet_count_free(swx_fleet_count *c)
{
    if (!c)
        return;
    free(c->slots);
    free(c);
}

static size_t slot_of(const uint64_t *slots, size_t cap, uint64_t h)
{
    size_t i = (size_t)(h & (cap - 1));
    while (slots[i] && slots[i] != h)
        i = (i + 1) & (cap - 1);
    return i;
}

static int count_has(const swx_fleet_count *c, uint64_t h)
{
    return c->slots[slot_of(c->slots, c->cap, h ? h : 1)] != 0;
}

/* 1 when key h was new, 0 when counted before, or a negative code. */
static int count_put(swx_fleet_count *c, uint64_t h)
{
    if (!h)
        h = 1;
    if ((c->n + 1) * 2 > c->cap) {
        if (c->n >= FLEET_COUNT_MAX)
            return swx_error_set(SWX_ETOOBIG, "more than %u distinct GetMaps to count",
                                 FLEET_COUNT_MAX);
        size_t cap = c->cap * 2;
        uint64_t *sl = calloc(cap, sizeof *sl);
        if (!sl)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        for (size_t i = 0; i < c->cap; i++)
            if (c->slots[i])
                sl[slot_of(sl, cap, c->slots[i])] = c->slots[i];
        free(c->slots);
        c->slots = sl;
        c->cap = cap;
    }
    size_t i = slot_of(c->slots, c->cap, h);
    if (c->slots[i])
        return 0;
    c->slots[i] = h;
    c->n++;
    return 1;
}

/* Calls fn with the key of every GetMap package p asks for alone (one per
 * tile: metatile 1): a hash of the key-free request's parts. */
static int each_getmap(const swx_package *p, int (*fn)(void *ud, uint64_t h), void *ud)
{
    const swx_package_opts *o = swx_package_options(p);
    swx_tile_iter *it = NULL;
    int rc = 0;
    for (size_t i = 0; i < swx_package_layer_count(p) && !rc; i++) {
        size_t first;
        const swx_seed_plan *plan = swx_package_plan(p, i, &first);
        const char *layer = swx_layer_name(swx_package_wms_layer(p, i));
        const char *style = o->layers[i].style;
        for (size_t f = first; f < swx_seed_plan_file_count(plan) && !rc; f++) {
            long long t = (long long)swx_seed_plan_time(plan, f);
            for (int z = 0; z <= SWX_TILE_MAX_ZOOM && !rc; z++) {
                if (!(o->layers[i].zooms & (1u << z)))
                    continue;
                if ((rc = swx_tile_iter_new(&it, swx_seed_plan_area(plan, f), z, 1)))
                    break;
                swx_tile_block b;
                int more;
                while ((more = swx_tile_iter_next(&b, it)) > 0) {
                    if (!(b.mask & 1))
                        continue;
                    char key[512];
                    uint8_t d[SWX_SHA256_LEN];
                    int kn = snprintf(key, sizeof key, "%s\n%lld\n%s\n%d\n%d/%u/%u", layer, t,
                                      style, o->tile_size, b.z, b.x0, b.y0);
                    swx_sha256(d, NULL, key, kn > 0 && (size_t)kn < sizeof key ? (size_t)kn : 0);
                    uint64_t h = 0;
                    for (int k = 0; k < 8; k++)
                        h = h << 8 | d[k];
                    if ((rc = fn(ud, h)))
                        break;
                }
                if (!rc && more < 0)
                    rc = more;
                swx_tile_iter_free(it);
                it = NULL;
            }
        }
    }
    swx_tile_iter_free(it);
    return rc;
}

typedef struct add_ud {
    swx_fleet_count *c;
    uint64_t getmaps, added;
} add_ud;

static int add_one(void *ud, uint64_t h)
{
    add_ud *a = ud;
    int r = count_put(a->c, h);
    if (r < 0)
        return r;
    a->getmaps++;
    a->added += (uint64_t)r;
    return 0;
}

int swx_fleet_count_add(uint64_t *getmaps, uint64_t *added, swx_fleet_count *c,
                        const swx_package *p)
{
    add_ud a = {c, 0, 0};
    int rc = each_getmap(p, add_one, &a);
    *getmaps = a.getmaps;
    *added = a.added;
    return rc;
}

/* ---- the deal ---- */

/* One ship's keys, gathered for the deal. */
typedef struct keys {
    uint64_t *v;
    size_t n, cap;
} keys;

static int keep_key(void *ud, uint64_t h)
{
    keys *k = ud;
    if (k->n >= FLEET_COUNT_MAX)
        return swx_error_set(SWX_ETOOBIG, "more than %u GetMaps in one ship's package",
                             FLEET_COUNT_MAX);
    uint64_t *v = swx_array_reserve(k->v, &k->cap, k->n + 1, sizeof *v, 256);
    if (!v)
        return SWX_ENOMEM;
    k->v = v;
    k->v[k->n++] = h;
    return 0;
}

int swx_fleet_deal(int *shard_of, swx_package *const *pkgs, size_t n, int shards)
{
    if (shards < 1 || shards > SWX_SHARD_MAX)
        return swx_error_set(SWX_EINVAL, "shards must be 1 to %d, not %d", SWX_SHARD_MAX, shards);
    keys *ks = calloc(n ? n : 1, sizeof *ks);
    swx_fleet_count **sets = calloc((size_t)shards, sizeof *sets);
    uint64_t *load = calloc((size_t)shards, sizeof *load);
    char *dealt = calloc(n ? n : 1, 1);
    uint64_t total = 0;
    int rc = 0;
    if (!ks || !sets || !load || !dealt) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n && !rc; i++) {
        rc = each_getmap(pkgs[i], keep_key, &ks[i]);
        total += ks[i].n;
    }
    for (int s = 0; s < shards && !rc; s++)
        rc = swx_fleet_count_new(&sets[s]);
    if (rc)
        goto done;
    /* A shard may take up to a tenth more than the mean before it counts as full. */
    uint64_t cap = (total + (uint64_t)shards - 1) / (uint64_t)shards;
    cap += cap / 10;
    for (size_t k = 0; k < n && !rc; k++) {
        size_t best = n;
        for (size_t i = 0; i < n; i++)
            if (!dealt[i] && (best == n || ks[i].n > ks[best].n))
                best = i;
        const keys *b = &ks[best];
        /* Among the shards it fits in, the one that already asks for most of
         * its GetMaps (the same lane); else the lightest. */
        int to = -1;
        uint64_t to_new = 0;
        for (int s = 0; s < shards; s++) {
            if (load[s] && load[s] + b->n > cap)
                continue;
            uint64_t fresh = 0;
            for (size_t j = 0; j < b->n; j++)
                fresh += !count_has(sets[s], b->v[j]);
            if (to < 0 || fresh < to_new || (fresh == to_new && load[s] < load[to])) {
                to = s;
                to_new = fresh;
            }
        }
        if (to < 0) {
            to = 0;
            for (int s = 1; s < shards; s++)
                if (load[s] < load[to])
                    to = s;
        }
        for (size_t j = 0; j < b->n && !rc; j++)
            rc = count_put(sets[to], b->v[j]) < 0 ? SWX_ENOMEM : 0;
        dealt[best] = 1;
        shard_of[best] = to + 1;
        load[to] += b->n;
    }
done:
    for (size_t i = 0; ks && i < n; i++)
        free(ks[i].v);
    for (int s = 0; sets && s < shards; s++)
        swx_fleet_count_free(sets[s]);
    free(ks);
    free(sets);
    free(load);
    free(dealt);
    return rc;
}
