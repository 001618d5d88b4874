/* connstr.c: "SEAWX:key=value,..." connection strings. */
#include "seawx/connstr.h"

#include "buf.h"
#include "hex.h"
#include "seawx/error.h"
#include "seawx/number.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct swx_connstr {
    char *kind;
    size_t n;
    char *keys[SWX_CONNSTR_MAX_ITEMS];
    char *values[SWX_CONNSTR_MAX_ITEMS];
};

int swx_connstr_new(swx_connstr **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? 0 : swx_error_set(SWX_ENOMEM, "out of memory");
}

void swx_connstr_free(swx_connstr *cs)
{
    if (!cs)
        return;
    free(cs->kind);
    for (size_t i = 0; i < cs->n; i++) {
        free(cs->keys[i]);
        free(cs->values[i]);
    }
    free(cs);
}

static int valid_key(const char *k, size_t n)
{
    if (n == 0 || n > 64)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)k[i]) && k[i] != '_' && k[i] != '-')
            return 0;
    return 1;
}

static int is_secret_key(const char *k)
{
    return strcasecmp(k, "key") == 0 || strcasecmp(k, "api_key") == 0 ||
           strcasecmp(k, "apikey") == 0 || strcasecmp(k, "service-api-key") == 0 ||
           strcasecmp(k, "api-key") == 0;
}

/* Decodes %XX escapes of s[0..n) into a new string; %00 is refused. */
static int decode(const char *s, size_t n, char **out)
{
    char *d = malloc(n + 1);
    size_t j = 0;
    if (!d)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '%') {
            d[j++] = s[i];
            continue;
        }
        int hi = i + 1 < n ? swx_hex_value(s[i + 1]) : -1;
        int lo = i + 2 < n ? swx_hex_value(s[i + 2]) : -1;
        if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
            free(d);
            return swx_error_set(SWX_EINVAL, "bad %% escape in connection string value '%.*s'",
                                 (int)(n > 80 ? 80 : n), s);
        }
        d[j++] = (char)(hi * 16 + lo);
        i += 2;
    }
    d[j] = '\0';
    *out = d;
    return 0;
}

static int add(swx_connstr *cs, char *key, char *value)
{
    for (size_t i = 0; i < cs->n; i++)
        if (strcmp(cs->keys[i], key) == 0) {
            int rc = swx_error_set(SWX_EINVAL, "'%s' is given twice in the connection string", key);
            free(key);
            free(value);
            return rc;
        }
    if (cs->n >= SWX_CONNSTR_MAX_ITEMS) {
        free(key);
        free(value);
        return swx_error_set(SWX_ETOOBIG, "more than %d items in the connection string",
                             SWX_CONNSTR_MAX_ITEMS);
    }
    cs->keys[cs->n] = key;
    cs->values[cs->n] = value;
    cs->n++;
    return 0;
}

int swx_connstr_parse(swx_connstr **out, const char *s)
{
    swx_connstr *cs = NULL;
    int rc;
    *out = NULL;
    if (!s)
        return swx_error_set(SWX_EINVAL, "no connection string");
    if (strncasecmp(s, SWX_CONNSTR_PREFIX, strlen(SWX_CONNSTR_PREFIX)) == 0)
        s += strlen(SWX_CONNSTR_PREFIX);
    if (strlen(s) > SWX_CONNSTR_MAX_LEN)
        return swx_error_set(SWX_ETOOBIG, "connection string longer than %d characters",
                             SWX_CONNSTR_MAX_LEN);
    if ((rc = swx_connstr_new(&cs)))
        return rc;
    const char *p = s;
    int first = 1;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        if (n == 0) {
            rc = swx_error_set(SWX_EINVAL, "empty item in connection string '%.200s'", s);
            goto done;
        }
        if (!eq) {
            if (!first || !valid_key(p, n)) {
                rc = swx_error_set(SWX_EINVAL, "'%.*s' in the connection string is not key=value",
                                   (int)n, p);
                goto done;
            }
            if (!(cs->kind = strndup(p, n))) {
                rc = swx_error_set(SWX_ENOMEM, "out of memory");
                goto done;
            }
            for (char *k = cs->kind; *k; k++)
                *k = (char)tolower((unsigned char)*k);
        } else {
            size_t kl = (size_t)(eq - p);
            if (!valid_key(p, kl)) {
                rc = swx_error_set(SWX_EINVAL, "'%.*s' is not a valid connection string key",
                                   (int)(kl > 64 ? 64 : kl), p);
                goto done;
            }
            char *key = strndup(p, kl), *value = NULL;
            if (!key) {
                rc = swx_error_set(SWX_ENOMEM, "out of memory");
                goto done;
            }
            for (char *k = key; *k; k++)
                *k = (char)tolower((unsigned char)*k);
            if (is_secret_key(key)) {
                free(key);
                rc = swx_error_set(SWX_EINVAL,
                                   "the API key does not belong in a connection string; set "
                                   "SEAWX_API_KEY (environment or GDAL configuration option)");
                goto done;
            }
            if ((rc = decode(eq + 1, n - kl - 1, &value))) {
                free(key);
                goto done;
            }
            if ((rc = add(cs, key, value)))
                goto done;
        }
        first = 0;
        if (!comma)
            break;
        p = comma + 1;
        if (!*p) {
            rc = swx_error_set(SWX_EINVAL, "connection string ends with ','");
            goto done;
        }
    }
done:
    if (rc) {
        swx_connstr_free(cs);
        return rc;
    }
    *out = cs;
    return 0;
}

const char *swx_connstr_kind(const swx_connstr *cs)
{
    return cs->kind;
}

int swx_connstr_set_kind(swx_connstr *cs, const char *kind)
{
    if (kind && !valid_key(kind, strlen(kind)))
        return swx_error_set(SWX_EINVAL, "'%.64s' is not a valid dataset kind", kind);
    char *k = kind ? strdup(kind) : NULL;
    if (kind && !k)
        return swx_error_set(SWX_ENOMEM, "out of memory");
    free(cs->kind);
    cs->kind = k;
    return 0;
}

size_t swx_connstr_count(const swx_connstr *cs)
{
    return cs->n;
}

const char *swx_connstr_key(const swx_connstr *cs, size_t i)
{
    return i < cs->n ? cs->keys[i] : NULL;
}

const char *swx_connstr_value(const swx_connstr *cs, size_t i)
{
    return i < cs->n ? cs->values[i] : NULL;
}

const char *swx_connstr_get(const swx_connstr *cs, const char *key)
{
    for (size_t i = 0; i < cs->n; i++)
        if (strcasecmp(cs->keys[i], key) == 0)
            return cs->values[i];
    return NULL;
}

int swx_connstr_set(swx_connstr *cs, const char *key, const char *value)
{
    if (!valid_key(key, strlen(key)))
        return swx_error_set(SWX_EINVAL, "'%.64s' is not a valid connection string key", key);
    if (is_secret_key(key))
        return swx_error_set(SWX_EINVAL, "the API key does not belong in a connection string");
    for (size_t i = 0; i < cs->n; i++) {
        if (strcasecmp(cs->keys[i], key) != 0)
            continue;
        if (!value) {
            free(cs->keys[i]);
            free(cs->values[i]);
            memmove(cs->keys + i, cs->keys + i + 1, (cs->n - i - 1) * sizeof *cs->keys);
            memmove(cs->values + i, cs->values + i + 1, (cs->n - i - 1) * sizeof *cs->values);
            cs->n--;
            return 0;
        }
        char *v = strdup(value);
        if (!v)
            return swx_error_set(SWX_ENOMEM, "out of memory");
        free(cs->values[i]);
        cs->values[i] = v;
        return 0;
    }
    if (!value)
        return 0;
    char *k = strdup(key), *v = strdup(value);
    if (!k || !v) {
        free(k);
        free(v);
        return swx_error_set(SWX_ENOMEM, "out of memory");
    }
    for (char *c = k; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return add(cs, k, v);
}

char *swx_connstr_format(const swx_connstr *cs)
{
    swx_buf b;
    swx_buf_init(&b, SWX_CONNSTR_MAX_LEN * 4);
    int rc = swx_buf_puts(&b, SWX_CONNSTR_PREFIX);
    if (!rc && cs->kind)
        rc = swx_buf_puts(&b, cs->kind);
    for (size_t i = 0; !rc && i < cs->n; i++) {
        if ((i > 0 || cs->kind) && (rc = swx_buf_puts(&b, ",")))
            break;
        if ((rc = swx_buf_puts(&b, cs->keys[i])) || (rc = swx_buf_puts(&b, "=")))
            break;
        for (const unsigned char *p = (const unsigned char *)cs->values[i]; !rc && *p; p++) {
            if (*p == '%' || *p == ',' || *p == '"' || *p <= ' ' || *p == 0x7f) {
                char e[3];
                swx_hex_percent(e, *p);
                rc = swx_buf_append(&b, e, 3);
            } else {
                rc = swx_buf_append(&b, p, 1);
            }
        }
    }
    /* What is formatted always parses again: a string the parser would refuse
     * as too long is not made (a value of many escaped bytes can get there). */
    if (!rc && b.len > SWX_CONNSTR_MAX_LEN)
        rc = swx_error_set(SWX_ETOOBIG, "the connection string would be longer than %d characters",
                           SWX_CONNSTR_MAX_LEN);
    if (rc) {
        swx_buf_free(&b);
        return NULL;
    }
    return swx_buf_take(NULL, &b);
}

/* ---- option descriptions ---- */

int swx_opt_read(long *num, double *real, const swx_opt *o, const char *value)
{
    static const char *const yes[] = {"yes", "true", "on", "1"};
    static const char *const no[] = {"no", "false", "off", "0"};
    const char *v = value ? value : "";
    char *end = NULL;
    switch (o->type) {
    case SWX_OPT_STRING:
    case SWX_OPT_CHOICE:
        return 0;
    case SWX_OPT_INT: {
        long n = 0;
        if (*v) {
            errno = 0;
            n = strtol(v, &end, 10);
        }
        if (!*v || errno || !end || *end || n < o->min || n > o->max)
            return swx_error_set(SWX_EINVAL,
                                 "%s must be a whole number from %ld to %ld, not '%.40s'", o->key,
                                 o->min, o->max, v);
        if (num)
            *num = n;
        return 0;
    }
    case SWX_OPT_REAL: {
        double d = 0;
        if (swx_number_parse(&d, v) || !(d > 0))
            return swx_error_set(SWX_EINVAL, "%s must be %s, not '%.40s'", o->key,
                                 o->form ? o->form : "a positive number", v);
        if (real)
            *real = d;
        return 0;
    }
    case SWX_OPT_BOOL:
        for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
            if (strcasecmp(v, yes[i]) == 0 || strcasecmp(v, no[i]) == 0) {
                if (num)
                    *num = strcasecmp(v, yes[i]) == 0;
                return 0;
            }
        return swx_error_set(SWX_EINVAL, "%s must be yes or no, not '%.40s'", o->key, v);
    }
    return swx_error_set(SWX_EINVAL, "%s: unknown kind of option", o->key);
}

const swx_opt *swx_opt_find(const swx_opt *opts, size_t n, const char *key)
{
    for (size_t i = 0; key && i < n; i++)
        if (strcasecmp(opts[i].key, key) == 0)
            return &opts[i];
    return NULL;
}

static const swx_opt service_opts[] = {
    {"timeout", SWX_OPT_INT, 1, 86400, "120", NULL, NULL, "Seconds before one request is given up",
     NULL},
    {"retries", SWX_OPT_INT, 0, 100, "5", NULL, NULL, "Retries of a failed request", NULL},
    {"url", SWX_OPT_STRING, 0, 0, NULL, NULL, "SEAWX_BASE_URL", "Service base address", NULL},
};
#define NSERVICE_OPTS (sizeof service_opts / sizeof service_opts[0])

const swx_opt *swx_service_opt_list(size_t *n)
{
    *n = NSERVICE_OPTS;
    return service_opts;
}

int swx_service_opts_parse(swx_service_opts *o, const swx_connstr *cs)
{
    long timeout = 0, retries = -1;
    const char *v;
    int rc = 0;
    if ((v = swx_connstr_get(cs, "timeout")) && *v &&
        (rc = swx_opt_read(&timeout, NULL, &service_opts[0], v)))
        return rc;
    if ((v = swx_connstr_get(cs, "retries")) && *v &&
        (rc = swx_opt_read(&retries, NULL, &service_opts[1], v)))
        return rc;
    v = swx_connstr_get(cs, "url");
    o->url = v && *v ? v : NULL;
    o->timeout_s = (int)timeout;
    o->retries = (int)retries;
    return 0;
}
