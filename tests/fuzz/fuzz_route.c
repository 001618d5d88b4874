/* fuzz_route.c: route files with and without waypoint times: what reads as
 * a route is checked against its invariants, and what reads as a voyage has
 * its stretches and areas asked for a few valid times. */
#include "fuzz.h"

#include "route.h"
#include "seawx/voyage.h"

#include <stdlib.h>

static void probe(swx_voyage *v)
{
    static const int64_t times[] = {0, 1700000000, 1700003600, 1700010800, 1900000000};
    const size_t n = sizeof times / sizeof times[0];
    if (!swx_voyage_timed(v) && swx_voyage_set_speed(v, 1700000000, 6, 8))
        abort();
    for (size_t i = 0; i < n; i++) {
        double from, to;
        int rc = swx_voyage_stretch(&from, &to, v, times, n, i);
        if (rc == 1 && !(from >= 0 && from <= to && to <= swx_voyage_length(v)))
            abort();
        if (rc == 1 && i % 2) {
            swx_area *a = NULL;
            uint64_t count;
            if (swx_voyage_area(&a, v, times, n, i, 20000) == 0 && a)
                swx_area_count(&count, a, 2);
            swx_area_free(a);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    swx_route *r = NULL;
    if (swx_route_read(&r, (const char *)data, size) == 0) {
        if (r->n == 0 || r->nlines == 0 || r->start[0] != 0)
            abort();
        for (size_t i = 1; r->t && i < r->n; i++)
            if (r->t[i] <= r->t[i - 1])
                abort();
        swx_route_free(r);
    }
    swx_voyage *v = NULL;
    if (swx_voyage_from_route(&v, (const char *)data, size) == 0)
        probe(v);
    swx_voyage_free(v);
    return 0;
}
