/*
 * buf.h: a growable byte buffer with one owner and a size limit (internal).
 *
 * Invariants: data is NULL or points to cap bytes; len < cap whenever data is set,
 * and data[len] == '\0', so text can be read as a C string. len never exceeds
 * limit; an append that would pass the limit fails with SWX_ETOOBIG and leaves
 * the buffer as it was.
 */
#ifndef SWX_BUF_H
#define SWX_BUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct swx_buf {
    char *data;
    size_t len;
    size_t cap;
    size_t limit;
} swx_buf;

void swx_buf_init(swx_buf *b, size_t limit);
int swx_buf_append(swx_buf *b, const void *p, size_t n);
int swx_buf_puts(swx_buf *b, const char *s);
int swx_buf_printf(swx_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int swx_buf_vprintf(swx_buf *b, const char *fmt, va_list ap);
void swx_buf_reset(swx_buf *b);
/* Hands the bytes to the caller (who frees them) and empties the buffer.
 * Returns an empty string, not NULL, for an empty buffer; NULL only on ENOMEM. */
char *swx_buf_take(size_t *len, swx_buf *b);
void swx_buf_free(swx_buf *b);

/* Makes room for need items of elem bytes in the array items of *cap items:
 * the capacity doubles from first. Returns the array, moved or not, or NULL
 * with SWX_ENOMEM set ("out of memory", also when the size would overflow),
 * leaving items and *cap as they were. */
void *swx_array_reserve(void *items, size_t *cap, size_t need, size_t elem, size_t first);

/* Appends item to the ", "-separated list in out (n bytes, *at of them used),
 * for error messages that name what is valid. Never writes past the end: a
 * list cut short ends in "...". */
void swx_list_append(char *out, size_t n, size_t *at, const char *item);

#endif
