/* fuzz_area.c: the CLI's area inputs: GeoJSON polygons, routes (GeoJSON or
 * CSV waypoints) and bbox text; a few tiles are asked of each area. */
#include "fuzz.h"

#include "area.h"
#include "seawx/tiles.h"

#include <stdlib.h>
#include <string.h>

static void probe(swx_area *a)
{
    uint64_t n;
    for (int z = 0; z <= 3; z++)
        swx_area_count(&n, a, z);
    swx_area_has_tile(a, 2, 1, 1);
    swx_area_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    swx_area *a = NULL;
    if (swx_area_from_geojson_polygons(&a, (const char *)data, size) == 0)
        probe(a);
    a = NULL;
    if (swx_area_from_route(&a, (const char *)data, size, 20000) == 0)
        probe(a);
    char *s = malloc(size + 1);
    if (s) {
        memcpy(s, data, size);
        s[size] = '\0';
        a = NULL;
        if (swx_area_from_bbox_text(&a, s) == 0)
            probe(a);
        free(s);
    }
    return 0;
}
