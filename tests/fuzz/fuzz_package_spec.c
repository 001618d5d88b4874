/* fuzz_package_spec.c: what users type for voyage packages: a layer spec
 * (VAR[:style=S][:zoom=Z][:format=F][:quality=Q]) and a size. A parsed spec
 * has a variable, zooms within the tile grid and a known format. */
#include "fuzz.h"

#include "seawx/package.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    swx_package_layer l;
    if (swx_package_layer_parse(&l, s) == 0) {
        if (!l.variable[0] || (l.zooms >> (SWX_TILE_MAX_ZOOM + 1)) ||
            (l.format >= 0 && !swx_tile_format_get(l.format)) || l.quality > 100 ||
            strlen(l.style) >= sizeof l.style)
            abort();
    }
    uint64_t n;
    if (swx_size_parse(&n, s) == 0 && n == 0)
        abort();
    free(s);
    return 0;
}
