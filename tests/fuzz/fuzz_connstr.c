/* fuzz_connstr.c: connection strings parse, and what is formatted parses again
 * to the same items. */
#include "fuzz.h"

#include "seawx/connstr.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    swx_connstr *cs = NULL, *back = NULL;
    if (swx_connstr_parse(&cs, s) == 0) {
        char *f = swx_connstr_format(cs);
        if (f) {
            if (swx_connstr_parse(&back, f) != 0 ||
                swx_connstr_count(back) != swx_connstr_count(cs))
                abort(); /* formatting must round-trip */
            for (size_t i = 0; i < swx_connstr_count(cs); i++)
                if (strcmp(swx_connstr_value(cs, i), swx_connstr_value(back, i)) != 0)
                    abort();
            free(f);
        }
    }
    swx_connstr_free(back);
    swx_connstr_free(cs);
    free(s);
    return 0;
}
