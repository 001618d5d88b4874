/* storm.c: /storm/json and /storm/kmz (see storm.h). */
#include "storm.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "auth.h"
#include "buf.h"
#include "http.h"
#include "storm_data.h"
#include "timestamp.h"

#define STORM_BODY_LIMIT (256u << 20)

static struct sim_storm_set the_set;
static int set_failed;
static pthread_once_t set_once = PTHREAD_ONCE_INIT;

static void build_set(void)
{
    set_failed = sim_storm_set_build(&the_set, 1) != 0;
}

int sim_storm_path(const char *path)
{
    return strcmp(path, "/storm/json") == 0 || strcmp(path, "/storm/kmz") == 0;
}

static const char *const basins[] = {"NA", "SA", "EP", "WP", "NI", "SI", "SP", "CS",
                                     "GM", "MM", "CP", "AS", "BB", "WA", "EA"};

struct filter {
    int status; /* 0 active, 1 inactive, 2 all */
    const char *id, *name, *region;
    int min_cat;
    double intensity;
    int64_t p0, p1;
    int have_period;
    int df;
    long limit, offset;
};

/* "Invalid <what> '<v>'<hint>" */
static int bad(struct sim_request *rq, const char *what, const char *v, const char *hint)
{
    char msg[300];
    snprintf(msg, sizeof(msg), "Invalid %s '%.80s'%s", what, v, hint);
    return sim_http_reply_json_error(rq, 400, "invalid_parameter", msg);
}

/* Reads the filters; answers 400 and returns 1 when one is bad. */
static int read_filter(struct sim_request *rq, struct filter *f)
{
    const char *v;
    char *end;
    memset(f, 0, sizeof(*f));
    f->min_cat = -1;
    f->intensity = -1;
    f->limit = 100;
    v = sim_http_arg(rq, "status");
    if (v != NULL) {
        if (strcmp(v, "active") == 0)
            f->status = 0;
        else if (strcmp(v, "inactive") == 0)
            f->status = 1;
        else if (strcmp(v, "all") == 0)
            f->status = 2;
        else
            return bad(rq, "status", v, ": use active, inactive or all"), 1;
    }
    f->id = sim_http_arg(rq, "id");
    f->name = sim_http_arg(rq, "name");
    v = sim_http_arg(rq, "category");
    if (v != NULL && (f->min_cat = sim_storm_cat_rank(v)) < 0)
        return bad(rq, "category", v, ""), 1;
    v = sim_http_arg(rq, "intensity");
    if (v != NULL) {
        f->intensity = strtod(v, &end);
        if (*v == '\0' || *end != '\0' || !(f->intensity >= 0))
            return bad(rq, "intensity", v, ": a wind speed in knots"), 1;
    }
    v = sim_http_arg(rq, "region");
    if (v != NULL) {
        size_t i;
        for (i = 0; i < sizeof(basins) / sizeof(basins[0]); i++)
            if (strcasecmp(v, basins[i]) == 0)
                break;
        if (i == sizeof(basins) / sizeof(basins[0]))
            return bad(rq, "region", v, ": a basin or sub-basin code"), 1;
        f->region = v;
    }
    v = sim_http_arg(rq, "period");
    if (v != NULL) {
        char a[64];
        const char *slash = strchr(v, '/');
        size_t n = slash ? (size_t)(slash - v) : 0;
        if (slash == NULL || n >= sizeof(a))
            return bad(rq, "period", v, ": two ISO 8601 times separated by '/'"), 1;
        memcpy(a, v, n);
        a[n] = '\0';
        if (sim_ts_parse(a, &f->p0) != 0 || sim_ts_parse(slash + 1, &f->p1) != 0 || f->p1 < f->p0)
            return bad(rq, "period", v, ": two ISO 8601 times separated by '/'"), 1;
        f->have_period = 1;
    }
    v = sim_http_arg(rq, "data_filter");
    if (v != NULL) {
        if (strcmp(v, "all") == 0)
            f->df = SIM_DF_ALL;
        else if (strcmp(v, "analysis") == 0)
            f->df = SIM_DF_ANALYSIS;
        else if (strcmp(v, "forecast") == 0)
            f->df = SIM_DF_FORECAST;
        else
            return bad(rq, "data_filter", v, ": use all, analysis or forecast"), 1;
    }
    v = sim_http_arg(rq, "limit");
    if (v != NULL) {
        f->limit = strtol(v, &end, 10);
        if (*v == '\0' || *end != '\0' || f->limit < 1 || f->limit > 100)
            return bad(rq, "limit", v, ": 1 to 100"), 1;
    }
    v = sim_http_arg(rq, "offset");
    if (v != NULL) {
        f->offset = strtol(v, &end, 10);
        if (*v == '\0' || *end != '\0' || f->offset < 0)
            return bad(rq, "offset", v, ": 0 or more"), 1;
    }
    return 0;
}

static int selected(const struct filter *f, const struct sim_storm *s)
{
    if (f->status == 0 && !s->active)
        return 0;
    if (f->status == 1 && s->active)
        return 0;
    if (f->id != NULL && strcasecmp(f->id, s->id) != 0)
        return 0;
    if (f->name != NULL && strcasecmp(f->name, s->name) != 0)
        return 0;
    if (f->min_cat >= 0 && s->max_cat < f->min_cat)
        return 0;
    if (f->intensity >= 0 && !(s->max_wind >= f->intensity))
        return 0;
    if (f->region != NULL && strcasecmp(f->region, s->basin) != 0 &&
        strcasecmp(f->region, s->subbasin) != 0)
        return 0;
    if (f->have_period && (s->t_start > f->p1 || s->t_end < f->p0))
        return 0;
    return 1;
}

/* The page of storms the filters select: at most limit, after offset. */
static size_t select_page(const struct filter *f, const struct sim_storm **out)
{
    size_t n = 0;
    long skip = f->offset;
    for (size_t i = 0; i < the_set.n && (long)n < f->limit; i++) {
        if (!selected(f, &the_set.storms[i]))
            continue;
        if (skip > 0) {
            skip--;
            continue;
        }
        out[n++] = &the_set.storms[i];
    }
    return n;
}

/* ---- zip ----
 * A minimal writer of what a KMZ needs: deflated entries, local headers with
 * sizes and CRC known in advance, a central directory, no zip64. */

static void le16(struct sim_buf *b, unsigned v)
{
    unsigned char c[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
    sim_buf_append(b, c, 2);
}

static void le32(struct sim_buf *b, uint32_t v)
{
    unsigned char c[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    sim_buf_append(b, c, 4);
}

struct zentry {
    const char *name;
    uint32_t crc, csize, usize, offset;
};

static int zip_add(struct sim_buf *zip, struct zentry *e, const char *name, const char *data,
                   size_t len)
{
    z_stream zs;
    uLong bound;
    unsigned char *out;
    memset(&zs, 0, sizeof(zs));
    if (deflateInit2(&zs, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    bound = deflateBound(&zs, (uLong)len);
    out = malloc(bound);
    if (out == NULL) {
        deflateEnd(&zs);
        return -1;
    }
    zs.next_in = (Bytef *)data;
    zs.avail_in = (uInt)len;
    zs.next_out = out;
    zs.avail_out = (uInt)bound;
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
        deflateEnd(&zs);
        free(out);
        return -1;
    }
    e->name = name;
    e->crc = (uint32_t)crc32(0L, (const Bytef *)data, (uInt)len);
    e->csize = (uint32_t)zs.total_out;
    e->usize = (uint32_t)len;
    e->offset = (uint32_t)zip->len;
    deflateEnd(&zs);
    le32(zip, 0x04034b50);
    le16(zip, 20);
    le16(zip, 0);
    le16(zip, 8); /* deflate */
    le16(zip, 0);
    le16(zip, 0x21); /* 1980-01-01 */
    le32(zip, e->crc);
    le32(zip, e->csize);
    le32(zip, e->usize);
    le16(zip, (unsigned)strlen(name));
    le16(zip, 0);
    sim_buf_puts(zip, name);
    sim_buf_append(zip, out, e->csize);
    free(out);
    return zip->failed ? -1 : 0;
}

static int zip_finish(struct sim_buf *zip, const struct zentry *e, unsigned n)
{
    uint32_t cd = (uint32_t)zip->len;
    for (unsigned i = 0; i < n; i++) {
        le32(zip, 0x02014b50);
        le16(zip, 20);
        le16(zip, 20);
        le16(zip, 0);
        le16(zip, 8);
        le16(zip, 0);
        le16(zip, 0x21);
        le32(zip, e[i].crc);
        le32(zip, e[i].csize);
        le32(zip, e[i].usize);
        le16(zip, (unsigned)strlen(e[i].name));
        le16(zip, 0);
        le16(zip, 0);
        le16(zip, 0);
        le16(zip, 0);
        le32(zip, 0);
        le32(zip, e[i].offset);
        sim_buf_puts(zip, e[i].name);
    }
    uint32_t cdlen = (uint32_t)zip->len - cd;
    le32(zip, 0x06054b50);
    le16(zip, 0);
    le16(zip, 0);
    le16(zip, n);
    le16(zip, n);
    le32(zip, cdlen);
    le32(zip, cd);
    le16(zip, 0);
    return zip->failed ? -1 : 0;
}

static const char readme[] = "Tropical cyclone tracks from seawx-sim, the local stand-in of the "
                             "Weather, Ocean and Vessel Data Service.\n";

int sim_storm_handle(struct sim_request *rq)
{
    struct filter f;
    const struct sim_storm *page[100];
    struct sim_buf b, zip;
    size_t n, len = 0;
    char *body;
    int kmz = strcmp(rq->path, "/storm/kmz") == 0;
    int rc = sim_auth_require(rq, 0);

    if (rc != 0)
        return rc < 0 ? -1 : 0;
    if (read_filter(rq, &f) != 0)
        return 0;
    pthread_once(&set_once, build_set);
    if (set_failed)
        return sim_http_reply_json_error(rq, 500, "internal_error", "out of memory");
    n = select_page(&f, page);
    sim_buf_init(&b, STORM_BODY_LIMIT);
    if (!kmz) {
        sim_buf_puts(&b, "[");
        for (size_t i = 0; i < n; i++) {
            if (i)
                sim_buf_puts(&b, ",\n");
            sim_storm_json(&b, page[i], f.df);
        }
        sim_buf_puts(&b, "]\n");
        if (b.failed) {
            sim_buf_free(&b);
            return sim_http_reply_json_error(rq, 500, "internal_error", "out of memory");
        }
        body = sim_buf_steal(&b, &len);
        return sim_http_reply_take(rq, 200, "application/json", body, len, NULL, 0);
    }
    struct zentry e[2];
    sim_storm_kml(&b, page, n, f.df);
    sim_buf_init(&zip, STORM_BODY_LIMIT);
    if (b.failed || zip_add(&zip, &e[0], "seawx_storms.kml", b.data, b.len) != 0 ||
        zip_add(&zip, &e[1], "files/README.txt", readme, sizeof(readme) - 1) != 0 ||
        zip_finish(&zip, e, 2) != 0) {
        sim_buf_free(&b);
        sim_buf_free(&zip);
        return sim_http_reply_json_error(rq, 500, "internal_error", "out of memory");
    }
    sim_buf_free(&b);
    body = sim_buf_steal(&zip, &len);
    struct sim_header h[1] = {{"Content-Disposition", "attachment; filename=\"storms.kmz\""}};
    return sim_http_reply_take(rq, 200, "application/vnd.google-earth.kmz", body, len, h, 1);
}
