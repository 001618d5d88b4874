/* timestamp.h: UTC instants as seconds since 1970-01-01T00:00:00Z (int64_t),
 * ISO 8601 and HTTP-date text forms. No time zone database and no locale: the
 * service speaks UTC only.
 *
 * Day arithmetic and the "YYYY-MM-DDTHH:MM:SSZ" form are util's
 * (seawx/iso8601.h: swx_days_from_civil, swx_civil_from_time,
 * swx_iso8601_format). Reading an instant stays the stand-in's own, with the
 * service's stricter grammar, so that it checks what the client sends rather
 * than agreeing with the client's reader. */
#ifndef SIM_TIMESTAMP_H
#define SIM_TIMESTAMP_H

#include "seawx/iso8601.h"

#include <stdint.h>

/* "Sun, 06 Nov 1994 08:49:37 GMT" plus NUL */
#define SIM_HTTPDATE_LEN 30

/* Parses YYYY-MM-DDTHH:MM[:SS[.fraction]] followed by Z, +HH:MM, -HH:MM, +HHMM,
 * +HH or nothing (UTC is meant). A fraction must be all zeros: instants of the
 * service are whole seconds. Returns 0, or -1 if s is not such a timestamp. */
int sim_ts_parse(const char *s, int64_t *out);
/* YYYYMMDD and HH of the run segments of a layer name. */
void sim_ts_format_date(int64_t t, char out[9]);
void sim_ts_format_http(int64_t t, char out[SIM_HTTPDATE_LEN]);

#endif
