/* fuzz_kml.c: the storm KML reader (the document inside a storm KMZ). */
#include "fuzz.h"

#include "kmz_priv.h"
#include "seawx/kmz.h"
#include "seawx/storm.h"

static int on_storm(void *ud, const swx_storm *s)
{
    (void)ud;
    return s->atcf_id ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    swx_kml_parse_storms((const char *)data, size, on_storm, NULL);
    return 0;
}
