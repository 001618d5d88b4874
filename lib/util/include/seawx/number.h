/*
 * seawx/number.h: numbers as people type them, decimal only.
 *
 * strtod also reads leading blanks, hexadecimal ("0x20" is 32, "0x1p3" is 8),
 * "inf", "infinity" and "nan": none of them is a number a user means in a
 * threshold, a size or a box. Every number seawx reads from what people type
 * goes through here.
 */
#ifndef SEAWX_NUMBER_H
#define SEAWX_NUMBER_H

#include "seawx/visibility.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the decimal number at the start of s: an optional sign, digits with
 * an optional point (at least one digit), an optional exponent (e or E, an
 * optional sign, digits). On success returns 0, *out the value (finite) and
 * *end (may be NULL) just past it; else -1 with *end = s and *out unchanged
 * (no number there, or one out of a double's range). Whatever follows is
 * the caller's: "0x20kn" reads 0 and leaves "x20kn". */
SWX_API int swx_number_scan(double *out, const char *s, const char **end);

/* The same for a whole text: 0 when s is a decimal number and nothing else. */
SWX_API int swx_number_parse(double *out, const char *s);

#ifdef __cplusplus
}
#endif
#endif
