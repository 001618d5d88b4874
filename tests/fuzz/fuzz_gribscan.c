/* fuzz_gribscan.c: the GRIB2 section walker reads any bytes a storage host
 * may send: a head is read whole, asks for more bytes than it has but never
 * more than its message, or is refused with one line; the whole-message
 * check agrees with the walker. */
#include "fuzz.h"

#include "gribscan.h"
#include "seawx/error.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    swx_grib_head h;
    uint64_t need = 0;
    int rc = swx_grib_head_read(&h, &need, data, size, "fuzz");
    if (rc == 1 && need <= size)
        abort(); /* asked for bytes it already had */
    if (rc == 1 && size >= 16 && need > h.length)
        abort(); /* asked for more than the message */
    if (rc == 0 && (h.length < 41 || h.length > SWX_GRIB_MAX_MESSAGE))
        abort();
    if (rc < 0 && strlen(swx_error_last()) == 0)
        abort(); /* a refusal without its line */
    if (swx_grib_message_whole(data, size)) {
        /* A whole message's head is read from the whole message. */
        rc = swx_grib_head_read(&h, &need, data, size, "fuzz");
        if (rc == 1 || (rc == 0 && h.length != size))
            abort();
    }
    /* Every prefix of a head that reads is either enough or asks for more. */
    if (rc == 0 && size > 0) {
        swx_grib_head p;
        uint64_t n2;
        int r2 = swx_grib_head_read(&p, &n2, data, size / 2, "fuzz");
        if (r2 < 0 && size / 2 >= 16)
            abort(); /* a good head refused when cut short */
    }
    return 0;
}
