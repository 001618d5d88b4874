/* fuzz_png.c: PNG check and decode under small limits, and the check's direct
 * path for 8-bit RGBA held to libpng: whatever it accepts, libpng must accept
 * too, with the same size and the same verdict on transparency. */
#include "fuzz.h"

#include "png_priv.h"
#include "png_codec.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int w, h, empty;
    uint8_t *rgba = NULL;
    if (swx_png_check(&w, &h, &empty, data, size) == 0) {
        int lw, lh, lempty;
        if (swx_png_check_libpng(&lw, &lh, &lempty, data, size) != 0 || lw != w || lh != h ||
            lempty != empty)
            abort(); /* the direct path accepted what libpng refuses, or read it otherwise */
    }
    if (swx_png_decode_rgba(&rgba, &w, &h, data, size, 1024, 1024) == 0)
        free(rgba);
    return 0;
}
