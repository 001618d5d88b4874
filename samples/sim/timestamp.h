/* timestamp.h: UTC instants as seconds since 1970-01-01T00:00:00Z (int64_t),
 * ISO 8601 and HTTP-date text forms. No time zone database and no locale: the
 * service speaks UTC only. */
#ifndef SIM_TIMESTAMP_H
#define SIM_TIMESTAMP_H

#include <stdint.h>

/* "YYYY-MM-DDTHH:MM:SSZ" plus NUL */
#define SIM_TS_LEN 21
/* "Sun, 06 Nov 1994 08:49:37 GMT" plus NUL */
#define SIM_HTTPDATE_LEN 30

/* Days since 1970-01-01 of a proleptic Gregorian date, and back. */
int64_t sim_days_from_civil(int64_t y, unsigned m, unsigned d);
void sim_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d);

/* Parses YYYY-MM-DDTHH:MM[:SS[.fraction]] followed by Z, +HH:MM, -HH:MM, +HHMM,
 * +HH or nothing (UTC is meant). A fraction must be all zeros: instants of the
 * service are whole seconds. Returns 0, or -1 if s is not such a timestamp. */
int sim_ts_parse(const char *s, int64_t *out);
void sim_ts_format(int64_t t, char out[SIM_TS_LEN]);
/* YYYYMMDD and HH of the run segments of a layer name. */
void sim_ts_format_date(int64_t t, char out[9]);
void sim_ts_format_http(int64_t t, char out[SIM_HTTPDATE_LEN]);

#endif
