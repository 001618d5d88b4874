/* timestamp.c: UTC instants and their text forms (see timestamp.h). */
#include "timestamp.h"

#include <stdio.h>
#include <string.h>

/* Howard Hinnant's civil-from-days algorithm family, written from its description:
 * eras of 400 years (146097 days) starting on March 1st. */
int64_t sim_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    int64_t era, yoe, doy, doe;

    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (int64_t)(m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void sim_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d)
{
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    unsigned dd = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
    unsigned mm = (unsigned)(mp < 10 ? mp + 3 : mp - 9);

    *y = yoe + era * 400 + (mm <= 2);
    *m = mm;
    *d = dd;
}

/* Reads exactly n decimal digits. */
static int read_digits(const char **p, int n, int *out)
{
    int v = 0;

    for (int i = 0; i < n; i++) {
        char c = (*p)[i];
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    *p += n;
    *out = v;
    return 0;
}

static int days_in_month(int y, int m)
{
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

    return m == 2 ? 28 + leap : dim[m - 1];
}

int sim_ts_parse(const char *s, int64_t *out)
{
    const char *p = s;
    int y, mo, d, h, mi, sec = 0, oh = 0, om = 0, sign = 0;

    if (read_digits(&p, 4, &y) || *p++ != '-' || read_digits(&p, 2, &mo) || *p++ != '-' ||
        read_digits(&p, 2, &d) || (*p != 'T' && *p != 't'))
        return -1;
    p++;
    if (read_digits(&p, 2, &h) || *p++ != ':' || read_digits(&p, 2, &mi))
        return -1;
    if (*p == ':') {
        p++;
        if (read_digits(&p, 2, &sec))
            return -1;
        if (*p == '.' || *p == ',') {
            p++;
            if (*p < '0' || *p > '9')
                return -1;
            for (; *p >= '0' && *p <= '9'; p++)
                if (*p != '0')
                    return -1;
        }
    }
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        sign = *p == '-' ? -1 : 1;
        p++;
        if (read_digits(&p, 2, &oh))
            return -1;
        if (*p == ':')
            p++;
        if (*p != '\0' && read_digits(&p, 2, &om))
            return -1;
        if (oh > 23 || om > 59)
            return -1;
    }
    if (*p != '\0')
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 59)
        return -1;
    *out = sim_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + sec -
           sign * (oh * 3600 + om * 60);
    return 0;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;

    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static void split(int64_t t, int64_t *y, unsigned *mo, unsigned *d, unsigned *secs)
{
    int64_t days = floor_div(t, 86400);

    sim_civil_from_days(days, y, mo, d);
    *secs = (unsigned)(t - days * 86400);
}

/* Years outside 0..9999 are written modulo 10000: the formats have 4 digits. */
static unsigned year4(int64_t y)
{
    return (unsigned)(((y % 10000) + 10000) % 10000);
}

/* Formats into a roomy buffer first: the compiler cannot see that every field
 * has its 2 or 4 digits, and the output must not be cut silently. */
void sim_ts_format(int64_t t, char out[SIM_TS_LEN])
{
    int64_t y;
    unsigned mo, d, s;
    char tmp[64];

    split(t, &y, &mo, &d, &s);
    snprintf(tmp, sizeof(tmp), "%04u-%02u-%02uT%02u:%02u:%02uZ", year4(y), mo, d, s / 3600,
             s / 60 % 60, s % 60);
    memcpy(out, tmp, SIM_TS_LEN - 1);
    out[SIM_TS_LEN - 1] = '\0';
}

void sim_ts_format_date(int64_t t, char out[9])
{
    int64_t y;
    unsigned mo, d, s;
    char tmp[32];

    split(t, &y, &mo, &d, &s);
    snprintf(tmp, sizeof(tmp), "%04u%02u%02u", year4(y), mo, d);
    memcpy(out, tmp, 8);
    out[8] = '\0';
}

void sim_ts_format_http(int64_t t, char out[SIM_HTTPDATE_LEN])
{
    static const char *const wday[7] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
    static const char *const mon[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    int64_t y;
    unsigned mo, d, s;
    int64_t days = floor_div(t, 86400);

    char tmp[80];

    split(t, &y, &mo, &d, &s);
    snprintf(tmp, sizeof(tmp), "%s, %02u %s %04u %02u:%02u:%02u GMT", wday[((days % 7) + 7) % 7], d,
             mon[mo - 1], year4(y), s / 3600, s / 60 % 60, s % 60);
    memcpy(out, tmp, SIM_HTTPDATE_LEN - 1);
    out[SIM_HTTPDATE_LEN - 1] = '\0';
}
