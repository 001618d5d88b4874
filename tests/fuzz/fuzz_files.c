/* fuzz_files.c: file listings parse or fail cleanly, names are never trusted. */
#include "fuzz.h"

#include "files_int.h"
#include "seawx/files.h"
#include "seawx/table.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    swx_table *t = NULL;
    if (swx_files_parse(&t, (const char *)data, size) == 0) {
        long c = swx_table_find_column(t, "name");
        for (size_t r = 0; r < swx_table_rows(t); r++)
            if (swx_files_check_id(swx_table_get_string(t, r, (size_t)c)) != 0)
                abort(); /* the listing let through a name a download would refuse */
    }
    swx_table_free(t);
    return 0;
}
