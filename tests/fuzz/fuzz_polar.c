/* fuzz_polar.c: sailing polars, the text a user hands `seawx plan --polar`:
 * a table is read or refused with one line; a table that reads gives a
 * finite boat speed of 0 to 100 kn at any wind, and none below the first
 * angle; the departures and thresholds the same command reads are refused
 * with a line or read within their rules. */
#include "fuzz.h"

#include "seawx/error.h"
#include "seawx/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    swx_polar *p = NULL;
    int rc = swx_polar_parse(&p, (const char *)data, size);
    if (rc == 0) {
        if (!p)
            abort();
        static const double tws[] = {0, 0.5, 3, 6, 10, 14.3, 20, 35, 60, 250};
        static const double twa[] = {-720, -30, 0, 1, 37.5, 52, 90, 135, 179.9, 180, 181, 400};
        for (size_t i = 0; i < sizeof tws / sizeof tws[0]; i++)
            for (size_t k = 0; k < sizeof twa / sizeof twa[0]; k++) {
                double v = swx_polar_speed(p, tws[i], twa[k]);
                if (!isfinite(v) || v < 0 || v > 100)
                    abort();
            }
        if (!isnan(swx_polar_speed(p, NAN, 90)))
            abort();
    } else if (p || strlen(swx_error_last()) == 0 || strchr(swx_error_last(), '\n')) {
        abort(); /* a refusal is one line, and leaves nothing */
    }
    swx_polar_free(p);

    /* The same bytes as the command line's other inputs. */
    char buf[256];
    size_t n = size < sizeof buf - 1 ? size : sizeof buf - 1;
    memcpy(buf, data, n);
    buf[n] = 0;
    int64_t from, to, step;
    if (swx_plan_departures_parse(&from, &to, &step, buf) == 0 &&
        (step <= 0 || from > to || (to - from) / step + 1 > SWX_PLAN_MAX_DEPARTURES))
        abort();
    double th;
    if (swx_plan_threshold_parse(&th, buf, 's') == 0 && !(th > 0 && isfinite(th)))
        abort();
    if (swx_plan_threshold_parse(&th, buf, 'h') == 0 && !(th > 0 && isfinite(th)))
        abort();
    return 0;
}
