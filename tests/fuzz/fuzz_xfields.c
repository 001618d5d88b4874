/* fuzz_xfields.c: field masks are checked without crashing; a mask that
 * checks can be asked about any path. */
#include "fuzz.h"

#include "xfields.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    if (swx_xfields_check(s) == 0) {
        const char *path[] = {"data", "values", "air_temperature"};
        for (int n = 0; n <= 3; n++)
            swx_xfields_selects(s, path, n);
    }
    free(s);
    return 0;
}
