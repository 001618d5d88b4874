/* buf.h: a growable byte buffer with a hard size limit and one owner.
 *
 * The growing is util's swx_buf (lib/util/internal/buf.h); what the stand-in adds is a
 * sticky failure: appends after a failure (out of memory or over the limit) do
 * nothing and the buffer stays failed, so a long run of appends (an XML
 * document) is checked once at the end. The data is always NUL-terminated
 * (not counted in len). */
#ifndef SIM_BUF_H
#define SIM_BUF_H

#include "util/internal/buf.h"

#include <stdarg.h>
#include <stddef.h>

struct sim_buf {
    /* The fields are swx_buf's own, named here as well (a common initial
     * sequence), so that the stand-in reads b.data and b.len directly. */
    union {
        swx_buf u;
        struct {
            char *data;   /* NULL until the first append */
            size_t len;   /* bytes used, excluding the terminating NUL */
            size_t cap;   /* bytes allocated */
            size_t limit; /* largest len allowed */
        };
    };
    int failed; /* sticky: set by the first failed append */
};

void sim_buf_init(struct sim_buf *b, size_t limit);
void sim_buf_free(struct sim_buf *b);
void sim_buf_reset(struct sim_buf *b);

int sim_buf_append(struct sim_buf *b, const void *p, size_t n);
int sim_buf_puts(struct sim_buf *b, const char *s);
int sim_buf_printf(struct sim_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sim_buf_vprintf(struct sim_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* Appends s with &, <, > and " replaced by entities: safe in text and in
 * double-quoted attributes (the only kind written here). */
int sim_buf_xml(struct sim_buf *b, const char *s);
/* Appends s with JSON string escapes (no surrounding quotes). */
int sim_buf_json(struct sim_buf *b, const char *s);
/* Appends s percent-encoded for a URL query value (RFC 3986 unreserved kept). */
int sim_buf_url(struct sim_buf *b, const char *s);

/* Hands the data over to the caller (free() it) and empties the buffer;
 * NULL if the buffer failed or is empty. */
char *sim_buf_steal(struct sim_buf *b, size_t *len);

#endif
