/* buf.c: growable byte buffer with a limit. */
#include "buf.h"

#include "seawx/error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void swx_buf_init(swx_buf *b, size_t limit)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->limit = limit ? limit : (size_t)-1 / 2;
}

static int grow(swx_buf *b, size_t need)
{
    if (need > b->limit)
        return swx_error_set(SWX_ETOOBIG, "more than %zu bytes", b->limit);
    if (need + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need + 1)
        cap = cap > ((size_t)-1) / 4 ? need + 1 : cap * 2;
    char *p = realloc(b->data, cap);
    if (!p)
        return swx_error_set(SWX_ENOMEM, "out of memory growing a buffer to %zu bytes", cap);
    b->data = p;
    b->cap = cap;
    return 0;
}

int swx_buf_append(swx_buf *b, const void *p, size_t n)
{
    if (n > b->limit - b->len)
        return swx_error_set(SWX_ETOOBIG, "more than %zu bytes", b->limit);
    int rc = grow(b, b->len + n);
    if (rc)
        return rc;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int swx_buf_puts(swx_buf *b, const char *s)
{
    return swx_buf_append(b, s, strlen(s));
}

int swx_buf_vprintf(swx_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return swx_error_set(SWX_EINVAL, "bad format");
    if ((size_t)n > b->limit - b->len)
        return swx_error_set(SWX_ETOOBIG, "more than %zu bytes", b->limit);
    int rc = grow(b, b->len + (size_t)n);
    if (rc)
        return rc;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

int swx_buf_printf(swx_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = swx_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

void swx_buf_reset(swx_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

char *swx_buf_take(size_t *len, swx_buf *b)
{
    char *p = b->data;
    if (!p) {
        p = calloc(1, 1);
        if (!p) {
            swx_error_set(SWX_ENOMEM, "out of memory");
            return NULL;
        }
    }
    if (len)
        *len = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

void swx_buf_free(swx_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void swx_list_append(char *out, size_t n, size_t *at, const char *item)
{
    if (n < 4 || *at >= n - 1)
        return; /* full (or cut short already) */
    int w = snprintf(out + *at, n - *at, "%s%s", *at ? ", " : "", item);
    if (w < 0)
        return;
    if ((size_t)w >= n - *at) {
        memcpy(out + n - 4, "...", 4);
        *at = n - 1;
    } else {
        *at += (size_t)w;
    }
}

void *swx_array_reserve(void *items, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (need <= *cap)
        return items;
    size_t n = *cap ? *cap : (first ? first : 1);
    while (n < need) {
        if (n > SIZE_MAX / 2)
            goto nomem;
        n *= 2;
    }
    if (n > SIZE_MAX / elem)
        goto nomem;
    void *p = realloc(items, n * elem);
    if (!p)
        goto nomem;
    *cap = n;
    return p;
nomem:
    swx_error_set(SWX_ENOMEM, "out of memory");
    return NULL;
}
