/* fuzz_vessels.c: vessel pages parse or fail cleanly, whatever their shape. */
#include "fuzz.h"

#include "seawx/table.h"
#include "seawx/vessels.h"
#include "vessels_int.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    swx_table *t = NULL;
    char *next = NULL;
    long long total;
    if (swx_vessels_table_new(&t, NULL) != 0)
        return 0;
    swx_vessels_parse_page(&next, &total, t, (const char *)data, size);
    free(next);
    swx_table_free(t);
    return 0;
}
