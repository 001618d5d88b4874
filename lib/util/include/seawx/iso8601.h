/*
 * seawx/iso8601.h: the time stamps and durations of the service.
 *
 * The service writes instants as "...Z", "...+00:00" or with no offset at all
 * (UTC is meant); all three are read, and seawx always writes the "Z" form.
 */
#ifndef SEAWX_ISO8601_H
#define SEAWX_ISO8601_H

#include "seawx/visibility.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for "YYYY-MM-DDTHH:MM:SSZ" and its NUL. */
#define SWX_ISO8601_LEN 21

/* Parses an instant: YYYY-MM-DD, optionally followed by THH, THH:MM or THH:MM:SS,
 * optional fraction of a second (dropped), then Z, +HH:MM, +HHMM, +HH or nothing
 * (UTC). Writes seconds since 1970-01-01T00:00:00Z. Leading/trailing blanks are an
 * error. Returns 0 or SWX_EINVAL with a message naming the text. */
SWX_API int swx_iso8601_parse(int64_t *out, const char *s);

/* Like swx_iso8601_parse for the first n bytes of s only. */
SWX_API int swx_iso8601_parse_n(int64_t *out, const char *s, size_t n);

/* Writes t as "YYYY-MM-DDTHH:MM:SSZ" into out (SWX_ISO8601_LEN bytes). */
SWX_API void swx_iso8601_format(char out[SWX_ISO8601_LEN], int64_t t);

/* Parses a duration of fixed length: PnW, or PnDTnHnMnS with any parts present
 * (P1D, PT3H, PT30M, P1DT12H, PT0.5H is refused). Years and months have no fixed
 * length and are refused with SWX_EINVAL. Writes the length in seconds (> 0). */
SWX_API int swx_iso8601_duration_parse_n(int64_t *seconds, const char *s, size_t n);

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
SWX_API int64_t swx_days_from_civil(int y, unsigned m, unsigned d);

/* The civil date and time of t, in UTC. */
SWX_API void swx_civil_from_time(int *y, int *mo, int *d, int *h, int *mi, int *s, int64_t t);

#ifdef __cplusplus
}
#endif
#endif
