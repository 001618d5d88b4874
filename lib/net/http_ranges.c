/* http_ranges.c: several byte ranges of a stored file in one request, and
 * the answer taken apart into them. Storage may answer such a request three
 * ways (RFC 9110, 14.2): multipart/byteranges, one part a range; one range
 * that holds them all (coalesced); or the whole file with 200, as hosts
 * without multi-range support do. The first two are split into the asked
 * ranges here; the third is stopped before its body (it may be megabytes
 * over a satellite link) and the caller asks again one range at a time. */
#define _GNU_SOURCE /* memmem */
#include "http_transfer_int.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

char *swx_http_ranges_value(const xfer *x)
{
    size_t cap = x->nranges * 44 + 1, len = 0;
    char *v = malloc(cap);
    if (!v)
        return NULL;
    v[0] = '\0';
    for (size_t k = 0; k < x->nranges; k++)
        len += (size_t)snprintf(v + len, cap - len, "%s%lld-%lld", k ? "," : "",
                                (long long)x->ranges[2 * k], (long long)x->ranges[2 * k + 1]);
    return v;
}

int swx_http_ranges_whole(xfer *x)
{
    long st = 0;
    curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &st);
    if (st >= 200 && st < 300 && st != 206)
        x->ranges_whole = 1;
    return x->ranges_whole;
}

/* The boundary of a multipart/byteranges type into b (n bytes): 0, or -1. */
static int boundary_of(const char *ctype, char *b, size_t n)
{
    const char *p = ctype;
    while (p && *p && strncasecmp(p, "boundary=", 9) != 0)
        p++;
    if (!p || !*p)
        return -1;
    p += 9;
    int quoted = *p == '"';
    p += quoted;
    size_t len = 0;
    while (p[len] && (quoted ? p[len] != '"' : p[len] != ';' && p[len] != ' '))
        len++;
    if (len == 0 || len > 70 || len >= n) /* RFC 2046: at most 70 characters */
        return -1;
    memcpy(b, p, len);
    b[len] = '\0';
    return 0;
}

/* A part of the answer: bytes a..b of the file at data. */
typedef struct got {
    long long a, b, t;
    const char *data;
} got;

/* The parts of a multipart/byteranges body: their count, or -1 with why. */
static long multipart(const xfer *x, const char *ctype, got **out, char *why, size_t n)
{
    char bnd[80], delim[84];
    const char *body = x->body.data ? x->body.data : "", *end = body + x->body.len;
    *out = NULL;
    if (boundary_of(ctype, bnd, sizeof bnd)) {
        snprintf(why, n, "a multipart answer without its boundary");
        return -1;
    }
    size_t dl = (size_t)snprintf(delim, sizeof delim, "--%s", bnd);
    got *g = NULL;
    long ng = 0;
    const char *p = memmem(body, x->body.len, delim, dl);
    while (p) {
        p += dl;
        if (end - p >= 2 && p[0] == '-' && p[1] == '-') {
            *out = g;
            return ng; /* the closing delimiter */
        }
        const char *hend = memmem(p, (size_t)(end - p), "\r\n\r\n", 4);
        if (!hend)
            break;
        long long a = -1, b = -1, t = -1;
        for (const char *h = p; h < hend;) { /* the part's header lines */
            const char *eol = memmem(h, (size_t)(hend - h), "\r\n", 2);
            if (!eol)
                eol = hend;
            if (eol - h > 14 && strncasecmp(h, "content-range:", 14) == 0)
                sscanf(h + 14, " bytes %lld-%lld/%lld", &a, &b, &t);
            h = eol + 2;
        }
        const char *data = hend + 4;
        if (a < 0 || b < a || end - data < b - a + 1 + 2 + (long long)dl ||
            memcmp(data + (b - a + 1), "\r\n", 2) != 0 ||
            memcmp(data + (b - a + 1) + 2, delim, dl) != 0) {
            snprintf(why, n, "a multipart answer whose part %ld does not parse", ng + 1);
            free(g);
            return -1;
        }
        got *ng2 = realloc(g, (size_t)(ng + 1) * sizeof *g);
        if (!ng2) {
            snprintf(why, n, "out of memory");
            free(g);
            return -1;
        }
        g = ng2;
        g[ng++] = (got){a, b, t, data};
        p = data + (b - a + 1) + 2;
    }
    free(g);
    snprintf(why, n, "a multipart answer cut short");
    return -1;
}

int swx_http_ranges_split(xfer *x, const char *ctype, char *why, size_t n)
{
    got one, *g = NULL;
    long ng;
    if (ctype && strncasecmp(ctype, "multipart/byteranges", 20) == 0) {
        if ((ng = multipart(x, ctype, &g, why, n)) < 0)
            return 1;
    } else {
        long long a = x->range_start, b = x->range_end;
        if (a < 0 || b < a || (long long)x->body.len != b - a + 1) {
            snprintf(why, n, "%zu bytes for bytes %lld-%lld", x->body.len, a, b);
            return 1;
        }
        one = (got){a, b, x->range_total, x->body.data};
        g = &one;
        ng = 1;
    }
    if (ng && x->range_total < 0)
        x->range_total = g[0].t;
    if (!x->parts && !(x->parts = calloc(x->nranges, sizeof *x->parts))) {
        snprintf(why, n, "out of memory");
        if (g != &one)
            free(g);
        return 1;
    }
    size_t found = 0;
    for (size_t k = 0; k < x->nranges; k++) {
        long long from = x->ranges[2 * k], to = x->ranges[2 * k + 1];
        x->parts[k] = NULL;
        for (long i = 0; i < ng; i++)
            if (g[i].a <= from && to <= g[i].b) {
                x->parts[k] = g[i].data + (from - g[i].a);
                found++;
                break;
            }
    }
    if (g != &one)
        free(g);
    if (!found) {
        snprintf(why, n, "none of the %zu byte ranges asked for", x->nranges);
        return 1;
    }
    return 0;
}
