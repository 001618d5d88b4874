/*
 * jsonfmt.h: the text of strings and numbers in JSON, for every writer of JSON
 * (internal): the streaming writer, the storm GeoJSON writer and the stand-in;
 * the shortest double is also how numbers go into request URLs (WMS BBOX).
 */
#ifndef SWX_JSONFMT_H
#define SWX_JSONFMT_H

#include <stddef.h>

/* Room for any number swx_double_shortest writes, and its NUL. */
#define SWX_DOUBLE_TEXT_MAX 32
/* The most bytes one input byte can take escaped ("\u00XX"). */
#define SWX_JSON_ESC_MAX 6

/* Escapes n bytes of s for the inside of a JSON string (no quotes) into out,
 * which has room for SWX_JSON_ESC_MAX * n bytes; returns the bytes written.
 * '"', '\\' and \n \r \t get their short escapes; the other control bytes and
 * DEL are written \u00xx; everything else (UTF-8 too) is copied. */
size_t swx_json_escape(char *out, const char *s, size_t n);

/* Writes finite v as the shortest of %.15g, %.16g and %.17g that reads back as
 * the same double, and a NUL, into out (SWX_DOUBLE_TEXT_MAX bytes); returns its
 * length. */
size_t swx_double_shortest(char out[SWX_DOUBLE_TEXT_MAX], double v);

#endif
