/*
 * files.c: file listings and resumable downloads (see seawx/files.h).
 *
 * File names carry what they hold, and the listing table reads it back:
 *   soil-moisture.YYYYMMDD.REGION.nc
 *   cwc.YYYYMMDD.tHHz.RES.BUNDLE.REGION.grib2
 *   sof-d.YYYYMMDD.tHHz.RES.BUNDLE.REGION.fHHH.grib2
 */
#include "seawx/files.h"

#include "buf.h"
#include "files_int.h"
#include "http_core.h"
#include "jsonr.h"
#include "params.h"
#include "seawx/atomicfile.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"
#include "table_build.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LISTING_MAX_BODY (16u * 1024u * 1024u)
#define LISTING_MAX_FILES 100000

typedef struct source_info {
    const char *name;
    const char *list_path;
    const char *file_path; /* prefix; the file id follows after '/' */
} source_info;

static const source_info sources[] = {
    [SWX_FILES_SOIL] = {"soil-moisture", "/soil-moisture/region", "/soil-moisture/region"},
    [SWX_FILES_WEATHER] = {"current-weather", "/current/weather/file", "/current/weather/file"},
    [SWX_FILES_FORECAST] = {"forecast", "/forecast/file", "/forecast/file"},
};
#define NSOURCES (sizeof sources / sizeof sources[0])

const char *swx_files_source_name(swx_file_source s)
{
    return (size_t)s < NSOURCES ? sources[s].name : "?";
}

int swx_files_source_parse(swx_file_source *out, const char *s)
{
    for (size_t i = 0; s && i < NSOURCES; i++)
        if (strcmp(s, sources[i].name) == 0) {
            *out = (swx_file_source)i;
            return 0;
        }
    return swx_error_set(SWX_EINVAL,
                         "unknown file source '%.40s': use soil-moisture, current-weather or "
                         "forecast",
                         s ? s : "");
}

int swx_files_check(const swx_files_query *q)
{
    int64_t a, b;
    int rc;
    if ((size_t)q->source >= NSOURCES)
        return swx_error_set(SWX_EINVAL, "unknown file source");
    const char *name = sources[q->source].name;
    if (q->time && q->source != SWX_FILES_WEATHER)
        return swx_error_set(SWX_EINVAL, "time is not a parameter of %s file listings", name);
    if (q->regions && q->source == SWX_FILES_SOIL)
        return swx_error_set(SWX_EINVAL, "regions is not a parameter of %s file listings", name);
    if (q->bundles && q->source != SWX_FILES_FORECAST)
        return swx_error_set(SWX_EINVAL, "bundles is not a parameter of %s file listings", name);
    if (q->time && (rc = swx_param_time_or_range(&a, &b, "time", q->time)))
        return rc;
    if (q->regions && (rc = swx_param_regions("regions", q->regions)))
        return rc;
    if (q->bundles && (rc = swx_param_bundles("bundles", q->bundles)))
        return rc;
    return 0;
}

/* Reads "YYYYMMDD" (8 digits) into days since 1970. */
static int read_date(const char *s, size_t n, int64_t *t)
{
    if (n != 8)
        return 0;
    for (size_t i = 0; i < 8; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    int y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    unsigned m = (unsigned)((s[4] - '0') * 10 + (s[5] - '0'));
    unsigned d = (unsigned)((s[6] - '0') * 10 + (s[7] - '0'));
    if (m < 1 || m > 12 || d < 1 || d > 31)
        return 0;
    *t = swx_days_from_civil(y, m, d) * 86400;
    return 1;
}

static int is_resolution(const char *s)
{
    /* 0p25, 0p027 */
    const char *p = strchr(s, 'p');
    if (!p || p == s || !p[1])
        return 0;
    for (const char *q = s; *q; q++)
        if (q != p && (*q < '0' || *q > '9'))
            return 0;
    return 1;
}

enum { C_NAME, C_TIME, C_REGION, C_BUNDLE, C_FHOUR, C_FORMAT, C_N };

/* Fills the name-derived columns of one listing row. */
static int describe(swx_table *t, size_t row, const char *name, const size_t *col)
{
    char parts[12][64];
    size_t np = 0;
    const char *p = name;
    while (np < 12) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        snprintf(parts[np++], sizeof parts[0], "%.*s", (int)(n < 63 ? n : 63), p);
        if (!dot)
            break;
        p = dot + 1;
    }
    const char *ext = np > 1 ? parts[np - 1] : "";
    int rc = swx_table_set_string(t, row, col[C_FORMAT],
                                  strcmp(ext, "nc") == 0 ? "netcdf"
                                  : ext[0]               ? ext
                                                         : NULL);
    int64_t when = 0;
    if (rc || np < 4 || !read_date(parts[1], strlen(parts[1]), &when))
        return rc;
    size_t at = 2, end = np - 1; /* tokens [at, end) between the date and the extension */
    int hh = -1, fh = -1;
    char z = 0;
    if (at < end && sscanf(parts[at], "t%2d%c", &hh, &z) == 2 && z == 'z' && hh >= 0 && hh < 24) {
        when += (int64_t)hh * 3600;
        at++;
    }
    if ((rc = swx_table_set_time(t, row, col[C_TIME], when)))
        return rc;
    if (at < end && is_resolution(parts[at]))
        at++;
    if (end > at && sscanf(parts[end - 1], "f%d%c", &fh, &z) == 1 && fh >= 0) {
        if ((rc = swx_table_set_int(t, row, col[C_FHOUR], fh)))
            return rc;
        end--;
    }
    if (end > at && (rc = swx_table_set_string(t, row, col[C_REGION], parts[end - 1])))
        return rc;
    if (end > at + 1)
        rc = swx_table_set_string(t, row, col[C_BUNDLE], parts[end - 2]);
    return rc;
}

int swx_files_parse(swx_table **out, const char *body, size_t len)
{
    json_object *root = NULL;
    swx_table *t = NULL;
    size_t col[C_N];
    int rc;
    *out = NULL;
    if ((rc = swx_jsonr_parse(&root, body, len, "the file listing")))
        return rc;
    json_object *files = swx_jsonr_path(root, "files", NULL);
    if (!files || !json_object_is_type(files, json_type_array)) {
        rc = swx_error_set(SWX_ESERVICE, "the file listing has no files array");
        goto done;
    }
    size_t n = json_object_array_length(files);
    if (n > LISTING_MAX_FILES) {
        rc = swx_error_set(SWX_ETOOBIG, "the file listing names more than %d files",
                           LISTING_MAX_FILES);
        goto done;
    }
    if ((rc = swx_table_new(&t)) ||
        (rc = swx_table_add_column(&col[C_NAME], t, "name", SWX_COL_STRING)) ||
        (rc = swx_table_add_column(&col[C_TIME], t, "time", SWX_COL_TIME)) ||
        (rc = swx_table_add_column(&col[C_REGION], t, "region", SWX_COL_STRING)) ||
        (rc = swx_table_add_column(&col[C_BUNDLE], t, "bundle", SWX_COL_STRING)) ||
        (rc = swx_table_add_column(&col[C_FHOUR], t, "forecast_hour", SWX_COL_INT)) ||
        (rc = swx_table_add_column(&col[C_FORMAT], t, "format", SWX_COL_STRING)))
        goto done;
    for (size_t i = 0; i < n; i++) {
        const char *name = swx_jsonr_str(json_object_array_get_idx(files, i));
        size_t row;
        if (!name || swx_param_file_id("file name", name) != 0) {
            rc = swx_error_set(SWX_ESERVICE, "entry %zu of the file listing is not a file name",
                               i + 1);
            goto done;
        }
        if ((rc = swx_table_add_row(&row, t)) ||
            (rc = swx_table_set_string(t, row, col[C_NAME], name)) ||
            (rc = describe(t, row, name, col)))
            goto done;
    }
    int64_t count;
    if (swx_jsonr_int(&count, swx_jsonr_path(root, "meta", "count", NULL))) {
        char s[32];
        snprintf(s, sizeof s, "%lld", (long long)count);
        rc = swx_table_set_meta(t, "count", s);
    }
done:
    json_object_put(root);
    if (rc) {
        swx_table_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

int swx_files_list(swx_table **out, swx_client *c, const swx_files_query *q)
{
    swx_query *qs = NULL;
    swx_response *resp = NULL;
    int64_t a, b;
    int rc;
    *out = NULL;
    if ((rc = swx_files_check(q)))
        return rc;
    if ((rc = swx_query_new(&qs)))
        return rc;
    if (q->time) {
        char s1[SWX_ISO8601_LEN], s2[SWX_ISO8601_LEN];
        swx_param_time_or_range(&a, &b, "time", q->time);
        swx_iso8601_format(s1, a);
        swx_iso8601_format(s2, b);
        rc = a == b ? swx_query_add(qs, "time", s1) : swx_query_addf(qs, "time", "%s/%s", s1, s2);
    }
    if (!rc && q->bundles)
        rc = swx_query_add(qs, "bundles", q->bundles);
    if (!rc && q->regions)
        rc = swx_query_add(qs, "regions", q->regions);
    if (rc)
        goto done;
    swx_request req = {0};
    req.path = sources[q->source].list_path;
    req.query = qs;
    req.accept = "application/json";
    req.max_body = LISTING_MAX_BODY;
    if ((rc = swx_http_get(&resp, c, &req)))
        goto done;
    if ((rc = swx_files_parse(out, resp->body, resp->len)))
        swx_error_prefix(rc, "%s", resp->url);
done:
    swx_response_free(resp);
    swx_query_free(qs);
    return rc;
}

/* ---- downloads ---- */

void swx_download_result_clear(swx_download_result *res)
{
    if (!res)
        return;
    free(res->url);
    memset(res, 0, sizeof *res);
}

int swx_files_download_path(swx_download_result *res, swx_client *c, const char *path,
                            const char *dest, const swx_download_opts *opts)
{
    swx_buf part;
    swx_response *resp = NULL;
    char *real = NULL;
    int fd = -1, rc = 0;
    struct stat st;
    swx_download_result local = {0};
    if (!res)
        res = &local;
    memset(res, 0, sizeof *res);
    swx_buf_init(&part, 8192);
    if (!dest || !*dest)
        return swx_error_set(SWX_EINVAL, "no file name to download to");
    /* Resumed from DEST.part and renamed over DEST: a regular file (a link's
     * file), never a device nor a folder. */
    if ((rc = swx_atomicfile_target(&real, NULL, dest, 0, NULL, 0)))
        goto done;
    if ((rc = swx_buf_printf(&part, "%s.part", real))) {
        rc = swx_error_set(SWX_EINVAL, "the output file name is too long");
        goto done;
    }
    fd = open(part.data, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || fstat(fd, &st) != 0) {
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", part.data, strerror(errno));
        goto done;
    }
    res->resumed_from = (int64_t)st.st_size;
    swx_request req = {0};
    req.path = path;
    /* A failed write names the .part file, which the same command resumes. */
    swx_download_opts named = {0};
    if (opts)
        named = *opts;
    named.file = part.data;
    if ((rc = swx_http_download(&resp, c, &req, fd, &named)))
        goto done;
    res->attempts = resp->attempts;
    if (resp->url) {
        res->url = strdup(resp->url);
        char *q = res->url ? strchr(res->url, '?') : NULL;
        if (q)
            *q = '\0';
    }
    if (fsync(fd) != 0 || fstat(fd, &st) != 0) {
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", part.data, strerror(errno));
        goto done;
    }
    res->bytes = (int64_t)st.st_size;
    if (close(fd) != 0) {
        fd = -1;
        rc = swx_error_set(SWX_EIO, "cannot write %s: %s", part.data, strerror(errno));
        goto done;
    }
    fd = -1;
    if (rename(part.data, real) != 0) {
        rc = swx_error_set(SWX_EIO, "cannot rename %s to %s: %s", part.data, dest, strerror(errno));
        goto done;
    }
done:
    if (fd >= 0) {
        /* Nothing received: no partial file to resume from. */
        if (fstat(fd, &st) == 0 && st.st_size == 0)
            unlink(part.data);
        close(fd);
    }
    swx_response_free(resp);
    swx_buf_free(&part);
    free(real);
    if (res == &local)
        swx_download_result_clear(&local);
    return rc;
}

int swx_files_check_id(const char *file_id)
{
    return swx_param_file_id("file", file_id);
}

int swx_files_download(swx_download_result *res, swx_client *c, swx_file_source source,
                       const char *file_id, const char *dest, const swx_download_opts *opts)
{
    char path[512];
    int rc;
    if ((size_t)source >= NSOURCES)
        return swx_error_set(SWX_EINVAL, "unknown file source");
    if ((rc = swx_param_file_id("file", file_id)))
        return rc;
    snprintf(path, sizeof path, "%s/%s", sources[source].file_path, file_id);
    return swx_files_download_path(res, c, path, dest, opts);
}
