/* timestamp.c: UTC instants and their text forms (see timestamp.h). */
#include "timestamp.h"

#include <stdio.h>
#include <string.h>

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
    *out = swx_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + sec -
           sign * (oh * 3600 + om * 60);
    return 0;
}

/* Years outside 0..9999 are written modulo 10000: the formats have 4 digits. */
static unsigned year4(int y)
{
    return (unsigned)(((y % 10000) + 10000) % 10000);
}

void sim_ts_format_date(int64_t t, char out[9])
{
    int y, mo, d, h, mi, s;
    char tmp[32];

    swx_civil_from_time(&y, &mo, &d, &h, &mi, &s, t);
    snprintf(tmp, sizeof(tmp), "%04u%02d%02d", year4(y), mo, d);
    memcpy(out, tmp, 8);
    out[8] = '\0';
}

void sim_ts_format_http(int64_t t, char out[SIM_HTTPDATE_LEN])
{
    static const char *const wday[7] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
    static const char *const mon[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    int y, mo, d, h, mi, s;
    char tmp[80];

    swx_civil_from_time(&y, &mo, &d, &h, &mi, &s, t);
    int64_t days = swx_days_from_civil(y, (unsigned)mo, (unsigned)d);
    snprintf(tmp, sizeof(tmp), "%s, %02d %s %04u %02d:%02d:%02d GMT", wday[((days % 7) + 7) % 7], d,
             mon[mo - 1], year4(y), h, mi, s);
    memcpy(out, tmp, SIM_HTTPDATE_LEN - 1);
    out[SIM_HTTPDATE_LEN - 1] = '\0';
}
