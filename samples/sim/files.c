/* files.c: listings, download redirects and storage (see files.h). */
#include "files.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "blob.h"
#include "buf.h"
#include "data.h"
#include "grib.h"
#include "runs.h"
#include "timestamp.h"

#define HOUR 3600
#define DAY 86400
#define MAX_LISTED 5000
#define MAX_FILE (64u << 20)
#define MAX_CUT 256

#ifndef SIM_FILES_DIR
#define SIM_FILES_DIR "samples/files"
#endif

/* The sample file (NetCDF soil moisture and job results), read once; the
 * GRIB2 files are made per name (grib.c). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_blob *samples[1];
static const char *const sample_names[1] = {"soil-moisture.nc"};
/* Storage paths already cut short once (SEAWX_SIM_STORAGE_CUT). */
static char *cut[MAX_CUT];
static size_t ncut;

static struct sim_blob *sample(int i)
{
    struct sim_blob *b;
    pthread_mutex_lock(&lock);
    if (samples[i] == NULL) {
        const char *dir = getenv("SEAWX_SIM_FILES_DIR");
        char path[4096];
        FILE *f;
        snprintf(path, sizeof(path), "%s/%s", dir != NULL && *dir ? dir : SIM_FILES_DIR,
                 sample_names[i]);
        f = fopen(path, "rb");
        if (f != NULL) {
            char *data = malloc(MAX_FILE);
            size_t n = data != NULL ? fread(data, 1, MAX_FILE, f) : 0;
            if (data != NULL && n > 0 && n < MAX_FILE)
                samples[i] = sim_blob_adopt(data, n);
            else
                free(data);
            fclose(f);
        }
        if (samples[i] == NULL)
            fprintf(stderr, "seawx-sim: cannot read the sample file %s\n", path);
    }
    b = samples[i] != NULL ? sim_blob_ref(samples[i]) : NULL;
    pthread_mutex_unlock(&lock);
    return b;
}

/* Whether s is a comma list of region identifiers. */
static int regions_valid(const char *s)
{
    size_t n = 0;
    if (s == NULL || *s == '\0' || strlen(s) > 512)
        return 0;
    for (; *s != '\0'; s++) {
        char c = *s;
        if (c == ',') {
            if (n == 0)
                return 0;
            n = 0;
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return 0;
        n++;
    }
    return n > 0;
}

/* Calls add(item) for each item of a comma list. */
static void each(const char *list, void (*add)(struct sim_buf *, const char *, void *),
                 struct sim_buf *b, void *ud)
{
    char item[80];
    const char *p = list;
    while (p != NULL) {
        const char *comma = strchr(p, ',');
        size_t n = comma != NULL ? (size_t)(comma - p) : strlen(p);
        snprintf(item, sizeof(item), "%.*s", (int)(n < 79 ? n : 79), p);
        add(b, item, ud);
        p = comma != NULL ? comma + 1 : NULL;
    }
}

struct listing {
    size_t count;
    int64_t t0, t1, run;
    const char *bundles;
};

static void put_name(struct sim_buf *b, struct listing *l, const char *name)
{
    if (l->count >= MAX_LISTED)
        return;
    sim_buf_puts(b, l->count ? ",\"" : "\"");
    sim_buf_json(b, name);
    sim_buf_puts(b, "\"");
    l->count++;
}

static void cwc_region(struct sim_buf *b, const char *region, void *ud)
{
    struct listing *l = ud;
    char date[9], name[200];
    for (int64_t t = l->t0; t <= l->t1; t += HOUR) {
        sim_ts_format_date(t, date);
        snprintf(name, sizeof(name), "cwc.%s.t%02dz.0p027.basic.%s.grib2", date,
                 (int)((t % DAY) / HOUR), region);
        put_name(b, l, name);
    }
}

static void fc_region(struct sim_buf *b, const char *region, void *ud);

struct fc_ctx {
    struct listing *l;
    const char *region;
};

static void fc_bundle(struct sim_buf *b, const char *bundle, void *ud)
{
    struct fc_ctx *c = ud;
    char date[9], name[200];
    sim_ts_format_date(c->l->run, date);
    for (int f = 0; f <= SIM_GRIB_LAST_HOUR; f++) {
        if (!sim_grib_hour_valid(f))
            continue;
        snprintf(name, sizeof(name), "sof-d.%s.t%02dz.0p25.%s.%s.f%03d.grib2", date,
                 (int)((c->l->run % DAY) / HOUR), bundle, c->region, f);
        put_name(b, c->l, name);
    }
}

static void fc_region(struct sim_buf *b, const char *region, void *ud)
{
    struct listing *l = ud;
    struct fc_ctx c = {l, region};
    each(l->bundles, fc_bundle, b, &c);
}

static int bundles_ok(const char *list)
{
    static const char *const known[] = {"basic",    "maritime", "agricultural",
                                        "aviation", "solar",    "wind"};
    const char *p = list;
    if (list == NULL || *list == '\0')
        return 0;
    while (p != NULL) {
        const char *comma = strchr(p, ',');
        size_t m = comma != NULL ? (size_t)(comma - p) : strlen(p);
        int ok = 0;
        for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
            ok |= strlen(known[i]) == m && strncmp(p, known[i], m) == 0;
        if (!ok)
            return 0;
        p = comma != NULL ? comma + 1 : NULL;
    }
    return 1;
}

int sim_files_list(struct sim_request *rq)
{
    struct sim_buf b, body;
    struct listing l;
    int64_t now = sim_app_clock(rq->app);
    const char *regions = sim_http_arg(rq, "regions");
    const char *time = sim_http_arg(rq, "time");
    char date[9], name[200];

    memset(&l, 0, sizeof(l));
    if (regions != NULL && !regions_valid(regions))
        return sim_data_bad(rq, "regions must be a comma list of region identifiers");
    if (regions == NULL)
        regions = "global";
    if (strcmp(rq->path, "/soil-moisture/region") != 0) {
        char item[80];
        const char *q = regions;
        while (q != NULL) {
            const char *comma = strchr(q, ',');
            size_t n = comma != NULL ? (size_t)(comma - q) : strlen(q);
            snprintf(item, sizeof(item), "%.*s", (int)(n < 79 ? n : 79), q);
            if (!sim_grib_region_known(item))
                return sim_data_bad(rq, "regions: unknown region '%s' (known: %s)", item,
                                    sim_grib_regions());
            q = comma != NULL ? comma + 1 : NULL;
        }
    }
    sim_buf_init(&b, 4u << 20);
    if (strcmp(rq->path, "/soil-moisture/region") == 0) {
        for (int i = 28; i >= 0; i--) {
            sim_ts_format_date(now - (int64_t)i * DAY, date);
            snprintf(name, sizeof(name), "soil-moisture.%s.global.nc", date);
            put_name(&b, &l, name);
        }
    } else if (strcmp(rq->path, "/current/weather/file") == 0) {
        l.t1 = (now - HOUR) / HOUR * HOUR;
        l.t0 = l.t1 - 23 * HOUR;
        if (time != NULL) {
            const char *slash = strchr(time, '/');
            char a[64];
            int bad = 0;
            if (slash != NULL) {
                snprintf(a, sizeof(a), "%.*s", (int)(slash - time), time);
                bad = sim_ts_parse(a, &l.t0) != 0 || sim_ts_parse(slash + 1, &l.t1) != 0 ||
                      l.t1 < l.t0 || (l.t1 - l.t0) / HOUR > 240;
            } else {
                bad = sim_ts_parse(time, &l.t0) != 0;
                l.t1 = l.t0;
            }
            if (bad) {
                sim_buf_free(&b);
                return sim_data_bad(rq, "time must be an ISO 8601 time or a START/END range of "
                                        "at most 240 hours");
            }
            l.t0 = (l.t0 + HOUR - 1) / HOUR * HOUR;
            l.t1 = l.t1 / HOUR * HOUR;
        }
        each(regions, cwc_region, &b, &l);
    } else {
        l.bundles = sim_http_arg(rq, "bundles");
        if (l.bundles == NULL)
            l.bundles = "basic";
        if (!bundles_ok(l.bundles)) {
            sim_buf_free(&b);
            return sim_data_bad(rq, "bundles must be a comma list of basic, maritime, "
                                    "agricultural, aviation, solar, wind");
        }
        l.run = sim_runs_newest(now);
        each(regions, fc_region, &b, &l);
    }
    sim_buf_init(&body, 8u << 20);
    sim_buf_printf(&body, "{\"meta\":{\"count\":%zu},\"files\":[", l.count);
    if (b.data != NULL)
        sim_buf_append(&body, b.data, b.len);
    sim_buf_puts(&body, "]}");
    sim_buf_free(&b);
    return sim_data_json(rq, &body);
}

static int name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 200)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return 0;
    }
    return strstr(s, "..") == NULL;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

int sim_files_redirect_to(struct sim_request *rq, const char *area, const char *name)
{
    char loc[700];
    struct sim_header h[1];
    int64_t exp = sim_app_real_time() + 600;
    unsigned long sig = 5381;
    for (const char *p = name; *p; p++)
        sig = sig * 33 + (unsigned char)*p;
    sig ^= (unsigned long)exp;
    snprintf(loc, sizeof(loc), "%s/files/%s/%s?expires=%lld&signature=%016lx", rq->app->storage_url,
             area, name, (long long)exp, sig);
    h[0].name = "Location";
    h[0].value = loc;
    return sim_http_reply(rq, 302, "text/plain; charset=utf-8", "redirect to storage\n", 20, h, 1);
}

int sim_files_redirect(struct sim_request *rq)
{
    const char *p = rq->path;
    const char *name = strrchr(p, '/') + 1;
    const char *area;
    int ok;

    if (strncmp(p, "/soil-moisture/region/", 22) == 0) {
        area = "soil-moisture";
        ok = strncmp(name, "soil-moisture.", 14) == 0 && ends_with(name, ".global.nc");
    } else if (strncmp(p, "/current/weather/file/", 22) == 0) {
        area = "current-weather";
        ok = strncmp(name, "cwc.", 4) == 0 && sim_grib_name_ok(name);
    } else {
        area = "forecast";
        ok = strncmp(name, "sof-d.", 6) == 0 && sim_grib_name_ok(name);
    }
    if (!ok || !name_ok(name) || strchr(p + 1, '/') == NULL ||
        (size_t)(name - p) != strlen(p) - strlen(name))
        return sim_http_reply_json_error(rq, 404, "not_found", "No such file");
    return sim_files_redirect_to(rq, area, name);
}

/* Whether this storage path is to be cut short now (once per path). */
static int cut_now(const char *path)
{
    int yes = 1;
    if (sim_data_env("SEAWX_SIM_STORAGE_CUT", 0, 0, 1) != 1)
        return 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < ncut && yes; i++)
        yes = strcmp(cut[i], path) != 0;
    if (yes && ncut < MAX_CUT && (cut[ncut] = strdup(path)) != NULL)
        ncut++;
    else
        yes = 0;
    pthread_mutex_unlock(&lock);
    return yes;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* SEAWX_SIM_GRIB_DAMAGE: a storage host that serves damaged GRIB files, for
 * the clients' tests: "html" (a web page instead of the file), "short" (the
 * stored file ends half-way through its last message) or "template" (every
 * message's data representation template is one no decoder knows). NULL:
 * the file as made. */
static struct sim_blob *damaged(struct sim_blob *blob)
{
    const char *how = getenv("SEAWX_SIM_GRIB_DAMAGE");
    if (how == NULL || *how == '\0')
        return blob;
    const uint8_t *d = (const uint8_t *)sim_blob_data(blob);
    size_t len = sim_blob_len(blob), n = len;
    static const char page[] = "<!DOCTYPE html><html><body><h1>Service temporarily "
                               "unavailable</h1></body></html>\n";
    if (strcmp(how, "html") == 0)
        n = sizeof(page) - 1;
    uint8_t *out = malloc(n ? n : 1);
    if (out == NULL)
        return blob;
    if (strcmp(how, "html") == 0) {
        memcpy(out, page, n);
    } else {
        memcpy(out, d, len);
        size_t off = 0, last = 0;
        while (off + 16 <= len && memcmp(out + off, "GRIB", 4) == 0) {
            size_t mlen = be32(out + off + 12);
            if (mlen < 16 || off + mlen > len)
                break;
            if (strcmp(how, "template") == 0) {
                size_t s = off + 16;
                while (s + 5 <= off + mlen - 4) {
                    uint32_t sl = be32(out + s);
                    if (sl < 5)
                        break;
                    if (out[s + 4] == 5 && sl >= 11)
                        out[s + 9] = out[s + 10] = 0xff;
                    s += sl;
                }
            }
            last = off;
            off += mlen;
        }
        if (strcmp(how, "short") == 0)
            n = last + (len - last) / 2;
    }
    sim_blob_unref(blob);
    return sim_blob_adopt(out, n);
}

/* A Range header's byte ranges, as RFC 9110 reads them: "bytes=" and
 * comma-separated FIRST-LAST, FIRST- or -SUFFIX, each cut to the file. At
 * most MAX_RANGES (more is a 400, as servers bound them). Returns the count
 * of satisfiable ranges (0: none, a 416), or -1 when the header is malformed. */
#define MAX_RANGES 200
static int parse_ranges(const char *range, size_t total, unsigned long long (*r)[2])
{
    const char *p = range;
    int n = 0, asked = 0;

    if (strncmp(p, "bytes=", 6) != 0)
        return -1;
    p += 6;
    for (;;) {
        unsigned long long a = 0, b = 0;
        int has_a = 0, has_b = 0;
        char *end;
        while (*p == ' ')
            p++;
        if (isdigit((unsigned char)*p)) {
            a = strtoull(p, &end, 10);
            p = end;
            has_a = 1;
        }
        if (*p++ != '-')
            return -1;
        if (isdigit((unsigned char)*p)) {
            b = strtoull(p, &end, 10);
            p = end;
            has_b = 1;
        }
        if ((!has_a && !has_b) || (has_a && has_b && b < a) || ++asked > MAX_RANGES)
            return -1;
        if (!has_a) { /* the last b bytes */
            if (b == 0)
                return -1;
            a = b >= total ? 0 : total - b;
            b = total - 1;
        } else if (!has_b || b >= total) {
            b = total - 1;
        }
        if (a < total) {
            r[n][0] = a;
            r[n][1] = b;
            n++;
        }
        while (*p == ' ')
            p++;
        if (*p == '\0')
            return n;
        if (*p++ != ',')
            return -1;
    }
}

/* SEAWX_SIM_STORAGE_RANGES: how the storage host answers a request of
 * several byte ranges. multipart (default): multipart/byteranges, as nginx
 * and Apache do; whole: 200 with the whole file, as S3 and Cloud Storage do;
 * first: a 206 of the first range alone; some: multipart without every
 * second range (a broken host). */
static const char *ranges_mode(void)
{
    const char *v = getenv("SEAWX_SIM_STORAGE_RANGES");
    return v != NULL &&
                   (strcmp(v, "whole") == 0 || strcmp(v, "first") == 0 || strcmp(v, "some") == 0)
               ? v
               : "multipart";
}

/* Answers a Range request of the stored file blob; h[0] is its disposition. */
static int ranged(struct sim_request *rq, const char *range, const char *ctype,
                  struct sim_blob *blob, struct sim_header *h)
{
    unsigned long long r[MAX_RANGES][2];
    size_t total = sim_blob_len(blob);
    const unsigned char *data = sim_blob_data(blob);
    const char *mode = ranges_mode();
    char crange[100], mtype[100];
    int n, rc;

    n = parse_ranges(range, total, r);
    if (n < 0) {
        return sim_http_reply_text(rq, 400, "bad Range");
    }
    if (n == 0) {
        snprintf(crange, sizeof(crange), "bytes */%zu", total);
        h[1].name = "Content-Range";
        h[1].value = crange;
        return sim_http_reply(rq, 416, "text/plain", "range not satisfiable", 21, h + 1, 1);
    }
    if (n > 1 && strcmp(mode, "whole") == 0) {
        h[1].name = "Accept-Ranges";
        h[1].value = "bytes";
        return sim_http_reply_blob(rq, 200, ctype, blob, h, 2);
    }
    if (n == 1 || strcmp(mode, "first") == 0) {
        unsigned long long a = r[0][0], b = r[0][1];
        snprintf(crange, sizeof(crange), "bytes %llu-%llu/%zu", a, b, total);
        h[1].name = "Content-Range";
        h[1].value = crange;
        return sim_http_reply(rq, 206, ctype, data + a, (size_t)(b - a + 1), h, 2);
    }
    /* multipart/byteranges (RFC 9110, 14.6): each part its Content-Type and
     * Content-Range, then its bytes; "some" leaves every second one out */
    struct sim_buf out;
    const char *boundary = "SEAWX_SIM_BYTERANGES_3d6b1f";
    sim_buf_init(&out, total + 1024 + 200 * (size_t)n);
    for (int k = 0; k < n; k++) {
        if (strcmp(mode, "some") == 0 && k % 2 == 1)
            continue;
        sim_buf_printf(&out,
                       "\r\n--%s\r\nContent-Type: %s\r\nContent-Range: bytes %llu-%llu/%zu\r\n\r\n",
                       boundary, ctype, r[k][0], r[k][1], total);
        sim_buf_append(&out, data + r[k][0], (size_t)(r[k][1] - r[k][0] + 1));
    }
    sim_buf_printf(&out, "\r\n--%s--\r\n", boundary);
    size_t len = 0;
    char *body = sim_buf_steal(&out, &len);
    if (body == NULL)
        return -1;
    snprintf(mtype, sizeof(mtype), "multipart/byteranges; boundary=%s", boundary);
    rc = sim_http_reply_take(rq, 206, mtype, body, len, h, 1);
    return rc;
}

int sim_files_storage(struct sim_request *rq, int *handled)
{
    const char *p = rq->path;
    const char *name;
    const char *ctype = "application/octet-stream";
    char disp[300];
    struct sim_header h[2];
    struct sim_blob *blob = NULL;
    const char *range = sim_http_header(rq, "Range");
    int rc;

    *handled = 0;
    if (strncmp(p, "/files/", 7) != 0)
        return 0;
    *handled = 1;
    name = strrchr(p, '/') + 1;
    if (strncmp(p, "/files/soil-moisture/", 21) == 0 || strncmp(p, "/files/jobs/", 12) == 0) {
        ctype = "application/x-netcdf";
    } else if (strncmp(p, "/files/current-weather/cwc.", 27) == 0 ||
               strncmp(p, "/files/forecast/sof-d.", 22) == 0) {
        if (!sim_grib_name_ok(name) || strchr(p + 7, '/') != name - 1)
            return sim_http_reply_text(rq, 404, "no such file");
    } else {
        return sim_http_reply_text(rq, 404, "no such file");
    }
    if (!name_ok(name) || sim_http_arg(rq, "signature") == NULL)
        return sim_http_reply_text(rq, 403, "missing or bad signature");
    if (strcmp(ctype, "application/x-netcdf") == 0) {
        blob = sample(0);
        if (blob == NULL)
            return sim_http_reply_text(rq, 500, "sample file missing");
    } else {
        rc = sim_grib_get(name, &blob);
        if (rc == -1)
            return sim_http_reply_text(rq, 404, "no such file");
        if (rc != 0)
            return sim_http_reply_text(rq, 500, "the file could not be made");
        blob = damaged(blob);
    }
    snprintf(disp, sizeof(disp), "attachment; filename=\"%s\"", name);
    h[0].name = "Content-Disposition";
    h[0].value = disp;
    /* SEAWX_SIM_STORAGE_RANGE=0: Range is ignored, the whole file comes with 200. */
    if (sim_data_env("SEAWX_SIM_STORAGE_RANGE", 1, 0, 1) == 0)
        range = NULL;
    if (range != NULL) {
        rc = ranged(rq, range, ctype, blob, h);
        sim_blob_unref(blob);
        return rc;
    }
    if (cut_now(p))
        rq->trunc = 1; /* half the file, then the connection closes */
    h[1].name = "Accept-Ranges";
    h[1].value = sim_data_env("SEAWX_SIM_STORAGE_RANGE", 1, 0, 1) == 0 ? "none" : "bytes";
    rc = sim_http_reply_blob(rq, 200, ctype, blob, h, 2);
    sim_blob_unref(blob);
    return rc;
}
