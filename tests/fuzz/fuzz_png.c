/* fuzz_png.c: PNG check and decode under small limits. */
#include "fuzz.h"

#include "seawx/png.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int w, h, empty;
    uint8_t *rgba = NULL;
    swx_png_check(data, size, &w, &h, &empty);
    if (swx_png_decode_rgba(data, size, 1024, 1024, &rgba, &w, &h) == 0)
        free(rgba);
    return 0;
}
