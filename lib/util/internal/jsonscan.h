/*
 * jsonscan.h: a pull parser for one JSON text held in memory (internal).
 *
 * For documents that are many small objects read once, where building a
 * json-c tree per object costs more than everything done with it (the storm
 * archive: tens of megabytes of track positions). The caller walks the text
 * value by value, asking for what it expects, and skips what it does not
 * know; nothing is allocated per value.
 *
 * Grammar: RFC 8259, strictly: no comments, single quotes, trailing commas,
 * NaN or Infinity, leading zeros. Two things are taken as json-c took them:
 * bytes below 0x20 inside strings, and bytes that are not UTF-8 (neither is
 * checked). A \u escape of a lone surrogate decodes to U+FFFD.
 *
 * Bounds: nesting deeper than SWX_JSONSCAN_DEPTH is an error; a decoded
 * string or a copied number lives in one scratch buffer that never grows past
 * the length of the text.
 *
 * Errors: the first syntax error stops the scan. Every later call fails too,
 * and swx_jsonscan_error() describes it ("',' or '}' expected, found ':'")
 * with its byte offset in the text. The scanner never sets swx_error: the
 * caller words the line (it knows which document it reads). An allocation
 * that fails stops the scan the same way, with nomem set.
 *
 * Use:
 *   swx_jsonscan_reset(&js, text, len);
 *   if (swx_jsonscan_peek(&js) != SWX_JSONSCAN_OBJECT || swx_jsonscan_enter(&js)) ...
 *   while ((more = swx_jsonscan_member(&js, &key)) == 1)
 *       ... read or skip the member's value ...
 *   if (more < 0 || swx_jsonscan_end(&js)) ... syntax error ...
 */
#ifndef SWX_JSONSCAN_H
#define SWX_JSONSCAN_H

#include <stddef.h>
#include <stdint.h>

#define SWX_JSONSCAN_DEPTH 64

typedef enum swx_jsonscan_type {
    SWX_JSONSCAN_ERROR = -1, /* a syntax error (now or before) */
    SWX_JSONSCAN_NONE = 0,   /* no value: the end of the text, or a closing bracket */
    SWX_JSONSCAN_NULL,
    SWX_JSONSCAN_BOOL,
    SWX_JSONSCAN_NUMBER,
    SWX_JSONSCAN_STRING,
    SWX_JSONSCAN_OBJECT,
    SWX_JSONSCAN_ARRAY
} swx_jsonscan_type;

/* A string's bytes, decoded; not NUL-terminated. Valid until the next call
 * that reads a string or a number. */
typedef struct swx_jsonscan_str {
    const char *s;
    size_t n;
} swx_jsonscan_str;

/* A number. d is the value correctly rounded (as strtod gives it). A number
 * without fraction or exponent is an integer: is_int is 1 and i holds it,
 * saturated to int64; d is then (double)i, or (double) of the value
 * saturated to uint64 when it is larger than INT64_MAX (as json-c reads it). */
typedef struct swx_jsonscan_num {
    double d;
    int64_t i;
    int is_int;
} swx_jsonscan_num;

typedef struct swx_jsonscan {
    const char *base, *p, *end;
    int depth;
    char kind[SWX_JSONSCAN_DEPTH + 1];    /* '{' or '[' of each open container */
    char started[SWX_JSONSCAN_DEPTH + 1]; /* a member or element was read at that depth */
    int failed;
    int nomem; /* the failure was an allocation, not the text */
    size_t err_at;
    char err[96];
    char *scratch; /* decoded strings, numbers for strtod */
    size_t scap;
} swx_jsonscan;

/* Starts a scan of len bytes of text. Keeps the scratch buffer of a previous
 * scan (zero the struct before the first reset). */
void swx_jsonscan_reset(swx_jsonscan *js, const char *text, size_t len);
/* Frees the scratch buffer. */
void swx_jsonscan_release(swx_jsonscan *js);

/* The type of the next value, after white space; consumes nothing.
 * NONE at the end of the text; ERROR (and a syntax error) at any byte that
 * cannot start a value, including a closing bracket. */
swx_jsonscan_type swx_jsonscan_peek(swx_jsonscan *js);
/* Consumes the '{' or '[' that peek saw. 0, or -1 when nested too deeply. */
int swx_jsonscan_enter(swx_jsonscan *js);
/* In an object: reads the next member's key and its ':' and returns 1; or
 * consumes the closing '}' and returns 0; -1 on a syntax error. */
int swx_jsonscan_member(swx_jsonscan *js, swx_jsonscan_str *key);
/* In an array: returns 1 before the next element, or consumes the closing
 * ']' and returns 0; -1 on a syntax error. */
int swx_jsonscan_element(swx_jsonscan *js);
/* Reads the value peek saw as ... 0 or -1. */
int swx_jsonscan_string(swx_jsonscan *js, swx_jsonscan_str *out);
int swx_jsonscan_number(swx_jsonscan *js, swx_jsonscan_num *out);
int swx_jsonscan_bool(swx_jsonscan *js, int *out);
int swx_jsonscan_null(swx_jsonscan *js);
/* Skips the next value, whatever it is, checking its syntax. 0 or -1. */
int swx_jsonscan_skip(swx_jsonscan *js);
/* Checks that only white space is left. 0 or -1. */
int swx_jsonscan_end(swx_jsonscan *js);

/* The first syntax error ("a value expected, found '}'") and its byte offset
 * in the text; NULL when there was none. */
const char *swx_jsonscan_error(const swx_jsonscan *js, size_t *at);

#endif
