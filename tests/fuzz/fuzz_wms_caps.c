/* fuzz_wms_caps.c: the capabilities parser and every accessor on its result. */
#include "fuzz.h"

#include "seawx/wms_caps.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    swx_caps *caps = NULL;
    if (swx_caps_parse(&caps, (const char *)data, size) != 0)
        return 0;
    for (size_t i = 0; i < swx_caps_layer_count(caps); i++) {
        const swx_layer *l = swx_caps_layer(caps, i);
        const swx_timedim *td = swx_layer_time(l);
        if (td && swx_timedim_count(td)) {
            swx_timedim_get(td, swx_timedim_count(td) - 1);
            swx_timedim_default(td);
        }
        const swx_layer *latest = NULL;
        swx_caps_latest(&latest, caps, swx_layer_variable(l), swx_layer_unit(l));
        swx_caps_run_is_complete(caps, l);
        int64_t t;
        swx_layer_run_time(&t, l);
        double w, s, e, n;
        swx_layer_geo_bbox(&w, &s, &e, &n, l);
        for (size_t k = 0; k < swx_layer_style_count(l); k++)
            (void)swx_layer_style(l, k)->name;
    }
    swx_caps_free(caps);
    return 0;
}
