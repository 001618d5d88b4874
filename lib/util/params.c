/* params.c: checks of user-given parameter values (see params.h). */
#include "params.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A number as users write it: digits with an optional sign, point and exponent. strtod and
 * strtol alone would also take leading blanks, hexadecimal ("0x1p3") and "infinity". */
static int plain_number(const char *s)
{
    if (!s || !*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789+-.eE", *p))
            return 0;
    return 1;
}

static const char *const bundles[] = {"basic",    "maritime", "agricultural",
                                      "aviation", "solar",    "wind"};

int swx_param_number(double *out, const char *name, const char *s, double min, double max)
{
    char *end = NULL;
    double v = 0;
    if (plain_number(s)) {
        errno = 0;
        v = strtod(s, &end);
    }
    if (!plain_number(s) || errno || !end || *end || !isfinite(v) || v < min || v > max)
        return swx_error_set(SWX_EINVAL, "%s must be a number from %g to %g, not '%.40s'", name,
                             min, max, s ? s : "");
    *out = v;
    return 0;
}

int swx_param_int(long *out, const char *name, const char *s, long min, long max)
{
    char *end = NULL;
    long v = 0;
    if (plain_number(s)) {
        errno = 0;
        v = strtol(s, &end, 10);
    }
    if (!plain_number(s) || errno || !end || *end || v < min || v > max)
        return swx_error_set(SWX_EINVAL, "%s must be a whole number from %ld to %ld, not '%.40s'",
                             name, min, max, s ? s : "");
    *out = v;
    return 0;
}

int swx_param_lat(double *out, const char *s)
{
    if (!s)
        return swx_error_set(SWX_EINVAL, "lat is required: a latitude from -90 to 90");
    return swx_param_number(out, "lat", s, -90, 90);
}

int swx_param_lon(double *out, const char *s)
{
    if (!s)
        return swx_error_set(SWX_EINVAL, "lon is required: a longitude from -180 to 180");
    return swx_param_number(out, "lon", s, -180, 180);
}

int swx_param_time(int64_t *out, const char *name, const char *s)
{
    if (!s || swx_iso8601_parse(out, s) != 0)
        return swx_error_set(SWX_EINVAL,
                             "%s must be an ISO 8601 time, YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM], "
                             "not '%.60s'",
                             name, s ? s : "");
    return 0;
}

int swx_param_time_or_range(int64_t *start, int64_t *end, const char *name, const char *s)
{
    const char *slash = s ? strchr(s, '/') : NULL;
    if (!slash) {
        int rc = swx_param_time(start, name, s);
        if (!rc)
            *end = *start;
        return rc;
    }
    if (swx_iso8601_parse_n(start, s, (size_t)(slash - s)) != 0 ||
        swx_iso8601_parse(end, slash + 1) != 0)
        return swx_error_set(SWX_EINVAL,
                             "%s must be an ISO 8601 time or a range START/END of two such times, "
                             "not '%.80s'",
                             name, s);
    if (*end <= *start)
        return swx_error_set(SWX_EINVAL, "%s: the end of the range '%.80s' is not after its start",
                             name, s);
    return 0;
}

int swx_param_order(const char *start_name, int64_t start, const char *end_name, int64_t end)
{
    if (end <= start) {
        char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
        swx_iso8601_format(a, start);
        swx_iso8601_format(b, end);
        return swx_error_set(SWX_EINVAL, "%s (%s) must be after %s (%s)", end_name, b, start_name,
                             a);
    }
    return 0;
}

int swx_param_units(const char *name, const char *s)
{
    if (s && (strcmp(s, "si") == 0 || strcmp(s, "us") == 0))
        return 0;
    return swx_error_set(SWX_EINVAL, "%s must be si or us, not '%.40s'", name, s ? s : "");
}

static int list_items(const char *name, const char *s, const char *what,
                      int (*ok)(const char *item, size_t n))
{
    if (!s || !*s)
        return swx_error_set(SWX_EINVAL, "%s must name at least one %s", name, what);
    if (strlen(s) > 1024)
        return swx_error_set(SWX_EINVAL, "%s is longer than 1024 characters", name);
    const char *p = s;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (!ok(p, n))
            return swx_error_set(SWX_EINVAL, "%s: '%.*s' is not a valid %s", name,
                                 (int)(n > 60 ? 60 : n), p, what);
        /* no item twice */
        for (const char *q = s; q < p;) {
            const char *c2 = strchr(q, ',');
            size_t m = (size_t)(c2 - q);
            if (m == n && strncmp(q, p, n) == 0)
                return swx_error_set(SWX_EINVAL, "%s names '%.*s' twice", name, (int)n, p);
            q = c2 + 1;
        }
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

static int bundle_ok(const char *p, size_t n)
{
    for (size_t i = 0; i < sizeof bundles / sizeof bundles[0]; i++)
        if (strlen(bundles[i]) == n && strncmp(bundles[i], p, n) == 0)
            return 1;
    return 0;
}

int swx_param_bundles(const char *name, const char *s)
{
    if (!s || !*s)
        return swx_error_set(SWX_EINVAL,
                             "%s must be a comma list of basic, maritime, agricultural, aviation, "
                             "solar, wind",
                             name);
    if (list_items(name, s, "bundle", bundle_ok) == 0)
        return 0;
    return swx_error_set(SWX_EINVAL,
                         "%s must be a comma list of basic, maritime, agricultural, aviation, "
                         "solar, wind (no repeats), not '%.80s'",
                         name, s);
}

/* Whether p[0, n) holds only ASCII letters, digits and bytes of extra. */
static int letters_digits_or(const char *p, size_t n, const char *extra)
{
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              (c && strchr(extra, c))))
            return 0;
    }
    return 1;
}

static int region_ok(const char *p, size_t n)
{
    return n > 0 && n <= 64 && letters_digits_or(p, n, "_-");
}

int swx_param_regions(const char *name, const char *s)
{
    return list_items(name, s, "region (letters, digits, '_' and '-')", region_ok);
}

int swx_param_tz(const char *name, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (!(n > 0 && n <= 64 && s[0] != '/' && !strstr(s, "..") && letters_digits_or(s, n, "_+-/")))
        return swx_error_set(SWX_EINVAL,
                             "%s must be a time zone identifier such as UTC or Europe/Oslo, not "
                             "'%.40s'",
                             name, s ? s : "");
    return 0;
}

int swx_param_file_id(const char *name, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (!(n > 0 && n <= 255 && !strchr(s, '/') && !strchr(s, '\\') && strcmp(s, ".") != 0 &&
          strcmp(s, "..") != 0 && letters_digits_or(s, n, "._+-")))
        return swx_error_set(SWX_EINVAL,
                             "%s must be a file name from the listing (letters, digits, '.', '_', "
                             "'+', '-'; at most 255 characters), not '%.60s'",
                             name, s ? s : "");
    return 0;
}

int swx_param_uuid(const char *name, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    int ok = n >= 8 && n <= 64;
    for (size_t i = 0; ok && i < n; i++) {
        char c = s[i];
        ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '-';
    }
    if (!ok)
        return swx_error_set(SWX_EINVAL,
                             "%s must be a job uuid (8 to 64 hexadecimal digits and '-'), not "
                             "'%.60s'",
                             name, s ? s : "");
    return 0;
}
