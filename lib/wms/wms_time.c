/*
 * wms_time.c: a WMS time dimension as sorted runs of evenly spaced instants.
 *
 * The text "a, b/c/P, ..." is read into runs (start, step, count): the instants
 * start, start + step, ..., start + (count - 1) * step. After parsing, the runs
 * hold every instant exactly once:
 *   - runs[i] is sorted and its values are distinct (step > 0 when count > 1,
 *     step == 0 when count == 1);
 *   - last(runs[i]) < runs[i + 1].start, so the runs never overlap;
 *   - runs[i].before is the number of instants in runs[0 .. i - 1].
 * Every query is a binary search over the runs, so an interval of a hundred
 * years by the minute costs no more than one instant.
 *
 * Overlapping items are merged: instants and intervals that share one period and
 * phase become one run; anything else that overlaps (intervals of different
 * periods, an instant between the steps of an interval) is expanded value by
 * value, which is refused beyond TIMEDIM_MAX_EXPANDED values.
 */
#include "seawx/wms_time.h"

#include "buf.h"
#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Limits on what a document may ask of us. */
#define TIMEDIM_MAX_TEXT (4u * 1024u * 1024u) /* bytes of dimension text */
#define TIMEDIM_MAX_ITEMS 100000u             /* comma-separated items */
#define TIMEDIM_MAX_EXPANDED 1000000u         /* values expanded to merge overlaps */

/* How much of an offending item an error line quotes. */
#define QUOTE_MAX 80

typedef struct run {
    int64_t start;
    int64_t step;  /* 0 when count == 1 */
    size_t count;  /* >= 1 */
    size_t before; /* instants in the runs before this one */
} run;

struct swx_timedim {
    run *runs;
    size_t nruns;
    size_t cap;
    size_t count; /* instants in all runs */
    int64_t def;
};

static int64_t run_last(const run *r)
{
    return r->start + (int64_t)(r->count - 1) * r->step;
}

static int quote_len(size_t n)
{
    return (int)(n > QUOTE_MAX ? QUOTE_MAX : n);
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void trim(const char **s, size_t *n)
{
    while (*n && is_blank(**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && is_blank((*s)[*n - 1]))
        (*n)--;
}

/* Reads one item, an instant or "start/end/period", into r. */
static int parse_item(const char *s, size_t n, run *r)
{
    const char *slash = memchr(s, '/', n);
    if (!slash) {
        int64_t t;
        if (swx_iso8601_parse_n(&t, s, n))
            return swx_error_prefix(SWX_EPARSE, "time dimension");
        r->start = t;
        r->step = 0;
        r->count = 1;
        return 0;
    }
    const char *a = s, *b = slash + 1;
    size_t an = (size_t)(slash - s);
    const char *slash2 = memchr(b, '/', (size_t)(s + n - b));
    if (!slash2)
        return swx_error_set(SWX_EPARSE,
                             "time dimension interval '%.*s' has no period: write "
                             "start/end/period, e.g. .../PT1H",
                             quote_len(n), s);
    size_t bn = (size_t)(slash2 - b);
    const char *p = slash2 + 1;
    size_t pn = (size_t)(s + n - p);
    if (memchr(p, '/', pn))
        return swx_error_set(SWX_EPARSE,
                             "time dimension interval '%.*s' has more than three parts "
                             "(expected start/end/period)",
                             quote_len(n), s);
    trim(&a, &an);
    trim(&b, &bn);
    trim(&p, &pn);
    int64_t t0, t1, step;
    if (swx_iso8601_parse_n(&t0, a, an) || swx_iso8601_parse_n(&t1, b, bn) ||
        swx_iso8601_duration_parse_n(&step, p, pn))
        return swx_error_prefix(SWX_EPARSE, "time dimension interval '%.*s'", quote_len(n), s);
    if (t1 < t0)
        return swx_error_set(SWX_EPARSE, "time dimension interval '%.*s' ends before it starts",
                             quote_len(n), s);
    uint64_t count = (uint64_t)(t1 - t0) / (uint64_t)step + 1;
    if (count > SIZE_MAX / 2)
        return swx_error_set(SWX_ETOOBIG, "time dimension interval '%.*s' has too many values",
                             quote_len(n), s);
    r->start = t0;
    r->count = (size_t)count;
    r->step = count > 1 ? step : 0;
    return 0;
}

static int cmp_run(const void *pa, const void *pb)
{
    const run *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    int64_t la = run_last(a), lb = run_last(b);
    return la < lb ? -1 : la > lb;
}

static int cmp_i64(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return a < b ? -1 : a > b;
}

/* Appends r (which starts after every value held so far), folding it into the
 * last run when it continues that run's progression. */
static int push(swx_timedim *d, run r)
{
    if (d->nruns) {
        run *o = &d->runs[d->nruns - 1];
        if (o->count == 1 && r.count == 1) {
            o->step = r.start - o->start;
            o->count = 2;
            return 0;
        }
        if (o->count > 1 && r.start == run_last(o) + o->step &&
            (r.count == 1 || r.step == o->step)) {
            o->count += r.count;
            return 0;
        }
        if (o->count == 1 && r.count > 1 && r.start - o->start == r.step) {
            o->step = r.step;
            o->count = r.count + 1;
            return 0;
        }
    }
    run *runs = swx_array_reserve(d->runs, &d->cap, d->nruns + 1, sizeof *runs, 8);
    if (!runs)
        return swx_error_prefix(SWX_ENOMEM, "reading a time dimension");
    d->runs = runs;
    d->runs[d->nruns++] = r;
    return 0;
}

static int64_t phase(int64_t t, int64_t step)
{
    int64_t m = t % step;
    return m < 0 ? m + step : m;
}

/* Merges items whose ranges overlap (c[0..n-1], sorted by start, hi the
 * largest last value) and appends the result. */
static int merge_cluster(swx_timedim *d, const run *c, size_t n, int64_t hi, size_t *expanded)
{
    if (n == 1)
        return push(d, c[0]);
    int64_t step = 0;
    for (size_t i = 0; i < n && !step; i++)
        step = c[i].step;
    if (!step) /* the same instant, more than once */
        return push(d, c[0]);
    int64_t ph = phase(c[0].start, step);
    int same = 1;
    for (size_t i = 0; i < n && same; i++)
        same = (c[i].count == 1 || c[i].step == step) && phase(c[i].start, step) == ph;
    if (same) {
        /* Ranges that chain into one and share period and phase cover every
         * aligned instant from the first start to the largest end. */
        run r = {c[0].start, step, (size_t)((uint64_t)(hi - c[0].start) / (uint64_t)step) + 1, 0};
        return push(d, r);
    }
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (c[i].count > TIMEDIM_MAX_EXPANDED - *expanded - total) {
            char a[SWX_ISO8601_LEN], b[SWX_ISO8601_LEN];
            swx_iso8601_format(a, c[0].start);
            swx_iso8601_format(b, hi);
            return swx_error_set(SWX_ETOOBIG,
                                 "time dimension: intervals of different periods overlap "
                                 "between %s and %s and would expand to more than %u values",
                                 a, b, TIMEDIM_MAX_EXPANDED);
        }
        total += c[i].count;
    }
    *expanded += total;
    int64_t *v = malloc(total * sizeof *v);
    if (!v)
        return swx_error_set(SWX_ENOMEM, "out of memory reading a time dimension");
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < c[i].count; j++)
            v[k++] = c[i].start + (int64_t)j * c[i].step;
    qsort(v, total, sizeof *v, cmp_i64);
    int rc = 0;
    for (size_t i = 0; i < total && !rc; i++)
        if (i == 0 || v[i] != v[i - 1])
            rc = push(d, (run){v[i], 0, 1, 0});
    free(v);
    return rc;
}

static int normalise(swx_timedim *d, run *raw, size_t nraw)
{
    int sorted = 1;
    for (size_t i = 1; i < nraw && sorted; i++)
        sorted = cmp_run(&raw[i - 1], &raw[i]) <= 0;
    if (!sorted)
        qsort(raw, nraw, sizeof *raw, cmp_run);
    size_t expanded = 0;
    for (size_t i = 0; i < nraw;) {
        int64_t hi = run_last(&raw[i]);
        size_t j = i + 1;
        for (; j < nraw && raw[j].start <= hi; j++)
            if (run_last(&raw[j]) > hi)
                hi = run_last(&raw[j]);
        int rc = merge_cluster(d, raw + i, j - i, hi, &expanded);
        if (rc)
            return rc;
        i = j;
    }
    for (size_t i = 0; i < d->nruns; i++) {
        if (d->runs[i].count == 1)
            d->runs[i].step = 0;
        d->runs[i].before = d->count;
        if (d->runs[i].count > SIZE_MAX / 2 - d->count)
            return swx_error_set(SWX_ETOOBIG, "time dimension has too many values");
        d->count += d->runs[i].count;
    }
    return 0;
}

static int64_t pick_default(const swx_timedim *d, const char *attr)
{
    if (!attr)
        return swx_timedim_first(d);
    const char *s = attr;
    size_t n = strlen(attr);
    trim(&s, &n);
    if (n == 7 && strncasecmp(s, "current", 7) == 0)
        return swx_timedim_last(d);
    int64_t t;
    /* A default that is no instant, or not one of the values, means the first. */
    if (n && memchr(s, '/', n) == NULL && swx_iso8601_parse_n(&t, s, n) == 0 &&
        swx_timedim_contains(d, t))
        return t;
    return swx_timedim_first(d);
}

int swx_timedim_parse(swx_timedim **out, const char *text, size_t n, const char *default_attr)
{
    run *raw = NULL;
    size_t nraw = 0, capraw = 0;
    swx_timedim *d = NULL;
    int rc = 0;
    if (!out)
        return swx_error_set(SWX_EINVAL, "swx_timedim_parse: out is NULL");
    *out = NULL;
    if (!text && n)
        return swx_error_set(SWX_EINVAL, "swx_timedim_parse: text is NULL");
    if (n > TIMEDIM_MAX_TEXT)
        return swx_error_set(SWX_ETOOBIG, "time dimension is %zu bytes long, more than %u", n,
                             TIMEDIM_MAX_TEXT);
    const char *end = text + n;
    for (const char *p = text; p && p <= end;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *stop = comma ? comma : end;
        const char *item = p;
        size_t len = (size_t)(stop - p);
        trim(&item, &len);
        if (len) { /* empty items ("a,,b", a trailing comma) are skipped */
            if (nraw == TIMEDIM_MAX_ITEMS) {
                rc = swx_error_set(SWX_ETOOBIG, "time dimension has more than %u items",
                                   TIMEDIM_MAX_ITEMS);
                goto done;
            }
            run *q = swx_array_reserve(raw, &capraw, nraw + 1, sizeof *q, 16);
            if (!q) {
                rc = swx_error_set(SWX_ENOMEM, "out of memory reading a time dimension");
                goto done;
            }
            raw = q;
            rc = parse_item(item, len, &raw[nraw]);
            if (rc)
                goto done;
            nraw++;
        }
        p = comma ? comma + 1 : NULL;
    }
    if (!nraw) {
        rc = swx_error_set(SWX_EPARSE, "time dimension lists no values");
        goto done;
    }
    d = calloc(1, sizeof *d);
    if (!d) {
        rc = swx_error_set(SWX_ENOMEM, "out of memory reading a time dimension");
        goto done;
    }
    rc = normalise(d, raw, nraw);
    if (rc)
        goto done;
    if (d->nruns < d->cap) { /* give back what the growth left over */
        run *q = realloc(d->runs, d->nruns * sizeof *q);
        if (q) {
            d->runs = q;
            d->cap = d->nruns;
        }
    }
    d->def = pick_default(d, default_attr && *default_attr ? default_attr : NULL);
    *out = d;
    d = NULL;
done:
    free(raw);
    swx_timedim_free(d);
    return rc;
}

void swx_timedim_free(swx_timedim *d)
{
    if (!d)
        return;
    free(d->runs);
    free(d);
}

size_t swx_timedim_count(const swx_timedim *d)
{
    return d ? d->count : 0;
}

int64_t swx_timedim_get(const swx_timedim *d, size_t i)
{
    if (!d || i >= d->count)
        return INT64_MIN;
    size_t lo = 0, hi = d->nruns; /* the last run with before <= i */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->runs[mid].before <= i)
            lo = mid;
        else
            hi = mid;
    }
    const run *r = &d->runs[lo];
    return r->start + (int64_t)(i - r->before) * r->step;
}

int64_t swx_timedim_first(const swx_timedim *d)
{
    return d && d->nruns ? d->runs[0].start : INT64_MIN;
}

int64_t swx_timedim_last(const swx_timedim *d)
{
    return d && d->nruns ? run_last(&d->runs[d->nruns - 1]) : INT64_MIN;
}

int64_t swx_timedim_default(const swx_timedim *d)
{
    return d ? d->def : INT64_MIN;
}

/* The first run whose last value is >= t (nruns when none). */
static size_t run_at_or_after(const swx_timedim *d, int64_t t)
{
    size_t lo = 0, hi = d->nruns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (run_last(&d->runs[mid]) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int swx_timedim_contains(const swx_timedim *d, int64_t t)
{
    if (!d)
        return 0;
    size_t i = run_at_or_after(d, t);
    if (i == d->nruns)
        return 0;
    const run *r = &d->runs[i];
    return t == r->start || (t > r->start && (t - r->start) % r->step == 0);
}

size_t swx_timedim_lower_bound(const swx_timedim *d, int64_t t)
{
    if (!d)
        return 0;
    size_t i = run_at_or_after(d, t);
    if (i == d->nruns)
        return d->count;
    const run *r = &d->runs[i];
    if (t <= r->start)
        return r->before;
    /* start < t <= last, so count > 1 and step > 0 */
    uint64_t off = (uint64_t)t - (uint64_t)r->start;
    return r->before + (size_t)((off + (uint64_t)r->step - 1) / (uint64_t)r->step);
}

size_t swx_timedim_nearest(const swx_timedim *d, int64_t t, int64_t *out, size_t max)
{
    if (!d || !out)
        return 0;
    size_t hi = swx_timedim_lower_bound(d, t), lo = hi, n = 0;
    /* lo - 1 and hi are the next candidates below and at-or-above t; on equal
     * distance the earlier instant comes first. */
    while (n < max && (lo > 0 || hi < d->count)) {
        if (hi >= d->count) {
            out[n++] = swx_timedim_get(d, --lo);
        } else if (lo == 0) {
            out[n++] = swx_timedim_get(d, hi++);
        } else {
            int64_t a = swx_timedim_get(d, lo - 1), b = swx_timedim_get(d, hi);
            if ((uint64_t)t - (uint64_t)a <= (uint64_t)b - (uint64_t)t) {
                out[n++] = a;
                lo--;
            } else {
                out[n++] = b;
                hi++;
            }
        }
    }
    return n;
}
