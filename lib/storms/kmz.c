/* kmz.c: the storm KMZ read back into the storm model (see seawx/kmz.h). */
#include "kmz_priv.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "storm_priv.h"
#include "xml.h"

#include <ctype.h>
#include <errno.h>
#include <libxml/tree.h>
#include <math.h>
#include <minizip/unzip.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the archive ---- */

int swx_kmz_name_safe(const char *name)
{
    if (!name || !*name || name[0] == '/' || strchr(name, '\\') ||
        (isalpha((unsigned char)name[0]) && name[1] == ':'))
        return 0;
    /* No ".." path element anywhere. */
    for (const char *p = name; *p;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return 0;
        p += n + (slash ? 1 : 0);
    }
    return 1;
}

static int ends_with_kml(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcasecmp(name + n - 4, ".kml") == 0;
}

/* One entry of the directory, before anything is inflated: a name inside
 * the archive, and no more than the limits once inflated (*total counts
 * every entry so far). */
static int check_entry(uint64_t *total, const char *path, const char *name,
                       const unz_file_info64 *fi)
{
    if (!swx_kmz_name_safe(name))
        return swx_error_set(SWX_EPARSE, "%s: entry '%.200s' points outside the archive; refused",
                             path, name);
    *total += fi->uncompressed_size;
    if (*total > SWX_KMZ_MAX_TOTAL)
        return swx_error_set(SWX_ETOOBIG, "%s: the entries inflate to more than %llu MiB; refused",
                             path, (unsigned long long)(SWX_KMZ_MAX_TOTAL >> 20));
    uint64_t ratio = fi->uncompressed_size / (fi->compressed_size ? fi->compressed_size : 1);
    if (fi->uncompressed_size > 1024 * 1024 && ratio > SWX_KMZ_MAX_RATIO)
        return swx_error_set(SWX_ETOOBIG,
                             "%s: entry '%.200s' inflates %llu times (more than %d): a zip bomb? "
                             "refused",
                             path, name, (unsigned long long)ratio, SWX_KMZ_MAX_RATIO);
    return 0;
}

int swx_kmz_read_kml(char **kml, size_t *len, char **entry, const char *path)
{
    unzFile z = NULL;
    unz_global_info64 gi;
    unz_file_info64 fi;
    char name[1024], chosen[1024] = "";
    unz64_file_pos chosen_pos = {0, 0};
    uint64_t total = 0;
    char *data = NULL;
    int rc = 0, have = 0, opened = 0;
    *kml = NULL;
    *len = 0;
    if (entry)
        *entry = NULL;
    if (!(z = unzOpen64(path))) {
        FILE *f = fopen(path, "rb");
        if (!f)
            return swx_error_set(SWX_EIO, "cannot open %s: %s", path, strerror(errno));
        fclose(f);
        return swx_error_set(SWX_EPARSE, "%s is not a KMZ: not a zip archive (or a truncated one)",
                             path);
    }
    if (unzGetGlobalInfo64(z, &gi) != UNZ_OK) {
        rc = swx_error_set(SWX_EPARSE, "%s: unreadable zip directory", path);
        goto done;
    }
    if (gi.number_entry > SWX_KMZ_MAX_ENTRIES) {
        rc = swx_error_set(SWX_ETOOBIG, "%s: %llu entries, more than a KMZ may hold (%d)", path,
                           (unsigned long long)gi.number_entry, SWX_KMZ_MAX_ENTRIES);
        goto done;
    }
    /* Every entry is checked before any is inflated. */
    int zr = unzGoToFirstFile(z);
    for (uint64_t i = 0; zr == UNZ_OK; i++) {
        if (i >= SWX_KMZ_MAX_ENTRIES) {
            rc = swx_error_set(SWX_ETOOBIG, "%s: more than %d entries", path, SWX_KMZ_MAX_ENTRIES);
            goto done;
        }
        if (unzGetCurrentFileInfo64(z, &fi, name, sizeof name, NULL, 0, NULL, 0) != UNZ_OK ||
            fi.size_filename >= sizeof name) {
            rc = swx_error_set(SWX_EPARSE, "%s: unreadable zip entry %llu", path,
                               (unsigned long long)i + 1);
            goto done;
        }
        if ((rc = check_entry(&total, path, name, &fi)))
            goto done;
        int is_doc = strcasecmp(name, "doc.kml") == 0;
        if (ends_with_kml(name) && (!have || is_doc) && strcasecmp(chosen, "doc.kml") != 0) {
            snprintf(chosen, sizeof chosen, "%s", name);
            unzGetFilePos64(z, &chosen_pos);
            have = 1;
        }
        zr = unzGoToNextFile(z);
    }
    if (zr != UNZ_END_OF_LIST_OF_FILE) {
        rc = swx_error_set(SWX_EPARSE, "%s: damaged zip directory", path);
        goto done;
    }
    if (!have) {
        rc = swx_error_set(SWX_EPARSE, "%s: the KMZ holds no .kml document", path);
        goto done;
    }
    if (unzGoToFilePos64(z, &chosen_pos) != UNZ_OK ||
        unzGetCurrentFileInfo64(z, &fi, NULL, 0, NULL, 0, NULL, 0) != UNZ_OK) {
        rc = swx_error_set(SWX_EPARSE, "%s: cannot find entry %s", path, chosen);
        goto done;
    }
    if (fi.uncompressed_size > SWX_KMZ_MAX_KML) {
        rc = swx_error_set(SWX_ETOOBIG, "%s: %s is larger than %u MiB; refused", path, chosen,
                           SWX_KMZ_MAX_KML >> 20);
        goto done;
    }
    if (unzOpenCurrentFile(z) != UNZ_OK) {
        rc = swx_error_set(SWX_EPARSE, "%s: cannot open entry %s (encrypted or unknown method?)",
                           path, chosen);
        goto done;
    }
    opened = 1;
    /* Inflate into a buffer sized by the declared size, and never past it or
     * the limits: a lying header cannot make us allocate more. */
    size_t want = (size_t)fi.uncompressed_size, got = 0;
    if (!(data = malloc(want + 1))) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory reading %s", chosen);
        goto done;
    }
    for (;;) {
        char probe;
        int n = got < want ? unzReadCurrentFile(
                                 z, data + got,
                                 (unsigned)((want - got) > (1u << 30) ? (1u << 30) : want - got))
                           : unzReadCurrentFile(z, &probe, 1);
        if (n < 0) {
            rc = swx_error_set(SWX_EPARSE, "%s: entry %s is damaged or truncated (zip error %d)",
                               path, chosen, n);
            goto done;
        }
        if (n == 0)
            break;
        if (got >= want) {
            rc = swx_error_set(SWX_ETOOBIG, "%s: entry %s inflates past its declared size; refused",
                               path, chosen);
            goto done;
        }
        got += (size_t)n;
    }
    if (unzCloseCurrentFile(z) == UNZ_CRCERROR) {
        opened = 0;
        rc = swx_error_set(SWX_EPARSE, "%s: entry %s fails its CRC check (damaged)", path, chosen);
        goto done;
    }
    opened = 0;
    if (got != want) {
        rc = swx_error_set(SWX_EPARSE, "%s: entry %s is truncated", path, chosen);
        goto done;
    }
    data[got] = '\0';
    *kml = data;
    *len = got;
    data = NULL;
    if (entry && !(*entry = strdup(chosen))) {
        free(*kml);
        *kml = NULL;
        rc = swx_error_set(SWX_ENOMEM, "out of memory");
    }
done:
    if (opened)
        unzCloseCurrentFile(z);
    if (z)
        unzClose(z);
    free(data);
    return rc;
}

/* ---- KML ---- */

/* The Data/SimpleData items of an ExtendedData, looked up by name. */
#define MAX_ITEMS 64
struct items {
    size_t n;
    char *name[MAX_ITEMS];
    char *value[MAX_ITEMS];
};

static void items_free(struct items *it)
{
    for (size_t i = 0; i < it->n; i++) {
        xmlFree(it->name[i]);
        xmlFree(it->value[i]);
    }
    it->n = 0;
}

static void items_add(struct items *it, const xmlNode *named, const xmlNode *vnode)
{
    if (it->n >= MAX_ITEMS || !vnode)
        return;
    char *name = (char *)xmlGetProp(named, (const xmlChar *)"name");
    char *v = name ? (char *)xmlNodeGetContent(vnode) : NULL;
    if (!v) {
        xmlFree(name);
        return;
    }
    it->name[it->n] = name;
    it->value[it->n++] = v;
}

static void items_read(struct items *it, const xmlNode *ext)
{
    it->n = 0;
    for (const xmlNode *d = ext ? ext->children : NULL; d; d = d->next) {
        if (swx_xml_is(d, "Data"))
            items_add(it, d, swx_xml_child(d, "value"));
        else if (swx_xml_is(d, "SchemaData"))
            for (const xmlNode *sd = d->children; sd; sd = sd->next)
                if (swx_xml_is(sd, "SimpleData"))
                    items_add(it, sd, sd);
    }
}

static const char *item(const struct items *it, const char *name)
{
    for (size_t i = 0; i < it->n; i++)
        if (strcmp(it->name[i], name) == 0)
            return it->value[i];
    return NULL;
}

struct kctx {
    swx_storm *s;
    const char *where;
};

static int bad_value(const struct kctx *c, const char *name, const char *v, const char *want)
{
    return swx_error_set(SWX_EPARSE, "storm KML: %s%s%s '%s' = '%.40s' is not %s",
                         c->s && c->s->atcf_id ? c->s->atcf_id : "", c->where ? " " : "",
                         c->where ? c->where : "", name, v, want);
}

static int k_str(struct kctx *c, const struct items *it, const char *name, const char **out)
{
    const char *v = item(it, name);
    *out = NULL;
    if (v && !(*out = swx_storm_str(c->s, v, strlen(v))))
        return swx_error_set(SWX_ENOMEM, "out of memory");
    return 0;
}

static int k_num(struct kctx *c, const struct items *it, const char *name, double *out)
{
    const char *v = item(it, name);
    char *end;
    *out = NAN;
    if (!v)
        return 0;
    errno = 0;
    *out = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(*out))
        return bad_value(c, name, v, "a number");
    return 0;
}

static int k_int(struct kctx *c, const struct items *it, const char *name, int64_t *out)
{
    const char *v = item(it, name);
    char *end;
    *out = SWX_STORM_NULL;
    if (!v)
        return 0;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (end == v || *end || errno)
        return bad_value(c, name, v, "an integer");
    *out = n;
    return 0;
}

static int k_time(struct kctx *c, const struct items *it, const char *name, int64_t *out)
{
    const char *v = item(it, name);
    *out = SWX_STORM_NULL;
    if (v && swx_iso8601_parse(out, v) != 0)
        return bad_value(c, name, v, "an ISO 8601 time");
    return 0;
}

static int read_point(const xmlNode *pm, double *lon, double *lat)
{
    const xmlNode *pt = swx_xml_child(pm, "Point");
    const xmlNode *co = swx_xml_child(pt, "coordinates");
    char *t = co ? (char *)xmlNodeGetContent(co) : NULL;
    int ok = 0;
    if (t) {
        char *end;
        *lon = strtod(t, &end);
        if (end != t && *end == ',') {
            char *p = end + 1;
            *lat = strtod(p, &end);
            ok = end != p && isfinite(*lon) && isfinite(*lat);
        }
        xmlFree(t);
    }
    return ok;
}

static int read_position(struct kctx *c, const xmlNode *pm, const struct items *it)
{
    static const char *const rk[SWX_STORM_NRADII] = {"34kts", "50kts", "64kts"};
    static const char *const qk[4] = {"ne", "se", "sw", "nw"};
    const char *track = item(it, "track");
    int fc = track && strcmp(track, "forecast") == 0, rc;
    swx_storm_pos *p;
    if (!track || (!fc && strcmp(track, "observed") != 0))
        return 0; /* not a position */
    if ((rc = swx_storm_add_pos(&p, c->s, fc)))
        return rc;
    if (!read_point(pm, &p->lon, &p->lat))
        return swx_error_set(SWX_EPARSE, "storm KML: %s: a position has no Point coordinates",
                             c->s->atcf_id);
    if ((rc = k_str(c, it, "category_code", &p->category_code)) ||
        (rc = k_str(c, it, "basin", &p->basin)) || (rc = k_str(c, it, "subbasin", &p->subbasin)) ||
        (rc = k_num(c, it, "wind_gusts", &p->wind_gusts)) ||
        (rc = k_num(c, it, "max_sustained_wind", &p->max_sustained_wind)) ||
        (rc = k_num(c, it, "min_mslp", &p->min_mslp)) ||
        (rc = k_num(c, it, "movement_direction", &p->movement_direction)) ||
        (rc = k_num(c, it, "movement_speed", &p->movement_speed)) ||
        (rc = k_time(c, it, "time", &p->time)) ||
        (rc = k_time(c, it, "forecast_time", &p->forecast_time)) ||
        (rc = k_int(c, it, "forecast_hour", &p->forecast_hour)))
        return rc;
    p->has_radii_object = item(it, "wind_extent_radii") != NULL;
    for (int t = 0; t < SWX_STORM_NRADII; t++) {
        char name[32];
        snprintf(name, sizeof name, "%s.wind_speed", rk[t]);
        int any = item(it, name) != NULL;
        if ((rc = k_num(c, it, name, &p->radii[t].wind_speed)))
            return rc;
        for (int q = 0; q < 4; q++) {
            snprintf(name, sizeof name, "%s.%s", rk[t], qk[q]);
            any |= item(it, name) != NULL;
            if ((rc = k_num(c, it, name, &p->radii[t].r[q])))
                return rc;
        }
        if (any) {
            p->radii[t].present = 1;
            p->has_radii_object = 1;
        }
    }
    return 0;
}

/* Positions: Placemarks under the storm's Folder, at any depth, in order. */
static int read_positions(struct kctx *c, const xmlNode *n)
{
    struct items it;
    int rc = 0;
    for (const xmlNode *k = n->children; k && !rc; k = k->next) {
        if (swx_xml_is(k, "Placemark")) {
            items_read(&it, swx_xml_child(k, "ExtendedData"));
            rc = read_position(c, k, &it);
            items_free(&it);
        } else if (swx_xml_is(k, "Folder") || swx_xml_is(k, "Document")) {
            rc = read_positions(c, k);
        }
    }
    return rc;
}

static int read_storm(const xmlNode *folder, const struct items *it, swx_storm_fn fn, void *ud)
{
    struct kctx c = {0};
    int rc = swx_storm_new_empty(&c.s);
    if (rc)
        return rc;
    swx_storm *s = c.s;
    const char *active = item(it, "is_active");
    if ((rc = k_str(&c, it, "atcf_id", &s->atcf_id)) ||
        (rc = k_str(&c, it, "storm_name", &s->storm_name)) ||
        (rc = k_str(&c, it, "basin", &s->basin)) ||
        (rc = k_str(&c, it, "subbasin", &s->subbasin)) ||
        (rc = k_int(&c, it, "season", &s->season)) ||
        (rc = k_int(&c, it, "advisory_number", &s->advisory_number)) ||
        (rc = k_time(&c, it, "advisory_issuance_time", &s->advisory_issuance_time)) ||
        (rc = k_str(&c, it, "max_development_category", &s->max_development_category)) ||
        (rc = k_num(&c, it, "max_sustained_wind", &s->max_sustained_wind)) ||
        (rc = k_num(&c, it, "min_mslp", &s->min_mslp)) ||
        (rc = k_str(&c, it, "dates_active.start", &s->start_date)) ||
        (rc = k_str(&c, it, "dates_active.end", &s->end_date)))
        goto done;
    if (active) {
        if (strcmp(active, "true") == 0 || strcmp(active, "1") == 0)
            s->is_active = 1;
        else if (strcmp(active, "false") == 0 || strcmp(active, "0") == 0)
            s->is_active = 0;
        else {
            rc = bad_value(&c, "is_active", active, "true or false");
            goto done;
        }
    }
    if ((rc = read_positions(&c, folder)) || (rc = swx_storm_finish(s)))
        goto done;
    rc = fn ? fn(ud, s) : 0;
done:
    swx_storm_free(s);
    return rc;
}

/* Storms: Folders (or Documents) whose ExtendedData names an atcf_id. */
static int walk(const xmlNode *n, swx_storm_fn fn, void *ud, size_t *count)
{
    int rc = 0;
    for (const xmlNode *k = n->children; k && !rc; k = k->next) {
        if (!swx_xml_is(k, "Folder") && !swx_xml_is(k, "Document"))
            continue;
        struct items it;
        items_read(&it, swx_xml_child(k, "ExtendedData"));
        if (item(&it, "atcf_id")) {
            rc = read_storm(k, &it, fn, ud);
            (*count)++;
        } else {
            rc = walk(k, fn, ud, count);
        }
        items_free(&it);
    }
    return rc;
}

int swx_kml_parse_storms(const char *kml, size_t len, swx_storm_fn fn, void *ud)
{
    xmlDoc *doc = NULL;
    size_t count = 0;
    int rc = 0;
    if (len > SWX_KMZ_MAX_KML)
        return swx_error_set(SWX_ETOOBIG, "storm KML larger than %u MiB", SWX_KMZ_MAX_KML >> 20);
    if ((rc = swx_xml_read(&doc, kml, len, "storm KML")))
        goto done;
    xmlNode *root = xmlDocGetRootElement(doc);
    if (!swx_xml_is(root, "kml")) {
        rc = swx_error_set(SWX_EPARSE, "storm KML: the document is not KML (root <%s>)",
                           root ? (const char *)root->name : "none");
        goto done;
    }
    if ((rc = walk(root, fn, ud, &count)))
        goto done;
done:
    xmlFreeDoc(doc);
    return rc;
}

int swx_kmz_read_storms(const char *path, swx_storm_fn fn, void *ud)
{
    char *kml = NULL, *entry = NULL;
    size_t len = 0;
    int rc = swx_kmz_read_kml(&kml, &len, &entry, path);
    if (!rc && (rc = swx_kml_parse_storms(kml, len, fn, ud)) && rc != SWX_ECANCEL)
        swx_error_prefix(rc, "%s (%s)", path, entry);
    free(kml);
    free(entry);
    return rc;
}
