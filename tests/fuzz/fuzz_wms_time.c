/* fuzz_wms_time.c: time-dimension text; the first line is the default attribute. */
#include "fuzz.h"

#include "seawx/wms_time.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char def[64] = "";
    const uint8_t *nl = memchr(data, '\n', size < 64 ? size : 64);
    size_t skip = 0;
    if (nl) {
        memcpy(def, data, (size_t)(nl - data));
        def[nl - data] = '\0';
        skip = (size_t)(nl - data) + 1;
    }
    swx_timedim *d = NULL;
    if (swx_timedim_parse(&d, (const char *)data + skip, size - skip, def) != 0)
        return 0;
    size_t n = swx_timedim_count(d);
    if (n) {
        int64_t first = swx_timedim_first(d), last = swx_timedim_last(d);
        swx_timedim_get(d, n / 2);
        swx_timedim_contains(d, first + (last - first) / 2);
        swx_timedim_lower_bound(d, last);
        int64_t near[4];
        swx_timedim_nearest(d, first - 1, near, 4);
    }
    swx_timedim_free(d);
    return 0;
}
