/* number.c: numbers as people type them, decimal only (seawx/number.h). */
#include "seawx/number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Longest number read: digits beyond a double's 17 significant ones change
 * nothing, and no one types a threshold of 64 characters. */
#define MAX_NUMBER 64

static size_t digits(const char *s)
{
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n;
}

int swx_number_scan(double *out, const char *s, const char **end)
{
    if (end)
        *end = s;
    if (!s)
        return -1;
    size_t n = 0;
    if (s[n] == '+' || s[n] == '-')
        n++;
    size_t whole = digits(s + n), frac = 0;
    n += whole;
    if (s[n] == '.') {
        frac = digits(s + n + 1);
        n += 1 + frac;
    }
    if (whole + frac == 0)
        return -1;
    if (s[n] == 'e' || s[n] == 'E') {
        size_t k = n + 1;
        if (s[k] == '+' || s[k] == '-')
            k++;
        size_t ex = digits(s + k);
        if (ex)
            n = k + ex; /* else "5e" is 5 followed by "e": the caller's */
    }
    char buf[MAX_NUMBER + 1];
    if (n > MAX_NUMBER)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *stop;
    errno = 0;
    double v = strtod(buf, &stop);
    if (*stop || !isfinite(v) || (errno == ERANGE && fabs(v) > 1))
        return -1;
    *out = v;
    if (end)
        *end = s + n;
    return 0;
}

int swx_number_parse(double *out, const char *s)
{
    const char *end;
    double v;
    if (swx_number_scan(&v, s, &end) || *end)
        return -1;
    *out = v;
    return 0;
}
