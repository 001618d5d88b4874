/* fuzz_iso8601.c: instants and durations; a parsed instant formats and parses
 * back to itself. */
#include "fuzz.h"

#include "seawx/iso8601.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int64_t t, back, d;
    if (swx_iso8601_parse_n(&t, (const char *)data, size) == 0) {
        char s[SWX_ISO8601_LEN];
        swx_iso8601_format(s, t);
        if (t >= 0 && t < 253402300800LL && (swx_iso8601_parse(&back, s) != 0 || back != t))
            abort();
    }
    swx_iso8601_duration_parse_n(&d, (const char *)data, size);
    return 0;
}
