/* fuzz_point.c: point answers of every kind parse or fail cleanly, and what
 * parses writes in every format. */
#include "fuzz.h"

#include "point_answer.h"
#include "seawx/point.h"
#include "seawx/table.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *null = fopen("/dev/null", "w");
    for (int k = SWX_POINT_SOIL; k <= SWX_POINT_FORECAST_LATEST; k++) {
        swx_point_query q = {.kind = (swx_point_kind)k, .lat = "1", .lon = "2"};
        if (k == SWX_POINT_SOIL_HISTORY || k == SWX_POINT_TIDE_EXTREMA) {
            q.start = "2024-01-01";
            q.end = "2024-01-02";
        }
        if (k == SWX_POINT_FORECAST || k == SWX_POINT_FORECAST_LATEST)
            q.bundles = "basic";
        swx_table *t = NULL;
        if (swx_point_parse(&t, &q, (const char *)data, size) == 0 && null) {
            swx_table_write(t, SWX_TABLE_CSV, null);
            swx_table_write(t, SWX_TABLE_GEOJSON, null);
            swx_table_write(t, SWX_TABLE_TEXT, null);
        }
        swx_table_free(t);
    }
    if (null)
        fclose(null);
    return 0;
}
