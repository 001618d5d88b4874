/* buf.c: growable, bounded byte buffer (see buf.h). */
#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_buf_init(struct sim_buf *b, size_t limit)
{
    memset(b, 0, sizeof(*b));
    b->limit = limit;
}

void sim_buf_free(struct sim_buf *b)
{
    if (b == NULL)
        return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

void sim_buf_reset(struct sim_buf *b)
{
    b->len = 0;
    b->failed = 0;
    if (b->data != NULL)
        b->data[0] = '\0';
}

/* Makes room for n more bytes plus the NUL; doubles to keep appends amortised O(1). */
static int buf_reserve(struct sim_buf *b, size_t n)
{
    size_t need, cap;
    char *p;

    if (b->failed)
        return -1;
    if (n > b->limit || b->len > b->limit - n) {
        b->failed = 1;
        return -1;
    }
    need = b->len + n + 1;
    if (need <= b->cap)
        return 0;
    cap = b->cap != 0 ? b->cap : 256;
    while (cap < need)
        cap = cap > ((size_t)-1) / 2 ? need : cap * 2;
    p = realloc(b->data, cap);
    if (p == NULL) {
        b->failed = 1;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

int sim_buf_append(struct sim_buf *b, const void *p, size_t n)
{
    if (buf_reserve(b, n) != 0)
        return -1;
    if (n != 0)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int sim_buf_puts(struct sim_buf *b, const char *s)
{
    return sim_buf_append(b, s, strlen(s));
}

int sim_buf_vprintf(struct sim_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    int n;

    if (b->failed)
        return -1;
    va_copy(ap2, ap);
    n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || buf_reserve(b, (size_t)n) != 0) {
        b->failed = 1;
        return -1;
    }
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

int sim_buf_printf(struct sim_buf *b, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = sim_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

int sim_buf_xml(struct sim_buf *b, const char *s)
{
    const char *run = s;

    for (; *s != '\0'; s++) {
        const char *ent = NULL;
        switch (*s) {
        case '&':
            ent = "&amp;";
            break;
        case '<':
            ent = "&lt;";
            break;
        case '>':
            ent = "&gt;";
            break;
        case '"':
            ent = "&quot;";
            break; /* attributes are written in double quotes */
        default:
            /* Control characters are not allowed in XML 1.0; echoed user input
             * may hold them, so they become '?'. */
            if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r')
                ent = "?";
            break;
        }
        if (ent != NULL) {
            sim_buf_append(b, run, (size_t)(s - run));
            sim_buf_puts(b, ent);
            run = s + 1;
        }
    }
    return sim_buf_append(b, run, (size_t)(s - run));
}

int sim_buf_json(struct sim_buf *b, const char *s)
{
    const char *run = s;

    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\' || c < 0x20) {
            sim_buf_append(b, run, (size_t)(s - run));
            if (c == '"' || c == '\\')
                sim_buf_printf(b, "\\%c", c);
            else
                sim_buf_printf(b, "\\u%04x", c);
            run = s + 1;
        }
    }
    return sim_buf_append(b, run, (size_t)(s - run));
}

int sim_buf_url(struct sim_buf *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";

    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~') {
            sim_buf_append(b, s, 1);
        } else {
            char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
            sim_buf_append(b, esc, 3);
        }
    }
    return b->failed ? -1 : 0;
}

char *sim_buf_steal(struct sim_buf *b, size_t *len)
{
    char *p = NULL;

    if (!b->failed && b->data != NULL) {
        p = b->data;
        if (len != NULL)
            *len = b->len;
        b->data = NULL;
        b->len = b->cap = 0;
    } else {
        sim_buf_free(b);
    }
    return p;
}
