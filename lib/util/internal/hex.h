/*
 * hex.h: bytes as hexadecimal digits (internal).
 */
#ifndef SWX_HEX_H
#define SWX_HEX_H

#include <stddef.h>

/* The two digits of byte c at out (no NUL): lowercase, or uppercase when upper. */
void swx_hex_byte(char out[2], unsigned char c, int upper);
/* 2 * n lowercase digits of the n bytes at in, then a NUL (out: 2 * n + 1 bytes). */
void swx_hex_encode(char *out, const void *in, size_t n);
/* The value of hex digit c (either case), or -1 when c is not one. Inline:
 * the JSON scanner reads \uXXXX escapes with it. */
static inline int swx_hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* "%XX" (uppercase, as RFC 3986 prefers) for byte c at out (no NUL). */
void swx_hex_percent(char out[3], unsigned char c);

#endif
