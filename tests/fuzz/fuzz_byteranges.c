/* fuzz_byteranges.c: a storage host's answer to several byte ranges in one
 * request (http_ranges.c): multipart/byteranges bodies, or one range. The
 * input is the answer's Content-Type on its first line, the ranges asked
 * ("0-9,100-109") and, for a single range, its Content-Range
 * ("|0-109/200") on the second, then the body. */
#include "fuzz.h"

#include "http_transfer_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ASKED 64

static const uint8_t *line(const uint8_t *p, const uint8_t *end, char *out, size_t n)
{
    size_t k = 0;
    while (p < end && *p != '\n') {
        if (k + 1 < n)
            out[k++] = (char)*p;
        p++;
    }
    out[k] = '\0';
    return p < end ? p + 1 : p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *end = data + size;
    char ctype[160], asked[800];
    const uint8_t *p = line(data, end, ctype, sizeof ctype);
    p = line(p, end, asked, sizeof asked);
    int64_t ranges[2 * MAX_ASKED];
    size_t n = 0;
    long long a, b, t = -1, ra = -1, rb = -1;
    char *bar = strchr(asked, '|');
    if (bar) {
        sscanf(bar + 1, "%lld-%lld/%lld", &ra, &rb, &t);
        *bar = '\0';
    }
    for (char *s = strtok(asked, ","); s && n < MAX_ASKED; s = strtok(NULL, ","))
        if (sscanf(s, "%lld-%lld", &a, &b) == 2 && a >= 0 && b >= a &&
            (n == 0 || a > ranges[2 * n - 1])) {
            ranges[2 * n] = a;
            ranges[2 * n + 1] = b;
            n++;
        }
    if (n < 2)
        return 0;
    xfer x;
    memset(&x, 0, sizeof x);
    /* the body as the engine keeps it: its bytes, then a NUL */
    char *body = malloc((size_t)(end - p) + 1);
    if (!body)
        return 0;
    memcpy(body, p, (size_t)(end - p));
    body[end - p] = '\0';
    x.body.data = body;
    x.body.len = (size_t)(end - p);
    x.ranges = ranges;
    x.nranges = n;
    x.range_start = ra;
    x.range_end = rb;
    x.range_total = t;
    char why[160];
    if (swx_http_ranges_split(&x, ctype, why, sizeof why) == 0)
        for (size_t k = 0; k < n; k++)
            if (x.parts[k]) {
                /* every part lies in the body, whole */
                const char *q = x.parts[k];
                size_t len = (size_t)(ranges[2 * k + 1] - ranges[2 * k] + 1);
                if (q < body || q + len > body + x.body.len)
                    abort();
            }
    free(x.parts);
    free(body);
    return 0;
}
