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
/* "%XX" (uppercase, as RFC 3986 prefers) for byte c at out (no NUL). */
void swx_hex_percent(char out[3], unsigned char c);

#endif
