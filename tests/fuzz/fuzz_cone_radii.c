/* fuzz_cone_radii.c: --cone-radii and --danger-errors texts parse or fail
 * with one line and leave the settings as they were; what parses gives
 * radii that are finite, within the limit and never shrink with lead time. */
#include "fuzz.h"

#include "seawx/error.h"
#include "seawx/storm_danger.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const basins[] = {"NA", "SA", "EP", "WP", "NI", "SI", "SP", "CP", "XX"};

/* Radii are linear between the tabled leads (12 ... 120 h) and held after:
 * non-decreasing at the knots and finite between them is the whole check. */
static const int leads[] = {0, 6, 12, 24, 36, 48, 54, 60, 72, 84, 96, 120, 150};

static void check_radii(const swx_storm_danger *d)
{
    for (size_t b = 0; b < sizeof basins / sizeof basins[0]; b++)
        for (int64_t season = 1990; season <= 2030; season += 20) {
            double prev = 0;
            for (size_t k = 0; k < sizeof leads / sizeof leads[0]; k++) {
                double r = swx_storm_cone_radius(d, basins[b], season, leads[k]);
                if (!isfinite(r) || r < prev || r > SWX_DANGER_MAX_NM)
                    abort();
                prev = r;
            }
        }
    double e = swx_storm_danger_error(d, 100);
    if (!isfinite(e) || e < 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    swx_storm_danger *d = NULL;
    if (!text || swx_storm_danger_new(&d) != 0) {
        free(text);
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    double before = swx_storm_cone_radius(d, "NA", 2024, 60);
    if (swx_storm_danger_set_cone(d, text) != 0) {
        const char *msg = swx_error_last();
        if (!msg || !*msg || strchr(msg, '\n') ||
            swx_storm_cone_radius(d, "NA", 2024, 60) != before)
            abort();
    }
    if (swx_storm_danger_set_errors(d, text) != 0 && strchr(swx_error_last(), '\n'))
        abort();
    check_radii(d);
    swx_storm_danger_free(d);
    free(text);
    return 0;
}
