/* storm_query.c: a selection of storms: its filters read from text, checked,
 * and written as the request of one page (see seawx/storm.h). */
#include "seawx/storm.h"

#include "seawx/error.h"
#include "seawx/number.h"
#include "params.h"
#include "seawx/iso8601.h"
#include "storm_priv.h"
#include "http_core.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- queries ---- */

void swx_storm_query_init(swx_storm_query *q)
{
    memset(q, 0, sizeof *q);
    q->intensity = -1;
}

/* The filters by the names of the service's parameters, in the order their
 * values are read. */
enum {
    K_STATUS,
    K_ID,
    K_NAME,
    K_CATEGORY,
    K_INTENSITY,
    K_REGION,
    K_PERIOD,
    K_DATA_FILTER,
    K_LIMIT,
    K_OFFSET,
    K_MAX_STORMS,
    K_COUNT
};
static const char *const query_keys[K_COUNT + 1] = {
    "status", "id",          "name",  "category", "intensity",  "region",
    "period", "data_filter", "limit", "offset",   "max_storms", NULL};

/* The largest offset and storm cap taken. */
#define COUNT_MAX 1000000000L

const char *const *swx_storm_query_keys(void)
{
    return query_keys;
}

/* The index of a key (any case, '-' for '_'), or -1. */
static int key_index(const char *key)
{
    for (int k = 0; key && k < K_COUNT; k++) {
        const char *a = query_keys[k], *b = key;
        while (*a && *b &&
               (*a == (*b >= 'A' && *b <= 'Z' ? *b - 'A' + 'a' : *b) || (*a == '_' && *b == '-')))
            a++, b++;
        if (!*a && !*b)
            return k;
    }
    return -1;
}

/* A count of storms: 0 to COUNT_MAX. */
static int read_count(const char *key, const char *v, long *out)
{
    char *end = NULL;
    long n = 0;
    if (*v) {
        errno = 0;
        n = strtol(v, &end, 10);
    }
    if (!*v || errno || !end || *end || n < 0 || n > COUNT_MAX)
        return swx_error_set(SWX_EINVAL,
                             "%.32s must be a whole number of storms, not '%.40s' (0 to %ld)", key,
                             v, COUNT_MAX);
    *out = n;
    return 0;
}

int swx_storm_query_set(swx_storm_query *q, const char *key, const char *value)
{
    int k = key_index(key);
    long n = 0;
    int rc;
    if (k < 0)
        return swx_error_set(SWX_EINVAL, "'%.32s' is not a storm filter", key ? key : "");
    if (!value)
        return swx_error_set(SWX_EINVAL, "%.32s needs a value", key);
    switch (k) {
    case K_STATUS:
        q->status = value;
        break;
    case K_ID:
        q->id = value;
        break;
    case K_NAME:
        q->name = value;
        break;
    case K_CATEGORY:
        q->category = value;
        break;
    case K_REGION:
        q->region = value;
        break;
    case K_PERIOD:
        q->period = value;
        break;
    case K_DATA_FILTER:
        q->data_filter = value;
        break;
    case K_INTENSITY: {
        double d = NAN;
        if (swx_number_parse(&d, value) || !(d >= 0))
            return swx_error_set(SWX_EINVAL, "%.32s must be a wind speed in knots, not '%.40s'",
                                 key, value);
        q->intensity = d;
        break;
    }
    case K_LIMIT:
        if ((rc = swx_param_int(&n, key, value, 1, SWX_STORM_LIMIT_MAX)))
            return rc;
        q->limit = (int)n;
        break;
    case K_OFFSET:
        return read_count(key, value, &q->offset);
    case K_MAX_STORMS:
        return read_count(key, value, &q->max_storms);
    }
    return 0;
}

static int one_of(const char *v, const char *what, const char *a, const char *b, const char *c)
{
    if (strcmp(v, a) == 0 || strcmp(v, b) == 0 || strcmp(v, c) == 0)
        return 0;
    return swx_error_set(SWX_EINVAL, "unknown %s '%.40s': use %s, %s or %s", what, v, a, b, c);
}

int swx_storm_query_check(const swx_storm_query *q)
{
    int rc, n, y;
    char basin[3];
    if (q->status && (rc = one_of(q->status, "status", "active", "inactive", "all")))
        return rc;
    if (q->data_filter &&
        (rc = one_of(q->data_filter, "data filter", "all", "analysis", "forecast")))
        return rc;
    if (q->id && swx_storm_atcf_parse(basin, &n, &y, q->id) != 0)
        return SWX_EINVAL;
    if (q->name && (!*q->name || strlen(q->name) > 64))
        return swx_error_set(SWX_EINVAL, "a storm name must have 1 to 64 characters");
    if (q->category && swx_storm_category_rank(q->category) < 0)
        return swx_error_set(SWX_EINVAL,
                             "unknown category '%.16s': use XX, DS, IN, PT, LO, SS, TD, TS, TC1, "
                             "TC2, TC3, TC4 or TC5 (in increasing order)",
                             q->category);
    if (q->intensity >= 0 && (!isfinite(q->intensity) || q->intensity > 300))
        return swx_error_set(SWX_EINVAL, "intensity must be a wind speed in knots, 0 to 300");
    if (q->region && !swx_storm_basin_known(q->region) && !swx_storm_subbasin_known(q->region))
        return swx_error_set(SWX_EINVAL,
                             "unknown region '%.16s': basins NA, SA, EP, WP, NI, SI, SP; "
                             "sub-basins CS, GM, MM, CP, AS, BB, WA, EA",
                             q->region);
    if (q->period) {
        const char *slash = strchr(q->period, '/');
        int64_t a, b;
        if (!slash || strchr(slash + 1, '/') ||
            swx_iso8601_parse_n(&a, q->period, (size_t)(slash - q->period)) != 0 ||
            swx_iso8601_parse(&b, slash + 1) != 0)
            return swx_error_set(SWX_EINVAL,
                                 "period '%.80s' is not two ISO 8601 times separated by '/', "
                                 "e.g. 2024-06-01T00:00:00Z/2024-11-30T23:59:59Z",
                                 q->period);
        if (b < a)
            return swx_error_set(SWX_EINVAL, "period '%.80s' ends before it starts", q->period);
    }
    if (q->limit < 0 || q->limit > SWX_STORM_LIMIT_MAX)
        return swx_error_set(SWX_EINVAL, "limit must be 1 to %d", SWX_STORM_LIMIT_MAX);
    if (q->offset < 0)
        return swx_error_set(SWX_EINVAL, "offset must be 0 or more");
    if (q->max_storms < 0)
        return swx_error_set(SWX_EINVAL, "the storm cap must be 0 (none) or more");
    return 0;
}

int swx_storm_request(swx_request *req, swx_query **qs, const swx_storm_query *q, int kmz,
                      long offset)
{
    int rc = swx_storm_query_check(q);
    *qs = NULL;
    if (rc)
        return rc;
    if ((rc = swx_query_new(qs)))
        return rc;
    if ((q->status && (rc = swx_query_add(*qs, "status", q->status))) ||
        (q->id && (rc = swx_query_add(*qs, "id", q->id))) ||
        (q->name && (rc = swx_query_add(*qs, "name", q->name))) ||
        (q->category && (rc = swx_query_add(*qs, "category", q->category))) ||
        (q->intensity >= 0 && (rc = swx_query_addf(*qs, "intensity", "%g", q->intensity))) ||
        (q->region && (rc = swx_query_add(*qs, "region", q->region))) ||
        (q->period && (rc = swx_query_add(*qs, "period", q->period))) ||
        (q->data_filter && (rc = swx_query_add(*qs, "data_filter", q->data_filter))) ||
        (rc = swx_query_addf(*qs, "limit", "%d", q->limit ? q->limit : SWX_STORM_LIMIT_MAX)) ||
        (offset > 0 && (rc = swx_query_addf(*qs, "offset", "%ld", offset)))) {
        swx_query_free(*qs);
        *qs = NULL;
        return rc;
    }
    memset(req, 0, sizeof *req);
    req->service = SWX_SERVICE_MAIN;
    req->path = kmz ? SWX_STORM_KMZ_PATH : SWX_STORM_JSON_PATH;
    req->query = *qs;
    req->accept = kmz ? "application/vnd.google-earth.kmz|application/zip|application/"
                        "octet-stream"
                      : "application/json";
    return 0;
}
