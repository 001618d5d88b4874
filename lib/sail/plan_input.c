/* plan_input.c: what a user types for a plan (seawx/plan.h): the departures
 * and thresholds with their units, read once here for every front end. */
#include "seawx/plan.h"

#include "seawx/error.h"
#include "seawx/iso8601.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KMH_KN (1000.0 / 1852.0)   /* one km/h in knots */
#define MPS_KN (3600.0 / 1852.0)   /* one m/s in knots */
#define MPH_KN (1609.344 / 1852.0) /* one mph in knots */
#define FT_M 0.3048

/* A step: "6h", "90m", "1d", "30s" or an ISO 8601 duration ("PT6H"). */
static int step_parse(int64_t *out, const char *s, size_t n)
{
    if (n && (s[0] == 'P' || s[0] == 'p'))
        return swx_iso8601_duration_parse_n(out, s, n) ? -1 : 0;
    char buf[32], *e;
    if (n == 0 || n >= sizeof buf || !isdigit((unsigned char)s[0]))
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    errno = 0;
    double v = strtod(buf, &e);
    if (errno || e == buf || !isfinite(v))
        return -1;
    double unit = 0;
    if (!strcmp(e, "s"))
        unit = 1;
    else if (!strcmp(e, "m") || !strcmp(e, "min"))
        unit = 60;
    else if (!strcmp(e, "h"))
        unit = 3600;
    else if (!strcmp(e, "d"))
        unit = 86400;
    if (!unit || v * unit > 366.0 * 86400 || v * unit < 1)
        return -1;
    *out = (int64_t)llround(v * unit);
    return 0;
}

int swx_plan_departures_parse(int64_t *from, int64_t *to, int64_t *step, const char *text)
{
    const char *a, *b;
    if (!text || !(a = strchr(text, '/')) || !(b = strchr(a + 1, '/')) || strchr(b + 1, '/'))
        return swx_error_set(SWX_EINVAL,
                             "departures '%.80s' are not FROM/TO/STEP "
                             "(2026-03-01T06:00Z/2026-03-08T06:00Z/6h)",
                             text ? text : "");
    if (swx_iso8601_parse_n(from, text, (size_t)(a - text)))
        return swx_error_set(SWX_EINVAL, "departures: '%.*s' is not an ISO 8601 instant",
                             (int)((a - text) > 40 ? 40 : (a - text)), text);
    if (swx_iso8601_parse_n(to, a + 1, (size_t)(b - a - 1)))
        return swx_error_set(SWX_EINVAL, "departures: '%.*s' is not an ISO 8601 instant",
                             (int)((b - a - 1) > 40 ? 40 : (b - a - 1)), a + 1);
    if (step_parse(step, b + 1, strlen(b + 1)))
        return swx_error_set(SWX_EINVAL,
                             "departures: the step '%.20s' is not a duration above zero "
                             "(6h, 90m, 1d, PT6H; at most a year)",
                             b + 1);
    if (*from > *to)
        return swx_error_set(SWX_EINVAL, "departures: FROM is after TO");
    if ((*to - *from) / *step + 1 > SWX_PLAN_MAX_DEPARTURES)
        return swx_error_set(SWX_EINVAL,
                             "departures: %lld departures, more than the %d a plan takes: "
                             "a shorter span or a longer step",
                             (long long)((*to - *from) / *step + 1), SWX_PLAN_MAX_DEPARTURES);
    return 0;
}

int swx_plan_threshold_parse(double *out, const char *text, int kind)
{
    static const struct {
        const char *unit;
        int kind;
        double factor;
    } units[] = {{"kn", 's', 1},       {"kt", 's', 1}, {"m/s", 's', MPS_KN}, {"km/h", 's', KMH_KN},
                 {"mph", 's', MPH_KN}, {"m", 'h', 1},  {"ft", 'h', FT_M}};
    char *e;
    const char *want = kind == 's' ? "kn, m/s, km/h or mph" : "m or ft";
    if (!text || !*text || !(isdigit((unsigned char)text[0]) || text[0] == '.'))
        return swx_error_set(SWX_EINVAL, "'%.40s' is not a number with its unit (%s)",
                             text ? text : "", want);
    errno = 0;
    double v = strtod(text, &e);
    if (errno || e == text || !isfinite(v) || v <= 0)
        return swx_error_set(SWX_EINVAL, "'%.40s' is not a number above zero with its unit (%s)",
                             text, want);
    while (*e == ' ')
        e++;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (units[i].kind == kind && !strcmp(e, units[i].unit)) {
            *out = v * units[i].factor;
            return 0;
        }
    }
    return swx_error_set(SWX_EINVAL, "'%.40s' needs its unit: %s", text, want);
}
