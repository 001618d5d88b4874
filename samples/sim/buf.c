/* buf.c: growable, bounded byte buffer (see buf.h). */
#include "buf.h"

#include "util/internal/hex.h"
#include "util/internal/jsonfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_buf_init(struct sim_buf *b, size_t limit)
{
    memset(b, 0, sizeof(*b));
    swx_buf_init(&b->u, limit);
}

void sim_buf_free(struct sim_buf *b)
{
    if (b == NULL)
        return;
    swx_buf_free(&b->u);
    b->failed = 0;
}

void sim_buf_reset(struct sim_buf *b)
{
    swx_buf_reset(&b->u);
    b->failed = 0;
}

int sim_buf_append(struct sim_buf *b, const void *p, size_t n)
{
    if (b->failed || swx_buf_append(&b->u, p, n) != 0) {
        b->failed = 1;
        return -1;
    }
    return 0;
}

int sim_buf_puts(struct sim_buf *b, const char *s)
{
    return sim_buf_append(b, s, strlen(s));
}

int sim_buf_vprintf(struct sim_buf *b, const char *fmt, va_list ap)
{
    if (b->failed || swx_buf_vprintf(&b->u, fmt, ap) != 0) {
        b->failed = 1;
        return -1;
    }
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
    char tmp[SWX_JSON_ESC_MAX * 256];
    size_t n = strlen(s);

    for (size_t i = 0; i < n; i += 256) {
        size_t k = swx_json_escape(tmp, s + i, n - i < 256 ? n - i : 256);
        if (sim_buf_append(b, tmp, k) != 0)
            return -1;
    }
    return b->failed ? -1 : 0;
}

int sim_buf_url(struct sim_buf *b, const char *s)
{
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~') {
            sim_buf_append(b, s, 1);
        } else {
            char esc[3];
            swx_hex_percent(esc, c);
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
