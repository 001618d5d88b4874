/* fuzz_fleet.c: the fleet file users write (seawx/fleet.h). Route files
 * are looked up in a folder that does not exist, so only inline routes
 * parse. A parsed fleet has a bundle, 1 to SWX_FLEET_MAX_SHIPS ships with
 * distinct valid names, each with 1 to SWX_PACKAGE_MAX_LAYERS layers whose
 * zooms and format are set, and a voyage. */
#include "fuzz.h"

#include "seawx/fleet.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    swx_fleet *f = NULL;
    if (swx_fleet_parse(&f, (const char *)data, size, "/nonexistent-fleet-routes") != 0) {
        if (f)
            abort();
        return 0;
    }
    size_t n = swx_fleet_ship_count(f);
    if (!swx_fleet_bundle(f)[0] || n < 1 || n > SWX_FLEET_MAX_SHIPS ||
        (swx_fleet_tile_size(f) != 256 && swx_fleet_tile_size(f) != 512))
        abort();
    for (size_t i = 0; i < n; i++) {
        const swx_fleet_ship *s = swx_fleet_ship_at(f, i);
        if (!s->voyage || !s->name[0] || s->name[0] == '.' || strchr(s->name, '/') ||
            s->nlayers < 1 || s->nlayers > SWX_PACKAGE_MAX_LAYERS)
            abort();
        for (size_t j = 0; j < i; j++)
            if (strcmp(swx_fleet_ship_at(f, j)->name, s->name) == 0)
                abort();
        for (size_t l = 0; l < s->nlayers; l++)
            if (!s->layers[l].zooms || !swx_tile_format_get(s->layers[l].format))
                abort();
    }
    swx_fleet_free(f);
    return 0;
}
