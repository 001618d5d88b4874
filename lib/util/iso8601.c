/* iso8601.c: instants and fixed-length durations. */
#include "seawx/iso8601.h"

#include "seawx/error.h"

#include <stdio.h>
#include <string.h>

/* Howard Hinnant's civil-from-days algorithms, valid for every int year. */
int64_t swx_days_from_civil(int y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

void swx_civil_from_time(int *y, int *mo, int *d, int *h, int *mi, int *s, int64_t t)
{
    int64_t days = t / 86400;
    int64_t rem = t % 86400;
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    days += 719468;
    const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const unsigned doe = (unsigned)(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned dd = doy - (153 * mp + 2) / 5 + 1;
    const unsigned mm = mp < 10 ? mp + 3 : mp - 9;
    *y = (int)(yoe + era * 400 + (mm <= 2));
    *mo = (int)mm;
    *d = (int)dd;
    *h = (int)(rem / 3600);
    *mi = (int)(rem / 60 % 60);
    *s = (int)(rem % 60);
}

static int digits(const char *s, size_t n, size_t at, size_t count, int *out)
{
    int v = 0;
    if (at + count > n)
        return -1;
    for (size_t i = 0; i < count; i++) {
        char c = s[at + i];
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    *out = v;
    return 0;
}

static int bad_instant(const char *s, size_t n)
{
    return swx_error_set(SWX_EINVAL,
                         "'%.*s' is not an ISO 8601 time (expected YYYY-MM-DDTHH:MM:SSZ)",
                         (int)(n > 64 ? 64 : n), s);
}

static int days_in_month(int y, int m)
{
    static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 ? 28 + leap : dm[m - 1];
}

int swx_iso8601_parse_n(int64_t *out, const char *s, size_t n)
{
    int y, mo, d, h = 0, mi = 0, sec = 0;
    size_t i = 0;
    if (digits(s, n, 0, 4, &y) || n < 10 || s[4] != '-' || digits(s, n, 5, 2, &mo) || s[7] != '-' ||
        digits(s, n, 8, 2, &d))
        return bad_instant(s, n);
    i = 10;
    if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
        return bad_instant(s, n);
    if (i < n && (s[i] == 'T' || s[i] == 't')) {
        i++;
        if (digits(s, n, i, 2, &h))
            return bad_instant(s, n);
        i += 2;
        if (i < n && s[i] == ':') {
            if (digits(s, n, i + 1, 2, &mi))
                return bad_instant(s, n);
            i += 3;
            if (i < n && s[i] == ':') {
                if (digits(s, n, i + 1, 2, &sec))
                    return bad_instant(s, n);
                i += 3;
                if (i < n && (s[i] == '.' || s[i] == ',')) {
                    i++;
                    size_t start = i;
                    while (i < n && s[i] >= '0' && s[i] <= '9')
                        i++;
                    if (i == start)
                        return bad_instant(s, n);
                }
            }
        }
        if (h > 24 || mi > 59 || sec > 60 || (h == 24 && (mi || sec)))
            return bad_instant(s, n);
        if (sec == 60)
            sec = 59; /* a leap second is read as the second before it */
    }
    int64_t offset = 0;
    if (i < n && (s[i] == 'Z' || s[i] == 'z')) {
        i++;
    } else if (i < n && (s[i] == '+' || s[i] == '-')) {
        int sign = s[i] == '-' ? -1 : 1, oh, om = 0;
        i++;
        if (digits(s, n, i, 2, &oh))
            return bad_instant(s, n);
        i += 2;
        if (i < n && s[i] == ':') {
            if (digits(s, n, i + 1, 2, &om))
                return bad_instant(s, n);
            i += 3;
        } else if (i < n && !digits(s, n, i, 2, &om)) {
            i += 2;
        }
        if (oh > 23 || om > 59)
            return bad_instant(s, n);
        offset = sign * (oh * 3600 + om * 60);
    }
    if (i != n)
        return bad_instant(s, n);
    *out = swx_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + sec -
           offset;
    return 0;
}

int swx_iso8601_parse(int64_t *out, const char *s)
{
    return swx_iso8601_parse_n(out, s, strlen(s));
}

void swx_iso8601_format(char out[SWX_ISO8601_LEN], int64_t t)
{
    int y, mo, d, h, mi, s;
    swx_civil_from_time(&y, &mo, &d, &h, &mi, &s, t);
    if (y < 0 || y > 9999) {
        snprintf(out, SWX_ISO8601_LEN, "%s", "0000-00-00T00:00:00Z");
        return;
    }
    snprintf(out, SWX_ISO8601_LEN, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, d, h, mi, s);
}

int swx_iso8601_duration_parse_n(int64_t *seconds, const char *s, size_t n)
{
    size_t i = 0;
    int in_time = 0, any = 0;
    int64_t total = 0;
    if (n < 2 || (s[0] != 'P' && s[0] != 'p'))
        goto bad;
    i = 1;
    while (i < n) {
        if (s[i] == 'T' || s[i] == 't') {
            if (in_time)
                goto bad;
            in_time = 1;
            i++;
            continue;
        }
        int64_t v = 0;
        size_t start = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (v > 100000000)
                goto bad;
            v = v * 10 + (s[i] - '0');
            i++;
        }
        if (i == start || i >= n)
            goto bad;
        char u = s[i++];
        if (!in_time && (u == 'Y' || u == 'M'))
            return swx_error_set(SWX_EINVAL,
                                 "duration '%.*s' uses years or months, which have no fixed "
                                 "length; use days or hours",
                                 (int)(n > 64 ? 64 : n), s);
        if (!in_time && u == 'W')
            total += v * 7 * 86400;
        else if (!in_time && u == 'D')
            total += v * 86400;
        else if (in_time && u == 'H')
            total += v * 3600;
        else if (in_time && u == 'M')
            total += v * 60;
        else if (in_time && u == 'S')
            total += v;
        else
            goto bad;
        any = 1;
    }
    if (!any || total <= 0)
        goto bad;
    *seconds = total;
    return 0;
bad:
    return swx_error_set(SWX_EINVAL, "'%.*s' is not an ISO 8601 duration (expected e.g. PT1H)",
                         (int)(n > 64 ? 64 : n), s);
}
